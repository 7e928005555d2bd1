"""Liveness and readiness."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from assistant.errors import AdvisorError

router = APIRouter(tags=["health"])


@router.get("/healthz")
def healthz() -> dict[str, str]:
    """The process is up."""
    return {"status": "ok"}


class Readiness(BaseModel):
    status: str = Field(description="'ready', 'starting' or 'unavailable'.")
    problems: dict[str, str] | None = Field(
        default=None, description="What cannot serve a chat now: 'index', 'conversations'."
    )


@router.get(
    "/readyz",
    response_model=Readiness,
    responses={503: {"model": Readiness, "description": "Starting, or a store a chat needs is unavailable."}},
)
def readyz(request: Request) -> JSONResponse:
    """The assistant can answer a chat: its models are loaded, the knowledge index can be read and the
    conversation store can be read and written. 503 names what is missing."""
    assistant = getattr(request.app.state, "assistant", None)
    if assistant is None:
        return JSONResponse(status_code=503, content={"status": "starting"})
    problems: dict[str, str] = {}
    for name, check in (("index", assistant.retriever.check), ("conversations", assistant.memory.check)):
        try:
            check()
        except AdvisorError as exc:
            problems[name] = str(exc)
    if problems:
        return JSONResponse(status_code=503, content={"status": "unavailable", "problems": problems})
    return JSONResponse(content={"status": "ready"})
