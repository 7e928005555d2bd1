"""Cost per million output tokens from a GPU-hour price and a measured tokens/s per GPU."""

from __future__ import annotations

from typing import Any

from assistant.calculators.common import Assumed, Calculator, Plan, Row, Summary, View, money, num, words
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    if not (
        slots.cloud_price_per_gpu_hour and (slots.tokens_per_second_per_gpu or slots.node_tokens_per_second)
    ):
        return None
    payload: dict[str, Any] = {
        "price_per_gpu_hour": slots.cloud_price_per_gpu_hour,
        "currency": slots.cloud_price_currency or "USD",
    }
    if slots.tokens_per_second_per_gpu:
        payload["tokens_per_second_per_gpu"] = slots.tokens_per_second_per_gpu
    else:
        payload["tokens_per_second_per_server"] = slots.node_tokens_per_second
        payload["gpus_per_server"] = (
            slots.gpus_per_node or (slots.gpu_count if (slots.gpu_count or 0) <= 72 else None) or 8
        )
    if slots.utilization:
        payload["utilization"] = slots.utilization
    assumptions: list[Assumed] = []
    return Plan(tool="serving_cost", payload=payload, assumed=assumptions)


def _summarize(call: ToolCall, view: View) -> Summary:
    i, o = call.input, call.output
    cost = o["cost_per_million_tokens"]
    price = (
        f"¥{num(i['price_per_gpu_hour'])}"
        if i.get("currency") == "CNY"
        else f"${num(i['price_per_gpu_hour'])}"
    )
    first = view.currency or i.get("currency", "USD")
    rate = num(o["tokens_per_second_per_gpu"])
    if i.get("tokens_per_second_per_server"):
        server = num(i["tokens_per_second_per_server"])
        gpus = i.get("gpus_per_server", 8)
        rate_en = f"{server} tokens/s per server of {gpus} GPUs ({rate} per GPU)"
        rate_zh = f"单台 {gpus} 卡每秒 {server} token（每卡 {rate}）"
    else:
        rate_en, rate_zh = f"{rate} tokens/s per GPU", f"每卡每秒 {rate} token"
    en = (
        f"About **{money(cost, first)} per million output tokens**: at {price} per GPU-hour and {rate_en}, "
        f"a GPU-hour yields {num(o['tokens_per_hour'] / 1e6)}M tokens."
    )
    zh = (
        f"每百万输出 token 约 **{money(cost, first)}**：每卡时 {price}，按{rate_zh}，"
        f"每卡时产出 {num(o['tokens_per_hour'] / 1e6)}M token。"
    )
    rows = [Row(en="Tokens per GPU-hour", zh="每卡时 token 数", value=num(o["tokens_per_hour"])),
            Row(en="Cost per 1M tokens", zh="每百万 token 成本", value=money(cost, first))]  # fmt: skip
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


CALCULATOR = Calculator(
    name="serving_cost",
    title=("Cost per million tokens", "每百万 token 成本"),
    triggers=words(
        r"per (?:1m|million|1,000,000|1k|thousand) (?:output )?tokens?",
        r"(?:每|一)百万\s*(?:个)?\s*token",
        r"per mtok",
    ),
    build=_build,
    summarize=_summarize,
    answers=frozenset({"cost"}),
)
