"""Signed user tokens over the real app: a portal's users own their conversations, without a key in the page."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from langchain_core.embeddings import Embeddings
from pydantic import SecretStr

from api.app import create_app
from api.user_tokens import HEADER, mint
from assistant.memory import Conversation, ConversationSummary
from assistant.models import Answer
from assistant.service import Assistant
from assistant.settings import Settings
from assistant.wiring import build_assistant
from tests.helpers import ContractClient

pytestmark = pytest.mark.integration

SECRET = "portal-shared-secret-for-tests-0123456789"
QUESTION = "How many H100 GPUs to train a 13B model on 1T tokens in 20 days?"


@pytest.fixture(scope="module")
def assistant(indexed_settings: Settings, use_embeddings: Embeddings) -> Assistant:
    return build_assistant(indexed_settings, use_embeddings)


def _settings(indexed_settings: Settings, **server: Any) -> Settings:
    return indexed_settings.model_copy(
        update={
            "api_keys": ["portal-key", "ops-key:admin"],
            "server": indexed_settings.server.model_copy(
                update={
                    "user_token_secret": SecretStr(SECRET),
                    "cors_origins": ["https://portal.example"],
                    **server,
                }
            ),
        }
    )


@pytest.fixture(scope="module")
def client(indexed_settings: Settings, assistant: Assistant) -> Iterator[TestClient]:
    with ContractClient(create_app(settings=_settings(indexed_settings), assistant=assistant)) as c:
        yield c


def as_user(user: str) -> dict[str, str]:
    return {HEADER: mint(SECRET, user, ttl_s=600)}


def start(client: TestClient, user: str) -> Answer:
    resp = client.post("/v1/chat", json={"message": QUESTION}, headers=as_user(user))
    assert resp.status_code == 200, resp.text
    return Answer.model_validate(resp.json())


def test_a_user_token_alone_is_enough_to_chat_and_owns_the_conversation(
    client: TestClient, assistant: Assistant
) -> None:
    answer = start(client, "alice")
    assert answer.tool_calls
    assert assistant.memory.get(answer.conversation_id).owner == "user:alice"

    resp = client.get(f"/v1/conversations/{answer.conversation_id}", headers=as_user("alice"))
    assert resp.status_code == 200
    assert Conversation.model_validate(resp.json()).turns[0].message_id == answer.message_id


def test_another_user_cannot_read_continue_or_rate_it(client: TestClient) -> None:
    answer = start(client, "alice")
    bob = as_user("bob")
    conversation = f"/v1/conversations/{answer.conversation_id}"

    assert client.get(conversation, headers=bob).status_code == 404
    assert client.get(conversation, headers={"X-API-Key": "portal-key"}).status_code == 404
    for stream in (False, True):
        resp = client.post(
            "/v1/chat",
            json={"message": "换成A100呢？", "conversation_id": answer.conversation_id, "stream": stream},
            headers=bob,
        )
        assert resp.status_code == 404, resp.text  # a status, not an SSE error, even when streaming
        assert resp.json()["error"]["code"] == "not_found"
    resp = client.post(
        "/v1/feedback",
        json={"conversation_id": answer.conversation_id, "message_id": answer.message_id, "rating": "down"},
        headers=bob,
    )
    assert resp.status_code == 422
    assert "is not part of conversation" in resp.json()["error"]["message"]


def test_an_admin_key_reads_any_conversation(client: TestClient) -> None:
    answer = start(client, "alice")
    resp = client.get(f"/v1/conversations/{answer.conversation_id}", headers={"X-API-Key": "ops-key"})
    assert resp.status_code == 200
    assert Conversation.model_validate(resp.json()).owner == "user:alice"


def test_the_owner_continues_rates_and_lists_their_conversations(client: TestClient) -> None:
    carol = f"carol-{uuid.uuid4().hex[:8]}"  # the store is shared with other tests: a user of her own
    first = start(client, carol)
    resp = client.post(
        "/v1/chat",
        json={"message": "换成A100呢？", "conversation_id": first.conversation_id},
        headers=as_user(carol),
    )
    assert resp.status_code == 200
    follow_up = Answer.model_validate(resp.json())
    assert follow_up.conversation_id == first.conversation_id
    assert follow_up.tool_calls[0].input["params_b"] == 13  # slots carried over within carol's conversation

    resp = client.post(
        "/v1/feedback",
        json={
            "conversation_id": first.conversation_id,
            "message_id": follow_up.message_id,
            "rating": "down",
            "comment": "想看 H200 的对比",
        },
        headers=as_user(carol),
    )
    assert resp.status_code == 204
    stored = Conversation.model_validate(
        client.get(f"/v1/conversations/{first.conversation_id}", headers=as_user(carol)).json()
    )
    assert stored.turns[1].feedback is not None
    assert stored.turns[1].feedback.comment == "想看 H200 的对比"

    resp = client.get("/v1/conversations", headers=as_user(carol))
    assert resp.status_code == 200
    listed = [ConversationSummary.model_validate(item) for item in resp.json()]
    assert [(c.id, c.turns, c.title) for c in listed] == [(first.conversation_id, 2, QUESTION)]
    assert client.get("/v1/conversations", headers=as_user(f"nobody-{uuid.uuid4().hex[:8]}")).json() == []


def test_listing_needs_a_user_token(client: TestClient) -> None:
    resp = client.get("/v1/conversations", headers={"X-API-Key": "portal-key"})
    assert resp.status_code == 422
    assert HEADER in resp.json()["error"]["message"]


def test_the_openai_endpoint_ties_conversations_to_the_user_too(
    client: TestClient, assistant: Assistant
) -> None:
    resp = client.post(
        "/v1/chat/completions",
        json={"model": "advisor", "messages": [{"role": "user", "content": QUESTION}]},
        headers=as_user("dave"),
    )
    assert resp.status_code == 200
    assert assistant.memory.get(resp.json()["conversation_id"]).owner == "user:dave"


def test_a_user_token_is_a_chat_credential_never_an_admin_one(client: TestClient) -> None:
    resp = client.get("/v1/documents", headers=as_user("alice"))
    assert resp.status_code == 403


@pytest.mark.parametrize(
    ("token", "reason"),
    [
        (mint(SECRET, "alice", ttl_s=60, now=1_000_000_000), "expired"),
        (mint("some-other-portal-secret-0123456789abc", "alice"), "signature"),
        ("not-a-token", "not a valid HS256 JWT"),
    ],
)
def test_a_bad_token_is_a_401_with_the_reason(client: TestClient, token: str, reason: str) -> None:
    resp = client.post("/v1/chat", json={"message": QUESTION}, headers={HEADER: token})
    assert resp.status_code == 401
    assert reason in resp.json()["error"]["message"]


def test_a_bad_token_is_refused_even_with_a_good_key(client: TestClient) -> None:
    """A token is never silently ignored: the portal would otherwise mix its users' conversations."""
    headers = {"X-API-Key": "portal-key", HEADER: "not-a-token"}
    assert client.post("/v1/chat", json={"message": QUESTION}, headers=headers).status_code == 401


def test_tokens_are_refused_when_no_secret_is_configured(
    indexed_settings: Settings, assistant: Assistant
) -> None:
    with ContractClient(create_app(settings=indexed_settings, assistant=assistant)) as open_client:
        resp = open_client.post("/v1/chat", json={"message": QUESTION}, headers=as_user("alice"))
    assert resp.status_code == 401
    assert "not enabled" in resp.json()["error"]["message"]


def test_browsers_may_send_the_token_header(client: TestClient) -> None:
    resp = client.options(
        "/v1/chat",
        headers={
            "Origin": "https://portal.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": f"content-type,{HEADER.lower()}",
        },
    )
    assert resp.status_code == 200
    assert HEADER.lower() in resp.headers["access-control-allow-headers"].lower()


def test_openapi_documents_the_token_as_a_security_scheme(client: TestClient) -> None:
    schemes = client.get("/openapi.json").json()["components"]["securitySchemes"]
    assert any(s.get("name") == HEADER for s in schemes.values())
