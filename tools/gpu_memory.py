"""Training memory per GPU: model states, activations and overhead, and whether it fits."""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from knowledge.catalog import Catalog
from tools.architecture import Architecture, ArchitectureFields, describe, resolve_architecture
from tools.common import GB, GIB, CalculatorInputError, Reference, ToolInput, ToolOutput, find_accelerator
from tools.messages import Message

_GPUS_NOT_MULTIPLE = Message(
    "gpu_memory.gpus_not_multiple",
    en="gpus ({gpus}) must be a multiple of tensor x pipeline x context parallel ({group})",
    zh="GPU 数 gpus（{gpus}）必须是张量并行 × 流水线并行 × 上下文并行（{group}）的整数倍",
)
_OFFLOAD_NEEDS_ZERO3 = Message(
    "gpu_memory.offload_needs_zero3",
    en="offload_params offloads the shards of ZeRO stage 3 (FSDP): set zero_stage 3",
    zh="offload_params 卸载的是 ZeRO stage 3（FSDP）的分片：请把 zero_stage 设为 3",
)
_TP_NOT_DIVIDING = Message(
    "gpu_memory.tp_not_dividing",
    en="{tp} does not divide the {heads} attention heads of {model}",
    zh="{tp} 不能整除 {model} 的 {heads} 个注意力头",
)
_UNEVEN_PIPELINE = Message(
    "gpu_memory.uneven_pipeline",
    en="{layers} layers do not split evenly over {stages} pipeline stages",
    zh="{layers} 层无法平均分到 {stages} 个流水线阶段",
)
TP_ACROSS_NODES = Message(
    "gpu_memory.tp_across_nodes",
    en="tensor parallelism above 8 crosses nodes in 8-GPU servers and is usually slow",
    zh="张量并行超过 8 时，在 8 卡服务器上会跨节点，通常很慢",
)
_KV_REPLICATED = Message(
    "gpu_memory.kv_replicated",
    en="tensor parallel {tp} > {kv} KV heads: KV heads are replicated",
    zh="张量并行 {tp} 大于 KV 头数 {kv}：KV 头会被复制",
)
_NOTHING_TO_SHARD = Message(
    "gpu_memory.nothing_to_shard",
    en="ZeRO shards over data-parallel ranks; with one there is nothing to shard",
    zh="ZeRO 在数据并行的各 rank 之间分片；只有一个 rank 时无片可分",
)
_SEQUENCE = Message(
    "gpu_memory.sequence", en="sequence length {seq}, micro-batch {micro}", zh="序列长度 {seq}，微批 {micro}"
)
_STATE_BYTES = Message(
    "gpu_memory.state_bytes",
    en="{precision}, {optimizer}: {bytes} bytes per trainable parameter before sharding",
    zh="{precision:training_precision}，{optimizer:optimizer}：切分前每个可训练参数 {bytes} 字节",
)
_DATA_PARALLEL = Message(
    "gpu_memory.data_parallel",
    en="data parallel {dp} = {gpus} GPUs / (t={t} x p={p} x cp={cp}); {zero}",
    zh="数据并行度 {dp} = {gpus} 张卡 / (t={t} × p={p} × cp={cp})；{zero}",
)
_ZERO_UNSHARDED = Message(
    "gpu_memory.zero_unsharded", en="ZeRO stage 0 shards over it", zh="ZeRO stage 0，不做分片"
)
_ZERO_SHARDS = Message(
    "gpu_memory.zero_shards",
    en="ZeRO stage {stage} shards over it",
    zh="ZeRO stage {stage} 在数据并行维度上分片",
)
_ACTIVATIONS = Message(
    "gpu_memory.activations",
    en="activations: Korthikanti et al. 2022, recompute={recompute}, sequence parallel={sp}, "
    "FlashAttention={flash}; first pipeline stage holds L layers' worth",
    zh="激活按 Korthikanti 等（2022）估算：{recompute:recompute}，序列并行{sp:switch}，"
    "FlashAttention {flash:switch}；流水线第一段按 L 层的激活计",
)
_OVERHEAD = Message(
    "gpu_memory.overhead",
    en="overhead {gb} GB per GPU (CUDA context, NCCL buffers, fragmentation)",
    zh="每卡额外开销 {gb} GB（CUDA 上下文、NCCL 缓冲区、显存碎片）",
)
_MOE_ACTIVATIONS = Message(
    "gpu_memory.moe_activations",
    en="MoE activations: each token passes through {routed} routed + {shared} shared experts of {ffn}, "
    "an MLP width of {width}",
    zh="MoE 激活：每个 token 经过 {routed} 个路由专家 + {shared} 个共享专家（每个宽 {ffn}），MLP 总宽度 {width}",
)
_GB_NOT_GIB = Message(
    "gpu_memory.gb_not_gib",
    en="GPU capacity is the vendor's figure in GB; HBM is usually that many GiB, so real headroom is ~7% larger",
    zh="显存容量按厂商标称的 GB 计；HBM 实际通常是同样数量的 GiB，所以真实余量约多 7%",
)
_TIGHT = Message(
    "gpu_memory.tight",
    en=(
        "only {headroom}% of the card stays free, under the {planning} we plan for: allocator fragmentation, a "
        "longer sequence or a bigger micro-batch can push it over; more GPUs, a higher ZeRO stage or activation "
        "recomputation widen the margin"
    ),
    zh=(
        "显存只剩 {headroom}% 空闲，低于规划时预留的 {planning}：显存碎片、更长的序列或更大的微批都可能让它超出；"
        "加卡、提高 ZeRO stage 或开启激活重计算可以留出余量"
    ),
)
_QLORA_BASE = Message(
    "gpu_memory.qlora_base",
    en="QLoRA base: {bytes} bytes per parameter (NF4 + double quantisation)",
    zh="QLoRA 底座：每个参数 {bytes} 字节（NF4 + 双重量化）",
)
_LORA_RANK = Message(
    "gpu_memory.lora_rank",
    en="LoRA rank {rank} on every linear layer: {trainable}B trainable parameters",
    zh="每个线性层加秩为 {rank} 的 LoRA：可训练参数 {trainable}B",
)
_USER_STATE_BYTES = Message(
    "gpu_memory.user_state_bytes",
    en="model states set to {bytes} bytes per parameter by the user",
    zh="模型状态按用户设定的每参数 {bytes} 字节计",
)

