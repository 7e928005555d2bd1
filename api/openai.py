"""OpenAI-compatible wire models for ``/v1/chat/completions`` and ``/v1/models`` (the boundary only)."""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StringConstraints, field_validator

MODEL_NAME = "advisor"


class ContentPart(BaseModel):
    model_config = ConfigDict(extra="ignore")

    type: str
    text: str | None = None


class ChatMessage(BaseModel):
    model_config = ConfigDict(extra="ignore")

    role: str
    content: str | list[ContentPart] | None = None

    @property
    def text(self) -> str:
        if isinstance(self.content, list):
            return "".join(part.text or "" for part in self.content if part.type == "text")
        return self.content or ""


class ChatCompletionRequest(BaseModel):
    """The fields of OpenAI's chat request the advisor uses; any other field is accepted and ignored."""

    model_config = ConfigDict(extra="ignore")

    model: str = Field(default=MODEL_NAME, description="Any name is answered by 'advisor'.")
    messages: list[ChatMessage] = Field(min_length=1, description="Only the last user message is answered.")
    stream: StrictBool = False
    user: str | None = Field(
        default=None, max_length=128, description="Used as the conversation id unless metadata gives one."
    )
    metadata: (
        dict[
            Annotated[str, StringConstraints(max_length=64)],
            Annotated[str, StringConstraints(max_length=512)],
        ]
        | None
    ) = Field(
        default=None,
        max_length=16,
        description="'conversation_id' here continues that conversation (OpenAI's limits: 16 pairs, keys "
        "up to 64 and values up to 512 characters; a conversation id up to 128).",
    )

    @property
    def question(self) -> str | None:
        """The last user message's text, or None when there is none."""
        return next((m.text for m in reversed(self.messages) if m.role == "user"), None)

    @field_validator("metadata")
    @classmethod
    def _conversation_id_fits(cls, metadata: dict[str, str] | None) -> dict[str, str] | None:
        if metadata and len(metadata.get("conversation_id", "")) > 128:
            raise ValueError("conversation_id: at most 128 characters")
        return metadata


class Usage(BaseModel):
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int

    @classmethod
    def estimate(cls, prompt: str, completion: str) -> Usage:
        """Rough counts (about 4 characters a token); the offline composer has no tokenizer."""
        p, c = math.ceil(len(prompt) / 4), math.ceil(len(completion) / 4)
        return cls(prompt_tokens=p, completion_tokens=c, total_tokens=p + c)


class ResponseMessage(BaseModel):
    role: Literal["assistant"] = "assistant"
    content: str


class Choice(BaseModel):
    index: int = 0
    message: ResponseMessage
    finish_reason: Literal["stop"] = "stop"


class ChatCompletion(BaseModel):
    id: str
    object: Literal["chat.completion"] = "chat.completion"
    created: int
    model: str = MODEL_NAME
    choices: list[Choice]
    usage: Usage
    conversation_id: str = Field(description="Pass back as metadata.conversation_id (or user) to continue.")


class Delta(BaseModel):
    role: Literal["assistant"] | None = None
    content: str | None = None


class ChunkChoice(BaseModel):
    index: int = 0
    delta: Delta
    finish_reason: Literal["stop"] | None = None


class ChatCompletionChunk(BaseModel):
    id: str
    object: Literal["chat.completion.chunk"] = "chat.completion.chunk"
    created: int
    model: str = MODEL_NAME
    choices: list[ChunkChoice]
    conversation_id: str | None = None


class Model(BaseModel):
    id: str = MODEL_NAME
    object: Literal["model"] = "model"
    created: int = 0
    owned_by: str = "advisor"


class ModelList(BaseModel):
    object: Literal["list"] = "list"
    data: list[Model]


def error_chunk(code: str, message: str) -> dict[str, Any]:
    """What the stream carries when answering fails; the OpenAI SDK raises it as an APIError."""
    return {"error": {"code": code, "message": message, "type": code}}
