"""Every calculator of ``tools.registry`` is reachable by the assistant through one module."""

from __future__ import annotations

import re

import pytest

from assistant.calculators import CALCULATORS
from tools.registry import TOOLS


def test_every_registered_calculator_has_a_module() -> None:
    missing = sorted(set(TOOLS) - set(CALCULATORS))
    assert not missing, f"calculators without a module in assistant/calculators/: {missing}"


def test_every_module_runs_a_registered_calculator() -> None:
    assert not sorted(set(CALCULATORS) - set(TOOLS))


@pytest.mark.parametrize("name", sorted(CALCULATORS))
def test_each_module_describes_itself(name: str) -> None:
    calculator = CALCULATORS[name]
    assert calculator.name == name
    assert calculator.triggers.pattern


@pytest.mark.parametrize("name", sorted(CALCULATORS))
def test_each_module_titles_its_card_in_both_languages(name: str) -> None:
    en, zh = CALCULATORS[name].title
    assert en
    assert en[0].isupper()
    assert re.search(r"[\u4e00-\u9fff]", zh), zh  # words a Chinese reader reads, not the English title
    assert "_" not in en + zh  # never a field or tool name


def test_titles_tell_the_cards_apart() -> None:
    for language in (0, 1):
        titles = [calculator.title[language] for calculator in CALCULATORS.values()]
        assert len(set(titles)) == len(titles)
