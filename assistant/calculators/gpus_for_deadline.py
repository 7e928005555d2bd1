"""How many GPUs train a model on its tokens within a deadline."""

from __future__ import annotations

from typing import Any

from assistant.calculators.common import (
    ASK_TOKENS,
    GPUS_PER_NODE,
    Assumed,
    Calculator,
    Plan,
    Row,
    Summary,
    View,
    compute_fields,
    model_into,
    model_name,
    num,
    pct,
    span,
    words,
)
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumptions: list[Assumed] = []
    if not model_into(slots, payload) or not slots.deadline_days:
        return None
    compute_fields(slots, payload, assumptions, catalog)
    payload["deadline_days"] = slots.deadline_days
    if slots.gpus_per_node:
        payload["gpus_per_node"] = slots.gpus_per_node  # "rounded to whole 4-GPU nodes"
    if slots.goodput:
        payload["goodput"] = slots.goodput  # "assume 90% goodput for failures and restarts"
    if slots.finetune:
        payload["finetune"] = slots.finetune  # LoRA and QLoRA skip the weight gradients: fewer FLOPs a token
    ask = None if slots.tokens_b else ASK_TOKENS
    return Plan(tool="gpus_for_deadline", payload=payload, assumed=assumptions, ask=ask)


def _summarize(call: ToolCall, view: View) -> Summary:
    i, o = call.input, call.output
    w = o["workload"]
    model, gpu, rng = model_name(i, o), w["gpu"], o["gpus_range"]
    days = i["deadline_days"]
    per_node = o.get("per_node") or i.get("gpus_per_node", GPUS_PER_NODE)
    nodes, instance = o["nodes"], o.get("instance")
    # "(5 trn2.48xlarge instances of 16 chips)" for a chip rented by the instance, else "(10 servers of 8)"
    unit_en = (
        f"{num(nodes)} {instance} {'instance' if nodes == 1 else 'instances'} of {per_node} chips"
        if instance
        else f"{num(nodes)} {'server' if nodes == 1 else 'servers'} of {per_node}"
    )
    unit_zh = (
        f"{num(nodes)} 个 {instance} 实例，每个 {per_node} 颗芯片"
        if instance
        else f"{num(nodes)} 台 {per_node} 卡服务器"
    )
    # "overnight (10 hours)" reads in hours
    within_en = f"{num(days * 24)} hours" if days < 2 else f"{num(days)} days"
    within_zh = f"{num(days * 24)} 小时" if days < 2 else f"{num(days)} 天"
    kind = str(i.get("finetune") or "")
    train_en = {"full": "fully fine-tune", "lora": "LoRA fine-tune", "qlora": "QLoRA fine-tune"}.get(
        kind, "train"
    )
    train_zh = {"full": "全参微调完", "lora": "LoRA 微调完", "qlora": "QLoRA 微调完"}.get(kind, "训完")
    en = (
        f"To {train_en} {model} on {num(w['tokens_b'])}B tokens within {within_en} you need "
        f"**{num(o['gpus'])} x {gpu}** ({unit_en}) "
        f"at {pct(i.get('mfu', 0.4))} MFU; {span(rng['low'], rng['high'])} GPUs across the MFU range."
    )
    zh = (
        f"要在 {within_zh}内{train_zh} {model}（{num(w['tokens_b'])}B token），以 MFU {pct(i.get('mfu', 0.4))} 计"
        f"需要 **{num(o['gpus'])} 张 {gpu}**（{unit_zh}），按 MFU 区间为 {span(rng['low'], rng['high'])} 张。"
    )
    inputs = [Row(en="Model", zh="模型", value=model), Row(en="Training tokens", zh="训练 token", value=f"{num(w['tokens_b'])}B"),
              Row(en="Deadline", zh="工期", value=f"{num(i['deadline_days'])} d"), Row(en="GPU", zh="GPU", value=gpu)]  # fmt: skip
    results = [Row(en="GPUs (whole servers)", zh="GPU 数量（整机）", value=num(o["gpus"])),
               Row(en="Exact GPUs", zh="精确值", value=num(o["exact_gpus"])),
               Row(en="Days at that count", zh="该配置训练天数", value=num(o["days_at_gpus"])),
               Row(en="Training FLOPs", zh="训练计算量", value=f"{num(w['training_flops'])} FLOPs")]  # fmt: skip
    return Summary(headline_en=en, headline_zh=zh, inputs=inputs, results=results)


CALCULATOR = Calculator(
    name="gpus_for_deadline",
    title=("GPUs for the deadline", "按工期所需 GPU"),
    triggers=words(
        r"how many (?:gpus|cards|accelerators|nodes|servers)",
        r"(?:gpus|nodes) (?:do i|would|will) (?:i |we )?need",
        # "多少GPU小时" asks for GPU-hours, not for a number of GPUs
        r"(?:多少|几)\s*(?:张|块|台|个)?\s*(?:卡|gpu|显卡|节点|服务器|机器)(?!\s*小时)",
        r"需要.*(?:多少|几).*(?:卡|gpu)(?!\s*小时)",
    ),
    build=_build,
    summarize=_summarize,
    needs_model=True,
    answers=frozenset({"gpus"}),
    follow_ups_en=("What about H200 instead?", "What would it cost in the cloud?"),
    follow_ups_zh=("换成H200呢？", "上云要花多少钱？"),
)
