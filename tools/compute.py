"""Training compute and time: FLOPs, GPU-hours, wall-clock days, and their inverses."""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from knowledge.catalog import Accelerator, Catalog
from tools.architecture import Architecture, ArchitectureFields, describe, resolve_architecture
from tools.common import (
    SECONDS_PER_DAY,
    Reference,
    Share,
    ToolInput,
    ToolOutput,
    find_accelerator,
    peak_tflops,
    round_sig,
)
from tools.messages import Message, glossary

_PEAK_SOURCE = glossary("peak_source", {"user value": "用户给定", "catalog": "目录数据"})
_TOKENS = Message("compute.tokens", en="{tokens}B tokens", zh="训练 {tokens}B token")
_TOKENS_CHINCHILLA = Message(
    "compute.tokens_chinchilla",
    en="{tokens}B tokens (Chinchilla-optimal: 20 per parameter; not a data recommendation)",
    zh="训练 {tokens}B token（按 Chinchilla 最优取每个参数 20 个 token；并非数据量建议）",
)
_FLOPS_PER_TOKEN = Message(
    "compute.flops_per_token",
    en="FLOPs per token = {factor} x {params}B{active}{frozen}{attention}",
    zh="每 token 计算量 = {factor} × {params}B{active}{frozen}{attention}",
)
_ACTIVE = Message("compute.active", en=" active", zh=" 激活参数")
_FROZEN = Message("compute.frozen", en=" (frozen base: no weight gradients)", zh="（底座冻结，不算权重梯度）")
_WITH_ATTENTION = Message(
    "compute.with_attention", en=" + 12·L·H·Q·s (s={seq})", zh=" + 注意力项 12·L·H·Q·s（s={seq}）"
)
_WITHOUT_ATTENTION = Message(
    "compute.without_attention", en=" (attention term left out)", zh="（未计注意力项）"
)
_ATTENTION_TERM = Message(
    "compute.attention_term",
    en="attention 6·L·H·(Qk+Qv)·s = 6 x {layers} x {heads} x ({qk} + {v}) x {seq} = {flops} FLOPs per token "
    "(PaLM Appendix B: heads x head size, not the hidden size)",
    zh="注意力项 6·L·H·(Qk+Qv)·s = 6 × {layers} × {heads} × ({qk} + {v}) × {seq} = 每 token {flops} FLOPs"
    "（PaLM 附录 B：按注意力头数 × 每头维度计，而不是隐藏维度）",
)
_PEAK = Message(
    "compute.peak",
    en="{gpu}: {peak} dense {precision} TFLOP/s per GPU ({how}){no_bf16}",
    zh="{gpu}：单卡稠密 {precision} 峰值 {peak} TFLOP/s（{how:peak_source}）{no_bf16}",
)
_NO_BF16 = Message("compute.no_bf16", en=" (it has no BF16)", zh="；该卡不支持 BF16")
_FP8_MFU = Message(
    "compute.fp8_mfu",
    en="MFU against the FP8 peak is half the MFU against the BF16 peak for the same run",
    zh="同一次训练，按 FP8 峰值算的 MFU 只有按 BF16 峰值算的一半",
)
_ATTENTION_ADDS = Message(
    "compute.attention_adds",
    en="at s={seq} the attention term adds {share}: set include_attention",
    zh="s={seq} 时注意力项会使计算量增加 {share}：请设置 include_attention",
)
_MFU_PUBLISHED = Message(
    "compute.mfu_published",
    en="MFU {mfu} (range {low}-{high}); published runs report 35-55% on H100/A100-class GPUs",
    zh="MFU {mfu}（区间 {low}-{high}）；公开的训练报告在 H100/A100 级 GPU 上为 35-55%",
)
_MFU_PER_SERVER = Message(
    "compute.mfu_per_server",
    en="MFU {mfu} (range {low}-{high}); {per_node} GPUs per server",
    zh="MFU {mfu}（区间 {low}-{high}）；每台服务器 {per_node} 张卡",
)
_MFU_PER_INSTANCE = Message(
    "compute.mfu_per_instance",
    en="MFU {mfu} (range {low}-{high}); rented as {instance} instances of {per_node} chips",
    zh="MFU {mfu}（区间 {low}-{high}）；按 {instance} 实例租用，每个实例 {per_node} 颗芯片",
)
_LAST_SERVER_FULL = Message(
    "compute.last_server_full",
    en="{exact} GPUs fill the last server almost completely: a lower MFU needs another server",
    zh="{exact} 张 GPU 几乎占满最后一台服务器：MFU 再低一些就需要再加一台服务器",
)
_GOODPUT = Message(
    "compute.goodput",
    en="goodput {goodput}: {days} days of wall clock train for {train} days",
    zh="有效训练时间占比 {goodput}：{days} 天的工期实际训练 {train} 天",
)
_STEP_RATE = Message(
    "compute.step_rate",
    en="{tokens} tokens per step / {step} s / {gpus} GPUs = {rate} tokens/s per GPU",
    zh="每步 {tokens} token ÷ {step} 秒 ÷ {gpus} 张卡 = 每卡每秒 {rate} token",
)
_IMPLIED_MFU_HIGH = Message(
    "compute.implied_mfu_high",
    en="implied MFU {mfu} is above what LLM training reaches: check the throughput or the GPU",
    zh="推算出的 MFU 为 {mfu}，高于大模型训练实际能达到的水平：请核对吞吐量或 GPU 型号",
)
_ON_RUN_GPUS = Message(
    "compute.on_run_gpus",
    en="on {run} GPUs: {rate} tokens/s per GPU x {efficiency} scaling efficiency = {kept}",
    zh="在 {run} 张卡上：每卡每秒 {rate} token × 扩展效率 {efficiency} = {kept}",
)
_DEADLINE_GPUS = Message(
    "compute.deadline_gpus",
    en="{days} days: {tokens} tokens / ({kept} tokens/s per GPU x {seconds} s) = {gpus} GPUs, rounded up",
    zh="{days} 天：{tokens} token ÷（每卡每秒 {kept} token × {seconds} 秒）= {gpus} 张卡，向上取整",
)
_MFU_OUT_OF_RANGE = Message(
    "compute.mfu_out_of_range",
    en="mfu ({mfu}) must lie within mfu_low..mfu_high ({low}..{high})",
    zh="mfu（{mfu}）必须在 mfu_low..mfu_high（{low}..{high}）之内",
)
_ONE_THROUGHPUT = Message(
    "compute.one_throughput",
    en="give exactly one of tokens_per_second_per_gpu, tokens_per_second or step_time_s",
    zh="tokens_per_second_per_gpu、tokens_per_second 和 step_time_s 请给且只给其中一个",
)
_STEP_NEEDS_TOKENS = Message(
    "compute.step_needs_tokens",
    en="step_time_s needs tokens_per_step (global batch x sequence length)",
    zh="step_time_s 需要配合 tokens_per_step（全局 batch × 序列长度）",
)

