"""Serving memory per GPU: weights, KV cache and overheads, and how many concurrent sequences fit."""

from __future__ import annotations

import math
from typing import Literal, NamedTuple

from pydantic import BaseModel, Field

from knowledge.catalog import Catalog
from tools.architecture import Architecture, ArchitectureFields, describe, resolve_architecture
from tools.common import GB, GIB, CalculatorInputError, Reference, ToolInput, ToolOutput, find_accelerator
from tools.gpu_memory import TP_ACROSS_NODES, lora_params
from tools.messages import Message

_KV_NOT_DIVIDING = Message(
    "inference_memory.kv_not_dividing",
    en="{tp} does not divide the {kv} KV heads of {model}",
    zh="{tp} 不能整除 {model} 的 {kv} 个 KV 头",
)
_KV_NOT_REPLICABLE = Message(
    "inference_memory.kv_not_replicable",
    en="{tp} is more than the {kv} KV heads of {model} but not a multiple of them, "
    "so the heads cannot be replicated evenly",
    zh="{tp} 大于 {model} 的 {kv} 个 KV 头，却不是它的整数倍，KV 头无法均匀地复制到各卡上",
)
_HEADS_NOT_DIVIDING = Message(
    "inference_memory.heads_not_dividing",
    en="{tp} does not divide the {heads} attention heads of {model}",
    zh="{tp} 不能整除 {model} 的 {heads} 个注意力头",
)
_GPUS_NOT_MULTIPLE = Message(
    "inference_memory.gpus_not_multiple",
    en="{gpus} GPUs is not a multiple of tensor_parallel {tp}",
    zh="{gpus} 张卡不是 tensor_parallel {tp} 的整数倍",
)
_LATENT_COPIED = Message(
    "inference_memory.latent_copied",
    en="latent attention is not split by head: each of the {tp} tensor-parallel GPUs keeps the whole KV "
    "latent (vLLM), so per-GPU KV does not shrink with TP; data-parallel attention avoids the copies",
    zh="潜在注意力（MLA）不按头切分：{tp} 张张量并行 GPU 各自保存完整的 KV 潜在向量（vLLM 的做法），"
    "所以每卡 KV 不会随张量并行减少；注意力改用数据并行可避免这些副本",
)
_KV_REPLICATED = Message(
    "inference_memory.kv_replicated",
    en="tensor parallel {tp} is above the {kv} KV heads: each head is replicated on {copies} GPUs (as vLLM does), "
    "so per-GPU KV stops shrinking and the KV cache summed over GPUs is {copies}x the model's",
    zh="张量并行 {tp} 超过 KV 头数 {kv}：每个 KV 头在 {copies} 张卡上重复存放（vLLM 的做法），"
    "所以每卡 KV 不再减少，各卡 KV 缓存之和是模型本身的 {copies} 倍",
)
_BEYOND_CONTEXT = Message(
    "inference_memory.beyond_context",
    en="{tokens} tokens exceed the {context}-token native context of {model}; "
    "check that the released model supports it",
    zh="{tokens} token 超出了 {model} 原生支持的 {context} token 上下文；请确认发布的模型支持这么长的上下文",
)
_DERIVED_MHA = Message(
    "inference_memory.derived_mha",
    en="derived shape assumes full multi-head attention (KV heads = attention heads); a GQA/MQA model "
    "caches several times less: give kv_heads or a model preset",
    zh="按参数量推算的模型结构假定为完整多头注意力（KV 头数 = 注意力头数）；GQA/MQA 模型的缓存要少好几倍："
    "请给出 kv_heads 或选用模型预设",
)
_NO_FP8_CORES = Message(
    "inference_memory.no_fp8_cores",
    en="{gpu} has no FP8 tensor cores: {precision} weights run as weight-only "
    "kernels that dequantise to 16-bit (same memory, less speed-up)",
    zh="{gpu} 没有 FP8 张量核心：{precision} 权重只能用仅权重量化的内核运行，计算前反量化为 16 位"
    "（显存占用相同，加速更少）",
)
_LITTLE_LEFT = Message(
    "inference_memory.little_left",
    en="only {headroom}% of the usable memory is left: longer prompts may not fit",
    zh="可用显存只剩 {headroom}%：更长的提示可能放不下",
)
_UTILIZATION_HIGH = Message(
    "inference_memory.utilization_high",
    en="gpu_memory_utilization above 0.95 leaves little room for fragmentation and spikes",
    zh="gpu_memory_utilization 高于 0.95 时，留给显存碎片和用量峰值的余地很小",
)
_LATENT = Message(
    "inference_memory.latent",
    en="latent attention: {latent} cached values per token per layer, the same on every TP rank",
    zh="潜在注意力（MLA）：每层每 token 缓存 {latent} 个值，各张量并行 rank 上相同",
)
_KV_SPLIT = Message(
    "inference_memory.kv_split",
    en="KV heads split over tensor parallel {tp}: {per_gpu} per GPU{replicated}",
    zh="KV 头按张量并行 {tp} 切分：每卡 {per_gpu} 个{replicated}",
)
_EACH_REPLICATED = Message(
    "inference_memory.each_replicated",
    en=", each replicated on {copies} GPUs",
    zh="，每个 KV 头在 {copies} 张卡上重复存放",
)
_WEIGHTS = Message(
    "inference_memory.weights",
    en="weights {precision}: {bytes} bytes per parameter{scales}; all parameters are resident (MoE experts too)",
    zh="权重 {precision}：每个参数 {bytes} 字节{scales}；全部参数常驻显存（MoE 专家也是）",
)
_SCALES = Message(
    "inference_memory.scales",
    en=" + {pct}% quantisation scales/zeros",
    zh="，另加 {pct}% 的量化缩放因子/零点",
)
_KV_CACHE = Message(
    "inference_memory.kv_cache",
    en="KV cache {precision}: {bytes} bytes per value; {tokens} tokens x {seqs} sequences per replica{context}",
    zh="KV 缓存 {precision}：每个值 {bytes} 字节；每个副本 {seqs} 条序列 × 每条 {tokens} token{context}",
)
_MODEL_CONTEXT = Message(
    "inference_memory.model_context", en=" (the model's context length)", zh="（模型的上下文长度）"
)
_PLAN = Message(
    "inference_memory.plan",
    en="{gpus} GPUs = {replicas} replica(s) x tensor parallel {tp}; weights divided by {tp}",
    zh="{gpus} 张卡 = {replicas} 个副本 × 张量并行 {tp}；权重分到 {tp} 张卡上",
)
_FIXED_PER_GPU = Message(
    "inference_memory.fixed_per_gpu",
    en="per GPU: {workspace} GB activations/workspace + {runtime} GB CUDA/runtime overhead",
    zh="每卡：激活/工作区 {workspace} GB + CUDA/运行时开销 {runtime} GB",
)
_FULL_CONTEXT = Message(
    "inference_memory.full_context",
    en="every layer attends to the full context (sliding-window layers cache less); paged KV blocks (vLLM: 16 "
    "tokens) waste under one block per sequence",
    zh="每层都对完整上下文做注意力（滑动窗口层缓存更少）；分页 KV 块（vLLM：16 token）每条序列浪费不到一个块",
)
_USABLE = Message(
    "inference_memory.usable",
    en="usable = {capacity} GB x {utilization} gpu_memory_utilization; the vendor's GB "
    "figure is used, so real headroom is a few % larger (HBM is about that many GiB)",
    zh="可用显存 = {capacity} GB × {utilization}（gpu_memory_utilization）；按厂商标称的 GB 计，"
    "真实余量会多几个百分点（HBM 实际约为同样数量的 GiB）",
)
_ADAPTERS = Message(
    "inference_memory.adapters",
    en="{adapters} LoRA adapters of rank {rank} on every linear layer, resident in 16 bits "
    "beside the base weights: {gb} GB in all",
    zh="{adapters} 个秩为 {rank} 的 LoRA 适配器（每个线性层都加），以 16 位常驻在底座权重旁：共 {gb} GB",
)

