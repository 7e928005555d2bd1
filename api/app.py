"""The FastAPI app factory; heavy objects are built once, in the lifespan, unless passed in."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import Depends, FastAPI

from api.coordination import Shared
from api.cors import add_cors
from api.deps import authenticate
from api.errors import register_error_handlers
from api.guard import LoopbackGuardMiddleware
from api.limits import BodyLimitMiddleware, RateLimitMiddleware
from api.metrics import instrument
from api.routes import chat, conversations, documents, health, openai, slack, sources, tools, widget
from api.schemas import ERROR_RESPONSES, error_responses
from api.slack.bot import ListenerPool, build_slack_app
from assistant.service import Assistant
from assistant.settings import Settings, get_settings
from assistant.version import VERSION

logger = logging.getLogger(__name__)
# how long a stopping service waits for Slack answers it has begun
SHUTDOWN_GRACE_S = 30.0


def create_app(settings: Settings | None = None, assistant: Assistant | None = None) -> FastAPI:
    """Build the app; pass a ready ``assistant`` (tests, ``advisor serve``) or let the lifespan build it."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        from assistant.wiring import (
            build_assistant,
            build_library,
            catalog_for,
            limit_blas_threads,
            watch_index,
        )

        app.state.settings = settings
        shared.check()  # a configured Redis that cannot be reached fails the start, naming it
        app.state.catalog = catalog_for(settings)
        if assistant is None:  # a process of its own (a worker of `advisor serve --workers N`)
            limit_blas_threads(settings)
        ready = assistant if assistant is not None else build_assistant(settings)
        # with a shared Chroma server: another replica's upload or an ingest job reaches this one's keywords
        watcher = watch_index(settings, ready.retriever)
        app.state.library = build_library(
            settings, ready.retriever, refresh=watcher.check if watcher else None, memory=ready.memory
        )
        app.state.assistant = ready
        # None unless Slack is configured; its answers run on ``slack_listeners`` after Slack is acknowledged
        app.state.slack_listeners = ListenerPool()
        app.state.slack = build_slack_app(settings, ready, listeners=app.state.slack_listeners, shared=shared)
        if not settings.api_keys:
            logger.warning(
                "no API keys configured (ADVISOR_API_KEYS): the API is open, serve it on localhost only"
            )
        yield
        # answers already begun still reach Slack before the process goes
        if not app.state.slack_listeners.wait_idle(timeout=SHUTDOWN_GRACE_S):
            logger.warning("stopping with Slack answers still in flight after %s s", SHUTDOWN_GRACE_S)
        app.state.slack_listeners.shutdown(wait=False)
        ready.memory.close()
        shared.close()
        if watcher is not None:
            watcher.stop()

    app = FastAPI(
        title="advisor",
        summary="Choose servers for training large language models.",
        version=VERSION,
        description=f"Version {VERSION}; embedding model `{settings.embedding.model}`.",
        lifespan=lifespan,
        # without API keys, requests not addressed to localhost (or cross-site changes) are refused
        responses=error_responses(403),
    )
    app.state.settings = settings
    # rate-limit counts and Slack's events received: Redis when replicas share them, else this process
    app.state.shared = shared = Shared(settings.redis)
    register_error_handlers(app)
    instrument(app)  # request counts and latency, calculator calls; GET /metrics (Prometheus text format)
    # added last = outermost: the rate limit answers before the body is read
    app.add_middleware(
        BodyLimitMiddleware,
        max_bytes=settings.server.max_body_bytes,
        # multipart framing adds a little to the file itself
        # Slack's button clicks carry the whole message they were under (up to ~12k characters of blocks,
        # 9 bytes per Chinese character once form-encoded)
        larger={
            "/v1/documents": (settings.server.max_upload_bytes + 64 * 1024, "server.max_upload_bytes"),
            "/slack/events": (512 * 1024, "Slack request"),
        },
    )
    if not settings.api_keys:  # open on localhost: refuse what another site's page could send here
        app.add_middleware(LoopbackGuardMiddleware, allowed_origins=settings.server.cors_origins)
    app.add_middleware(
        RateLimitMiddleware,
        per_minute=settings.server.rate_limit_per_minute,
        per_origin_minute=settings.server.rate_limit_per_origin_minute,
        window=shared.window,
    )
    app.include_router(health.router)
    app.include_router(sources.router)  # open: browsers follow citation links without keys
    app.include_router(widget.router)  # open: GET / (demo page) and GET /widget.js load before any key
    app.include_router(slack.router)  # open: Slack signs its requests, the Bolt app verifies them
    protected = [Depends(authenticate)]
    for module in (chat, openai, tools, conversations, documents):
        app.include_router(module.router, dependencies=protected, responses=ERROR_RESPONSES)
    add_cors(app, settings)  # last, so it is the outermost middleware and errors carry CORS headers too
    return app
