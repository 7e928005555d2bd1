"""Issue 13 "Coverage": the parts added to the catalog, the names people write for them, and the schema changes
that let them in (a rack-scale system over 72 accelerators, the China-market makers, Trainium3's MXFP8 rate).

Figures are the sources' own (each entry's sources and notes): NVIDIA's GB300 NVL72, H200 and GH200 pages
(sparse figures halved), AMD's MI350X page, Google's TPU7x architecture page, AWS's Trainium3 Neuron docs, and for
Hygon's BW1000 the figures Gitee AI, a cloud renting it, publishes.
"""

from __future__ import annotations

import shutil
import statistics
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from knowledge.catalog import (
    MAX_ACCELERATORS_PER_SYSTEM,
    Accelerator,
    CatalogError,
    Server,
    UnknownItemError,
    default_catalog,
    load_catalog,
)
from knowledge.names import NameIndex
from knowledge.render import render_entry
from tests.helpers import KNOWLEDGE

CATALOG = default_catalog()
NEW_CARDS = ["gb300", "h200-nvl", "gh200", "gh200-144gb", "mi350x", "tpu7x", "trainium3"]


@pytest.mark.parametrize(
    ("card", "field", "value"),
    [
        # NVIDIA GB300 NVL72 table for 72 GPUs, with sparsity: FP8 720 PF, BF16 360 PF, TF32 180 PF -> per GPU dense
        ("gb300", "fp8_dense_tflops", 720_000 / 72 / 2),
        ("gb300", "bf16_dense_tflops", 360_000 / 72 / 2),
        ("gb300", "tf32_dense_tflops", 180_000 / 72 / 2),
        ("gb300", "memory_gb", 279),  # usable of 288 physical (pitfall 5)
        ("gb300", "memory_bandwidth_gb_s", 8000),
        # NVIDIA H200 page, H200 NVL column: 1,671 BF16 and 3,341 FP8 with sparsity; 141 GB at 4.8 TB/s
        ("h200-nvl", "bf16_dense_tflops", 1671 / 2),
        ("h200-nvl", "fp8_dense_tflops", 3341 / 2),
        ("h200-nvl", "memory_gb", 141),
        ("h200-nvl", "memory_bandwidth_gb_s", 4800),
        # GH200: the H100 SXM's tensor rates; 96 GB HBM3 at 4 TB/s, or 144 GB HBM3e at 4.9 TB/s (pitfall 7)
        ("gh200", "bf16_dense_tflops", 989.4),
        ("gh200", "memory_gb", 96),
        ("gh200", "memory_bandwidth_gb_s", 4000),
        ("gh200-144gb", "memory_gb", 144),
        ("gh200-144gb", "memory_bandwidth_gb_s", 4900),
        # AMD MI350X: dense FP16/BF16 2,307.2, FP8 4,614.4, 288 GB HBM3E at 8 TB/s
        ("mi350x", "bf16_dense_tflops", 2307.2),
        ("mi350x", "fp8_dense_tflops", 4614.4),
        ("mi350x", "memory_gb", 288),
        ("mi350x", "memory_bandwidth_gb_s", 8000),
        # Google TPU7x table: BF16 2,307, FP8 4,614 TFLOPS, 192 GiB per chip; 7.37 TB/s and 1.2 TB/s ICI
        ("tpu7x", "bf16_dense_tflops", 2307),
        ("tpu7x", "fp8_dense_tflops", 4614),
        ("tpu7x", "memory_gb", 192),
        ("tpu7x", "memory_bandwidth_gb_s", 7370),
        ("tpu7x", "scale_up_bandwidth_gb_s", 1200),
        # AWS Trainium3: 671 BF16/FP16/TF32 dense (2,517 is sparse), 2,517 MXFP8, 144 GiB, 4.9 TB/s, 2.56 TB/s
        ("trainium3", "bf16_dense_tflops", 671),
        ("trainium3", "fp8_dense_tflops", 2517),
        ("trainium3", "memory_gb", 144 * 2**30 / 1e9),
        ("trainium3", "memory_bandwidth_gb_s", 4900),
        ("trainium3", "scale_up_bandwidth_gb_s", 2560),
    ],
)
def test_new_cards_store_their_sources_dense_figures(card: str, field: str, value: float) -> None:
    assert getattr(CATALOG.accelerator(card), field) == pytest.approx(value, rel=0.01)