WeightPrecision = Literal["fp32", "fp16", "bf16", "fp8", "int8", "int4", "fp4"]
KvPrecision = Literal["fp32", "fp16", "bf16", "fp8", "int8"]

KIB = 2**10
MB = 1e6

VLLM_PAPER = Reference(
    title="Kwon et al., Efficient Memory Management for LLM Serving with PagedAttention (vLLM, 2023), §2-3",
    url="https://arxiv.org/abs/2309.06180",
)
GQA = Reference(
    title="Ainslie et al., GQA: Training Generalized Multi-Query Transformer Models from Multi-Head Checkpoints (2023)",
    url="https://arxiv.org/abs/2305.13245",
)
POPE = Reference(
    title="Pope et al., Efficiently Scaling Transformer Inference (2022), §2 and §3.3 (KV cache, multi-query attention)",
    url="https://arxiv.org/abs/2211.05102",
)
VLLM_ENGINE_ARGS = Reference(
    title="vLLM engine arguments: --gpu-memory-utilization (default 0.9), --kv-cache-dtype, --tensor-parallel-size",
    url="https://docs.vllm.ai/en/v0.8.1/serving/engine_args.html",
)
VLLM_QKV = Reference(
    title="vLLM QKVParallelLinear: KV heads are split when tp <= kv_heads and replicated tp/kv_heads times above",
    url="https://github.com/vllm-project/vllm/blob/main/vllm/model_executor/layers/linear.py",
)
S_LORA = Reference(
    title="Sheng et al., S-LoRA: Serving Thousands of Concurrent LoRA Adapters (arXiv:2311.03285)",
    url="https://arxiv.org/abs/2311.03285",
)
AWQ = Reference(
    title="Lin et al., AWQ: Activation-aware Weight Quantization (2023): 4-bit weights, group size 128",
    url="https://arxiv.org/abs/2306.00978",
)
NVFP4 = Reference(
    title="NVIDIA Technical Blog, Introducing NVFP4 (an FP8 E4M3 scale per 16 FP4 values)",
    url="https://developer.nvidia.com/blog/introducing-nvfp4-for-efficient-and-accurate-low-precision-inference/",
)
DEEPSEEK_V2 = Reference(
    title="DeepSeek-AI, DeepSeek-V2 (2024), §2.1: MLA caches a 512-dim latent plus a 64-dim RoPE key per layer",
    url="https://arxiv.org/abs/2405.04434",
)

