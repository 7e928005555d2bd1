"""LLM mode: a configured chat model reads the question, calls the calculators (and the knowledge base) as
tools and writes the answer; anything it cannot do falls back to the rules and templates with a note.

The model is the scripted OpenAI-compatible stand-in (tests/llm_standin.py) on a loopback port, reached by
the real langchain-openai client; the router, calculators, retriever, checks and channels are the real code.
Each path is driven through ``Assistant.ask`` and through ``/v1/chat`` over real HTTP.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from slack_sdk import WebClient

from api.app import create_app
from api.slack import listeners
from assistant.agent import SEARCH_TOOL, ToolCallingAgent, ToolCallingMode
from assistant.composer.llm import LLMComposer
from assistant.composer.template import TemplateComposer
from assistant.memory import SqliteStore
from assistant.models import Answer
from assistant.providers import load_chat_model
from assistant.retriever import HybridRetriever
from assistant.router import Router
from assistant.service import Assistant
from assistant.settings import Settings
from assistant.slots import SlotExtractor
from assistant.toolbox import ToolBox
from knowledge.catalog import default_catalog
from knowledge.names import NameIndex
from tests.helpers import free_port, serve
from tests.llm_standin import ScriptedLLM, scripted_llm
from tests.slack_standin import SlackStandIn

pytestmark = pytest.mark.integration

QUESTION = "how long to train a 7B model on 1T tokens with 64 H100s at 40% MFU?"
RUN = {"params_b": 7, "tokens_b": 1000, "gpu": "H100", "gpus": 64, "mfu": 0.4}
# 6·N·D = 4.2e22 FLOPs at 989.4 dense BF16 TFLOP/s x 40% (the catalog's H100 SXM5): 29,480 GPU-hours, 19.2 days
GPU_HOURS = 6 * 7e9 * 1e12 / (989.4e12 * 0.4) / 3600
DAYS = GPU_HOURS / 64 / 24
GOOD_EN = f"Training the 7B model on 1T tokens with 64 H100s at 40% MFU takes about {DAYS:.1f} days."


@pytest.fixture(scope="module")
def standin() -> Iterator[ScriptedLLM]:
    with scripted_llm() as llm:
        yield llm


@pytest.fixture
def llm(standin: ScriptedLLM) -> Iterator[ScriptedLLM]:
    """The module's stand-in, emptied before each test; every scripted reply must have been asked for."""
    while standin.pending():
        standin.replies.get_nowait()
    standin.requests.clear()
    yield standin
    assert standin.pending() == 0, "the model was asked fewer times than the test scripted"


def _assistant(
    retriever: HybridRetriever,
    store: Path,
    base_url: str,
    *,
    timeout_s: float = 10.0,
    when: ToolCallingMode = "always",
) -> Assistant:
    """The assistant ``build_assistant`` makes for ``ADVISOR_LLM__MODEL=openai:scripted`` (sharing the session's
    retriever, so no index is loaded again)."""
    catalog = default_catalog()
    model = load_chat_model("openai:scripted", base_url=base_url, timeout=timeout_s)
    template = TemplateComposer(usd_to_cny=catalog.defaults.usd_to_cny)
    agent = (
        ToolCallingAgent(model=model, catalog=catalog, retriever=retriever, timeout_s=timeout_s)
        if when != "never"
        else None
    )
    return Assistant(
        router=Router(extractor=SlotExtractor(NameIndex(catalog))),
        tools=ToolBox(catalog=catalog),
        retriever=retriever,
        composer=LLMComposer(model=model, fallback=template),
        memory=SqliteStore(store),
        agent=agent,
        agent_when=when,
        offline=template,
    )


@pytest.fixture(scope="module")
def assistant(
    standin: ScriptedLLM, retriever: HybridRetriever, tmp_path_factory: pytest.TempPathFactory
) -> Assistant:
    return _assistant(retriever, tmp_path_factory.mktemp("agent") / "c.sqlite3", standin.base_url)