@pytest.mark.parametrize(
    ("card", "tdp_w"),
    [
        ("gb300", 1400),  # liquid-cooled only
        ("mi350x", 1000),  # the air-cooled CDNA 4 SKU (MI355X: 1,400 W liquid)
        ("h200-nvl", 600),  # configurable up to 600 W (H200 SXM 700 W)
        ("gh200", 1000),  # the whole module, Grace CPU included, at its highest setting
    ],
)
def test_new_cards_follow_the_tdp_convention(card: str, tdp_w: float) -> None:
    acc = CATALOG.accelerator(card)
    assert acc.tdp_w == tdp_w
    assert not acc.tdp_estimated


@pytest.mark.parametrize("card", ["tpu7x", "trainium3"])
def test_a_vendor_without_a_published_tdp_is_flagged_and_its_basis_given(card: str) -> None:
    acc = CATALOG.accelerator(card)
    assert acc.tdp_estimated
    assert "TDP" in acc.notes
    assert "estimate" in acc.notes
    assert "Max power is an estimate" in render_entry("accelerators", acc, CATALOG).page_content


@pytest.mark.parametrize("card", NEW_CARDS)
def test_new_cards_are_sourced_dated_and_dense(card: str) -> None:
    acc = CATALOG.accelerator(card)
    assert acc.sources
    assert all(str(s.url).startswith("https://") for s in acc.sources)
    assert acc.as_of.isoformat() == "2026-12-06"
    assert "sparse" in acc.notes or "sparsity" in acc.notes  # says which of its source's figures were halved


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("GB300", "gb300"),
        ("B300", "b300"),
        ("H200 NVL", "h200-nvl"),
        ("H200", "h200"),  # bare H200 stays the SXM part
        ("GH200", "gh200"),
        ("GH200 144GB", "gh200-144gb"),
        ("MI350X", "mi350x"),
        ("MI355X", "mi355x"),
        ("Ironwood", "tpu7x"),
        ("TPU v7", "tpu7x"),
        ("TPU7x", "tpu7x"),
        ("Trainium3", "trainium3"),
        ("Trn3", "trainium3"),
        ("Trn2", "trainium2"),
        ("RTX PRO 6000", "rtx-pro-6000"),
        ("L20", "l20"),
        ("910C", "ascend-910c"),
        ("昇腾910C", "ascend-910c"),
    ],
)
def test_names_users_write_resolve(name: str, expected: str) -> None:
    assert CATALOG.accelerator(name).id == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What is the memory bandwidth of the Ironwood?", ["tpu7x"]),
        ("TPU v7的显存多大", ["tpu7x"]),
        ("GB300和B300的显存分别多少", ["gb300", "b300"]),
        ("H200 NVL vs H200 SXM", ["h200-nvl", "h200"]),
        ("GH200 Grace Hopper superchip memory", ["gh200"]),  # one card, not 200 Grace Hoppers
        # a bare 'Grace Hopper' is the architecture a knowledge question asks about, not a card to look up
        ("Grace Hopper 超级芯片和普通 x86 加 H100 的服务器有什么不同？", ["h100-sxm"]),
        ("MI350X还是MI355X", ["mi350x", "mi355x"]),
        ("Trn3 vs Trn2", ["trainium3", "trainium2"]),
        ("a GB300 NVL72 rack", ["gb300-nvl72"]),  # the rack, not its GPU
        ("DGX B300 power", ["dgx-b300"]),
    ],
)
def test_new_names_in_a_question(query: str, expected: list[str]) -> None:
    assert [m.id for m in NameIndex(CATALOG).find(query)] == expected


