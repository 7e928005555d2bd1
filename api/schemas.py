"""Request and response bodies of the advisor's own HTTP API (the domain ``Answer`` is the reply)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field, StringConstraints

from assistant.service import MAX_MESSAGE_CHARS

Message = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_MESSAGE_CHARS)]


class ChatRequest(BaseModel):
    """One message to the assistant."""

    message: Message = Field(description="The question, in English or Chinese.")
    conversation_id: str | None = Field(
        default=None,
        max_length=128,
        description="Continue this conversation; omit to start one (the Answer carries its id).",
    )
    stream: bool = Field(
        default=False,
        description="Reply with server-sent events (meta, token, tool_call, citation, done, error).",
    )


class ToolDescription(BaseModel):
    """One calculator as ``GET /v1/tools`` lists it."""

    name: str
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any]


class StreamError(BaseModel):
    """The data of an SSE ``error`` event."""

    code: str
    message: str
