"""Conversation history and feedback on answers."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field

from assistant.errors import NotReady
from assistant.memory import MAX_COMMENT_CHARS, Conversation, ConversationStore, Rating
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


@router.get("/conversations/{conversation_id}", response_model=Conversation)
def get_conversation(conversation_id: str, memory: MemoryDep) -> Conversation:
    """The conversation's slots and every turn: the message, the Answer and its feedback."""
    return memory.get(conversation_id)


@router.post("/feedback", status_code=204, response_class=Response)
def post_feedback(body: FeedbackRequest, memory: MemoryDep) -> None:
    """Rate one answer up or down, with an optional comment; a later vote replaces the earlier one."""
    memory.save_feedback(body.conversation_id, body.message_id, body.rating, body.comment)
