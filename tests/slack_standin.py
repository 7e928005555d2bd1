"""A stand-in for Slack's Web API on 127.0.0.1: records every call and answers the way Slack does."""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl

AUTH_TEST = {"ok": True, "url": "https://t1.slack.com/", "team": "Team", "user": "advisor",
             "team_id": "T1", "user_id": "UBOT", "bot_id": "B1"}  # fmt: skip


@dataclass(frozen=True)
class Call:
    """One request the bot made: the Web API method, its headers, its parsed body and what we answered."""

    method: str
    headers: dict[str, str]
    body: dict[str, Any]
    raw: bytes
    status: int
    reply: dict[str, Any]

    def blocks(self) -> list[dict[str, Any]]:
        blocks = self.body.get("blocks") or []
        return json.loads(blocks) if isinstance(blocks, str) else list(blocks)


@dataclass
class _Canned:
    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)


class SlackStandIn:
    """``with SlackStandIn() as slack:`` serves ``slack.base_url`` (give it to ``WebClient(base_url=...)``)."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self._lock = threading.Lock()
        self._canned: dict[str, deque[_Canned]] = defaultdict(deque)
        self._ts = itertools.count(1)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/api/"

    def __enter__(self) -> SlackStandIn:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def answer_next(
        self, method: str, body: dict[str, Any], *, status: int = 200, headers: dict[str, str] | None = None
    ) -> None:
        """Answer the next call of ``method`` with this instead of the usual reply (e.g. a 429)."""
        with self._lock:
            self._canned[method].append(_Canned(status, body, headers or {}))

    def calls_to(self, method: str, where: Callable[[Call], bool] = lambda c: True) -> list[Call]:
        with self._lock:
            return [c for c in self.calls if c.method == method and where(c)]

    def wait_for(
        self, method: str, count: int = 1, where: Callable[[Call], bool] = lambda c: True, timeout: float = 10
    ) -> list[Call]:
        """The calls of ``method`` matching ``where``, once there are ``count`` of them (AssertionError after
        ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        while True:
            calls = self.calls_to(method, where)
            if len(calls) >= count:
                return calls
            if time.monotonic() > deadline:
                made = [c.method for c in self.calls]
                raise AssertionError(
                    f"{count} call(s) to {method} expected within {timeout} s; calls: {made}"
                )
            time.sleep(0.02)

    def _reply(self, method: str, body: dict[str, Any]) -> _Canned:
        with self._lock:
            if self._canned[method]:
                return self._canned[method].popleft()
        if method == "auth.test":
            return _Canned(200, AUTH_TEST)
        if method in {"chat.postMessage", "chat.update"}:
            ts = body.get("ts") or f"{2_000_000_000 + next(self._ts)}.000100"
            channel = str(body.get("channel", ""))
            return _Canned(
                200, {"ok": True, "channel": channel, "ts": ts, "message": {"text": body.get("text")}}
            )
        if method == "chat.postEphemeral":
            return _Canned(200, {"ok": True, "message_ts": f"{2_000_000_000 + next(self._ts)}.000200"})
        if method == "views.open":
            return _Canned(200, {"ok": True, "view": {"id": "V1"}})
        return _Canned(200, {"ok": True})

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                method = self.path.split("?")[0].removeprefix("/api/")
                body = _parse(raw, self.headers.get("Content-Type") or "")
                canned = standin._reply(method, body)
                with standin._lock:  # recorded before answering, so the order of calls is the order made
                    standin.calls.append(
                        Call(method, dict(self.headers.items()), body, raw, canned.status, canned.body)
                    )
                payload = json.dumps(canned.body).encode()
                self.send_response(canned.status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(payload)))
                for name, value in canned.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
                pass

        return Handler


def _parse(raw: bytes, content_type: str) -> dict[str, Any]:
    if not raw:
        return {}
    if content_type.startswith("application/json"):
        parsed = json.loads(raw.decode("utf-8"))
        return parsed if isinstance(parsed, dict) else {"_": parsed}
    return dict(parse_qsl(raw.decode("utf-8"), keep_blank_values=True))
