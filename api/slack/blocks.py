"""Answers as Slack messages (Block Kit): pure functions, no Slack SDK, no I/O.

Slack's limits shape everything here: 3,000 characters per section text, 2,000 per field and at most
10 fields per section, 10 elements per context block, 50 blocks per message, and a message whose
blocks hold more than about 13,000 characters in all is refused (``msg_blocks_too_long``), so long
answers become several messages. The text is mrkdwn (mrkdwn.py); the sizing form is form.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TypedDict
from urllib.parse import quote

from api.slack.mrkdwn import ZWSP, escape, slack_link, split_text, to_mrkdwn, truncate
from assistant.models import Answer, Calculation, CalculationRow, Citation
from assistant.render import split_at_tables
from knowledge.text import Language

ACTION_FEEDBACK_UP = "advisor_feedback_up"
ACTION_FEEDBACK_DOWN = "advisor_feedback_down"
FEEDBACK_BLOCK_ID = "advisor_feedback"


SECTION_CHARS = 3000
FIELD_CHARS = 2000
FIELDS_PER_SECTION = 10
CONTEXT_ELEMENTS = 10
BLOCKS_PER_MESSAGE = 50
# Slack refuses messages whose blocks hold more than about 13,200 characters (bolt-js#2509)
MESSAGE_CHARS = 12_000
TEXT_CHARS = 3000
BUTTON_VALUE_CHARS = 2000
_TITLE_CHARS = 200

Block = dict[str, Any]


class SlackMessage(TypedDict):
    """What ``chat.postMessage`` gets besides the channel and thread."""

    text: str  # fallback for notifications and screen readers, at most 3,000 characters
    blocks: list[Block]  # at most 50


_TEXT: dict[str, tuple[str, str]] = {
    "helpful": ("👍 Helpful", "👍 有帮助"),
    "not_helpful": ("👎 Not helpful", "👎 没帮助"),
    "helpful_a11y": ("Mark this answer as helpful", "标记这个回答有帮助"),
    "not_helpful_a11y": ("Mark this answer as not helpful", "标记这个回答没有帮助"),
    "follow_ups": ("You could ask next:", "可以接着问："),
    "continued": ("Answer (continued)", "回答（续）"),
    "empty": ("I have no answer to show for that.", "这个问题暂时没有可显示的回答。"),
    "error": (
        "Sorry, something went wrong answering that; please try again in a minute.",
        "抱歉，回答这个问题时出了点问题，请过一会儿再试。",
    ),
}


def _t(key: str, language: Language) -> str:
    en, zh = _TEXT[key]
    return zh if language == "zh" else en


# --- answers --------------------------------------------------------------------------------------


def source_url(base_url: str | None, doc_id: str) -> str:
    """The readable source page of a cited document (``GET /v1/sources/{doc_id}``), or '' without a base."""
    if base_url is None:
        return ""
    return f"{base_url.rstrip('/')}/v1/sources/" + "/".join(
        quote(part, safe="") for part in doc_id.split("/")
    )


def feedback_value(conversation_id: str, message_id: str) -> str:
    """The feedback buttons' value: which answer is rated, as compact JSON."""
    value = json.dumps({"c": conversation_id, "m": message_id}, ensure_ascii=False, separators=(",", ":"))
    if not conversation_id or not message_id or len(value) > BUTTON_VALUE_CHARS:
        raise ValueError("conversation and message ids must be non-empty and fit a Slack button value")
    return value


def parse_feedback_value(value: str) -> tuple[str, str]:
    """``(conversation_id, message_id)`` from a button value; ``ValueError`` when it is not one of ours."""
    if not isinstance(value, str) or len(value) > BUTTON_VALUE_CHARS:
        raise ValueError("not a feedback value")
    try:
        data = json.loads(value)
    except (ValueError, RecursionError) as e:  # JSONDecodeError is a ValueError
        raise ValueError("not a feedback value") from e
    if not isinstance(data, dict) or set(data) != {"c", "m"}:
        raise ValueError("not a feedback value")
    conversation_id, message_id = data["c"], data["m"]
    if not (
        isinstance(conversation_id, str) and isinstance(message_id, str) and conversation_id and message_id
    ):
        raise ValueError("not a feedback value")
    return conversation_id, message_id


def _section(text: str) -> Block:
    # verbatim: Slack adds no links or mentions of its own; the links we made still work
    return {"type": "section", "text": {"type": "mrkdwn", "text": text, "verbatim": True}}


def _sections(mrkdwn: str) -> list[Block]:
    return [_section(chunk) for chunk in split_text(mrkdwn, SECTION_CHARS)]


def _field_texts(row: CalculationRow) -> list[str]:
    label = f"*{escape(row.label)}*"
    value = escape(row.value) or "-"
    if len(label) + 1 + len(value) <= FIELD_CHARS:
        return [f"{label}\n{value}"]
    first, *rest = split_text(value, FIELD_CHARS - len(label) - 1)
    return [f"{label}\n{first}", *rest]


def _calculation_blocks(calculation: Calculation) -> list[Block]:
    """The calculation's title as a section and its rows as label/value fields, in sections of at most 10."""
    blocks = [_section(f"*{escape(calculation.title)}*")]
    fields = [text for row in calculation.rows for text in _field_texts(row)]
    groups: list[list[str]] = []
    for text in fields:
        if (
            groups
            and len(groups[-1]) < FIELDS_PER_SECTION
            and sum(map(len, groups[-1])) + len(text) <= SECTION_CHARS
        ):
            groups[-1].append(text)
        else:
            groups.append([text])
    for n, group in enumerate(groups):
        items = [{"type": "mrkdwn", "text": text, "verbatim": True} for text in group]
        if n == 0:
            blocks[-1]["fields"] = items
        else:
            blocks.append({"type": "section", "fields": items})
    return blocks


