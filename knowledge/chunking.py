"""Split loaded files into passages by heading, with ids that stay stable across edits elsewhere."""

from __future__ import annotations

import hashlib
import re

from langchain_core.documents import Document
from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter

from knowledge.loaders import LoadedFile
from knowledge.text import slugify

MAX_CHARS = 1400
_HEADERS = [("#", "h1"), ("##", "h2"), ("###", "h3")]
_header_splitter = MarkdownHeaderTextSplitter(headers_to_split_on=_HEADERS, strip_headers=True)
_size_splitter = RecursiveCharacterTextSplitter(
    chunk_size=MAX_CHARS,
    chunk_overlap=150,
    separators=["\n\n", "\n", "。", "！", "？", ". ", "; ", "；", "，", ", ", " ", ""],
    keep_separator="end",
)


def content_hash(text: str, metadata: dict[str, str | int | float | bool]) -> str:
    """Hash of what gets embedded and shown; a change in either re-embeds the passage."""
    digest = hashlib.sha256(text.encode("utf-8"))
    for key in sorted(metadata):
        digest.update(f"\x00{key}={metadata[key]}".encode())
    return digest.hexdigest()[:32]


def chunk_file(loaded: LoadedFile, *, root: str) -> list[Document]:
    """Passages of one file: one per section, long sections cut at sentence boundaries.

    The id is ``<doc_id>#<section-slug>`` (plus ``~n`` when a section is cut), so editing one section
    re-embeds that section only.
    """
    chunks: list[Document] = []
    seen: dict[str, int] = {}
    # joined before the heading splitter, which drops the blank lines that end a paragraph
    for position, (section, body) in enumerate(_sections(unwrap(loaded.markdown))):
        base = slugify(section) if section else "intro"
        seen[base] = seen.get(base, 0) + 1
        if seen[base] > 1:
            base = f"{base}-{seen[base]}"
        pieces = _size_splitter.split_text(body) if len(body) > MAX_CHARS else [body]
        for part, piece in enumerate(pieces):
            chunk_id = f"{loaded.doc_id}#{base}" + (f"~{part + 1}" if len(pieces) > 1 else "")
            heading = section or loaded.title
            text = (
                f"{loaded.title}\n{heading}\n\n{piece.strip()}" if section else f"{loaded.title}\n\n{piece}"
            )
            metadata: dict[str, str | int | float | bool] = {
                "chunk_id": chunk_id,
                "doc_id": loaded.doc_id,
                "root": root,
                "path": loaded.path,
                "title": loaded.title,
                "section": heading,
                "lang": loaded.lang,
                "doc_type": loaded.doc_type,
                "vendors": ",".join(loaded.vendors),
                "as_of": loaded.as_of,
                "url": loaded.source_urls[0] if loaded.source_urls else "",
                "source_urls": "\n".join(loaded.source_urls),
                "source_titles": "\n".join(loaded.source_titles),
                "position": position * 100 + part,
            }
            metadata["content_hash"] = content_hash(text, metadata)
            chunks.append(Document(id=chunk_id, page_content=text, metadata=metadata))
    return chunks


_BLOCK_START = re.compile(r"^\s*(?:[-*+]\s|\d+[.)]\s|\||#|>)")
_CJK_END = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]$")
_CJK_START = re.compile(r"^[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


def unwrap(text: str) -> str:
    """Join hard-wrapped lines of a paragraph, so sentences are whole; lists, tables, headings and fenced
    code stay as they are."""
    out: list[str] = []
    fenced = False
    for line in text.split("\n"):
        stripped = line.strip()
        previous = out[-1] if out else ""
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
        if fenced or stripped.startswith(("```", "~~~")):
            out.append(line)  # a command per line, and the fence that closes it on its own
        elif (
            stripped
            and previous.strip()
            and not _BLOCK_START.match(line)
            and not previous.lstrip().startswith(("|", "#"))
        ):
            glue = "" if _CJK_END.search(previous) and _CJK_START.match(stripped) else " "
            out[-1] = previous.rstrip() + glue + stripped
        else:
            out.append(line)
    return "\n".join(out)


def _sections(markdown: str) -> list[tuple[str, str]]:
    """(heading path, body) pairs; text before the first heading is the intro."""
    out: list[tuple[str, str]] = []
    for doc in _header_splitter.split_text(markdown):
        body = doc.page_content.strip()
        if not body:
            continue
        levels = [str(doc.metadata[k]) for k in ("h2", "h3") if k in doc.metadata]
        out.append((" › ".join(levels), body))
    return out
