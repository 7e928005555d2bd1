"""One JSON error body per error family."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from assistant.errors import AdvisorError, InvalidInput, NotReady, ProviderError

_STATUS: dict[type[AdvisorError], tuple[int, str]] = {
    InvalidInput: (422, "invalid_input"),
    NotReady: (503, "not_ready"),
    ProviderError: (502, "provider_error"),
}


def register_error_handlers(app: FastAPI) -> None:
    """Map each ``AdvisorError`` family to a status and ``{"error": {"code", "message"}}``."""

    async def handle(request: Request, exc: Exception) -> JSONResponse:
        status, code = next(
            (value for cls, value in _STATUS.items() if isinstance(exc, cls)), (400, "bad_request")
        )
        return JSONResponse(status_code=status, content={"error": {"code": code, "message": str(exc)}})

    app.add_exception_handler(AdvisorError, handle)
