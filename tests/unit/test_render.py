from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from assistant.render import answer_html, to_html


@pytest.mark.parametrize(
    "payload",
    [
        "<script>alert(1)</script>",
        '<img src=x onerror="alert(1)">',
        "[click](javascript:alert(1))",
        '<a href="javascript:alert(1)">x</a>',
        "<iframe src=//evil></iframe>",
        '<svg onload="alert(1)">',
    ],
)
def test_injected_markup_stays_inert(payload: str) -> None:
    soup = BeautifulSoup(to_html(f"Answer with {payload} inside."), "html.parser")
    assert not soup.find_all(["script", "iframe", "svg", "img", "object", "embed"])
    for tag in soup.find_all(True):
        assert not [name for name in tag.attrs if name.lower().startswith("on")]
        assert not str(tag.get("href", "")).lower().startswith("javascript")
    assert "inside" in soup.get_text()  # the text is kept, shown as text


def test_tables_bold_and_links_render() -> None:
    html = to_html("**31 days** [1]\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[NVIDIA](https://www.nvidia.com/)")
    assert "<strong>31 days</strong>" in html
    assert "<table>" in html
    assert 'href="https://www.nvidia.com/"' in html
    assert 'rel="noopener noreferrer nofollow"' in html


def test_each_calculation_table_is_marked_where_it_stands() -> None:
    first = "| Item | Value |\n|---|---|\n| GPUs | 8 |"
    second = "| Item | Value |\n|---|---|\n| Days | 31.1 |"
    markdown = f"About **31.1 days**.\n\n{first}\n\n{second}\n\n**Assumptions**\n\n- MFU 40%"
    soup = BeautifulSoup(answer_html(markdown, [first, None, second]), "html.parser")
    slots = soup.select("div.calculation")
    assert [s["data-calculation"] for s in slots] == ["0", "2"]  # calculation 1 has no table in the answer
    assert [s.select_one("td:last-child").get_text() for s in slots] == ["8", "31.1"]
    # everything else renders as to_html renders it
    assert soup.select_one("p").get_text() == "About 31.1 days."
    assert [li.get_text() for li in soup.select("li")] == ["MFU 40%"]
    assert answer_html(markdown) == to_html(markdown)


def test_a_table_the_answer_does_not_hold_is_not_marked() -> None:
    html = answer_html("No table here.", ["| a | b |\n|---|---|\n| 1 | 2 |"])
    assert "data-calculation" not in html
    assert html == to_html("No table here.")


def test_markup_in_a_calculation_table_stays_inert() -> None:
    table = '| Item | Value |\n|---|---|\n| <script>x()</script> | <img src=x onerror="y()"> |'
    html = answer_html(f"Lead.\n\n{table}", [table])
    soup = BeautifulSoup(html, "html.parser")
    assert not soup.select("script, img")  # shown as text, never as elements
    assert soup.select("td")[0].get_text() == "<script>x()</script>"
