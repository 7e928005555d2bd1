"""Time and GPU-hours from figures the user already knows (tools/run_time.py)."""

from __future__ import annotations

import pytest

from knowledge.catalog import default_catalog
from tools.run_time import RunTimeInput, run_time

CATALOG = default_catalog()


def test_deepseek_v3_gpu_hours_per_trillion_tokens_become_its_reported_days() -> None:
    """DeepSeek-V3 technical report (arXiv:2412.19437), §1: 'each trillion tokens requires only 180K H800
    GPU hours, i.e., 3.7 days on our cluster with 2048 H800 GPUs'."""
    out = run_time(RunTimeInput(gpu_hours=180_000, gpus=2048), CATALOG)
    assert out.days == pytest.approx(3.7, abs=0.05)
    assert out.hours == pytest.approx(180_000 / 2048, rel=1e-3)


def test_deepseek_v3_pre_training_flops_at_its_implied_mfu_give_its_gpu_hours() -> None:
    """DeepSeek-V3: 6 x 37B active x 14.8T tokens = 3.29e24 FLOPs (DOMAIN-PITFALLS sizing 4) and 2.664M
    H800 GPU-hours of pre-training (report, Table 1): 34.7% of the H800's 989 dense BF16 TFLOP/s."""
    out = run_time(RunTimeInput(training_flops=3.29e24, gpu="H800", mfu=0.347), CATALOG)
    assert out.gpu_hours == pytest.approx(2.664e6, rel=0.01)


def test_gpu_hours_within_a_deadline_need_whole_servers() -> None:
    out = run_time(RunTimeInput(gpu_hours=300_000, deadline_days=20), CATALOG)
    assert out.exact_gpus == pytest.approx(625)
    assert out.gpus == 632  # 79 servers of 8
    assert out.days == pytest.approx(300_000 / 632 / 24, rel=1e-3)


def test_a_measured_throughput_gives_the_days_without_a_model() -> None:
    out = run_time(RunTimeInput(tokens_b=2000, tokens_per_second_per_gpu=3000, gpus=512), CATALOG)
    assert out.days == pytest.approx(2e12 / (3000 * 512) / 86_400, rel=1e-3)
    assert out.gpu_hours == pytest.approx(2e12 / 3000 / 3600, rel=1e-3)


def test_a_measured_throughput_gives_gpu_hours_without_a_gpu_count() -> None:
    """DeepSeek-V3 (arXiv:2412.19437): 180K H800 GPU-hours per trillion tokens is 1e12 / 180,000 / 3,600 =
    1,543 tokens/s per GPU; that rate gives the 180K GPU-hours back with no GPU count, and no days."""
    out = run_time(RunTimeInput(tokens_b=1000, tokens_per_second_per_gpu=1e12 / 180_000 / 3600), CATALOG)
    assert out.gpu_hours == pytest.approx(180_000, rel=1e-3)
    assert (out.gpus, out.days) == (None, None)


def test_a_step_time_is_a_throughput() -> None:
    """2,048 sequences of 4,096 tokens every 12 s on 256 GPUs: 8,388,608 / 12 / 256 = 2,731 tokens/s/GPU."""
    out = run_time(RunTimeInput(step_time_s=12, tokens_per_step=2048 * 4096, gpus=256, tokens_b=600), CATALOG)
    assert out.tokens_per_second_per_gpu == pytest.approx(2730.7, rel=1e-3)
    assert out.days == pytest.approx(600e9 / (2048 * 4096) * 12 / 86_400, rel=1e-3)


@pytest.mark.parametrize(
    "payload",
    [{}, {"gpu_hours": 1000, "training_flops": 1e20, "gpu": "H100"}, {"training_flops": 1e22},
     {"step_time_s": 5, "gpus": 8}, {"tokens_per_second_per_gpu": 3000, "gpus": 8}],
)  # fmt: skip
def test_the_input_must_name_one_basis(payload: dict[str, object]) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - pydantic's ValidationError, with the field in the message
        RunTimeInput.model_validate(payload)


def test_a_finished_run_moved_to_a_faster_card_scales_by_the_dense_peaks() -> None:
    """64 A100s for 20 days = 30,720 A100-hours; x 312 / 989.4 (dense BF16, catalog) = 9,687 H100-hours, 6.31 days on
    64 H100s: 3.17x at the same MFU, the fastest case (Llama 3: 38-43% MFU on H100; Megatron-LM: 52% on A100)."""
    out = run_time(
        RunTimeInput(from_gpu="a100-80gb-sxm", from_gpus=64, from_days=20, gpu="h100-sxm"), CATALOG
    )
    assert out.gpu_hours == pytest.approx(9687, rel=1e-3)
    assert out.days == pytest.approx(6.31, rel=1e-3)
    assert out.speedup == pytest.approx(3.17, rel=1e-3)


def test_a_finished_run_on_more_gpus_of_the_same_card_reproduces_mlperfs_scaling() -> None:
    """MLPerf Training v3.1, GPT-3 175B (NVIDIA's blog, Nov 2023): 10.9 min on 3,584 H100s; at the 93% efficiency
    NVIDIA reports, 10,752 GPUs take 10.9 x 3,584 / 10,752 / 0.93 = 3.91 min, the 3.9 min published."""
    minutes = 1 / 1440
    out = run_time(
        RunTimeInput(from_gpus=3584, from_days=10.9 * minutes, gpus=10_752, scaling_efficiency=0.93), CATALOG
    )
    assert out.days is not None
    assert out.days / minutes == pytest.approx(3.9, abs=0.05)
    assert out.ideal_days is not None
    assert out.ideal_days / minutes == pytest.approx(10.9 / 3, rel=1e-3)


def test_a_finished_run_against_a_deadline_says_the_efficiency_it_needs() -> None:
    """64 GPUs x 7 days = 10,752 GPU-hours; on 512 GPUs linear is 0.875 days, at the assumed 90% 0.972 days, and a
    1-day deadline needs 0.875 / 1 = 87.5% efficiency. Fewer GPUs lose nothing to scaling."""
    out = run_time(RunTimeInput(from_gpus=64, from_days=7, gpus=512, deadline_days=1), CATALOG)
    assert (out.ideal_days, out.scaling_efficiency, out.efficiency_needed) == (0.875, 0.9, 0.875)
    assert out.days == pytest.approx(0.9722, rel=1e-3)
    assert any("90%" in a and "assumed" in a for a in out.assumptions)
    fewer = run_time(RunTimeInput(from_gpus=64, from_days=7, gpus=32), CATALOG)
    assert (fewer.days, fewer.scaling_efficiency) == (14, 1.0)
