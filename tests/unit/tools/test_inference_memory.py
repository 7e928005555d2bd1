"""Serving memory: exact arithmetic, published figures, units, properties and bad input."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from knowledge.catalog import default_catalog
from tools.common import GB, GIB, CalculatorInputError
from tools.inference_memory import InferenceMemoryInput, InferenceMemoryOutput, inference_memory

CATALOG = default_catalog()

# a small GQA shape: 2 layers, 4 heads of 64, 2 KV heads; bf16 KV = 2 x 2 x 2 x 64 x 2 = 1,024 bytes per token
TINY: dict[str, Any] = {
    "params_b": 1,
    "layers": 2,
    "hidden_size": 256,
    "attention_heads": 4,
    "kv_heads": 2,
    "context_tokens": 1000,
    "batch": 3,
    "activation_workspace_gb": 0.5,
    "runtime_overhead_gb": 0.25,
}
# OPT-13B as the vLLM paper describes it: 40 layers, hidden 5120, 40 heads (multi-head attention), 13B
OPT_13B: dict[str, Any] = {"params_b": 13, "layers": 40, "hidden_size": 5120, "attention_heads": 40}
NO_OVERHEAD: dict[str, Any] = {"activation_workspace_gb": 0, "runtime_overhead_gb": 0}


def run(**fields: Any) -> InferenceMemoryOutput:
    return inference_memory(InferenceMemoryInput(**fields), CATALOG)


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        pytest.param(
            {},
            {"weights_gb": 2.0, "kv_bytes_per_token": 1024, "kv_bytes_per_token_per_gpu": 1024,
             "kv_cache_gb": 0.003072, "total_gb": 2.753072},
            id="bf16: 1e9 x 2 B; KV 1,024 B x 1,000 tokens x 3",
        ),
        pytest.param(
            {"weight_precision": "int8", "kv_cache_precision": "fp8", "tensor_parallel": 2},
            {"weights_gb": 0.5, "kv_bytes_per_token": 512, "kv_bytes_per_token_per_gpu": 256,
             "kv_cache_gb": 0.000768, "total_gb": 1.250768},
            id="int8 weights, fp8 KV, TP 2: 1 KV head per GPU",
        ),
        pytest.param(
            {"weight_precision": "int4", "quantization_overhead_pct": 0},
            {"weights_gb": 0.5, "kv_bytes_per_token": 1024, "kv_cache_gb": 0.003072, "total_gb": 1.253072},
            id="int4 without scales: 0.5 B per weight",
        ),
        pytest.param(
            {"weight_precision": "int4"},
            {"weights_gb": 0.5 * (1 + 20 / 128 / 4), "weight_bytes_per_param": 0.51953125},
            id="int4 default: FP16 scale + 4-bit zero per 128 weights = +3.90625%",
        ),
        pytest.param(
            {"weight_precision": "fp4"},
            {"weight_bytes_per_param": 0.5625},
            id="fp4 default: NVFP4 FP8 scale per 16 values = +12.5%",
        ),
        pytest.param(
            {"weight_precision": "bf16", "quantization_overhead_pct": 10},
            {"weights_gb": 2.2},
            id="a user overhead applies to any precision",
        ),
        pytest.param(
            {"weight_precision": "fp32"},
            {"weights_gb": 4.0, "kv_bytes_per_token": 2048, "kv_cache_gb": 0.006144},
            id="fp32 weights keep an fp32 KV cache by default",
        ),
        pytest.param(
            {"tensor_parallel": 4},
            {"weights_gb": 0.5, "kv_bytes_per_token_per_gpu": 512, "kv_cache_gb": 0.001536,
             "kv_head_replication": 2, "kv_heads_per_gpu": 1},
            id="TP 4 > 2 KV heads: each head on 2 GPUs",
        ),
        pytest.param(
            {"tensor_parallel": 2, "gpus": 6},
            {"replicas": 3, "total_gb": 1.0 + 0.001536 + 0.75, "all_gpus_total_gb": 6 * (1.0 + 0.001536 + 0.75)},
            id="6 GPUs at TP 2: 3 replicas, total over all 6",
        ),
    ],
)  # fmt: skip
def test_exact_arithmetic(changes: dict[str, Any], expected: dict[str, float]) -> None:
    out = run(**{**TINY, **changes})
    flat = {**out.model_dump(), **out.per_gpu.model_dump()}
    flat["all_gpus_total_gb"] = out.total.total_gb
    for key, value in expected.items():
        assert flat[key] == pytest.approx(value, rel=1e-12), key


def test_max_batch_and_tokens_by_hand() -> None:
    # usable 10 GB x 0.5 = 5e9 B; free = 5e9 - 2e9 weights - 0.75e9 overheads = 2.25e9 B
    out = run(**TINY, gpu_memory_gb=10, gpu_memory_utilization=0.5)
    assert out.usable_gb_per_gpu == pytest.approx(5.0)
    assert out.max_kv_tokens_per_replica == 2_197_265  # floor(2.25e9 / 1,024)
    assert out.max_batch_per_replica == 2_197  # floor(2.25e9 / (1,024 x 1,000))
    assert out.max_concurrent_sequences == 2_197
    assert out.fits is True
    assert out.headroom_pct == pytest.approx(round(100 * (5 - 2.753072) / 5, 1))


def test_replicas_multiply_the_concurrent_sequences() -> None:
    out = run(**TINY, tensor_parallel=2, gpus=8, gpu_memory_gb=10, gpu_memory_utilization=0.5)
    # per GPU: free = 5e9 - 1e9 - 0.75e9 = 3.25e9 B; 512 B per token per GPU x 1,000 tokens
    assert out.max_batch_per_replica == 6_347
    assert out.max_concurrent_sequences == 4 * 6_347


# --- published figures --------------------------------------------------------------------------------


def test_vllm_paper_opt_13b_kv_per_token_is_800_kib() -> None:
    """Kwon et al. 2023 (vLLM, arXiv:2309.06180) §3: OPT-13B needs 800 KB of KV cache per token,
    "2 (key and value vectors) x 5120 (hidden state size) x 40 (number of layers) x 2 (bytes per FP16)".
    The paper's KB is KiB: 819,200 bytes = 800 KiB exactly (error 0%), 819.2 decimal KB."""
    out = run(**OPT_13B, weight_precision="fp16", context_tokens=2048)
    assert out.kv_bytes_per_token == 819_200
    assert out.kv_kib_per_token == 800
    assert out.kv_mb_per_token == pytest.approx(0.8192)


