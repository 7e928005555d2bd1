"""Questions about a technology or a judgement, with a workload's figures told as their setting, are answered
from the guidance: the sentence that answers leads, not a calculation the question did not ask for.

Each case is a class found in the held-out knowledge set k3 (tests/data/fresh/k3.scored.r2.yaml), written here
in other words than the set's."""

from __future__ import annotations

import re

import pytest

from assistant.retriever import asked_sentence
from assistant.service import Assistant
from tests.integration.conversation import talk, tools


def opening(answer_text: str) -> str:
    """The answer's first paragraph: what leads."""
    return answer_text.split("\n\n")[0]


@pytest.mark.parametrize(
    ("message", "lead"),
    [
        # sameness of two techniques, with the job's size and cards as the setting
        ("FSDP 和 DeepSpeed ZeRO-3 算同一种东西吗？打算 8 张 A100 做 13B 全参", r"FSDP"),
        # how two technologies relate, with the server bought as the setting
        ("what's the relationship between NVLink and NVSwitch? our 8x H100 PCIe box, does it have a switch?", r"NVLink"),
        # whether a technology works on the card the team has, asked as "will that work"
        ("we run a 7B job on 32 A100 40GB and want to try FP8 through Transformer Engine. will that work on these cards?", r"(?i)no FP8|FP8[^.]*(?:Hopper|Ada)"),
        # whether a card can be bridged, with the box as the setting
        ("two RTX 4090s in one workstation for QLoRA: can we NVLink them to get one 48 GB pool?", r"(?i)no NVLink|NVLink"),
    ],
)  # fmt: skip
def test_a_question_about_a_technology_is_answered_from_the_guidance(
    assistant: Assistant, message: str, lead: str
) -> None:
    (answer,) = talk(assistant, message)
    assert tools(answer) in ([], ["gpu_spec"]), answer.answer[:200]
    assert re.search(lead, opening(answer.answer)), answer.answer[:300]


def test_a_card_whose_scale_out_is_asked_is_not_a_comparison_of_cards(assistant: Assistant) -> None:
    """ "Do we still need InfiniBand adapters for Gaudi 3 like for our H100s?" asks how Gaudi 3 networks (its
    Ethernet ports), not which of the two cards computes faster."""
    (answer,) = talk(
        assistant,
        "Our H100 nodes each have eight ConnectX InfiniBand cards. If we add Gaudi 3 servers, do they need those "
        "adapters too, or how does their networking work?",
    )
    assert "gpu_compare" not in tools(answer)
    assert re.search(r"(?i)ethernet|RoCE", opening(answer.answer)), answer.answer[:300]


def test_a_task_named_secondary_does_not_size_the_hardware(assistant: Assistant) -> None:
    """ "训练为主，推理是次要的": the serving named as secondary runs no serving calculator."""
    (answer,) = talk(assistant, "打算从头预训练一个 30B 的模型，用 H800，推理是次要的，先看训练要多少显存")
    assert "inference_memory" not in tools(answer)
    assert "training_memory" in tools(answer)


@pytest.mark.parametrize(
    ("message", "asked"),
    [
        (
            "Intel is pitching Gaudi 3 hard. Do we still need InfiniBand HCAs?",
            "Do we still need InfiniBand HCAs?",
        ),
        ("老板想买 H20。H20 适不适合预训练？推理是次要的", "H20 适不适合预训练？"),
        ("what is NVLink?", None),  # one question throughout
        ("We have 2.5 TB of data. Is it enough?", "Is it enough?"),  # a decimal point ends no sentence
    ],
)
def test_the_asked_sentence_is_found_beside_its_setting(message: str, asked: str | None) -> None:
    assert asked_sentence(message) == asked
