"""Documents an administrator adds through the API: checked before they are kept, kept atomically,
indexed at once, and removed together with their passages.

The uploads folder and the index never drift apart: a file is read and chunked from a staging copy
before it replaces anything, so a file that cannot be read is refused with its reason and never
stored; it lands under its name with one rename, and a failure while indexing puts back what was
there. Changes are serialised, because each one re-syncs the index and refreshes the retriever.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import threading
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, Protocol

from chromadb.api.models.Collection import Collection
from pydantic import BaseModel, Field

from assistant.errors import Conflict, InvalidInput, NotFound, StorageError, TooLarge, UnsupportedMedia
from knowledge.chunking import chunk_file
from knowledge.indexing import UPLOAD_ID_PREFIX, UPLOADS_ROOT, IndexStats, mark_changed
from knowledge.loaders import SUPPORTED_SUFFIXES, LoadError, load_file
from knowledge.store import read_all

logger = logging.getLogger(__name__)
_SAFE_NAME = re.compile(r"^[\w\-. ()\u4e00-\u9fff]{1,200}$")
STAGING = ".staging"  # inside the uploads folder (same file system, so a rename is atomic); dot folders are never indexed


class DocumentInfo(BaseModel):
    """One document of the knowledge base, as the document list shows it."""

    doc_id: str
    title: str
    path: str
    lang: str
    doc_type: str
    as_of: str
    passages: int
    uploaded: bool = Field(description="Added through the API (so it may be deleted through it).")
    content_hash: str = Field(default="", description="SHA-256 of an uploaded file's bytes.")


class UploadChange(Protocol):
    """The uploaded documents as one change sees them (inside ``SharedUploads.change``)."""

    def listing(self) -> dict[str, str]: ...
    def read(self, name: str) -> bytes: ...
    def put(self, name: str, data: bytes, digest: str) -> None: ...
    def delete(self, name: str) -> None: ...


class SharedUploads(Protocol):
    """Uploaded documents kept where every replica reads them (PostgreSQL: ``assistant.postgres``).

    Each replica's uploads folder is then a copy, brought in line before each change, so one replica's
    re-index never drops another's upload, and changes are serialised across replicas."""

    def change(self) -> AbstractContextManager[UploadChange]: ...
    def listing(self) -> dict[str, str]: ...


MIRRORED = ".mirrored"  # inside the uploads folder: the names last copied from the shared uploads


def mirror(folder: Path, change: UploadChange) -> None:
    """Make ``folder`` hold exactly the shared uploads: fetch what is missing or different (written aside,
    then renamed into place), remove what another replica deleted. A file that was never copied from the
    shared uploads (uploaded here before the database was configured) is added to them, never deleted."""
    shared = change.listing()
    folder.mkdir(parents=True, exist_ok=True)
    copied = _mirrored(folder)
    local = {p.name: p for p in _files_in(folder)}
    for name, path in local.items():
        if name not in shared and name not in copied:
            data = path.read_bytes()
            change.put(name, data, _sha256(data))  # kept here before uploads were shared: shared now
            shared[name] = _sha256(data)
    for name, digest in shared.items():
        if name in local and _sha256(local[name].read_bytes()) == digest:
            continue
        staged = folder / STAGING / f"{uuid.uuid4().hex}{Path(name).suffix}"
        staged.parent.mkdir(parents=True, exist_ok=True)
        staged.write_bytes(change.read(name))
        os.replace(staged, folder / name)
    for name, path in local.items():
        if name not in shared:
            path.unlink(missing_ok=True)  # deleted through another replica
    _write_manifest(folder, set(shared))


def _mirrored(folder: Path) -> set[str]:
    """The names this folder holds as a copy of the shared uploads."""
    manifest = folder / MIRRORED
    return set(manifest.read_text(encoding="utf-8").split("\n")) - {""} if manifest.exists() else set()


def _remember(folder: Path, name: str) -> None:
    """Add ``name`` to the names this folder holds as a copy of the shared uploads."""
    _write_manifest(folder, _mirrored(folder) | {name})


def _write_manifest(folder: Path, names: set[str]) -> None:
    staged = folder / STAGING / f"{uuid.uuid4().hex}.mirrored"
    staged.parent.mkdir(parents=True, exist_ok=True)
    staged.write_text("\n".join(sorted(n for n in names if n)), encoding="utf-8")
    os.replace(staged, folder / MIRRORED)


