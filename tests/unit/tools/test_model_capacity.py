"""The largest model each job fits, checked against the QLoRA paper and against the memory calculators."""

from __future__ import annotations

import pytest

from knowledge.catalog import default_catalog
from tools.gpu_memory import PLANNING_HEADROOM, TrainingMemoryInput, training_memory
from tools.model_capacity import ModelCapacityInput, model_capacity

CATALOG = default_catalog()


def sizes(**given: object) -> dict[str, float]:
    out = model_capacity(ModelCapacityInput.model_validate(given), CATALOG)
    return {job.job: job.max_params_b for job in out.jobs}


def test_qlora_fine_tunes_65b_on_one_48gb_gpu() -> None:
    """Dettmers et al. 2023 (QLoRA), abstract: 'finetune a 65B parameter model on a single 48GB GPU'."""
    assert sizes(gpu="rtx-6000-ada", gpus=1)["qlora"] >= 65


def test_each_size_is_the_largest_the_memory_calculator_fits() -> None:
    """The size given fits training_memory within the 10% kept free; a size 10% larger does not."""
    largest = sizes(gpu="rtx-4090", gpus=4)
    for method in ("full", "lora", "qlora"):

        def per_gpu(params_b: float, method: str = method) -> float:
            out = training_memory(
                TrainingMemoryInput(
                    params_b=params_b, gpus=4, zero_stage=3, finetune=method, recompute="full", seq_len=2048,
                    gpu="rtx-4090",
                ),
                CATALOG,
            )  # fmt: skip
            return out.per_gpu.total_gb

        limit = 24 * (1 - PLANNING_HEADROOM)
        assert per_gpu(largest[method]) <= limit
        assert per_gpu(largest[method] * 1.1) > limit


def test_the_jobs_order_by_the_memory_they_need() -> None:
    """Full fine-tuning (16 bytes a parameter) < LoRA (2) < QLoRA (0.5), and 4-bit serving holds more than BF16."""
    s = sizes(gpu="h100-sxm", gpus=8)
    assert s["full"] < s["lora"] < s["qlora"]
    assert s["serve_bf16"] < s["serve_int4"]


@pytest.mark.parametrize("job", ["full", "lora", "qlora", "serve_bf16", "serve_int4"])
def test_more_gpus_never_hold_less(job: str) -> None:
    assert sizes(gpu="a100-80gb-sxm", gpus=1)[job] <= sizes(gpu="a100-80gb-sxm", gpus=8)[job]


def test_a_card_outside_the_catalog_is_given_by_its_memory() -> None:
    assert sizes(gpu_memory_gb=24, gpus=1) == sizes(gpu="rtx-4090", gpus=1)


def test_a_card_is_required() -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - pydantic's ValidationError names the field
        ModelCapacityInput.model_validate({"gpus": 4})
