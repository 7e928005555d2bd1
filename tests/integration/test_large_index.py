"""An index past SQLite's variable limit still loads: every read of the whole collection is paged.

Chroma's local store reads rows with one SQL statement holding a variable per row, and SQLite refuses more
than 32,766 variables: at about 39,000 passages (the knowledge base grown x100 in benchmarks/over_http.py)
an unpaged ``collection.get()`` failed with "too many SQL variables", and the service could not start.
"""

from __future__ import annotations

from pathlib import Path

import chromadb
import pytest
from langchain_core.embeddings import Embeddings

from assistant.retriever import HybridRetriever, cache_sentence_vectors
from knowledge.indexing import _existing
from knowledge.store import READ_PAGE, read_all

pytestmark = pytest.mark.integration

PASSAGES = 40_000


class _Cheap(Embeddings):
    """A stand-in at the model boundary: the point here is the store, not the vectors."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [[1.0, float(len(t) % 7), float(t.count("e"))] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> tuple[chromadb.Collection, Path]:
    location = tmp_path_factory.mktemp("large") / "chroma"
    collection = chromadb.PersistentClient(path=str(location)).get_or_create_collection("passages")
    for start in range(0, PASSAGES, 5000):
        rows = range(start, start + 5000)
        collection.add(
            ids=[f"doc{i // 10}#s{i % 10}" for i in rows],
            documents=[f"Document {i // 10}: section {i % 10}\n\nPassage {i} says one thing. Then another." for i in rows],
            metadatas=[{"doc_id": f"doc{i // 10}", "section": f"section {i % 10}", "position": i % 10,
                        "content_hash": str(i), "root": "r", "path": f"doc{i // 10}.md"} for i in rows],
            embeddings=[[1.0, float(i % 5), 0.0] for i in rows],
        )  # fmt: skip
    return collection, location


def test_the_whole_collection_is_read_in_pages(large: tuple[chromadb.Collection, Path]) -> None:
    collection, _ = large
    assert PASSAGES > 32_766 > READ_PAGE
    with pytest.raises(Exception, match="too many SQL variables"):
        collection.get(
            include=["documents", "metadatas"]
        )  # why paging exists; if Chroma lifts it, fine to drop
    stored = read_all(collection)
    assert (
        len(stored.ids) == len(set(stored.ids)) == len(stored.documents) == len(stored.metadatas) == PASSAGES
    )
    assert stored.documents[stored.ids.index("doc3999#s9")].startswith("Document 3999: section 9")
    assert len(_existing(collection)) == PASSAGES  # what a re-index compares with


def test_a_retriever_starts_on_it_and_answers(large: tuple[chromadb.Collection, Path]) -> None:
    collection, location = large
    cache_sentence_vectors(collection, _Cheap(), location)
    retriever = HybridRetriever(collection=collection, embeddings=_Cheap(), location=location)
    assert retriever.search("Passage 12345 says", k=3)
