"""A model is served as it is released unless the user names another precision: gpt-oss ships its MoE experts
in MXFP4 (4-bit) and fits on one 80 GB GPU; sizing it in BF16 (about 234 GB) answered a yes as a no (k8)."""

from __future__ import annotations

import pytest

from assistant.service import Assistant
from tests.integration.conversation import first_sentence, output, talk

pytestmark = pytest.mark.integration

GIB = 2**30


@pytest.mark.parametrize(
    ("message", "checkpoint_gib", "params_b"),
    [
        # OpenAI, gpt-oss-120b & gpt-oss-20b Model Card (arXiv:2508.10925): 116.83B parameters in a 60.8 GiB
        # checkpoint that runs on one 80 GB GPU; 20.91B in 12.8 GiB, within 16 GB
        ("can gpt-oss-120b run on a single H100 80GB, or do we need two?", 60.8, 116.83),
        ("gpt-oss-20b 单卡 4090 能跑吗", 12.8, 20.91),
    ],
)
def test_a_model_released_in_four_bits_is_sized_in_four_bits(
    assistant: Assistant, message: str, checkpoint_gib: float, params_b: float
) -> None:
    (answer,) = talk(assistant, message)
    result = output(answer, "inference_memory")
    assert answer.tool_calls[0].input["weight_precision"] == "fp4"
    weights_gb = params_b * 1e9 * float(result["weight_bytes_per_param"]) / 1e9  # type: ignore[arg-type]
    # the FP4 scales as counted stand in for the BF16 attention and embeddings the release keeps
    assert weights_gb == pytest.approx(checkpoint_gib * GIB / 1e9, rel=0.05)
    assert result["fits"] is True
    assert result["gpus_needed"] == 1
    assert first_sentence(answer).startswith(("Yes", "放得下")), answer.answer[:200]


def test_a_precision_named_by_the_user_still_wins(assistant: Assistant) -> None:
    (answer,) = talk(assistant, "gpt-oss-120b in BF16 on H100s: how many cards to serve it?")
    assert answer.tool_calls[0].input["weight_precision"] == "bf16"
    assert output(answer, "inference_memory")["gpus_needed"] >= 4  # 116.83B x 2 bytes = 234 GB
