"""Document administration over HTTP, with its own index (uploads change it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from langchain_core.embeddings import Embeddings

from api.app import create_app
from assistant.settings import Settings
from assistant.wiring import build_assistant, ingest
from tests.helpers import ContractClient, make_settings

pytestmark = pytest.mark.integration

ADMIN = {"Authorization": "Bearer admin-key"}
CHAT = {"Authorization": "Bearer chat-key"}
NOTE = (
    "# Cluster Zephyr\n\n## Fabric\nCluster Zephyr uses quadruple-rail XDR InfiniBand between its 12 racks.\n"
)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory, use_embeddings: Embeddings) -> Iterator[TestClient]:
    settings: Settings = make_settings(
        tmp_path_factory.mktemp("docs"), api_keys=["admin-key:admin", "chat-key"]
    )
    ingest(settings, embeddings=use_embeddings)
    app = create_app(settings=settings, assistant=build_assistant(settings, use_embeddings))
    with ContractClient(app) as c:
        yield c


def test_upload_makes_a_document_searchable_at_once_and_delete_removes_it(client: TestClient) -> None:
    resp = client.post("/v1/documents", headers=ADMIN, files={"file": ("zephyr.md", NOTE, "text/markdown")})
    assert resp.status_code == 201, resp.text
    assert resp.json()["added"] >= 1
    listed = {d["doc_id"]: d for d in client.get("/v1/documents", headers=ADMIN).json()}
    uploaded = [d for d in listed.values() if d["uploaded"]]
    assert [d["title"] for d in uploaded] == ["Cluster Zephyr"]
    answer = client.post(
        "/v1/chat", headers=CHAT, json={"message": "What fabric does cluster Zephyr use?"}
    ).json()
    assert any(c["doc_id"] == uploaded[0]["doc_id"] for c in answer["citations"])

    gone = client.delete(f"/v1/documents/{uploaded[0]['doc_id']}", headers=ADMIN)
    assert gone.status_code == 200, gone.text
    assert gone.json()["removed"] >= 1
    assert not [d for d in client.get("/v1/documents", headers=ADMIN).json() if d["uploaded"]]


@pytest.mark.parametrize(
    ("name", "content", "status", "message"),
    [
        ("table.csv", b"a,b\n1,2\n", 415, "unsupported file type"),
        ("broken.pdf", b"%PDF-1.4 not really", 422, "broken.pdf"),
        ("../escape.md", b"# x\n\ny", 201, ""),
    ],
)
def test_bad_uploads_are_refused_with_a_clear_error(
    client: TestClient, name: str, content: bytes, status: int, message: str
) -> None:
    resp = client.post(
        "/v1/documents", headers=ADMIN, files={"file": (name, content, "application/octet-stream")}
    )
    assert resp.status_code == status, resp.text
    if message:
        assert message in resp.json()["error"]["message"]
    if name.startswith(".."):
        # the path is dropped: the file lands in the uploads folder as escape.md, never outside it
        docs = [d for d in client.get("/v1/documents", headers=ADMIN).json() if d["uploaded"]]
        assert [Path(d["path"]).name for d in docs] == ["escape.md"]
        client.delete(f"/v1/documents/{docs[0]['doc_id']}", headers=ADMIN)


def test_uploads_may_exceed_the_chat_body_limit_but_not_their_own(client: TestClient) -> None:
    big = ("# Big notes\n\n" + "Rack power and cooling notes. " * 4000).encode()  # ~120 KB > 64 KB chat limit
    resp = client.post("/v1/documents", headers=ADMIN, files={"file": ("big.md", big, "text/markdown")})
    assert resp.status_code == 201, resp.text
    doc = next(d for d in client.get("/v1/documents", headers=ADMIN).json() if d["uploaded"])
    client.delete(f"/v1/documents/{doc['doc_id']}", headers=ADMIN)
    huge = b"x" * (11 * 1024 * 1024)
    assert client.post("/v1/documents", headers=ADMIN, files={"file": ("huge.txt", huge)}).status_code == 413


def test_only_admins_manage_documents(client: TestClient) -> None:
    assert client.get("/v1/documents", headers=CHAT).status_code == 403
    assert client.get("/v1/documents").status_code == 401


def test_packaged_documents_cannot_be_deleted(client: TestClient) -> None:
    resp = client.delete("/v1/documents/en/storage", headers=ADMIN)
    assert resp.status_code == 409
    assert resp.json()["error"]["code"] == "conflict"
    assert client.delete("/v1/documents/en/no-such-doc", headers=ADMIN).status_code == 404


def test_reindex_embeds_nothing_when_nothing_changed(client: TestClient) -> None:
    stats = client.post("/v1/documents/reindex", headers=ADMIN).json()
    assert (stats["added"], stats["updated"], stats["removed"]) == (0, 0, 0)
