"""Servers (and GPUs) to serve a peak output-token demand with headroom, from a measured rate."""

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
from assistant.calculators.serving_estimate import busy_hours
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    rate = slots.node_tokens_per_second or slots.tokens_per_second_per_gpu
    if not (slots.demand_tokens_per_second and rate):
        return None
    assumptions: list[Assumed] = []
    demand = slots.demand_tokens_per_second
    if slots.requests_per_day:
        assumptions.append(busy_hours(slots.requests_per_day, slots.requests_per_second or 0))
    if slots.requests_per_second and slots.tokens_per_request:
        assumptions.append(
            assumed(
                f"demand = {num(slots.requests_per_second)} requests/s x {num(slots.tokens_per_request)} output tokens "
                f"= {num(demand)} tokens/s",
                f"需求 = 每秒 {num(slots.requests_per_second)} 个请求 × 每个 {num(slots.tokens_per_request)} 个输出 token "
                f"= {num(demand)} token/s",
            )
        )
    if slots.peak_factor:
        # "average 20k tok/s, peaks 1.5x that": the peak is what the servers must carry
        demand = demand * slots.peak_factor
        assumptions.append(
            assumed(
                f"peak = {num(slots.demand_tokens_per_second)} tokens/s x {num(slots.peak_factor)} = {num(demand)} tokens/s",
                f"峰值 = {num(slots.demand_tokens_per_second)} token/s × {num(slots.peak_factor)} = {num(demand)} token/s",
            )
        )
    payload: dict[str, Any] = {"demand_tokens_per_second": demand}
    if slots.node_tokens_per_second:
        payload["tokens_per_second_per_server"] = slots.node_tokens_per_second
    else:
        payload["tokens_per_second_per_gpu"] = slots.tokens_per_second_per_gpu
    if slots.gpus_per_node:
        payload["gpus_per_server"] = slots.gpus_per_node
    if slots.headroom is not None:
        payload["headroom"] = slots.headroom
    return Plan(tool="serving_capacity", payload=payload, assumed=assumptions)


def _summarize(call: ToolCall, view: View) -> Summary:
    i, o = call.input, call.output
    headroom = i.get("headroom", 0)
    with_headroom_en = f" with {pct(headroom)} headroom" if headroom else ""
    with_headroom_zh = f"，留 {pct(headroom)} 余量" if headroom else ""
    en = (
        f"**{num(o['servers'])} server{'s' if o['servers'] != 1 else ''}** ({num(o['gpus'])} GPUs) serve{'' if o['servers'] != 1 else 's'} a peak of {num(i['demand_tokens_per_second'])} "
        f"tokens/s{with_headroom_en}: {num(o['needed_tokens_per_second'])} tokens/s needed, {num(o['exact_servers'])} servers exactly."
    )
    zh = (
        f"峰值 {num(i['demand_tokens_per_second'])} token/s{with_headroom_zh}需要 **{num(o['servers'])} 台服务器**"
        f"（{num(o['gpus'])} 张卡）：需承载 {num(o['needed_tokens_per_second'])} token/s，精确值 {num(o['exact_servers'])} 台。"
    )
    if view.asked in {"gpus", "throughput"} and o.get("gpus_needed"):
        # "how many GPUs?": the GPUs the peak needs, then the whole servers they come in ("benchmarked 2,500 tok/s
        # on one H100 … how many H100s?" reads as a throughput question first, a count of GPUs is asked)
        n, servers = o["gpus_needed"], num(o["servers"])
        en = (
            f"**{n} GPUs** serve a peak of {num(i['demand_tokens_per_second'])} tokens/s{with_headroom_en}: "
            f"{num(o['needed_tokens_per_second'])} tokens/s at {num(i['tokens_per_second_per_gpu'])} per GPU; in whole "
            f"servers, {servers} ({num(o['gpus'])} GPUs)."
        )
        zh = (
            f"峰值 {num(i['demand_tokens_per_second'])} token/s{with_headroom_zh}需要 **{n} 张卡**：需承载 "
            f"{num(o['needed_tokens_per_second'])} token/s，每卡 {num(i['tokens_per_second_per_gpu'])}；按整台服务器为 "
            f"{servers} 台（{num(o['gpus'])} 张卡）。"
        )
    rows = [Row(en="Servers", zh="服务器台数", value=num(o["servers"])), Row(en="GPUs", zh="GPU 数量", value=num(o["gpus"])),
            Row(en="Tokens/s needed", zh="需承载 token/s", value=num(o["needed_tokens_per_second"]))]  # fmt: skip
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


CALCULATOR = Calculator(
    name="serving_capacity",
    title=("Serving capacity", "推理服务容量"),
    triggers=words(r"a^"),  # chosen by the figures given: a peak demand and a measured rate
    build=_build,
    summarize=_summarize,
    answers=frozenset({"gpus"}),
)