BYTES_PER_VALUE: dict[str, float] = {
    "fp32": 4,
    "fp16": 2,
    "bf16": 2,
    "fp8": 1,
    "int8": 1,
    "int4": 0.5,
    "fp4": 0.5,
}
# Scales stored beside the quantised weights, as a share of them, when the user gives no figure:
# GPTQ/AWQ group 128 keeps an FP16 scale and a 4-bit zero per 128 weights (20/128 bits on 4 bits);
# NVFP4 keeps an FP8 scale per 16 values (8/16 bits on 4 bits). FP8/INT8 per-channel scales are negligible.
DEFAULT_QUANT_OVERHEAD_PCT: dict[str, float] = {
    "int4": 100 * (16 + 4) / 128 / 4,
    "fp4": 100 * 8 / 16 / 4,
}
# Multi-head latent attention caches one latent per token and layer instead of K and V per head
# (DeepSeek-V2 §2.1: d_c = 512 plus a 64-dim decoupled RoPE key). The catalog has no field for it yet.
MLA_LATENT_DIM: dict[str, int] = {"deepseek-v2": 576, "deepseek-v3": 576}


class InferenceMemoryInput(ToolInput, ArchitectureFields):
    """Inputs of the serving-memory calculator; the model from a preset, a parameter count, or both."""

    weight_precision: WeightPrecision = Field(
        default="bf16",
        description="Precision of the served weights: 2 bytes (fp16/bf16), 1 (fp8/int8), 0.5 (int4/fp4).",
    )
    quantization_overhead_pct: float | None = Field(
        default=None,
        ge=0,
        le=100,
        description=(
            "Extra weight memory for quantisation scales/zeros and unquantised layers, % of the quantised weights; "
            "defaults to 3.9 for int4 (group 128), 12.5 for fp4 (NVFP4), 0 otherwise."
        ),
    )
    kv_cache_precision: KvPrecision | None = Field(
        default=None,
        description="Precision of the KV cache; defaults to the activation type: fp32 for fp32 weights, else 16-bit.",
    )
    kv_latent_dim: int | None = Field(
        default=None,
        ge=1,
        le=65_536,
        description=(
            "Multi-head latent attention (DeepSeek-V2/V3): values cached per token and layer (576), replacing "
            "2 x kv_heads x head_dim. Set automatically for DeepSeek-V2/V3 presets."
        ),
    )
    context_tokens: int | None = Field(
        default=None,
        ge=1,
        le=10_000_000,
        description="Tokens each sequence keeps in the KV cache (prompt + output); defaults to the model's context.",
    )
    batch: int = Field(
        default=1, ge=1, le=1_000_000, description="Concurrent sequences per model replica (one TP group)."
    )
    tensor_parallel: int | None = Field(
        default=None,
        ge=1,
        le=64,
        description="Tensor-parallel degree: GPUs that share one copy of the model. Default: with a GPU and no "
        "`gpus`, the smallest degree (1, 2, 4, 8, ...) that holds the weights and the KV cache of `batch` "
        "sequences; otherwise 1.",
    )
    gpu: str | None = Field(
        default=None, description="Catalog GPU to check the fit on, e.g. 'H100', 'A100 40GB', 'MI300X'."
    )
    gpus: int | None = Field(
        default=None,
        ge=1,
        le=100_000,
        description="GPUs in total; a multiple of tensor_parallel (extra GPUs hold more replicas). Default: tensor_parallel.",
    )
    gpu_memory_gb: float | None = Field(
        default=None, gt=0, le=10_000, description="Override the GPU's memory, GB (10^9 bytes)."
    )
    gpu_memory_utilization: float = Field(
        default=0.9,
        gt=0,
        le=1,
        description="Share of each GPU's memory the server may use, like vLLM's gpu_memory_utilization.",
    )
    activation_workspace_gb: float = Field(
        default=1.0,
        ge=0,
        le=1000,
        description="Peak activations and sampler/attention workspace of a forward pass, GB per GPU.",
    )
    runtime_overhead_gb: float = Field(
        default=1.0,
        ge=0,
        le=1000,
        description="CUDA context, cuBLAS/NCCL workspaces and CUDA graphs, GB per GPU.",
    )
    lora_adapters: int = Field(
        default=0,
        ge=0,
        le=10_000,
        description="LoRA adapters kept resident beside the base model (multi-LoRA).",
    )
    lora_rank: int = Field(default=16, ge=1, le=1024, description="Rank of each LoRA adapter.")


