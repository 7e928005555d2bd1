"""Document administration (admin role): list, upload, delete and re-index knowledge-base documents."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, UploadFile
from starlette.concurrency import run_in_threadpool

from api.deps import AdminDep, LibraryDep, SettingsDep
from api.schemas import error_responses
from assistant.errors import TooLarge
from assistant.library import DocumentInfo
from knowledge.indexing import IndexStats

router = APIRouter(prefix="/v1/documents", tags=["documents"])


@router.get("", response_model=list[DocumentInfo])
def list_documents(_: AdminDep, library: LibraryDep) -> list[DocumentInfo]:
    """Every indexed document with its passage count; `uploaded` marks files added through this API."""
    return library.documents()


@router.post("", response_model=IndexStats, status_code=201, responses=error_responses(409, 415))
async def upload_document(
    file: UploadFile,
    _: AdminDep,
    settings: SettingsDep,
    library: LibraryDep,
    overwrite: Annotated[
        bool, Query(description="Replace an uploaded document of the same name (409 without it).")
    ] = False,
) -> IndexStats:
    """Add a Markdown, text, HTML or PDF file and index it at once.

    A file that cannot be read (encrypted, damaged, expanding beyond the limits, no text) is refused
    with the reason and not kept; so is a file whose content is already uploaded under another name,
    and a name already taken unless `overwrite=true`.
    """
    data = await file.read(settings.server.max_upload_bytes + 1)
    if len(data) > settings.server.max_upload_bytes:
        raise TooLarge(
            f"{file.filename}: larger than the upload limit of {settings.server.max_upload_bytes} bytes "
            "(server.max_upload_bytes)"
        )
    return await run_in_threadpool(library.add, file.filename or "", data, overwrite=overwrite)


# declared before DELETE /{doc_id:path}, so /reindex is never read as a document id (and a wrong
# method there is answered with the right Allow header)
@router.post("/reindex", response_model=IndexStats)
async def reindex(_: AdminDep, library: LibraryDep) -> IndexStats:
    """Re-run the incremental ingest of everything indexed (only changed passages are embedded again)."""
    return await run_in_threadpool(library.reindex)


@router.delete("/{doc_id:path}", response_model=IndexStats, responses=error_responses(409))
async def delete_document(doc_id: str, _: AdminDep, library: LibraryDep) -> IndexStats:
    """Remove an uploaded document (its file and passages); the packaged knowledge base cannot be deleted."""
    return await run_in_threadpool(library.delete, doc_id)
