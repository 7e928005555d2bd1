"""Buy vs lease vs cloud over years: capex, the running costs of owning, and the break-even points."""

from __future__ import annotations

import math
from datetime import date
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from knowledge.catalog import Catalog, PricePoint
from tools.common import (
    HOURS_PER_YEAR,
    CalculatorInputError,
    ToolInput,
    ToolOutput,
)
from tools.cost.cloud import cheapest_on_demand
from tools.cost.shared import (
    MONTHS_PER_YEAR,
    NOT_BOTH,
    CostItem,
    Money,
    MoneyFields,
    Option,
    PowerDraw,
    PowerFields,
    _Fx,
    _fx,
    _Hardware,
    _hardware,
    _Notes,
    _power,
)
from tools.messages import Message, Said, glossary

PRICE_UNIT = glossary("price_unit", {"accelerator": "单卡", "server": "整机"})
TERM_HOW = glossary("term_how", {"given": "用户给定", "assumed": "假设"})

_BOTH_LEASE = Message(
    "tco.lease_apr_or_payment",
    en="give lease_apr or a lease payment (lease_per_month or lease_rate_per_month), not both",
    zh="lease_apr 和租金（lease_per_month 或 lease_rate_per_month）只给其中一个",
)
_CAPEX_GIVEN = Message(
    "tco.capex_given",
    en="capex {capex} {currency} (given, everything included)",
    zh="购置成本 {capex} {currency:currency}（用户给定，已含全部）",
)
_CATALOG_PRICE = Message(
    "tco.catalog_price",
    en="{unit} price ${usd} ({kind}, catalog {id}, as of {as_of}); data-centre prices are rarely published and "
    "vary with volume and date",
    zh="{unit:price_unit}价格 ${usd}（{kind:price_kind}，目录 {id}，截至 {as_of}）；数据中心硬件价格很少公开，"
    "且随采购量和时间变化",
)
_SERVERS_GIVEN = Message(
    "tco.servers_given",
    en="{servers} servers x {price} {currency} each (given)",
    zh="{servers} 台服务器 × 每台 {price} {currency:currency}（用户给定）",
)
_SERVER_PRICE_ALL_IN = Message(
    "tco.server_price_includes_platform",
    en="the server price includes CPUs, RAM, NICs and chassis: no platform share added",
    zh="整机价格已含 CPU、内存、网卡和机箱：不再另加平台费用",
)
_NO_PURCHASE_PRICE = Message(
    "tco.no_purchase_price",
    en="the catalog has no purchase price for {gpu}; give capex_per_gpu or capex_total",
    zh="目录中没有 {gpu} 的购买价格；请给出 capex_per_gpu 或 capex_total",
)
_NO_SERVER_PRICE = Message(
    "tco.no_server_price",
    en="no catalog price for {server}: priced per GPU plus platform share",
    zh="目录中没有 {server} 的价格：按单卡价格加平台费用比例计",
)
_NETWORK_GIVEN = Message(
    "tco.network_storage_given",
    en="network and storage {amount} {currency} (given)",
    zh="网络与存储 {amount} {currency:currency}（用户给定）",
)
_PLATFORM_SHARE = Message(
    "tco.platform_share",
    en="platform (CPUs, RAM, NICs, chassis) {share} of GPU capex",
    zh="平台（CPU、内存、网卡、机箱）按 GPU 购置成本的 {share} 计",
)
_NETWORK_SHARE = Message(
    "tco.network_storage_share",
    en="network and storage {share} of server capex",
    zh="网络与存储按服务器购置成本的 {share} 计",
)
_PLANNING_SHARE = Message(
    "tco.planning_share", en="{share}: a planning share, not a quote", zh="{share}：规划比例，并非报价"
)
_PLANNING_SHARES = Message(
    "tco.planning_shares",
    en="{first} and {second}: planning shares, not quotes",
    zh="{first}，{second}：均为规划比例，并非报价",
)
_LEASE_GIVEN = Message(
    "tco.lease_given",
    en="lease {amount} {currency} per month (given)",
    zh="租金每月 {amount} {currency:currency}（用户给定）",
)
_LEASE_RATE_GIVEN = Message(
    "tco.lease_rate_given",
    en="lease payment {rate}% of capex per month (given)",
    zh="月租按购置成本的 {rate}% 计（用户给定）",
)
_LEASE_ANNUITY = Message(
    "tco.lease_annuity",
    en="lease payment {rate}% of capex per month: capex repaid over a {term}-month term ({term_how}) at {apr}% "
    "APR ({apr_how}) as an annuity, r / (1 - (1 + r)^-n) with r = APR / 12; ask lessors for their terms",
    zh="月租按购置成本的 {rate}% 计：购置成本按 {term} 个月租期（{term_how:term_how}）、年利率 {apr}%（{apr_how:term_how}）"
    "等额本息偿还，r / (1 - (1 + r)^-n)，r = 年利率 / 12；请向租赁方询问实际条款",
)
_POWER_ALL_YEAR = Message(
    "tco.power_all_year",
    en="the power given is the average draw all year, busy or idle (given)",
    zh="所给功率按全年平均功耗计，无论忙闲（用户给定）",
)
_PERIOD = Message(
    "tco.period_months", en="period {months} months (given)", zh="比较期 {months} 个月（用户给定）"
)
_BILL_GIVEN = Message(
    "tco.electricity_bill_given",
    en="electricity {bill} {currency} per year (given)",
    zh="电费每年 {bill} {currency:currency}（用户给定）",
)
_ALL_IN = Message(
    "tco.rent_all_in",
    en="the rent covers power, hosting and support: nothing is added to it",
    zh="租金已包含电费、托管和维保：不另加费用",
)
_NO_TERM = Message(
    "tco.rent_no_term",
    en="the rent is paid every month of the period: a rental has no term",
    zh="租金按比较期内每个月支付：租用没有租期",
)
_TERM_STOPS = Message(
    "tco.lease_term_ends",
    en="lease payments stop after the {term}-month term ({how}), {paid} of the period's {months} months: a "
    "full-payout lease, so the hardware is then the lessee's and only its running costs go on",
    zh="租金在 {term} 个月租期（{how:term_how}）满后停止，即比较期 {months} 个月中付 {paid} 个月：全额融资租赁，"
    "期满后硬件归承租方，之后只付运行费用",
)
_TERM_COVERS = Message(
    "tco.lease_term_covers",
    en="the {term}-month lease term ({how}) covers the whole {months}-month period",
    zh="{term} 个月的租期（{how:term_how}）覆盖整个 {months} 个月的比较期",
)
_TERM_OUTLASTS = Message(
    "tco.lease_term_outlasts",
    en="the period ends {left} months before the {term}-month lease term does: those payments are still owed, "
    "so they are counted (unless the contract lets you end it early)",
    zh="比较期比 {term} 个月的租期早 {left} 个月结束：这部分租金仍需支付，已计入（除非合同允许提前解约）",
)
_CLOUD_BILL = Message(
    "tco.cloud_bill_given",
    en="cloud bill {bill} {currency} per month (given) for the same work, the same as {usd} USD per GPU-hour on "
    "{gpus} GPUs at {utilization}",
    zh="同样的工作每月云上账单 {bill} {currency:currency}（用户给定），相当于 {gpus} 张卡在 {utilization} 利用率下"
    "每卡时 {usd} 美元",
)
_NO_CLOUD_PRICE = Message(
    "tco.no_cloud_price",
    en="the catalog has no on-demand cloud price for {gpu}: cloud is not compared; give a cloud price per "
    "GPU-hour to compare it",
    zh="目录中没有 {gpu} 的按需云价：未与上云比较；给出每卡时的云上价格即可比较",
)
_LATER_BREAK_EVEN = Message(
    "tco.later_break_even",
    en="at {utilization} utilisation buying would overtake cloud only in month {month}",
    zh="利用率为 {utilization} 时，购买的累计成本要到第 {month} 个月才会低于上云",
)
_CLOUD_GPUS_ONLY = Message(
    "tco.cloud_rents_gpus_only",
    en="cloud rents only the GPUs asked for; buying and leasing pay for whole servers",
    zh="上云只租所需数量的 GPU；购买和租赁要按整台服务器付费",
)
_RESALE_VALUE = Message(
    "tco.resale_value_given",
    en="resale value {value} {currency} at the end (given); no financing cost on a purchase, inflation or "
    "discounting; prices stay flat over the period",
    zh="期末转售价 {value} {currency:currency}（用户给定）；不计购置的融资成本、通胀和折现；期内价格不变",
)
_RESALE_SHARE = Message(
    "tco.resale_share_given",
    en="resale value {share} of capex at the end (given); no financing cost on a purchase, inflation or "
    "discounting; prices stay flat over the period",
    zh="期末残值按购置成本的 {share} 计（用户给定）；不计购置的融资成本、通胀和折现；期内价格不变",
)
_NO_RESALE = Message(
    "tco.no_resale",
    en="no resale value, financing cost on a purchase, inflation or discounting; prices stay flat over the period",
    zh="不计残值、购置的融资成本、通胀和折现；期内价格不变",
)
_CLOUD_IS_BILL = Message(
    "tco.cloud_cost_bill",
    en="cloud cost is the monthly bill given, for the whole period",
    zh="上云成本按给定的月账单计，覆盖整个比较期",
)
_CLOUD_RESERVED = Message(
    "tco.cloud_cost_reserved",
    en="cloud cost is every GPU-hour of the period x the reserved price (paid whether used or not): no staff, "
    "storage or egress added for cloud",
    zh="上云成本 = 比较期内全部 GPU 小时 × 预留价格（用不用都要付）：不另计人力、存储和出网流量",
)
_CLOUD_USED = Message(
    "tco.cloud_cost_used",
    en="cloud cost is GPU-hours used x price: no staff, storage or egress added for cloud",
    zh="上云成本 = 实际使用的 GPU 小时 × 单价：不另计人力、存储和出网流量",
)
_IDLE_HOURS = Message(
    "tco.idle_hours",
    en="buy and lease pay for idle hours; cloud bills only the hours used",
    zh="购买和租赁在空闲时段也要付费；上云只按实际使用时长计费",
)
_NO_STAFF = Message(
    "tco.no_staff",
    en="staff cost is 0: owned clusters need operators; give staff_per_year",
    zh="人力成本为 0：自有集群需要运维人员；请给出 staff_per_year",
)

