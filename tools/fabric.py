"""Switches and cables for a non-blocking fat-tree fabric: how many for N GPUs' network ports.

A leaf switch of radix k gives k/2 ports to endpoints and k/2 up (non-blocking; an oversubscription
ratio r gives k·r/(r+1) down). Two tiers (leaf, spine) reach k·k/2 endpoints; beyond that a third tier of
core switches joins pods of leaves and spines, as in the k-ary fat tree of Al-Fares et al. (SIGCOMM 2008:
k³/4 hosts with 5k²/4 switches). NVIDIA's DGX H100 SuperPOD (127 nodes, 1,016 GPUs, 64-port NDR
Quantum-2 switches) uses 32 leaf and 16 spine switches: the same arithmetic. Rail-optimised wiring changes
which leaf a NIC plugs into, not how many switches there are.
"""

from __future__ import annotations

import math

from pydantic import Field

from knowledge.catalog import Catalog
from tools.common import CalculatorInputError, Reference, ToolInput, ToolOutput
from tools.messages import Message

FAT_TREE = Reference(
    title="Al-Fares, Loukissas, Vahdat: A Scalable, Commodity Data Center Network Architecture (SIGCOMM 2008)",
    url="https://doi.org/10.1145/1402958.1402967",
)
SUPERPOD = Reference(
    title="NVIDIA DGX SuperPOD (H100) reference architecture: Network Fabrics (32 leaf + 16 spine for 127 nodes)",
    url="https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-h100/latest/network-fabrics.html",
)

_LEAF = Message(
    "fabric.leaf_ports",
    en="{k}-port switches at the endpoint speed; each leaf gives {down} ports to GPUs and {up} up{blocking}",
    zh="{k} 口交换机（按端点速率）；每台 leaf {down} 个口接 GPU、{up} 个口上联{blocking}",
)
_NON_BLOCKING = Message("fabric.non_blocking", en=" (non-blocking)", zh="（无阻塞）")
_OVERSUBSCRIBED = Message("fabric.oversubscribed", en=" ({r}:1 oversubscribed)", zh="（{r}:1 收敛）")
_PORTS = Message("fabric.ports", en="{ports} fabric ports{split}", zh="{ports} 个网络端口{split}")
_PORTS_SPLIT = Message(
    "fabric.ports_split",
    en=" = {nodes} servers x {gpus} GPUs x {per_gpu} per GPU",
    zh=" = {nodes} 台服务器 × {gpus} 张卡 × 每卡 {per_gpu} 个",
)
_COMPUTE_ONLY = Message(
    "fabric.compute_only",
    en="compute fabric only: storage, in-band management and out-of-band networks need their own switches",
    zh="只计算计算网络：存储网、带内管理网和带外管理网另需交换机",
)
_BEYOND_THREE_TIERS = Message(
    "fabric.beyond_three_tiers",
    en="{ports} ports exceed a 3-tier fat tree of {k}-port switches ({most})",
    zh="{ports} 个端口超出了 {k} 口交换机 3 层胖树的上限（{most}）",
)
_NO_SIZE = Message(
    "fabric.no_size",
    en="give the number of servers (or of fabric ports)",
    zh="请给出服务器台数（或网络端口数）",
)


class FabricInput(ToolInput):
    nodes: int | None = Field(default=None, ge=1, le=100_000, description="Servers on the compute fabric.")
    gpus_per_node: int = Field(default=8, ge=1, le=72, description="GPUs per server.")
    ports_per_gpu: int = Field(default=1, ge=1, le=8, description="Compute-fabric ports (NICs) per GPU.")
    endpoints: int | None = Field(
        default=None,
        ge=1,
        le=10_000_000,
        description="Fabric ports to connect; else nodes x GPUs x ports per GPU.",
    )
    switch_ports: int = Field(
        default=64,
        ge=8,
        le=512,
        description="Ports per switch at the endpoint speed: 64 for NDR Quantum-2 (QM9700) at 400 Gb/s.",
    )
    oversubscription: float = Field(
        default=1.0, ge=1, le=8, description="Leaf down:up bandwidth ratio; 1 is non-blocking."
    )
    compare_switch_ports: int | None = Field(
        default=None,
        ge=8,
        le=512,
        description="A second radix to count the same fabric with ('InfiniBand or RoCE, how many switches in each "
        "case?': 64-port NDR against 128 x 400GbE Ethernet).",
    )


