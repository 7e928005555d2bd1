"""Helpers shared by tests."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import uvicorn
from fastapi import FastAPI

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


@contextmanager
def serve(app: FastAPI) -> Iterator[str]:
    """Run ``app`` with uvicorn on 127.0.0.1 and a free port in a thread; yields ``http://127.0.0.1:PORT``."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
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