def test_vllm_paper_opt_13b_one_2048_token_request_is_1_6_gb() -> None:
    """Kwon et al. 2023 §3: one 2,048-token OPT-13B request's KV cache "can be as much as 1.6 GB".
    819,200 x 2,048 = 1,677,721,600 bytes = 1.678 GB (+4.9%) = 1.5625 GiB (-2.3%)."""
    out = run(**OPT_13B, weight_precision="fp16", context_tokens=2048, batch=1)
    assert out.kv_gb_per_sequence * GB == pytest.approx(1_677_721_600, rel=1e-12)
    assert out.kv_gb_per_sequence == pytest.approx(1.6, rel=0.05)
    assert out.kv_gb_per_sequence * GB / GIB == pytest.approx(1.5625)


def test_vllm_paper_figure_1_13b_parameters_are_26_gb_and_65_percent_of_an_a100() -> None:
    """Kwon et al. 2023 Figure 1: a 13B model on an NVIDIA A100 (40 GB): parameters 26 GB, 65%."""
    out = run(**OPT_13B, weight_precision="fp16", gpu="A100 40GB", context_tokens=2048)
    assert out.per_gpu.weights_gb == 26
    assert out.gpu_memory_gb is not None
    assert out.per_gpu.weights_gb / out.gpu_memory_gb == pytest.approx(0.65)


