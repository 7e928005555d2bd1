"""Catalog look-ups of a card's own figures (tools/gpu_spec.py), checked against vendor datasheets."""

from __future__ import annotations

import pytest

from knowledge.catalog import default_catalog
from tools.gpu_spec import GpuSpecInput, gpu_spec
from tools.registry import ToolInputError, run

CATALOG = default_catalog()


def values(out, gpu: str) -> dict[str, object]:  # type: ignore[no-untyped-def]
    spec = next(s for s in out.specs if s.id == gpu)
    return {v.field: v.value for v in spec.values}


def test_h200_bandwidth_and_memory_match_the_datasheet() -> None:
    """NVIDIA H200 datasheet: 141 GB HBM3e at 4.8 TB/s, up to 700 W (SXM)."""
    out = gpu_spec(
        GpuSpecInput(gpus=["H200"], fields=["memory_gb", "memory_bandwidth_gb_s", "tdp_w"]), CATALOG
    )
    assert values(out, "h200") == {"memory_gb": 141, "memory_bandwidth_gb_s": 4800, "tdp_w": 700}
    assert out.sources  # the entry's own sources travel with the figures
    assert out.specs[0].as_of


def test_tensor_tflops_are_dense_with_the_sparse_figure_beside_them() -> None:
    """NVIDIA H100 SXM datasheet: FP16 tensor 1,979 TFLOPS *with sparsity*; dense is half, 989."""
    out = gpu_spec(GpuSpecInput(gpus=["H100"], fields=["fp16_dense_tflops"]), CATALOG)
    (value,) = out.specs[0].values
    assert value.value == pytest.approx(989.4, abs=0.5)
    assert "1,979 with 2:4 sparsity" in value.detail
    assert "tensor TFLOPS are dense, without 2:4 sparsity" in out.assumptions


def test_a_missing_precision_is_none_not_zero() -> None:
    out = gpu_spec(GpuSpecInput(gpus=["A100 80GB"], fields=["fp8_dense_tflops"]), CATALOG)
    assert out.specs[0].values[0].value is None  # Ampere has no FP8 tensor cores


def test_an_unknown_card_names_the_closest() -> None:
    with pytest.raises(ToolInputError) as caught:
        run("gpu_spec", {"gpus": ["H2000"]}, CATALOG)
    assert caught.value.problems[0].field == "gpus"


def test_an_estimated_tdp_says_so() -> None:
    """Huawei publishes no 910B TDP: the catalog figure is an estimate and the answer says it."""
    out = gpu_spec(GpuSpecInput(gpus=["910B"], fields=["tdp_w", "bf16_dense_tflops"]), CATALOG)
    tdp, bf16 = out.specs[0].values
    assert tdp.detail.startswith("estimate")
    assert bf16.value == 376
    assert bf16.detail == "dense"  # Huawei prints no 2:4-sparse figure


def test_an_empty_figure_is_called_unsupported_only_where_the_catalog_means_that() -> None:
    """Null FP8 means no FP8 tensor cores; a null FP32 or HCCS bandwidth means the vendor publishes none."""
    from assistant.calculators.gpu_spec import _shown

    fields = ["fp8_dense_tflops", "fp32_tflops", "scale_up_bandwidth_gb_s"]
    out = gpu_spec(GpuSpecInput(gpus=["910B", "L40S"], fields=fields), CATALOG)  # type: ignore[arg-type]
    shown = {(s.id, v.field): _shown(v.model_dump(), zh=False) for s in out.specs for v in s.values}
    assert shown[("ascend-910b2", "fp8_dense_tflops")] == "none (not supported)"
    assert shown[("ascend-910b2", "fp32_tflops")] == "not in the catalog (see the notes)"
    assert shown[("ascend-910b2", "scale_up_bandwidth_gb_s")].startswith("not published (HCCS")
    assert shown[("l40s", "scale_up_bandwidth_gb_s")] == "none (PCIe only, no NVLink)"


