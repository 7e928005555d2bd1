"""What a hardware budget buys: whole servers, with or without the cluster's network and storage."""

from __future__ import annotations

from typing import Any

from assistant.calculators.common import (
    GPUS_PER_NODE,
    Assumed,
    Brief,
    Calculator,
    Plan,
    Row,
    Summary,
    View,
    assumed,
    gpu_into,
    money,
    num,
    pct,
    words,
)
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog
from tools.common import HOURS_PER_YEAR


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    if not slots.budget and slots.server_price and (slots.gpu or slots.server):
        # a quoted server price with nothing to spend: the quote against the catalog's price for that server
        quote: dict[str, Any] = {"budget": slots.server_price, "currency": slots.server_price_currency or "USD",
                                 "gpus_per_server": slots.gpus_per_node or GPUS_PER_NODE, "quote": True}  # fmt: skip
        quote.update({"server": slots.server} if slots.server else {"gpu": slots.gpu})
        return Plan(tool="budget_fit", payload=quote)
    if not slots.budget:
        return None
    assumptions: list[Assumed] = []
    payload: dict[str, Any] = {"budget": slots.budget, "currency": slots.budget_currency or "USD"}
    if slots.gpu in slots.server_quotes:
        # "供应商报价 H20 8卡整机 110万/台": this card's server at the user's quote
        payload["capex_per_server"] = _in_currency(
            slots.server_quotes[slots.gpu],
            slots.server_quotes_currency,
            payload["currency"],
            slots,
            catalog,
            assumptions,
        )
    elif (rent := _rent_per_server(slots)) is not None:
        # "8卡H20 月租4.5万一台，500万能租几台用3年": the money pays each server's rent for the whole period
        monthly, currency, months = rent
        if not slots.years:
            # "要是全拿去租呢，8 卡 H800 整机月租 7 万" after a budget: a year of rent, and the server-months in all
            in_budget = _in_currency(monthly, currency, payload["currency"], slots, catalog, [])
            server_months = slots.budget / in_budget if in_budget else 0
            assumptions.append(
                assumed(
                    f"rented for 12 months (no period given); the budget pays {num(server_months)} server-months "
                    "in all, so fewer servers for longer or more for less",
                    f"按租 12 个月计（未给租期）；这笔预算一共可付 {num(server_months)} 台·月的租金，租得越久台数越少",
                )
            )
        payload["capex_per_server"] = _in_currency(
            monthly * months, currency, payload["currency"], slots, catalog, assumptions
        )
        payload["rent_months"] = months
        payload["network_storage_share"] = 0.0  # a rented server comes with its host's network
    elif slots.server_price:
        # "budget $500k, 汇率按7.1, 报价 ¥3,200,000 一台": the quote in the budget's currency, at their rate
        payload["capex_per_server"] = _in_currency(
            slots.server_price, slots.server_price_currency, payload["currency"], slots, catalog, assumptions
        )
    if slots.server:
        payload["server"] = slots.server
    elif not (slots.unknown_gpu and slots.server_price):
        gpu_into(slots, payload, assumptions)
        if "gpu" not in payload:
            return None  # a card the catalog does not hold and no price for its servers
    payload["gpus_per_server"] = slots.gpus_per_node or GPUS_PER_NODE
    if slots.network_storage_cost and "rent_months" not in payload:
        # "存储整体 200 万": bought once whatever the count, so it comes out of the budget before the servers
        payload["set_aside"] = _in_currency(
            slots.network_storage_cost,
            slots.network_storage_currency,
            payload["currency"],
            slots,
            catalog,
            assumptions,
        )
    if "rent_months" in payload:
        pass  # a rented server's network is its host's: no share of the budget kept for a fabric
    elif slots.network_reserve is not None and slots.network_reserve < 1:
        # "网络存储留20%": a fifth of the budget for the fabric is a quarter on top of the servers' price
        payload["network_storage_share"] = round(slots.network_reserve / (1 - slots.network_reserve), 6)
        assumptions.append(
            assumed(
                f"{slots.network_reserve:.0%} of the budget kept for network and storage",
                f"预算的 {slots.network_reserve:.0%} 留给网络和存储",
            )
        )
    elif slots.network_share is not None:
        # "网络按整机10%", "add 15% of server cost for the IB fabric": on top of each server's price
        payload["network_storage_share"] = slots.network_share
    elif slots.budget_all_in:
        # "$1.2M capex all-in, networking and storage included": the planning share comes out of the budget
        payload["network_storage_share"] = 0.15
        payload["share_assumed"] = True
        assumptions.append(
            assumed(
                "network and storage: 15% of the servers' price, paid from the budget (a planning share)",
                "网络和存储按服务器价格的 15% 计，从预算中支出（规划比例）",
            )
        )
    return Plan(tool="budget_fit", payload=payload, assumed=assumptions)


