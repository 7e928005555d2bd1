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
from tools.messages import Message, glossary

Currency = Literal["USD", "CNY"]
Cooling = Literal["air", "liquid"]
Option = Literal["buy", "lease", "cloud"]

MONTHS_PER_YEAR = 12
DEEPSEEK_V3 = Reference(
    title="DeepSeek-AI, DeepSeek-V3 Technical Report (2024), Table 1: cost = H800 GPU-hours x $2 rental price",
    url="https://arxiv.org/abs/2412.19437",
)


# --- the sentences the cost calculators share ------------------------------------------------------

TDP_BASIS = glossary(
    "tdp_basis",
    {
        "given": "用户给定",
        "catalog": "目录数据",
        "catalog estimate, no vendor figure": "目录估算值，厂商未公布",
    },
)
NOT_BOTH = Message("cost.not_both", en="give {a} or {b}, not both", zh="{a} 和 {b} 只给其中一个")
_FX_GIVEN = Message(
    "cost.exchange_rate_given",
    en="exchange rate {rate} CNY per USD (given)",
    zh="汇率按每美元 {rate} 元人民币计（用户给定）",
)
_FX_CATALOG = Message(
    "cost.exchange_rate_catalog",
    en="exchange rate {rate} CNY per USD (catalog defaults, as of {as_of}); check the current rate before quoting yuan",
    zh="汇率按每美元 {rate} 元人民币计（目录默认值，截至 {as_of}）；报人民币价格前请核对当前汇率",
)
_SERVER_HOLDS = Message(
    "cost.server_holds_other_gpu",
    en="{server} holds {holds}, not {gpu}; drop one of gpu and server",
    zh="{server} 配的是 {holds}，不是 {gpu}；gpu 和 server 只给其中一个",
)
_NAME_GPU = Message(
    "cost.name_gpu_or_server",
    en="name a catalog GPU (e.g. 'H100') or a reference server (e.g. 'dgx-h100')",
    zh="请给出目录中的 GPU（如 'H100'）或参考服务器（如 'dgx-h100'）",
)
_ONE_SERVER = Message(
    "cost.gpus_one_server", en="{gpus} GPUs: one {server}", zh="{gpus} 张 GPU：一台 {server}"
)
_GIVE_GPUS = Message("cost.give_gpus", en="give the number of {gpu} GPUs", zh="请给出 {gpu} 的卡数")
_WHOLE_SERVERS = Message(
    "cost.whole_servers",
    en="{gpus} GPUs need {servers} x {server} ({per} GPUs each); power and purchase count {servers} whole "
    "servers ({slots} GPU slots)",
    zh="{gpus} 张 GPU 需要 {servers} 台 {server}（每台 {per} 张）；功耗和购置成本按 {servers} 台整机（{slots} 个 GPU "
    "位）计",
)
_IT_GIVEN = Message("cost.it_load_given", en="IT load {kw} kW (given)", zh="IT 负载 {kw} kW（用户给定）")
_ALWAYS_ON = Message(
    "cost.always_on_load",
    en="plus {kw} kW drawn all year whatever the GPUs' utilisation (network, storage; given)",
    zh="另加 {kw} kW 全年常开负载，不随 GPU 利用率变化（网络、存储；用户给定）",
)
_IT_SERVERS_GIVEN = Message(
    "cost.it_load_servers_given",
    en="IT load = {servers} x {kw} kW per server (given)",
    zh="IT 负载 = {servers} × 每台 {kw} kW（用户给定）",
)
_TDP = Message(
    "cost.tdp", en="{gpu} TDP {tdp} W per GPU ({basis})", zh="{gpu} 单卡 TDP {tdp} W（{basis:tdp_basis}）"
)
_IT_SERVER_GIVEN = Message(
    "cost.it_load_server_given",
    en="IT load = {servers} x {kw} kW per {server} (given); a maximum rating: measured draw while training is "
    "usually lower",
    zh="IT 负载 = {servers} × {kw} kW（每台 {server}，用户给定）；这是额定最大值，训练时实测功耗通常更低",
)
_IT_SERVER_CATALOG = Message(
    "cost.it_load_server_catalog",
    en="IT load = {servers} x {kw} kW per {server} (catalog maximum system power, as of {as_of}); a maximum "
    "rating: measured draw while training is usually lower",
    zh="IT 负载 = {servers} × {kw} kW（每台 {server}，目录中的最大系统功耗，截至 {as_of}）；这是额定最大值，"
    "训练时实测功耗通常更低",
)
_SERVER_POWER_USED = Message(
    "cost.server_power_used",
    en="{ignored} ignored: the server's power is used; give server_power_kw to change it",
    zh="{ignored} 未被采用：按服务器的功耗计算；如需修改，请给出 server_power_kw",
)
_SERVER_KW_NEEDS_SERVERS = Message(
    "cost.server_power_needs_servers",
    en="needs a server or a number of servers; without one use server_overhead_share",
    zh="server_power_kw 需要同时给出服务器或服务器台数；没有时请改用 server_overhead_share",
)
_OVERHEAD_GIVEN = Message(
    "cost.overhead_given",
    en="non-GPU server power {share} of GPU TDP (given)",
    zh="服务器中 GPU 以外部分的功耗按 GPU TDP 的 {share} 计（用户给定）",
)
_WORKSTATION = Message(
    "cost.workstation",
    en="a {segment} build of {cards} cards is a workstation: {host} kW for the CPU, memory, drives and fans, and "
    "a {efficiency}-efficient power supply (catalog defaults, as of {as_of}), not a DGX's server overhead",
    zh="{cards} 张{segment:segment}卡按工作站计：CPU、内存、硬盘和风扇共 {host} kW，电源效率 {efficiency}（目录默认值，"
    "截至 {as_of}），不套用 DGX 服务器的额外功耗比例",
)
_OVERHEAD_CATALOG = Message(
    "cost.overhead_catalog",
    en="non-GPU server power {share} of GPU TDP (catalog defaults, as of {as_of}: DGX H100 (10.2 kW - 8 x 0.7 kW) "
    "/ 5.6 kW); a node draws more than its GPUs",
    zh="服务器中 GPU 以外部分的功耗按 GPU TDP 的 {share} 计（目录默认值，截至 {as_of}：DGX H100 (10.2 kW - 8 × "
    "0.7 kW) / 5.6 kW）；整机功耗高于其中 GPU 之和",
)
_OVERHEAD_NOT_DGX = Message(
    "cost.overhead_not_dgx",
    en="the default overhead share comes from 8-GPU DGX servers; a {segment} build differs: set "
    "server_overhead_share",
    zh="默认的非 GPU 功耗比例来自 8 卡 DGX 服务器；{segment:segment}配置与之不同：请设置 server_overhead_share",
)
_WALL_GIVEN = Message(
    "cost.wall_power_given",
    en="{wall} kW at the wall (given, cooling included)",
    zh="总用电功率 {wall} kW（用户给定，含制冷）",
)
_WALL_GIVEN_PUE = Message(
    "cost.wall_power_given_pue",
    en="{wall} kW at the wall (given, cooling included); IT load {it} kW at PUE {pue} (given)",
    zh="总用电功率 {wall} kW（用户给定，含制冷）；按 PUE {pue}（用户给定）折合 IT 负载 {it} kW",
)
_PUE_GIVEN = Message("cost.pue_given", en="PUE {pue} (given)", zh="PUE {pue}（用户给定）")
_PUE_DESK = Message(
    "cost.pue_desk_side",
    en="PUE 1 for a desk-side workstation (no data-hall cooling counted); give one if it sits in a hall",
    zh="桌边工作站按 PUE 1 计（不计机房制冷）；若放在机房里，请给出 PUE",
)
_PUE_COOLING = Message(
    "cost.pue_cooling",
    en="PUE {pue} for {cooling} cooling (catalog defaults, as of {as_of})",
    zh="{cooling:cooling} PUE {pue}（目录默认值，截至 {as_of}）",
)
_PUE_SOLD_LIQUID = Message(
    "cost.pue_sold_liquid",
    en="PUE {pue} for {cooling} cooling (catalog defaults, as of {as_of}); {name} is sold liquid-cooled",
    zh="{cooling:cooling} PUE {pue}（目录默认值，截至 {as_of}）；{name} 只有液冷版本",
)
_LIQUID_COOLED = Message(
    "cost.liquid_cooled",
    en="{name} is liquid-cooled: set cooling='liquid' or give a PUE",
    zh="{name} 采用液冷：请设置 cooling='liquid' 或给出 PUE",
)
_ELECTRICITY_GIVEN = Message(
    "cost.electricity_given",
    en="electricity {price} {currency}/kWh (given)",
    zh="电价 {price} {currency:currency}/kWh（用户给定）",
)
_ELECTRICITY_GIVEN_USD = Message(
    "cost.electricity_given_in_usd",
    en="electricity {price} {currency}/kWh (given) = ${usd}/kWh",
    zh="电价 {price} {currency:currency}/kWh（用户给定），折合 ${usd}/kWh",
)
_ELECTRICITY_HIGH = Message(
    "cost.electricity_very_high",
    en="${usd} per kWh is very high: is it in cents, per MWh, or in another currency?",
    zh="每 kWh ${usd} 的电价过高：是不是其实以美分计、按每 MWh 计，或者是其他币种？",
)
_ELECTRICITY_CATALOG = Message(
    "cost.electricity_catalog",
    en="electricity ${usd}/kWh (catalog defaults, as of {as_of}: about the US industrial average); use your "
    "contracted tariff",
    zh="电价 ${usd}/kWh（目录默认值，截至 {as_of}：约为美国工业电价平均水平）；请换成实际签约电价",
)
_HOURS = Message(
    "cost.hours_per_year",
    en="{hours} hours per year x utilisation {utilization}; idle draw is not counted, so low utilisation "
    "understates power",
    zh="每年 {hours} 小时 × 利用率 {utilization}；未计空闲功耗，利用率低时会低估用电",
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
    always_on_kw: float | None = Field(
        default=None,
        gt=0,
        le=1e6,
        description="IT load drawn all year whatever the GPUs' utilisation (network, storage, management), kW; "
        "added to the IT load, PUE applies.",
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
        notes.assumptions.append(_FX_GIVEN(rate=f"{fields.usd_to_cny:g}"))
        return _Fx(fields.usd_to_cny, fields.currency)
    notes.assumptions.append(_FX_CATALOG(rate=f"{defaults.usd_to_cny:g}", as_of=str(defaults.as_of)))
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
                "gpu", _SERVER_HOLDS(server=server.name, holds=server.accelerator_id, gpu=acc.id)
            )
    elif server:
        acc = catalog.accelerator(server.accelerator_id)
    else:
        raise CalculatorInputError("gpu", _NAME_GPU())
    if fields.gpus is not None:
        gpus = fields.gpus
    elif server:
        gpus = server.accelerator_count
        notes.assumptions.append(_ONE_SERVER(gpus=gpus, server=server.name))
    else:
        raise CalculatorInputError("gpus", _GIVE_GPUS(gpu=acc.name))
    if server is None:
        return _Hardware(acc, gpus, None, None, gpus)
    per = server.accelerator_count
    servers = math.ceil(gpus / per)
    if servers * per != gpus:
        notes.warnings.append(
            _WHOLE_SERVERS(gpus=gpus, servers=servers, server=server.name, per=per, slots=servers * per)
        )
    return _Hardware(acc, gpus, server, servers, servers * per)


def _given_power(fields: PowerFields, notes: _Notes) -> float | None:
    """IT load the user stated (kW): directly, or as servers x kW per server; None to estimate it."""
    if fields.wall_power_kw is not None:
        return fields.wall_power_kw  # replaced by wall / PUE in _power, where the PUE is known
    if fields.it_power_kw is not None:
        notes.assumptions.append(_IT_GIVEN(kw=f"{fields.it_power_kw:g}"))
        return fields.it_power_kw
    if fields.server_power_kw is not None and fields.servers is not None and fields.server is None:
        notes.assumptions.append(_IT_SERVERS_GIVEN(servers=fields.servers, kw=f"{fields.server_power_kw:g}"))
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
    always_on_kw: float = 0.0  # IT kW that runs all year, in it_kw, not scaled by utilisation

    @property
    def always_on_wall_kw(self) -> float:
        """The always-on load at the wall (its IT kW x PUE): the part of wall_kw drawn all year."""
        return self.always_on_kw * self.pue

    def yearly_kwh(self, utilization: float | None = None) -> float:
        """Energy at the wall per year: the GPUs' share at their utilisation, the always-on load all year."""
        u = self.utilization if utilization is None else utilization
        steady = self.always_on_wall_kw
        return _yearly_energy_kwh(self.wall_kw - steady, u) + _yearly_energy_kwh(steady, 1.0)

    def energy_basis(self, utilization: float) -> str:
        """How yearly_kwh x the tariff was computed, for a cost line's basis."""
        steady = self.always_on_wall_kw
        busy = f"{self.wall_kw - steady:.2f} kW at the wall x {HOURS_PER_YEAR:g} h x {utilization:g}"
        if not steady:
            return f"{busy} x ${self.usd_per_kwh:.4f}/kWh"
        return f"({busy} + {steady:.2f} kW always on x {HOURS_PER_YEAR:g} h) x ${self.usd_per_kwh:.4f}/kWh"

    def yearly_usd(self, utilization: float | None = None) -> float:
        """Electricity cost per year; at another utilisation when one is given."""
        return self.yearly_kwh(utilization) * self.usd_per_kwh

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
            energy_mwh_per_year=round(self.yearly_kwh() / 1000, 3),
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
    notes.assumptions.append(_TDP(gpu=acc.name, tdp=f"{tdp_w:g}", basis=basis))
    notes.cite(acc)
    given_power = _given_power(fields, notes)
    if given_power is not None:
        it_kw = given_power
    elif server and hw.servers:
        per_server_kw = fields.server_power_kw or server.max_power_kw
        it_kw = hw.servers * per_server_kw
        load = {"servers": hw.servers, "kw": f"{per_server_kw:g}", "server": server.name}
        notes.assumptions.append(
            _IT_SERVER_GIVEN(**load)
            if fields.server_power_kw
            else _IT_SERVER_CATALOG(**load, as_of=str(server.as_of))
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
            notes.warnings.append(_SERVER_POWER_USED(ignored=ignored))
    else:
        if fields.server_power_kw is not None:
            raise CalculatorInputError("server_power_kw", _SERVER_KW_NEEDS_SERVERS())
        if fields.server_overhead_share is not None:
            share = fields.server_overhead_share
            notes.assumptions.append(_OVERHEAD_GIVEN(share=f"{share:.0%}"))
        elif _desk_side(acc, hw):
            host, efficiency = defaults.workstation_host_kw, defaults.workstation_psu_efficiency
            share = desk_side_kw(gpu_kw, catalog) / gpu_kw - 1
            notes.assumptions.append(
                _WORKSTATION(
                    segment=acc.segment,
                    cards=hw.installed_gpus,
                    host=f"{host:g}",
                    efficiency=f"{efficiency:.0%}",
                    as_of=str(defaults.as_of),
                )
            )
            notes.cite(defaults)
        else:
            share = defaults.server_overhead_share
            notes.assumptions.append(_OVERHEAD_CATALOG(share=f"{share:.0%}", as_of=str(defaults.as_of)))
            notes.cite(defaults)
            if acc.segment != "datacenter":
                notes.warnings.append(_OVERHEAD_NOT_DGX(segment=acc.segment))
        it_kw = gpu_kw * (1 + share)
    always_on = fields.always_on_kw if fields.always_on_kw and fields.wall_power_kw is None else 0.0
    if always_on:
        # "网络存储另外常年 6kW": switches and storage run whether or not the GPUs have work
        it_kw += always_on
        notes.assumptions.append(_ALWAYS_ON(kw=f"{always_on:g}"))
    # a server's own notes say it is sold liquid-cooled (GB200 NVL72); a card's notes mention liquid-cooled
    # variants of other systems ("DGX B200 is air-cooled; 1,200 W belongs to the liquid-cooled GB200")
    liquid_only = server is not None and "liquid-cooled" in server.notes.lower()
    # a system sold liquid-cooled only (GB200 NVL72) is cooled that way unless the user says otherwise
    cooling = "liquid" if liquid_only and "cooling" not in fields.model_fields_set else fields.cooling
    if fields.wall_power_kw is not None:
        pue = fields.pue or 1.0
        it_kw = fields.wall_power_kw / pue
        wall = f"{fields.wall_power_kw:g}"
        notes.assumptions.append(
            _WALL_GIVEN_PUE(wall=wall, it=f"{it_kw:.4g}", pue=f"{pue:g}")
            if fields.pue
            else _WALL_GIVEN(wall=wall)
        )
    elif fields.pue is not None:
        pue = fields.pue
        notes.assumptions.append(_PUE_GIVEN(pue=f"{pue:g}"))
    elif given_power is None and not server and _desk_side(acc, hw) and fields.server_overhead_share is None:
        pue = 1.0  # a workstation under a desk: the office's air conditioning is not a data hall's PUE
        notes.assumptions.append(_PUE_DESK())
    else:
        pue = defaults.pue_liquid if cooling == "liquid" else defaults.pue_air
        cooled = {"pue": f"{pue:g}", "cooling": cooling, "as_of": str(defaults.as_of)}
        notes.assumptions.append(
            _PUE_SOLD_LIQUID(**cooled, name=(server or acc).name)
            if cooling != fields.cooling
            else _PUE_COOLING(**cooled)
        )
        notes.cite(defaults)
    if liquid_only and cooling == "air" and fields.pue is None:
        notes.warnings.append(_LIQUID_COOLED(name=(server or acc).name))
    if fields.electricity_price_per_kwh is not None:
        usd_per_kwh = fx.to_usd(fields.electricity_price_per_kwh)
        tariff = {"price": f"{fields.electricity_price_per_kwh:g}", "currency": fx.currency}
        notes.assumptions.append(
            _ELECTRICITY_GIVEN_USD(**tariff, usd=f"{usd_per_kwh:.4f}")
            if fx.currency != "USD"
            else _ELECTRICITY_GIVEN(**tariff)
        )
        if usd_per_kwh > 1:
            notes.warnings.append(_ELECTRICITY_HIGH(usd=f"{usd_per_kwh:.2f}"))
    else:
        usd_per_kwh = defaults.electricity_usd_per_kwh
        notes.assumptions.append(_ELECTRICITY_CATALOG(usd=f"{usd_per_kwh:g}", as_of=str(defaults.as_of)))
        notes.cite(defaults)
    notes.assumptions.append(_HOURS(hours=f"{HOURS_PER_YEAR:g}", utilization=f"{fields.utilization:g}"))
    return _Power(hw, gpu_kw, it_kw, pue, it_kw * pue, usd_per_kwh, fields.utilization, always_on)


# --- power_cost ------------------------------------------------------------------------------------


CONTINUOUS_LOAD_SHARE = 0.8
NEC_CONTINUOUS = Reference(
    title="NFPA 70 National Electrical Code 210.19(A)(1) and 210.20(A): continuous loads at 125% of the load, i.e. "
    "80% of a breaker's rating",
    url="https://www.nfpa.org/codes-and-standards/nfpa-70-standard-development/70",
)
