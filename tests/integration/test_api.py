"""The HTTP service as far as it goes: health and readiness over real HTTP plumbing (ASGI)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from assistant.retriever import HybridRetriever
from assistant.service import Assistant
from assistant.settings import Settings

pytestmark = pytest.mark.integration


def test_health_and_readiness(indexed_settings: Settings, retriever: HybridRetriever) -> None:
    app = create_app(settings=indexed_settings, assistant=Assistant(retriever=retriever))
    with TestClient(app) as client:
        assert client.get("/healthz").json() == {"status": "ok"}
        assert client.get("/readyz").json() == {"status": "ready"}
        assert client.get("/openapi.json").status_code == 200
