from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from assistant.render import to_html


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
