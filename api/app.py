"""The FastAPI app factory; heavy objects are built once, in the lifespan, unless passed in."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from api.errors import register_error_handlers
from api.routes import health
from assistant.service import Assistant
from assistant.settings import Settings, get_settings


def create_app(settings: Settings | None = None, assistant: Assistant | None = None) -> FastAPI:
    """Build the app; pass a ready ``assistant`` (tests, ``advisor serve``) or let the lifespan build it."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.settings = settings or get_settings()
        if assistant is not None:
            app.state.assistant = assistant
        else:
            from assistant.wiring import build_assistant

            app.state.assistant = build_assistant(app.state.settings)
        yield

    app = FastAPI(
        title="advisor",
        summary="Choose servers for training large language models.",
        version="0.1.0",
        lifespan=lifespan,
    )
    register_error_handlers(app)
    app.include_router(health.router)
    return app
