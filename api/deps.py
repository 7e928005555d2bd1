"""Dependencies the routes declare: the assistant, the catalog, settings, the caller and checked bodies."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Annotated, Literal

from fastapi import Depends, HTTPException, Request
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from api import user_tokens
from api.schemas import ChatRequest
from assistant.errors import InvalidInput, NotReady
from assistant.library import DocumentLibrary
from assistant.memory import key_principal, user_principal
from assistant.service import Assistant
from assistant.settings import Settings
from knowledge.catalog import Catalog

ADMIN_SUFFIX = ":admin"


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_assistant(request: Request) -> Assistant:
    assistant: Assistant | None = getattr(request.app.state, "assistant", None)
    if assistant is None:
        raise NotReady("the assistant is still starting; try again in a few seconds")
    return assistant


def get_catalog(request: Request) -> Catalog:
    catalog: Catalog | None = getattr(request.app.state, "catalog", None)
    if catalog is None:
        raise NotReady("the hardware catalog is still loading; try again in a few seconds")
    return catalog


def get_library(request: Request) -> DocumentLibrary:
    library: DocumentLibrary | None = getattr(request.app.state, "library", None)
    if library is None:
        raise NotReady("document administration is still starting; try again in a few seconds")
    return library


SettingsDep = Annotated[Settings, Depends(get_settings)]
LibraryDep = Annotated[DocumentLibrary, Depends(get_library)]
AssistantDep = Annotated[Assistant, Depends(get_assistant)]
CatalogDep = Annotated[Catalog, Depends(get_catalog)]


@dataclass(frozen=True)
class Caller:
    """Who is calling: ``anonymous`` when no keys are configured (localhost only), else the key's role;
    ``user`` is the portal user named by a verified signed user token (``X-Advisor-User``)."""

    role: Literal["anonymous", "user", "admin"]
    user: str | None = None
    key_id: str | None = field(default=None, repr=False)

    @property
    def principal(self) -> str | None:
        """Whose conversations this caller reads and starts (see ``assistant.memory``): an admin key and
        the open API on localhost are trusted (None); a signed-in user is themselves; a chat key is its own."""
        if self.role == "admin":
            return None
        if self.user is not None:
            return user_principal(self.user)
        if self.role == "user" and self.key_id:
            return key_principal(self.key_id)
        return None


def key_fingerprint(key: str) -> str:
    """A short, stable name for an API key that does not reveal it (conversation owners store this)."""
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def parse_keys(keys: list[str]) -> dict[str, Literal["user", "admin"]]:
    """``["k1", "k2:admin"]`` -> ``{"k1": "user", "k2": "admin"}``."""
    roles: dict[str, Literal["user", "admin"]] = {}
    for key in keys:
        if key.endswith(ADMIN_SUFFIX):
            roles[key.removesuffix(ADMIN_SUFFIX)] = "admin"
        elif key:
            roles[key] = "user"
    return roles


# declared as security schemes so /docs offers "Authorize"; auto_error=False because keys are optional
bearer_key = HTTPBearer(auto_error=False, description="An API key from ADVISOR_API_KEYS.")
api_key_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="The same key, as a header.")
_user_token_header = APIKeyHeader(
    name=user_tokens.HEADER,
    auto_error=False,
    description=(
        "A signed user token (HS256 JWT: sub, aud 'advisor', exp) minted by a portal with "
        "server.user_token_secret; it ties conversations to that user and stands in for a chat key."
    ),
)


def authenticate(
    settings: SettingsDep,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer_key)],
    header_key: Annotated[str | None, Depends(api_key_header)],
    user_token: Annotated[str | None, Depends(_user_token_header)],
) -> Caller:
    """With ADVISOR_API_KEYS set, require ``Authorization: Bearer <key>``, ``X-API-Key: <key>`` or a
    valid signed user token (chat role: a widget page carries the token, never a shared key)."""
    user = _verified_user(user_token, settings)
    roles = parse_keys(settings.api_keys)
    if not roles:
        return Caller(role="anonymous", user=user)
    presented = bearer.credentials if bearer else header_key
    if presented:
        for key, role in roles.items():
            if hmac.compare_digest(presented.encode(), key.encode()):
                return Caller(role=role, user=user, key_id=key_fingerprint(key))
    if user is not None and not presented:
        return Caller(role="user", user=user)
    raise HTTPException(
        status_code=401,
        detail=(
            "missing or invalid API key: send 'Authorization: Bearer <key>', 'X-API-Key: <key>' "
            f"or a signed user token in {user_tokens.HEADER}"
        ),
        headers={"WWW-Authenticate": "Bearer"},
    )


def _verified_user(token: str | None, settings: Settings) -> str | None:
    """The user id of a valid ``X-Advisor-User`` token; 401 for a bad one (never silently ignored)."""
    if token is None:
        return None
    secret = settings.server.user_token_secret
    if secret is None:
        raise HTTPException(
            status_code=401,
            detail=f"{user_tokens.HEADER} was sent but user tokens are not enabled (server.user_token_secret)",
        )
    try:
        verified = user_tokens.verify(
            token, secret.get_secret_value(), max_ttl_s=settings.server.user_token_max_ttl_s
        )
    except user_tokens.InvalidUserToken as e:
        raise HTTPException(status_code=401, detail=str(e)) from e
    return verified.id


CallerDep = Annotated[Caller, Depends(authenticate)]


def require_admin(caller: CallerDep) -> Caller:
    """Admin-only routes: an ``:admin`` key, or anyone when the API is open on localhost."""
    if caller.role == "user":
        raise HTTPException(status_code=403, detail="this route needs an admin API key")
    return caller


AdminDep = Annotated[Caller, Depends(require_admin)]


def check_message_length(message: str, settings: Settings) -> None:
    """``InvalidInput`` (422) when a message is longer than ``server.max_message_chars``."""
    limit = settings.server.max_message_chars
    if len(message.strip()) > limit:
        raise InvalidInput(f"message: {len(message.strip())} characters; the limit is {limit}")


def checked_chat_request(body: ChatRequest, settings: SettingsDep) -> ChatRequest:
    """The chat body, with the message length limit from settings applied."""
    check_message_length(body.message, settings)
    return body


ChatRequestDep = Annotated[ChatRequest, Depends(checked_chat_request)]