KAPLAN = Reference(title="Kaplan et al., Scaling Laws for Neural Language Models (2020), §2.1: C ≈ 6ND",
                   url="https://arxiv.org/abs/2001.08361")  # fmt: skip
PALM = Reference(
    title="Chowdhery et al., PaLM (2022), Appendix B: model FLOPs 6N + 12·L·H·Q per token, MFU",
    url="https://arxiv.org/abs/2204.02311",
)
LLAMA3 = Reference(
    title="Llama Team, The Llama 3 Herd of Models (2024), Table 4: 38-43% BF16 MFU training 405B on 8,192-16,384 H100s",
    url="https://arxiv.org/abs/2407.21783",
)
# what well-run dense training reaches: Llama 3 405B 38-43% on H100 (LLAMA3), PaLM 540B 46.2% on TPU v4
# (PALM, Table 3); below 30% a run usually loses time to communication, data loading or small batches
MFU_TYPICAL = (0.35, 0.50)
MFU_LOW = 0.30
MfuRating = Literal["low", "below typical", "typical", "high"]


def mfu_rating(mfu: float) -> MfuRating:
    """How an MFU compares with well-run published runs (MFU_TYPICAL), with a little room above them."""
    if mfu < MFU_LOW:
        return "low"
    if mfu < MFU_TYPICAL[0]:
        return "below typical"
    return "typical" if mfu <= MFU_TYPICAL[1] + 0.05 else "high"


