"""Answers as Slack messages (Block Kit) and the sizing form: pure functions, no Slack SDK, no I/O.

Slack's limits shape everything here: 3,000 characters per section text, 2,000 per field and at most
10 fields per section, 10 elements per context block, 50 blocks per message, and a message whose
blocks hold more than about 13,000 characters in all is refused (``msg_blocks_too_long``), so long
answers become several messages. Text is Slack mrkdwn with ``&``, ``<`` and ``>`` escaped, so
nothing in an answer or a cited document can become a mention, a link or a broadcast.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from typing import Any, Literal, TypedDict
from urllib.parse import quote

from assistant.models import Answer, Calculation, CalculationRow, Citation
from assistant.render import split_at_tables
from knowledge.catalog import Catalog, UnknownItemError, default_catalog
from knowledge.text import Language

ACTION_FEEDBACK_UP = "advisor_feedback_up"
ACTION_FEEDBACK_DOWN = "advisor_feedback_down"
FEEDBACK_BLOCK_ID = "advisor_feedback"
SIZING_CALLBACK_ID = "advisor_sizing"

# the sizing form's inputs: each block_id is also its element's action_id
MODEL_SIZE_BLOCK = "advisor_model_size"
TOKENS_BLOCK = "advisor_tokens"
GPU_BLOCK = "advisor_gpu"
GPU_COUNT_BLOCK = "advisor_gpu_count"
DEADLINE_BLOCK = "advisor_deadline"
BUDGET_BLOCK = "advisor_budget"

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


# --- mrkdwn ---------------------------------------------------------------------------------------

_ZWSP = "\u200b"
# private-use characters stand in for protected pieces and for the emphasis markers we produce
_HOLD_OPEN, _HOLD_CLOSE = "\ue000", "\ue001"
_MARKS = {"\ue002": "*", "\ue003": "*", "\ue004": "_", "\ue005": "_", "\ue006": "~", "\ue007": "~"}
_OPENERS, _CLOSERS = "\ue002\ue004\ue006", "\ue003\ue005\ue007"
_PRIVATE = re.compile("[\ue000-\ue007]")
_HELD = re.compile(f"{_HOLD_OPEN}(\\d+){_HOLD_CLOSE}")

_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")
_BACKSLASH = re.compile(r"\\([!\"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~])")
_LINK = re.compile(
    r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]"  # [text], one level of nested brackets allowed
    r"\(\s*<?([^\s()<>\ue000-\ue007]*(?:\([^\s()<>\ue000-\ue007]*\)[^\s()<>\ue000-\ue007]*)*)>?"
    r"(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)"
)
_AUTOLINK = re.compile(r"<((?:https?|mailto):[^\s<>\ue000-\ue007]+)>", re.IGNORECASE)
# a URL never runs into a held piece (a code span written right after it)
_BARE_URL = re.compile(r"(?<![\w/@])https?://[^\s<>\"'`\ue000-\ue007]+", re.IGNORECASE)
_URL_TRAILING = ".,;:!?)]}'\"。，；：！？）】」』"
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_BOLD_STARS = re.compile(r"\*\*(?=[^\s*])(.+?)(?<=[^\s*])\*\*")
_BOLD_UNDERSCORES = re.compile(r"(?<![A-Za-z0-9_])__(?=[^\s_])(.+?)(?<=[^\s_])__(?![A-Za-z0-9_])")
_EM_STAR = re.compile(r"\*(?=[^\s*])(.+?)(?<=[^\s*])\*")
_EM_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9_])_(?=[^\s_])(.+?)(?<=[^\s_])_(?![A-Za-z0-9_])")
_DECORATION = re.compile(r"\*\*|__|~~|`")

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^ {0,3}#{1,6}(?:\s+(.*?))?\s*#*\s*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)\s*$")
_RULE = re.compile(r"^ {0,3}([-*_])(?:\s*\1){2,}\s*$")
_BULLET = re.compile(r"^(\s*)[-*+]\s+(.*)$")
_ORDERED = re.compile(r"^(\s*)(\d{1,9}[.)])\s+(.*)$")
_QUOTE = re.compile(r"^ {0,3}>\s?(.*)$")
_DELIMITER_CELL = re.compile(r"^\s*:?-+:?\s*$")
_GENERIC_HEADERS = {("item", "value"), ("项目", "取值")}


def escape(text: str) -> str:
    """Slack's three control characters as entities (the only escaping Slack decodes)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _link(url: str, text: str | None = None) -> str:
    """``<url|text>`` for http(s) and mailto links; anything else stays inert text."""
    url = url.strip()
    if not re.match(r"(?:https?://|mailto:)\S", url, re.IGNORECASE):
        return escape(f"{text} ({url})" if text and url and text != url else text or url)
    target = (
        url.replace("&", "&amp;")
        .replace("<", "%3C")
        .replace(">", "%3E")
        .replace("|", "%7C")
        .replace(" ", "%20")
    )
    return f"<{target}|{escape(text)}>" if text else f"<{target}>"


