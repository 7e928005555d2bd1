"""Request limits as ASGI middleware: body size (413) and a per-client-IP rate limit (429)."""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.coordination import LocalWindow, Window
from api.errors import error_response


class BodyLimitMiddleware:
    """Refuse bodies over ``max_bytes`` with 413, whether or not the client sent Content-Length.

    Paths in ``larger`` (document uploads) have their own, larger limit.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_bytes: int,
        setting: str = "server.max_body_bytes",
        larger: dict[str, tuple[int, str]] | None = None,
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.setting = setting
        self.larger = larger or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit, setting = self.larger.get(scope["path"].rstrip("/"), (self.max_bytes, self.setting))
        length = Headers(scope=scope).get("content-length", "")
        if length.isdigit() and int(length) > limit:
            await _too_large(limit, setting, scope, receive, send)
            return
        # read the (small, bounded) body here so a chunked upload cannot slip past the limit
        chunks: list[bytes] = []
        total, more = 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body = message.get("body", b"")
            total += len(body)
            if total > limit:
                await _too_large(limit, setting, scope, receive, send)
                return
            chunks.append(body)
            more = message.get("more_body", False)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()  # later calls wait for the disconnect, as streaming responses expect

        await self.app(scope, replay, send)


async def _too_large(limit: int, setting: str, scope: Scope, receive: Receive, send: Send) -> None:
    """413 naming the limit that applies to this path and the setting that raises it."""
    response = error_response(
        413, "payload_too_large", f"request body is larger than {limit} bytes (the {setting} limit)"
    )
    await response(scope, receive, send)


class RateLimitMiddleware:
    """At most ``per_minute`` requests per client IP in any 60 s window on paths under ``prefix``, and for
    browser traffic (requests with an ``Origin``, e.g. the widget) at most ``per_origin_minute`` per origin.

    The counts live in ``window``: this process's memory by default, Redis when several replicas share
    the limits (``api.coordination``). Behind a proxy, run uvicorn with ``--proxy-headers`` so the client
    IP is the caller's and not the proxy's.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        per_minute: int,
        per_origin_minute: int = 0,
        prefix: str = "/v1/",
        window: Window | None = None,
    ) -> None:
        self.app = app
        self.per_minute = per_minute
        self.per_origin_minute = per_origin_minute
        self.prefix = prefix
        self.window = window or LocalWindow()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.per_minute <= 0 or not scope["path"].startswith(self.prefix):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        ip = client[0] if client else "unknown"
        who, limit = "this client", self.per_minute
        retry_after = await self.window.hit(f"ip:{ip}", self.per_minute)
        origin = Headers(scope=scope).get("origin")
        if retry_after is None and origin and self.per_origin_minute > 0:
            who, limit = "this origin", self.per_origin_minute
            retry_after = await self.window.hit(f"origin:{origin}", self.per_origin_minute)
        if retry_after is None:
            await self.app(scope, receive, send)
            return
        response = error_response(
            429,
            "rate_limited",
            f"more than {limit} requests per minute from {who}; retry in {retry_after} s",
            headers={"Retry-After": str(retry_after)},
        )
        await response(scope, receive, send)
