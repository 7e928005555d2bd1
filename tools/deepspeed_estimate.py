"""DeepSpeed's own model-state memory estimator, row for row, for users who size with DeepSpeed.

DeepSpeed ships ``estimate_zero2_model_states_mem_needs`` and ``estimate_zero3_model_states_mem_needs``;
their constants differ from the ZeRO paper's (18 bytes per parameter with FP16 copies, a 4 x largest-layer
gather buffer, each local rank building an FP32 copy on the CPU, a 1.5 buffer factor on CPU memory).
This calculator reproduces them so the two conventions can be compared side by side.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from knowledge.catalog import Catalog
from tools.architecture import ArchitectureFields, resolve_architecture
from tools.common import GB, GIB, Reference, ToolInput, ToolOutput
from tools.messages import Message

_PARAMS = Message(
    "deepspeed_estimate.params",
    en="{params}B parameters, largest layer {largest}M parameters{embedding}",
    zh="{params}B 参数，最大的层 {largest}M 参数{embedding}",
)
_EMBEDDING = Message(
    "deepspeed_estimate.embedding", en=" (embedding: vocab x hidden)", zh="（词嵌入层：词表 × 隐藏维度）"
)
_LAYOUT = Message(
    "deepspeed_estimate.layout",
    en="{nodes} node(s) x {per_node} GPUs; CPU buffer factor {factor}; model states only (no activations)",
    zh="{nodes} 个节点 × 每节点 {per_node} 张卡；CPU 缓冲系数 {factor}；只计模型状态（不含激活）",
)
_GIB_LABEL = Message(
    "deepspeed_estimate.gib_label",
    en="GiB = 2^30 bytes: DeepSpeed prints these values with the label 'GB'",
    zh="GiB = 2^30 字节：DeepSpeed 输出这些数值时标注的是“GB”",
)
_OLD_ZERO2_TABLE = Message(
    "deepspeed_estimate.old_zero2_table",
    en="the docs' ZeRO-2 table predates DeepSpeed PR #5099; current code gives less",
    zh="文档中的 ZeRO-2 表格早于 DeepSpeed PR #5099；按当前代码算出的值更小",
)

DEEPSPEED_DOCS = Reference(
    title="DeepSpeed documentation, Memory Requirements (estimate_zero2/zero3_model_states_mem_needs)",
    url="https://deepspeed.readthedocs.io/en/latest/memory.html",
)
DEEPSPEED_SOURCE = Reference(
    title="deepspeedai/DeepSpeed, deepspeed/runtime/zero/stage_1_and_2.py and stage3.py (estimators)",
    url="https://github.com/deepspeedai/DeepSpeed",
)


class DeepspeedEstimateInput(ToolInput, ArchitectureFields):
    """Inputs of DeepSpeed's estimator: a model size (or preset), the largest layer, and the GPUs."""

    zero_stage: Literal[2, 3] = Field(default=3, description="ZeRO stage DeepSpeed estimates for (2 or 3).")
    largest_layer_params: float | None = Field(
        default=None, gt=0, le=1e12,
        description="Parameters of the largest layer (default: the embedding, vocab x hidden, of the shape).",
    )  # fmt: skip
    gpus_per_node: int = Field(default=8, ge=1, le=72, description="GPUs per node.")
    nodes: int = Field(default=1, ge=1, le=100_000, description="Nodes.")
    buffer_factor: float = Field(
        default=1.5, ge=1, le=10, description="DeepSpeed's additional_buffer_factor (CPU)."
    )
    zero2_formula: Literal["current", "docs"] = Field(
        default="current",
        description="ZeRO-2 without offload: 'current' DeepSpeed code (2P + 18P/N) or the 'docs' table (4P + 16P/N).",
    )


class EstimateRow(BaseModel):
    offload_param: Literal["cpu", "none"] | None = Field(
        description="ZeRO-3 parameter offload (None for stage 2)."
    )
    offload_optimizer: Literal["cpu", "none"]
    zero_init: bool | None = Field(description="ZeRO-3 zero.Init (model created already partitioned).")
    per_cpu_gib: float = Field(description="Host RAM per node, GiB (DeepSpeed prints this as 'GB').")
    per_gpu_gib: float = Field(description="GPU memory per GPU, GiB.")
    per_cpu_gb: float
    per_gpu_gb: float