CHINCHILLA = Reference(
    title="Hoffmann et al., Training Compute-Optimal Large Language Models (2022): ~20 tokens per parameter",
    url="https://arxiv.org/abs/2203.15556",
)
CHINCHILLA_TOKENS_PER_PARAM = 20.0
# forward 2N + activation gradients 2N; the weight-gradient 2N is skipped for frozen weights (adapters are
# tiny). LoRA (Hu et al. 2021, §4.2) reports a 25% training speed-up over full fine-tuning on GPT-3 175B.
ADAPTER_FLOPS_FACTOR = 4
LORA_SPEEDUP = Reference(
    title="Hu et al., LoRA: Low-Rank Adaptation of Large Language Models (2021), §4.2: 25% faster than full fine-tuning",
    url="https://arxiv.org/abs/2106.09685",
)
ComputePrecision = Literal["bf16", "fp16", "fp8", "tf32", "fp32"]


class ComputeFields(ArchitectureFields):
    """What every compute calculator needs: the model, the data, the hardware and its efficiency."""

    tokens_b: float | None = Field(
        default=None,
        gt=0,
        le=1_000_000,
        description="Training tokens, billions; default: Chinchilla-optimal (20 per parameter).",
    )
    gpu: str = Field(
        default="H100", description="Catalog accelerator, e.g. 'H100', 'A100', 'MI300X', 'B200'."
    )
    peak_tflops: float | None = Field(
        default=None, gt=0, le=100_000, description="Override the dense peak, TFLOP/s per GPU."
    )
    precision: ComputePrecision = Field(default="bf16", description="Peak used as the MFU denominator.")
    mfu: Share = Field(default=0.40, description="Model FLOPs utilisation assumed for the estimate.")
    mfu_low: Share = Field(default=0.35, description="Pessimistic end of the MFU range.")
    mfu_high: Share = Field(default=0.50, description="Optimistic end of the MFU range.")
    include_attention: bool = Field(
        default=False,
        description="Add the attention term 12·L·H·Q·s per token to 6N (H heads of size Q, PaLM Appendix B).",
    )
    finetune: Literal["full", "lora", "qlora"] | None = Field(
        default=None,
        description=(
            "null: pre-training; full: full fine-tuning. Both train every weight, 6N FLOPs per token. "
            "lora/qlora: the base is frozen, so the backward pass computes activation gradients only, 4N per token."
        ),
    )
    seq_len: int | None = Field(
        default=None, ge=16, le=10_000_000, description="Sequence length for the attention term."
    )

    @model_validator(mode="after")
    def _check_range(self) -> ComputeFields:
        if not self.mfu_low <= self.mfu <= self.mfu_high:
            raise ValueError(
                _MFU_OUT_OF_RANGE(mfu=f"{self.mfu}", low=f"{self.mfu_low}", high=f"{self.mfu_high}")
            )
        return self


class Workload(BaseModel):
    """The FLOP count of a training run and what it was derived from."""

    architecture: Architecture
    tokens_b: float
    flops_per_token: float
    training_flops: float
    chinchilla_tokens_b: float
    peak_tflops_per_gpu: float
    gpu: str


