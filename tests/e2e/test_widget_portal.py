"""The widget inline on a portal's own page (another origin), signed in with the portal's user token.

The service runs with API keys required, so the page works only through CORS and the signed user
token (no key in the page). The portal is a second real HTTP server on 127.0.0.1 (another port, so
another origin) serving a page that embeds the widget with one tag, as a company portal would.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from langchain_core.embeddings import Embeddings
from pydantic import SecretStr

from api.app import create_app
from api.user_tokens import mint
from assistant.settings import Settings
from assistant.wiring import build_assistant
from tests.e2e.widget_page import TIMEOUT_MS, WIDGET, ask, skip_without_a_browser
from tests.helpers import serve

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

pytestmark = pytest.mark.e2e

skip_without_a_browser()


SECRET = "portal-widget-secret-0123456789-abcdef"
ADMIN = {"X-API-Key": "ops"}  # the admin key "ops:admin" in api_keys
QUESTION = "How much host RAM does an 8-GPU H100 server need?"


@pytest.fixture(scope="module")
def portal() -> Iterator[str]:
    """The portal's own web server: ``/?token=...&advisor=...`` returns a page embedding the widget."""

    class Portal(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            query = parse_qs(urlsplit(self.path).query)
            body = portal_page(query["advisor"][0], query["token"][0]).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Portal)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def advisor_url(indexed_settings: Settings, use_embeddings: Embeddings, portal: str) -> Iterator[str]:
    """The service as a company would run it: keys required, user tokens on, the portal allowed by CORS."""
    settings = indexed_settings.model_copy(
        update={
            "api_keys": ["portal-backend-key", "ops:admin"],
            "server": indexed_settings.server.model_copy(
                update={"user_token_secret": SecretStr(SECRET), "cors_origins": [portal]}
            ),
        }
    )
    app = create_app(settings=settings, assistant=build_assistant(settings, use_embeddings))
    with serve(app) as url:
        yield url


def portal_page(advisor_url: str, token: str) -> str:
    # hostile host CSS again: it styles the portal, never the widget inside its shadow root
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Portal</title>
<style>* {{ font-size: 30px !important; color: red !important; }} button {{ display: none !important; }}</style>
</head><body>
<h1>Team portal</h1>
<div id="portal-chat" style="width: 520px"></div>
<script src="{advisor_url}/widget.js" data-mode="inline" data-target="#portal-chat" data-lang="en"
  data-title="Portal advisor" data-accent="#0f766e" data-user-token="{token}"></script>