@pytest.fixture(scope="module")
def offline(retriever: HybridRetriever, tmp_path_factory: pytest.TempPathFactory) -> Assistant:
    """The same assistant with no chat model: the answers the fallbacks must equal."""
    catalog = default_catalog()
    return Assistant(
        router=Router(extractor=SlotExtractor(NameIndex(catalog))),
        tools=ToolBox(catalog=catalog),
        retriever=retriever,
        composer=TemplateComposer(usd_to_cny=catalog.defaults.usd_to_cny),
        memory=SqliteStore(tmp_path_factory.mktemp("offline") / "c.sqlite3"),
    )


@pytest.fixture(scope="module")
def base_url(indexed_settings: Settings, assistant: Assistant) -> Iterator[str]:
    """``/v1/chat`` and ``/v1/chat/completions`` of the LLM-mode assistant over real HTTP."""
    with serve(create_app(settings=indexed_settings, assistant=assistant)) as url:
        yield url


Ask = Callable[..., Answer]


@pytest.fixture(params=["Assistant.ask", "/v1/chat"])
def ask(request: pytest.FixtureRequest, indexed_settings: Settings) -> Iterator[Ask]:
    """``ask(assistant, message, conversation_id=None)``: through ``Assistant.ask``, or through ``POST /v1/chat``
    of an app serving that assistant over real HTTP (one server per assistant, for the test's length)."""
    with contextlib.ExitStack() as servers:
        urls: dict[int, str] = {}

        def call(assistant: Assistant, message: str, conversation_id: str | None = None) -> Answer:
            if request.param == "Assistant.ask":
                return assistant.ask(message, conversation_id=conversation_id)
            if id(assistant) not in urls:
                app = create_app(settings=indexed_settings, assistant=assistant)
                urls[id(assistant)] = servers.enter_context(serve(app))
            body = {"message": message, "conversation_id": conversation_id}
            reply = httpx.post(f"{urls[id(assistant)]}/v1/chat", json=body, timeout=60)
            assert reply.status_code == 200, reply.text
            return Answer.model_validate(reply.json())

        yield call


def _request_tools(request: dict[str, Any]) -> list[str]:
    return [t["function"]["name"] for t in request.get("tools", [])]


def _fell_back(notes: list[str]) -> str:
    return next((n for n in notes if n.startswith("llm_fallback: ")), "")


# ------------------------------------------------------- through Assistant.ask and POST /v1/chat (the `ask` fixture)


def test_the_model_calls_a_calculator_with_the_users_figures_and_answers_from_its_output(
    ask: Ask, llm: ScriptedLLM, assistant: Assistant
) -> None:
    llm.enqueue_tools(("training_compute", RUN))
    llm.enqueue(GOOD_EN)
    answer = ask(assistant, QUESTION)
    assert answer.notes == ["composer: llm tools"]
    assert answer.answer.startswith(GOOD_EN)
    assert [(c.name, c.input["gpus"], c.input["mfu"]) for c in answer.tool_calls] == [
        ("training_compute", 64, 0.4)
    ]
    call = answer.tool_calls[0]
    assert call.output["days"]["expected"] == pytest.approx(DAYS, abs=0.01)
    assert call.output["gpu_hours"]["expected"] == pytest.approx(GPU_HOURS, rel=0.001)
    # the calculator's table follows the prose, and the card beside it is the same calculation
    assert "| Wall-clock days | 19.2 (15.3-21.9) |" in answer.answer
    assert [c.tool for c in answer.calculations] == ["training_compute"]
    # what the model was sent: every calculator and the search as tools, in English, then the tool's result
    first, second = llm.requests
    offered = _request_tools(first)
    assert {"training_compute", "training_memory", "tco", "gpu_spec", SEARCH_TOOL} <= set(offered)
    assert len(offered) == 29
    described = next(t for t in first["tools"] if t["function"]["name"] == "training_compute")["function"]
    assert "6·N·D" in described["description"] or "FLOPs" in described["description"]
    assert "中文：" in described["description"]
    assert "English" in first["messages"][0]["content"]
    (result,) = llm.tool_results()
    assert result["tool_call_id"] == "call_0"
    assert "19.2 days" in json.loads(result["content"])["headline"]
    assert _request_tools(second) == offered


