"""Request and response bodies of the advisor's own HTTP API (the domain ``Answer`` is the reply)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field, StrictBool, StringConstraints

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
    stream: StrictBool = Field(
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


class ErrorDetail(BaseModel):
    """What went wrong: a stable ``code`` to branch on and a ``message`` to show."""

    code: str = Field(description="e.g. invalid_request, unauthorized, not_found, rate_limited, internal.")
    message: str = Field(description="One readable sentence; never internals.")
    fields: list[dict[str, str]] | None = Field(
        default=None, description="For 422: each invalid field and why ({'field', 'message'})."
    )
    suggestions: list[str] | None = Field(
        default=None, description="For tools: names or values that would work."
    )


class ErrorBody(BaseModel):
    """Every error response: ``{"error": {"code", "message"}}``."""

    error: ErrorDetail


def _error(description: str) -> dict[str, Any]:
    return {"model": ErrorBody, "description": description}


_ERRORS: dict[int, str] = {
    400: "The body cannot be read at all: not UTF-8, not JSON, or broken multipart framing.",
    401: "No valid API key or signed user token.",
    403: "The key's role does not allow this route, or a browser page of another origin sent it.",
    404: "No such resource (or it belongs to another user).",
    409: "The request contradicts the resource's state (a duplicate, a name taken, a packaged document).",
    413: "The request body is larger than the limit.",
    415: "A file type the knowledge base cannot read.",
    422: "Invalid input; `fields` names each invalid field.",
    429: "Over the rate limit; `Retry-After` says when to retry.",
    500: "Our bug, logged; the message carries no internals.",
    503: "Still starting, or storage the request needs is unavailable; try again later.",
}


def error_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` declaring these error codes with the one error body."""
    return {code: _error(_ERRORS[code]) for code in codes}


def json_error_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """``error_responses`` for a route whose success is not JSON (an HTML page): errors stay JSON."""
    schema = {"$ref": "#/components/schemas/ErrorBody"}
    return {
        code: {"description": _ERRORS[code], "content": {"application/json": {"schema": schema}}}
        for code in codes
    }


ERROR_RESPONSES = error_responses(400, 401, 403, 404, 413, 422, 429, 500, 503)
"""The errors any /v1 route may answer, declared so /docs and client generators know their shape."""
