"""The compute-optimal model for a budget, checked against Hoffmann et al. (2022), 'Training Compute-Optimal
Large Language Models', Table 3 (estimated optimal size for a FLOP budget, approach 1)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from knowledge.catalog import default_catalog
from tools.compute_optimal import ComputeOptimalInput, compute_optimal

CATALOG = default_catalog()


@pytest.mark.parametrize(
    ("flops", "params_b", "tokens_b"),
    [
        (1.23e22, 10, 205.1),  # Table 3: 10B parameters, 1.23e22 FLOPs, 205.1B tokens
        (5.76e23, 67, 1500),  # Table 3: 67B, 5.76e23 FLOPs, 1.5T tokens (Chinchilla itself: 70B on 1.4T)
        (1.27e26, 1000, 21200),  # Table 3: 1T, 1.27e26 FLOPs, 21.2T tokens
    ],
)
def test_chinchilla_table_3(flops: float, params_b: float, tokens_b: float) -> None:
    """N = sqrt(C / 120) at 20 tokens per parameter lands within 5% of the paper's fitted sizes."""
    out = compute_optimal(ComputeOptimalInput(training_flops=flops), CATALOG)
    assert out.params_b == pytest.approx(params_b, rel=0.05)
    assert out.tokens_b == pytest.approx(tokens_b, rel=0.1)


def test_money_buys_gpu_hours_at_the_price_given() -> None:
    """$500k at $2 per H100-hour: 250,000 GPU-hours x 3,600 s x 989.4 TFLOP/s x 40% = 3.56e23 FLOPs."""
    out = compute_optimal(ComputeOptimalInput(budget=500_000, price_per_gpu_hour=2), CATALOG)
    assert out.gpu_hours == pytest.approx(250_000)
    assert out.training_flops == pytest.approx(250_000 * 3600 * 989.4e12 * 0.4, rel=1e-3)
    assert out.params_b == pytest.approx((out.training_flops / 120) ** 0.5 / 1e9, rel=1e-3)


def test_a_fixed_model_gets_the_tokens_the_budget_buys() -> None:
    """Llama 2 7B's published run (Touvron et al. 2023, Table 2): 184,320 A100-80GB GPU-hours for 2T tokens.
    6 x 7e9 x 2e12 = 8.4e22 FLOPs; 184,320 h x 3,600 s x 312 TFLOP/s (A100 dense BF16, NVIDIA datasheet) =
    2.07e23 peak FLOPs, so the run's MFU was about 40.6%. At that MFU the same hours buy back its 2T tokens."""
    mfu = 8.4e22 / (184_320 * 3600 * 312e12)
    out = compute_optimal(
        ComputeOptimalInput(gpu_hours=184_320, gpu="a100-80gb-sxm", mfu=mfu, params_b=7), CATALOG
    )
    assert out.params_b == 7
    assert out.tokens_b == pytest.approx(2000, rel=1e-3)
    assert any("model fixed at 7B" in a for a in out.assumptions)


def test_gpus_for_days_give_the_days_back() -> None:
    out = compute_optimal(ComputeOptimalInput(gpus=256, days=30), CATALOG)
    assert out.gpu_hours == pytest.approx(256 * 30 * 24, rel=1e-3)
    assert out.days == pytest.approx(30)


def test_exactly_one_budget() -> None:
    with pytest.raises(ValidationError, match="exactly one"):
        ComputeOptimalInput(budget=1e6, gpu_hours=1000)
