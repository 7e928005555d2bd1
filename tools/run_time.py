"""Time, GPU-hours and GPU counts from what a team already knows about its run, with no model to derive.

People often know one figure of a run and want another: the GPU-hours it takes ("1.2M GPU-hours on 512
GPUs: how many days?"), its total compute ("2.4e24 FLOPs on H200 at 38% MFU: GPU-hours?"), or the
throughput they measured ("2,900 tokens/s per GPU, 1T tokens on 256 GPUs: how long?", "step time 9.8 s
for 1,024 x 4,096 tokens"). Each is one line of arithmetic on the given figures; this calculator does it
and says which line it used, without re-deriving the run from a model size and an assumed MFU.
"""

from __future__ import annotations

import math

from pydantic import Field, model_validator

from knowledge.catalog import Catalog
from tools.common import (
    Reference,
    Share,
    ToolInput,
    ToolOutput,
    find_accelerator,
    peak_tflops,
    round_sig,
)
from tools.compute import LLAMA3, PALM, ComputePrecision
from tools.messages import Message

_ONE_BASIS = Message(
    "run_time.one_basis",
    en="give exactly one of gpu_hours, training_flops, tokens_per_second_per_gpu, step_time_s or a "
    "finished run (from_gpus and from_days)",
    zh="gpu_hours、training_flops、tokens_per_second_per_gpu、step_time_s 和已完成的一次训练"
    "（from_gpus 与 from_days）请给且只给其中一个",
)
_FROM_GPU_NEEDS = Message(
    "run_time.from_gpu_needs",
    en="from_gpu needs from_gpus, from_days and gpu, the card the run moves to",
    zh="from_gpu 需要同时给出 from_gpus、from_days 和 gpu（任务要换到的卡）",
)
_FLOPS_NEED_GPU = Message(
    "run_time.flops_need_gpu",
    en="training_flops needs the gpu whose peak runs them",
    zh="training_flops 需要指定运行它的 GPU",
)
_STEP_NEEDS = Message(
    "run_time.step_needs",
    en="step_time_s needs tokens_per_step (global batch x sequence length) and tokens_b",
    zh="step_time_s 需要配合 tokens_per_step（全局 batch × 序列长度）和 tokens_b",
)
_THROUGHPUT_NEEDS_TOKENS = Message(
    "run_time.throughput_needs_tokens",
    en="a throughput needs tokens_b, the tokens to train on",
    zh="给出吞吐时还需要 tokens_b（训练 token 数）",
)
_PEAK = Message(
    "run_time.peak",
    en="{gpu}: {peak} dense {precision} TFLOP/s per GPU (catalog)",
    zh="{gpu}：单卡稠密 {precision} 峰值 {peak} TFLOP/s（目录数据）",
)
_MFU = Message("run_time.mfu", en="MFU {mfu} ({how})", zh="按 MFU {mfu} 计（{how:given}）")
_MOVED = Message(
    "run_time.moved",
    en="{old} {old_peak} -> {new} {new_peak} dense {precision} TFLOP/s (catalog): {speedup}x at the same MFU; "
    "a faster card is harder to keep fed, so its MFU is often lower (Llama 3 reports 38-43% on H100, "
    "Megatron-LM 52% on A100): take this as the fastest case",
    zh="{old} {old_peak} → {new} {new_peak} 稠密 {precision} TFLOP/s（目录数据）：相同 MFU 下快 {speedup} 倍；"
    "更快的卡更难喂饱，MFU 往往更低（Llama 3 在 H100 上为 38%-43%，Megatron-LM 在 A100 上为 52%），这是最快的情况",
)
_SCALING_GIVEN = Message(
    "run_time.scaling_given",
    en="scaling efficiency {efficiency} from {gpus_from} to {gpus_to} GPUs (given)",
    zh="从 {gpus_from} 卡到 {gpus_to} 卡的扩展效率 {efficiency}（用户给定）",
)
_SCALING_ASSUMED = Message(
    "run_time.scaling_assumed",
    en="scaling efficiency {efficiency} from {gpus_from} to {gpus_to} GPUs "
    "(assumed: 90-95% on a non-blocking 400G fabric)",
    zh="从 {gpus_from} 卡到 {gpus_to} 卡的扩展效率按 {efficiency} 计（假设：无阻塞 400G 网络上一般为 90%-95%）",
)
_JOB_RATE = Message(
    "run_time.job_rate",
    en="{tokens} tokens per step / {step} s = {rate} tokens/s for the whole job",
    zh="每步 {tokens} token / {step} 秒 = 整个任务每秒 {rate} token",
)
_NO_GPU_COUNT = Message(
    "run_time.no_gpu_count",
    en="no GPU count given: GPU-hours need it",
    zh="没有给出卡数：算 GPU 小时需要卡数",
)
_STEP_RATE = Message(
    "run_time.step_rate",
    en="{tokens} tokens per step / {step} s / {gpus} GPUs = {rate} tokens/s per GPU",
    zh="每步 {tokens} token ÷ {step} 秒 ÷ {gpus} 张卡 = 每卡每秒 {rate} token",
)
_WHOLE_SERVERS = Message(
    "run_time.whole_servers",
    en="rounded up to whole servers of {per_node} GPUs",
    zh="按每台 {per_node} 卡的整机向上取整",
)