Precision = Literal["fp32", "bf16-mixed", "fp16-mixed", "fp8-mixed"]
Optimizer = Literal["adamw", "adam", "adam-8bit", "sgd-momentum", "sgd", "adafactor"]
Recompute = Literal["none", "selective", "full"]
Finetune = Literal["full", "lora", "qlora"]

ZERO = Reference(
    title="Rajbhandari et al., ZeRO: Memory Optimizations Toward Training Trillion Parameter Models (2019), §3 and Table 1",
    url="https://arxiv.org/abs/1910.02054",
)
KORTHIKANTI = Reference(
    title="Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models (2022), Table 2",
    url="https://arxiv.org/abs/2205.05198",
)
QLORA = Reference(
    title="Dettmers et al., QLoRA: Efficient Finetuning of Quantized LLMs (2023), §3 (NF4, double quantization)",
    url="https://arxiv.org/abs/2305.14314",
)
LORA = Reference(
    title="Hu et al., LoRA: Low-Rank Adaptation of Large Language Models (2021)",
    url="https://arxiv.org/abs/2106.09685",
)
FSDP_QLORA = Reference(
    title="Answer.AI, You can now train a 70b language model at home (FSDP + QLoRA on two 24 GB GPUs, with "
    "gradient checkpointing and CPU offloading), 2024-03-06",
    url="https://www.answer.ai/posts/2024-03-06-fsdp-qlora",
)
ZERO_OFFLOAD = Reference(
    title="DeepSpeed memory requirements (estimate_zero2/zero3_model_states_mem_needs, buffer factor 1.5)",
    url="https://deepspeed.readthedocs.io/en/latest/memory.html",
)

# bytes per parameter of the working weights, their gradients, and the FP32 master copy
_PRECISION_BYTES: dict[str, tuple[float, float, float]] = {
    "fp32": (4, 4, 0),
    "bf16-mixed": (2, 2, 4),
    "fp16-mixed": (2, 2, 4),
    # Transformer Engine FP8 keeps BF16 weights and FP32 master weights: FP8 buys speed, not state memory
    "fp8-mixed": (2, 2, 4),
}
_OPTIMIZER_BYTES: dict[str, float] = {"adamw": 8, "adam": 8, "adam-8bit": 2, "sgd-momentum": 4, "sgd": 0}
# NF4 weights (4 bits) plus double-quantised block constants (0.127 bits per parameter, QLoRA §3)
QLORA_BYTES_PER_PARAM = (4 + 0.127) / 8


