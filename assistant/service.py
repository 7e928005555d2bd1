"""The assistant: one ``ask`` that every channel (CLI, HTTP, widget, Slack) calls."""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Generator, Iterator
from typing import TYPE_CHECKING

from assistant.composer import Composer, Draft
from assistant.errors import InvalidInput
from assistant.memory import Conversation, ConversationStore
from assistant.models import Answer, Started, ToolCall
from assistant.render import answer_html
from assistant.retriever import Retriever
from assistant.router import UNFAMILIAR_WORDS, Context, Intent, Router, Task, Understanding
from assistant.toolbox import ToolBox, ToolRun
from knowledge.text import tokenize

if TYPE_CHECKING:  # annotations only: the service runs whatever agent wiring.py built, or none
    from assistant.agent import ToolCallingAgent, ToolCallingMode

MAX_MESSAGE_CHARS = 4000
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class Assistant:
    """Routes a message, runs the calculators it needs, retrieves passages, composes and remembers."""

    def __init__(
        self,
        *,
        router: Router,
        tools: ToolBox,
        retriever: Retriever,
        composer: Composer,
        memory: ConversationStore,
        top_k: int = 6,
        agent: ToolCallingAgent | None = None,
        agent_when: ToolCallingMode = "always",
        offline: Composer | None = None,
    ) -> None:
        """``agent`` (a chat model calling the calculators) answers the turns ``agent_when`` gives it; a turn
        it cannot answer is answered by the rules and ``offline`` (default: ``composer``)."""
        self._router = router
        self._tools = tools
        self._retriever = retriever
        self._composer = composer
        self._memory = memory
        self._top_k = top_k
        self._agent = agent
        self._agent_when = agent_when
        self._offline = offline or composer

    @property
    def retriever(self) -> Retriever:
        """The retriever, refreshed by document administration after the index changes."""
        return self._retriever

    @property
    def router(self) -> Router:
        """What a message is understood as (intent, calculators, the query retrieval gets), for tools that
        look at one stage: benchmarks/leads.py."""
        return self._router

    @property
    def memory(self) -> ConversationStore:
        """The conversation store, for reading history and recording feedback."""
        return self._memory

    def ask(
        self,
        message: str,
        *,
        conversation_id: str | None = None,
        owner: str | None = None,
        start: bool = False,
    ) -> Answer:
        """Answer one message; pass ``conversation_id`` to continue a conversation.

        ``owner`` (a principal such as ``"user:alice"``; None for a trusted caller) owns the
        conversations it starts, and continuing one it does not own raises ``NotFound``, as does an
        unknown id unless ``start`` (a channel naming its own conversations) is set.
        """
        *_, answer = self.stream(message, conversation_id=conversation_id, owner=owner, start=start)
        assert isinstance(answer, Answer)
        return answer

    def stream(
        self,
        message: str,
        *,
        conversation_id: str | None = None,
        owner: str | None = None,
        start: bool = False,
    ) -> Iterator[Started | str | ToolCall | Answer]:
        """``Started`` (ids and language), the answer's text deltas (and, when a chat model calls the
        calculators, each ``ToolCall`` as it is made), then the whole ``Answer`` (stored before it is yielded).

        The message and the conversation are checked here, before the first item, so a caller can
        still answer ``InvalidInput`` or ``NotFound`` with a status code instead of a stream.
        """
        text = _check(message)
        conversation = self._memory.load(conversation_id, owner=owner, start=start)
        return self._answer(text, conversation)

    def _answer(self, text: str, conversation: Conversation) -> Iterator[Started | str | ToolCall | Answer]:
        route = self._router.route(text, earlier=_context(conversation))
        earlier = conversation.turns[-1].message if conversation.turns else ""
        if route.intent == Intent.OUT_OF_SCOPE and route.missing == UNFAMILIAR_WORDS:
            close = self._retriever.closeness(route.query)
            if close >= IN_DOMAIN:
                # words the router does not list, a meaning the knowledge base holds ("激活重计算是啥")
                route = route.model_copy(update={"intent": Intent.KNOWLEDGE, "missing": None})
            elif earlier and close + self._retriever.likeness(text, earlier) >= FOLLOWS_ON:
                # "is reading straight from S3 ok then?" after a question on where the training data lives: near
                # the index and near that question together, so about it
                route = route.model_copy(
                    update={"intent": Intent.KNOWLEDGE, "missing": None, "query": f"{text} {earlier}"}
                )
        if (
            route.carried
            and (close := self._retriever.closeness(text)) < CARRIED_ON
            # "can we do both? like own a small base and burst" after buy-or-rent: about it, by that question's
            # meaning
            and not (earlier and close + self._retriever.likeness(text, earlier) >= FOLLOWS_ON)
        ):
            # "那明天会下雨吗" after a question about cards: "那" carries on, but nothing in it is about the domain
            route = route.model_copy(
                update={"intent": Intent.OUT_OF_SCOPE, "missing": UNFAMILIAR_WORDS, "carried": False}
            )
        if _reads_as_noise(route, self._retriever):
            # "purple monkey dishwasher gpu????": a domain word among words no guidance uses; ask, never a passage
            route = route.model_copy(update={"intent": Intent.CLARIFY, "missing": "unclear"})
        message_id = uuid.uuid4().hex
        yield Started(conversation_id=conversation.id, message_id=message_id, language=route.language)
        draft: Draft | None = None
        fell_back: str | None = None
        timings: dict[str, float] = {}
        if self._agent is not None and self._wants_agent(route):
            started = time.perf_counter()
            outcome = yield from self._agent.answer(text, language=route.language, history=conversation.turns)
            timings["llm"] = time.perf_counter() - started
            draft = outcome.draft
            fell_back = outcome.reason
        if draft is None:
            composer = self._offline if fell_back else self._composer
            draft, route = yield from self._offline_draft(text, route, conversation, composer, timings)
            if fell_back:
                draft = draft.model_copy(update={"notes": [*draft.notes, f"llm_fallback: {fell_back}"]})
        answer = Answer(
            conversation_id=conversation.id,
            message_id=message_id,
            language=route.language,
            answer=draft.answer,
            answer_html=answer_html(draft.answer, [c.table for c in draft.calculations]),
            citations=draft.citations,
            tool_calls=draft.tool_calls,
            assumptions=draft.assumptions,
            follow_ups=draft.follow_ups,
            notes=draft.notes,
            calculations=draft.calculations,
            timings=timings,
        )
        conversation.slots = route.slots
        if draft.tool_calls:
            conversation.tools = [call.name for call in draft.tool_calls]
        conversation.state = {
            key: str(value)
            for key, value in (("intent", route.intent), ("task", route.task), ("asked", route.asked))
            if value is not None
        }
        self._memory.save_turn(conversation, text, answer)
        yield answer

    def _wants_agent(self, route: Understanding) -> bool:
        """Whether the chat model answers this turn: every turn, or (``unsure``) the ones the rules would ask
        back on, or read as outside the domain, or find no close passage for."""
        if self._agent_when == "always":
            return True
        if self._agent_when != "unsure":
            return False
        if route.intent == Intent.GREETING:
            return False
        if route.intent in {Intent.CLARIFY, Intent.OUT_OF_SCOPE}:
            return True
        return not route.tools and self._retriever.closeness(route.query) < IN_DOMAIN

    def _offline_draft(
        self,
        text: str,
        route: Understanding,
        conversation: Conversation,
        composer: Composer,
        timings: dict[str, float],
    ) -> Generator[str, None, tuple[Draft, Understanding]]:
        """The rules' answer: the calculators the route names, the passages, the composer's text deltas;
        returns the draft and the route it answered (a repeated follow-up is answered as a question)."""
        run = (
            self._tools.run_for(route.tools, route.slots, previous=route.previous)
            if route.tools
            else ToolRun()
        )
        if run.calls and not route.recap and _repeats_last_turn(route, run, conversation):
            # "and if we push params to nvme too?", "why not 3 per rack?": a follow-up the calculators read
            # nothing new in would get the last answer again, word for word; the guidance answers it instead
            last = conversation.turns[-1]
            # nor is it led by the passage that stood beside those figures ("and on the software side, what
            # breaks?" after a comparison led by the overview of GPU generations)
            said = next(
                (
                    f"{c.doc_id}#{c.section}"
                    for c in last.answer.citations
                    if not c.doc_id.startswith("catalog/")
                ),
                None,
            )
            route = route.model_copy(
                update={
                    "intent": Intent.KNOWLEDGE,
                    "tools": [],
                    "query": f"{text} {last.message}",
                    "seen": [*route.seen, said] if said else route.seen,
                }
            )
            run = ToolRun()
        passages = []
        if route.intent not in {Intent.OUT_OF_SCOPE, Intent.GREETING, Intent.CLARIFY}:
            started = time.perf_counter()
            # a second question beside the figures ("…and will it be painfully slow?") is what the guidance answers
            query = f"{route.aside} {route.query}" if route.aside and run.calls else route.query
            passages = self._retriever.search(query, k=self._top_k, prefer_language=route.language)
            if route.aside and run.calls:
                # and the clause alone, whose words the figures' words outweigh in the whole question ("gaudi 3:
                # memory, bf16, power? and do we need infiniband for it"): the two rankings taken in turn
                alone = self._retriever.search(route.aside, k=self._top_k, prefer_language=route.language)
                merged = [p for pair in zip(passages, alone, strict=False) for p in pair]
                merged += passages[len(alone) :] + alone[len(passages) :]
                passages = list({p.chunk_id: p for p in merged}.values())[: self._top_k]
            passages = [p for p in passages if f"{p.doc_id}#{p.section}" not in route.seen]
            timings["retrieval"] = time.perf_counter() - started
        draft: Draft | None = None
        for item in composer.stream(route, passages, run):
            if isinstance(item, Draft):
                draft = item
            else:
                yield item
        assert draft is not None
        return draft, route


