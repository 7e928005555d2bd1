from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from assistant.errors import NotFound
from assistant.memory import Conversation, SqliteStore
from assistant.models import Answer
from assistant.slots import Slots


def answer(conversation_id: str, n: int) -> Answer:
    return Answer(conversation_id=conversation_id, message_id=f"m{n}", language="en", answer=f"answer {n}")


def test_turns_and_slots_survive_a_new_store(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    store = SqliteStore(path)
    conversation = store.load(None)
    conversation.slots = Slots(params_b=34, gpu="h100-sxm", gpu_count=256)
    conversation.tools = ["training_compute"]
    store.save_turn(conversation, "first", answer(conversation.id, 1))
    store.save_turn(conversation, "second", answer(conversation.id, 2))

    again = SqliteStore(path).load(conversation.id)
    assert again.slots.gpu_count == 256
    assert again.tools == ["training_compute"]
    assert [t.message for t in again.turns] == ["first", "second"]
    assert again.turns[1].answer.answer == "answer 2"


def test_a_new_conversation_gets_an_unguessable_id_and_unknown_ids_are_not_found(tmp_path: Path) -> None:
    """Defect 5 of the pre-ship probe: a client could choose a conversation id (and so guess one)."""
    store = SqliteStore(tmp_path / "c.sqlite3")
    assert len(store.load(None).id) == 32
    with pytest.raises(NotFound, match="omit conversation_id to start a new one"):
        store.load("not-seen-before")
    # a channel that names its own conversations (a Slack thread) may start one under its id
    assert store.load("slack:T1:C1:1.2", owner="slack:T1:C1", start=True) == Conversation(
        id="slack:T1:C1:1.2", owner="slack:T1:C1"
    )


def test_a_failed_turn_leaves_nothing_half_saved(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "c.sqlite3")
    conversation = store.load(None)
    store.save_turn(conversation, "first", answer(conversation.id, 1))
    conversation.slots = Slots(gpu="b200")
    with pytest.raises(sqlite3.IntegrityError):
        store.save_turn(conversation, "duplicate id", answer(conversation.id, 1))  # same message_id
    reloaded = store.load(conversation.id)
    assert reloaded.slots.gpu is None  # the slot update was rolled back with the failed turn
    assert len(reloaded.turns) == 1


def test_threads_share_one_store(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "c.sqlite3")
    conversation = store.load(None)

    def work(n: int) -> None:
        store.save_turn(conversation, f"m{n}", answer(conversation.id, n))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(store.load(conversation.id).turns) == 8


@pytest.mark.parametrize("owner", ["user:alice", "key:0123abcd", "slack:T1:C1"])
def test_a_conversation_is_hidden_from_every_other_principal(tmp_path: Path, owner: str) -> None:
    """Defect 5: a Slack thread's or an OpenAI user's conversation was readable by any credential."""
    store = SqliteStore(tmp_path / "c.sqlite3")
    mine = store.load(None, owner=owner)
    store.save_turn(mine, "hello", answer(mine.id, 1))

    assert store.load(mine.id, owner=owner).turns[0].message == "hello"
    assert store.get(mine.id, owner=owner).owner == owner
    for stranger in ("user:bob", "key:ffff", "slack:T1:C2"):
        with pytest.raises(NotFound):
            store.load(mine.id, owner=stranger)
        with pytest.raises(NotFound):
            store.get(mine.id, owner=stranger)
        with pytest.raises(NotFound):
            store.load(mine.id, owner=stranger, start=True)  # starting never takes over another's id
    assert store.get(mine.id).owner == owner  # trusted callers (admin keys, the CLI) read everything


def test_what_a_trusted_caller_starts_stays_with_trusted_callers(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "c.sqlite3")
    shared = store.load(None)  # the CLI, an admin key or the open API on localhost
    store.save_turn(shared, "first", answer(shared.id, 1))
    assert store.get(shared.id).owner is None
    assert store.load(shared.id).turns[-1].message == "first"
    for stranger in ("user:bob", "key:ffff"):
        with pytest.raises(NotFound):
            store.load(shared.id, owner=stranger)


def test_users_list_only_their_own_conversations_newest_first(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "c.sqlite3")
    ids = []
    for n, (user, text) in enumerate(
        [("alice", "70B 模型要多少张 H100？"), ("bob", "bob's question"), ("alice", "How much storage " * 10)]
    ):
        conversation = store.load(None, owner=f"user:{user}")
        store.save_turn(conversation, text, answer(conversation.id, n))
        ids.append(conversation.id)
    store.save_turn(store.load(ids[0], owner="user:alice"), "follow-up", answer(ids[0], 9))

    listed = store.list_for("user:alice")
    assert [c.id for c in listed] == [ids[0], ids[2]]
    assert listed[0].title == "70B 模型要多少张 H100？"
    assert listed[0].turns == 2
    assert len(listed[1].title) == 80
    assert listed[1].title.endswith("…")
    assert store.list_for("user:alice", limit=1)[0].id == ids[0]
    assert store.list_for("user:nobody") == []


def test_files_from_before_owners_are_upgraded_in_place(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE conversations (id TEXT PRIMARY KEY, slots TEXT NOT NULL, tools TEXT NOT NULL, "
        "created_at TEXT NOT NULL, updated_at TEXT NOT NULL);"
        "INSERT INTO conversations VALUES ('old', '{}', '[]', '2026-01-01', '2026-01-01');"
    )
    db.commit()
    db.close()

    store = SqliteStore(path)
    assert store.load("old").owner is None  # earlier ownerless conversations: trusted callers only
    with pytest.raises(NotFound):
        store.load("old", owner="user:alice")
    mine = store.load(None, owner="user:alice")
    store.save_turn(mine, "hi", answer(mine.id, 1))
    assert SqliteStore(path).get(mine.id).owner == "user:alice"


def test_owners_written_as_bare_user_ids_become_user_principals(tmp_path: Path) -> None:
    path = tmp_path / "v0.sqlite3"
    SqliteStore(path)  # today's schema ...
    db = sqlite3.connect(path)
    db.executescript(
        "PRAGMA user_version = 0;"  # ... as the previous release left it: owner = the portal's user id
        "INSERT INTO conversations (id, slots, tools, created_at, updated_at, owner) "
        "VALUES ('c1', '{}', '[]', '2026-01-01', '2026-01-01', 'alice');"
    )
    db.commit()
    db.close()
    store = SqliteStore(path)
    assert store.get("c1", owner="user:alice").owner == "user:alice"
    assert [c.id for c in store.list_for("user:alice")] == ["c1"]