class InferenceMemoryBreakdown(BaseModel):
    """Memory in GB (10^9 bytes); the total also in GiB (2^30 bytes)."""

    weights_gb: float
    kv_cache_gb: float
    activation_workspace_gb: float
    runtime_overhead_gb: float
    total_gb: float
    total_gib: float


class InferenceMemoryOutput(ToolOutput):
    """Per-GPU and total serving memory, the KV cache per token, and how many sequences fit."""

    architecture: Architecture
    weight_bytes_per_param: float = Field(description="Bytes per weight, including quantisation overhead.")
    lora_adapters_gb: float = Field(
        default=0.0, description="Resident LoRA adapters, GB in all (part of weights)."
    )
    kv_bytes_per_value: float
    kv_bytes_per_token: float = Field(
        description="KV cache of one token for the whole model, bytes (before any head replication)."
    )
    kv_kib_per_token: float = Field(description="The same in KiB (2^10 bytes).")
    kv_mb_per_token: float = Field(description="The same in MB (10^6 bytes).")
    kv_bytes_per_token_per_gpu: float = Field(description="KV cache of one token held by each GPU, bytes.")
    kv_gb_per_sequence: float = Field(
        description="KV cache of one sequence at context_tokens, whole model, GB."
    )
    context_tokens: int
    batch: int
    tensor_parallel: int
    kv_heads_per_gpu: int | None = Field(description="KV heads each GPU stores (None for latent attention).")
    kv_head_replication: int = Field(description="How many GPUs hold a copy of each KV head (1 = no copies).")
    replicas: int = Field(description="Model replicas: gpus / tensor_parallel.")
    gpus: int
    per_gpu: InferenceMemoryBreakdown
    total: InferenceMemoryBreakdown = Field(
        description="Summed over all GPUs (every replica serving `batch`)."
    )
    gpu: str | None
    gpu_memory_gb: float | None
    usable_gb_per_gpu: float | None = Field(description="gpu_memory_gb x gpu_memory_utilization.")
    max_batch_per_replica: int | None = Field(
        description="Most concurrent sequences of context_tokens one replica can hold."
    )
    max_concurrent_sequences: int | None = Field(description="max_batch_per_replica x replicas.")
    max_kv_tokens_per_replica: int | None = Field(
        description="Tokens of KV cache that fit in one replica after weights and overheads."
    )
    fits: bool | None
    replicas_for_batch: list[int] | None = Field(
        default=None,
        description="When no single tensor-parallel group of 64 or fewer GPUs holds all `batch` sequences: "
        "[GPUs in all, tensor parallel per replica, sequences per replica] for replicas that share them.",
    )
    gpus_needed: int | None = Field(
        default=None,
        description="Smallest tensor-parallel group (1, 2, 4, 8, ...) of this GPU that holds the weights and the "
        "KV cache of `batch` sequences; null without a GPU or when 64 are not enough.",
    )
    headroom_pct: float | None = Field(
        description="Free share of the usable memory; negative when it does not fit."
    )
    verdict: str
    suggestions: list[str] = Field(default_factory=list, description="Single changes that make it fit.")


class _Sizes(NamedTuple):
    weight_bytes_per_param: float
    kv_bytes_per_value: float
    kv_bytes_per_token: float
    kv_bytes_per_token_per_gpu: float
    kv_heads_per_gpu: int | None
    replication: int
    weights_per_gpu: float
    kv_per_gpu: float
    fixed_per_gpu: float

    @property
    def total_per_gpu(self) -> float:
        return self.weights_per_gpu + self.kv_per_gpu + self.fixed_per_gpu


def kv_bytes_per_token(*, layers: int, kv_heads: int, head_dim: int, bytes_per_value: float) -> float:
    """Keys and values of one token over all layers: 2 x L x kv_heads x head_dim x bytes (Pope et al. 2022)."""
    return 2.0 * layers * kv_heads * head_dim * bytes_per_value


def _kv_heads_per_gpu(arch: Architecture, tp: int) -> tuple[int, int]:
    """KV heads per GPU and the replication factor, as vLLM's QKVParallelLinear splits them."""
    kv = arch.kv_heads
    if tp <= kv:
        if kv % tp:
            raise CalculatorInputError("tensor_parallel", _KV_NOT_DIVIDING(tp=tp, kv=kv, model=arch.name))
        return kv // tp, 1
    if tp % kv:
        raise CalculatorInputError(
            "tensor_parallel",
            _KV_NOT_REPLICABLE(tp=tp, kv=kv, model=arch.name),
        )
    return 1, tp // kv


