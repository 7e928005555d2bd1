"""Servers per rack under its power budget, and racks for a fleet."""

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
    num,
    words,
)
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    if not slots.rack_kw:
        return None
    payload: dict[str, Any] = {"rack_kw": slots.rack_kw}
    assumptions: list[Assumed] = []
    if slots.facility:
        payload["scope"] = "facility"  # "机房一共 300kW": the room's budget, not a rack's
        if slots.pue and slots.pue > 1:
            # "200kW total（包括 cooling），PUE 1.3": the grid's kW feed the cooling too; the servers get kW / PUE
            payload["rack_kw"] = round(slots.rack_kw / slots.pue, 6)
            assumptions.append(
                assumed(
                    f"{num(slots.rack_kw)} kW at the grid includes cooling: {num(slots.rack_kw)} / PUE {num(slots.pue)} "
                    f"= {num(payload['rack_kw'])} kW for IT",
                    f"{num(slots.rack_kw)} kW 含制冷：{num(slots.rack_kw)} ÷ PUE {num(slots.pue)} = {num(payload['rack_kw'])} kW 给 IT 设备",
                )
            )
        if slots.network_reserve and 0 < slots.network_reserve < 1:
            # "留 20% 给存储网络和冗余": the servers get what is left
            whole = payload["rack_kw"]
            payload["rack_kw"] = round(whole * (1 - slots.network_reserve), 6)
            share, left = f"{slots.network_reserve:.0%}", num(payload["rack_kw"])
            assumptions.append(
                assumed(
                    f"{share} of the {num(whole)} kW kept for storage, network and redundancy: {left} kW for servers",
                    f"{num(whole)} kW 中留 {share} 给存储、网络和冗余：服务器可用 {left} kW",
                )
            )
    # beside a rack's budget, another kW figure is a server's ("servers drawing 10.2 kW each")
    # a room's kW is its budget, not a server's; so is the rack's own figure said again ("40 kW racks … so what
    # fits in 40kW? B200 HGX how many per rack")
    stated_kw = None if slots.facility or slots.power_kw == slots.rack_kw else slots.power_kw
    if slots.gpu_power_kw and (slots.gpu or slots.server) and not (slots.server_power_kw or stated_kw):
        # "把GPU功耗限到700W": the named server or card, each GPU held to that draw
        payload["gpu_power_cap_w"] = round(slots.gpu_power_kw * 1000, 3)
        per_gpu = None
    else:
        per_gpu = slots.gpu_power_kw and slots.gpu_power_kw * (slots.gpus_per_node or GPUS_PER_NODE)
    if server_kw := slots.server_power_kw or stated_kw or per_gpu:
        payload["server_power_kw"] = server_kw
    if slots.server:
        payload["server"] = slots.server
    elif slots.gpu:
        # the tool settles the server: 8 GPUs, or the rack-scale system a part is only sold as ("GB200")
        payload["gpu"] = slots.gpu
        if slots.gpus_per_node:
            payload["gpus_per_server"] = slots.gpus_per_node
    elif not server_kw:
        payload["server"] = "dgx-h100"
        assumptions.append(
            assumed(
                "servers like a DGX H100 (about 10.2 kW each)", "按 DGX H100 这类服务器计（每台约 10.2 kW）"
            )
        )
    if slots.air_cooled_only:
        payload["air_cooled_only"] = True  # "air-cooled only": a liquid-cooled-only system fits none
    if slots.servers and slots.servers > 1:  # "几台8卡服务器" describes the server, it does not count one
        payload["servers"] = slots.servers
    elif slots.gpu_count and slots.gpu_count > (slots.gpus_per_node or GPUS_PER_NODE) and not slots.facility:
        # "上256卡H800 要多少机柜": the tool counts the servers that hold them
        payload["gpus"] = slots.gpu_count
    elif slots.racks:
        payload["racks"] = slots.racks
    return Plan(tool="rack_fit", payload=payload, assumed=assumptions)


