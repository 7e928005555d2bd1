"""Cost calculators: electricity for a GPU fleet, cloud GPU-hours, and buy vs lease vs cloud over years.

Prices, exchange rate, PUE, maintenance and server overhead come from the catalog by id, each with its
as-of date; any value the user gives replaces the catalog's. Money the user gives is in ``currency``
(USD or CNY); every money output is shown in both.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from datetime import date
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from knowledge.catalog import Accelerator, Catalog, CloudPrice, Entry, PricePoint, Server
from tools.common import (
    HOURS_PER_YEAR,
    CalculatorInputError,
    Reference,
    ToolInput,
    ToolOutput,
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


class PowerCostInput(ToolInput, PowerFields, MoneyFields):
    """Inputs of the power-cost calculator: GPUs or a reference server, cooling, utilisation, tariff."""

    years: float | None = Field(
        default=None, gt=0, le=30, description="Years to total the bill over (the yearly cost times years)."
    )
    circuit_amps: float | None = Field(
        default=None, gt=0, le=400, description="Breaker rating of the circuit the machine plugs into, amps."
    )
    circuit_volts: float = Field(
        default=120,
        ge=100,
        le=480,
        description="Circuit voltage (120 in a US office, 220-230 in China and Europe).",
    )


class PowerCostOutput(ToolOutput, PowerDraw):
    """Power at the wall, energy per year and its cost in USD and CNY."""

    cost_over_years: Money | None = Field(default=None, description="The yearly cost x years, when given.")
    circuit_kw: float | None = Field(
        default=None,
        description="What the circuit carries continuously: volts x amps x 80% (NEC 210.19/210.20), kW.",
    )
    fits_circuit: bool | None = Field(
        default=None, description="Whether the IT load stays within the circuit's continuous rating."
    )


def power_cost(inp: PowerCostInput, catalog: Catalog) -> PowerCostOutput:
    """Estimate the power draw and yearly electricity cost of N GPUs, in kW, MWh and USD/CNY.

    IT load is N x the GPU's TDP plus a non-GPU server overhead share (CPUs, fans, NICs; default from
    the catalog), or, when a reference server such as 'dgx-h100' is given, whole servers x the server's
    maximum power. Wall power = IT load x PUE (air or liquid cooling default, or a given PUE). Energy per
    year = wall kW x 8,760 h x utilisation; cost = energy x electricity price (catalog default or a given
    price in USD or CNY per kWh). Catalog figures carry their as-of dates.
    """
    notes = _Notes()
    fx = _fx(inp, catalog, notes)
    hw = _hardware(inp, catalog, notes)
    power = _power(inp, hw, catalog, fx, notes)
    draw = power.summary(fx)
    it = "servers x server max kW" if hw.server else "GPUs x TDP_W / 1000 x (1 + server overhead share)"
    yearly = draw.yearly_energy_cost
    over = (
        Money(usd=round(yearly.usd * inp.years, 2), cny=round(yearly.cny * inp.years, 2))
        if inp.years
        else None
    )
    circuit = fits = None
    if inp.circuit_amps:
        # a breaker carries 80% of its rating for loads running three hours or more (NEC 210.19(A)(1), 210.20(A))
        circuit = round(inp.circuit_volts * inp.circuit_amps * CONTINUOUS_LOAD_SHARE / 1000, 3)
        fits = draw.it_power_kw <= circuit
        notes.assumptions.append(
            f"a {inp.circuit_amps:g} A circuit at {inp.circuit_volts:g} V carries {circuit:g} kW continuously "
            f"({CONTINUOUS_LOAD_SHARE:.0%} of its {inp.circuit_volts * inp.circuit_amps / 1000:g} kW rating)"
        )
        notes.sources.append(NEC_CONTINUOUS)
    return PowerCostOutput(
        formula=(
            f"IT kW = {it}; wall kW = IT kW x PUE; MWh/year = wall kW x {HOURS_PER_YEAR:g} h x utilisation / 1000; "
            "cost/year = MWh/year x 1000 x price per kWh; CNY = USD x usd_to_cny"
        ),
        assumptions=notes.assumptions,
        warnings=notes.warnings,
        sources=notes.sources,
        cost_over_years=over,
        circuit_kw=circuit,
        fits_circuit=fits,
        **dict(draw),
    )


# --- cloud_cost ------------------------------------------------------------------------------------


class CloudPriceRow(BaseModel):
    """One catalog cloud price, per GPU-hour."""

    id: str
    provider: str
    instance_type: str
    pricing: str
    region: str
    gpus_per_instance: int
    usd_per_instance_hour: float
    usd_per_gpu_hour: float
    cny_per_gpu_hour: float
    as_of: date
    superseded: bool = Field(
        description="A newer price for the same provider, instance, pricing and region exists."
    )
    counted: bool = Field(
        description="Counted in the cheapest and median (current and of the chosen pricing)."
    )


def _cloud_rows(catalog: Catalog, acc: Accelerator, fx: _Fx, *, on_demand_only: bool) -> list[CloudPriceRow]:
    """Every catalog price for ``acc``, cheapest first, marking superseded and uncounted ones."""
    prices = catalog.cloud_prices_for(acc.id)

    def key(c: CloudPrice) -> tuple[str, str, str, str]:
        return (c.provider, c.instance_type, c.pricing, c.region)

    newest: dict[tuple[str, str, str, str], date] = {}
    for c in prices:
        newest[key(c)] = max(newest.get(key(c), c.as_of), c.as_of)
    rows = []
    for c in prices:
        superseded = c.as_of < newest[key(c)]
        rows.append(
            CloudPriceRow(
                id=c.id,
                provider=c.provider,
                instance_type=c.instance_type,
                pricing=c.pricing,
                region=c.region,
                gpus_per_instance=c.accelerators_per_instance,
                usd_per_instance_hour=round(c.usd_per_accelerator_hour * c.accelerators_per_instance, 4),
                usd_per_gpu_hour=c.usd_per_accelerator_hour,
                cny_per_gpu_hour=fx.money(c.usd_per_accelerator_hour, 4).cny,
                as_of=c.as_of,
                superseded=superseded,
                counted=not superseded and (c.pricing == "on-demand" or not on_demand_only),
            )
        )
    return rows


def _cheapest(rows: list[CloudPriceRow]) -> CloudPriceRow | None:
    return next((r for r in rows if r.counted), None)


def _describe_price(row: CloudPriceRow) -> str:
    return (
        f"{row.provider} {row.instance_type} {row.pricing} ${row.usd_per_gpu_hour:g}/GPU-hour "
        f"({row.region}, as of {row.as_of})"
    )


class CloudCostInput(ToolInput, MoneyFields):
    """Inputs of the cloud-cost calculator: GPU-hours (or GPUs x days) on one catalog GPU."""

    gpu: str = Field(description="Catalog GPU, e.g. 'H100', 'A100 80GB', 'MI300X', 'H800'.")
    gpu_hours: float | None = Field(
        default=None, gt=0, le=1e12, description="GPU-hours to price (or give gpus and days)."
    )
    gpus: int | None = Field(default=None, ge=1, le=1_000_000, description="GPUs rented (with days).")
    days: float | None = Field(default=None, gt=0, le=36_500, description="Days rented (with gpus).")
    price_per_gpu_hour: float | None = Field(
        default=None,
        gt=0,
        le=10_000,
        description="Your price per GPU-hour in `currency` (overrides the catalog).",
    )
    price_per_instance_hour: float | None = Field(
        default=None,
        gt=0,
        le=100_000,
        description="Your price per instance-hour in `currency` (a whole multi-GPU instance, e.g. 8 GPUs).",
    )
    gpus_per_instance: int = Field(
        default=8, ge=1, le=72, description="GPUs in one instance (with its price)."
    )
    on_demand_only: bool = Field(
        default=True,
        description="Count only on-demand prices in the cheapest and median (community, spot and reserved are still listed).",
    )
    storage_tb: float | None = Field(
        default=None,
        gt=0,
        le=1e6,
        description="Data kept in cloud storage beside the GPUs, TB (10^12 bytes).",
    )
    storage_price_per_gb_month: float | None = Field(
        default=None,
        gt=0,
        le=100,
        description="Your storage price per GB-month in `currency` (with storage_tb).",
    )
    storage_months: float = Field(default=1, gt=0, le=120, description="Months the data is kept.")

    @model_validator(mode="after")
    def _check_amount(self) -> CloudCostInput:
        if (self.storage_tb is None) != (self.storage_price_per_gb_month is None):
            raise ValueError("give storage_tb and storage_price_per_gb_month together")
        if self.gpu_hours is not None and (self.gpus is not None or self.days is not None):
            raise ValueError("give gpu_hours, or gpus and days, not both")
        if self.gpu_hours is None and (self.gpus is None or self.days is None):
            raise ValueError("give gpu_hours, or both gpus and days")
        if self.price_per_gpu_hour is not None and self.price_per_instance_hour is not None:
            raise ValueError("give price_per_gpu_hour or price_per_instance_hour, not both")
        return self


class CloudCostOutput(ToolOutput):
    """Catalog cloud prices for the GPU and the cost of the GPU-hours."""

    gpu: str
    gpu_hours: float
    prices: list[CloudPriceRow] = Field(description="Catalog prices for this GPU, cheapest first.")
    cheapest: CloudPriceRow | None
    median_usd_per_gpu_hour: float | None = Field(description="Median of the counted catalog prices.")
    price_used_usd_per_gpu_hour: float
    price_per_gpu_hour_given: float | None = Field(
        default=None,
        description="Your price per GPU-hour in `currency` (an instance price divided by its GPUs).",
    )
    price_basis: str
    total: Money = Field(description="GPU-hours x the price used.")
    total_at_cheapest: Money | None
    total_at_median: Money | None
    storage: Money | None = Field(
        default=None, description="TB x 1,000 GB x price per GB-month x months, when storage was given."
    )
    total_with_storage: Money | None = Field(default=None, description="GPU-hours and storage together.")
    usd_to_cny: float


def cloud_cost(inp: CloudCostInput, catalog: Catalog) -> CloudCostOutput:
    """Price GPU-hours (or GPUs x days) in the cloud: catalog prices per GPU-hour, cheapest, median, total.

    Lists every dated catalog cloud price for the GPU (provider, instance, pricing, $/GPU-hour, as-of date),
    marks prices superseded by a newer one for the same instance, and gives the cheapest and median
    current on-demand price. The total is GPU-hours x your price if you give one, else x the cheapest
    catalog price, in USD and CNY. Like published training costs (e.g. DeepSeek-V3: GPU-hours x $2), it
    excludes storage, egress, staff, failed runs and experiments.
    """
    notes = _Notes()
    fx = _fx(inp, catalog, notes)
    acc = find_accelerator(catalog, inp.gpu)
    if inp.gpu_hours is not None:
        gpu_hours = inp.gpu_hours
    else:
        # the validator guarantees both
        assert inp.gpus is not None
        assert inp.days is not None
        gpu_hours = inp.gpus * inp.days * 24
        notes.assumptions.append(f"{inp.gpus} GPUs x {inp.days:g} days x 24 h = {gpu_hours:g} GPU-hours")
    rows = _cloud_rows(catalog, acc, fx, on_demand_only=inp.on_demand_only)
    counted = [r for r in rows if r.counted]
    cheapest = _cheapest(rows)
    median = statistics.median(r.usd_per_gpu_hour for r in counted) if counted else None
    by_id = {c.id: c for c in catalog.cloud_prices_for(acc.id)}
    notes.cite(*(by_id[r.id] for r in rows if r.counted or r.superseded))
    if inp.price_per_instance_hour is not None:
        # "¥180 per 8-GPU instance-hour": the GPU-hour costs an eighth of it
        price = fx.to_usd(inp.price_per_instance_hour) / inp.gpus_per_instance
        basis = (
            f"given: {inp.price_per_instance_hour:g} {inp.currency} per {inp.gpus_per_instance}-GPU instance-hour "
            f"= {inp.price_per_instance_hour / inp.gpus_per_instance:.4g} {inp.currency}/GPU-hour"
        )
    elif inp.price_per_gpu_hour is not None:
        price = fx.to_usd(inp.price_per_gpu_hour)
        basis = f"given: {inp.price_per_gpu_hour:g} {inp.currency}/GPU-hour"
    elif cheapest is not None:
        price = cheapest.usd_per_gpu_hour
        basis = f"cheapest catalog price: {_describe_price(cheapest)}"
    else:
        raise CalculatorInputError(
            "price_per_gpu_hour", f"the catalog has no cloud price for {acc.name}; give price_per_gpu_hour"
        )
    if any(r.superseded for r in rows):
        notes.warnings.append(
            "superseded prices are listed for comparison with older studies but not counted: "
            + "; ".join(_describe_price(r) for r in rows if r.superseded)
        )
    if cheapest and median and cheapest.usd_per_gpu_hour < median / 2:
        notes.warnings.append(
            f"the cheapest price is under half the median: check that {cheapest.provider} offers the "
            "interconnect (multi-node InfiniBand) and reliability the job needs"
        )
    notes.assumptions += [
        "prices per GPU-hour = instance price per hour / GPUs per instance; hyperscaler prices include "
        "CPUs, RAM, NVMe and network, marketplace prices are host-set and move often",
        "on-demand list prices; committed-use and negotiated prices are typically 30-60% lower",
        "cost = GPU-hours x price: storage, egress, staff, failed runs and experiments are excluded"
        if inp.storage_tb is None
        else "cost = GPU-hours x price + the storage given: egress, staff, failed runs and experiments are excluded",
    ]
    storage = None
    if inp.storage_tb is not None and inp.storage_price_per_gb_month is not None:
        # the user's line item: decimal TB as storage is billed, per GB-month
        storage = fx.to_usd(inp.storage_tb * 1000 * inp.storage_price_per_gb_month * inp.storage_months)
        notes.assumptions.append(
            f"storage {inp.storage_tb:g} TB x 1,000 GB x {inp.storage_price_per_gb_month:g} {inp.currency} per "
            f"GB-month x {inp.storage_months:g} months"
        )
    notes.cite(DEEPSEEK_V3)
    return CloudCostOutput(
        formula="total = GPU-hours x price per GPU-hour (GPU-hours = GPUs x days x 24) [+ TB x 1,000 x price per "
        "GB-month x months]; CNY = USD x usd_to_cny",
        assumptions=notes.assumptions,
        warnings=notes.warnings,
        sources=notes.sources,
        gpu=acc.name,
        gpu_hours=gpu_hours,
        prices=rows,
        cheapest=cheapest,
        median_usd_per_gpu_hour=None if median is None else round(median, 4),
        price_used_usd_per_gpu_hour=round(price, 6),
        price_per_gpu_hour_given=(
            inp.price_per_instance_hour / inp.gpus_per_instance
            if inp.price_per_instance_hour is not None
            else inp.price_per_gpu_hour
        ),
        price_basis=basis,
        total=fx.money(gpu_hours * price),
        total_at_cheapest=fx.money(gpu_hours * cheapest.usd_per_gpu_hour) if cheapest else None,
        total_at_median=None if median is None else fx.money(gpu_hours * median),
        storage=None if storage is None else fx.money(storage),
        total_with_storage=None if storage is None else fx.money(gpu_hours * price + storage),
        usd_to_cny=fx.usd_to_cny,
    )


# --- tco -------------------------------------------------------------------------------------------


class TcoInput(ToolInput, PowerFields, MoneyFields):
    """Inputs of the TCO calculator: hardware, period, utilisation, and the buy, lease and cloud terms."""

    years: int = Field(default=3, ge=1, le=10, description="Period compared, years.")
    months: int | None = Field(
        default=None, ge=1, le=120, description="Period compared in months (e.g. 18); overrides `years`."
    )
    capex_per_server: float | None = Field(
        default=None,
        gt=0,
        le=1e9,
        description="Your price per server in `currency` (CPUs, RAM, NICs included).",
    )
    capex_total: float | None = Field(
        default=None,
        gt=0,
        le=1e12,
        description="Your total purchase price (GPUs, servers, network, storage) in `currency`; overrides all shares.",
    )
    capex_per_gpu: float | None = Field(
        default=None, gt=0, le=1e7, description="Your price per GPU in `currency` (overrides the catalog)."
    )
    platform_share: float = Field(
        default=0.30,
        ge=0,
        le=5,
        description="CPUs, RAM, NICs, chassis as a share of GPU capex (used when pricing per GPU); an assumption.",
    )
    network_storage_share: float = Field(
        default=0.10,
        ge=0,
        le=5,
        description="Cluster network and storage as a share of server capex; an assumption.",
    )
    network_storage_cost: float | None = Field(
        default=None,
        gt=0,
        le=1e12,
        description="Your price for the cluster's network and storage in `currency` (switches, cables, "
        "storage systems); replaces network_storage_share.",
    )
    maintenance_share_per_year: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="Support and spares per year as a share of capex; default from the catalog.",
    )
    licences_per_gpu_per_year: float = Field(
        default=0,
        ge=0,
        le=1e6,
        description="Software licences per GPU per year in `currency` (e.g. NVIDIA AI Enterprise).",
    )
    staff_per_year: float = Field(
        default=0,
        ge=0,
        le=1e9,
        description="Operations staff for owned or leased hardware per year in `currency`.",
    )
    colocation_per_kw_month: float = Field(
        default=0, ge=0, le=1e5, description="Colocation rent per kW of IT load per month in `currency`."
    )
    colocation_per_month: float = Field(
        default=0,
        ge=0,
        le=1e9,
        description="Colocation rent per month for the whole deployment in `currency` (racks or servers x rate), "
        "on top of any per-kW rent.",
    )
    lease_per_month: float | None = Field(
        default=None, gt=0, le=1e10, description="Your lease payment per month in `currency`."
    )
    lease_rate_per_month: float = Field(
        default=0.03,
        gt=0,
        le=0.5,
        description="Lease payment per month as a share of capex when no payment is given; an assumption.",
    )
    lease_includes_maintenance: bool = Field(
        default=False, description="The lease covers support and spares, so maintenance is not added."
    )
    residual_share: float = Field(
        default=0.0,
        ge=0,
        le=1,
        description="Resale value of the bought hardware at the end of the period, as a share of capex.",
    )
    cloud_price_per_gpu_hour: float | None = Field(
        default=None,
        gt=0,
        le=10_000,
        description="Your cloud price per GPU-hour in `currency` (overrides the catalog).",
    )

    cloud_per_month: float | None = Field(
        default=None,
        gt=0,
        le=1e11,
        description="Your cloud bill per month in `currency` for the same work; replaces GPU-hours x price.",
    )
    cloud_committed: bool = Field(
        default=False,
        description="The cloud price is reserved or committed: every hour of the period is paid, used or not.",
    )

    @model_validator(mode="after")
    def _check_overrides(self) -> TcoInput:
        if self.capex_total is not None and self.capex_per_gpu is not None:
            raise ValueError("give capex_total or capex_per_gpu, not both")
        if self.cloud_per_month is not None and self.cloud_price_per_gpu_hour is not None:
            raise ValueError("give cloud_per_month or cloud_price_per_gpu_hour, not both")
        if {"lease_per_month", "lease_rate_per_month"} <= self.model_fields_set:
            raise ValueError("give lease_per_month or lease_rate_per_month, not both")
        return self


class PurchasePrice(BaseModel):
    """The catalog purchase price used for capex."""

    id: str
    item_id: str
    unit: str
    kind: str = Field(description="list, street, msrp or estimate.")
    usd: float
    as_of: date


class OptionAmounts(BaseModel):
    buy: Money
    lease: Money
    cloud: Money


class YearCashFlow(BaseModel):
    year: int
    buy: Money = Field(description="Capex in year 1, plus the year's opex.")
    lease: Money
    cloud: Money
    cumulative: OptionAmounts


class TcoOutput(ToolOutput):
    """Buy vs lease vs cloud over the period: totals, yearly cash flow, cheapest, break-even."""

    gpu: str
    gpus: int
    years: float = Field(description="Period compared, years (months / 12 when months were given).")
    utilization: float
    used_gpu_hours_per_year: float = Field(description="GPUs x 8,760 h x utilisation.")
    capex: Money
    capex_items: list[CostItem]
    purchase_price: PurchasePrice | None
    power: PowerDraw
    buy_opex_per_year: Money
    buy_opex_items: list[CostItem] = Field(description="Yearly opex of owned hardware.")
    lease_per_month: Money
    lease_opex_per_year: Money = Field(description="Buy opex, less maintenance when the lease includes it.")
    cloud_usd_per_gpu_hour: float
    cloud_priced: bool = Field(
        default=True, description="False when no cloud price was given or found: cloud is not compared."
    )
    cloud_price_basis: str
    totals: OptionAmounts
    per_used_gpu_hour: OptionAmounts
    cash_flow: list[YearCashFlow]
    cheapest: Option
    later_break_even_month: int | None = Field(
        default=None,
        description="When buying never overtakes cloud within the period: the month it would, at the same "
        "costs (None if never).",
    )
    break_even_month: int | None = Field(
        description="First month in the period when cumulative buy cost <= cumulative cloud cost; null if none."
    )
    break_even_utilization: float | None = Field(
        description="Utilisation at which buying and cloud cost the same over the period; null if above 100%."
    )
    verdict: str
    usd_to_cny: float


def _capex(
    inp: TcoInput, hw: _Hardware, catalog: Catalog, fx: _Fx, notes: _Notes
) -> tuple[float, list[CostItem], PurchasePrice | None]:
    """Purchase price: the user's total, or servers (or GPUs + platform share) + network/storage share."""
    if inp.capex_total is not None:
        total = fx.to_usd(inp.capex_total)
        notes.assumptions.append(f"capex {inp.capex_total:g} {inp.currency} (given, everything included)")
        return total, [CostItem(name="capex", amount=fx.money(total), basis="given")], None

    def price_row(p: PricePoint) -> PurchasePrice:
        notes.cite(p)
        notes.assumptions.append(
            f"{p.unit} price ${p.usd:,.0f} ({p.kind}, catalog {p.id}, as of {p.as_of}); "
            "data-centre prices are rarely published and vary with volume and date"
        )
        return PurchasePrice(id=p.id, item_id=p.item_id, unit=p.unit, kind=p.kind, usd=p.usd, as_of=p.as_of)

    items: list[CostItem] = []
    price: PurchasePrice | None = None
    if inp.capex_per_server is not None:
        servers = hw.servers or inp.servers or math.ceil(hw.installed_gpus / 8)
        hardware = servers * fx.to_usd(inp.capex_per_server)
        items.append(
            CostItem(
                name="servers",
                amount=fx.money(hardware),
                basis=f"{servers} x {inp.capex_per_server:g} {inp.currency} per server (given)",
            )
        )
        notes.assumptions.append(
            f"{servers} servers x {inp.capex_per_server:,.0f} {inp.currency} each (given)"
        )
        if servers == 1:
            return hardware, items, None  # one box: no cluster network or shared storage to add
    server_prices = catalog.prices_for(hw.server.id) if hw.server else []
    if inp.capex_per_server is not None:
        pass  # priced above
    elif hw.server and hw.servers and inp.capex_per_gpu is None and server_prices:
        price = price_row(server_prices[0])
        hardware = hw.servers * price.usd
        basis = f"{hw.servers} x ${price.usd:,.0f} per {hw.server.name} ({price.kind}, {price.as_of})"
        items.append(CostItem(name="servers", amount=fx.money(hardware), basis=basis))
        notes.assumptions.append(
            "the server price includes CPUs, RAM, NICs and chassis: no platform share added"
        )
    else:
        if inp.capex_per_gpu is not None:
            per_gpu = fx.to_usd(inp.capex_per_gpu)
            basis = f"{hw.installed_gpus} x {inp.capex_per_gpu:g} {inp.currency} per GPU (given)"
        else:
            gpu_prices = catalog.prices_for(hw.acc.id)
            if not gpu_prices:
                raise CalculatorInputError(
                    "capex_per_gpu",
                    f"the catalog has no purchase price for {hw.acc.name}; give capex_per_gpu or capex_total",
                )
            price = price_row(gpu_prices[0])
            per_gpu = price.usd
            basis = f"{hw.installed_gpus} x ${per_gpu:,.0f} per GPU ({price.kind}, {price.as_of})"
            if hw.server:
                notes.warnings.append(
                    f"no catalog price for {hw.server.name}: priced per GPU plus platform share"
                )
        gpus_usd = hw.installed_gpus * per_gpu
        platform = inp.platform_share * gpus_usd
        hardware = gpus_usd + platform
        items += [
            CostItem(name="GPUs", amount=fx.money(gpus_usd), basis=basis),
            CostItem(
                name="platform",
                amount=fx.money(platform),
                basis=f"{inp.platform_share:.0%} of GPU capex for CPUs, RAM, NICs, chassis "
                + ("(given)" if "platform_share" in inp.model_fields_set else "(assumption)"),
            ),
        ]
    shares: list[str] = []
    if inp.network_storage_cost is not None:
        # "network $600k, storage $400k": the user's own figures, not a share
        network = fx.to_usd(inp.network_storage_cost)
        basis = f"{inp.network_storage_cost:g} {inp.currency} (given)"
        notes.assumptions.append(f"network and storage {inp.network_storage_cost:g} {inp.currency} (given)")
    else:
        network = inp.network_storage_share * hardware
        basis = f"{inp.network_storage_share:.0%} of server capex " + (
            "(given)" if "network_storage_share" in inp.model_fields_set else "(assumption)"
        )
        shares.append(f"network and storage {inp.network_storage_share:.0%} of server capex")
    items.append(CostItem(name="network and storage", amount=fx.money(network), basis=basis))
    if inp.capex_per_server is None and (price is None or price.unit == "accelerator"):
        shares.insert(0, f"platform (CPUs, RAM, NICs, chassis) {inp.platform_share:.0%} of GPU capex")
    kind = "planning shares, not quotes" if len(shares) > 1 else "a planning share, not a quote"
    if shares:
        notes.assumptions.append(f"{' and '.join(shares)}: {kind}")
    return hardware + network, items, price


