"""The HTTP service as far as it goes: health and readiness over real HTTP plumbing (ASGI)."""

from __future__ import annotations

from importlib.metadata import version

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
        installed = version("advisor")
        assert client.get("/healthz").json() == {
            "status": "ok",
            "version": installed,
            "embedding_model": indexed_settings.embedding.model,
        }
        assert client.get("/readyz").json() == {"status": "ready"}
        info = client.get("/openapi.json").json()["info"]
        assert info["version"] == installed
        assert indexed_settings.embedding.model in info["description"]
