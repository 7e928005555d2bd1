"""The OpenAI-compatible endpoint as the official ``openai`` client sees it, over real HTTP (uvicorn)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from langchain_core.embeddings import Embeddings
from openai import OpenAI

from api.app import create_app
from assistant.settings import Settings
from assistant.wiring import build_assistant
from tests.helpers import serve

pytestmark = pytest.mark.integration

DAYS_EN = "How many days to train a 34B model on 1.5T tokens with 256 H100s at 45% MFU?"


@pytest.fixture(scope="module")
def base_url(indexed_settings: Settings, use_embeddings: Embeddings) -> Iterator[str]:
    app = create_app(settings=indexed_settings, assistant=build_assistant(indexed_settings, use_embeddings))
    with serve(app) as url:
        yield f"{url}/v1"


@pytest.fixture
def client(base_url: str) -> Iterator[OpenAI]:
    with OpenAI(base_url=base_url, api_key="x", max_retries=0) as c:
        yield c


def test_models_list_has_advisor(client: OpenAI) -> None:
    assert [m.id for m in client.models.list()] == ["advisor"]


def test_completion_and_streamed_completion_agree(client: OpenAI) -> None:
    completion = client.chat.completions.create(
        model="advisor", messages=[{"role": "user", "content": DAYS_EN}]
    )
    assert completion.object == "chat.completion"
    assert completion.model == "advisor"
    choice = completion.choices[0]
    assert choice.finish_reason == "stop"
    text = choice.message.content
    assert text
    assert "31.1" in text.splitlines()[0]
    assert completion.usage is not None
    assert completion.usage.total_tokens > 0

    stream = client.chat.completions.create(
        model="advisor", messages=[{"role": "user", "content": DAYS_EN}], stream=True
    )
    deltas: list[str] = []
    finish = []
    for chunk in stream:
        assert chunk.object == "chat.completion.chunk"
        for c in chunk.choices:
            if c.delta.content:
                deltas.append(c.delta.content)
            if c.finish_reason:
                finish.append(c.finish_reason)
    assert len(deltas) > 1
    assert finish == ["stop"]
    # a new conversation with the same question gets the same answer, streamed or not
    assert "".join(deltas) == text
