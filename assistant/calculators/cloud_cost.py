"""What GPU-hours cost in the cloud."""

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
    amount_in,
    assumed,
    gpu_into,
    money,
    money_into,
    num,
    pct,
    words,
)
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog

_PERIOD_DAYS = {"day": 1, "month": 30, "year": 365}


def _instance_gpus(slots: Slots) -> int | None:
    """The GPUs of the instances rented ("4 台 p5.48xlarge": 4 × 8), when machines and not GPUs are counted."""
    if slots.instance_gpus:
        return (slots.servers or 1) * slots.instance_gpus  # "p5.48xlarge … $55/hr, a year": one instance
    return None


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumptions: list[Assumed] = []
    if slots.gpu_hours:
        payload["gpu_hours"] = slots.gpu_hours  # "50k GPU-hours at $2.49": the hours are given
        if slots.headroom:
            payload["margin_share"] = slots.headroom  # "add 15% for failed runs", "留20%余量"
    elif slots.gpu_count and slots.hours_per_year:
        # "8卡 一年用 5000 小时": the GPUs for the hours they are used
        years = slots.years or 1
        payload["gpu_hours"] = round(slots.gpu_count * slots.hours_per_year * years, 2)
        assumptions.append(
            assumed(
                f"{num(slots.hours_per_year)} hours a year x {num(years)} year(s) x {slots.gpu_count} GPUs",
                f"每年 {num(slots.hours_per_year)} 小时 × {num(years)} 年 × {slots.gpu_count} 张卡",
            )
        )
    elif (gpus := slots.gpu_count or _instance_gpus(slots)) and slots.deadline_days:
        payload.update(gpus=gpus, days=slots.deadline_days)
    elif (gpus := slots.gpu_count or _instance_gpus(slots)) and (slots.period in _PERIOD_DAYS or slots.years):
        # "rent 64 H100 at $2.5/GPU-hour for a month", "租一个月", "renting 40 H100 for a year": the GPUs
        # around the clock for that period, at the price given or the catalog's
        days = round(slots.years * 365) if slots.years else _PERIOD_DAYS[slots.period or "month"]
        payload.update(gpus=gpus, days=days)
        assumptions.append(assumed(f"{days} days, around the clock", f"按 {days} 天、全天候使用计"))
    else:
        return None  # chained after training_compute instead, see ToolBox.run_for
    if slots.gpu or not slots.cloud_price_per_gpu_hour:
        gpu_into(slots, payload, assumptions)
    else:
        payload["gpu"] = "h100-sxm"  # a given price does not depend on the card; the catalog needs one
    money_into(slots, payload, catalog)
    if "cloud_price_per_gpu_hour" in payload and slots.cloud_price_per_instance:
        # "$98/hr per instance": the instance's price, divided by its GPUs in the calculator
        payload["price_per_instance_hour"] = payload.pop("cloud_price_per_gpu_hour")
        payload["gpus_per_instance"] = slots.gpus_per_node or GPUS_PER_NODE
    if "cloud_price_per_gpu_hour" in payload:
        payload["price_per_gpu_hour"] = payload.pop("cloud_price_per_gpu_hour")
    if slots.discount_share and ("price_per_gpu_hour" in payload or "price_per_instance_hour" in payload):
        # "with a 30% discount", "打7折", "1yr reserved is 40% off": the price actually paid, beside the listed one
        payload["discount_share"] = slots.discount_share
    payload.pop("electricity_price_per_kwh", None)
    if slots.extras_share:
        payload["extras_share"] = slots.extras_share  # "add 10% for storage/egress"
    if slots.storage_tb and slots.storage_price_per_gb_month:
        # "另外存储 50TB 按 0.12 元/GB/月 存 2 个月": the user's storage line beside the GPU-hours
        payload["storage_tb"] = slots.storage_tb
        payload["storage_price_per_gb_month"] = amount_in(
            slots.storage_price_per_gb_month, slots.storage_price_currency, payload["currency"], catalog
        )
        if slots.retention_days:
            payload["storage_months"] = round(slots.retention_days / 30, 2)
        elif payload.get("days") or slots.deadline_days:
            payload["storage_months"] = round((payload.get("days") or slots.deadline_days or 30) / 30, 2)
        else:
            assumptions.append(assumed("storage kept for one month", "存储按保留一个月计"))
    return Plan(tool="cloud_cost", payload=payload, assumed=assumptions)


def _price(inp: dict[str, Any], out: dict[str, Any]) -> str:
    """The price per GPU-hour as the user gave it ("¥11"), else the catalog's in dollars."""
    given = out.get("price_per_gpu_hour_given")
    if given is not None:
        return f"¥{num(given)}" if inp.get("currency") == "CNY" else f"${num(given)}"
    return f"${num(out['price_used_usd_per_gpu_hour'])}"


