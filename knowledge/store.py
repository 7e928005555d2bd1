"""Open the Chroma vector store: a local persistent folder by default, a Chroma server when a URL is set."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlparse

import chromadb
from chromadb.api import ClientAPI
from chromadb.api.models.Collection import Collection
from chromadb.config import Settings as ChromaSettings


def open_client(*, path: Path | None = None, url: str | None = None) -> ClientAPI:
    """A Chroma client: ``chroma run`` server at ``url`` if given, else a persistent store at ``path``."""
    settings = ChromaSettings(anonymized_telemetry=False)
    if url:
        parsed = urlparse(url)
        return chromadb.HttpClient(
            host=parsed.hostname or "localhost",
            port=parsed.port or (443 if parsed.scheme == "https" else 8000),
            ssl=parsed.scheme == "https",
            settings=settings,
        )
    if path is None:
        raise ValueError("a local Chroma store needs a path")
    path.mkdir(parents=True, exist_ok=True)
    return chromadb.PersistentClient(path=str(path), settings=settings)


def collection_name(prefix: str, embedding_model: str) -> str:
    """One collection per embedding model, so vectors of different models never mix."""
    slug = re.sub(r"[^a-zA-Z0-9._-]+", "-", f"{prefix}-{embedding_model}").strip("-._")
    return slug[:500] if len(slug) >= 3 else f"{slug}-kb"


def open_collection(client: ClientAPI, name: str, *, create: bool = True) -> Collection:
    """The passages collection. ``embedding_function=None`` so Chroma never embeds (or downloads) itself."""
    if not create:
        return client.get_collection(name, embedding_function=None)
    configuration: Any = {"hnsw": {"space": "cosine"}}
    return client.get_or_create_collection(
        name,
        embedding_function=None,
        configuration=configuration,
        metadata={"description": "advisor knowledge base passages"},
    )


# rows per read: Chroma's local store turns a read into one SQL statement with a variable per row, and
# SQLite refuses more than 32,766 of them ("too many SQL variables" at about 39,000 passages)
READ_PAGE = 5000


class Stored(NamedTuple):
    ids: list[str]
    documents: list[str]
    metadatas: list[dict[str, Any]]


def read_all(collection: Collection, *, documents: bool = True) -> Stored:
    """Every passage of ``collection`` (ids, texts unless ``documents`` is false, metadata), read in pages."""
    include: Any = ["documents", "metadatas"] if documents else ["metadatas"]
    ids: list[str] = []
    texts: list[str] = []
    metadatas: list[dict[str, Any]] = []
    while True:
        page = collection.get(include=include, limit=READ_PAGE, offset=len(ids))
        ids += page["ids"]
        texts += list(page["documents"] or []) if documents else []
        metadatas += [dict(m or {}) for m in page["metadatas"] or []]
        if len(page["ids"]) < READ_PAGE:
            return Stored(ids, texts, metadatas)
