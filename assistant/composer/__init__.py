"""Composers turn a route, passages and calculator results into an answer."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from pydantic import BaseModel, Field

from assistant.models import Calculation, Citation, ToolCall
from assistant.retriever import Passage
from assistant.router import Route
from assistant.toolbox import ToolRun


class Draft(BaseModel):
    """What a composer writes; the service adds ids and the HTML."""

    answer: str
    citations: list[Citation] = Field(default_factory=list)
    tool_calls: list[ToolCall] = Field(default_factory=list)
    assumptions: list[str] = Field(default_factory=list)
    follow_ups: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    calculations: list[Calculation] = Field(default_factory=list)


class Composer(Protocol):
    def compose(self, route: Route, passages: list[Passage], run: ToolRun) -> Draft: ...

    def stream(self, route: Route, passages: list[Passage], run: ToolRun) -> Iterator[str | Draft]:
        """Text deltas, then the finished ``Draft`` as the last item."""
        ...