def attention_flops_per_token(arch: Architecture, seq: int) -> float:
    """Training FLOPs per token of the attention scores and their weighted sum over ``seq`` tokens.

    PaLM (Chowdhery et al. 2022, Appendix B): 12·L·H·Q·T, with H heads of size Q, which is not the hidden size
    under GQA (Qwen3) or MLA (DeepSeek-V3). Q·Kᵀ runs over the query/key head size and A·V over the value head
    size, so with MLA's wider queries and keys it is 6·L·H·(Q_k + Q_v)·T; no causal-mask saving is taken.
    """
    return 6.0 * arch.layers * arch.attention_heads * (arch.qk_head_dim + arch.head_dim) * seq


def _workload(inp: ComputeFields, catalog: Catalog) -> tuple[Workload, Accelerator, list[str], list[str]]:
    arch = resolve_architecture(catalog, inp)
    acc = find_accelerator(catalog, inp.gpu)
    precision = inp.precision
    if "precision" not in inp.model_fields_set and acc.bf16_dense_tflops is None and acc.fp16_dense_tflops:
        precision = (
            "fp16"  # BF16 was only the default: a GPU without it (V100) trains in FP16 mixed precision
        )
    peak = inp.peak_tflops or peak_tflops(acc, precision)
    chinchilla = CHINCHILLA_TOKENS_PER_PARAM * arch.params_b
    tokens = inp.tokens_b or chinchilla
    factor = ADAPTER_FLOPS_FACTOR if inp.finetune in {"lora", "qlora"} else 6
    per_token = factor * arch.active_params_b * 1e9
    seq = inp.seq_len or arch.max_context
    attention = attention_flops_per_token(arch, seq)
    if inp.include_attention:
        per_token += attention
    tokens_said = _TOKENS if inp.tokens_b else _TOKENS_CHINCHILLA
    flops_said = _FLOPS_PER_TOKEN(
        factor=factor,
        params=f"{arch.active_params_b:g}",
        active=_ACTIVE() if arch.active_params_b < arch.params_b else "",
        frozen=_FROZEN() if factor != 6 else "",
        attention=_WITH_ATTENTION(seq=seq) if inp.include_attention else _WITHOUT_ATTENTION(),
    )
    assumptions: list[str] = [describe(arch), tokens_said(tokens=f"{tokens:g}"), flops_said]
    if inp.include_attention:
        assumptions.append(
            _ATTENTION_TERM(
                layers=arch.layers,
                heads=arch.attention_heads,
                qk=arch.qk_head_dim,
                v=arch.head_dim,
                seq=seq,
                flops=f"{attention:.3g}",
            )
        )
    assumptions.append(
        _PEAK(
            gpu=acc.name,
            peak=f"{peak:g}",
            precision=precision.upper(),
            how="user value" if inp.peak_tflops else "catalog",
            no_bf16=_NO_BF16() if precision != inp.precision else "",
        )
    )
    warnings: list[str] = []
    if inp.precision == "fp8":
        warnings.append(_FP8_MFU())
    if not inp.include_attention and seq >= 16_384:
        warnings.append(_ATTENTION_ADDS(seq=seq, share=f"{attention / (6 * arch.active_params_b * 1e9):.0%}"))
    workload = Workload(
        architecture=arch,
        tokens_b=tokens,
        flops_per_token=per_token,
        training_flops=per_token * tokens * 1e9,
        chinchilla_tokens_b=chinchilla,
        peak_tflops_per_gpu=peak,
        gpu=acc.name,
    )
    return workload, acc, assumptions, warnings


def gpu_hours(flops: float, peak_tflops: float, mfu: float) -> float:
    """GPU-hours to execute ``flops`` at ``mfu`` of a ``peak_tflops`` dense peak."""
    return flops / (peak_tflops * 1e12 * mfu) / 3600


