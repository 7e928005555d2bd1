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
    gpus_of,
    money,
    money_into,
    num,
    pct,
    power_into,
    words,
)
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumptions: list[Assumed] = []
    gpu_into(slots, payload, assumptions)
    gpus = gpus_of(slots, catalog)
    if gpus:
        payload["gpus"] = gpus
    elif not slots.server:
        payload["gpus"] = GPUS_PER_NODE
        if not (slots.power_kw or slots.server_power_kw or slots.gpu_power_kw):
            assumptions.append(assumed("one 8-GPU server", "一台 8 卡服务器"))
    power_into(slots, payload, assumptions)
    if slots.utilization:
        payload["utilization"] = slots.utilization
    elif slots.power_kw or slots.gpu_power_kw or (slots.server_power_kw and not slots.power_is_rating):
        payload["utilization"] = 1.0  # a stated draw is the draw: all year, unless a utilisation is given
        assumptions.append(assumed("the stated power is drawn all year round", "按所述功率全年持续运行计算"))
    money_into(slots, payload, catalog)
    payload.pop("cloud_price_per_gpu_hour", None)
    if slots.years and slots.years > 1:
        payload["years"] = slots.years  # "那3年呢": the bill over the years
    if slots.circuit_amps:
        payload.update(circuit_amps=slots.circuit_amps, circuit_volts=slots.circuit_volts or 120)
    if slots.compare_pue and slots.compare_pue != slots.pue:
        payload["compare_pue"] = slots.compare_pue  # "PUE 1.5 vs 1.2": the bill in each facility
    return Plan(tool="power_cost", payload=payload, assumed=assumptions,
                ask=None if slots.electricity_price_per_kwh else assumed("What do you pay per kWh?", "你们的电价是多少（元/度）？"))  # fmt: skip


