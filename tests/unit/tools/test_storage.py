"""Storage sizing against published checkpoint and dataset sizes (sources named per test) and invariants."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from knowledge.catalog import default_catalog
from tools.common import GB, GIB, CalculatorInputError
from tools.storage import StorageInput, StorageOutput, storage

CATALOG = default_catalog()
TB, TIB = 1e12, 2**40


def run(**kwargs: object) -> StorageOutput:
    return storage(StorageInput.model_validate(kwargs), CATALOG)


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        # 1B params, 10B tokens, 32K vocab (uint16): raw 40 + tokenised 20 + 2 x 14 GB checkpoints = 88 GB;
        # scratch 10% = 8.8 -> 96.8; headroom 25% = 24.2 -> 121 GB
        (
            {"params_b": 1, "vocab_size": 32_000, "dataset_tokens_b": 10, "checkpoints_retained": 2},
            {"raw_text_gb": 40, "tokenized_gb": 20, "full_checkpoint_gb": 14, "checkpoints_gb": 28,
             "scratch_and_logs_gb": 8.8, "subtotal_gb": 96.8, "headroom_gb": 24.2, "total_tb": 0.121},
        ),
        # 128K vocab needs int32: 10B tokens x 4 = 40 GB; no raw text, no scratch, no headroom: 40 + 3 x 14
        (
            {"params_b": 1, "vocab_size": 128_256, "dataset_tokens_b": 10, "keep_raw_text": False,
             "scratch_and_logs_share": 0, "headroom_share": 0},
            {"raw_text_gb": 0, "tokenized_gb": 40, "checkpoints_gb": 42, "total_tb": 0.082},
        ),
        # raw text only: 100 GB at 4 bytes per token = 25B tokens x 2 bytes = 50 GB
        (
            {"params_b": 2, "vocab_size": 50_257, "dataset_raw_gb": 100, "checkpoints_retained": 1,
             "full_checkpoint_bytes_per_param": 16, "scratch_and_logs_share": 0, "headroom_share": 0},
            {"tokens_b": 25, "tokenized_gb": 50, "full_checkpoint_gb": 32, "total_tb": 0.182},
        ),
        # FP8 weights-only checkpoint: 1 byte per parameter; 70B in FP32 would be 280 GB
        ({"params_b": 70, "dataset_tokens_b": 1, "weights_precision": "fp8"}, {"weights_only_checkpoint_gb": 70}),
        ({"params_b": 70, "dataset_tokens_b": 1, "weights_precision": "fp32"}, {"weights_only_checkpoint_gb": 280}),
    ],
)  # fmt: skip
def test_hand_computed_sizes(kwargs: dict[str, object], expected: dict[str, float]) -> None:
    out = run(**kwargs)
    for field, value in expected.items():
        assert getattr(out, field) == pytest.approx(value, rel=1e-9), field


def test_checkpoint_write_rate_is_one_full_checkpoint_over_the_target_time() -> None:
    out = run(params_b=1, dataset_tokens_b=1, checkpoint_write_seconds=70, nodes=2)
    assert out.checkpoint_write_gb_s == pytest.approx(14 / 70)
    assert out.checkpoint_write_gb_s_per_node == pytest.approx(14 / 70 / 2)


def test_bloom_176b_full_checkpoint() -> None:
    # BigScience tr11-176B-ml README: "each checkpoint with fp32 optim states and bf16+fp32 weights is 2.3TB -
    # just the bf16 weights are 329GB". 176,247,271,424 params x 14 bytes = 2.467e12 B = 2.244 TiB (-2.4%
    # against 2.3); x 2 bytes = 352.5e9 B = 328.3 GiB (-0.2% against 329): the README's units are binary
    # (DOMAIN-PITFALLS sizing 1). Vocabulary 250,680 (README) needs int32 ids.
    out = run(params_b=176.247271424, vocab_size=250_680, dataset_tokens_b=350)
    assert out.full_checkpoint_gib == pytest.approx(2.3 * 1024, rel=0.03)
    assert out.weights_only_checkpoint_gib == pytest.approx(329, rel=0.005)
    assert out.full_checkpoint_gb == pytest.approx(2467.46, rel=1e-4)  # the decimal figure is 7% larger
    assert out.bytes_per_token_id == 4


def test_bloom_dataset_bytes_per_token_are_reported() -> None:
    # Same README: "46 Languages in 1.5TB of ... text, converted into 350B unique tokens": 4.29 bytes/token
    out = run(params_b=176, vocab_size=250_680, dataset_raw_gb=1500, dataset_tokens_b=350)
    assert any("4.29 raw bytes per token" in a for a in out.assumptions)
    assert out.raw_text_gb == pytest.approx(1500)


def test_llama2_70b_bf16_weights_are_140_gb() -> None:
    # The Kaitchup, "Run Llama 2 70B on your GPU": "Loading Llama 2 70B requires 140 GB of memory
    # (70 billion * 2 bytes)"; that is 130.4 GiB
    out = run(params_b=70, vocab_size=32_000, dataset_tokens_b=2000)
    assert out.weights_only_checkpoint_gb == pytest.approx(140)
    assert out.weights_only_checkpoint_gib == pytest.approx(140e9 / GIB, rel=1e-6)
    assert out.full_checkpoint_gb == pytest.approx(980)
    assert out.bytes_per_token_id == 2


def test_weights_only_checkpoints_kept_besides_the_full_ones() -> None:
    """ZeRO §3.1: a resumable mixed-precision Adam checkpoint is 2 + 4 + 8 = 14 bytes per parameter, the BF16
    weights alone 2: for a 70B model five full (980 GB each) plus fifty weights-only (140 GB each)."""
    out = storage(
        StorageInput(params_b=70, dataset_tokens_b=1400, checkpoints_retained=5, weights_only_retained=50),
        default_catalog(),
    )
    assert out.checkpoints_gb == pytest.approx(5 * 980 + 50 * 140)
    assert any("50 weights-only checkpoints" in a for a in out.assumptions)


def test_the_time_to_write_a_checkpoint_at_a_given_bandwidth() -> None:
    """ZeRO §3.1's 14 bytes per parameter: a 70B checkpoint is 980 GB, 196 s at 5 GB/s; BF16 weights 28 s."""
    out = storage(StorageInput(params_b=70, dataset_tokens_b=1400, write_bandwidth_gb_s=5), default_catalog())
    assert out.write_seconds_at_bandwidth == pytest.approx(196)
    assert out.weights_only_write_seconds_at_bandwidth == pytest.approx(28)


