from __future__ import annotations

import pytest

from assistant.retriever import find_catalog_names

ALIASES = sorted(
    {
        "h100": "catalog/accelerators/h100-sxm",
        "h100sxm": "catalog/accelerators/h100-sxm",
        "h100pcie": "catalog/accelerators/h100-pcie",
        "h200": "catalog/accelerators/h200",
        "mi300x": "catalog/accelerators/mi300x",
        "a100": "catalog/accelerators/a100-80gb-sxm",
        "a10040gb": "catalog/accelerators/a100-40gb-sxm",
        "a10": "catalog/accelerators/a10",
        "4090": "catalog/accelerators/rtx-4090",
        "rtx4090": "catalog/accelerators/rtx-4090",
    }.items(),
    key=lambda item: (-len(item[0]), item[0]),
)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("MI300X和H100的显存带宽分别是多少？", ["mi300x", "h100-sxm"]),
        ("H100 and H200: which one for long context?", ["h100-sxm", "h200"]),
        ("Is the H100 PCIe slower than the H100 SXM?", ["h100-pcie", "h100-sxm"]),
        ("8xH100 vs 8卡A100", ["h100-sxm", "a100-80gb-sxm"]),
        ("A100 40GB or A10?", ["a100-40gb-sxm", "a10"]),
        ("RTX 4090 for LoRA", ["rtx-4090"]),
        ("an H1000 does not exist", []),
        ("A1000 is not an A10", ["a10"]),
        ("nothing named here", []),
    ],
)
def test_catalog_names_in_a_question(query: str, expected: list[str]) -> None:
    found = [doc_id.rsplit("/", 1)[1] for doc_id in find_catalog_names(query, ALIASES)]
    assert found == expected
