"""The HTTP API over real ASGI plumbing, with the real assistant and index: chat, SSE, tools, errors, limits, auth."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from langchain_core.embeddings import Embeddings

from api.app import create_app
from assistant.models import Answer
from assistant.service import Assistant
from assistant.settings import ServerSettings, Settings
from assistant.wiring import build_assistant
from tests.helpers import ContractClient

pytestmark = pytest.mark.integration

DAYS_ZH = "用256张H100、MFU 45%，训练一个34B模型、1.5T token，要多少天？"


@pytest.fixture(scope="module")
def assistant(indexed_settings: Settings, use_embeddings: Embeddings) -> Assistant:
    return build_assistant(indexed_settings, use_embeddings)


@pytest.fixture(scope="module")
def client(indexed_settings: Settings, assistant: Assistant) -> Iterator[TestClient]:
    with ContractClient(create_app(settings=indexed_settings, assistant=assistant)) as c:
        yield c


def _client(settings: Settings, assistant: Assistant, **update: Any) -> TestClient:
    return ContractClient(create_app(settings=settings.model_copy(update=update), assistant=assistant))


def _events(text: str) -> list[tuple[str, Any]]:
    """Parse a text/event-stream body into (event, data) pairs."""
    events = []
    for block in text.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        events.append((fields["event"], json.loads(fields["data"])))
    return events


def test_chat_answers_and_continues_the_conversation(client: TestClient) -> None:
    resp = client.post("/v1/chat", json={"message": DAYS_ZH})
    assert resp.status_code == 200
    first = Answer.model_validate(resp.json())
    assert first.language == "zh"
    compute = next(c for c in first.tool_calls if c.name == "training_compute")
    assert compute.output["days"]["expected"] == pytest.approx(31.07, rel=0.005)

    # the calculation as the channels show it: titled and labelled in Chinese, its table marked in the HTML
    (calculation,) = [c for c in first.calculations if c.tool == "training_compute"]
    assert calculation.title == "训练算力与时间"
    assert {"label": "训练天数", "value": "31.1 (28-40)", "kind": "result"} in resp.json()["calculations"][0][
        "rows"
    ]
    assert calculation.table in first.answer
    assert '<div class="calculation" data-calculation="0">' in first.answer_html

    resp = client.post("/v1/chat", json={"message": "换成A100呢？", "conversation_id": first.conversation_id})
    second = Answer.model_validate(resp.json())
    assert second.conversation_id == first.conversation_id
    redo = next(c for c in second.tool_calls if c.name == "training_compute")
    assert redo.input["gpu"] == "a100-80gb-sxm"
    assert redo.output["days"]["expected"] == pytest.approx(98.53, rel=0.005)


def test_chat_streams_server_sent_events_in_order(client: TestClient) -> None:
    with client.stream("POST", "/v1/chat", json={"message": DAYS_ZH, "stream": True}) as resp:
        assert resp.status_code == 200
        assert resp.headers["content-type"].startswith("text/event-stream")
        events = _events(resp.read().decode())
    names = [name for name, _ in events]
    tokens = names.count("token")
    assert tokens >= 1
    # meta first: a client that drops mid-answer still knows where the conversation is
    assert names[: tokens + 1] == ["meta"] + ["token"] * tokens
    assert names[-1] == "done"
    done = Answer.model_validate(events[-1][1])
    assert "".join(data["text"] for name, data in events if name == "token") == done.answer
    assert events[0][1] == {
        "conversation_id": done.conversation_id,
        "message_id": done.message_id,
        "language": "zh",
    }
    calls = [data for name, data in events if name == "tool_call"]
    assert calls == [c.model_dump(mode="json") for c in done.tool_calls]
    assert len(calls) >= 1
    citations = [data for name, data in events if name == "citation"]
    assert citations == [c.model_dump(mode="json") for c in done.citations]
    # tool calls come before citations, and both before done
    assert names[tokens + 1 :] == ["tool_call"] * len(calls) + ["citation"] * len(citations) + ["done"]


def test_a_failure_mid_stream_is_an_error_event_without_internals(
    indexed_settings: Settings,
    assistant: Assistant,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(message: str, **_: object) -> Iterator[str | Answer]:
        yield "partial "
        raise RuntimeError("secret internals")

    monkeypatch.setattr(assistant, "stream", broken)
    with _client(indexed_settings, assistant) as c:
        events = _events(c.post("/v1/chat", json={"message": "hi", "stream": True}).text)
    assert events[0] == ("token", {"text": "partial "})
    assert events[-1][0] == "error"
    assert events[-1][1]["code"] == "internal"
    assert "secret" not in json.dumps(events)
    assert "secret internals" in caplog.text  # the fake really failed there: the log has the traceback


def test_an_unexpected_error_is_a_json_500_without_internals(
    indexed_settings: Settings,
    assistant: Assistant,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(message: str, **_: object) -> Answer:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(assistant, "ask", broken)
    with ContractClient(
        create_app(settings=indexed_settings, assistant=assistant), raise_server_exceptions=False
    ) as c:
        resp = c.post("/v1/chat", json={"message": "hi"})
    assert resp.status_code == 500
    assert resp.json()["error"]["code"] == "internal"
    assert "secret" not in resp.text
    assert "secret internals" in caplog.text  # the fake really failed there: the log has the traceback


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"message": ""}, "message"),
        ({"message": "   "}, "message"),
        ({}, "message"),
        ({"message": 42}, "message"),
        ({"message": "hi", "stream": "sometimes"}, "stream"),
    ],
)
def test_bad_chat_input_is_a_422_naming_the_field(
    client: TestClient, body: dict[str, Any], field: str
) -> None:
    resp = client.post("/v1/chat", json=body)
    assert resp.status_code == 422
    error = resp.json()["error"]
    assert error["code"] == "invalid_request"
    assert field in [f["field"] for f in error["fields"]]
    assert error["message"].startswith(field)


def test_malformed_json_is_a_422(client: TestClient) -> None:
    resp = client.post("/v1/chat", content=b"{not json", headers={"content-type": "application/json"})
    assert resp.status_code == 422
    assert resp.json()["error"]["code"] == "invalid_request"


def test_tools_are_listed_with_their_schemas(client: TestClient) -> None:
    tools = client.get("/v1/tools").json()
    names = [t["name"] for t in tools]
    assert "training_memory" in names
    assert "training_compute" in names
    for tool in tools:
        assert tool["description"]
        assert tool["input_schema"]["type"] == "object"


def test_a_tool_runs_and_returns_its_input_and_output(client: TestClient) -> None:
    payload = {"params_b": 34, "tokens_b": 1500, "gpus": 256, "gpu": "h100-sxm", "mfu": 0.45}
    resp = client.post("/v1/tools/training_compute", json=payload)
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert set(body) == {"name", "input", "output"}
    assert body["name"] == "training_compute"
    assert body["input"]["gpus"] == 256
    assert body["output"]["days"]["expected"] == pytest.approx(31.07, rel=0.005)


def test_an_unknown_tool_is_a_404_with_a_suggestion(client: TestClient) -> None:
    resp = client.post("/v1/tools/training_memry", json={})
    assert resp.status_code == 404
    error = resp.json()["error"]
    assert error["code"] == "unknown_tool"
    assert "training_memory" in error["message"]


def test_invalid_tool_input_is_a_422_naming_each_field(client: TestClient) -> None:
    resp = client.post("/v1/tools/training_compute", json={"params_b": -1, "gpus": "many"})
    assert resp.status_code == 422
    error = resp.json()["error"]
    assert error["code"] == "invalid_tool_input"
    fields = {f["field"] for f in error["fields"]}
    assert {"params_b", "gpus"} <= fields


def test_unknown_routes_and_methods_get_the_json_error_shape(client: TestClient) -> None:
    resp = client.get("/v1/nothing-here")
    assert resp.status_code == 404
    assert resp.json()["error"]["code"] == "not_found"
    resp = client.get("/v1/chat")
    assert resp.status_code == 405
    assert resp.json()["error"]["code"] == "method_not_allowed"


def test_a_too_large_body_is_a_413(client: TestClient) -> None:
    resp = client.post("/v1/chat", json={"message": "x" * 70_000})
    assert resp.status_code == 413
    assert resp.json()["error"]["code"] == "payload_too_large"


def test_a_chunked_too_large_body_is_a_413(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"message": "'
        for _ in range(20):
            yield b"x" * 4096
        yield b'"}'

    resp = client.post("/v1/chat", content=chunks(), headers={"content-type": "application/json"})
    assert resp.status_code == 413


def test_a_too_long_message_is_a_422(indexed_settings: Settings, assistant: Assistant) -> None:
    with _client(indexed_settings, assistant, server=ServerSettings(max_message_chars=50)) as c:
        resp = c.post("/v1/chat", json={"message": "x" * 51})
    assert resp.status_code == 422
    error = resp.json()["error"]
    assert error["code"] == "invalid_input"
    assert "limit is 50" in error["message"]


def test_too_many_requests_get_a_429_with_retry_after(
    indexed_settings: Settings, assistant: Assistant
) -> None:
    with _client(indexed_settings, assistant, server=ServerSettings(rate_limit_per_minute=3)) as c:
        assert [c.get("/v1/tools").status_code for _ in range(3)] == [200, 200, 200]
        resp = c.get("/v1/tools")
        assert resp.status_code == 429
        assert resp.json()["error"]["code"] == "rate_limited"
        assert 1 <= int(resp.headers["retry-after"]) <= 60
        assert c.get("/healthz").status_code == 200  # health checks are never limited


def test_one_busy_widget_origin_is_limited_without_limiting_others(
    indexed_settings: Settings, assistant: Assistant
) -> None:
    limits = ServerSettings(rate_limit_per_minute=100, rate_limit_per_origin_minute=2)
    with _client(indexed_settings, assistant, server=limits) as c:
        busy = {"Origin": "https://portal-a.example"}
        assert [c.get("/v1/tools", headers=busy).status_code for _ in range(2)] == [200, 200]
        resp = c.get("/v1/tools", headers=busy)
        assert resp.status_code == 429
        assert "this origin" in resp.json()["error"]["message"]
        assert c.get("/v1/tools", headers={"Origin": "https://portal-b.example"}).status_code == 200
        assert c.get("/v1/tools").status_code == 200  # server-to-server calls carry no Origin


def test_with_keys_configured_v1_needs_a_key(indexed_settings: Settings, assistant: Assistant) -> None:
    with _client(indexed_settings, assistant, api_keys=["k1", "k2:admin"]) as c:
        resp = c.get("/v1/tools")
        assert resp.status_code == 401
        assert resp.json()["error"]["code"] == "unauthorized"
        assert c.get("/v1/tools", headers={"Authorization": "Bearer wrong"}).status_code == 401
        assert c.get("/v1/tools", headers={"Authorization": "Bearer k1"}).status_code == 200
        assert c.get("/v1/tools", headers={"X-API-Key": "k1"}).status_code == 200
        for method, path in (("POST", "/v1/chat"), ("POST", "/v1/chat/completions"), ("GET", "/v1/models")):
            assert c.request(method, path, json={}).status_code == 401, path
        # the admin key works as itself, without its ":admin" role suffix
        resp = c.post("/v1/chat", json={"message": "hello"}, headers={"Authorization": "Bearer k2"})
        assert resp.status_code == 200
        Answer.model_validate(resp.json())
        assert c.get("/v1/tools", headers={"Authorization": "Bearer k2:admin"}).status_code == 401
        for path in ("/healthz", "/readyz", "/openapi.json", "/docs"):
            assert c.get(path).status_code == 200, path


def test_openai_compatible_endpoint_keeps_the_conversation(client: TestClient) -> None:
    resp = client.post(
        "/v1/chat/completions",
        json={"model": "advisor", "messages": [{"role": "user", "content": DAYS_ZH}], "temperature": 0.2},
    )
    assert resp.status_code == 200
    body = resp.json()
    assert body["object"] == "chat.completion"
    assert body["choices"][0]["finish_reason"] == "stop"
    assert "31.1" in body["choices"][0]["message"]["content"]
    follow_up = {
        "messages": [{"role": "user", "content": [{"type": "text", "text": "换成A100呢？"}]}],
        "metadata": {"conversation_id": body["conversation_id"]},
    }
    resp = client.post("/v1/chat/completions", json=follow_up)
    assert resp.json()["conversation_id"] == body["conversation_id"]
    assert "98.5" in resp.json()["choices"][0]["message"]["content"]


def test_openai_endpoint_without_a_user_message_is_a_422(client: TestClient) -> None:
    resp = client.post("/v1/chat/completions", json={"messages": [{"role": "system", "content": "be brief"}]})
    assert resp.status_code == 422
    assert resp.json()["error"]["code"] == "invalid_input"
    resp = client.post("/v1/chat/completions", json={"messages": []})
    assert resp.status_code == 422
    assert resp.json()["error"]["fields"][0]["field"] == "messages"
