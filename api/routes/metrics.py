"""Prometheus scrape endpoint (mounted by ``api.metrics.instrument``)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from api.metrics import metrics_of
from assistant.errors import NotReady

router = APIRouter(tags=["metrics"])


@router.get("/metrics", response_class=Response)
def metrics(request: Request) -> Response:
    """Request counts and latency, calculator calls and retrieval time, in Prometheus' text format."""
    collected = metrics_of(request)
    if collected is None:
        raise NotReady("metrics are not enabled on this app")
    body, content_type = collected.exposition()
    return Response(content=body, media_type=content_type)