def _check_tensor_parallel(arch: Architecture, tp: int, latent: int | None) -> tuple[int | None, int]:
    if arch.attention_heads % tp:
        raise CalculatorInputError(
            "tensor_parallel",
            _HEADS_NOT_DIVIDING(tp=tp, heads=arch.attention_heads, model=arch.name),
        )
    if latent:  # the latent is not split by head: every TP rank keeps all of it
        return None, tp
    return _kv_heads_per_gpu(arch, tp)


def _sizes(
    inp: InferenceMemoryInput, arch: Architecture, *, latent: int | None, tokens: int, tp: int, batch: int
) -> _Sizes:
    overhead = inp.quantization_overhead_pct
    if overhead is None:
        overhead = DEFAULT_QUANT_OVERHEAD_PCT.get(inp.weight_precision, 0.0)
    w_bytes = BYTES_PER_VALUE[inp.weight_precision] * (1 + overhead / 100)
    kv_precision = inp.kv_cache_precision or ("fp32" if inp.weight_precision == "fp32" else "bf16")
    kv_value = BYTES_PER_VALUE[kv_precision]
    kv_heads_gpu, replication = _check_tensor_parallel(arch, tp, latent)
    if latent:
        per_token = arch.layers * latent * kv_value
        per_token_gpu = per_token
    else:
        per_token = kv_bytes_per_token(
            layers=arch.layers, kv_heads=arch.kv_heads, head_dim=arch.head_dim, bytes_per_value=kv_value
        )
        assert kv_heads_gpu is not None
        per_token_gpu = kv_bytes_per_token(
            layers=arch.layers, kv_heads=kv_heads_gpu, head_dim=arch.head_dim, bytes_per_value=kv_value
        )
    return _Sizes(
        weight_bytes_per_param=w_bytes,
        kv_bytes_per_value=kv_value,
        kv_bytes_per_token=per_token,
        kv_bytes_per_token_per_gpu=per_token_gpu,
        kv_heads_per_gpu=kv_heads_gpu,
        replication=replication,
        weights_per_gpu=(arch.params_b * 1e9 * w_bytes + _adapter_bytes(inp, arch)) / tp,
        kv_per_gpu=per_token_gpu * tokens * batch,
        fixed_per_gpu=(inp.activation_workspace_gb + inp.runtime_overhead_gb) * GB,
    )


def _adapter_bytes(inp: InferenceMemoryInput, arch: Architecture) -> float:
    """Resident LoRA adapters in 16-bit: rank x (in + out) per linear layer of every block, each adapter."""
    return inp.lora_adapters * lora_params(arch, inp.lora_rank) * 2


def _breakdown(inp: InferenceMemoryInput, sizes: _Sizes, gpus: int = 1) -> InferenceMemoryBreakdown:
    total = sizes.total_per_gpu * gpus
    return InferenceMemoryBreakdown(
        weights_gb=sizes.weights_per_gpu * gpus / GB,
        kv_cache_gb=sizes.kv_per_gpu * gpus / GB,
        activation_workspace_gb=inp.activation_workspace_gb * gpus,
        runtime_overhead_gb=inp.runtime_overhead_gb * gpus,
        total_gb=total / GB,
        total_gib=total / GIB,
    )


def _latent_dim(inp: InferenceMemoryInput, catalog: Catalog) -> int | None:
    if inp.kv_latent_dim or not inp.model:
        return inp.kv_latent_dim
    return MLA_LATENT_DIM.get(catalog.model(inp.model).id)


# the GPUs one NVLink domain holds in an HGX/DGX server: tensor parallelism beyond it crosses the network
SERVER_GPUS = 8


def _smallest_tp(
    inp: InferenceMemoryInput, arch: Architecture, latent: int | None, tokens: int, usable: float
) -> int | None:
    """The smallest tensor-parallel group (1, 2, 4, ... 64) whose GPUs hold the weights and the KV cache of
    ``inp.batch`` sequences within ``usable`` GB each; None when 64 are not enough."""
    for size in (n for n in (1, 2, 4, 8, 16, 32, 64) if arch.attention_heads % n == 0):
        trial = _sizes(inp, arch, latent=latent, tokens=tokens, tp=size, batch=inp.batch)
        need = (
            trial.weights_per_gpu
            + trial.fixed_per_gpu
            + trial.kv_bytes_per_token_per_gpu * tokens * inp.batch
        )
        if need <= usable * GB:
            return size
    return None


