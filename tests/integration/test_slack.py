"""The Slack bot end to end: signed requests through FastAPI and the real Bolt app, the real assistant and
index, and Slack's Web API replaced by a recording stand-in on 127.0.0.1 (tests/slack_standin.py)."""

from __future__ import annotations

import contextlib
import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from itertools import count
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest
import yaml
from fastapi.testclient import TestClient
from langchain_core.embeddings import Embeddings
from pydantic import SecretStr
from slack_bolt.adapter.socket_mode import SocketModeHandler
from slack_sdk.signature import SignatureVerifier
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed
from websockets.sync.server import ServerConnection, serve

from api.app import create_app
from api.slack.blocks import ACTION_FEEDBACK_DOWN, ACTION_FEEDBACK_UP, answer_messages, friendly_error
from api.slack.bot import build_slack_app
from api.slack.form import (
    BUDGET_BLOCK,
    DEADLINE_BLOCK,
    GPU_BLOCK,
    GPU_COUNT_BLOCK,
    MODEL_SIZE_BLOCK,
    SIZING_CALLBACK_ID,
    TOKENS_BLOCK,
    sizing_modal,
)
from assistant import cli
from assistant.errors import InvalidInput, NotFound
from assistant.memory import Conversation
from assistant.models import Answer
from assistant.service import Assistant
from assistant.settings import ServerSettings, Settings, SlackSettings
from assistant.wiring import build_assistant
from tests.helpers import REPO, ContractClient
from tests.slack_standin import Call, SlackStandIn

pytestmark = pytest.mark.integration

SECRET = "test-signing-secret-0123456789abcdef"
PUBLIC_URL = "https://advisor.example"
TEAM = "T1"
DEADLINE_EN = "How many H100 to train a 70B model on 2T tokens in 30 days?"
DAYS_ZH = "用256张H100、MFU 45%，训练一个34B模型、1.5T token，要多少天？"
_ts = count(1)


def new_ts() -> str:
    """A fresh Slack message timestamp, so every test talks in its own threads."""
    return f"{1_700_000_000 + next(_ts)}.{uuid.uuid4().int % 1_000_000:06d}"


# fixtures ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def assistant(indexed_settings: Settings, use_embeddings: Embeddings) -> Assistant:
    return build_assistant(indexed_settings, use_embeddings)


@pytest.fixture(scope="module")
def slack() -> Iterator[SlackStandIn]:
    with SlackStandIn() as standin:
        yield standin


def slack_settings(settings: Settings, slack: SlackStandIn, **update: Any) -> Settings:
    section = SlackSettings(
        bot_token=SecretStr("xoxb-test"), signing_secret=SecretStr(SECRET), api_base_url=slack.base_url
    )
    return settings.model_copy(update={"slack": section, **update})


@pytest.fixture(scope="module")
def client(indexed_settings: Settings, assistant: Assistant, slack: SlackStandIn) -> Iterator[TestClient]:
    settings = slack_settings(
        indexed_settings, slack, server=indexed_settings.server.model_copy(update={"public_url": PUBLIC_URL})
    )
    with ContractClient(create_app(settings=settings, assistant=assistant)) as c:
        yield c


# signed requests from "Slack" -------------------------------------------------------------------


