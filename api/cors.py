"""CORS: which browser origins may call the API from their own pages (``server.cors_origins``)."""

from __future__ import annotations

from fastapi import FastAPI
from starlette.middleware.cors import CORSMiddleware

from api import user_tokens
from assistant.settings import Settings


def add_cors(app: FastAPI, settings: Settings) -> None:
    """Answer preflights and add ``Access-Control-Allow-Origin`` for the configured origins only.

    Add it last, so it is the outermost middleware: preflights are answered before the rate limit
    and the API key check, and error responses (401, 413, 429) still carry the CORS headers.
    Keys travel in headers, never cookies, so credentials stay off.
    """
    app.add_middleware(
        CORSMiddleware,
        allow_origins=settings.server.cors_origins,
        allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
        allow_headers=["Content-Type", "Authorization", "X-API-Key", user_tokens.HEADER],
        allow_credentials=False,
    )