def test_several_tools_in_one_turn_in_chinese_with_a_cited_passage(
    ask: Ask, llm: ScriptedLLM, assistant: Assistant
) -> None:
    question = "70B全参微调，8张H100 80G，ZeRO-3，显存够不够？顺便算下2T token要训多少天，MFU按40%"
    memory = {"params_b": 70, "gpus": 8, "zero_stage": 3}
    compute = {"params_b": 70, "tokens_b": 2000, "gpu": "H100", "gpus": 8, "mfu": 0.4}
    # the days the model reads in the tool's result: 6 x 70e9 x 2e12 FLOPs at 989.4 TFLOP/s x 40% on 8 GPUs
    days = 6 * 70e9 * 2e12 / (989.4e12 * 0.4) / 8 / 86400
    answer_zh = f"8 张 H100 上按 ZeRO-3 做 70B 全参微调，2T token 在 MFU 40% 下约需 {days:,.0f} 天 [1]。"
    llm.enqueue_tools(("training_memory", memory), ("training_compute", compute))
    llm.enqueue(answer_zh)
    answer = ask(assistant, question)
    assert answer.language == "zh"
    assert answer.notes == ["composer: llm tools"], answer.notes
    assert answer.answer.startswith(answer_zh)
    assert [c.name for c in answer.tool_calls] == ["training_memory", "training_compute"]
    assert [c.id for c in answer.citations] == [1]
    assert "简体中文" in llm.requests[0]["messages"][0]["content"]
    # the tables are the Chinese ones, in the order the model called the calculators
    assert [c.tool for c in answer.calculations] == ["training_memory", "training_compute"]
    assert "| 项目 | 取值 |" in answer.answer
    assert len(llm.tool_results()) == 2
    assert answer.tool_calls[1].output["days"]["expected"] == pytest.approx(days, rel=0.001)


def test_invalid_arguments_are_answered_as_errors_the_model_corrects(
    ask: Ask, llm: ScriptedLLM, assistant: Assistant
) -> None:
    llm.enqueue_tools(("training_compute", {**RUN, "gpus": -64, "mfu": 4}))
    llm.enqueue_tools(("training_compute", "this is not json {"))
    llm.enqueue_tools(("training_compute", RUN))
    llm.enqueue(GOOD_EN)
    answer = ask(assistant, QUESTION)
    assert answer.notes == ["composer: llm tools"], answer.notes
    assert [c.input["gpus"] for c in answer.tool_calls] == [64]  # only the valid call ran
    # the first error names each bad field, as the same pydantic model says it over /v1/tools
    (invalid,) = llm.tool_results(1)  # each request carries the turn so far: the latest result is last
    problems = json.loads(invalid["content"])["problems"]
    assert {p["field"] for p in problems} == {"gpus", "mfu"}
    malformed = llm.tool_results(2)[-1]
    assert "not valid JSON" in malformed["content"]


def test_still_invalid_after_two_corrections_falls_back_to_the_rules(
    ask: Ask, llm: ScriptedLLM, assistant: Assistant, offline: Assistant
) -> None:
    for _ in range(3):
        llm.enqueue_tools(("training_compute", {**RUN, "gpus": 0}))
    answer = ask(assistant, QUESTION)
    assert _fell_back(answer.notes) == "llm_fallback: tool inputs still invalid after 2 corrections"
    assert len(llm.requests) == 3
    expected = offline.ask(QUESTION)
    assert answer.answer == expected.answer
    assert [c.input for c in answer.tool_calls] == [c.input for c in expected.tool_calls]