def _replicated(
    inp: InferenceMemoryInput, arch: Architecture, latent: int | None, tokens: int, usable: float
) -> tuple[int, int, int] | None:
    """When no one tensor-parallel group holds every sequence: the fewest GPUs as replicas of a group, each
    holding the weights and as many sequences as fit. Returns (GPUs, tensor parallel, sequences per replica)."""
    best: tuple[int, int, int] | None = None
    for size in (n for n in (1, 2, 4, 8) if arch.attention_heads % n == 0):
        trial = _sizes(inp, arch, latent=latent, tokens=tokens, tp=size, batch=1)
        free = usable - trial.weights_per_gpu - trial.fixed_per_gpu
        per_sequence = trial.kv_bytes_per_token_per_gpu * tokens
        if free <= 0 or per_sequence <= 0:
            continue
        each = math.floor(free / per_sequence + 1e-9)
        if each < 1:
            continue
        gpus = size * math.ceil(inp.batch / each)
        if best is None or gpus < best[0]:
            best = (gpus, size, each)
    return best


def _suggestions(
    inp: InferenceMemoryInput, arch: Architecture, latent: int | None, tokens: int, usable: float
) -> list[str]:
    """Single changes that bring the per-GPU total under the usable memory, least disruptive first."""
    out: list[str] = []
    tp, batch = inp.tensor_parallel or 1, inp.batch
    base = _sizes(inp, arch, latent=latent, tokens=tokens, tp=tp, batch=batch)
    free = usable - base.weights_per_gpu - base.fixed_per_gpu
    if free > 0 and base.kv_bytes_per_token_per_gpu:
        fit_batch = math.floor(free / (base.kv_bytes_per_token_per_gpu * tokens) + 1e-9)
        if fit_batch >= 1:
            out.append(f"serve at most {fit_batch} concurrent sequences of {tokens:,} tokens per replica")
        fit_tokens = math.floor(free / (base.kv_bytes_per_token_per_gpu * batch) + 1e-9)
        if fit_batch < batch and fit_tokens >= 1:
            out.append(f"limit each of the {batch} sequences to {fit_tokens:,} tokens of context")
    if base.kv_bytes_per_value > 1:
        fp8 = inp.model_copy(update={"kv_cache_precision": "fp8"})
        if _sizes(fp8, arch, latent=latent, tokens=tokens, tp=tp, batch=batch).total_per_gpu <= usable:
            out.append("store the KV cache in FP8 (vLLM --kv-cache-dtype fp8)")
    if BYTES_PER_VALUE[inp.weight_precision] > 1:
        fp8 = inp.model_copy(update={"weight_precision": "fp8", "quantization_overhead_pct": None})
        if _sizes(fp8, arch, latent=latent, tokens=tokens, tp=tp, batch=batch).total_per_gpu <= usable:
            out.append("serve FP8 weights")
        elif BYTES_PER_VALUE[inp.weight_precision] > BYTES_PER_VALUE["int4"]:
            # a 30B on one 24 GB card: a 4-bit build (AWQ, GPTQ) before buying more cards
            int4 = inp.model_copy(update={"weight_precision": "int4", "quantization_overhead_pct": None})
            if _sizes(int4, arch, latent=latent, tokens=tokens, tp=tp, batch=batch).total_per_gpu <= usable:
                out.append("serve 4-bit weights (an AWQ or GPTQ build)")
    for bigger in range(tp + 1, 65):
        try:
            sizes = _sizes(inp, arch, latent=latent, tokens=tokens, tp=bigger, batch=batch)
        except CalculatorInputError:
            continue
        if sizes.total_per_gpu <= usable:
            out.append(f"raise tensor_parallel to {bigger} ({bigger} GPUs per replica)")
            break
    return out


