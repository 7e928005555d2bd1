"""Switches for a fat-tree compute fabric: leaves, spines and cores for N servers' GPU ports."""

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
    per_node = slots.gpus_per_node or GPUS_PER_NODE
    servers = slots.servers or (-(-slots.gpu_count // per_node) if slots.gpu_count else None)
    if not servers:
        return None
    payload: dict[str, Any] = {"nodes": servers, "gpus_per_node": per_node}
    assumptions: list[Assumed] = []
    if slots.ports_per_node and not slots.ports_per_gpu:
        # "每节点4个400G端口": the servers' ports, however many GPUs share them
        payload["endpoints"] = servers * slots.ports_per_node
        assumptions.append(
            assumed(
                f"{slots.ports_per_node} fabric ports per server x {servers} servers",
                f"每台 {slots.ports_per_node} 个计算网端口 × {servers} 台",
            )
        )
    elif slots.ports_per_gpu:
        payload["ports_per_gpu"] = slots.ports_per_gpu
    else:
        assumptions.append(assumed("one 400 Gb/s fabric port per GPU", "每张卡一个 400 Gb/s 计算网端口"))
    if slots.switch_gbps == 800 and not (slots.ports_per_gpu or slots.ports_per_node):
        # "用800G的交换机呢": each 800G port splits into two 400G links for 400G NICs, doubling the radix
        ports = slots.switch_ports or 64
        payload["switch_ports"] = ports * 2
        assumptions.append(
            assumed(
                f"{ports}-port 800 Gb/s switches, each port split into two 400 Gb/s links ({ports * 2} ports)",
                f"{ports} 口 800 Gb/s 交换机，每个口拆成两条 400 Gb/s 链路（共 {ports * 2} 个口）",
            )
        )
    elif slots.switch_ports:
        payload["switch_ports"] = slots.switch_ports
    elif slots.ethernet_fabric and (slots.link_gbit or 400) <= 400:
        # RoCE on 51.2 Tb/s Ethernet switches: 64 x 800GbE ports split into 128 x 400GbE (NVIDIA Spectrum-4
        # SN5600 datasheet; Broadcom Tomahawk 5 switches alike)
        payload["switch_ports"] = 128
        assumptions.append(
            assumed(
                "51.2 Tb/s Ethernet switches for RoCE (Spectrum-4 SN5600 class: 64 x 800GbE, run as 128 x 400GbE)",
                "RoCE 用 51.2 Tb/s 以太网交换机（Spectrum-4 SN5600 一类：64 × 800GbE，拆成 128 × 400GbE）",
            )
        )
    else:
        assumptions.append(
            assumed(
                "64-port switches (NDR Quantum-2 QM9700: 64 x 400 Gb/s)",
                "64 口交换机（NDR Quantum-2 QM9700：64 × 400 Gb/s）",
            )
        )
    return Plan(tool="fabric", payload=payload, assumed=assumptions)


def _summarize(call: ToolCall, view: View) -> Summary:
    o, i = call.output, call.input
    ports = num(o["endpoints"])
    if o["tiers"] == 1:
        en = f"**1 switch**: {ports} ports fit on one {i['switch_ports']}-port switch."
        zh = f"**1 台交换机**：{ports} 个端口一台 {i['switch_ports']} 口交换机就够。"
    else:
        parts_en = f"{o['leaf_switches']} leaf + {o['spine_switches']} spine" + (
            f" + {o['core_switches']} core" if o["core_switches"] else ""
        )
        parts_zh = f"{o['leaf_switches']} 台 leaf + {o['spine_switches']} 台 spine" + (
            f" + {o['core_switches']} 台 core" if o["core_switches"] else ""
        )
        en = (
            f"About **{o['switches']} switches** ({parts_en}) for {ports} {'fabric' if 'endpoints' in i else 'GPU'} ports in a non-blocking "
            f"{o['tiers']}-tier fat tree of {i['switch_ports']}-port switches, with {num(o['endpoint_cables'])} "
            f"server cables and {num(o['switch_to_switch_cables'])} between switches."
        )
        zh = (
            f"约需 **{o['switches']} 台交换机**（{parts_zh}）：{ports} 个{'' if 'endpoints' in i else ' GPU '}端口，{i['switch_ports']} 口交换机组成无阻塞 "
            f"{o['tiers']} 层胖树；服务器到交换机 {num(o['endpoint_cables'])} 根线缆，交换机之间 {num(o['switch_to_switch_cables'])} 根。"
        )
    rows = [Row(en="Fabric ports", zh="网络端口", value=ports),
            Row(en="Leaf switches", zh="Leaf 交换机", value=str(o["leaf_switches"])),
            Row(en="Spine switches", zh="Spine 交换机", value=str(o["spine_switches"])),
            Row(en="Core switches", zh="Core 交换机", value=str(o["core_switches"])),
            Row(en="Cables (server / switch-to-switch)", zh="线缆（服务器 / 交换机间）",
                value=f"{num(o['endpoint_cables'])} / {num(o['switch_to_switch_cables'])}")]  # fmt: skip
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


CALCULATOR = Calculator(
    name="fabric",
    # the noun, never the verb: "how many switches", "network switch", not "switch to LoRA"
    triggers=words(
        r"\bswitches\b",
        r"(?:network|ib|infiniband|ethernet|leaf|spine|core|\d+[- ]port) switch\b",
        r"交换机",
        r"\bleaf\b",
        r"\bspines?\b",
        r"fat[- ]tree",
        r"胖树",
        # "RoCE fabric for 64 MI300X, what switch?", "IB or RoCE for 256 H100?": the fabric for that many GPUs
        r"\bfabric\b",
        r"\bswitch\b(?!\s*(?:to|from|over|back|out)\b)",
        r"\b(?:infiniband|roce(?:\s*v2)?|ib)\b[^?.。？]{0,12}(?:\bor\b|\bvs\.?|\bversus\b|还是|或者)",
    ),
    build=_build,
    summarize=_summarize,
    answers=frozenset({"switches"}),
    exemplars_en=("How many switches for 16 nodes of 8 H100 at 400G per GPU?",),
    exemplars_zh=("128台8卡服务器，每卡一个400G口，要多少台交换机？",),
    follow_ups_en=("What if each GPU gets two 400G ports?",),
    follow_ups_zh=("如果每张卡两个400G口呢？",),
)
