"""Figures the corpus quotes agree with the catalog and the calculators, in both languages (issue 13).

Each case names the catalog entry or calculator the article's figure must match; an article that quotes a
price the catalog rejects, or a ratio the calculator does not use, fails here.
"""

from __future__ import annotations

import pytest

from knowledge.catalog import default_catalog
from tests.helpers import KNOWLEDGE
from tools.host_ram import HostRamInput, host_ram

CATALOG = default_catalog()


def article(lang: str, name: str) -> str:
    return (KNOWLEDGE / "corpus" / lang / f"{name}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("lang", "dgx_h100", "rejected"),
    [
        ("en", "$270,000", ["$199,000", "$515,000", "$515K", "$39,800"]),
        ("zh", "27 万美元", ["19.9 万美元", "51.5 万美元", "39,800 美元"]),
    ],
)
def test_server_prices_in_the_budget_article_are_the_catalogs(
    lang: str, dgx_h100: str, rejected: list[str]
) -> None:
    """prices.yaml: DGX H100 about $270,000 (SemiAnalysis via Epoch AI, May 2023); its notes reject the blog's
    '$199k base' and find no reliable DGX B200 price, so the article quotes neither."""
    (price,) = CATALOG.prices_for("dgx-h100")
    assert price.usd == 270_000
    assert not CATALOG.prices_for("dgx-b200")
    text = article(lang, "budget-and-tco")
    assert dgx_h100 in text
    assert not [figure for figure in rejected if figure in text]


@pytest.mark.parametrize(
    ("lang", "secure", "community"), [("en", "$3.99", "$2.69"), ("zh", "3.99 美元", "2.69 美元")]
)
def test_runpod_prices_in_the_cloud_article_are_the_catalogs(lang: str, secure: str, community: str) -> None:
    """cloud_prices.yaml (RunPod pricing page, 2026-11-09): Secure Cloud H100 SXM $3.99, Community $2.69. The
    break-even against Secure is 2.27 / 3.99 = 57% (the budget article's $2.27 per GPU-hour owned)."""
    prices = {p.id: p.usd_per_accelerator_hour for p in CATALOG.cloud_prices}
    assert (prices["runpod-secure-h100-sxm-2026"], prices["runpod-community-h100-sxm-2026"]) == (3.99, 2.69)
    text = article(lang, "cloud-vs-on-prem")
    bracket = "（" if lang == "zh" else " ("
    assert f"{secure}{bracket}RunPod Secure Cloud" in text
    assert f"{community}{bracket}RunPod Secure Cloud" not in text  # the Community price called Secure
    assert round(100 * 2.27 / 3.99) == 57
    assert "57%" in text


@pytest.mark.parametrize(
    ("lang", "hdd", "nvme"), [("en", "$20 per TB", "$100 per TB"), ("zh", "20 美元/TB", "100 美元/TB")]
)
def test_drive_prices_in_the_storage_article_are_the_catalogs(lang: str, hdd: str, nvme: str) -> None:
    """storage.yaml: nearline HDD ~$20/TB (March 2026), Gen4 NVMe ~$100/TB (February 2026), both estimates."""
    tiers = {t.id: t.usd_per_tb for t in CATALOG.storage}
    assert (tiers["hdd-enterprise-7200"], tiers["nvme-gen4-dc"]) == (20, 100)
    text = article(lang, "storage")
    assert hdd in text
    assert nvme in text
    # Computer Weekly's late-2024 retail averages ($41/TB disk, $79/TB flash) disagreed with the catalog
    assert "Computer Weekly" not in text


@pytest.mark.parametrize(
    ("lang", "ratios"),
    [("en", ["about 3.2 times", "about 1.4 times"]), ("zh", ["都约为 3.2 倍", "约 1.4 倍"])],
)
def test_host_ram_and_workstation_memory_in_the_memory_article(lang: str, ratios: list[str]) -> None:
    """servers.yaml: DGX H100 2,048 GB of RAM for 8 x 80 GB = 3.2x, DGX B200 2,048 GB for 8 x 180 GB = 1.4x; the
    largest workstation card in the catalog is the 96 GB RTX PRO 6000 Blackwell."""
    ratio = {s.id: s.ram_gb / (s.accelerator_count * CATALOG.accelerator(s.accelerator_id).memory_gb)
             for s in CATALOG.servers if s.id in {"dgx-h100", "dgx-b200"}}  # fmt: skip
    assert (round(ratio["dgx-h100"], 1), round(ratio["dgx-b200"], 1)) == (3.2, 1.4)
    workstation = max(a.memory_gb for a in CATALOG.accelerators if a.segment == "workstation")
    assert workstation == 96
    text = article(lang, "memory-sizing")
    assert all(ratio in text for ratio in ratios)
    assert "96 GB" in text
    assert "24 to 80 GB" not in text
    assert "24 至 80 GB" not in text