def tco(inp: TcoInput, catalog: Catalog) -> TcoOutput:
    """Compare the total cost of buying, leasing or renting cloud GPUs over N years at a utilisation.

    Buy = capex (catalog purchase price of the GPU or server with its date and kind, or yours; per-GPU
    prices get a platform share for CPUs/RAM/NICs/chassis, and a network/storage share is added) plus
    yearly opex: electricity (GPU TDP or server power x PUE x hours x utilisation x price), maintenance
    (share of capex per year), software licences per GPU, staff and colocation (per kW and/or per month). Lease = monthly
    payment (yours, or a share of capex per month) plus the same opex, less maintenance if the lease
    includes it. Cloud = GPU-hours used (GPUs x 8,760 h x utilisation) x price per GPU-hour (cheapest
    current catalog on-demand, or yours). Returns the three totals and yearly cash flows in USD and CNY,
    the cheapest option, the month buying overtakes cloud, and the utilisation at which buying breaks even.
    """
    notes = _Notes()
    fx = _fx(inp, catalog, notes)
    hw = _hardware(inp, catalog, notes)
    power = _power(inp, hw, catalog, fx, notes)
    defaults = catalog.defaults
    years: float = inp.months / MONTHS_PER_YEAR if inp.months else float(inp.years)
    u = inp.utilization
    if inp.months:
        notes.assumptions.append(f"period {inp.months} months (given)")

    capex, capex_items, purchase = _capex(inp, hw, catalog, fx, notes)

    if inp.maintenance_share_per_year is not None:
        maintenance_share = inp.maintenance_share_per_year
        maintenance_basis = f"{maintenance_share:.0%} of capex per year (given)"
    else:
        maintenance_share = defaults.maintenance_share_per_year
        maintenance_basis = (
            f"{maintenance_share:.0%} of capex per year (catalog defaults, as of {defaults.as_of})"
        )
        notes.cite(defaults)
    maintenance = maintenance_share * capex
    licences = fx.to_usd(inp.licences_per_gpu_per_year) * hw.installed_gpus
    staff = fx.to_usd(inp.staff_per_year)
    colocation = (
        fx.to_usd(inp.colocation_per_kw_month) * power.it_kw + fx.to_usd(inp.colocation_per_month)
    ) * MONTHS_PER_YEAR
    fixed_opex = {
        "maintenance": (maintenance, maintenance_basis),
        "licences": (
            licences,
            f"{hw.installed_gpus} GPUs x {inp.licences_per_gpu_per_year:g} {inp.currency}",
        ),
        "staff": (staff, f"{inp.staff_per_year:g} {inp.currency} per year"),
        "colocation": (
            colocation,
            f"{power.it_kw:.2f} kW IT load x {inp.colocation_per_kw_month:g} {inp.currency} per kW-month x 12"
            + (
                f" + {inp.colocation_per_month:g} {inp.currency} per month x 12"
                if inp.colocation_per_month
                else ""
            ),
        ),
    }
    buy_opex_items = [
        CostItem(
            name="electricity",
            amount=fx.money(power.yearly_usd()),
            basis=f"{power.wall_kw:.2f} kW at the wall x {HOURS_PER_YEAR:g} h x {u:g} x ${power.usd_per_kwh:.4f}/kWh",
        ),
        *(CostItem(name=k, amount=fx.money(v), basis=b) for k, (v, b) in fixed_opex.items()),
    ]
    fixed = sum(v for v, _ in fixed_opex.values())
    buy_opex = power.yearly_usd() + fixed
    lease_opex = buy_opex - (maintenance if inp.lease_includes_maintenance else 0.0)

    if inp.lease_per_month is not None:
        lease_month = fx.to_usd(inp.lease_per_month)
        notes.assumptions.append(f"lease {inp.lease_per_month:g} {inp.currency} per month (given)")
    else:
        lease_month = inp.lease_rate_per_month * capex
        notes.assumptions.append(
            f"lease payment {inp.lease_rate_per_month:.1%} of capex per month: an assumption, not a quote "
            "(about what a 36-month lease of the hardware costs); ask lessors for a rate"
        )

    cloud_priced = True
    if inp.cloud_per_month is not None:
        # the bill the team pays now for the same work: its GPU-hour price is implied, not looked up
        cloud_price = fx.to_usd(inp.cloud_per_month) * MONTHS_PER_YEAR / (hw.gpus * HOURS_PER_YEAR * u)
        cloud_basis = f"given: a cloud bill of {inp.cloud_per_month:g} {inp.currency} per month"
        notes.assumptions.append(
            f"cloud bill {inp.cloud_per_month:g} {inp.currency} per month (given) for the same work, "
            f"the same as {cloud_price:.3g} USD per GPU-hour on {hw.gpus} GPUs at {u:.0%}"
        )
    elif inp.cloud_price_per_gpu_hour is not None:
        cloud_price = fx.to_usd(inp.cloud_price_per_gpu_hour)
        cloud_basis = f"given: {inp.cloud_price_per_gpu_hour:g} {inp.currency}/GPU-hour"
    else:
        cheapest = cheapest_on_demand(catalog, hw.acc)
        if cheapest is None:
            # owning is still costed (its total and its cost per GPU-hour); the cloud is left out of the
            # comparison until a price is given
            cloud_price, cloud_priced = 0.0, False
            cloud_basis = f"no cloud price: the catalog has none for {hw.acc.name}"
            notes.warnings.append(
                f"the catalog has no on-demand cloud price for {hw.acc.name}: cloud is not compared; give "
                "a cloud price per GPU-hour to compare it"
            )
        else:
            cloud_price, described, cited = cheapest
            cloud_basis = f"cheapest current catalog on-demand price: {described}"
            notes.cite(*cited)

    used_hours = hw.gpus * HOURS_PER_YEAR * u
    # a reserved or committed price is paid for every hour of the term; on-demand only for the hours used
    billed_hours = hw.gpus * HOURS_PER_YEAR if inp.cloud_committed else used_hours
    cloud_year = billed_hours * cloud_price
    lease_year = lease_month * MONTHS_PER_YEAR + lease_opex
    residual = inp.residual_share * capex  # sold at the end of the period
    totals = {
        "buy": capex + years * buy_opex - residual,
        "lease": years * lease_year,
        "cloud": years * cloud_year,
    }

    cash_flow = []
    cumulative = dict.fromkeys(totals, 0.0)
    for year in range(1, math.ceil(years) + 1):
        part = min(1.0, years - (year - 1))  # the last year of an 18-month period is half a year
        flows = {
            "buy": buy_opex * part
            + (capex if year == 1 else 0.0)
            - (residual if year == math.ceil(years) else 0.0),
            "lease": lease_year * part,
            "cloud": cloud_year * part,
        }
        for k, v in flows.items():
            cumulative[k] += v
        cash_flow.append(
            YearCashFlow(
                year=year,
                buy=fx.money(flows["buy"]),
                lease=fx.money(flows["lease"]),
                cloud=fx.money(flows["cloud"]),
                cumulative=OptionAmounts(**{k: fx.money(v) for k, v in cumulative.items()}),
            )
        )

    # capex is paid up front; opex and cloud bills accrue evenly month by month (1e-12: exact ties count)
    break_even_month = next(
        (
            m
            for m in range(1, round(years * MONTHS_PER_YEAR) + 1)
            if capex + buy_opex * m / MONTHS_PER_YEAR <= cloud_year * m / MONTHS_PER_YEAR * (1 + 1e-12)
        ),
        None,
    )
    # buy(u) = capex + years x (fixed + power at 100% x u); cloud(u) = years x GPUs x 8760 x price x u
    margin = hw.gpus * HOURS_PER_YEAR * cloud_price - power.yearly_usd(1.0)
    raw_break_even_u = (capex - residual + years * fixed) / (years * margin) if margin > 0 else math.inf
    break_even_u = round(raw_break_even_u, 4) if raw_break_even_u <= 1 and not inp.cloud_committed else None

    options: tuple[Option, ...] = ("buy", "lease", "cloud") if cloud_priced else ("buy", "lease")
    cheapest_option: Option = min(options, key=lambda k: totals[k])
    used_total = used_hours * years
    later = None
    if break_even_month is None:
        when = f"buying does not overtake cloud within {years:g} years"
        if cloud_year > buy_opex:
            month = later = math.ceil(capex / ((cloud_year - buy_opex) / MONTHS_PER_YEAR))
            notes.warnings.append(f"at {u:.0%} utilisation buying would overtake cloud only in month {month}")
    else:
        when = f"buying overtakes cloud in month {break_even_month}"
    if inp.cloud_committed:
        even = "a reserved cloud price is paid whatever the utilisation, so no break-even utilisation applies"
    elif break_even_u is None:
        even = "buying never breaks even with cloud, even at 100% utilisation"
    else:
        even = f"buying breaks even with cloud at {break_even_u:.0%} utilisation"
    verdict = (
        f"Over {years:g} years at {u:.0%} utilisation: "
        + ", ".join(f"{k} ${v:,.0f} (¥{v * fx.usd_to_cny:,.0f})" for k, v in totals.items())
        + f"; {cheapest_option} is cheapest; {when}; {even}."
    )
    if hw.gpus != hw.installed_gpus:
        notes.warnings.append("cloud rents only the GPUs asked for; buying and leasing pay for whole servers")
    notes.assumptions += [
        f"resale value {inp.residual_share:.0%} of capex at the end (given); no financing cost, inflation or "
        "discounting; prices stay flat over the period"
        if residual
        else "no resale value, financing cost, inflation or discounting; prices stay flat over the period",
        "cloud cost is the monthly bill given, for the whole period"
        if inp.cloud_per_month is not None
        else "cloud cost is every GPU-hour of the period x the reserved price (paid whether used or not): no "
        "staff, storage or egress added for cloud"
        if inp.cloud_committed
        else "cloud cost is GPU-hours used x price: no staff, storage or egress added for cloud",
        "buy and lease pay for idle hours; cloud bills only the hours used",
    ]
    if staff == 0:
        notes.warnings.append("staff cost is 0: owned clusters need operators; give staff_per_year")
    return TcoOutput(
        formula=(
            "buy = capex + years x (electricity + maintenance share x capex + licences + staff + colocation) "
            "- resale value; "
            "lease = years x (12 x monthly payment + opex [- maintenance]); cloud = years x GPUs x 8760 h x "
            "utilisation x price; electricity = wall kW x 8760 h x utilisation x price/kWh; "
            "break-even utilisation = (capex - resale + years x fixed opex) / (years x (GPUs x 8760 x cloud price - "
            "electricity at 100%))"
        ),
        assumptions=notes.assumptions,
        warnings=notes.warnings,
        sources=notes.sources,
        gpu=hw.acc.name,
        gpus=hw.gpus,
        years=years,
        utilization=u,
        used_gpu_hours_per_year=round(used_hours, 4),
        capex=fx.money(capex),
        capex_items=capex_items,
        purchase_price=purchase,
        power=power.summary(fx),
        buy_opex_per_year=fx.money(buy_opex),
        buy_opex_items=buy_opex_items,
        lease_per_month=fx.money(lease_month),
        lease_opex_per_year=fx.money(lease_opex),
        cloud_usd_per_gpu_hour=round(cloud_price, 6),
        cloud_priced=cloud_priced,
        cloud_price_basis=cloud_basis,
        totals=OptionAmounts(**{k: fx.money(v) for k, v in totals.items()}),
        per_used_gpu_hour=OptionAmounts(**{k: fx.money(v / used_total, 4) for k, v in totals.items()}),
        cash_flow=cash_flow,
        cheapest=cheapest_option,
        break_even_month=break_even_month,
        later_break_even_month=later,
        break_even_utilization=break_even_u,
        verdict=verdict,
        usd_to_cny=fx.usd_to_cny,
    )


