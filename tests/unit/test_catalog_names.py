from __future__ import annotations

import pytest

from knowledge.catalog import default_catalog
from knowledge.names import NameIndex

NAMES = NameIndex(default_catalog())


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("MI300X和H100的显存带宽分别是多少？", ["mi300x", "h100-sxm"]),
        ("H100 and H200: which one for long context?", ["h100-sxm", "h200"]),
        ("Is the H100 PCIe slower than the H100 SXM?", ["h100-pcie", "h100-sxm"]),
        ("8xH100 vs 8卡A100", ["h100-sxm", "a100-80gb-sxm"]),
        ("8×H100", ["h100-sxm"]),
        ("64 H100s for a week", ["h100-sxm"]),
        ("A100 40GB or A10?", ["a100-40gb-sxm", "a10"]),
        ("RTX 4090 for LoRA", ["rtx-4090"]),
        ("两台8卡H800", ["h800"]),
        ("an H1000 does not exist", []),
        ("A1000 is not an A10", ["a10"]),
        ("fine-tune Llama-2-70B on a DGX H100", ["llama-2-70b", "dgx-h100"]),
        ("nothing named here", []),
        ("昇腾910B能训练70B吗", ["ascend-910b2"]),
        ("8张910B跑70B", ["ascend-910b2"]),
        ("910B3跑70B", []),  # another 910B bin: not the catalog's 910B2
        ("华为昇腾910C和H20哪个好", ["ascend-910c", "h20"]),
        ("H20 还是 L20?", ["h20", "l20"]),
        ("trn2.48xlarge vs 8xH100", ["trainium2", "h100-sxm"]),
        # the article before a number is no card: "a 40-day run" is not an A40, "a 100 GPUs" not an A100
        ("checkpoints for a 34B model every 2 hours over a 40-day run", []),
        ("a 100 GPU cluster of A 100s", ["a100-80gb-sxm"]),
        ("an A40 or a A40?", ["a40", "a40"]),
    ],
)
def test_catalog_names_in_a_question(query: str, expected: list[str]) -> None:
    assert [m.id for m in NAMES.find(query)] == expected


def test_mentions_point_into_the_original_text() -> None:
    text = "We have 2 x H100 PCIe and 8卡 A100"
    spans = [text[m.start : m.end] for m in NAMES.find(text)]
    assert spans == ["H100 PCIe", "A100"]


def test_the_last_lookup_is_remembered_and_cannot_be_spoiled() -> None:
    names = NameIndex(default_catalog())
    first = names.find("8张H100和MI300X")
    first.clear()  # a caller changing its list must not change the next answer
    again = names.find("8张H100和MI300X")
    assert [m.id for m in again] == ["h100-sxm", "mi300x"]
    assert [m.id for m in names.find("A100 vs B200")] == ["a100-80gb-sxm", "b200"]
    assert [m.id for m in names.find("8张H100和MI300X")] == ["h100-sxm", "mi300x"]