class TrainingMemoryInput(ToolInput, ArchitectureFields):
    """Inputs of the training-memory calculator; sizes from a preset, a parameter count, or both."""

    gpus: int = Field(default=1, ge=1, le=1_000_000, description="Total GPUs in the job.")
    tensor_parallel: int = Field(default=1, ge=1, le=64, description="Tensor-parallel degree (t).")
    pipeline_parallel: int = Field(default=1, ge=1, le=512, description="Pipeline-parallel degree (p).")
    context_parallel: int = Field(
        default=1, ge=1, le=256, description="Context-parallel degree (splits the sequence)."
    )
    sequence_parallel: bool | None = Field(
        default=None, description="Megatron sequence parallelism; defaults to on when tensor_parallel > 1."
    )
    zero_stage: int = Field(default=0, ge=0, le=3, description="ZeRO stage 0-3 (FSDP full sharding = 3).")
    precision: Precision = Field(default="bf16-mixed", description="Training precision recipe.")
    optimizer: Optimizer = Field(default="adamw", description="Optimizer; sets the optimizer-state bytes.")
    bytes_per_param: float | None = Field(
        default=None,
        gt=0,
        le=64,
        description="Override: model-state bytes per parameter (e.g. 16, 18 or 20).",
    )
    seq_len: int | None = Field(default=None, ge=16, le=10_000_000, description="Sequence length, tokens.")
    micro_batch: int = Field(default=1, ge=1, le=4096, description="Micro-batch size per GPU, sequences.")
    recompute: Recompute = Field(default="selective", description="Activation recomputation.")
    flash_attention: bool = Field(
        default=True, description="FlashAttention: attention scores are not stored."
    )
    finetune: Finetune = Field(default="full", description="Full training, LoRA, or QLoRA (4-bit NF4 base).")
    lora_rank: int = Field(
        default=16, ge=1, le=4096, description="LoRA rank r (adapters on every linear layer)."
    )
    offload_optimizer: bool = Field(default=False, description="ZeRO-Offload: optimizer states in host RAM.")
    offload_params: bool = Field(
        default=False,
        description="FSDP CPU offload / ZeRO-3 offload_param: the sharded weights live in host RAM and each "
        "layer is gathered onto the GPU when it runs (needs zero_stage 3).",
    )
    keep: list[Literal["seq_len", "micro_batch", "gpus", "finetune", "offload_optimizer"]] = Field(
        default_factory=list,
        description="Settings the suggested fixes must not change (a sequence length the data needs, the GPUs "
        "you have, the kind of fine-tune).",
    )
    gpu: str | None = Field(
        default=None, description="Catalog GPU to check the fit on, e.g. 'H100', 'A100 40GB'."
    )
    gpu_memory_gb: float | None = Field(
        default=None, gt=0, le=10_000, description="Override the GPU's memory, GB."
    )
    overhead_gb: float = Field(
        default=3.0,
        ge=0,
        le=1000,
        description="CUDA context, NCCL buffers and allocator fragmentation, GB per GPU.",
    )

    @model_validator(mode="after")
    def _check_parallelism(self) -> TrainingMemoryInput:
        group = self.tensor_parallel * self.pipeline_parallel * self.context_parallel
        if self.gpus % group:
            raise ValueError(_GPUS_NOT_MULTIPLE(gpus=self.gpus, group=group))
        if self.offload_params and self.zero_stage != 3:
            raise ValueError(_OFFLOAD_NEEDS_ZERO3())
        return self


class MemoryBreakdown(BaseModel):
    """Per-GPU memory, GB (10^9 bytes)."""

    weights_gb: float
    gradients_gb: float
    optimizer_states_gb: float = Field(description="Optimizer moments plus the FP32 master weights.")
    activations_gb: float
    logits_gb: float = Field(description="FP32 logits for the loss on the last pipeline stage.")
    overhead_gb: float
    total_gb: float
    total_gib: float


# a GPU count to plan with leaves this share of memory free: allocator fragmentation, NCCL buffers beyond the
# fixed overhead, and a longer sequence or bigger micro-batch later (PyTorch's caching allocator rarely
# packs a GPU to the last gigabyte)
PLANNING_HEADROOM = 0.10


class FitSettings(BaseModel):
    """The job's settings after a suggested change: what a table of the fitted plan shows."""

    zero_stage: int
    tensor_parallel: int
    pipeline_parallel: int
    data_parallel: int
    recompute: Recompute
    micro_batch: int
    seq_len: int
    finetune: Finetune
    offload_optimizer: bool
    offload_params: bool = False


class FitSuggestion(BaseModel):
    change: str = Field(description="The smallest change found that makes the job fit.")
    total_gb: float
    gpus: int = Field(description="GPUs in the job after the change.")
    per_gpu: MemoryBreakdown | None = Field(default=None, description="Per-GPU memory after the change.")
    settings: FitSettings | None = Field(default=None, description="The settings after the change.")
    host_ram_gb: float = Field(default=0.0, description="Host RAM for offloaded states, all GPUs together.")