def _context(conversation: Conversation) -> Context:
    """What the conversation so far lends to the next message: slots, the last calculators and their
    results, and what the last turn understood."""
    # the results of the last few calculation turns, oldest first: a follow-up may price the run an
    # earlier turn worked out ("what would that cost?" after "and with 256 GPUs?")
    calls = [call for turn in conversation.turns[-4:] for call in turn.answer.tool_calls]
    state = conversation.state
    last = conversation.turns[-1] if conversation.turns else None
    return Context(
        slots=conversation.slots,
        tools=conversation.tools,
        intent=Intent(state["intent"]) if state.get("intent") in set(Intent) else None,
        task=Task(state["task"]) if state.get("task") in set(Task) else None,
        asked=state.get("asked"),
        calls=calls,
        question=last.message if last else "",
        led=f"{lead.doc_id}#{lead.section}"
        if last and not last.answer.tool_calls and (lead := next(iter(last.answer.citations), None))
        else None,
    )


# asking for the same answer again, or in another currency, are the follow-ups that may repeat its figures
_SHOWN_AGAIN = {"target_currency"}
_AGAIN = re.compile(r"\b(?:again|repeat|once more)\b|再(?:说|发|讲)一[遍次]|重复一下", re.I)


def _repeats_last_turn(route: Understanding, run: ToolRun, conversation: Conversation) -> bool:
    """Whether this follow-up would run the last turn's calculators on the same inputs to lead with the same
    quantity: nothing it said reached them."""
    if not conversation.turns or _AGAIN.search(route.query) or _SHOWN_AGAIN & route.stated.keys():
        return False
    previous = conversation.turns[-1].answer
    last = previous.tool_calls
    same_calls = [(c.name, c.input) for c in run.calls] == [(c.name, c.input) for c in last]
    # the same figures in the other language ("请用中文") are a new answer too
    return (
        bool(last)
        and same_calls
        and route.asked == conversation.state.get("asked")
        and route.language == previous.language
    )


