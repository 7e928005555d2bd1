"""Defect 2 of the pre-ship probe: chats failed with 500 (``'BM25' object has no attribute
'vocab_dict'``) while documents were uploaded, deleted or re-indexed, because the retriever rebuilt its
keyword index in place while searches read it."""

from __future__ import annotations

import threading
from pathlib import Path

from langchain_core.embeddings import DeterministicFakeEmbedding

from assistant.retriever import HybridRetriever
from knowledge.indexing import extra_root, sync
from knowledge.store import open_client, open_collection


def test_searches_never_fail_while_the_index_is_refreshed(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(40):
        (docs / f"doc{i}.md").write_text(
            f"# Doc {i}\n\n## NVMe\nNVMe storage for checkpoints, part {i}.\n\n## RAM\nhost RAM {i} GB\n",
            encoding="utf-8",
        )
    embeddings = DeterministicFakeEmbedding(size=16)
    collection = open_collection(open_client(path=tmp_path / "chroma"), "advisor-test")
    sync(collection, embeddings, [extra_root(docs)])
    retriever = HybridRetriever(collection=collection, embeddings=embeddings)

    failures: list[BaseException] = []
    stop = threading.Event()

    def refresh_again_and_again() -> None:
        while not stop.is_set():
            retriever.refresh()

    def search(n: int) -> None:
        try:
            for _ in range(n):
                found = retriever.search("NVMe checkpoint storage", k=4)
                assert found, "a search during a refresh found nothing"
        except BaseException as exc:  # anything a reader can hit: AttributeError, IndexError, KeyError
            failures.append(exc)

    refresher = threading.Thread(target=refresh_again_and_again)
    readers = [threading.Thread(target=search, args=(60,)) for _ in range(3)]
    refresher.start()
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join()
    stop.set()
    refresher.join()
    assert not failures, f"{len(failures)} searches failed, first: {failures[0]!r}"
