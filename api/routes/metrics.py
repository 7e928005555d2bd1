"""Prometheus scrape endpoint (mounted by ``api.metrics.instrument``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from fastapi.security import HTTPAuthorizationCredentials

from api.deps import SettingsDep, api_key_header, authenticate, bearer_key
from api.metrics import metrics_of
from api.schemas import error_responses
from assistant.errors import NotReady

router = APIRouter(tags=["metrics"])


@router.get("/metrics", response_class=Response, responses=error_responses(401, 503))
def metrics(
    request: Request,
    settings: SettingsDep,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer_key)],
    header_key: Annotated[str | None, Depends(api_key_header)],
) -> Response:
    """Request counts and latency, calculator calls and retrieval time, in Prometheus' text format.

    With API keys configured this needs one of them (any role), unless `server.metrics_open` is set.
    """
    if settings.api_keys and not settings.server.metrics_open:
        authenticate(settings, bearer, header_key, None)
    collected = metrics_of(request)
    if collected is None:
        raise NotReady("metrics are not enabled on this app")
    body, content_type = collected.exposition()
    return Response(content=body, media_type=content_type)