def test_a_number_no_tool_produced_is_never_served(
    ask: Ask, llm: ScriptedLLM, assistant: Assistant, offline: Assistant
) -> None:
    llm.enqueue_tools(("training_compute", RUN))
    llm.enqueue("It takes about 42 days on 64 H100s.")
    answer = ask(assistant, QUESTION)
    assert _fell_back(answer.notes) == "llm_fallback: llm_rejected: unsupported number 42"
    assert "42 days" not in answer.answer
    assert answer.answer == offline.ask(QUESTION).answer


def test_an_answer_in_the_other_language_is_not_served(
    ask: Ask, llm: ScriptedLLM, assistant: Assistant
) -> None:
    llm.enqueue(GOOD_EN)
    answer = ask(assistant, "7B模型1T token，64张H100、MFU 40%，要训多少天？")
    assert answer.language == "zh"
    assert _fell_back(answer.notes) == "llm_fallback: answer not in Simplified Chinese (简体中文)"
    assert "天" in answer.answer.split("\n")[0]


def test_a_citation_of_a_passage_never_given_is_not_served(
    ask: Ask, llm: ScriptedLLM, assistant: Assistant
) -> None:
    llm.enqueue("InfiniBand has lower latency than RoCE [9].")
    answer = ask(assistant, "infiniband or roce for a 16 node cluster?")
    assert _fell_back(answer.notes) == "llm_fallback: llm_rejected: unknown citation [9]"


def test_the_knowledge_search_tool_numbers_its_passages_on_and_they_are_cited(
    ask: Ask, llm: ScriptedLLM, assistant: Assistant
) -> None:
    # the answer cites the first passage the search added after the ones sent with the question
    found = assistant.retriever.search("how should we connect our servers?", k=4, prefer_language="en")
    searched = assistant.retriever.search(
        "InfiniBand versus RoCE for training clusters", k=4, prefer_language="en"
    )
    added = [p for p in searched if p.chunk_id not in {f.chunk_id for f in found}]
    assert added, "the search must add a passage the question did not already bring"
    n = len(found) + 1
    llm.enqueue_tools((SEARCH_TOOL, {"query": "InfiniBand versus RoCE for training clusters"}))
    llm.enqueue(f"For a training cluster, the guidance compares InfiniBand and RoCE [{n}].")
    answer = ask(assistant, "how should we connect our servers?")
    assert answer.notes == ["composer: llm tools"], answer.notes
    assert [c.title for c in answer.citations] == [added[0].title]
    assert answer.tool_calls == []  # a search is not a calculation
    (result,) = llm.tool_results()
    assert result["content"].startswith(f"[{n}] ") or f"[{n}] " in result["content"]


def test_a_follow_up_reaches_the_model_with_the_conversation_and_its_calculator_inputs(
    ask: Ask, llm: ScriptedLLM, assistant: Assistant
) -> None:
    llm.enqueue_tools(("training_compute", RUN))
    llm.enqueue(GOOD_EN)
    first = ask(assistant, QUESTION)
    h200 = {**RUN, "gpu": "H200"}
    llm.enqueue_tools(("training_compute", h200))
    llm.enqueue("With H200s the same run takes about as long, since the dense BF16 peak is the same.")
    second = ask(assistant, "and with H200 instead?", conversation_id=first.conversation_id)
    assert second.notes == ["composer: llm tools"], second.notes
    assert second.tool_calls[0].input["gpu"] == "H200"
    sent = llm.requests[2]["messages"]
    assert [m["role"] for m in sent[:4]] == ["system", "user", "assistant", "user"]
    assert sent[1]["content"] == QUESTION
    assert GOOD_EN in sent[2]["content"]
    assert '"gpus":64' in sent[2]["content"]


