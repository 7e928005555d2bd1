"""What the bot does: answers mentions, direct messages, the slash command and the sizing form; records votes.

Every listener acknowledges first and then works (Bolt runs it after the HTTP response). Each Slack
thread is one conversation (``slack:<team>:<channel>:<thread ts>``), so follow-ups keep their slots.
Errors reach the user as one friendly sentence; the traceback goes to the log.
"""

from __future__ import annotations

import json
import logging
import re
import time
from typing import Any

from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from api.coordination import LocalSeen, Seen
from api.slack.blocks import (
    ACTION_FEEDBACK_DOWN,
    ACTION_FEEDBACK_UP,
    SECTION_CHARS,
    SlackMessage,
    answer_messages,
    friendly_error,
    parse_feedback_value,
)
from api.slack.form import SIZING_CALLBACK_ID, sizing_modal, sizing_request
from api.slack.mrkdwn import escape, to_mrkdwn, truncate
from assistant.errors import InvalidInput
from assistant.memory import slack_principal
from assistant.models import Answer
from assistant.service import Assistant
from knowledge.text import Language, detect_language

logger = logging.getLogger(__name__)

SIZING_WORDS = {"size", "sizing", "规划", "选型"}
# subtypes that are still a person writing to the bot; edits, joins, bot posts and the like are not
_PERSON_SUBTYPES = {None, "file_share", "thread_broadcast"}
_MENTION = re.compile(r"<@[UW][A-Z0-9]+(?:\|[^>]*)?>")

# for a mention with no question in it, so no language to answer in: both
_HELP = (
    "Ask me about servers for training LLMs: GPUs, memory, storage, network, cost. For example: "
    "_How many H100 to train a 70B model on 2T tokens in 30 days?_\n"
    "可以问我大模型训练服务器的选型：GPU、显存、存储、网络、成本。例如：_用H100在30天内训练一个70B模型、2T token，需要多少张？_"
)
_THANKS: dict[Language, str] = {"en": "Thanks for the feedback.", "zh": "感谢反馈！"}
_ASKED: dict[Language, str] = {"en": "<@{user}> asked:", "zh": "<@{user}> 提问："}


def register(
    app: App, assistant: Assistant, *, sources_base_url: str | None = None, answered: Seen | None = None
) -> None:
    """Attach the bot's listeners to ``app``; citations link to ``sources_base_url``/v1/sources/...;
    ``answered`` remembers the messages answered (shared by the replicas when Redis is configured)."""
    bot = _Listeners(assistant, sources_base_url, answered)
    app.event("app_mention")(bot.on_mention)
    # one listener for every message event: unhandled ones would be answered 404 and logged as warnings
    app.event("message")(bot.on_message)
    # whatever name the workspace gave the command in the manifest (/advisor by default)
    app.command(re.compile(r"^/"))(bot.on_command)
    app.view(SIZING_CALLBACK_ID)(bot.on_sizing_submitted)
    app.action(ACTION_FEEDBACK_UP)(bot.on_feedback)
    app.action(ACTION_FEEDBACK_DOWN)(bot.on_feedback)
    # other buttons (links to sources) also send block_actions; acknowledge them and do nothing
    app.action(re.compile(".*"))(_ack_only)


def _ack_only(ack: Ack) -> None:
    ack()


