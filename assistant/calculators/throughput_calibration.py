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
from knowledge.text import Language
from tools.common import SECONDS_PER_DAY
from tools.compute import mfu_rating


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
    if slots.deadline_days and slots.tokens_b:
        payload["deadline_days"] = slots.deadline_days  # "… and how many GPUs to finish in 30 days"
    return Plan(tool="throughput_calibration", payload=payload, assumed=assumptions)


def _summarize(call: ToolCall, view: View) -> Summary:
    i, o = call.input, call.output
    w = o["workload"]
    mfu_en = f"{num(o['tokens_per_second_per_gpu'])} tokens/s per {w['gpu']} means an MFU of **{pct(o['implied_mfu'])}**"
    mfu_zh = f"每张 {w['gpu']} 每秒 {num(o['tokens_per_second_per_gpu'])} token 对应 MFU **{pct(o['implied_mfu'])}**"
    if view.asked == "tokens_per_day":
        # "扩到 16 台如果线性，一天能训多少 token": the day's tokens on the GPUs asked about lead
        run, eff = o["run_gpus"], i.get("scaling_efficiency", 1.0)
        daily_b = run * o["run_tokens_per_second_per_gpu"] * SECONDS_PER_DAY / 1e9
        en = (
            f"{run} GPUs at {num(o['run_tokens_per_second_per_gpu'])} tokens/s each ({pct(eff)} scaling efficiency) "
            f"train about **{num(daily_b)}B tokens a day** ({num(run)} x {num(o['run_tokens_per_second_per_gpu'])} x "
            f"86,400 s). {mfu_en}."
        )
        zh = (
            f"{run} 张卡、每卡每秒 {num(o['run_tokens_per_second_per_gpu'])} token（扩展效率 {pct(eff)}），一天约训 "
            f"**{num(daily_b * 10)} 亿 token**（{num(daily_b)}B = {num(run)} × {num(o['run_tokens_per_second_per_gpu'])} "
            f"× 86,400 秒）。{mfu_zh}。"
        )
    elif o["run_gpus"] != i["gpus"] and view.asked == "throughput":
        # "现在4台 … 扩到16台 大概能到多少吞吐": the grown fleet's tokens per second leads
        run, eff = o["run_gpus"], i.get("scaling_efficiency", 1.0)
        total = run * o["run_tokens_per_second_per_gpu"]
        en = (
            f"On {run} GPUs at {pct(eff)} scaling efficiency, about **{num(total)} tokens/s** in all "
            f"({num(o['run_tokens_per_second_per_gpu'])} per GPU, from the measured {num(o['tokens_per_second_per_gpu'])} "
            f"on {i['gpus']}); at 90% scaling, {num(total * 0.9 / eff)}. {num(w['tokens_b'])}B tokens then take "
            f"{num(o['days'])} days."
        )
        zh = (
            f"扩到 {run} 张卡、扩展效率 {pct(eff)} 时，总吞吐约 **每秒 {num(total)} token**（每卡 "
            f"{num(o['run_tokens_per_second_per_gpu'])}，由 {i['gpus']} 张卡实测的 {num(o['tokens_per_second_per_gpu'])} 折算）；"
            f"按 90% 扩展效率约 {num(total * 0.9 / eff)}。训完 {num(w['tokens_b'])}B token 约需 {num(o['days'])} 天。"
        )
    elif o["run_gpus"] != i["gpus"]:
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
    elif "tokens_b" not in i:
        # the MFU asked, with no data size given: the days of an assumed token count are not part of it
        en, zh = f"{mfu_en}.", f"{mfu_zh}。"
    else:
        en = f"{mfu_en}; {num(w['tokens_b'])}B tokens then take {num(o['days'])} days on {i['gpus']} GPUs."
        zh = f"{mfu_zh}；训完 {num(w['tokens_b'])}B token 在 {i['gpus']} 张卡上需 {num(o['days'])} 天。"
    # "MFU 多少？正常吗": how it compares with well-run training, in the same breath
    en += " " + _RATING_EN[o["mfu_rating"]]
    zh += _RATING_ZH[o["mfu_rating"]]
    if gpus := o.get("deadline_gpus"):
        # "… and how many GPUs to finish in 30 days?": the count at the measured rate, with the rest
        servers = -(-gpus // GPUS_PER_NODE)
        en += (
            f" To finish in {num(i['deadline_days'])} days at that rate takes **{gpus} GPUs** "
            f"({servers} servers of {GPUS_PER_NODE})."
        )
        zh += f"要在 {num(i['deadline_days'])} 天内训完，按这个速度需要 **{gpus} 张卡**（{servers} 台 {GPUS_PER_NODE} 卡服务器）。"
    rows = [Row(en="Implied MFU", zh="折算 MFU", value=pct(o["implied_mfu"])),
            Row(en="Achieved TFLOPS per GPU", zh="单卡实际 TFLOPS", value=num(o["achieved_tflops_per_gpu"])),
            Row(en="Days", zh="天数", value=num(o["days"])), Row(en="GPU-hours", zh="GPU 小时", value=num(o["gpu_hours"]))]  # fmt: skip
    if "tokens_b" not in i and view.asked not in {"days", "throughput"}:
        rows = rows[:2]  # the MFU asked with no data size: no days or GPU-hours of an assumed token count
    return Summary(
        headline_en=en,
        headline_zh=zh,
        inputs=[Row(en="GPUs", zh="GPU 数量", value=str(i["gpus"]))],
        results=rows,
    )


_RATING_EN = {
    "low": "That is low: well-run dense training reaches 35-50% (Llama 3 405B: 38-43% on H100s); below 30% time "
    "usually goes to communication, data loading or too small a micro-batch.",
    "below typical": "That is a little below the 35-50% well-run dense training reaches (Llama 3 405B: 38-43% on "
    "H100s).",
    "typical": "That is in the normal range: well-run dense training reaches 35-50% (Llama 3 405B: 38-43% on H100s).",
    "high": "That is above what published runs report (35-50%; Llama 3 405B: 38-43% on H100s): check the throughput, "
    "the model size and the GPU.",
}
_RATING_ZH = {
    "low": "这偏低：调优良好的稠密模型训练一般在 35%-50%（Llama 3 405B 在 H100 上为 38%-43%）；低于 30% 时时间通常耗在"
    "通信、数据加载或过小的微批上。",
    "below typical": "这略低于调优良好的稠密训练常见的 35%-50%（Llama 3 405B 在 H100 上为 38%-43%）。",
    "typical": "这在正常范围内：调优良好的稠密训练一般在 35%-50%（Llama 3 405B 在 H100 上为 38%-43%）。",
    "high": "这高于公开报告的水平（35%-50%；Llama 3 405B 在 H100 上为 38%-43%）：请核对吞吐、模型大小和 GPU 型号。",
}


def mfu_verdict(mfu: float, language: Language) -> str:
    """ "MFU 只有 25%，is that normal?": how an MFU the user states compares with well-run published runs, by the
    bands the calculator rates a measured MFU with."""
    rating = mfu_rating(mfu)
    if language == "zh":
        return f"MFU {pct(mfu)}：{_RATING_ZH[rating]}"
    return f"An MFU of {pct(mfu)}: {_RATING_EN[rating][0].lower()}{_RATING_EN[rating][1:]}"


CALCULATOR = Calculator(
    name="throughput_calibration",
    title=("From your measured throughput", "按实测吞吐推算"),
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
    answers=frozenset({"throughput", "days", "mfu", "tokens_per_day"}),
)
