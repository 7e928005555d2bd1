"""Tool calling: a configured chat model reads the conversation, calls the calculators and the knowledge base
as tools, and writes the answer from their outputs and the passages it cites.

The guarantees of the offline path hold here too. Every tool input is validated by the calculator's own
pydantic model, and an invalid call is answered to the model as an error it may correct (twice at most).
Every number of the answer must come from a tool's input or output, a cited passage or the user's own
messages (the numeric check of ``composer/grounding.py``), every citation must name a passage the model
was given, and the answer must be in the user's language. Whatever the model cannot do in time (timeout,
refusal, malformed or invalid calls, provider down, an answer that fails a check) ends in ``Fallback``:
the service then answers from the rules and templates, with the reason in the answer's notes.
"""

from __future__ import annotations

import json
import logging
import queue
import re
import threading
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.tools import StructuredTool
from pydantic import BaseModel, Field

from assistant.calculators import CALCULATORS, summarize
from assistant.composer import Draft
from assistant.composer.grounding import allowed_numbers, check_answer, cited_ids, numbers_in
from assistant.composer.llm import (
    DROPPED_OUTPUTS,
    INJECTION_GUARD,
    LANGUAGE_NAMES,
    citation_of,
    defuse,
    numbered_passage,
)
from assistant.composer.template import calculation
from assistant.memory import Turn
from assistant.models import ToolCall
from assistant.retriever import Passage, Retriever
from assistant.toolbox import ToolRun
from knowledge.catalog import Catalog
from knowledge.text import Language
from tools.as_langchain import as_langchain_tools
from tools.registry import ToolInputError, UnknownToolError, run

logger = logging.getLogger(__name__)

SEARCH_TOOL = "search_knowledge"
SYSTEM_PROMPT = (
    "You are Advisor, an assistant that helps teams choose and size servers for training and serving large "
    "language models: accelerators, GPU memory, training time and cost, storage, host RAM, networking, power "
    "and racks, budgets and total cost of ownership.\n"
    "- Write the whole answer in {language}.\n"
    "- Every figure you state must come from a tool's result, a passage or the user's own message. Call the "
    "calculators for every quantity (memory, time, GPU count, cost, power, storage, bandwidth...), passing the "
    "figures the user gave; never do arithmetic or estimate yourself. You may round a result or change its "
    "unit (1,500B tokens = 1.5T tokens). Call several tools in one turn when the question needs them.\n"
    "- For guidance, definitions and comparisons, use the passages below; call {search} for other topics. "
    "Cite the passages you rely on as [n]. Cite nothing else.\n"
    "- Start with the direct answer to what was asked, with the user's numbers, in the first sentence; then "
    "explain briefly (at most about 150 words). The calculators' tables are appended after your answer, so do "
    "not repeat them as tables.\n"
    "- A follow-up changes one input of the earlier question: call the calculator again with that change.\n"
    "- If the question is not about these topics, say briefly what you can help with instead.\n"
    "- " + INJECTION_GUARD
)
_HISTORY_TURNS = 6
_HISTORY_CHARS = 1500
_MAX_CALLS = 12  # tool calls in one turn, over all rounds
_HAN = re.compile(r"[\u3400-\u9fff]")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")

T = TypeVar("T")


class SearchInput(BaseModel):
    """Search the knowledge base (selection guidance and hardware specs, English and Chinese)."""

    query: str = Field(min_length=1, max_length=500, description="What to look for, in the user's words.")


