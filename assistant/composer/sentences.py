"""A calculator's sentence in the reader's language: by its message code (tools/messages.py), which fills the
same parameters into that language's template; a sentence a calculator still writes as plain English falls
back to the rule tables that match its shape (assumptions.py, calculator_warnings.py, calculator_errors.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from assistant.composer.assumptions import in_language
from assistant.composer.calculator_errors import error_in_language
from assistant.composer.calculator_warnings import warning_in_language
from knowledge.text import Language
from tools.messages import Note


def _noted(text: str, output: Mapping[str, Any]) -> Note | None:
    for note in output.get("messages", []):
        if note.get("text") == text:
            return Note.model_validate(note)
    return None


def assumption_in(text: str, output: Mapping[str, Any], language: Language) -> str | None:
    """One of ``output``'s assumptions in ``language``; None when it has no rendering there."""
    note = _noted(text, output)
    return note.in_language(language) if note else in_language(text, language)


def warning_in(text: str, output: Mapping[str, Any], language: Language) -> str | None:
    """One of ``output``'s warnings in ``language``; None when it has no rendering there."""
    note = _noted(text, output)
    return note.in_language(language) if note else warning_in_language(text, language)


def error_in(text: str, notes: Mapping[str, Note], language: Language) -> str:
    """One input error, ``field: message``, in ``language``; ``notes`` are the run's errors written as messages."""
    note = notes.get(text)
    if note is None or language == "en":
        return error_in_language(text, language)
    field, shown = text.split(": ", 1)[0], note.in_language(language)
    # "两次运行的 GPU 数量（gpus_to）相同…" names its field already; "必须大于 0" needs it before
    named = re.search(rf"(?<![a-z0-9_]){re.escape(field)}(?![a-z0-9_])", shown)
    return shown if named or field == "input" else f"{field}：{shown}"