def _summarize(call: ToolCall, view: View) -> Summary:
    i, o = call.input, call.output
    given = "price_per_gpu_hour" in i or "price_per_instance_hour" in i
    price = _price(i, o)
    # "180k GPU-hours + 15%": the hours with the margin, and how they were reached
    hours_en = hours_zh = num(o["gpu_hours"])
    if estimate := o.get("gpu_hours_before_margin"):
        hours_en = f"{num(estimate)} GPU-hours + {pct(i.get('margin_share'))} = {num(o['gpu_hours'])}"
        hours_zh = f"{num(estimate)} 卡时 + {pct(i.get('margin_share'))} 余量 = {num(o['gpu_hours'])}"
    en = (
        f"{hours_en} GPU-hours at {price} per GPU-hour cost about **{money(o['total'], view.first('en'))}**"
        + (
            f" ({o['price_basis']})."
            if "price_per_instance_hour" in i
            else "."
            if given
            else f" ({o['gpu']}, {o['price_basis']})."
        )
    )
    per_instance = (
        f"（每台 {i['gpus_per_instance']} 卡实例每小时 {'¥' if i.get('currency') == 'CNY' else '$'}"
        f"{num(i['price_per_instance_hour'])}）"
        if "price_per_instance_hour" in i
        else ""
    )
    zh = f"{hours_zh} 卡时按每卡时 {price}{per_instance}计，约 **{money(o['total'], view.first('zh'))}**" + (
        "。" if given else f"（{o['gpu']}，目录价格）。"
    )
    if before := o.get("total_before_discount"):
        # "$2.49/GPU-hour … and with 30% off?": the bill at the listed price first, then with the discount
        share = pct(i.get("discount_share"))
        saved = {k: before[k] - o["total"][k] for k in before}
        # the hour actually paid, in the currency the price was given in
        paid_each = (o.get("price_per_gpu_hour_given") or o["price_used_usd_per_gpu_hour"]) * (
            1 - (i.get("discount_share") or 0)
        )
        paid = f"¥{num(paid_each)}" if i.get("currency") == "CNY" else f"${num(paid_each)}"
        en = (
            f"{num(o['gpu_hours'])} GPU-hours at {price} per GPU-hour cost about **{money(before, view.first('en'))}**; "
            f"with {share} off, **{money(o['total'], view.first('en'))}** ({paid}/GPU-hour; "
            f"{money(saved, view.first('en'))} less)."
        )
        zh = (
            f"{num(o['gpu_hours'])} 卡时按每卡时 {price}{per_instance} 计约 **{money(before, view.first('zh'))}**；"
            f"优惠 {share} 后约 **{money(o['total'], view.first('zh'))}**（合每卡时 {paid}，省 {money(saved, view.first('zh'))}）。"
        )
    if o.get("storage"):
        # their storage line beside the GPU-hours: the sum leads, then its two parts
        first_en, first_zh = view.first("en"), view.first("zh")
        tb, months = num(i["storage_tb"]), num(i["storage_months"])
        en = (
            f"About **{money(o['total_with_storage'], first_en)}** in all: {num(o['gpu_hours'])} GPU-hours at {price} "
            f"= {money(o['total'], first_en)}, plus {tb} TB of storage for {months} month{'' if months == '1' else 's'} "
            f"= {money(o['storage'], first_en)}."
        )
        zh = (
            f"合计约 **{money(o['total_with_storage'], first_zh)}**：{num(o['gpu_hours'])} 卡时 × {price} = "
            f"{money(o['total'], first_zh)}，加上存储 {tb} TB × {months} 个月 = {money(o['storage'], first_zh)}。"
        )
    if o.get("extras"):
        # "add 10% for storage/egress": the bill with it leads, then the GPUs' part and the share on top
        first_en, first_zh = view.first("en"), view.first("zh")
        share = pct(i.get("extras_share"))
        en = (
            f"About **{money(o['total_with_extras'], first_en)}** in all: {num(o['gpu_hours'])} GPU-hours at {price} "
            f"= {money(o['total'], first_en)}, plus {share} for storage and egress = {money(o['extras'], first_en)}."
        )
        zh = (
            f"合计约 **{money(o['total_with_extras'], first_zh)}**：{num(o['gpu_hours'])} 卡时 × {price} = "
            f"{money(o['total'], first_zh)}，另加 {share} 存储和流量费 = {money(o['extras'], first_zh)}。"
        )
    rows = [Row(en="GPU-hours", zh="GPU 小时", value=num(o["gpu_hours"])),
            Row(en="Price per GPU-hour", zh="每卡时单价", value=price),
            Row(en="Total", zh="合计", value=money(o["total"], view.first()))]  # fmt: skip
    if o.get("storage"):
        rows += [
            Row(en="Storage", zh="存储", value=money(o["storage"], view.first())),
            Row(en="Total with storage", zh="含存储合计", value=money(o["total_with_storage"], view.first())),
        ]
    if o.get("extras"):
        rows += [
            Row(en="Storage, egress and the like", zh="存储、流量等", value=money(o["extras"], view.first())),
            Row(en="Total with them", zh="合计（含以上）", value=money(o["total_with_extras"], view.first())),
        ]
    if not given and o.get("total_at_median"):
        rows.append(
            Row(en="At the median price", zh="按中位价", value=money(o["total_at_median"], view.first()))
        )
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


CALCULATOR = Calculator(
    name="cloud_cost",
    title=("Cloud cost", "云上成本"),
    triggers=words(
        r"cloud cost",
        r"cloud (?:bill|price|spend|invoice)",
        r"(?:the|our|a) bill\b",
        r"what(?:'s| is| would be| will be) (?:the|it) cost",
        r"cost (?:on|in) (?:the )?cloud",
        r"rent(?:ing)? (?:gpus|h100|a100)",
        r"\brent(?:ing|ed)?\b[^?.]{0,40}\b(?:cloud|for (?:a|one|\d+) (?:year|month|week)s?)\b",
        r"\b(?:in|on|from) the cloud\b",
        r"租(?:云|用)|上云|云上",
        r"how much .*cost",
        r"what will it cost",
        r"云上.*(?:多少钱|费用|成本)",
        r"租.*(?:多少钱|费用)",
        r"多少钱",
        r"费用",
        r"成本",
    ),
    build=_build,
    summarize=_summarize,
    answers=frozenset({"cost"}),
)