# --- what a budget buys -----------------------------------------------------------------------------


class BudgetFitInput(ToolInput, MoneyFields):
    """Inputs of the budget calculator: the money, the server, and how it is priced."""

    budget: float = Field(gt=0, le=1e12, description="Money to spend on hardware, in `currency`.")
    gpu: str | None = Field(
        default=None, description="Catalog GPU of the servers, e.g. 'H100' (or give a server)."
    )
    server: str | None = Field(default=None, description="Catalog reference server, e.g. 'dgx-h100'.")
    gpus_per_server: int = Field(
        default=8, ge=1, le=72, description="GPUs per server when no server is named."
    )
    capex_per_server: float | None = Field(
        default=None,
        gt=0,
        le=1e9,
        description="Your price per server in `currency` (CPUs, RAM, NICs included).",
    )
    capex_per_gpu: float | None = Field(
        default=None, gt=0, le=1e8, description="Your price per GPU in `currency`."
    )
    platform_share: float = Field(
        default=0.25, ge=0, le=2, description="CPUs, RAM, NICs and chassis as a share of GPU capex."
    )
    network_storage_share: float = Field(
        default=0.15, ge=0, le=2, description="Cluster network and storage as a share of server capex."
    )
    quote: bool = Field(
        default=False,
        description="The budget is a quote for one server, to compare with the catalog's price.",
    )