class TrainingComputeInput(ToolInput, ComputeFields):
    """Inputs of the compute-and-time calculator."""

    gpus: int | None = Field(
        default=None, ge=1, le=1_000_000, description="GPUs in the job (for wall-clock time)."
    )
    tokens_per_step: float | None = Field(
        default=None,
        gt=0,
        le=1e12,
        description="Tokens in one optimizer step (global batch x sequence length), for the step time.",
    )


class Range(BaseModel):
    low: float
    expected: float
    high: float


class TrainingComputeOutput(ToolOutput):
    """FLOPs, GPU-hours and time for a training run."""

    workload: Workload
    mfu: float
    gpu_hours: Range = Field(description="GPU-hours at mfu_high (low), mfu, and mfu_low (high).")
    gpus: int | None
    days: Range | None = Field(description="Wall-clock days on `gpus` GPUs, same MFU range.")
    tokens_per_second_per_gpu: float
    tokens_per_second: float | None = Field(description="Whole job, at the expected MFU.")
    step_time_s: float | None = Field(
        default=None, description="Seconds per optimizer step at the expected MFU (needs tokens_per_step)."
    )
    instance_hours: dict[str, float] = Field(
        default_factory=dict,
        description="Expected GPU-hours per cloud instance type that rents this chip (trn2.48xlarge: 16 chips).",
    )


def _hours_range(flops: float, peak: float, inp: ComputeFields) -> Range:
    return Range(
        low=round_sig(gpu_hours(flops, peak, inp.mfu_high)),
        expected=round_sig(gpu_hours(flops, peak, inp.mfu)),
        high=round_sig(gpu_hours(flops, peak, inp.mfu_low)),
    )


def training_compute(inp: TrainingComputeInput, catalog: Catalog) -> TrainingComputeOutput:
    """Training FLOPs, GPU-hours and wall-clock days for a model size, token count, GPU type and count.

    FLOPs = 6 x parameters x tokens (Kaplan et al. 2020; MoE models count active parameters), plus the
    attention term 12·L·H·Q·s per token when asked (PaLM, Appendix B: H heads of size Q, not the hidden size).
    GPU-hours = FLOPs / (dense peak x MFU); an MFU range (default 35-50%, expected 40%) gives a range of days. Also returns the Chinchilla-optimal
    token count (20 per parameter) and the tokens per second the job would process.
    """
    workload, _, assumptions, warnings = _workload(inp, catalog)
    peak = workload.peak_tflops_per_gpu
    hours = _hours_range(workload.training_flops, peak, inp)
    per_gpu = peak * 1e12 * inp.mfu / workload.flops_per_token
    days = None
    if inp.gpus:
        days = Range(low=round_sig(hours.low / inp.gpus / 24), expected=round_sig(hours.expected / inp.gpus / 24),
                     high=round_sig(hours.high / inp.gpus / 24))  # fmt: skip
    assumptions.append(
        _MFU_PUBLISHED(mfu=f"{inp.mfu:.0%}", low=f"{inp.mfu_low:.0%}", high=f"{inp.mfu_high:.0%}")
    )
    step = None
    if inp.tokens_per_step and inp.gpus:
        # one step's FLOPs over the whole job's sustained rate: tokens per step / (tokens/s per GPU x GPUs)
        step = inp.tokens_per_step / (per_gpu * inp.gpus)
    return TrainingComputeOutput(
        formula=f"FLOPs = {ADAPTER_FLOPS_FACTOR if inp.finetune in {'lora', 'qlora'} else 6}·N·D (+12·L·H·Q·s·D); "
        "GPU-hours = FLOPs / (peak x MFU) / 3600; days = GPU-hours / GPUs / 24",
        assumptions=assumptions,
        warnings=warnings,
        sources=[KAPLAN, PALM, CHINCHILLA, *([LORA_SPEEDUP] if inp.finetune in {"lora", "qlora"} else [])],
        workload=workload,
        mfu=inp.mfu,
        gpu_hours=hours,
        gpus=inp.gpus,
        days=days,
        tokens_per_second_per_gpu=round_sig(per_gpu),
        tokens_per_second=round_sig(per_gpu * inp.gpus) if inp.gpus else None,
        step_time_s=None if step is None else round_sig(step),
        instance_hours=_instance_hours(catalog, inp.gpu, hours.expected),
    )


