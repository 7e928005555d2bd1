"""Cost calculators: exact arithmetic on hand-computed cases, published figures, units, monotonicity, bad input.

Published figures reproduced (source named at each case):
- DeepSeek-V3 technical report (arXiv:2412.19437), Table 1: 2.788M H800 GPU-hours x $2 = $5.576M, and
  "180K H800 GPU hours per trillion tokens ... 3.7 days on our cluster with 2048 H800 GPUs".
- AWS p5.48xlarge $98.32 per instance-hour = $12.29 per GPU-hour before the June 2025 cut, $55.04 = $6.88
  after (catalog entries aws-p5-48xlarge-us-east-1-*; DOMAIN-PITFALLS hardware item 13).
- NVIDIA DGX H100 user guide: 10.2 kW maximum system power (vs 8 x 700 W = 5.6 kW of GPUs).
- Energy from the formula with stated inputs: 10.2 kW x 8,760 h x PUE 1.5 x $0.10/kWh = $13,402.80.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from knowledge.catalog import Catalog, default_catalog
from tools.common import CalculatorInputError, ToolInput
from tools.cost import (
    BudgetFitInput,
    CloudCostInput,
    PowerCostInput,
    QuoteInput,
    TcoInput,
    budget_fit,
    cloud_cost,
    power_cost,
    quote,
    tco,
)
from tools.cost.tco import annuity_payment

CATALOG = default_catalog()
REL = 1e-9
PROPERTY = settings(max_examples=60, deadline=None, database=None)


# --- exact arithmetic, hand-computed ---------------------------------------------------------------

POWER_CASES = [
    pytest.param(
        # 1 x 700 W, no overhead, PUE 1, all year, $0.10: 0.7 kW x 8760 h = 6,132 kWh = $613.20 = ¥4,292.40
        {"gpu": "H100", "gpus": 1, "server_overhead_share": 0, "pue": 1, "utilization": 1, "electricity_price_per_kwh": 0.1,
             "usd_to_cny": 7},
        {"gpu_power_kw": 0.7, "it_power_kw": 0.7, "wall_power_kw": 0.7, "energy_mwh_per_year": 6.132,
             "usd": 613.2, "cny": 4292.4},
        id="one-gpu-700w",
    ),
    pytest.param(
        # 2 x 500 W = 1 kW, +50% = 1.5 kW, x1.2 = 1.8 kW; x 8760 x 0.5 = 7,884 kWh; ¥0.7/kWh at 7 = $0.10
        {"gpu": "H100", "gpus": 2, "gpu_tdp_w": 500, "server_overhead_share": 0.5, "pue": 1.2, "utilization": 0.5,
             "electricity_price_per_kwh": 0.7, "currency": "CNY", "usd_to_cny": 7},
        {"gpu_power_kw": 1.0, "it_power_kw": 1.5, "wall_power_kw": 1.8, "energy_mwh_per_year": 7.884,
             "usd": 788.4, "cny": 5518.8},
        id="cny-tariff",
    ),
    pytest.param(
        # 16 A100s = 2 DGX A100 x 6 kW (given) = 12 kW, x1.25 = 15 kW; x 8760 = 131,400 kWh x $0.20 = $26,280
        {"server": "dgx-a100", "gpus": 16, "server_power_kw": 6, "pue": 1.25, "utilization": 1,
             "electricity_price_per_kwh": 0.2, "usd_to_cny": 7},
        {"gpu_power_kw": 6.4, "it_power_kw": 12.0, "wall_power_kw": 15.0, "energy_mwh_per_year": 131.4,
             "usd": 26280.0, "cny": 183960.0},
        id="two-servers",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("payload", "expected"), POWER_CASES)
def test_power_cost_arithmetic(payload: dict[str, Any], expected: dict[str, float]) -> None:
    out = power_cost(PowerCostInput(**payload), CATALOG)
    for name in ("gpu_power_kw", "it_power_kw", "wall_power_kw", "energy_mwh_per_year"):
        assert getattr(out, name) == pytest.approx(expected[name], rel=REL), name
    assert out.yearly_energy_cost.usd == pytest.approx(expected["usd"], rel=REL)
    assert out.yearly_energy_cost.cny == pytest.approx(expected["cny"], rel=REL)


CLOUD_CASES = [
    pytest.param({"gpu": "H100", "gpu_hours": 1000, "price_per_gpu_hour": 2, "usd_to_cny": 7}, 1000, 2000.0,
                 14000.0, id="gpu-hours"),
    pytest.param({"gpu": "A100 80GB", "gpus": 8, "days": 2, "price_per_gpu_hour": 3, "usd_to_cny": 7}, 384, 1152.0,
                 8064.0, id="gpus-x-days"),
    pytest.param({"gpu": "H100", "gpu_hours": 1000, "price_per_gpu_hour": 14, "currency": "CNY", "usd_to_cny": 7},
                 1000, 2000.0, 14000.0, id="cny-price"),
]  # fmt: skip


def test_a_second_pue_prices_the_same_load_in_the_other_facility() -> None:
    """The Green Grid's PUE is facility energy over IT energy (White Paper 49), so the same 1 MW of IT load all
    year costs 1,000 kW x 8,760 h x PUE x tariff: at ¥0.5/kWh, ¥6,570,000 at PUE 1.5 and ¥5,256,000 at 1.2, a
    difference of ¥1,314,000 a year (0.3 x 8,760 MWh x ¥500)."""
    out = power_cost(
        PowerCostInput(
            gpu="h100-sxm", gpus=8, it_power_kw=1000, pue=1.5, compare_pue=1.2, utilization=1.0, electricity_price_per_kwh=0.5,
            currency="CNY",
        ),
        CATALOG,
    )  # fmt: skip
    assert out.yearly_energy_cost.cny == pytest.approx(6_570_000)
    assert out.compare_yearly_energy_cost is not None
    assert out.compare_yearly_energy_cost.cny == pytest.approx(5_256_000)
    assert out.yearly_difference is not None
    assert out.yearly_difference.cny == pytest.approx(-1_314_000)


def test_an_always_on_load_runs_all_year_while_the_servers_run_at_their_utilisation() -> None:
    """8 servers at their DGX H100 rating (user guide: 10.2 kW) at 75% of the year, plus 6 kW of network and
    storage that never stops, behind PUE 1.35 at ¥0.65/kWh: (81.6 x 0.75 + 6) kW x 1.35 x 8,760 h =
    794,707 kWh = ¥516,560 a year; the same 6 kW counted at 75% would give ¥493,505."""
    out = power_cost(
        PowerCostInput(
            gpu="h100-sxm", gpus=64, server_power_kw=10.2, servers=8, always_on_kw=6, utilization=0.75, pue=1.35,
            electricity_price_per_kwh=0.65, currency="CNY",
        ),
        CATALOG,
    )  # fmt: skip
    assert out.it_power_kw == pytest.approx(87.6), "the draw the room carries includes the always-on load"
    assert out.energy_mwh_per_year == pytest.approx(794.707, abs=1e-3)
    assert out.yearly_energy_cost.cny == pytest.approx(516_560, abs=1)
    assert any("6 kW drawn all year" in a for a in out.assumptions), out.assumptions


@pytest.mark.parametrize(("payload", "gpu_hours", "usd", "cny"), CLOUD_CASES)
def test_cloud_cost_arithmetic(payload: dict[str, Any], gpu_hours: float, usd: float, cny: float) -> None:
    out = cloud_cost(CloudCostInput(**payload), CATALOG)
    assert out.gpu_hours == pytest.approx(gpu_hours, rel=REL)
    assert out.total.usd == pytest.approx(usd, rel=REL)
    assert out.total.cny == pytest.approx(cny, rel=REL)


def test_cloud_cost_adds_the_storage_line_the_user_gives() -> None:
    """50 TB kept 2 months at ¥0.12 per GB-month is 50,000 GB x 0.12 x 2 = ¥12,000 (storage is billed in
    decimal GB, as the providers' price sheets state), beside 2,000 GPU-hours x ¥28 = ¥56,000."""
    out = cloud_cost(
        CloudCostInput(
            gpu="A100 80GB",
            gpu_hours=2000,
            price_per_gpu_hour=28,
            currency="CNY",
            usd_to_cny=7,
            storage_tb=50,
            storage_price_per_gb_month=0.12,
            storage_months=2,
        ),
        CATALOG,
    )
    assert out.storage is not None
    assert out.total_with_storage is not None
    assert out.storage.cny == pytest.approx(12_000, rel=REL)
    assert out.total.cny == pytest.approx(56_000, rel=REL)
    assert out.total_with_storage.cny == pytest.approx(68_000, rel=REL)
    with pytest.raises(ValueError, match="together"):
        CloudCostInput(gpu="H100", gpu_hours=10, storage_tb=5)


# 8 GPUs x $10,000 = 80,000; platform 25% = 20,000; network/storage 20% of 100,000 = 20,000: capex 120,000.
# Power: 8 x 1 kW, PUE 1 -> 8 kW x 8760 h x 0.5 = 35,040 kWh x $0.10 = 3,504/yr.
# Fixed opex: maintenance 5% = 6,000; licences 8 x 100 = 800; staff 1,000; colocation 8 kW x 10 x 12 = 960.
# Buy: 120,000 + 2 x (3,504 + 8,760) = 144,528.  Lease: 2% x 120,000 = 2,400/month over the assumed 36-month
# term, maintenance included; the 12 months after the 2-year period are still owed and counted (in year 2):
# 36 x 2,400 + 2 x (12,264 - 6,000) = 86,400 + 12,528 = 98,928.  Cloud: 8 x 8760 x 0.5 = 35,040 GPU-h x $5 = 175,200/yr -> 350,400.
# Break-even month: 120,000 + 1,022 m <= 14,600 m -> m >= 8.84 -> 9.
# Break-even utilisation: (120,000 + 2 x 8,760) / (2 x (8 x 8760 x 5 - 8 kW x 8760 x 0.1)) = 137,520 / 686,784.
TCO_HAND = {
    "gpu": "H100", "gpus": 8, "years": 2, "utilization": 0.5, "capex_per_gpu": 10_000, "platform_share": 0.25,
    "network_storage_share": 0.2, "gpu_tdp_w": 1000, "server_overhead_share": 0, "pue": 1, "electricity_price_per_kwh": 0.1,
    "maintenance_share_per_year": 0.05, "licences_per_gpu_per_year": 100, "staff_per_year": 1000,
    "colocation_per_kw_month": 10, "lease_rate_per_month": 0.02, "lease_includes_maintenance": True,
    "cloud_price_per_gpu_hour": 5, "usd_to_cny": 7,
}  # fmt: skip


def test_tco_arithmetic() -> None:
    out = tco(TcoInput(**TCO_HAND), CATALOG)
    assert out.capex.usd == pytest.approx(120_000, rel=REL)
    assert [i.amount.usd for i in out.capex_items] == pytest.approx([80_000, 20_000, 20_000], rel=REL)
    opex = {i.name: i.amount.usd for i in out.buy_opex_items}
    assert opex == pytest.approx(
        {"electricity": 3504, "maintenance": 6000, "licences": 800, "staff": 1000, "colocation": 960}, rel=REL
    )
    assert out.buy_opex_per_year.usd == pytest.approx(12_264, rel=REL)
    assert out.lease_per_month.usd == pytest.approx(2_400, rel=REL)
    assert out.lease_opex_per_year.usd == pytest.approx(6_264, rel=REL)
    assert out.used_gpu_hours_per_year == pytest.approx(35_040, rel=REL)
    assert out.totals.buy.usd == pytest.approx(144_528, rel=REL)
    assert out.totals.lease.usd == pytest.approx(98_928, rel=REL)
    assert out.totals.cloud.usd == pytest.approx(350_400, rel=REL)
    assert out.totals.cloud.cny == pytest.approx(350_400 * 7, rel=REL)
    assert [(y.buy.usd, y.lease.usd, y.cloud.usd) for y in out.cash_flow] == [
        (132_264, 35_064, 175_200),
        (12_264, 63_864, 175_200),
    ]
    assert out.cash_flow[-1].cumulative.buy.usd == pytest.approx(out.totals.buy.usd, rel=REL)
    assert out.cheapest == "lease"
    assert out.break_even_month == 9
    assert out.break_even_utilization == round(137_520 / 686_784, 4)
    assert out.per_used_gpu_hour.buy.usd == round(144_528 / 70_080, 4)
    assert out.per_used_gpu_hour.cloud.usd == pytest.approx(5, rel=REL)


def test_a_resale_amount_comes_off_the_purchase_as_given() -> None:
    """Four servers at ¥1,000,000 plus the 10% network-and-storage share: ¥4,400,000 of capex. Sold for ¥800,000 at
    the end, the buy total falls by exactly ¥800,000, not by the same share of the network too (800,000 / 4,000,000
    = 20% of capex would be ¥880,000)."""
    base = {"gpu": "h800", "gpus": 32, "currency": "CNY", "capex_per_server": 1_000_000, "utilization": 1.0}
    sold = tco(TcoInput(resale_value=800_000, **base), CATALOG)  # type: ignore[arg-type]
    kept = tco(TcoInput(**base), CATALOG)  # type: ignore[arg-type]
    assert sold.resale is not None
    assert sold.resale.cny == pytest.approx(800_000)
    assert kept.totals.buy.cny - sold.totals.buy.cny == pytest.approx(800_000)


def test_tco_with_no_cloud_price_says_nothing_of_the_cloud() -> None:
    """The hand case on an H800, a card the catalog rents nowhere, with no cloud price given: buying (144,528)
    against leasing (70,128) only; the verdict names no cloud total and no break-even with it."""
    given = {k: v for k, v in TCO_HAND.items() if k != "cloud_price_per_gpu_hour"} | {"gpu": "H800"}
    out = tco(TcoInput(**given), CATALOG)
    assert out.cloud_priced is False
    assert out.cheapest == "lease"
    assert "cloud" not in out.verdict
    assert "lease $98,928" in out.verdict


def test_tco_colocation_per_month_is_added_to_the_per_kw_rent() -> None:
    """The hand case with $500 a month of rack rent on top of its per-kW colocation: 12 x 500 more opex a year
    for buying and leasing alike, nothing for the cloud."""
    base = tco(TcoInput(**TCO_HAND), CATALOG)
    out = tco(TcoInput(**TCO_HAND, colocation_per_month=500), CATALOG)
    opex = {i.name: i.amount.usd for i in out.buy_opex_items}
    assert opex["colocation"] == pytest.approx(960 + 6_000, rel=REL)
    assert out.totals.buy.usd == pytest.approx(base.totals.buy.usd + 2 * 6_000, rel=REL)
    assert out.totals.lease.usd == pytest.approx(base.totals.lease.usd + 2 * 6_000, rel=REL)
    assert out.totals.cloud.usd == pytest.approx(base.totals.cloud.usd, rel=REL)


def test_tco_resale_value_comes_back_at_the_end() -> None:
    """The hand case with 20% of the $120,000 capex recovered when the hardware is sold after 2 years."""
    out = tco(TcoInput(**TCO_HAND, residual_share=0.2), CATALOG)
    assert out.totals.buy.usd == pytest.approx(144_528 - 24_000, rel=REL)
    assert [y.buy.usd for y in out.cash_flow] == pytest.approx([132_264, 12_264 - 24_000], rel=REL)
    assert out.break_even_utilization == round((137_520 - 24_000) / 686_784, 4)
    assert out.break_even_month == 9  # the resale comes at the end; paying back is unchanged
    assert any(a.startswith("resale value 20% of capex") for a in out.assumptions)


def test_tco_a_stated_draw_paid_all_year_is_a_fixed_cost() -> None:
    """The hand case with its 8 kW counted every hour: 8 kW x 8,760 h x $0.10 = 7,008 a year whatever the
    utilisation (twice the 3,504 at 50%). Buy = 120,000 + 2 x (7,008 + 8,760) = 151,536. Break-even
    utilisation: (120,000 + 2 x (8,760 + 7,008)) / (2 x 8 x 8,760 x 5) = 151,536 / 700,800."""
    out = tco(TcoInput(**TCO_HAND, power_all_year=True), CATALOG)
    opex = {i.name: i.amount.usd for i in out.buy_opex_items}
    assert opex["electricity"] == pytest.approx(7_008, rel=REL)
    assert out.totals.buy.usd == pytest.approx(151_536, rel=REL)
    assert out.break_even_utilization == round(151_536 / 700_800, 4)
    busier = tco(TcoInput(**{**TCO_HAND, "utilization": 0.9}, power_all_year=True), CATALOG)
    assert busier.totals.buy.usd == pytest.approx(out.totals.buy.usd, rel=REL)  # the bill does not move
    assert any("average draw all year" in a for a in out.assumptions)


def test_tco_a_stated_electricity_bill_replaces_the_computed_one() -> None:
    """The hand case with the user's own bill of $5,000 a year: buy = 120,000 + 2 x (5,000 + 8,760) = 147,520,
    whatever the utilisation; break-even (120,000 + 2 x 13,760) / (2 x 8 x 8,760 x 5) = 147,520 / 700,800."""
    out = tco(TcoInput(**TCO_HAND, electricity_per_year=5_000), CATALOG)
    opex = {i.name: i.amount.usd for i in out.buy_opex_items}
    assert opex["electricity"] == pytest.approx(5_000, rel=REL)
    assert out.totals.buy.usd == pytest.approx(147_520, rel=REL)
    assert out.break_even_utilization == round(147_520 / 700_800, 4)
    busier = tco(TcoInput(**{**TCO_HAND, "utilization": 0.9}, electricity_per_year=5_000), CATALOG)
    assert busier.totals.buy.usd == pytest.approx(out.totals.buy.usd, rel=REL)
    assert "electricity 5,000 USD per year (given)" in out.assumptions


def test_tco_a_period_of_part_months_prorates_the_running_costs() -> None:
    """The hand case over 8.5 months: buy = 120,000 + 8.5/12 x (3,504 + 8,760) = 128,687 (electricity at 50%)."""
    out = tco(TcoInput(**TCO_HAND, months=8.5), CATALOG)
    assert out.years == pytest.approx(8.5 / 12, rel=REL)
    assert out.totals.buy.usd == pytest.approx(120_000 + 8.5 / 12 * (3_504 + 8_760), rel=REL)
    assert "period 8.5 months (given)" in out.assumptions


def test_quote_totals_a_count_with_a_share_in_both_currencies() -> None:
    """6 servers x $290,000 = $1,740,000, plus 15% = $2,001,000; at 7.25 CNY per USD, ¥14,507,250."""
    out = quote(QuoteInput(unit_price=290_000, count=6, extra_share=0.15, usd_to_cny=7.25), CATALOG)
    assert out.items.usd == pytest.approx(1_740_000, rel=REL)
    assert out.total.usd == pytest.approx(2_001_000, rel=REL)
    assert out.total.cny == pytest.approx(14_507_250, rel=REL)
    assert out.per_month is None


def test_quote_amortises_straight_line_over_the_months() -> None:
    """$2.6M over 48 months = $54,166.67 a month, $650,000 a year; over 64 GPUs x 48 x 730 h = 2,242,560
    GPU-hours, $1.1594 per GPU-hour. A yuan quote converts the other way: ¥2,300,000 at 7.0 = $328,571.43."""
    out = quote(QuoteInput(unit_price=2_600_000, months=48, gpus_per_item=64, usd_to_cny=7.2), CATALOG)
    assert out.per_month is not None
    assert out.per_year is not None
    assert out.per_gpu_hour is not None
    assert out.per_month.usd == pytest.approx(54_166.67, abs=0.01)
    assert out.per_month.cny == pytest.approx(390_000, abs=0.01)
    assert out.per_year.usd == pytest.approx(650_000, rel=REL)
    assert out.per_gpu_hour.usd == pytest.approx(2_600_000 / 2_242_560, abs=1e-4)
    yuan = quote(QuoteInput(unit_price=2_300_000, currency="CNY", usd_to_cny=7.0), CATALOG)
    assert yuan.total.usd == pytest.approx(328_571.43, abs=0.01)


def test_cloud_cost_adds_the_margin_given_to_the_gpu_hours() -> None:
    """DeepSeek-V3's 2.788M H800 GPU-hours at $2 (Table 1) with a 15% margin for failed runs and
    experiments, which the report's figure leaves out: 2.788M x 1.15 = 3.2062M GPU-hours = $6.4124M."""
    out = cloud_cost(
        CloudCostInput(gpu="H800", gpu_hours=2.788e6, price_per_gpu_hour=2, margin_share=0.15), CATALOG
    )
    assert out.gpu_hours_before_margin == pytest.approx(2.788e6, rel=REL)
    assert out.gpu_hours == pytest.approx(3.2062e6, rel=REL)
    assert out.total.usd == pytest.approx(6.4124e6, rel=REL)


def test_tco_break_even_month_is_the_first_month_buying_is_not_dearer() -> None:
    assert tco(TcoInput(**TCO_HAND), CATALOG).break_even_month == 9
    capex, opex_m, cloud_m = 120_000, 12_264 / 12, 175_200 / 12
    assert capex + opex_m * 8 > cloud_m * 8
    assert capex + opex_m * 9 <= cloud_m * 9
    never = tco(TcoInput(**{**TCO_HAND, "cloud_price_per_gpu_hour": 0.5}), CATALOG)
    assert never.break_even_month is None
    assert never.break_even_utilization is None
    assert never.cheapest != "buy"


def test_tco_user_lease_payment_and_capex_total() -> None:
    payload = {**TCO_HAND, "capex_per_gpu": None, "capex_total": 200_000, "lease_rate_per_month": 0.03}
    del payload["lease_rate_per_month"]
    out = tco(TcoInput(**payload, lease_per_month=5_000), CATALOG)
    assert out.capex.usd == 200_000
    assert out.purchase_price is None
    assert out.lease_per_month.usd == 5_000
    # maintenance 5% of 200,000 = 10,000 is in buy opex and left out of lease opex
    assert out.buy_opex_per_year.usd - out.lease_opex_per_year.usd == pytest.approx(10_000, rel=REL)


def test_the_annuity_payment_matches_a_published_example() -> None:
    # Microsoft Support, "PMT function" (Excel): $10,000 at 8% a year over 10 months is $1,037.03 a month
    assert annuity_payment(10_000, 0.08, 10) == pytest.approx(1_037.03, abs=0.005)
    # knowledge/corpus/en/budget-and-tco.md's leasing example: $320,000 over 36 months at 10% is about $10,300 a
    # month and $371,700 in all
    assert annuity_payment(320_000, 0.10, 36) == pytest.approx(10_325.50, abs=0.01)
    assert annuity_payment(36_000, 0.0, 36) == 1_000


def test_a_derived_lease_is_an_annuity_and_stops_at_the_term() -> None:
    """The hand case (capex $120,000, lease opex $6,264 a year) over 5 years with no payment given: capex repaid
    over the assumed 36 months at the assumed 10% APR, $3,872.06 a month, paid 36 times ($139,394), then only the
    opex; the old 3% of capex for all 60 months paid $216,000."""
    hand = {k: v for k, v in TCO_HAND.items() if k not in {"lease_rate_per_month", "years"}}
    out = tco(TcoInput(**hand, years=5), CATALOG)
    payment = 120_000 * (0.10 / 12) / (1 - (1 + 0.10 / 12) ** -36)
    assert out.lease_per_month.usd == pytest.approx(payment, abs=0.005)  # Money is rounded to the cent
    assert (out.lease_term_months, out.lease_apr, out.lease_months_paid) == (36, 0.10, 36)
    assert out.totals.lease.usd == pytest.approx(36 * payment + 5 * 6_264, abs=0.005)
    assert [y.lease.usd for y in out.cash_flow] == pytest.approx(
        [12 * payment + 6_264] * 3 + [6_264] * 2, abs=0.005
    )
    assert out.cash_flow[-1].cumulative.lease.usd == pytest.approx(out.totals.lease.usd, rel=REL)
    assert any("36-month term (assumed) at 10% APR (assumed)" in a for a in out.assumptions)
    assert any(a.startswith("lease payments stop after the 36-month term (assumed), 36 of the period's 60") for a in out.assumptions)  # fmt: skip


def test_a_given_lease_payment_also_stops_at_the_term() -> None:
    """$5,000 a month over a 24-month term given, compared over 3 years: 24 payments ($120,000), and the third
    year carries the running costs only."""
    hand = {k: v for k, v in TCO_HAND.items() if k not in {"lease_rate_per_month", "years"}}
    out = tco(TcoInput(**hand, years=3, lease_per_month=5_000, lease_term_months=24), CATALOG)
    assert out.lease_apr is None
    assert out.totals.lease.usd == pytest.approx(24 * 5_000 + 3 * 6_264, rel=REL)
    assert out.cash_flow[2].lease.usd == pytest.approx(6_264, rel=REL)


def test_a_rent_with_hosting_runs_the_whole_period_and_a_short_period_still_pays_the_term() -> None:
    """A 36-month lease compared over 2 years: the 12 payments after the period are owed and counted (set 36:
    a 6-month need was told to lease for 6 of 36 payments)."""
    hand = {k: v for k, v in TCO_HAND.items() if k not in {"lease_rate_per_month", "years"}}
    rent = tco(TcoInput(**hand, years=5, lease_per_month=5_000, lease_all_in=True), CATALOG)
    assert (rent.lease_term_months, rent.totals.lease.usd) == (None, 60 * 5_000)
    short = tco(TcoInput(**TCO_HAND), CATALOG)  # 2 years of a 36-month lease at 2% of capex
    assert short.totals.lease.usd == pytest.approx(36 * 2_400 + 2 * 6_264, rel=REL)
    assert any(
        w.startswith("the period ends 12 months before the 36-month lease term") and "counted" in w
        for w in short.warnings
    )
    one_year = tco(TcoInput(**{**TCO_HAND, "years": 1}), CATALOG)
    assert one_year.totals.lease.usd == pytest.approx(36 * 2_400 + 6_264, rel=REL)


def test_an_apr_and_a_payment_together_are_refused() -> None:
    with pytest.raises(ValidationError, match="lease_apr"):
        TcoInput(gpu="H100", gpus=8, lease_per_month=5_000, lease_apr=0.08)


# --- catalog values, read by id, and overridden by the user ------------------------------------------


def test_defaults_come_from_the_catalog_passed_in() -> None:
    d = CATALOG.defaults
    out = power_cost(PowerCostInput(gpu="H100", gpus=8), CATALOG)
    assert out.pue == d.pue_air
    assert out.electricity_usd_per_kwh == d.electricity_usd_per_kwh
    assert out.usd_to_cny == d.usd_to_cny
    assert out.it_power_kw == pytest.approx(8 * 0.7 * (1 + d.server_overhead_share), rel=REL)
    assert str(d.as_of) in " ".join(out.assumptions)
    liquid = power_cost(PowerCostInput(gpu="H100", gpus=8, cooling="liquid"), CATALOG)
    assert liquid.pue == d.pue_liquid

    changed = d.model_copy(update={"pue_air": 1.3, "electricity_usd_per_kwh": 0.2, "usd_to_cny": 6.5})
    other: Catalog = CATALOG.model_copy(update={"defaults": changed})
    out2 = power_cost(PowerCostInput(gpu="H100", gpus=8), other)
    assert (out2.pue, out2.electricity_usd_per_kwh, out2.usd_to_cny) == (1.3, 0.2, 6.5)


def test_user_values_override_the_catalog() -> None:
    out = power_cost(
        PowerCostInput(
            gpu="H100", gpus=8, pue=1.1, cooling="liquid", usd_to_cny=7.5, electricity_price_per_kwh=0.3
        ),
        CATALOG,
    )
    assert (out.pue, out.usd_to_cny, out.electricity_usd_per_kwh) == (1.1, 7.5, 0.3)
    dgx = power_cost(PowerCostInput(server="dgx-h100", server_power_kw=8.0), CATALOG)
    assert dgx.it_power_kw == 8.0


def test_tco_reads_the_catalog_purchase_price_with_date_and_kind() -> None:
    dgx_price = CATALOG.prices_for("dgx-h100")[0]
    out = tco(TcoInput(server="dgx-h100", gpus=16, cloud_price_per_gpu_hour=4), CATALOG)
    assert out.purchase_price is not None
    assert (out.purchase_price.id, out.purchase_price.kind, out.purchase_price.as_of) == (
        dgx_price.id,
        dgx_price.kind,
        dgx_price.as_of,
    )
    # two servers, no platform share (the server price includes it), plus the default 10% network/storage
    assert out.capex.usd == pytest.approx(2 * dgx_price.usd * 1.10, rel=REL)
    gpu_price = CATALOG.prices_for("h100-sxm")[0]
    per_gpu = tco(TcoInput(gpu="H100", gpus=8), CATALOG)
    assert per_gpu.purchase_price is not None
    assert per_gpu.purchase_price.id == gpu_price.id
    assert per_gpu.capex.usd == pytest.approx(8 * gpu_price.usd * 1.30 * 1.10, rel=REL)
    # the cheapest current on-demand catalog price is the cloud default
    cheapest = min(
        c.usd_per_accelerator_hour
        for c in CATALOG.cloud_prices_for("h100-sxm")
        if c.pricing == "on-demand" and c.id != "aws-p5-48xlarge-us-east-1-pre-2025-06"
    )
    assert per_gpu.cloud_usd_per_gpu_hour == cheapest


def test_cloud_cost_lists_dated_prices_cheapest_and_median() -> None:
    out = cloud_cost(CloudCostInput(gpu="H100", gpu_hours=100), CATALOG)
    catalog_ids = {c.id for c in CATALOG.cloud_prices_for("h100-sxm")}
    assert {r.id for r in out.prices} == catalog_ids
    assert all(isinstance(r.as_of, date) for r in out.prices)
    counted = sorted(r.usd_per_gpu_hour for r in out.prices if r.counted)
    assert all(r.pricing == "on-demand" and not r.superseded for r in out.prices if r.counted)
    assert out.cheapest is not None
    assert out.cheapest.usd_per_gpu_hour == counted[0]
    mid = len(counted) // 2
    median = counted[mid] if len(counted) % 2 else (counted[mid - 1] + counted[mid]) / 2
    assert out.median_usd_per_gpu_hour == pytest.approx(median, rel=1e-6)
    assert out.total.usd == pytest.approx(100 * counted[0], rel=REL)
    assert out.total_at_median is not None
    assert out.total_at_median.usd == pytest.approx(100 * median, rel=1e-6)
    with_community = cloud_cost(CloudCostInput(gpu="H100", gpu_hours=100, on_demand_only=False), CATALOG)
    assert with_community.cheapest is not None
    assert with_community.cheapest.usd_per_gpu_hour <= out.cheapest.usd_per_gpu_hour


# --- published figures -----------------------------------------------------------------------------


def test_deepseek_v3_training_cost() -> None:
    """DeepSeek-V3 technical report (arXiv:2412.19437), Table 1: 2,788K H800 GPU-hours x $2 = $5.576M."""
    out = cloud_cost(CloudCostInput(gpu="H800", gpu_hours=2_788_000, price_per_gpu_hour=2), CATALOG)
    assert out.total.usd == 5_576_000  # published $5.576M: error 0
    pre = cloud_cost(CloudCostInput(gpu="H800", gpu_hours=2_664_000, price_per_gpu_hour=2), CATALOG)
    assert pre.total.usd == 5_328_000  # published pre-training $5.328M: error 0
    assert out.total.cny == pytest.approx(5_576_000 * CATALOG.defaults.usd_to_cny, rel=REL)


def test_deepseek_v3_gpu_hours_per_trillion_tokens() -> None:
    """DeepSeek-V3 report §1: 180K H800 GPU-hours per trillion tokens = 3.7 days on 2,048 H800s."""
    out = cloud_cost(CloudCostInput(gpu="H800", gpus=2048, days=3.7, price_per_gpu_hour=2), CATALOG)
    assert out.gpu_hours == pytest.approx(181_862.4, rel=REL)
    assert out.gpu_hours / 180_000 - 1 == pytest.approx(0.0103, abs=1e-4)  # +1.0%: "3.7 days" is rounded


def test_aws_p5_price_before_and_after_the_june_2025_cut() -> None:
    """Catalog entries aws-p5-48xlarge-us-east-1-*: $98.32/h / 8 = $12.29 (2023), $55.04/h / 8 = $6.88 (2026)."""
    out = cloud_cost(CloudCostInput(gpu="H100", gpu_hours=8), CATALOG)
    rows = {r.id: r for r in out.prices}
    old = rows["aws-p5-48xlarge-us-east-1-pre-2025-06"]
    new = rows["aws-p5-48xlarge-us-east-1-2026"]
    assert (old.usd_per_gpu_hour, old.usd_per_instance_hour) == (12.29, 98.32)
    assert (new.usd_per_gpu_hour, new.usd_per_instance_hour) == (6.88, 55.04)
    assert old.superseded
    assert not old.counted
    assert not new.superseded
    assert any("12.29" in w for w in out.warnings)
    # one p5.48xlarge instance-hour (8 GPU-hours) at the old per-GPU price is the old instance price
    hour = cloud_cost(CloudCostInput(gpu="H100", gpu_hours=8, price_per_gpu_hour=12.29), CATALOG)
    assert hour.total.usd == 98.32  # error 0


def test_dgx_h100_power() -> None:
    """NVIDIA DGX H100 user guide: 10.2 kW maximum, more than 8 x 700 W = 5.6 kW of GPUs."""
    dgx = power_cost(PowerCostInput(server="DGX H100"), CATALOG)
    assert (dgx.gpus, dgx.servers, dgx.gpu_power_kw, dgx.it_power_kw) == (8, 1, 5.6, 10.2)
    # the default overhead share is derived from the same figure: 8 x 0.7 x 1.82 = 10.192 kW (-0.08%)
    by_tdp = power_cost(PowerCostInput(gpu="H100", gpus=8), CATALOG)
    assert by_tdp.it_power_kw > by_tdp.gpu_power_kw
    assert by_tdp.it_power_kw == pytest.approx(10.2, rel=0.005)


def test_dgx_h100_energy_cost_from_the_formula() -> None:
    """10.2 kW (DGX H100 max) x 8,760 h x PUE 1.5 x $0.10/kWh = $13,402.80 per year (inputs stated)."""
    out = power_cost(
        PowerCostInput(server="dgx-h100", pue=1.5, electricity_price_per_kwh=0.10, utilization=1), CATALOG
    )
    assert out.wall_power_kw == pytest.approx(15.3, rel=REL)
    assert out.energy_mwh_per_year == pytest.approx(134.028, rel=REL)
    assert out.yearly_energy_cost.usd == pytest.approx(13_402.80, rel=REL)
    assert round(out.yearly_energy_cost.usd) == 13_403


# --- units -----------------------------------------------------------------------------------------


def test_watts_and_kilowatts_are_not_mixed() -> None:
    out = power_cost(PowerCostInput(gpu="H100", gpus=1, server_overhead_share=0, pue=1), CATALOG)
    assert out.gpu_power_kw == 0.7  # 700 W, not 700 kW
    with pytest.raises(ValidationError) as exc:
        PowerCostInput(gpu="H100", gpus=1, gpu_tdp_w=0.7)  # kW given where watts are asked
    assert exc.value.errors()[0]["loc"] == ("gpu_tdp_w",)
    with pytest.raises(ValidationError) as exc:
        PowerCostInput(server="dgx-h100", server_power_kw=10_200)  # watts given where kW are asked
    assert exc.value.errors()[0]["loc"] == ("server_power_kw",)


def test_usd_and_cny_are_not_mixed() -> None:
    usd = power_cost(PowerCostInput(gpu="H100", gpus=8, electricity_price_per_kwh=0.1, usd_to_cny=7), CATALOG)
    cny = power_cost(
        PowerCostInput(gpu="H100", gpus=8, electricity_price_per_kwh=0.7, currency="CNY", usd_to_cny=7),
        CATALOG,
    )
    assert usd.yearly_energy_cost == cny.yearly_energy_cost
    # CNY is converted before rounding, so it may differ from rounded USD x 7 by up to 7 half-cents
    assert usd.yearly_energy_cost.cny == pytest.approx(usd.yearly_energy_cost.usd * 7, abs=0.04)
    assert cny.electricity_usd_per_kwh == pytest.approx(0.1, rel=REL)
    cents = power_cost(PowerCostInput(gpu="H100", gpus=8, electricity_price_per_kwh=8.5), CATALOG)
    assert any("cents" in w for w in cents.warnings)  # 8.5 cents typed as dollars
    yuan = power_cost(
        PowerCostInput(gpu="H100", gpus=8, electricity_price_per_kwh=0.6, currency="CNY"), CATALOG
    )
    assert not yuan.warnings
    with pytest.raises(ValidationError):
        PowerCostInput(gpu="H100", gpus=8, electricity_price_per_kwh=85)  # $85/MWh typed as per kWh


# --- monotonicity ----------------------------------------------------------------------------------

utilizations = st.floats(min_value=0.05, max_value=1.0, allow_nan=False)
prices = st.floats(min_value=0.0, max_value=2.0, allow_nan=False)


@PROPERTY
@given(u1=utilizations, u2=utilizations)
def test_higher_utilization_never_raises_buy_cost_per_used_gpu_hour(u1: float, u2: float) -> None:
    low, high = sorted((u1, u2))
    base = {**TCO_HAND, "usd_to_cny": None}
    at_low = tco(TcoInput(**{**base, "utilization": low}), CATALOG).per_used_gpu_hour.buy.usd
    at_high = tco(TcoInput(**{**base, "utilization": high}), CATALOG).per_used_gpu_hour.buy.usd
    assert at_high <= at_low + 1e-4  # outputs are rounded to 1e-4 $/GPU-hour


@PROPERTY
@given(p1=prices, p2=prices, gpu=st.sampled_from(["H100", "B200", "MI300X"]))
def test_higher_electricity_price_never_lowers_tco(p1: float, p2: float, gpu: str) -> None:
    low, high = sorted((p1, p2))
    a = tco(TcoInput(gpu=gpu, gpus=8, electricity_price_per_kwh=low), CATALOG).totals
    b = tco(TcoInput(gpu=gpu, gpus=8, electricity_price_per_kwh=high), CATALOG).totals
    for option in ("buy", "lease", "cloud"):
        assert getattr(b, option).usd >= getattr(a, option).usd - 0.01, option


@PROPERTY
@given(years=st.integers(min_value=1, max_value=9), server=st.sampled_from([None, "dgx-h100"]))
def test_more_years_never_lower_total_cost(years: int, server: str | None) -> None:
    payload: dict[str, Any] = {"server": server} if server else {"gpu": "H100", "gpus": 16}
    shorter = tco(TcoInput(**payload, years=years), CATALOG).totals
    longer = tco(TcoInput(**payload, years=years + 1), CATALOG).totals
    for option in ("buy", "lease", "cloud"):
        assert getattr(longer, option).usd >= getattr(shorter, option).usd, option


# --- bad input -------------------------------------------------------------------------------------

NEGATIVE_OR_ZERO = [
    pytest.param(CloudCostInput, {"gpu": "H100", "gpu_hours": 10, "price_per_gpu_hour": -2}, "price_per_gpu_hour",
                 id="negative-cloud-price"),
    pytest.param(PowerCostInput, {"gpu": "H100", "gpus": 8, "electricity_price_per_kwh": -0.1},
                 "electricity_price_per_kwh", id="negative-electricity-price"),
    pytest.param(TcoInput, {"gpu": "H100", "gpus": 8, "capex_per_gpu": -30_000}, "capex_per_gpu",
                 id="negative-capex"),
    pytest.param(PowerCostInput, {"gpu": "H100", "gpus": 0}, "gpus", id="zero-gpus-power"),
    pytest.param(CloudCostInput, {"gpu": "H100", "gpus": 0, "days": 1}, "gpus", id="zero-gpus-cloud"),
    pytest.param(TcoInput, {"gpu": "H100", "gpus": 0}, "gpus", id="zero-gpus-tco"),
    pytest.param(TcoInput, {"gpu": "H100", "gpus": 8, "years": 0}, "years", id="zero-years"),
    pytest.param(TcoInput, {"gpu": "H100", "gpus": 8, "utilization": 0}, "utilization", id="zero-utilization"),
    pytest.param(PowerCostInput, {"gpu": "H100", "gpus": 8, "pue": 0.9}, "pue", id="pue-below-1"),
    pytest.param(PowerCostInput, {"gpu": "H100", "gpu_count": 8}, "gpu_count", id="unknown-field"),
]  # fmt: skip


@pytest.mark.parametrize(("model", "payload", "field"), NEGATIVE_OR_ZERO)
def test_bad_values_are_rejected_naming_the_field(
    model: type[ToolInput], payload: dict[str, Any], field: str
) -> None:
    with pytest.raises(ValidationError) as exc:
        model(**payload)
    assert [e["loc"] for e in exc.value.errors()] == [(field,)]


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"gpu": "H100", "gpu_hours": 10, "gpus": 8, "days": 1}, "not both"),
        ({"gpu": "H100", "gpus": 8}, "gpu_hours"),
    ],
)
def test_cloud_amount_must_be_given_once(payload: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        CloudCostInput(**payload)


@pytest.mark.parametrize(
    ("run", "field", "suggestion"),
    [
        (lambda: power_cost(PowerCostInput(gpu="H1000", gpus=8), CATALOG), "gpu", "h100-sxm"),
        (lambda: cloud_cost(CloudCostInput(gpu="A1OO", gpu_hours=1), CATALOG), "gpu", "a100-80gb-sxm"),
        (lambda: tco(TcoInput(gpu="MI310X", gpus=8), CATALOG), "gpu", "mi300x"),
        (lambda: power_cost(PowerCostInput(server="dgx-h10"), CATALOG), "server", "dgx-h100"),
    ],
    ids=["power", "cloud", "tco", "server"],
)
def test_unknown_names_list_the_closest_catalog_names(run: Any, field: str, suggestion: str) -> None:
    with pytest.raises(CalculatorInputError) as exc:
        run()
    assert exc.value.field == field
    assert suggestion in exc.value.suggestions
    assert "did you mean" in str(exc.value)


@pytest.mark.parametrize(
    ("run", "field"),
    [
        (lambda: power_cost(PowerCostInput(gpu="H100"), CATALOG), "gpus"),
        (lambda: power_cost(PowerCostInput(gpus=8), CATALOG), "gpu"),
        (lambda: power_cost(PowerCostInput(gpu="B200", server="dgx-h100"), CATALOG), "gpu"),
        (lambda: power_cost(PowerCostInput(gpu="H100", gpus=8, server_power_kw=10), CATALOG), "server_power_kw"),
        (lambda: cloud_cost(CloudCostInput(gpu="H800", gpu_hours=10), CATALOG), "price_per_gpu_hour"),
        (lambda: tco(TcoInput(gpu="H800", gpus=8), CATALOG), "capex_per_gpu"),
    ],
    ids=["no-count", "no-gpu", "gpu-server-mismatch", "server-power-without-server", "no-cloud-price",
         "no-purchase-price"],
)  # fmt: skip
def test_inputs_that_cannot_be_computed_name_the_field(run: Any, field: str) -> None:
    with pytest.raises(CalculatorInputError) as exc:
        run()
    assert exc.value.field == field


# --- warnings and descriptions ---------------------------------------------------------------------


def test_partial_servers_and_liquid_cooled_racks_are_flagged() -> None:
    partial = power_cost(PowerCostInput(server="dgx-h100", gpus=12), CATALOG)
    assert (partial.servers, partial.installed_gpus, partial.it_power_kw) == (2, 16, 20.4)
    assert any("whole servers" in w for w in partial.warnings)
    # sold liquid-cooled only: the liquid PUE by default, and a warning when air cooling is asked for
    rack = power_cost(PowerCostInput(server="gb200-nvl72"), CATALOG)
    assert rack.pue == CATALOG.defaults.pue_liquid
    assert any("sold liquid-cooled" in a for a in rack.assumptions)
    aired = power_cost(PowerCostInput(server="gb200-nvl72", cooling="air"), CATALOG)
    assert any("liquid" in w for w in aired.warnings)
    # DGX B200 is air-cooled (14.3 kW): its card's notes mention the liquid-cooled GB200, not it
    b200 = power_cost(PowerCostInput(server="dgx-b200"), CATALOG)
    assert b200.pue == CATALOG.defaults.pue_air
    assert not any("liquid" in w for w in b200.warnings)


@pytest.mark.parametrize(
    ("fn", "model"), [(power_cost, PowerCostInput), (cloud_cost, CloudCostInput), (tco, TcoInput)]
)
def test_tools_are_described_for_an_llm(fn: Any, model: type[BaseModel]) -> None:
    summary = (fn.__doc__ or "").strip().split("\n\n")[0]
    assert summary
    assert "\n" not in summary
    schema = model.model_json_schema()
    missing = [name for name, prop in schema["properties"].items() if "description" not in prop]
    assert not missing


def test_tco_against_the_cloud_bill_the_team_pays_now() -> None:
    """A monthly cloud bill replaces GPU-hours x price: buying pays back in the first month that capex plus
    the owned hardware's running costs no longer exceed the bills paid so far."""
    payload = {**TCO_HAND, "cloud_price_per_gpu_hour": None, "cloud_per_month": 20_000}
    out = tco(TcoInput(**payload), CATALOG)
    capex, opex_m = out.capex.usd, out.buy_opex_per_year.usd / 12
    month = out.break_even_month
    assert month is not None
    assert capex + opex_m * (month - 1) > 20_000 * (month - 1)
    assert capex + opex_m * month <= 20_000 * month
    assert out.totals.cloud.usd == pytest.approx(20_000 * 12 * out.years, rel=REL)
    assert any("cloud bill 20000 USD per month (given)" in a for a in out.assumptions)


def test_tco_takes_one_cloud_figure() -> None:
    with pytest.raises(ValidationError, match="cloud_per_month or cloud_price_per_gpu_hour"):
        TcoInput(**{**TCO_HAND, "cloud_per_month": 1e4})


def test_budget_fit_counts_whole_servers_with_and_without_the_fabric() -> None:
    """$2M on H100 servers at the catalog's GPU price: 8 x price x 1.25 platform = one server; the 15%
    network-and-storage share is planned on top for a cluster."""
    out = budget_fit(BudgetFitInput(budget=2_000_000, gpu="H100"), CATALOG)
    server = 8 * CATALOG.prices_for("h100-sxm")[0].usd * 1.25
    assert out.server_price.usd == pytest.approx(server)
    assert out.servers == int(2_000_000 // server)
    assert out.servers_with_fabric == int(2_000_000 // (server * 1.15))
    assert out.left.usd == pytest.approx(2_000_000 - out.servers * server)
    assert out.gpus == 8 * out.servers


def test_budget_fit_in_yuan_with_the_users_price_per_server() -> None:
    """5,000,000 yuan at 2,200,000 yuan a server: 2 servers, 600,000 left; with 15% for the fabric only 1."""
    out = budget_fit(
        BudgetFitInput(budget=5e6, currency="CNY", gpu="h800", capex_per_server=2.2e6, usd_to_cny=7.0),
        CATALOG,
    )
    assert (out.servers, out.servers_with_fabric, out.gpus) == (2, 1, 16)
    assert out.left.cny == pytest.approx(600_000)


def test_budget_fit_counts_the_servers_a_budget_rents_for_a_whole_period() -> None:
    """¥5,000,000 paying ¥45,000 a month per 8x H20 server for 36 months (¥1,620,000 each): 3 servers, ¥140,000
    left; the assumption says it is rent over the period, not a purchase price."""
    out = budget_fit(
        BudgetFitInput(
            budget=5e6, currency="CNY", gpu="h20", capex_per_server=45_000 * 36, rent_months=36,
            network_storage_share=0,
        ),
        CATALOG,
    )  # fmt: skip
    assert (out.servers, out.gpus) == (3, 24)
    assert out.left.cny == pytest.approx(140_000, abs=1)
    assert any(a.startswith("renting: 1,620,000 CNY per server for the 36 months") for a in out.assumptions)


def test_budget_fit_below_one_server_buys_none_and_says_so() -> None:
    out = budget_fit(BudgetFitInput(budget=100_000, server="dgx-h100"), CATALOG)
    assert (out.servers, out.gpus) == (0, 0)
    assert out.warnings
    with pytest.raises(CalculatorInputError, match="capex_per_server"):
        budget_fit(BudgetFitInput(budget=1e6, gpu="H800"), CATALOG)


def test_cloud_cost_divides_an_instance_price_by_its_gpus() -> None:
    """$98 per 8-GPU instance-hour is $12.25 per GPU-hour: 100 GPU-hours cost $1,225."""
    out = cloud_cost(CloudCostInput(gpu="h100-sxm", gpu_hours=100, price_per_instance_hour=98), CATALOG)
    assert out.price_per_gpu_hour_given == pytest.approx(12.25)
    assert out.total.usd == pytest.approx(1225)


def test_a_reserved_cloud_price_is_paid_for_every_hour() -> None:
    """The hand case's cloud at a reserved price: the same total at 40% and at 100% utilisation (every hour
    of the term is billed), while on-demand scales with the hours used."""
    low = tco(TcoInput(**{**TCO_HAND, "utilization": 0.4, "cloud_committed": True}), CATALOG)
    full = tco(TcoInput(**{**TCO_HAND, "utilization": 1.0, "cloud_committed": True}), CATALOG)
    on_demand = tco(TcoInput(**{**TCO_HAND, "utilization": 0.4}), CATALOG)
    assert low.totals.cloud.usd == pytest.approx(full.totals.cloud.usd)
    assert on_demand.totals.cloud.usd == pytest.approx(0.4 * full.totals.cloud.usd)
    assert low.break_even_utilization is None


@pytest.mark.parametrize(
    ("amps", "volts", "circuit_kw"),
    [(15, 120, 1.44), (20, 120, 1.92), (16, 220, 2.816)],
)
def test_a_circuit_carries_80_percent_of_its_rating_continuously(
    amps: float, volts: float, circuit_kw: float
) -> None:
    """NFPA 70 (NEC) 210.19(A)(1)/210.20(A): a continuous load may use 80% of the breaker; one RTX 4090 at 450 W
    in a workstation ((0.45 + 0.5 kW host) / 0.92 = 1.03 kW) is within all three."""
    out = power_cost(PowerCostInput(gpu="rtx-4090", gpus=1, circuit_amps=amps, circuit_volts=volts), CATALOG)
    assert out.circuit_kw == pytest.approx(circuit_kw)
    assert out.fits_circuit is (out.it_power_kw <= circuit_kw)
    assert out.fits_circuit


@pytest.mark.parametrize(
    ("gpu", "gpus", "wall_kw"),
    [("rtx-4090", 4, (4 * 0.45 + 0.5) / 0.92), ("rtx-5090", 2, (2 * 0.575 + 0.5) / 0.92)],
)
def test_a_workstation_draws_its_cards_and_one_host_not_a_dgx_overhead(
    gpu: str, gpus: int, wall_kw: float
) -> None:
    """A desk-side box is its cards (NVIDIA: RTX 4090 450 W, RTX 5090 575 W) plus one workstation host (AMD
    Threadripper PRO 7995WX 350 W, plus about 0.15 kW of memory, drives and fans) through an 80 PLUS Platinum
    supply (92% at half load): 4 x 4090 is 2.5 kW, within a 16 A, 220 V circuit's 2.816 kW; a DGX's 82%
    overhead would have made it 3.28 kW. No data-hall PUE is added under a desk."""
    out = power_cost(PowerCostInput(gpu=gpu, gpus=gpus, circuit_amps=16, circuit_volts=220), CATALOG)
    assert out.it_power_kw == pytest.approx(wall_kw, rel=0.01)
    assert out.pue == 1
    assert out.wall_power_kw == pytest.approx(out.it_power_kw)
    assert out.fits_circuit


def test_sixteen_consumer_cards_are_servers_not_a_workstation() -> None:
    """More cards than a desk-side box holds keep the server overhead (450 W x 16 x 1.82 = 13.1 kW) and a PUE."""
    out = power_cost(PowerCostInput(gpu="rtx-4090", gpus=16), CATALOG)
    assert out.it_power_kw == pytest.approx(16 * 0.45 * 1.82, rel=0.01)
    assert out.pue > 1


def test_a_tco_without_any_cloud_price_costs_owning_and_leaves_the_cloud_out() -> None:
    """The catalog has no on-demand H800 price: buying is still costed (its total and per GPU-hour), the
    cheapest option is chosen between buying and leasing, and a warning names the missing input."""
    out = tco(TcoInput(gpu="H800", gpus=8, capex_per_gpu=30_000), CATALOG)
    assert out.cloud_priced is False
    assert out.cheapest in {"buy", "lease"}
    assert out.totals.buy.usd > 8 * 30_000
    assert any("cloud price per GPU-hour" in w for w in out.warnings)
    priced = tco(TcoInput(gpu="H800", gpus=8, capex_per_gpu=30_000, cloud_price_per_gpu_hour=2.0), CATALOG)
    assert priced.cloud_priced is True


def test_the_network_and_storage_the_user_priced_replace_the_planning_share() -> None:
    # 16 servers x $250,000 + $1,000,000 of network and storage = $5,000,000 of capex, no 10% share added
    out = tco(
        TcoInput(gpu="h100-sxm", gpus=128, capex_per_server=250_000, network_storage_cost=1_000_000, years=5),
        CATALOG,
    )
    items = {item.name: item.amount.usd for item in out.capex_items}
    assert items["network and storage"] == pytest.approx(1_000_000)
    assert sum(items.values()) == pytest.approx(5_000_000)
    assert not any("planning share" in a for a in out.assumptions)


def test_budget_fit_totals_the_memory_and_bandwidth_it_buys() -> None:
    """$1M at $250k a server: 4 servers = 32 H100 SXM x 80 GB = 2.56 TB at 32 x 3,350 GB/s = 107.2 TB/s (NVIDIA
    H100 datasheet), beside 32 x 989.4 = 31.66 PFLOPS dense BF16."""
    out = budget_fit(BudgetFitInput(budget=1_000_000, gpu="h100-sxm", capex_per_server=250_000), CATALOG)
    assert out.servers == 4
    assert out.memory_tb == pytest.approx(2.56)
    assert out.memory_bandwidth_tb_s == pytest.approx(107.2)
    assert out.dense_bf16_pflops == pytest.approx(31.661, rel=1e-3)


def test_power_cost_gives_the_heat_the_cooling_must_remove() -> None:
    """40 kW of IT load ends as 40 kW of heat: 40 x 3,412.14 = 136,486 BTU/h, / 12,000 BTU/h per ton of
    refrigeration = 11.37 tons (ASHRAE Fundamentals' conversion factors: 1 W = 3.41214 BTU/h, 1 ton =
    12,000 BTU/h)."""
    out = power_cost(PowerCostInput(it_power_kw=40, gpu="h100-sxm", gpus=8), CATALOG)
    assert out.heat_btu_per_hour == pytest.approx(136_486, rel=1e-3)
    assert out.cooling_tons == pytest.approx(11.37, rel=1e-3)
