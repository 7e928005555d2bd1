from __future__ import annotations

from knowledge.chunking import MAX_CHARS, chunk_file
from knowledge.loaders import LoadedFile


def loaded(markdown: str) -> LoadedFile:
    return LoadedFile(doc_id="en/demo", path="corpus/en/demo.md", title="Demo", lang="en",
                      doc_type="guide", markdown=markdown, source_urls=["https://example.org/a"])  # fmt: skip


DOC = "# Demo\n\nIntro text.\n\n## Power\nA DGX H100 draws up to 10.2 kW.\n\n## Cooling\nLiquid cooling.\n"


def test_one_passage_per_section_with_heading_ids() -> None:
    chunks = chunk_file(loaded(DOC), root="knowledge")
    assert [c.id for c in chunks] == ["en/demo#intro", "en/demo#power", "en/demo#cooling"]
    power = chunks[1]
    assert power.page_content.startswith("Demo\nPower\n\n")
    assert power.metadata["section"] == "Power"
    assert power.metadata["url"] == "https://example.org/a"


def test_editing_one_section_changes_only_its_hash() -> None:
    before = {c.id: c.metadata["content_hash"] for c in chunk_file(loaded(DOC), root="knowledge")}
    edited = DOC.replace("10.2 kW", "10.4 kW")
    after = {c.id: c.metadata["content_hash"] for c in chunk_file(loaded(edited), root="knowledge")}
    assert before.keys() == after.keys()
    assert [k for k in before if before[k] != after[k]] == ["en/demo#power"]


def test_long_sections_are_cut_with_numbered_ids() -> None:
    body = " ".join(f"Sentence {i} about NVMe throughput." for i in range(200))
    chunks = chunk_file(loaded(f"## Storage\n{body}\n"), root="knowledge")
    assert len(chunks) > 1
    assert all(len(c.page_content) <= MAX_CHARS + 100 for c in chunks)
    assert [c.id for c in chunks][:2] == ["en/demo#storage~1", "en/demo#storage~2"]


def test_repeated_headings_keep_all_text_under_unique_ids() -> None:
    chunks = chunk_file(loaded("## Notes\nalpha\n\n## Other\nx\n\n## Notes\nbeta\n"), root="knowledge")
    ids = [c.id for c in chunks]
    assert len(ids) == len(set(ids))
    text = "".join(c.page_content for c in chunks)
    assert "alpha" in text
    assert "beta" in text


def test_hard_wrapped_paragraphs_and_bullets_are_joined_but_code_keeps_its_lines() -> None:
    """An ingested file wrapped at 80 columns reads as whole sentences (the snippet picker splits at line
    ends); a shell block's commands stay one per line, a nested bullet stays a bullet, and a paragraph after a
    blank line is not run into the one before it."""
    doc = (
        "## Checks\nRun the burn-in for a day\nbefore acceptance.\n\n```bash\nnvidia-smi -q\ndcgmi diag -r 3\n```\n\n"
        "- a bullet that\n  wraps on\n  - nested item\n\nA paragraph of its own\n\n## 中文\n整机验收前先跑\n一天压力测试。\n"
    )
    checks, zh = chunk_file(loaded(doc), root="knowledge")
    assert "Run the burn-in for a day before acceptance." in checks.page_content
    assert "```bash\nnvidia-smi -q\ndcgmi diag -r 3\n```" in checks.page_content
    assert "- a bullet that wraps on" in checks.page_content
    assert "\n- nested item" in checks.page_content
    assert "nested item A paragraph" not in checks.page_content, "a blank line ends a paragraph"
    assert "整机验收前先跑一天压力测试。" in zh.page_content