MEGATRON = Reference(
    title="Narayanan et al., Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM "
    "(52% of A100 peak on a 1T-parameter model)",
    url="https://arxiv.org/abs/2104.04473",
)
MLPERF_SCALING = Reference(
    title="MLCommons MLPerf Training v3.1, GPT-3 175B: 3.9 min on 10,752 H100 vs 10.9 min on 3,584 "
    "(3x the GPUs for 2.8x the speed, 93% scaling efficiency as NVIDIA reports it)",
    url="https://developer.nvidia.com/blog/setting-new-records-at-data-center-scale-using-nvidia-h100-gpus-and-quantum-2-infiniband/",
)
GPU_HOUR = Reference(
    title="GPU-hours = GPUs x wall-clock hours (the unit of Llama 3's and DeepSeek-V3's reported compute)",
    url="https://arxiv.org/abs/2412.19437",
)


class RunTimeInput(ToolInput):
    """What is known of the run; give one of: GPU-hours, total FLOPs, or a throughput (tokens/s or step time)."""

    gpu_hours: float | None = Field(default=None, gt=0, le=1e12, description="GPU-hours the run needs.")
    training_flops: float | None = Field(
        default=None, gt=0, le=1e30, description="Total training FLOPs of the run (model FLOPs)."
    )
    tokens_b: float | None = Field(
        default=None, gt=0, le=1_000_000, description="Tokens to train on, billions (with a throughput)."
    )
    tokens_per_second_per_gpu: float | None = Field(
        default=None, gt=0, le=1e9, description="Measured tokens/s per GPU."
    )
    step_time_s: float | None = Field(default=None, gt=0, le=1e6, description="Measured seconds per step.")
    tokens_per_step: float | None = Field(
        default=None, gt=0, le=1e12, description="Tokens per step: global batch x sequence length."
    )
    gpus: int | None = Field(default=None, ge=1, le=1_000_000, description="GPUs in the run.")
    deadline_days: float | None = Field(
        default=None, gt=0, le=36_500, description="Days available: gives the GPUs needed."
    )
    gpu: str | None = Field(default=None, description="Catalog GPU (for FLOPs: its dense peak).")
    from_gpu: str | None = Field(
        default=None,
        description="Card of a finished run of the same job (with from_gpus and from_days): the run is moved to "
        "gpu at the same MFU.",
    )
    from_gpus: int | None = Field(
        default=None,
        ge=1,
        le=1_000_000,
        description="GPUs of a finished run of the same job (with from_days); without from_gpu it ran on the "
        "same card, and gpus is the count it scales to.",
    )
    from_days: float | None = Field(default=None, gt=0, le=36_500, description="Days that finished run took.")
    scaling_efficiency: Share | None = Field(
        default=None,
        description="Share of linear speed-up kept when the finished run moves to more GPUs (0.9 assumed "
        "for a non-blocking 400G fabric when not given).",
    )
    precision: ComputePrecision = Field(default="bf16", description="Peak used as the MFU denominator.")
    mfu: Share = Field(default=0.40, description="MFU assumed when converting FLOPs to GPU-hours.")
    gpus_per_node: int = Field(
        default=8, ge=1, le=72, description="GPUs per server, to round to whole servers."
    )

    @model_validator(mode="after")
    def _one_basis(self) -> RunTimeInput:
        bases = [
            self.gpu_hours is not None,
            self.training_flops is not None,
            self.tokens_per_second_per_gpu is not None,
            self.step_time_s is not None,
            self.from_gpu is not None or (self.from_gpus is not None and self.from_days is not None),
        ]
        if sum(bases) != 1:
            raise ValueError(_ONE_BASIS())
        if self.from_gpu is not None and not (self.from_gpus and self.from_days and self.gpu):
            raise ValueError(_FROM_GPU_NEEDS())
        if self.training_flops is not None and self.gpu is None:
            raise ValueError(_FLOPS_NEED_GPU())
        if self.step_time_s is not None and (self.tokens_per_step is None or self.tokens_b is None):
            raise ValueError(_STEP_NEEDS())
        if self.tokens_per_second_per_gpu is not None and self.tokens_b is None:
            raise ValueError(_THROUGHPUT_NEEDS_TOKENS())
        return self


