"""End-to-end fixtures: the real app served by uvicorn in a thread, and Debian Chromium driven by Playwright.

Chromium comes from the system (``apt-get install chromium fonts-wqy-microhei``; ``.ci/run`` installs both);
``playwright install`` is never needed. Tests that need the browser skip when ``chromium`` is not on PATH.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from langchain_core.embeddings import Embeddings

from api.app import create_app
from assistant.settings import Settings
from assistant.wiring import build_assistant
from tests.helpers import serve

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Playwright

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


@pytest.fixture(scope="session")
def base_url(indexed_settings: Settings, use_embeddings: Embeddings) -> Iterator[str]:
    """The whole service on 127.0.0.1 and a free port, e.g. ``http://127.0.0.1:41234``."""
    app = create_app(settings=indexed_settings, assistant=build_assistant(indexed_settings, use_embeddings))
    with serve(app) as url:
        yield url


@pytest.fixture(scope="session")
def playwright_instance() -> Iterator[Playwright]:
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="the playwright Python package is not installed"
    )
    with sync_api.sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright_instance: Playwright) -> Iterator[Browser]:
    executable = shutil.which("chromium")
    if executable is None:
        pytest.skip(
            "Debian chromium is not installed (apt-get install chromium fonts-wqy-microhei; CI does this)"
        )
    browser = playwright_instance.chromium.launch(
        executable_path=executable, headless=True, args=CHROMIUM_ARGS
    )
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
