"""Message codes (tools/messages.py): each sentence shape has a template per language with the same
placeholders, and a sentence renders in Chinese from the same parameters as in English."""

from __future__ import annotations

import re

import pytest

import tools.registry  # noqa: F401  (defines every calculator's messages)
from knowledge.catalog import default_catalog
from tests.unit.calculator_runs import HAN
from tools.messages import GLOSSARIES, MESSAGES, Message, Note, UnknownMessageError, glossaries, placeholders
from tools.registry import ToolInputError, run


def test_every_message_has_both_languages_with_the_same_placeholders() -> None:
    assert MESSAGES
    for code, message in MESSAGES.items():
        en, zh = message.templates["en"], message.templates["zh"]
        assert placeholders(en) == placeholders(zh), code
        # the words around the placeholders are Chinese; a template of placeholders and punctuation alone is fine
        words = re.sub(r"\{[^{}]*\}", "", zh)
        assert HAN.search(words) or not re.search(r"[A-Za-z]{2,}", words), f"{code}: reads as English: {zh!r}"
        assert not HAN.search(en), f"{code}: Chinese in the English template"
        assert glossaries(en) | glossaries(zh) <= set(GLOSSARIES), code


def test_a_sentence_keeps_its_parameters_in_each_language() -> None:
    said = Message(
        "test.example",
        en="PUE {pue} ({how:given}); try {ids:or}",
        zh="PUE {pue}（{how:given}）；试试 {ids:or}",
    )
    text = said(pue="1.35", how="given", ids=["h100-sxm", "h200"])
    listed = Message("test.listed", en="servers: {ids:comma}", zh="服务器：{ids:comma}")(ids=["a", "b", "c"])
    assert (listed, listed.in_language("zh")) == ("servers: a, b, c", "服务器：a、b、c")
    del MESSAGES["test.listed"]
    assert text == "PUE 1.35 (given); try h100-sxm or h200"
    assert text.in_language("zh") == "PUE 1.35（用户给定）；试试 h100-sxm或h200"
    # as data (a calculator's output over HTTP), the same
    assert Note.model_validate(text.note().model_dump()).in_language("zh") == text.in_language("zh")
    del MESSAGES["test.example"]


def test_a_sentence_inside_a_sentence_renders_in_the_same_language() -> None:
    inner = Message("test.inner", en="{n} GPUs", zh="{n} 张卡")
    outer = Message("test.outer", en="plan: {parts}", zh="方案：{parts}")
    text = outer(parts=[inner(n="8"), inner(n="16")])
    assert text == "plan: 8 GPUs and 16 GPUs"
    assert text.in_language("zh") == "方案：8 张卡、16 张卡"
    assert Note.model_validate(text.note().model_dump()).in_language("zh") == "方案：8 张卡、16 张卡"
    del MESSAGES["test.inner"], MESSAGES["test.outer"]


def test_a_code_is_defined_once_and_an_unknown_code_is_an_error() -> None:
    code = next(iter(MESSAGES))
    with pytest.raises(ValueError, match="defined twice"):
        Message(code, en="x", zh="某")
    with pytest.raises(UnknownMessageError):
        Note(text="t", code="no.such.code", params={}).in_language("zh")


@pytest.mark.parametrize(
    ("payload", "zh"),
    [
        ({"params_b": 0, "gpu": "h100-sxm"}, "必须大于 0"),
        ({"params_b": 7, "gpu": "h100-sxm", "optimizer": "lion"}, "只能取以下值之一："),
        ({"params_b": 7, "gpu": "h100-sxm", "colour": "red"}, "不接受这个输入项"),
    ],
)
def test_pydantic_errors_read_in_chinese_by_their_type(payload: dict[str, object], zh: str) -> None:
    with pytest.raises(ToolInputError) as caught:
        run("training_memory", payload, default_catalog())
    problem = caught.value.problems[0]
    assert problem.note is not None, problem
    assert problem.note.in_language("en") == problem.message
    assert problem.note.in_language("zh").startswith(zh)
    assert not any(c.isascii() and c.isalpha() for c in zh)


def _codes(value: object) -> set[str]:
    """Every code in a note's parameters, nested sentences included."""
    if isinstance(value, dict):
        own = {value["code"]} if isinstance(value.get("code"), str) and "params" in value else set()
        return own | {code for item in value.values() for code in _codes(item)}
    if isinstance(value, list):
        return {code for item in value for code in _codes(item)}
    return set()


def test_every_message_is_written_by_some_calculator_run() -> None:
    """The real runs of tests/unit/calculator_runs.py and test_errors_zh.py reach every sentence a calculator
    defines, so each template has been rendered, in both languages, with the parameters a calculator gives."""
    from tests.unit.calculator_runs import collected
    from tests.unit.test_errors_zh import _collected

    notes = [*collected().notes.values(), *_collected()[2].values()]
    reached = {code for note in notes for code in _codes(note.model_dump())}
    unreached = sorted(code for code in MESSAGES if code not in reached and not code.startswith("test."))
    # pydantic's own types beyond bounds and choices are rare in practice; every calculator sentence is reached
    unreached = [code for code in unreached if not code.startswith("input.")]
    assert not unreached, "add an input that makes a calculator write these:\n" + "\n".join(unreached)


@pytest.mark.parametrize(
    "note",
    [
        {
            "text": "an old sentence",
            "code": "removed.since",
            "params": {},
        },  # a code no calculator defines now
        {"text": "PUE 1.3 (given)", "code": "cost.pue_given", "params": {}},  # parameters a template lost
    ],
)
def test_a_stored_note_that_no_longer_renders_is_left_out_not_raised(note: dict[str, object]) -> None:
    """Outputs stored before an upgrade come back in follow-ups: a sentence they hold that the templates can no
    longer fill is left out of a Chinese answer (an error reads as the generic sentence), never a failed turn."""
    from assistant.composer.sentences import error_in, sentence_in

    output = {"assumptions": [note["text"]], "messages": [note]}
    assert sentence_in(str(note["text"]), output, "zh") is None
    assert sentence_in(str(note["text"]), output, "en") == note["text"]
    stored = Note.model_validate(note)
    assert error_in(f"gpu: {note['text']}", {f"gpu: {note['text']}": stored}, "zh").startswith(
        "输入 gpu 的值"
    )
