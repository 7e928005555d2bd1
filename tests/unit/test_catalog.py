"""The catalog loads, every entry is sourced and dated, and it avoids the known spec-table pitfalls.

Figures checked here come from the vendors' sheets named in each entry's sources (NVIDIA H100/H200/
A100 datasheets, AMD MI300X data sheet, NVIDIA Ada whitepaper); see ../shared/DOMAIN-PITFALLS.md.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from knowledge.catalog import (
    CatalogError,
    ModelArchitecture,
    UnknownItemError,
    default_catalog,
    load_catalog,
)
from knowledge.render import render_catalog, render_entry
from tests.helpers import KNOWLEDGE

REQUIRED = """h100-sxm h100-pcie h100-nvl h200 b200 gb200 b300 a100-40gb-sxm a100-80gb-sxm a100-40gb-pcie
a100-80gb-pcie l40s l4 a40 a10 rtx-4090 rtx-5090 rtx-3090 rtx-6000-ada v100-sxm2-32gb mi300x mi325x mi355x
gaudi2 gaudi3 tpu-v5e tpu-v5p tpu-v6e l20 ascend-910b2 ascend-910c trainium2""".split()


def test_required_accelerators_are_present() -> None:
    ids = {a.id for a in default_catalog().accelerators}
    assert set(REQUIRED) <= ids


def test_every_entry_has_a_source_and_a_date() -> None:
    for group, entry in default_catalog().entries():
        assert entry.sources, f"{group}/{entry.id}"
        assert all(str(s.url).startswith(("https://", "http://")) for s in entry.sources)
        assert entry.as_of.year >= 2020, f"{group}/{entry.id}"


@pytest.mark.parametrize(
    ("gpu", "field", "value"),
    [
        # dense, not the 2:4-sparse headline (pitfall 1): H100 989 not 1,979; A100 312 not 624
        ("h100-sxm", "bf16_dense_tflops", 989.4),
        ("a100-80gb-sxm", "bf16_dense_tflops", 312),
        ("mi300x", "bf16_dense_tflops", 1307.4),
        # SXM vs PCIe vs NVL (pitfall 3)
        ("h100-pcie", "bf16_dense_tflops", 756),
        ("h100-pcie", "memory_bandwidth_gb_s", 2000),
        ("h100-pcie", "tdp_w", 350),
        ("h100-sxm", "memory_bandwidth_gb_s", 3350),
        ("h100-nvl", "memory_gb", 94),
        ("h100-nvl", "memory_bandwidth_gb_s", 3900),
        ("a100-80gb-pcie", "memory_bandwidth_gb_s", 1935),
        ("a100-80gb-sxm", "memory_bandwidth_gb_s", 2039),
        ("a100-80gb-pcie", "tdp_w", 300),
        ("a100-80gb-sxm", "tdp_w", 400),
        # TDP of the air-cooled SKU unless the name is a liquid-cooled one (pitfall 11; accelerators.yaml header):
        # Intel Gaudi 3 HL-325L air-cooled OAM 900 W (1,200 W liquid); HGX B200 1,000 W (GB200 1,200 W, liquid
        # only); AMD MI355X 1,400 W is itself the liquid-cooled SKU (MI350X is the 1,000 W air-cooled one)
        ("gaudi3", "tdp_w", 900),
        ("b200", "tdp_w", 1000),
        ("gb200", "tdp_w", 1200),
        ("mi355x", "tdp_w", 1400),
        # usable vs physical HBM (pitfall 5)
        ("h200", "memory_gb", 141),
        ("b200", "memory_gb", 180),
        ("b300", "memory_gb", 270),
        # consumer FP32-accumulate rate (pitfall 9)
        ("rtx-4090", "bf16_dense_tflops", 165.2),
        # memory types (pitfall 7)
        ("h100-sxm", "memory_type", "HBM3"),
        ("h100-pcie", "memory_type", "HBM2e"),
        ("mi300x", "memory_type", "HBM3"),
        ("h200", "memory_type", "HBM3e"),
        ("gaudi3", "memory_type", "HBM2e"),
        # bidirectional NVLink totals (pitfall 10)
        ("h100-sxm", "scale_up_bandwidth_gb_s", 900),
        ("b200", "scale_up_bandwidth_gb_s", 1800),
    ],
)
def test_published_figures(gpu: str, field: str, value: object) -> None:
    actual = getattr(default_catalog().accelerator(gpu), field)
    if isinstance(value, str):
        assert actual.upper() == value.upper()
    else:
        assert actual == pytest.approx(value, rel=0.01)


def test_no_sparse_figure_recorded_as_dense() -> None:
    catalog = default_catalog()
    assert catalog.accelerator("h100-sxm").bf16_dense_tflops <= 1000  # type: ignore[operator]
    assert catalog.accelerator("mi300x").bf16_dense_tflops <= 1310  # type: ignore[operator]
    for acc in catalog.accelerators:
        if acc.bf16_dense_tflops and acc.fp16_dense_tflops:
            assert acc.bf16_dense_tflops == pytest.approx(acc.fp16_dense_tflops, rel=0.05), acc.id


def test_a_bridged_card_says_how_many_cards_its_link_joins() -> None:
    """A PCIe card's NVLink bridge joins two cards (four for the H200 NVL), not a server's eight: the same
    600 GB/s per card as an SXM A100, over a pair only (NVIDIA A100 and H100 product pages). Every entry whose
    link is a bridge says how many it joins; no switched or mesh link claims fewer than a server."""
    catalog = default_catalog()
    for acc in catalog.accelerators:
        bridged = "bridge" in acc.scale_up_interconnect.lower()
        assert bridged == (acc.scale_up_cards is not None), acc.id
    assert catalog.accelerator("a100-80gb-pcie").scale_up_cards == 2
    assert catalog.accelerator("h200-nvl").scale_up_cards == 4


def test_a_sparse_bf16_figure_is_rejected(tmp_path: Path) -> None:
    directory = tmp_path / "catalog"
    shutil.copytree(KNOWLEDGE / "catalog", directory)
    path = directory / "accelerators.yaml"
    items = yaml.safe_load(path.read_text(encoding="utf-8"))
    h100 = next(i for i in items if i["id"] == "h100-sxm")
    h100["bf16_dense_tflops"] = 1979  # the with-sparsity headline
    path.write_text(yaml.safe_dump(items, allow_unicode=True), encoding="utf-8")
    with pytest.raises(CatalogError, match=r"(?s)accelerators.yaml.*likely sparse"):
        load_catalog(directory)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("H100", "h100-sxm"),
        ("h100-sxm", "h100-sxm"),
        ("H100 80GB", "h100-sxm"),
        ("H100 PCIe", "h100-pcie"),
        ("A100", "a100-80gb-sxm"),
        ("A100 40GB", "a100-40gb-sxm"),
        ("RTX 4090", "rtx-4090"),
        ("4090", "rtx-4090"),
        ("MI300X", "mi300x"),
        ("Gaudi 3", "gaudi3"),
        ("v5e", "tpu-v5e"),
        ("B200", "b200"),
    ],
)
def test_aliases(name: str, expected: str) -> None:
    assert default_catalog().accelerator(name).id == expected


def test_unknown_names_suggest_the_closest() -> None:
    with pytest.raises(UnknownItemError, match=r"H10O.*h100-sxm") as info:
        default_catalog().accelerator("H10O")
    assert "h100-sxm" in info.value.suggestions


def test_cross_references_resolve() -> None:
    catalog = default_catalog()
    for server in catalog.servers:
        catalog.accelerator(server.accelerator_id)
    for cloud in catalog.cloud_prices:
        catalog.accelerator(cloud.accelerator_id)
    assert catalog.cloud_prices_for("h100-sxm")
    assert len({c.provider for c in catalog.cloud_prices}) >= 3


def test_reference_servers() -> None:
    catalog = default_catalog()
    dgx = catalog.server("DGX H100")
    assert dgx.accelerator_count == 8
    assert dgx.ram_gb == pytest.approx(2048, rel=0.03)
    # a DGX draws more than 8x its GPUs' TDP (pitfall 11)
    assert dgx.max_power_kw > 8 * catalog.accelerator(dgx.accelerator_id).tdp_w / 1000


# cards users ask about that were added later: (id, field, value as its sources give it, where from)
NEWER_CARDS = [
    # Tom's Hardware's table of NVIDIA's partner sheet: BF16/FP16 119.5 (no sparse column), FP8 239, 864 GB/s
    ("l20", "bf16_dense_tflops", 119.5),
    ("l20", "fp16_dense_tflops", 119.5),
    ("l20", "fp8_dense_tflops", 239),
    ("l20", "memory_gb", 48),
    ("l20", "memory_bandwidth_gb_s", 864),
    # AWS Neuron docs: 667 BF16/FP16/TF32 and 1,299 FP8 dense (2,563 is sparse), 96 GiB = 103 GB, 2.9 TB/s
    ("trainium2", "bf16_dense_tflops", 667),
    ("trainium2", "fp16_dense_tflops", 667),
    ("trainium2", "fp8_dense_tflops", 1299),
    ("trainium2", "memory_gb", 96 * 2**30 / 1e9),
    ("trainium2", "memory_bandwidth_gb_s", 2900),
    # Huawei's CloudMatrix384 paper: 752 TFLOPS for the two-die 910C, so 376 for one 910B2-class die
    ("ascend-910c", "bf16_dense_tflops", 752),
    ("ascend-910c", "fp16_dense_tflops", 752),
    ("ascend-910c", "memory_gb", 128),
    ("ascend-910c", "memory_bandwidth_gb_s", 3200),
    ("ascend-910b2", "bf16_dense_tflops", 376),
    ("ascend-910b2", "fp16_dense_tflops", 376),
    ("ascend-910b2", "memory_gb", 64),
]


@pytest.mark.parametrize(("gpu", "field", "value"), NEWER_CARDS)
def test_newer_cards_store_their_sources_dense_figures(gpu: str, field: str, value: float) -> None:
    assert getattr(default_catalog().accelerator(gpu), field) == pytest.approx(value, rel=0.01)


@pytest.mark.parametrize("gpu", ["l20", "ascend-910b2", "ascend-910c", "trainium2"])
def test_newer_cards_are_sourced_dated_and_say_what_is_uncertain(gpu: str) -> None:
    acc = default_catalog().accelerator(gpu)
    assert len(acc.sources) >= 2
    assert all(s.title and str(s.url).startswith("https://") for s in acc.sources)
    assert acc.as_of.isoformat() == "2026-12-03"
    assert acc.notes
    if acc.vendor != "NVIDIA":  # Huawei and AWS publish no TDP: the figure is flagged, and the notes say why
        assert acc.tdp_estimated
        assert "TDP" in acc.notes
    else:
        assert not acc.tdp_estimated


def test_no_fp8_on_ascend_and_binary_memory_said_for_trainium() -> None:
    catalog = default_catalog()
    assert catalog.accelerator("910B").fp8_dense_tflops is None
    assert catalog.accelerator("910C").fp8_dense_tflops is None
    assert "96 GiB" in catalog.accelerator("Trn2").notes


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("910B", "ascend-910b2"),
        ("Ascend 910B", "ascend-910b2"),
        ("昇腾910B", "ascend-910b2"),
        ("910B2", "ascend-910b2"),
        ("910C", "ascend-910c"),
        ("昇腾910C", "ascend-910c"),
        ("L20", "l20"),
        ("Trainium2", "trainium2"),
        ("Trn2", "trainium2"),
        ("trn2", "trainium2"),
    ],
)
def test_newer_card_aliases(name: str, expected: str) -> None:
    assert default_catalog().accelerator(name).id == expected


def test_an_estimated_tdp_is_said_in_the_passage() -> None:
    catalog = default_catalog()
    estimated = render_entry("accelerators", catalog.accelerator("910C"), catalog).page_content
    published = render_entry("accelerators", catalog.accelerator("L20"), catalog).page_content
    assert "Max power is an estimate" in estimated
    assert "estimate" not in published
    assert "False" not in published


# "1,600 Gbps = 200 GB/s", "24 x 100 Gb/s = 300 GB/s": a link rate converted in the text, bits over 8
_BITS_AS_BYTES = re.compile(
    r"(?:(\d+)\s*x\s*)?(\d[\d,.]*)\s*(?:Gbps|Gb/s|Gbit/s)['\s]*\(?\s*=\s*~?(\d[\d,.]*)\s*(?:GB/s|GBps)"
)


def test_every_bits_to_bytes_conversion_in_the_catalog_divides_by_8() -> None:
    """DOMAIN-PITFALLS 10: the TPU v5e ICI note said '1,600 Gbps = 400 GB/s'; 1,600 Gb/s is 200 GB/s."""
    checked = []
    for path in sorted((KNOWLEDGE / "catalog").glob("*.yaml")):
        text = path.read_text(encoding="utf-8").replace("''", "'")
        for m in _BITS_AS_BYTES.finditer(text):
            gbit = float(m[1] or 1) * float(m[2].replace(",", ""))
            checked.append(" ".join(m[0].split()))
            assert float(m[3].replace(",", "")) == pytest.approx(gbit / 8, rel=0.02), f"{path.name}: {m[0]}"
    assert len(checked) >= 3, checked  # Gaudi 2 and 3 RoCE ports, TPU v5e ICI


def test_broken_yaml_names_the_file(tmp_path: Path) -> None:
    directory = tmp_path / "catalog"
    shutil.copytree(KNOWLEDGE / "catalog", directory)
    (directory / "servers.yaml").write_text("- id: [broken\n", encoding="utf-8")
    with pytest.raises(CatalogError, match=r"servers\.yaml"):
        load_catalog(directory)


# MLA attention, dense first layers and a shared expert (DeepSeek-V3), or a paper's rounded headline size
# (Chinchilla: "70B" for a shape that adds up to about 65B): their shapes are not plain GQA/SwiGLU sums
_SHAPES_NOT_SUMMED = {"deepseek-v3", "chinchilla-70b"}


def _params_from_shape(m: ModelArchitecture, *, tied: bool) -> float:
    """Billions of parameters a decoder of this shape holds: attention (Q, O at heads x head size; K, V at
    KV heads x head size), the MLP (three matrices for gated units, two otherwise, per expert), the
    embedding once (tied) or twice (untied output layer). Norms and biases are below 0.1%."""
    head = m.head_dim or m.hidden_size // m.attention_heads
    h = m.hidden_size
    attention = 2 * h * m.attention_heads * head + 2 * h * m.kv_heads * head
    matrices = 3 if m.activation in {"swiglu", "geglu"} else 2
    mlp = matrices * h * m.ffn_hidden_size * (m.experts or 1)
    embedding = m.vocab_size * h * (1 if tied else 2)
    return (m.layers * (attention + mlp) + embedding) / 1e9


@pytest.mark.parametrize(
    "model", [m for m in default_catalog().models if m.id not in _SHAPES_NOT_SUMMED], ids=lambda m: m.id
)
def test_a_models_parameter_count_is_what_its_shape_adds_up_to(model: ModelArchitecture) -> None:
    """A preset's layers, widths and vocabulary are what the calculators size activations, KV cache and
    FLOPs from: a typo in any of them (71 layers for 80) shows here as a parameter count that no longer
    matches the published one."""
    counts = [_params_from_shape(model, tied=tied) for tied in (True, False)]
    assert min(abs(c - model.params_b) for c in counts) / model.params_b < 0.01, counts


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Qwen2.5-32B", "qwen2.5-32b"),
        ("qwen2.5 14b", "qwen2.5-14b"),
        ("Qwen2-72B", "qwen2-72b"),
        ("Qwen3-32B", "qwen3-32b"),
        ("Mixtral 8x22B", "mixtral-8x22b"),
        ("Yi-34B", "yi-34b"),
        ("GLM-4-9B", "glm-4-9b"),
        ("Baichuan2-13B", "baichuan2-13b"),
        ("DeepSeek-R1-Distill-Qwen-32B", "qwen2.5-32b"),
    ],
)
def test_model_names(name: str, expected: str) -> None:
    assert default_catalog().model(name).id == expected


def test_a_rendered_accelerator_gives_its_worded_fields_in_both_languages() -> None:
    """The Chinese of a worded field stands beside the English ("… / SXM5 模组…"), never as the model's repr."""
    catalog = default_catalog()
    card = catalog.accelerator("H200")
    text = render_entry("accelerators", card, catalog).page_content
    assert "form_factor=" not in text
    assert "zh zh" not in text
    assert f"{card.form_factor} / {card.zh.form_factor}" in text


def test_rendered_entries_label_every_field_and_leave_out_empty_ones() -> None:
    # "instances instances: {}" stood in 44 accelerator passages; Trainium2's instance list was a dict's repr
    catalog = default_catalog()
    texts = [doc.page_content for doc in render_catalog(catalog)]
    assert not [t for t in texts if re.search(r": (?:\{\}|\[\])$", t, re.MULTILINE)]
    assert not [t for t in texts if re.search(r"^([a-z_]+) \1:", t, re.MULTILINE)]  # an unlabelled field
    trainium = render_entry("accelerators", catalog.accelerator("trainium2"), catalog).page_content
    assert "Cloud instances (accelerators each) 云实例（每实例加速卡数）: trn2.48xlarge x 16" in trainium
