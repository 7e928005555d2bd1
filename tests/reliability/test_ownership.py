"""Defect 5 of the pre-ship probe: conversations without an owner (Slack threads, OpenAI-endpoint
conversations keyed by ``user``) could be read and continued with any credential, and a client could
choose (so guess) conversation ids. Every conversation now belongs to the principal that started it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from langchain_core.embeddings import Embeddings
from pydantic import SecretStr

from api.app import create_app
from api.user_tokens import mint
from assistant.memory import slack_principal
from assistant.service import Assistant
from assistant.settings import Settings
from assistant.wiring import build_assistant
from tests.helpers import ContractClient

pytestmark = pytest.mark.integration

SECRET = "a-portal-secret-of-at-least-32-characters"
KEY_A = {"Authorization": "Bearer chat-key-a"}
KEY_B = {"Authorization": "Bearer chat-key-b"}
ADMIN = {"Authorization": "Bearer admin-key"}
QUESTION = "How much host RAM does an 8-GPU training server need?"


@pytest.fixture(scope="module")
def assistant(indexed_settings: Settings, use_embeddings: Embeddings) -> Assistant:
    return build_assistant(indexed_settings, use_embeddings)


@pytest.fixture(scope="module")
def client(indexed_settings: Settings, assistant: Assistant) -> Iterator[TestClient]:
    settings = indexed_settings.model_copy(
        update={
            "api_keys": ["chat-key-a", "chat-key-b", "admin-key:admin"],
            "server": indexed_settings.server.model_copy(
                update={"user_token_secret": SecretStr(SECRET), "rate_limit_per_minute": 0}
            ),
        }
    )
    with ContractClient(create_app(settings=settings, assistant=assistant)) as c:
        yield c


def _completion(client: TestClient, headers: dict[str, str], **extra: object) -> str:
    resp = client.post(
        "/v1/chat/completions",
        headers=headers,
        json={"model": "advisor", "messages": [{"role": "user", "content": QUESTION}], **extra},
    )
    assert resp.status_code == 200, resp.text
    conversation_id: str = resp.json()["conversation_id"]
    return conversation_id


def test_a_slack_thread_is_not_readable_or_continuable_over_http(
    client: TestClient, assistant: Assistant
) -> None:
    thread = "slack:T0001:D0001:1700000000.000100"
    assistant.ask(QUESTION, conversation_id=thread, owner=slack_principal("T0001", "D0001"), start=True)
    user = {"X-Advisor-User": mint(SECRET, "mallory")}
    for headers in (KEY_A, user):
        assert client.get(f"/v1/conversations/{thread}", headers=headers).status_code == 404
        resp = client.post(
            "/v1/chat", headers=headers, json={"message": "and 16 GPUs?", "conversation_id": thread}
        )
        assert resp.status_code == 404, resp.text
    assert client.get(f"/v1/conversations/{thread}", headers=ADMIN).status_code == 200
    assert len(assistant.memory.get(thread).turns) == 1  # nothing was added by the strangers


def test_the_same_openai_user_string_from_another_key_is_another_conversation(client: TestClient) -> None:
    mine = _completion(client, KEY_A, user="bob")
    assert _completion(client, KEY_A, user="bob") == mine  # the same caller continues it
    theirs = _completion(client, KEY_B, user="bob")
    assert theirs != mine
    assert client.get(f"/v1/conversations/{mine}", headers=KEY_B).status_code == 404
    assert client.get(f"/v1/conversations/{mine}", headers=KEY_A).status_code == 200
    resp = client.post(
        "/v1/chat/completions",
        headers=KEY_B,
        json={
            "messages": [{"role": "user", "content": "and 16 GPUs?"}],
            "metadata": {"conversation_id": mine},
        },
    )
    assert resp.status_code == 404


def test_a_chat_keys_conversation_is_its_own(client: TestClient) -> None:
    resp = client.post("/v1/chat", headers=KEY_A, json={"message": QUESTION})
    conversation_id = resp.json()["conversation_id"]
    assert client.get(f"/v1/conversations/{conversation_id}", headers=KEY_B).status_code == 404
    resp = client.post(
        "/v1/chat", headers=KEY_B, json={"message": "and 16?", "conversation_id": conversation_id}
    )
    assert resp.status_code == 404
    resp = client.post(
        "/v1/chat", headers=KEY_A, json={"message": "and 16?", "conversation_id": conversation_id}
    )
    assert resp.status_code == 200


def test_a_client_cannot_choose_a_conversation_id(client: TestClient) -> None:
    resp = client.post("/v1/chat", headers=KEY_A, json={"message": QUESTION, "conversation_id": "my-own-id"})
    assert resp.status_code == 404
    assert "omit conversation_id to start a new one" in resp.json()["error"]["message"]


def test_the_openai_conversation_id_is_bounded_like_the_chat_one(client: TestClient) -> None:
    """Defect 7: 50,000 characters of metadata.conversation_id were accepted (/v1/chat caps at 128)."""
    resp = client.post(
        "/v1/chat/completions",
        headers=KEY_A,
        json={
            "messages": [{"role": "user", "content": QUESTION}],
            "metadata": {"conversation_id": "x" * 50_000},
        },
    )
    assert resp.status_code == 422
    assert "conversation_id" in resp.json()["error"]["message"]
