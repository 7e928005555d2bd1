"""Server-sent events for ``POST /v1/chat``: the assistant's stream, run in a worker thread."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any, TypeVar

from pydantic import BaseModel

from api.errors import INTERNAL_MESSAGE, status_of
from api.schemas import StreamError
from assistant.errors import AdvisorError
from assistant.models import Answer, Started, ToolCall

logger = logging.getLogger(__name__)

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
T = TypeVar("T")


class _Failed:
    def __init__(self, error: BaseException) -> None:
        self.error = error


_END = object()


async def detached(items: Iterator[T]) -> AsyncIterator[T]:
    """``items`` produced to the end in a worker thread, whether or not anyone still reads them.

    A client that goes away mid-answer stops reading, but the answer is still finished and its turn
    stored (the assistant stores a turn as its stream's last step), so the conversation id the client
    got in ``meta`` always points at a stored conversation. An error is raised here, in the reader.
    """
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[Any] = asyncio.Queue()

    def put(item: object) -> None:
        with contextlib.suppress(RuntimeError):  # the event loop is closed (shutdown): nobody reads any more
            loop.call_soon_threadsafe(queue.put_nowait, item)

    def produce() -> None:
        try:
            for item in items:
                put(item)
        except BaseException as exc:
            put(_Failed(exc))
        finally:
            put(_END)

    producer = loop.run_in_executor(None, produce)
    while (item := await queue.get()) is not _END:
        if isinstance(item, _Failed):
            raise item.error
        yield item
    await producer


def sse(event: str, data: BaseModel | dict[str, Any]) -> str:
    payload = data.model_dump_json() if isinstance(data, BaseModel) else json.dumps(data, ensure_ascii=False)
    return f"event: {event}\ndata: {payload}\n\n"


async def answer_events(
    items: Iterator[Started | str | ToolCall | Answer], on_answer: Callable[[Answer], None] | None = None
) -> AsyncIterator[str]:
    """``meta`` (ids, language) first, a ``token`` per text delta, then ``tool_call``s, ``citation``s and
    ``done``; or ``error``. A chat model calling the calculators sends each ``tool_call`` as it is made, between
    the tokens. A client that drops mid-stream still finds the turn stored under ``meta``'s id."""
    sent: list[ToolCall] = []
    try:
        async for item in detached(items):
            if isinstance(item, Started):
                yield sse("meta", item)
                continue
            if isinstance(item, str):
                yield sse("token", {"text": item})
                continue
            if isinstance(item, ToolCall):
                sent.append(item)
                yield sse("tool_call", item)
                continue
            for call in item.tool_calls:
                if call not in sent:
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