def _summarize(call: ToolCall, view: View) -> Summary:
    o = call.output
    per, label = o["servers_per_rack"], o["server_label"]
    held_en = f"{per} servers" if label == "server" else f"{per} x {label}"
    held_zh = f"{per} 台服务器" if label == "server" else f"{per} 台 {label}"
    rack, server_kw = num(o["rack_kw"]), num(o["server_kw"])
    gpus_en = f", {o['gpus_per_rack']} GPUs" if o.get("gpus_per_rack") else ""
    gpus_zh = f"，共 {o['gpus_per_rack']} 张卡" if o.get("gpus_per_rack") else ""
    if call.input.get("scope") == "facility" and per:
        # a room's IT power: how many servers it carries
        en = (
            f"**{held_en}**{gpus_en} fit in {rack} kW of IT power at {server_kw} kW per server "
            f"({num(o['rack_load_kw'])} kW in all, {num(o['spare_kw'])} kW to spare); racks then follow from each rack's feed."
        )
        zh = (
            f"{rack} kW 的 IT 功率能带 **{held_zh}**{gpus_zh}，每台约 {server_kw} kW"
            f"（合计 {num(o['rack_load_kw'])} kW，余 {num(o['spare_kw'])} kW）；机柜数再按单柜供电来定。"
        )
    elif o.get("needs_liquid"):
        # "GB200 NVL72 … our hall is air-cooled only": cooling decides before power does
        en = (
            f"**No**: the {label} is sold liquid-cooled only ({server_kw} kW a rack), and an air-cooled hall cannot "
            "take it without direct liquid cooling (coolant distribution units and facility water) being built first."
        )
        zh = f"**放不了**：{label} 只有液冷版本（每柜 {server_kw} kW），风冷机房要先改造成直接液冷（CDU 和机房冷却水）才能上。"
    elif per == 0:
        en = f"**None**: one {label} draws {server_kw} kW, more than the rack's {rack} kW."
        zh = f"**一台也放不下**：一台 {label} 约 {server_kw} kW，超过机柜的 {rack} kW。"
    else:
        en = (
            f"A {rack} kW rack holds **{held_en}**{gpus_en} at {server_kw} kW per server "
            f"({num(o['rack_load_kw'])} kW in all, {num(o['spare_kw'])} kW to spare)."
        )
        zh = (
            f"{rack} kW 的机柜能放 **{held_zh}**{gpus_zh}，每台约 {server_kw} kW"
            f"（合计 {num(o['rack_load_kw'])} kW，余 {num(o['spare_kw'])} kW）。"
        )
    if o.get("servers_in_racks") and per:
        in_all = o["servers_in_racks"]
        held_all_en = f"{in_all} servers" if label == "server" else f"{in_all} x {label}"
        held_all_zh = f"{in_all} 台服务器" if label == "server" else f"{in_all} 台 {label}"
        en = f"{o['racks']} racks of {rack} kW hold **{held_all_en}** ({per} per rack). {en}"
        zh = f"{o['racks']} 个 {rack} kW 机柜能放 **{held_all_zh}**（每柜 {per} 台）。{zh}"
    if o.get("racks_needed"):
        heat = num(o["servers"] * o["server_kw"])  # the room's cooling carries all of it
        racks_en = (
            f"{o['servers']} servers need **{o['racks_needed']} racks** of {rack} kW, "
            f"{heat} kW of IT load (and heat) in all."
        )
        racks_zh = f"{o['servers']} 台服务器需要 **{o['racks_needed']} 个** {rack} kW 机柜，IT 负载（即发热）合计 {heat} kW。"
        en, zh = (
            (f"{racks_en} {en}", f"{racks_zh}{zh}")
            if view.asked in {"racks", "power"}  # "总功耗 要多少机柜": the fleet's figures first
            else (f"{en} {racks_en}", f"{zh}{racks_zh}")
        )
    rows = [Row(en="Rack power budget", zh="机柜功率上限", value=f"{rack} kW"),
            Row(en="Power per server", zh="每台服务器功率", value=f"{server_kw} kW"),
            Row(en="Servers per rack", zh="每柜服务器数", value=str(per)),
            Row(en="Load of a full rack", zh="满柜负载", value=f"{num(o['rack_load_kw'])} kW")]  # fmt: skip
    if o.get("racks_needed"):
        rows.append(Row(en="Racks needed", zh="所需机柜数", value=str(o["racks_needed"])))
    if o.get("servers_in_racks"):
        rows.append(
            Row(
                en=f"Servers in {o['racks']} racks",
                zh=f"{o['racks']} 个机柜可放",
                value=str(o["servers_in_racks"]),
            )
        )
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


CALCULATOR = Calculator(
    name="rack_fit",
    title=("Servers per rack", "机柜可放服务器数"),
    triggers=words(
        r"\bper\s+(?:[\w.]+\s+){0,2}rack",
        r"\bin (?:a|one|each|the) [\w. ]{0,12}rack",
        r"how many racks",
        r"\bracks? (?:hold|take|fit)",
        r"机柜.{0,8}(?:放|装|容纳|塞)",
        r"(?:放|装|塞)(?:几|多少)台",
        r"几个机柜",
        r"多少(?:个)?机柜",
        r"每(?:个)?机柜",
    ),
    build=_build,
    summarize=_summarize,
    answers=frozenset({"racks"}),
    exemplars_en=("How many DGX H100 fit in a 40 kW rack?", "How many racks for 16 servers at 10 kW each?"),
    exemplars_zh=("12kW机柜能放几台H100服务器？", "32台8卡H100服务器要几个机柜？"),
    follow_ups_en=("What does that rack draw at the wall, and what does the power cost?",),
    follow_ups_zh=("这个机柜的电费一年多少？",),
)