def _in_currency(
    amount: float,
    currency: str | None,
    wanted: str,
    slots: Slots,
    catalog: Catalog,
    assumptions: list[Assumed],
) -> float:
    """``amount`` (in ``currency``, dollars when unsaid) in the ``wanted`` currency, at the user's exchange rate
    or, with an assumption saying so, the catalog's."""
    have = currency or "USD"
    if have == wanted:
        return amount
    rate = slots.usd_to_cny or catalog.defaults.usd_to_cny
    if not slots.usd_to_cny:
        assumptions.append(assumed(f"USD 1 = CNY {rate:g}", f"汇率按 1 美元 = {rate:g} 元"))
    return round(amount * rate if have == "USD" else amount / rate, 2)


def _rent_per_server(slots: Slots) -> tuple[float, str, float] | None:
    """One server's monthly rent, its currency, and the months rented, when the budget is to pay rent: a
    monthly rent per server ("月租4.5万一台") or a price per GPU-hour ("$2.20/GPU-hr"), for a stated period."""
    months = round(slots.years * 12, 4) if slots.years else None
    per_server = slots.gpus_per_node or GPUS_PER_NODE
    if slots.lease_per_month and slots.lease_is_rental and not months:
        return slots.lease_per_month, slots.lease_currency or "USD", 12.0  # a year, said in the answer
    if not months:
        return None
    if slots.lease_per_month:
        return slots.lease_per_month, slots.lease_currency or "USD", months
    if slots.cloud_price_per_gpu_hour:
        hours = HOURS_PER_YEAR / 12  # a rented GPU is paid for every hour of the month
        price = slots.cloud_price_per_gpu_hour * per_server * hours
        return price, slots.cloud_price_currency or "USD", months
    return None


