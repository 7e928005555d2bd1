"""How many servers one rack's power budget holds, and how many racks a fleet needs.

Servers per rack = floor(rack kW / server kW): a rack's feeds and its cooling set a ceiling in kW, and a
server's IT power is its vendor maximum (a DGX H100 is rated about 10.2 kW), a given figure, or its GPUs'
TDP plus the non-GPU share the power calculator uses. Racks needed = ceil(servers / servers per rack); the racks one has hold racks x servers per rack.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import Field

from knowledge.catalog import Accelerator, Catalog, Entry, Server
from tools.common import (
    CalculatorInputError,
    Reference,
    ToolInput,
    ToolOutput,
    desk_side_kw,
    find_accelerator,
    find_server,
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
    gpus_per_server: int = Field(default=8, ge=1, le=72, description="GPUs in one generic server.")
    gpu_power_cap_w: float | None = Field(
        default=None,
        gt=0,
        le=5_000,
        description="Each GPU held to this draw (nvidia-smi -pl): the server draws gpus x (TDP - cap) less.",
    )
    servers: int | None = Field(default=None, ge=1, le=100_000, description="Servers to place, if any.")
    racks: int | None = Field(default=None, ge=1, le=100_000, description="Racks available, if given.")


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


def rack_fit(inp: RackFitInput, catalog: Catalog) -> RackFitOutput:
    """Servers that fit in one rack's power budget (floor of rack kW / server kW) and, for a number of
    servers, the racks they need; a server's kW is given, its catalog maximum, or GPUs x TDP plus overhead."""
    assumptions: list[str] = []
    warnings: list[str] = []
    cited: list[Entry] = []
    gpus: int | None = None
    tdp_w: float | None = None  # each GPU's, when the server or card is known
    if inp.server:
        server = find_server(catalog, inp.server)
        server_kw, label, gpus = server.max_power_kw, server.name, server.accelerator_count
        tdp_w = catalog.accelerator(server.accelerator_id).tdp_w
        cited.append(server)
        assumptions.append(
            f"{server.name}: {server_kw:g} kW maximum system power (catalog, as of {server.as_of})"
        )
    elif inp.gpu:
        acc = find_accelerator(catalog, inp.gpu)
        gpus, tdp_w = inp.gpus_per_server, acc.tdp_w
        label = f"{gpus} x {acc.name}"
        if reference := _reference_server(catalog, acc):
            # a server around GPUs of the same power and socket draws like the catalog's reference system
            server_kw = reference.max_power_kw * gpus / reference.accelerator_count
            cited += [acc, reference]
            assumptions.append(
                f"server IT power scaled from {reference.name} ({reference.max_power_kw:g} kW for "
                f"{reference.accelerator_count} GPUs of the same {acc.tdp_w:g} W): {server_kw:.3g} kW "
                f"(catalog, as of {reference.as_of})"
            )
        elif acc.segment != "datacenter" and gpus <= 8:
            # consumer and workstation cards: a host and a power supply around them, as the power bill counts them
            server_kw = desk_side_kw(gpus * acc.tdp_w / 1000, catalog)
            cited += [acc, catalog.defaults]
            defaults = catalog.defaults
            assumptions.append(
                f"server IT power = ({gpus} x {acc.tdp_w:g} W + {defaults.workstation_host_kw:g} kW host) / "
                f"{defaults.workstation_psu_efficiency:.0%} power supply = {server_kw:.3g} kW (catalog defaults, as of "
                f"{defaults.as_of}): {acc.segment} cards, not a DGX's overhead"
            )
        else:
            share = catalog.defaults.server_overhead_share
            server_kw = gpus * acc.tdp_w / 1000 * (1 + share)
            cited += [acc, catalog.defaults]
            assumptions.append(
                f"server IT power = {gpus} x {acc.tdp_w:g} W x (1 + {share:.0%} non-GPU share) = {server_kw:.3g} kW "
                f"(catalog, as of {catalog.defaults.as_of})"
            )
    elif inp.server_power_kw is None:
        raise CalculatorInputError("server_power_kw", "give the kW of one server, a catalog server or a GPU")
    else:
        server_kw, label = inp.server_power_kw, "server"
    if inp.server_power_kw is not None:
        server_kw = inp.server_power_kw
        assumptions.append(f"{server_kw:g} kW per server (given)")
    elif inp.gpu_power_cap_w is not None and gpus and tdp_w and inp.gpu_power_cap_w < tdp_w:
        # "cap the GPUs at 700 W": the rest of the server (CPUs, NICs, fans) draws as before
        cut = gpus * (tdp_w - inp.gpu_power_cap_w) / 1000
        server_kw -= cut
        assumptions.append(
            f"GPUs capped at {inp.gpu_power_cap_w:g} W instead of {tdp_w:g} W: {gpus} x "
            f"{tdp_w - inp.gpu_power_cap_w:g} W = {cut:.3g} kW less per server, {server_kw:.3g} kW"
        )
    per_rack = math.floor(inp.rack_kw / server_kw + 1e-9)
    if per_rack == 0:
        warnings.append(
            f"one server ({server_kw:.3g} kW) draws more than the rack's {inp.rack_kw:g} kW: the rack needs more "
            "power and cooling, or a lower power cap on the GPUs"
        )
    assumptions.append("only servers counted: switches, storage and PDUs in the same rack take their share")
    racks = math.ceil(inp.servers / per_rack) if inp.servers and per_rack else None
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
        servers=inp.servers,
        racks_needed=racks,
        racks=inp.racks,
        servers_in_racks=inp.racks * per_rack if inp.racks else None,
    )


def _reference_server(catalog: Catalog, acc: Accelerator) -> Server | None:
    """The catalog server whose GPUs have ``acc``'s TDP and socket (an A800 SXM4 server draws like a DGX
    A100, an H800 one like a DGX H100), or None."""
    socket = acc.form_factor.split()[0][:3].lower() if acc.form_factor else ""
    for server in catalog.servers:
        gpu = catalog.accelerator(server.accelerator_id)  # the catalog checks that every server's GPU exists
        if socket and gpu.tdp_w == acc.tdp_w and gpu.form_factor.lower().startswith(socket):
            return server
    return None