class _Listeners:
    def __init__(
        self, assistant: Assistant, sources_base_url: str | None = None, answered: Seen | None = None
    ) -> None:
        self._assistant = assistant
        self._sources_base_url = sources_base_url
        # one user message can arrive as two events (a mention in a DM) or twice, at any replica; answer it once
        self._answered = answered or LocalSeen()

    # events -------------------------------------------------------------------------------------

    def on_mention(
        self, event: dict[str, Any], body: dict[str, Any], client: WebClient, context: BoltContext
    ) -> None:
        """``@advisor ...`` in a channel: answer in the message's thread."""
        if _from_a_bot(event, context):
            return
        self._reply(event, body, client, context)

    def on_message(
        self, event: dict[str, Any], body: dict[str, Any], client: WebClient, context: BoltContext
    ) -> None:
        """A direct message: answer in its thread."""
        if event.get("channel_type") != "im" or event.get("subtype") not in _PERSON_SUBTYPES:
            return
        if _from_a_bot(event, context):
            return
        self._reply(event, body, client, context)

    def _reply(
        self, event: dict[str, Any], body: dict[str, Any], client: WebClient, context: BoltContext
    ) -> None:
        channel, ts = event["channel"], event["ts"]
        if not self._answered.first(f"{channel}:{ts}"):
            return
        thread_ts = event.get("thread_ts") or ts
        text = _clean(event.get("text") or "")
        team = body.get("team_id") or context.team_id or "-"
        _react(client, channel, ts)
        if not text:
            _post(client, channel, thread_ts, {"text": _HELP, "blocks": _section(_HELP)})
            return
        self._answer(client, team=team, channel=channel, thread_ts=thread_ts, text=text)

    # the slash command and the sizing form ------------------------------------------------------

    def on_command(self, ack: Ack, command: dict[str, Any], client: WebClient) -> None:
        """``/advisor <question>`` answers in a new thread; ``/advisor`` alone (or ``size``) opens the form."""
        ack()
        text = _clean(command.get("text") or "")
        language = detect_language(text)
        if not text or text.lower() in SIZING_WORDS:
            # the form's submission comes back without the channel: it travels in the view's metadata
            metadata = json.dumps({"channel": command.get("channel_id", ""), "language": language})
            try:
                client.views_open(
                    trigger_id=command["trigger_id"], view=sizing_modal(language, private_metadata=metadata)
                )
            except Exception:
                logger.exception("could not open the sizing form")
                _tell_privately(
                    client, command.get("channel_id"), command["user_id"], friendly_error(language)
                )
            return
        self._start_thread(
            client,
            team=command.get("team_id") or "-",
            channel=command.get("channel_id") or command["user_id"],
            user=command["user_id"],
            text=text,
        )

    def on_sizing_submitted(
        self, ack: Ack, body: dict[str, Any], view: dict[str, Any], client: WebClient
    ) -> None:
        """The sizing form: field errors go back to the form; a valid request is answered in a new thread
        in the channel the form was opened from (else in a direct message)."""
        user = body["user"]["id"]
        metadata = _metadata(view.get("private_metadata") or "")
        language: Language = "zh" if metadata.get("language") == "zh" else "en"
        try:
            message, errors = sizing_request(view["state"]["values"], language=language)
        except Exception:
            ack()
            logger.exception("could not read the sizing form")
            _tell_privately(client, None, user, friendly_error(language))
            return
        if errors:
            ack(response_action="errors", errors=errors)
            return
        ack()
        team = (body.get("team") or {}).get("id") or "-"
        self._start_thread(
            client, team=team, channel=metadata.get("channel") or user, user=user, text=message
        )

    def _start_thread(self, client: WebClient, *, team: str, channel: str, user: str, text: str) -> None:
        """Post the question as a new message (the channel, else a DM when the bot is not in it) and
        answer in its thread, so that follow-ups there continue this conversation."""
        language = detect_language(text)
        quoted = "\n".join(f"> {line}" for line in escape(text).splitlines())
        header = _ASKED[language].format(user=user) + "\n" + quoted
        try:
            try:
                posted = client.chat_postMessage(channel=channel, text=header, unfurl_links=False)
            except SlackApiError as e:
                if channel == user or e.response.get("error") not in {"not_in_channel", "channel_not_found"}:
                    raise
                posted = client.chat_postMessage(channel=user, text=header, unfurl_links=False)
        except Exception:
            logger.exception("could not post the question to Slack")
            _tell_privately(client, channel, user, friendly_error(language))
            return
        self._answer(client, team=team, channel=posted["channel"], thread_ts=posted["ts"], text=text)

    # answering ----------------------------------------------------------------------------------

    def _answer(self, client: WebClient, *, team: str, channel: str, thread_ts: str, text: str) -> None:
        conversation_id = f"slack:{team}:{channel}:{thread_ts}"
        language = detect_language(text)
        draft = _Draft(client, channel, thread_ts)
        try:
            items = self._assistant.stream(
                text, conversation_id=conversation_id, owner=slack_principal(team, channel), start=True
            )
            answer = None
            for item in items:
                if isinstance(item, Answer):
                    answer = item
                elif isinstance(item, str):
                    draft.add(item)
            assert answer is not None
        except InvalidInput as e:  # the question itself is the problem (too long): say what to change
            _post(client, channel, thread_ts, {"text": str(e), "blocks": _section(escape(str(e)))})
            return
        except Exception:
            logger.exception("answering in Slack failed (conversation %s)", conversation_id)
            try:
                draft.replace_or_post(friendly_error(language))
            except Exception:
                logger.exception("could not post to Slack channel %s", channel)
            return
        try:
            messages = answer_messages(answer, sources_base_url=self._sources_base_url)
            draft.replace_or_post(messages[0])
            for message in messages[1:]:
                client.chat_postMessage(
                    channel=channel,
                    thread_ts=thread_ts,
                    text=message["text"],
                    blocks=message["blocks"],
                    unfurl_links=False,
                    unfurl_media=False,
                )
        except Exception:
            logger.exception("posting the answer to Slack failed (conversation %s)", conversation_id)
            _post(client, channel, thread_ts, friendly_error(answer.language))

    # feedback -----------------------------------------------------------------------------------

    def on_feedback(self, ack: Ack, body: dict[str, Any], action: dict[str, Any], client: WebClient) -> None:
        """👍/👎 under an answer: store the vote, then replace the buttons with a thank-you line."""
        ack()
        rating = "up" if action["action_id"] == ACTION_FEEDBACK_UP else "down"
        message = body.get("message") or {}
        channel = (body.get("channel") or {}).get("id") or (body.get("container") or {}).get("channel_id")
        user = (body.get("user") or {}).get("id", "")
        language = detect_language(message.get("text") or "")
        try:
            conversation_id, message_id = parse_feedback_value(action.get("value") or "")
            self._assistant.memory.save_feedback(conversation_id, message_id, rating)
        except Exception:
            logger.exception("could not store Slack feedback %r", action.get("value"))
            _tell_privately(client, channel, user, friendly_error(language))
            return
        if not channel or not message.get("ts"):
            return
        emoji = ":+1:" if rating == "up" else ":-1:"
        thanks = {"type": "context", "elements": [{"type": "mrkdwn", "text": f"{emoji} {_THANKS[language]}"}]}
        blocks = [
            thanks if b.get("block_id") == action.get("block_id") else b for b in message.get("blocks", [])
        ]
        try:
            client.chat_update(
                channel=channel, ts=message["ts"], text=message.get("text") or "", blocks=blocks
            )
        except Exception:  # the vote is stored; a stale button is no reason to bother the user
            logger.warning("could not update the answer after feedback", exc_info=True)


