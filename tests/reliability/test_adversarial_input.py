"""Defect 1 of the pre-ship probe: a 4,000-digit message froze the server for 22 s (the number patterns
backtracked quadratically). Reading a message must cost about what an ordinary message of the same
length costs, whatever it holds, and must never raise.

The bound is a ratio against ordinary prose measured in the same run (the cheapest of a few runs of
each), so a slow or busy machine does not make it flaky; a quadratic pattern misses it by 100x or more.
"""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.router import Router
from assistant.service import MAX_MESSAGE_CHARS
from assistant.slots import SlotExtractor
from knowledge.catalog import default_catalog
from knowledge.names import NameIndex
from tests.reliability.adversarial import PIECES, adversarial_messages, prose

ROUTER = Router(extractor=SlotExtractor(NameIndex(default_catalog())))
MAX_RATIO = 5.0


def _cost(message: str, runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        ROUTER.route(message)
        best = min(best, time.perf_counter() - start)
    return best


def test_no_message_costs_much_more_than_prose_of_its_length() -> None:
    yardstick = _cost(prose(MAX_MESSAGE_CHARS))
    costs = sorted(((_cost(m), m) for m in adversarial_messages(MAX_MESSAGE_CHARS)), reverse=True)
    slowest, message = costs[0]
    assert slowest <= MAX_RATIO * yardstick, (
        f"{message[:30]!r}... took {slowest * 1000:.1f} ms, {slowest / yardstick:.1f}x the "
        f"{yardstick * 1000:.1f} ms of ordinary prose of the same length"
    )


def test_a_long_message_costs_about_what_its_readable_part_costs() -> None:
    """Routing reads a bounded part of a message: four times the text is not four times the work."""
    assert _cost(prose(MAX_MESSAGE_CHARS)) <= 2.0 * _cost(prose(2000)) + 0.002


@settings(max_examples=300, deadline=None, database=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=60))
def test_routing_never_raises(pieces: list[str]) -> None:
    route = ROUTER.route("".join(pieces))
    assert route.language in {"en", "zh"}


@pytest.mark.parametrize("message", ["十十张H100", "用一十十卡训7B", "H100 一十十台"])
def test_numerals_that_make_no_number_are_not_an_error(message: str) -> None:
    """'一十十' raised cn2an's ValueError in slot filling (found by the property test above)."""
    assert ROUTER.route(message).language == "zh"


def test_version_like_numbers_are_not_amounts() -> None:
    """'1.5.1元' raised ValueError (a 500) in slot filling; it is no amount at all."""
    slots = ROUTER.route("用1.5.1元的预算买A100").slots
    assert slots.budget is None
    assert ROUTER.route("budget 1,000,000 USD").slots.budget == 1_000_000
    assert ROUTER.route("70B model, 1,024 GPUs").slots.gpu_count == 1024
