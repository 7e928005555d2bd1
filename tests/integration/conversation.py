"""Talking to the assistant in tests: one conversation message by message, and what to read off an answer."""

from __future__ import annotations

import re

from assistant.models import Answer
from assistant.service import Assistant


def talk(assistant: Assistant, *messages: str) -> list[Answer]:
    """One conversation, message by message."""
    answers: list[Answer] = []
    for message in messages:
        answers.append(
            assistant.ask(message, conversation_id=answers[-1].conversation_id if answers else None)
        )
    return answers


def first_sentence(answer: Answer) -> str:
    return re.split(r"(?<=[.!?])\s+|(?<=[。！？])", answer.answer.strip(), maxsplit=1)[0]


def tools(answer: Answer) -> list[str]:
    return [call.name for call in answer.tool_calls]


def output(answer: Answer, name: str) -> dict[str, object]:
    return next(call.output for call in answer.tool_calls if call.name == name)
