"""Cloud GPU-hours: the cheapest current catalog price for a card, or the user's, times the hours a job uses."""

from __future__ import annotations

import statistics
from datetime import date

from pydantic import BaseModel, Field, model_validator

from knowledge.catalog import Accelerator, Catalog, CloudPrice
from tools.common import (
    CalculatorInputError,
    Reference,
    ToolInput,
    ToolOutput,
    find_accelerator,
)
from tools.cost.shared import DEEPSEEK_V3, NOT_BOTH, Money, MoneyFields, _Fx, _fx, _Notes
from tools.messages import Message, Said

_PRICE = Message(
    "cloud.price",
    en="{provider} {instance} {pricing} ${usd}/GPU-hour ({region}, as of {as_of})",
    zh="{provider} {instance} {pricing:pricing} ${usd}/GPU 小时（{region}，截至 {as_of}）",
)
_STORAGE_TOGETHER = Message(
    "cloud.storage_together",
    en="give storage_tb and storage_price_per_gb_month together",
    zh="存储容量（storage_tb）和每 GB 每月单价（storage_price_per_gb_month）需要一起给出",
)
_HOURS_NOT_BOTH = Message(
    "cloud.hours_or_gpus_days",
    en="give gpu_hours, or gpus and days, not both",
    zh="请给出 gpu_hours，或者给出 gpus 和 days，不要同时给",
)
_HOURS_OR_BOTH = Message(
    "cloud.hours_or_both",
    en="give gpu_hours, or both gpus and days",
    zh="请给出 gpu_hours，或者同时给出 gpus 和 days",
)
_GPU_HOURS = Message(
    "cloud.gpu_hours",
    en="{gpus} GPUs x {days} days x 24 h = {hours} GPU-hours",
    zh="{gpus} 张卡 × {days} 天 × 24 小时 = {hours} GPU 小时",
)
_MARGIN = Message(
    "cloud.margin",
    en="{hours} GPU-hours + {share} margin (given) = {total} GPU-hours",
    zh="{hours} GPU 小时 + {share} 余量（用户给定）= {total} GPU 小时",
)
_NO_PRICE = Message(
    "cloud.no_price",
    en="the catalog has no cloud price for {gpu}; give price_per_gpu_hour",
    zh="目录中没有 {gpu} 的云上价格；请给出 price_per_gpu_hour",
)
_DISCOUNT = Message(
    "cloud.discount", en="{share} off the price given (given)", zh="在所给价格上优惠 {share}（用户给定）"
)
_SUPERSEDED = Message(
    "cloud.superseded",
    en="superseded prices are listed for comparison with older studies but not counted: {prices:semicolon}",
    zh="已被取代的价格只列出供与较早的研究对比，不计入：{prices:semicolon}",
)
_UNDER_HALF = Message(
    "cloud.cheapest_under_half_median",
    en="the cheapest price is under half the median: check that {provider} offers the interconnect (multi-node "
    "InfiniBand) and reliability the job needs",
    zh="最便宜的价格不到中位数的一半：请确认 {provider} 能提供这项任务所需的互联（多节点 InfiniBand）和可靠性",
)
_PER_GPU_HOUR = Message(
    "cloud.per_gpu_hour",
    en="prices per GPU-hour = instance price per hour / GPUs per instance; hyperscaler prices include CPUs, RAM, "
    "NVMe and network, marketplace prices are host-set and move often",
    zh="每 GPU 小时价格 = 实例每小时价格 / 实例内 GPU 数；大型云厂商的价格包含 CPU、内存、NVMe 和网络，"
    "算力市场的价格由出租方自定，变动频繁",
)
_ON_DEMAND = Message(
    "cloud.on_demand_list",
    en="on-demand list prices; committed-use and negotiated prices are typically 30-60% lower",
    zh="按需目录价；承诺用量或议价的价格通常低 30-60%",
)
_EXCLUDED_MARGIN = Message(
    "cloud.excluded_with_margin",
    en="cost = GPU-hours x price: storage, egress and staff are excluded",
    zh="费用 = GPU 小时 × 单价：不含存储、出网流量和人力",
)
_EXCLUDED = Message(
    "cloud.excluded",
    en="cost = GPU-hours x price: storage, egress, staff, failed runs and experiments are excluded",
    zh="费用 = GPU 小时 × 单价：不含存储、出网流量、人力、失败的训练和实验",
)
_EXCLUDED_STORAGE = Message(
    "cloud.excluded_with_storage",
    en="cost = GPU-hours x price + the storage given: egress, staff, failed runs and experiments are excluded",
    zh="费用 = GPU 小时 × 单价 + 给定的存储：不含出网流量、人力、失败的训练和实验",
)
_EXTRAS = Message(
    "cloud.extras",
    en="plus {share} of the GPU bill for storage, egress and the like (given)",
    zh="另加 GPU 费用的 {share}，用于存储、出网流量等（用户给定）",
)
_STORAGE = Message(
    "cloud.storage",
    en="storage {tb} TB x 1,000 GB x {price} {currency} per GB-month x {months} months",
    zh="存储 {tb} TB × 1,000 GB × 每 GB 每月 {price} {currency:currency} × {months} 个月",
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


def _price_fields(row: CloudPriceRow) -> dict[str, str]:
    return {
        "provider": row.provider,
        "instance": row.instance_type,
        "pricing": row.pricing,
        "usd": f"{row.usd_per_gpu_hour:g}",
        "region": row.region,
        "as_of": str(row.as_of),
    }


def _describe_price(row: CloudPriceRow) -> Said:
    return _PRICE(**_price_fields(row))


def _listed(rows: list[CloudPriceRow]) -> list[Said]:
    """Prices one after another (a template joins them with ``{prices:semicolon}``)."""
    return [_describe_price(row) for row in rows]


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
    discount_share: float = Field(
        default=0.0,
        ge=0,
        lt=1,
        description="Discount off the price given (a commitment, '30% off'), as a share.",
    )
    extras_share: float = Field(
        default=0.0,
        ge=0,
        le=5,
        description="Costs beside the GPUs (storage, egress, support) as a share of the GPU bill ('add 10% for "
        "storage/egress'), as a share.",
    )
    margin_share: float = Field(
        default=0.0,
        ge=0,
        le=5,
        description="Extra GPU-hours on top of the estimate for failed runs, evaluations and debugging "
        "('add 15% for failed runs', '留20%余量'), as a share of the GPU-hours.",
    )

    @model_validator(mode="after")
    def _check_amount(self) -> CloudCostInput:
        if (self.storage_tb is None) != (self.storage_price_per_gb_month is None):
            raise ValueError(_STORAGE_TOGETHER())
        if self.gpu_hours is not None and (self.gpus is not None or self.days is not None):
            raise ValueError(_HOURS_NOT_BOTH())
        if self.gpu_hours is None and (self.gpus is None or self.days is None):
            raise ValueError(_HOURS_OR_BOTH())
        if self.price_per_gpu_hour is not None and self.price_per_instance_hour is not None:
            raise ValueError(NOT_BOTH(a="price_per_gpu_hour", b="price_per_instance_hour"))
        return self


class CloudCostOutput(ToolOutput):
    """Catalog cloud prices for the GPU and the cost of the GPU-hours."""

    gpu: str
    gpu_hours: float = Field(description="GPU-hours priced, the margin included.")
    gpu_hours_before_margin: float | None = Field(
        default=None, description="The GPU-hours given, when a margin was added on top."
    )
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
    total_before_discount: Money | None = Field(
        default=None, description="GPU-hours x the price given, before the discount, when one was given."
    )
    total_at_cheapest: Money | None
    total_at_median: Money | None
    storage: Money | None = Field(
        default=None, description="TB x 1,000 GB x price per GB-month x months, when storage was given."
    )
    total_with_storage: Money | None = Field(default=None, description="GPU-hours and storage together.")
    extras: Money | None = Field(default=None, description="The GPU bill x extras_share, when one was given.")
    total_with_extras: Money | None = Field(
        default=None, description="The GPU bill (and storage) with the extras share on top."
    )
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
        notes.assumptions.append(_GPU_HOURS(gpus=inp.gpus, days=f"{inp.days:g}", hours=f"{gpu_hours:g}"))
    estimate = gpu_hours
    if inp.margin_share:
        # "add 15% for failed runs + evals": the hours billed are the estimate and the margin on top
        gpu_hours = estimate * (1 + inp.margin_share)
        notes.assumptions.append(
            _MARGIN(hours=f"{estimate:,.0f}", share=f"{inp.margin_share:.0%}", total=f"{gpu_hours:,.0f}")
        )
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
        raise CalculatorInputError("price_per_gpu_hour", _NO_PRICE(gpu=acc.name))
    listed = price
    if inp.discount_share and (inp.price_per_gpu_hour is not None or inp.price_per_instance_hour is not None):
        # "$2.49/GPU-hour, and with 30% off?": the price paid, the listed one kept for the comparison
        price = listed * (1 - inp.discount_share)
        notes.assumptions.append(_DISCOUNT(share=f"{inp.discount_share:.0%}"))
    if any(r.superseded for r in rows):
        notes.warnings.append(_SUPERSEDED(prices=_listed([r for r in rows if r.superseded])))
    if cheapest and median and cheapest.usd_per_gpu_hour < median / 2:
        notes.warnings.append(_UNDER_HALF(provider=cheapest.provider))
    notes.assumptions += [_PER_GPU_HOUR(), _ON_DEMAND()]
    if not inp.extras_share:  # a share for storage and egress given: they are not excluded
        notes.assumptions.append(
            _EXCLUDED_MARGIN()
            if inp.storage_tb is None and inp.margin_share
            else _EXCLUDED()
            if inp.storage_tb is None
            else _EXCLUDED_STORAGE()
        )
    storage = None
    if inp.storage_tb is not None and inp.storage_price_per_gb_month is not None:
        # the user's line item: decimal TB as storage is billed, per GB-month
        storage = fx.to_usd(inp.storage_tb * 1000 * inp.storage_price_per_gb_month * inp.storage_months)
        notes.assumptions.append(
            _STORAGE(
                tb=f"{inp.storage_tb:g}",
                price=f"{inp.storage_price_per_gb_month:g}",
                currency=inp.currency,
                months=f"{inp.storage_months:g}",
            )
        )
    notes.cite(DEEPSEEK_V3)
    extras = gpu_hours * price * inp.extras_share
    if inp.extras_share:
        notes.assumptions.append(_EXTRAS(share=f"{inp.extras_share:.0%}"))
    return CloudCostOutput(
        formula="total = GPU-hours x (1 + margin) x price per GPU-hour (GPU-hours = GPUs x days x 24) [+ TB x 1,000 x price per "
        "GB-month x months]; CNY = USD x usd_to_cny",
        assumptions=notes.assumptions,
        warnings=notes.warnings,
        sources=notes.sources,
        gpu=acc.name,
        gpu_hours=gpu_hours,
        gpu_hours_before_margin=estimate if inp.margin_share else None,
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
        total_before_discount=fx.money(gpu_hours * listed) if listed != price else None,
        total_at_cheapest=fx.money(gpu_hours * cheapest.usd_per_gpu_hour) if cheapest else None,
        total_at_median=None if median is None else fx.money(gpu_hours * median),
        storage=None if storage is None else fx.money(storage),
        total_with_storage=None if storage is None else fx.money(gpu_hours * price + storage),
        extras=fx.money(extras) if inp.extras_share else None,
        total_with_extras=fx.money(gpu_hours * price + (storage or 0.0) + extras)
        if inp.extras_share
        else None,
        usd_to_cny=fx.usd_to_cny,
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