def test_nanogpt_openwebtext_train_bin() -> None:
    # karpathy/nanoGPT data/openwebtext/prepare.py: GPT-2 ids as uint16 "(can do since enc.max_token_value ==
    # 50256 is < 2**16)"; "train.bin is ~17GB", "train has ~9B tokens (9,035,582,198)". 18.07e9 bytes is
    # 16.83 GiB: the "~17GB" is binary (-1.0%).
    out = run(params_b=0.124, vocab_size=50_257, dataset_tokens_b=9.035582198)
    assert out.bytes_per_token_id == 2
    assert out.tokenized_gb == pytest.approx(18.071164396, rel=1e-6)
    assert out.tokenized_gb * GB / GIB == pytest.approx(17, rel=0.015)


@pytest.mark.parametrize(
    ("vocab", "width"),
    # DOMAIN-PITFALLS sizing 13: uint16 only for vocab <= 65,536
    [(32_000, 2), (50_257, 2), (65_536, 2), (65_537, 4), (128_256, 4), (151_936, 4), (250_680, 4)],
)
def test_token_id_width_follows_the_vocabulary(vocab: int, width: int) -> None:
    assert run(params_b=1, vocab_size=vocab, dataset_tokens_b=1).bytes_per_token_id == width


def test_token_id_width_comes_from_a_model_preset() -> None:
    out = run(model="gpt-3", dataset_tokens_b=300)  # vocab 50,257 (Brown et al. 2020)
    assert out.vocab_size == 50_257
    assert out.bytes_per_token_id == 2


