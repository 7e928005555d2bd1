"""Signed user tokens: what a portal mints, what the API accepts and what it refuses (and why)."""

from __future__ import annotations

import base64
import json

import jwt
import pytest

from api import user_tokens
from api.user_tokens import InvalidUserToken, mint, verify

SECRET = "portal-secret-0123456789abcdef-xyz"
NOW = 1_800_000_000.0
DAY = 86_400


def test_a_minted_token_names_its_user() -> None:
    token = mint(SECRET, "alice@example.com", ttl_s=600, now=NOW)
    user = verify(token, SECRET, max_ttl_s=DAY, now=NOW + 10)
    assert user.id == "alice@example.com"
    assert user.expires_at == int(NOW) + 600


def test_a_token_from_any_jwt_library_is_accepted() -> None:
    """Portals in other languages use their own JWT library: only the standard claims matter."""
    token = jwt.encode({"sub": "u-42", "aud": "advisor", "exp": int(NOW) + 60}, SECRET, algorithm="HS256")
    assert verify(token, SECRET, max_ttl_s=DAY, now=NOW).id == "u-42"


def test_chinese_user_ids_survive() -> None:
    token = mint(SECRET, "张伟", now=NOW)
    assert verify(token, SECRET, max_ttl_s=DAY, now=NOW).id == "张伟"


def test_an_expired_token_is_refused() -> None:
    token = mint(SECRET, "alice", ttl_s=60, now=NOW)
    verify(token, SECRET, max_ttl_s=DAY, now=NOW + 60 + 29)  # within the 30 s clock-skew leeway
    with pytest.raises(InvalidUserToken, match="expired"):
        verify(token, SECRET, max_ttl_s=DAY, now=NOW + 60 + 31)


def test_a_token_signed_with_another_secret_is_refused() -> None:
    token = mint("another-portal-secret-0123456789abcdef", "alice", now=NOW)
    with pytest.raises(InvalidUserToken, match="signature"):
        verify(token, SECRET, max_ttl_s=DAY, now=NOW)


def test_a_tampered_user_id_is_refused() -> None:
    header, payload, signature = mint(SECRET, "alice", now=NOW).split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    claims["sub"] = "mallory"
    forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    with pytest.raises(InvalidUserToken, match="signature"):
        verify(f"{header}.{forged}.{signature}", SECRET, max_ttl_s=DAY, now=NOW)


def test_an_unsigned_token_is_refused() -> None:
    """alg "none" is the classic JWT forgery: the algorithm is fixed by the server, not the token."""
    token = jwt.encode({"sub": "alice", "aud": "advisor", "exp": int(NOW) + 60}, key=None, algorithm="none")
    with pytest.raises(InvalidUserToken, match="not a valid HS256 JWT"):
        verify(token, SECRET, max_ttl_s=DAY, now=NOW)


@pytest.mark.parametrize(
    ("claims", "reason"),
    [
        ({"aud": "advisor", "exp": int(NOW) + 60}, "no 'sub' claim"),
        ({"sub": "alice", "aud": "advisor"}, "no 'exp' claim"),
        ({"sub": "alice", "exp": int(NOW) + 60}, "no 'aud' claim"),
        ({"sub": "alice", "aud": "billing", "exp": int(NOW) + 60}, "audience"),
        ({"sub": "", "aud": "advisor", "exp": int(NOW) + 60}, "1 to 128 characters"),
        ({"sub": "x" * 129, "aud": "advisor", "exp": int(NOW) + 60}, "1 to 128 characters"),
        ({"sub": "alice", "aud": "advisor", "exp": int(NOW) + 2 * DAY}, "longer than the allowed 86400 s"),
        ({"sub": "alice", "aud": "advisor", "exp": int(NOW) + 600, "nbf": int(NOW) + 300}, "not valid yet"),
        ({"sub": "alice", "aud": "advisor", "exp": int(NOW) + 600, "iat": int(NOW) + 300}, "not valid yet"),
    ],
)
def test_tokens_without_the_needed_claims_are_refused(claims: dict[str, object], reason: str) -> None:
    token = jwt.encode(claims, SECRET, algorithm="HS256")
    with pytest.raises(InvalidUserToken, match=reason):
        verify(token, SECRET, max_ttl_s=DAY, now=NOW)


@pytest.mark.parametrize("garbage", ["", "abc", "a.b.c", "Bearer xyz", "😀.😀.😀"])
def test_garbage_is_refused_with_a_reason(garbage: str) -> None:
    with pytest.raises(InvalidUserToken, match="not a valid HS256 JWT"):
        verify(garbage, SECRET, max_ttl_s=DAY, now=NOW)


def test_short_secrets_are_refused_when_minting() -> None:
    with pytest.raises(ValueError, match="at least 32 bytes"):
        mint("short", "alice")


def test_the_header_and_audience_are_the_documented_ones() -> None:
    assert user_tokens.HEADER == "X-Advisor-User"
    assert user_tokens.AUDIENCE == "advisor"
