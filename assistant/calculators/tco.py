"""Buy vs lease vs cloud over several years."""

from __future__ import annotations

import math
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
from tools.common import HOURS_PER_YEAR
from tools.cost import MONTHS_PER_YEAR, TcoInput


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumptions: list[Assumed] = []
    gpu_into(slots, payload, assumptions)
    payload["gpus"] = gpus_of(slots, catalog) or GPUS_PER_NODE
    if not (slots.gpu_count or slots.servers):
        assumptions.append(assumed("one 8-GPU server", "一台 8 卡服务器"))
    power_into(slots, payload, assumptions)
    if slots.server_power_kw or slots.power_kw or slots.gpu_power_kw:
        payload["power_all_year"] = True  # "it'll draw ~10 kW average", "每台按10kW": that draw, every hour
    if slots.years and slots.years == int(slots.years):
        payload["years"] = int(slots.years)
    elif slots.years:
        payload["months"] = round(slots.years * 12)  # "over 18 months"
    if slots.residual_share is not None:
        payload["residual_share"] = slots.residual_share
    job = _job_months(slots, payload["gpus"])
    if job and not slots.years:
        # "180k GPU-hours (+15%) … or buy 32 GPUs": owning for as long as the job keeps the GPUs busy, so
        # both sides pay for the same GPU-hours
        payload.update(months=round(job, 2), utilization=1.0)
        hours = job * HOURS_PER_MONTH
        assumptions.append(
            assumed(
                f"the period is the job's length: {num(hours * payload['gpus'])} GPU-hours on {payload['gpus']} GPUs "
                f"= {num(hours)} h (about {num(hours / 24)} days) at full use; no resale",
                f"比较期按这项任务的时长：{num(hours * payload['gpus'])} 卡时 ÷ {payload['gpus']} 张卡 = {num(hours)} 小时"
                f"（约 {num(hours / 24)} 天），满负荷运行；不计转售",
            )
        )
    elif slots.utilization:
        payload["utilization"] = slots.utilization
    elif slots.hours_per_year:
        # "一年用满 8000 小时": the share of the year's 8,760 hours the GPUs work
        payload["utilization"] = round(slots.hours_per_year / 8760, 4)
    else:
        assumptions.append(assumed("80% utilisation", "利用率 80%"))
    listed = bool(
        slots.colo_per_month
        or slots.staff_per_year
        or slots.support_per_year
        or slots.power_bill_per_year
        or slots.electricity_price_per_kwh is not None
    )
    if (
        slots.server_price
        and (listed or slots.maintenance_share is not None)
        and slots.network_share is None
        and not slots.network_storage_cost
        and payload["gpus"] > GPUS_PER_NODE
    ):
        # "100台 每台200万 折旧5年 电费… 运维…": the user's own cost model, item by item; a planning share for
        # the network beside it would be a cost they did not list
        payload["network_storage_share"] = 0.0
        assumptions.append(
            assumed(
                "no cluster network or storage added to the server price you gave; give their price or a share "
                "of server capex (e.g. 10%) to add them",
                "整机价之外不另加集群网络和存储；如需计入，请给出价格或占整机款的比例（例如 10%）",
            )
        )
    # ("vendor support $15k/yr": the support quoted replaces any share, in the comparison's currency below)
    if slots.maintenance_share is not None and not slots.support_per_year:
        payload["maintenance_share_per_year"] = slots.maintenance_share
    elif listed and not slots.support_per_year:
        # the user listed their running costs (colocation, people): those are the costs, no default share for
        # support and spares added beside them, which moved verdicts the user's own figures did not
        payload["maintenance_share_per_year"] = 0.0
        assumptions.append(
            assumed(
                "no support or spares added beyond the running costs you gave; give a share of capex per year "
                "(e.g. 10%) to add them",
                "在你给出的运行成本之外不另加维保和备件；如需计入，请给出每年占设备款的比例（例如 10%）",
            )
        )
    money_into(slots, payload, catalog)
    if slots.support_per_year:
        # "vendor support $15k/yr": the support quoted, not a share of capex
        payload["support_per_year"] = amount_in(
            slots.support_per_year, slots.support_currency, payload["currency"], catalog
        )
    if slots.exclude_power and "power_bill_per_year" not in payload:
        payload["electricity_price_per_kwh"] = (
            0.0  # "先不算电费": left out of both sides, said in the assumptions
        )
    own = {
        c
        for amount, c in (
            (slots.monthly_bill, slots.monthly_bill_currency),
            (slots.power_bill_per_year, slots.power_bill_currency),
            (slots.server_price, slots.server_price_currency),
            (slots.gpu_price, slots.gpu_price_currency),
            (slots.lease_per_month, slots.lease_currency),
        )
        if amount
    }
    if len(own) == 1 and not (
        slots.electricity_price_per_kwh or slots.cloud_price_per_gpu_hour or slots.budget
    ):
        payload["currency"] = own.pop() or "USD"  # a bill and a price in yuan: the comparison in yuan
    if "cloud_price_per_gpu_hour" in payload and slots.cloud_price_per_instance:
        # "p5.48xlarge at $98/hr per instance (8 H100)": the instance's hour shared by its GPUs
        per = slots.gpus_per_node or GPUS_PER_NODE
        payload["cloud_price_per_gpu_hour"] = round(payload["cloud_price_per_gpu_hour"] / per, 6)
        assumptions.append(
            assumed(
                f"the cloud price is per {per}-GPU instance-hour: {num(payload['cloud_price_per_gpu_hour'])} per GPU-hour",
                f"云上价格按每台 {per} 卡实例每小时计：每卡时 {num(payload['cloud_price_per_gpu_hour'])}",
            )
        )
    if slots.monthly_bill:
        # "每月云上花 80 万": the bill the team pays now is what buying must beat
        payload.pop("cloud_price_per_gpu_hour", None)
        payload["cloud_per_month"] = amount_in(
            slots.monthly_bill, slots.monthly_bill_currency, payload["currency"], catalog
        )
    if slots.lease_per_month:
        # "lease at $18k per server per month", "租一台每月12万": the payment for the whole fleet
        servers = _servers(payload)
        per = servers if slots.lease_per_server else 1
        lease = slots.lease_per_month * per
        payload["lease_per_month"] = amount_in(lease, slots.lease_currency, payload["currency"], catalog)
        hosted = slots.lease_is_rental and bool(slots.colo_per_month)
        if slots.lease_all_in or hosted:
            # "租的话每月8万（含托管）": the rent is the whole cost of renting; so is a machine rented by the month
            # when a hosting fee is given: that fee is for the machine bought, the rented one sits in the
            # provider's rack ("租一台8卡H800 月租8万 … 买的话托管加电费每月1.5万")
            payload["lease_all_in"] = True
        if hosted and not slots.lease_all_in:
            assumptions.append(
                assumed(
                    "the hosting fee is for the machine bought; the rented one runs in the provider's data centre, "
                    "its rent taken to cover power, hosting and maintenance",
                    "托管费算在自购的机器上；租用的机器放在出租方机房，租金按已含电费、托管和维保计",
                )
            )
        elif slots.lease_is_rental and not slots.lease_all_in:
            # a rented machine is the provider's: its support and spares are in the rent, and the rent runs for
            # as long as the machine is used, not for a lease's term
            payload["lease_includes_maintenance"] = True
            period = (
                payload.get("months") or payload.get("years", TcoInput.model_fields["years"].default) * 12
            )
            payload["lease_term_months"] = math.ceil(
                period
            )  # never short of the period (the input caps it at 120)
            assumptions.append(
                assumed(
                    "the rent includes the machine's maintenance (it is the provider's)",
                    "租金已含机器维保（机器归出租方）",
                )
            )
        if per > 1:
            assumptions.append(
                assumed(
                    f"lease {num(slots.lease_per_month)} per server per month x {servers} servers",
                    f"租金每台每月 {num(slots.lease_per_month)} × {servers} 台",
                )
            )
    if slots.cloud_committed and "cloud_price_per_gpu_hour" in payload:
        payload["cloud_committed"] = True  # "3-year reserved at $1.9/hr": paid for every hour, used or not
        if slots.cloud_on_demand_price:
            # "… or on-demand at $3.60": the hours used at that price, against every hour at the committed one
            payload["cloud_on_demand_price_per_gpu_hour"] = amount_in(
                slots.cloud_on_demand_price, slots.cloud_price_currency, payload["currency"], catalog
            )
    if slots.staff_per_year:
        # "one admin at $150k/yr", "运维2个人每人每年30万": the people who run what is owned or leased
        payload["staff_per_year"] = amount_in(
            slots.staff_per_year, slots.staff_currency, payload["currency"], catalog
        )
        if slots.staff_per_server:
            servers = _servers(payload)
            payload["staff_per_year"] *= servers
            assumptions.append(
                assumed(
                    f"operations {num(slots.staff_per_year)} per server per year x {servers} servers",
                    f"运维每台每年 {num(slots.staff_per_year)} × {servers} 台",
                )
            )
    if slots.power_bill_per_year:
        # "电费每台每年6万": the bill as the user pays it, for every server
        servers = _servers(payload) if slots.power_bill_per_server else 1
        payload["electricity_per_year"] = servers * amount_in(
            slots.power_bill_per_year, slots.power_bill_currency, payload["currency"], catalog
        )
        if servers > 1:
            assumptions.append(
                assumed(
                    f"electricity {num(slots.power_bill_per_year)} per server per year x {servers} servers",
                    f"电费每台每年 {num(slots.power_bill_per_year)} × {servers} 台",
                )
            )
    if slots.colo_per_month:
        _colocation_into(slots, payload, assumptions, catalog)
    if slots.gpu_price and not slots.server_price:
        # "$28k per GPU": the GPUs at that price, plus what the rest of the cluster adds
        payload["capex_per_gpu"] = amount_in(
            slots.gpu_price, slots.gpu_price_currency, payload["currency"], catalog
        )
        if slots.infra_share is not None:
            # "plus 20% for infrastructure": everything besides the GPUs, so no separate network share
            payload.update(platform_share=slots.infra_share, network_storage_share=0.0)
    if slots.server_price:
        # the server's price is in its own currency; the other amounts follow it when they agree
        payload["capex_per_server"] = amount_in(
            slots.server_price, slots.server_price_currency, payload["currency"], catalog
        )
        if slots.budget_all_in and not (slots.network_storage_cost or slots.network_share is not None):
            # "quote $2.6M for 8 nodes incl. networking and storage": nothing to add for the fabric
            payload["network_storage_share"] = 0.0
            assumptions.append(assumed("the quote includes the network and storage", "报价已含网络和存储"))
    if slots.resale_amount and slots.residual_share is None:
        # "三年后能卖60万": what the hardware fetches at the end, as an amount
        payload["resale_value"] = amount_in(
            slots.resale_amount, slots.resale_currency, payload["currency"], catalog
        )
    if slots.network_share is not None and not slots.network_storage_cost:
        payload["network_storage_share"] = (
            slots.network_share
        )  # "网络按整机15%": the user's share of server capex
    if slots.network_storage_cost and (slots.server_price or slots.gpu_price):
        # "network $600k, storage $400k": the user's figures replace the planning share
        payload["network_storage_cost"] = amount_in(
            slots.network_storage_cost, slots.network_storage_currency, payload["currency"], catalog
        )
    ask = (
        None
        if slots.utilization or "months" in payload
        else assumed("How busy will the GPUs be (utilisation)?", "这些卡的预计利用率是多少？")
    )
    return Plan(tool="tco", payload=payload, assumed=assumptions, ask=ask)


