"""Driving the widget inside a page: the selectors and the one way to ask a question and wait for the answer."""

from __future__ import annotations

import shutil
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

WIDGET = "#advisor-widget"
ANSWER = f"{WIDGET} .msg.answer[data-done]"
TIMEOUT_MS = 120_000


def skip_without_a_browser() -> None:
    """Skip the calling test module when Debian Chromium or the playwright package is missing."""
    if shutil.which("chromium") is None:
        pytest.skip(
            "Debian chromium is not on PATH: apt-get install chromium fonts-wqy-microhei (.ci/run installs both in CI)",
            allow_module_level=True,
        )
    pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")


def ask(page: Page, question: str) -> Locator:
    """Type a question, press Enter, and return the finished answer bubble (failing on an error bubble)."""
    before = page.locator(ANSWER).count()
    box = page.locator(f"{WIDGET} .panel textarea")
    box.fill(question)
    box.press("Enter")
    page.wait_for_function(
        """([n]) => {
          const r = document.querySelector('#advisor-widget').shadowRoot;
          return r.querySelectorAll('.msg.answer[data-done]').length > n || r.querySelector('.msg.error');
        }""",
        arg=[before],
    )
    errors = page.locator(f"{WIDGET} .msg.error")
    assert errors.count() == 0, errors.first.inner_text()
    return page.locator(ANSWER).nth(before)
