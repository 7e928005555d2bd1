"""Gradient all-reduce time over the interconnect."""

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
    gpu_into,
    model_into,
    nodes,
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
    if not model_into(slots, payload):
        return None
    gpu_into(slots, payload, assumptions)
    node_count = nodes(slots)
    payload.update(nodes=node_count, gpus_per_node=min(slots.gpu_count or GPUS_PER_NODE, GPUS_PER_NODE))
    if node_count > 1:
        payload["inter_node_link"] = "infiniband-ndr"
        assumptions.append(
            assumed("one 400 Gb/s NDR InfiniBand port per GPU", "每卡一个 400 Gb/s NDR InfiniBand 端口")
        )
    if slots.zero_stage == 3:
        payload["zero3"] = True
    return Plan(tool="network", payload=payload, assumed=assumptions)


def _summarize(call: ToolCall, view: View) -> Summary:
    o = call.output
    en = (
        f"One gradient all-reduce of {num(o['gradient_gb'])} GB across {o['total_gpus']} GPUs takes about **{num(o['allreduce_s'])} s** "
        f"({num(o['inter_node_gbit_s_per_gpu'])} Gb/s per GPU between servers, {num(o['intra_node_gb_s'])} GB/s inside)."
    )
    zh = (
        f"{o['total_gpus']} 张卡做一次 {num(o['gradient_gb'])} GB 的梯度 all-reduce 约需 **{num(o['allreduce_s'])} 秒**"
        f"（节点间每卡 {num(o['inter_node_gbit_s_per_gpu'])} Gb/s，节点内 {num(o['intra_node_gb_s'])} GB/s）。"
    )
    rows = [Row(en="Gradient size", zh="梯度大小", value=f"{num(o['gradient_gb'])} GB"),
            Row(en="All-reduce time", zh="all-reduce 时间", value=f"{num(o['allreduce_s'])} s"),
            Row(en="Bus bandwidth", zh="总线带宽", value=f"{num(o['busbw_gb_s'])} GB/s")]  # fmt: skip
    if o.get("comm_share_of_step") is not None:
        rows.append(Row(en="Share of step time", zh="占单步时间比例", value=pct(o["comm_share_of_step"])))
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


CALCULATOR = Calculator(
    name="network",
    triggers=words(
        r"all[- ]?reduce",
        r"network bandwidth",
        r"interconnect bandwidth",
        r"infiniband",
        r"\broce\b",
        r"communication (?:time|overhead)",
        r"网络带宽",
        r"通信(?:时间|开销)",
        r"组网",
        r"网络",
    ),
    build=_build,
    summarize=_summarize,
    needs_model=True,
    answers=frozenset({"network"}),
)
