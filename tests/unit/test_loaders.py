from __future__ import annotations

from pathlib import Path

import pytest
from fpdf import FPDF

from knowledge.loaders import LoadError, load_file

ARTICLE = """---
id: storage
title: "Storage for training"
lang: en
doc_type: guide
as_of: 2026-12-01
sources:
  - title: "NVIDIA DGX H100 user guide"
    url: https://docs.nvidia.com/dgx/dgxh100-user-guide/
---
# Storage for training

Intro.

## Checkpoints
A 70B checkpoint with optimizer states is about a terabyte.
"""


def load(path: Path, require: bool = False):  # type: ignore[no-untyped-def]
    return load_file(path, doc_id="x", display_path=path.name, require_front_matter=require)


def test_markdown_front_matter_becomes_metadata(tmp_path: Path) -> None:
    path = tmp_path / "storage.md"
    path.write_text(ARTICLE, encoding="utf-8")
    loaded = load(path, require=True)
    assert loaded.title == "Storage for training"
    assert loaded.lang == "en"
    assert loaded.as_of == "2026-12-01"
    assert loaded.source_urls == ["https://docs.nvidia.com/dgx/dgxh100-user-guide/"]
    assert "## Checkpoints" in loaded.markdown
    assert "sources:" not in loaded.markdown


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("# No front matter\n\ntext", "missing front matter"),
        ("---\nid: [unclosed\n---\ntext", "malformed front matter"),
        (
            ARTICLE.replace(
                'sources:\n  - title: "NVIDIA DGX H100 user guide"\n    url: https://docs.nvidia.com/dgx/dgxh100-user-guide/\n',
                "sources: []\n",
            ),
            "sources",
        ),
        (ARTICLE.replace("as_of: 2026-12-01", "as_of: someday"), "as_of"),
        (ARTICLE.replace("id: storage", "id: other"), "differs from the file name"),
    ],
)
def test_corpus_articles_must_carry_valid_front_matter(tmp_path: Path, content: str, reason: str) -> None:
    path = tmp_path / "storage.md"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(LoadError, match=reason) as info:
        load(path, require=True)
    assert str(path) in str(info.value)


def test_user_markdown_without_front_matter_is_fine(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text("# 集群笔记\n\n我们有两台8卡H800服务器。\n", encoding="utf-8")
    loaded = load(path)
    assert loaded.title == "集群笔记"
    assert loaded.lang == "zh"


def test_html_headings_become_markdown_sections(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_text(
        "<html><head><title>Cluster notes</title><script>alert(1)</script></head><body>"
        "<h2>Network</h2><p>Each node has 8x 400 Gb/s NDR ports.</p><ul><li>rail optimised</li></ul>"
        "</body></html>",
        encoding="utf-8",
    )
    loaded = load(path)
    assert loaded.title == "Cluster notes"
    assert "## Network" in loaded.markdown
    assert "- rail optimised" in loaded.markdown
    assert "alert" not in loaded.markdown


def test_pdf_pages_become_sections(tmp_path: Path) -> None:
    pdf = FPDF()
    for text in ("First page about NVMe tiers.", "Second page about InfiniBand."):
        pdf.add_page()
        pdf.set_font("helvetica", size=12)
        pdf.cell(text=text)
    path = tmp_path / "notes.pdf"
    pdf.output(str(path))
    loaded = load(path)
    assert "## Page 1" in loaded.markdown
    assert "## Page 2" in loaded.markdown
    assert "InfiniBand" in loaded.markdown


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("broken.pdf", b"%PDF-1.4 this is not really a pdf", "not a readable PDF"),
        ("latin1.txt", "caf\xe9 cr\xe8me".encode("latin-1"), "not UTF-8"),
        ("empty.txt", b"   \n", "no text found"),
        ("table.csv", b"a,b\n1,2\n", "unsupported file type"),
    ],
)
def test_bad_files_raise_an_error_naming_the_file(
    tmp_path: Path, name: str, content: bytes, reason: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(LoadError, match=reason) as info:
        load(path)
    assert name in str(info.value)
