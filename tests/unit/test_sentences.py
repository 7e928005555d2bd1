"""Sentence vectors: embedded once per distinct sentence, cached beside the index, never stale."""

from __future__ import annotations

from pathlib import Path

import chromadb
import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.embeddings import Embeddings

from assistant.retriever import HybridRetriever, _top, pick, split_sentences
from assistant.sentences import QueryVectors, SentenceVectors, unit
from knowledge.text import tokenize


class CountingEmbed:
    """A stand-in embedding at the model boundary that counts what it was asked to embed."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def __call__(self, texts: list[str]) -> list[list[float]]:
        self.seen += texts
        return [[float(len(t)), 1.0, float(t.count("a"))] for t in texts]


def test_each_sentence_is_embedded_once_across_restarts(tmp_path: Path) -> None:
    path = tmp_path / "v.npz"
    embed = CountingEmbed()
    first = SentenceVectors(embed, path).of([["a b.", "c d."], ["a b."]])
    assert embed.seen == ["a b.", "c d."]  # the repeated sentence is embedded once
    assert [m.shape[0] for m in first] == [2, 1]
    assert np.allclose(np.linalg.norm(first[0], axis=1), 1.0)
    again = CountingEmbed()
    second = SentenceVectors(again, path).of([["a b.", "c d."], ["a b."]])
    assert again.seen == []  # read from the file
    assert np.allclose(second[0], first[0])


def test_vectors_another_instance_wrote_are_read_not_embedded_again(tmp_path: Path) -> None:
    # a running service's cache and an ingest's (an uploaded document): the service embeds nothing twice
    path = tmp_path / "v.npz"
    service = CountingEmbed()
    running = SentenceVectors(service, path)
    running.of([["a b."]])
    SentenceVectors(CountingEmbed(), path).of([["a b.", "new one."]])  # the ingest
    running.of([["a b.", "new one."]])
    assert service.seen == ["a b."]


def test_sentences_gone_from_the_index_leave_the_file(tmp_path: Path) -> None:
    path = tmp_path / "v.npz"
    SentenceVectors(CountingEmbed(), path).of([["old one.", "kept."]])
    SentenceVectors(CountingEmbed(), path).of([["kept."]])
    with np.load(path) as data:
        assert len(data["keys"]) == 1


def test_a_torn_file_is_recomputed_not_fatal(tmp_path: Path) -> None:
    path = tmp_path / "v.npz"
    path.write_bytes(b"PK\x03\x04 torn")
    embed = CountingEmbed()
    SentenceVectors(embed, path).of([["x."]])
    assert embed.seen == ["x."]


def test_the_closest_sentence_leads_and_a_sentence_about_the_text_does_not() -> None:
    sentences = [split_sentences(t)[0] for t in (
        "This article answers three questions about storage.",
        "Checkpoints of a 70B model take about 1 TB.",
        "A NAS is enough for one node; many nodes need a parallel file system.",
    )]  # fmt: skip
    # the question is closest in meaning to the first (it names the topic) and the third (it answers)
    similarity = np.array([0.7, 0.2, 0.6])
    picked = pick(sentences, tokenize("is a NAS enough for training storage?"), similarity=similarity)
    assert picked.text.startswith("A NAS is enough")
    assert picked.score > 0.6


def test_unit_scales_to_length_one() -> None:
    assert np.isclose(np.linalg.norm(unit([3.0, 4.0])), 1.0)


class CountingEmbeddings(Embeddings):
    """A stand-in LangChain embedding model that counts the texts it embeds."""

    def __init__(self) -> None:
        self.documents: list[str] = []
        self.queries: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.documents += texts
        return [[float(len(t)), 1.0, float(t.count("a"))] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        self.queries.append(text)
        return [float(len(text)), 1.0, float(text.count("a"))]


def test_a_restart_embeds_no_sentence_again(tmp_path: Path) -> None:
    # the retriever asks for its sentences' and its headings' vectors together: asked for apart, the file
    # kept only the headings, and every start re-embedded every sentence of the index
    client = chromadb.PersistentClient(path=str(tmp_path / "chroma"))
    collection = client.get_or_create_collection("passages")
    texts = [
        "Storage: checkpoints\n\nCheckpoints of a 70B model take about 1 TB. Write them to fast storage.",
        "Networking: fabrics\n\nInfiniBand has lower latency. RoCE runs on Ethernet switches.",
    ]
    collection.add(
        ids=["storage#checkpoints", "networking#fabrics"],
        documents=texts,
        metadatas=[
            {"doc_id": "storage", "section": "Checkpoints"},
            {"doc_id": "networking", "section": "Fabrics"},
        ],
        embeddings=[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
    )
    first = CountingEmbeddings()
    HybridRetriever(collection=collection, embeddings=first, location=tmp_path / "chroma")
    assert "Write them to fast storage." in first.documents
    assert "Checkpoints" in first.documents  # a heading
    again = CountingEmbeddings()
    HybridRetriever(collection=collection, embeddings=again, location=tmp_path / "chroma")
    assert again.documents == []


def test_a_query_asked_again_is_not_embedded_again() -> None:
    embed = CountingEmbed()
    queries = QueryVectors(embed, size=2)
    first = queries(["how much RAM?", "how much RAM?", "what is NVLink?"])
    assert embed.seen == ["how much RAM?", "what is NVLink?"]  # one call, each distinct text once
    again = queries(["what is NVLink?", "how much RAM?"])
    assert embed.seen == ["how much RAM?", "what is NVLink?"]
    assert np.array_equal(again[1], first[0])
    assert np.array_equal(again[0], first[2])
    assert (queries.hits, queries.misses) == (2, 2)  # a text twice in one call is embedded once, a miss
    queries(["which GPU?"])  # the least recently asked goes ("what is NVLink?", asked before "how much RAM?")
    queries(["how much RAM?", "what is NVLink?"])
    assert embed.seen[2:] == ["which GPU?", "what is NVLink?"]


def test_the_retriever_embeds_a_question_asked_twice_once(tmp_path: Path) -> None:
    client = chromadb.PersistentClient(path=str(tmp_path / "chroma"))
    collection = client.get_or_create_collection("passages")
    collection.add(
        ids=["storage#checkpoints"],
        documents=["Storage: checkpoints\n\nCheckpoints of a 70B model take about 1 TB."],
        metadatas=[{"doc_id": "storage", "section": "Checkpoints"}],
        embeddings=[[1.0, 0.0, 0.0]],
    )
    model = CountingEmbeddings()
    retriever = HybridRetriever(collection=collection, embeddings=model, location=tmp_path / "chroma")
    for _ in range(3):
        assert retriever.search("how big is a 70B checkpoint", k=1)
        retriever.closeness("how big is a 70B checkpoint")
    assert model.queries == ["how big is a 70B checkpoint"]


@given(st.lists(st.integers(min_value=-3, max_value=3), min_size=0, max_size=60), st.integers(1, 70))
def test_the_top_rows_are_what_a_stable_sort_puts_first(scores: list[int], n: int) -> None:
    # the keyword and heading rankers read only the best rows; many rows tie (a long section's pieces share a
    # heading), and a tie must fall in row order, as the stable sort of every row did
    array = np.array(scores, dtype=float)
    assert _top(array, n) == [int(r) for r in np.argsort(-array, kind="stable")[:n]]
