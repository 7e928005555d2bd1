"""What GPU-hours cost in the cloud."""

from __future__ import annotations

from typing import Any

from assistant.calculators.common import (
    Assumed,
    Calculator,
    Plan,
    Row,
    Summary,
    View,
    gpu_into,
    money,
    money_into,
    num,
    words,
)
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumptions: list[Assumed] = []
    gpu_into(slots, payload, assumptions)
    if slots.gpu_count and slots.deadline_days:
        payload.update(gpus=slots.gpu_count, days=slots.deadline_days)
    else:
        return None  # chained after training_compute instead, see run_plans
    money_into(slots, payload, catalog)
    if "cloud_price_per_gpu_hour" in payload:
        payload["price_per_gpu_hour"] = payload.pop("cloud_price_per_gpu_hour")
    payload.pop("electricity_price_per_kwh", None)
    return Plan(tool="cloud_cost", payload=payload, assumed=assumptions)


def _summarize(call: ToolCall, view: View) -> Summary:
    o = call.output
    en = (
        f"{num(o['gpu_hours'])} GPU-hours of {o['gpu']} cost about **{money(o['total'], view.first('en'))}** at "
        f"${num(o['price_used_usd_per_gpu_hour'])}/GPU-hour ({o['price_basis']})."
    )
    zh = f"{num(o['gpu_hours'])} 个 {o['gpu']} GPU 小时约 **{money(o['total'], view.first('zh'))}**，按 ${num(o['price_used_usd_per_gpu_hour'])}/卡时计。"
    rows = [Row(en="GPU-hours", zh="GPU 小时", value=num(o["gpu_hours"])),
            Row(en="Price used", zh="单价", value=f"${num(o['price_used_usd_per_gpu_hour'])}/GPU-h"),
            Row(en="Total", zh="合计", value=money(o["total"], view.first())),
            Row(en="At the median price", zh="按中位价", value=money(o.get("total_at_median"), view.first()))]  # fmt: skip
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


CALCULATOR = Calculator(
    name="cloud_cost",
    triggers=words(
        r"cloud cost",
        r"cost (?:on|in) (?:the )?cloud",
        r"rent(?:ing)? (?:gpus|h100|a100)",
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