class BudgetFitOutput(ToolOutput):
    gpu: str
    servers: int = Field(description="Whole servers the budget buys, servers alone.")
    gpus: int
    servers_with_fabric: int = Field(
        description="Servers it buys keeping the network-and-storage share for a cluster (one server needs none)."
    )
    server_price: Money = Field(description="One server's hardware.")
    per_server_all_in: Money = Field(description="One server plus its share of network and storage.")
    spent: Money
    left: Money
    purchase_price: PurchasePrice | None
    fabric_share_given: bool = Field(
        default=False, description="Whether the network-and-storage share was given rather than assumed."
    )
    dense_bf16_pflops: float | None = Field(
        default=None,
        description="Dense BF16 PFLOPS of the GPUs bought (servers alone), when the card is known.",
    )


def budget_fit(inp: BudgetFitInput, catalog: Catalog) -> BudgetFitOutput:
    """How many servers (and GPUs) a hardware budget buys: one server's price (yours, the catalog's server
    price, or GPUs x catalog price plus the platform share) plus the network-and-storage share, in USD and
    CNY; a single server needs no cluster fabric."""
    notes = _Notes()
    fx = _fx(inp, catalog, notes)
    one = TcoInput(
        gpu=inp.gpu,
        server=inp.server,
        gpus=None if inp.server else inp.gpus_per_server,
        capex_per_server=inp.capex_per_server,
        capex_per_gpu=inp.capex_per_gpu,
        platform_share=inp.platform_share,
        network_storage_share=0.0,
        currency=inp.currency,
        usd_to_cny=inp.usd_to_cny,
    )
    price: PurchasePrice | None = None
    if inp.gpu or inp.server:
        hw = _hardware(one, catalog, notes)
        priced = inp.capex_per_server or inp.capex_per_gpu
        if not (priced or catalog.prices_for(hw.acc.id) or (hw.server and catalog.prices_for(hw.server.id))):
            if inp.quote:  # "is 1.5M a fair price for an 8x 910B server?": nothing sourced to compare with
                raise CalculatorInputError(
                    "budget",
                    f"the catalog has no sourced purchase price for {hw.acc.name} to compare a quote of "
                    f"{inp.budget:,.0f} {inp.currency} with",
                )
            raise CalculatorInputError(
                "capex_per_server",
                f"the catalog has no purchase price for {hw.acc.name}; give the price of one server",
            )
        server_usd, _, price = _capex(one, hw, catalog, fx, notes)
        notes.assumptions = [
            a for a in notes.assumptions if "network and storage 0%" not in a and "1 servers x" not in a
        ]
        gpu_name, per_server = hw.acc.name, hw.installed_gpus
        card_tflops = hw.acc.bf16_dense_tflops
    elif inp.capex_per_server is not None:
        # a card the catalog does not hold, priced by the user per server
        server_usd, gpu_name, per_server = fx.to_usd(inp.capex_per_server), "GPU", inp.gpus_per_server
    else:
        raise CalculatorInputError("gpu", "name a catalog GPU or server, or give capex_per_server")
    if inp.capex_per_server is not None:
        notes.assumptions.append(f"{inp.capex_per_server:,.0f} {inp.currency} per server (given)")
    if not (inp.gpu or inp.server):
        card_tflops = None
    all_in = server_usd * (1 + inp.network_storage_share)
    budget = fx.to_usd(inp.budget)
    servers = math.floor(budget / server_usd + 1e-9)
    with_fabric = math.floor(budget / all_in + 1e-9)
    if with_fabric < 2:
        with_fabric = min(servers, 1)  # one box: no cluster network or shared storage to buy
    spent = servers * server_usd
    notes.assumptions.append(
        f"network and storage {inp.network_storage_share:.0%} of server capex for a cluster (a planning share, "
        "not a quote); a single server needs none"
    )
    if servers == 0:
        notes.warnings.append(
            f"the budget is below one server ({fx.money(server_usd).usd:,.0f} USD): consider fewer GPUs per server, "
            "a cheaper card or renting"
        )
    return BudgetFitOutput(
        formula="servers = floor(budget / server price); with the fabric = floor(budget / (server price x "
        "(1 + network and storage share))), at least one server when one is affordable",
        assumptions=notes.assumptions,
        warnings=notes.warnings,
        sources=notes.sources,
        gpu=gpu_name,
        servers=servers,
        gpus=servers * per_server,
        servers_with_fabric=with_fabric,
        server_price=fx.money(server_usd),
        per_server_all_in=fx.money(all_in),
        spent=fx.money(spent),
        left=fx.money(budget - spent),
        purchase_price=price,
        fabric_share_given="network_storage_share" in inp.model_fields_set,
        dense_bf16_pflops=None if not card_tflops else round(servers * per_server * card_tflops / 1000, 3),
    )


def cheapest_on_demand(catalog: Catalog, acc: Accelerator) -> tuple[float, str, list[Reference]] | None:
    """The cheapest current on-demand catalog price of ``acc`` in USD per GPU-hour, described, with its
    sources; None when the catalog has none."""
    notes = _Notes()
    row = _cheapest(_cloud_rows(catalog, acc, _Fx(catalog.defaults.usd_to_cny, "USD"), on_demand_only=True))
    if row is None:
        return None
    notes.cite(*(c for c in catalog.cloud_prices if c.id == row.id))
    return row.usd_per_gpu_hour, _describe_price(row), notes.sources
