"""Conversation history and feedback on answers."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import BaseModel, Field

from api import user_tokens
from api.deps import CallerDep
from api.schemas import error_responses
from assistant.errors import InvalidInput, NotReady
from assistant.memory import (
    MAX_COMMENT_CHARS,
    Conversation,
    ConversationStore,
    ConversationSummary,
    Rating,
    user_principal,
)
from assistant.service import Assistant

router = APIRouter(prefix="/v1", tags=["conversations"])


def get_memory(request: Request) -> ConversationStore:
    assistant: Assistant | None = getattr(request.app.state, "assistant", None)
    if assistant is None:
        raise NotReady("the assistant is still starting; try again in a moment")
    return assistant.memory


MemoryDep = Annotated[ConversationStore, Depends(get_memory)]


class FeedbackRequest(BaseModel):
    conversation_id: str = Field(min_length=1, description="The conversation_id of the rated answer.")
    message_id: str = Field(min_length=1, description="The message_id of the rated answer.")
    rating: Rating = Field(description="'up' for a helpful answer, 'down' for an unhelpful one.")
    comment: str = Field(default="", max_length=MAX_COMMENT_CHARS, description="Optional free text.")


@router.get("/conversations", response_model=list[ConversationSummary])
def list_conversations(
    memory: MemoryDep,
    caller: CallerDep,
    limit: Annotated[int, Query(ge=1, le=200, description="At most this many, newest first.")] = 50,
) -> list[ConversationSummary]:
    """The conversations of the user named by the signed user token (``X-Advisor-User``)."""
    if caller.user is None:
        raise InvalidInput(f"listing conversations needs a signed user token in {user_tokens.HEADER}")
    return memory.list_for(user_principal(caller.user), limit=limit)


@router.get("/conversations/{conversation_id}", response_model=Conversation, responses=error_responses(404))
def get_conversation(conversation_id: str, memory: MemoryDep, caller: CallerDep) -> Conversation:
    """The conversation's slots and every turn: the message, the Answer and its feedback.

    A conversation is visible to whoever started it (that user's token, that chat key) and to admin
    keys only; anyone else gets 404, as for an id that does not exist.
    """
    return memory.get(conversation_id, owner=caller.principal)


@router.post("/feedback", status_code=204, response_class=Response)
def post_feedback(body: FeedbackRequest, memory: MemoryDep, caller: CallerDep) -> None:
    """Rate one answer up or down, with an optional comment; a later vote replaces the earlier one."""
    memory.save_feedback(
        body.conversation_id, body.message_id, body.rating, body.comment, owner=caller.principal
    )