def _inline(text: str) -> str:
    """One line of CommonMark inline syntax as mrkdwn."""
    held: list[str] = []

    def hold(piece: str) -> str:
        held.append(piece)
        return f"{_HOLD_OPEN}{len(held) - 1}{_HOLD_CLOSE}"

    def code(match: re.Match[str]) -> str:
        content = match.group(2)
        if len(content) > 2 and content[0] == content[-1] == " " and content.strip():
            content = content[1:-1]
        if "`" in content:  # Slack's inline code cannot hold a backtick: show the span as written
            return hold(escape(match.group(0)))
        return hold(f"`{escape(content)}`")

    def link(match: re.Match[str]) -> str:
        label = _DECORATION.sub("", match.group(1)).strip()
        return hold(_link(match.group(2), label or match.group(2)))

    def bare(match: re.Match[str]) -> str:
        url = match.group(0)
        stripped = url.rstrip(_URL_TRAILING)
        if url.endswith(")") and stripped.count("(") > stripped.count(")"):
            stripped += ")"  # https://en.wikipedia.org/wiki/Foo_(bar)
        return hold(_link(stripped)) + escape(url[len(stripped) :])

    text = _PRIVATE.sub("", text)
    text = _CODE_SPAN.sub(code, text)
    text = _BACKSLASH.sub(lambda m: hold(escape(m.group(1))), text)
    text = _LINK.sub(link, text)
    text = _AUTOLINK.sub(lambda m: hold(_link(m.group(1))), text)
    text = _BARE_URL.sub(bare, text)
    text = escape(text)
    text = _STRIKE.sub("\ue006\\1\ue007", text)
    text = _BOLD_STARS.sub("\ue002\\1\ue003", text)
    text = _BOLD_UNDERSCORES.sub("\ue002\\1\ue003", text)
    text = _EM_STAR.sub("\ue004\\1\ue005", text)
    text = _EM_UNDERSCORE.sub("\ue004\\1\ue005", text)
    text = _place_marks(text)
    for _ in range(3):  # a held link may hold a code span
        text = _HELD.sub(lambda m: held[int(m.group(1))], text)
    return text


def _needs_boundary(char: str) -> bool:
    # Slack only honours * _ ~ next to spaces or ASCII punctuation; CJK text needs an invisible boundary
    return char.isalnum() or ord(char) > 127


def _place_marks(text: str) -> str:
    out: list[str] = []
    for i, char in enumerate(text):
        mark = _MARKS.get(char)
        if mark is None:
            out.append(char)
            continue
        before = text[i - 1] if i > 0 else ""
        after = text[i + 1] if i + 1 < len(text) else ""
        if char in _OPENERS and before and before not in _MARKS and _needs_boundary(before):
            out.append(_ZWSP)
        out.append(mark)
        if char in _CLOSERS and after and after not in _MARKS and _needs_boundary(after):
            out.append(_ZWSP)
    return "".join(out)


