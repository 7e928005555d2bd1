"""Document administration (admin role): list, upload, delete and re-index knowledge-base documents."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from fastapi import APIRouter, UploadFile
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from api.deps import AdminDep, AssistantDep, SettingsDep
from assistant.errors import Conflict, InvalidInput, NotFound, TooLarge, UnsupportedMedia
from assistant.service import Assistant
from assistant.settings import Settings
from assistant.wiring import ingest, open_index, uploads_dir
from knowledge.indexing import IndexStats
from knowledge.loaders import SUPPORTED_SUFFIXES

router = APIRouter(prefix="/v1/documents", tags=["documents"])

_SAFE_NAME = re.compile(r"^[\w\-. ()\u4e00-\u9fff]{1,200}$")


class DocumentInfo(BaseModel):
    doc_id: str
    title: str
    path: str
    lang: str
    doc_type: str
    as_of: str
    passages: int
    uploaded: bool


def _documents(settings: Settings) -> list[DocumentInfo]:
    found = open_index(settings).get(include=["metadatas"])
    by_doc: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for meta in found["metadatas"] or []:
        by_doc[str(meta.get("doc_id", ""))].append(dict(meta))
    uploads = str(uploads_dir(settings).resolve())
    return [
        DocumentInfo(
            doc_id=doc_id,
            title=str(metas[0].get("title", "")),
            path=str(metas[0].get("path", "")),
            lang=str(metas[0].get("lang", "")),
            doc_type=str(metas[0].get("doc_type", "")),
            as_of=str(metas[0].get("as_of", "")),
            passages=len(metas),
            uploaded=str(metas[0].get("root", "")) == uploads,
        )
        for doc_id, metas in sorted(by_doc.items())
    ]


def _reindex(settings: Settings, assistant: Assistant) -> IndexStats:
    """The incremental ingest (knowledge, earlier roots, the uploads folder), then a retriever reload."""
    folder = uploads_dir(settings)
    folder.mkdir(parents=True, exist_ok=True)
    embeddings = getattr(assistant.retriever, "embeddings", None)
    stats = ingest(settings, [folder], embeddings=embeddings)
    assistant.retriever.refresh()
    return stats


@router.get("", response_model=list[DocumentInfo])
def list_documents(_: AdminDep, settings: SettingsDep) -> list[DocumentInfo]:
    """Every indexed document with its passage count; `uploaded` marks files added through this API."""
    return _documents(settings)


@router.post("", response_model=IndexStats, status_code=201)
async def upload_document(
    file: UploadFile, _: AdminDep, settings: SettingsDep, assistant: AssistantDep
) -> IndexStats:
    """Add a Markdown, text, HTML or PDF file and index it at once; a file that cannot be read is refused."""
    name = Path(file.filename or "").name
    if not name or name.startswith(".") or not _SAFE_NAME.match(name):
        raise InvalidInput(
            f"file name {file.filename!r} is not allowed (letters, digits, '-', '_', '.', spaces)"
        )
    if Path(name).suffix.lower() not in SUPPORTED_SUFFIXES:
        raise UnsupportedMedia(
            f"{name}: unsupported file type; supported: {', '.join(sorted(SUPPORTED_SUFFIXES))}"
        )
    data = await file.read(settings.server.max_upload_bytes + 1)
    if len(data) > settings.server.max_upload_bytes:
        raise TooLarge(f"{name}: larger than {settings.server.max_upload_bytes} bytes")
    target = uploads_dir(settings) / name
    target.parent.mkdir(parents=True, exist_ok=True)
    existed = target.exists()
    previous = target.read_bytes() if existed else None
    target.write_bytes(data)
    stats = await run_in_threadpool(_reindex, settings, assistant)
    problems = [e for e in stats.errors if Path(e.path).name == name]
    if problems:
        # keep what was indexed before: restore the old file (or remove the new one) and sync again
        if previous is None:
            target.unlink()
        else:
            target.write_bytes(previous)
        await run_in_threadpool(_reindex, settings, assistant)
        raise InvalidInput(f"{name}: {problems[0].reason}")
    return stats


@router.delete("/{doc_id:path}", response_model=IndexStats)
async def delete_document(
    doc_id: str, _: AdminDep, settings: SettingsDep, assistant: AssistantDep
) -> IndexStats:
    """Remove an uploaded document (its file and passages); the packaged knowledge base cannot be deleted."""
    known = {d.doc_id: d for d in _documents(settings)}
    if doc_id not in known:
        raise NotFound(f"no indexed document {doc_id!r}")
    if not known[doc_id].uploaded:
        raise Conflict(
            f"{doc_id!r} is part of the packaged knowledge base or a folder on disk; it cannot be deleted here"
        )
    path = Path(doc_id.removeprefix("file:"))
    if path.resolve().parent != uploads_dir(settings).resolve():
        raise Conflict(f"{doc_id!r} is not in the uploads folder")
    path.unlink(missing_ok=True)
    return await run_in_threadpool(_reindex, settings, assistant)


@router.post("/reindex", response_model=IndexStats)
async def reindex(_: AdminDep, settings: SettingsDep, assistant: AssistantDep) -> IndexStats:
    """Re-run the incremental ingest of everything indexed (only changed passages are embedded again)."""
    return await run_in_threadpool(_reindex, settings, assistant)
