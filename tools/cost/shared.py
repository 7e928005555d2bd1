"""What the cost calculators share: money in USD and CNY, the hardware and its power, notes and sources."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field

from knowledge.catalog import Accelerator, Catalog, Entry, Server
from tools.common import (
    HOURS_PER_YEAR,
    CalculatorInputError,
    Reference,
    desk_side_kw,
    find_accelerator,
    find_server,
)

Currency = Literal["USD", "CNY"]
Cooling = Literal["air", "liquid"]
Option = Literal["buy", "lease", "cloud"]

MONTHS_PER_YEAR = 12
DEEPSEEK_V3 = Reference(
    title="DeepSeek-AI, DeepSeek-V3 Technical Report (2024), Table 1: cost = H800 GPU-hours x $2 rental price",
    url="https://arxiv.org/abs/2412.19437",
)


# --- shared input fields ---------------------------------------------------------------------------


class MoneyFields(BaseModel):
    """Currency of the money the user gives, and the exchange rate used to show USD and CNY."""

    currency: Currency = Field(
        default="USD", description="Currency of every price or amount you give (USD or CNY)."
    )
    usd_to_cny: float | None = Field(
        default=None, gt=0, le=100, description="CNY per USD; default from the catalog (dated)."
    )


class PowerFields(BaseModel):
    """Input fields shared by the power and TCO calculators: what draws power and what a kWh costs."""

    gpu: str | None = Field(
        default=None, description="Catalog GPU, e.g. 'H100', 'B200', 'MI300X' (or give a server)."
    )
    gpus: int | None = Field(
        default=None,
        ge=1,
        le=1_000_000,
        description="Number of GPUs; defaults to one server's worth when a server is given.",
    )
    server: str | None = Field(
        default=None,
        description="Catalog reference server, e.g. 'dgx-h100', 'dgx-b200': its maximum power is used.",
    )
    gpu_tdp_w: float | None = Field(
        default=None, ge=10, le=5_000, description="Override the GPU's TDP, watts per GPU."
    )
    server_overhead_share: float | None = Field(
        default=None,
        ge=0,
        le=2,
        description="Non-GPU power (CPUs, fans, NICs, drives) as a share of GPU TDP; default from the catalog.",
    )
    server_power_kw: float | None = Field(
        default=None,
        gt=0,
        le=1_000,
        description="Power of one server, kW: overrides a catalog server's maximum, or gives it for `servers` servers.",
    )
    servers: int | None = Field(
        default=None,
        ge=1,
        le=100_000,
        description="Servers drawing `server_power_kw` each (no catalog server).",
    )
    it_power_kw: float | None = Field(
        default=None,
        gt=0,
        le=1e6,
        description="IT power of everything described, kW (measured or stated); PUE applies.",
    )
    wall_power_kw: float | None = Field(
        default=None,
        gt=0,
        le=1e6,
        description="Power at the wall, kW, cooling included: replaces the estimate and PUE.",
    )
    cooling: Cooling = Field(default="air", description="Facility cooling; picks the default PUE.")
    pue: float | None = Field(
        default=None, ge=1, le=3, description="Power usage effectiveness of the facility (overrides cooling)."
    )
    utilization: float = Field(
        default=0.8,
        gt=0,
        le=1,
        description="Share of the year the GPUs run jobs (0-1]; 0.8 is a planning assumption.",
    )
    electricity_price_per_kwh: float | None = Field(
        default=None,
        ge=0,
        le=50,
        description="Electricity price per kWh in `currency` (0 if included in colocation); default from the catalog.",
    )


# --- shared output models --------------------------------------------------------------------------


class Money(BaseModel):
    """An amount shown in US dollars and Chinese yuan at the stated exchange rate."""

    usd: float
    cny: float


class CostItem(BaseModel):
    name: str
    amount: Money
    basis: str = Field(description="How the amount was obtained.")


class PowerDraw(BaseModel):
    """Power at the wall and the yearly electricity it costs."""

    gpu: str
    gpus: int = Field(description="GPUs asked for.")
    installed_gpus: int = Field(
        description="GPUs drawing power: whole servers' worth when a server is given."
    )
    server: str | None
    servers: int | None
    gpu_power_kw: float = Field(description="installed GPUs x TDP, kW.")
    it_power_kw: float = Field(description="IT load: GPUs plus the rest of the server, kW.")
    pue: float
    wall_power_kw: float = Field(description="Facility power at the wall: IT load x PUE, kW.")
    utilization: float
    hours_per_year: float
    energy_mwh_per_year: float
    electricity_usd_per_kwh: float
    yearly_energy_cost: Money
    monthly_energy_cost: Money = Field(description="The yearly cost / 12.")
    energy_cost_per_gpu_hour: Money = Field(description="Electricity per GPU-hour of work.")
    usd_to_cny: float


# --- shared helpers --------------------------------------------------------------------------------


@dataclass
class _Notes:
    """Assumptions, warnings and sources collected while computing."""

    assumptions: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    sources: list[Reference] = field(default_factory=list)

    def cite(self, *entries: Entry | Reference) -> None:
        for entry in entries:
            refs = (
                [entry]
                if isinstance(entry, Reference)
                else [Reference(title=s.title, url=str(s.url)) for s in entry.sources]
            )
            for ref in refs:
                if all(ref.url != known.url for known in self.sources):
                    self.sources.append(ref)


@dataclass(frozen=True)
class _Fx:
    """The one place money changes currency."""

    usd_to_cny: float
    currency: Currency

    def to_usd(self, amount: float) -> float:
        """An amount the user gave (in ``currency``) in USD."""
        return amount if self.currency == "USD" else amount / self.usd_to_cny

    def money(self, usd: float, decimals: int = 2) -> Money:
        return Money(usd=round(usd, decimals), cny=round(usd * self.usd_to_cny, decimals))


def _fx(fields: MoneyFields, catalog: Catalog, notes: _Notes) -> _Fx:
    defaults = catalog.defaults
    if fields.usd_to_cny is not None:
        notes.assumptions.append(f"exchange rate {fields.usd_to_cny:g} CNY per USD (given)")
        return _Fx(fields.usd_to_cny, fields.currency)
    notes.assumptions.append(
        f"exchange rate {defaults.usd_to_cny:g} CNY per USD (catalog defaults, as of {defaults.as_of}); "
        "check the current rate before quoting yuan"
    )
    notes.cite(defaults)
    return _Fx(defaults.usd_to_cny, fields.currency)


@dataclass(frozen=True)
class _Hardware:
    acc: Accelerator
    gpus: int
    server: Server | None
    servers: int | None
    installed_gpus: int


def _hardware(fields: PowerFields, catalog: Catalog, notes: _Notes) -> _Hardware:
    server = find_server(catalog, fields.server) if fields.server else None
    if fields.gpu:
        acc = find_accelerator(catalog, fields.gpu)
        if server and server.accelerator_id != acc.id:
            raise CalculatorInputError(
                "gpu",
                f"{server.name} holds {server.accelerator_id}, not {acc.id}; drop one of gpu and server",
            )
    elif server:
        acc = catalog.accelerator(server.accelerator_id)
    else:
        raise CalculatorInputError(
            "gpu", "name a catalog GPU (e.g. 'H100') or a reference server (e.g. 'dgx-h100')"
        )
    if fields.gpus is not None:
        gpus = fields.gpus
    elif server:
        gpus = server.accelerator_count
        notes.assumptions.append(f"{gpus} GPUs: one {server.name}")
    else:
        raise CalculatorInputError("gpus", f"give the number of {acc.name} GPUs")
    if server is None:
        return _Hardware(acc, gpus, None, None, gpus)
    per = server.accelerator_count
    servers = math.ceil(gpus / per)
    if servers * per != gpus:
        notes.warnings.append(
            f"{gpus} GPUs need {servers} x {server.name} ({per} GPUs each); power and purchase count "
            f"{servers} whole servers ({servers * per} GPU slots)"
        )
    return _Hardware(acc, gpus, server, servers, servers * per)


def _given_power(fields: PowerFields, notes: _Notes) -> float | None:
    """IT load the user stated (kW): directly, or as servers x kW per server; None to estimate it."""
    if fields.wall_power_kw is not None:
        return fields.wall_power_kw  # replaced by wall / PUE in _power, where the PUE is known
    if fields.it_power_kw is not None:
        notes.assumptions.append(f"IT load {fields.it_power_kw:g} kW (given)")
        return fields.it_power_kw
    if fields.server_power_kw is not None and fields.servers is not None and fields.server is None:
        notes.assumptions.append(
            f"IT load = {fields.servers} x {fields.server_power_kw:g} kW per server (given)"
        )
        return fields.servers * fields.server_power_kw
    return None


def _yearly_energy_kwh(wall_kw: float, utilization: float) -> float:
    """kW at the wall x hours in a year x share of the year the GPUs run."""
    return wall_kw * HOURS_PER_YEAR * utilization


@dataclass(frozen=True)
class _Power:
    hw: _Hardware
    gpu_kw: float
    it_kw: float
    pue: float
    wall_kw: float
    usd_per_kwh: float
    utilization: float

    def yearly_usd(self, utilization: float | None = None) -> float:
        """Electricity cost per year; at another utilisation when one is given."""
        u = self.utilization if utilization is None else utilization
        return _yearly_energy_kwh(self.wall_kw, u) * self.usd_per_kwh

    def summary(self, fx: _Fx) -> PowerDraw:
        hw = self.hw
        return PowerDraw(
            gpu=hw.acc.name,
            gpus=hw.gpus,
            installed_gpus=hw.installed_gpus,
            server=hw.server.name if hw.server else None,
            servers=hw.servers,
            gpu_power_kw=round(self.gpu_kw, 4),
            it_power_kw=round(self.it_kw, 4),
            pue=self.pue,
            wall_power_kw=round(self.wall_kw, 4),
            utilization=self.utilization,
            hours_per_year=HOURS_PER_YEAR,
            energy_mwh_per_year=round(_yearly_energy_kwh(self.wall_kw, self.utilization) / 1000, 3),
            electricity_usd_per_kwh=round(self.usd_per_kwh, 6),
            yearly_energy_cost=fx.money(self.yearly_usd()),
            monthly_energy_cost=fx.money(self.yearly_usd() / MONTHS_PER_YEAR),
            energy_cost_per_gpu_hour=fx.money(
                self.yearly_usd() / (hw.gpus * HOURS_PER_YEAR * self.utilization), 4
            ),
            usd_to_cny=fx.usd_to_cny,
        )


def _desk_side(acc: Accelerator, hw: _Hardware) -> bool:
    """A consumer or workstation card in a box of up to 8, no server named: a workstation, not a DGX."""
    return acc.segment != "datacenter" and hw.server is None and hw.installed_gpus <= 8


def _power(fields: PowerFields, hw: _Hardware, catalog: Catalog, fx: _Fx, notes: _Notes) -> _Power:
    """IT load from GPU TDP plus overhead (or the server's maximum), x PUE, priced per kWh."""
    defaults = catalog.defaults
    acc, server = hw.acc, hw.server
    tdp_w = fields.gpu_tdp_w or acc.tdp_w
    gpu_kw = hw.installed_gpus * tdp_w / 1000
    basis = (
        "given"
        if fields.gpu_tdp_w
        else "catalog estimate, no vendor figure"
        if acc.tdp_estimated
        else "catalog"
    )
    notes.assumptions.append(f"{acc.name} TDP {tdp_w:g} W per GPU ({basis})")
    notes.cite(acc)
    given_power = _given_power(fields, notes)
    if given_power is not None:
        it_kw = given_power
    elif server and hw.servers:
        per_server_kw = fields.server_power_kw or server.max_power_kw
        it_kw = hw.servers * per_server_kw
        source = "given" if fields.server_power_kw else f"catalog maximum system power, as of {server.as_of}"
        notes.assumptions.append(
            f"IT load = {hw.servers} x {per_server_kw:g} kW per {server.name} ({source}); "
            "a maximum rating: measured draw while training is usually lower"
        )
        notes.cite(server)
        ignored = [
            n
            for n, v in (
                ("gpu_tdp_w", fields.gpu_tdp_w),
                ("server_overhead_share", fields.server_overhead_share),
            )
            if v is not None
        ]
        if ignored:
            notes.warnings.append(
                f"{' and '.join(ignored)} ignored: the server's power is used; give server_power_kw to change it"
            )
    else:
        if fields.server_power_kw is not None:
            raise CalculatorInputError(
                "server_power_kw",
                "needs a server or a number of servers; without one use server_overhead_share",
            )
        if fields.server_overhead_share is not None:
            share = fields.server_overhead_share
            notes.assumptions.append(f"non-GPU server power {share:.0%} of GPU TDP (given)")
        elif _desk_side(acc, hw):
            host, efficiency = defaults.workstation_host_kw, defaults.workstation_psu_efficiency
            share = desk_side_kw(gpu_kw, catalog) / gpu_kw - 1
            notes.assumptions.append(
                f"a {acc.segment} build of {hw.installed_gpus} cards is a workstation: {host:g} kW for the CPU, "
                f"memory, drives and fans, and a {efficiency:.0%}-efficient power supply (catalog defaults, as of "
                f"{defaults.as_of}), not a DGX's server overhead"
            )
            notes.cite(defaults)
        else:
            share = defaults.server_overhead_share
            notes.assumptions.append(
                f"non-GPU server power {share:.0%} of GPU TDP (catalog defaults, as of {defaults.as_of}: "
                "DGX H100 (10.2 kW - 8 x 0.7 kW) / 5.6 kW); a node draws more than its GPUs"
            )
            notes.cite(defaults)
            if acc.segment != "datacenter":
                notes.warnings.append(
                    f"the default overhead share comes from 8-GPU DGX servers; a {acc.segment} build differs: "
                    "set server_overhead_share"
                )
        it_kw = gpu_kw * (1 + share)
    # a server's own notes say it is sold liquid-cooled (GB200 NVL72); a card's notes mention liquid-cooled
    # variants of other systems ("DGX B200 is air-cooled; 1,200 W belongs to the liquid-cooled GB200")
    liquid_only = server is not None and "liquid-cooled" in server.notes.lower()
    # a system sold liquid-cooled only (GB200 NVL72) is cooled that way unless the user says otherwise
    cooling = "liquid" if liquid_only and "cooling" not in fields.model_fields_set else fields.cooling
    if fields.wall_power_kw is not None:
        pue = fields.pue or 1.0
        it_kw = fields.wall_power_kw / pue
        notes.assumptions.append(
            f"{fields.wall_power_kw:g} kW at the wall (given, cooling included)"
            + (f"; IT load {it_kw:.4g} kW at PUE {pue:g} (given)" if fields.pue else "")
        )
    elif fields.pue is not None:
        pue = fields.pue
        notes.assumptions.append(f"PUE {pue:g} (given)")
    elif given_power is None and not server and _desk_side(acc, hw) and fields.server_overhead_share is None:
        pue = 1.0  # a workstation under a desk: the office's air conditioning is not a data hall's PUE
        notes.assumptions.append(
            "PUE 1 for a desk-side workstation (no data-hall cooling counted); give one if it sits in a hall"
        )
    else:
        pue = defaults.pue_liquid if cooling == "liquid" else defaults.pue_air
        notes.assumptions.append(
            f"PUE {pue:g} for {cooling} cooling (catalog defaults, as of {defaults.as_of})"
            + (f"; {(server or acc).name} is sold liquid-cooled" if cooling != fields.cooling else "")
        )
        notes.cite(defaults)
    if liquid_only and cooling == "air" and fields.pue is None:
        notes.warnings.append(f"{(server or acc).name} is liquid-cooled: set cooling='liquid' or give a PUE")
    if fields.electricity_price_per_kwh is not None:
        usd_per_kwh = fx.to_usd(fields.electricity_price_per_kwh)
        notes.assumptions.append(
            f"electricity {fields.electricity_price_per_kwh:g} {fx.currency}/kWh (given)"
            + (f" = ${usd_per_kwh:.4f}/kWh" if fx.currency != "USD" else "")
        )
        if usd_per_kwh > 1:
            notes.warnings.append(
                f"${usd_per_kwh:.2f} per kWh is very high: is it in cents, per MWh, or in another currency?"
            )
    else:
        usd_per_kwh = defaults.electricity_usd_per_kwh
        notes.assumptions.append(
            f"electricity ${usd_per_kwh:g}/kWh (catalog defaults, as of {defaults.as_of}: about the US "
            "industrial average); use your contracted tariff"
        )
        notes.cite(defaults)
    notes.assumptions.append(
        f"{HOURS_PER_YEAR:g} hours per year x utilisation {fields.utilization:g}; idle draw is not counted, "
        "so low utilisation understates power"
    )
    return _Power(hw, gpu_kw, it_kw, pue, it_kw * pue, usd_per_kwh, fields.utilization)


# --- power_cost ------------------------------------------------------------------------------------


CONTINUOUS_LOAD_SHARE = 0.8
NEC_CONTINUOUS = Reference(
    title="NFPA 70 National Electrical Code 210.19(A)(1) and 210.20(A): continuous loads at 125% of the load, i.e. "
    "80% of a breaker's rating",
    url="https://www.nfpa.org/codes-and-standards/nfpa-70-standard-development/70",
)