class Fallback(Exception):
    """The model could not answer this turn; ``reason`` is short and safe to show in notes."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class Outcome:
    """One turn of the agent: its draft, or why the offline path answers instead."""

    draft: Draft | None = None
    reason: str | None = None


ToolCallingMode = Literal["always", "unsure", "never"]


class ToolCallingAgent:
    """Answers a turn with a chat model that calls the calculators and the knowledge base as tools."""

    def __init__(
        self,
        *,
        model: BaseChatModel,
        catalog: Catalog,
        retriever: Retriever,
        timeout_s: float,
        top_k: int = 4,
        max_rounds: int = 5,
        max_corrections: int = 2,
    ) -> None:
        self._catalog = catalog
        self._retriever = retriever
        self._timeout_s = timeout_s
        self._top_k = top_k
        self._max_rounds = max_rounds
        self._max_corrections = max_corrections
        self._model = model.bind_tools(tool_schemas(catalog))

    def answer(
        self, message: str, *, language: Language, history: list[Turn]
    ) -> Generator[str | ToolCall, None, Outcome]:
        """Text deltas and each calculator call as it is made; returns the ``Outcome``.

        Never raises for anything the model or its provider does: those end as ``Outcome.reason``.
        """
        try:
            draft = yield from self._answer(message, language, history)
        except Fallback as exc:
            logger.warning("the chat model's turn fell back to the rules: %s", exc.reason)
            return Outcome(reason=exc.reason)
        except Exception as exc:  # the provider's client, a connection refused, a response it cannot read
            logger.warning("the chat model failed; answering from the rules", exc_info=True)
            return Outcome(reason=f"llm_error: {type(exc).__name__}")
        return Outcome(draft=draft)

    def _answer(
        self, message: str, language: Language, history: list[Turn]
    ) -> Generator[str | ToolCall, None, Draft]:
        deadline = time.monotonic() + self._timeout_s
        calls: list[ToolCall] = []
        passages = self._retriever.search(message, k=self._top_k, prefer_language=language)
        messages: list[BaseMessage] = [
            SystemMessage(
                content=SYSTEM_PROMPT.format(language=LANGUAGE_NAMES[language], search=SEARCH_TOOL)
            ),
            *_history(history),
            HumanMessage(content=_question(message, passages)),
        ]
        written: list[str] = []
        errors: list[str] = []
        corrections = 0
        for _ in range(self._max_rounds):
            reply = yield from self._round(messages, deadline)
            if reply.text.strip():
                written.append(reply.text.strip())
            requested = [*reply.tool_calls, *reply.invalid_tool_calls]
            if not requested:
                break
            if len(calls) + len(requested) > _MAX_CALLS:
                raise Fallback(f"more than {_MAX_CALLS} tool calls")
            messages.append(reply)
            failed = False
            for call in reply.tool_calls:
                content, ok, ran = self._call(call["name"], call["args"], language, passages)
                if ran is not None:
                    calls.append(ran)
                    yield ran
                if not ok:
                    failed = True
                    errors.append(content)
                messages.append(
                    ToolMessage(content=content, tool_call_id=call["id"] or "", status=_status(ok))
                )
            for bad in reply.invalid_tool_calls:
                failed = True
                content = (
                    f"error: the arguments of {bad.get('name')} are not valid JSON; send them again as JSON"
                )
                messages.append(
                    ToolMessage(content=content, tool_call_id=bad.get("id") or "", status="error")
                )
            if failed:
                corrections += 1
                if corrections > self._max_corrections:
                    raise Fallback(f"tool inputs still invalid after {self._max_corrections} corrections")
        else:
            raise Fallback(f"no answer after {self._max_rounds} rounds")
        prose = "\n\n".join(written)
        if not prose:
            raise Fallback("empty answer (refused or nothing written)")
        if not in_language(prose, language):
            raise Fallback(f"answer not in {LANGUAGE_NAMES[language]}")
        spoken = [message, *(turn.message for turn in history[-_HISTORY_TURNS:])]
        allowed = allowed_numbers(ToolRun(calls=calls, errors=errors), passages) | numbers_in(spoken)
        problem = check_answer(prose, allowed=allowed, passages=len(passages))
        if problem:
            raise Fallback(f"llm_rejected: {problem}")
        calculations = [calculation(call, summarize(call), language) for call in calls]
        tables = [c.table for c in calculations if c.table]
        if tables:
            yield "\n\n" + "\n\n".join(tables)
        cited = cited_ids(prose)
        first = CALCULATORS.get(calls[0].name) if calls else None
        return Draft(
            answer="\n\n".join([prose, *tables]),
            citations=[citation_of(n, p) for n, p in enumerate(passages, 1) if n in cited],
            tool_calls=calls,
            follow_ups=first.follow_ups(language) if first else [],
            notes=["composer: llm tools"],
            calculations=calculations,
        )

    def _round(self, messages: list[BaseMessage], deadline: float) -> Generator[str, None, AIMessage]:
        """One request to the model: its text as it comes, then the whole message with its tool calls."""
        reply: AIMessageChunk | None = None
        for chunk in before(deadline, lambda: self._model.stream(messages), timeout_s=self._timeout_s):
            if not isinstance(chunk, AIMessageChunk):
                continue
            reply = chunk if reply is None else reply + chunk
            delta = str(chunk.text)
            if delta:
                yield delta
        if reply is None:
            raise Fallback("the model sent nothing")
        if reply.additional_kwargs.get("refusal"):
            raise Fallback("refused")
        return AIMessage(
            content=reply.content,
            tool_calls=reply.tool_calls,
            invalid_tool_calls=reply.invalid_tool_calls,
            id=reply.id,
        )

    def _call(
        self,
        name: str,
        args: dict[str, Any],
        language: Language,
        passages: list[Passage],
    ) -> tuple[str, bool, ToolCall | None]:
        """Run one tool call: what to tell the model, whether it ran, and the calculator's call if one ran
        (a search adds the passages it finds to ``passages``, numbered on)."""
        if name == SEARCH_TOOL:
            query = args.get("query")
            if not isinstance(query, str) or not query.strip():
                return "error: query: a non-empty string is required", False, None
            found = self._retriever.search(query[:500], k=self._top_k, prefer_language=language)
            known = {p.chunk_id: n for n, p in enumerate(passages, 1)}
            shown = []
            for p in found:
                if p.chunk_id not in known:
                    passages.append(p)
                    known[p.chunk_id] = len(passages)
                shown.append(numbered_passage(known[p.chunk_id], p))
            return (defuse("\n\n".join(shown)) if shown else "no passage found"), True, None
        try:
            done = run(name, args, self._catalog)
        except ToolInputError as exc:
            problems = [{"field": p.field, "message": p.message} for p in exc.problems]
            error = {"error": "invalid input", "problems": problems, "suggestions": exc.suggestions}
            return json.dumps(error, ensure_ascii=False), False, None
        except UnknownToolError as exc:
            return f"error: {exc}", False, None
        call = ToolCall(name=done.name, input=done.input, output=done.output)
        output = {k: v for k, v in done.output.items() if k not in DROPPED_OUTPUTS}
        result = {"headline": summarize(call).headline(language), "output": output}
        return defuse(json.dumps(result, ensure_ascii=False, separators=(",", ":"))), True, call


def tool_schemas(catalog: Catalog) -> list[StructuredTool]:
    """The calculators (their docstrings, with the Chinese title, as descriptions) and the knowledge search."""
    tools = []
    for tool in as_langchain_tools(catalog):
        calculator = CALCULATORS.get(tool.name)
        if calculator is not None:
            tool.description = f"{tool.description}\n\n中文：{calculator.heading('zh')}"
        tools.append(tool)
    search = StructuredTool.from_function(
        func=lambda query: query,  # never run by LangChain: the agent searches itself
        name=SEARCH_TOOL,
        description=(SearchInput.__doc__ or "") + "\n\n中文：检索知识库（选型指南与硬件规格）",
        args_schema=SearchInput,
    )
    return [*tools, search]


def _status(ok: bool) -> Literal["success", "error"]:
    return "success" if ok else "error"


def _history(turns: list[Turn]) -> list[BaseMessage]:
    """The last turns as messages: what the user said, and what was answered with which calculator inputs."""
    out: list[BaseMessage] = []
    for turn in turns[-_HISTORY_TURNS:]:
        answer = turn.answer.answer[:_HISTORY_CHARS]
        inputs = "; ".join(
            f"{c.name}({json.dumps(c.input, ensure_ascii=False, separators=(',', ':'))})"
            for c in turn.answer.tool_calls
        )
        if inputs:
            answer += f"\n\n(calculators run: {inputs})"
        out += [HumanMessage(content=defuse(turn.message)), AIMessage(content=defuse(answer))]
    return out


def _question(message: str, passages: list[Passage]) -> str:
    numbered = "\n\n".join(numbered_passage(n, p) for n, p in enumerate(passages, 1))
    return (
        f"<question>\n{defuse(message)}\n</question>\n\n"
        f"<passages>\n{defuse(numbered) if passages else '(none)'}\n</passages>"
    )


def in_language(text: str, language: Language) -> bool:
    """Whether ``text`` is written in ``language``: Chinese holds Han characters beside its English terms
    (H100, MFU, ZeRO), English holds (almost) none."""
    han = len(_HAN.findall(text))
    latin = sum(len(w) for w in _LATIN_WORD.findall(text))
    if language == "zh":
        return han >= 0.2 * (han + latin) and han > 0
    return han <= 0.05 * (han + latin)


def before(deadline: float, start: Callable[[], Iterator[T]], *, timeout_s: float) -> Iterator[T]:
    """The items of ``start()``, read in a worker thread, until ``deadline`` (``time.monotonic``): then
    ``Fallback``. A model that stops sending mid-answer cannot hold the turn past the configured timeout;
    the abandoned thread ends when its client's own timeout does."""
    items: queue.Queue[tuple[str, Any]] = queue.Queue()

    def produce() -> None:
        try:
            for item in start():
                items.put(("item", item))
        except BaseException as exc:
            items.put(("error", exc))
        else:
            items.put(("end", None))

    threading.Thread(target=produce, name="llm-stream", daemon=True).start()
    while True:
        left = deadline - time.monotonic()
        try:
            kind, value = items.get(timeout=max(left, 0.0))
        except queue.Empty:
            raise Fallback(f"timeout after {timeout_s:g} s") from None
        if kind == "end":
            return
        if kind == "error":
            raise value
        yield value
