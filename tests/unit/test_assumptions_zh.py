"""Every assumption a calculator writes has a Chinese rendering that keeps its numbers and names.

The strings are collected from real runs (tests/unit/calculator_runs.py): every published case mapped onto
a calculator, every turn of the evaluation set routed and run as `advisor ask` would, and targeted inputs
for the branches neither reaches (given vs catalog values, servers, quantised weights, offload, ...).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from assistant.composer.template import TemplateComposer
from assistant.models import ToolCall
from assistant.router import Intent, Route, Router
from assistant.slots import SlotExtractor, Slots
from assistant.toolbox import ToolBox, ToolRun
from knowledge.catalog import default_catalog
from knowledge.names import NameIndex
from tests.unit.calculator_runs import catalog_names, collected, in_chinese, problems
from tools.registry import TOOLS

# --- tests -------------------------------------------------------------------------------------------


def test_every_assumption_reads_in_chinese_with_its_numbers_and_names() -> None:
    names = catalog_names()
    failures = {
        f"{text!r} from {origin} -> {zh!r}": lacking
        for text, origin in collected().assumptions.items()
        if (lacking := problems(text, zh := in_chinese(text), names))
    }
    assert not failures, "\n".join(f"{where}: {lacking}" for where, lacking in failures.items())


def test_the_inputs_reach_every_calculator() -> None:
    texts = collected().assumptions
    calculators = {origin.split(" ", 1)[0] for origin in texts.values()}
    assert calculators == set(TOOLS)
    assert {route.language for route, _ in collected().answered} == {"en", "zh"}


def test_english_stays_as_the_calculators_wrote_it() -> None:
    notes = collected().notes
    assert all(notes[text].in_language("en") == text for text in collected().assumptions)


def test_chinese_answers_show_what_english_answers_show() -> None:
    composer = TemplateComposer()
    for route, done in collected().answered:
        en = composer.compose(route.model_copy(update={"language": "en"}), [], done).assumptions
        zh = composer.compose(route.model_copy(update={"language": "zh"}), [], done).assumptions
        assert len(zh) == len(en), route.query
        calculator = en[len(done.assumed) :]
        assert zh[len(done.assumed) :] == [in_chinese(a) for a in calculator], route.query


def test_a_chinese_answer_lists_the_calculator_assumptions_once() -> None:
    catalog = default_catalog()
    question = "用256张H100、MFU 45%，训练一个34B模型、1.5T token，要多少天？"
    route = Router(extractor=SlotExtractor(NameIndex(catalog))).route(question)
    draft = TemplateComposer().compose(route, [], ToolBox(catalog=catalog).run_for(route.tools, route.slots))
    section = draft.answer.split("**假设**", 1)[1].split("**", 1)[0]
    assert "- 模型结构按参数量推算（类 GPT 比例）：34B 参数；55 层，隐藏维度 7168，56 个注意力头" in section
    assert section.count("55 层") == 1
    assert "- 每 token 计算量 = 6 × 34B（未计注意力项）" in section
    assert "- NVIDIA H100 SXM5 80GB：单卡稠密 BF16 峰值 989.4 TFLOP/s（目录数据）" in section
    assert not re.search(r"FLOPs per token|derived shape|per GPU \(catalog\)", draft.answer)


@pytest.mark.parametrize(("language", "shown"), [("en", ["a sentence with no message code"]), ("zh", [])])
def test_a_sentence_without_a_rendering_is_left_out_of_a_chinese_answer(
    language: Any, shown: list[str]
) -> None:
    call = ToolCall(name="new_tool", input={}, output={"assumptions": ["a sentence with no message code"]})
    route = Route(language=language, intent=Intent.CALCULATION, slots=Slots(), stated={}, query="q")
    assert TemplateComposer().compose(route, [], ToolRun(calls=[call])).assumptions == shown