def _suggest(text: str, changed: TrainingMemoryInput, arch: Architecture) -> FitSuggestion:
    """A change with the plan it leads to, so an answer can show the plan it recommends."""
    parts, _, host, _, dp = _breakdown(changed, arch)
    settings = FitSettings(
        zero_stage=changed.zero_stage,
        tensor_parallel=changed.tensor_parallel,
        pipeline_parallel=changed.pipeline_parallel,
        data_parallel=dp,
        recompute=changed.recompute,
        micro_batch=changed.micro_batch,
        seq_len=changed.seq_len or arch.max_context,
        finetune=changed.finetune,
        offload_optimizer=changed.offload_optimizer,
        offload_params=changed.offload_params,
    )
    return FitSuggestion(
        change=text,
        total_gb=round(parts.total_gb, 2),
        gpus=changed.gpus,
        per_gpu=parts,
        settings=settings,
        host_ram_gb=round(host * changed.gpus, 1),
    )


class TrainingMemoryOutput(ToolOutput):
    """Per-GPU training memory and the fit verdict."""

    architecture: Architecture
    data_parallel: int = Field(description="Data-parallel degree: gpus / (t x p x cp); ZeRO shards over it.")
    model_state_bytes_per_param: float = Field(
        description="Unsharded bytes of weights+gradients+optimizer states."
    )
    trainable_params_b: float
    per_gpu: MemoryBreakdown
    host_ram_for_offload_gb_per_gpu: float = Field(
        description="Host RAM for offloaded states, per GPU (0 if none)."
    )
    gpu: str | None
    gpu_memory_gb: float | None
    fits: bool | None
    headroom_pct: float | None = Field(description="Free share of GPU memory; negative when it does not fit.")
    verdict: str
    suggestion: FitSuggestion | None
    single_gpus: list[str] = Field(
        default_factory=list,
        description="When one GPU was asked and it does not fit: the catalog cards of the smallest memory that "
        "hold the same job alone with 10% free (the named card's vendor first).",
    )
    min_gpus: FitSuggestion | None = Field(
        default=None,
        description="When it does not fit: the fewest GPUs of this card that run the same job (same model, "
        "task and precision) with ZeRO-3, tensor parallelism up to 8 and recomputation as needed.",
    )
    states_floor_gpus: int | None = Field(
        default=None,
        description="Full training on a named card: the fewest GPUs whose whole memory holds the model states "
        "(weights, gradients, optimizer) fully sharded, with no activations and nothing free: a floor, not a plan.",
    )


def lora_params(arch: Architecture, rank: int) -> float:
    """Adapter parameters for rank ``rank`` on every linear layer of every block (LoRA, Hu et al. 2021)."""
    h, f = arch.hidden_size, arch.ffn_hidden_size
    q = arch.attention_heads * arch.head_dim
    kv = arch.kv_heads * arch.head_dim
    attention = (h + q) + 2 * (h + kv) + (q + h)
    mlp = 3 * (h + f) if arch.activation in {"swiglu", "geglu"} else 2 * (h + f)
    return float(arch.layers * rank * (attention + mlp))


def activation_bytes_per_layer(
    *,
    seq: int,
    batch: int,
    hidden: int,
    heads: int,
    tp: int,
    sp: bool,
    recompute: str,
    flash: bool,
    mlp_ratio: float = 4.0,
    gated: bool = False,
) -> float:
    """Korthikanti et al. (2022) Table 2, per transformer layer, 16-bit activations.

    No parallelism: s·b·h·(34 + 5·a·s/h). The 34 = 15 (attention block and norms) + 19 (4h GeLU MLP); the MLP
    part is rescaled for other widths and gated MLPs. ``mlp_ratio`` is the MLP width a token passes through over h:
    for MoE, top-k routed plus shared experts (the router's copies of the expert inputs are not counted). Selective recomputation or FlashAttention drops the
    5·a·s/h term; sequence parallelism divides the 10 non-parallel units by t; full recomputation keeps 2·s·b·h.
    """
    sbh = seq * batch * hidden
    if recompute == "full":
        return 2 * sbh / (tp if sp else 1)
    mlp = 3 + (6 if gated else 4) * mlp_ratio
    per_unit = 15 + mlp  # 34 for the paper's 4h GeLU MLP
    attention_scores = 0.0 if (flash or recompute == "selective") else 5 * heads * seq / hidden
    if sp:
        return sbh * (per_unit / tp + attention_scores / tp)
    return sbh * (10 + (per_unit - 10) / tp + attention_scores / tp)


