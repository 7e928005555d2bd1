"""The HTTP service as far as it goes: health and readiness over real HTTP plumbing (ASGI)."""

from __future__ import annotations

import pytest
from langchain_core.embeddings import Embeddings

from api.app import create_app
from assistant.settings import Settings
from assistant.wiring import build_assistant
from tests.helpers import ContractClient

pytestmark = pytest.mark.integration


def test_health_and_readiness(indexed_settings: Settings, use_embeddings: Embeddings) -> None:
    app = create_app(settings=indexed_settings, assistant=build_assistant(indexed_settings, use_embeddings))
    with ContractClient(app) as client:
        assert client.get("/healthz").json() == {"status": "ok"}
        assert client.get("/readyz").json() == {"status": "ready"}
        assert client.get("/openapi.json").status_code == 200