def test_unknown_vocabulary_assumes_int32_and_says_so() -> None:
    out = run(params_b=7, dataset_tokens_b=100)
    assert out.vocab_size is None
    assert out.bytes_per_token_id == 4
    assert any("vocabulary unknown" in a for a in out.assumptions)


def test_the_raw_text_estimate_is_stated_as_an_assumption() -> None:
    out = run(params_b=7, dataset_tokens_b=100, raw_bytes_per_token=4)
    assert out.raw_text_gb == pytest.approx(400)
    assert any("4 bytes per token" in a and "assumption" in a for a in out.assumptions)


@pytest.mark.parametrize(
    ("kwargs", "written", "retained", "checkpoints_gb"),
    [
        ({"run_days": 30, "checkpoint_interval_hours": 3}, 240, 3, 3 * 14),
        ({"run_days": 0.25, "checkpoint_interval_hours": 3, "checkpoints_retained": 5}, 2, 2, 2 * 14),
        ({"run_days": 1, "checkpoint_interval_hours": 5}, 5, 3, 3 * 14),  # 24/5 = 4.8: the final save is 5th
        # 4 written, 2 kept in full, the 2 older kept as BF16 weights (2 GB each)
        ({"run_days": 1, "checkpoint_interval_hours": 6, "checkpoints_retained": 2,
          "keep_weights_only_history": True}, 4, 2, 2 * 14 + 2 * 2),
        ({}, None, 3, 3 * 14),
    ],
)  # fmt: skip
def test_checkpoint_counts(
    kwargs: dict[str, object], written: int | None, retained: int, checkpoints_gb: float
) -> None:
    out = run(params_b=1, dataset_tokens_b=1, **kwargs)
    assert out.checkpoints_written == written
    assert out.checkpoints_retained == retained
    assert out.checkpoints_gb == pytest.approx(checkpoints_gb)


def test_terabytes_and_tebibytes() -> None:
    out = run(params_b=70, vocab_size=32_000, dataset_tokens_b=2000)
    assert out.total_tib == pytest.approx(out.total_tb * TB / TIB, rel=1e-5)
    assert out.total_tib < out.total_tb  # the same bytes are ~9% fewer TiB
    assert out.full_checkpoint_gib == pytest.approx(out.full_checkpoint_gb * GB / GIB, rel=1e-5)


def test_one_small_server_uses_local_nvme() -> None:
    out = run(params_b=7, vocab_size=32_000, dataset_tokens_b=100)
    assert out.recommended_tier == "nvme-gen4-dc"
    assert "no parallel file system is needed" in out.recommendation
    assert out.cold_tier == "object-s3-standard"


def test_one_server_outgrowing_local_nvme_needs_a_parallel_file_system() -> None:
    # DGX H100 has 30.72 TB of data NVMe (catalog); 15T tokens at 4 bytes is 60 TB of shards alone
    out = run(params_b=70, vocab_size=128_256, dataset_tokens_b=15_000)
    assert out.total_tb > 30.72
    assert out.recommended_tier == "parallel-fs-ddn-exascaler"
    assert "exceeds the 30.72 TB" in out.recommendation


def test_a_fast_write_target_moves_one_server_to_gen5_nvme() -> None:
    # 70B x 14 bytes = 980 GB in 30 s = 32.7 GB/s: above 8 x 3.5 GB/s Gen4, within 8 x 10 GB/s Gen5
    out = run(params_b=70, vocab_size=32_000, dataset_tokens_b=100, checkpoint_write_seconds=30)
    assert out.checkpoint_write_gb_s == pytest.approx(980 / 30)
    assert out.recommended_tier == "nvme-gen5-dc"


def test_several_servers_need_a_shared_tier() -> None:
    out = run(params_b=7, vocab_size=32_000, dataset_tokens_b=100, nodes=4)
    assert out.recommended_tier == "parallel-fs-ddn-exascaler"
    assert "must be shared" in out.recommendation


def test_an_impossible_write_rate_is_flagged() -> None:
    # 1T params x 14 bytes = 14 TB in 10 s on 2 servers: 700 GB/s per server, far above one client's 96 GB/s
    out = run(params_b=1000, dataset_tokens_b=1, checkpoint_write_seconds=10, nodes=2)
    assert not next(t for t in out.tiers if t.id == out.recommended_tier).meets_write
    assert any("lengthen checkpoint_write_seconds" in w for w in out.warnings)