def _breakdown(
    inp: TrainingMemoryInput, arch: Architecture
) -> tuple[MemoryBreakdown, float, float, float, int]:
    tp, pp, cp = inp.tensor_parallel, inp.pipeline_parallel, inp.context_parallel
    dp = inp.gpus // (tp * pp * cp)
    shard_group = dp * cp  # ZeRO shards over the data-parallel (and context-parallel) ranks
    params = arch.params_b * 1e9 / (tp * pp)  # parameters held by one model-parallel rank
    w, g, master = _PRECISION_BYTES[inp.precision]
    opt = _OPTIMIZER_BYTES.get(inp.optimizer, 8 / arch.hidden_size)  # Adafactor: factored rows+columns
    k = master + opt

    if inp.finetune == "full":
        trainable = params
        frozen_w = 0.0
        if inp.bytes_per_param:  # the user's convention replaces ours, split as in ZeRO (w=2, g=2, rest K)
            w, g, k = 2.0, 2.0, inp.bytes_per_param - 4.0
    else:
        trainable = lora_params(arch, inp.lora_rank) / (tp * pp)
        frozen_w = params * (QLORA_BYTES_PER_PARAM if inp.finetune == "qlora" else w)
    states = w + g + k

    stage = inp.zero_stage
    weights = frozen_w / (shard_group if stage == 3 else 1) + (
        trainable * w / (shard_group if stage == 3 else 1)
    )
    grads = trainable * g / (shard_group if stage >= 2 else 1)
    optim = trainable * k / (shard_group if stage >= 1 else 1)
    host = 0.0
    if inp.offload_params and stage == 3:
        # the shard lives in host RAM; the GPU holds the layer running and the next one being fetched, whole
        host += weights
        weights = 2 * (frozen_w + trainable * w) / arch.layers
    if inp.offload_optimizer:
        # DeepSpeed keeps FP32 gradients beside the offloaded states and adds a 1.5x buffer
        host = (optim + trainable * 4 / (shard_group if stage >= 1 else 1)) * 1.5
        optim = 0.0

    seq = (inp.seq_len or arch.max_context) // cp
    sp = inp.sequence_parallel if inp.sequence_parallel is not None else tp > 1
    per_layer = activation_bytes_per_layer(
        seq=seq, batch=inp.micro_batch, hidden=arch.hidden_size, heads=arch.attention_heads, tp=tp, sp=sp,
        recompute=inp.recompute, flash=inp.flash_attention, mlp_ratio=arch.mlp_width / arch.hidden_size,
        gated=arch.activation in {"swiglu", "geglu"},
    )  # fmt: skip
    # the first pipeline stage holds p micro-batches of L/p layers: L layers' worth whatever p is
    activations = per_layer * arch.layers
    if inp.recompute == "full":  # one layer is rebuilt at a time during the backward pass
        activations += activation_bytes_per_layer(
            seq=seq, batch=inp.micro_batch, hidden=arch.hidden_size, heads=arch.attention_heads, tp=tp, sp=sp,
            recompute="selective", flash=True, mlp_ratio=arch.mlp_width / arch.hidden_size,
            gated=arch.activation in {"swiglu", "geglu"},
        )  # fmt: skip
    logits = 4.0 * seq * inp.micro_batch * arch.vocab_size / tp if pp == 1 else 0.0
    total = weights + grads + optim + activations + logits + inp.overhead_gb * GB
    breakdown = MemoryBreakdown(
        weights_gb=weights / GB,
        gradients_gb=grads / GB,
        optimizer_states_gb=optim / GB,
        activations_gb=activations / GB,
        logits_gb=logits / GB,
        overhead_gb=inp.overhead_gb,
        total_gb=total / GB,
        total_gib=total / GIB,
    )
    trainable_total = trainable * tp * pp if inp.finetune != "full" else arch.params_b * 1e9
    return breakdown, states, host / GB, trainable_total / 1e9, dp


