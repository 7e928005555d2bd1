"""GPU comparison: catalog figures, price-derived ratios by hand, ranking, properties and bad input."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from knowledge.catalog import default_catalog
from tools.common import CalculatorInputError
from tools.gpu_compare import GpuCompareInput, GpuCompareOutput, GpuRow, gpu_compare

CATALOG = default_catalog()


def run(*gpus: str, **fields: Any) -> GpuCompareOutput:
    return gpu_compare(GpuCompareInput(gpus=list(gpus), **fields), CATALOG)


def row(out: GpuCompareOutput, gpu_id: str) -> GpuRow:
    return next(r for r in out.rows if r.id == gpu_id)


# --- published figures, computed by hand --------------------------------------------------------------


def test_h100_sxm_dollars_per_tflop_from_the_newest_catalog_price() -> None:
    """NVIDIA H100 product page: 989.4 dense BF16 TFLOP/s (1,979 is with sparsity), 80 GB, 3.35 TB/s, 700 W.
    Newest catalog price: AI Infra Map's mid-2026 planning figure, $30,000 (estimate, 2026-07-01), which
    replaces the Raymond James 2023 estimate of $27,500. $30,000 / 989.4 = $30.32 per TFLOP/s."""
    h100 = row(run("H100", "A100"), "h100-sxm")
    assert h100.bf16_dense_tflops == 989.4
    assert h100.purchase_price is not None
    assert (h100.purchase_price.usd, h100.purchase_price.kind) == (30_000, "estimate")
    assert h100.purchase_price.as_of == date(2026, 7, 1)
    assert h100.purchase_price.price_id == "h100-sxm-2026-aiinframap"
    assert h100.usd_per_bf16_tflop == pytest.approx(30.3214069, rel=1e-8)
    assert h100.usd_per_gb == 375.0  # 30,000 / 80
    assert h100.bf16_tflops_per_watt == pytest.approx(1.4134286, rel=1e-7)  # 989.4 / 700
    assert h100.gb_s_per_bf16_tflop == pytest.approx(3.3858904, rel=1e-7)  # 3,350 / 989.4


def test_a100_is_the_10000_dollar_chip() -> None:
    """CNBC (Feb 2023): the A100 is a "roughly $10,000 chip"; 312 dense BF16 TFLOP/s (624 is sparse).
    $10,000 / 312 = $32.05 per TFLOP/s; $10,000 / 80 GB = $125 per GB."""
    a100 = row(run("H100", "A100"), "a100-80gb-sxm")
    assert a100.bf16_dense_tflops == 312
    assert a100.usd_per_bf16_tflop == pytest.approx(10_000 / 312)
    assert a100.usd_per_bf16_tflop == pytest.approx(32.05, abs=0.005)
    assert a100.usd_per_gb == 125.0


def test_mi300x_from_the_citi_estimate() -> None:
    """Citi (early 2024): MI300X average selling price $10,000-15,000, midpoint $12,500; AMD data sheet
    1,307.4 dense BF16 TFLOP/s (2,614.9 is with sparsity), 192 GB. $9.56 per TFLOP/s, $65.10 per GB."""
    mi300x = row(run("MI300X", "H100"), "mi300x")
    assert mi300x.usd_per_bf16_tflop == pytest.approx(12_500 / 1307.4)
    assert mi300x.usd_per_bf16_tflop == pytest.approx(9.56, abs=0.005)
    assert mi300x.usd_per_gb == pytest.approx(65.10, abs=0.005)


def test_rtx_4090_uses_the_fp32_accumulate_rate() -> None:
    """NVIDIA Ada whitepaper Appendix A: RTX 4090 165.2 TFLOPS FP16/BF16 with FP32 accumulate (330 with FP16
    accumulate). Launch MSRP $1,599 (12 Oct 2022): $1,599 / 165.2 = $9.68 per TFLOP/s."""
    rtx = row(run("RTX 4090", "L40S"), "rtx-4090")
    assert rtx.bf16_dense_tflops == 165.2
    assert rtx.purchase_price is not None
    assert rtx.purchase_price.kind == "msrp"
    assert rtx.usd_per_bf16_tflop == pytest.approx(1599 / 165.2)
    assert any("FP32 accumulation" in n for n in rtx.notes)


# --- cloud prices -------------------------------------------------------------------------------------


def test_cheapest_cloud_price_with_provider_and_date() -> None:
    h100 = row(run("H100", "H200"), "h100-sxm")
    assert h100.cheapest_cloud is not None
    assert h100.cloud_usd_per_gpu_hour == 2.69  # RunPod Community Cloud, 2026-11-09
    assert (h100.cheapest_cloud.provider, h100.cheapest_cloud.pricing) == ("RunPod", "community")
    assert h100.cheapest_cloud.as_of == date(2026, 11, 9)
    assert any("community" in n for n in h100.notes)


def test_on_demand_only_skips_community_prices() -> None:
    h100 = row(run("H100", "H200", on_demand_cloud_only=True), "h100-sxm")
    assert h100.cheapest_cloud is not None
    assert h100.cheapest_cloud.pricing == "on-demand"
    assert h100.cloud_usd_per_gpu_hour == 3.99  # Lambda on-demand, 2026-09-20


# --- user prices and missing figures ------------------------------------------------------------------


def test_a_user_price_replaces_the_catalog_price() -> None:
    out = run("H100", "H200", prices_usd={"h100-sxm": 25_000})
    h100 = row(out, "h100-sxm")
    assert h100.purchase_price is not None
    assert (h100.purchase_price.kind, h100.purchase_price.as_of) == ("user", None)
    assert h100.usd_per_bf16_tflop == pytest.approx(25_000 / 989.4)
    assert row(out, "h200").purchase_price is not None  # the other GPU keeps its catalog price


def test_missing_prices_and_figures_are_said_not_guessed() -> None:
    out = run("V100", "TPU v5e", "H100", rank_by="usd_per_tflop")
    v100, tpu = row(out, "v100-sxm2-32gb"), row(out, "tpu-v5e")
    assert v100.purchase_price is None
    assert v100.usd_per_bf16_tflop is None
    assert any("no purchase price" in n for n in v100.notes)
    assert any("BF16" in n for n in v100.notes)  # V100 has no BF16 tensor cores
    assert any("not sold" in n for n in tpu.notes)
    assert out.unranked == ["v100-sxm2-32gb", "tpu-v5e"]
    assert [r.id for r in out.ranking] == ["h100-sxm"]
    assert any("no purchase price for v100-sxm2-32gb, tpu-v5e" in w for w in out.warnings)
    # a user price fills the gap, but V100 still has no BF16 figure to divide by
    priced = run("V100", "H100", prices_usd={"V100": 1_000})
    assert row(priced, "v100-sxm2-32gb").usd_per_gb == pytest.approx(1_000 / 32)
    assert row(priced, "v100-sxm2-32gb").usd_per_bf16_tflop is None


# --- ranking ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gpus", "rank_by", "expected"),
    [
        (["H100", "H200", "MI300X"], "memory_gb", [("mi300x", 1), ("h200", 2), ("h100-sxm", 3)]),
        (["H100", "H800", "A100"], "bf16_tflops", [("h100-sxm", 1), ("h800", 1), ("a100-80gb-sxm", 3)]),
        (["H100", "A100", "MI300X"], "usd_per_tflop", [("mi300x", 1), ("h100-sxm", 2), ("a100-80gb-sxm", 3)]),
        (["H100", "H200", "B200"], "memory_bandwidth_gb_s", [("b200", 1), ("h200", 2), ("h100-sxm", 3)]),
        (["H100", "H200"], "gb_s_per_tflop", [("h200", 1), ("h100-sxm", 2)]),
        (["L4", "H100"], "tflops_per_watt", [("l4", 1), ("h100-sxm", 2)]),  # 121/72 = 1.68 > 1.41
        (["H100", "A100"], "cloud_usd_per_hour", [("h100-sxm", 1), ("a100-80gb-sxm", 2)]),  # 2.69 < 2.70
    ],
)
def test_ranking(gpus: list[str], rank_by: str, expected: list[tuple[str, int]]) -> None:
    out = run(*gpus, rank_by=rank_by)
    assert [(r.id, r.rank) for r in out.ranking] == expected
    assert out.ranking_criterion


# --- properties ---------------------------------------------------------------------------------------

PRICEABLE = [a.id for a in CATALOG.accelerators if a.bf16_dense_tflops]


@settings(max_examples=80, deadline=None)
@given(
    gpu=st.sampled_from(PRICEABLE),
    cheap=st.floats(1, 1e6, allow_nan=False),
    extra=st.floats(0, 1e6, allow_nan=False),
)
def test_a_cheaper_price_never_raises_dollars_per_tflop(gpu: str, cheap: float, extra: float) -> None:
    other = "h100-sxm" if gpu != "h100-sxm" else "a100-80gb-sxm"
    low = row(run(gpu, other, prices_usd={gpu: cheap}), gpu)
    high = row(run(gpu, other, prices_usd={gpu: cheap + extra}), gpu)
    assert low.usd_per_bf16_tflop is not None
    assert high.usd_per_bf16_tflop is not None
    assert low.usd_per_bf16_tflop <= high.usd_per_bf16_tflop
    assert low.usd_per_gb is not None
    assert high.usd_per_gb is not None
    assert low.usd_per_gb <= high.usd_per_gb


@settings(max_examples=60, deadline=None)
@given(
    gpus=st.lists(st.sampled_from([a.id for a in CATALOG.accelerators]), min_size=2, max_size=8, unique=True),
    rank_by=st.sampled_from(
        ["bf16_tflops", "memory_gb", "usd_per_tflop", "tflops_per_watt", "cloud_usd_per_hour", "usd_per_gb"]
    ),
)
def test_ranking_is_ordered_and_covers_every_gpu(gpus: list[str], rank_by: str) -> None:
    out = run(*gpus, rank_by=rank_by)
    assert sorted([r.id for r in out.ranking] + out.unranked) == sorted(gpus)
    values = [r.value for r in out.ranking]
    lower_is_better = rank_by in {"usd_per_tflop", "usd_per_gb", "cloud_usd_per_hour"}
    assert values == sorted(values, reverse=not lower_is_better)
    assert [r.rank for r in out.ranking] == sorted(r.rank for r in out.ranking)


# --- bad input ----------------------------------------------------------------------------------------


def test_unknown_name_suggests_the_closest_catalog_names() -> None:
    with pytest.raises(CalculatorInputError) as caught:
        run("H100", "H1000")
    assert caught.value.field == "gpus.1"
    assert "h100-sxm" in caught.value.suggestions
    assert "did you mean" in caught.value.message


@pytest.mark.parametrize("gpus", [["H100", "h100-sxm"], ["A100", "A100 SXM4 80GB"], ["MI300X", "mi300x"]])
def test_duplicates_after_alias_resolution_name_the_field(gpus: list[str]) -> None:
    with pytest.raises(CalculatorInputError) as caught:
        run(*gpus)
    assert caught.value.field == "gpus.1"
    assert "list each GPU once" in caught.value.message


def test_prices_must_name_a_compared_gpu_once() -> None:
    with pytest.raises(CalculatorInputError) as caught:
        run("H100", "H200", prices_usd={"B200": 40_000})
    assert caught.value.field == "prices_usd"
    with pytest.raises(CalculatorInputError) as caught:
        run("H100", "H200", prices_usd={"H100": 25_000, "h100-sxm": 26_000})
    assert caught.value.field == "prices_usd"
    with pytest.raises(CalculatorInputError) as caught:
        run("H100", "H200", prices_usd={"H1000": 25_000})
    assert caught.value.field == "prices_usd"


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"gpus": ["H100"]}, "gpus"),
        ({"gpus": ["H100", "H200", "B200", "B300", "A100", "L40S", "L4", "MI300X", "MI325X"]}, "gpus"),
        ({"gpus": ["H100", ""]}, "gpus.1"),
        ({"gpus": ["H100", "H200"], "rank_by": "price"}, "rank_by"),
        ({"gpus": ["H100", "H200"], "prices_usd": {"H100": -1}}, "prices_usd.H100"),
        ({"gpus": ["H100", "H200"], "prices_usd": {"H100": 0}}, "prices_usd.H100"),
        ({"gpus": ["H100", "H200"], "currency": "CNY"}, "currency"),
    ],
)
def test_invalid_fields_are_rejected_by_the_model(fields: dict[str, Any], field: str) -> None:
    with pytest.raises(ValidationError) as caught:
        GpuCompareInput(**fields)
    assert [".".join(map(str, e["loc"])) for e in caught.value.errors()] == [field]


# --- description and output ---------------------------------------------------------------------------


def test_output_echoes_sources_and_caveats() -> None:
    out = run("H100", "MI300X", "RTX 4090")
    urls = {s.url for s in out.sources}
    assert "https://www.nvidia.com/en-us/data-center/h100/" in urls
    assert any("MI300X" in w and "peak" in w for w in out.warnings)  # pitfall 14: peak vs achievable
    assert any("GeForce" in w for w in out.warnings)
    assert any("differ in kind" in w for w in out.warnings)  # estimate vs MSRP, 2022 vs 2026
    assert out.formula
    assert out.assumptions
    doc = gpu_compare.__doc__ or ""
    assert "\n" not in doc.strip().split("\n\n", 1)[0]
    assert out.model_dump(mode="json")["rows"][0]["purchase_price"]["as_of"] == "2026-07-01"


def test_price_performance_of_a_rented_only_accelerator_is_its_rental_price_per_tflop() -> None:
    """A TPU has no purchase price (Google rents it only), so 'per dollar' ranks by the cheapest catalog
    cloud price per GPU-hour over dense BF16 TFLOP/s, which both rows have."""
    out = gpu_compare(GpuCompareInput(gpus=["tpu-v5p", "h100-sxm"], rank_by="usd_per_tflop"), CATALOG)
    assert out.rank_by == "cloud_usd_per_tflop_hour"
    for row in out.rows:
        assert row.cloud_usd_per_gpu_hour is not None
        assert row.bf16_dense_tflops is not None
        assert row.cloud_usd_per_bf16_tflop_hour == pytest.approx(
            row.cloud_usd_per_gpu_hour / row.bf16_dense_tflops
        )
    values = [r.value for r in out.ranking]
    assert values == sorted(values)  # lower is better


def test_price_performance_of_cards_with_purchase_prices_stays_the_purchase_price() -> None:
    out = gpu_compare(GpuCompareInput(gpus=["h100-sxm", "a100-80gb-sxm"], rank_by="usd_per_tflop"), CATALOG)
    assert out.rank_by == "usd_per_tflop"


def test_dollars_per_gb_s_of_bandwidth_rank_cards_for_serving_on_a_budget() -> None:
    """Decoding reads the weights once per token, so purchase $ per GB/s prices serving speed: the row's
    value is the catalog price over the catalog bandwidth, and the cheaper bandwidth ranks first."""
    out = run("l40s", "h100-pcie", rank_by="usd_per_gb_s")
    rows = {r.id: r for r in out.rows}
    for row in rows.values():
        assert row.purchase_price is not None
        assert row.usd_per_gb_s == pytest.approx(row.purchase_price.usd / row.memory_bandwidth_gb_s, rel=1e-2)
    assert out.ranking[0].id == min(rows, key=lambda k: rows[k].usd_per_gb_s or 1e12)


def test_a_data_centre_pick_passes_over_consumer_cards() -> None:
    """RTX 4090 (1,008 GB/s) leads L20 (864 GB/s, NVIDIA L20 product brief) on bandwidth, but a GeForce card is
    no pick for data-centre racks: the best-ranked non-consumer card is. No pick when no consumer card is
    compared, or when all of them are consumer cards."""
    out = gpu_compare(
        GpuCompareInput(gpus=["rtx-4090", "l20"], rank_by="memory_bandwidth_gb_s", datacenter=True), CATALOG
    )
    assert out.ranking[0].name == "NVIDIA GeForce RTX 4090"
    assert out.datacenter_pick == "NVIDIA L20 48GB"
    assert gpu_compare(GpuCompareInput(gpus=["rtx-4090", "l20"]), CATALOG).datacenter_pick is None
    assert (
        gpu_compare(GpuCompareInput(gpus=["h100-sxm", "l20"], datacenter=True), CATALOG).datacenter_pick
        is None
    )
    assert (
        gpu_compare(GpuCompareInput(gpus=["rtx-4090", "rtx-5090"], datacenter=True), CATALOG).datacenter_pick
        is None
    )


def test_quoted_hours_and_measured_mfus_rank_by_the_price_of_useful_work() -> None:
    """TPU v5p at $4.20 a chip-hour and 50% MFU against H100 at $3.00 and 40%: a PFLOP-hour of work that lands
    costs 4.20 / (0.459 x 0.5) = $18.30 on the TPU and 3.00 / (0.989 x 0.4) = $7.58 on the H100, 2.41x
    (Google Cloud TPU v5p: 459 dense BF16 TFLOPS; NVIDIA H100 SXM datasheet: 989)."""
    out = gpu_compare(
        GpuCompareInput(
            gpus=["tpu-v5p", "h100-sxm"],
            rank_by="cloud_usd_per_tflop_hour",
            cloud_prices_usd={"tpu-v5p": 4.20, "h100-sxm": 3.00},
            mfu={"tpu-v5p": 0.5, "h100-sxm": 0.4},
        ),
        CATALOG,
    )
    assert out.rank_by == "cloud_usd_per_useful_pflop_hour"
    rows = {r.id: r for r in out.rows}
    assert rows["tpu-v5p"].cloud_usd_per_useful_pflop_hour == pytest.approx(4.20 / (0.459 * 0.5), rel=0.001)
    assert rows["h100-sxm"].cloud_usd_per_useful_pflop_hour == pytest.approx(3.00 / (0.989 * 0.4), rel=0.001)
    assert out.ranking[0].id == "h100-sxm"
    assert rows["h100-sxm"].cheapest_cloud is not None
    assert rows["h100-sxm"].cheapest_cloud.pricing == "quoted"


def test_quoted_hours_without_mfus_rank_by_the_price_of_peak_compute() -> None:
    """trn2.48xlarge at $35/h holds 16 Trainium2 ($2.19 a chip-hour, 667 dense BF16 TFLOPS: $3.28 per PFLOP-
    hour); p5.48xlarge at $55/h holds 8 H100 ($6.88, 989: $6.95): Trainium2 is 2.1x the compute per dollar
    (AWS Neuron documentation, Trainium2; AWS EC2 P5 instance types)."""
    out = gpu_compare(
        GpuCompareInput(
            gpus=["trainium2", "h100-sxm"],
            rank_by="cloud_usd_per_tflop_hour",
            cloud_prices_usd={"trainium2": 35 / 16, "h100-sxm": 55 / 8},
        ),
        CATALOG,
    )
    assert out.rank_by == "cloud_usd_per_tflop_hour"
    assert out.ranking[0].id == "trainium2"
    rows = {r.id: r for r in out.rows}
    assert rows["trainium2"].cloud_usd_per_bf16_tflop_hour * 1000 == pytest.approx(3.28, rel=0.01)
    assert rows["h100-sxm"].cloud_usd_per_bf16_tflop_hour * 1000 == pytest.approx(6.95, rel=0.01)


# --- a training run worked out on each card -------------------------------------------------------------


def test_a_pretraining_run_is_priced_on_each_card_at_its_on_demand_rate() -> None:
    """Kaplan et al. (2020) §2.1: C = 6ND. 30B on 600B tokens = 6 x 30e9 x 600e9 = 1.08e23 FLOPs.
    H100 SXM (NVIDIA: 989.4 dense BF16 TFLOP/s) at 40% MFU: 1.08e23 / (989.4e12 x 0.4) / 3600 = 75,803
    GPU-hours; at Lambda's on-demand $3.99 (2026-09-20) = $302,454. TPU v5p (Google: 459 TFLOP/s) at 40%:
    163,399 chip-hours; at Google's on-demand $4.20 (2026-01-27) = $686,275. On 256 of each: 75,803 / 256 / 24 =
    12.34 days against 26.59."""
    out = run(
        "TPU v5p", "H100", job={"params_b": 30, "tokens_b": 600, "gpus": 256}, on_demand_cloud_only=True
    )
    assert out.job is not None
    assert out.job.training_flops == pytest.approx(1.08e23)
    h100, v5p = row(out, "h100-sxm"), row(out, "tpu-v5p")
    assert h100.job_gpu_hours == pytest.approx(75_803, rel=1e-3)
    assert v5p.job_gpu_hours == pytest.approx(163_399, rel=1e-3)
    assert h100.job_cloud_usd == pytest.approx(75_803 * 3.99, rel=1e-3)
    assert v5p.job_cloud_usd == pytest.approx(163_399 * 4.2, rel=1e-3)
    assert (h100.job_days, v5p.job_days) == (pytest.approx(12.34, abs=0.01), pytest.approx(26.59, abs=0.01))
    assert out.rank_by == "job_cloud_usd"
    assert [r.id for r in out.ranking] == ["h100-sxm", "tpu-v5p"]  # the cheaper run first


def test_a_fine_tune_without_tokens_is_worked_out_per_billion_tokens() -> None:
    """LoRA trains adapters on a frozen base: 4N FLOPs per token (no weight gradients; Hu et al. 2021 report 25%
    faster than full fine-tuning). 70B per billion tokens: 4 x 70e9 x 1e9 = 2.8e20 FLOPs; on an A100 (312 TFLOP/s)
    at 40% MFU: 2.8e20 / (312e12 x 0.4) / 3600 = 623.2 GPU-hours. A card without a cloud price ranks the run by
    GPU-hours."""
    out = run("A100", "Ascend 910B", job={"params_b": 70, "finetune": "lora"})
    assert out.job is not None
    assert out.job.per_billion_tokens
    assert out.job.training_flops == pytest.approx(2.8e20)
    assert row(out, "a100-80gb-sxm").job_gpu_hours == pytest.approx(623.2, rel=1e-3)
    assert out.rank_by == "job_gpu_hours"


def test_a_measured_mfu_on_one_card_replaces_the_assumed_one_for_the_run() -> None:
    """The same run at 50% MFU on the H100 takes 40/50 of the GPU-hours at 40%."""
    base = row(run("H100", "H200", job={"params_b": 7, "tokens_b": 100}), "h100-sxm").job_gpu_hours
    measured = row(run("H100", "H200", job={"params_b": 7, "tokens_b": 100}, mfu={"H100": 0.5}), "h100-sxm")
    assert base is not None
    assert measured.job_gpu_hours == pytest.approx(base * 0.8, rel=1e-3)


def test_a_run_is_not_ranked_when_memory_is_the_criterion() -> None:
    """Ranking by memory asks which card holds more, whatever the run; the run's figures are still there."""
    out = run("H100", "H200", job={"params_b": 7, "tokens_b": 100}, rank_by="memory_gb")
    assert out.rank_by == "memory_gb"
    assert row(out, "h100-sxm").job_gpu_hours
