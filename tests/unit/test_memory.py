from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

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


def test_unknown_or_missing_ids_start_a_new_conversation(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "c.sqlite3")
    assert store.load("not-seen-before") == Conversation(id="not-seen-before")
    assert len(store.load(None).id) == 32


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
