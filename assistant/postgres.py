"""Conversations in PostgreSQL, shared by every API replica (``ADVISOR_DATABASE__URL``).

The same ``ConversationStore`` as the SQLite file, with the same rules (``assistant.memory``): a turn
and the conversation's slots are written in one transaction, so a replica killed mid-request leaves
either the whole turn or nothing; a conversation started on one replica continues on any other.

Connections come from a pool that checks each one before lending it, so a server restart costs the
requests made while it is down (``StorageError``, answered 503) and nothing after it: the pool
reconnects by itself. The schema is created and upgraded at start by numbered migrations, under an
advisory lock, so replicas starting together migrate once.
"""

from __future__ import annotations

import json
import logging
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import ConnectionPool, PoolTimeout

from assistant.errors import StorageError
from assistant.memory import (
    FEEDBACK_TARGET,
    FEEDBACK_UPSERT,
    Conversation,
    ConversationSummary,
    Feedback,
    check_feedback_target,
    conversation_from,
    got,
    loaded,
    new_feedback,
    title,
)
from assistant.models import Answer

logger = logging.getLogger(__name__)

# (version, statements): applied in order, each in its own transaction, and recorded in schema_migrations.
# Append new versions; never edit one that has shipped.
MIGRATIONS: tuple[tuple[int, str], ...] = (
    (
        1,
        """
        CREATE TABLE conversations (
            id text PRIMARY KEY,
            seq bigserial NOT NULL,
            owner text,
            slots jsonb NOT NULL,
            tools jsonb NOT NULL,
            state jsonb NOT NULL DEFAULT '{}',
            created_at timestamptz NOT NULL,
            updated_at timestamptz NOT NULL
        );
        CREATE INDEX conversations_by_owner ON conversations (owner, updated_at DESC, seq DESC);
        CREATE TABLE turns (
            message_id text PRIMARY KEY,
            seq bigserial NOT NULL,
            conversation_id text NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            message text NOT NULL,
            answer jsonb NOT NULL,
            created_at timestamptz NOT NULL
        );
        CREATE INDEX turns_by_conversation ON turns (conversation_id, created_at DESC, seq DESC);
        CREATE TABLE feedback (
            message_id text PRIMARY KEY REFERENCES turns (message_id) ON DELETE CASCADE,
            conversation_id text NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            rating text NOT NULL CHECK (rating IN ('up', 'down')),
            comment text NOT NULL,
            created_at timestamptz NOT NULL
        );
        CREATE TABLE probe (at timestamptz NOT NULL, room bytea NOT NULL);
        """,
    ),
    (
        2,
        """
        CREATE TABLE uploads (
            name text PRIMARY KEY,
            data bytea NOT NULL,
            sha256 text NOT NULL,
            uploaded_at timestamptz NOT NULL
        );
        """,
    ),
)
SCHEMA_VERSION = MIGRATIONS[-1][0]
_LOCK = 0x61647669736F72  # pg_advisory_xact_lock key for migrations: "advisor" in ASCII
_UPLOADS_LOCK = _LOCK + 1  # and for changes to the uploaded documents

_TURNS = (
    "SELECT t.message_id, t.message, t.answer::text, t.created_at, f.rating, f.comment, f.created_at "
    "FROM turns t LEFT JOIN feedback f ON f.message_id = t.message_id "
    "WHERE t.conversation_id = %s ORDER BY t.created_at DESC, t.seq DESC LIMIT %s"
)
_CONVERSATION = "SELECT slots::text, tools::text, owner, state::text FROM conversations WHERE id = %s"