def _instance_hours(catalog: Catalog, gpu: str | None, chip_hours: float) -> dict[str, float]:
    """Chip-hours as the instances that rent the chip bill them: "trn2.48xlarge instance-hours" = chip-hours / 16."""
    acc = find_accelerator(catalog, gpu) if gpu else None
    return {name: round_sig(chip_hours / chips) for name, chips in (acc.instances if acc else {}).items()}


class GpusForDeadlineInput(ToolInput, ComputeFields):
    """Inputs of the deadline calculator."""

    deadline_days: float = Field(gt=0, le=3650, description="Wall-clock days available for training.")
    gpus_per_node: int = Field(
        default=8, ge=1, le=72, description="GPUs per server; the count is rounded to whole servers."
    )
    goodput: float = Field(
        default=1.0,
        gt=0,
        le=1,
        description="Share of the wall clock spent training (restarts, failures and evaluation take the rest).",
    )


class GpusForDeadlineOutput(ToolOutput):
    workload: Workload
    exact_gpus: float = Field(description="GPUs needed at the expected MFU, before rounding.")
    gpus: int = Field(description="Rounded up to whole servers.")
    nodes: int
    per_node: int = Field(
        description="GPUs per server, or chips per instance for a chip rented by the instance."
    )
    instance: str | None = Field(
        default=None,
        description="The cloud instance the count is rounded to, for a chip rented only that way.",
    )
    gpus_range: Range = Field(
        description="GPUs needed at mfu_high (low) to mfu_low (high), rounded to servers."
    )
    days_at_gpus: float = Field(description="Days the rounded GPU count takes at the expected MFU.")


def gpus_for_deadline(inp: GpusForDeadlineInput, catalog: Catalog) -> GpusForDeadlineOutput:
    """How many GPUs finish a training run within a deadline, rounded up to whole servers.

    GPUs = FLOPs / (dense peak x MFU x deadline in seconds x goodput), where FLOPs = 6 x (active) parameters x
    tokens; the count is rounded up to whole servers of ``gpus_per_node`` (a chip rented only by the instance,
    such as Trainium2, to whole instances of its chips unless ``gpus_per_node`` is given) and given for the MFU
    range too.
    """
    workload, acc, assumptions, warnings = _workload(inp, catalog)
    seconds = inp.deadline_days * SECONDS_PER_DAY * inp.goodput
    peak = workload.peak_tflops_per_gpu * 1e12
    per_node, instance = inp.gpus_per_node, None
    if acc.instances and "gpus_per_node" not in inp.model_fields_set:
        # "how many trn2 instances": a trn2.48xlarge holds 16 chips, and that is the unit rented
        instance, per_node = max(acc.instances.items(), key=lambda item: item[1])

    def needed(mfu: float) -> tuple[float, int]:
        exact = workload.training_flops / (peak * mfu * seconds)
        nodes = max(1, math.ceil(exact / per_node - 1e-9))
        return exact, nodes * per_node

    exact, gpus = needed(inp.mfu)
    # the count is rounded to whole servers, so the slack that matters is the last server's
    if gpus - exact < 0.1 * per_node:
        warnings.append(_LAST_SERVER_FULL(exact=f"{exact:.1f}"))
    days = workload.training_flops / (peak * inp.mfu * gpus) / SECONDS_PER_DAY / inp.goodput
    mfu = {"mfu": f"{inp.mfu:.0%}", "low": f"{inp.mfu_low:.0%}", "high": f"{inp.mfu_high:.0%}"}
    assumptions.append(
        _MFU_PER_INSTANCE(**mfu, instance=instance, per_node=per_node)
        if instance
        else _MFU_PER_SERVER(**mfu, per_node=per_node)
    )
    if inp.goodput < 1:
        assumptions.append(
            _GOODPUT(
                goodput=f"{inp.goodput:.0%}",
                days=f"{inp.deadline_days:g}",
                train=f"{inp.deadline_days * inp.goodput:.3g}",
            )
        )
    return GpusForDeadlineOutput(
        formula="GPUs = 6·N·D / (peak x MFU x deadline_s x goodput), rounded up to whole servers",
        assumptions=assumptions,
        warnings=warnings,
        sources=[KAPLAN, PALM],
        workload=workload,
        exact_gpus=round_sig(exact),
        gpus=gpus,
        nodes=gpus // per_node,
        per_node=per_node,
        instance=instance,
        gpus_range=Range(low=needed(inp.mfu_high)[1], expected=gpus, high=needed(inp.mfu_low)[1]),
        days_at_gpus=round_sig(days),
    )


