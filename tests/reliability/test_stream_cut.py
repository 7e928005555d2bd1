"""Defect 6 of the pre-ship probe: a client that went away mid-stream lost the turn, so the conversation
id it had from ``meta`` (the widget stores it) pointed at nothing. Over real HTTP, with answers slowed
down so the client surely leaves before the end."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from langchain_core.embeddings import Embeddings

from api.app import create_app
from assistant.errors import NotFound
from assistant.memory import Conversation
from assistant.service import Assistant
from assistant.settings import Settings
from assistant.wiring import build_assistant
from tests.helpers import serve

pytestmark = pytest.mark.integration

QUESTION = "How much host RAM does an 8-GPU training server need?"


@pytest.fixture
def slow_assistant(
    indexed_settings: Settings, use_embeddings: Embeddings, monkeypatch: pytest.MonkeyPatch
) -> Assistant:
    assistant = build_assistant(indexed_settings, use_embeddings)
    composer = assistant._composer
    fast = composer.stream

    def slow(*args: Any, **kwargs: Any) -> Iterator[Any]:
        for item in fast(*args, **kwargs):
            time.sleep(0.1)
            yield item

    monkeypatch.setattr(composer, "stream", slow)
    return assistant


def _stored(assistant: Assistant, conversation_id: str, timeout_s: float = 30) -> Conversation:
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            conversation = assistant.memory.get(conversation_id)
            if conversation.turns:
                return conversation
        except NotFound:
            pass
        assert time.monotonic() < deadline, "the turn of the abandoned stream was never stored"
        time.sleep(0.1)


def test_a_chat_stream_cut_after_meta_still_stores_the_turn(
    indexed_settings: Settings, slow_assistant: Assistant
) -> None:
    body = {"message": QUESTION, "stream": True}
    with (
        serve(create_app(settings=indexed_settings, assistant=slow_assistant)) as base,
        httpx.Client(base_url=base, timeout=30) as client,
    ):
        with client.stream("POST", "/v1/chat", json=body) as resp:
            lines = resp.iter_lines()
            assert next(lines) == "event: meta"
            meta = json.loads(next(lines).removeprefix("data: "))
            # the client goes away here, long before the answer is finished
        conversation = _stored(slow_assistant, meta["conversation_id"])
    assert conversation.turns[0].message == QUESTION
    assert conversation.turns[0].message_id == meta["message_id"]


def test_an_openai_stream_cut_after_the_first_chunk_still_stores_the_turn(
    indexed_settings: Settings, slow_assistant: Assistant
) -> None:
    body = {"messages": [{"role": "user", "content": QUESTION}], "stream": True, "user": "cut-off"}
    # the thread of an OpenAI ``user`` string: derived from the caller (trusted, no keys here) and the string
    thread = "openai-" + hashlib.sha256(b"*\ncut-off").hexdigest()[:32]
    with (
        serve(create_app(settings=indexed_settings, assistant=slow_assistant)) as base,
        httpx.Client(base_url=base, timeout=30) as client,
    ):
        with client.stream("POST", "/v1/chat/completions", json=body) as resp:
            assert next(resp.iter_lines()).startswith("data: ")
            # the client goes away here, long before the answer is finished
        conversation = _stored(slow_assistant, thread)
    assert [t.message for t in conversation.turns] == [QUESTION]
