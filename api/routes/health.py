"""Liveness and readiness."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

router = APIRouter(tags=["health"])


@router.get("/healthz")
def healthz() -> dict[str, str]:
    """The process is up."""
    return {"status": "ok"}


@router.get("/readyz", response_model=None)
def readyz(request: Request) -> JSONResponse:
    """The assistant, its models and its index are loaded and can answer."""
    assistant = getattr(request.app.state, "assistant", None)
    if assistant is None:
        return JSONResponse(status_code=503, content={"status": "starting"})
    return JSONResponse(content={"status": "ready"})
