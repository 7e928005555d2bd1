"""Scaling efficiency from two runs the user measured, and whether it is normal."""

from __future__ import annotations

from assistant.calculators.common import Calculator, Plan, Row, Summary, View, num, pct, words
from assistant.models import ToolCall
from assistant.slots import RELATIVE, Slots
from knowledge.catalog import Catalog


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    if len(slots.measured_runs) < 2:
        return None
    (gpus_from, rate_from), (gpus_to, rate_to) = slots.measured_runs[:2]
    if gpus_from == gpus_to:
        return None
    if gpus_to < gpus_from:  # "256 GPUs give 4.1M, 64 gave 1.2M": read from the smaller run up
        (gpus_from, rate_from), (gpus_to, rate_to) = (gpus_to, rate_to), (gpus_from, rate_from)
    payload: dict[str, float | str] = {
        "gpus_from": gpus_from,
        "rate_from": rate_from,
        "gpus_to": gpus_to,
        "rate_to": rate_to,
    }
    if slots.measured_unit and ("/" in slots.measured_unit or slots.measured_unit == RELATIVE):
        payload["unit"] = slots.measured_unit
    return Plan(tool="scaling", payload=payload)


_VERDICT_EN = {
    "excellent": "as good as published large runs (90-95%)",
    "normal": "normal for a first multi-node scale-out, a little below the 90-95% of well-tuned runs",
    "low": "below what a non-blocking 400G fabric gives (90-95%): look at the network, the global batch and stragglers",
    "poor": "far below the 90-95% of well-tuned runs: something is throttling it (network, a slow node, data loading)",
}
_VERDICT_ZH = {
    "excellent": "和公开的大规模训练相当（90%–95%），正常且很好",
    "normal": "属于正常范围，首次多机扩展常见，略低于调优良好的 90%–95%",
    "low": "偏低：无阻塞 400G 网络上一般能到 90%–95%，先查网络、全局 batch 和慢节点",
    "poor": "明显偏低（调优良好的可达 90%–95%）：有东西在拖慢，查网络、慢节点或数据加载",
}


def _summarize(call: ToolCall, view: View) -> Summary:
    i, o = call.input, call.output
    unit = o.get("unit", "tokens/s")
    eff, ideal, speedup = o["efficiency"], o["ideal_speedup"], o["speedup"]
    if unit == RELATIVE:
        # "吞吐只涨了5倍": the gain itself is the measurement
        en = (
            f"Scaling efficiency is about **{pct(eff)}**: {num(i['gpus_from'])} to {num(i['gpus_to'])} GPUs is "
            f"{num(ideal)}x the GPUs for {num(speedup)}x the throughput ({num(speedup)} / {num(ideal)} = {pct(eff)}). "
            f"That is {_VERDICT_EN[o['verdict']]}."
        )
        zh = (
            f"扩展效率约 **{pct(eff)}**：{num(i['gpus_from'])} 卡到 {num(i['gpus_to'])} 卡是 {num(ideal)} 倍的卡，"
            f"吞吐涨了 {num(speedup)} 倍（{num(speedup)} / {num(ideal)} = {pct(eff)}）。{_VERDICT_ZH[o['verdict']]}。"
        )
        rows = [
            Row(en="GPUs", zh="卡数", value=f"{num(i['gpus_from'])} → {num(i['gpus_to'])} ({num(ideal)}x)"),
            Row(en="Throughput gain", zh="吞吐增长", value=f"{num(speedup)}x"),
            Row(en="Scaling efficiency", zh="扩展效率", value=pct(eff)),
        ]
        return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)
    en = (
        f"Scaling efficiency is about **{pct(eff)}**: {num(i['gpus_from'])} to {num(i['gpus_to'])} GPUs is "
        f"{num(ideal)}x the GPUs, and {num(i['rate_from'])} to {num(i['rate_to'])} {unit} is {num(speedup)}x "
        f"the throughput ({num(speedup)} / {num(ideal)} = {pct(eff)}). That is {_VERDICT_EN[o['verdict']]}."
    )
    zh = (
        f"扩展效率约 **{pct(eff)}**：{num(i['gpus_from'])} 卡到 {num(i['gpus_to'])} 卡是 {num(ideal)} 倍的卡，"
        f"吞吐从 {num(i['rate_from'])} 到 {num(i['rate_to'])} {unit} 是 {num(speedup)} 倍"
        f"（{num(speedup)} / {num(ideal)} = {pct(eff)}）。{_VERDICT_ZH[o['verdict']]}。"
    )
    rows = [
        Row(en="GPUs", zh="卡数", value=f"{num(i['gpus_from'])} → {num(i['gpus_to'])} ({num(ideal)}x)"),
        Row(
            en="Throughput",
            zh="吞吐",
            value=f"{num(i['rate_from'])} → {num(i['rate_to'])} {unit} ({num(speedup)}x)",
        ),
        Row(en="Per GPU", zh="每卡", value=f"{num(o['per_gpu_from'])} → {num(o['per_gpu_to'])} {unit}"),
        Row(en="At linear scaling", zh="线性扩展时", value=f"{num(o['linear_rate'])} {unit}"),
        Row(en="Scaling efficiency", zh="扩展效率", value=pct(eff)),
    ]
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


CALCULATOR = Calculator(
    name="scaling",
    title=("Scaling efficiency", "扩展效率"),
    triggers=words(
        r"scaling efficiency",
        r"scal(?:es|ing|ed)\s+(?:well|linearly|badly|poorly)",
        r"(?:good|bad|normal|ok|okay|linear)\s+scaling",
        r"\bspeed[\s-]?up\b",
        r"扩展效率|线性度|加速比|扩展性|扩展比|线性扩展",
    ),
    build=_build,
    summarize=_summarize,
    answers=frozenset({"scaling"}),
    exemplars_en=(
        "We went from 64 to 256 GPUs and throughput from 1.2M to 4.1M tokens/s: what scaling efficiency?",
    ),
    exemplars_zh=("从64卡扩到256卡，吞吐从120万涨到410万 tokens/s，扩展效率多少？正常吗",),
    follow_ups_en=("How long would 1T tokens take at that rate?",),
    follow_ups_zh=("按这个速度训 1T token 要多久？",),
)