def test_nvidia_blog_llama_2_7b_kv_cache_at_4096_tokens_is_2_gb() -> None:
    """NVIDIA Technical Blog, "Mastering LLM Techniques: Inference Optimization" (2023): Llama 2 7B, 16-bit,
    batch 1: 1 x 4096 x 2 x 32 x 4096 x 2 bytes, "~2 GB". Exactly 2 GiB (2^31 bytes) = 2.147 GB."""
    out = run(model="llama-2-7b", weight_precision="fp16", context_tokens=4096, batch=1)
    assert out.kv_bytes_per_token == 2 * 32 * 4096 * 2
    assert out.per_gpu.kv_cache_gb * GB == pytest.approx(2**31, rel=1e-12)
    assert out.per_gpu.kv_cache_gb * GB / GIB == pytest.approx(2, rel=1e-12)


def test_llama_2_70b_gqa_kv_per_token() -> None:
    """Touvron et al. 2023 (Llama 2, arXiv:2307.09288) and its config.json: 80 layers, 8 KV heads of 128.
    2 x 80 x 8 x 128 x 2 = 327,680 bytes = 320 KiB per token, 8x less than 64-head attention."""
    out = run(model="llama-2-70b", context_tokens=4096)
    assert out.architecture.kv_heads == 8
    assert out.kv_bytes_per_token == 327_680
    assert out.kv_kib_per_token == 320
    mha = run(model="llama-2-70b", kv_heads=64, context_tokens=4096)
    assert mha.kv_bytes_per_token == 8 * out.kv_bytes_per_token


@pytest.mark.parametrize(
    ("model", "tokens", "published_gib"),
    [
        ("llama-3.1-8b", 1024, 0.125),
        ("llama-3.1-8b", 16_000, 1.95),
        ("llama-3.1-8b", 128_000, 15.62),
        ("llama-3.1-70b", 1024, 0.313),
        ("llama-3.1-70b", 16_000, 4.88),
        ("llama-3.1-70b", 128_000, 39.06),
    ],
)
def test_hugging_face_llama_3_1_kv_cache_table(model: str, tokens: int, published_gib: float) -> None:
    """Hugging Face blog "Llama 3.1 - 405B, 70B & 8B" (2024), Inference Memory Requirements, FP16 KV cache.
    The blog's "GB" are GiB and its "16k"/"128k" columns are 16,000/128,000 tokens ("1k" is 1,024).
    8B: 131,072 B/token; 70B: 327,680 B/token. Largest error 0.16% (1.953 vs 1.95). The 405B row is
    exactly twice the formula and is left out."""
    out = run(model=model, weight_precision="fp16", context_tokens=tokens, batch=1)
    assert out.per_gpu.kv_cache_gb * GB / GIB == pytest.approx(published_gib, rel=0.005)


@pytest.mark.parametrize(
    ("model", "tokens", "window"),
    [
        # Qwen2.5 technical report (arXiv:2412.15115) section 3: pre-trained at 4,096 tokens, last stage at 32,768
        ("qwen2.5-32b", 32_768, None),
        ("qwen2.5-32b", 65_536, 32_768),
        # Llama 3 herd paper (arXiv:2407.21783) section 3.4.2: long-context pre-training up to 128K
        ("llama-3.1-70b", 128_000, None),
        ("llama-3.1-70b", 200_000, 131_072),
        # Llama 2 paper (arXiv:2307.09288) table 1: 4k context, no extension
        ("llama-2-70b", 8192, 4096),
    ],
)
def test_context_warning_is_against_the_native_window(model: str, tokens: int, window: int | None) -> None:
    """A length beyond the main pre-training stage but within the model's released window (Qwen2.5 at 32k,
    Llama 3.1 at 128k) is not flagged; beyond the window, the warning names the window."""
    warned = [w for w in run(model=model, context_tokens=tokens).warnings if "native context" in w]
    if window is None:
        assert warned == []
    else:
        assert len(warned) == 1
        assert f"{window:,}-token native context" in warned[0]


