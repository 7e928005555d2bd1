"""Rule tables that render the calculators' English sentences in another language.

Each rule is a pattern that must match a whole sentence and a rendering: a ``str.format`` template over
the named groups, or a function of them. Captured numbers, names and identifiers are copied as they are;
nothing is recomputed. assumptions.py, calculator_warnings.py and calculator_errors.py hold the tables.
"""

from __future__ import annotations

import re
from collections.abc import Callable

NUMBER = r"[\d.,]+(?:e[+-]?\d+)?"  # a number as the calculators print it: 989.4, 1,536, 2.5e+07
Groups = dict[str, str]
Render = str | Callable[[Groups], str]
Rule = tuple[re.Pattern[str], Render]

# price kinds, as the catalog and the calculators name them
PRICE_KIND = {"list": "标价", "street": "市场价", "msrp": "建议零售价", "estimate": "估算"}


def rule(pattern: str, render: Render) -> Rule:
    return re.compile(pattern), render


def rendered(text: str, rules: list[Rule]) -> str | None:
    """``text`` by the first rule whose pattern matches all of it; None when no rule does."""
    for pattern, render in rules:
        match = pattern.fullmatch(text)
        if match:
            groups = match.groupdict("")
            return render.format(**groups) if isinstance(render, str) else render(groups)
    return None
