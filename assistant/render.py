"""Markdown answers to sanitized HTML, with kept libraries (markdown-it-py, nh3)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import nh3
from markdown_it import MarkdownIt

_TAGS = {"p", "strong", "em", "code", "pre", "ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td",
         "a", "br", "h3", "h4", "blockquote", "sup", "span"}  # fmt: skip


@cache
def _markdown() -> MarkdownIt:
    # html=False: raw HTML in an answer or a document is shown as text, never passed through
    return MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")


def to_html(markdown: str) -> str:
    """Render and sanitize: only formatting tags, links with http(s) only, no scripts or handlers."""
    html = _markdown().render(markdown)
    return nh3.clean(
        html,
        tags=_TAGS,
        attributes={"a": {"href", "title"}, "td": {"align"}, "th": {"align"}, "span": {"class"}},
        url_schemes={"http", "https"},
        link_rel="noopener noreferrer nofollow",
    )


def split_at_tables(markdown: str, tables: Sequence[str | None]) -> list[str | int]:
    """``markdown`` cut where each calculation's table stands: the text between, in order, and in each table's
    place the index of its calculation. ``tables[i]`` is calculation i's table as the composer wrote it into
    ``markdown`` (found by that exact text, nothing re-parsed); a table that is None or not found is left out.
    """
    pieces: list[str | int] = []
    rest = markdown
    for i, table in enumerate(tables):
        at = rest.find(table) if table else -1
        if table is None or at < 0:
            continue
        pieces += [rest[:at], i]
        rest = rest[at + len(table) :]
    pieces.append(rest)
    return pieces


def answer_html(markdown: str, tables: Sequence[str | None] = ()) -> str:
    """The answer as sanitized HTML, each calculation's table wrapped where it stands.

    Table i's HTML goes inside ``<div class="calculation" data-calculation="i">`` so that a channel can
    show calculation i's card in its place. The wrapper is ours, added after sanitizing.
    """
    return "".join(
        f'<div class="calculation" data-calculation="{piece}">{to_html(str(tables[piece]))}</div>\n'
        if isinstance(piece, int)
        else to_html(piece)
        for piece in split_at_tables(markdown, tables)
    )
