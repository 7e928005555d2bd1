"""What a comparison must count and what a plan must size (issue 11, set 36's wrong answers): a lease is
paid to its term even when the need is shorter, a fleet written "4x HGX nodes" beside a per-node quote is
four machines, and a fine-tune with no data or time to size a run by is counted by its memory, never by a
pre-training plan. Phrasings are our own; figures are worked out in each docstring."""

from __future__ import annotations

import pytest

from assistant.service import Assistant
from tests.integration.conversation import first_sentence, output, talk, tools

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


def test_a_serving_follow_up_on_other_cards_stays_a_serving_question(assistant: Assistant) -> None:
    """Serving Qwen2.5-72B, then "would 4 L20s hold it?": the same model served on the cards named (inference
    memory, 72.7B x 2 bytes = 145 GB of BF16 weights against 4 x 48 GB), never a training-memory count."""
    _, then = talk(assistant, "部署 Qwen2.5-72B 推理，BF16，要几张卡？", "换成 4 张 L20 放得下吗？")
    assert tools(then) == ["inference_memory"]
    assert then.tool_calls[0].input["gpus"] == 4


def test_a_measured_rate_on_one_card_prices_tokens_not_a_training_run(assistant: Assistant) -> None:
    """$0.75 a GPU-hour at 1,200 tokens/s: 4.32M tokens an hour, so $0.75 / 4.32 = $0.174 per million tokens."""
    (answer,) = talk(
        assistant,
        "one A10 serving a 7B model, we measured 1,200 tokens/s aggregate with vllm; the card is $0.75/hr. "
        "cost per million tokens?",
    )
    assert "training_compute" not in tools(answer)
    assert "serving_cost" in tools(answer)
    assert "0.174" in first_sentence(answer)


def test_a_buyer_in_china_is_told_which_cards_need_an_export_licence(assistant: Assistant) -> None:
    """The knowledge base's export-control FAQ (as of January 2026): data-centre parts such as the A100 and
    H100 need a US licence for China; the China-market H20 and L20 and domestic parts are the alternatives."""
    (answer,) = talk(assistant, "预算500万人民币，北京自己的机房，13B 全参微调，买什么卡、买几台？")
    assert "许可证" in answer.answer
    assert "H20" in answer.answer
