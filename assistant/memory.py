"""Conversation memory: turns and the slots carried from one turn to the next.

SQLite by default (one file, WAL, safe across threads and processes); PostgreSQL
(``assistant.postgres``) when several API replicas share the conversations. Both implement
``ConversationStore`` and keep the rules that live here.

Every conversation belongs to the principal that started it: ``"user:<id>"`` (a portal's signed-in
user), ``"key:<fingerprint>"`` (an API key with the chat role), ``"slack:<team>:<channel>"`` (a Slack
thread). Only that principal may read or continue it. ``None`` is a trusted caller (an admin key, the
open API on localhost, the CLI): it may read every conversation, and what it starts has no owner, so
only trusted callers see that.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import uuid
import weakref
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field, ValidationError

from assistant.errors import InvalidInput, NotFound, StorageError
from assistant.models import Answer
from assistant.slots import Slots

logger = logging.getLogger(__name__)
Rating = Literal["up", "down"]
MAX_COMMENT_CHARS = 2000


class Feedback(BaseModel):
    """A user's vote on one answer; a later vote on the same message replaces the earlier one."""

    message_id: str
    rating: Rating = Field(description="'up' for a helpful answer, 'down' for an unhelpful one.")
    comment: str = Field(default="", max_length=MAX_COMMENT_CHARS, description="Optional free text.")
    created_at: str


class Turn(BaseModel):
    message_id: str
    message: str
    answer: Answer
    created_at: str
    feedback: Feedback | None = None


class Conversation(BaseModel):
    """What the assistant remembers of one conversation."""

    id: str
    owner: str | None = Field(
        default=None,
        description="The principal that started it ('user:…', 'key:…', 'slack:…'); None: trusted callers only.",
    )
    slots: Slots = Field(default_factory=Slots)
    tools: list[str] = Field(default_factory=list, description="Calculators the last calculation turn ran.")
    state: dict[str, str] = Field(
        default_factory=dict, description="What the last turn understood: intent, task, quantity asked."
    )
    turns: list[Turn] = Field(default_factory=list)

    def visible_to(self, principal: str | None) -> bool:
        """Whether ``principal`` (None: a trusted caller) may read and continue it."""
        return _visible(self.owner, principal)


def user_principal(user_id: str) -> str:
    """The principal of a portal's signed-in user."""
    return f"user:{user_id}"


def key_principal(key_fingerprint: str) -> str:
    """The principal of an API key with the chat role (by its fingerprint, never the key)."""
    return f"key:{key_fingerprint}"


def slack_principal(team: str, channel: str) -> str:
    """The principal of a Slack channel's threads: the bot answers there, nobody reads them over HTTP."""
    return f"slack:{team}:{channel}"


class ConversationSummary(BaseModel):
    """One line of a user's conversation list."""

    id: str
    title: str = Field(description="The first message, shortened.")
    turns: int
    created_at: str
    updated_at: str


class ConversationStore(Protocol):
    def load(
        self, conversation_id: str | None, *, owner: str | None = None, start: bool = False
    ) -> Conversation: ...

    def get(self, conversation_id: str, *, owner: str | None = None) -> Conversation: ...

    def list_for(self, owner: str, *, limit: int = 50) -> list[ConversationSummary]: ...

    def save_turn(self, conversation: Conversation, message: str, answer: Answer) -> None: ...

    def check(self) -> None:
        """Read and write once; ``StorageError`` when the store cannot serve a chat."""
        ...

    def close(self) -> None:
        """Release connections at shutdown; a later use may open them again."""
        ...

    def save_feedback(
        self,
        conversation_id: str,
        message_id: str,
        rating: str,
        comment: str = "",
        *,
        owner: str | None = None,
    ) -> Feedback: ...


_SCHEMA = """
CREATE TABLE IF NOT EXISTS conversations (
    id TEXT PRIMARY KEY,
    slots TEXT NOT NULL,
    tools TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    owner TEXT
);
CREATE TABLE IF NOT EXISTS turns (
    message_id TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations(id),
    message TEXT NOT NULL,
    answer TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS turns_by_conversation ON turns(conversation_id, created_at);
CREATE INDEX IF NOT EXISTS conversations_by_owner ON conversations(owner, updated_at);
CREATE TABLE IF NOT EXISTS probe (at TEXT NOT NULL, room BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS feedback (
    message_id TEXT PRIMARY KEY REFERENCES turns(message_id),
    conversation_id TEXT NOT NULL REFERENCES conversations(id),
    rating TEXT NOT NULL CHECK (rating IN ('up', 'down')),
    comment TEXT NOT NULL,
    created_at TEXT NOT NULL
);
"""
_TURNS = (
    "SELECT t.message_id, t.message, t.answer, t.created_at, f.rating, f.comment, f.created_at "
    "FROM turns t LEFT JOIN feedback f ON f.message_id = t.message_id "
    "WHERE t.conversation_id = ? ORDER BY t.created_at DESC, t.rowid DESC LIMIT ?"
)


