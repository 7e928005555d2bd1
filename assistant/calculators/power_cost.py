"""Power draw at the wall and the yearly electricity bill."""

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
    money,
    money_into,
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
    gpu_into(slots, payload, assumptions)
    payload["gpus"] = slots.gpu_count or GPUS_PER_NODE
    if not slots.gpu_count:
        assumptions.append(assumed("one 8-GPU server", "一台 8 卡服务器"))
    if slots.utilization:
        payload["utilization"] = slots.utilization
    money_into(slots, payload, catalog)
    payload.pop("cloud_price_per_gpu_hour", None)
    return Plan(tool="power_cost", payload=payload, assumed=assumptions,
                ask=None if slots.electricity_price_per_kwh else assumed("What do you pay per kWh?", "你们的电价是多少（元/度）？"))  # fmt: skip


def _summarize(call: ToolCall, view: View) -> Summary:
    o = call.output
    cost = o["yearly_energy_cost"]
    en = (
        f"{o['installed_gpus']} x {o['gpu']} draw about **{num(o['wall_power_kw'])} kW at the wall** (PUE {num(o['pue'])}), "
        f"{num(o['energy_mwh_per_year'])} MWh a year at {pct(o['utilization'])} use: **{money(cost, view.first('en'))} per year** in electricity."
    )
    zh = (
        f"{o['installed_gpus']} 张 {o['gpu']} 在市电侧约 **{num(o['wall_power_kw'])} kW**（PUE {num(o['pue'])}），"
        f"利用率 {pct(o['utilization'])} 时每年 {num(o['energy_mwh_per_year'])} MWh，电费约 **{money(cost, view.first('zh'))} / 年**。"
    )
    rows = [Row(en="GPU power", zh="GPU 功耗", value=f"{num(o['gpu_power_kw'])} kW"),
            Row(en="IT power", zh="IT 负载", value=f"{num(o['it_power_kw'])} kW"),
            Row(en="Wall power", zh="市电侧功率", value=f"{num(o['wall_power_kw'])} kW"),
            Row(en="Energy per year", zh="年耗电", value=f"{num(o['energy_mwh_per_year'])} MWh"),
            Row(en="Electricity per year", zh="年电费", value=money(cost, view.first()))]  # fmt: skip
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


CALCULATOR = Calculator(
    name="power_cost",
    triggers=words(
        r"power (?:draw|consumption|cost|bill)",
        r"electricity",
        r"energy (?:cost|use)",
        r"\bkw\b.*(?:need|draw)",
        r"电费",
        r"功耗",
        r"耗电",
        r"用电",
        r"供电",
    ),
    build=_build,
    summarize=_summarize,
    answers=frozenset({"cost", "power"}),
)