class PostgresStore:
    """Conversations in a PostgreSQL database; see the module's docstring."""

    def __init__(self, url: str, *, history: int = 20, pool_size: int = 10, timeout_s: float = 5.0) -> None:
        self._url = url
        self._where = describe(url)
        self._history = history
        self._pool_size = pool_size
        self._timeout_s = timeout_s
        self._lock = threading.Lock()
        self._pool: ConnectionPool | None = None
        try:
            with self._opened().connection() as db:
                migrate(db)
        except (psycopg.Error, PoolTimeout, OSError) as exc:
            self.close()
            raise StorageError(
                f"cannot open the conversation database {self._where}: {_reason(exc)}"
            ) from exc

    # connections -----------------------------------------------------------------------------

    def _opened(self) -> ConnectionPool:
        """The pool, opened on first use (and again after ``close``)."""
        with self._lock:
            if self._pool is None:
                pool = ConnectionPool(
                    self._url,
                    min_size=1,
                    max_size=self._pool_size,
                    timeout=self._timeout_s,
                    # a connection the server dropped (a restart) is replaced before it is lent
                    check=ConnectionPool.check_connection,
                    kwargs={"autocommit": True, "connect_timeout": max(1, round(self._timeout_s))},
                    name="advisor-conversations",
                    open=False,
                )
                pool.open(wait=False)
                self._pool = pool
            return self._pool

    @contextmanager
    def _connection(self, action: str = "stored") -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection; a server that is down or refuses becomes ``StorageError`` (503). An integrity
        error is a bug and stays what it is."""
        try:
            with self._opened().connection() as db:
                yield db
        except psycopg.IntegrityError:
            raise
        except (psycopg.Error, PoolTimeout, OSError) as exc:
            logger.error(
                "conversation database %s: conversations could not be %s: %s", self._where, action, exc
            )
            raise StorageError(
                f"conversations cannot be {action} right now ({_reason(exc)}); try again later"
            ) from exc

    def uploads(self) -> PostgresUploads:
        """The uploaded documents, in this database."""
        return PostgresUploads(self)

    def close(self) -> None:
        """Close the pool's connections (at shutdown); a later use opens a new pool."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()

    def check(self) -> None:
        """Read, and write as much as a turn needs, then roll back (``/readyz``)."""
        with self._connection() as db, db.transaction(force_rollback=True):
            db.execute("SELECT count(*) FROM conversations")
            db.execute("INSERT INTO probe (at, room) VALUES (now(), %s)", (bytes(16384),))

    # the store -------------------------------------------------------------------------------

    def load(
        self, conversation_id: str | None, *, owner: str | None = None, start: bool = False
    ) -> Conversation:
        """See ``assistant.memory.ConversationStore.load``: a new one (an unguessable id) for ``None``."""
        if not conversation_id:
            return Conversation(id=uuid.uuid4().hex, owner=owner)
        return loaded(self._read(conversation_id, self._history), conversation_id, owner=owner, start=start)

    def get(self, conversation_id: str, *, owner: str | None = None) -> Conversation:
        """The stored conversation with all its turns and their feedback."""
        return got(self._read(conversation_id, None), conversation_id, owner)  # LIMIT NULL: no limit

    def _read(self, conversation_id: str, limit: int | None) -> Conversation | None:
        with self._connection("read") as db:
            row = db.execute(_CONVERSATION, (conversation_id,)).fetchone()
            if row is None:
                return None
            turns = db.execute(_TURNS, (conversation_id, limit)).fetchall()
        return conversation_from(
            conversation_id,
            row,
            [(*turn[:3], _iso(turn[3]), turn[4], turn[5], _iso(turn[6])) for turn in turns],
        )

    def save_turn(self, conversation: Conversation, message: str, answer: Answer) -> None:
        """Store the turn and the conversation's slots in one transaction."""
        now = datetime.now(UTC)
        with self._connection() as db, db.transaction():
            db.execute(
                "INSERT INTO conversations (id, slots, tools, state, created_at, updated_at, owner) "
                "VALUES (%s, %s::jsonb, %s::jsonb, %s::jsonb, %s, %s, %s) "
                "ON CONFLICT (id) DO UPDATE SET slots = excluded.slots, tools = excluded.tools, "
                "state = excluded.state, updated_at = excluded.updated_at",  # the owner is set by the first turn
                (
                    conversation.id,
                    conversation.slots.model_dump_json(),
                    json.dumps(conversation.tools),
                    json.dumps(conversation.state),
                    now,
                    now,
                    conversation.owner,
                ),
            )
            db.execute(
                "INSERT INTO turns (message_id, conversation_id, message, answer, created_at) "
                "VALUES (%s, %s, %s, %s::jsonb, %s)",
                (answer.message_id, conversation.id, message, answer.model_dump_json(), now),
            )

    def list_for(self, owner: str, *, limit: int = 50) -> list[ConversationSummary]:
        """The principal's own conversations, most recently updated first."""
        with self._connection("read") as db:
            rows = db.execute(
                "SELECT c.id, c.created_at, c.updated_at, "
                "(SELECT count(*) FROM turns n WHERE n.conversation_id = c.id), "
                "(SELECT message FROM turns f WHERE f.conversation_id = c.id ORDER BY f.created_at, f.seq LIMIT 1) "
                "FROM conversations c WHERE c.owner = %s ORDER BY c.updated_at DESC, c.seq DESC LIMIT %s",
                (owner, limit),
            ).fetchall()
        return [
            ConversationSummary(
                id=i, title=title(first or ""), turns=n, created_at=_iso(created), updated_at=_iso(updated)
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
        """Record a vote on one answer of the conversation, replacing an earlier vote on it."""
        feedback = new_feedback(message_id, rating, comment)
        with self._connection() as db, db.transaction():
            row = db.execute(FEEDBACK_TARGET.format("%s"), (message_id,)).fetchone()
            check_feedback_target(row, conversation_id, message_id, owner)
            db.execute(
                FEEDBACK_UPSERT.format(p="%s"),
                (
                    message_id,
                    conversation_id,
                    feedback.rating,
                    feedback.comment,
                    datetime.fromisoformat(feedback.created_at),
                ),
            )
        return feedback


class PostgresUploads:
    """The documents uploaded through the API, kept in the database so that every replica (and an
    ``advisor ingest`` job) indexes the same files; see ``assistant.library.SharedUploads``."""

    def __init__(self, store: PostgresStore) -> None:
        self._store = store

    @contextmanager
    def change(self) -> Iterator[_UploadChange]:
        """One change at a time across replicas (an advisory lock held by its transaction); what the block
        writes commits when it ends without an error, else nothing of it is kept."""
        with self._store._connection() as db, db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (_UPLOADS_LOCK,))
            yield _UploadChange(db)

    def listing(self) -> dict[str, str]:
        """Each uploaded document's name and SHA-256, without taking the lock."""
        with self._store._connection("read") as db:
            return _listing(db)


class _UploadChange:
    def __init__(self, db: psycopg.Connection[Any]) -> None:
        self._db = db

    def listing(self) -> dict[str, str]:
        return _listing(self._db)

    def read(self, name: str) -> bytes:
        row = self._db.execute("SELECT data FROM uploads WHERE name = %s", (name,)).fetchone()
        if row is None:
            raise KeyError(name)
        return bytes(row[0])

    def put(self, name: str, data: bytes, digest: str) -> None:
        self._db.execute(
            "INSERT INTO uploads (name, data, sha256, uploaded_at) VALUES (%s, %s, %s, now()) "
            "ON CONFLICT (name) DO UPDATE SET data = excluded.data, sha256 = excluded.sha256, "
            "uploaded_at = excluded.uploaded_at",
            (name, data, digest),
        )

    def delete(self, name: str) -> None:
        self._db.execute("DELETE FROM uploads WHERE name = %s", (name,))


def _listing(db: psycopg.Connection[Any]) -> dict[str, str]:
    return {str(name): str(digest) for name, digest in db.execute("SELECT name, sha256 FROM uploads")}


def migrate(db: psycopg.Connection[Any]) -> int:
    """Apply the migrations this database has not had, each in its own transaction, one replica at a time;
    the schema version reached."""
    with db.transaction():
        # the lock first: two replicas creating the table at once would collide even with IF NOT EXISTS
        db.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
        db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations "
            "(version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
        )
    for version, statements in MIGRATIONS:
        with db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
            if db.execute("SELECT 1 FROM schema_migrations WHERE version = %s", (version,)).fetchone():
                continue
            db.execute(sql.SQL(statements))  # our own literal: several statements in one
            db.execute("INSERT INTO schema_migrations (version) VALUES (%s)", (version,))
            logger.info("conversation database: schema migrated to version %s", version)
    newest = db.execute("SELECT max(version) FROM schema_migrations").fetchone()
    return int(newest[0]) if newest else 0


def describe(url: str) -> str:
    """The database as logs and errors may name it: host, port and database, never the password."""
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "(an unreadable PostgreSQL URL)"
    user = f"{parts['user']}@" if parts.get("user") else ""
    return f"postgresql://{user}{parts.get('host', 'localhost')}:{parts.get('port', 5432)}/{parts.get('dbname', '')}"


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(UTC).isoformat()


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