def test_prices_are_the_catalogs_dated_figures() -> None:
    """A card's newest catalog purchase price, an 8-GPU server's (the catalog's server price, or 8 cards plus
    the 25% platform share), and the cheapest cloud price per GPU-hour, each with its date and in CNY."""
    catalog = default_catalog()
    out = gpu_spec(
        GpuSpecInput(
            gpus=["b200", "h100-sxm"], fields=["price_usd", "server_price_usd", "cloud_usd_per_gpu_hour"]
        ),
        catalog,
    )
    b200, h100 = ({v.field: v for v in spec.values} for spec in out.specs)
    card = next(p for p in catalog.prices_for("b200") if p.unit == "accelerator")
    assert b200["price_usd"].value == card.usd
    assert str(card.as_of) in b200["price_usd"].detail
    assert b200["server_price_usd"].value == pytest.approx(round(card.usd * 8 * 1.25, -3))
    dgx = next(p for p in catalog.prices_for("dgx-h100") if p.unit == "server")
    assert h100["server_price_usd"].value == dgx.usd
    cheapest = catalog.cloud_prices_for("h100-sxm")[0]
    assert h100["cloud_usd_per_gpu_hour"].value == cheapest.usd_per_accelerator_hour
    assert "CNY" in h100["price_usd"].detail


def test_a_tpu_has_no_purchase_price() -> None:
    out = gpu_spec(GpuSpecInput(gpus=["tpu-v5p"], fields=["price_usd"]), default_catalog())
    (value,) = out.specs[0].values
    assert value.value is None
    assert "not sold" in value.detail


def test_a_count_prices_the_cards_and_the_servers_that_hold_them() -> None:
    """32 H100s at the catalog's card price, and as four 8-GPU servers at its server price."""
    out = gpu_spec(
        GpuSpecInput(gpus=["h100-sxm"], fields=["price_usd", "server_price_usd"], count=32), CATALOG
    )
    prices = {v.field: v.value for v in out.specs[0].values}
    totals = {t.field: (t.units, t.total_usd) for t in out.totals}
    assert totals["price_usd"] == (32, 32 * prices["price_usd"])
    assert totals["server_price_usd"] == (4, 4 * prices["server_price_usd"])


def test_a_measured_tflops_is_a_share_of_the_dense_peak() -> None:
    """210 TFLOP/s on an H100 SXM (989 dense BF16, NVIDIA's data sheet) is 21% MFU."""
    out = gpu_spec(
        GpuSpecInput(gpus=["h100-sxm"], fields=["bf16_dense_tflops"], achieved_tflops=210), CATALOG
    )
    assert out.achieved_share == pytest.approx(210 / 989.4, abs=1e-3)


def test_a_server_quote_is_priced_per_dense_tflops_and_per_gb_of_the_card_it_holds() -> None:
    # NVIDIA H100 SXM: 989.4 dense BF16 TFLOPS and 80 GB (H100 product page, dense = half the sparse 1,979)
    out = gpu_spec(GpuSpecInput(gpus=["h100-sxm"], fields=["bf16_dense_tflops"], quote=310_000), CATALOG)
    assert out.quote_per_tflop == pytest.approx(310_000 / (8 * 989.4), abs=0.01)  # $39.17
    assert out.quote_per_gb == pytest.approx(310_000 / 640, abs=0.01)  # $484.38
    # in the quote's own currency, for the GPUs the quoted server holds
    cny = gpu_spec(
        GpuSpecInput(
            gpus=["h200"], fields=["memory_gb"], quote=2_900_000, quote_currency="CNY", quote_gpus=8
        ),
        CATALOG,
    )
    assert cny.quote_per_gb == pytest.approx(2_900_000 / (8 * 141), abs=0.01)  # ¥2,570.92
    assert gpu_spec(GpuSpecInput(gpus=["h100-sxm"]), CATALOG).quote_per_tflop is None