def _colocation_into(
    slots: Slots, payload: dict[str, Any], assumptions: list[Assumed], catalog: Catalog
) -> None:
    """Colocation rent as stated: per kW of IT load, per server or per rack (times the count), or in all."""
    rent = amount_in(slots.colo_per_month or 0, slots.colo_currency, payload["currency"], catalog)
    if slots.colo_basis == "kw":
        payload["colocation_per_kw_month"] = rent
        return
    servers = _servers(payload)
    # "一柜放两台" with 8 servers: 4 racks
    racks = slots.racks or (-(-servers // slots.nodes_per_rack) if slots.nodes_per_rack else None)
    count = {"server": servers, "rack": racks or 1}.get(slots.colo_basis or "", 1)
    payload["colocation_per_month"] = rent * count
    if count > 1:
        what_en, what_zh = ("servers", "台") if slots.colo_basis == "server" else ("racks", "个机柜")
        assumptions.append(
            assumed(
                f"colocation {num(slots.colo_per_month)} per {what_en[:-1]} per month x {count} {what_en}",
                f"托管费每月 {num(slots.colo_per_month)} × {count} {what_zh}",
            )
        )
    elif slots.colo_basis == "rack" and not racks:
        assumptions.append(assumed("colocation: one rack", "托管：按一个机柜计"))


_NAMES = {"buy": ("buying", "购买"), "lease": ("leasing", "租赁"), "cloud": ("cloud", "上云")}
_ITEM_ZH = {
    "servers": "服务器",
    "GPUs": "GPU",
    "platform": "CPU/内存/网卡/机箱",
    "network and storage": "网络和存储",
    "capex": "采购价",
    "electricity": "电费",
    "maintenance": "维保",
    "licences": "软件许可",
    "staff": "运维人员",
    "colocation": "托管费",
}


def _priced(i: dict[str, Any]) -> list[str]:
    """The options the user put a price on, in the order buy, lease, cloud."""
    given = {
        "buy": any(i.get(k) for k in ("capex_per_server", "capex_total", "capex_per_gpu")),
        "lease": i.get("lease_per_month") is not None,
        "cloud": any(i.get(k) for k in ("cloud_price_per_gpu_hour", "cloud_per_month")),
    }
    return [k for k, v in given.items() if v]


def _buy_parts(o: dict[str, Any], first: str, zh: bool) -> str:
    """What the buy total is made of: each capex item, then each yearly cost times the years."""
    years = o["years"]
    capex = [
        f"{money(item['amount'], first)} {_ITEM_ZH.get(item['name'], item['name']) if zh else item['name']}"
        for item in o["capex_items"]
        if item["amount"]["usd"]
    ]
    yearly = [
        f"{money(item['amount'], first)} {_ITEM_ZH.get(item['name'], item['name']) if zh else item['name']}"
        for item in o["buy_opex_items"]
        if item["amount"]["usd"]
    ]
    resale = o.get("resale")
    if zh:
        out = "购买 = " + " + ".join(capex)
        if yearly:
            out += f" + {num(years)} 年 × 每年（{' + '.join(yearly)}）"
        return out + (f" − {money(resale, first)} 期末转售" if resale else "") + "。"
    out = "Buying is " + " + ".join(capex)
    if yearly:
        out += f" + {num(years)} {'year' if years == 1 else 'years'} x ({' + '.join(yearly)} per year)"
    return out + (f" - {money(resale, first)} resale at the end" if resale else "") + "."


def _payback_on_rent(
    i: dict[str, Any], o: dict[str, Any], priced: list[str]
) -> tuple[float, dict[str, float]] | None:
    """Months until buying has cost no more than renting, when the user priced renting and no cloud: capex over
    the monthly rent (and the renter's own running costs) less owning's monthly running costs."""
    if "lease" not in priced or "cloud" in priced or not o.get("lease_per_month"):
        return None
    saved = {
        k: o["lease_per_month"][k] + (o["lease_opex_per_year"][k] - o["buy_opex_per_year"][k]) / 12
        for k in ("usd", "cny")
    }
    if saved["usd"] <= 0:
        return None
    return round(o["capex"]["usd"] / saved["usd"], 1), saved


def _summarize(call: ToolCall, view: View) -> Summary:
    i, o = call.input, call.output
    t = o["totals"]
    first_en, first_zh = view.first("en"), view.first("zh")
    priced = _priced(i)
    # two options with the user's own prices: those two decide, the catalog's third is a reference
    weighed = priced if len(priced) == 2 else ["buy", "lease", "cloud"]
    if not o.get("cloud_priced", True):
        weighed = [k for k in weighed if k != "cloud"]  # no cloud price anywhere: owning against leasing only
    best = min(weighed, key=lambda k: t[k]["usd"])
    years_en = _period(o["years"], zh=False)
    en = (
        f"Over {years_en} at {pct(o['utilization'])} utilisation, **{_NAMES[best][0]} is cheapest**: "
        + ", ".join(f"{k} {money(t[k], first_en)}" for k in weighed)
        + "."
    )
    zh = (
        f"{_period(o['years'], zh=True)}、利用率 {pct(o['utilization'])} 时，**{_NAMES[best][1]}最划算**："
        + "，".join(f"{_NAMES[k][1]} {money(t[k], first_zh)}" for k in weighed)
        + "。"
    )
    if len(weighed) == 2:
        other = next(k for k in ("buy", "lease", "cloud") if k not in weighed)
        if other == "cloud" and o.get("cloud_priced", True):
            en += f" (Cloud at the catalog's ${num(o['cloud_usd_per_gpu_hour'])}/GPU-hour would be {money(t['cloud'], first_en)}.)"
            zh += f"（按目录云价 ${num(o['cloud_usd_per_gpu_hour'])}/卡时，上云为 {money(t['cloud'], first_zh)}。）"
    month = o.get("break_even_month")
    share = o.get("break_even_utilization")
    if view.asked == "break_even_util":
        # "at what utilisation does buying win?": the share leads, then the totals at the utilisation assumed;
        # the cloud price as the user gave it ("每卡时15元")
        given = i.get("cloud_price_per_gpu_hour")
        sign = "¥" if i.get("currency") == "CNY" else "$"
        shown = f"{sign}{num(given)}" if given else f"${num(o['cloud_usd_per_gpu_hour'])}"
        price, price_zh = f"{shown}/GPU-hour", f"{shown}/卡时"
        if share is not None:
            en = f"Buying beats cloud at {price} above **{pct(share)} utilisation** over {years_en}. {en}"
            zh = f"{num(o['years'])} 年内，利用率高于 **{pct(share)}** 时自购比按 {price_zh} 上云便宜。{zh}"
        elif i.get("cloud_committed"):
            # "$2.50/gpu-hr reserved": paid for every hour, so there is no break-even share, only a winner
            cheaper = t["buy"]["usd"] <= t["cloud"]["usd"]
            en = (
                f"A reserved price is paid whether the GPUs are busy or not, so at {price} reserved "
                + ("buying is cheaper" if cheaper else "cloud stays cheaper")
                + f" at any utilisation over {years_en}: buy {money(t['buy'], first_en)} against cloud "
                f"{money(t['cloud'], first_en)}. {en}"
            )
            zh = (
                f"预留价格不论卡忙不忙都要付，所以按 {price_zh} 预留，{num(o['years'])} 年内无论利用率多少都是"
                + ("自购更便宜" if cheaper else "上云更便宜")
                + f"：自购 {money(t['buy'], first_zh)}，上云 {money(t['cloud'], first_zh)}。{zh}"
            )
        else:
            en = f"Buying does **not** beat cloud at {price} over {years_en}, even at 100% utilisation. {en}"
            zh = f"{num(o['years'])} 年内即使利用率 100%，自购也**不比**按 {price_zh} 上云便宜。{zh}"
    elif view.asked == "payback" and (rent := _payback_on_rent(i, o, priced)):
        # "租的话7万/台/月，买的话220万/台，托管1.5万，多久回本": against the user's rent, not a catalog cloud price
        months, saved = rent
        en = (
            f"Buying pays for itself against renting in about **{num(months)} months**: {money(o['capex'], first_en)} "
            f"up front, saving {money(saved, first_en)} a month (the rent less owning's monthly costs). {en}"
        )
        zh = (
            f"与租用相比，自购约 **{num(months)} 个月**回本：一次性投入 {money(o['capex'], first_zh)}，每月省下 "
            f"{money(saved, first_zh)}（租金减去自持每月的费用）。{zh}"
        )
    elif view.asked == "payback" and month:
        # "多久回本": the month first, then the totals behind it
        years_in = f" (about {num(month / 12)} years)" if month >= 12 else ""
        years_zh = f"（约 {num(month / 12)} 年）" if month >= 12 else ""
        en = f"Buying pays for itself in **month {month}**{years_in} against the cloud. {en}"
        zh = f"与上云相比，自购约在**第 {month} 个月**回本{years_zh}。{zh}"
    elif view.asked == "payback" and (later := o.get("later_break_even_month")):
        # "break even in months?": the month, even past the period compared
        en = (
            f"Buying pays for itself against the cloud only in **month {later}** (about {num(later / 12)} years), "
            f"after the {num(o['years'])} years compared. {en}"
        )
        zh = f"与上云相比，自购要到**第 {later} 个月**才回本（约 {num(later / 12)} 年），超出比较的 {num(o['years'])} 年。{zh}"
    elif view.asked == "payback":
        en = f"Buying does **not** pay for itself within {num(o['years'])} years against the cloud. {en}"
        zh = f"{num(o['years'])} 年内自购**不能**回本（相对上云）。{zh}"
    elif view.asked == "per_gpu_hour":
        # "total and per GPU-hour": owning's total over the GPU-hours its GPUs work, then the comparison
        hour, hours = o["per_used_gpu_hour"]["buy"], o["used_gpu_hours_per_year"] * o["years"]
        en = (
            f"Owning costs **{money(t['buy'], first_en)} over {years_en}**, **{money(hour, first_en)} per GPU-hour** "
            f"used ({num(hours)} GPU-hours: {o['gpus']} GPUs x 8,760 h x {pct(o['utilization'])} x {num(o['years'])}). {en}"
        )
        zh = (
            f"自购 {num(o['years'])} 年总成本 **{money(t['buy'], first_zh)}**，折合每卡时 **{money(hour, first_zh)}**"
            f"（{num(hours)} 卡时：{o['gpus']} 张 x 8,760 小时 x {pct(o['utilization'])} x {num(o['years'])} 年）。{zh}"
        )
    elif od := o.get("on_demand"):
        # both cloud prices given: which of them is cheaper at the utilisation leads, buying is the reference
        cheaper = od["cheaper"] == "on_demand"
        flexible, committed = money(od["total"], first_en), money(od["committed_total"], first_en)
        even = pct(od["break_even_utilization"])
        rate = {"usd": od["usd_per_gpu_hour"], "cny": od["usd_per_gpu_hour"] * o["usd_to_cny"]}
        rate_en, rate_zh = money(rate, first_en), money(rate, first_zh)
        lead_en = (
            f"At {pct(o['utilization'])} utilisation, **{'on-demand' if cheaper else 'the commitment'} is cheaper**: "
            f"on demand {flexible} (only the hours used, at {rate_en}/GPU-h) against "
            f"{committed} committed (every hour of the {years_en}, used or not); the commitment pays off above "
            f"{even} utilisation."
        )
        flexible_zh, committed_zh = money(od["total"], first_zh), money(od["committed_total"], first_zh)
        lead_zh = (
            f"利用率 {pct(o['utilization'])} 时，**{'按需' if cheaper else '包期承诺'}更便宜**：按需 {flexible_zh}（只付用到的"
            f"小时，每卡时 {rate_zh}），包期 {committed_zh}（{num(o['years'])} 年每个小时都要付，"
            f"用不用都算）；利用率高于 {even} 时包期才划算。"
        )
        # (buying, priced from the catalog when the user named no price, is a reference they did not ask for)
        en, zh = (f"{lead_en} {en}", f"{lead_zh}{zh}") if "buy" in priced else (lead_en, lead_zh)
    elif month and "cloud" in weighed:
        en += f" Buying overtakes cloud in month {month}."
        zh += f"购买在第 {month} 个月追平上云。"
    # the buy total, item by item: the user's quote, the shares assumed, the yearly costs (not when only the two
    # cloud prices were given: buying is then the catalog's reference, in the table)
    if not (o.get("on_demand") and "buy" not in priced):
        en += " " + _buy_parts(o, first_en, zh=False)
        zh += _buy_parts(o, first_zh, zh=True)
    rows = [Row(en="Buy", zh="购买", value=money(t["buy"], view.first())), Row(en="Lease", zh="租赁", value=money(t["lease"], view.first())),
            Row(en="Cloud", zh="上云", value=money(t["cloud"], view.first())),
            Row(en="Cloud price", zh="云上单价", value=f"${num(o['cloud_usd_per_gpu_hour'])}/GPU-h"),
            Row(en="Break-even utilisation", zh="回本利用率", value=pct(share))]  # fmt: skip
    if not o.get("cloud_priced", True):
        rows = rows[:2]  # no cloud price anywhere: a cloud of $0 and a break-even of "-" say nothing
    inputs = [
        Row(en="GPUs", zh="GPU 数量", value=f"{o['gpus']} x {o['gpu']}"),
        Row(en="Years", zh="年限", value=str(o["years"])),
    ]
    return Summary(headline_en=en, headline_zh=zh, inputs=inputs, results=rows)


CALCULATOR = Calculator(
    name="tco",
    title=("Total cost of ownership", "总拥有成本（TCO）"),
    triggers=words(
        r"\btco\b",
        r"total cost of ownership",
        r"buy (?:or|vs\.?|versus) (?:rent|lease|cloud)",
        r"\blease\b",
        r"\bleasing\b",
        r"break[- ]?even",
        # "at what utilisation does buying win?", "利用率多少以上买更划算": the break-even utilisation
        r"what utili[sz]ation[^?]{0,40}(?:buy|own|cloud|rent|lease|win|cheaper|pay)",
        r"利用率[^，。？?]{0,12}(?:买|自建|划算|回本|上云)|(?:买|自建|回本)[^，。？?]{0,16}利用率",
        r"rent (?:or|vs\.?) buy",
        r"on[- ]prem(?:ise)? (?:vs|or)",
        r"总拥有成本",
        # "depreciate over 5 years", "按4年折旧": owning's cost spread over the hardware's life
        r"depreciat\w*",
        r"written off|write[- ]off",
        r"折旧",
        r"(?:\d|几|[一二三四五六七八九十])\s*年(?:的|下来)?\s*总(?:成本|花费|开销)",
        r"租(?:还是|赁)",
        r"买还是租",
        # "自己买 8 卡 H100 还是租云", "buy the servers or just rent in the cloud"
        r"(?:买|自建|自购|采购)[^，,。？?]{0,20}还是\s*(?:租|上云|用云)",
        r"\bbuy\b[^?.]{0,30}\bor\s+(?:just\s+)?(?:rent|lease|use the cloud|go cloud)",
        r"自建还是",
        r"回本",
        r"pay (?:for )?itself",
        r"pays? back",
        r"payback",
        r"上云还是",
        r"(?:哪个|哪种|怎么)(?:更)?(?:划算|便宜|省钱|合算)",
        r"划算",
        r"which (?:one |option )?is cheaper",
        r"cheaper (?:to|over|in the long run)",
        r"more (?:economical|cost[- ]effective)",
    ),
    build=_build,
    summarize=_summarize,
    answers=frozenset({"cost", "payback", "break_even_util", "per_gpu_hour"}),
    follow_ups_en=("What if utilisation is 50%?", "What does the electricity cost per year?"),
    follow_ups_zh=("利用率50%呢？", "每年电费多少？"),
)


HOURS_PER_MONTH = HOURS_PER_YEAR / MONTHS_PER_YEAR  # 730 h, as the TCO calculator counts a month


def _period(years: float, *, zh: bool) -> str:
    """ "3 years", "18 months", "8.86 months": a period that is not a whole number of years in months."""
    if years == int(years):
        return f"{num(years)} 年" if zh else f"{num(years)} year{'' if years == 1 else 's'}"
    months = num(round(years * 12, 2))
    return f"{months} 个月" if zh else f"{months} months"


def _job_months(slots: Slots, gpus: int) -> float | None:
    """The months one job of stated GPU-hours (with any margin) keeps ``gpus`` GPUs busy; None without one."""
    if not (slots.gpu_hours and slots.cloud_price_per_gpu_hour):
        return None
    return slots.gpu_hours * (1 + (slots.headroom or 0)) / gpus / HOURS_PER_MONTH


def _servers(payload: dict[str, Any]) -> int:
    """The 8-GPU servers that hold the payload's GPUs: what per-server rents, leases and running costs count."""
    return -(-int(payload["gpus"]) // GPUS_PER_NODE)