class ThroughputCalibrationInput(ToolInput, ComputeFields):
    """Inputs of the calibration calculator: a measured throughput from the user's own run."""

    gpus: int = Field(ge=1, le=1_000_000, description="GPUs in the measured run.")
    tokens_per_second_per_gpu: float | None = Field(
        default=None, gt=0, le=1e9, description="Measured tokens/s per GPU."
    )
    tokens_per_second: float | None = Field(
        default=None, gt=0, le=1e12, description="Measured tokens/s for the whole job."
    )
    step_time_s: float | None = Field(
        default=None, gt=0, le=1e6, description="Measured seconds per step (with tokens_per_step)."
    )
    tokens_per_step: float | None = Field(
        default=None, gt=0, le=1e12, description="Tokens per step: global batch x sequence length."
    )
    run_gpus: int | None = Field(
        default=None,
        ge=1,
        le=1_000_000,
        description="GPUs of the run to project, when not the measured count (e.g. doubling to 512).",
    )
    scaling_efficiency: float = Field(
        default=1.0,
        gt=0,
        le=1,
        description="Per-GPU throughput kept on run_gpus, as a share of the measured (e.g. 0.9).",
    )
    deadline_days: float | None = Field(
        default=None,
        gt=0,
        le=3650,
        description="Days the tokens must be trained in: the GPUs that takes at the measured per-GPU rate.",
    )

    @model_validator(mode="after")
    def _one_throughput(self) -> ThroughputCalibrationInput:
        given = [self.tokens_per_second_per_gpu, self.tokens_per_second, self.step_time_s]
        if sum(g is not None for g in given) != 1:
            raise ValueError(_ONE_THROUGHPUT())
        if self.step_time_s is not None and self.tokens_per_step is None:
            raise ValueError(_STEP_NEEDS_TOKENS())
        return self


class ThroughputCalibrationOutput(ToolOutput):
    workload: Workload
    tokens_per_second_per_gpu: float
    implied_mfu: float = Field(description="Model FLOPs per second achieved / dense peak.")
    achieved_tflops_per_gpu: float
    gpu_hours: float
    days: float = Field(description="Days to train the tokens on run_gpus (the measured GPUs by default).")
    run_gpus: int = Field(description="GPUs the days are for.")
    run_tokens_per_second_per_gpu: float = Field(description="Per-GPU throughput on run_gpus.")
    run_mfu: float = Field(description="MFU on run_gpus: the measured MFU x scaling efficiency.")
    run_step_time_s: float | None = Field(
        default=None, description="Seconds per step on run_gpus at the same tokens per step."
    )
    deadline_gpus: int | None = Field(
        default=None,
        description="GPUs that train the tokens within deadline_days at the measured per-GPU rate x scaling "
        "efficiency (rounded up), when a deadline was given.",
    )
    mfu_rating: MfuRating = Field(
        description="The implied MFU against well-run dense training (35-50%; under 30% is low; over 55% "
        "is above what published runs report)."
    )


