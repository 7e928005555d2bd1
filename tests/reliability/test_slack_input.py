"""Defect 7 of the pre-ship probe: ``/slack/events`` answered 500 (with a traceback in the log) to an
unauthenticated request with a non-numeric timestamp, and to signed but malformed bodies."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest
from fastapi.testclient import TestClient
from langchain_core.embeddings import Embeddings
from pydantic import SecretStr
from slack_sdk.signature import SignatureVerifier

from api.app import create_app
from assistant.settings import Settings, SlackSettings
from assistant.wiring import build_assistant
from tests.helpers import ContractClient
from tests.slack_standin import SlackStandIn

pytestmark = pytest.mark.integration

SECRET = "test-signing-secret-0123456789abcdef"


@pytest.fixture(scope="module")
def client(indexed_settings: Settings, use_embeddings: Embeddings) -> Iterator[TestClient]:
    with SlackStandIn() as slack:
        section = SlackSettings(
            bot_token=SecretStr("xoxb-test"), signing_secret=SecretStr(SECRET), api_base_url=slack.base_url
        )
        settings = indexed_settings.model_copy(update={"slack": section})
        app = create_app(settings=settings, assistant=build_assistant(settings, use_embeddings))
        with ContractClient(app, raise_server_exceptions=False) as c:
            yield c


def _signed(client: TestClient, body: str, content_type: str) -> httpx.Response:
    stamp = str(int(time.time()))
    signature = SignatureVerifier(SECRET).generate_signature(timestamp=stamp, body=body)
    assert signature is not None
    return client.post(
        "/slack/events",
        content=body.encode(),
        headers={
            "Content-Type": content_type,
            "X-Slack-Request-Timestamp": stamp,
            "X-Slack-Signature": signature,
        },
    )


@pytest.mark.parametrize("timestamp", ["abc", "", "1e9", "+12", "9" * 40, "-5"])
def test_a_malformed_timestamp_is_a_401(client: TestClient, timestamp: str) -> None:
    resp = client.post(
        "/slack/events",
        content=b"{}",
        headers={
            "Content-Type": "application/json",
            "X-Slack-Request-Timestamp": timestamp,
            "X-Slack-Signature": "v0=00",
        },
    )
    assert resp.status_code == 401, resp.text
    assert resp.json()["error"]["code"] == "invalid_signature"


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        ("{not json", "application/json"),
        ("", "application/json"),
        ("[1, 2]", "application/json"),
        ('"text"', "application/json"),
        ('{"type": "event_callback", "event": "text"}', "application/json"),
        ("payload=notjson", "application/x-www-form-urlencoded"),
        ("payload=%5B1%5D", "application/x-www-form-urlencoded"),
        ("a=b&a=c", "application/x-www-form-urlencoded"),
    ],
)
def test_a_signed_but_malformed_body_is_a_400(
    client: TestClient, body: str, content_type: str, caplog: pytest.LogCaptureFixture
) -> None:
    resp = _signed(client, body, content_type)
    assert resp.status_code == 400, resp.text
    assert resp.json()["error"]["code"] == "bad_request"
    assert "Traceback" not in caplog.text