class DocumentLibrary:
    """Lists, adds, deletes and re-indexes documents; one change at a time (across replicas too, when the
    uploads are ``shared``)."""

    def __init__(
        self,
        *,
        folder: Path,
        collection: Callable[[], Collection],
        sync: Callable[[], IndexStats],
        refresh: Callable[[], object],
        max_bytes: int,
        shared: SharedUploads | None = None,
        frozen: str | None = None,
    ) -> None:
        self._folder = folder
        self._shared = shared
        self._frozen = frozen  # why this process may not change the documents; None when it may
        self._collection = collection
        self._sync = sync
        self._refresh = refresh
        self._max_bytes = max_bytes
        self._lock = threading.Lock()

    @property
    def folder(self) -> Path:
        return self._folder

    @contextmanager
    def _changing(self) -> Iterator[UploadChange | None]:
        """This replica's turn to change the documents, its uploads folder a copy of the shared ones;
        ``Conflict`` naming the reason when this process may not change them."""
        if self._frozen is not None:
            raise Conflict(self._frozen)
        with self._lock:
            if self._shared is None:
                yield None
                return
            with self._shared.change() as change:
                mirror(self._folder, change)
                yield change

    def documents(self) -> list[DocumentInfo]:
        """Every indexed document, and any file in the uploads folder that is not indexed (0 passages)."""
        by_doc: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for meta in read_all(self._collection(), documents=False).metadatas:
            by_doc[str(meta.get("doc_id", ""))].append(meta)
        uploads = {UPLOADS_ROOT, str(self._folder.resolve())}  # the second: indexed before uploads had a key
        listed = {
            doc_id: DocumentInfo(
                doc_id=doc_id,
                title=str(metas[0].get("title", "")),
                path=str(metas[0].get("path", "")),
                lang=str(metas[0].get("lang", "")),
                doc_type=str(metas[0].get("doc_type", "")),
                as_of=str(metas[0].get("as_of", "")),
                passages=len(metas),
                uploaded=str(metas[0].get("root", "")) in uploads,
            )
            for doc_id, metas in by_doc.items()
        }
        for name, digest in self._upload_hashes().items():
            doc_id = f"{UPLOAD_ID_PREFIX}{name}"
            info = listed.get(doc_id) or DocumentInfo(
                doc_id=doc_id, title=Path(name).stem, path=name, lang="", doc_type="document", as_of="",
                passages=0, uploaded=True,
            )  # fmt: skip
            listed[doc_id] = info.model_copy(update={"content_hash": digest})
        return [listed[doc_id] for doc_id in sorted(listed)]

    def _upload_hashes(self) -> dict[str, str]:
        """Each uploaded document's name and SHA-256: the shared records, else this folder's files."""
        if self._shared is not None:
            return self._shared.listing()
        return {path.name: _sha256(path.read_bytes()) for path in self._uploaded_files()}

    def add(self, filename: str, data: bytes, *, overwrite: bool = False) -> IndexStats:
        """Keep and index one file. Refused, and nothing kept, when it cannot be read, when it repeats a
        document already uploaded, or when its name is taken and ``overwrite`` is not set."""
        name = _checked_name(filename)
        if len(data) > self._max_bytes:
            raise TooLarge(f"{name}: {len(data)} bytes; the upload limit is {self._max_bytes} bytes")
        digest = _sha256(data)
        with self._changing() as change:
            target = self._folder / name
            for other in self._uploaded_files():
                if other.name != name and _sha256(other.read_bytes()) == digest:
                    raise Conflict(f"{name} has the same content as the uploaded document {other.name}")
            if target.exists() and not overwrite:
                raise Conflict(f"{name} is already uploaded; send overwrite=true to replace it")
            with self._staged(data, Path(name).suffix) as staged:
                _check_readable(staged, name)
                previous = self._set_aside(target)
                os.replace(staged, target)
                try:
                    stats = self._sync()
                except Exception as exc:
                    logger.exception("indexing %s failed; putting the uploads folder back", name)
                    self._put_back(target, previous)
                    raise StorageError(
                        f"{name}: the knowledge index could not be updated, so the upload was not kept; "
                        "try again later"
                    ) from exc
                problems = [e for e in stats.errors if Path(e.path).name == name]
                if problems:  # read fine from staging but not in place (e.g. changed underneath): undo
                    self._put_back(target, previous)
                    raise InvalidInput(f"{name}: {problems[0].reason}")
                if change is not None:
                    try:  # kept for every replica; it commits when the change ends
                        change.put(name, data, digest)
                    except Exception as exc:
                        self._put_back(target, previous)
                        raise StorageError(f"{name}: the upload could not be kept; try again later") from exc
                    _remember(self._folder, name)  # shared now: a later deletion elsewhere removes it here
                if previous is not None:
                    previous.unlink(missing_ok=True)
            self._refresh()
            return stats

    def delete(self, doc_id: str) -> IndexStats:
        """Remove an uploaded document: its file, then its passages."""
        with self._changing() as change:
            known = {d.doc_id: d for d in self.documents()}
            if doc_id not in known:
                raise NotFound(f"no document {doc_id!r}")
            name = self._upload_name(doc_id)
            if not known[doc_id].uploaded or name is None:
                raise Conflict(
                    f"{doc_id!r} is part of the packaged knowledge base or a folder on disk; "
                    "only uploaded documents can be deleted here"
                )
            path = self._folder / name
            if change is not None:
                change.delete(name)
            try:
                path.unlink(missing_ok=True)
            except OSError as exc:
                raise StorageError(f"cannot delete {path.name}: {exc.strerror or exc}") from exc
            # the file goes first: if the process dies before the passages do, the next sync removes them
            collection = self._collection()
            stale = collection.get(where={"doc_id": doc_id}, include=[])["ids"]
            if stale:
                collection.delete(ids=stale)
                mark_changed(collection)
            self._refresh()
            return IndexStats(removed=len(stale))

    def reindex(self) -> IndexStats:
        """The incremental ingest of everything indexed (knowledge, earlier roots, the uploads folder)."""
        with self._changing():
            self._folder.mkdir(parents=True, exist_ok=True)
            stats = self._sync()
            self._refresh()
            return stats

    def _uploaded_files(self) -> list[Path]:
        return _files_in(self._folder)

    def _upload_name(self, doc_id: str) -> str | None:
        """The uploaded file a document id names; None for any other document."""
        if doc_id.startswith(UPLOAD_ID_PREFIX):
            name = doc_id.removeprefix(UPLOAD_ID_PREFIX)
            return name if _SAFE_NAME.match(name) else None
        path = Path(doc_id.removeprefix("file:"))  # indexed before uploads had ids of their own
        if doc_id.startswith("file:") and path.resolve().parent == self._folder.resolve():
            return path.name
        return None

    @contextmanager
    def _staged(self, data: bytes, suffix: str) -> Iterator[Path]:
        """``data`` written and flushed to disk in the staging folder; removed afterwards if still there."""
        staging = self._folder / STAGING
        path = staging / f"{uuid.uuid4().hex}{suffix}"
        try:
            staging.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
        except OSError as exc:
            path.unlink(missing_ok=True)
            raise StorageError(f"cannot store the upload: {exc.strerror or exc}") from exc
        try:
            yield path
        finally:
            path.unlink(missing_ok=True)

    def _set_aside(self, target: Path) -> Path | None:
        """Move the file being replaced into staging, so a failed upload can put it back."""
        if not target.exists():
            return None
        kept = self._folder / STAGING / f"{uuid.uuid4().hex}.previous{target.suffix}"
        os.replace(target, kept)
        return kept

    def _put_back(self, target: Path, previous: Path | None) -> None:
        if previous is None:
            target.unlink(missing_ok=True)
        else:
            os.replace(previous, target)
        self._sync()  # the index follows the folder again


def _checked_name(filename: str) -> str:
    name = Path(filename or "").name
    if not name or name.startswith(".") or not _SAFE_NAME.match(name):
        raise InvalidInput(f"file name {filename!r} is not allowed (letters, digits, '-', '_', '.', spaces)")
    if Path(name).suffix.lower() not in SUPPORTED_SUFFIXES:
        raise UnsupportedMedia(
            f"{name}: unsupported file type; supported: {', '.join(sorted(SUPPORTED_SUFFIXES))}"
        )
    return name


def _check_readable(path: Path, name: str) -> None:
    """Read and chunk the staged copy as indexing will; ``InvalidInput`` with the reason if it cannot."""
    try:
        loaded = load_file(path, doc_id="upload-check", display_path=name)
        chunk_file(loaded, root="upload-check")
    except LoadError as exc:
        raise InvalidInput(f"{name}: {exc.reason}") from exc


def _files_in(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(
        p for p in folder.iterdir()
        if p.is_file() and not p.name.startswith(".") and p.suffix.lower() in SUPPORTED_SUFFIXES
    )  # fmt: skip


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
