from __future__ import annotations

import pytest

from assistant.retriever import DEFINES, best_snippet, defined_term, defines, spell_out
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


@pytest.mark.parametrize(
    ("question", "term"),
    [
        ("what is PUE and what can liquid cooling get it down to", "PUE"),
        ("What does activation checkpointing actually do?", "activation checkpointing"),
        ("explain ZeRO-3 to me", "ZeRO-3"),
        ("kv cache是啥 训练要考虑吗", "kv cache"),
        ("PUE啥意思", "PUE"),
        ("什么是MFU", "MFU"),
        ("what is the memory bandwidth of the H100?", None),  # a figure asked, not a meaning
        ("what is the best GPU for 70B?", None),
    ],
)
def test_a_question_asking_what_a_term_means_names_the_term(question: str, term: str | None) -> None:
    assert defined_term(question) == term


def test_a_sentence_that_defines_the_term_scores_more_than_one_that_uses_it() -> None:
    assert (
        defines("PUE", "Power usage effectiveness (PUE) is total facility power divided by IT power.")
        == DEFINES
    )
    assert defines("PUE", "电能利用效率（PUE）= 数据中心总耗电 ÷ IT 设备耗电。") == DEFINES
    assert (
        defines("activation checkpointing", "Full activation checkpointing keeps only each layer's input.")
        == DEFINES
    )
    assert defines("zero3", "ZeRO-3 把权重也切分到各卡。") == DEFINES  # spelled without the hyphen
    # used, not defined: an example, a passive, a list item
    assert defines("PUE", "A PUE of 2.0 means another watt goes to cooling.") < DEFINES
    assert defines("PUE", "PUE is measured over a year.") < DEFINES
    assert (
        defines("activation checkpointing", "Lower the batch; turn on activation checkpointing; shard.")
        < DEFINES
    )
    assert defines("PUE", "Nothing about it here.") == 0


def test_the_second_half_of_a_sentence_is_quoted_from_where_the_sentence_starts() -> None:
    text = "Title\n\nAir cooling works up to a density that depends on the room; above that, liquid cooling is needed."
    assert best_snippet(text, tokenize("liquid cooling needed")).startswith("Air cooling works")


def test_zero_stages_are_written_as_the_documents_write_them() -> None:
    assert spell_out("zero3是啥") == "ZeRO-3是啥"
    assert spell_out("zero 2 or fsdp") == "ZeRO-2 or fsdp"
    assert spell_out("zero-shot") == "zero-shot"


def test_an_english_term_inside_a_chinese_question_is_its_topic() -> None:
    assert defined_term("开activation checkpointing 显存能省多少") == "activation checkpointing"
    assert defined_term("rail-optimized是啥意思 我们16台8卡") == "rail-optimized"
    assert defined_term("H100 nvlink带宽") is None  # one word beside a card is a figure asked, not a topic