</body></html>"""


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-US")
    yield ctx
    ctx.close()


def open_portal(context: BrowserContext, portal: str, advisor_url: str, token: str) -> Page:
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{portal}/?{urlencode({'advisor': advisor_url, 'token': token})}")
    page.locator(f"{WIDGET} .panel textarea").wait_for(state="visible")
    return page


def stored_conversation_id(page: Page, advisor_url: str, user: str) -> str:
    key = f"advisor-widget:conversation:{advisor_url}:{user}"
    conversation_id: str | None = page.evaluate("k => localStorage.getItem(k)", key)
    assert conversation_id, f"no conversation remembered under {key}"
    return conversation_id


def read_conversation(page: Page, advisor_url: str, conversation_id: str) -> dict[str, Any]:
    resp = page.request.get(f"{advisor_url}/v1/conversations/{conversation_id}", headers=ADMIN)
    assert resp.status == 200
    data: dict[str, Any] = resp.json()
    return data


def test_inline_widget_on_a_portal_page_chats_as_the_signed_in_user(
    context: BrowserContext, portal: str, advisor_url: str, screenshots: Path
) -> None:
    page = open_portal(context, portal, advisor_url, mint(SECRET, "alice", ttl_s=3600))
    # inline: inside the portal's container, open from the start, no launcher and no close button
    assert page.evaluate("document.querySelector('#advisor-widget').parentElement.id") == "portal-chat"
    assert page.locator(f"{WIDGET} .launcher").count() == 0
    assert page.locator(f"{WIDGET} header .x").count() == 0
    assert page.locator(f"{WIDGET} header h2").inner_text() == "Portal advisor"
    assert page.locator(f"{WIDGET} .msg.greeting").count() == 1
    style = page.evaluate(
        """() => {
          const r = document.querySelector('#advisor-widget').shadowRoot;
          const h = getComputedStyle(r.querySelector('header'));
          const p = r.querySelector('.panel').getBoundingClientRect();
          return {accent: h.backgroundColor, font: getComputedStyle(r.querySelector('.root')).fontSize,
                  send: getComputedStyle(r.querySelector('button.send')).display, width: p.width};
        }"""
    )
    assert style["accent"] == "rgb(15, 118, 110)"  # data-accent
    assert style["font"] == "14px"  # the portal's 30px !important stays outside
    assert style["send"] != "none"  # and so does its `button { display: none }`
    assert style["width"] == 520  # fills the portal's container

    answer = ask(page, QUESTION)  # cross-origin, keys required: only CORS and the user token let it through
    ram = answer.locator(".card[data-tool=host_ram] tr", has_text="Recommended RAM").locator("td")
    assert ram.inner_text() == "1,536 GB (24 x 64 GB DIMMs)"
    conversation = read_conversation(page, advisor_url, stored_conversation_id(page, advisor_url, "alice"))
    assert conversation["owner"] == "user:alice"
    page.screenshot(path=str(screenshots / "widget-inline-portal.png"))


def test_thumbs_down_asks_for_a_comment_and_stores_it(
    context: BrowserContext, portal: str, advisor_url: str
) -> None:
    page = open_portal(context, portal, advisor_url, mint(SECRET, "bob", ttl_s=3600))
    answer = ask(page, "用256张H100、MFU 45%，训练一个34B模型、1.5T token，要多少天？")
    answer.locator("button.down").click()
    comment_box = answer.locator(".fb-comment textarea")
    comment_box.wait_for(state="visible")
    assert comment_box.get_attribute("aria-label") == "哪里不对或缺了什么？（可选）"
    assert page.evaluate(
        "() => document.querySelector('#advisor-widget').shadowRoot.activeElement.className"
    ) == ("fb-text")
    conversation_id = stored_conversation_id(page, advisor_url, "bob")
    # the vote is stored at once; the comment follows it
    assert read_conversation(page, advisor_url, conversation_id)["turns"][0]["feedback"]["rating"] == "down"

    comment_box.fill("希望同时给出H200的训练天数")
    comment_box.press("Enter")
    answer.locator(".fb-status", has_text="意见已发送").wait_for()
    assert answer.locator(".fb-comment").count() == 0
    feedback = read_conversation(page, advisor_url, conversation_id)["turns"][0]["feedback"]
    assert feedback == {**feedback, "rating": "down", "comment": "希望同时给出H200的训练天数"}


def test_each_signed_in_user_sees_only_their_own_history(
    context: BrowserContext, portal: str, advisor_url: str
) -> None:
    page = open_portal(context, portal, advisor_url, mint(SECRET, "carol", ttl_s=3600))
    ask(page, QUESTION)
    page.close()

    # the same browser (same localStorage), another portal user: a fresh conversation
    dave = open_portal(context, portal, advisor_url, mint(SECRET, "dave", ttl_s=3600))
    dave.wait_for_timeout(300)
    assert dave.locator(f"{WIDGET} .msg.answer").count() == 0
    # carol again: her conversation comes back from the server
    carol = open_portal(context, portal, advisor_url, mint(SECRET, "carol", ttl_s=3600))
    carol.locator(f"{WIDGET} .root[data-history]").wait_for(state="attached")
    assert carol.locator(f"{WIDGET} .msg.answer.history").count() == 1


def test_an_expired_sign_in_says_to_reload(context: BrowserContext, portal: str, advisor_url: str) -> None:
    page = open_portal(context, portal, advisor_url, mint(SECRET, "erin", ttl_s=60, now=1_000_000_000))
    box = page.locator(f"{WIDGET} .panel textarea")
    box.fill(QUESTION)
    box.press("Enter")
    error = page.locator(f"{WIDGET} .msg.error")
    error.wait_for()
    assert "Reload the page" in error.inner_text()
