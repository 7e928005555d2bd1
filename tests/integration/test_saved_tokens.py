"""A start reads its sentences' keyword tokens from the file the previous start saved beside the index,
instead of segmenting every sentence again (most of a start's own time)."""

from __future__ import annotations

from pathlib import Path

import chromadb
import pytest
from langchain_core.embeddings import Embeddings

import knowledge.text as text_module
from assistant.retriever import HybridRetriever, cache_sentence_vectors, token_cache

pytestmark = pytest.mark.integration


class _Cheap(Embeddings):
    """A stand-in at the model boundary: the point here is the tokens, not the vectors."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [[1.0, float(len(t) % 7), float(t.count("e"))] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def a_new_process(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Forget every token this process has segmented or read, and list each text segmented from now on."""
    monkeypatch.setattr(text_module, "_saved", {})
    text_module._tokens.cache_clear()
    segmented: list[str] = []
    real = text_module._tokens.__wrapped__

    def counting(text: str) -> tuple[str, ...]:
        segmented.append(text)
        return real(text)

    monkeypatch.setattr(text_module, "_tokens", counting)
    return segmented


def test_the_second_start_segments_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    location = tmp_path / "chroma"
    collection = chromadb.PersistentClient(path=str(location)).get_or_create_collection("passages")
    texts = ["Storage: checkpoints\n\n检查点先写本地 NVMe，再异步同步到 Lustre。Checkpoints go to local NVMe first.",
             "Networking: RoCE\n\nRoCE 要开 PFC 和 ECN。Tune DCQCN before training."]  # fmt: skip
    collection.add(
        ids=["storage#checkpoints", "networking#roce"],
        documents=texts,
        metadatas=[
            {"doc_id": d, "section": d, "position": 0, "content_hash": d, "root": "r", "path": f"{d}.md"}
            for d in ("storage", "networking")
        ],
        embeddings=[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
    )
    first = HybridRetriever(collection=collection, embeddings=_Cheap(), location=location)
    saved = token_cache(collection, location)
    assert saved is not None
    assert saved.is_file()
    expected = [p.section for p in first.search("RoCE 要调啥参数", k=2)]

    # a new process: nothing remembered, and segmenting is not allowed
    segmented = a_new_process(monkeypatch)
    second = HybridRetriever(collection=collection, embeddings=_Cheap(), location=location)
    assert segmented == []  # every sentence and heading came from the file
    assert [p.section for p in second.search("RoCE 要调啥参数", k=2)] == expected
    assert segmented == ["RoCE 要调啥参数"]  # only the question


def test_an_ingest_saves_the_tokens_for_the_first_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    location = tmp_path / "chroma"
    collection = chromadb.PersistentClient(path=str(location)).get_or_create_collection("passages")
    collection.add(
        ids=["storage#checkpoints"],
        documents=["Storage: checkpoints\n\n检查点先写本地 NVMe。Checkpoints go to local NVMe first."],
        metadatas=[
            {
                "doc_id": "storage",
                "section": "s",
                "position": 0,
                "content_hash": "h",
                "root": "r",
                "path": "s.md",
            }
        ],
        embeddings=[[1.0, 0.0, 0.0]],
    )
    cache_sentence_vectors(collection, _Cheap(), location)  # what an ingest does last
    segmented = a_new_process(monkeypatch)
    HybridRetriever(collection=collection, embeddings=_Cheap(), location=location)
    assert segmented == []
