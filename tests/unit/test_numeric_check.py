"""The LLM composer's numeric check: every number in an answer must come from a calculator or a passage."""

from __future__ import annotations

import pytest

from assistant.composer.grounding import (
    check_answer,
    cited_ids,
    extract_numbers,
    numbers_in,
    unsupported_numbers,
)

# what the calculators said for "34B, 1.5T tokens, 256 x H100 at MFU 45%", as their JSON holds it
COMPUTE = [31.07, 27.96, 39.96, 190900.0, 171800.0, 245500.0, 0.45, 0.35, 0.5, 256, 34.0, 1500.0, 989.4,
           3.06e23, 2182.0, 558700.0, 680.0, 1719000.0, 32768]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1,719,000 GPU-hours", [("1,719,000", 1719000.0)]),
        ("1.72e6 and 3.15e+23 FLOPs", [("1.72e6", 1.72e6), ("3.15e+23", 3.15e23)]),
        ("3.06 x 10^23 FLOPs", [("3.06 x 10^23", 3.06e23)]),
        ("MFU 45% [2]", [("45%", 45.0)]),
        ("989 TFLOPS per H100, BF16, ZeRO-3, v1.2", [("989", 989.0)]),
        ("MFU45%", [("45%", 45.0)]),
        ("约需31.1天，共19.09万GPU小时", [("31.1", 31.1), ("19.09万", 19.09)]),
        ("用256张H100训练34B模型", [("256", 256.0), ("34B", 34.0)]),
        ("百分之四十五，三十一天", [("百分之四十五", 45.0), ("三十一", 31.0)]),
        ("十分重要，千万不要", []),
        ("see [1], [2, 3] and [4-5]", []),
    ],
)
def test_extracts_numbers_as_written(text: str, expected: list[tuple[str, float]]) -> None:
    assert [(n.text, n.value) for n in extract_numbers(text)] == expected


def test_a_range_shares_its_unit() -> None:
    low, high = extract_numbers("MFU 35-50%")
    assert (low.percent, high.percent) == (True, True)
    low, high = extract_numbers("1.5-2T tokens")
    assert (low.multiplier, high.multiplier) == ("t", "t")


@pytest.mark.parametrize(
    "text",
    [
        # English
        "Training takes about **31 days** (28-40 days) on 256 H100s at 45% MFU.",
        "It needs 190,900 GPU-hours, i.e. about 1.72 million in total.",
        "That is 3.06e23 FLOPs, or 3.06 x 10^23.",
        "MFU 35-50% is typical [1].",
        "1.5T tokens, or 1,500B.",
        "Peak 989 TFLOPS per GPU, 2,182 tokens/s per GPU.",
        "Use a 32k context.",
        "8 GPUs per server, as of 2024 [3].",
        "About 31.1 days.",
        "31.2 days is within half a percent of 31.07.",
        # Chinese
        "约需 **31.1 天**（区间 28-40 天），共约 19.09万 GPU 小时。",
        "共约 20万 GPU 小时（区间 17.2万-24.6万），约 172 万卡时。",
        "训练计算量约 3.06e23 FLOPs，MFU 百分之四十五。",
        "用256张H100训练34B模型、1.5万亿 token，约需一个月。",
        "训练 token 为 Chinchilla 最优值 680B 的两倍多。",
    ],
)
def test_accepts_numbers_from_the_calculators(text: str) -> None:
    assert unsupported_numbers(text, COMPUTE) == []


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("Training takes about 17.5 days.", ["17.5"]),
        ("Training takes about 45 days.", ["45"]),
        ("At 60% MFU it is faster.", ["60%"]),
        ("It needs 1.8 million GPU-hours.", ["1.8 million"]),
        ("31.3 days", ["31.3"]),
        ("A 3T-token run", ["3T"]),
        ("It costs $2.5M on the cloud.", ["2.5M"]),
        ("约需 58 天。", ["58"]),
        ("约需三十五天。", ["三十五"]),
        ("MFU 55-60%", ["55", "60%"]),
        ("共约 35万 GPU 小时。", ["35万"]),
        ("训练计算量约 4.2e23 FLOPs。", ["4.2e23"]),
        pytest.param("9" * 400 + " GPUs", ["9" * 400], id="too-big-for-a-float"),
        ("1e999 FLOPs", ["1e999"]),
    ],
)
def test_rejects_numbers_nobody_computed(text: str, bad: list[str]) -> None:
    assert unsupported_numbers(text, COMPUTE) == bad


def test_numbers_in_reads_nested_json_and_text() -> None:
    allowed = numbers_in({"a": [1.5, {"b": "H100 at 989.4 TFLOPS, 35-55% MFU"}], "ok": True, "none": None})
    assert {1.5, 100.0, 989.4, 0.35, 0.55} <= allowed
    assert 1.0 not in allowed  # True is no number


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("About 31 days [1].", None),
        ("About 31 days [3].", "unknown citation [3]"),
        ("About 17 days [1].", "unsupported number 17"),
        ("", "empty answer"),
    ],
)
def test_check_answer(text: str, problem: str | None) -> None:
    assert check_answer(text, allowed=COMPUTE, passages=2) == problem


def test_cited_ids() -> None:
    assert cited_ids("a [1] b [2, 3] c [4-6] d [2]") == {1, 2, 3, 4, 5, 6}