def _summarize(call: ToolCall, view: View) -> Summary:
    o, i = call.output, call.input
    first = view.currency or i.get("currency", "USD")
    gpu, per = o["gpu"], i.get("gpus_per_server", GPUS_PER_NODE)
    price, all_in = money(o["server_price"], first), money(o["per_server_all_in"], first)
    budget = money(
        {"usd": o["spent"]["usd"] + o["left"]["usd"], "cny": o["spent"]["cny"] + o["left"]["cny"]}, first
    )
    if o["servers"] == 0:
        en = f"**None**: {budget} is less than one {per}-GPU {gpu} server at about {price}."
        zh = f"**一台也买不起**：{budget} 不够一台 {per} 卡 {gpu} 服务器（约 {price}）。"
    elif months := i.get("rent_months"):
        # the money spent on rent for the whole period, not on hardware
        n = o["servers"]
        en = (
            f"{budget} rents **{n} server{'s' if n != 1 else ''}** ({o['gpus']} x {gpu}) for {num(months)} months "
            f"at about {price} each over the period, {money(o['left'], first)} left."
        )
        zh = (
            f"{budget} 能租 **{n} 台服务器**（{o['gpus']} 张 {gpu}）用满 {num(months)} 个月，每台整个租期约 {price}，"
            f"剩余 {money(o['left'], first)}。"
        )
    else:
        en = (
            f"{budget} buys **{o['servers']} server{'s' if o['servers'] != 1 else ''}** ({o['gpus']} x {gpu}) at about {price} each, "
            f"{money(o['left'], first)} left."
        )
        zh = f"{budget} 能买 **{o['servers']} 台服务器**（{o['gpus']} 张 {gpu}），每台约 {price}，剩余 {money(o['left'], first)}。"
        if o.get("fabric_share_given") and o["servers_with_fabric"] == o["servers"]:
            # the share they add for network and storage still leaves the same count: say it is counted
            n = o["servers"]
            whole = {k: o["spent"][k] + o["left"][k] for k in ("usd", "cny")}
            spent = {k: n * o["per_server_all_in"][k] for k in ("usd", "cny")}
            rest = {k: whole[k] - spent[k] for k in ("usd", "cny")}
            en = (
                f"{budget} buys **{n} server{'s' if n != 1 else ''}** ({o['gpus']} x {gpu}) at about {price} each, "
                f"with the network and storage share you gave: {all_in} per server all in, {money(spent, first)} "
                f"in all, {money(rest, first)} left."
            )
            zh = (
                f"{budget} 能买 **{n} 台服务器**（{o['gpus']} 张 {gpu}），每台约 {price}；按你给的网络和存储比例，"
                f"每台连同分摊约 {all_in}，共 {money(spent, first)}，剩余 {money(rest, first)}。"
            )
        elif o.get("fabric_share_assumed") and o["servers_with_fabric"] != o["servers"]:
            # "预算500万 含网络存储 能买几台 剩多少给网络": each count with what it leaves for the fabric; the 15%
            # is a planning share, so both counts are the user's to weigh
            whole = {k: o["spent"][k] + o["left"][k] for k in ("usd", "cny")}
            kept = o["servers_with_fabric"]
            left_kept = {k: whole[k] - kept * o["server_price"][k] for k in ("usd", "cny")}
            share_left = o["left"]["usd"] / o["spent"]["usd"] if o["spent"]["usd"] else 0.0
            plan = num(100 * i.get("network_storage_share", 0.15))
            en = (
                f"{budget} buys **{o['servers']} servers** ({o['gpus']} x {gpu}) at about {price} each, leaving "
                f"**{money(o['left'], first)}** for network and storage ({pct(share_left)} of the servers' price, "
                f"under the {plan}% usually planned); to keep {plan}% for them, buy {kept} and leave "
                f"{money(left_kept, first)}."
            )
            zh = (
                f"{budget} 能买 **{o['servers']} 台服务器**（{o['gpus']} 张 {gpu}），每台约 {price}，剩 "
                f"**{money(o['left'], first)}** 给网络和存储（为服务器价的 {pct(share_left)}，低于通常规划的 {plan}%）；"
                f"要留足 {plan}%，就买 {kept} 台，剩 {money(left_kept, first)}。"
            )
        elif o.get("fabric_share_given") and o["servers_with_fabric"] != o["servers"]:
            # the user kept a share of the budget for the fabric: that count is the answer
            en = (
                f"Keeping the share you set for network and storage, {budget} buys **{o['servers_with_fabric']} "
                f"servers** ({o['servers_with_fabric'] * per} x {gpu}) at about {price} each ({all_in} all in); "
                f"{o['servers']} without it."
            )
            zh = (
                f"按你留出的网络和存储比例，{budget} 能买 **{o['servers_with_fabric']} 台服务器**"
                f"（{o['servers_with_fabric'] * per} 张 {gpu}），每台约 {price}（连同分摊约 {all_in}）；"
                f"不留则为 {o['servers']} 台。"
            )
        elif o["servers_with_fabric"] != o["servers"]:
            en += (
                f" Keeping the cluster's network and storage in the budget (about {all_in} per server all in), "
                f"plan on {o['servers_with_fabric']}."
            )
            zh += f"若预算还要覆盖集群网络和存储（每台连同分摊约 {all_in}），按 {o['servers_with_fabric']} 台规划。"
    if (kept := o.get("set_aside")) and o["servers"]:
        # "预算 3000 万 … 存储整体 200 万": the whole budget and what came out of it first, then what the rest buys
        before = money(o["budget"], first)
        en = en.replace(budget, f"{budget} (of {before}, after the {money(kept, first)} you set aside)", 1)
        zh = zh.replace(budget, f"{budget}（{before} 扣除你给的 {money(kept, first)} 后）", 1)
    if view.asked == "price_check" and "capex_per_server" not in i:
        # the quote (given as the budget) against the catalog's price of one such server
        quoted, catalog_usd = o["spent"]["usd"] + o["left"]["usd"], o["server_price"]["usd"]
        gap = 100 * (quoted - catalog_usd) / catalog_usd
        where = f"{abs(gap):.0f}% {'above' if gap > 0 else 'below'}"
        where_zh = f"{'高' if gap > 0 else '低'} {abs(gap):.0f}%"
        source = o.get("purchase_price") or {}
        dated = f" ({source.get('kind', 'estimate')}, {source.get('as_of')})" if source else ""
        if abs(gap) <= 10:
            verdict, verdict_zh = "in line with", "与目录价相当"
        else:
            verdict, verdict_zh = where, f"比目录价{where_zh}"
        en = (
            f"{budget} for one {per}-GPU {gpu} server is {verdict} the catalog's figure of about {price}{dated}"
            + (f" ({where})" if abs(gap) <= 10 else "")
            + "; quotes vary with CPUs, memory, NICs, support and volume."
        )
        zh = (
            f"一台 {per} 卡 {gpu} 服务器报价 {budget}，{verdict_zh}（目录价约 {price}{dated.replace(', ', '，')}）；"
            "实际报价随 CPU、内存、网卡、维保和采购量浮动。"
        )
    elif view.asked == "split" and o["servers_with_fabric"]:
        # "how should we split $3M?": the budget in its parts, servers first
        n = o["servers_with_fabric"]
        servers_cost = {k: n * o["server_price"][k] for k in ("usd", "cny")}
        fabric = {k: n * (o["per_server_all_in"][k] - o["server_price"][k]) for k in ("usd", "cny")}
        rest = {k: o["spent"][k] + o["left"][k] - servers_cost[k] - fabric[k] for k in ("usd", "cny")}
        whole = o["spent"]["usd"] + o["left"]["usd"]

        def share(part: dict[str, float]) -> str:
            return f"{100 * part['usd'] / whole:.0f}%"

        en = (
            f"Of {budget}: about **{money(servers_cost, first)} ({share(servers_cost)}) for {n} GPU servers** "
            f"({n * per} x {gpu} at about {price} each), {money(fabric, first)} ({share(fabric)}) for the cluster "
            f"network and storage, and {money(rest, first)} ({share(rest)}) left for racks, power and spares."
        )
        zh = (
            f"{budget} 的分配：约 **{money(servers_cost, first)}（{share(servers_cost)}）买 {n} 台 GPU 服务器**"
            f"（{n * per} 张 {gpu}，每台约 {price}），{money(fabric, first)}（{share(fabric)}）用于集群网络和存储，"
            f"剩余 {money(rest, first)}（{share(rest)}）留给机柜、电力和备件。"
        )
    rows = [Row(en="Price per server", zh="每台服务器价格", value=price),
            Row(en="Per server with network and storage", zh="每台含网络与存储分摊", value=all_in),
            Row(en="Servers (GPUs)", zh="服务器（GPU）", value=f"{o['servers']} ({o['gpus']})"),
            Row(en="Servers, keeping network and storage", zh="含网络与存储时的台数", value=str(o["servers_with_fabric"])),
            Row(en="Left over", zh="剩余", value=money(o["left"], first))]  # fmt: skip
    # quotes the user gathered for different cards are weighed by the compute they buy, not by the price
    by_compute = "capex_per_server" in i and bool(o.get("dense_bf16_pflops"))
    # "fine-tune 70B then serve it": serving is bound by memory and its bandwidth, so those rank the cards
    by_bandwidth = (
        by_compute and view.rank_by == "memory_bandwidth_gb_s" and bool(o.get("memory_bandwidth_tb_s"))
    )
    compute_en = f", {num(o['dense_bf16_pflops'])} PFLOPS dense BF16" if by_compute else ""
    compute_zh = f"，稠密 BF16 共 {num(o['dense_bf16_pflops'])} PFLOPS" if by_compute else ""
    if by_bandwidth:
        compute_en = (
            f", {num(o['memory_tb'])} TB of GPU memory at {num(o['memory_bandwidth_tb_s'])} TB/s in all"
        )
        compute_zh = f"，显存共 {num(o['memory_tb'])} TB、带宽共 {num(o['memory_bandwidth_tb_s'])} TB/s"
    # for a lead over several cards ("预算100万买什么服务器"): what the budget buys of this one (with the network
    # and storage paid from it, the servers kept after them); the dearest server it affords at least one of
    # carries the most capable card
    n = o["servers_with_fabric"] if o.get("fabric_share_given") else o["servers"]
    bought = n >= 1
    brief = Brief(
        card=gpu,
        en=f"{n} server{'s' if n != 1 else ''} ({n * per} GPUs) at {price}{compute_en}"
        if bought
        else f"none (one server is about {price})",
        zh=f"{n} 台（{n * per} 张卡），每台约 {price}{compute_zh}"
        if bought
        else f"一台也买不起（每台约 {price}）",
        rank=(
            -o["memory_bandwidth_tb_s"]
            if by_bandwidth
            else -o["dense_bf16_pflops"]
            if by_compute
            else -o["server_price"]["usd"]
        )
        if bought
        else float("inf"),
        fits=bought,
        count=n * per if bought else None,
        card_tflops=o["dense_bf16_pflops"] * 1000 / o["gpus"]
        if bought and o.get("dense_bf16_pflops")
        else None,
    )
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows, brief=brief)


