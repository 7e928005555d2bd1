"""Spec questions answered from the catalog's own fields (issue 12), generated over the whole catalog.

Every accelerator is asked each of its figures in English and in Chinese, by the names people use and
in the telegraphic ways they write ("B200 SXM memory bandwidth?", "910B一张卡多少瓦", "H100 nvlink带宽"),
through ``Assistant.ask`` with the real index. The answer's first sentence carries the catalog's value
in bold, in the question's language, with no English phrase in a Chinese answer. Phrasings rotate over
the catalog so that each is tried on many cards without asking the whole cross product.
"""

from __future__ import annotations

import re
from itertools import cycle

import pytest

from assistant.models import Answer
from assistant.service import Assistant
from knowledge.catalog import Accelerator, default_catalog

pytestmark = pytest.mark.integration

# field -> (English phrasings, Chinese phrasings); {n} is the card's name
PHRASINGS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "memory_gb": (
        ("How much memory does the {n} have?", "{n} memory size?", "how much VRAM on the {n}"),
        ("{n}显存多大", "{n} 多少G显存", "{n}的显存容量是多少"),
    ),
    "memory_bandwidth_gb_s": (
        ("What is the memory bandwidth of the {n}?", "{n} memory bandwidth?", "whats the HBM bandwidth of {n}"),
        ("{n}的显存带宽是多少", "{n}带宽多少", "{n} 显存带宽"),
    ),
    "bf16_dense_tflops": (
        ("{n} bf16 tflops", "how many BF16 TFLOPS does the {n} do", "What is the {n}'s BF16 TFLOPS?"),
        ("{n} BF16算力多少", "{n}的bf16稠密算力", "{n} BF16 多少T"),
    ),
    "fp8_dense_tflops": (
        ("FP8 TFLOPS of the {n}?", "{n} fp8 perf", "what's the FP8 throughput of the {n} in TFLOPS"),
        ("{n}的FP8算力是多少", "{n} fp8 多少T", "{n} FP8算力"),
    ),
    "tdp_w": (
        ("What is the TDP of the {n}?", "{n} TDP?", "how many watts does a {n} draw"),
        ("{n}功耗多少", "{n}一张卡多少瓦", "{n}的TDP是多少"),
    ),
    "scale_up_bandwidth_gb_s": (
        ("{n} nvlink bandwidth", "GPU-to-GPU interconnect bandwidth of {n}?", "What is the {n}'s scale-up bandwidth?"),
        ("{n}卡间互联带宽多少", "{n} nvlink带宽", "{n}的卡间带宽是多少"),
    ),
}  # fmt: skip
MULTI = ("{n} specs - hbm, bw, bf16 tflops, tdp", "{n} 显存 带宽 算力 功耗 分别多少")
LISTED = ("memory_gb", "memory_bandwidth_gb_s", "bf16_dense_tflops", "tdp_w")


def names(acc: Accelerator) -> list[str]:
    """The names people write for a card: its first alias, and its full name unless that is a description
    ("NVIDIA GB200 (per Blackwell GPU of a GB200 superchip)")."""
    return [acc.aliases[0], *([acc.name] if "(" not in acc.name else [])]


def questions() -> list[tuple[str, str, str, str]]:
    """(card id, field, language, question) over the catalog, each field's phrasings in rotation."""
    asked: list[tuple[str, str, str, str]] = []
    turns = {(f, lang): cycle(p[i]) for f, p in PHRASINGS.items() for i, lang in enumerate(("en", "zh"))}
    for acc in default_catalog().accelerators:
        for name in names(acc):
            for field in PHRASINGS:
                if getattr(acc, field) is None:
                    continue  # a part without the figure (no FP8, no NVLink) is tested below
                for lang in ("en", "zh"):
                    asked.append((acc.id, field, lang, next(turns[field, lang]).format(n=name)))
    return asked


def first_sentence(answer: Answer) -> str:
    return re.split(r"(?<=[.!?])\s+|(?<=[。！？])", answer.answer.strip(), maxsplit=1)[0]


def bold_numbers(text: str) -> list[float]:
    return [float(x.replace(",", "")) for x in re.findall(r"\*\*(\d[\d,]*(?:\.\d+)?)", text)]


def shows(value: float, text: str) -> bool:
    """Whether ``text`` states ``value`` in bold, as rounded for reading (989.4 -> 989, 112.5 -> 112)."""
    return any(abs(x - value) <= max(0.01 * value, 0.51) for x in bold_numbers(text))


# an English phrase (two words of four and three letters or more) in a Chinese answer's first sentence;
# names such as "NVIDIA GeForce RTX 4090" or "Instinct MI300X" are one capitalised run, not a phrase
_ENGLISH_PHRASE = re.compile(r"\b[a-z]{4,} [a-z]{3,}\b")


