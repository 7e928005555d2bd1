"""Signed user tokens: how a portal tells the API which of its users is chatting, without a key in the page.

The portal's server mints a short-lived JWT (HS256, shared secret ``server.user_token_secret``) with
``sub`` (its user id), ``aud`` ``"advisor"`` and ``exp``, and puts it in the page
(``<script src=".../widget.js" data-user-token="...">``). The widget sends it as ``X-Advisor-User``;
the API verifies it and stores the user as the owner of the conversations it starts, so one user
cannot read or continue another's. Any JWT library in any language can mint one; so can
``advisor user-token USER``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import jwt

HEADER = "X-Advisor-User"
AUDIENCE = "advisor"
ALGORITHM = "HS256"  # the only one accepted: no "none", no algorithm chosen by the token
MIN_SECRET_BYTES = 32  # RFC 7518 §3.2: an HS256 key is at least as long as the hash
MAX_SUBJECT_CHARS = 128


class InvalidUserToken(ValueError):
    """The token is malformed, forged, expired or lives too long; the message says which."""


@dataclass(frozen=True)
class User:
    """The verified user: the portal's id for them, and when the token expires (Unix seconds)."""

    id: str
    expires_at: int


def mint(secret: str, user_id: str, *, ttl_s: int = 3600, now: float | None = None) -> str:
    """A token for ``user_id`` valid for ``ttl_s`` seconds (what a portal's server does per page view)."""
    _check_subject(user_id)
    if ttl_s <= 0:
        raise ValueError("ttl_s must be positive")
    issued = int(time.time() if now is None else now)
    claims = {"sub": user_id, "aud": AUDIENCE, "iat": issued, "exp": issued + ttl_s}
    return jwt.encode(claims, _key(secret), algorithm=ALGORITHM)


def verify(token: str, secret: str, *, max_ttl_s: int, now: float | None = None, leeway_s: int = 30) -> User:
    """The user a token names; ``InvalidUserToken`` unless it is signed with ``secret``, for this audience,
    unexpired, and expires within ``max_ttl_s`` (so a leaked token cannot be used for months)."""
    at = time.time() if now is None else now
    try:
        claims = jwt.decode(
            token,
            _key(secret),
            algorithms=[ALGORITHM],
            audience=AUDIENCE,
            leeway=leeway_s,
            # times are checked below against ``at``, so tests can pass the clock
            options={
                "require": ["sub", "exp", "aud"],
                "verify_exp": False,
                "verify_iat": False,
                "verify_nbf": False,
            },
        )
    except jwt.InvalidAudienceError as e:
        raise InvalidUserToken(f"the user token's audience ('aud') must be {AUDIENCE!r}") from e
    except jwt.MissingRequiredClaimError as e:
        raise InvalidUserToken(f"the user token has no {e.claim!r} claim") from e
    except jwt.InvalidSignatureError as e:
        raise InvalidUserToken("the user token's signature does not match the configured secret") from e
    except jwt.PyJWTError as e:
        raise InvalidUserToken(f"the user token is not a valid HS256 JWT ({e})") from e
    expires_at = claims["exp"]
    if not isinstance(expires_at, int):
        raise InvalidUserToken("the user token's 'exp' must be whole Unix seconds")
    if expires_at + leeway_s < at:
        raise InvalidUserToken("the user token has expired; the page must fetch a new one")
    not_before = claims.get("nbf", claims.get("iat", at))
    if not isinstance(not_before, int | float) or not_before - leeway_s > at:
        raise InvalidUserToken("the user token is not valid yet ('nbf' or 'iat' is in the future)")
    if expires_at - at > max_ttl_s + leeway_s:
        raise InvalidUserToken(f"the user token is valid for longer than the allowed {max_ttl_s} s")
    subject = claims["sub"]
    if not isinstance(subject, str):
        raise InvalidUserToken("the user token's 'sub' must be a string")
    try:
        _check_subject(subject)
    except ValueError as e:
        raise InvalidUserToken(str(e)) from e
    return User(id=subject, expires_at=expires_at)


def _check_subject(user_id: str) -> None:
    if not user_id.strip() or len(user_id) > MAX_SUBJECT_CHARS:
        raise ValueError(f"the user id must be 1 to {MAX_SUBJECT_CHARS} characters")


def _key(secret: str) -> bytes:
    key = secret.encode()
    if len(key) < MIN_SECRET_BYTES:
        raise ValueError(f"the user token secret must be at least {MIN_SECRET_BYTES} bytes")
    return key
