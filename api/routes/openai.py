"""OpenAI-compatible ``/v1/chat/completions`` and ``/v1/models``, so OpenAI SDKs and chat UIs work.

Conversations: ``metadata.conversation_id`` (else ``user``) continues that conversation; without
either a new one starts, and its id comes back as ``conversation_id`` in the response (and in each
chunk). Earlier messages in ``messages`` are not replayed: the advisor keeps its own memory.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from api.deps import AssistantDep, Caller, CallerDep, SettingsDep, check_message_length
from api.errors import INTERNAL_MESSAGE, status_of
from api.metrics import record_answer
from api.openai import (
    MODEL_NAME,
    ChatCompletion,
    ChatCompletionChunk,
    ChatCompletionRequest,
    Choice,
    ChunkChoice,
    Delta,
    Model,
    ModelList,
    ResponseMessage,
    Usage,
    error_chunk,
)
from api.streaming import SSE_HEADERS, detached
from assistant.errors import AdvisorError, InvalidInput
from assistant.models import Answer, Started, ToolCall

logger = logging.getLogger(__name__)
router = APIRouter(prefix="/v1", tags=["openai"])


@router.get("/models", response_model=ModelList)
def list_models() -> ModelList:
    """The one model, ``advisor``."""
    return ModelList(data=[Model()])


@router.post(
    "/chat/completions",
    response_model=ChatCompletion,
    responses={200: {"content": {"text/event-stream": {}}, "description": "A completion, or its chunks."}},
)
async def chat_completions(
    request: Request,
    body: ChatCompletionRequest,
    assistant: AssistantDep,
    settings: SettingsDep,
    caller: CallerDep,
) -> ChatCompletion | StreamingResponse:
    """Answer the last user message, in OpenAI's ``chat.completion`` format (chunks when streaming)."""
    question = body.question
    if not question or not question.strip():
        raise InvalidInput("messages: there is no user message with text to answer")
    check_message_length(question, settings)
    completion_id = f"chatcmpl-{uuid.uuid4().hex}"
    created = int(time.time())
    conversation_id, start = _conversation(body, caller)
    if body.stream:
        items = assistant.stream(
            question, conversation_id=conversation_id, owner=caller.principal, start=start
        )
        chunks = _chunks(
            items,
            completion_id=completion_id,
            created=created,
            on_answer=lambda answer: record_answer(request, answer),
        )
        return StreamingResponse(chunks, media_type="text/event-stream", headers=SSE_HEADERS)
    answer = await run_in_threadpool(
        assistant.ask, question, conversation_id=conversation_id, owner=caller.principal, start=start
    )
    record_answer(request, answer)
    return ChatCompletion(
        id=completion_id,
        created=created,
        model=MODEL_NAME,
        choices=[Choice(message=ResponseMessage(content=answer.answer))],
        usage=Usage.estimate(question, answer.answer),
        conversation_id=answer.conversation_id,
    )


def _conversation(body: ChatCompletionRequest, caller: Caller) -> tuple[str | None, bool]:
    """The conversation to continue, and whether it may be started under that id.

    ``metadata.conversation_id`` names one this caller started (404 otherwise). A ``user`` string names
    the caller's own thread for that user: its id is derived from the caller and the string, so nobody
    else can read it by sending the same ``user``.
    """
    explicit = (body.metadata or {}).get("conversation_id")
    if explicit:
        return explicit, False
    if body.user:
        digest = hashlib.sha256(f"{caller.principal or '*'}\n{body.user}".encode()).hexdigest()
        return f"openai-{digest[:32]}", True
    return None, False


def _data(chunk: ChatCompletionChunk) -> str:
    return f"data: {chunk.model_dump_json(exclude_none=True)}\n\n"


async def _chunks(
    items: Iterator[Started | str | ToolCall | Answer],
    *,
    completion_id: str,
    created: int,
    on_answer: Callable[[Answer], None],
) -> AsyncIterator[str]:
    def chunk(delta: Delta, finish: bool = False, conversation_id: str | None = None) -> str:
        return _data(
            ChatCompletionChunk(
                id=completion_id,
                created=created,
                choices=[ChunkChoice(delta=delta, finish_reason="stop" if finish else None)],
                conversation_id=conversation_id,
            )
        )

    yield chunk(Delta(role="assistant", content=""))
    try:
        async for item in detached(items):
            if isinstance(item, Started | ToolCall):
                # OpenAI's chunks have no place for them: the last chunk carries conversation_id, and the
                # calculators' tables follow the model's text in the content
                continue
            if isinstance(item, str):
                yield chunk(Delta(content=item))
            else:
                yield chunk(Delta(), finish=True, conversation_id=item.conversation_id)
                on_answer(item)
    except AdvisorError as exc:
        yield f"data: {json.dumps(error_chunk(status_of(exc)[1], str(exc)), ensure_ascii=False)}\n\n"
    except Exception:
        logger.exception("chat completion stream failed")
        yield f"data: {json.dumps(error_chunk('internal', INTERNAL_MESSAGE))}\n\n"
    yield "data: [DONE]\n\n"
