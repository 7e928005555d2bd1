"""Conversation history, feedback and metrics over the real ASGI stack, with the real assistant."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI, Request
from fastapi.testclient import TestClient
from langchain_core.embeddings import Embeddings

from api.errors import register_error_handlers
from api.metrics import UNMATCHED, metrics_of, record_answer, route_template
from api.routes import conversations
from assistant.memory import Conversation
from assistant.models import Answer, ToolCall
from assistant.service import Assistant
from assistant.settings import Settings
from assistant.wiring import build_assistant
from tests.helpers import ContractClient, make_settings

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def assistant(indexed_settings: Settings, use_embeddings: Embeddings) -> Assistant:
    return build_assistant(indexed_settings, use_embeddings)


def make_app(assistant: Assistant) -> FastAPI:
    app = FastAPI()
    register_error_handlers(app)
    app.include_router(conversations.router)
    app.state.assistant = assistant
    app.state.settings = make_settings(Path(tempfile.gettempdir()))  # open API: no keys, no user tokens
    return app


@pytest.fixture
def client(assistant: Assistant) -> Iterator[TestClient]:
    with ContractClient(make_app(assistant)) as client:
        yield client


def test_a_conversation_reads_back_with_its_answers(client: TestClient, assistant: Assistant) -> None:
    first = assistant.ask("用256张H100、MFU 45%，训练一个34B模型、1.5T token，要多少天？")
    second = assistant.ask("换成A100呢？", conversation_id=first.conversation_id)

    resp = client.get(f"/v1/conversations/{first.conversation_id}")
    assert resp.status_code == 200
    body = resp.json()
    conversation = Conversation.model_validate(body)
    assert conversation.id == first.conversation_id
    assert conversation.slots.gpu_count == 256
    assert [t.message_id for t in conversation.turns] == [first.message_id, second.message_id]
    assert conversation.turns[1].message == "换成A100呢？"
    # what is stored is the Answer as clients see it (timings are in-process only)
    assert Answer.model_validate(body["turns"][1]["answer"]).model_dump() == second.model_dump()
    assert [t.feedback for t in conversation.turns] == [None, None]
    assert all(t["created_at"] for t in body["turns"])


def test_feedback_up_then_down_replaces_it(client: TestClient, assistant: Assistant) -> None:
    answer = assistant.ask("NVMe和SATA SSD用于训练数据存储有什么区别？")
    vote = {"conversation_id": answer.conversation_id, "message_id": answer.message_id}

    assert client.post("/v1/feedback", json={**vote, "rating": "up"}).status_code == 204
    resp = client.post("/v1/feedback", json={**vote, "rating": "down", "comment": "没有提到价格"})
    assert resp.status_code == 204
    assert resp.content == b""

    turn = client.get(f"/v1/conversations/{answer.conversation_id}").json()["turns"][0]
    assert turn["feedback"]["rating"] == "down"
    assert turn["feedback"]["comment"] == "没有提到价格"
    assert turn["feedback"]["message_id"] == answer.message_id


def test_an_unknown_conversation_is_a_404(client: TestClient) -> None:
    resp = client.get("/v1/conversations/never-seen")
    assert resp.status_code == 404
    assert resp.json()["error"]["code"] == "not_found"
    assert "never-seen" in resp.json()["error"]["message"]


def test_feedback_on_a_message_of_another_conversation_is_a_422(
    client: TestClient, assistant: Assistant
) -> None:
    mine = assistant.ask("How long would it take to train a 13B model on 8 H100s?")
    other = assistant.ask("Does a 7B full fine-tune fit on one A100 40GB?")

    resp = client.post(
        "/v1/feedback",
        json={"conversation_id": mine.conversation_id, "message_id": other.message_id, "rating": "up"},
    )
    assert resp.status_code == 422
    error = resp.json()["error"]
    assert error["code"] == "invalid_input"
    assert "is not part of conversation" in error["message"]
    assert client.get(f"/v1/conversations/{other.conversation_id}").json()["turns"][0]["feedback"] is None


@pytest.mark.parametrize(
    "body",
    [
        {"conversation_id": "c", "message_id": "m", "rating": "meh"},
        {"conversation_id": "c", "message_id": "m", "rating": "up", "comment": "x" * 2001},
        {"conversation_id": "c", "rating": "up"},
    ],
)
def test_malformed_feedback_is_a_422_json_error(client: TestClient, body: dict[str, str]) -> None:
    resp = client.post("/v1/feedback", json=body)
    assert resp.status_code == 422
    assert resp.json()["error"]["message"]


def test_record_answer_does_nothing_for_an_app_without_metrics(assistant: Assistant) -> None:
    """An app built without ``instrument`` has no metrics, and an answer with a calculator call and a timed
    search leaves it so (no AttributeError, no registry created on the side)."""
    app = make_app(assistant)
    request = Request({"type": "http", "app": app})
    assert metrics_of(request) is None
    call = ToolCall(name="gpu_spec", input={"gpus": ["h100-sxm"]}, output={})
    answer = Answer(
        conversation_id="c",
        message_id="m",
        language="en",
        answer="a",
        tool_calls=[call],
        timings={"retrieval": 0.01},
    )
    record_answer(request, answer)
    assert metrics_of(request) is None
    assert not hasattr(app.state, "metrics")


def test_route_templates_label_requests() -> None:
    route = next(r for r in conversations.router.routes if "{" in getattr(r, "path", ""))
    assert route_template({"type": "http", "route": route}) == "/v1/conversations/{conversation_id}"
    assert route_template({"type": "http"}) == UNMATCHED


def test_metrics_count_requests_by_route_and_calculator_calls(assistant: Assistant) -> None:
    from api.metrics import instrument

    app = make_app(assistant)
    metrics = instrument(app)
    other = FastAPI()
    instrument(other)  # a second app in the same process gets its own registry
    answer = assistant.ask("How long would it take to train a 13B model on 8 H100s?")
    metrics.record_answer(answer)
    with ContractClient(app) as client:
        for _ in range(3):
            client.get(f"/v1/conversations/{answer.conversation_id}")
        client.get("/v1/conversations/never-seen")
        client.get("/no/such/path")
        resp = client.get("/metrics")

    assert resp.status_code == 200
    assert resp.headers["content-type"].startswith("text/plain")
    text = resp.text
    route = 'route="/v1/conversations/{conversation_id}"'
    assert f'advisor_http_requests_total{{method="GET",{route},status="200"}} 3.0' in text
    assert f'advisor_http_requests_total{{method="GET",{route},status="404"}} 1.0' in text
    assert f'route="{UNMATCHED}",status="404"' in text
    assert "advisor_http_request_duration_seconds_bucket" in text
    assert answer.tool_calls
    for call in answer.tool_calls:
        assert f'advisor_calculator_calls_total{{tool="{call.name}"}}' in text
