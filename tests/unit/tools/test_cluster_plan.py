from __future__ import annotations

import pytest

from knowledge.catalog import default_catalog
from tools.cluster_plan import ClusterPlanInput, cluster_plan
from tools.common import CalculatorInputError

CATALOG = default_catalog()


def plan(**kwargs: object):  # type: ignore[no-untyped-def]
    return cluster_plan(ClusterPlanInput.model_validate(kwargs), CATALOG)


def test_every_option_meets_the_deadline_and_fits_memory() -> None:
    out = plan(params_b=70, tokens_b=2000, deadline_days=60)
    assert out.options
    for option in out.options:
        assert option.meets_deadline
        assert option.days <= 60
        assert option.gpus % 8 == 0
        assert option.gpus >= option.min_gpus_for_memory
    assert out.recommendation.startswith(f"{out.options[0].gpus} x {out.options[0].gpu}")


def test_options_are_ranked_by_cost_then_time() -> None:
    out = plan(params_b=13, tokens_b=1000, deadline_days=30, candidates=["H100", "A100", "H200", "MI300X"])
    costs = [min(c for c in (o.cloud_usd, o.buy_usd) if c) for o in out.options]
    assert costs == sorted(costs)
    fastest = plan(
        params_b=13, tokens_b=1000, deadline_days=30, candidates=["H100", "A100", "H200"], rank_by="time"
    )
    days = [o.days for o in fastest.options]
    assert days == sorted(days)


def test_cloud_cost_is_gpu_hours_times_the_cheapest_catalog_price() -> None:
    out = plan(params_b=7, tokens_b=1000, candidates=["H100"])
    option = out.options[0]
    cheapest = CATALOG.cloud_prices_for("h100-sxm")[0].usd_per_accelerator_hour
    assert option.cloud_usd == pytest.approx(option.gpu_hours * cheapest, rel=1e-3)
    assert option.cloud_price_source


def test_a_tight_budget_is_reported_not_hidden() -> None:
    out = plan(params_b=70, tokens_b=2000, deadline_days=60, budget_usd=1000)
    assert all(o.within_budget is False for o in out.options)
    assert "budget" in out.recommendation


def test_memory_sets_the_floor_when_there_is_no_deadline() -> None:
    out = plan(params_b=175, tokens_b=300, candidates=["A100 40GB"])
    option = out.options[0]
    assert option.gpus == -(-option.min_gpus_for_memory // 8) * 8


def test_unknown_candidates_are_named() -> None:
    with pytest.raises(CalculatorInputError, match="did you mean") as info:
        plan(params_b=7, candidates=["H100", "Z9000"])
    assert info.value.field == "candidates"


def test_a_budget_without_a_deadline_buys_the_shortest_run_it_can() -> None:
    """$3M and no deadline: each GPU is sized to the most whole servers the budget buys (catalog price x
    (1 + 30% platform, network and storage share)), and the fastest comes first, never the cheapest run
    of several years."""
    out = plan(params_b=70, tokens_b=2000, budget_usd=3_000_000, candidates=["H100", "A100"])
    h100 = next(o for o in out.options if o.gpu_id == "h100-sxm")
    price = CATALOG.prices_for("h100-sxm")[0].usd * 1.30 * 8
    assert h100.gpus == int(3_000_000 // price) * 8
    assert h100.buy_usd is not None
    assert h100.buy_usd <= 3_000_000
    assert [o.days for o in out.options] == sorted(o.days for o in out.options)
    assert "fastest" in out.recommendation


def test_a_budget_does_not_buy_more_servers_for_a_run_the_smallest_cluster_finishes_in_days() -> None:
    """32B fine-tuned on 5B tokens is 6 x 32e9 x 5e9 = 9.6e20 FLOPs: on 16 H100 at 40% MFU 9.6e20 / (16 x
    989e12 x 0.4) = 1.5e5 s, under two days; a $700k budget then buys the cluster that holds the model, not
    all the servers it could; a 1T-token run of 70B, weeks long, still spends the budget on speed."""
    small = plan(params_b=32, tokens_b=5, gpu="H100", budget_usd=700_000)
    h100 = next(o for o in small.options if "H100 SXM" in o.gpu)
    assert h100.gpus <= 24, h100
    large = plan(params_b=70, tokens_b=1000, gpu="H100", budget_usd=2_000_000)
    big = next(o for o in large.options if "H100 SXM" in o.gpu)
    assert big.gpus > 24, big
