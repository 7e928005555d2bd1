from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from assistant.errors import InvalidInput, NotFound
from assistant.memory import MAX_COMMENT_CHARS, Conversation, SqliteStore
from assistant.models import Answer


def answer(conversation_id: str, message_id: str) -> Answer:
    return Answer(conversation_id=conversation_id, message_id=message_id, language="en", answer="an answer")


@pytest.fixture
def store(tmp_path: Path) -> SqliteStore:
    return SqliteStore(tmp_path / "c.sqlite3")


def talk(store: SqliteStore, *message_ids: str) -> Conversation:
    conversation = store.load(None)
    for message_id in message_ids:
        store.save_turn(conversation, f"question {message_id}", answer(conversation.id, message_id))
    return conversation


def test_feedback_is_loaded_with_its_turn(store: SqliteStore) -> None:
    conversation = talk(store, "m1", "m2")
    saved = store.save_feedback(conversation.id, "m2", "up", "  clear and cited  ")
    assert saved.comment == "clear and cited"

    turns = store.load(conversation.id).turns
    assert turns[0].feedback is None
    assert turns[1].feedback is not None
    assert (turns[1].feedback.rating, turns[1].feedback.comment) == ("up", "clear and cited")
    assert store.get(conversation.id).turns[1].feedback == saved


def test_a_later_vote_replaces_the_earlier_one(store: SqliteStore) -> None:
    conversation = talk(store, "m1")
    store.save_feedback(conversation.id, "m1", "up", "good")
    store.save_feedback(conversation.id, "m1", "down")

    feedback = store.get(conversation.id).turns[0].feedback
    assert feedback is not None
    assert (feedback.rating, feedback.comment) == ("down", "")
    with closing(sqlite3.connect(store._path)) as db:
        assert db.execute("SELECT COUNT(*) FROM feedback").fetchone() == (1,)


@pytest.mark.parametrize(
    ("conversation", "message_id", "problem"),
    [
        ("other", "m1", "message 'm1' is not part of conversation"),  # a message of another conversation
        ("mine", "nope", "message 'nope' is not part of"),  # an unknown message
        ("unknown", "m1", "not part of conversation 'unknown'"),  # an unknown conversation
    ],
)
def test_feedback_on_a_message_of_another_conversation_is_refused(
    store: SqliteStore, conversation: str, message_id: str, problem: str
) -> None:
    ids = {"mine": talk(store, "m1").id, "other": talk(store, "m2").id, "unknown": "unknown"}
    with pytest.raises(InvalidInput, match=problem):
        store.save_feedback(ids[conversation], message_id, "up")
    assert store.get(ids["mine"]).turns[0].feedback is None


@pytest.mark.parametrize(
    ("rating", "comment", "problem"),
    [
        ("meh", "", "rating must be 'up' or 'down'"),
        ("", "", "rating must be 'up' or 'down'"),
        ("up", "x" * (MAX_COMMENT_CHARS + 1), "comment is too long; the limit is 2000"),
    ],
)
def test_bad_ratings_and_long_comments_are_invalid_input(
    store: SqliteStore, rating: str, comment: str, problem: str
) -> None:
    conversation = talk(store, "m1")
    with pytest.raises(InvalidInput, match=problem):
        store.save_feedback(conversation.id, "m1", rating, comment)


def test_a_comment_of_exactly_the_limit_is_kept(store: SqliteStore) -> None:
    conversation = talk(store, "m1")
    store.save_feedback(conversation.id, "m1", "down", "好" * MAX_COMMENT_CHARS)
    feedback = store.get(conversation.id).turns[0].feedback
    assert feedback is not None
    assert len(feedback.comment) == MAX_COMMENT_CHARS


def test_get_returns_every_turn_while_load_keeps_the_recent_history(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "c.sqlite3", history=2)
    conversation = talk(store, "m1", "m2", "m3")
    assert [t.message_id for t in store.load(conversation.id).turns] == ["m2", "m3"]
    assert [t.message_id for t in store.get(conversation.id).turns] == ["m1", "m2", "m3"]


def test_get_of_an_unknown_conversation_is_not_found(store: SqliteStore) -> None:
    with pytest.raises(NotFound, match="no conversation with id 'missing'"):
        store.get("missing")
    with pytest.raises(NotFound):
        store.load("missing")


def test_a_file_from_before_feedback_gains_the_table(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        """
        CREATE TABLE conversations (id TEXT PRIMARY KEY, slots TEXT NOT NULL, tools TEXT NOT NULL,
            created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
        CREATE TABLE turns (message_id TEXT PRIMARY KEY, conversation_id TEXT NOT NULL,
            message TEXT NOT NULL, answer TEXT NOT NULL, created_at TEXT NOT NULL);
        """
    )
    old.execute("INSERT INTO conversations VALUES ('c1', '{}', '[]', 't', 't')")
    old.execute(
        "INSERT INTO turns VALUES ('m1', 'c1', 'hi', ?, 't')", (answer("c1", "m1").model_dump_json(),)
    )
    old.commit()
    old.close()

    store = SqliteStore(path)
    assert store.get("c1").turns[0].feedback is None
    store.save_feedback("c1", "m1", "up")
    assert store.get("c1").turns[0].feedback is not None


def test_feedback_on_another_users_answer_reads_like_a_wrong_id(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "c.sqlite3")
    conversation = store.load(None, owner="user:alice")
    store.save_turn(
        conversation, "q", Answer(conversation_id=conversation.id, message_id="m1", language="en", answer="a")
    )
    for stranger in ("user:bob", "key:ffff"):
        with pytest.raises(InvalidInput, match="is not part of conversation"):
            store.save_feedback(conversation.id, "m1", "down", owner=stranger)
    assert (
        store.save_feedback(conversation.id, "m1", "down", "too vague", owner="user:alice").comment
        == "too vague"
    )
