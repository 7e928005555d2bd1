"""The chat widget in a real browser (Debian Chromium via Playwright) against the real service.

The demo page at ``/`` embeds ``/widget.js`` exactly as a customer page would, under deliberately
hostile host CSS (``* { font-size: 40px !important; color: red }``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from api.slack.blocks import answer_messages
from assistant.models import Answer
from tests.e2e.widget_page import TIMEOUT_MS, WIDGET, ask, skip_without_a_browser

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Locator, Page

pytestmark = pytest.mark.e2e

skip_without_a_browser()


DAYS_ZH = "用256张H100、MFU 45%，训练一个34B模型、1.5T token，要多少天？"
RAM_EN = "How much host RAM does an 8-GPU H100 server need?"
XSS = 'Which GPU? <img src=x onerror="window.__xss=1"> <script>window.__xss=2</script>'


# records how the streaming bubble's text grows, to prove tokens arrive before the final answer
@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    yield ctx
    ctx.close()


@pytest.fixture
def page(context: BrowserContext, base_url: str) -> Page:
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(base_url + "/")
    page.locator(f"{WIDGET} .launcher").wait_for()
    return page


def open_widget(page: Page) -> None:
    page.locator(f"{WIDGET} .launcher").click()
    page.locator(f"{WIDGET} .panel textarea").wait_for(state="visible")


def row(card: Locator, label: str) -> str:
    """The value a calculation card shows beside ``label``."""
    label_cell = card.page.locator("th", has_text=re.compile(f"^{re.escape(label)}$"))
    return card.locator("tr", has=label_cell).locator("td").inner_text()


def conversation(page: Page, base_url: str) -> dict[str, Any]:
    key = f"advisor-widget:conversation:{base_url}"
    conversation_id = page.evaluate("k => localStorage.getItem(k)", key)
    assert conversation_id, "the widget did not store the conversation id"
    response = page.request.get(f"{base_url}/v1/conversations/{conversation_id}")
    assert response.status == 200
    data: dict[str, Any] = response.json()
    return data


def shot(page: Page, screenshots: Path, name: str) -> None:
    path = screenshots / name
    page.screenshot(path=str(path))
    print(f"\nscreenshot: {path}")


def test_widget_js_is_served_as_cacheable_javascript(page: Page, base_url: str) -> None:
    response = page.request.get(base_url + "/widget.js")
    assert response.status == 200
    assert response.headers["content-type"].startswith("application/javascript")
    assert "max-age" in response.headers["cache-control"]
    etag = response.headers["etag"]
    again = page.request.get(base_url + "/widget.js", headers={"If-None-Match": etag})
    assert again.status == 304
    demo = page.request.get(base_url + "/")
    assert demo.status == 200
    assert '<script src="/widget.js"' in demo.text()


def test_host_css_does_not_reach_the_widget_and_keyboard_works(page: Page) -> None:
    # the hostile host CSS does apply to the page itself...
    assert page.evaluate("getComputedStyle(document.querySelector('h1')).fontSize") == "40px"
    # ...but not inside the shadow root
    style = page.evaluate(
        """() => {
          const r = document.querySelector('#advisor-widget').shadowRoot;
          const s = getComputedStyle(r.querySelector('.root'));
          const b = getComputedStyle(r.querySelector('.launcher'));
          return {font: s.fontSize, color: s.color, launcherBg: b.backgroundColor, launcherW: b.width};
        }"""
    )
    assert style["font"] == "14px"
    assert style["color"] != "rgb(255, 0, 0)"
    assert style["launcherBg"] != "rgb(255, 255, 0)"
    assert style["launcherW"] == "56px"

    # Tab reaches the launcher, Enter opens the dialog with focus in the input, Escape closes it
    page.keyboard.press("Tab")
    active = "() => document.querySelector('#advisor-widget').shadowRoot.activeElement?.className || ''"
    assert page.evaluate(active) == "launcher"
    page.keyboard.press("Enter")
    dialog = page.locator(f"{WIDGET} [role=dialog]")
    dialog.wait_for(state="visible")
    assert dialog.get_attribute("aria-labelledby")
    assert page.evaluate(
        "() => document.querySelector('#advisor-widget').shadowRoot.activeElement.tagName"
    ) == ("TEXTAREA")
    assert page.locator(f"{WIDGET} .launcher").get_attribute("aria-expanded") == "true"
    inner_font = page.evaluate(
        "() => getComputedStyle(document.querySelector('#advisor-widget').shadowRoot.querySelector('textarea')).fontSize"
    )
    assert inner_font == "14px"
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    assert page.evaluate(active) == "launcher"


def test_chinese_question_streams_then_shows_the_calculation(
    page: Page, base_url: str, screenshots: Path
) -> None:
    open_widget(page)
    answer = ask(page, DAYS_ZH)
    # the answer was built from several streamed token events before `done` replaced it (whether each
    # one paints separately depends on how the network batches them, so the count is what is checked)
    assert int(answer.get_attribute("data-tokens") or 0) > 1
    assert answer.get_attribute("lang") == "zh-CN"
    assert "31.1" in answer.locator(".content").inner_text()
    card = answer.locator(".card[data-tool=training_compute]")
    assert card.locator("h4").inner_text() == "训练算力与时间"
    assert row(card, "训练天数") == "31.1 (28-40)"
    assert row(card, "GPU 小时") == "190,900"
    # the card stands where the answer's table stood, labelled in Chinese: no table twice, no field names
    assert answer.locator(".content .card[data-tool=training_compute]").count() == 1
    assert answer.locator(".content thead").count() == 0
    labels = card.locator("th").all_inner_texts()
    assert "MFU" in labels
    assert not [label for label in labels if re.search(r"[a-z]+[._][a-z]+", label)]
    # Slack's fields show the same labels, from the same stored answer
    stored = Answer.model_validate(conversation(page, base_url)["turns"][-1]["answer"])
    fields = [f["text"] for m in answer_messages(stored) for b in m["blocks"] for f in b.get("fields", [])]
    assert [f.split("\n")[0].strip("*") for f in fields] == labels
    # the UI follows the answer's language
    assert answer.locator("button.up").get_attribute("aria-label") == "有帮助"
    card.scroll_into_view_if_needed()  # the screenshot shows the card
    shot(page, screenshots, "widget-zh-answer.png")


def test_english_question_cites_sources_that_open(page: Page, base_url: str, screenshots: Path) -> None:
    open_widget(page)
    answer = ask(page, RAM_EN)
    assert answer.get_attribute("lang") == "en"
    assert "GB" in answer.locator(".content").inner_text()
    card = answer.locator(".card[data-tool=host_ram]")
    assert card.locator("h4").inner_text() == "Host RAM"
    assert row(card, "Recommended RAM") == "1,536 GB (24 x 64 GB DIMMs)"
    card.scroll_into_view_if_needed()
    shot(page, screenshots, "widget-en-answer.png")

    links = answer.locator(".cites a")
    assert links.count() >= 1
    hrefs = [links.nth(i).get_attribute("href") or "" for i in range(links.count())]
    citations = conversation(page, base_url)["turns"][-1]["answer"]["citations"]
    assert hrefs == [f"{base_url}/v1/sources/{c['doc_id']}" for c in citations]
    # every citation opens the source page, which shows the passage and links to the original
    for href, citation in zip(hrefs, citations, strict=True):
        resp = page.request.get(href)
        assert resp.status == 200, href
        assert citation["title"].split(":")[0] in resp.text()


def test_follow_up_chip_asks_it(page: Page) -> None:
    open_widget(page)
    first = ask(page, DAYS_ZH)
    chip = first.locator(".chips button.chip").first
    text = chip.inner_text()
    chip.click()
    page.wait_for_function(
        "() => document.querySelector('#advisor-widget').shadowRoot.querySelectorAll('.msg.answer[data-done]').length > 1"
    )
    users = page.locator(f"{WIDGET} .msg.user")
    assert users.last.inner_text() == text


def test_feedback_is_stored_and_history_survives_a_reload(page: Page, base_url: str) -> None:
    open_widget(page)
    answer = ask(page, DAYS_ZH)
    answer.locator("button[aria-label='有帮助']").click()
    answer.locator(".fb-status", has_text="感谢").wait_for()
    assert answer.locator("button.up").get_attribute("aria-pressed") == "true"
    data = conversation(page, base_url)
    assert data["turns"][-1]["feedback"]["rating"] == "up"

    page.reload()
    page.locator(f"{WIDGET} .root[data-history]").wait_for(state="attached")
    open_widget(page)
    history = page.locator(f"{WIDGET} .msg.answer.history")
    assert history.count() == len(data["turns"]) == 1
    assert page.locator(f"{WIDGET} .msg.user.history").first.inner_text() == DAYS_ZH
    assert row(history.first.locator(".card[data-tool=training_compute]"), "训练天数") == "31.1 (28-40)"
    assert history.first.locator("button.up").get_attribute("aria-pressed") == "true"
    # the conversation continues where it was
    ask(page, "换成512张呢？")
    assert len(conversation(page, base_url)["turns"]) == 2


def test_html_in_a_question_stays_inert(page: Page) -> None:
    open_widget(page)
    box = page.locator(f"{WIDGET} .panel textarea")
    box.fill(XSS)
    box.press("Enter")
    page.wait_for_function(
        """() => {
          const r = document.querySelector('#advisor-widget').shadowRoot;
          return r.querySelector('.msg.answer[data-done]') || r.querySelector('.msg.error');
        }"""
    )
    page.wait_for_timeout(300)  # give an injected onerror handler the chance to run
    assert page.evaluate("typeof window.__xss") == "undefined"
    found = page.evaluate(
        """() => {
          const r = document.querySelector('#advisor-widget').shadowRoot;
          return {img: r.querySelectorAll('img').length, script: r.querySelectorAll('script').length,
                  onerror: r.querySelectorAll('[onerror]').length,
                  pageImg: document.querySelectorAll('img').length};
        }"""
    )
    assert found == {"img": 0, "script": 0, "onerror": 0, "pageImg": 0}
    assert "<img src=x" in page.locator(f"{WIDGET} .msg.user").last.inner_text()


def test_errors_are_friendly_sentences(page: Page, base_url: str) -> None:
    def fail(route: Any) -> None:
        route.fulfill(
            status=500,
            content_type="application/json",
            body=json.dumps({"error": {"code": "internal", "message": "Traceback (most recent call last)"}}),
        )

    page.route(f"{base_url}/v1/chat", fail)
    open_widget(page)
    box = page.locator(f"{WIDGET} .panel textarea")
    box.fill(RAM_EN)
    box.press("Enter")
    error = page.locator(f"{WIDGET} .msg.error")
    error.wait_for()
    text = error.inner_text()
    assert "Traceback" not in text
    assert "try again" in text
    page.unroute(f"{base_url}/v1/chat")

    def stream_error(route: Any) -> None:
        route.fulfill(
            status=200,
            content_type="text/event-stream",
            body='event: error\ndata: {"code": "internal", "message": "boom at line 3"}\n\n',
        )

    page.route(f"{base_url}/v1/chat", stream_error)
    box.fill(RAM_EN)
    box.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('#advisor-widget').shadowRoot.querySelectorAll('.msg.error').length > 1"
    )
    assert "boom" not in error.last.inner_text()


def test_narrow_viewport_shows_the_panel_full_width(
    browser: Browser, base_url: str, screenshots: Path
) -> None:
    ctx = browser.new_context(viewport={"width": 375, "height": 740}, locale="zh-CN", is_mobile=True)
    try:
        page = ctx.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(base_url + "/")
        open_widget(page)
        box = page.locator(f"{WIDGET} .panel").bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["y"] >= 0
        assert box["x"] + box["width"] <= 375
        assert box["y"] + box["height"] <= 740
        assert box["width"] >= 370
        # the UI speaks the browser's language when data-lang="auto"
        assert page.locator(f"{WIDGET} .panel textarea").get_attribute("aria-label") == "你的问题"
        ask(page, DAYS_ZH)
        scroll_width = page.evaluate(
            "document.querySelector('#advisor-widget').shadowRoot.querySelector('.log').scrollWidth"
        )
        assert scroll_width <= 375
        shot(page, screenshots, "widget-375px.png")
    finally:
        ctx.close()
