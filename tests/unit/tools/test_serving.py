"""Serving cost per million tokens and servers for a peak demand (tools/serving.py)."""

from __future__ import annotations

import pytest

from knowledge.catalog import default_catalog
from tools.serving import ServingCapacityInput, ServingCostInput, serving_capacity, serving_cost

CATALOG = default_catalog()


def test_cost_per_million_tokens_is_the_hourly_price_over_tokens_per_hour() -> None:
    """$2.50 per GPU-hour at 1,500 tokens/s: 5.4M tokens an hour, $0.463 per million."""
    out = serving_cost(ServingCostInput(price_per_gpu_hour=2.5, tokens_per_second_per_gpu=1500), CATALOG)
    assert out.tokens_per_hour == pytest.approx(5.4e6)
    assert out.cost_per_million_tokens.usd == pytest.approx(2.5 / 5.4, rel=1e-3)


def test_cost_in_yuan_stays_in_yuan() -> None:
    out = serving_cost(
        ServingCostInput(price_per_gpu_hour=8, tokens_per_second_per_gpu=800, currency="CNY"), CATALOG
    )
    assert out.cost_per_million_tokens.cny == pytest.approx(8 / 2.88, rel=1e-3)


def test_idle_hours_raise_the_cost() -> None:
    busy = serving_cost(ServingCostInput(price_per_gpu_hour=2, tokens_per_second_per_gpu=1000), CATALOG)
    half = serving_cost(
        ServingCostInput(price_per_gpu_hour=2, tokens_per_second_per_gpu=1000, utilization=0.5), CATALOG
    )
    assert half.cost_per_million_tokens.usd == pytest.approx(2 * busy.cost_per_million_tokens.usd, rel=1e-3)


def test_servers_for_a_peak_with_headroom() -> None:
    out = serving_capacity(
        ServingCapacityInput(
            demand_tokens_per_second=50_000, tokens_per_second_per_server=6_000, headroom=0.2
        ),
        CATALOG,
    )
    assert (out.servers, out.gpus, out.exact_servers) == (10, 80, pytest.approx(10))


def test_servers_from_a_per_gpu_rate_round_up() -> None:
    out = serving_capacity(
        ServingCapacityInput(demand_tokens_per_second=30_000, tokens_per_second_per_gpu=900), CATALOG
    )
    assert out.servers == 5  # 30,000 / 7,200 = 4.17
    assert out.warnings == []


def test_one_rate_must_be_given() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        ServingCapacityInput(demand_tokens_per_second=1000)


def test_a_server_rate_is_shared_by_its_gpus() -> None:
    """2,500 tokens/s from a node of 8 GPUs at $2.50 per GPU-hour: $20 an hour buys 9M tokens, $2.22/M."""
    out = serving_cost(
        ServingCostInput(price_per_gpu_hour=2.5, tokens_per_second_per_server=2500, gpus_per_server=8),
        CATALOG,
    )
    assert out.tokens_per_second_per_gpu == pytest.approx(312.5)
    assert out.cost_per_million_tokens.usd == pytest.approx(20 / 9, rel=1e-3)


def test_cost_needs_exactly_one_rate() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        ServingCostInput(price_per_gpu_hour=2.5)
