from __future__ import annotations

from assistant.retriever import best_snippet
from knowledge.text import tokenize

CATALOG = (
    "NVIDIA H100 SXM: accelerator specifications / 加速卡规格\n\n"
    "Vendor 厂商: NVIDIA\nGPU memory 显存容量: 80 GB\nMemory bandwidth 显存带宽: 3,350 GB/s (3.35 TB/s)\n"
    "Max power (TDP) 功耗: 700 W"
)
PROSE = (
    "Storage\nCheckpoints\n\nA full checkpoint keeps weights and optimizer states. "
    "For a 70B model that is about 1.1 TB. Object storage is cheap but slow."
)


def test_snippet_starts_at_the_line_the_question_asks_about() -> None:
    snippet = best_snippet(CATALOG, tokenize("H100的显存带宽是多少？"))
    assert snippet.startswith("Memory bandwidth 显存带宽: 3,350 GB/s (3.35 TB/s)")
    assert " · Max power" in snippet  # lines without punctuation are marked apart


def test_snippet_keeps_decimal_numbers_whole() -> None:
    snippet = best_snippet(PROSE, tokenize("How many TB does a 70B model take?"))
    assert snippet.startswith("For a 70B model that is about 1.1 TB.")


def test_snippet_without_overlap_is_the_opening_and_never_the_title() -> None:
    snippet = best_snippet(PROSE, tokenize("电价"))
    assert snippet.startswith("A full checkpoint")


def test_snippet_is_bounded() -> None:
    long = "Title\n\n" + " ".join(f"Sentence {i} about NVMe." for i in range(200))
    assert len(best_snippet(long, tokenize("NVMe"), max_chars=120)) <= 120
