"""``POST /v1/chat``: one message in, the Answer (or its server-sent events) out."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from api.deps import AssistantDep, CallerDep, ChatRequestDep
from api.metrics import record_answer
from api.streaming import SSE_HEADERS, answer_events
from assistant.models import Answer

router = APIRouter(prefix="/v1", tags=["chat"])


@router.post(
    "/chat",
    response_model=Answer,
    responses={200: {"content": {"text/event-stream": {}}, "description": "The Answer, or its events."}},
)
async def chat(
    request: Request, body: ChatRequestDep, assistant: AssistantDep, caller: CallerDep
) -> Answer | StreamingResponse:
    """Answer one message; pass ``conversation_id`` to continue a conversation.

    With ``"stream": true`` the reply is server-sent events: ``meta`` (``conversation_id``,
    ``message_id``, ``language``) first, ``token`` (``{"text"}``, a delta of the answer) as it is
    written, then one ``tool_call`` per calculator run, one ``citation`` per source, and ``done`` with
    the whole Answer; ``error`` (``{"code", "message"}``) replaces the rest if answering fails.

    With a signed user token (``X-Advisor-User``) a new conversation belongs to that user, and a
    conversation that belongs to another user is 404.
    """
    if body.stream:
        events = answer_events(
            assistant.stream(body.message, conversation_id=body.conversation_id, owner=caller.principal),
            on_answer=lambda answer: record_answer(request, answer),
        )
        return StreamingResponse(events, media_type="text/event-stream", headers=SSE_HEADERS)
    answer = await run_in_threadpool(
        assistant.ask, body.message, conversation_id=body.conversation_id, owner=caller.principal
    )
    record_answer(request, answer)
    return answer