def test_every_card_answers_each_figure_in_both_languages(assistant: Assistant) -> None:
    catalog = default_catalog()
    misses: list[str] = []
    for card, field, lang, question in questions():
        answer = assistant.ask(question)
        first = first_sentence(answer)
        value = float(getattr(catalog.accelerator(card), field))
        if (
            answer.language != lang
            or not shows(value, first)
            or (lang == "zh" and _ENGLISH_PHRASE.search(first))
        ):
            misses.append(f"{question!r} ({field} = {value:g}) -> {first[:160]!r}")
    assert not misses, f"{len(misses)} spec answers miss:\n" + "\n".join(misses[:20])


def test_asked_for_four_figures_at_once_the_first_paragraph_gives_all_four(assistant: Assistant) -> None:
    misses: list[str] = []
    for acc in default_catalog().accelerators:
        for name in names(acc):
            for template in MULTI:
                question = template.format(n=name)
                lead = assistant.ask(question).answer.split("\n\n")[0]
                missing = [f for f in LISTED if getattr(acc, f) and not shows(float(getattr(acc, f)), lead)]
                if missing:
                    misses.append(f"{question!r} misses {missing}: {lead[:160]!r}")
    assert not misses, f"{len(misses)} multi-figure answers miss:\n" + "\n".join(misses[:20])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_figure_the_card_does_not_have_is_said_to_be_missing_not_borrowed(
    assistant: Assistant, lang: str
) -> None:
    """No FP8 on an A100, no NVLink on an L40S: the answer says so, and shows no other card's number."""
    catalog = default_catalog()
    asked = {"fp8_dense_tflops": ("FP8 TFLOPS of the {n}?", "{n}的FP8算力是多少"),
             "scale_up_bandwidth_gb_s": ("{n} nvlink bandwidth", "{n}卡间互联带宽多少")}  # fmt: skip
    checked = 0
    for acc in catalog.accelerators:
        for field, (en, zh) in asked.items():
            if getattr(acc, field) is not None:
                continue
            answer = assistant.ask((en if lang == "en" else zh).format(n=acc.aliases[0]))
            first = first_sentence(answer)
            none = ("none", "not published", "not supported") if lang == "en" else ("无", "未公布", "不支持")
            assert any(word in first for word in none), (acc.id, field, first)
            assert not bold_numbers(first), (acc.id, field, first)
            checked += 1
    assert checked >= 8  # the catalog has parts without FP8 and parts without NVLink


def test_chinese_spec_answers_carry_the_catalogs_own_chinese(assistant: Assistant) -> None:
    """The interconnect and form factor come from the catalog's Chinese prose, not an English phrase."""
    link = first_sentence(assistant.ask("H100 PCIe 卡间互联带宽多少"))
    assert "只连两张卡" in link
    assert "pairs of cards" not in link
    form = assistant.ask("910B是什么形态的").answer
    assert "Atlas 800T A2" in form
    assert "NPU 模组" in form


def test_figures_asked_in_one_clause_and_a_judgement_in_another_are_both_kept(assistant: Assistant) -> None:
    """'what's the h20's memory and bf16 flops? is it even worth it…': the H20's 96 GB and 148 dense BF16 TFLOPS
    are both shown, the 'worth it' clause notwithstanding."""
    answer = assistant.ask(
        "what's the h20's memory and bf16 flops? is it even worth it for training compared to h100"
    )
    call = next(c for c in answer.tool_calls if c.name == "gpu_spec")
    assert call.input["fields"][:2] == ["memory_gb", "bf16_dense_tflops"], call.input
    head = answer.answer.split("\n\n")[0]
    assert "96 GB" in head, head
    assert "148 TFLOPS" in head, head


@pytest.mark.parametrize(
    ("question", "figure"),
    [
        # AMD's MI300X data sheet: 192 GB HBM3, 5.3 TB/s, 1,307 dense BF16 TFLOPS
        ("quick one. MI300X: HBM size, bandwidth, BF16 dense TFLOPS?", "192 GB"),
        # Huawei's Ascend 910B2 figures in the catalog: 64 GB HBM2e, 1.6 TB/s
        ("910B的HBM容量和带宽多少", "64 GB"),
    ],
)
def test_memory_named_by_its_hbm_size_is_among_the_figures_shown(
    assistant: Assistant, question: str, figure: str
) -> None:
    """ "HBM size" / "HBM容量" ask for the memory capacity, shown beside the other figures asked."""
    answer = assistant.ask(question)
    call = next(c for c in answer.tool_calls if c.name == "gpu_spec")
    assert "memory_gb" in call.input["fields"], call.input
    assert figure in answer.answer.split("\n\n")[0]


def test_a_chinese_price_lookup_leads_in_yuan_with_the_dollars_beside(assistant: Assistant) -> None:
    """'H20 8卡服务器多少钱': the catalog's H20 street price (Reuters, February 2024: $12,000-15,000, midpoint
    $13,500) x 8 + 25% platform = $135,000, shown first as yuan at the catalog's 7.02: ¥947,700."""
    lead = first_sentence(assistant.ask("H20 8卡服务器大概多少钱"))
    assert "¥947,700" in lead, lead
    assert lead.index("¥947,700") < lead.index("$135,000"), lead


