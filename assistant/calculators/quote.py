"""A quote's total in both currencies, and its amortisation per month."""

from __future__ import annotations

from typing import Any

from assistant.calculators.common import (
    GPUS_PER_NODE,
    Calculator,
    Plan,
    Row,
    Summary,
    View,
    money,
    num,
    pct,
    words,
)
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    """The price the user quoted: a server's (times the servers), a GPU's (times the GPUs), or a whole quote."""
    if slots.server_price:
        price, currency, count = slots.server_price, slots.server_price_currency, slots.servers or 1
        per_item = slots.gpus_per_node or GPUS_PER_NODE
    elif slots.gpu_price:
        price, currency, count, per_item = slots.gpu_price, slots.gpu_price_currency, slots.gpu_count or 1, 1
    elif slots.budget:
        # "a quote of $2.6M for 8 nodes": the whole quote, over all its GPUs
        gpus = slots.gpu_count or (slots.servers or 0) * (slots.gpus_per_node or GPUS_PER_NODE)
        price, currency, count, per_item = slots.budget, slots.budget_currency, 1, gpus
    else:
        return None
    payload: dict[str, Any] = {"unit_price": price, "currency": currency or "USD", "count": count}
    share = slots.network_share if slots.network_share is not None else slots.infra_share
    if share:
        payload["extra_share"] = share  # "再加15%网络存储": on top of the machines
    if slots.years:
        payload["months"] = round(slots.years * 12, 2)  # "amortize over 4 years": 48 months
    if per_item:
        payload["gpus_per_item"] = per_item  # what each GPU costs, and per GPU-hour when amortised
    return Plan(tool="quote", payload=payload)


def _unit(i: dict[str, Any]) -> str:
    return f"{'¥' if i.get('currency') == 'CNY' else '$'}{num(i['unit_price'])}"


def _summarize(call: ToolCall, view: View) -> Summary:
    i, o = call.input, call.output
    first = view.currency or ("USD" if i.get("currency") == "CNY" else "CNY")  # the other currency is asked
    rate = num(o["usd_to_cny"])
    count, share = i.get("count", 1), i.get("extra_share", 0)
    steps_en, steps_zh = [], []
    if count > 1:
        steps_en.append(f"{count} x {_unit(i)} = {money(o['items'], first)}")
        steps_zh.append(f"{count} × {_unit(i)} = {money(o['items'], first)}")
    if share:
        steps_en.append(f"plus {pct(share)} ({money(o['extra'], first)})")
        steps_zh.append(f"再加 {pct(share)}（{money(o['extra'], first)}）")
    made_en = f" ({', '.join(steps_en)})" if steps_en else ""
    made_zh = f"（{'，'.join(steps_zh)}）" if steps_zh else ""
    if o.get("per_month"):
        months = num(i["months"])
        en = (
            f"**{money(o['per_month'], first)} a month** ({money(o['per_year'], first)} a year): "
            f"{money(o['total'], first)}{made_en} over {months} months, straight-line, at {rate} CNY per USD."
        )
        zh = (
            f"每月约 **{money(o['per_month'], first)}**（每年 {money(o['per_year'], first)}）："
            f"{money(o['total'], first)}{made_zh} 按 {months} 个月直线摊销，汇率 {rate}。"
        )
        if o.get("per_gpu_hour"):
            en += f" That is {money(o['per_gpu_hour'], first)} per GPU-hour of the period."
            zh += f"折合每卡时 {money(o['per_gpu_hour'], first)}。"
    else:
        en = f"**{money(o['total'], first)}** in all{made_en}, at {rate} CNY per USD."
        zh = f"合计 **{money(o['total'], first)}**{made_zh}，汇率按 {rate} 计。"
        if count == 1 and not share:
            en = f"{_unit(i)} is **{money(o['total'], first)}** at {rate} CNY per USD."
            zh = f"{_unit(i)} 约合 **{money(o['total'], first)}**（汇率按 {rate} 计）。"
    rows = [Row(en="Total", zh="合计", value=money(o["total"], first))]
    gpus = count * (i.get("gpus_per_item") or 0)
    if gpus > 1:
        # "and per GPU?": the quote over the GPUs it buys
        each = money({k: v / gpus for k, v in o["total"].items()}, first)
        rows.append(Row(en="Per GPU", zh="每卡", value=each))
        if not o.get("per_month"):
            en += f" Per GPU: **{each}** ({num(gpus)} GPUs)."
            zh += f"折合每卡 **{each}**（共 {num(gpus)} 张）。"
    if o.get("per_month"):
        rows.append(Row(en="Per month", zh="每月", value=money(o["per_month"], first)))
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


CALCULATOR = Calculator(
    name="quote",
    title=("Quote total", "报价合计"),
    triggers=words(
        # "换成人民币多少", "and in yuan?", "what's that in USD": the quote in the other currency
        r"(?:换|换算|折合|折|合)成?\s*(?:人民币|rmb|美元|美金|usd)",
        r"(?:人民币|美元)(?:是)?多少",
        r"\bin (?:yuan|rmb|cny|renminbi|usd|us dollars|dollars)\b",
        r"\bto (?:yuan|rmb|cny|usd)\b",
        # "amortize over 4 years, per month", "按4年摊销每月多少"
        r"\bamorti[sz]\w*",
        r"摊销|按月摊|分摊到每个?月",
    ),
    build=_build,
    summarize=_summarize,
    answers=frozenset({"cost"}),
    follow_ups_en=("And spread over 3 years, per month?",),
    follow_ups_zh=("按 3 年摊销每月多少？",),
)