def throughput_calibration(inp: ThroughputCalibrationInput, catalog: Catalog) -> ThroughputCalibrationOutput:
    """From a measured training throughput, the MFU it implies and the time to train the full token count.

    Implied MFU = tokens/s per GPU x FLOPs per token / dense peak. Use it to calibrate the other
    estimates with numbers from your own cluster rather than an assumed MFU.
    """
    workload, _, assumptions, warnings = _workload(inp, catalog)
    if inp.step_time_s is not None:
        per_gpu = (inp.tokens_per_step or 0) / inp.step_time_s / inp.gpus
        assumptions.append(
            _STEP_RATE(
                tokens=f"{inp.tokens_per_step:,.0f}",
                step=f"{inp.step_time_s:g}",
                gpus=inp.gpus,
                rate=f"{per_gpu:,.0f}",
            )
        )
    else:
        per_gpu = inp.tokens_per_second_per_gpu or (inp.tokens_per_second or 0) / inp.gpus
    achieved = per_gpu * workload.flops_per_token / 1e12
    mfu = achieved / workload.peak_tflops_per_gpu
    if mfu > 0.75:
        warnings.append(_IMPLIED_MFU_HIGH(mfu=f"{mfu:.0%}"))
    rating = mfu_rating(mfu)
    run = inp.run_gpus or inp.gpus
    # on more (or fewer) GPUs each keeps the measured per-GPU rate times the scaling efficiency
    run_per_gpu = per_gpu * (inp.scaling_efficiency if run != inp.gpus else 1.0)
    if run != inp.gpus:
        assumptions.append(
            _ON_RUN_GPUS(
                run=run,
                rate=f"{per_gpu:,.0f}",
                efficiency=f"{inp.scaling_efficiency:.0%}",
                kept=f"{run_per_gpu:,.0f}",
            )
        )
    seconds = workload.tokens_b * 1e9 / (run_per_gpu * run)
    step = (inp.tokens_per_step or 0) / (run_per_gpu * run) if inp.tokens_per_step else None
    deadline_gpus = None
    if inp.deadline_days:
        # "how many GPUs to finish in 30 days?": the tokens over the deadline at the rate each GPU keeps
        kept = per_gpu * inp.scaling_efficiency
        deadline_gpus = math.ceil(
            workload.tokens_b * 1e9 / (kept * inp.deadline_days * SECONDS_PER_DAY) - 1e-9
        )
        assumptions.append(
            _DEADLINE_GPUS(
                days=f"{inp.deadline_days:g}",
                tokens=f"{workload.tokens_b * 1e9:,.0f}",
                kept=f"{kept:,.0f}",
                seconds=f"{inp.deadline_days * SECONDS_PER_DAY:,.0f}",
                gpus=deadline_gpus,
            )
        )
    return ThroughputCalibrationOutput(
        formula="MFU = tokens/s per GPU x FLOPs per token / peak; days = tokens / (tokens/s per GPU x GPUs) / 86400"
        " (on run_gpus: tokens/s per GPU x scaling efficiency)",
        assumptions=assumptions,
        warnings=warnings,
        sources=[PALM, LLAMA3],
        workload=workload,
        tokens_per_second_per_gpu=round_sig(per_gpu),
        implied_mfu=round(mfu, 4),
        achieved_tflops_per_gpu=round_sig(achieved),
        gpu_hours=round_sig(seconds * run / 3600),
        days=round_sig(seconds / SECONDS_PER_DAY),
        run_gpus=run,
        run_tokens_per_second_per_gpu=round_sig(run_per_gpu),
        run_mfu=round(mfu * run_per_gpu / per_gpu, 4),
        run_step_time_s=None if step is None else round_sig(step),
        deadline_gpus=deadline_gpus,
        mfu_rating=rating,
    )
