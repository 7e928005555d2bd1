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
    if slots.oversubscription and 1 <= slots.oversubscription <= 8:
        payload["oversubscription"] = (
            slots.oversubscription
        )  # "go 2:1 oversubscribed": fewer uplinks and spines
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
    if slots.switch_gbps == 800 and not slots.ports_per_gpu and (_port_gbit(slots) or 400) <= 400:
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
    elif _port_gbit(slots) >= 800 and not slots.ethernet_fabric:
        # XDR 800 Gb/s endpoints: NVIDIA Quantum-X800 Q3400 switches carry 144 ports of 800 Gb/s
        payload["switch_ports"] = 144
        assumptions.append(
            assumed(
                "XDR 800 Gb/s: Quantum-X800 Q3400 switches, 144 x 800 Gb/s ports (ConnectX-8 NICs)",
                "XDR 800 Gb/s：Quantum-X800 Q3400 交换机，144 个 800 Gb/s 端口（ConnectX-8 网卡）",
            )
        )
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
    if slots.fabric_choice and "switch_ports" not in payload and (slots.link_gbit or 400) <= 400:
        # "InfiniBand NDR or RoCE? how many switches in each case?": 64-port NDR, then 51.2 Tb/s Ethernet at 400G
        payload["compare_switch_ports"] = 128
    return Plan(tool="fabric", payload=payload, assumed=assumptions)


def _port_gbit(slots: Slots) -> float:
    """One port's speed: "8x CX7 400G per node" is 3,200 Gb/s a server over 8 ports, 400 each. With none given,
    an 800G switch for Blackwell Ultra ("1024张 B300，想直接上800G") is its ConnectX-8's 800G, one per GPU."""
    if not slots.link_gbit and slots.switch_gbps == 800 and slots.gpu in _EIGHT_HUNDRED_NICS:
        return 800.0
    link = slots.link_gbit or 0
    return link if slots.link_per_gpu else link / (slots.ports_per_node or 1)


# cards whose servers carry an 800 Gb/s ConnectX-8 per GPU (NVIDIA HGX B300 and GB300 NVL72 specifications)
_EIGHT_HUNDRED_NICS = frozenset({"b300", "gb300"})


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
        ratio = i.get("oversubscription", 1)  # "going 2:1 oversubscribed": fewer uplinks, said as such
        blocking = "non-blocking" if ratio <= 1 else f"{ratio:g}:1 oversubscribed"
        blocking_zh = "无阻塞" if ratio <= 1 else f"{ratio:g}:1 收敛的"
        en = (
            f"About **{o['switches']} switches** ({parts_en}) for {ports} {'fabric' if 'endpoints' in i else 'GPU'} ports in a {blocking} "
            f"{o['tiers']}-tier fat tree of {i['switch_ports']}-port switches, with {num(o['endpoint_cables'])} "
            f"server cables and {num(o['switch_to_switch_cables'])} between switches."
        )
        zh = (
            f"约需 **{o['switches']} 台交换机**（{parts_zh}）：{ports} 个{'' if 'endpoints' in i else ' GPU '}端口，{i['switch_ports']} 口交换机组成{blocking_zh} "
            f"{o['tiers']} 层胖树；服务器到交换机 {num(o['endpoint_cables'])} 根线缆，交换机之间 {num(o['switch_to_switch_cables'])} 根。"
        )
    if other := o.get("compared"):
        # both fabrics counted, and which one suits a team like theirs
        def made(counts: dict[str, Any], radix: int, zh: bool = False) -> str:
            if counts["tiers"] == 1:
                return f"1 台 {radix} 口交换机" if zh else f"one {radix}-port switch"
            core = f" + {counts['core_switches']} core" if counts["core_switches"] else ""
            tree = f"{counts['leaf_switches']} leaf + {counts['spine_switches']} spine{core}"
            return f"{tree}，{radix} 口" if zh else f"{tree}, {radix}-port"

        ib = {k: o[k] for k in ("tiers", "leaf_switches", "spine_switches", "core_switches", "switches")}
        radix = other["switch_ports"]
        en = (
            f"InfiniBand NDR: about **{o['switches']} switch{'es' if o['switches'] > 1 else ''}** "
            f"({made(ib, i['switch_ports'])} QM9700); RoCE on 51.2 Tb/s Ethernet: about **{other['switches']} "
            f"switch{'es' if other['switches'] > 1 else ''}** ({made(other, radix)}, 400GbE), non-blocking for "
            f"{ports} GPU ports."
        )
        zh = (
            f"InfiniBand NDR 约需 **{o['switches']} 台交换机**（{made(ib, i['switch_ports'], True)} QM9700）；"
            f"RoCE 用 51.2 Tb/s 以太网交换机约需 **{other['switches']} 台**（{made(other, radix, True)} 400GbE），"
            f"{ports} 个 GPU 端口无阻塞。"
        )
        if view.ethernet_team:
            en = (
                "RoCE, for a team that runs Ethernet on a tight budget: Meta trained Llama 3 405B on a 24,576-GPU RoCE "
                "cluster; budget time for lossless tuning (PFC, ECN/DCQCN) and run nccl-tests before training. "
                + en
            )
            zh = (
                "选 RoCE：团队熟悉以太网、预算紧时更合适，Meta 在 24,576 卡的 RoCE 集群上训练了 Llama 3 405B；"
                "要预留无损网络调优（PFC、ECN/DCQCN）的时间，训练前先跑 nccl-tests。" + zh
            )
        rows = [Row(en="InfiniBand switches", zh="InfiniBand 交换机", value=str(o["switches"])),
                Row(en="RoCE switches", zh="RoCE 交换机", value=str(other["switches"])),
                Row(en="Fabric ports", zh="网络端口", value=ports)]  # fmt: skip
        return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)
    rows = [Row(en="Fabric ports", zh="网络端口", value=ports),
            Row(en="Leaf switches", zh="Leaf 交换机", value=str(o["leaf_switches"])),
            Row(en="Spine switches", zh="Spine 交换机", value=str(o["spine_switches"])),
            Row(en="Core switches", zh="Core 交换机", value=str(o["core_switches"])),
            Row(en="Cables (server / switch-to-switch)", zh="线缆（服务器 / 交换机间）",
                value=f"{num(o['endpoint_cables'])} / {num(o['switch_to_switch_cables'])}")]  # fmt: skip
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


CALCULATOR = Calculator(
    name="fabric",
    title=("Fabric switches and cables", "网络交换机与线缆"),
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
        r"\bfabric\b(?!\s*manager)",  # (NVIDIA Fabric Manager is NVSwitch software, not the network)
        # (and not "what breaks if we switch?", "do we need to switch")
        r"(?<!\bwe )(?<!\bto )(?<!\byou )(?<!\bthey )(?<!\bi )\bswitch\b(?!\s*(?:to|from|over|back|out)\b)",
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
