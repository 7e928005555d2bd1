"""A scripted OpenAI-compatible chat server on a loopback port: it stands in for the hosted model only.

A test enqueues what the model says next (text, tool calls, an HTTP error, a delay or bytes that are not
JSON) and reads the requests the server received. The client (langchain-openai), the prompts, the tools,
the checks and the fallbacks under test are the real code. Replies are served as plain JSON or, when the
request asks to stream, as SSE chunks the way OpenAI's API sends them (text in pieces; each tool call's
name first, then its arguments in pieces).
"""

from __future__ import annotations

import json
import queue
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    text: str = ""
    status: int = 200
    delay_s: float = 0.0
    # (name, arguments): a dict is sent as JSON, a string as it is (to send arguments that are not JSON)
    tool_calls: list[tuple[str, dict[str, Any] | str]] = field(default_factory=list)
    garbage: bool = False  # a 200 whose body is not an OpenAI response at all
    refusal: str | None = None  # OpenAI's structured refusal instead of content
    pace_s: float = 0.0  # a pause before each streamed piece: a model writing at its own speed


@dataclass
class ScriptedLLM:
    """What the stand-in serves and what it was sent."""

    base_url: str = ""
    replies: queue.Queue[Reply] = field(default_factory=queue.Queue)
    requests: list[dict[str, Any]] = field(default_factory=list)
    released: threading.Event = field(default_factory=threading.Event)

    def enqueue(
        self, text: str = "", *, status: int = 200, delay_s: float = 0.0, pace_s: float = 0.0
    ) -> None:
        self.replies.put(Reply(text, status, delay_s, pace_s=pace_s))

    def enqueue_tools(self, *calls: tuple[str, dict[str, Any] | str], text: str = "") -> None:
        """The model calls these tools (in one message, after ``text`` if any)."""
        self.replies.put(Reply(text, tool_calls=list(calls)))

    def enqueue_garbage(self) -> None:
        self.replies.put(Reply(garbage=True))

    def enqueue_refusal(self, refusal: str) -> None:
        self.replies.put(Reply(refusal=refusal))

    def pending(self) -> int:
        return self.replies.qsize()

    def tool_results(self, request: int = -1) -> list[dict[str, Any]]:
        """The tool messages the client sent in one request (the last by default)."""
        return [m for m in self.requests[request]["messages"] if m.get("role") == "tool"]


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    llm: ScriptedLLM


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # keep the test output quiet
        pass

    def do_POST(self) -> None:
        llm = self.server.llm
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        llm.requests.append(body)
        if self.path != "/v1/chat/completions":
            self._json(404, {"error": {"message": f"no route {self.path}", "type": "invalid_request_error"}})
            return
        try:
            reply = llm.replies.get_nowait()
        except queue.Empty:
            reply = Reply(status=500, text="no scripted reply")
        if reply.delay_s:
            llm.released.wait(reply.delay_s)  # released early when the test ends
        try:
            if reply.garbage:
                self._raw(200, b"<html>502 upstream gone</html>", "application/json")
            elif reply.status != 200:
                self._json(reply.status, {"error": {"message": reply.text, "type": "server_error"}})
            elif body.get("stream"):
                self._sse(reply)
            else:
                self._json(200, _completion(reply))
        except OSError:  # the client gave up (timeout): nobody is listening any more
            pass

    def _json(self, status: int, payload: dict[str, Any]) -> None:
        self._raw(status, json.dumps(payload).encode(), "application/json")

    def _raw(self, status: int, data: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _sse(self, reply: Reply) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self._event(_chunk({"role": "assistant", "content": ""}, None))
        if reply.refusal is not None:
            self._event(_chunk({"refusal": reply.refusal}, None))
        for piece in re.findall(r".{1,12}", reply.text, re.S):
            if reply.pace_s:
                self.server.llm.released.wait(reply.pace_s)
            self._event(_chunk({"content": piece}, None))
        for index, (name, arguments) in enumerate(reply.tool_calls):
            start = {"index": index, "id": f"call_{index}", "type": "function", "function": {"name": name}}
            self._event(
                _chunk({"tool_calls": [{**start, "function": {"name": name, "arguments": ""}}]}, None)
            )
            for piece in re.findall(r".{1,16}", _arguments(arguments), re.S):
                self._event(
                    _chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}, None)
                )
        self._event(_chunk({}, "tool_calls" if reply.tool_calls else "stop"))
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()

    def _event(self, payload: dict[str, Any]) -> None:
        self.wfile.write(f"data: {json.dumps(payload, ensure_ascii=False)}\n\n".encode())
        self.wfile.flush()


def _arguments(arguments: dict[str, Any] | str) -> str:
    return arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)


def _completion(reply: Reply) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
    if reply.refusal is not None:
        message["refusal"] = reply.refusal
    if reply.tool_calls:
        message["tool_calls"] = [
            {"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": _arguments(args)}}
            for i, (name, args) in enumerate(reply.tool_calls)
        ]
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": "scripted",
        "choices": [
            {"index": 0, "message": message, "finish_reason": "tool_calls" if reply.tool_calls else "stop"}
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
    }


def _chunk(delta: dict[str, Any], finish_reason: str | None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion.chunk",
        "created": 1_700_000_000,
        "model": "scripted",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
    }


@contextmanager
def scripted_llm() -> Iterator[ScriptedLLM]:
    """The stand-in on a free loopback port; ``base_url`` is its ``/v1``."""
    server = _Server(("127.0.0.1", 0), _Handler)
    server.llm = ScriptedLLM(base_url=f"http://127.0.0.1:{server.server_address[1]}/v1")
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server.llm
    finally:
        server.llm.released.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
