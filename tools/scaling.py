"""Scaling efficiency from two measured runs: how much of the added GPUs' throughput a job kept."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from knowledge.catalog import Catalog
from tools.common import CalculatorInputError, Reference, ToolInput, ToolOutput
from tools.messages import Message

MLPERF_V31 = Reference(
    title="NVIDIA Technical Blog: Setting New Records at Data Center Scale Using NVIDIA H100 GPUs and Quantum-2 "
    "InfiniBand (MLPerf Training v3.1, Nov 2023: GPT-3 175B in 10.9 min on 3,584 H100s, 3.9 min on 10,752; "
    "93% scaling efficiency)",
    url="https://developer.nvidia.com/blog/setting-new-records-at-data-center-scale-using-nvidia-h100-gpus-and-quantum-2-infiniband/",
)
LLAMA3_MFU = Reference(
    title="Llama Team, The Llama 3 Herd of Models (2024), Table 4: 43% MFU on 8,192 H100s, 41% on 16,384",
    url="https://arxiv.org/abs/2407.21783",
)

_SAME_JOB = Message(
    "scaling.same_job",
    en="the same job (model, batch per GPU, sequence length) on both runs",
    zh="两次运行是同一个任务（模型、每卡 batch、序列长度相同）",
)
_ABOVE_LINEAR = Message(
    "scaling.above_linear",
    en="{efficiency} is above linear: the runs probably differ in more than the GPU count "
    "(batch size, sequence length, a fixed bottleneck such as data loading on the small run)",
    zh="{efficiency} 超过了线性：两次运行的差别很可能不只是卡数（batch、序列长度，或小规模那次被数据加载等固定瓶颈拖慢）",
)
_FEWER_GPUS = Message(
    "scaling.fewer_gpus",
    en="the second run has fewer GPUs: efficiency is read the same way, from the larger to the smaller",
    zh="第二次运行的卡更少：效率仍按同样的方式计算",
)
_SAME_GPUS = Message(
    "scaling.same_gpus",
    en="the two runs have the same number of GPUs; give two GPU counts",
    zh="两次运行的 GPU 数量（gpus_to）相同：请给出两个不同的卡数",
)

# how a measured efficiency reads, for a job that keeps its per-GPU batch (weak scaling) on a non-blocking
# fabric: published large runs keep 90-95% (MLPerf v3.1: 93% over 3x the GPUs; Llama 3: 41/43 = 95% over 2x)
Verdict = Literal["excellent", "normal", "low", "poor"]
_BANDS: tuple[tuple[float, Verdict], ...] = ((0.9, "excellent"), (0.8, "normal"), (0.65, "low"))


class ScalingInput(ToolInput):
    """Two runs of the same job: GPUs and measured throughput on each (any unit, the same for both)."""

    gpus_from: int = Field(ge=1, le=1_000_000, description="GPUs of the first (smaller) run.")
    rate_from: float = Field(
        gt=0, le=1e15, description="Throughput measured on the first run (tokens/s, ...)."
    )
    gpus_to: int = Field(ge=1, le=1_000_000, description="GPUs of the second run.")
    rate_to: float = Field(gt=0, le=1e15, description="Throughput measured on the second run, same unit.")
    unit: str = Field(default="tokens/s", max_length=32, description="The throughput's unit, for display.")


class ScalingOutput(ToolOutput):
    speedup: float = Field(description="rate_to / rate_from.")
    ideal_speedup: float = Field(description="gpus_to / gpus_from: perfectly linear scaling.")
    efficiency: float = Field(description="speedup / ideal_speedup (1.0 = linear).")
    per_gpu_from: float = Field(description="rate_from / gpus_from.")
    per_gpu_to: float = Field(description="rate_to / gpus_to.")
    linear_rate: float = Field(description="What the second run would give at linear scaling.")
    lost_share: float = Field(description="1 - efficiency: the share of the added GPUs' work lost.")
    verdict: Verdict = Field(
        description="excellent >= 90% (published large runs), normal 80-90%, low 65-80%, poor below 65%."
    )
    unit: str


def scaling(inp: ScalingInput, catalog: Catalog) -> ScalingOutput:
    """Scaling efficiency = (rate_to / rate_from) / (gpus_to / gpus_from), and what it says about the job.

    The bands are for weak scaling (the same batch per GPU) over a non-blocking fabric: NVIDIA's MLPerf
    Training v3.1 GPT-3 run kept 93% going from 3,584 to 10,752 H100s and Llama 3 405B kept 41% of 43% MFU
    (95%) going from 8,192 to 16,384 H100s, so 90% or more is as good as published runs; 80-90% is common
    for a first multi-node run; lower points to the network, the global batch or a straggler.
    """
    del catalog  # two measurements: nothing to look up
    if inp.gpus_to == inp.gpus_from:
        raise CalculatorInputError("gpus_to", _SAME_GPUS())
    speedup = inp.rate_to / inp.rate_from
    ideal = inp.gpus_to / inp.gpus_from
    efficiency = speedup / ideal
    verdict = next((name for floor, name in _BANDS if efficiency >= floor), "poor")
    warnings = []
    if efficiency > 1.05:
        warnings.append(_ABOVE_LINEAR(efficiency=f"{efficiency:.0%}"))
    if inp.gpus_to < inp.gpus_from:
        warnings.append(_FEWER_GPUS())
    return ScalingOutput(
        formula="efficiency = (rate_to / rate_from) / (gpus_to / gpus_from); linear rate = rate_from x gpus_to / gpus_from",
        assumptions=[_SAME_JOB()],
        warnings=warnings,
        sources=[MLPERF_V31, LLAMA3_MFU],
        speedup=round(speedup, 4),
        ideal_speedup=round(ideal, 4),
        efficiency=round(efficiency, 4),
        per_gpu_from=round(inp.rate_from / inp.gpus_from, 4),
        per_gpu_to=round(inp.rate_to / inp.gpus_to, 4),
        linear_rate=round(inp.rate_from * ideal, 4),
        lost_share=round(1 - efficiency, 4),
        verdict=verdict,
        unit=inp.unit,
    )