def test_70b_weights_in_fp16_are_140_gb() -> None:
    """The usual "70B in fp16 = 140 GB" (e.g. Hugging Face's Llama 2 launch blog): 70e9 x 2 bytes.
    The preset's exact 68.98B gives 137.96 GB (-1.5%)."""
    assert run(model="llama-2-70b", params_b=70, weight_precision="fp16").per_gpu.weights_gb == 140
    assert run(model="llama-2-70b", weight_precision="fp16").per_gpu.weights_gb == pytest.approx(137.96)


def test_deepseek_v3_latent_attention_caches_576_values_per_layer() -> None:
    """DeepSeek-V2 (arXiv:2405.04434) §2.1, used by V3: a 512-dim latent plus a 64-dim RoPE key per layer.
    61 layers x 576 x 2 bytes = 70,272 bytes per token, not 2 x 61 x 128 x 128 x 2 = 3,997,696."""
    out = run(model="deepseek-v3", context_tokens=4096)
    assert out.kv_bytes_per_token == 70_272
    assert out.kv_heads_per_gpu is None
    tp8 = run(model="deepseek-v3", context_tokens=4096, tensor_parallel=8)
    assert tp8.kv_bytes_per_token_per_gpu == 70_272  # every TP rank keeps the whole latent
    assert any("latent" in w for w in tp8.warnings)


# --- units --------------------------------------------------------------------------------------------


def test_gb_and_gib_are_both_reported_and_consistent() -> None:
    out = run(model="llama-2-70b", tensor_parallel=4, context_tokens=4096, batch=8)
    for breakdown in (out.per_gpu, out.total):
        assert breakdown.total_gib * GIB == pytest.approx(breakdown.total_gb * GB)
        assert breakdown.total_gib < breakdown.total_gb  # a GiB is 7.4% larger than a GB
    assert pytest.approx(1.073741824) == GIB / GB


def test_kib_and_mb_per_token_are_the_same_bytes() -> None:
    out = run(**OPT_13B)
    assert out.kv_kib_per_token * 1024 == out.kv_bytes_per_token
    assert out.kv_mb_per_token * 1e6 == pytest.approx(out.kv_bytes_per_token)
    assert out.kv_kib_per_token != out.kv_mb_per_token * 1000  # KB != KiB


# --- verdicts -----------------------------------------------------------------------------------------


def test_llama_2_70b_on_one_h100_does_not_fit_and_says_what_would() -> None:
    out = run(model="llama-2-70b", gpu="H100", gpus=1, context_tokens=4096)
    assert out.fits is False
    assert out.max_batch_per_replica == 0
    # TP 1: 137.96 + 1.34 KV + 2 = 141.3 GB; FP8 weights: 68.98 + 1.34 + 2 = 72.32 GB, still > 72 GB usable;
    # TP 2: 137.96 / 2 + 0.67 + 2 = 71.65 GB fits
    assert "raise tensor_parallel to 2 (2 GPUs per replica)" in out.suggestions
    assert "not even one sequence fits" in out.verdict


def test_without_a_count_the_plan_is_shown_at_the_size_it_needs() -> None:
    """The same case sized: TP 2 is the smallest group that holds it (71.65 GB of 72 usable per GPU), and
    every per-GPU figure is that group's, never one GPU's 141 GB."""
    out = run(model="llama-2-70b", gpu="H100", context_tokens=4096)
    assert (out.tensor_parallel, out.gpus, out.gpus_needed, out.fits) == (2, 2, 2, True)
    assert out.per_gpu.total_gb == pytest.approx(71.65, abs=0.05)
    assert out.max_concurrent_sequences == 1
    assert run(model="llama-2-70b", context_tokens=4096).tensor_parallel == 1  # no GPU: nothing to size on


