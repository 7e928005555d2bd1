"""Server-sent events for ``POST /v1/chat``: the assistant's stream, run in a worker thread."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from pydantic import BaseModel
from starlette.concurrency import iterate_in_threadpool

from api.errors import INTERNAL_MESSAGE, status_of
from api.schemas import StreamError
from assistant.errors import AdvisorError
from assistant.models import Answer, Started

logger = logging.getLogger(__name__)

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def sse(event: str, data: BaseModel | dict[str, Any]) -> str:
    payload = data.model_dump_json() if isinstance(data, BaseModel) else json.dumps(data, ensure_ascii=False)
    return f"event: {event}\ndata: {payload}\n\n"


async def answer_events(
    items: Iterator[Started | str | Answer], on_answer: Callable[[Answer], None] | None = None
) -> AsyncIterator[str]:
    """``meta`` (ids, language) first, a ``token`` per text delta, then ``tool_call``s, ``citation``s and
    ``done``; or ``error``. A client that drops mid-stream still knows the conversation from ``meta``."""
    try:
        async for item in iterate_in_threadpool(items):
            if isinstance(item, Started):
                yield sse("meta", item)
                continue
            if isinstance(item, str):
                yield sse("token", {"text": item})
                continue
            for call in item.tool_calls:
                yield sse("tool_call", call)
            for citation in item.citations:
                yield sse("citation", citation)
            yield sse("done", item)
            if on_answer:
                on_answer(item)
    except AdvisorError as exc:
        yield sse("error", StreamError(code=status_of(exc)[1], message=str(exc)))
    except Exception:
        logger.exception("chat stream failed")
        yield sse("error", StreamError(code="internal", message=INTERNAL_MESSAGE))