def signed(
    client: TestClient,
    body: str,
    content_type: str,
    *,
    timestamp: int | None = None,
    secret: str = SECRET,
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    stamp = str(int(time.time()) if timestamp is None else timestamp)
    signature = SignatureVerifier(secret).generate_signature(timestamp=stamp, body=body)
    assert signature is not None
    return client.post(
        "/slack/events",
        content=body.encode(),
        headers={
            "Content-Type": content_type,
            "X-Slack-Request-Timestamp": stamp,
            "X-Slack-Signature": signature,
            **(headers or {}),
        },
    )


def event_body(event: dict[str, Any], *, event_id: str | None = None) -> str:
    return json.dumps(
        {
            "token": "unused",
            "team_id": TEAM,
            "api_app_id": "A1",
            "type": "event_callback",
            "event_id": event_id or f"Ev{uuid.uuid4().hex[:10].upper()}",
            "event_time": int(time.time()),
            "event": event,
            "authorizations": [{"team_id": TEAM, "user_id": "UBOT", "is_bot": True}],
        },
        ensure_ascii=False,
    )


def send_event(client: TestClient, event: dict[str, Any], **kwargs: Any) -> httpx.Response:
    event_id = kwargs.pop("event_id", None)
    return signed(client, event_body(event, event_id=event_id), "application/json", **kwargs)


def mention(
    channel: str, text: str, *, ts: str, thread_ts: str | None = None, **extra: Any
) -> dict[str, Any]:
    event = {"type": "app_mention", "user": "U1", "text": text, "ts": ts, "channel": channel, "event_ts": ts}
    if thread_ts:
        event["thread_ts"] = thread_ts
    return {**event, **extra}


def direct_message(channel: str, text: str, *, ts: str, **extra: Any) -> dict[str, Any]:
    event = {
        "type": "message",
        "channel_type": "im",
        "user": "U1",
        "text": text,
        "ts": ts,
        "channel": channel,
    }
    return {**event, "event_ts": ts, **extra}


def send_command(client: TestClient, text: str, *, channel: str, user: str = "U1") -> httpx.Response:
    form = {
        "token": "unused",
        "team_id": TEAM,
        "channel_id": channel,
        "user_id": user,
        "command": "/advisor",
        "text": text,
        "api_app_id": "A1",
        "response_url": "https://hooks.slack.invalid/commands/1",
        "trigger_id": f"trigger-{uuid.uuid4().hex[:8]}",
    }
    return signed(client, urlencode(form), "application/x-www-form-urlencoded")


def send_interaction(client: TestClient, payload: dict[str, Any]) -> httpx.Response:
    body = urlencode({"payload": json.dumps(payload, ensure_ascii=False)})
    return signed(client, body, "application/x-www-form-urlencoded")


# reading what the bot did -----------------------------------------------------------------------


def in_thread(channel: str, thread_ts: str) -> Callable[[Call], bool]:
    return lambda c: c.body.get("channel") == channel and c.body.get("thread_ts") == thread_ts


def in_channel(channel: str) -> Callable[[Call], bool]:
    return lambda c: c.body.get("channel") == channel


def conversation(assistant: Assistant, channel: str, thread_ts: str) -> Conversation:
    return assistant.memory.get(f"slack:{TEAM}:{channel}:{thread_ts}")


def answer_posts(slack: SlackStandIn, channel: str, thread_ts: str, answer: Answer) -> list[Call]:
    """The calls that delivered every message of ``answer`` to the thread (waits for them)."""
    texts = [m["text"] for m in answer_messages(answer)]
    in_it = in_thread(channel, thread_ts)
    return slack.wait_for(
        "chat.postMessage", len(texts), lambda c: c.status == 200 and in_it(c) and c.body["text"] in texts
    )


def settled(client: TestClient) -> None:
    """Every answer the Slack app has begun has finished: whatever it would post is posted by now."""
    assert client.app.state.slack_listeners.wait_idle(timeout=10), "Slack listeners still busy after 10 s"  # type: ignore[attr-defined]


def answered(
    slack: SlackStandIn, assistant: Assistant, channel: str, thread_ts: str, turns: int = 1
) -> Answer:
    """The ``turns``-th answer of the thread's conversation, once it is stored and posted in full."""
    deadline = time.monotonic() + 10
    while True:
        with contextlib.suppress(NotFound):  # not stored yet
            stored = conversation(assistant, channel, thread_ts)
            if len(stored.turns) >= turns:
                break
        assert time.monotonic() < deadline, f"no answer {turns} in {channel}/{thread_ts} within 10 s"
        time.sleep(0.02)
    answer = stored.turns[turns - 1].answer
    answer_posts(slack, channel, thread_ts, answer)
    return answer


def action_ids(call: Call) -> list[str]:
    return [e.get("action_id", "") for b in call.blocks() if b["type"] == "actions" for e in b["elements"]]


# the tests ----------------------------------------------------------------------------------------


def test_a_mention_is_acknowledged_at_once_and_answered_in_its_thread(
    client: TestClient, slack: SlackStandIn, assistant: Assistant
) -> None:
    ts = new_ts()
    started = time.monotonic()
    resp = send_event(client, mention("CMENTION", f"<@UBOT> {DEADLINE_EN}", ts=ts))
    assert resp.status_code == 200
    assert time.monotonic() - started < 3  # Slack's limit for the acknowledgement

    answer = answered(slack, assistant, "CMENTION", ts)
    calc = next(c for c in answer.tool_calls if c.name == "gpus_for_deadline")
    assert (calc.input["params_b"], calc.input["tokens_b"], calc.input["gpu"]) == (70, 2000, "h100-sxm")
    assert conversation(assistant, "CMENTION", ts).turns[0].message == DEADLINE_EN  # the mention is stripped

    posts = answer_posts(slack, "CMENTION", ts, answer)
    assert all(p.headers["Authorization"] == "Bearer xoxb-test" for p in posts)
    blocks = [b for p in posts for b in p.blocks()]
    texts = json.dumps(blocks, ensure_ascii=False)
    assert "**" not in texts  # Slack mrkdwn, not Markdown
    assert any(b["type"] == "section" and b.get("fields") for b in blocks)  # the calculation as fields
    assert "824" in texts
    assert any(b["type"] == "context" and "<http" in json.dumps(b) for b in blocks)  # cited links
    for citation in answer.citations:  # the original, else this service's source page (server.public_url)
        assert f"<{citation.url or f'{PUBLIC_URL}/v1/sources/{citation.doc_id}'}|" in texts
    assert set(action_ids(posts[-1])) >= {ACTION_FEEDBACK_UP, ACTION_FEEDBACK_DOWN}
    eyes = slack.calls_to("reactions.add", lambda c: c.body.get("timestamp") == ts)
    assert [(c.body["channel"], c.body["name"]) for c in eyes] == [("CMENTION", "eyes")]
    assert slack.calls_to("auth.test")  # Bolt learns the bot's own user id once


def test_a_follow_up_in_the_thread_keeps_the_slots(
    client: TestClient, slack: SlackStandIn, assistant: Assistant
) -> None:
    root = new_ts()
    send_event(client, mention("CTHREAD", f"<@UBOT> {DEADLINE_EN}", ts=root))
    answered(slack, assistant, "CTHREAD", root)

    send_event(client, mention("CTHREAD", "<@UBOT> 换成A100呢？", ts=new_ts(), thread_ts=root))
    second = answered(slack, assistant, "CTHREAD", root, turns=2)
    calc = next(c for c in second.tool_calls if c.name == "gpus_for_deadline")
    assert calc.input["gpu"] == "a100-80gb-sxm"
    assert (calc.input["params_b"], calc.input["tokens_b"], calc.input["deadline_days"]) == (70, 2000, 30)
    assert second.language == "zh"

    # a new top-level mention is a new conversation: nothing carried over
    other = new_ts()
    send_event(client, mention("CTHREAD", "<@UBOT> what about A100?", ts=other))
    fresh = answered(slack, assistant, "CTHREAD", other)
    assert not any(c.input.get("params_b") == 70 for c in fresh.tool_calls)


def test_a_direct_message_in_chinese_is_answered_with_the_characters_intact(
    client: TestClient, slack: SlackStandIn, assistant: Assistant
) -> None:
    slack.answer_next("reactions.add", {"ok": False, "error": "missing_scope"})  # an optional nicety failing
    ts = new_ts()
    assert send_event(client, direct_message("DZH", DAYS_ZH, ts=ts)).status_code == 200

    answer = answered(slack, assistant, "DZH", ts)
    assert answer.language == "zh"
    expected = answer_messages(answer)
    posts = answer_posts(slack, "DZH", ts, answer)
    assert [json.loads(p.raw.decode("utf-8"))["text"] for p in posts] == [m["text"] for m in expected]
    assert "在 256 张" in posts[0].body["text"]
    assert "31.1" in posts[0].body["text"]
    assert "在 256 张" in json.dumps(posts[0].blocks(), ensure_ascii=False)


def test_bots_and_the_bot_itself_get_no_reply(
    client: TestClient, slack: SlackStandIn, assistant: Assistant
) -> None:
    ignored = [
        direct_message("DBOT", "hello from a bot", ts=new_ts(), bot_id="B2", subtype="bot_message"),
        direct_message("DSELF", "my own answer", ts=new_ts(), user="UBOT", bot_id="B1"),
        mention("CBOT", "<@UBOT> how many GPUs?", ts=new_ts(), bot_id="B2", user="U2"),
        direct_message("DEDIT", "edited", ts=new_ts(), subtype="message_changed"),
    ]
    for event in ignored:
        assert send_event(client, event).status_code == 200
    # a person's message sent afterwards is answered; by then the others would have been too
    ts = new_ts()
    send_event(
        client, direct_message("DPERSON", "How much host RAM does an 8-GPU training server need?", ts=ts)
    )
    answered(slack, assistant, "DPERSON", ts)
    settled(client)
    for channel in ("DBOT", "DSELF", "CBOT", "DEDIT"):
        assert not [c for c in slack.calls if c.body.get("channel") == channel], channel


def test_a_slash_command_answers_in_a_new_thread(
    client: TestClient, slack: SlackStandIn, assistant: Assistant
) -> None:
    resp = send_command(client, DEADLINE_EN, channel="CCMD")
    assert resp.status_code == 200
    assert resp.text == ""  # acknowledged silently; the question appears in the channel instead

    (header,) = slack.wait_for(
        "chat.postMessage", 1, lambda c: in_channel("CCMD")(c) and "thread_ts" not in c.body
    )
    assert header.body["text"] == f"<@U1> asked:\n> {DEADLINE_EN}"
    answer = answered(slack, assistant, "CCMD", header.reply["ts"])
    assert any(c.name == "gpus_for_deadline" for c in answer.tool_calls)


def test_a_slash_command_where_the_bot_is_not_a_member_answers_by_direct_message(
    client: TestClient, slack: SlackStandIn, assistant: Assistant
) -> None:
    slack.answer_next("chat.postMessage", {"ok": False, "error": "not_in_channel"})
    send_command(
        client, "How much host RAM does an 8-GPU training server need?", channel="CPRIVATE", user="UDM"
    )
    (header,) = slack.wait_for(
        "chat.postMessage", 1, lambda c: in_channel("UDM")(c) and "thread_ts" not in c.body
    )
    assert "host RAM" in header.body["text"]
    answered(slack, assistant, "UDM", header.reply["ts"])


def form_values(
    model: str, tokens: str, *, gpu: str | None = None, deadline: str | None = None
) -> dict[str, Any]:
    """A sizing form's ``view.state.values`` as Slack sends them (empty inputs included)."""

    def text(block: str, value: str | None, kind: str = "plain_text_input") -> dict[str, Any]:
        return {block: {block: {"type": kind, "value": value}}}

    option = {"text": {"type": "plain_text", "text": gpu}, "value": gpu} if gpu else None
    return {
        **text(MODEL_SIZE_BLOCK, model),
        **text(TOKENS_BLOCK, tokens),
        GPU_BLOCK: {GPU_BLOCK: {"type": "static_select", "selected_option": option}},
        **text(GPU_COUNT_BLOCK, None, "number_input"),
        **text(DEADLINE_BLOCK, deadline, "number_input"),
        **text(BUDGET_BLOCK, None),
    }


def submission(view: dict[str, Any], values: dict[str, Any], user: str = "U1") -> dict[str, Any]:
    return {
        "type": "view_submission",
        "team": {"id": TEAM},
        "user": {"id": user},
        "api_app_id": "A1",
        "trigger_id": "trigger-submit",
        "view": {**view, "id": "V1", "team_id": TEAM, "state": {"values": values}},
    }


def test_the_slash_command_alone_opens_the_sizing_form_in_the_users_language(
    client: TestClient, slack: SlackStandIn
) -> None:
    send_command(client, "", channel="CFORM")
    send_command(client, "规划", channel="CFORMZH")
    en, zh = (
        slack.wait_for(
            "views.open", 1, lambda c, ch=ch: json.loads(c.body["view"]["private_metadata"])["channel"] == ch
        )[0]
        for ch in ("CFORM", "CFORMZH")
    )
    assert en.body["trigger_id"].startswith("trigger-")
    for call, language in ((en, "en"), (zh, "zh")):
        view = call.body["view"]
        assert view["callback_id"] == SIZING_CALLBACK_ID
        assert view == sizing_modal(language, private_metadata=view["private_metadata"])
    assert not slack.calls_to("chat.postMessage", lambda c: c.body.get("channel") in {"CFORM", "CFORMZH"})


def test_a_sizing_form_submission_posts_the_calculation(
    client: TestClient, slack: SlackStandIn, assistant: Assistant
) -> None:
    view = sizing_modal("en", private_metadata=json.dumps({"channel": "CSIZE", "language": "en"}))
    resp = send_interaction(client, submission(view, form_values("70B", "2T", gpu="h100-sxm", deadline="30")))
    assert resp.status_code == 200
    assert resp.text == ""  # the form closes

    (header,) = slack.wait_for(
        "chat.postMessage", 1, lambda c: in_channel("CSIZE")(c) and "thread_ts" not in c.body
    )
    assert header.body["text"].startswith("<@U1> asked:")
    answer = answered(slack, assistant, "CSIZE", header.reply["ts"])
    calc = next(c for c in answer.tool_calls if c.name == "gpus_for_deadline")
    assert (calc.input["params_b"], calc.input["tokens_b"], calc.input["gpu"]) == (70, 2000, "h100-sxm")
    assert calc.input["deadline_days"] == 30
    posts = answer_posts(slack, "CSIZE", header.reply["ts"], answer)
    assert any(b.get("fields") for p in posts for b in p.blocks())


def test_an_invalid_sizing_form_gets_its_errors_back_in_the_forms_language(
    client: TestClient, slack: SlackStandIn
) -> None:
    view = sizing_modal("zh", private_metadata=json.dumps({"channel": "CSIZEBAD", "language": "zh"}))
    resp = send_interaction(client, submission(view, form_values("seventy", "")))
    assert resp.status_code == 200
    body = resp.json()
    assert body["response_action"] == "errors"
    assert set(body["errors"]) == {MODEL_SIZE_BLOCK, TOKENS_BLOCK}
    assert body["errors"][TOKENS_BLOCK] == "必填。"
    settled(client)
    assert not slack.calls_to("chat.postMessage", in_channel("CSIZEBAD"))


def test_a_failure_is_a_friendly_sentence_in_the_thread(
    client: TestClient, slack: SlackStandIn, assistant: Assistant, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(message: str, **kwargs: Any) -> Iterator[str]:
        yield "the answer so far"
        raise RuntimeError("secret internals")

    monkeypatch.setattr(assistant, "stream", broken)
    ts = new_ts()
    send_event(client, mention("CERR", "<@UBOT> 8卡H100一年电费多少？", ts=ts))
    (post,) = slack.wait_for("chat.postMessage", 1, in_thread("CERR", ts))
    assert post.body["text"] == friendly_error("zh")["text"]
    assert "secret" not in post.raw.decode()
    assert "Traceback" not in post.raw.decode()


@pytest.mark.parametrize(
    ("action_id", "rating", "question"),
    [(ACTION_FEEDBACK_UP, "up", DEADLINE_EN), (ACTION_FEEDBACK_DOWN, "down", DAYS_ZH)],
)
def test_a_vote_is_stored_as_feedback_and_acknowledged(
    client: TestClient, slack: SlackStandIn, assistant: Assistant, action_id: str, rating: str, question: str
) -> None:
    channel = f"DVOTE{rating.upper()}"
    ts = new_ts()
    send_event(client, direct_message(channel, question, ts=ts))
    answer = answered(slack, assistant, channel, ts)
    last = answer_posts(slack, channel, ts, answer)[-1]
    actions = next(b for b in last.blocks() if b["type"] == "actions")
    button = next(e for e in actions["elements"] if e["action_id"] == action_id)

    payload = {
        "type": "block_actions",
        "team": {"id": TEAM},
        "user": {"id": "U1"},
        "api_app_id": "A1",
        "trigger_id": "trigger-vote",
        "container": {"type": "message", "message_ts": last.reply["ts"], "channel_id": channel},
        "channel": {"id": channel},
        "message": {
            "type": "message",
            "ts": last.reply["ts"],
            "text": last.body["text"],
            "blocks": last.blocks(),
        },
        "response_url": "https://hooks.slack.invalid/actions/1",
        "actions": [{**button, "block_id": actions.get("block_id", ""), "action_ts": str(time.time())}],
    }
    assert send_interaction(client, payload).status_code == 200

    (update,) = slack.wait_for("chat.update", 1, in_channel(channel))
    assert update.body["ts"] == last.reply["ts"]
    assert not action_ids(update)  # the buttons give way to a thank-you in the answer's language
    thanks = "Thanks for the feedback" if answer.language == "en" else "感谢反馈"
    assert thanks in json.dumps(update.blocks(), ensure_ascii=False)
    assert update.blocks()[:-1] == last.blocks()[:-1]  # the answer itself is unchanged
    feedback = conversation(assistant, channel, ts).turns[0].feedback
    assert feedback is not None
    assert (feedback.message_id, feedback.rating) == (answer.message_id, rating)


def test_a_wrong_signature_is_refused_with_401(client: TestClient, slack: SlackStandIn) -> None:
    ts = new_ts()
    resp = send_event(client, mention("CFORGED", "<@UBOT> hi", ts=ts), secret="not-the-secret")
    assert resp.status_code == 401
    assert resp.json()["error"]["code"] == "invalid_signature"
    unsigned = client.post("/slack/events", content=event_body(mention("CFORGED", "hi", ts=ts)))
    assert unsigned.status_code == 401
    garbage = client.post("/slack/events", content=b"\xff\xfe", headers={"Content-Type": "application/json"})
    assert garbage.status_code == 400
    settled(client)
    assert not slack.calls_to("chat.postMessage", in_channel("CFORGED"))


def test_a_request_older_than_five_minutes_is_refused(client: TestClient, slack: SlackStandIn) -> None:
    ts = new_ts()
    resp = send_event(client, mention("COLD", "<@UBOT> hi", ts=ts), timestamp=int(time.time()) - 6 * 60)
    assert resp.status_code == 401  # correctly signed, but a replay
    assert "five minutes" in resp.json()["error"]["message"]
    settled(client)
    assert not slack.calls_to("chat.postMessage", in_channel("COLD"))


def test_a_retried_event_is_answered_once(
    client: TestClient, slack: SlackStandIn, assistant: Assistant
) -> None:
    ts = new_ts()
    event = mention("CRETRY", f"<@UBOT> {DEADLINE_EN}", ts=ts)
    retry = {"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"}
    # the retry arrives while the first delivery is still being answered, and once more afterwards
    assert send_event(client, event, event_id="EvRETRY1").status_code == 200
    assert send_event(client, event, event_id="EvRETRY1", headers=retry).status_code == 200
    answer = answered(slack, assistant, "CRETRY", ts)
    assert (
        send_event(
            client, event, event_id="EvRETRY1", headers={**retry, "X-Slack-Retry-Num": "2"}
        ).status_code
        == 200
    )

    later = new_ts()  # a later message, answered after anything the retries could have caused
    send_event(
        client, direct_message("DAFTER", "How much host RAM does an 8-GPU training server need?", ts=later)
    )
    answered(slack, assistant, "DAFTER", later)
    assert len(conversation(assistant, "CRETRY", ts).turns) == 1
    assert len(slack.calls_to("chat.postMessage", in_thread("CRETRY", ts))) == len(answer_messages(answer))
    assert len(slack.calls_to("reactions.add", lambda c: c.body.get("timestamp") == ts)) == 1


def test_slack_rate_limits_are_waited_out(
    client: TestClient, slack: SlackStandIn, assistant: Assistant
) -> None:
    slack.answer_next(
        "chat.postMessage", {"ok": False, "error": "ratelimited"}, status=429, headers={"Retry-After": "1"}
    )
    ts = new_ts()
    send_event(
        client,
        direct_message(
            "DLIMIT", "What is the difference between NVMe and SATA SSD for training data?", ts=ts
        ),
    )
    answer = answered(slack, assistant, "DLIMIT", ts)
    calls = slack.calls_to("chat.postMessage", in_thread("DLIMIT", ts))
    assert [c.status for c in calls] == [429] + [200] * len(answer_messages(answer))
    assert calls[0].body == calls[1].body  # the same message, sent again after Retry-After, and only once


def test_without_slack_settings_the_route_says_what_to_set(
    indexed_settings: Settings, assistant: Assistant
) -> None:
    with ContractClient(create_app(settings=indexed_settings, assistant=assistant)) as c:
        resp = c.post("/slack/events", content=b"{}", headers={"Content-Type": "application/json"})
    assert resp.status_code == 404
    error = resp.json()["error"]
    assert error["code"] == "slack_not_configured"
    assert "ADVISOR_SLACK__BOT_TOKEN" in error["message"]
    assert "ADVISOR_SLACK__SIGNING_SECRET" in error["message"]


def test_slack_needs_no_api_key_and_is_outside_the_v1_rate_limit(
    indexed_settings: Settings, assistant: Assistant, slack: SlackStandIn
) -> None:
    settings = slack_settings(
        indexed_settings, slack, api_keys=["k1"], server=ServerSettings(rate_limit_per_minute=1)
    )
    challenge = json.dumps({"token": "unused", "challenge": "c-123", "type": "url_verification"})
    with ContractClient(create_app(settings=settings, assistant=assistant)) as c:
        for _ in range(3):  # Slack checks the Request URL with a signed challenge
            resp = signed(c, challenge, "application/json")
            assert resp.status_code == 200
            assert resp.json() == {"challenge": "c-123"}
        assert c.get("/v1/tools").status_code == 401


def test_the_manifest_points_every_url_at_the_route() -> None:
    manifest = yaml.safe_load((REPO / "api" / "slack" / "manifest.yaml").read_text(encoding="utf-8"))
    settings = manifest["settings"]
    urls = [
        settings["event_subscriptions"]["request_url"],
        settings["interactivity"]["request_url"],
        *(command["url"] for command in manifest["features"]["slash_commands"]),
    ]
    assert all(url.endswith("/slack/events") for url in urls)
    assert set(settings["event_subscriptions"]["bot_events"]) == {"app_mention", "message.im"}
    assert {"app_mentions:read", "chat:write", "im:history", "commands"} <= set(
        manifest["oauth_config"]["scopes"]["bot"]
    )
    assert settings["socket_mode_enabled"] is False


def test_socket_mode_answers_over_the_socket(
    indexed_settings: Settings, assistant: Assistant, slack: SlackStandIn
) -> None:
    """`advisor slack` without a public URL: Slack sends events over a WebSocket, acks go back the same way."""
    received: list[dict[str, Any]] = []
    envelope = {
        "envelope_id": "env-1",
        "type": "events_api",
        "accepts_response_payload": False,
        "retry_attempt": 0,
        "retry_reason": "",
        "payload": json.loads(event_body(direct_message("DSOCKET", "8卡H100一年电费多少？", ts=new_ts()))),
    }

    def socket(ws: ServerConnection) -> None:  # plays Slack's side of the connection
        ws.send(json.dumps({"type": "hello", "num_connections": 1}))
        ws.send(json.dumps(envelope, ensure_ascii=False))
        with contextlib.suppress(ConnectionClosed):
            for message in ws:
                received.append(json.loads(message))

    # no signing secret: Socket Mode needs none
    section = SlackSettings(
        bot_token=SecretStr("xoxb-test"), app_token=SecretStr("xapp-test"), api_base_url=slack.base_url
    )
    settings = indexed_settings.model_copy(update={"slack": section})
    with serve(socket, "127.0.0.1", 0) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        port = server.socket.getsockname()[1]
        slack.answer_next("apps.connections.open", {"ok": True, "url": f"ws://127.0.0.1:{port}/link"})
        app = build_slack_app(settings, assistant, socket_mode=True)
        assert app is not None
        handler = SocketModeHandler(app, "xapp-test")
        handler.connect()  # what `advisor slack` does before it blocks
        try:
            (post,) = slack.wait_for("chat.postMessage", 1, in_channel("DSOCKET"))
        finally:
            handler.close()
            server.shutdown()
    assert "电费" in post.body["text"] or "MWh" in post.body["text"]
    assert {"envelope_id": "env-1"} in received  # acknowledged over the socket
    (opened,) = slack.calls_to("apps.connections.open")
    assert opened.headers["Authorization"] == "Bearer xapp-test"


def test_socket_mode_without_tokens_says_what_to_set(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no .env
    for name in ("ADVISOR_SLACK__BOT_TOKEN", "ADVISOR_SLACK__APP_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ADVISOR_DATA_DIR", str(tmp_path))
    cli.get_settings.cache_clear()
    try:
        result = CliRunner().invoke(cli.app, ["slack"])
    finally:
        cli.get_settings.cache_clear()
    assert result.exit_code == 2
    assert "ADVISOR_SLACK__BOT_TOKEN and ADVISOR_SLACK__APP_TOKEN" in result.stderr
    assert "Traceback" not in result.output


def test_bolts_oauth_environment_variables_are_refused_at_start(
    indexed_settings: Settings, assistant: Assistant, slack: SlackStandIn, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With them set, Bolt would quietly ignore the bot token and answer nothing."""
    monkeypatch.setenv("SLACK_CLIENT_ID", "123.456")
    monkeypatch.setenv("SLACK_CLIENT_SECRET", "shh")
    with pytest.raises(InvalidInput, match="unset them"):
        build_slack_app(slack_settings(indexed_settings, slack), assistant)