def test_llama_2_70b_on_four_h100_fits_with_a_batch_figure() -> None:
    out = run(model="llama-2-70b", gpu="H100", tensor_parallel=4, context_tokens=4096, batch=16)
    # usable 72 GB; free = 72e9 - 137.96e9 / 4 - 2e9 = 35.51e9 B; per sequence 81,920 B x 4,096 per GPU
    assert out.max_batch_per_replica == 105 == int(35.51e9 // (81_920 * 4096))
    assert out.fits is True
    assert out.verdict.startswith("fits on 4 x NVIDIA H100 SXM5 80GB (TP 4)")


@settings(max_examples=60, deadline=None)
@given(batch=st.integers(1, 400), utilisation=st.floats(0.5, 1.0))
def test_fit_verdict_agrees_with_max_batch(batch: int, utilisation: float) -> None:
    out = run(
        model="llama-3.1-8b", gpu="L40S", context_tokens=8192, batch=batch, gpu_memory_utilization=utilisation
    )
    assert out.max_batch_per_replica is not None
    assert out.fits is (batch <= out.max_batch_per_replica)


# --- properties ---------------------------------------------------------------------------------------

PRESETS = [
    "llama-2-70b",
    "llama-3.1-8b",
    "qwen2.5-72b",
    "mixtral-8x7b",
    "deepseek-v3",
    "palm-540b",
    "gpt-3-175b",
]
VALID_TP = [1, 2, 4, 8, 16, 32, 64]


@settings(max_examples=60, deadline=None)
@given(
    model=st.sampled_from(PRESETS),
    tokens=st.integers(1, 200_000),
    batch=st.integers(1, 512),
    k=st.integers(2, 16),
    kv=st.sampled_from(["fp16", "fp8"]),
)
def test_kv_cache_is_linear_in_tokens_and_batch(model: str, tokens: int, batch: int, k: int, kv: str) -> None:
    base = run(model=model, context_tokens=tokens, batch=batch, kv_cache_precision=kv)
    more_tokens = run(model=model, context_tokens=tokens * k, batch=batch, kv_cache_precision=kv)
    more_batch = run(model=model, context_tokens=tokens, batch=batch * k, kv_cache_precision=kv)
    assert more_tokens.per_gpu.kv_cache_gb == pytest.approx(k * base.per_gpu.kv_cache_gb, rel=1e-12)
    assert more_batch.per_gpu.kv_cache_gb == pytest.approx(k * base.per_gpu.kv_cache_gb, rel=1e-12)
    assert base.per_gpu.kv_cache_gb == pytest.approx(
        base.kv_bytes_per_token_per_gpu * tokens * batch / GB, rel=1e-12
    )


@settings(max_examples=60, deadline=None)
@given(
    model=st.sampled_from(PRESETS),
    tokens=st.integers(1, 131_072),
    batch=st.integers(1, 256),
    precision=st.sampled_from(["bf16", "fp8", "int4"]),
)
def test_more_tensor_parallel_never_raises_per_gpu_memory(
    model: str, tokens: int, batch: int, precision: str
) -> None:
    heads = CATALOG.model(model).attention_heads
    totals = []
    for tp in VALID_TP:
        if heads % tp:
            continue
        try:
            out = run(
                model=model,
                tensor_parallel=tp,
                context_tokens=tokens,
                batch=batch,
                weight_precision=precision,
            )
        except CalculatorInputError:
            continue
        totals.append(out.per_gpu.total_gb)
    assert len(totals) >= 2
    assert all(b <= a for a, b in itertools.pairwise(totals))


# --- tensor parallel and KV heads ---------------------------------------------------------------------


def test_tensor_parallel_above_kv_heads_replicates_them_like_vllm() -> None:
    """vLLM's QKVParallelLinear keeps one KV head per GPU and copies each head tp / kv_heads times."""
    out = run(model="llama-2-70b", tensor_parallel=16, context_tokens=4096)
    assert out.kv_heads_per_gpu == 1
    assert out.kv_head_replication == 2
    assert out.kv_bytes_per_token_per_gpu == 2 * 80 * 1 * 128 * 2
    assert out.total.kv_cache_gb == pytest.approx(2 * 327_680 * 4096 / GB)  # twice the model's KV
    assert any("replicated" in w for w in out.warnings)


def test_multi_query_attention_has_one_kv_head() -> None:
    out = run(model="palm-540b", context_tokens=2048, tensor_parallel=8)
    assert out.kv_bytes_per_token == 2 * 118 * 1 * 256 * 2
    assert out.kv_head_replication == 8


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        pytest.param({"tensor_parallel": 3}, "tensor_parallel", "does not divide the 4 KV heads", id="tp<kv"),
        pytest.param({"tensor_parallel": 6}, "tensor_parallel", "cannot be replicated evenly", id="tp>kv"),
        pytest.param({"tensor_parallel": 8}, "tensor_parallel", "12 attention heads", id="heads"),
        pytest.param({"gpus": 5, "tensor_parallel": 2}, "gpus", "not a multiple", id="gpus"),
        pytest.param({"gpu": "H1000"}, "gpu", "did you mean", id="unknown gpu"),
    ],
)
def test_inputs_that_cannot_be_computed_name_the_field(
    fields: dict[str, Any], field: str, words: str
) -> None:
    shape = {"params_b": 1, "hidden_size": 768, "attention_heads": 12, "kv_heads": 4}
    with pytest.raises(CalculatorInputError) as caught:
        run(**shape, **fields)
    assert caught.value.field == field
    assert words in caught.value.message


