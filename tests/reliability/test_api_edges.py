"""Defects 7 and 10 of the pre-ship probe at the API's edges: lone surrogates, booleans that were not
booleans, 413 messages naming the wrong limit, /metrics open with keys configured, and metrics that were
never recorded."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from langchain_core.embeddings import Embeddings

from api.app import create_app
from assistant.service import Assistant
from assistant.settings import Settings
from assistant.wiring import build_assistant
from tests.helpers import ContractClient

pytestmark = pytest.mark.integration

CHAT = {"Authorization": "Bearer chat-key"}
QUESTION = "How long to train a 13B model on 1T tokens with 64 H100s?"


@pytest.fixture(scope="module")
def assistant(indexed_settings: Settings, use_embeddings: Embeddings) -> Assistant:
    return build_assistant(indexed_settings, use_embeddings)


def _client(settings: Settings, assistant: Assistant, **server: object) -> TestClient:
    settings = settings.model_copy(
        update={
            "api_keys": ["chat-key", "admin-key:admin"],
            "server": settings.server.model_copy(update=server),
        }
    )
    return ContractClient(create_app(settings=settings, assistant=assistant))


@pytest.fixture(scope="module")
def client(indexed_settings: Settings, assistant: Assistant) -> Iterator[TestClient]:
    with _client(indexed_settings, assistant, rate_limit_per_minute=0) as c:
        yield c


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/chat", '{"message": "hi \\ud800 there"}'),
        ("/v1/chat/completions", '{"messages": [{"role": "user", "content": "hi \\ud800 there"}]}'),
        (
            "/v1/chat/completions",
            '{"messages": [{"role": "user", "content": [{"type": "text", "text": "\\udc00"}]}]}',
        ),
    ],
)
def test_lone_surrogates_are_a_422_on_every_chat_route(client: TestClient, path: str, body: str) -> None:
    resp = client.post(path, content=body, headers={**CHAT, "Content-Type": "application/json"})
    assert resp.status_code == 422, resp.text


@pytest.mark.parametrize("value", [0, 1, "yes", "true", "false", None])
@pytest.mark.parametrize("path", ["/v1/chat", "/v1/chat/completions"])
def test_stream_must_be_a_json_boolean(client: TestClient, path: str, value: object) -> None:
    body = (
        {"message": QUESTION} if path == "/v1/chat" else {"messages": [{"role": "user", "content": QUESTION}]}
    )
    resp = client.post(path, headers=CHAT, json={**body, "stream": value})
    assert resp.status_code == 422, resp.text
    assert "stream" in resp.json()["error"]["message"]


def test_a_413_names_the_limit_of_its_own_route(indexed_settings: Settings, assistant: Assistant) -> None:
    with _client(indexed_settings, assistant, max_body_bytes=2048, max_upload_bytes=4096) as c:
        chat = c.post("/v1/chat", headers=CHAT, json={"message": "x" * 3000})
        upload = c.post(
            "/v1/documents",
            headers={"Authorization": "Bearer admin-key"},
            files={"file": ("a.md", b"x" * 80_000)},
        )
    assert chat.status_code == 413
    assert "larger than 2048 bytes (the server.max_body_bytes limit)" in chat.json()["error"]["message"]
    assert upload.status_code == 413
    assert "server.max_upload_bytes" in upload.json()["error"]["message"]
    assert "2048" not in upload.json()["error"]["message"]


def test_metrics_need_a_key_when_keys_are_configured(
    indexed_settings: Settings, assistant: Assistant
) -> None:
    with _client(indexed_settings, assistant) as c:
        assert c.get("/metrics").status_code == 401
        assert c.get("/metrics", headers=CHAT).status_code == 200
    with _client(indexed_settings, assistant, metrics_open=True) as c:
        assert c.get("/metrics").status_code == 200


def _sample(text: str, name: str) -> float:
    match = re.search(rf"^{re.escape(name)} ([0-9.e+]+)$", text, re.MULTILINE)
    return float(match.group(1)) if match else 0.0


def test_both_chat_routes_record_calculators_and_retrieval_time(client: TestClient) -> None:
    before = client.get("/metrics", headers=CHAT).text
    client.post("/v1/chat", headers=CHAT, json={"message": QUESTION})
    client.post(
        "/v1/chat/completions", headers=CHAT, json={"messages": [{"role": "user", "content": QUESTION}]}
    )
    client.post(
        "/v1/chat/completions",
        headers=CHAT,
        json={"messages": [{"role": "user", "content": QUESTION}], "stream": True},
    )
    after = client.get("/metrics", headers=CHAT).text
    searches = "advisor_retrieval_duration_seconds_count"
    assert _sample(after, searches) - _sample(before, searches) == 3
    computed = 'advisor_calculator_calls_total{tool="training_compute"}'
    assert _sample(after, computed) - _sample(before, computed) == 3