def test_the_gh200_memory_variants_are_one_family() -> None:
    from knowledge.names import variant

    names = NameIndex(CATALOG)
    assert variant(names, "gh200", 144) == "gh200-144gb"
    assert variant(names, "gh200-144gb", 96) == "gh200"


def _server(**overrides: object) -> dict[str, object]:
    base = yaml.safe_load((KNOWLEDGE / "catalog" / "servers.yaml").read_text(encoding="utf-8"))[0]
    return {**base, **overrides}


def test_a_rack_scale_system_over_72_accelerators_validates() -> None:
    """The old cap of 72 kept out Huawei's CloudMatrix 384 (384 Ascend 910C in one UB domain)."""
    assert Server.model_validate(_server(accelerator_count=384)).accelerator_count == 384
    # a TPU7x pod, the largest single scale-up domain the catalog names
    assert MAX_ACCELERATORS_PER_SYSTEM >= 9216
    with pytest.raises(ValidationError):
        Server.model_validate(_server(accelerator_count=MAX_ACCELERATORS_PER_SYSTEM + 1))
    with pytest.raises(ValidationError):
        Server.model_validate(_server(accelerator_count=0))


def _card(**overrides: object) -> dict[str, object]:
    base = yaml.safe_load((KNOWLEDGE / "catalog" / "accelerators.yaml").read_text(encoding="utf-8"))
    return {**next(a for a in base if a["id"] == "ascend-910b2"), **overrides}


@pytest.mark.parametrize("vendor", ["Huawei", "Cambricon", "Kunlunxin", "Hygon"])
def test_the_china_market_makers_are_vendors(vendor: str) -> None:
    assert Accelerator.model_validate(_card(id="x", vendor=vendor)).vendor == vendor


def test_an_unknown_vendor_is_rejected() -> None:
    with pytest.raises(ValidationError):
        Accelerator.model_validate(_card(vendor="Acme"))


def test_mxfp8_at_four_times_bf16_is_allowed_for_trainium_only(tmp_path: Path) -> None:
    """Trainium3's MXFP8 runs at 3.75x its BF16 (AWS), a vendor figure; an NVIDIA card at that ratio is a
    sparse figure mixed with a dense one."""
    trainium = CATALOG.accelerator("trainium3")
    assert trainium.fp8_dense_tflops
    assert trainium.bf16_dense_tflops
    assert trainium.fp8_dense_tflops / trainium.bf16_dense_tflops == pytest.approx(3.75, rel=0.01)
    directory = tmp_path / "catalog"
    shutil.copytree(KNOWLEDGE / "catalog", directory)
    path = directory / "accelerators.yaml"
    items = yaml.safe_load(path.read_text(encoding="utf-8"))
    h100 = next(i for i in items if i["id"] == "h100-sxm")
    h100["fp8_dense_tflops"] = 3.75 * h100["bf16_dense_tflops"]
    path.write_text(yaml.safe_dump(items, allow_unicode=True), encoding="utf-8")
    with pytest.raises(CatalogError, match="likely sparse"):
        load_catalog(directory)


@pytest.mark.parametrize(("server", "gpus"), [("dgx-b300", 8), ("mi355x-platform", 8), ("gb300-nvl72", 72)])
def test_new_servers_carry_their_gpus_and_draw_more_than_them(server: str, gpus: int) -> None:
    system = CATALOG.server(server)
    acc = CATALOG.accelerator(system.accelerator_id)
    assert system.accelerator_count == gpus
    assert system.max_power_kw > gpus * acc.tdp_w / 1000  # CPUs, NICs, fans and switches on top (pitfall 11)
    assert system.as_of.isoformat() == "2026-12-06"


def test_estimated_server_power_says_so() -> None:
    for server in ("mi355x-platform", "gb300-nvl72"):
        assert "ESTIMATE" in CATALOG.server(server).notes


