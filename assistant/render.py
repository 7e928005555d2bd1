"""Markdown answers to sanitized HTML, with kept libraries (markdown-it-py, nh3)."""

from __future__ import annotations

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
