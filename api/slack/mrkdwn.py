"""Markdown as Slack mrkdwn, and mrkdwn cut to Slack's limits: pure functions, no Slack SDK, no I/O.

Text is Slack mrkdwn with ``&``, ``<`` and ``>`` escaped, so nothing in an answer or a cited document can
become a mention, a link or a broadcast; tables become aligned code blocks, and a long text is cut where a
paragraph, a line or a sentence ends, never inside a link, an entity or a code span.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

# --- mrkdwn ---------------------------------------------------------------------------------------

ZWSP = "\u200b"  # a zero-width space: keeps mrkdwn marks apart where Slack would join them
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


def slack_link(url: str, text: str | None = None) -> str:
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

    def markdown_link(match: re.Match[str]) -> str:
        label = _DECORATION.sub("", match.group(1)).strip()
        return hold(slack_link(match.group(2), label or match.group(2)))

    def bare(match: re.Match[str]) -> str:
        url = match.group(0)
        stripped = url.rstrip(_URL_TRAILING)
        if url.endswith(")") and stripped.count("(") > stripped.count(")"):
            stripped += ")"  # https://en.wikipedia.org/wiki/Foo_(bar)
        return hold(slack_link(stripped)) + escape(url[len(stripped) :])

    text = _PRIVATE.sub("", text)
    text = _CODE_SPAN.sub(code, text)
    text = _BACKSLASH.sub(lambda m: hold(escape(m.group(1))), text)
    text = _LINK.sub(markdown_link, text)
    text = _AUTOLINK.sub(lambda m: hold(slack_link(m.group(1))), text)
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
            out.append(ZWSP)
        out.append(mark)
        if char in _CLOSERS and after and after not in _MARKS and _needs_boundary(after):
            out.append(ZWSP)
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


def split_text(text: str, limit: int) -> list[str]:
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


def truncate(text: str, limit: int) -> str:
    text = text.strip()
    return text if len(text) <= limit else split_text(text, limit - 1)[0] + "…"