# an answer slower than this (a chat model writing it) is shown as it comes: one message, updated at most this
# often (chat.update is a tier-3 method, about 50 calls a minute), and replaced by the answer's blocks at the end
STREAM_AFTER_S = 1.0
UPDATE_EVERY_S = 1.0


class _Draft:
    """The answer's text so far, posted once the answer is slow to come and updated as it grows."""

    def __init__(self, client: WebClient, channel: str, thread_ts: str) -> None:
        self._client = client
        self._channel = channel
        self._thread_ts = thread_ts
        self._started = time.monotonic()
        self._shown = 0.0
        self._text = ""
        self._ts: str | None = None

    def add(self, delta: str) -> None:
        self._text += delta
        now = time.monotonic()
        if now - self._started < STREAM_AFTER_S or now - self._shown < UPDATE_EVERY_S:
            return
        self._shown = now
        shown = truncate(to_mrkdwn(self._text), SECTION_CHARS) + " …"
        try:
            if self._ts is None:
                posted = self._client.chat_postMessage(
                    channel=self._channel, thread_ts=self._thread_ts, text=shown, unfurl_links=False
                )
                self._ts = posted["ts"]
            else:
                self._client.chat_update(channel=self._channel, ts=self._ts, text=shown)
        except Exception:  # the final answer is posted anyway; a missed update is no reason to stop
            logger.warning("could not show the answer so far in Slack", exc_info=True)

    def replace_or_post(self, message: SlackMessage) -> None:
        """``message`` in place of the text so far, or as a new message when none was shown."""
        if self._ts is None:
            self._client.chat_postMessage(
                channel=self._channel,
                thread_ts=self._thread_ts,
                text=message["text"],
                blocks=message["blocks"],
                unfurl_links=False,
                unfurl_media=False,
            )
            return
        self._client.chat_update(
            channel=self._channel, ts=self._ts, text=message["text"], blocks=message["blocks"]
        )


def _from_a_bot(event: dict[str, Any], context: BoltContext) -> bool:
    """Bots (this one included) never get an answer, so two bots cannot talk in a loop."""
    return bool(
        event.get("bot_id")
        or event.get("subtype") == "bot_message"
        or (context.bot_user_id and event.get("user") == context.bot_user_id)
    )


def _clean(text: str) -> str:
    """The question without the mentions and with Slack's escapes undone."""
    text = _MENTION.sub(" ", text).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    lines = (" ".join(line.split()) for line in text.splitlines())
    return "\n".join(line for line in lines if line)


def _section(text: str) -> list[dict[str, Any]]:
    return [{"type": "section", "text": {"type": "mrkdwn", "text": text}}]


def _metadata(raw: str) -> dict[str, str]:
    try:
        value = json.loads(raw)
    except ValueError:
        return {}
    return {k: v for k, v in value.items() if isinstance(v, str)} if isinstance(value, dict) else {}


def _react(client: WebClient, channel: str, ts: str) -> None:
    """:eyes: on the question, so the user sees it is being answered; optional, so failures are ignored."""
    try:
        client.reactions_add(channel=channel, timestamp=ts, name="eyes")
    except Exception as e:
        logger.debug("could not add a reaction: %s", e)


def _post(client: WebClient, channel: str, thread_ts: str, message: SlackMessage) -> None:
    try:
        client.chat_postMessage(
            channel=channel, thread_ts=thread_ts, text=message["text"], blocks=message["blocks"]
        )
    except Exception:
        logger.exception("could not post to Slack channel %s", channel)


def _tell_privately(client: WebClient, channel: str | None, user: str, message: SlackMessage) -> None:
    """An ephemeral message in the channel, else (not a member there, or no channel) a direct message."""
    if channel and channel != user:
        try:
            client.chat_postEphemeral(
                channel=channel, user=user, text=message["text"], blocks=message["blocks"]
            )
            return
        except Exception as e:
            logger.debug("could not post an ephemeral message in %s: %s", channel, e)
    try:
        client.chat_postMessage(channel=user, text=message["text"], blocks=message["blocks"])
    except Exception:
        logger.exception("could not tell user %s about an error", user)
