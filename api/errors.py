"""One JSON error body, ``{"error": {"code", "message"}}``, and one handler per error family."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from assistant.errors import (
    AdvisorError,
    Conflict,
    InvalidInput,
    NotFound,
    NotReady,
    ProviderError,
    StorageError,
    TooLarge,
    UnsupportedMedia,
)
from tools.registry import ToolInputError, UnknownToolError

logger = logging.getLogger(__name__)

# most specific first: the first matching family decides the status
_STATUS: dict[type[AdvisorError], tuple[int, str]] = {
    UnsupportedMedia: (415, "unsupported_media_type"),
    TooLarge: (413, "too_large"),
    Conflict: (409, "conflict"),
    InvalidInput: (422, "invalid_input"),
    NotFound: (404, "not_found"),
    NotReady: (503, "not_ready"),
    StorageError: (503, "storage_unavailable"),
    ProviderError: (502, "provider_error"),
}
_HTTP_CODES = {
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    429: "rate_limited",
}
INTERNAL_MESSAGE = "Something went wrong on our side; the error was logged. Please try again."


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, **extra}}


def error_response(
    status: int, code: str, message: str, *, headers: Mapping[str, str] | None = None, **extra: Any
) -> JSONResponse:
    return JSONResponse(status_code=status, content=error_body(code, message, **extra), headers=headers)


def status_of(exc: AdvisorError) -> tuple[int, str]:
    """The HTTP status and error code of an ``AdvisorError`` (also used for SSE ``error`` events)."""
    return next((value for cls, value in _STATUS.items() if isinstance(exc, cls)), (400, "bad_request"))


def _field(loc: tuple[int | str, ...]) -> str:
    # "body" and "query" say where, not what; the client wants the field's name
    parts = [str(p) for p in loc if p not in {"body", "query", "path", "header"}]
    return ".".join(parts) or "body"


def allowed_methods(openapi: Mapping[str, Any], path: str) -> list[str]:
    """Every method the OpenAPI document serves at ``path`` (a literal path before a template)."""
    paths: Mapping[str, Mapping[str, Any]] = openapi.get("paths", {})
    for segment in (r"[^/]+", r".+"):
        matched = [t for t in paths if re.fullmatch(re.sub(r"\\\{\w+\\\}", segment, re.escape(t)), path)]
        if matched:
            best = max(matched, key=lambda t: len(re.sub(r"\{\w+\}", "", t)))
            return sorted(m.upper() for m in paths[best] if m in _METHODS)
    return []


_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def register_error_handlers(app: FastAPI) -> None:
    """Map each error family to a status and ``{"error": {"code", "message"}}``."""

    async def advisor_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, AdvisorError)
        status, code = status_of(exc)
        return error_response(status, code, str(exc))

    async def validation_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        fields = [
            {"field": _field(tuple(e.get("loc", ()))), "message": str(e.get("msg", "invalid"))}
            for e in exc.errors()
        ]
        message = "; ".join(f"{f['field']}: {f['message']}" for f in fields) or "invalid request"
        return error_response(422, "invalid_request", message, fields=fields)

    async def unknown_tool(request: Request, exc: Exception) -> JSONResponse:
        return error_response(404, "unknown_tool", str(exc.args[0]) if exc.args else str(exc))

    async def tool_input(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ToolInputError)
        fields = [p.model_dump(include={"field", "message"}) for p in exc.problems]  # the contract's shape
        return error_response(422, "invalid_tool_input", str(exc), fields=fields, suggestions=exc.suggestions)

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HTTPException)
        code = _HTTP_CODES.get(exc.status_code, "http_error")
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            # Starlette names the methods of the first route on the path only; list every route's
            allowed = allowed_methods(request.app.openapi(), request.url.path)
            headers["Allow"] = ", ".join(allowed) if allowed else headers.get("Allow", "")
        if exc.status_code == 400 and exc.detail == "There was an error parsing the body":
            return error_response(
                400, "bad_request", "the request body cannot be read (not UTF-8 JSON, or broken multipart)"
            )
        return error_response(exc.status_code, code, str(exc.detail), headers=headers)

    async def internal(request: Request, exc: Exception) -> JSONResponse:
        # a 500 is our bug: log it with the traceback, tell the client nothing of the internals
        logger.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
        return error_response(500, "internal", INTERNAL_MESSAGE)

    app.add_exception_handler(AdvisorError, advisor_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(UnknownToolError, unknown_tool)
    app.add_exception_handler(ToolInputError, tool_input)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(Exception, internal)
