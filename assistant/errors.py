"""One error hierarchy; the API maps each family to one HTTP status, the CLI to one line."""

from __future__ import annotations


class AdvisorError(Exception):
    """Base of every error the service reports to a user."""


class InvalidInput(AdvisorError):
    """The request cannot be served as given (bad value, unknown name, unsupported file)."""


class NotReady(AdvisorError):
    """A component the request needs is not available yet (no index, model not loaded)."""


class ProviderError(AdvisorError):
    """A configured provider (embedding model, LLM, vector store) failed or is misconfigured."""


class StorageError(AdvisorError):
    """Storage the request needs (the conversation database, the uploads folder) failed: full, missing,
    read-only or corrupt. Nothing half-written is left behind; the request may be retried later."""


class NotFound(AdvisorError):
    """The request names something that does not exist (an unknown conversation id)."""


class Conflict(AdvisorError):
    """The request contradicts the state of a resource (e.g. deleting a packaged document)."""


class UnsupportedMedia(InvalidInput):
    """A file type the knowledge base cannot read."""


class TooLarge(InvalidInput):
    """A body or file over the configured size limit."""
