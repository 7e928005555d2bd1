"""The assistant: one ``ask`` that every channel (CLI, HTTP, widget, Slack) calls."""

from __future__ import annotations

import uuid

from assistant.errors import InvalidInput
from assistant.models import Answer, Citation
from assistant.retriever import Passage, Retriever
from knowledge.text import detect_language

MAX_MESSAGE_CHARS = 4000


class Assistant:
    """Answers a message from the knowledge base.

    For now an answer lists the best passages with their citations; routing, calculators and
    composed answers plug in here without changing this signature.
    """

    def __init__(self, *, retriever: Retriever, top_k: int = 6) -> None:
        self._retriever = retriever
        self._top_k = top_k

    def ask(self, message: str, *, conversation_id: str | None = None) -> Answer:
        text = message.strip()
        if not text:
            raise InvalidInput("message is empty")
        if len(text) > MAX_MESSAGE_CHARS:
            raise InvalidInput(f"message is {len(text)} characters; the limit is {MAX_MESSAGE_CHARS}")
        language = detect_language(text)
        passages = self._retriever.search(text, k=self._top_k)
        citations = [_citation(n, p) for n, p in enumerate(passages, 1)]
        if language == "zh":
            lead = "以下是知识库中与问题最相关的段落：" if passages else "知识库中没有找到相关内容。"
        else:
            lead = (
                "The most relevant passages in the knowledge base:" if passages else "Nothing relevant found."
            )
        lines = [lead, ""]
        lines += [f"{c.id}. **{c.title}** · {c.section} [{c.id}]\n   > {c.snippet}" for c in citations]
        return Answer(
            conversation_id=conversation_id or uuid.uuid4().hex,
            message_id=uuid.uuid4().hex,
            language=language,
            answer="\n".join(lines),
            citations=citations,
        )


def _citation(n: int, passage: Passage) -> Citation:
    return Citation(
        id=n,
        title=passage.title,
        source=passage.source,
        url=passage.url,
        section=passage.section,
        snippet=passage.snippet,
        doc_id=passage.doc_id,
        as_of=passage.as_of,
    )