class RunTimeOutput(ToolOutput):
    gpu_hours: float | None = Field(
        description="GPU-hours of the run; None from a step time without a GPU count."
    )
    gpus: int | None = Field(description="GPUs: given, or needed for the deadline (whole servers).")
    exact_gpus: float | None = Field(description="GPUs needed for the deadline before rounding up.")
    hours: float | None = Field(description="Wall-clock hours on `gpus` GPUs.")
    days: float | None = Field(description="Wall-clock days on `gpus` GPUs.")
    tokens_per_second_per_gpu: float | None = Field(description="Given, or from the step time.")
    speedup: float | None = Field(
        default=None,
        description="New card's dense peak over the old one's: the move's speed-up at the same MFU.",
    )
    from_gpu_name: str | None = Field(default=None, description="The finished run's card.")
    ideal_days: float | None = Field(
        default=None, description="Days of a finished run scaled to more GPUs with perfectly linear speed-up."
    )
    scaling_efficiency: float | None = Field(
        default=None, description="Share of linear speed-up used for a finished run scaled to more GPUs."
    )
    efficiency_needed: float | None = Field(
        default=None,
        description="Scaling efficiency a finished run scaled to `gpus` needs to finish within deadline_days.",
    )
    gpu_name: str | None = Field(default=None, description="The card the run moves to.")


