"""Incremental indexing: scan the knowledge folder and any added files, re-embed only what changed.

The collection itself is the record of what is indexed: every passage stores a hash of its text and
metadata, its root and its path. A run compares the passages it builds with the stored hashes, deletes
passages of removed files, and embeds and upserts the rest in batches. Because there is no second
record to keep in step, a run killed at any point leaves a usable index (each batch is committed as a
whole), and the next run finds the passages that still differ and repairs them. The collection's
metadata also says whether the last run finished (``index_state``), so a start after a killed run
completes the index before answering from it.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from chromadb.api.models.Collection import Collection
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from pydantic import BaseModel, Field

from knowledge.catalog import CatalogError, load_catalog
from knowledge.chunking import chunk_file
from knowledge.loaders import SUPPORTED_SUFFIXES, LoadError, load_file
from knowledge.render import CATALOG_ROOT, render_catalog
from knowledge.store import read_all

KNOWLEDGE_DIR = Path(__file__).parent
_ROOTS_KEY = "advisor_roots"
# "building" from the first write of a sync until its last; "complete" after. An index a killed run left
# half-built says "building", so the next start completes it instead of answering from part of it.
_STATE_KEY = "advisor_index_state"
# changes with every write that adds, updates or removes passages, so each replica sharing a Chroma server
# notices another's change (an upload, an `advisor ingest` job) and refreshes its keyword index
_CHANGED_KEY = "advisor_changed"
UPLOADS_ROOT = "uploads"
UPLOAD_ID_PREFIX = "upload:"
IndexState = Literal["empty", "partial", "complete"]
ProgressFn = Callable[[int, int], None]


@dataclass(frozen=True)
class Root:
    """A scanned location: the packaged knowledge folder, or a file or folder a user added."""

    key: str
    path: Path

    @property
    def packaged(self) -> bool:
        return self.key == CATALOG_ROOT


def knowledge_root(path: Path = KNOWLEDGE_DIR) -> Root:
    return Root(CATALOG_ROOT, path)


def uploads_root(path: Path) -> Root:
    """The folder of documents uploaded through the API. Its key and its documents' ids name no place on
    disk ("uploads", "upload:<name>"), so replicas and jobs with different folders agree on them."""
    return Root(UPLOADS_ROOT, path)


def extra_root(path: Path) -> Root:
    """A user's file or folder; its key is the absolute path, so later runs find it again."""
    resolved = path.expanduser().resolve()
    if not resolved.exists():
        raise FileNotFoundError(f"{path}: no such file or folder")
    if resolved.is_file() and resolved.suffix.lower() not in SUPPORTED_SUFFIXES:
        raise ValueError(f"{path}: unsupported file type; supported: {', '.join(sorted(SUPPORTED_SUFFIXES))}")
    return Root(str(resolved), resolved)


class FileError(BaseModel):
    path: str
    reason: str


class IndexStats(BaseModel):
    """What a run did; ``errors`` name the files that were skipped and why."""

    added: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0
    files: int = 0
    errors: list[FileError] = Field(default_factory=list)

    @property
    def embedded(self) -> int:
        return self.added + self.updated


@dataclass
class Collected:
    chunks: dict[str, Document] = field(default_factory=dict)
    errors: list[FileError] = field(default_factory=list)
    failed: set[tuple[str, str]] = field(default_factory=set)  # (root, path) whose old passages are kept
    files: int = 0

    def add(self, chunks: Iterable[Document]) -> None:
        for chunk in chunks:
            assert chunk.id is not None
            self.chunks[chunk.id] = chunk


def _corpus_files(root: Path) -> list[Path]:
    return sorted(p for p in (root / "corpus").rglob("*.md") if p.name != "README.md")


def _user_files(root: Path) -> list[Path]:
    if root.is_file():
        return [root]
    return sorted(
        p for p in root.rglob("*")
        if p.is_file() and p.suffix.lower() in SUPPORTED_SUFFIXES
        and not any(part.startswith(".") for part in p.relative_to(root).parts)
    )  # fmt: skip


def collect(roots: Iterable[Root]) -> Collected:
    """Load and chunk every file under ``roots``; a bad file is recorded, never fatal."""
    out = Collected()
    for root in roots:
        if not root.path.exists():
            continue  # a removed folder: its passages are removed
        if root.packaged:
            _collect_packaged(root, out)
            continue
        base = root.path if root.path.is_dir() else root.path.parent
        for path in _user_files(root.path):
            display = path.relative_to(base).as_posix()
            doc_id = f"{UPLOAD_ID_PREFIX}{display}" if root.key == UPLOADS_ROOT else f"file:{path.as_posix()}"
            _collect_file(out, root, path, display=display, doc_id=doc_id)
    return out


def _collect_packaged(root: Root, out: Collected) -> None:
    for path in _corpus_files(root.path):
        display = path.relative_to(root.path).as_posix()
        _collect_file(
            out, root, path, display=display, doc_id=f"{path.parent.name}/{path.stem}", article=True
        )
    try:
        catalog = load_catalog(root.path / "catalog")
    except CatalogError as exc:
        out.errors.append(FileError(path=str(root.path / "catalog"), reason=str(exc)))
        out.failed.update((root.key, f"catalog/{p.name}") for p in (root.path / "catalog").glob("*.yaml"))
        return
    out.files += 1
    out.add(render_catalog(catalog))