def _summarize(call: ToolCall, view: View) -> Summary:
    o = call.output
    cost = o["yearly_energy_cost"]
    i = call.input
    if o.get("server"):
        what_en, what_zh = f"{o['servers']} x {o['server']}", f"{o['servers']} 台 {o['server']}"
    elif i.get("servers") or i.get("it_power_kw") or i.get("wall_power_kw"):
        n = i.get("servers")
        what_en = f"{n} server{'s' if n != 1 else ''}" if n else "the equipment"
        what_zh = f"{n} 台服务器" if n else "这些设备"
    else:
        what_en, what_zh = f"{o['installed_gpus']} x {o['gpu']}", f"{o['installed_gpus']} 张 {o['gpu']}"
    if (difference := o.get("yearly_difference")) is not None:
        # "PUE 1.5 vs 1.2, how much a year?": the difference first, then each facility's bill
        first = view.first("en")
        saved = {k: abs(v) for k, v in difference.items()}
        cheaper, dearer = sorted([(o["pue"], cost), (o["compare_pue"], o["compare_yearly_energy_cost"])],
                                 key=lambda pair: pair[1]["usd"])  # fmt: skip
        it = num(o["it_power_kw"])
        en = (
            f"PUE {num(cheaper[0])} saves about **{money(saved, first)} a year** against PUE {num(dearer[0])}: "
            f"{money(cheaper[1], first)} vs {money(dearer[1], first)} for {it} kW of IT load at "
            f"{pct(o['utilization'])} use."
        )
        zh = (
            f"PUE {num(cheaper[0])} 比 PUE {num(dearer[0])} 每年约省 **{money(saved, view.first('zh'))}**："
            f"{money(cheaper[1], view.first('zh'))} 对 {money(dearer[1], view.first('zh'))}（IT 负载 {it} kW，"
            f"使用率 {pct(o['utilization'])}）。"
        )
        rows = [
            Row(en=f"PUE {num(o['pue'])}", zh=f"PUE {num(o['pue'])}", value=money(cost, first)),
            Row(en=f"PUE {num(o['compare_pue'])}", zh=f"PUE {num(o['compare_pue'])}",
                value=money(o["compare_yearly_energy_cost"], first)),
            Row(en="Difference per year", zh="每年差额", value=money(saved, first)),
        ]  # fmt: skip
        return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)
    draw_en = f"{num(o['wall_power_kw'])} kW at the wall (PUE {num(o['pue'])})"
    draw_zh = f"市电侧 {num(o['wall_power_kw'])} kW（PUE {num(o['pue'])}）"
    # no tariff given and no money asked ("1000张H100需要多大的电力和多少台交换机"): the draw is the answer
    draw_asked = (
        view.asked not in {"cost", "payback"} and "electricity_price_per_kwh" not in i and not i.get("years")
    )
    if view.asked == "cooling":
        # "制冷量要多少 BTU/h 和冷吨": the heat the IT load gives off is what the cooling must remove
        heat, tons = num(o["heat_btu_per_hour"]), num(o["cooling_tons"])
        it = num(o["it_power_kw"])
        en = (
            f"The cooling must remove about **{heat} BTU/h ({tons} tons of refrigeration)**: the {it} kW that "
            f"{what_en} draw all end as heat; the facility then draws {draw_en}."
        )
        zh = (
            f"制冷量约需 **{heat} BTU/h（{tons} 冷吨）**：{what_zh}的 {it} kW IT 负载全部转化为热量；"
            f"设施总用电为{draw_zh}。"
        )
    elif view.asked == "power" or (draw_asked and view.asked is not None and view.period is None):
        # the equipment's own draw first (what a rack and its PDUs must carry), then the facility's
        # several machines: what one of them draws too, the figure a rack plan starts from
        servers = o.get("servers") or (o["installed_gpus"] // 8 if o["installed_gpus"] % 8 == 0 else 0)
        each_en = each_zh = ""
        if servers > 1:
            each = num(o["it_power_kw"] / servers)
            each_en = f"{each} kW per {'server' if o.get('server') else '8-GPU server'}, "
            each_zh = f"每台{'' if o.get('server') else ' 8 卡服务器'} {each} kW，"
        # the bill only when a tariff was given: a question about the draw is not one about money
        bill_en = (
            f"; electricity {money(cost, view.first('en'))} per year"
            if "electricity_price_per_kwh" in i
            else ""
        )
        bill_zh = f"，年电费约 {money(cost, view.first('zh'))}" if "electricity_price_per_kwh" in i else ""
        # no facility cooling counted (a desk-side workstation at PUE 1): the draw is the wall's
        cooled_en = f"; with cooling, {draw_en}" if o["pue"] > 1 else ""
        cooled_zh = f"；算上制冷，{draw_zh}" if o["pue"] > 1 else ""
        en = (
            f"{what_en} draw about **{num(o['it_power_kw'])} kW** ({each_en}IT load, {num(o['gpu_power_kw'])} kW of it the GPUs)"
            f"{cooled_en}{bill_en}."
        )
        zh = (
            f"{what_zh} 功率约 **{num(o['it_power_kw'])} kW**（{each_zh}IT 负载，其中 GPU {num(o['gpu_power_kw'])} kW）"
            f"{cooled_zh}{bill_zh}。"
        )
    elif view.asked == "per_gpu_hour":
        # "满载 per GPU-hour 电费多少": the wall's draw shared by the GPUs, for one hour of work
        hourly = o["energy_cost_per_gpu_hour"]
        share = num(o["wall_power_kw"] / o["installed_gpus"])
        if "electricity_price_per_kwh" in i:
            sign = "¥" if i.get("currency") == "CNY" else "$"
            rate = f"{sign}{num(i['electricity_price_per_kwh'])}/kWh"
        else:
            rate = f"${num(o['electricity_usd_per_kwh'])}/kWh"
        en = (
            f"About **{money(hourly, view.first('en'))} per GPU-hour** in electricity: each GPU's share of "
            f"{what_en} at the wall is {share} kW ({draw_en}), at {rate}."
        )
        zh = (
            f"每卡时电费约 **{money(hourly, view.first('zh'))}**：{what_zh}，{draw_zh}，"
            f"每张卡分摊 {share} kW，电价 {rate}。"
        )
    elif o.get("cost_over_years"):
        years, total = num(i["years"]), o["cost_over_years"]
        en = (
            f"About **{money(total, view.first('en'))} over {years} years** in electricity ({money(cost, view.first('en'))} "
            f"a year): {what_en} at {draw_en}, {pct(o['utilization'])} of the time."
        )
        zh = (
            f"{years} 年电费约 **{money(total, view.first('zh'))}**（每年 {money(cost, view.first('zh'))}）："
            f"{what_zh}，{draw_zh}，运行时间占 {pct(o['utilization'])}。"
        )
    elif view.period == "month":
        month = o["monthly_energy_cost"]
        en = (
            f"About **{money(month, view.first('en'))} per month** in electricity ({money(cost, view.first('en'))} a year): "
            f"{what_en} at {draw_en}, {pct(o['utilization'])} of the time."
        )
        zh = (
            f"每月电费约 **{money(month, view.first('zh'))}**（每年 {money(cost, view.first('zh'))}）："
            f"{what_zh}，{draw_zh}，运行时间占 {pct(o['utilization'])}。"
        )
    else:
        en = (
            f"About **{money(cost, view.first('en'))} per year** in electricity: {what_en} at {draw_en}, "
            f"{num(o['energy_mwh_per_year'])} MWh at {pct(o['utilization'])} use."
        )
        zh = (
            f"每年电费约 **{money(cost, view.first('zh'))}**：{what_zh}，{draw_zh}，"
            f"利用率 {pct(o['utilization'])} 时年耗电 {num(o['energy_mwh_per_year'])} MWh。"
        )
    if o.get("fits_circuit") is not None:
        # "can it run off a normal 15A outlet?": the verdict against what the circuit carries continuously
        amps, volts, circuit = num(i["circuit_amps"]), num(i["circuit_volts"]), num(o["circuit_kw"])
        load = num(o["it_power_kw"])
        if o["fits_circuit"]:
            en = f"Yes: {what_en} draw about **{load} kW**, within the {circuit} kW a {amps} A, {volts} V circuit carries continuously (80% of its rating). {en}"
            zh = f"可以：{what_zh} 约 **{load} kW**，在 {volts} V、{amps} A 线路可持续承载的 {circuit} kW（额定的 80%）之内。{zh}"
        else:
            en = f"No: {what_en} draw about **{load} kW**, more than the {circuit} kW a {amps} A, {volts} V circuit carries continuously (80% of its rating); give it a dedicated higher-rated circuit. {en}"
            zh = f"不行：{what_zh} 约 **{load} kW**，超过 {volts} V、{amps} A 线路可持续承载的 {circuit} kW（额定的 80%），需要单独拉一路更大容量的线路。{zh}"
    rows = [Row(en="GPU power", zh="GPU 功耗", value=f"{num(o['gpu_power_kw'])} kW"),
            Row(en="IT power", zh="IT 负载", value=f"{num(o['it_power_kw'])} kW"),
            Row(en="Wall power", zh="市电侧功率", value=f"{num(o['wall_power_kw'])} kW"),
            Row(en="Energy per year", zh="年耗电", value=f"{num(o['energy_mwh_per_year'])} MWh"),
            Row(en="Electricity per month", zh="月电费", value=money(o["monthly_energy_cost"], view.first())),
            Row(en="Electricity per year", zh="年电费", value=money(cost, view.first()))]  # fmt: skip
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


CALCULATOR = Calculator(
    name="power_cost",
    title=("Power and electricity", "功耗与电费"),
    triggers=words(
        r"power (?:draw|consumption|cost|bill)",
        r"how (?:much|many) (?:power|kw|kilowatts|watts)",
        r"\bdraws?\b",
        r"多少(?:千瓦|瓦|电|kw)",
        r"electricity",
        r"energy (?:cost|use)",
        r"\bkw\b.*(?:need|draw)",
        r"电费",
        r"(?:多大|多少)的?\s*(?:电力|功率|供电|电容量)",
        r"how much power\b",
        # "how much extra power are those 192 gpus pulling"
        r"how much (?:extra|more|additional) (?:power|kw|electricity)",
        r"\bpower\b[^?.]{0,30}\b(?:pull|pulling|draw|drawing|use|using|consume|consuming)\b",
        # "planning 4 NVL72 racks. power?", "272 张卡 total power 多少", "总功率多少"
        r"\bpower\s*[?？]",
        r"\btotal power\b",
        r"\bpower (?:needed|required|requirement|budget)",
        r"总功率|功率多少|要多少电",
        r"功耗",
        r"耗电",
        r"用电",
        r"供电",
        # "what psu / electrical do we need", "电源要多大": the supply and the circuit that feed the machine
        r"\bpsus?\b",
        r"power suppl(?:y|ies)",
        r"\belectrical\b",
        r"电源(?:要|需要|多大|功率|配)",
    ),
    build=_build,
    summarize=_summarize,
    answers=frozenset({"cost", "power"}),
)
