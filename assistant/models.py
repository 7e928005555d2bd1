"""The contract every channel renders: ``Answer`` and its parts (see DESIGN.md)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from knowledge.text import Language


class Citation(BaseModel):
    """A numbered source of the answer; ``[n]`` in the answer text refers to ``id`` n."""

    id: int = Field(ge=1)
    title: str
    source: str = Field(description="Document path in the knowledge base, or the user's file.")
    url: str = Field(description="Link to the original source ('' when there is none).")
    section: str
    snippet: str
    doc_id: str = Field(description="Stable id of the cited document (e.g. 'en/storage').")
    as_of: str = Field(default="", description="Date the cited figures were read.")


class ToolCall(BaseModel):
    """One calculator run: its name, validated input and output."""

    name: str
    input: dict[str, Any]
    output: dict[str, Any]


class CalculationRow(BaseModel):
    """One labelled figure of a calculation, in the answer's language."""

    label: str = Field(description="Words in the reader's language ('GPUs needed', '需要的 GPU 数').")
    value: str = Field(description="The figure with its unit, as the answer shows it.")
    kind: Literal["input", "result"] = Field(
        description="Given or assumed ('input'), or computed ('result')."
    )


class Calculation(BaseModel):
    """One calculator's result as the channels show it: a card in the widget, fields in Slack.

    Built once by the composer, in the answer's language; nothing downstream re-parses the Markdown.
    The raw input and output are the matching entry of ``Answer.tool_calls``.
    """

    tool: str = Field(description="The calculator's name, as in ``tool_calls`` and ``/v1/tools``.")
    title: str = Field(
        description="What the calculation is, in the reader's language ('Host RAM', '主机内存')."
    )
    headline: str = Field(description="Its result in one sentence.")
    rows: list[CalculationRow] = Field(default_factory=list)
    table: str | None = Field(
        default=None,
        description="The Markdown table of ``answer`` that shows these rows (where a channel puts the card "
        "instead); null when the answer shows them otherwise.",
    )


class Started(BaseModel):
    """What a streamed answer knows before its first word: where it is stored and its language."""

    conversation_id: str
    message_id: str
    language: Language


class Answer(BaseModel):
    """One assistant reply, the same object over HTTP, the CLI, the widget and Slack."""

    conversation_id: str
    message_id: str
    language: Language
    answer: str = Field(description="Markdown with [n] citation markers.")
    answer_html: str = Field(default="", description="The answer as sanitized HTML.")
    citations: list[Citation] = Field(default_factory=list)
    tool_calls: list[ToolCall] = Field(default_factory=list)
    assumptions: list[str] = Field(default_factory=list)
    follow_ups: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    calculations: list[Calculation] = Field(
        default_factory=list,
        description="Each calculator's result with labels in the answer's language: what the widget's cards and "
        "Slack's fields show.",
    )
    timings: dict[str, float] = Field(
        default_factory=dict,
        exclude=True,  # in-process only (metrics); never sent to clients
        description="Seconds spent per stage of answering, e.g. 'retrieval'.",
    )
