"""What a comparison must count and what a plan must size (issue 11, set 36's wrong answers): a lease is
paid to its term even when the need is shorter, a fleet written "4x HGX nodes" beside a per-node quote is
four machines, and a fine-tune with no data or time to size a run by is counted by its memory, never by a
pre-training plan. Phrasings are our own; figures are worked out in each docstring."""

from __future__ import annotations

import pytest

from assistant.service import Assistant
from tests.integration.conversation import output, talk, tools

pytestmark = pytest.mark.integration


def test_a_short_need_still_pays_the_whole_lease_term(assistant: Assistant) -> None:
    """A 36-month lease (the assumed term) compared over 4 months: 36 payments are owed, not 4, so leasing
    cannot look cheap for a short project by leaving out 32 of them."""
    (answer,) = talk(
        assistant, "we'd need 32 a100s for roughly 4 months then probably never again. buy, lease or rent?"
    )
    result = output(answer, "tco")
    assert result["lease_months_paid"] == 36
    assert any("still owed" in w and "counted" in w for w in result["warnings"])  # type: ignore[union-attr]
    assert result["cheapest"] != "lease"


def test_a_fleet_of_boards_beside_a_per_node_quote_is_every_machine(assistant: Assistant) -> None:
    """3 HGX B200 machines at $450,000 each: the servers' capex is 3 x 450,000 = $1,350,000, not one machine's."""
    (answer,) = talk(
        assistant, "3 year TCO: 3x hgx b200 nodes quoted at $450k each, power $0.10/kWh, PUE 1.3"
    )
    assert "tco" in tools(answer)
    capex = output(answer, "tco")["capex"]
    assert capex["usd"] >= 1_350_000  # type: ignore[index]


@pytest.mark.parametrize(
    "message", ["how many h200 nodes to fully fine-tune qwen2.5 72b", "70b full ft on h200, how many nodes"]
)
def test_a_fine_tune_count_is_sized_by_memory_not_by_a_pretraining_plan(
    assistant: Assistant, message: str
) -> None:
    (answer,) = talk(assistant, message)
    assert "cluster_plan" not in tools(answer)
    assert "training_memory" in tools(answer)