def run_time(inp: RunTimeInput, catalog: Catalog) -> RunTimeOutput:
    """Wall-clock time, GPU-hours or GPUs needed from figures the user already knows about a run.

    From GPU-hours: days = GPU-hours / GPUs / 24, or GPUs = GPU-hours / (deadline x 24). From total FLOPs:
    GPU-hours = FLOPs / (dense peak x MFU) / 3600. From a measured throughput (tokens/s per GPU, or
    tokens per step / step time / GPUs): GPU-hours = tokens / tokens/s per GPU / 3600. No model size or
    assumed MFU is involved unless FLOPs must become time.
    """
    assumptions: list[str] = []
    per_gpu: float | None = None
    moved: dict[str, object] = {}
    if inp.gpu_hours is not None:
        hours_total, formula = inp.gpu_hours, "days = GPU-hours / GPUs / 24"
    elif inp.training_flops is not None:
        acc = find_accelerator(catalog, inp.gpu or "")
        peak = peak_tflops(acc, inp.precision)
        hours_total = inp.training_flops / (peak * 1e12 * inp.mfu) / 3600
        formula = "GPU-hours = FLOPs / (dense peak x MFU) / 3600"
        assumptions.append(_PEAK(gpu=acc.name, peak=f"{peak:g}", precision=inp.precision.upper()))
        assumptions.append(
            _MFU(mfu=f"{inp.mfu:.0%}", how="given" if "mfu" in inp.model_fields_set else "assumed")
        )
    elif inp.from_gpu is not None:
        # the same FLOPs on another card: the old run's GPU-hours scaled by the ratio of dense peaks
        old, new = find_accelerator(catalog, inp.from_gpu), find_accelerator(catalog, inp.gpu or "")
        old_peak, new_peak = peak_tflops(old, inp.precision), peak_tflops(new, inp.precision)
        measured = (inp.from_gpus or 0) * (inp.from_days or 0) * 24
        hours_total = measured * old_peak / new_peak
        formula = (
            "GPU-hours on the new card = GPUs x days x 24 on the old card x old dense peak / new dense peak"
        )
        assumptions.append(
            _MOVED(
                old=old.name,
                old_peak=f"{old_peak:g}",
                new=new.name,
                new_peak=f"{new_peak:g}",
                precision=inp.precision.upper(),
                speedup=f"{new_peak / old_peak:.2f}",
            )
        )
        if inp.gpus is None and inp.deadline_days is None:
            inp = inp.model_copy(update={"gpus": inp.from_gpus})
        moved = {"speedup": round_sig(new_peak / old_peak), "from_gpu_name": old.name, "gpu_name": new.name}
    elif inp.from_gpus is not None and inp.from_days is not None:
        # the same job on the same card, on more (or fewer) GPUs: its GPU-hours grow by what scaling loses
        measured = inp.from_gpus * inp.from_days * 24
        scaled_to = inp.gpus or inp.from_gpus
        efficiency = 1.0 if scaled_to <= inp.from_gpus else inp.scaling_efficiency or 0.9
        hours_total = measured / efficiency
        formula = "days = from GPUs x from days / GPUs / scaling efficiency"
        if scaled_to > inp.from_gpus:
            said = _SCALING_GIVEN if inp.scaling_efficiency else _SCALING_ASSUMED
            assumptions.append(
                said(efficiency=f"{efficiency:.0%}", gpus_from=inp.from_gpus, gpus_to=scaled_to)
            )
        ideal = inp.from_gpus * inp.from_days / scaled_to
        moved = {"ideal_days": round_sig(ideal), "scaling_efficiency": efficiency}
        if inp.gpus and inp.deadline_days:
            moved["efficiency_needed"] = round_sig(ideal / inp.deadline_days)
        inp = inp.model_copy(update={"gpus": scaled_to})
    elif inp.step_time_s is not None and inp.gpus is None:
        # the whole job's pace is known without its GPU count: wall-clock time, not GPU-hours
        job = (inp.tokens_per_step or 0) / inp.step_time_s
        wall = (inp.tokens_b or 0) * 1e9 / job / 3600
        assumptions.append(
            _JOB_RATE(tokens=f"{inp.tokens_per_step:,.0f}", step=f"{inp.step_time_s:g}", rate=f"{job:,.0f}")
        )
        return RunTimeOutput(
            formula="hours = tokens / (tokens per step / step time) / 3600",
            assumptions=assumptions,
            warnings=[_NO_GPU_COUNT()],
            sources=[GPU_HOUR],
            gpu_hours=None,
            gpus=None,
            exact_gpus=None,
            hours=round_sig(wall),
            days=round_sig(wall / 24),
            tokens_per_second_per_gpu=None,
        )
    else:
        if inp.step_time_s is not None:
            per_gpu = (inp.tokens_per_step or 0) / inp.step_time_s / (inp.gpus or 1)  # both checked above
            assumptions.append(
                _STEP_RATE(
                    tokens=f"{inp.tokens_per_step:,.0f}",
                    step=f"{inp.step_time_s:g}",
                    gpus=inp.gpus,
                    rate=f"{per_gpu:,.0f}",
                )
            )
        else:
            per_gpu = inp.tokens_per_second_per_gpu or 1.0  # checked above
        hours_total = (inp.tokens_b or 0) * 1e9 / per_gpu / 3600
        formula = "GPU-hours = tokens / (tokens/s per GPU) / 3600; days = GPU-hours / GPUs / 24"
    gpus, exact = inp.gpus, None
    if gpus is None and inp.deadline_days is not None:
        exact = hours_total / (inp.deadline_days * 24)
        gpus = math.ceil(exact / inp.gpus_per_node) * inp.gpus_per_node
        assumptions.append(_WHOLE_SERVERS(per_node=inp.gpus_per_node))
    hours = hours_total / gpus if gpus else None
    return RunTimeOutput(
        formula=formula,
        assumptions=assumptions,
        warnings=[],
        sources=[
            GPU_HOUR,
            PALM,
            *([LLAMA3, MEGATRON] if inp.from_gpu else []),
            *([MLPERF_SCALING] if "ideal_days" in moved else []),
        ],
        gpu_hours=round_sig(hours_total),
        gpus=gpus,
        exact_gpus=round_sig(exact) if exact is not None else None,
        hours=round_sig(hours) if hours is not None else None,
        days=round_sig(hours / 24) if hours is not None else None,
        tokens_per_second_per_gpu=round_sig(per_gpu) if per_gpu is not None else None,
        **moved,
    )