def _collect_file(
    out: Collected, root: Root, path: Path, *, display: str, doc_id: str, article: bool = False
) -> None:
    """Load and chunk one file into ``out``; corpus articles must have front matter in their folder's language."""
    try:
        loaded = load_file(path, doc_id=doc_id, display_path=display, require_front_matter=article)
        if article and loaded.lang != path.parent.name:
            raise LoadError(path, f"lang {loaded.lang!r} but the file is in {path.parent.name}/")
        chunks = chunk_file(loaded, root=root.key)
    except LoadError as exc:
        out.errors.append(FileError(path=str(path), reason=exc.reason))
        out.failed.add((root.key, display))
        return
    out.files += 1
    out.add(chunks)


def _existing(collection: Collection) -> dict[str, dict[str, str]]:
    found = read_all(collection, documents=False)
    return {
        id_: {k: str(v) for k, v in meta.items() if k in {"content_hash", "root", "path"}}
        for id_, meta in zip(found.ids, found.metadatas, strict=True)
    }


def known_roots(collection: Collection) -> list[Root]:
    """Roots a previous run indexed, so a plain re-run keeps them in sync (or removes deleted ones).

    They are recorded in the collection's metadata before any passage is embedded, so a run killed
    before it stored a passage of a new folder still remembers that folder; passages carry their
    root too, which covers indexes written before roots were recorded.
    """
    recorded = json.loads(str((collection.metadata or {}).get(_ROOTS_KEY, "[]")))
    keys = {*recorded, *(meta.get("root", "") for meta in _existing(collection).values())}
    return [Root(key, Path(key)) for key in sorted(keys) if key and key not in (CATALOG_ROOT, UPLOADS_ROOT)]


def _record_roots(collection: Collection, roots: Iterable[Root]) -> None:
    keys = sorted(r.key for r in roots if not r.packaged and r.path.exists())
    _set_metadata(collection, _ROOTS_KEY, json.dumps(keys))


def _set_metadata(collection: Collection, key: str, value: str) -> None:
    """One key of the collection's metadata, the others kept (Chroma replaces the whole mapping)."""
    collection.modify(metadata={**(collection.metadata or {}), key: value})


def index_state(collection: Collection) -> IndexState:
    """``empty`` before the first build, ``partial`` when a build stopped before its last write,
    else ``complete`` (an index written before the marker existed counts as complete)."""
    if collection.count() == 0:
        return "empty"
    return "partial" if (collection.metadata or {}).get(_STATE_KEY) == "building" else "complete"


def mark_changed(collection: Collection) -> None:
    """Record that passages were written or removed (see ``change_stamp``)."""
    _set_metadata(collection, _CHANGED_KEY, uuid.uuid4().hex)


def change_stamp(collection: Collection) -> str:
    """What tells one state of the passages from another: the collection's id and its last change."""
    return f"{collection.id}:{(collection.metadata or {}).get(_CHANGED_KEY, '')}"


def _set_state(collection: Collection, state: str) -> None:
    if (collection.metadata or {}).get(_STATE_KEY) != state:
        _set_metadata(collection, _STATE_KEY, state)


def sync(
    collection: Collection,
    embeddings: Embeddings,
    roots: list[Root],
    *,
    batch_size: int = 64,
    on_start: Callable[[int], None] | None = None,
    on_progress: ProgressFn | None = None,
) -> IndexStats:
    """Bring ``collection`` in line with the files under ``roots`` (and every root indexed before)."""
    existing = _existing(collection)
    # the roots given win over those remembered under the same key or for the same place (uploads were
    # once keyed by their folder's path)
    given = {r.path.resolve() for r in roots}
    remembered = [r for r in known_roots(collection) if r.path.resolve() not in given]
    all_roots = {r.key: r for r in [*remembered, *roots]}
    _record_roots(collection, all_roots.values())
    collected = collect(all_roots.values())
    stats = IndexStats(files=collected.files, errors=collected.errors)

    changed: list[Document] = []
    for chunk_id, chunk in collected.chunks.items():
        old = existing.get(chunk_id)
        if old is None:
            stats.added += 1
            changed.append(chunk)
        elif old.get("content_hash") != chunk.metadata["content_hash"]:
            stats.updated += 1
            changed.append(chunk)
        else:
            stats.unchanged += 1
    stale = [
        chunk_id for chunk_id, meta in existing.items()
        if chunk_id not in collected.chunks and (meta.get("root", ""), meta.get("path", "")) not in collected.failed
    ]  # fmt: skip
    if changed or stale:
        _set_state(collection, "building")
    for start in range(0, len(stale), 500):
        collection.delete(ids=stale[start : start + 500])
    stats.removed = len(stale)

    if on_start:
        on_start(len(changed))
    done = 0
    for start in range(0, len(changed), batch_size):
        batch = changed[start : start + batch_size]
        vectors: list[Sequence[float]] = list(embeddings.embed_documents([c.page_content for c in batch]))
        collection.upsert(
            ids=[str(c.id) for c in batch],
            embeddings=vectors,
            documents=[c.page_content for c in batch],
            metadatas=[c.metadata for c in batch],
        )
        done += len(batch)
        if on_progress:
            on_progress(done, len(changed))
    if changed or stale:
        mark_changed(collection)
    _set_state(collection, "complete")
    return stats