@pytest.mark.parametrize(("lang", "ratio_1x"), [("en", "one-times end"), ("zh", "下限都达不到")])
def test_the_256_gb_ram_faq_agrees_with_the_host_ram_calculator(lang: str, ratio_1x: str) -> None:
    """selection-checklist FAQ: 256 GB is too little for 8 x 80 GB (the calculator asks 1,536 GB at 2x) and what the
    calculator recommends for 96 GB of workstation GPU memory (4 x RTX 4090 or 1 x RTX PRO 6000 Blackwell)."""
    node = host_ram(HostRamInput(gpu="h100-sxm", gpus_per_node=8), CATALOG)
    assert node.recommended_ram_gib == 1536
    for gpu, count in (("rtx-4090", 4), ("rtx-pro-6000", 1)):
        assert host_ram(HostRamInput(gpu=gpu, gpus_per_node=count), CATALOG).recommended_ram_gib == 256
    text = article(lang, "selection-checklist")
    assert "1,536 GB" in text
    assert ratio_1x in text


@pytest.mark.parametrize(("lang", "two"), [("en", "two generations"), ("zh", "落后两代")])
def test_a100_is_two_generations_old_in_the_checklist(lang: str, two: str) -> None:
    """A100 (Ampere, 2020), then Hopper (H100 2022), then Blackwell (B200 2024): the catalog's launch years."""
    years = [CATALOG.accelerator(g).launch_year for g in ("a100-80gb-sxm", "h100-sxm", "b200")]
    assert years == sorted(years)
    assert len(set(years)) == 3
    assert two in article(lang, "selection-checklist")


@pytest.mark.parametrize(
    ("lang", "barred"), [("en", "include B200, B300 and GB200"), ("zh", "包括 B200、B300 和 GB200")]
)
def test_the_export_rule_limits_sort_the_catalogs_parts_as_the_faq_says(lang: str, barred: str) -> None:
    """BIS rule effective 15 January 2026 (Morgan Lewis and Covington summaries): case-by-case review for chips
    below a total processing performance of 21,000 and 6,500 GB/s of DRAM bandwidth, such as the H200 and the
    MI325X. TPP = dense TFLOPS x operand bits (3A090 technical note), from the catalog: H200 1,979 x 8 = 15,831,
    MI325X 2,615 x 8 = 20,919 (under both limits); B200, B300 and GB200 exceed both."""

    def below(gpu: str) -> bool:
        acc = CATALOG.accelerator(gpu)
        assert acc.fp8_dense_tflops is not None
        return acc.fp8_dense_tflops * 8 < 21_000 and acc.memory_bandwidth_gb_s < 6_500

    assert below("h200")
    assert below("mi325x")
    assert not any(below(gpu) for gpu in ("b200", "b300", "gb200"))
    text = article(lang, "faq")
    assert "21,000" in text
    assert "6,500 GB/s" in text
    assert barred in text


@pytest.mark.parametrize(
    ("lang", "figures"),
    [
        ("en", ["64 GB of HBM2e at 1.6 TB/s", "480 FP16 TFLOPS", "about 300 W"]),
        ("zh", ["64 GB HBM2e、显存带宽 1.6 TB/s", "FP16 480 TFLOPS", "约 300 W"]),
    ],
)
def test_the_bw1000_figures_in_the_faq_are_the_catalogs(lang: str, figures: list[str]) -> None:
    """accelerators.yaml: the BW1000 as Gitee AI reports it (64 GB, 1,600 GB/s, FP16 480, ~300 W typical); the
    MLU590 and P800 have no entry, so the FAQ quotes none of the third-party figures that disagree about them."""
    bw1000 = CATALOG.accelerator("hygon-bw1000")
    assert (bw1000.memory_gb, bw1000.memory_bandwidth_gb_s, bw1000.fp16_dense_tflops, bw1000.tdp_w) == (
        64,
        1600,
        480,
        300,
    )
    text = article(lang, "faq")
    assert all(figure in text for figure in figures), [f for f in figures if f not in text]
    assert "192 GB HBM2e" not in text
    assert "1,228" not in text