class DeepspeedEstimateOutput(ToolOutput):
    params: float
    largest_layer_params: float
    total_gpus: int
    rows: list[EstimateRow]


def _row(param: str | None, opt: str, init: bool | None, cpu: float, gpu: float) -> EstimateRow:
    return EstimateRow(
        offload_param=param,
        offload_optimizer=opt,
        zero_init=init,
        per_cpu_gib=round(cpu / GIB, 2),
        per_gpu_gib=round(gpu / GIB, 2),
        per_cpu_gb=round(cpu / GB, 2),
        per_gpu_gb=round(gpu / GB, 2),
    )


def deepspeed_estimate(inp: DeepspeedEstimateInput, catalog: Catalog) -> DeepspeedEstimateOutput:
    """DeepSpeed's estimate of model-state memory per GPU and host RAM per node for ZeRO-2 or ZeRO-3.

    Reproduces DeepSpeed's estimate_zero2/zero3_model_states_mem_needs for every offload option, in GiB as
    DeepSpeed prints them. Use it to compare with the training_memory calculator, which follows the ZeRO
    paper's 16 bytes per parameter and adds activations.
    """
    arch = resolve_architecture(catalog, inp)
    p = arch.params_b * 1e9
    largest = inp.largest_layer_params or float(arch.vocab_size * arch.hidden_size)
    n_local, total = inp.gpus_per_node, inp.gpus_per_node * inp.nodes
    f = inp.buffer_factor
    rows: list[EstimateRow] = []
    if inp.zero_stage == 2:
        rows.append(_row(None, "cpu", None, p * max(4 * total, 16) * f, 2 * p))
        gpu = 4 * p + int(16 * p / total) if inp.zero2_formula == "docs" else 2 * p + int(18 * p / total)
        rows.append(_row(None, "none", None, p * 4 * n_local * f, gpu))
        formula = (
            "offload: GPU 2P, CPU P x max(4N, 16) x 1.5; none: GPU "
            + ("4P + 16P/N" if inp.zero2_formula == "docs" else "2P + 18P/N")
            + ", CPU 4P x local GPUs x 1.5"
        )
    else:
        layer = 4 * largest
        per_node = 1 / inp.nodes
        for init in (True, False):
            cpu = p * 18 * per_node * f if init else p * max(4 * n_local, 18 * per_node) * f
            rows.append(_row("cpu", "cpu", init, cpu, layer))
        for init in (True, False):
            cpu = p * 16 * per_node * f if init else p * max(4 * n_local, 16 * per_node) * f
            rows.append(_row("none", "cpu", init, cpu, layer + int(2 * p / total)))
        for init in (True, False):
            cpu = largest * 4 * n_local * f if init else p * 4 * n_local * f
            rows.append(_row("none", "none", init, cpu, layer + int(18 * p / total)))
        formula = "GPU: 4 x largest layer (+ 2P/N with params on GPU, + 18P/N with optimizer on GPU); CPU as DeepSpeed"
    rows.sort(key=lambda r: (r.offload_param != "cpu", r.offload_optimizer != "cpu", r.zero_init is False))
    return DeepspeedEstimateOutput(
        formula=formula,
        assumptions=[
            _PARAMS(
                params=f"{p / 1e9:g}",
                largest=f"{largest / 1e6:g}",
                embedding="" if inp.largest_layer_params else _EMBEDDING(),
            ),
            _LAYOUT(nodes=inp.nodes, per_node=n_local, factor=f"{f:g}"),
            _GIB_LABEL(),
        ],
        warnings=([_OLD_ZERO2_TABLE()] if inp.zero_stage == 2 and inp.zero2_formula == "docs" else []),
        sources=[DEEPSPEED_DOCS, DEEPSPEED_SOURCE],
        params=p,
        largest_layer_params=largest,
        total_gpus=total,
        rows=rows,
    )
