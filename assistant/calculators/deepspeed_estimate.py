"""DeepSpeed's own model-state memory estimate, for users who size with DeepSpeed's numbers."""

from __future__ import annotations

from typing import Any

from assistant.calculators.common import (
    Assumed,
    Calculator,
    Plan,
    Row,
    Summary,
    View,
    model_into,
    nodes,
    num,
    words,
)
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumptions: list[Assumed] = []
    if not model_into(slots, payload):
        return None
    if slots.zero_stage in (2, 3):
        payload["zero_stage"] = slots.zero_stage
    payload["nodes"] = nodes(slots)
    if slots.gpus_per_node:
        payload["gpus_per_node"] = slots.gpus_per_node
    return Plan(tool="deepspeed_estimate", payload=payload, assumed=assumptions)


def _offload(row: dict[str, Any]) -> tuple[str, str]:
    param = {"cpu": "params on CPU", "none": "params on GPU", None: ""}[row.get("offload_param")]
    opt = "optimizer on CPU" if row["offload_optimizer"] == "cpu" else "optimizer on GPU"
    zh = {"params on CPU": "参数卸载到 CPU", "params on GPU": "参数在 GPU", "": ""}[param]
    zh_opt = "优化器卸载到 CPU" if row["offload_optimizer"] == "cpu" else "优化器在 GPU"
    return ", ".join(p for p in (param, opt) if p), "，".join(p for p in (zh, zh_opt) if p)


def _summarize(call: ToolCall, view: View) -> Summary:
    o = call.output
    stage = call.input.get("zero_stage", 3)
    on_gpu = o["rows"][-1]  # nothing offloaded: the largest GPU figure
    en = (
        f"DeepSpeed's estimator gives **{num(on_gpu['per_gpu_gib'])} GiB of model states per GPU** with ZeRO-{stage} "
        f"across {o['total_gpus']} GPUs when nothing is offloaded (activations not included)."
    )
    zh = (
        f"按 DeepSpeed 自带的估算器，ZeRO-{stage}、{o['total_gpus']} 张卡、不卸载时每卡模型状态约 "
        f"**{num(on_gpu['per_gpu_gib'])} GiB**（不含激活）。"
    )
    rows = []
    for row in o["rows"]:
        label_en, label_zh = _offload(row)
        init = "" if row.get("zero_init") is None else (" (zero.Init)" if row["zero_init"] else "")
        rows.append(
            Row(
                en=label_en + init,
                zh=label_zh + init,
                value=f"GPU {num(row['per_gpu_gib'])} GiB, CPU {num(row['per_cpu_gib'])} GiB",
            )
        )
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


CALCULATOR = Calculator(
    name="deepspeed_estimate",
    title=("DeepSpeed ZeRO memory estimate", "DeepSpeed ZeRO 显存估算"),
    triggers=words(
        r"deepspeed(?:'s)? (?:memory )?estimat", r"estimate_zero[23]", r"deepspeed\s*(?:的)?\s*估算"
    ),
    build=_build,
    summarize=_summarize,
    needs_model=True,
    answers=frozenset({"memory"}),
    exemplars_en=("What does DeepSpeed's estimator say for a 13B model with ZeRO-3 on 8 GPUs?",),
    exemplars_zh=("用 DeepSpeed 的估算器算一下 13B 模型 ZeRO-3 8 卡要多少显存",),
)
