"""Numbers in answers: three significant figures, never a digit lost (110.4 once printed as "11")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assistant.calculators.common import money, num, pct, span


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (110.4, "110"),
        (200.04, "200"),
        (999.9, "1,000"),
        (100.0, "100"),
        (1010.5, "1,010"),  # Python rounds half to even
        (12.5, "12.5"),
        (31.06, "31.1"),
        (0.5, "0.5"),
        (0.123, "0.123"),
        (99.95, "100"),
        (10.0001, "10"),
        (3.14159, "3.14"),
        (-42.42, "-42.4"),
        (0, "0"),
        (1.0e13, "1.00e13"),
        (5.0e-4, "5.00e-4"),
        (None, "-"),
    ],
)
def test_num(value: float | None, text: str) -> None:
    assert num(value) == text


@given(st.floats(min_value=1e-3, max_value=1e12, allow_nan=False))
def test_num_keeps_the_magnitude_and_three_significant_figures(value: float) -> None:
    text = num(value)
    shown = float(text.replace(",", ""))
    # three significant figures: within 0.5 % (whole numbers of 1,000 and more are closer still)
    assert shown == pytest.approx(value, rel=5e-3, abs=5e-4)


def test_money_and_percent() -> None:
    assert money({"usd": 110.4, "cny": 799.9}) == "$110 (¥800)"
    assert money(None) == "-"
    assert pct(0.455) == "46%"


def test_span_collapses_equal_ends() -> None:
    assert span(656.0, 936.0) == "656-936"
    assert span(8, 8) == "8"
    assert span(76.8, 110.4) == "76.8-110"
