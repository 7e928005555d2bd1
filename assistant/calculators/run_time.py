"""Time, GPU-hours or GPUs from what the user already knows: GPU-hours, total FLOPs, a measured throughput."""

from __future__ import annotations

from typing import Any

from assistant.calculators.common import (
    Assumed,
    Calculator,
    Plan,
    Row,
    Summary,
    View,
    assumed,
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
    if slots.took_days and slots.gpu and slots.other_gpus:
        # "64 张 A100 跑了 20 天，换成 64 张 H100": the same FLOPs on the other card, at the same MFU
        new = slots.other_gpus[0]
        before = slots.card_counts.get(slots.gpu) or slots.gpu_count or 8
        payload.update(from_gpu=slots.gpu, from_gpus=before, from_days=slots.took_days, gpu=new)
        payload["gpus"] = slots.card_counts.get(new) or slots.gpu_count or before
        return Plan(tool="run_time", payload=payload, assumed=assumptions)
    if slots.took_days and slots.measured_gpus and slots.gpu_count and not slots.other_gpus:
        # "现在 64 卡要 7 天，扩到 512 卡能 1 天内训完吗": the same job on more GPUs of the same card
        payload.update(from_gpus=slots.measured_gpus, from_days=slots.took_days, gpus=slots.gpu_count)
        if slots.scaling_efficiency:
            payload["scaling_efficiency"] = slots.scaling_efficiency
        if slots.deadline_days:
            payload["deadline_days"] = slots.deadline_days
        return Plan(tool="run_time", payload=payload, assumed=assumptions)
    if slots.gpu_hours:
        payload["gpu_hours"] = slots.gpu_hours
    elif slots.training_flops:
        payload.update(training_flops=slots.training_flops, gpu=slots.gpu or "h100-sxm")
        if slots.mfu:
            payload["mfu"] = slots.mfu
        else:
            assumptions.append(assumed("MFU 40%", "MFU 40%"))
        if not slots.gpu:
            assumptions.append(assumed("GPU: H100 SXM", "GPU：H100 SXM"))
    elif (
        slots.step_time_s
        and (slots.batch_tokens or (slots.global_batch and slots.seq_len))
        and slots.tokens_b
    ):
        per_step = slots.batch_tokens or (slots.global_batch or 0) * (slots.seq_len or 0)
        payload.update(step_time_s=slots.step_time_s, tokens_per_step=per_step)
        payload["tokens_b"] = slots.tokens_b
    elif slots.tokens_per_second_per_gpu and slots.tokens_b:  # GPU-hours need no GPU count
        rate = slots.tokens_per_second_per_gpu
        if slots.scaling_efficiency:
            # "扩到128卡，扩展效率按90%": each GPU keeps that share of the measured rate
            rate = round(rate * slots.scaling_efficiency, 3)
            assumptions.append(
                assumed(
                    f"{num(slots.tokens_per_second_per_gpu)} tokens/s per GPU x {slots.scaling_efficiency:.0%} "
                    f"scaling efficiency = {num(rate)}",
                    f"每卡每秒 {num(slots.tokens_per_second_per_gpu)} token × 扩展效率 {slots.scaling_efficiency:.0%} = {num(rate)}",
                )
            )
        if slots.goodput:
            # "assume ~95% goodput for restarts and evals": the wall clock trains that share of the time
            measured, rate = rate, round(rate * slots.goodput, 3)
            assumptions.append(
                assumed(
                    f"{num(measured)} tokens/s per GPU x {slots.goodput:.0%} goodput (restarts, evaluation) = "
                    f"{num(rate)} averaged over the wall clock",
                    f"每卡每秒 {num(measured)} token × 有效训练时间 {slots.goodput:.0%}（重启、评测）= 平均 {num(rate)}",
                )
            )
        payload.update(tokens_per_second_per_gpu=rate, tokens_b=slots.tokens_b)
    else:
        return None
    if slots.epochs and "tokens_b" in payload:
        payload["tokens_b"] = payload["tokens_b"] * slots.epochs
        assumptions.append(
            assumed(f"{num(slots.epochs)} epochs over the data", f"数据训练 {num(slots.epochs)} 个 epoch")
        )
    if slots.gpu_count:
        payload["gpus"] = slots.gpu_count
    elif slots.deadline_days:
        payload["deadline_days"] = slots.deadline_days
    return Plan(tool="run_time", payload=payload, assumed=assumptions)


def _summarize(call: ToolCall, view: View) -> Summary:
    i, o = call.input, call.output
    hours = num(o["gpu_hours"])
    if o.get("speedup"):
        # the same job moved to another card: its days there, and why not simply divided by the spec ratio
        before = f"{num(i['from_gpus'])} x {o['from_gpu_name']} in {num(i['from_days'])} days"
        en = (
            f"The same job on {num(o['gpus'])} x {o['gpu_name']} takes about **{num(o['days'])} days** at best: it ran "
            f"on {before}, and the dense BF16 peak is {num(o['speedup'])}x higher at the same MFU ({hours} GPU-hours). "
            f"A faster card is harder to keep fed, so plan on a little longer than the ratio alone gives."
        )
        zh = (
            f"同一个任务在 {num(o['gpus'])} 张 {o['gpu_name']} 上最快约 **{num(o['days'])} 天**：原来 {num(i['from_gpus'])} 张 "
            f"{o['from_gpu_name']} 跑了 {num(i['from_days'])} 天，稠密 BF16 峰值高 {num(o['speedup'])} 倍，按相同 MFU 计"
            f"（{hours} GPU 小时）。更快的卡更难喂饱，MFU 往往更低，排期按比单纯除以比值略长来留余量。"
        )
        rows = [
            Row(en="Speed-up at the same MFU", zh="相同 MFU 下的加速比", value=f"{num(o['speedup'])}x"),
            Row(en="Days", zh="天数", value=num(o["days"])),
            Row(en="GPU-hours", zh="GPU 小时", value=hours),
        ]
        return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)
    if o.get("ideal_days") is not None:
        return _scaled(i, o, hours)
    if o["gpu_hours"] is None:
        # a step time and a batch, no GPU count: the run's wall-clock time
        en = (
            f"About **{num(o['days'])} days** ({num(o['hours'])} hours) for {num(i['tokens_b'])}B tokens at "
            f"{num(i['tokens_per_step'])} tokens per {num(i['step_time_s'])} s step."
        )
        zh = (
            f"按每步 {num(i['tokens_per_step'])} token、{num(i['step_time_s'])} 秒一步，训完 {num(i['tokens_b'])}B token "
            f"约需 **{num(o['days'])} 天**（{num(o['hours'])} 小时）。"
        )
        rows = [Row(en="Wall-clock days", zh="天数", value=num(o["days"]))]
        return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)
    if i.get("deadline_days") and o.get("gpus"):
        en = (
            f"Doing {hours} GPU-hours within {num(i['deadline_days'])} days takes **{num(o['gpus'])} GPUs** "
            f"({num(o['exact_gpus'], 4)} exactly, rounded up to whole 8-GPU servers)."
        )
        zh = (
            f"要在 {num(i['deadline_days'])} 天内完成 {hours} GPU 小时，需要 **{num(o['gpus'])} 张卡**"
            f"（精确值 {num(o['exact_gpus'], 4)}，按 8 卡整机向上取整）。"
        )
    elif o.get("days") is not None and view.asked != "gpu_hours":
        en = (
            f"That is about **{num(o['days'])} days** ({num(o['hours'])} hours) on {num(o['gpus'])} GPUs: "
            f"{hours} GPU-hours in all."
        )
        zh = f"在 {num(o['gpus'])} 张卡上约需 **{num(o['days'])} 天**（{num(o['hours'])} 小时），共 {hours} GPU 小时。"
    else:
        en = f"The run needs about **{hours} GPU-hours**."
        zh = f"这次训练约需 **{hours} GPU 小时**。"
        if i.get("tokens_per_second_per_gpu") and i.get("tokens_b"):
            # "8,500 tokens/s per GPU, 1.5T tokens": the arithmetic in the same sentence
            rate = num(i["tokens_per_second_per_gpu"])
            en = f"The run needs about **{hours} GPU-hours**: {num(i['tokens_b'])}B tokens at {rate} tokens/s per GPU."
            zh = f"这次训练约需 **{hours} GPU 小时**：{num(i['tokens_b'])}B token，每卡每秒 {rate} token。"
        if o.get("days") is not None:
            en += f" On {num(o['gpus'])} GPUs that is {num(o['days'])} days."
            zh += f"在 {num(o['gpus'])} 张卡上约 {num(o['days'])} 天。"
    rows = [Row(en="GPU-hours", zh="GPU 小时", value=hours)]
    if o.get("gpus"):
        rows.append(Row(en="GPUs", zh="GPU 数量", value=num(o["gpus"])))
    if o.get("days") is not None:
        rows.append(Row(en="Wall-clock days", zh="天数", value=num(o["days"])))
    if o.get("tokens_per_second_per_gpu"):
        rows.append(Row(en="Tokens/s per GPU", zh="每卡 tokens/s", value=num(o["tokens_per_second_per_gpu"])))
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


