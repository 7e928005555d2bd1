"""Fixtures the integration modules share; a module that needs its own settings defines its own fixture."""

from __future__ import annotations

import pytest
from langchain_core.embeddings import Embeddings

from assistant.service import Assistant
from assistant.settings import ConversationSettings, Settings
from assistant.wiring import build_assistant


@pytest.fixture(scope="module")
def assistant(
    indexed_settings: Settings, use_embeddings: Embeddings, tmp_path_factory: pytest.TempPathFactory
) -> Assistant:
    """The packaged knowledge base's assistant with a conversation store of the module's own."""
    settings = indexed_settings.model_copy(
        update={
            "conversations": ConversationSettings(path=tmp_path_factory.mktemp("conversations") / "c.sqlite3")
        }
    )
    return build_assistant(settings, use_embeddings)
