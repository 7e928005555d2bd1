"""The conversation store's promises, kept alike by the SQLite file and by a real PostgreSQL server
(started by the test on a free loopback port), and PostgreSQL's own: migrations run once when replicas
start together, a server restart costs only the requests made while it is down, and a bad URL is named
without its password."""

from __future__ import annotations

import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from assistant.errors import InvalidInput, NotFound, StorageError
from assistant.memory import ConversationStore, SqliteStore
from assistant.models import Answer
from assistant.postgres import SCHEMA_VERSION, PostgresStore
from assistant.settings import DatabaseSettings, Settings
from assistant.slots import Slots
from assistant.wiring import open_memory
from tests.servers import Postgres, postgres_server

pytestmark = pytest.mark.integration
INTEGRITY = (sqlite3.IntegrityError, psycopg.IntegrityError)


@pytest.fixture(scope="module")
def postgres() -> Iterator[Postgres]:
    with postgres_server() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgres"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """Opens the store anew each call (a restart, or another replica) over the same data."""
    opened: list[ConversationStore] = []
    if request.param == "sqlite":
        path = tmp_path / "c.sqlite3"

        def new() -> ConversationStore:
            opened.append(SqliteStore(path))
            return opened[-1]
    else:
        url = request.getfixturevalue("postgres").new_database(f"t{uuid.uuid4().hex[:12]}")

        def new() -> ConversationStore:
            opened.append(PostgresStore(url, timeout_s=3))
            return opened[-1]

    yield new
    for store in opened:
        store.close()


def answer(conversation_id: str, n: int) -> Answer:
    return Answer(
        conversation_id=conversation_id, message_id=f"{conversation_id}-m{n}", language="en", answer=f"a{n}"
    )


def test_a_conversation_continues_in_another_store_with_its_slots(opener: Any) -> None:
    first = opener()
    conversation = first.load(None, owner="user:ana")
    conversation.slots = Slots(params_b=34, gpu="h100-sxm", gpu_count=256)
    conversation.tools = ["training_compute"]
    conversation.state = {"intent": "calculation"}
    first.save_turn(conversation, "34B on 256 H100s?", answer(conversation.id, 1))
    first.save_turn(conversation, "和 512 张呢", answer(conversation.id, 2))

    again = opener().load(conversation.id, owner="user:ana")  # another replica
    assert (again.slots.gpu_count, again.slots.gpu) == (256, "h100-sxm")
    assert (again.tools, again.state) == (["training_compute"], {"intent": "calculation"})
    assert [t.message for t in again.turns] == ["34B on 256 H100s?", "和 512 张呢"]
    assert again.turns[1].answer.answer == "a2"
    assert again.turns[0].created_at < again.turns[1].created_at


def test_unknown_ids_are_not_found_and_other_principals_see_nothing(opener: Any) -> None:
    store = opener()
    assert len(store.load(None).id) == 32
    with pytest.raises(NotFound, match="omit conversation_id to start a new one"):
        store.load("never-seen")
    assert store.load("slack:T1:C1:1.2", owner="slack:T1:C1", start=True).id == "slack:T1:C1:1.2"
    conversation = store.load(None, owner="user:ana")
    store.save_turn(conversation, "hi", answer(conversation.id, 1))
    for other in ("user:bob", "key:abc", "slack:T1:C1"):
        with pytest.raises(NotFound):
            store.load(conversation.id, owner=other)
        with pytest.raises(NotFound):
            store.get(conversation.id, owner=other)
    assert store.get(conversation.id).owner == "user:ana"  # a trusted caller reads every one


def test_a_failed_turn_leaves_nothing_half_saved(opener: Any) -> None:
    store = opener()
    conversation = store.load(None)
    store.save_turn(conversation, "first", answer(conversation.id, 1))
    conversation.slots = Slots(gpu="b200")
    with pytest.raises(INTEGRITY):
        store.save_turn(conversation, "same message id", answer(conversation.id, 1))
    reloaded = opener().load(conversation.id)
    assert reloaded.slots.gpu is None  # rolled back with the turn
    assert [t.message for t in reloaded.turns] == ["first"]


def test_history_is_bounded_but_get_returns_every_turn(opener: Any) -> None:
    store = opener()
    conversation = store.load(None)
    for n in range(25):
        store.save_turn(conversation, f"q{n}", answer(conversation.id, n))
    assert [t.message for t in store.load(conversation.id).turns] == [f"q{n}" for n in range(5, 25)]
    assert len(store.get(conversation.id).turns) == 25


def test_lists_and_feedback(opener: Any) -> None:
    store = opener()
    older, newer = store.load(None, owner="user:ana"), store.load(None, owner="user:ana")
    store.save_turn(older, "how much RAM for 8x H100?", answer(older.id, 1))
    store.save_turn(newer, "  70B   LoRA on one card? ", answer(newer.id, 1))
    store.save_turn(newer, "and QLoRA", answer(newer.id, 2))
    listed = store.list_for("user:ana")
    assert [(s.id, s.title, s.turns) for s in listed] == [
        (newer.id, "70B LoRA on one card?", 2),
        (older.id, "how much RAM for 8x H100?", 1),
    ]
    assert store.list_for("user:bob") == []

    store.save_feedback(newer.id, f"{newer.id}-m2", "down", " wrong card ", owner="user:ana")
    store.save_feedback(newer.id, f"{newer.id}-m2", "up", owner="user:ana")  # replaces the first vote
    votes = [t.feedback for t in opener().get(newer.id).turns]
    assert votes[0] is None
    assert votes[1] is not None
    assert (votes[1].rating, votes[1].comment) == ("up", "")
    with pytest.raises(InvalidInput, match="is not part of conversation"):
        store.save_feedback(older.id, f"{newer.id}-m2", "up", owner="user:ana")
    with pytest.raises(InvalidInput, match="is not part of conversation"):
        store.save_feedback(newer.id, f"{newer.id}-m2", "up", owner="user:bob")
    with pytest.raises(InvalidInput, match="rating must be 'up' or 'down'"):
        store.save_feedback(newer.id, f"{newer.id}-m2", "meh", owner="user:ana")


def test_threads_write_to_one_store_without_losing_a_turn(opener: Any) -> None:
    store = opener()
    conversations = [store.load(None) for _ in range(6)]

    def talk(n: int) -> None:
        for k in range(8):
            store.save_turn(conversations[n], f"q{k}", answer(conversations[n].id, k))

    threads = [threading.Thread(target=talk, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [len(store.get(c.id).turns) for c in conversations] == [8] * 6


# PostgreSQL's own ------------------------------------------------------------------------------------


def test_replicas_starting_together_migrate_once(postgres: Postgres) -> None:
    url = postgres.new_database("migrate_once")
    stores: list[PostgresStore] = []
    errors: list[BaseException] = []

    def start() -> None:
        try:
            stores.append(PostgresStore(url))
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(stores) == 4
    with psycopg.connect(url) as db:
        versions = [row[0] for row in db.execute("SELECT version FROM schema_migrations ORDER BY version")]
    assert versions == list(range(1, SCHEMA_VERSION + 1))
    for store in stores:
        store.close()


def test_a_server_restart_fails_requests_cleanly_then_recovers_without_a_new_store(
    postgres: Postgres,
) -> None:
    store = PostgresStore(postgres.new_database("restart"), timeout_s=2)
    conversation = store.load(None)
    store.save_turn(conversation, "before", answer(conversation.id, 1))
    postgres.stop()
    try:
        started = time.monotonic()
        with pytest.raises(StorageError, match="cannot be stored right now"):
            store.save_turn(conversation, "while down", answer(conversation.id, 2))
        assert time.monotonic() - started < 10  # within the configured wait, not hanging
        with pytest.raises(StorageError):
            store.check()
    finally:
        postgres.start()
    deadline = time.monotonic() + 30
    while True:  # the pool reconnects by itself
        try:
            store.check()
            break
        except StorageError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)
    store.save_turn(conversation, "after", answer(conversation.id, 3))
    assert [t.message for t in store.load(conversation.id).turns] == ["before", "after"]
    store.close()


def test_an_unreachable_database_is_named_without_its_password(tmp_path: Path) -> None:
    port = 1  # nothing listens there
    settings = Settings(
        data_dir=tmp_path,
        database=DatabaseSettings(url=f"postgresql://advisor:s3cret@127.0.0.1:{port}/advisor", timeout_s=1),  # type: ignore[arg-type]
    )
    with pytest.raises(StorageError) as raised:
        open_memory(settings)
    assert f"postgresql://advisor@127.0.0.1:{port}/advisor" in str(raised.value)
    assert "s3cret" not in str(raised.value)


def test_the_database_url_chooses_the_store(postgres: Postgres, tmp_path: Path) -> None:
    assert isinstance(open_memory(Settings(data_dir=tmp_path / "embedded")), SqliteStore)
    url = postgres.new_database("chosen")
    shared = Settings(data_dir=tmp_path / "shared", database=DatabaseSettings(url=url))  # type: ignore[arg-type]
    store = open_memory(shared)
    assert isinstance(store, PostgresStore)
    store.close()
    assert not (tmp_path / "shared" / "conversations.sqlite3").exists()