class FabricOutput(ToolOutput):
    endpoints: int
    tiers: int
    leaf_switches: int
    spine_switches: int
    core_switches: int
    switches: int
    endpoint_cables: int
    switch_to_switch_cables: int
    max_endpoints_two_tier: int = Field(description="Endpoints two tiers of this radix reach.")
    compared: dict[str, int] | None = Field(
        default=None, description="Tiers and leaf, spine, core and total switches at compare_switch_ports."
    )


def fabric(inp: FabricInput, catalog: Catalog) -> FabricOutput:
    """Leaf, spine and core switch counts and cables for a fat-tree compute fabric of N GPUs' NIC ports
    (default 64-port switches, non-blocking), two tiers up to k·k/2 endpoints, three beyond."""
    if inp.endpoints:
        endpoints = inp.endpoints
    elif inp.nodes:
        endpoints = inp.nodes * inp.gpus_per_node * inp.ports_per_gpu
    else:
        raise CalculatorInputError("nodes", _NO_SIZE())
    k = inp.switch_ports
    r = inp.oversubscription
    down = max(1, math.floor(k * r / (r + 1)))
    up = k - down
    leaves = math.ceil(endpoints / down)
    assumptions = [
        _LEAF(
            k=k,
            down=down,
            up=up,
            blocking=_NON_BLOCKING() if r == 1 else _OVERSUBSCRIBED(r=f"{r:g}"),
        ),
        _PORTS(
            ports=f"{endpoints:,}",
            split=""
            if inp.endpoints
            else _PORTS_SPLIT(nodes=inp.nodes, gpus=inp.gpus_per_node, per_gpu=inp.ports_per_gpu),
        ),
        _COMPUTE_ONLY(),
    ]
    warnings: list[str] = []
    two_tier_max = k * down
    if leaves == 1 or endpoints <= k:
        # one switch holds every port: nothing to go up to, so it is non-blocking by itself
        leaves, tiers, spines, cores = 1, 1, 0, 0
        uplinks = 0
    elif endpoints <= two_tier_max:
        tiers = 2
        spines = math.ceil(leaves * up / k)
        cores = 0
        uplinks = leaves * up
    else:
        tiers = 3
        spines = leaves  # in each pod, as many spines as leaves, each with k/2 down to its leaves
        cores = math.ceil(spines * up / k)
        uplinks = leaves * up + spines * up
        if endpoints > k * k * k // 4:
            warnings.append(_BEYOND_THREE_TIERS(ports=f"{endpoints:,}", k=k, most=f"{k**3 // 4:,}"))
    compared = None
    if inp.compare_switch_ports:
        other = fabric(
            inp.model_copy(update={"switch_ports": inp.compare_switch_ports, "compare_switch_ports": None}),
            catalog,
        )
        compared = {
            "switch_ports": inp.compare_switch_ports,
            "tiers": other.tiers,
            "leaf_switches": other.leaf_switches,
            "spine_switches": other.spine_switches,
            "core_switches": other.core_switches,
            "switches": other.switches,
        }
    return FabricOutput(
        formula=(
            "leaves = ceil(ports / down ports per leaf); two tiers up to k x down ports: spines = ceil(leaves x up / k); "
            "three tiers: spines = leaves, cores = ceil(spines x up / k)"
        ),
        assumptions=assumptions,
        warnings=warnings,
        sources=[FAT_TREE, SUPERPOD],
        endpoints=endpoints,
        tiers=tiers,
        leaf_switches=leaves,
        spine_switches=spines,
        core_switches=cores,
        switches=leaves + spines + cores,
        endpoint_cables=endpoints,
        switch_to_switch_cables=uplinks,
        max_endpoints_two_tier=two_tier_max,
        compared=compared,
    )
