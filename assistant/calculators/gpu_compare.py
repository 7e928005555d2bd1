"""Accelerators side by side."""

from __future__ import annotations

from assistant.calculators.common import (
    Calculator,
    Plan,
    Row,
    Summary,
    View,
    num,
    words,
)
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    if not slots.gpu or not slots.other_gpus:
        return None
    payload: dict[str, object] = {"gpus": [slots.gpu, *slots.other_gpus][:8]}
    if slots.rank_by:
        payload["rank_by"] = slots.rank_by
    return Plan(tool="gpu_compare", payload=payload)


def _summarize(call: ToolCall, view: View) -> Summary:
    o = call.output
    rows_in = o["rows"]
    first = rows_in[0] if rows_in else {}
    ranking = o.get("ranking") or []
    top = ranking[0]["name"] if ranking else first.get("name", "")
    en = f"Side by side ({o['ranking_criterion']}): **{top}** ranks first."
    zh = f"对比（排序依据：{o['ranking_criterion']}）：**{top}** 排第一。"
    rows = [Row(en=r["name"], zh=r["name"],
                value=f"{num(r.get('memory_gb'))} GB {r.get('memory_type', '')}, {num(r.get('memory_bandwidth_gb_s'))} GB/s, "
                      f"{num(r.get('bf16_dense_tflops'))} BF16 TFLOPS, {num(r.get('tdp_w'))} W"
                      + (f", ${num(r['usd_per_bf16_tflop'])}/TFLOP" if r.get("usd_per_bf16_tflop") else ""))
            for r in rows_in]  # fmt: skip
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


CALCULATOR = Calculator(
    name="gpu_compare",
    triggers=words(
        r"\bcompare\b",
        r"\bvs\.?\b",
        r"versus",
        r"difference between",
        r"side by side",
        r"对比",
        r"比较",
        r"区别",
        r"哪个(?:更|好)",
    ),
    build=_build,
    summarize=_summarize,
    answers=frozenset({"compare"}),
)