def test_unknown_gpu_suggests_catalog_names() -> None:
    with pytest.raises(CalculatorInputError) as caught:
        run(model="llama-2-7b", gpu="H1000")
    assert "h100-sxm" in caught.value.suggestions


def test_unknown_model_and_missing_size_name_the_field() -> None:
    with pytest.raises(CalculatorInputError) as caught:
        run(model="llama-9-900b")
    assert caught.value.field == "model"
    with pytest.raises(CalculatorInputError) as caught:
        run()
    assert caught.value.field == "params_b"


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"params_b": 7, "layers": 0}, "layers"),
        ({"params_b": 7, "batch": -1}, "batch"),
        ({"params_b": 7, "batch": 0}, "batch"),
        ({"params_b": 7, "context_tokens": 0}, "context_tokens"),
        ({"params_b": 7, "tensor_parallel": 0}, "tensor_parallel"),
        ({"params_b": 7, "gpu_memory_utilization": 1.5}, "gpu_memory_utilization"),
        ({"params_b": 7, "gpu_memory_utilization": 0}, "gpu_memory_utilization"),
        ({"params_b": 7, "weight_precision": "int3"}, "weight_precision"),
        ({"params_b": 7, "runtime_overhead_gb": -1}, "runtime_overhead_gb"),
        ({"params_b": 7, "batch_size": 4}, "batch_size"),
    ],
)
def test_invalid_fields_are_rejected_by_the_model(fields: dict[str, Any], field: str) -> None:
    with pytest.raises(ValidationError) as caught:
        InferenceMemoryInput(**fields)
    assert [e["loc"] for e in caught.value.errors()] == [(field,)]


# --- description and output shape ---------------------------------------------------------------------


def test_docstring_summary_is_one_line_and_output_is_json() -> None:
    doc = inference_memory.__doc__ or ""
    summary = doc.strip().split("\n\n", 1)[0]
    assert "\n" not in summary
    assert summary.startswith("Estimate GPU memory for serving")
    out = run(model="llama-2-70b", gpu="H100", tensor_parallel=4)
    dumped = out.model_dump(mode="json")
    assert dumped["sources"]
    assert dumped["assumptions"]
    assert dumped["formula"]
    assert any("arxiv.org/abs/2309.06180" in s["url"] for s in dumped["sources"])


