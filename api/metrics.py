"""Prometheus metrics: one registry per app, an ASGI middleware for requests, ``GET /metrics``.

prometheus-client is imported when an app is instrumented, so this module (and ``record_answer``,
which does nothing for an app without metrics) can be imported where the package is not installed.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import prometheus_client as prom
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from assistant.models import Answer

if TYPE_CHECKING:
    from fastapi import FastAPI
    from starlette.requests import HTTPConnection

UNMATCHED = "<unmatched>"  # one label for every path no route matched, so scanners cannot explode cardinality
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


class Metrics:
    """The app's metrics in their own ``CollectorRegistry``, so several apps in one process never clash."""

    def __init__(self) -> None:
        self._prom = prom
        self.registry = prom.CollectorRegistry(auto_describe=True)
        self.requests = prom.Counter(
            "advisor_http_requests",
            "HTTP requests by method, route template and status code.",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.latency = prom.Histogram(
            "advisor_http_request_duration_seconds",
            "Time from the request to the last byte of the response, by method and route template.",
            ["method", "route"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.calculator_calls = prom.Counter(
            "advisor_calculator_calls",
            "Calculator runs by tool name.",
            ["tool"],
            registry=self.registry,
        )
        self.retrieval = prom.Histogram(
            "advisor_retrieval_duration_seconds",
            "Time spent searching the knowledge base for one message.",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )

    def observe_request(self, *, method: str, route: str, status: int, seconds: float) -> None:
        self.requests.labels(method=method, route=route, status=str(status)).inc()
        self.latency.labels(method=method, route=route).observe(seconds)

    def record_answer(self, answer: Answer) -> None:
        """Count the calculators an answer ran and time its knowledge-base search."""
        for call in answer.tool_calls:
            self.calculator_calls.labels(tool=call.name).inc()
        if "retrieval" in answer.timings:
            self.retrieval.observe(answer.timings["retrieval"])

    def exposition(self) -> tuple[bytes, str]:
        """The registry in Prometheus' text format, and its content type."""
        body: bytes = self._prom.generate_latest(self.registry)
        content_type: str = self._prom.CONTENT_TYPE_LATEST
        return body, content_type


class MetricsMiddleware:
    """Counts each HTTP request by route template and status, and times it to the response's last byte.

    A plain ASGI middleware rather than ``@app.middleware("http")``, so streamed answers (SSE) are
    timed to their end and are not buffered.
    """

    def __init__(self, app: ASGIApp, *, metrics: Metrics) -> None:
        self._app = app
        self._metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500  # what the client gets when the app raises before it starts a response

        async def send_and_record(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self._app(scope, receive, send_and_record)
        finally:
            self._metrics.observe_request(
                method=scope["method"],
                route=route_template(scope),
                status=status,
                seconds=time.perf_counter() - start,
            )


def route_template(scope: Scope) -> str:
    """The matched route's path template (``/v1/conversations/{conversation_id}``), not the raw path."""
    route: Any = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else UNMATCHED


def instrument(app: FastAPI) -> Metrics:
    """Give the app its own metrics, the request middleware and ``GET /metrics``; call before it starts."""
    from api.routes import metrics as metrics_routes

    metrics = Metrics()
    app.state.metrics = metrics
    app.add_middleware(MetricsMiddleware, metrics=metrics)
    app.include_router(metrics_routes.router)
    return metrics


def metrics_of(connection: HTTPConnection) -> Metrics | None:
    """The app's metrics, or None when it was not instrumented."""
    metrics: Metrics | None = getattr(connection.app.state, "metrics", None)
    return metrics


def record_answer(connection: HTTPConnection, answer: Answer) -> None:
    """Count an answer's calculators and time its search (the chat routes call this; nothing happens
    without metrics)."""
    if (metrics := metrics_of(connection)) is not None:
        metrics.record_answer(answer)