CALCULATOR = Calculator(
    name="budget_fit",
    title=("What the budget buys", "预算能买多少"),
    triggers=words(
        r"\bafford\b",
        r"what (?:does|would|will|can) .{0,40}\bbuy\b",
        r"how many [\w\s.-]{0,30}?(?:servers|nodes|gpus|cards|boxes|machines) (?:does|would|will|can|could|should) .{0,40}\bbuy\b",
        r"\bbuys?\b.{0,30}\bhow many\b",
        r"how many (?:can|could|would|should|do) (?:we|i|you) (?:buy|get|afford)",
        r"买(?:几|多少)台",
        r"能买(?:几|多少)",
        # "预算 2000 万 … 能上几台", "能配几台", "能搞多少台"
        r"能(?:上|配|搞|拿|采|凑)(?:几|多少)\s*(?:台|个节点|节点|张|块)",
        r"可以买(?:几|多少)",
        r"买得起",
        r"够买",
    ),
    build=_build,
    summarize=_summarize,
    answers=frozenset({"servers", "cost", "split", "price_check"}),
    exemplars_en=("What does $2M buy in H100 servers?", "How many DGX H100 can we afford with $5M?"),
    exemplars_zh=("预算500万元，能买几台H100服务器？",),
    follow_ups_en=("What would those servers cost to run per year?",),
    follow_ups_zh=("这些服务器一年的电费和运维要多少？",),
)