def _close_all(opened: list[sqlite3.Connection], lock: threading.Lock) -> None:
    with lock:
        connections, opened[:] = list(opened), []
    for db in connections:
        db.close()


class SqliteStore:
    """Conversations in one SQLite file; each turn is one transaction, so a crash never half-saves a turn.

    A storage failure (disk full, file corrupt or read-only) is a ``StorageError`` naming the reason, and
    the transaction it interrupted leaves nothing behind. A file removed or replaced while the service
    runs is noticed at the next use and opened anew, so new turns land on disk, not in an unlinked file.
    """

    def __init__(self, path: Path, *, history: int = 20) -> None:
        self._path = path
        self._history = history
        self._local = threading.local()
        # every connection any thread opened, so close() (or the store being collected) closes them all
        self._opened: list[sqlite3.Connection] = []
        self._opened_lock = threading.Lock()
        weakref.finalize(self, _close_all, self._opened, self._opened_lock)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._connect()
        except (sqlite3.Error, OSError) as exc:
            raise StorageError(f"cannot open the conversation database {path}: {_reason(exc)}") from exc

    def _connect(self) -> sqlite3.Connection:
        """This thread's connection to the file now at ``path`` (checked by inode on every use)."""
        held: tuple[sqlite3.Connection, tuple[int, int] | None] | None = getattr(self._local, "held", None)
        current = _identity(self._path)
        if held is not None and held[1] == current and current is not None:
            return held[0]
        if held is not None:
            self._forget(held[0])
            logger.warning(
                "the conversation database %s was removed or replaced; opening it anew", self._path
            )
        # each connection is used only by the thread that opened it (``_local``); check_same_thread is off
        # so that close() may close it from another thread at shutdown
        db = sqlite3.connect(self._path, timeout=10, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA busy_timeout=10000")
            with _transaction(db):
                _add_owner_column(db)  # files written before conversations had owners
            db.executescript(_SCHEMA)
            with _transaction(db):
                _migrate(db)
        except BaseException:
            db.close()
            raise
        self._local.held = (db, _identity(self._path))
        with self._opened_lock:
            self._opened.append(db)
        return db

    def _forget(self, db: sqlite3.Connection) -> None:
        with self._opened_lock:
            if db in self._opened:
                self._opened.remove(db)
        db.close()

    def close(self) -> None:
        """Close every thread's connection (at shutdown); a later use opens a new one."""
        _close_all(self._opened, self._opened_lock)
        self._local = threading.local()

    @contextmanager
    def _storage(self, action: str) -> Iterator[sqlite3.Connection]:
        """The connection, with storage failures turned into ``StorageError`` (an integrity error is a bug
        and stays what it is)."""
        try:
            yield self._connect()
        except sqlite3.IntegrityError:
            raise
        except (sqlite3.Error, OSError) as exc:
            logger.error(
                "conversation database %s: conversations could not be %s: %s", self._path, action, exc
            )
            raise StorageError(
                f"conversations cannot be {action} right now ({_reason(exc)}); try again later"
            ) from exc

    def check(self) -> None:
        """Read, and write as much as a turn needs, then roll back (``/readyz``); ``StorageError`` when the
        store could not keep a turn now (full, corrupt, read-only)."""
        with self._storage("stored") as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute("SELECT COUNT(*) FROM conversations").fetchone()
                db.execute(
                    "INSERT INTO probe (at, room) VALUES (?, zeroblob(16384))",
                    (now_iso(),),
                )
            finally:
                if db.in_transaction:
                    db.execute("ROLLBACK")  # never kept: the probe only proves there is room

    def load(
        self, conversation_id: str | None, *, owner: str | None = None, start: bool = False
    ) -> Conversation:
        """The conversation with this id, or with ``None`` a new one (an unguessable id) owned by ``owner``.

        ``NotFound`` when there is no such conversation, or it belongs to another principal (the two read
        alike, so a conversation's existence does not leak). ``start`` lets a channel that names its own
        conversations (a Slack thread, an OpenAI-endpoint user) start one under its id.
        """
        if not conversation_id:
            return Conversation(id=uuid.uuid4().hex, owner=owner)
        return loaded(self._read(conversation_id, self._history), conversation_id, owner=owner, start=start)

    def get(self, conversation_id: str, *, owner: str | None = None) -> Conversation:
        """The stored conversation with all its turns and their feedback; ``NotFound`` when there is none
        or it is not ``owner``'s."""
        return got(self._read(conversation_id, -1), conversation_id, owner)  # SQLite: LIMIT -1 is no limit

    def _read(self, conversation_id: str, limit: int) -> Conversation | None:
        with self._storage("read") as db:
            row = db.execute(
                "SELECT slots, tools, owner, state FROM conversations WHERE id = ?", (conversation_id,)
            ).fetchone()
            if row is None:
                return None
            turns = db.execute(_TURNS, (conversation_id, limit)).fetchall()
        return conversation_from(conversation_id, row, turns)

    def save_turn(self, conversation: Conversation, message: str, answer: Answer) -> None:
        """Store the turn and the conversation's slots in one transaction."""
        now = now_iso()
        with self._storage("stored") as db, _transaction(db):
            db.execute(
                "INSERT INTO conversations (id, slots, tools, created_at, updated_at, owner, state) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET slots = excluded.slots, tools = excluded.tools, "
                "state = excluded.state, "
                "updated_at = excluded.updated_at",  # the owner is set once, by the first turn
                (
                    conversation.id,
                    conversation.slots.model_dump_json(),
                    json.dumps(conversation.tools),
                    now,
                    now,
                    conversation.owner,
                    json.dumps(conversation.state),
                ),
            )
            db.execute(
                "INSERT INTO turns (message_id, conversation_id, message, answer, created_at) VALUES (?, ?, ?, ?, ?)",
                (answer.message_id, conversation.id, message, answer.model_dump_json(), now),
            )

    def list_for(self, owner: str, *, limit: int = 50) -> list[ConversationSummary]:
        """The principal's own conversations, most recently updated first."""
        with self._storage("read") as db:
            rows = db.execute(
                "SELECT c.id, c.created_at, c.updated_at, COUNT(t.message_id), "
                "(SELECT message FROM turns f WHERE f.conversation_id = c.id ORDER BY f.created_at, f.rowid LIMIT 1) "
                "FROM conversations c LEFT JOIN turns t ON t.conversation_id = c.id "
                "WHERE c.owner = ? GROUP BY c.id ORDER BY c.updated_at DESC, c.rowid DESC LIMIT ?",
                (owner, limit),
            ).fetchall()
        return [
            ConversationSummary(
                id=i, title=title(first or ""), turns=n, created_at=created, updated_at=updated
            )
            for i, created, updated, n, first in rows
        ]

    def save_feedback(
        self,
        conversation_id: str,
        message_id: str,
        rating: str,
        comment: str = "",
        *,
        owner: str | None = None,
    ) -> Feedback:
        """Record a vote on one answer of the conversation, replacing an earlier vote on it; ``owner`` must
        be allowed to see the conversation."""
        feedback = new_feedback(message_id, rating, comment)
        with self._storage("stored") as db, _transaction(db):
            row = db.execute(_FEEDBACK_TARGET, (message_id,)).fetchone()
            check_feedback_target(row, conversation_id, message_id, owner)
            db.execute(
                FEEDBACK_UPSERT.format(p="?"),
                (message_id, conversation_id, feedback.rating, feedback.comment, feedback.created_at),
            )
        return feedback


# the conversation a message belongs to and its owner (both stores; each fills its own placeholder)
FEEDBACK_TARGET = (
    "SELECT t.conversation_id, c.owner FROM turns t JOIN conversations c ON c.id = t.conversation_id "
    "WHERE t.message_id = {}"
)
_FEEDBACK_TARGET = FEEDBACK_TARGET.format("?")
# a vote, replacing an earlier one on the same answer ({p}: the store's placeholder)
FEEDBACK_UPSERT = (
    "INSERT INTO feedback (message_id, conversation_id, rating, comment, created_at) "
    "VALUES ({p}, {p}, {p}, {p}, {p}) ON CONFLICT (message_id) DO UPDATE SET rating = excluded.rating, "
    "comment = excluded.comment, created_at = excluded.created_at"
)


def loaded(
    conversation: Conversation | None, conversation_id: str, *, owner: str | None, start: bool
) -> Conversation:
    """What ``load`` returns for the stored ``conversation`` (None: none with this id): see ``load``."""
    if conversation is None and start:
        return Conversation(id=conversation_id, owner=owner)
    if conversation is None or not conversation.visible_to(owner):
        raise NotFound(
            f"no conversation with id {conversation_id!r}; omit conversation_id to start a new one"
        )
    return conversation


def got(conversation: Conversation | None, conversation_id: str, owner: str | None) -> Conversation:
    """What ``get`` returns for the stored ``conversation`` (None: none with this id)."""
    if conversation is None or not conversation.visible_to(owner):
        raise NotFound(f"no conversation with id {conversation_id!r}")
    return conversation


def conversation_from(
    conversation_id: str,
    row: Sequence[Any],
    turns: Iterable[Sequence[Any]],
) -> Conversation:
    """A conversation from its stored row (slots, tools, owner, state as JSON text) and its turns, newest
    first (message id, message, answer JSON, created at, and the feedback's rating, comment, created at)."""
    return Conversation(
        id=conversation_id,
        owner=row[2],
        slots=Slots.model_validate_json(row[0]),
        tools=json.loads(row[1]),
        state=json.loads(row[3] or "{}"),
        turns=[
            Turn(
                message_id=m,
                message=msg,
                answer=Answer.model_validate_json(a),
                created_at=t,
                feedback=None
                if rating is None
                else Feedback(message_id=m, rating=rating, comment=comment, created_at=voted),
            )
            for m, msg, a, t, rating, comment, voted in reversed(list(turns))
        ],
    )


def new_feedback(message_id: str, rating: str, comment: str) -> Feedback:
    """A vote as it will be stored; ``InvalidInput`` naming what is wrong with it."""
    try:
        return Feedback.model_validate(
            {
                "message_id": message_id,
                "rating": rating,
                "comment": comment.strip(),
                "created_at": now_iso(),
            }
        )
    except ValidationError as e:
        raise InvalidInput(_first_problem(e)) from e


def check_feedback_target(
    row: Sequence[Any] | None, conversation_id: str, message_id: str, owner: str | None
) -> None:
    """``InvalidInput`` unless the message (``row``: its conversation and owner) is part of this
    conversation and ``owner`` may see it; another user's conversation reads exactly like a wrong id, so
    its existence does not leak."""
    if row is None or row[0] != conversation_id or not _visible(row[1], owner):
        raise InvalidInput(
            f"message {message_id!r} is not part of conversation {conversation_id!r}; "
            "send the conversation_id and message_id of the same answer"
        )


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


def _visible(owner: str | None, principal: str | None) -> bool:
    """The one ownership rule: trusted callers (None) see everything, anyone else only their own."""
    return principal is None or owner == principal


def _identity(path: Path) -> tuple[int, int] | None:
    """The file's (device, inode), or None when it is gone."""
    try:
        stat = os.stat(path)
    except FileNotFoundError:
        return None
    return stat.st_dev, stat.st_ino


def _reason(exc: BaseException) -> str:
    return str(getattr(exc, "strerror", None) or exc) or type(exc).__name__


def title(message: str, limit: int = 80) -> str:
    """A conversation's title in a list: its first message on one line, shortened."""
    line = " ".join(message.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _add_owner_column(db: sqlite3.Connection) -> None:
    columns = {row[1] for row in db.execute("PRAGMA table_info(conversations)")}
    if columns and "owner" not in columns:
        db.execute("ALTER TABLE conversations ADD COLUMN owner TEXT")
    if columns and "state" not in columns:  # files written before turns remembered what they understood
        db.execute("ALTER TABLE conversations ADD COLUMN state TEXT NOT NULL DEFAULT '{}'")


SCHEMA_VERSION = 1


def _migrate(db: sqlite3.Connection) -> None:
    """Bring an older file up to ``SCHEMA_VERSION``, in the caller's transaction."""
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version < 1:
        # owners were bare portal user ids before owners became principals ("user:…", "key:…", "slack:…")
        db.execute("UPDATE conversations SET owner = 'user:' || owner WHERE owner IS NOT NULL")
    if version < SCHEMA_VERSION:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _first_problem(error: ValidationError) -> str:
    problem = error.errors()[0]
    field = ".".join(str(part) for part in problem["loc"])
    if field == "rating":
        return "rating must be 'up' or 'down'"
    if field == "comment":
        return f"comment is too long; the limit is {MAX_COMMENT_CHARS} characters"
    return f"{field}: {problem['msg']}"


class _transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *_: object) -> None:
        if not exc_type:
            self._db.execute("COMMIT")
        elif self._db.in_transaction:  # SQLite may already have rolled back (e.g. after SQLITE_FULL)
            self._db.execute("ROLLBACK")
