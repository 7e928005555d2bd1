"""Defect 3 of the pre-ship probe (and the upload items of defect 10): one bad PDF made every later
upload and re-index answer 500, the file stayed in uploads/ where the API could not delete it, and disk
and index drifted apart. Any unreadable file is now refused with its reason and never kept."""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from langchain_core.embeddings import Embeddings

from api.app import create_app
from assistant.library import STAGING
from assistant.settings import Settings
from assistant.wiring import build_assistant, ingest, open_index, uploads_dir
from tests.helpers import ContractClient, copy_knowledge, make_settings
from tests.reliability.bad_files import bomb_pdf, encrypted_pdf, text_pdf

pytestmark = pytest.mark.integration

ADMIN = {"Authorization": "Bearer admin-key"}
NOTE = b"# Cluster Orion\n\n## Storage\nCluster Orion keeps checkpoints on 2 PB of Lustre.\n"


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory, use_embeddings: Embeddings) -> Path:
    """One small knowledge base (an article and the catalog) indexed once; each test gets a copy."""
    root = tmp_path_factory.mktemp("documents")
    copy_knowledge(root / "knowledge", articles=1)
    ingest(_settings(root), embeddings=use_embeddings)
    return root


def _settings(root: Path) -> Settings:
    return make_settings(
        root / "data", knowledge_dir=root / "knowledge", api_keys=["admin-key:admin", "chat-key"]
    )


@pytest.fixture
def settings(indexed: Path, tmp_path: Path) -> Settings:
    shutil.copytree(indexed, tmp_path, dirs_exist_ok=True)
    return _settings(tmp_path)


@pytest.fixture
def client(settings: Settings, use_embeddings: Embeddings) -> Iterator[TestClient]:
    app = create_app(settings=settings, assistant=build_assistant(settings, use_embeddings))
    with ContractClient(app) as c:
        yield c


def _upload(client: TestClient, name: str, data: bytes, **params: Any) -> Any:
    return client.post("/v1/documents", headers=ADMIN, files={"file": (name, data)}, params=params)


def _kept(settings: Settings) -> list[str]:
    """Every file under the uploads folder, staging included."""
    folder = uploads_dir(settings)
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def _passages_of(settings: Settings, doc_id: str) -> int:
    return len(open_index(settings).get(where={"doc_id": doc_id}, include=[])["ids"])


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("locked.pdf", encrypted_pdf(), "encrypted"),
        ("bomb.pdf", bomb_pdf(), "expands beyond"),
        ("broken.pdf", b"%PDF-1.4 not really a pdf", "broken.pdf"),
        ("scan.pdf", text_pdf(" "), "no text"),
    ],
)
def test_an_unreadable_file_is_refused_with_its_reason_and_never_kept(
    client: TestClient, settings: Settings, name: str, data: bytes, reason: str
) -> None:
    resp = _upload(client, name, data)
    assert resp.status_code == 422, resp.text
    assert reason in resp.json()["error"]["message"]
    assert _kept(settings) == []
    # administration still works afterwards
    assert _upload(client, "orion.md", NOTE).status_code == 201
    assert client.post("/v1/documents/reindex", headers=ADMIN).status_code == 200
    assert _kept(settings) == ["orion.md"]


def test_a_bad_file_already_on_disk_is_reported_listed_and_deletable(
    client: TestClient, settings: Settings
) -> None:
    """A file put in the uploads folder by hand (or by an older version) never breaks a re-index."""
    folder = uploads_dir(settings)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bomb.pdf").write_bytes(bomb_pdf())
    resp = client.post("/v1/documents/reindex", headers=ADMIN)
    assert resp.status_code == 200, resp.text
    assert [Path(e["path"]).name for e in resp.json()["errors"]] == ["bomb.pdf"]
    listed = [d for d in client.get("/v1/documents", headers=ADMIN).json() if d["uploaded"]]
    assert [(Path(d["path"]).name, d["passages"]) for d in listed] == [("bomb.pdf", 0)]
    assert client.delete(f"/v1/documents/{listed[0]['doc_id']}", headers=ADMIN).status_code == 200
    assert _kept(settings) == []


def test_delete_removes_the_file_and_every_passage(client: TestClient, settings: Settings) -> None:
    assert _upload(client, "orion.md", NOTE).status_code == 201
    doc = next(d for d in client.get("/v1/documents", headers=ADMIN).json() if d["uploaded"])
    assert _passages_of(settings, doc["doc_id"]) >= 1
    resp = client.delete(f"/v1/documents/{doc['doc_id']}", headers=ADMIN)
    assert resp.status_code == 200, resp.text
    assert resp.json()["removed"] >= 1
    assert _passages_of(settings, doc["doc_id"]) == 0
    assert _kept(settings) == []


def test_the_same_content_under_another_name_is_refused(client: TestClient, settings: Settings) -> None:
    assert _upload(client, "orion.md", NOTE).status_code == 201
    resp = _upload(client, "orion-copy.md", NOTE)
    assert resp.status_code == 409, resp.text
    assert "same content as the uploaded document orion.md" in resp.json()["error"]["message"]
    assert _kept(settings) == ["orion.md"]


def test_a_name_already_taken_needs_overwrite(client: TestClient, settings: Settings) -> None:
    assert _upload(client, "orion.md", NOTE).status_code == 201
    changed = NOTE.replace(b"2 PB", b"5 PB")
    resp = _upload(client, "orion.md", changed)
    assert resp.status_code == 409
    assert "overwrite=true" in resp.json()["error"]["message"]
    resp = _upload(client, "orion.md", changed, overwrite="true")
    assert resp.status_code == 201, resp.text
    assert (uploads_dir(settings) / "orion.md").read_bytes() == changed


def test_a_replacement_that_cannot_be_read_keeps_the_earlier_version(
    client: TestClient, settings: Settings
) -> None:
    assert (
        _upload(client, "orion.pdf", text_pdf("Cluster Orion keeps checkpoints on Lustre.")).status_code
        == 201
    )
    before = (uploads_dir(settings) / "orion.pdf").read_bytes()
    assert _upload(client, "orion.pdf", encrypted_pdf(), overwrite="true").status_code == 422
    assert (uploads_dir(settings) / "orion.pdf").read_bytes() == before
    assert _kept(settings) == ["orion.pdf"]


def test_a_full_disk_answers_503_and_leaves_no_empty_file(
    client: TestClient, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_space(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", no_space)
    resp = _upload(client, "orion.md", NOTE)
    assert resp.status_code == 503, resp.text
    assert resp.json()["error"]["code"] == "storage_unavailable"
    assert "No space left on device" in resp.json()["error"]["message"]
    assert [p for p in _kept(settings) if not p.startswith(STAGING)] == []
    assert _kept(settings) == []


def test_a_failure_while_indexing_puts_the_folder_back(
    client: TestClient, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = client.app.state.library  # type: ignore[attr-defined]
    real_sync = library._sync
    calls = 0

    def sync_fails_once() -> Any:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("the vector store went away")
        return real_sync()

    monkeypatch.setattr(library, "_sync", sync_fails_once)
    resp = _upload(client, "orion.md", NOTE)
    assert resp.status_code == 503, resp.text
    assert "the upload was not kept" in resp.json()["error"]["message"]
    assert "vector store" not in resp.text  # no internals
    assert _kept(settings) == []
    assert calls == 2  # the put-back synced the index with the folder again
