"""A readable HTML page per cited document: ``GET /v1/sources/{doc_id}``.

Citation links in answers point here, and browsers follow them without API keys, so this router is
meant to be mounted WITHOUT the API-key dependency (``app.include_router(sources.router)``). It shows
only what is already indexed and cited (titles, dates, passages, source links); it stays under
``/v1/`` so the per-IP rate limit still applies.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated
from urllib.parse import urlparse

from chromadb.api.models.Collection import Collection
from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse

from api.schemas import json_error_responses
from assistant.errors import NotFound
from assistant.render import to_html
from knowledge.indexing import UPLOAD_ID_PREFIX

router = APIRouter(prefix="/v1/sources", tags=["sources"])

# the page needs no script, no images and no remote styles; anything injected would not run
_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem;
       line-height: 1.55; color: #1f2328; }
.as-of { color: #59636e; }
section { border-top: 1px solid #d1d9e0; margin-top: 1.5rem; }
section p { white-space: pre-line; }
table { border-collapse: collapse; } th, td { border: 1px solid #d1d9e0; padding: .25rem .5rem; }
"""


@dataclass(frozen=True)
class Passage:
    """One indexed passage of a document, as stored in the collection."""

    text: str
    title: str
    section: str
    as_of: str
    lang: str
    source_urls: tuple[str, ...]
    position: int

    @classmethod
    def from_stored(cls, text: str, metadata: Mapping[str, object]) -> Passage:
        def field(key: str) -> str:
            value = metadata.get(key)
            return "" if value is None else str(value)

        position = metadata.get("position")
        return cls(
            text=text,
            title=field("title"),
            section=field("section"),
            as_of=field("as_of"),
            lang=field("lang"),
            source_urls=tuple(u.strip() for u in field("source_urls").splitlines() if u.strip()),
            position=position if isinstance(position, int) else 0,
        )

    def body(self) -> str:
        """The passage text without the ``title`` / ``section`` lines prepended for embedding."""
        for prefix in (f"{self.title}\n{self.section}\n\n", f"{self.title}\n\n"):
            if self.title and self.text.startswith(prefix):
                return self.text.removeprefix(prefix)
        return self.text


def get_index(request: Request) -> Collection:
    """The passages collection, opened on first use and kept on ``app.state``."""
    index: Collection | None = getattr(request.app.state, "index", None)
    if index is None:
        from assistant.wiring import open_index

        index = open_index(request.app.state.settings)
        request.app.state.index = index
    return index


IndexDep = Annotated[Collection, Depends(get_index)]


def load_passages(index: Collection, doc_id: str) -> list[Passage]:
    """All passages of ``doc_id`` in document order; ``NotFound`` when nothing has that id."""
    found = index.get(where={"doc_id": doc_id}, include=["documents", "metadatas"])
    documents = found["documents"] or []
    metadatas = found["metadatas"] or []
    passages = [
        Passage.from_stored(text or "", meta or {}) for text, meta in zip(documents, metadatas, strict=True)
    ]
    if not passages:
        raise NotFound(f"no indexed document has the id {doc_id!r}")
    return sorted(passages, key=lambda p: p.position)


def _source_link(url: str) -> str:
    if urlparse(url).scheme not in {"http", "https"}:
        return ""
    href = html.escape(url, quote=True)
    return f'<li><a href="{href}" rel="noopener noreferrer nofollow">{href}</a></li>'


def source_page(doc_id: str, passages: list[Passage]) -> str:
    """The HTML page: title, as-of date, one section per passage (sanitized), the original sources."""
    first = passages[0]
    title = html.escape(first.title or doc_id)
    lang = f' lang="{html.escape(first.lang)}"' if first.lang in {"en", "zh"} else ""
    as_of = f'<p class="as-of">As of 数据日期: {html.escape(first.as_of)}</p>' if first.as_of else ""
    sections = "\n".join(
        f"<section><h2>{html.escape(p.section)}</h2>\n{to_html(p.body())}</section>" for p in passages
    )
    urls = dict.fromkeys(url for p in passages for url in p.source_urls)  # ordered, no duplicates
    links = "\n".join(link for link in map(_source_link, urls) if link)
    sources = f"<h2>Sources 来源</h2>\n<ul>\n{links}\n</ul>" if links else ""
    return (
        f'<!doctype html>\n<html{lang}>\n<head>\n<meta charset="utf-8">\n'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
        f"<h1>{title}</h1>\n{as_of}\n{sections}\n{sources}\n</body>\n</html>\n"
    )


@router.get("/{doc_id:path}", response_class=HTMLResponse, responses=json_error_responses(404, 503))
def source(doc_id: str, index: IndexDep, request: Request) -> HTMLResponse:
    """One cited document as a readable page; 404 when no passage has this ``doc_id``.

    The page is open (browsers follow citation links without keys), so when API keys are configured
    it serves only the packaged knowledge base and catalog, never a file a user ingested.
    """
    if doc_id.startswith(("file:", UPLOAD_ID_PREFIX)) and request.app.state.settings.api_keys:
        raise NotFound(f"no source page for {doc_id!r}")
    return HTMLResponse(source_page(doc_id, load_passages(index, doc_id)), headers=_HEADERS)