@pytest.mark.parametrize(
    ("script", "reason"),
    [
        (lambda llm: llm.enqueue("upstream unavailable", status=503), "llm_error: OpenAIAPIError"),
        (lambda llm: llm.enqueue_garbage(), "llm_error: ValueError"),
        (
            lambda llm: llm.enqueue_refusal("I can't help with that."),
            "empty answer (refused or nothing written)",
        ),
    ],
    ids=["provider-error", "garbage", "refusal"],
)
def test_a_provider_that_fails_falls_back_to_the_rules(
    ask: Ask, llm: ScriptedLLM, assistant: Assistant, offline: Assistant, script: Any, reason: str
) -> None:
    script(llm)
    answer = ask(assistant, QUESTION)
    assert _fell_back(answer.notes) == f"llm_fallback: {reason}"
    assert answer.answer == offline.ask(QUESTION).answer


def test_a_provider_that_is_down_falls_back(
    ask: Ask, retriever: HybridRetriever, tmp_path: Path, offline: Assistant
) -> None:
    down = _assistant(retriever, tmp_path / "c.sqlite3", f"http://127.0.0.1:{free_port()}/v1")
    answer = ask(down, QUESTION)
    assert _fell_back(answer.notes) == "llm_fallback: llm_error: OpenAIConnectionError"
    assert answer.answer == offline.ask(QUESTION).answer


def test_a_model_slower_than_the_timeout_is_cut_off_at_the_timeout(
    ask: Ask, llm: ScriptedLLM, retriever: HybridRetriever, tmp_path: Path
) -> None:
    slow = _assistant(retriever, tmp_path / "c.sqlite3", llm.base_url, timeout_s=1.0)
    llm.enqueue(GOOD_EN, delay_s=30)
    started = time.monotonic()
    answer = ask(slow, QUESTION)
    took = time.monotonic() - started
    assert _fell_back(answer.notes) == "llm_fallback: timeout after 1 s"
    assert took < 1.0 + 5.0, f"the turn waited {took:.1f} s for a model with a 1 s timeout"
    assert answer.tool_calls
    assert answer.tool_calls[0].name == "training_compute"
    llm.released.set()  # let the stand-in's handler go
    llm.released.clear()


def test_unsure_mode_gives_the_model_only_the_turns_the_rules_are_unsure_of(
    ask: Ask, llm: ScriptedLLM, retriever: HybridRetriever, tmp_path: Path
) -> None:
    unsure = _assistant(retriever, tmp_path / "c.sqlite3", llm.base_url, when="unsure")
    # a question the rules read: the model only phrases the answer (no tools offered)
    llm.enqueue(GOOD_EN)
    answer = ask(unsure, QUESTION)
    assert answer.notes[0] == "composer: llm", answer.notes
    assert _request_tools(llm.requests[-1]) == []
    # one they would ask back on: the model reads it and calls the calculators
    llm.enqueue_tools(("training_compute", RUN))
    llm.enqueue(GOOD_EN)
    answer = ask(unsure, "our thing with the cards, how long would it go")
    assert answer.notes == ["composer: llm tools"], answer.notes
    assert SEARCH_TOOL in _request_tools(llm.requests[-1])


def test_never_mode_only_phrases(
    ask: Ask, llm: ScriptedLLM, retriever: HybridRetriever, tmp_path: Path
) -> None:
    never = _assistant(retriever, tmp_path / "c.sqlite3", llm.base_url, when="never")
    llm.enqueue(GOOD_EN)
    answer = ask(never, QUESTION)
    assert answer.notes[0] == "composer: llm", answer.notes
    assert all(_request_tools(r) == [] for r in llm.requests)


# ------------------------------------------------------------------------------- through /v1/chat over HTTP


def _events(text: str) -> list[tuple[str, Any]]:
    out = []
    for block in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        out.append((lines["event"], json.loads(lines["data"])))
    return out


