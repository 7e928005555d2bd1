"""Shared fixtures: the real embedding model and a real on-disk index, built once per session."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

os.environ["ANONYMIZED_TELEMETRY"] = "False"
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["LANGSMITH_TRACING"] = "false"
os.environ["TOKENIZERS_PARALLELISM"] = "false"

from langchain_core.embeddings import Embeddings

from assistant.retriever import HybridRetriever
from assistant.settings import Settings
from tests.helpers import make_settings


@pytest.fixture(scope="session")
def use_embeddings() -> Embeddings:
    from assistant.providers import load_embeddings

    return load_embeddings("use/multilingual-v3")


@pytest.fixture(scope="session")
def indexed_settings(
    tmp_path_factory: pytest.TempPathFactory, use_embeddings: Embeddings
) -> Iterator[Settings]:
    """The packaged knowledge base indexed with the default model into a temporary Chroma store."""
    from assistant.wiring import ingest

    settings = make_settings(tmp_path_factory.mktemp("index"))
    stats = ingest(settings, embeddings=use_embeddings)
    assert not stats.errors, stats.errors
    return settings


@pytest.fixture(scope="session")
def retriever(indexed_settings: Settings, use_embeddings: Embeddings) -> HybridRetriever:
    from assistant.wiring import build_retriever

    return build_retriever(indexed_settings, use_embeddings)
