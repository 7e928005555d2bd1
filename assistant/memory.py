"""Conversation memory: turns and the slots carried from one turn to the next.

SQLite by default (one file, WAL, safe across threads and processes); the ``ConversationStore``
protocol is what a PostgreSQL or Redis store would implement for several API replicas.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from pydantic import BaseModel, Field

from assistant.models import Answer
from assistant.slots import Slots


class Turn(BaseModel):
    message_id: str
    message: str
    answer: Answer
    created_at: str


class Conversation(BaseModel):
    """What the assistant remembers of one conversation."""

    id: str
    slots: Slots = Field(default_factory=Slots)
    tools: list[str] = Field(default_factory=list, description="Calculators the last calculation turn ran.")
    turns: list[Turn] = Field(default_factory=list)


class ConversationStore(Protocol):
    def load(self, conversation_id: str | None) -> Conversation: ...

    def save_turn(self, conversation: Conversation, message: str, answer: Answer) -> None: ...


_SCHEMA = """
CREATE TABLE IF NOT EXISTS conversations (
    id TEXT PRIMARY KEY,
    slots TEXT NOT NULL,
    tools TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS turns (
    message_id TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations(id),
    message TEXT NOT NULL,
    answer TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS turns_by_conversation ON turns(conversation_id, created_at);
"""


class SqliteStore:
    """Conversations in one SQLite file; each turn is one transaction, so a crash never half-saves a turn."""

    def __init__(self, path: Path, *, history: int = 20) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._path = path
        self._history = history
        self._local = threading.local()
        with self._connect() as db:
            db.executescript(_SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self._path, timeout=10, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA busy_timeout=10000")
            self._local.db = db
        return db

    def load(self, conversation_id: str | None) -> Conversation:
        """The conversation with this id, or a new empty one (a new id when None or unknown)."""
        if not conversation_id:
            return Conversation(id=uuid.uuid4().hex)
        db = self._connect()
        row = db.execute("SELECT slots, tools FROM conversations WHERE id = ?", (conversation_id,)).fetchone()
        if row is None:
            return Conversation(id=conversation_id)
        turns = db.execute(
            "SELECT message_id, message, answer, created_at FROM turns WHERE conversation_id = ? "
            "ORDER BY created_at DESC, rowid DESC LIMIT ?",
            (conversation_id, self._history),
        ).fetchall()
        return Conversation(
            id=conversation_id,
            slots=Slots.model_validate_json(row[0]),
            tools=json.loads(row[1]),
            turns=[
                Turn(message_id=m, message=msg, answer=Answer.model_validate_json(a), created_at=t)
                for m, msg, a, t in reversed(turns)
            ],
        )

    def save_turn(self, conversation: Conversation, message: str, answer: Answer) -> None:
        """Store the turn and the conversation's slots in one transaction."""
        now = datetime.now(UTC).isoformat()
        db = self._connect()
        with _transaction(db):
            db.execute(
                "INSERT INTO conversations (id, slots, tools, created_at, updated_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET slots = excluded.slots, tools = excluded.tools, "
                "updated_at = excluded.updated_at",
                (
                    conversation.id,
                    conversation.slots.model_dump_json(),
                    json.dumps(conversation.tools),
                    now,
                    now,
                ),
            )
            db.execute(
                "INSERT INTO turns (message_id, conversation_id, message, answer, created_at) VALUES (?, ?, ?, ?, ?)",
                (answer.message_id, conversation.id, message, answer.model_dump_json(), now),
            )


class _transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *_: object) -> None:
        self._db.execute("ROLLBACK" if exc_type else "COMMIT")
