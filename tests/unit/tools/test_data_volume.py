"""Storage arithmetic on known figures (tools/data_volume.py)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from knowledge.catalog import default_catalog
from tools.data_volume import DataVolumeInput, data_volume

CATALOG = default_catalog()


def test_nanogpt_openwebtext_ids_as_uint16() -> None:
    """karpathy/nanoGPT data/openwebtext/prepare.py: 9,035,582,198 tokens in uint16, train.bin ~17GB."""
    out = data_volume(DataVolumeInput(tokens_b=9.035582198, bytes_per_token_id=2, vocab_size=50_257), CATALOG)
    assert out.token_ids_tb == pytest.approx(0.01807, rel=1e-3)
    assert out.token_ids_tib * 1024 == pytest.approx(16.8, rel=0.01)  # the "~17GB" is binary
    assert not [w for w in out.warnings if "does not fit" in w]


def test_a_large_vocabulary_does_not_fit_uint16() -> None:
    out = data_volume(DataVolumeInput(tokens_b=15_000, bytes_per_token_id=2, vocab_size=128_256), CATALOG)
    assert out.token_ids_tb == pytest.approx(30)
    assert any("does not fit uint16" in w for w in out.warnings)


def test_data_kept_with_growth_and_copies() -> None:
    out = data_volume(
        DataVolumeInput(raw_tb=40, growth_tb_per_day=2, retention_days=180, replicas=3), CATALOG
    )
    assert out.kept_tb == pytest.approx((40 + 2 * 180) * 3)
    assert out.kept_pb == pytest.approx(1.2)


def test_the_read_rate_of_a_training_job_is_small() -> None:
    out = data_volume(
        DataVolumeInput(tokens_per_second_per_gpu=2500, gpus=2048, bytes_per_token_id=4), CATALOG
    )
    assert out.read_mb_s == pytest.approx(2500 * 2048 * 4 / 1e6)


def test_bloom_checkpoint_written_in_a_minute() -> None:
    """BigScience tr11-176B-ml README: a full BLOOM checkpoint is 2.3TB; in 60 s that is 38.3 GB/s."""
    out = data_volume(DataVolumeInput(checkpoint_tb=2.3, write_seconds=60), CATALOG)
    assert out.checkpoint_write_gb_s == pytest.approx(38.33, rel=1e-3)
    assert out.checkpoint_write_gbit_s == pytest.approx(306.7, rel=1e-3)


def test_bloom_checkpoint_shared_over_its_48_nodes() -> None:
    """BLOOM trained on 48 nodes of 8 A100s (tr11-176B-ml README): each writes, and an asynchronous save stages
    in host RAM, 2.3 TB / 48 = 47.9 GB; at 60 s that is 0.8 GB/s from each node."""
    out = data_volume(DataVolumeInput(checkpoint_tb=2.3, write_seconds=60, nodes=48), CATALOG)
    assert out.checkpoint_share_gb == pytest.approx(47.92, rel=1e-3)
    assert out.checkpoint_write_gb_s_per_node == pytest.approx(38.33 / 48, rel=1e-3)
    alone = data_volume(DataVolumeInput(checkpoint_tb=2.3, nodes=48), CATALOG)  # the share alone is enough
    assert alone.checkpoint_write_gb_s is None
    assert alone.checkpoint_share_gb == pytest.approx(47.92, rel=1e-3)


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"checkpoint_tb": 1},
        {"nodes": 4, "tokens_b": 1},
        {"raw_tb": 10, "growth_tb_per_day": 1},
        {"tokens_per_second_per_gpu": 3000},
    ],
)
def test_incomplete_inputs_are_refused(payload: dict[str, object]) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - pydantic's ValidationError names the field
        DataVolumeInput.model_validate(payload)


def test_checkpoints_kept_for_a_window_at_an_interval() -> None:
    """A 1.8 TB checkpoint every 30 minutes, kept for 48 hours: 96 on disk plus the one being written."""
    out = data_volume(
        DataVolumeInput(checkpoint_tb=1.8, checkpoint_interval_hours=0.5, checkpoint_window_hours=48), CATALOG
    )
    assert out.checkpoints_kept == 96
    assert out.checkpoints_tb == pytest.approx(1.8 * 97)
    counted = data_volume(DataVolumeInput(checkpoint_tb=2, checkpoints_kept=10), CATALOG)
    assert counted.checkpoints_tb == pytest.approx(22)
    assert counted.checkpoint_write_gb_s is None  # no write deadline given, no write rate


def test_a_corpus_kept_several_times_counts_its_text_and_ids_each_time() -> None:
    """15T tokens: ids 15e12 x 4 bytes = 60 TB (uint32 for a 128k vocabulary), raw text 15e12 x 4 bytes = 60 TB;
    three copies of both = 360 TB."""
    out = data_volume(DataVolumeInput(tokens_b=15_000, bytes_per_token_id=4, replicas=3), CATALOG)
    assert (out.token_ids_tb, out.raw_text_tb, out.kept_tb) == (60, 60, 360)


def test_video_clips_read_per_gpu_set_the_read_bandwidth() -> None:
    """64 GPUs x 40 clips/s x 2 MB = 5,120 MB/s; samples and tokens are two ways to state one rate, not both."""
    out = data_volume(DataVolumeInput(samples_per_second_per_gpu=40, sample_mb=2, gpus=64), default_catalog())
    assert out.read_mb_s == 5120
    with pytest.raises(ValidationError, match="together"):
        DataVolumeInput(samples_per_second_per_gpu=40, gpus=64)


def test_a_checkpoint_copied_over_a_link_takes_its_bits_over_the_rate() -> None:
    """1 TB = 8e12 bits; over 2 x 200 Gbit/s (4e11 bit/s) that is 20 s at line rate (SI units: 1 TB = 10^12 B)."""
    out = data_volume(DataVolumeInput(checkpoint_tb=1, link_gbit_s=400), CATALOG)
    assert out.transfer_seconds == pytest.approx(20)


def test_raw_text_still_to_tokenize_gives_its_tokens_and_ids() -> None:
    """2 PB of raw text, 20% kept after cleaning: 400 TB of text; at OpenAI's ~4 bytes of English text per token
    that is 100T tokens, 400 TB as uint32 ids; three copies on 20 TB disks take 1,200 / 20 = 60 disks."""
    out = data_volume(DataVolumeInput(text_tb=2000, kept_share=0.2, replicas=3, disk_tb=20), CATALOG)
    assert out.raw_text_tb == pytest.approx(400)
    assert out.tokens_b == pytest.approx(100_000)
    assert out.token_ids_tb == pytest.approx(400)
    assert out.kept_tb == pytest.approx(1200)
    assert out.disks == 60


def test_compressed_text_is_uncompressed_before_it_is_counted() -> None:
    """40 TB of jsonl.zst at zstd's default level (lzbench, Silesia: 31.39% kept, 3.19:1) is 127.6 TB of text,
    31.9T tokens at 4 bytes each; the source is cited."""
    out = data_volume(DataVolumeInput(text_tb=40, compression_ratio=3.19), CATALOG)
    assert out.text_uncompressed_tb == pytest.approx(127.6)
    assert out.tokens_b == pytest.approx(31_900)
    assert any("lzbench" in s.title for s in out.sources)


def test_text_and_tokens_are_not_given_together() -> None:
    with pytest.raises(ValidationError, match="text_tb estimates the tokens"):
        DataVolumeInput(text_tb=10, tokens_b=100)


def test_disks_for_tokens_alone_round_up() -> None:
    # 3T tokens x 4 bytes = 12 TB on 7.68 TB disks: 1.56, so 2 disks
    out = data_volume(DataVolumeInput(tokens_b=3000, disk_tb=7.68), CATALOG)
    assert out.disks == 2


def test_checkpoints_kept_are_priced_per_gb_month() -> None:
    # 20 x 900 GB kept at ¥0.12 per GB-month (the price given): 18,000 GB, ¥2,160 a month
    out = data_volume(
        DataVolumeInput(checkpoint_tb=0.9, checkpoints_kept=20, price_per_gb_month=0.12, currency="CNY"),
        CATALOG,
    )
    assert out.priced_gb == pytest.approx(18_000)
    assert out.monthly_cost == pytest.approx(2160)
