"""Read files into ``LoadedFile``s: Markdown text plus metadata, whatever the file's format.

Every format is converted to Markdown headings so that one splitter (``knowledge.chunking``) cuts all
of them by section. Corpus articles must carry front matter with their sources and an as-of date;
files a user adds may omit it.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Literal

import frontmatter
import yaml
from bs4 import BeautifulSoup
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from knowledge.catalog import Source
from knowledge.text import Language, detect_language

SUPPORTED_SUFFIXES = {".md": "markdown", ".markdown": "markdown", ".txt": "text", ".html": "html",
                      ".htm": "html", ".pdf": "pdf"}  # fmt: skip


class LoadError(Exception):
    """A file that could not be read or parsed; the message names the file and the reason."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class ArticleMeta(BaseModel):
    """Front matter every corpus article carries."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str = Field(min_length=3)
    lang: Language
    doc_type: Literal["guide", "faq"]
    topics: list[str] = Field(default_factory=list)
    vendors: list[str] = Field(default_factory=list)
    as_of: date
    sources: list[Source] = Field(min_length=1)


class LoadedFile(BaseModel):
    """One file as Markdown, with what citations need."""

    doc_id: str
    path: str = Field(description="Path shown to users: relative to its root.")
    title: str
    lang: Language
    doc_type: str
    markdown: str
    vendors: list[str] = Field(default_factory=list)
    as_of: str = ""
    source_urls: list[str] = Field(default_factory=list)
    source_titles: list[str] = Field(default_factory=list)


def load_file(
    path: Path, *, doc_id: str, display_path: str, require_front_matter: bool = False
) -> LoadedFile:
    """Load one supported file; raises ``LoadError`` naming the file on any problem."""
    kind = SUPPORTED_SUFFIXES.get(path.suffix.lower())
    if kind is None:
        raise LoadError(path, f"unsupported file type {path.suffix or '(none)'}; "
                              f"supported: {', '.join(sorted(SUPPORTED_SUFFIXES))}")  # fmt: skip
    try:
        match kind:
            case "markdown":
                loaded = _load_markdown(path, doc_id, display_path, require_front_matter)
            case "text":
                text = _read_text(path)
                loaded = _plain(path, doc_id, display_path, text, title=path.stem.replace("_", " "))
            case "html":
                loaded = _load_html(path, doc_id, display_path)
            case _:
                loaded = _load_pdf(path, doc_id, display_path)
    except LoadError:
        raise
    except OSError as exc:
        raise LoadError(path, f"cannot read: {exc.strerror or exc}") from exc
    except (RecursionError, MemoryError) as exc:
        raise LoadError(path, f"too deeply nested or too large to read ({type(exc).__name__})") from exc
    except Exception as exc:  # a parser's own error for a file it cannot make sense of
        raise LoadError(path, f"not a readable {kind} file ({type(exc).__name__}: {exc})") from exc
    if not loaded.markdown.strip():
        raise LoadError(path, "no text found (empty file, or a scanned PDF without a text layer)")
    return loaded


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LoadError(path, f"not UTF-8 text (byte {exc.start}): convert it to UTF-8 first") from exc


def _plain(path: Path, doc_id: str, display_path: str, markdown: str, *, title: str) -> LoadedFile:
    return LoadedFile(doc_id=doc_id, path=display_path, title=title, lang=detect_language(markdown),
                      doc_type="document", markdown=markdown)  # fmt: skip


def _load_markdown(path: Path, doc_id: str, display_path: str, require_front_matter: bool) -> LoadedFile:
    raw = _read_text(path)
    try:
        post = frontmatter.loads(raw)
    except yaml.YAMLError as exc:
        raise LoadError(path, f"malformed front matter: {exc}") from exc
    if not post.metadata:
        if require_front_matter:
            raise LoadError(path, "missing front matter (id, title, lang, doc_type, as_of, sources)")
        first_heading = next((ln.lstrip("# ").strip() for ln in raw.splitlines() if ln.startswith("# ")), "")
        return _plain(path, doc_id, display_path, raw, title=first_heading or path.stem)
    try:
        meta = ArticleMeta.model_validate(post.metadata)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise LoadError(path, f"invalid front matter: {problems}") from exc
    if require_front_matter and meta.id != path.stem:
        raise LoadError(path, f"front matter id {meta.id!r} differs from the file name {path.stem!r}")
    return LoadedFile(
        doc_id=doc_id,
        path=display_path,
        title=meta.title,
        lang=meta.lang,
        doc_type=meta.doc_type,
        markdown=post.content,
        vendors=meta.vendors,
        as_of=meta.as_of.isoformat(),
        source_urls=[str(s.url) for s in meta.sources],
        source_titles=[s.title for s in meta.sources],
    )


def _load_html(path: Path, doc_id: str, display_path: str) -> LoadedFile:
    soup = BeautifulSoup(_read_text(path), "html.parser")
    for tag in soup(["script", "style", "nav", "footer", "noscript", "template"]):
        tag.decompose()
    title = soup.title.get_text(strip=True) if soup.title else ""
    body = soup.body or soup
    lines: list[str] = []
    for element in body.find_all(["h1", "h2", "h3", "h4", "p", "li", "pre", "td", "th"]):
        text = element.get_text(" ", strip=True)
        if not text:
            continue
        if element.name in {"h1", "h2", "h3", "h4"}:
            lines.append(f"\n{'#' * int(element.name[1])} {text}\n")
            title = title or text
        elif element.name == "li":
            lines.append(f"- {text}")
        else:
            lines.append(text + "\n")
    return _plain(path, doc_id, display_path, "\n".join(lines), title=title or path.stem)


def _load_pdf(path: Path, doc_id: str, display_path: str) -> LoadedFile:
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError, LimitReachedError, PyPdfError

    try:
        reader = PdfReader(path)
        if reader.is_encrypted and not reader.decrypt(""):
            raise LoadError(path, "the PDF is encrypted with a password: save an unprotected copy first")
        pages = [page.extract_text() or "" for page in reader.pages]
        title = str(reader.metadata.title) if reader.metadata and reader.metadata.title else path.stem
    except (FileNotDecryptedError, DependencyError) as exc:
        raise LoadError(path, f"the PDF is encrypted and cannot be read ({exc})") from exc
    except LimitReachedError as exc:
        # pypdf stops inflating a stream past its limits: a decompression bomb, or a PDF too large to index
        raise LoadError(path, f"the PDF expands beyond the size this service reads ({exc})") from exc
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise LoadError(path, f"not a readable PDF: {exc}") from exc
    markdown = "\n\n".join(
        f"## Page {n}\n\n{text.strip()}" for n, text in enumerate(pages, 1) if text.strip()
    )
    return _plain(path, doc_id, display_path, markdown, title=title)
