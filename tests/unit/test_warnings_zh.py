"""Every warning a calculator writes has a Chinese rendering that keeps its numbers, names and parameters.

The warnings come from the same real runs as the assumptions (tests/unit/calculator_runs.py), whose
targeted inputs reach every `warnings.append` in tools/*.py.
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
from tests.unit.calculator_runs import HAN, catalog_names, collected, in_chinese, problems

# what a reader types into the API: staff_per_year, cooling='liquid'
PARAMETER = re.compile(r"\w+='[^']*'|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


def _names() -> list[str]:
    """Catalog names, and the ids that warnings list (``no purchase price for v100-sxm2-32gb``)."""
    catalog = default_catalog()
    ids = {entry.id for _, entry in catalog.entries() if hasattr(entry, "id")}
    return sorted(set(catalog_names()) | ids)


def _next_section(answer: str) -> str:
    return answer.split("**下一步**", 1)[1] if "**下一步**" in answer else ""


def test_every_warning_reads_in_chinese_with_its_numbers_names_and_parameters() -> None:
    names = _names()
    failures: dict[str, list[str]] = {}
    for text, origin in collected().warnings.items():
        zh = in_chinese(text)
        lacking = problems(text, zh, names)
        lacking += [f"parameter lost: {p}" for p in PARAMETER.findall(text) if zh and p not in zh]
        if lacking:
            failures[f"{text!r} from {origin} -> {zh!r}"] = lacking
    assert not failures, "\n".join(f"{where}: {lacking}" for where, lacking in failures.items())


def test_warnings_reach_answers_in_both_languages() -> None:
    assert {route.language for route, done in collected().answered if _warnings(done)} == {"en", "zh"}


def test_english_stays_as_the_calculators_wrote_it() -> None:
    notes = collected().notes
    assert all(notes[text].in_language("en") == text for text in collected().warnings)


def _warnings(done: ToolRun) -> list[str]:
    return [w for call in done.calls for w in call.output.get("warnings", [])]


def test_chinese_answers_show_the_warnings_in_chinese_and_keep_the_notes() -> None:
    composer = TemplateComposer()
    warned = [(route, done) for route, done in collected().answered if _warnings(done)]
    assert warned
    for route, done in warned:
        en = composer.compose(route.model_copy(update={"language": "en"}), [], done)
        zh = composer.compose(route.model_copy(update={"language": "zh"}), [], done)
        assert zh.notes == en.notes == [f"warning: {w}" for w in _warnings(done)], route.query
        shown = _next_section(zh.answer)
        for text in _warnings(done)[:2]:
            assert f"- {in_chinese(text)}" in shown, route.query
            assert text not in zh.answer, route.query


def test_a_chinese_tco_answer_asks_for_the_staff_cost_in_chinese() -> None:
    catalog = default_catalog()
    route = Router(extractor=SlotExtractor(NameIndex(catalog))).route("64张H100三年的总拥有成本是多少？")
    draft = TemplateComposer().compose(route, [], ToolBox(catalog=catalog).run_for(route.tools, route.slots))
    shown = _next_section(draft.answer)
    assert "- 人力成本为 0：自有集群需要运维人员；请给出 staff_per_year" in shown
    assert "staff cost is 0" not in draft.answer
    assert "warning: staff cost is 0: owned clusters need operators; give staff_per_year" in draft.notes
    lines = [line for line in shown.splitlines() if line.startswith("- ")]
    assert lines
    assert all(HAN.search(line) for line in lines)


@pytest.mark.parametrize(("language", "shown"), [("en", True), ("zh", False)])
def test_a_warning_without_a_rendering_is_left_out_of_a_chinese_answer(language: Any, shown: bool) -> None:
    call = ToolCall(name="new_tool", input={}, output={"warnings": ["a warning with no message code"]})
    route = Route(language=language, intent=Intent.CALCULATION, slots=Slots(), stated={}, query="q")
    draft = TemplateComposer().compose(route, [], ToolRun(calls=[call]))
    assert ("a warning with no message code" in draft.answer) is shown
    assert draft.notes == ["warning: a warning with no message code"]
