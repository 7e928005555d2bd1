"""Defect 8 of the pre-ship probe: without API keys, a page on any origin could POST an upload to
``/v1/documents`` (no preflight for multipart), and any Host header was answered (DNS rebinding)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from langchain_core.embeddings import Embeddings

from api.app import create_app
from api.guard import host_name
from assistant.service import Assistant
from assistant.settings import Settings
from assistant.wiring import build_assistant
from tests.helpers import ContractClient

pytestmark = pytest.mark.integration

NOTE = b"# Notes\n\n## Racks\nTwelve racks of liquid-cooled nodes.\n"


@pytest.fixture(scope="module")
def assistant(indexed_settings: Settings, use_embeddings: Embeddings) -> Assistant:
    return build_assistant(indexed_settings, use_embeddings)


@pytest.fixture(scope="module")
def open_client(indexed_settings: Settings, assistant: Assistant) -> Iterator[TestClient]:
    """No keys: the API is open to this machine only."""
    with ContractClient(create_app(settings=indexed_settings, assistant=assistant)) as c:
        yield c


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:8000", "10.0.0.5:8000", "127.0.0.1.nip.io", ""]
)
def test_a_non_loopback_host_is_refused(open_client: TestClient, host: str) -> None:
    resp = open_client.get("/v1/tools", headers={"Host": host})
    assert resp.status_code == 403, resp.text
    assert "answers only requests addressed to localhost" in resp.json()["error"]["message"]


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost", "LOCALHOST:9", "[::1]:8000"])
def test_loopback_hosts_are_answered(open_client: TestClient, host: str) -> None:
    assert open_client.get("/healthz", headers={"Host": host}).status_code == 200


def test_a_cross_site_upload_is_refused_and_nothing_is_kept(
    open_client: TestClient, indexed_settings: Settings
) -> None:
    before = open_client.get("/v1/documents").json()
    resp = open_client.post(
        "/v1/documents", headers={"Origin": "https://evil.example"}, files={"file": ("notes.md", NOTE)}
    )
    assert resp.status_code == 403, resp.text
    assert "https://evil.example may not change anything here" in resp.json()["error"]["message"]
    assert open_client.get("/v1/documents").json() == before


@pytest.mark.parametrize(
    "headers",
    [{"Origin": "null"}, {"Origin": "http://127.0.0.1:9999"}, {"Sec-Fetch-Site": "cross-site"}],
)
def test_cross_site_chats_are_refused(open_client: TestClient, headers: dict[str, str]) -> None:
    assert open_client.post("/v1/chat", headers=headers, json={"message": "hi"}).status_code == 403


def test_the_demo_page_and_programs_without_an_origin_still_work(open_client: TestClient) -> None:
    same_origin = {"Origin": "http://127.0.0.1:8000"}  # the widget on GET /
    assert open_client.post("/v1/chat", headers=same_origin, json={"message": "hi"}).status_code == 200
    assert open_client.post("/v1/chat", json={"message": "hi"}).status_code == 200  # curl, scripts


def test_with_keys_neither_check_applies(indexed_settings: Settings, assistant: Assistant) -> None:
    settings = indexed_settings.model_copy(update={"api_keys": ["k1"]})
    with ContractClient(create_app(settings=settings, assistant=assistant)) as c:
        resp = c.get("/v1/tools", headers={"Host": "advisor.example", "Authorization": "Bearer k1"})
        assert resp.status_code == 200


def test_host_names_are_read_without_port_or_brackets() -> None:
    assert host_name("127.0.0.1:8000") == "127.0.0.1"
    assert host_name("[::1]:8000") == "::1"
    assert host_name("LocalHost") == "localhost"
    assert host_name("::1") == "::1"