def _candidates(
    inp: TrainingMemoryInput, arch: Architecture, *, linked: bool = True
) -> list[tuple[str, TrainingMemoryInput]]:
    """Single changes, least disruptive first; tensor parallelism over PCIe only (``linked`` False: no
    NVLink-class links) comes last, after sharding, offload and more GPUs."""
    out: list[tuple[str, TrainingMemoryInput]] = []

    def add(text: str, **changes: object) -> None:
        if not changes.keys() & set(inp.keep):  # never undo what the user fixed
            out.append((text, inp.model_copy(update=changes)))

    dp = inp.gpus // (inp.tensor_parallel * inp.pipeline_parallel * inp.context_parallel)
    if inp.recompute == "none":
        add("turn on selective activation recomputation", recompute="selective")
    if dp > 1:
        for stage in range(inp.zero_stage + 1, 4):
            add(
                f"shard with ZeRO stage {stage}" + (" (FSDP full sharding)" if stage == 3 else ""),
                zero_stage=stage,
            )
    if inp.recompute != "full":
        add("use full activation recomputation", recompute="full")
    if inp.micro_batch > 1:
        add(f"halve the micro-batch to {inp.micro_batch // 2} (keep the global batch with gradient accumulation)",
            micro_batch=inp.micro_batch // 2)  # fmt: skip

    def tensor_parallel() -> None:
        tp = inp.tensor_parallel * 2
        while tp <= 8 and arch.attention_heads % tp == 0 and inp.gpus % (tp * inp.pipeline_parallel) == 0:
            add(
                f"raise tensor parallelism to {tp} "
                + (
                    "(within one server: tensor parallelism needs NVLink-class links)"
                    if linked
                    else "(these cards have no NVLink: over PCIe every layer waits on the link, so steps slow down)"
                ),
                tensor_parallel=tp,
            )
            tp *= 2

    if linked:
        tensor_parallel()
    if not inp.offload_optimizer and inp.finetune == "full":
        add("offload optimizer states to host RAM (ZeRO-Offload; slower steps)", offload_optimizer=True)
    seq = inp.seq_len or arch.max_context
    if seq > 2048:
        # activations grow with the sequence: fine-tuning data rarely needs the longest context
        add(f"shorten sequences to {seq // 2:,} tokens", seq_len=seq // 2)
    if inp.finetune != "full" and not inp.offload_params and dp > 1 and "offload_optimizer" not in inp.keep:
        # FSDP + QLoRA trains a 70B model on two 24 GB cards with the shards in CPU RAM (Answer.AI, 2024)
        add(
            "shard with FSDP (ZeRO-3) and offload the sharded weights to CPU RAM (FSDP CPU offload; slower steps)",
            zero_stage=3,
            offload_params=True,
        )
    if inp.finetune == "lora":
        # the same adapters on a 4-bit base: a quarter of the frozen weights' memory (Dettmers et al. 2023)
        add("use QLoRA (the same adapters on a 4-bit base model)", finetune="qlora")
    for factor in (2, 4, 8, 16, 32, 64):
        add(f"use {inp.gpus * factor} GPUs with ZeRO stage 3", gpus=inp.gpus * factor, zero_stage=3)
    if not linked:
        tensor_parallel()
    if inp.finetune == "full":
        add("fine-tune with LoRA instead of full training (a different job: adapters only)", finetune="lora")
        add("fine-tune with QLoRA (4-bit base; a different job: adapters only)", finetune="qlora")
    return out


# a fix should leave the card this share free: fragmentation and communication buffers take the last few %
FIX_MARGIN = 0.05


def _smallest_fix(
    inp: TrainingMemoryInput, arch: Architecture, capacity: float, *, linked: bool = True
) -> FitSuggestion | None:
    """The first single change that fits with 5% of the card to spare, else the first pair of changes to
    different settings; a change that fits only without that margin when nothing else does."""
    return _first_fit(inp, arch, capacity * (1 - FIX_MARGIN), linked) or _first_fit(
        inp, arch, capacity, linked
    )


def _first_fit(
    inp: TrainingMemoryInput, arch: Architecture, capacity: float, linked: bool
) -> FitSuggestion | None:
    """Settings on the same GPUs and job first (one change, then two), then changes that add GPUs or change
    the job: 'ZeRO-3 and full recomputation' beats 'buy twice the GPUs'."""
    candidates = _candidates(inp, arch, linked=linked)
    same = [
        (t, c)
        for t, c in candidates
        if c.gpus == inp.gpus
        and c.finetune == inp.finetune
        and (linked or c.tensor_parallel == inp.tensor_parallel)  # over PCIe, TP is a last resort
    ]
    return (
        _one_change(same, arch, capacity)
        or _two_changes(inp, same, arch, capacity)
        or _one_change(candidates, arch, capacity)
        or _two_changes(inp, candidates, arch, capacity)
    )


def _one_change(
    candidates: list[tuple[str, TrainingMemoryInput]], arch: Architecture, capacity: float
) -> FitSuggestion | None:
    for text, changed in candidates:
        if _breakdown(changed, arch)[0].total_gb <= capacity:
            return _suggest(text, changed, arch)
    return None


def _two_changes(
    inp: TrainingMemoryInput,
    candidates: list[tuple[str, TrainingMemoryInput]],
    arch: Architecture,
    capacity: float,
) -> FitSuggestion | None:
    base = inp.model_dump()
    for i, (text_a, a) in enumerate(candidates):
        changed_a = {k for k, v in a.model_dump().items() if base[k] != v}
        for text_b, b in candidates[i + 1 :]:
            changed_b = {k: v for k, v in b.model_dump().items() if base[k] != v}
            if changed_a & changed_b.keys():
                continue
            both = a.model_copy(update=changed_b)
            if _breakdown(both, arch)[0].total_gb <= capacity:
                return _suggest(f"{text_a}, and {text_b}", both, arch)
    return None


def training_memory(inp: TrainingMemoryInput, catalog: Catalog) -> TrainingMemoryOutput:
    """Estimate GPU memory per device for training or fine-tuning an LLM, and whether it fits a GPU.

    Model states follow the ZeRO paper (weights, gradients, optimizer states and FP32 master weights,
    sharded over the data-parallel degree by ZeRO stage 1/2/3 or FSDP); tensor and pipeline parallelism
    divide the parameters; activations follow Korthikanti et al. 2022 (selective or full recomputation,
    sequence parallelism, FlashAttention); LoRA/QLoRA keep a frozen (4-bit NF4 for QLoRA) base plus small
    adapters; ZeRO-Offload moves optimizer states to host RAM. Give a GPU to get a fit verdict and the
    smallest change that makes a job fit.
    """
    arch = resolve_architecture(catalog, inp)
    tp = inp.tensor_parallel
    if arch.attention_heads % tp:
        raise CalculatorInputError(
            "tensor_parallel",
            _TP_NOT_DIVIDING(tp=tp, heads=arch.attention_heads, model=arch.name),
        )
    warnings: list[str] = []
    if arch.layers % inp.pipeline_parallel:
        warnings.append(_UNEVEN_PIPELINE(layers=arch.layers, stages=inp.pipeline_parallel))
    if tp > 8:
        warnings.append(TP_ACROSS_NODES())
    if tp > arch.kv_heads:
        warnings.append(_KV_REPLICATED(tp=tp, kv=arch.kv_heads))
    breakdown, states, host, trainable_b, dp = _breakdown(inp, arch)
    if inp.zero_stage and dp == 1 and inp.context_parallel == 1:
        warnings.append(_NOTHING_TO_SHARD())

    capacity: float | None = inp.gpu_memory_gb
    gpu_name: str | None = None
    linked = True  # a card of unknown make: tensor parallelism is offered as on NVLink servers
    if inp.gpu:
        acc = find_accelerator(catalog, inp.gpu)
        gpu_name = acc.name
        capacity = capacity or acc.memory_gb
        linked = acc.scale_up_bandwidth_gb_s is not None
    fits = headroom = None
    suggestion = min_fit = None
    if capacity:
        fits = breakdown.total_gb <= capacity
        headroom = round(100 * (capacity - breakdown.total_gb) / capacity, 1)
        if not fits:
            suggestion = _smallest_fix(inp, arch, capacity, linked=linked)
            least = min_gpus_to_fit(inp, arch, capacity * (1 - PLANNING_HEADROOM))
            if least:
                # its own names: ``tp`` is the job's tensor parallelism, described below
                least_gpus, least_tp, recompute = least
                probe = inp.model_copy(update={"gpus": least_gpus, "tensor_parallel": least_tp, "pipeline_parallel": 1,
                                               "context_parallel": 1, "zero_stage": 3, "recompute": recompute})  # fmt: skip
                change = f"use {least_gpus} GPUs with ZeRO stage 3" + (
                    f", tensor parallel {least_tp}" if least_tp > 1 else ""
                )
                if recompute != inp.recompute:
                    change += f", {recompute} activation recomputation"
                change += f", keeping {PLANNING_HEADROOM:.0%} of memory free"
                min_fit = _suggest(change, probe, arch)
    single: list[str] = []
    if fits is False and inp.gpus == 1 and tp == 1 and inp.pipeline_parallel == 1:
        # "can a 4090 do it? if not, the smallest single card": per-GPU memory does not depend on the card, so
        # the smallest memory that holds it with the planning headroom, its cards, the named maker's first
        need = breakdown.total_gb / (1 - PLANNING_HEADROOM)
        holding = [
            a
            for a in catalog.accelerators
            if a.memory_gb >= need
            # a BF16 run is not moved to a card without BF16 (a V100 runs FP16 only)
            and (not inp.precision.startswith("bf16") or a.bf16_dense_tflops)
        ]
        if holding:
            vendor = find_accelerator(catalog, inp.gpu).vendor if inp.gpu else None
            own = [a for a in holding if a.vendor == vendor] or holding
            smallest = min(a.memory_gb for a in own)
            single = [a.name for a in own if a.memory_gb == smallest]
    if fits and headroom is not None and headroom < 100 * PLANNING_HEADROOM:
        # "76.9 of 80 GB": it fits on paper, with less to spare than a real run needs
        warnings.append(_TIGHT(headroom=f"{headroom:.0f}", planning=f"{PLANNING_HEADROOM:.0%}"))
    where = gpu_name or (f"{capacity:g} GB" if capacity else None)
    if fits is None:
        verdict = f"needs {breakdown.total_gb:.1f} GB per GPU"
    elif fits:
        verdict = f"fits on {where}: {breakdown.total_gb:.1f} of {capacity:g} GB, {headroom:.0f}% headroom"
    else:
        verdict = f"does not fit on {where}: needs {breakdown.total_gb:.1f} GB of {capacity:g} GB"
        verdict += (
            f"; smallest change that fits: {suggestion.change}"
            if suggestion
            else "; no one or two changes make it fit"
        )

    sp = inp.sequence_parallel if inp.sequence_parallel is not None else tp > 1
    assumptions: list[str] = [
        describe(arch),
        _SEQUENCE(seq=inp.seq_len or arch.max_context, micro=inp.micro_batch),
        _STATE_BYTES(precision=inp.precision, optimizer=inp.optimizer, bytes=f"{states:g}"),
        _DATA_PARALLEL(
            dp=dp,
            gpus=inp.gpus,
            t=tp,
            p=inp.pipeline_parallel,
            cp=inp.context_parallel,
            zero=_ZERO_SHARDS(stage=inp.zero_stage) if inp.zero_stage else _ZERO_UNSHARDED(),
        ),
        _ACTIVATIONS(
            recompute=inp.recompute, sp="on" if sp else "off", flash="on" if inp.flash_attention else "off"
        ),
        _OVERHEAD(gb=f"{inp.overhead_gb:g}"),
        *(
            [
                _MOE_ACTIVATIONS(
                    routed=arch.experts_per_token,
                    shared=arch.shared_experts,
                    ffn=arch.ffn_hidden_size,
                    width=arch.mlp_width,
                )
            ]
            if arch.experts_per_token
            else []
        ),
        _GB_NOT_GIB(),
    ]
    if inp.finetune == "qlora":
        assumptions.append(_QLORA_BASE(bytes=f"{QLORA_BYTES_PER_PARAM:.3f}"))
    if inp.finetune != "full":
        assumptions.append(_LORA_RANK(rank=inp.lora_rank, trainable=f"{trainable_b:.3f}"))
    if inp.bytes_per_param:
        assumptions.append(_USER_STATE_BYTES(bytes=f"{inp.bytes_per_param:g}"))
    return TrainingMemoryOutput(
        formula=(
            "per GPU = weights + gradients + optimizer states (ZeRO: /DP for stage>=3, >=2, >=1) over t x p "
            "+ L x activations per layer (Korthikanti) + logits + overhead"
        ),
        assumptions=assumptions,
        warnings=warnings,
        sources=[
            ZERO,
            KORTHIKANTI,
            *([LORA, QLORA] if inp.finetune != "full" else []),
            *([ZERO_OFFLOAD] if inp.offload_optimizer else []),
            *([FSDP_QLORA] if inp.offload_params else []),
        ],
        architecture=arch,
        data_parallel=dp,
        model_state_bytes_per_param=states,
        trainable_params_b=round(trainable_b, 4),
        per_gpu=breakdown,
        host_ram_for_offload_gb_per_gpu=round(host, 2),
        gpu=gpu_name,
        gpu_memory_gb=capacity,
        fits=fits,
        headroom_pct=headroom,
        verdict=verdict,
        suggestion=suggestion,
        single_gpus=single,
        min_gpus=min_fit,
        states_floor_gpus=(
            math.ceil(arch.params_b * states / capacity) if capacity and inp.finetune == "full" else None
        ),
    )


def min_gpus_to_fit(
    inp: TrainingMemoryInput, arch: Architecture, capacity_gb: float
) -> tuple[int, int, str] | None:
    """Fewest GPUs, with the tensor-parallel degree and recomputation, that fit ``inp``'s job with ZeRO-3.

    With ZeRO-3 the model states per GPU are S·P/GPUs whatever the split between tensor and data
    parallelism, while activations shrink with t; so for t in 1, 2, 4, 8 (and full recomputation when
    selective is not enough) the data-parallel degree is solved directly instead of searched.
    """
    best: tuple[int, int, str] | None = None
    for recompute in dict.fromkeys((inp.recompute, "full")):
        for tp in (1, 2, 4, 8):
            if arch.attention_heads % tp:
                continue
            probe = inp.model_copy(update={"gpus": tp, "tensor_parallel": tp, "pipeline_parallel": 1,
                                           "context_parallel": 1, "zero_stage": 3, "recompute": recompute})  # fmt: skip
            parts, *_ = _breakdown(probe, arch)
            states = parts.weights_gb + parts.gradients_gb + parts.optimizer_states_gb
            room = capacity_gb - (parts.total_gb - states)
            if room <= 0:
                continue
            gpus = int(tp * max(1, -(-states // room)))
            if best is None or gpus < best[0]:
                best = (gpus, tp, recompute)
        if best:
            return best
    return None
