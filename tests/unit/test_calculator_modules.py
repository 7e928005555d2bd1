"""Every calculator of ``tools.registry`` is reachable by the assistant through one module."""

from __future__ import annotations

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
