"""From slots to calculator inputs: fill defaults, say which were assumed, run, and chain results.

Each calculator has one builder that maps the conversation's slots onto its input model and lists the
defaults it had to assume, and names the missing input that would change the result most, so the answer
can ask for exactly that.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field

from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog
from knowledge.text import Language
from tools.registry import ToolInputError, run

DEFAULT_GPU = "h100-sxm"
GPUS_PER_NODE = 8
_PRECISION = {"bf16": "bf16-mixed", "fp16": "fp16-mixed", "fp8": "fp8-mixed", "fp32": "fp32", "tf32": "fp32"}


class Assumed(BaseModel):
    """A default the calculator used because the user did not give the value."""

    en: str
    zh: str

    def text(self, language: Language) -> str:
        return self.zh if language == "zh" else self.en


class Plan(BaseModel):
    """One calculator call, before it runs."""

    tool: str
    payload: dict[str, Any]
    assumed: list[Assumed] = Field(default_factory=list)
    ask: Assumed | None = Field(
        default=None, description="The missing input that would change the result most."
    )


class ToolRun(BaseModel):
    """What running the planned calculators produced."""

    calls: list[ToolCall] = Field(default_factory=list)
    assumed: list[Assumed] = Field(default_factory=list)
    ask: Assumed | None = None
    errors: list[str] = Field(default_factory=list, description="Calculator input problems, field by field.")


def _a(en: str, zh: str) -> Assumed:
    return Assumed(en=en, zh=zh)


def _model(slots: Slots, payload: dict[str, Any]) -> bool:
    """Put the model size into ``payload``; False when the conversation has none."""
    if slots.model:
        payload["model"] = slots.model
    if slots.params_b:
        payload["params_b"] = slots.params_b
    if slots.active_params_b:
        payload["active_params_b"] = slots.active_params_b
    return bool(slots.model or slots.params_b)


def _gpu(slots: Slots, payload: dict[str, Any], assumed: list[Assumed], field: str = "gpu") -> None:
    if slots.gpu:
        payload[field] = slots.gpu
    else:
        payload[field] = DEFAULT_GPU
        assumed.append(
            _a("GPU: H100 SXM (the most common training GPU today)", "GPU：H100 SXM（目前最常用的训练卡）")
        )


def _nodes(slots: Slots) -> int:
    return max(1, math.ceil((slots.gpu_count or GPUS_PER_NODE) / (slots.gpus_per_node or GPUS_PER_NODE)))


def _usd(amount: float, currency: str | None, catalog: Catalog) -> float:
    return amount / catalog.defaults.usd_to_cny if currency == "CNY" else amount


ASK_TOKENS = Assumed(en="How many training tokens?", zh="训练数据有多少 token？")


def _tokens(slots: Slots, payload: dict[str, Any], assumed: list[Assumed]) -> None:
    if slots.tokens_b:
        payload["tokens_b"] = slots.tokens_b
    else:
        assumed.append(
            _a(
                "tokens: Chinchilla-optimal, 20 per parameter",
                "训练 token 数：按 Chinchilla 最优，每参数 20 个",
            )
        )


def _compute_fields(slots: Slots, payload: dict[str, Any], assumed: list[Assumed]) -> None:
    _tokens(slots, payload, assumed)
    _gpu(slots, payload, assumed)
    if slots.mfu:
        payload["mfu"] = slots.mfu
        payload["mfu_low"] = min(0.35, slots.mfu)
        payload["mfu_high"] = max(0.50, slots.mfu)
    else:
        assumed.append(_a("MFU 40% (range 35-50%)", "MFU 40%（区间 35%-50%）"))
    if slots.seq_len:
        payload["seq_len"] = slots.seq_len


def _training_compute(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumed: list[Assumed] = []
    if not _model(slots, payload):
        return None
    _compute_fields(slots, payload, assumed)
    if slots.gpu_count:
        payload["gpus"] = slots.gpu_count
    ask = None
    if not slots.tokens_b:
        ask = ASK_TOKENS
    elif not slots.gpu_count:
        ask = _a(
            "How many GPUs will you use? Then I can give the wall-clock days.",
            "计划用多少张卡？这样可以算出训练天数。",
        )
    elif not slots.mfu:
        ask = _a(
            "Do you have a measured MFU or tokens/s from your own runs?", "有实测的 MFU 或每卡 tokens/s 吗？"
        )
    return Plan(tool="training_compute", payload=payload, assumed=assumed, ask=ask)


def _gpus_for_deadline(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumed: list[Assumed] = []
    if not _model(slots, payload) or not slots.deadline_days:
        return None
    _compute_fields(slots, payload, assumed)
    payload["deadline_days"] = slots.deadline_days
    ask = None if slots.tokens_b else ASK_TOKENS
    return Plan(tool="gpus_for_deadline", payload=payload, assumed=assumed, ask=ask)


def _throughput(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumed: list[Assumed] = []
    if not _model(slots, payload) or not slots.tokens_per_second_per_gpu:
        return None
    _compute_fields(slots, payload, assumed)
    for key in ("mfu", "mfu_low", "mfu_high"):
        payload.pop(key, None)
    assumed[:] = [a for a in assumed if not a.en.startswith("MFU")]
    payload["gpus"] = slots.gpu_count or GPUS_PER_NODE
    payload["tokens_per_second_per_gpu"] = slots.tokens_per_second_per_gpu
    return Plan(tool="throughput_calibration", payload=payload, assumed=assumed)


def _training_memory(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumed: list[Assumed] = []
    if not _model(slots, payload):
        return None
    tp, pp = slots.tensor_parallel or 1, slots.pipeline_parallel or 1
    gpus = slots.gpu_count or tp * pp
    payload.update(gpus=max(gpus, tp * pp), tensor_parallel=tp, pipeline_parallel=pp)
    if slots.gpu:
        payload["gpu"] = slots.gpu
    else:
        _gpu(slots, payload, assumed)
    if slots.zero_stage is not None:
        payload["zero_stage"] = slots.zero_stage
    elif gpus > 1:
        assumed.append(_a("no ZeRO/FSDP sharding (stage 0)", "不使用 ZeRO/FSDP 分片（stage 0）"))
    if slots.precision:
        payload["precision"] = _PRECISION[slots.precision]
    else:
        assumed.append(_a("BF16 mixed precision with FP32 master weights", "BF16 混合精度，FP32 主权重"))
    if slots.optimizer:
        payload["optimizer"] = slots.optimizer
    else:
        assumed.append(_a("AdamW optimizer", "AdamW 优化器"))
    if slots.seq_len:
        payload["seq_len"] = slots.seq_len
    else:
        assumed.append(
            _a("sequence length: the model's pre-training context", "序列长度：模型预训练时的上下文长度")
        )
    if slots.micro_batch:
        payload["micro_batch"] = slots.micro_batch
    else:
        assumed.append(_a("micro-batch 1 per GPU", "每卡微批 1"))
    if slots.finetune:
        payload["finetune"] = slots.finetune
    assumed.append(
        _a("selective activation recomputation, FlashAttention", "选择性激活重计算，FlashAttention")
    )
    ask = None
    if not slots.gpu_count:
        ask = _a(
            "How many GPUs, and with which sharding (ZeRO stage / FSDP)?",
            "用几张卡、用哪种分片（ZeRO stage / FSDP）？",
        )
    elif not slots.seq_len:
        ask = _a(
            "What sequence length and micro-batch will you train with?", "训练用多长的序列、多大的微批？"
        )
    return Plan(tool="training_memory", payload=payload, assumed=assumed, ask=ask)


DEFAULT_PLAN_DEADLINE_DAYS = 90


def _cluster_plan(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumed: list[Assumed] = []
    if not _model(slots, payload):
        return None
    _tokens(slots, payload, assumed)
    if slots.mfu:
        payload.update(mfu=slots.mfu, mfu_low=min(0.35, slots.mfu), mfu_high=max(0.5, slots.mfu))
    else:
        assumed.append(_a("MFU 40% on every GPU", "所有 GPU 均按 MFU 40%"))
    if slots.deadline_days:
        payload["deadline_days"] = slots.deadline_days
    elif not slots.budget:
        # without a deadline the cheapest plan is the smallest cluster that holds the model, which can
        # take years; size for a typical pre-training window instead, and say so
        payload["deadline_days"] = DEFAULT_PLAN_DEADLINE_DAYS
        assumed.append(
            _a(
                f"deadline {DEFAULT_PLAN_DEADLINE_DAYS} days (a typical pre-training window; give yours to re-plan)",
                f"工期按 {DEFAULT_PLAN_DEADLINE_DAYS} 天计（常见的预训练周期；告诉我你的工期可重新规划）",
            )
        )
    if slots.budget:
        payload["budget_usd"] = round(_usd(slots.budget, slots.budget_currency, catalog), 2)
        if slots.budget_currency == "CNY":
            rate = catalog.defaults.usd_to_cny
            assumed.append(
                _a(f"budget converted at {rate:g} CNY per USD", f"预算按 1 美元 = {rate:g} 元换算")
            )
    if slots.gpu:
        payload["candidates"] = [slots.gpu, *slots.other_gpus] if slots.other_gpus else None
        if not slots.other_gpus:
            payload.pop("candidates")
    if slots.seq_len:
        payload["seq_len"] = slots.seq_len
    ask = None
    if not slots.deadline_days and not slots.budget:
        ask = _a("What is the deadline or the budget?", "有什么工期或预算要求？")
    return Plan(tool="cluster_plan", payload=payload, assumed=assumed, ask=ask)


def _storage(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumed: list[Assumed] = []
    if not _model(slots, payload):
        return None
    if slots.tokens_b:
        payload["dataset_tokens_b"] = slots.tokens_b
    else:
        payload["dataset_tokens_b"] = 20 * (slots.params_b or catalog.model(slots.model or "").params_b)
        assumed.append(
            _a(
                "dataset: Chinchilla-optimal tokens (20 per parameter)",
                "数据集：按 Chinchilla 最优 token 数（每参数 20 个）",
            )
        )
    payload["nodes"] = _nodes(slots)
    if slots.deadline_days:
        payload["run_days"] = slots.deadline_days
    return Plan(tool="storage", payload=payload, assumed=assumed,
                ask=None if slots.tokens_b else _a("How large is the training dataset (tokens)?", "训练数据集有多少 token？"))  # fmt: skip


def _host_ram(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumed: list[Assumed] = []
    _model(slots, payload)
    _gpu(slots, payload, assumed)
    payload["gpus_per_node"] = min(slots.gpu_count or GPUS_PER_NODE, slots.gpus_per_node or GPUS_PER_NODE)
    if not slots.gpu_count:
        assumed.append(_a("8 GPUs per server", "每台服务器 8 张卡"))
    return Plan(tool="host_ram", payload=payload, assumed=assumed)


def _network(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumed: list[Assumed] = []
    if not _model(slots, payload):
        return None
    _gpu(slots, payload, assumed)
    nodes = _nodes(slots)
    payload.update(nodes=nodes, gpus_per_node=min(slots.gpu_count or GPUS_PER_NODE, GPUS_PER_NODE))
    if nodes > 1:
        payload["inter_node_link"] = "infiniband-ndr"
        assumed.append(
            _a("one 400 Gb/s NDR InfiniBand port per GPU", "每卡一个 400 Gb/s NDR InfiniBand 端口")
        )
    if slots.zero_stage == 3:
        payload["zero3"] = True
    return Plan(tool="network", payload=payload, assumed=assumed)


def _money(slots: Slots, payload: dict[str, Any], catalog: Catalog) -> None:
    """One currency for every money input: CNY only when every given amount is in CNY."""
    given = [(slots.electricity_price_per_kwh, slots.electricity_currency),
             (slots.cloud_price_per_gpu_hour, slots.cloud_price_currency)]  # fmt: skip
    currencies = {c for v, c in given if v is not None}
    currency = "CNY" if currencies == {"CNY"} else "USD"
    payload["currency"] = currency
    if slots.electricity_price_per_kwh is not None:
        value = slots.electricity_price_per_kwh
        payload["electricity_price_per_kwh"] = (
            value
            if currency == (slots.electricity_currency or "USD")
            else _usd(value, slots.electricity_currency, catalog)
        )
    if slots.cloud_price_per_gpu_hour is not None:
        value = slots.cloud_price_per_gpu_hour
        payload["cloud_price_per_gpu_hour"] = (
            value
            if currency == (slots.cloud_price_currency or "USD")
            else _usd(value, slots.cloud_price_currency, catalog)
        )


def _power_cost(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumed: list[Assumed] = []
    _gpu(slots, payload, assumed)
    payload["gpus"] = slots.gpu_count or GPUS_PER_NODE
    if not slots.gpu_count:
        assumed.append(_a("one 8-GPU server", "一台 8 卡服务器"))
    if slots.utilization:
        payload["utilization"] = slots.utilization
    _money(slots, payload, catalog)
    payload.pop("cloud_price_per_gpu_hour", None)
    return Plan(tool="power_cost", payload=payload, assumed=assumed,
                ask=None if slots.electricity_price_per_kwh else _a("What do you pay per kWh?", "你们的电价是多少（元/度）？"))  # fmt: skip


def _tco(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumed: list[Assumed] = []
    _gpu(slots, payload, assumed)
    payload["gpus"] = slots.gpu_count or GPUS_PER_NODE
    if not slots.gpu_count:
        assumed.append(_a("one 8-GPU server", "一台 8 卡服务器"))
    if slots.years:
        payload["years"] = int(slots.years)
    if slots.utilization:
        payload["utilization"] = slots.utilization
    else:
        assumed.append(_a("80% utilisation", "利用率 80%"))
    _money(slots, payload, catalog)
    ask = (
        None
        if slots.utilization
        else _a("How busy will the GPUs be (utilisation)?", "这些卡的预计利用率是多少？")
    )
    return Plan(tool="tco", payload=payload, assumed=assumed, ask=ask)


def _cloud_cost(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumed: list[Assumed] = []
    _gpu(slots, payload, assumed)
    if slots.gpu_count and slots.deadline_days:
        payload.update(gpus=slots.gpu_count, days=slots.deadline_days)
    else:
        return None  # chained after training_compute instead, see run_plans
    _money(slots, payload, catalog)
    if "cloud_price_per_gpu_hour" in payload:
        payload["price_per_gpu_hour"] = payload.pop("cloud_price_per_gpu_hour")
    payload.pop("electricity_price_per_kwh", None)
    return Plan(tool="cloud_cost", payload=payload, assumed=assumed)


def _inference_memory(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumed: list[Assumed] = []
    if not _model(slots, payload):
        return None
    _gpu(slots, payload, assumed)
    if slots.gpu_count:
        payload.update(tensor_parallel=slots.gpu_count, gpus=slots.gpu_count)
    if slots.seq_len:
        payload["context_tokens"] = slots.seq_len
    else:
        assumed.append(_a("context: the model's pre-training length", "上下文：模型预训练长度"))
    if slots.concurrent or slots.micro_batch:
        payload["batch"] = slots.concurrent or slots.micro_batch
    if slots.precision in {"fp8", "fp16", "bf16"}:
        payload["weight_precision"] = slots.precision
    return Plan(tool="inference_memory", payload=payload, assumed=assumed)


def _gpu_compare(slots: Slots, catalog: Catalog) -> Plan | None:
    if not slots.gpu or not slots.other_gpus:
        return None
    return Plan(tool="gpu_compare", payload={"gpus": [slots.gpu, *slots.other_gpus][:8]})


BUILDERS: dict[str, Callable[[Slots, Catalog], Plan | None]] = {
    "training_compute": _training_compute,
    "gpus_for_deadline": _gpus_for_deadline,
    "throughput_calibration": _throughput,
    "training_memory": _training_memory,
    "cluster_plan": _cluster_plan,
    "storage": _storage,
    "host_ram": _host_ram,
    "network": _network,
    "power_cost": _power_cost,
    "tco": _tco,
    "cloud_cost": _cloud_cost,
    "inference_memory": _inference_memory,
    "gpu_compare": _gpu_compare,
}


class ToolBox:
    """Plans and runs the calculators a route asks for, against one catalog."""

    def __init__(self, *, catalog: Catalog) -> None:
        self._catalog = catalog

    def run_for(self, tools: list[str], slots: Slots) -> ToolRun:
        result = ToolRun()
        for name in tools:
            # a training run's cloud bill is its GPU-hours; "N GPUs for D days" prices a reservation only
            # when no training run was worked out
            plan = self._cloud_after_compute(result, slots) if name == "cloud_cost" else None
            builder = BUILDERS.get(name)
            plan = plan or (builder(slots, self._catalog) if builder else None)
            if plan is None:
                continue
            try:
                done = run(plan.tool, plan.payload, self._catalog)
            except ToolInputError as exc:
                result.errors.extend(f"{p.field}: {p.message}" for p in exc.problems)
                continue
            result.calls.append(ToolCall(name=done.name, input=done.input, output=done.output))
            result.assumed.extend(a for a in plan.assumed if a not in result.assumed)
            result.ask = result.ask or plan.ask
        return result

    def _cloud_after_compute(self, result: ToolRun, slots: Slots) -> Plan | None:
        """Cloud cost of the GPU-hours the training calculation just produced."""
        compute = next((c for c in result.calls if c.name == "training_compute"), None)
        if compute is None:
            return None
        payload: dict[str, Any] = {
            "gpu": compute.input["gpu"],
            "gpu_hours": compute.output["gpu_hours"]["expected"],
        }
        _money(slots, payload, self._catalog)
        if "cloud_price_per_gpu_hour" in payload:
            payload["price_per_gpu_hour"] = payload.pop("cloud_price_per_gpu_hour")
        payload.pop("electricity_price_per_kwh", None)
        return Plan(tool="cloud_cost", payload=payload)
