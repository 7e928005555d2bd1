"""The source pages citations link to, and CORS, over real ASGI plumbing with the real index."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from langchain_core.embeddings import Embeddings

from api.app import create_app
from api.routes.sources import Passage, source_page
from assistant.settings import Settings
from assistant.wiring import build_assistant
from tests.helpers import ContractClient

pytestmark = pytest.mark.integration

ALLOWED = "http://127.0.0.1:8000"


@pytest.fixture(scope="module")
def client(indexed_settings: Settings, use_embeddings: Embeddings) -> Iterator[TestClient]:
    app = create_app(settings=indexed_settings, assistant=build_assistant(indexed_settings, use_embeddings))
    with ContractClient(app) as c:
        yield c


def test_user_files_are_not_served_when_keys_are_configured(
    indexed_settings: Settings, use_embeddings: Embeddings
) -> None:
    settings = indexed_settings.model_copy(update={"api_keys": ["k"]})
    app = create_app(settings=settings, assistant=build_assistant(settings, use_embeddings))
    with ContractClient(app) as c:
        assert c.get("/v1/sources/file:/etc/passwd").status_code == 404
        assert c.get("/v1/sources/en/storage").status_code == 200


ARTICLE = Path(__file__).resolve().parents[2] / "knowledge" / "corpus" / "en" / "storage.md"


def test_article_page_shows_title_passages_and_sources(client: TestClient) -> None:
    resp = client.get("/v1/sources/en/storage")
    assert resp.status_code == 200
    assert resp.headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in resp.headers["content-security-policy"]
    page = resp.text
    assert "<h1>Storage for LLM training: capacity, drive tiers, file systems and checkpoints</h1>" in page
    assert '<html lang="en">' in page
    # the article's own as-of date, as its front matter states it
    (as_of,) = re.findall(r"^as_of: (\S+)$", ARTICLE.read_text(encoding="utf-8"), re.MULTILINE)
    assert as_of in page
    assert page.count("<section>") >= 3
    assert 'href="https://arxiv.org/abs/2407.21783"' in page


def test_catalog_entry_page_shows_the_numbers(client: TestClient) -> None:
    resp = client.get("/v1/sources/catalog/accelerators/h100-sxm")
    assert resp.status_code == 200
    assert "H100" in resp.text
    assert "3,350" in resp.text
    assert 'href="https://' in resp.text


def test_unknown_document_is_a_json_404(client: TestClient) -> None:
    resp = client.get("/v1/sources/en/no-such-article")
    assert resp.status_code == 404
    assert resp.json()["error"]["code"] == "not_found"
    assert "en/no-such-article" in resp.json()["error"]["message"]


def test_cors_allows_the_configured_origin_only(client: TestClient) -> None:
    preflight = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"}
    ok = client.options("/v1/chat", headers={"Origin": ALLOWED, **preflight})
    assert ok.status_code == 200
    assert ok.headers["access-control-allow-origin"] == ALLOWED
    assert "POST" in ok.headers["access-control-allow-methods"]
    assert "access-control-allow-credentials" not in ok.headers
    got = client.get("/v1/sources/en/storage", headers={"Origin": ALLOWED})
    assert got.headers["access-control-allow-origin"] == ALLOWED

    evil = "https://evil.example"
    denied = client.options("/v1/chat", headers={"Origin": evil, **preflight})
    assert denied.status_code == 400
    assert "access-control-allow-origin" not in denied.headers
    plain = client.get("/v1/sources/en/storage", headers={"Origin": evil})
    assert plain.status_code == 200
    assert "access-control-allow-origin" not in plain.headers


def test_passage_text_and_metadata_are_rendered_inert() -> None:
    passage = Passage(
        text='T\nS\n\nhello <script>alert(1)</script> [x](javascript:alert(2)) <img src=x onerror="alert(3)">',
        title='T <script>alert("t")</script>',
        section='S"><script>alert(4)</script>',
        as_of="2026-01-01<b>",
        lang='en" onload="alert(5)',
        source_urls=("javascript:alert(6)", 'https://ok.example/a?b=1&c="x"'),
        position=0,
    )
    page = source_page("doc", [passage])
    assert "<script>" not in page
    assert "<img" not in page  # raw HTML in a passage is shown as text, never as markup
    assert 'href="javascript:' not in page
    assert '<html lang="en">' not in page
    assert "onload=" not in page
    assert "<b>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert 'href="https://ok.example/a?b=1&amp;c=&quot;x&quot;"' in page
