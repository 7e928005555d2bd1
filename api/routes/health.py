"""Liveness and readiness."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from assistant.errors import AdvisorError
from assistant.version import VERSION

router = APIRouter(tags=["health"])


class Health(BaseModel):
    status: str = Field(description="Always 'ok': the process is up.")
    version: str = Field(description="The installed advisor version.")
    embedding_model: str = Field(description="The embedding model the index was built with and queries use.")


@router.get("/healthz", response_model=Health)
def healthz(request: Request) -> Health:
    """The process is up; which version it runs and with which embedding model."""
    return Health(status="ok", version=VERSION, embedding_model=request.app.state.settings.embedding.model)


class Readiness(BaseModel):
    status: str = Field(description="'ready', 'starting' or 'unavailable'.")
    problems: dict[str, str] | None = Field(
        default=None, description="What cannot serve a chat now: 'index', 'conversations'."
    )
    degraded: dict[str, str] | None = Field(
        default=None,
        description=(
            "Shared stores that cannot be reached while chats still work: 'redis' (rate limits and Slack's "
            "retry de-duplication fall back to each replica's own memory)."
        ),
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
    degraded = {"redis": problem} if (problem := request.app.state.shared.probe()) else None
    if problems:
        content = Readiness(status="unavailable", problems=problems, degraded=degraded)
        return JSONResponse(status_code=503, content=content.model_dump(exclude_none=True))
    return JSONResponse(content=Readiness(status="ready", degraded=degraded).model_dump(exclude_none=True))
