"""A quote's arithmetic: a unit price times a count, plus a share for what comes with it, in both currencies,
and spread over months when it is amortised."""

from __future__ import annotations

from pydantic import Field

from knowledge.catalog import Catalog
from tools.common import HOURS_PER_YEAR, ToolInput, ToolOutput
from tools.cost.shared import MONTHS_PER_YEAR, Currency, Money, MoneyFields, _fx, _Notes
from tools.messages import Message

_COUNT = Message(
    "quote.count",
    en="{count} x {price} {currency} (given)",
    zh="{count} × {price} {currency:currency}（用户给定）",
)
_EXTRA = Message(
    "quote.extra_share",
    en="plus {share} of the items on top (given)",
    zh="在此之上另加 {share}（用户给定）",
)
_STRAIGHT_LINE = Message(
    "quote.straight_line",
    en="straight-line over {months} months: no interest, resale or running costs",
    zh="按 {months} 个月直线摊销：不计利息、残值和运行成本",
)


class QuoteInput(ToolInput, MoneyFields):
    """A quoted price, how many of it, what is added on top, and the months it is paid off over."""

    unit_price: float = Field(
        gt=0, le=1e12, description="Price of one item (a server, a GPU, a whole quote) in `currency`."
    )
    count: int = Field(default=1, ge=1, le=100_000, description="Items bought at that price.")
    extra_share: float = Field(
        default=0.0,
        ge=0,
        le=5,
        description="Added on top of the items as a share of their price (network and storage, tax), e.g. 0.15.",
    )
    months: float | None = Field(
        default=None,
        gt=0,
        le=240,
        description="Months the total is amortised over, straight-line (48 for 4 years).",
    )
    gpus_per_item: int | None = Field(
        default=None,
        ge=1,
        le=1024,
        description="GPUs in each item, for the cost per GPU-hour when amortised.",
    )


class QuoteOutput(ToolOutput):
    items: Money = Field(description="count x unit price.")
    extra: Money = Field(description="extra_share x the items.")
    total: Money = Field(description="items + extra.")
    per_month: Money | None = Field(default=None, description="total / months, when amortised.")
    per_year: Money | None = Field(default=None, description="per_month x 12, when amortised.")
    per_gpu_hour: Money | None = Field(
        default=None, description="total / (GPUs x months x 730 h), when amortised with GPUs per item."
    )
    currency: Currency
    usd_to_cny: float


def quote(inp: QuoteInput, catalog: Catalog) -> QuoteOutput:
    """The total of a quote and its amortisation: unit price x count x (1 + extra share), in USD and CNY.

    Converts at the exchange rate given or the catalog's dated default. With months, the total is spread
    straight-line (no interest, no resale): per month, per year and, with GPUs per item, per GPU-hour of
    the period (every hour, busy or idle). Running costs (power, hosting, staff) are not included: the TCO
    calculator adds them.
    """
    notes = _Notes()
    fx = _fx(inp, catalog, notes)
    items = fx.to_usd(inp.unit_price) * inp.count
    extra = items * inp.extra_share
    total = items + extra
    if inp.count > 1:
        notes.assumptions.append(
            _COUNT(count=inp.count, price=f"{inp.unit_price:,.0f}", currency=inp.currency)
        )
    if inp.extra_share:
        notes.assumptions.append(_EXTRA(share=f"{inp.extra_share:.0%}"))
    per_month = per_year = per_gpu_hour = None
    if inp.months:
        per_month = total / inp.months
        per_year = per_month * MONTHS_PER_YEAR
        notes.assumptions.append(_STRAIGHT_LINE(months=f"{inp.months:g}"))
        if inp.gpus_per_item:
            gpu_hours = inp.gpus_per_item * inp.count * inp.months * HOURS_PER_YEAR / MONTHS_PER_YEAR
            per_gpu_hour = total / gpu_hours
    return QuoteOutput(
        formula="total = unit price x count x (1 + extra share); per month = total / months; "
        "per GPU-hour = total / (GPUs x months x 730 h); CNY = USD x usd_to_cny",
        assumptions=notes.assumptions,
        warnings=notes.warnings,
        sources=notes.sources,
        items=fx.money(items),
        extra=fx.money(extra),
        total=fx.money(total),
        per_month=None if per_month is None else fx.money(per_month),
        per_year=None if per_year is None else fx.money(per_year),
        per_gpu_hour=None if per_gpu_hour is None else fx.money(per_gpu_hour, 4),
        currency=inp.currency,
        usd_to_cny=fx.usd_to_cny,
    )
