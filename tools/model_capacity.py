"""The largest model a set of GPUs holds for each job: full fine-tuning, LoRA, QLoRA and serving.

Every figure comes from the memory calculators themselves (training_memory, inference_memory), searched for
the largest parameter count that still fits, so "what can we fine-tune on 4x RTX 6000 Ada?" and "does 13B
fit on them?" can never disagree.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from knowledge.catalog import Catalog
from tools.common import CalculatorInputError, Reference, ToolInput, ToolOutput, find_accelerator, round_sig
from tools.gpu_memory import PLANNING_HEADROOM, TrainingMemoryInput, training_memory
from tools.inference_memory import InferenceMemoryInput, inference_memory
from tools.messages import Message

_A_CARD = Message(
    "model_capacity.a_card",
    en="give gpu (a catalog card) or gpu_memory_gb",
    zh="请给出 gpu（目录中的卡）或 gpu_memory_gb（每卡显存）",
)
_MEMORY = Message(
    "model_capacity.memory",
    en="{memory} GB per GPU; training keeps {free} free, serving uses 90% (vLLM's default)",
    zh="每卡 {memory} GB；训练留 {free} 余量，推理按 90% 使用（vLLM 默认值）",
)
_SHAPES = Message(
    "model_capacity.shapes",
    en="dense Llama-like shapes derived from the parameter count; micro-batch 1, no CPU offload",
    zh="按参数量推导的类 Llama 稠密结构；微批 1，不做 CPU 卸载",
)

Job = Literal["full", "lora", "qlora", "serve_bf16", "serve_int4"]

SMALLEST_B = 0.1
LARGEST_B = 4000.0
VLLM_MEMORY_UTILIZATION = 0.9  # vLLM's default --gpu-memory-utilization
SEARCH_STEPS = 14  # halvings of the log range (a factor of 40,000): within 0.07%, below the two digits shown


class ModelCapacityInput(ToolInput):
    """The GPUs on hand and the sequence length jobs run at."""

    gpu: str | None = Field(default=None, description="Catalog GPU, e.g. 'RTX 4090', 'RTX 6000 Ada', 'H100'.")
    gpu_memory_gb: float | None = Field(
        default=None, gt=0, le=10_000, description="Memory per GPU, GB, when the card is not in the catalog."
    )
    gpus: int = Field(default=1, ge=1, le=1024, description="GPUs the jobs may use together.")
    seq_len: int = Field(default=2048, ge=128, le=1_000_000, description="Training sequence length, tokens.")
    context_tokens: int = Field(default=4096, ge=128, le=1_000_000, description="Serving context, tokens.")

    @model_validator(mode="after")
    def _a_card(self) -> ModelCapacityInput:
        if not self.gpu and not self.gpu_memory_gb:
            raise ValueError(_A_CARD())
        return self


class JobCapacity(BaseModel):
    job: Job
    max_params_b: float = Field(
        description="Largest dense model that fits, billions of parameters (0: none)."
    )
    setting: str = Field(description="How the job is run at that size.")
    per_gpu_gb: float | None = Field(description="Memory per GPU at that size, GB.")


class ModelCapacityOutput(ToolOutput):
    gpu: str | None
    gpu_memory_gb: float
    gpus: int
    tensor_parallel: int = Field(description="Tensor-parallel degree the serving jobs use.")
    jobs: list[JobCapacity]


def _largest(fits: Callable[[float], float | None]) -> tuple[float, float | None]:
    """The largest size (billions) for which ``fits`` returns a per-GPU figure, by bisection in log space."""
    if fits(SMALLEST_B) is None:
        return 0.0, None
    low, high = SMALLEST_B, LARGEST_B
    if fits(high) is not None:
        return high, fits(high)
    for _ in range(SEARCH_STEPS):
        middle = (low * high) ** 0.5
        if fits(middle) is None:
            high = middle
        else:
            low = middle
    size = _floor_sig(low)  # rounded down, so the size shown still fits
    return size, fits(size)


def _floor_sig(value: float, digits: int = 2) -> float:
    """``value`` rounded down to ``digits`` significant digits: 8.36 -> 8.3, 72.04 -> 72."""
    scale = 10 ** (math.floor(math.log10(value)) - digits + 1)
    return float(round(math.floor(value / scale + 1e-9) * scale, 10))


def model_capacity(inp: ModelCapacityInput, catalog: Catalog) -> ModelCapacityOutput:
    """The largest dense model each job fits on ``gpus`` cards: full fine-tuning (BF16 mixed precision, AdamW,
    ZeRO-3 across the GPUs, full activation recomputation, no CPU offload), LoRA (rank 16, frozen BF16 base
    sharded the same way), QLoRA (4-bit NF4 base) at micro-batch 1 and ``seq_len`` tokens, and serving one
    ``context_tokens`` sequence with BF16 or 4-bit weights and tensor parallelism over the GPUs.

    Each size is the largest for which the memory calculators' per-GPU total stays within the card less 10%
    kept free for fragmentation (training) or within vLLM's 90% memory utilisation (serving); shapes are
    derived from the parameter count (Llama-like), so a named model's own shape may differ a little.
    """
    name = None
    if inp.gpu:
        acc = find_accelerator(catalog, inp.gpu)
        name, memory = acc.name, inp.gpu_memory_gb or acc.memory_gb
    else:
        memory = inp.gpu_memory_gb or 0.0
    limit = memory * (1 - PLANNING_HEADROOM)
    usable = memory * VLLM_MEMORY_UTILIZATION
    zero = 3 if inp.gpus > 1 else 0
    sources: list[Reference] = []

    def trains(finetune: Literal["full", "lora", "qlora"]) -> Callable[[float], float | None]:
        def fits(params_b: float) -> float | None:
            try:
                out = training_memory(
                    TrainingMemoryInput(
                        params_b=params_b,
                        gpus=inp.gpus,
                        zero_stage=zero,
                        finetune=finetune,
                        recompute="full",
                        seq_len=inp.seq_len,
                    ),  # no card: the fit is judged here, so the calculator does not search for fixes
                    catalog,
                )
            except (ValueError, CalculatorInputError):
                return None  # a shape the GPUs cannot be split over
            sources.extend(s for s in out.sources if s not in sources)
            return out.per_gpu.total_gb if out.per_gpu.total_gb <= limit else None

        return fits

    tp = max(d for d in (1, 2, 4, 8) if d <= inp.gpus and inp.gpus % d == 0)

    def serves(precision: Literal["bf16", "int4"]) -> Callable[[float], float | None]:
        def fits(params_b: float) -> float | None:
            try:
                out = inference_memory(
                    InferenceMemoryInput(
                        params_b=params_b,
                        weight_precision=precision,
                        tensor_parallel=tp,
                        context_tokens=inp.context_tokens,
                    ),  # no card: judged here against vLLM's usable share, without the fix search
                    catalog,
                )
            except (ValueError, CalculatorInputError):
                return None
            sources.extend(s for s in out.sources if s not in sources)
            return out.per_gpu.total_gb if out.per_gpu.total_gb <= usable else None

        return fits

    sharded = f"ZeRO-3 over {inp.gpus} GPUs" if zero else "one GPU"
    plans: list[tuple[Job, Callable[[float], float | None], str]] = [
        ("full", trains("full"), f"BF16 + AdamW, {sharded}, full recomputation, seq {inp.seq_len:,}"),
        ("lora", trains("lora"), f"BF16 base, rank-16 adapters, {sharded}, seq {inp.seq_len:,}"),
        ("qlora", trains("qlora"), f"4-bit NF4 base, rank-16 adapters, {sharded}, seq {inp.seq_len:,}"),
        ("serve_bf16", serves("bf16"), f"BF16 weights, tensor parallel {tp}, one {inp.context_tokens:,}-token sequence"),
        ("serve_int4", serves("int4"), f"4-bit weights, tensor parallel {tp}, one {inp.context_tokens:,}-token sequence"),
    ]  # fmt: skip
    jobs = []
    for job, fits, setting in plans:
        size, per_gpu = _largest(fits)
        jobs.append(
            JobCapacity(
                job=job,
                max_params_b=size,
                setting=setting,
                per_gpu_gb=round_sig(per_gpu) if per_gpu is not None else None,
            )
        )
    return ModelCapacityOutput(
        formula="largest N with per-GPU memory(N) <= limit, for each job, by bisection over N",
        assumptions=[
            _MEMORY(memory=f"{memory:g}", free=f"{PLANNING_HEADROOM:.0%}"),
            _SHAPES(),
        ],
        warnings=[],
        sources=sources,
        gpu=name,
        gpu_memory_gb=memory,
        gpus=inp.gpus,
        tensor_parallel=tp,
        jobs=jobs,
    )