def test_tier_table_uses_catalog_figures() -> None:
    out = run(params_b=7, dataset_tokens_b=100, local_nvme_drives_per_node=4)
    gen4 = next(t for t in out.tiers if t.id == "nvme-gen4-dc")
    assert gen4.write_gb_s_per_node == pytest.approx(4 * 3.5)  # 4 drives x PM9A3 3.5 GB/s write
    assert next(t for t in out.tiers if t.id == "hdd-enterprise-7200").role == "not suitable"


def test_a_named_server_sets_the_local_capacity() -> None:
    out = run(params_b=7, dataset_tokens_b=100, server="MI300X platform")
    assert any("7.68 TB" in a for a in out.assumptions)


def test_long_synchronous_saves_are_warned_about() -> None:
    out = run(params_b=7, dataset_tokens_b=1, checkpoint_write_seconds=600, checkpoint_interval_hours=1)
    assert any("stall training" in w for w in out.warnings)


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        ({"params_b": 7}, "dataset_tokens_b", "dataset_raw_gb"),
        ({"dataset_tokens_b": 10}, "params_b", "model size"),
        ({"params_b": 7, "dataset_tokens_b": 1, "vocab_size": 128_256, "bytes_per_token_id": 2},
         "bytes_per_token_id", "65,535"),
        ({"params_b": 7, "dataset_tokens_b": 1, "keep_weights_only_history": True}, "run_days", "run length"),
        ({"params_b": 7, "dataset_tokens_b": 1, "server": "DGX Z9"}, "server", "unknown server"),
    ],
)  # fmt: skip
def test_impossible_inputs_name_the_field(kwargs: dict[str, object], field: str, message: str) -> None:
    with pytest.raises(CalculatorInputError, match=message) as info:
        run(**kwargs)
    assert info.value.field == field


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"params_b": 7, "dataset_tokens_b": 0}, "dataset_tokens_b"),
        ({"params_b": 7, "dataset_raw_gb": -5}, "dataset_raw_gb"),
        ({"params_b": 7, "dataset_tokens_b": 1, "headroom_share": 1.5}, "headroom_share"),
        ({"params_b": 7, "dataset_tokens_b": 1, "checkpoints_retained": 0}, "checkpoints_retained"),
        ({"params_b": 7, "dataset_tokens_b": 1, "bytes_per_token_id": 3}, "bytes_per_token_id"),
        ({"params_b": 7, "dataset_tokens_b": 1, "weights_precision": "int4"}, "weights_precision"),
        ({"params_b": 7, "dataset_tokens_b": 1, "dataset_tb": 3}, "dataset_tb"),  # unknown fields are errors
    ],
)
def test_out_of_range_values_are_validation_errors(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(ValidationError, match=field):
        StorageInput.model_validate(kwargs)


@settings(max_examples=60, deadline=None)
@given(
    params=st.floats(min_value=0.1, max_value=2000),
    tokens=st.floats(min_value=0.1, max_value=50_000),
    retained=st.integers(min_value=1, max_value=50),
)
def test_more_retained_checkpoints_never_lower_capacity(params: float, tokens: float, retained: int) -> None:
    fewer = run(params_b=params, dataset_tokens_b=tokens, checkpoints_retained=retained)
    more = run(params_b=params, dataset_tokens_b=tokens, checkpoints_retained=retained + 1)
    assert more.total_tb >= fewer.total_tb


@settings(max_examples=60, deadline=None)
@given(params=st.floats(min_value=0.1, max_value=2000), tokens=st.floats(min_value=0.1, max_value=50_000))
def test_more_tokens_never_lower_capacity(params: float, tokens: float) -> None:
    assert (
        run(params_b=params, dataset_tokens_b=2 * tokens).total_tb
        >= run(params_b=params, dataset_tokens_b=tokens).total_tb
    )


@settings(max_examples=40, deadline=None)
@given(params=st.floats(min_value=0.1, max_value=2000))
def test_checkpoints_are_linear_in_parameters(params: float) -> None:
    one, two = run(params_b=params, dataset_tokens_b=1), run(params_b=2 * params, dataset_tokens_b=1)
    assert two.full_checkpoint_gb == pytest.approx(2 * one.full_checkpoint_gb, rel=1e-5)
    assert two.checkpoint_write_gb_s == pytest.approx(2 * one.checkpoint_write_gb_s, rel=1e-5)


def test_growth_is_planned_on_top_of_the_total() -> None:
    """30% a year for 2 years: 1.3^2 = 1.69 times the capacity planned today."""
    base = storage(StorageInput(params_b=7, dataset_tokens_b=1000), CATALOG)
    grown = storage(
        StorageInput(params_b=7, dataset_tokens_b=1000, growth_per_year=0.3, growth_years=2), CATALOG
    )
    assert grown.total_tb == pytest.approx(base.total_tb)
    assert grown.total_after_growth_tb == pytest.approx(base.total_tb * 1.69)
    assert base.total_after_growth_tb == pytest.approx(base.total_tb)


def test_retained_checkpoints_on_object_storage_cost_a_month() -> None:
    """54 resumable 70B checkpoints (70e9 x 14 bytes = 980 GB each) are 52.92 TB; on S3 Standard at $0.023 per
    GB-month (AWS price list, first 50 TB) that is about $1,217 a month."""
    out = run(params_b=70, dataset_tokens_b=1400, checkpoints_retained=54)
    assert out.checkpoints_gb == pytest.approx(54 * 70 * 14, rel=0.001)
    assert out.cold_tier == "object-s3-standard"
    assert out.checkpoints_cold_usd_per_month == pytest.approx(54 * 0.98 * 23, rel=0.002)


def test_a_lora_fine_tune_checkpoints_the_adapters_and_keeps_the_base_once() -> None:
    """LoRA (Hu et al. 2021, arXiv:2106.09685): the base weights are frozen, so a resumable checkpoint is the
    adapters at 14 bytes each (BF16 2 + FP32 master 4 + Adam 8) and the base model is stored once. Llama 2 70B at
    rank 16 on the attention and MLP projections: per layer r x (d_in + d_out) summed over q, k, v, o, gate, up,
    down = 16 x (2 x (8192 + 8192) + 2 x (8192 + 1024) + 3 x (8192 + 28672)) = 16 x 161,792 = 2,588,672;
    x 80 layers = 207.1M adapter parameters, 2.90 GB a checkpoint; the base 68.98B x 2 bytes = 138 GB."""
    full = run(model="llama-2-70b", dataset_tokens_b=1)
    lora = run(model="llama-2-70b", dataset_tokens_b=1, lora_rank=16)
    adapters = 16 * (2 * (8192 + 8192) + 2 * (8192 + 1024) + 3 * (8192 + 28672)) * 80
    assert lora.full_checkpoint_gb == pytest.approx(adapters * 14 / GB, rel=1e-6)
    assert lora.weights_only_checkpoint_gb == pytest.approx(adapters * 2 / GB, rel=1e-6)
    assert lora.base_model_gb == pytest.approx(full.weights_only_checkpoint_gb)
    assert lora.total_tb < full.total_tb / 10


def test_a_compressed_dataset_cleaned_down_is_tokenized_from_its_text() -> None:
    """40 TB of jsonl.zst (x 3.19, lzbench's zstd -3 on Silesia) with half kept: 63.8 TB of text, 15.95T tokens
    at 4 bytes each, 31.9 TB of uint16 ids (Llama 2's 32,000-token vocabulary); the 40 TB as delivered is what
    is kept as raw text."""
    out = storage(
        StorageInput(
            model="llama-2-7b", dataset_raw_gb=40_000, raw_compression_ratio=3.19, raw_kept_share=0.5
        ),
        CATALOG,
    )
    assert out.tokenized_gb == pytest.approx(31_900, rel=1e-3)
    assert out.raw_text_gb == pytest.approx(40_000)
    assert any("lzbench" in s.title for s in out.sources)
