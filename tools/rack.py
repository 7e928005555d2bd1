"""How many servers one rack's power budget holds, and how many racks a fleet needs.

Servers per rack = floor(rack kW / server kW): a rack's feeds and its cooling set a ceiling in kW, and a
server's IT power is its vendor maximum (a DGX H100 is rated about 10.2 kW), a given figure, or its GPUs'
TDP plus the non-GPU share the power calculator uses. Racks needed = ceil(servers / servers per rack); the racks one has hold racks x servers per rack.
A GPU named alone sits 8 to a server, unless every catalog system with it is rack-scale (GB200 and GB300 come only
as NVL72 racks), when that system is placed; a count of GPUs fills ceil(GPUs / GPUs per server) servers.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import Field

from knowledge.catalog import Accelerator, Catalog, Entry, Server
from tools.common import (
    GPUS_PER_SERVER,
    CalculatorInputError,
    Reference,
    ToolInput,
    ToolOutput,
    desk_side_kw,
    find_accelerator,
    find_server,
)
from tools.messages import Message

_SERVER_MAX = Message(
    "rack.server_max_power",
    en="{server}: {kw} kW maximum system power (catalog, as of {date})",
    zh="{server}：最大系统功耗 {kw} kW（目录数据，截至 {date}）",
)
_SCALED = Message(
    "rack.scaled_from_reference",
    en="server IT power scaled from {server} ({ref_kw} kW for {ref_gpus} GPUs of the same {tdp} W): {kw} kW "
    "(catalog, as of {date})",
    zh="单台服务器 IT 功率按 {server} 折算（{ref_gpus} 张同为 {tdp} W 的卡共 {ref_kw} kW）：{kw} kW（目录数据，截至 {date}）",
)
_DESK_SIDE = Message(
    "rack.desk_side",
    en="server IT power = ({gpus} x {tdp} W + {host} kW host) / {efficiency} power supply = {kw} kW (catalog "
    "defaults, as of {date}): {segment} cards, not a DGX's overhead",
    zh="单台服务器 IT 功率 =（{gpus} × {tdp} W + 主机 {host} kW）/ 电源效率 {efficiency} = {kw} kW"
    "（目录默认值，截至 {date}）：按{segment:segment}卡计，不套用 DGX 的额外功耗比例",
)
_OVERHEAD = Message(
    "rack.gpu_overhead",
    en="server IT power = {gpus} x {tdp} W x (1 + {share} non-GPU share) = {kw} kW (catalog, as of {date})",
    zh="单台服务器 IT 功率 = {gpus} × {tdp} W ×（1 + GPU 以外部分 {share}）= {kw} kW（目录数据，截至 {date}）",
)
_GIVEN_KW = Message(
    "rack.server_kw_given", en="{kw} kW per server (given)", zh="每台服务器 {kw} kW（用户给定）"
)
_CAPPED = Message(
    "rack.capped",
    en="GPUs capped at {cap} W instead of {tdp} W: {gpus} x {cut_w} W = {cut} kW less per server, {kw} kW",
    zh="GPU 功耗限到 {cap} W（原 {tdp} W）：每台少 {gpus} × {cut_w} W = {cut} kW，为 {kw} kW",
)
_OVER_RACK = Message(
    "rack.server_over_rack",
    en="one server ({kw} kW) draws more than the rack's {rack_kw} kW: the rack needs more power and cooling, "
    "or a lower power cap on the GPUs",
    zh="单台服务器（{kw} kW）已超过机柜的 {rack_kw} kW：机柜需要更大的供电和散热能力，或给 GPU 设更低的功耗上限",
)
_FAR_OVER_RACK = Message(
    "rack.server_far_over_rack",
    en="one server ({kw} kW) draws {times}x the rack's {rack_kw} kW: it needs a rack built for that power and "
    "its cooling; no GPU power cap closes a gap that wide",
    zh="单台（{kw} kW）是机柜 {rack_kw} kW 的 {times} 倍：需要按这个功率和散热专门建的机柜，靠限制 GPU 功耗补不上这么大的差距",
)
_NEEDS_LIQUID = Message(
    "rack.needs_liquid",
    en="{name} is sold liquid-cooled only ({kw} kW a rack): an air-cooled hall needs direct liquid cooling "
    "(coolant distribution units and facility water) before any can go in",
    zh="{name} 只有液冷版本（每柜 {kw} kW）：风冷机房要先改造成直接液冷（CDU 和机房冷却水）才能放",
)
# beyond twice the rack's power a GPU power cap is no remedy: even NVIDIA's lowest settable limits (about 200 W
# of an H100 SXM's 700 W) leave the CPUs, NICs and fans, and cut the throughput bought
_CAP_NO_REMEDY = 2.0
_SERVERS_ONLY = Message(
    "rack.servers_only",
    en="only servers counted: switches, storage and PDUs in the same rack take their share",
    zh="只计入服务器：同一机柜里的交换机、存储和 PDU 也要占用功率",
)
_RACK_SCALE_ONLY = Message(
    "rack.rack_scale_only",
    en="{server}: the part comes only in this rack-scale system of {gpus} GPUs, not in 8-GPU servers",
    zh="{server}：这款只以 {gpus} 卡的整机柜系统出货，没有 8 卡服务器",
)
_GPUS_DEFAULT = Message(
    "rack.gpus_per_server_default",
    en="{gpus} GPUs per server",
    zh="每台服务器 {gpus} 张卡",
)
_SERVERS_FROM_GPUS = Message(
    "rack.servers_from_gpus",
    en="{gpus} GPUs at {per} per server: {servers} servers",
    zh="{gpus} 张卡、每台 {per} 张：{servers} 台",
)
_NO_SERVER = Message(
    "rack.no_server",
    en="give the kW of one server, a catalog server or a GPU",
    zh="请给出单台服务器的功率（kW）、目录中的服务器或 GPU 型号",
)


class RackFitInput(ToolInput):
    rack_kw: float = Field(
        gt=0,
        le=1_000_000,
        description="Power one rack may draw (its feeds and cooling), kW; with scope 'facility', a whole room's.",
    )
    scope: Literal["rack", "facility"] = Field(
        default="rack",
        description="Whether rack_kw is one rack's budget or a whole room's or site's IT power.",
    )
    server_power_kw: float | None = Field(
        default=None,
        gt=0,
        le=200,
        description="IT power of one server, kW; else the server's or GPUs' figure.",
    )
    server: str | None = Field(default=None, description="Catalog reference server, e.g. 'dgx-h100'.")
    gpu: str | None = Field(default=None, description="Catalog GPU of a generic server, e.g. 'H100'.")
    gpus_per_server: int | None = Field(
        default=None,
        ge=1,
        le=72,
        description="GPUs in one generic server; if omitted, 8, or the rack-scale system a part is only sold as.",
    )
    gpu_power_cap_w: float | None = Field(
        default=None,
        gt=0,
        le=5_000,
        description="Each GPU held to this draw (nvidia-smi -pl): the server draws gpus x (TDP - cap) less.",
    )
    servers: int | None = Field(default=None, ge=1, le=100_000, description="Servers to place, if any.")
    gpus: int | None = Field(
        default=None,
        ge=1,
        le=10_000_000,
        description="GPUs to place, if given instead of servers: servers = ceil(gpus / GPUs per server).",
    )
    racks: int | None = Field(default=None, ge=1, le=100_000, description="Racks available, if given.")
    air_cooled_only: bool = Field(
        default=False,
        description="The racks or the hall can only be air-cooled: a system sold liquid-cooled (GB200 NVL72) fits none.",
    )


class RackFitOutput(ToolOutput):
    rack_kw: float
    server_kw: float = Field(description="IT power of one server, kW.")
    server_label: str = Field(description="What was placed: a catalog server, N x a GPU, or 'server'.")
    servers_per_rack: int
    gpus_per_rack: int | None
    rack_load_kw: float = Field(description="servers_per_rack x server_kw: what the full rack draws.")
    spare_kw: float = Field(description="rack_kw - rack_load_kw.")
    servers: int | None
    racks_needed: int | None
    racks: int | None = Field(default=None, description="Racks available, as given.")
    servers_in_racks: int | None = Field(default=None, description="racks x servers_per_rack.")
    needs_liquid: bool = Field(
        default=False,
        description="The system is sold liquid-cooled only and the racks are air-cooled: none fit.",
    )


def rack_fit(inp: RackFitInput, catalog: Catalog) -> RackFitOutput:
    """Servers that fit in one rack's power budget (floor of rack kW / server kW) and, for a number of
    servers, the racks they need; a server's kW is given, its catalog maximum, or GPUs x TDP plus overhead."""
    assumptions: list[str] = []
    warnings: list[str] = []
    cited: list[Entry] = []
    gpus: int | None = None
    tdp_w: float | None = None  # each GPU's, when the server or card is known
    server = find_server(catalog, inp.server) if inp.server else None
    acc = find_accelerator(catalog, inp.gpu) if inp.gpu and not server else None
    if (
        acc
        and (only := _rack_scale_only(catalog, acc))
        and inp.gpus_per_server is None
        and inp.server_power_kw is None
    ):
        # GB200 and GB300 ship as NVL72 racks: counted as that system, never as 8 of its GPUs in an
        # air-cooled server that does not exist
        server = only
        assumptions.append(_RACK_SCALE_ONLY(server=only.name, gpus=only.accelerator_count))
    if server:
        server_kw, label, gpus = server.max_power_kw, server.name, server.accelerator_count
        tdp_w = catalog.accelerator(server.accelerator_id).tdp_w
        cited.append(server)
        assumptions.append(_SERVER_MAX(server=server.name, kw=f"{server_kw:g}", date=str(server.as_of)))
    elif acc:
        gpus, tdp_w = inp.gpus_per_server or GPUS_PER_SERVER, acc.tdp_w
        if inp.gpus_per_server is None:
            assumptions.append(_GPUS_DEFAULT(gpus=gpus))
        label = f"{gpus} x {acc.name}"
        if reference := _reference_server(catalog, acc):
            # a server around GPUs of the same power and socket draws like the catalog's reference system
            server_kw = reference.max_power_kw * gpus / reference.accelerator_count
            cited += [acc, reference]
            assumptions.append(
                _SCALED(
                    server=reference.name,
                    ref_kw=f"{reference.max_power_kw:g}",
                    ref_gpus=reference.accelerator_count,
                    tdp=f"{acc.tdp_w:g}",
                    kw=f"{server_kw:.3g}",
                    date=str(reference.as_of),
                )
            )
        elif acc.segment != "datacenter" and gpus <= 8:
            # consumer and workstation cards: a host and a power supply around them, as the power bill counts them
            server_kw = desk_side_kw(gpus * acc.tdp_w / 1000, catalog)
            cited += [acc, catalog.defaults]
            defaults = catalog.defaults
            assumptions.append(
                _DESK_SIDE(
                    gpus=gpus,
                    tdp=f"{acc.tdp_w:g}",
                    host=f"{defaults.workstation_host_kw:g}",
                    efficiency=f"{defaults.workstation_psu_efficiency:.0%}",
                    kw=f"{server_kw:.3g}",
                    date=str(defaults.as_of),
                    segment=acc.segment,
                )
            )
        else:
            share = catalog.defaults.server_overhead_share
            server_kw = gpus * acc.tdp_w / 1000 * (1 + share)
            cited += [acc, catalog.defaults]
            assumptions.append(
                _OVERHEAD(
                    gpus=gpus,
                    tdp=f"{acc.tdp_w:g}",
                    share=f"{share:.0%}",
                    kw=f"{server_kw:.3g}",
                    date=str(catalog.defaults.as_of),
                )
            )
    elif inp.server_power_kw is None:
        raise CalculatorInputError("server_power_kw", _NO_SERVER())
    else:
        server_kw, label = inp.server_power_kw, "server"
    if inp.server_power_kw is not None:
        server_kw = inp.server_power_kw
        assumptions.append(_GIVEN_KW(kw=f"{server_kw:g}"))
    elif inp.gpu_power_cap_w is not None and gpus and tdp_w and inp.gpu_power_cap_w < tdp_w:
        # "cap the GPUs at 700 W": the rest of the server (CPUs, NICs, fans) draws as before
        cut = gpus * (tdp_w - inp.gpu_power_cap_w) / 1000
        server_kw -= cut
        assumptions.append(
            _CAPPED(
                cap=f"{inp.gpu_power_cap_w:g}",
                tdp=f"{tdp_w:g}",
                gpus=gpus,
                cut_w=f"{tdp_w - inp.gpu_power_cap_w:g}",
                cut=f"{cut:.3g}",
                kw=f"{server_kw:.3g}",
            )
        )
    per_rack = math.floor(inp.rack_kw / server_kw + 1e-9)
    # a system sold liquid-cooled only, in a hall that can only blow air: its power is no longer the question
    needs_liquid = bool(inp.air_cooled_only and server and "liquid-cooled" in server.notes.lower())
    if needs_liquid and server:
        per_rack = 0
        warnings.append(_NEEDS_LIQUID(name=server.name, kw=f"{server_kw:.3g}"))
    elif per_rack == 0 and server_kw > _CAP_NO_REMEDY * inp.rack_kw:
        times = f"{server_kw / inp.rack_kw:.2g}"
        warnings.append(_FAR_OVER_RACK(kw=f"{server_kw:.3g}", rack_kw=f"{inp.rack_kw:g}", times=times))
    elif per_rack == 0:
        warnings.append(_OVER_RACK(kw=f"{server_kw:.3g}", rack_kw=f"{inp.rack_kw:g}"))
    assumptions.append(_SERVERS_ONLY())
    servers = inp.servers
    if servers is None and inp.gpus:
        # "上256卡H800 要多少机柜": the servers that hold the GPUs, then the racks they need
        per_server = gpus or inp.gpus_per_server or GPUS_PER_SERVER
        servers = math.ceil(inp.gpus / per_server)
        assumptions.insert(0, _SERVERS_FROM_GPUS(gpus=inp.gpus, per=per_server, servers=servers))
    racks = math.ceil(servers / per_rack) if servers and per_rack else None
    return RackFitOutput(
        formula="servers per rack = floor(rack kW / server kW); racks = ceil(servers / servers per rack)",
        assumptions=assumptions,
        warnings=warnings,
        sources=list(
            dict.fromkeys(Reference(title=s.title, url=str(s.url)) for e in cited for s in e.sources)
        ),
        rack_kw=inp.rack_kw,
        server_kw=round(server_kw, 3),
        server_label=label,
        servers_per_rack=per_rack,
        gpus_per_rack=per_rack * gpus if gpus else None,
        rack_load_kw=round(per_rack * server_kw, 3),
        spare_kw=round(inp.rack_kw - per_rack * server_kw, 3),
        servers=servers,
        racks_needed=racks,
        racks=inp.racks,
        servers_in_racks=inp.racks * per_rack if inp.racks else None,
        needs_liquid=needs_liquid,
    )


def _rack_scale_only(catalog: Catalog, acc: Accelerator) -> Server | None:
    """The smallest catalog system carrying ``acc`` when every one carrying it holds more GPUs than a
    generic server (the part is sold only rack-scale), or None."""
    systems = catalog.servers_for(acc.id)
    if systems and all(s.accelerator_count > GPUS_PER_SERVER for s in systems):
        return min(systems, key=lambda s: s.accelerator_count)
    return None


def _reference_server(catalog: Catalog, acc: Accelerator) -> Server | None:
    """The catalog server whose GPUs have ``acc``'s TDP and socket (an A800 SXM4 server draws like a DGX
    A100, an H800 one like a DGX H100), or None."""
    socket = acc.form_factor.split()[0][:3].lower() if acc.form_factor else ""
    for server in catalog.servers:
        gpu = catalog.accelerator(server.accelerator_id)  # the catalog checks that every server's GPU exists
        if socket and gpu.tdp_w == acc.tdp_w and gpu.form_factor.lower().startswith(socket):
            return server
    return None