def test_chat_streams_the_tool_call_as_it_is_made_then_the_models_tokens(
    llm: ScriptedLLM, base_url: str
) -> None:
    llm.enqueue_tools(("training_compute", RUN))
    llm.enqueue(GOOD_EN)
    with httpx.Client(base_url=base_url, timeout=30) as client:
        reply = client.post("/v1/chat", json={"message": QUESTION, "stream": True})
    assert reply.status_code == 200
    events = _events(reply.text)
    kinds = [kind for kind, _ in events]
    assert kinds[0] == "meta"
    assert kinds[-1] == "done"
    # the call first (the model asked for it before writing), once; then the prose in pieces, then the table
    assert kinds.count("tool_call") == 1
    assert kinds.index("tool_call") < kinds.index("token")
    tokens = "".join(data["text"] for kind, data in events if kind == "token")
    assert tokens.startswith(GOOD_EN)
    assert "| Wall-clock days | 19.2 (15.3-21.9) |" in tokens
    done = events[-1][1]
    assert done["answer"] == tokens
    assert done["notes"] == ["composer: llm tools"]
    assert [c["name"] for c in done["tool_calls"]] == ["training_compute"]


def test_the_openai_compatible_endpoint_answers_the_same_way(llm: ScriptedLLM, base_url: str) -> None:
    messages = [{"role": "user", "content": QUESTION}]
    llm.enqueue_tools(("training_compute", RUN))
    llm.enqueue(GOOD_EN)
    llm.enqueue_tools(("training_compute", RUN))
    llm.enqueue(GOOD_EN)
    with httpx.Client(base_url=base_url, timeout=30) as client:
        whole = client.post("/v1/chat/completions", json={"model": "advisor", "messages": messages}).json()
        streamed = client.post(
            "/v1/chat/completions", json={"model": "advisor", "messages": messages, "stream": True}
        ).text
    content = whole["choices"][0]["message"]["content"]
    assert content.startswith(GOOD_EN)
    assert "| Wall-clock days | 19.2 (15.3-21.9) |" in content
    chunks = [json.loads(line[6:]) for line in streamed.splitlines() if line.startswith("data: {")]
    assert "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks) == content


# ------------------------------------------------------------------------------------------------ in Slack


def test_slack_shows_a_slow_answer_as_it_is_written_then_replaces_it_with_the_answer(
    llm: ScriptedLLM, assistant: Assistant, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the listener shows text once an answer has taken STREAM_AFTER_S, then updates at most every UPDATE_EVERY_S
    monkeypatch.setattr(listeners, "STREAM_AFTER_S", 0.2)
    monkeypatch.setattr(listeners, "UPDATE_EVERY_S", 0.1)
    llm.enqueue_tools(("training_compute", RUN))
    llm.enqueue(GOOD_EN, pace_s=0.1)  # about 8 pieces: a second of writing
    with SlackStandIn() as slack:
        bot = listeners._Listeners(assistant)
        bot._answer(
            WebClient(base_url=slack.base_url), team="T1", channel="CLLM", thread_ts="1.000001", text=QUESTION
        )
    posts = slack.calls_to("chat.postMessage")
    updates = slack.calls_to("chat.update")
    # one message shows the text so far, growing; the last update turns it into the answer's first message
    assert posts[0].body["text"].endswith(" …")
    assert GOOD_EN.startswith(posts[0].body["text"].removesuffix(" …"))
    assert len(updates) >= 2
    shown = [u.body["text"] for u in updates[:-1]]
    assert all(a.removesuffix(" …") in b for a, b in itertools.pairwise(shown))
    final = updates[-1]
    assert final.body["ts"] == posts[0].reply["ts"]
    assert final.body["text"].startswith("Training the 7B model")
    assert final.blocks()
    # with the rest of the answer (calculation fields, sources, the feedback buttons) in it or after it
    rest = [*final.blocks(), *(b for p in posts[1:] for b in p.blocks())]
    assert any(b.get("type") == "section" and b.get("fields") for b in rest)
    assert any(b.get("type") == "actions" for b in rest)
