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
    assumed,
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
    steps = slots.step_time_s and (slots.batch_tokens or (slots.global_batch and slots.seq_len))
    if not model_into(slots, payload) or not (slots.tokens_per_second_per_gpu or steps):
        return None
    compute_fields(slots, payload, assumptions, catalog)
    for key in ("mfu", "mfu_low", "mfu_high"):
        payload.pop(key, None)
    assumptions[:] = [a for a in assumptions if not a.en.startswith("MFU")]
    payload["gpus"] = slots.gpu_count or GPUS_PER_NODE
    if slots.measured_gpus and slots.gpu_count and slots.measured_gpus != slots.gpu_count:
        # measured on one count, asked about another: the rate per GPU carries over, less the scaling loss
        payload.update(gpus=slots.measured_gpus, run_gpus=slots.gpu_count)
        if slots.scaling_efficiency:
            payload["scaling_efficiency"] = slots.scaling_efficiency
        else:
            assumptions.append(
                assumed(
                    "the measured tokens/s per GPU holds on the new count (perfect scaling); give a scaling "
                    "efficiency (e.g. 90%) to plan for the loss",
                    "新卡数下每卡吞吐与实测相同（线性扩展）；可给出扩展效率（如 90%）来计入损失",
                )
            )
    if slots.tokens_per_second_per_gpu:
        payload["tokens_per_second_per_gpu"] = slots.tokens_per_second_per_gpu
    else:
        per_step = slots.batch_tokens or (slots.global_batch or 0) * (slots.seq_len or 0)
        payload.update(step_time_s=slots.step_time_s, tokens_per_step=per_step)
    if slots.epochs and slots.tokens_b:
        payload["tokens_b"] = slots.tokens_b * slots.epochs
    return Plan(tool="throughput_calibration", payload=payload, assumed=assumptions)


def _summarize(call: ToolCall, view: View) -> Summary:
    i, o = call.input, call.output
    w = o["workload"]
    mfu_en = f"{num(o['tokens_per_second_per_gpu'])} tokens/s per {w['gpu']} means an MFU of **{pct(o['implied_mfu'])}**"
    mfu_zh = f"每张 {w['gpu']} 每秒 {num(o['tokens_per_second_per_gpu'])} token 对应 MFU **{pct(o['implied_mfu'])}**"
    if o["run_gpus"] != i["gpus"]:
        # "double to 512 GPUs at 90% scaling": the step and the days on the new count lead
        run, eff = o["run_gpus"], i.get("scaling_efficiency", 1.0)
        step_en = f"a step takes about {num(o['run_step_time_s'])} s and " if o.get("run_step_time_s") else ""
        step_zh = f"每步约 {num(o['run_step_time_s'])} 秒，" if o.get("run_step_time_s") else ""
        en = (
            f"On {run} GPUs at {pct(eff)} scaling efficiency, {step_en}{num(w['tokens_b'])}B tokens take about "
            f"**{num(o['days'])} days** ({num(o['gpu_hours'])} GPU-hours; MFU {pct(o['run_mfu'])}, from the measured "
            f"{pct(o['implied_mfu'])} on {i['gpus']} GPUs)."
        )
        zh = (
            f"扩到 {run} 张卡、扩展效率 {pct(eff)} 时，{step_zh}训完 {num(w['tokens_b'])}B token 约需 **{num(o['days'])} 天**"
            f"（{num(o['gpu_hours'])} GPU 小时；MFU {pct(o['run_mfu'])}，由 {i['gpus']} 张卡实测的 {pct(o['implied_mfu'])} 折算）。"
        )
    elif view.asked == "days":
        en = (
            f"{num(w['tokens_b'])}B tokens take about **{num(o['days'])} days** on {i['gpus']} GPUs at the measured "
            f"{num(o['tokens_per_second_per_gpu'])} tokens/s per GPU ({num(o['gpu_hours'])} GPU-hours; MFU {pct(o['implied_mfu'])})."
        )
        zh = (
            f"按实测每卡每秒 {num(o['tokens_per_second_per_gpu'])} token，在 {i['gpus']} 张卡上训完 {num(w['tokens_b'])}B token "
            f"约需 **{num(o['days'])} 天**（{num(o['gpu_hours'])} GPU 小时；MFU {pct(o['implied_mfu'])}）。"
        )
    else:
        en = f"{mfu_en}; {num(w['tokens_b'])}B tokens then take {num(o['days'])} days on {i['gpus']} GPUs."
        zh = f"{mfu_zh}；训完 {num(w['tokens_b'])}B token 在 {i['gpus']} 张卡上需 {num(o['days'])} 天。"
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
