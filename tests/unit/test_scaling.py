"""Scaling efficiency from two measured runs, checked against published scale-outs."""

from __future__ import annotations

import pytest

from knowledge.catalog import default_catalog
from tools.common import CalculatorInputError
from tools.scaling import ScalingInput, scaling


def test_mlperf_training_v31_gpt3_scale_out_is_93_percent() -> None:
    """NVIDIA, MLPerf Training v3.1 (Nov 2023): GPT-3 175B in 10.9 min on 3,584 H100s and 3.9 min on 10,752,
    which NVIDIA reports as 93% scaling efficiency: (10.9 / 3.9) / 3 = 0.932."""
    out = scaling(
        ScalingInput(gpus_from=3584, rate_from=1 / 10.9, gpus_to=10752, rate_to=1 / 3.9, unit="runs/min"),
        default_catalog(),
    )
    assert out.efficiency == pytest.approx(0.93, abs=0.005)
    assert out.verdict == "excellent"


def test_llama3_405b_mfu_from_8k_to_16k_gpus_is_95_percent() -> None:
    """Llama 3 paper, Table 4: 43% MFU on 8,192 H100s and 41% on 16,384; per-GPU throughput falls by 41/43,
    so the doubling keeps 95.3% of linear."""
    out = scaling(ScalingInput(gpus_from=8192, rate_from=8192 * 0.43, gpus_to=16384, rate_to=16384 * 0.41),
                  default_catalog())  # fmt: skip
    assert out.efficiency == pytest.approx(41 / 43, abs=1e-4)
    assert out.ideal_speedup == 2


def test_a_four_times_scale_out_keeping_85_percent_is_normal() -> None:
    """64 -> 256 GPUs (4x), 1.2M -> 4.1M tokens/s (3.417x): 85.4%, the range of a first multi-node run."""
    out = scaling(ScalingInput(gpus_from=64, rate_from=1.2e6, gpus_to=256, rate_to=4.1e6), default_catalog())
    assert out.speedup == pytest.approx(3.4167, abs=1e-3)
    assert out.efficiency == pytest.approx(0.8542, abs=1e-3)
    assert out.verdict == "normal"
    assert out.linear_rate == pytest.approx(4.8e6)


def test_above_linear_is_flagged_and_equal_counts_are_refused() -> None:
    out = scaling(ScalingInput(gpus_from=64, rate_from=1e6, gpus_to=128, rate_to=2.2e6), default_catalog())
    assert out.efficiency == pytest.approx(1.1)
    assert any("above linear" in w for w in out.warnings)
    with pytest.raises(CalculatorInputError, match="same number of GPUs"):
        scaling(ScalingInput(gpus_from=64, rate_from=1e6, gpus_to=64, rate_to=1.1e6), default_catalog())
