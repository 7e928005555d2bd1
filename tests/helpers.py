"""Helpers shared by tests."""

from __future__ import annotations

import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from jsonschema import Draft202012Validator

from assistant.settings import Settings

REPO = Path(__file__).resolve().parents[1]
KNOWLEDGE = REPO / "knowledge"


def make_settings(data_dir: Path, **overrides: object) -> Settings:
    """Settings that never read a developer's .env."""
    return Settings(_env_file=None, data_dir=data_dir, **overrides)  # type: ignore[call-arg]


def copy_knowledge(target: Path, *, articles: int | None = None) -> Path:
    """A writable copy of the packaged knowledge folder (optionally only the first few articles)."""
    shutil.copytree(KNOWLEDGE / "catalog", target / "catalog")
    for lang in ("en", "zh"):
        (target / "corpus" / lang).mkdir(parents=True)
        files = sorted((KNOWLEDGE / "corpus" / lang).glob("*.md"))
        for path in files[:articles]:
            shutil.copy(path, target / "corpus" / lang / path.name)
    return target


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serve(app: FastAPI) -> Iterator[str]:
    """Run ``app`` with uvicorn on 127.0.0.1 and a free port in a thread; yields ``http://127.0.0.1:PORT``."""
    port = free_port()
    # ws="none": no websocket routes here, and it keeps the websockets library's deprecations away
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws="none"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive(), "uvicorn stopped while starting"
        assert time.monotonic() < deadline, "uvicorn did not start within 60 s"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


class ContractClient(TestClient):
    """A ``TestClient`` that checks every response against the app's own OpenAPI document.

    The status must be declared for the route, and a JSON body must match the declared schema, so
    /docs and client generators never promise a shape the API does not send (errors included).
    Streams and non-JSON bodies (HTML pages, metrics) are checked for their status only.
    """

    def __init__(self, app: FastAPI, **kwargs: Any) -> None:
        # the address `advisor serve` listens on: an API without keys answers only loopback host names
        kwargs.setdefault("base_url", "http://127.0.0.1:8000")
        super().__init__(app, **kwargs)
        self._api = app
        self.event_hooks["response"].append(self._check)

    def _check(self, response: httpx.Response) -> None:
        request = response.request
        operation = self._operation(request.method, request.url.path)
        if operation is None:
            return  # no such route: a 404/405 from the router, whose shape the other tests check
        declared = operation["responses"].get(str(response.status_code))
        assert declared is not None, (
            f"{request.method} {request.url.path} answered {response.status_code}, which its OpenAPI "
            f"operation does not declare (declared: {sorted(operation['responses'])})"
        )
        content_type = response.headers.get("content-type", "")
        if not content_type.startswith("application/json"):
            return
        schema = declared.get("content", {}).get("application/json", {}).get("schema")
        assert schema is not None, (
            f"{request.method} {request.url.path} {response.status_code} sent JSON it does not declare"
        )
        response.read()
        validator = Draft202012Validator({**schema, "components": self._api.openapi().get("components", {})})
        problems = [
            f"{'/'.join(map(str, e.absolute_path)) or '<body>'}: {e.message}"
            for e in validator.iter_errors(response.json())
        ]
        assert not problems, f"{request.method} {request.url.path} {response.status_code}: {problems[:5]}"

    def _operation(self, method: str, path: str) -> dict[str, Any] | None:
        """The OpenAPI operation serving ``method path``, matched on the document's own path templates
        (FastAPI's route objects changed shape across versions; the document is the contract anyway).

        A literal path wins over a template (``/v1/documents/reindex`` over ``/v1/documents/{doc_id}``),
        and a parameter spans one segment unless no template matches that way (``{doc_id:path}``)."""
        paths: dict[str, Any] = self._api.openapi().get("paths", {})
        for segment in (r"[^/]+", r".+"):
            matches = [
                template
                for template in paths
                if re.fullmatch(re.sub(r"\\\{\w+\\\}", segment, re.escape(template)), path)
            ]
            if matches:
                best = max(matches, key=lambda t: len(re.sub(r"\{\w+\}", "", t)))
                operation: dict[str, Any] | None = paths[best].get(method.lower())
                return operation
        return None