def test_the_8_gpu_servers_still_ship_14_cores_per_gpu_at_the_median() -> None:
    """host_ram plans CPU cores at the median per GPU of the catalog's 8-GPU servers (an H100 node: 112)."""
    per_gpu = [s.cpu_cores_total / s.accelerator_count for s in CATALOG.servers if s.accelerator_count == 8]
    assert statistics.median(per_gpu) == 14


@pytest.mark.parametrize(
    ("card", "provider", "usd"),
    [
        ("b300", "Hyperstack", 7.40),  # on-demand rate card, 2026-08-26
        ("l40s", "RunPod", 1.09),  # Secure Cloud, 2026-09-25 (Community $0.79)
        ("gh200", "Lambda", 2.29),  # 1x GH200 96 GB, 2026-09-25
    ],
)
def test_cloud_prices_added_are_per_gpu_hour_dated_and_sourced(card: str, provider: str, usd: float) -> None:
    price = next(c for c in CATALOG.cloud_prices_for(card) if c.provider == provider)
    assert price.usd_per_accelerator_hour == pytest.approx(usd)
    assert price.accelerators_per_instance == 1
    assert price.pricing == "on-demand"
    assert price.as_of.year == 2026
    assert len(price.sources) == 2  # the provider's page, then the dated transcription it was read from


# China-market cards: Hygon's BW1000 as Gitee AI, a cloud renting it, reports it (Hygon publishes no data sheet in the
# sources read); Cambricon's MLU590 and Kunlunxin's P800 have no reliable public figures and are not in the catalog.


@pytest.mark.parametrize(
    ("field", "value"),
    [("memory_gb", 64), ("memory_bandwidth_gb_s", 1600), ("fp16_dense_tflops", 480), ("fp32_tflops", 60)],
)
def test_the_bw1000_stores_the_figures_gitee_ai_reports(field: str, value: float) -> None:
    assert getattr(CATALOG.accelerator("hygon-bw1000"), field) == value


def test_what_no_source_gives_for_the_bw1000_is_left_empty_or_flagged() -> None:
    bw1000 = CATALOG.accelerator("hygon-bw1000")
    assert bw1000.vendor == "Hygon"
    # Gitee AI lists BF16 as supported without a figure, and no FP8; no card-to-card link figure anywhere
    assert bw1000.bf16_dense_tflops is None
    assert bw1000.fp8_dense_tflops is None
    assert bw1000.scale_up_bandwidth_gb_s is None
    # ~300 W is a typical power, not a maximum board power
    assert bw1000.tdp_estimated
    assert "not a vendor specification" in bw1000.notes
    assert (
        "upper bound" in bw1000.notes
    )  # 480 may be dense or sparse: the note says which was assumed and why
    assert bw1000.as_of.isoformat() == "2026-12-06"
    assert all(str(s.url).startswith("https://") for s in bw1000.sources)


@pytest.mark.parametrize("name", ["BW1000", "Hygon BW1000", "海光BW1000", "海光 BW1000", "海光DCU BW1000"])
def test_the_bw1000_answers_to_the_names_people_write(name: str) -> None:
    assert CATALOG.accelerator(name).id == "hygon-bw1000"


@pytest.mark.parametrize("name", ["K100", "K100_AI", "海光DCU", "MLU590", "思元590", "P800", "昆仑芯P800"])
def test_cards_without_reliable_figures_are_not_stood_in_for(name: str) -> None:
    """A bare 'Hygon DCU' or the K100 is not the BW1000, and the MLU590 and P800 have no entry: the assistant says
    so instead of answering with another card's figures."""
    with pytest.raises(UnknownItemError):
        CATALOG.accelerator(name)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("海光BW1000显存多大", ["hygon-bw1000"]),
        ("BW1000 vs 910B for training", ["hygon-bw1000", "ascend-910b2"]),
    ],
)
def test_the_bw1000_is_found_in_a_question(query: str, expected: list[str]) -> None:
    assert [m.id for m in NameIndex(CATALOG).find(query)] == expected