def _plain(text: str) -> str:
    """Cell text for a preformatted block: no markup, links as 'text (url)' (escaped later)."""
    text = _LINK.sub(lambda m: f"{m.group(1)} ({m.group(2)})", text)
    return _BACKSLASH.sub(lambda m: m.group(1), _DECORATION.sub("", text))


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _cells(line: str) -> list[str]:
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|") and not line.endswith("\\|"):
        line = line[:-1]
    return [cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", line)]


def _is_table_start(lines: list[str], i: int) -> bool:
    if i + 1 >= len(lines) or "|" not in lines[i] or "|" not in lines[i + 1]:
        return False
    delimiter = _cells(lines[i + 1])
    return len(delimiter) == len(_cells(lines[i])) and all(_DELIMITER_CELL.match(c) for c in delimiter)


class _Block:
    """One top-level piece of a Markdown text: a fenced code block, a table or a run of lines."""

    def __init__(self, kind: Literal["fence", "table", "text"], lines: list[str]) -> None:
        self.kind = kind
        self.lines = lines

    @property
    def source(self) -> str:
        return "\n".join(self.lines)

    def rows(self) -> tuple[list[str], list[list[str]]]:
        """A table's header and body cells."""
        return _cells(self.lines[0]), [_cells(line) for line in self.lines[2:]]


def _blocks(markdown: str) -> list[_Block]:
    lines = markdown.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    blocks: list[_Block] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            blocks.append(_Block("text", run.copy()))
            run.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        if fence := _FENCE.match(line):
            flush()
            marker = fence.group(1)
            end = i + 1
            while end < len(lines) and not re.match(
                rf"^ {{0,3}}{marker[0]}{{{len(marker)},}}\s*$", lines[end]
            ):
                end += 1
            blocks.append(_Block("fence", lines[i : end + 1]))
            i = end + 1
            continue
        if _is_table_start(lines, i):
            flush()
            end = i + 2
            while end < len(lines) and lines[end].strip() and "|" in lines[end]:
                end += 1
            blocks.append(_Block("table", lines[i:end]))
            i = end
            continue
        if line.strip():
            run.append(line)
        else:
            flush()
        i += 1
    flush()
    return blocks


def _render_fence(block: _Block) -> str:
    body = block.lines[1:]
    if body and _FENCE.match(body[-1]):
        body = body[:-1]
    if not "".join(body).strip():
        return ""
    # Slack would show a language tag as code, so the info string is dropped
    return "```\n" + escape("\n".join(body)) + "\n```"


def _render_table(block: _Block) -> str:
    header, rows = block.rows()
    if len(header) == 2:

        def label(cell: str) -> str:
            return f"*{_inline(_DECORATION.sub('', cell))}*" if cell.strip() else ""

        lines = [": ".join(filter(None, (label(row[0]), _inline(" | ".join(row[1:]))))) for row in rows]
        if tuple(h.lower() for h in header) not in _GENERIC_HEADERS and any(header):
            lines.insert(0, f"{label(header[0])}: {label(header[1])}")
        return "\n".join(lines)
    table = [[_plain(c) for c in header]] + [[_plain(c) for c in row] for row in rows]
    columns = max(len(r) for r in table)
    table = [r + [""] * (columns - len(r)) for r in table]
    widths = [max(_width(r[c]) for r in table) for c in range(columns)]

    def line(row: list[str]) -> str:
        return "  ".join(cell + " " * (widths[c] - _width(cell)) for c, cell in enumerate(row)).rstrip()

    rule = "  ".join("-" * w for w in widths)
    # padded before escaping: Slack shows '&lt;' as one character
    return "```\n" + escape("\n".join([line(table[0]), rule, *(line(r) for r in table[1:])])) + "\n```"


def _render_text(block: _Block) -> str:
    out: list[str] = []
    after_paragraph = False  # the previous line was plain text, so '---' or '===' underlines a heading
    for line in block.lines:
        line = line.rstrip()
        if line.endswith("\\"):
            line = line[:-1]  # a hard line break: Slack breaks at every newline anyway
        if after_paragraph and _SETEXT.match(line):
            out[-1] = f"*{_DECORATION.sub('', out[-1])}*"
            after_paragraph = False
            continue
        after_paragraph = False
        if _RULE.match(line):
            out.append("──────────")
        elif heading := _HEADING.match(line):
            title = _inline(_DECORATION.sub("", heading.group(1) or ""))
            if title:
                out.append(f"*{title}*")
        elif bullet := _BULLET.match(line):
            out.append(f"{bullet.group(1)}• {_inline(bullet.group(2))}")
        elif ordered := _ORDERED.match(line):
            out.append(f"{ordered.group(1)}{ordered.group(2)} {_inline(ordered.group(3))}")
        elif quote := _QUOTE.match(line):
            out.append(f"> {_inline(quote.group(1))}")  # the one '>' Slack must see unescaped
        else:
            out.append(_inline(line))
            after_paragraph = True
    return "\n".join(out)


def _render(block: _Block) -> str:
    match block.kind:
        case "fence":
            return _render_fence(block)
        case "table":
            return _render_table(block)
        case _:
            return _render_text(block)


def to_mrkdwn(markdown: str) -> str:
    """CommonMark as our composers write it, as Slack mrkdwn.

    ``**bold**``/``__bold__`` -> ``*bold*``, ``*em*``/``_em_`` -> ``_em_``, ``~~s~~`` -> ``~s~``,
    ``[text](url)`` -> ``<url|text>``, headings -> a bold line, bullets -> ``•``; numbered lists, code and
    ``[n]`` citation markers stay. ``&``, ``<`` and ``>`` are escaped everywhere except in the links
    made here. A two-column table becomes ``*label*: value`` lines, a wider one an aligned code block.
    """
    return "\n\n".join(text for block in _blocks(markdown) if (text := _render(block).strip("\n")).strip())


# --- splitting ------------------------------------------------------------------------------------

# where a long text may be cut, best first: paragraphs, lines, sentences, then words or clauses
_BREAKS = (
    re.compile(r"\n[ \t]*\n"),
    re.compile(r"\n"),
    re.compile(r"(?<=[.!?;])[ \t]+|(?<=[。！？；])"),
    re.compile(r"[ \t]+|(?<=[，、：,])"),
)
# pieces a cut must not fall inside: links we made, entities, inline code
_ATOMIC = re.compile(r"<[^<>\n]*>|&(?:amp|lt|gt);|`[^`\n]*`")


def _cut(text: str, limit: int) -> int:
    atoms = [(m.start(), m.end()) for m in _ATOMIC.finditer(text, 0, limit + 3000)]

    def safe(i: int) -> bool:
        return 0 < i <= limit and not any(start < i < end for start, end in atoms)

    fallback = 0
    for pattern in _BREAKS:
        points = [m.end() for m in pattern.finditer(text, 0, limit) if safe(m.end())]
        if points and points[-1] >= limit // 2:
            return points[-1]
        fallback = max([fallback, *points])
    if fallback:
        return fallback
    cut = limit
    while cut > 1 and not safe(cut):
        cut -= 1
    return cut


def _split_text(text: str, limit: int) -> list[str]:
    """Non-empty pieces of at most ``limit`` characters, cut at the best boundary, code fences kept whole."""
    inner = limit - 8 if "```" in text else limit  # room to close and reopen a fence
    chunks: list[str] = []
    text = text.strip()
    while len(text) > inner:
        cut = _cut(text, inner)
        head, text = text[:cut].rstrip(), text[cut:].lstrip()
        if head.strip():
            chunks.append(head)
    if text.strip():
        chunks.append(text)
    balanced: list[str] = []
    in_fence = False
    for chunk in chunks:
        if in_fence:
            chunk = "```\n" + chunk
        in_fence = sum(1 for line in chunk.split("\n") if line.startswith("```")) % 2 == 1
        balanced.append(chunk + "\n```" if in_fence else chunk)
    return balanced


def _truncate(text: str, limit: int) -> str:
    text = text.strip()
    return text if len(text) <= limit else _split_text(text, limit - 1)[0] + "…"


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
    return [_section(chunk) for chunk in _split_text(mrkdwn, SECTION_CHARS)]


def _field_texts(row: CalculationRow) -> list[str]:
    label = f"*{escape(row.label)}*"
    value = escape(row.value) or "-"
    if len(label) + 1 + len(value) <= FIELD_CHARS:
        return [f"{label}\n{value}"]
    first, *rest = _split_text(value, FIELD_CHARS - len(label) - 1)
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
    return _link(url, label) if url else escape(label)


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
    text = "\n".join(texts).replace(_ZWSP, "").strip()
    if not text:
        text = _t("empty" if first else "continued", language)
    return SlackMessage(text=_truncate(text, TEXT_CHARS), blocks=blocks)


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
        blocks += _context_blocks(_split_text(line, SECTION_CHARS))
    if not blocks:
        blocks = [_section(_t("empty", language))]
    return _pack(blocks, _feedback_block(answer) if feedback else None, language)


def friendly_error(language: Language) -> SlackMessage:
    """One friendly sentence for any failure; the details belong in the log, never in Slack."""
    text = _t("error", language)
    return SlackMessage(text=text, blocks=[_section(escape(text))])


# --- the sizing form ------------------------------------------------------------------------------

_FORM: dict[str, tuple[str, str]] = {
    "title": ("Size a training run", "训练服务器测算"),
    "submit": ("Ask", "提交"),
    "close": ("Cancel", "取消"),
    "intro": (
        "Describe the training run; fill in what you know and I will work out the rest.",
        "描述一次训练任务：填写已知的条件，其余由我来测算。",
    ),
    "model_label": ("Model size", "模型规模"),
    "model_placeholder": ("e.g. 70B", "例如 70B"),
    "model_hint": (
        "Parameters (70B, 7.5B, 500M) or a model name such as Llama 3 70B.",
        "参数量（如 70B、7.5B、500M、700亿），或模型名称，如 Llama 3 70B。",
    ),
    "tokens_label": ("Training tokens", "训练 token 数"),
    "tokens_placeholder": ("e.g. 2T", "例如 2T"),
    "tokens_hint": ("For example 2T, 500B or 1.5 trillion.", "例如 2T、500B 或 1.5万亿。"),
    "gpu_label": ("GPU", "GPU 型号"),
    "gpu_placeholder": ("Any: let the advisor compare", "不限：由助手比较推荐"),
    "count_label": ("Number of GPUs", "GPU 数量"),
    "count_hint": (
        "Leave empty to have the GPU count worked out from the deadline.",
        "留空则按工期推算所需的 GPU 数量。",
    ),
    "deadline_label": ("Deadline (days)", "工期（天）"),
    "budget_label": ("Budget (USD)", "预算（美元）"),
    "budget_placeholder": ("e.g. $2,000,000 or 2M", "例如 $2,000,000 或 2M"),
    "required": ("Required.", "必填。"),
    "model_error": (
        "Enter a size such as 70B, 7.5B or 500M, or a model name such as Llama 3 70B.",
        "请填写模型规模，如 70B、7.5B、500M，或模型名称，如 Llama 3 70B。",
    ),
    "tokens_error": (
        "Enter a token count with a unit, such as 2T, 500B or 1.5 trillion.",
        "请填写带单位的 token 数，如 2T、500B 或 1.5万亿。",
    ),
    "gpu_error": ("Choose a GPU from the list.", "请从列表中选择 GPU。"),
    "count_error": (
        "Enter a whole number of GPUs from 1 to 1,000,000.",
        "请填写 1 到 1,000,000 之间的整数。",
    ),
    "deadline_error": (
        "Enter a number of days greater than 0 and at most 3,650.",
        "请填写大于 0、不超过 3650 的天数。",
    ),
    "budget_error": (
        "Enter a budget in US dollars greater than 0, such as 2000000, $2M or 500k.",
        "请填写大于 0 的美元预算，如 2000000、$2M 或 500k。",
    ),
}
_PRIVATE_METADATA_CHARS = 3000
_OPTION_CHARS = 75


def _f(key: str, language: Language) -> str:
    en, zh = _FORM[key]
    return zh if language == "zh" else en


def _plain_text(text: str) -> dict[str, Any]:
    return {"type": "plain_text", "text": text, "emoji": True}


def _input(
    block_id: str, label: str, element: dict[str, Any], *, optional: bool, hint: str | None = None
) -> Block:
    block: Block = {
        "type": "input",
        "block_id": block_id,
        "label": _plain_text(label),
        "element": {**element, "action_id": block_id},
        "optional": optional,
    }
    if hint:
        block["hint"] = _plain_text(hint)
    return block


def _gpu_options(catalog: Catalog) -> list[dict[str, Any]]:
    """The catalog's accelerators grouped by vendor, data-centre parts first, at most 100 in all."""
    order = {"datacenter": 0, "workstation": 1, "consumer": 2}
    groups: dict[str, list[dict[str, Any]]] = {}
    for acc in sorted(catalog.accelerators, key=lambda a: order[a.segment])[:100]:
        name = acc.name if len(acc.name) <= _OPTION_CHARS else acc.name[: _OPTION_CHARS - 1] + "…"
        groups.setdefault(acc.vendor, []).append({"text": _plain_text(name), "value": acc.id})
    return [{"label": _plain_text(vendor), "options": options} for vendor, options in groups.items()]


def sizing_modal(
    language: Language = "en", *, private_metadata: str = "", catalog: Catalog | None = None
) -> dict[str, Any]:
    """The sizing form as a ``modal`` view; model size and tokens are required, the rest optional."""
    if len(private_metadata) > _PRIVATE_METADATA_CHARS:
        raise ValueError("private_metadata is limited to 3,000 characters")
    catalog = catalog or default_catalog()
    lang = language

    def text_input(placeholder: str) -> dict[str, Any]:
        return {"type": "plain_text_input", "placeholder": _plain_text(_f(placeholder, lang))}

    return {
        "type": "modal",
        "callback_id": SIZING_CALLBACK_ID,
        "title": _plain_text(_f("title", lang)),
        "submit": _plain_text(_f("submit", lang)),
        "close": _plain_text(_f("close", lang)),
        "private_metadata": private_metadata,
        "blocks": [
            {
                "type": "context",
                "elements": [{"type": "plain_text", "text": _f("intro", lang), "emoji": True}],
            },
            _input(
                MODEL_SIZE_BLOCK,
                _f("model_label", lang),
                text_input("model_placeholder"),
                optional=False,
                hint=_f("model_hint", lang),
            ),
            _input(
                TOKENS_BLOCK,
                _f("tokens_label", lang),
                text_input("tokens_placeholder"),
                optional=False,
                hint=_f("tokens_hint", lang),
            ),
            _input(
                GPU_BLOCK,
                _f("gpu_label", lang),
                {
                    "type": "static_select",
                    "placeholder": _plain_text(_f("gpu_placeholder", lang)),
                    "option_groups": _gpu_options(catalog),
                },
                optional=True,
            ),
            _input(
                GPU_COUNT_BLOCK,
                _f("count_label", lang),
                {
                    "type": "number_input",
                    "is_decimal_allowed": False,
                    "min_value": "1",
                    "max_value": "1000000",
                },
                optional=True,
                hint=_f("count_hint", lang),
            ),
            _input(
                DEADLINE_BLOCK,
                _f("deadline_label", lang),
                {"type": "number_input", "is_decimal_allowed": True, "max_value": "3650"},
                optional=True,
            ),
            _input(BUDGET_BLOCK, _f("budget_label", lang), text_input("budget_placeholder"), optional=True),
        ],
    }


_SCALE = {
    "k": 1e3, "thousand": 1e3, "千": 1e3, "万": 1e4, "m": 1e6, "mn": 1e6, "million": 1e6, "百万": 1e6,
    "亿": 1e8, "b": 1e9, "bn": 1e9, "billion": 1e9, "十亿": 1e9, "千亿": 1e11, "t": 1e12, "trillion": 1e12,
    "万亿": 1e12,
}  # fmt: skip
_QUANTITY = re.compile(
    r"^\s*(\d+(?:,\d{3})*(?:\.\d+)?|\.\d+)\s*"
    r"(k|thousand|千|万亿|千亿|十亿|百万|万|亿|mn|m|million|bn|b|billion|t|trillion)?\s*$",
    re.IGNORECASE,
)
_MODEL_WORDS = r"\b(?:params?|parameters?|model)\b|参数|个|的?模型"
_TOKEN_WORDS = r"\b(?:tokens?|toks?)\b|个|词元"
_DOLLAR_WORDS = r"us\$|\$|\busd\b|\bdollars?\b|美元|美金"
_MILLION = 1e6


def _quantity(text: str, *, words: str) -> tuple[float, bool] | None:
    """'2T' -> (2e12, True), '700亿' -> (7e10, True), '2,000,000' -> (2e6, False); None if unreadable.

    The flag says whether a unit was written; ``words`` (like "tokens") may surround the number.
    """
    match = _QUANTITY.match(re.sub(words, " ", text, flags=re.IGNORECASE))
    if not match:
        return None
    value = float(match.group(1).replace(",", ""))
    unit = match.group(2)
    return (value * _SCALE[unit.lower()], True) if unit else (value, False)


def _number(text: str) -> float | None:
    try:
        value = float(text.replace(",", "").strip())
    except ValueError:
        return None
    return value if value == value and abs(value) != float("inf") else None


def _short(count: float) -> str:
    """A count of at least a million as 1.8T, 70B, 7.5B or 500M: forms the slot extractor reads."""
    scale, unit = next((s, u) for s, u in ((1e12, "T"), (1e9, "B"), (1e6, "M")) if count >= s)
    return f"{count / scale:.4f}".rstrip("0").rstrip(".") + unit


def _dollars(value: float) -> str:
    return f"${value:,.0f}" if value == int(value) else f"${value:,.2f}"


def _days(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _state_value(values: dict[str, dict[str, dict[str, Any]]], block_id: str) -> dict[str, Any]:
    actions = values.get(block_id) or {}
    return actions.get(block_id) or next(iter(actions.values()), {})


def _text_value(values: dict[str, dict[str, dict[str, Any]]], block_id: str) -> str:
    value = _state_value(values, block_id).get("value")
    return value.strip() if isinstance(value, str) else ""


def _model_subject(text: str, catalog: Catalog) -> str | None:
    """'a 70B model' for a size (a bare number is billions, or a raw count from a million up), or a preset's name."""
    if quantity := _quantity(text, words=_MODEL_WORDS):
        value, has_unit = quantity
        params = value if has_unit or value >= _MILLION else value * 1e9
        return f"a {_short(params)} model" if _MILLION <= params <= 1e14 else None
    for name in (text, re.sub(_MODEL_WORDS, " ", text, flags=re.IGNORECASE).strip()):
        try:
            return catalog.model(name).name
        except UnknownItemError:
            continue
    return None


def _tokens(text: str) -> str | None:
    """'2T' for two trillion tokens; a bare number must be a raw count (a million or more)."""
    quantity = _quantity(text, words=_TOKEN_WORDS)
    if quantity is None or not (quantity[1] or quantity[0] >= _MILLION):
        return None
    return _short(quantity[0]) if _MILLION <= quantity[0] <= 1e15 else None


def sizing_request(
    values: dict[str, dict[str, dict[str, Any]]],
    *,
    language: Language = "en",
    catalog: Catalog | None = None,
) -> tuple[str, dict[str, str]]:
    """The question to ask for a submitted sizing form (in ``language``), and ``{block_id: error}`` per bad input.

    The question is phrased for the router: with a GPU count it asks how long training takes, with a
    deadline how many GPUs are needed, otherwise which GPUs to use (or the GPU-hours on the chosen
    GPU); a budget adds what it will cost. The error texts are in ``language``.
    """
    catalog = catalog or default_catalog()
    errors: dict[str, str] = {}

    def fail(block_id: str, key: str) -> None:
        errors[block_id] = _f(key, language)

    model_text = _text_value(values, MODEL_SIZE_BLOCK)
    subject = _model_subject(model_text, catalog) if model_text else None
    if subject is None:
        fail(MODEL_SIZE_BLOCK, "model_error" if model_text else "required")

    tokens_text = _text_value(values, TOKENS_BLOCK)
    tokens = _tokens(tokens_text) if tokens_text else None
    if tokens is None:
        fail(TOKENS_BLOCK, "tokens_error" if tokens_text else "required")

    gpu, noun = "", "GPU"
    selected = _state_value(values, GPU_BLOCK).get("selected_option")
    if isinstance(selected, dict) and selected.get("value"):
        try:
            accelerator = catalog.accelerator(str(selected["value"]))
            gpu, noun = accelerator.name, "GPU" if accelerator.kind == "gpu" else "accelerator"
        except UnknownItemError:
            fail(GPU_BLOCK, "gpu_error")

    count: int | None = None
    if count_text := _text_value(values, GPU_COUNT_BLOCK):
        number = _number(count_text)
        if number is None or number != int(number) or not 1 <= number <= 1_000_000:
            fail(GPU_COUNT_BLOCK, "count_error")
        else:
            count = int(number)

    deadline: float | None = None
    if deadline_text := _text_value(values, DEADLINE_BLOCK):
        deadline = _number(re.sub(r"\s*(?:days?|d|天)\s*$", "", deadline_text, flags=re.IGNORECASE))
        if deadline is None or not 0 < deadline <= 3650:
            fail(DEADLINE_BLOCK, "deadline_error")

    budget: float | None = None
    if budget_text := _text_value(values, BUDGET_BLOCK):
        quantity = _quantity(budget_text, words=_DOLLAR_WORDS)
        budget = quantity[0] if quantity else None
        if budget is None or not 0 < budget <= 1e12:
            fail(BUDGET_BLOCK, "budget_error")

    if errors or subject is None or tokens is None:
        return "", errors
    if language == "zh":  # the answer follows the question's language, so a Chinese form asks in Chinese
        return _question_zh(_subject_zh(subject), tokens, gpu, count, deadline, budget), {}
    return _question(f"train {subject} on {tokens} tokens", gpu, noun, count, deadline, budget), {}


def _subject_zh(subject: str) -> str:
    """'a 70B model' -> '一个70B模型'; a preset's name gets a Chinese noun, so the question reads as Chinese."""
    size = re.fullmatch(r"an? (\S+) model", subject)
    return f"一个{size.group(1)}模型" if size else f"模型{subject}"


def _question_zh(
    subject: str, tokens: str, gpu: str, count: int | None, deadline: float | None, budget: float | None
) -> str:
    # enough Chinese around the model's and GPU's English names that the question reads as Chinese
    run = f"训练{subject}，训练数据共{tokens} token"
    gpu = re.sub(r"\s*\(.*?\)", "", gpu)  # "NVIDIA GB200 (per Blackwell GPU of ...)" -> "NVIDIA GB200"
    within = f"，要求{_days(deadline)}天内完成" if deadline else ""
    cost = f"，预算{_dollars(budget)}，要花多少钱" if budget else ""
    if count:
        return f"用{count}张{gpu or 'GPU'}{run}{within}，要多少天{cost}？"
    if gpu and deadline:
        return f"用{gpu}{run}{within}，需要多少张卡{cost}？"
    if gpu:
        return f"用{gpu}{run}，需要多少GPU小时{cost}？"
    with_budget = f"，预算{_dollars(budget)}" if budget else ""
    days = "，要多少天" if deadline else ""
    return f"{run}{within}{with_budget}，该选哪种GPU{days}？"


def _question(
    run: str, gpu: str, noun: str, count: int | None, deadline: float | None, budget: float | None
) -> str:
    within = f" within {_days(deadline)} days" if deadline else ""
    cost = f", and what will it cost with a budget of {_dollars(budget)}" if budget else ""
    if count:
        plural = noun if count == 1 else f"{noun}s"
        hardware = f"{count} {gpu} {plural}" if gpu else f"{count} {plural}"
        return f"How long does it take to {run} with {hardware}{within}{cost}?"
    if gpu and deadline:
        return f"How many {gpu} {noun}s do I need to {run}{within}{cost}?"
    if gpu:
        return f"How many GPU-hours does it take to {run} on {gpu} {noun}s{cost}?"
    with_budget = f" with a budget of {_dollars(budget)}" if budget else ""
    return f"Which GPUs should I use to {run}{within}{with_budget}?"