def _context_blocks(texts: Iterable[str]) -> list[Block]:
    elements = [{"type": "mrkdwn", "text": text, "verbatim": True} for text in texts if text.strip()]
    return [
        {"type": "context", "elements": elements[i : i + CONTEXT_ELEMENTS]}
        for i in range(0, len(elements), CONTEXT_ELEMENTS)
    ]


def _citation_text(citation: Citation, sources_base_url: str | None) -> str:
    title = citation.title.strip() or citation.doc_id
    if len(title) > _TITLE_CHARS:
        title = title[: _TITLE_CHARS - 1].rstrip() + "…"
    label = f"[{citation.id}] {title}"
    url = citation.url or source_url(sources_base_url, citation.doc_id)
    return slack_link(url, label) if url else escape(label)


def _feedback_block(answer: Answer) -> Block:
    value = feedback_value(answer.conversation_id, answer.message_id)
    language = answer.language

    def button(action_id: str, label: str, a11y: str) -> Block:
        return {
            "type": "button",
            "action_id": action_id,
            "text": {"type": "plain_text", "text": _t(label, language), "emoji": True},
            "value": value,
            "accessibility_label": _t(a11y, language),
        }

    return {
        "type": "actions",
        "block_id": FEEDBACK_BLOCK_ID,
        "elements": [
            button(ACTION_FEEDBACK_UP, "helpful", "helpful_a11y"),
            button(ACTION_FEEDBACK_DOWN, "not_helpful", "not_helpful_a11y"),
        ],
    }


def _body_blocks(answer: Answer) -> list[Block]:
    """The answer's text with each calculation's fields where the composer put its table.

    The composer wrote each calculation's table into the Markdown and kept that exact text beside it, so
    the table is found by that text, not re-parsed; a calculation the answer shows otherwise follows the
    first paragraph.
    """
    calculations = answer.calculations
    split = split_at_tables(answer.answer, [c.table for c in calculations])
    pieces: list[str | Calculation] = [calculations[p] if isinstance(p, int) else p for p in split]
    unplaced = [c for i, c in enumerate(calculations) if i not in split]
    if unplaced:
        first, _, after = str(pieces[0]).partition("\n\n")
        pieces[:1] = [first, *unplaced, after]
    blocks: list[Block] = []
    for piece in pieces:
        blocks += (
            _calculation_blocks(piece) if isinstance(piece, Calculation) else _sections(to_mrkdwn(piece))
        )
    return blocks


def _block_texts(block: Block) -> list[str]:
    texts: list[str] = []
    if isinstance(block.get("text"), dict):
        texts.append(block["text"]["text"])
    texts += [f["text"] for f in block.get("fields", [])]
    texts += [e["text"] for e in block.get("elements", []) if e.get("type") in {"mrkdwn", "plain_text"}]
    texts += [e["text"]["text"] for e in block.get("elements", []) if e.get("type") == "button"]
    return texts


def _block_chars(block: Block) -> int:
    return sum(map(len, _block_texts(block))) + 100  # a little for the JSON around the text


def _message(blocks: list[Block], language: Language, first: bool) -> SlackMessage:
    texts = [t for b in blocks if b["type"] != "actions" for t in _block_texts(b)]
    text = "\n".join(texts).replace(ZWSP, "").strip()
    if not text:
        text = _t("empty" if first else "continued", language)
    return SlackMessage(text=truncate(text, TEXT_CHARS), blocks=blocks)


def _pack(blocks: list[Block], last: Block | None, language: Language) -> list[SlackMessage]:
    """Blocks into as few messages as Slack's limits allow; ``last`` ends the last message."""
    groups: list[list[Block]] = [[]]
    chars = 0
    for block in [*blocks, *([last] if last else [])]:
        size = _block_chars(block)
        if groups[-1] and (len(groups[-1]) >= BLOCKS_PER_MESSAGE or chars + size > MESSAGE_CHARS):
            groups.append([])
            chars = 0
        groups[-1].append(block)
        chars += size
    return [_message(group, language, first=n == 0) for n, group in enumerate(groups)]


def answer_messages(
    answer: Answer, *, feedback: bool = True, sources_base_url: str | None = None
) -> list[SlackMessage]:
    """The answer as Slack messages, in order: text, calculations, sources, follow-ups, then 👍/👎.

    Text sections keep under 3,000 characters (cut at paragraphs, lines, then sentences), each
    calculation is its title with label/value fields where the answer has its table, citations link to the source (or to its page
    under ``sources_base_url``), and the feedback buttons end the last message.
    """
    language = answer.language
    blocks = _body_blocks(answer)
    blocks += _context_blocks(_citation_text(c, sources_base_url) for c in answer.citations)
    if answer.follow_ups:
        line = f"*{_t('follow_ups', language)}* " + " · ".join(escape(q.strip()) for q in answer.follow_ups)
        blocks += _context_blocks(split_text(line, SECTION_CHARS))
    if not blocks:
        blocks = [_section(_t("empty", language))]
    return _pack(blocks, _feedback_block(answer) if feedback else None, language)


def friendly_error(language: Language) -> SlackMessage:
    """One friendly sentence for any failure; the details belong in the log, never in Slack."""
    text = _t("error", language)
    return SlackMessage(text=text, blocks=[_section(escape(text))])