def _check(message: str) -> str:
    text = message.strip()
    if not text:
        raise InvalidInput("message is empty")
    if len(text) > MAX_MESSAGE_CHARS:
        raise InvalidInput(f"message is {len(text)} characters; the limit is {MAX_MESSAGE_CHARS}")
    if _LONE_SURROGATE.search(text):  # e.g. "\ud800" in JSON, or undecodable bytes on a command line
        raise InvalidInput("message is not valid Unicode text (it holds a lone surrogate code point)")
    return text


# a question nothing in the knowledge base speaks to: most of its words appear in no passage
# how near in meaning a message with none of the domain's words must come to a sentence of the index to be
# read as a question for it: questions about its topics come within 0.5-0.7, recipes and weather 0.2-0.4
IN_DOMAIN = 0.45
# a message read as carrying on the conversation by its first word comes at least this near a sentence of the
# index: "那三年呢" 0.42 and "ok and then?" 0.31, "那明天会下雨吗" 0.23 and "and the capital of France?" 0.25
CARRIED_ON = 0.3
# or, in a conversation, its nearness to the index and to the question before it together come to this:
# "can we do both? like own a small base and burst" after buy-or-rent 0.28 + 0.20, "is reading straight from S3
# ok then?" after where the data lives 0.37 + 0.16; "那明天会下雨吗" after checkpoints 0.23 + 0.08, "what's the
# weather like in Paris tomorrow?" after Slurm-or-Kubernetes 0.20 + 0.11
FOLLOWS_ON = 0.45
_NOISE_SHARE = 0.7
_NOISE_MIN_TOKENS = 3


def _reads_as_noise(route: Understanding, retriever: Retriever) -> bool:
    """Whether a message routed to the knowledge base is mostly words no passage uses, with no quantity
    or card besides (a card's name alone does not make "purple monkey dishwasher gpu" a question)."""
    if route.intent != Intent.KNOWLEDGE or route.follow_up or route.tools or set(route.stated) - {"gpu"}:
        return False
    return (
        len(tokenize(route.query)) >= _NOISE_MIN_TOKENS
        and retriever.unknown_share(route.query) >= _NOISE_SHARE
    )