def test_the_gpus_needed_hold_weights_and_the_kv_cache_of_every_sequence() -> None:
    """Llama 3 70B keeps 2 x 80 layers x 8 KV heads x 128 x 2 bytes = 320 KiB of KV cache per token (its
    config.json; vLLM's KV sizing): 32 sequences of 8,192 tokens add 80 GiB to ~141 GB of BF16 weights, so
    four 80 GB H100s (tensor parallel 4), not two."""
    from tools.inference_memory import InferenceMemoryInput, inference_memory

    out = inference_memory(
        InferenceMemoryInput(model="llama-3-70b", gpu="h100-sxm", batch=32, context_tokens=8192), CATALOG
    )
    assert out.kv_kib_per_token == pytest.approx(320)
    assert out.gpus_needed == 4


def test_resident_lora_adapters_add_rank_times_layer_widths() -> None:
    """S-LoRA (Sheng et al. 2023) keeps adapters beside one base model: each rank-16 adapter on every linear
    layer of Llama 2 7B holds 16 x 32 x (4 x (4096 + 4096) + 3 x (4096 + 11008)) = 39,976,960 parameters
    (Hu et al.'s LoRA: r x (d_in + d_out) per matrix), 80 MB in 16 bits; ten of them add 0.8 GB."""
    catalog = default_catalog()
    base = inference_memory(InferenceMemoryInput(model="llama-2-7b"), catalog)
    served = inference_memory(InferenceMemoryInput(model="llama-2-7b", lora_adapters=10), catalog)
    adapter_params = 16 * 32 * (4 * 2 * 4096 + 3 * (4096 + 11008))
    assert served.lora_adapters_gb == pytest.approx(10 * adapter_params * 2 / 1e9)
    assert served.per_gpu.weights_gb - base.per_gpu.weights_gb == pytest.approx(served.lora_adapters_gb)


def test_sequences_no_one_group_holds_spread_over_replicas() -> None:
    """200 sequences of 32,768 tokens of Llama 3 8B need 200 x 4.29 GB = 859 GB of KV cache (vLLM's per-token
    formula, 128 KiB a token): more than any tensor-parallel group of L40S holds, since its 8 KV heads are
    copied beyond TP 8; replicas each holding their weights and part of the sequences do, and no fewer GPUs
    than the KV cache alone fills can."""
    from knowledge.catalog import default_catalog
    from tools.inference_memory import InferenceMemoryInput, inference_memory

    out = inference_memory(
        InferenceMemoryInput(model="llama-3-8b", gpu="l40s", batch=200, context_tokens=32_768),
        default_catalog(),
    )
    assert out.gpus_needed is None
    assert out.replicas_for_batch is not None
    gpus, tp, each = out.replicas_for_batch
    assert gpus == tp * -(-200 // each)
    assert gpus * 48 * 0.9 >= 200 * 4.29  # the cards hold at least the KV cache


def test_a_group_larger_than_a_server_gives_way_to_replicas_inside_servers() -> None:
    """300 sequences of 6,144 tokens of Qwen2.5 72B on H20 (96 GB, 90% usable): one tensor-parallel group would
    need 32 GPUs, four servers apart; replicas of a group inside one 8-GPU server carry them instead, each with
    its own BF16 weights (about 145 GB), together holding the 300 x 6,144 x 320 KiB = 604 GB of KV cache."""
    out = run(model="qwen2.5-72b", gpu="h20", batch=300, context_tokens=6_144)
    assert out.gpus_needed is None
    assert out.replicas_for_batch is not None
    gpus, tp, each = out.replicas_for_batch
    assert tp <= 8
    assert gpus == tp * -(-300 // each)
    assert gpus * 96 * 0.9 >= 300 * 6_144 * 320 * 1024 / 1e9 + (gpus // tp) * 145