def _scaled(i: dict[str, Any], o: dict[str, Any], hours: str) -> Summary:
    """A finished run on more GPUs of the same card: linear at best, less by what scaling loses, and against a
    deadline the scaling efficiency it would need."""
    eff, ideal, days = o["scaling_efficiency"], num(o["ideal_days"]), num(o["days"])
    before, after = num(i["from_gpus"]), num(o["gpus"])
    ran = num(i["from_gpus"] * i["from_days"] * 24)  # the finished run's own GPU-hours, before any loss
    given = f"{before} GPUs x {num(i['from_days'])} days = {ran} GPU-hours"
    given_zh = f"{before} 卡 × {num(i['from_days'])} 天 = {ran} 卡时"
    at_eff = f"at {pct(eff)} scaling efficiency" if eff < 1 else "with no scaling loss"
    at_eff_zh = f"按 {pct(eff)} 扩展效率" if eff < 1 else "没有扩展损失"
    if (needed := o.get("efficiency_needed")) is not None:
        deadline = num(i["deadline_days"])
        met = o["days"] <= i["deadline_days"]
        if needed > 1:
            lead_en = (
                f"**No**: even perfectly linear, {after} GPUs take {ideal} days, more than {deadline}, and about "
                f"**{days} days** {at_eff}"
            )
            lead_zh = f"**不能**：即使完全线性，{after} 卡也要 {ideal} 天，超过 {deadline} 天；{at_eff_zh}约 **{days} 天**"
        elif met:
            lead_en = f"**Only just**: {after} GPUs take about **{days} days** {at_eff}, inside {deadline}"
            lead_zh = f"**勉强能**：{after} 卡{at_eff_zh}约 **{days} 天**，在 {deadline} 天以内"
        else:
            lead_en = f"**Probably not**: {after} GPUs take about **{days} days** {at_eff}, over {deadline}"
            lead_zh = f"**大概率不能**：{after} 卡{at_eff_zh}约 **{days} 天**，超过 {deadline} 天"
        en = (
            f"{lead_en} ({given}; linear would be {ideal} days). "
            + (
                f"It needs at least {num(needed * 100)}% scaling efficiency to finish in {deadline} days."
                if needed <= 1
                else ""
            )
        ).rstrip()
        zh = f"{lead_zh}（{given_zh}；线性扩展为 {ideal} 天）。" + (
            f"要在 {deadline} 天内完成，扩展效率至少要 {num(needed * 100)}%。" if needed <= 1 else ""
        )
    else:
        en = f"About **{days} days** on {after} GPUs {at_eff} ({given}; linear would be {ideal} days)."
        zh = f"{after} 卡{at_eff_zh}约 **{days} 天**（{given_zh}；线性扩展为 {ideal} 天）。"
    rows = [
        Row(en="Days, linear", zh="线性扩展天数", value=ideal),
        Row(en="Days at the scaling efficiency", zh="按扩展效率的天数", value=days),
        Row(en="Scaling efficiency", zh="扩展效率", value=pct(eff)),
        Row(en="GPU-hours on the new count", zh="扩展后的 GPU 小时", value=hours),
    ]
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


CALCULATOR = Calculator(
    name="run_time",
    title=("Run time from your figures", "按已知数据推算时间"),
    triggers=words(r"a^"),  # chosen by the quantities given (GPU-hours, FLOPs, a measured throughput)
    build=_build,
    summarize=_summarize,
    answers=frozenset({"days", "gpus", "gpu_hours"}),
    exemplars_en=("It takes 200k GPU-hours; how many days on 1,024 GPUs?",),
    exemplars_zh=("估计要 20 万卡时，30 天内训完要多少张卡？",),
)