def test_the_pcie_version_asked_beside_a_card_is_looked_up_too(assistant: Assistant) -> None:
    """'vs the pcie version': the H100 SXM's 900 GB/s NVLink against the PCIe card's 600 GB/s bridge (catalog)."""
    answer = assistant.ask("h100 nvlink bandwidth, and vs the pcie version?")
    call = answer.tool_calls[0]
    assert set(call.input["gpus"]) == {"h100-sxm", "h100-pcie"}, call.input
    assert "1.5" in first_sentence(answer), answer.answer[:300]
    assert "900" in first_sentence(answer), answer.answer[:300]


def test_power_in_a_list_of_figures_asked_is_the_tdp(assistant: Assistant) -> None:
    answer = assistant.ask("a100 sxm vs a100 pcie 80gb: memory bw, bf16, power?")
    call = next(c for c in answer.tool_calls if c.name == "gpu_spec")
    assert "tdp_w" in call.input["fields"], call.input


def test_software_versions_to_match_are_not_a_server_to_buy(assistant: Assistant) -> None:
    answer = assistant.ask("H200 上 cuda 版本和 pytorch 怎么配")
    assert "主要做什么" not in answer.answer, answer.answer[:200]


def test_a_verdict_beside_figures_asked_is_said_once(assistant: Assistant) -> None:
    answer = assistant.ask("h20 memory and bf16 tflops? and is it worth it for training vs the h100")
    paragraphs = [p for p in answer.answer.split("\n\n") if p.strip()]
    assert len(paragraphs) == len(set(paragraphs)), answer.answer[:800]


# Issue 13 coverage: every card added is asked by a name people write, in each language, and answers with its own
# figure from the catalog (bold in the first sentence) and cites its own catalog entry among its sources.
ADDED_CARDS = [
    ("gb300", "memory_gb", "en", "How much memory does a GB300 have?"),
    ("gb300", "fp8_dense_tflops", "zh", "GB300的FP8算力是多少"),
    ("h200-nvl", "memory_bandwidth_gb_s", "en", "What is the memory bandwidth of the H200 NVL?"),
    ("h200-nvl", "tdp_w", "zh", "H200 NVL功耗多少"),
    ("gh200", "bf16_dense_tflops", "en", "GH200 bf16 tflops"),
    ("gh200", "memory_gb", "zh", "GH200显存多大？"),
    ("gh200-144gb", "memory_bandwidth_gb_s", "en", "GH200 144GB memory bandwidth?"),
    ("gh200-144gb", "memory_bandwidth_gb_s", "zh", "GH200 144GB的显存带宽是多少"),
    ("mi350x", "tdp_w", "en", "What is the TDP of the MI350X?"),
    ("mi350x", "memory_bandwidth_gb_s", "zh", "MI350X的显存带宽是多少"),
    ("tpu7x", "memory_bandwidth_gb_s", "en", "What is the memory bandwidth of Ironwood?"),
    ("tpu7x", "memory_gb", "zh", "TPU v7的显存多大？"),
    ("trainium3", "fp8_dense_tflops", "en", "Trainium3 FP8 TFLOPS?"),
    ("trainium3", "memory_bandwidth_gb_s", "zh", "Trn3显存带宽多少"),
    # Hygon's BW1000: Gitee AI's reported figures (64 GB HBM2e, 1.6 TB/s, FP16 480), no BF16 figure published
    ("hygon-bw1000", "memory_gb", "en", "How much memory does the Hygon BW1000 have?"),
    ("hygon-bw1000", "memory_bandwidth_gb_s", "zh", "海光BW1000的显存带宽是多少"),
    ("hygon-bw1000", "memory_gb", "zh", "海光 DCU BW1000 显存多大"),
]


@pytest.mark.parametrize(("card", "field", "lang", "question"), ADDED_CARDS)
def test_an_added_card_answers_with_its_own_figure_and_cites_its_entry(
    assistant: Assistant, card: str, field: str, lang: str, question: str
) -> None:
    answer = assistant.ask(question)
    first = first_sentence(answer)
    value = float(getattr(default_catalog().accelerator(card), field))
    assert answer.language == lang, question
    assert shows(value, first), (question, value, first)
    assert card in [c.section for c in answer.citations], [c.section for c in answer.citations]
    if lang == "zh":
        assert not _ENGLISH_PHRASE.search(first), first


@pytest.mark.parametrize(
    ("message", "lead"),
    [
        ("what's the H20's memory", "NVIDIA H20 96GB: memory **96 GB**"),
        ("h100 memory?", "NVIDIA H100 SXM5 80GB: memory **80 GB**"),
        ("what is the memory of the H20?", "NVIDIA H20 96GB: memory **96 GB**"),
    ],
)
def test_a_cards_memory_asked_plainly_is_looked_up(assistant: Assistant, message: str, lead: str) -> None:
    """The H20 carries 96 GB of HBM3 and the H100 SXM5 80 GB (NVIDIA product pages, catalog)."""
    answer = assistant.ask(message)
    assert first_sentence(answer).startswith(lead), answer.answer[:200]
