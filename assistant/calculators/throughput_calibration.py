"""A measured tokens/s per GPU turned into MFU and days."""

from __future__ import annotations

from typing import Any

from assistant.calculators.common import (
    GPUS_PER_NODE,
    Assumed,
    Calculator,
    Plan,
    Row,
    Summary,
    View,
    compute_fields,
    model_into,
    num,
    pct,
    words,
)
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumptions: list[Assumed] = []
    if not model_into(slots, payload) or not slots.tokens_per_second_per_gpu:
        return None
    compute_fields(slots, payload, assumptions)
    for key in ("mfu", "mfu_low", "mfu_high"):
        payload.pop(key, None)
    assumptions[:] = [a for a in assumptions if not a.en.startswith("MFU")]
    payload["gpus"] = slots.gpu_count or GPUS_PER_NODE
    payload["tokens_per_second_per_gpu"] = slots.tokens_per_second_per_gpu
    return Plan(tool="throughput_calibration", payload=payload, assumed=assumptions)


def _summarize(call: ToolCall, view: View) -> Summary:
    i, o = call.input, call.output
    w = o["workload"]
    en = (
        f"{num(o['tokens_per_second_per_gpu'])} tokens/s per {w['gpu']} means an MFU of **{pct(o['implied_mfu'])}**; "
        f"{num(w['tokens_b'])}B tokens then take {num(o['days'])} days on {i['gpus']} GPUs."
    )
    zh = (
        f"每张 {w['gpu']} 每秒 {num(o['tokens_per_second_per_gpu'])} token 对应 MFU **{pct(o['implied_mfu'])}**；"
        f"训完 {num(w['tokens_b'])}B token 在 {i['gpus']} 张卡上需 {num(o['days'])} 天。"
    )
    rows = [Row(en="Implied MFU", zh="折算 MFU", value=pct(o["implied_mfu"])),
            Row(en="Achieved TFLOPS per GPU", zh="单卡实际 TFLOPS", value=num(o["achieved_tflops_per_gpu"])),
            Row(en="Days", zh="天数", value=num(o["days"])), Row(en="GPU-hours", zh="GPU 小时", value=num(o["gpu_hours"]))]  # fmt: skip
    return Summary(
        headline_en=en,
        headline_zh=zh,
        inputs=[Row(en="GPUs", zh="GPU 数量", value=str(i["gpus"]))],
        results=rows,
    )


CALCULATOR = Calculator(
    name="throughput_calibration",
    triggers=words(
        r"tokens?/s",
        r"tokens? per second per gpu",
        r"measured throughput",
        r"implied mfu",
        r"吞吐",
        r"每卡每秒",
    ),
    build=_build,
    summarize=_summarize,
    needs_model=True,
    answers=frozenset({"days", "mfu"}),
)