# --- tco -------------------------------------------------------------------------------------------


class TcoInput(ToolInput, PowerFields, MoneyFields):
    """Inputs of the TCO calculator: hardware, period, utilisation, and the buy, lease and cloud terms."""

    years: int = Field(default=3, ge=1, le=10, description="Period compared, years.")
    months: float | None = Field(
        default=None,
        gt=0,
        le=120,
        description="Period compared in months (e.g. 18, or 8.9 for one job's length); overrides `years`.",
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
    support_per_year: float | None = Field(
        default=None,
        ge=0,
        le=1e10,
        description="Support and spares per year in `currency`, as quoted; replaces maintenance_share_per_year.",
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
    lease_rate_per_month: float | None = Field(
        default=None,
        gt=0,
        le=0.5,
        description="Your lease payment per month as a share of capex (e.g. 0.03); without it or "
        "lease_per_month, the payment is derived from lease_apr and lease_term_months.",
    )
    lease_term_months: int | None = Field(
        default=None,
        ge=1,
        le=120,
        description="Lease term, months; payments stop after it (a full-payout lease: the hardware is then yours). "
        "Default 36, an assumption; a rent that includes hosting (lease_all_in) runs the whole period unless given.",
    )
    lease_apr: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="Annual financing rate (APR) the lease payment is derived from, e.g. 0.10: payment = capex x r / "
        "(1 - (1 + r)^-term) with r = APR / 12. Default 10%, an assumption; not used with a payment given.",
    )
    lease_includes_maintenance: bool = Field(
        default=False, description="The lease covers support and spares, so maintenance is not added."
    )
    lease_all_in: bool = Field(
        default=False,
        description="The rent covers power, hosting and support (a machine rented in the provider's data centre, "
        "'含托管'): nothing is added to the payments.",
    )
    power_all_year: bool = Field(
        default=False,
        description="The power given (server_power_kw, it_power_kw) is the average draw all year, busy or idle: "
        "electricity is not scaled by utilisation.",
    )
    electricity_per_year: float | None = Field(
        default=None,
        ge=0,
        le=1e10,
        description="Your electricity bill per year for the whole deployment in `currency` (e.g. 100 servers x "
        "60,000 a year); replaces the bill computed from power, PUE and price, and is paid busy or idle.",
    )
    residual_share: float = Field(
        default=0.0,
        ge=0,
        le=1,
        description="Resale value of the bought hardware at the end of the period, as a share of capex.",
    )
    resale_value: float | None = Field(
        default=None,
        gt=0,
        le=1e11,
        description="What the bought hardware sells for at the end of the period, in `currency` (instead of a "
        "share of capex).",
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
    cloud_on_demand_price_per_gpu_hour: float | None = Field(
        default=None,
        gt=0,
        le=1e4,
        description="An on-demand price per GPU-hour in `currency` offered beside the committed one "
        "(cloud_committed): the two are compared at the utilisation, on demand paying only the hours used.",
    )

    @model_validator(mode="after")
    def _check_overrides(self) -> TcoInput:
        if self.capex_total is not None and self.capex_per_gpu is not None:
            raise ValueError(NOT_BOTH(a="capex_total", b="capex_per_gpu"))
        if self.resale_value is not None and self.residual_share:
            raise ValueError(NOT_BOTH(a="resale_value", b="residual_share"))
        if self.cloud_per_month is not None and self.cloud_price_per_gpu_hour is not None:
            raise ValueError(NOT_BOTH(a="cloud_per_month", b="cloud_price_per_gpu_hour"))
        if {"lease_per_month", "lease_rate_per_month"} <= self.model_fields_set:
            raise ValueError(NOT_BOTH(a="lease_per_month", b="lease_rate_per_month"))
        if self.lease_apr is not None and (self.lease_per_month or self.lease_rate_per_month):
            raise ValueError(_BOTH_LEASE())
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


class OnDemand(BaseModel):
    """A committed cloud price against an on-demand one: the commitment pays every hour, on demand the hours used."""

    usd_per_gpu_hour: float
    total: Money = Field(description="years x GPUs x 8,760 h x utilisation x the on-demand price.")
    committed_total: Money = Field(description="years x GPUs x 8,760 h x the committed price.")
    break_even_utilization: float = Field(
        description="The utilisation above which the commitment is cheaper: committed price / on-demand price."
    )
    cheaper: Literal["committed", "on_demand"]


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
    resale: Money | None = Field(
        default=None, description="Resale value at the end, taken off the buy total."
    )
    lease_per_month: Money
    lease_term_months: int | None = Field(
        default=None, description="Months the lease payments run for; null for a rent paid the whole period."
    )
    lease_apr: float | None = Field(
        default=None, description="APR the payment was derived from; null when a payment was given."
    )
    lease_months_paid: float = Field(
        default=0.0,
        description="Lease payments counted, months: those within the period, and the rest of a term the period ends inside (still owed).",
    )
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
    on_demand: OnDemand | None = Field(
        default=None, description="The committed cloud price against the on-demand one given beside it."
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
        notes.assumptions.append(_CAPEX_GIVEN(capex=f"{inp.capex_total:g}", currency=inp.currency))
        return total, [CostItem(name="capex", amount=fx.money(total), basis="given")], None

    def price_row(p: PricePoint) -> PurchasePrice:
        notes.cite(p)
        notes.assumptions.append(
            _CATALOG_PRICE(unit=p.unit, usd=f"{p.usd:,.0f}", kind=p.kind, id=p.id, as_of=str(p.as_of))
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
            _SERVERS_GIVEN(servers=servers, price=f"{inp.capex_per_server:,.0f}", currency=inp.currency)
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
        notes.assumptions.append(_SERVER_PRICE_ALL_IN())
    else:
        if inp.capex_per_gpu is not None:
            per_gpu = fx.to_usd(inp.capex_per_gpu)
            basis = f"{hw.installed_gpus} x {inp.capex_per_gpu:g} {inp.currency} per GPU (given)"
        else:
            gpu_prices = catalog.prices_for(hw.acc.id)
            if not gpu_prices:
                raise CalculatorInputError("capex_per_gpu", _NO_PURCHASE_PRICE(gpu=hw.acc.name))
            price = price_row(gpu_prices[0])
            per_gpu = price.usd
            basis = f"{hw.installed_gpus} x ${per_gpu:,.0f} per GPU ({price.kind}, {price.as_of})"
            if hw.server:
                notes.warnings.append(_NO_SERVER_PRICE(server=hw.server.name))
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
    shares: list[Said] = []
    if inp.network_storage_cost is not None:
        # "network $600k, storage $400k": the user's own figures, not a share
        network = fx.to_usd(inp.network_storage_cost)
        basis = f"{inp.network_storage_cost:g} {inp.currency} (given)"
        notes.assumptions.append(
            _NETWORK_GIVEN(amount=f"{inp.network_storage_cost:g}", currency=inp.currency)
        )
    else:
        network = inp.network_storage_share * hardware
        basis = f"{inp.network_storage_share:.0%} of server capex " + (
            "(given)" if "network_storage_share" in inp.model_fields_set else "(assumption)"
        )
        shares.append(_NETWORK_SHARE(share=f"{inp.network_storage_share:.0%}"))
    items.append(CostItem(name="network and storage", amount=fx.money(network), basis=basis))
    if inp.capex_per_server is None and (price is None or price.unit == "accelerator"):
        shares.insert(0, _PLATFORM_SHARE(share=f"{inp.platform_share:.0%}"))
    if len(shares) > 1:
        notes.assumptions.append(_PLANNING_SHARES(first=shares[0], second=shares[1]))
    elif shares:
        notes.assumptions.append(_PLANNING_SHARE(share=shares[0]))
    return hardware + network, items, price


# Lease terms assumed when none are given: a 36-month term, and the 10% APR of the corpus's leasing example
# (knowledge/corpus/en/budget-and-tco.md); both are planning assumptions, not quotes
LEASE_TERM_MONTHS = 36
LEASE_APR = 0.10


def annuity_payment(principal: float, apr: float, months: int) -> float:
    """Level monthly payment that repays ``principal`` with interest at ``apr`` over ``months`` (an annuity)."""
    r = apr / MONTHS_PER_YEAR
    return principal / months if r == 0 else principal * r / (1 - (1 + r) ** -months)


def _lease_payment(
    inp: TcoInput, capex: float, fx: _Fx, notes: _Notes
) -> tuple[float, int | None, float | None]:
    """The monthly payment in USD, the months it runs (None: a rent for the whole period) and the APR used."""
    # a rent that covers hosting is a rental: paid as long as the machine is used, unless a term is given
    term = inp.lease_term_months or (None if inp.lease_all_in else LEASE_TERM_MONTHS)
    if inp.lease_per_month is not None:
        notes.assumptions.append(_LEASE_GIVEN(amount=f"{inp.lease_per_month:g}", currency=inp.currency))
        return fx.to_usd(inp.lease_per_month), term, None
    if inp.lease_rate_per_month is not None:
        notes.assumptions.append(_LEASE_RATE_GIVEN(rate=f"{100 * inp.lease_rate_per_month:.3g}"))
        return inp.lease_rate_per_month * capex, term, None
    apr = LEASE_APR if inp.lease_apr is None else inp.lease_apr
    months = term or LEASE_TERM_MONTHS
    payment = annuity_payment(capex, apr, months)
    notes.assumptions.append(
        _LEASE_ANNUITY(
            rate=f"{100 * payment / capex:.3g}",
            term=months,
            term_how="given" if inp.lease_term_months else "assumed",
            apr=f"{100 * apr:.3g}",
            apr_how="given" if inp.lease_apr is not None else "assumed",
        )
    )
    return payment, months if term is None else term, apr


def tco(inp: TcoInput, catalog: Catalog) -> TcoOutput:
    """Compare the total cost of buying, leasing or renting cloud GPUs over N years at a utilisation.

    Buy = capex (catalog purchase price of the GPU or server with its date and kind, or yours; per-GPU
    prices get a platform share for CPUs/RAM/NICs/chassis, and a network/storage share is added) plus
    yearly opex: electricity (GPU TDP or server power x PUE x hours x utilisation x price), maintenance
    (share of capex per year), software licences per GPU, staff and colocation (per kW and/or per month). Lease = monthly
    payment (yours, a share of capex, or capex repaid as an annuity at an APR over the term; default 10% over 36
    months) for the months of the term within the period, plus the same opex, less maintenance if the lease
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
    # a stated average draw is paid for every hour; otherwise the GPUs draw power only while busy
    power_u = 1.0 if inp.power_all_year else u
    if inp.power_all_year:
        notes.assumptions.append(_POWER_ALL_YEAR())
    if inp.months:
        notes.assumptions.append(_PERIOD(months=f"{inp.months:g}"))

    capex, capex_items, purchase = _capex(inp, hw, catalog, fx, notes)

    if inp.support_per_year is not None:
        # "vendor support $15k/yr": the amount quoted, whatever share of capex it is
        maintenance_share = fx.to_usd(inp.support_per_year) / capex if capex else 0.0
        maintenance_basis = f"{inp.support_per_year:g} {inp.currency} per year (given)"
    elif inp.maintenance_share_per_year is not None:
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
    # the user's own bill is what they pay, whatever the utilisation; otherwise power x hours x price
    bill = fx.to_usd(inp.electricity_per_year) if inp.electricity_per_year is not None else None
    electricity = power.yearly_usd(power_u) if bill is None else bill
    if inp.electricity_per_year is not None:
        notes.assumptions.append(_BILL_GIVEN(bill=f"{inp.electricity_per_year:,.0f}", currency=inp.currency))
    buy_opex_items = [
        CostItem(
            name="electricity",
            amount=fx.money(electricity),
            basis=power.energy_basis(power_u)
            if bill is None
            else f"{inp.electricity_per_year:g} {inp.currency} per year (given)",
        ),
        *(CostItem(name=k, amount=fx.money(v), basis=b) for k, (v, b) in fixed_opex.items()),
    ]
    fixed = sum(v for v, _ in fixed_opex.values())
    buy_opex = electricity + fixed
    lease_opex = (
        0.0 if inp.lease_all_in else buy_opex - (maintenance if inp.lease_includes_maintenance else 0.0)
    )
    if inp.lease_all_in:
        notes.assumptions.append(_ALL_IN())

    months = round(years * MONTHS_PER_YEAR, 6)
    lease_month, lease_term, lease_apr = _lease_payment(inp, capex, fx, notes)
    # a lease is paid to its term: payments stop at its end, and those owed after a shorter period still count
    lease_paid = months if lease_term is None else float(lease_term)
    term_source = "given" if inp.lease_term_months is not None else "assumed"
    if lease_term is None:
        notes.assumptions.append(_NO_TERM())
    elif months > lease_term:
        notes.assumptions.append(
            _TERM_STOPS(term=lease_term, how=term_source, paid=f"{lease_paid:g}", months=f"{months:g}")
        )
    else:
        notes.assumptions.append(_TERM_COVERS(term=lease_term, how=term_source, months=f"{months:g}"))
        if months < lease_term:
            notes.warnings.append(_TERM_OUTLASTS(left=f"{lease_term - months:g}", term=lease_term))

    cloud_priced = True
    if inp.cloud_per_month is not None:
        # the bill the team pays now for the same work: its GPU-hour price is implied, not looked up
        cloud_price = fx.to_usd(inp.cloud_per_month) * MONTHS_PER_YEAR / (hw.gpus * HOURS_PER_YEAR * u)
        cloud_basis = f"given: a cloud bill of {inp.cloud_per_month:g} {inp.currency} per month"
        notes.assumptions.append(
            _CLOUD_BILL(
                bill=f"{inp.cloud_per_month:g}",
                currency=inp.currency,
                usd=f"{cloud_price:.3g}",
                gpus=hw.gpus,
                utilization=f"{u:.0%}",
            )
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
            notes.warnings.append(_NO_CLOUD_PRICE(gpu=hw.acc.name))
        else:
            cloud_price, described, cited = cheapest
            cloud_basis = f"cheapest current catalog on-demand price: {described}"
            notes.cite(*cited)

    used_hours = hw.gpus * HOURS_PER_YEAR * u
    # a reserved or committed price is paid for every hour of the term; on-demand only for the hours used
    billed_hours = hw.gpus * HOURS_PER_YEAR if inp.cloud_committed else used_hours
    cloud_year = billed_hours * cloud_price
    # sold at the end of the period: for the amount given, or a share of capex
    residual = fx.to_usd(inp.resale_value) if inp.resale_value is not None else inp.residual_share * capex
    totals = {
        "buy": capex + years * buy_opex - residual,
        "lease": lease_month * lease_paid + years * lease_opex,
        "cloud": years * cloud_year,
    }

    cash_flow = []
    cumulative = dict.fromkeys(totals, 0.0)
    for year in range(1, math.ceil(years) + 1):
        part = min(1.0, years - (year - 1))  # the last year of an 18-month period is half a year
        start = (year - 1) * MONTHS_PER_YEAR
        payments = max(0.0, min(lease_paid, start + part * MONTHS_PER_YEAR) - start)  # none after the term
        if year == math.ceil(years):
            payments += max(0.0, lease_paid - months)  # owed for the rest of a term the period ends inside
        flows = {
            "buy": buy_opex * part
            + (capex if year == 1 else 0.0)
            - (residual if year == math.ceil(years) else 0.0),
            "lease": lease_month * payments + lease_opex * part,
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
    # (a draw paid all year, or the user's own bill, is a fixed cost, whatever the utilisation)
    power_fixed = bill if bill is not None else power.yearly_usd(1.0) if inp.power_all_year else None
    margin = hw.gpus * HOURS_PER_YEAR * cloud_price - (
        0.0 if power_fixed is not None else power.yearly_usd(1.0)
    )
    fixed_all = fixed + (power_fixed or 0.0)
    raw_break_even_u = (capex - residual + years * fixed_all) / (years * margin) if margin > 0 else math.inf
    break_even_u = round(raw_break_even_u, 4) if raw_break_even_u <= 1 and not inp.cloud_committed else None

    on_demand = None
    if inp.cloud_on_demand_price_per_gpu_hour and inp.cloud_committed and cloud_priced:
        # "12-month take-or-pay at $2.40, or on-demand at $3.60, ~60% use": the commitment pays every hour
        hourly = fx.to_usd(inp.cloud_on_demand_price_per_gpu_hour)
        flexible = years * used_hours * hourly
        on_demand = OnDemand(
            usd_per_gpu_hour=round(hourly, 6),
            total=fx.money(flexible),
            committed_total=fx.money(totals["cloud"]),
            break_even_utilization=round(cloud_price / hourly, 4),
            cheaper="on_demand" if flexible < totals["cloud"] else "committed",
        )
    options: tuple[Option, ...] = ("buy", "lease", "cloud") if cloud_priced else ("buy", "lease")
    cheapest_option: Option = min(options, key=lambda k: totals[k])
    used_total = used_hours * years
    later = None
    if break_even_month is None:
        when = f"buying does not overtake cloud within {years:g} years"
        if cloud_year > buy_opex:
            month = later = math.ceil(capex / ((cloud_year - buy_opex) / MONTHS_PER_YEAR))
            notes.warnings.append(_LATER_BREAK_EVEN(utilization=f"{u:.0%}", month=month))
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
        + ", ".join(f"{k} ${totals[k]:,.0f} (¥{totals[k] * fx.usd_to_cny:,.0f})" for k in options)
        + f"; {cheapest_option} is cheapest"
        # with no cloud price, nothing is said of the cloud
        + (f"; {when}; {even}." if cloud_priced else ".")
    )
    if hw.gpus != hw.installed_gpus:
        notes.warnings.append(_CLOUD_GPUS_ONLY())
    notes.assumptions += [
        _RESALE_VALUE(value=f"{inp.resale_value:,.0f}", currency=inp.currency)
        if inp.resale_value is not None
        else _RESALE_SHARE(share=f"{inp.residual_share:.0%}")
        if residual
        else _NO_RESALE(),
        _CLOUD_IS_BILL()
        if inp.cloud_per_month is not None
        else _CLOUD_RESERVED()
        if inp.cloud_committed
        else _CLOUD_USED(),
        _IDLE_HOURS(),
    ]
    if staff == 0:
        notes.warnings.append(_NO_STAFF())
    return TcoOutput(
        formula=(
            "buy = capex + years x (electricity + maintenance share x capex + licences + staff + colocation) "
            "- resale value; "
            "lease = monthly payment x months paid (up to the term) + years x opex [- maintenance], payment = "
            "capex x r / (1 - (1 + r)^-term) with r = APR / 12 unless given; cloud = years x GPUs x 8760 h x "
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
        resale=fx.money(residual) if residual else None,
        lease_per_month=fx.money(lease_month),
        lease_term_months=lease_term,
        lease_apr=lease_apr,
        lease_months_paid=round(lease_paid, 4),
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
        on_demand=on_demand,
        verdict=verdict,
        usd_to_cny=fx.usd_to_cny,
    )
