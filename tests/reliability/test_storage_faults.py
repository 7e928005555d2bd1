"""Defect 9 of the pre-ship probe: a corrupt or full SQLite made every chat a 500 while /readyz said
ready; deleting the SQLite file lost new turns silently; at start a corrupt store or an unwritable data
folder was a traceback. Faults are real: a database that cannot grow (SQLite's own page limit, so writes
fail with SQLITE_FULL), a file overwritten with junk or removed while the service runs."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from langchain_core.embeddings import Embeddings

from api.app import create_app
from assistant.errors import StorageError
from assistant.memory import SqliteStore
from assistant.service import Assistant
from assistant.settings import ConversationSettings, Settings
from assistant.wiring import build_assistant, ingest
from tests.helpers import REPO, ContractClient, copy_knowledge, make_settings

pytestmark = pytest.mark.integration

ADVISOR = str(Path(sys.executable).parent / "advisor")
QUESTION = "How much host RAM does an 8-GPU training server need?"


@pytest.fixture
def settings(indexed_settings: Settings, tmp_path: Path) -> Settings:
    """The shared index, and a conversation database of this test's own."""
    return indexed_settings.model_copy(
        update={"conversations": ConversationSettings(path=tmp_path / "conversations.sqlite3")}
    )


@pytest.fixture
def assistant(settings: Settings, use_embeddings: Embeddings) -> Assistant:
    return build_assistant(settings, use_embeddings)


@pytest.fixture
def client(settings: Settings, assistant: Assistant) -> Iterator[TestClient]:
    with ContractClient(create_app(settings=settings, assistant=assistant)) as c:
        yield c


def _turns(path: Path) -> int:
    with closing(sqlite3.connect(path)) as db:
        return int(db.execute("SELECT COUNT(*) FROM turns").fetchone()[0])


def test_a_full_database_is_a_503_and_not_ready_with_nothing_half_written(
    client: TestClient, settings: Settings, assistant: Assistant, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert client.post("/v1/chat", json={"message": QUESTION}).status_code == 200
    store = assistant.memory
    assert isinstance(store, SqliteStore)
    connect = store._connect
    room = {"full": True}

    def cannot_grow() -> sqlite3.Connection:
        db = connect()
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        # SQLite answers SQLITE_FULL past max_page_count, as it does on a full disk
        db.execute(f"PRAGMA max_page_count = {pages if room['full'] else 1_000_000}")
        return db

    monkeypatch.setattr(store, "_connect", cannot_grow)
    path = settings.conversations_path
    before = _turns(path)
    resp = client.post("/v1/chat", json={"message": QUESTION + " " + "with notes " * 300})
    assert resp.status_code == 503, resp.text
    assert resp.json()["error"]["code"] == "storage_unavailable"
    assert "full" in resp.json()["error"]["message"]
    ready = client.get("/readyz")
    assert ready.status_code == 503
    assert "conversations" in ready.json()["problems"]
    assert _turns(path) == before  # the failed turn left nothing behind
    room["full"] = False
    assert client.get("/readyz").status_code == 200  # ready again once there is room


def test_a_database_corrupted_while_running_is_a_503_and_not_ready(
    client: TestClient, settings: Settings
) -> None:
    assert client.post("/v1/chat", json={"message": QUESTION}).status_code == 200
    path = settings.conversations_path
    with closing(sqlite3.connect(path)) as db:  # move every page from the write-ahead log into the file ...
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    with path.open("r+b") as f:  # ... and overwrite it in place: the open connection now reads junk
        f.write(b"junk" * (path.stat().st_size // 4))
    resp = client.post("/v1/chat", json={"message": QUESTION})
    assert resp.status_code == 503, resp.text
    assert client.get("/readyz").json()["status"] == "unavailable"


def test_a_database_removed_while_running_gets_the_next_turns(client: TestClient, settings: Settings) -> None:
    first = client.post("/v1/chat", json={"message": QUESTION}).json()
    path = settings.conversations_path
    for file in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        file.unlink(missing_ok=True)
    resp = client.post("/v1/chat", json={"message": QUESTION})
    assert resp.status_code == 200, resp.text
    answer = resp.json()
    # the new turn is in the file now on disk, not in the unlinked one
    stored = SqliteStore(path).get(answer["conversation_id"])
    assert [t.message_id for t in stored.turns] == [answer["message_id"]]
    assert (
        client.get(f"/v1/conversations/{first['conversation_id']}").status_code == 404
    )  # gone with the file


def test_an_index_removed_while_running_makes_readyz_say_so(
    tmp_path: Path, use_embeddings: Embeddings
) -> None:
    settings = make_settings(
        tmp_path / "data", knowledge_dir=copy_knowledge(tmp_path / "knowledge", articles=1)
    )
    ingest(settings, embeddings=use_embeddings)
    app = create_app(settings=settings, assistant=build_assistant(settings, use_embeddings))
    with ContractClient(app, raise_server_exceptions=False) as client:
        assert client.get("/readyz").status_code == 200
        shutil.rmtree(settings.chroma_path)
        ready = client.get("/readyz")
        chat = client.post("/v1/chat", json={"message": QUESTION})
    assert ready.status_code == 503, ready.text
    assert "index" in ready.json()["problems"]
    assert chat.status_code in {200, 503}  # answered from memory, or refused cleanly: never a 500


def test_a_corrupt_database_at_start_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "conversations.sqlite3"
    path.write_bytes(b"junk" * 1000)
    with pytest.raises(StorageError, match=f"cannot open the conversation database {path}"):
        SqliteStore(path)


@pytest.mark.parametrize("problem", ["data folder under a file", "corrupt conversations"])
def test_the_cli_reports_a_bad_data_folder_in_one_line(tmp_path: Path, problem: str) -> None:
    if problem == "data folder under a file":
        (tmp_path / "plain-file").write_text("x")
        data_dir = tmp_path / "plain-file" / "advisor"
        expected = "Not a directory"
    else:
        data_dir = tmp_path / "data"
        data_dir.mkdir()
        (data_dir / "conversations.sqlite3").write_bytes(b"junk" * 1000)
        expected = "cannot open the conversation database"
    result = subprocess.run(
        [ADVISOR, "ask", "hi"],
        cwd=REPO,
        env={
            **os.environ,
            "ADVISOR_DATA_DIR": str(data_dir),
            "ADVISOR_KNOWLEDGE_DIR": str(REPO / "knowledge"),
        },
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert expected in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) <= 2, result.stderr