def inference_memory(inp: InferenceMemoryInput, catalog: Catalog) -> InferenceMemoryOutput:
    """Estimate GPU memory for serving an LLM (weights, KV cache, overheads) and how many sequences fit.

    Weights are parameters x bytes for the serving precision (fp16/bf16 2, fp8/int8 1, int4/fp4 0.5, plus
    quantisation scales). The KV cache is 2 x layers x KV heads x head size x bytes per value x tokens x
    batch, so grouped-query and multi-query attention (fewer KV heads) shrink it; DeepSeek's latent attention
    caches 576 values per token and layer instead. Tensor parallelism divides weights and KV heads over GPUs;
    when it exceeds the KV heads they are replicated, as vLLM does. Add per-GPU activation/workspace and
    CUDA/runtime overheads. Give a catalog GPU (and GPU count) to get the fit verdict under a vLLM-style
    gpu_memory_utilization cap, and the most concurrent sequences that fit at the context length. Figures
    are GB (10^9 bytes) with GiB alongside; KV per token is given in bytes, KiB and MB.
    """
    arch = resolve_architecture(catalog, inp)
    latent = _latent_dim(inp, catalog)
    tokens = inp.context_tokens or arch.max_context
    acc = find_accelerator(catalog, inp.gpu) if inp.gpu else None
    capacity: float | None = inp.gpu_memory_gb or (acc.memory_gb if acc else None)
    usable = capacity * inp.gpu_memory_utilization if capacity else None
    sized = inp.tensor_parallel is None and inp.gpus is None and usable is not None
    if inp.tensor_parallel is None:
        # "how many H100s to serve 70B?": shown at the size it needs, so per-GPU figures are those GPUs'
        needed = _smallest_tp(inp, arch, latent, tokens, usable) if sized and usable else None
        inp = inp.model_copy(update={"tensor_parallel": needed or 1})
    tp = inp.tensor_parallel or 1
    gpus = inp.gpus or tp
    if gpus % tp:
        raise CalculatorInputError("gpus", _GPUS_NOT_MULTIPLE(gpus=gpus, tp=tp))
    replicas = gpus // tp
    sizes = _sizes(inp, arch, latent=latent, tokens=tokens, tp=tp, batch=inp.batch)
    per_gpu = _breakdown(inp, sizes)
    total = _breakdown(inp, sizes, gpus)

    warnings: list[str] = []
    if latent and tp > 1:
        warnings.append(_LATENT_COPIED(tp=tp))
    elif sizes.replication > 1:
        warnings.append(_KV_REPLICATED(tp=tp, kv=arch.kv_heads, copies=sizes.replication))
    if tp > 8:
        warnings.append(TP_ACROSS_NODES())
    if tokens > arch.context_window:
        warnings.append(
            _BEYOND_CONTEXT(tokens=f"{tokens:,}", context=f"{arch.context_window:,}", model=arch.name)
        )
    if arch.derived and inp.kv_heads is None:
        warnings.append(_DERIVED_MHA())

    gpu_name: str | None = None
    if acc:
        gpu_name = acc.name
        if inp.weight_precision in {"fp8", "fp4"} and acc.fp8_dense_tflops is None:
            warnings.append(_NO_FP8_CORES(gpu=acc.name, precision=inp.weight_precision.upper()))
    max_batch: int | None = None
    max_tokens: int | None = None
    fits: bool | None = None
    headroom: float | None = None
    suggestions: list[str] = []
    gpus_needed: int | None = None
    spread: tuple[int, int, int] | None = None
    if capacity and usable:
        gpus_needed = _smallest_tp(inp, arch, latent, tokens, usable)
        if inp.batch > 1 and (gpus_needed is None or gpus_needed > SERVER_GPUS):
            # "200 users at 32k each": the sequences spread over replicas, each with its own copy of the weights;
            # replicas inside one 8-GPU server beat one tensor-parallel group stretched across servers
            spread = _replicated(inp, arch, latent, tokens, usable * GB)
            if spread is not None:
                gpus_needed = None
        free = usable * GB - sizes.weights_per_gpu - sizes.fixed_per_gpu
        per_token = sizes.kv_bytes_per_token_per_gpu
        max_tokens = max(0, math.floor(free / per_token + 1e-9))
        max_batch = max(0, math.floor(free / (per_token * tokens) + 1e-9))
        # the same comparison as max_batch, so the verdict and the count never disagree at the boundary
        fits = inp.batch <= max_batch
        if not fits and max_batch and inp.gpus is None and not sized:
            # "each GPU holds its own copy of the weights": replicas of the group asked for, as many as the
            # sequences need
            spread = (tp * math.ceil(inp.batch / max_batch), tp, max_batch)
            gpus_needed = None
        headroom = round(100 * (usable - per_gpu.total_gb) / usable, 1)
        if not fits:
            suggestions = _suggestions(inp, arch, latent, tokens, usable * GB)
        elif headroom < 10:
            warnings.append(_LITTLE_LEFT(headroom=f"{headroom:g}"))
        if inp.gpu_memory_utilization > 0.95:
            warnings.append(_UTILIZATION_HIGH())

    layout = ", ".join(
        part
        for part in (f"TP {tp}" if tp > 1 else "", f"{replicas} replicas" if replicas > 1 else "")
        if part
    )
    device = gpu_name or f"{capacity or 0:g} GB GPU"
    where = f"{gpus} x {device}" + (f" ({layout})" if layout else "")
    if fits is None:
        verdict = f"needs {per_gpu.total_gb:.1f} GB per GPU ({total.total_gb:.1f} GB over {gpus} GPUs)"
    elif fits:
        verdict = (
            f"fits on {where}: {per_gpu.total_gb:.1f} of {usable:.1f} GB usable per GPU, {headroom:.0f}% headroom; "
            f"up to {max_batch} concurrent sequences of {tokens:,} tokens per replica"
        )
    elif max_batch:
        verdict = (
            f"does not fit on {where}: {inp.batch} sequences need {per_gpu.total_gb:.1f} GB per GPU of "
            f"{usable:.1f} GB usable; at most {max_batch} sequences of {tokens:,} tokens fit per replica"
        )
    else:
        verdict = (
            f"does not fit on {where}: {per_gpu.total_gb:.1f} GB per GPU needed, {usable:.1f} GB usable; "
            "not even one sequence fits"
        )
    if fits is False:
        verdict += f"; smallest change: {suggestions[0]}" if suggestions else "; no single change found"

    kv_precision = inp.kv_cache_precision or ("fp32" if inp.weight_precision == "fp32" else "bf16")
    overhead_pct = (sizes.weight_bytes_per_param / BYTES_PER_VALUE[inp.weight_precision] - 1) * 100
    kv_rule = (
        _LATENT(latent=latent)
        if latent
        else _KV_SPLIT(
            tp=tp,
            per_gpu=sizes.kv_heads_per_gpu,
            replicated=_EACH_REPLICATED(copies=sizes.replication) if sizes.replication > 1 else "",
        )
    )
    # replicas sharing the sequences: each holds its own share, not the whole batch
    per_replica, plan_gpus, plan_replicas, plan_tp = (
        (spread[2], spread[0], spread[0] // spread[1], spread[1])
        if spread
        else (inp.batch, gpus, replicas, tp)
    )
    assumptions: list[str] = [
        describe(arch),
        _WEIGHTS(
            precision=inp.weight_precision,
            bytes=f"{BYTES_PER_VALUE[inp.weight_precision]:g}",
            scales=_SCALES(pct=f"{overhead_pct:.3g}") if overhead_pct else "",
        ),
        _KV_CACHE(
            precision=kv_precision,
            bytes=f"{sizes.kv_bytes_per_value:g}",
            tokens=f"{tokens:,}",
            seqs=per_replica,
            context="" if inp.context_tokens else _MODEL_CONTEXT(),
        ),
        kv_rule,
        _PLAN(gpus=plan_gpus, replicas=plan_replicas, tp=plan_tp),
        _FIXED_PER_GPU(workspace=f"{inp.activation_workspace_gb:g}", runtime=f"{inp.runtime_overhead_gb:g}"),
        _FULL_CONTEXT(),
    ]
    if capacity:
        assumptions.append(_USABLE(capacity=f"{capacity:g}", utilization=f"{inp.gpu_memory_utilization:g}"))
    sources = [VLLM_PAPER, POPE, GQA, VLLM_QKV]
    if inp.lora_adapters:
        assumptions.append(
            _ADAPTERS(
                adapters=inp.lora_adapters, rank=inp.lora_rank, gb=f"{_adapter_bytes(inp, arch) / GB:.3g}"
            )
        )
        sources.append(S_LORA)
    if capacity:
        sources.append(VLLM_ENGINE_ARGS)
    if inp.weight_precision == "int4":
        sources.append(AWQ)
    if inp.weight_precision == "fp4":
        sources.append(NVFP4)
    if latent:
        sources.append(DEEPSEEK_V2)
    return InferenceMemoryOutput(
        formula=(
            "per GPU = params x bytes/param x (1 + quant overhead) / TP "
            "+ 2 x layers x (KV heads / TP, at least 1) x head_dim x KV bytes x tokens x batch "
            "+ activation/workspace + runtime overhead; max batch = floor((usable - weights - overheads) / "
            "(KV per token per GPU x tokens))"
        ),
        assumptions=assumptions,
        warnings=warnings,
        sources=sources,
        architecture=arch,
        weight_bytes_per_param=sizes.weight_bytes_per_param,
        lora_adapters_gb=_adapter_bytes(inp, arch) / GB,
        kv_bytes_per_value=sizes.kv_bytes_per_value,
        kv_bytes_per_token=sizes.kv_bytes_per_token,
        kv_kib_per_token=sizes.kv_bytes_per_token / KIB,
        kv_mb_per_token=sizes.kv_bytes_per_token / MB,
        kv_bytes_per_token_per_gpu=sizes.kv_bytes_per_token_per_gpu,
        kv_gb_per_sequence=sizes.kv_bytes_per_token * tokens / GB,
        context_tokens=tokens,
        batch=inp.batch,
        tensor_parallel=tp,
        kv_heads_per_gpu=sizes.kv_heads_per_gpu,
        kv_head_replication=sizes.replication,
        replicas=replicas,
        gpus=gpus,
        per_gpu=per_gpu,
        total=total,
        gpu=gpu_name,
        gpu_memory_gb=capacity,
        usable_gb_per_gpu=usable,
        max_batch_per_replica=max_batch,
        max_concurrent_sequences=max_batch * replicas if max_batch is not None else None,
        max_kv_tokens_per_replica=max_tokens,
        fits=fits,
        gpus_needed=gpus_needed,
        replicas_for_batch=list(spread) if spread else None,
        headroom_pct=headroom,
        verdict=verdict,
        suggestions=suggestions,
    )
