"""The open API's guard: without API keys the service serves localhost only, so it also refuses what a
web page could make a browser send to localhost on its behalf.

- DNS rebinding: a page on ``evil.example`` whose name later resolves to 127.0.0.1 reaches the service
  with ``Host: evil.example``. Only loopback host names are answered.
- Cross-site requests: a page on any origin can POST a form or a multipart upload to 127.0.0.1 without
  a CORS preflight. A state-changing request that a browser marks as coming from another origin
  (``Origin`` not among ``server.cors_origins``, or ``Sec-Fetch-Site: cross-site``) is refused.

With keys configured neither applies: keys travel in headers, which another site's page cannot set.
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from api.errors import error_response

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def host_name(host_header: str) -> str:
    """``"127.0.0.1:8000"`` -> ``"127.0.0.1"``, ``"[::1]:8000"`` -> ``"::1"``, lower case."""
    host = host_header.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class LoopbackGuardMiddleware:
    """Refuse non-loopback ``Host`` headers, and cross-origin state changes, with 403."""

    def __init__(self, app: ASGIApp, *, allowed_origins: list[str]) -> None:
        self.app = app
        self.allowed_origins = {origin.rstrip("/").lower() for origin in allowed_origins}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        problem = self._problem(scope["method"], headers)
        if problem is None:
            await self.app(scope, receive, send)
            return
        await error_response(403, "forbidden", problem)(scope, receive, send)

    def _problem(self, method: str, headers: Headers) -> str | None:
        host = host_name(headers.get("host", ""))
        if host not in LOOPBACK_HOSTS:
            return (
                f"this service has no API keys, so it answers only requests addressed to localhost, "
                f"not to {host or 'an empty Host header'!r} (set ADVISOR_API_KEYS to serve other names)"
            )
        if method in _SAFE_METHODS:
            return None
        origin = headers.get("origin")
        if origin is not None and not self._allowed(origin, headers.get("host", "")):
            return (
                f"a page on {origin} may not change anything here: add it to ADVISOR_SERVER__CORS_ORIGINS "
                "or configure API keys"
            )
        if origin is None and headers.get("sec-fetch-site") == "cross-site":
            return "a page on another site may not change anything here"
        return None

    def _allowed(self, origin: str, host: str) -> bool:
        """A listed origin, or this service's own pages (the demo page, on whatever port it serves)."""
        origin = origin.rstrip("/").lower()
        return origin in self.allowed_origins or origin in {
            f"http://{host.lower()}",
            f"https://{host.lower()}",
        }
