"""Incremental indexing against a real Chroma store on disk, with fast fake embeddings."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from chromadb.api.models.Collection import Collection
from langchain_core.embeddings import DeterministicFakeEmbedding

from knowledge.indexing import extra_root, sync, uploads_root
from knowledge.store import open_client, open_collection


class CountingEmbeddings(DeterministicFakeEmbedding):
    embedded: int = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.embedded += len(texts)
        return super().embed_documents(texts)


@pytest.fixture
def collection(tmp_path: Path) -> Collection:
    return open_collection(open_client(path=tmp_path / "chroma"), "advisor-test")


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\n## One\nalpha\n\n## Two\nbeta\n", encoding="utf-8")
    (folder / "b.txt").write_text("plain text about NVMe", encoding="utf-8")
    (folder / ".hidden.md").write_text("# hidden\n\nskip me", encoding="utf-8")
    return folder


def test_second_run_embeds_nothing(collection: Collection, docs: Path) -> None:
    emb = CountingEmbeddings(size=16)
    first = sync(collection, emb, [extra_root(docs)])
    assert (first.added, first.updated, first.removed, first.unchanged) == (3, 0, 0, 0)
    assert first.files == 2
    emb.embedded = 0
    second = sync(collection, emb, [extra_root(docs)])
    assert (second.added, second.updated, second.removed, second.unchanged) == (0, 0, 0, 3)
    assert emb.embedded == 0


def test_only_changed_sections_are_re_embedded_and_deleted_files_removed(
    collection: Collection, docs: Path
) -> None:
    emb = CountingEmbeddings(size=16)
    sync(collection, emb, [extra_root(docs)])
    (docs / "a.md").write_text("# A\n\n## One\nalpha changed\n\n## Two\nbeta\n", encoding="utf-8")
    (docs / "b.txt").unlink()
    emb.embedded = 0
    stats = sync(collection, emb, [extra_root(docs)])
    assert (stats.added, stats.updated, stats.removed, stats.unchanged) == (0, 1, 1, 1)
    assert emb.embedded == 1
    assert collection.count() == 2


def test_a_plain_rerun_keeps_roots_indexed_before(collection: Collection, docs: Path, tmp_path: Path) -> None:
    emb = CountingEmbeddings(size=16)
    sync(collection, emb, [extra_root(docs)])
    (docs / "c.md").write_text("# C\n\nnew file", encoding="utf-8")
    stats = sync(collection, emb, [])  # no paths given: the folder is remembered
    assert (stats.added, stats.unchanged) == (1, 3)


def test_a_malformed_file_is_reported_and_its_old_passages_kept(collection: Collection, docs: Path) -> None:
    emb = CountingEmbeddings(size=16)
    sync(collection, emb, [extra_root(docs)])
    (docs / "b.txt").write_bytes(b"\xff\xfe\x00 broken")
    (docs / "d.md").write_text("# D\n\nanother", encoding="utf-8")
    stats = sync(collection, emb, [extra_root(docs)])
    assert [e.path for e in stats.errors] == [str(docs / "b.txt")]
    assert "not UTF-8" in stats.errors[0].reason
    assert stats.added == 1
    assert stats.removed == 0
    assert collection.count() == 4


def test_removing_a_whole_folder_removes_its_passages(collection: Collection, docs: Path) -> None:
    emb = CountingEmbeddings(size=16)
    sync(collection, emb, [extra_root(docs)])
    for path in docs.iterdir():
        path.unlink()
    docs.rmdir()
    stats = sync(collection, emb, [])
    assert stats.removed == 3
    assert collection.count() == 0


def test_progress_is_reported_per_batch(collection: Collection, docs: Path) -> None:
    seen: list[tuple[int, int]] = []
    totals: list[int] = []
    sync(collection, CountingEmbeddings(size=16), [extra_root(docs)], batch_size=2,
         on_start=totals.append, on_progress=lambda done, total: seen.append((done, total)))  # fmt: skip
    assert totals == [3]
    assert seen == [(2, 3), (3, 3)]


@pytest.mark.parametrize(("name", "error"), [("missing", FileNotFoundError), ("x.csv", ValueError)])
def test_bad_extra_paths_are_refused(tmp_path: Path, name: str, error: type[Exception]) -> None:
    if name.endswith(".csv"):
        (tmp_path / name).write_text("a,b")
    with pytest.raises(error, match=name):
        extra_root(tmp_path / name)


@pytest.mark.filterwarnings("ignore:legacy embedding function config:DeprecationWarning")
def test_chroma_is_never_allowed_to_embed_by_itself(collection: Collection) -> None:
    # with its default embedding function Chroma would download an ONNX model here
    with pytest.raises(ValueError, match="embedding function"):
        collection.add(ids=["x"], documents=["text without a vector"])
    with pytest.raises(ValueError, match="embedding function"):
        collection.query(query_texts=["text"], n_results=1)


def test_uploads_have_ids_that_name_no_folder_and_an_old_path_keyed_index_moves_to_them(
    collection: Collection, docs: Path, tmp_path: Path
) -> None:
    """Replicas and jobs keep uploads in different folders; the ids must agree. An index that keyed the
    uploads folder by its path (before) is moved over at the next run, without duplicates."""
    emb = CountingEmbeddings(size=16)
    sync(collection, emb, [extra_root(docs)])  # as uploads were indexed before: keyed by the path
    assert all(i.startswith("file:") for i in _doc_ids(collection))
    stats = sync(collection, emb, [uploads_root(docs)])
    assert (stats.added, stats.removed) == (3, 3)
    assert _doc_ids(collection) == {"upload:a.md", "upload:b.txt"}
    elsewhere = tmp_path / "another-replica" / "uploads"
    shutil.copytree(docs, elsewhere)
    again = sync(collection, emb, [uploads_root(elsewhere)])
    assert (again.added, again.removed, again.unchanged) == (0, 0, 3)  # same documents, wherever kept


def _doc_ids(collection: Collection) -> set[str]:
    return {str(m["doc_id"]) for m in collection.get(include=["metadatas"])["metadatas"] or []}
