"""One accelerator's figures as the catalog states them, with their sources and date.

"What is the H200's memory bandwidth?" is a lookup, not a calculation, but it is answered the same way:
from the dated, sourced catalog, never from memory. Tensor TFLOPS are dense (no 2:4 sparsity); the
sparse headline figure vendors print is twice as large and is named beside it.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from knowledge.catalog import Accelerator, Catalog
from tools.common import GPUS_PER_SERVER, Reference, ToolInput, ToolOutput, find_accelerator
from tools.messages import Message

_AS_OF = Message("gpu_spec.as_of", en="catalog figures as of {dates}", zh="目录数据，截至 {dates}")
_TOTALS = Message(
    "gpu_spec.totals",
    en="totals for {count} cards: card price x cards, server price x whole 8-GPU servers",
    zh="按 {count} 张卡合计：卡价 × 卡数，服务器价 × 整台 8 卡服务器数",
)
_DENSE = Message(
    "gpu_spec.dense",
    en="tensor TFLOPS are dense, without 2:4 sparsity",
    zh="张量算力均为稠密值，不含 2:4 稀疏",
)

SpecField = Literal[
    "memory_gb",
    "memory_bandwidth_gb_s",
    "bf16_dense_tflops",
    "fp16_dense_tflops",
    "fp8_dense_tflops",
    "tf32_dense_tflops",
    "fp32_tflops",
    "tdp_w",
    "scale_up_bandwidth_gb_s",
    "launch_year",
    "form_factor",
    "price_usd",
    "server_price_usd",
    "cloud_usd_per_gpu_hour",
]
_UNITS: dict[str, str] = {
    "memory_gb": "GB",
    "memory_bandwidth_gb_s": "GB/s",
    "bf16_dense_tflops": "TFLOPS",
    "fp16_dense_tflops": "TFLOPS",
    "fp8_dense_tflops": "TFLOPS",
    "tf32_dense_tflops": "TFLOPS",
    "fp32_tflops": "TFLOPS",
    "tdp_w": "W",
    "scale_up_bandwidth_gb_s": "GB/s",
    "launch_year": "",
    "form_factor": "",
    "price_usd": "USD",
    "server_price_usd": "USD",
    "cloud_usd_per_gpu_hour": "USD/GPU-hour",
}
# the price figures: looked up among the catalog's prices, not on the accelerator entry
PRICE_FIELDS: frozenset[SpecField] = frozenset({"price_usd", "server_price_usd", "cloud_usd_per_gpu_hour"})
# CPUs, RAM, NICs, chassis and power supplies of an 8-GPU server, as a share of its GPUs' price (the same
# platform share the cost calculators use when a server has no price of its own)
PLATFORM_SHARE = 0.25
_DEFAULT_FIELDS: tuple[SpecField, ...] = ("memory_gb", "memory_bandwidth_gb_s", "bf16_dense_tflops", "tdp_w")
_SPARSE = {"bf16_dense_tflops", "fp16_dense_tflops", "fp8_dense_tflops", "tf32_dense_tflops"}
GpuName = Annotated[str, Field(min_length=1, max_length=100)]


class GpuSpecInput(ToolInput):
    """Which accelerators, and which of their figures."""

    gpus: list[GpuName] = Field(
        min_length=1, max_length=8, description="Catalog accelerators by name or alias."
    )
    fields: list[SpecField] = Field(
        default_factory=lambda: list(_DEFAULT_FIELDS),
        min_length=1,
        max_length=len(_UNITS),
        description="Figures to look up: " + ", ".join(_UNITS) + ".",
    )
    count: int | None = Field(
        default=None, ge=1, le=1_000_000, description="Cards to price: totals for this many (price fields)."
    )
    achieved_tflops: float | None = Field(
        default=None,
        gt=0,
        le=100_000,
        description="TFLOP/s per GPU a training run measures: its share of the dense BF16 peak (MFU).",
    )
    quote: float | None = Field(
        default=None,
        gt=0,
        le=1e10,
        description="A vendor's price for a server of quote_gpus of the first GPU, in quote_currency: what it "
        "pays per dense BF16 TFLOP/s and per GB of GPU memory.",
    )
    quote_currency: Literal["USD", "CNY"] = Field(default="USD", description="The quote's currency.")
    quote_gpus: int = Field(default=8, ge=1, le=1024, description="GPUs in the quoted server.")


class SpecValue(BaseModel):
    field: SpecField
    value: float | int | str | None = Field(description="None: the part has no such figure (e.g. no FP8).")
    unit: str
    detail: str = Field(default="", description="Memory type, interconnect, sparse figure, ...")
    detail_zh: str = Field(default="", description="The same detail in Chinese, where the catalog has it.")
    value_zh: str | None = Field(default=None, description="A text value (form factor) in Chinese.")


class GpuSpec(BaseModel):
    id: str
    name: str
    values: list[SpecValue]
    as_of: date
    notes: str


class PriceTotal(BaseModel):
    """What ``count`` cards cost at a catalog price: as bare cards, or in 8-GPU servers."""

    id: str
    field: SpecField
    count: int
    units: int = Field(description="Cards, or whole 8-GPU servers for a server price.")
    total_usd: float


class GpuSpecOutput(ToolOutput):
    specs: list[GpuSpec]
    totals: list[PriceTotal] = Field(default_factory=list, description="Prices times the count asked.")
    achieved_share: float | None = Field(
        default=None, description="achieved_tflops / the first GPU's dense BF16 peak: the run's MFU."
    )
    quote_per_tflop: float | None = Field(
        default=None,
        description="quote / (quote_gpus x dense BF16 TFLOP/s of the first GPU), in quote_currency.",
    )
    quote_per_gb: float | None = Field(
        default=None, description="quote / (quote_gpus x GPU memory GB of the first GPU), in quote_currency."
    )


# vendors whose tensor cores run 2:4 structured sparsity and print its doubled figure (NVIDIA since Ampere,
# AMD since CDNA 3); Intel Gaudi and Google TPU data sheets give dense figures only
_STRUCTURED_SPARSITY = {"NVIDIA", "AMD"}


def _price(acc: Accelerator, field: SpecField, catalog: Catalog) -> tuple[SpecValue, list[Reference]]:
    """A price figure: the newest catalog purchase price of one card, an 8-GPU server's (the catalog's, or
    8 cards plus the platform share), or the cheapest catalog cloud price per GPU-hour."""
    refs: list[Reference] = []
    value: float | None = None
    detail = "no price in the catalog"
    if field == "cloud_usd_per_gpu_hour":
        rates = catalog.cloud_prices_for(acc.id)
        if rates:
            cheapest = rates[0]
            value = cheapest.usd_per_accelerator_hour
            detail = (
                f"{cheapest.provider} {cheapest.instance_type}, {cheapest.pricing}, as of {cheapest.as_of}"
            )
            refs = [Reference(title=x.title, url=str(x.url)) for x in cheapest.sources[:1]]
    card = next((pt for pt in catalog.prices_for(acc.id) if pt.unit == "accelerator"), None)
    if field == "cloud_usd_per_gpu_hour":
        pass
    elif field == "price_usd" and card:
        value, detail = card.usd, f"{card.kind} price for one card, as of {card.as_of}"
        refs = [Reference(title=x.title, url=str(x.url)) for x in card.sources[:1]]
    elif field == "server_price_usd":
        servers = catalog.servers_for(acc.id)
        quoted = next((pt for sv in servers for pt in catalog.prices_for(sv.id) if pt.unit == "server"), None)
        if quoted:
            name = next(sv.name for sv in servers if sv.id == quoted.item_id)
            value, detail = quoted.usd, f"{quoted.kind} price of a {name}, as of {quoted.as_of}"
            refs = [Reference(title=x.title, url=str(x.url)) for x in quoted.sources[:1]]
        elif card:
            value = round(card.usd * GPUS_PER_SERVER * (1 + PLATFORM_SHARE), -3)
            detail = (
                f"estimate: {GPUS_PER_SERVER} x ${card.usd:,.0f} ({card.kind}, {card.as_of}) + "
                f"{PLATFORM_SHARE:.0%} for CPUs, RAM, NICs and chassis"
            )
            refs = [Reference(title=x.title, url=str(x.url)) for x in card.sources[:1]]
    if value is not None:
        rate = catalog.defaults.usd_to_cny
        detail += f"; about CNY {value * rate:,.{2 if value < 100 else 0}f} at {rate:g} CNY per USD ({catalog.defaults.as_of})"
    elif acc.kind == "tpu" or (field != "cloud_usd_per_gpu_hour" and "trainium" in acc.id):
        detail = "not sold: rented in its vendor's cloud only"
    return SpecValue(field=field, value=value, unit=_UNITS[field], detail=detail), refs


def _value(acc: Accelerator, field: SpecField) -> SpecValue:
    value = getattr(acc, field)
    detail = detail_zh = ""
    if field == "memory_gb":
        detail, detail_zh = acc.memory_type, acc.zh.memory_type or acc.memory_type
    elif field == "scale_up_bandwidth_gb_s":
        detail = f"{acc.scale_up_interconnect}, both directions added"
        # a part with no such link has no figure to add up
        detail_zh = acc.zh.scale_up_interconnect + ("，双向合计" if value else "")
    elif field == "tdp_w" and acc.tdp_estimated:
        detail, detail_zh = "estimate; the vendor publishes no TDP", "估算值，厂商未公布 TDP"
    elif field in _SPARSE and value and acc.vendor in _STRUCTURED_SPARSITY:
        detail = f"dense; {round(value * 2):,} with 2:4 sparsity"
        detail_zh = f"稠密；2:4 稀疏为 {round(value * 2):,}"
    elif field in _SPARSE and value:
        detail, detail_zh = "dense", "稠密"  # Gaudi and TPUs publish no 2:4-sparse figure
    value_zh = acc.zh.form_factor if field == "form_factor" else None
    return SpecValue(
        field=field, value=value, unit=_UNITS[field], detail=detail, detail_zh=detail_zh, value_zh=value_zh
    )


def gpu_spec(inp: GpuSpecInput, catalog: Catalog) -> GpuSpecOutput:
    """Look up accelerator figures (memory, bandwidth, dense TFLOPS by precision, TDP, scale-up bandwidth,
    launch year, form factor) in the catalog, with each entry's sources and as-of date.

    Tensor TFLOPS are dense; the 2:4-sparse figure (twice the dense one) is given as a detail only.
    """
    specs: list[GpuSpec] = []
    sources: list[Reference] = []
    for name in dict.fromkeys(inp.gpus):
        acc = find_accelerator(catalog, name, field="gpus")
        sources += [Reference(title=s.title, url=str(s.url)) for s in acc.sources]
        values: list[SpecValue] = []
        for field in dict.fromkeys(inp.fields):
            if field in PRICE_FIELDS:
                value, refs = _price(acc, field, catalog)  # a price brings its own source
                sources += [ref for ref in refs if ref not in sources]
            else:
                value = _value(acc, field)
            values.append(value)
        specs.append(GpuSpec(id=acc.id, name=acc.name, values=values, as_of=acc.as_of, notes=acc.notes))
    totals = [
        PriceTotal(id=spec.id, field=v.field, count=inp.count, units=units, total_usd=float(v.value) * units)
        for spec in specs
        for v in spec.values
        if inp.count and v.field in {"price_usd", "server_price_usd"} and isinstance(v.value, int | float)
        for units in [inp.count if v.field == "price_usd" else -(-inp.count // 8)]
    ]
    share = None
    if inp.achieved_tflops:
        first = find_accelerator(catalog, inp.gpus[0], field="gpus")
        if first.bf16_dense_tflops:
            share = round(inp.achieved_tflops / first.bf16_dense_tflops, 4)  # MFU against the dense peak
    per_tflop = per_gb = None
    if inp.quote:
        first = find_accelerator(catalog, inp.gpus[0], field="gpus")
        if first.bf16_dense_tflops:
            per_tflop = round(inp.quote / (inp.quote_gpus * first.bf16_dense_tflops), 2)
        per_gb = round(inp.quote / (inp.quote_gpus * first.memory_gb), 2)
    dates = sorted({spec.as_of for spec in specs})
    assumptions: list[str] = [_AS_OF(dates=", ".join(map(str, dates)))]
    if totals:
        assumptions.append(_TOTALS(count=inp.count))
    if _SPARSE & set(inp.fields):
        assumptions.append(_DENSE())
    return GpuSpecOutput(
        formula="catalog lookup; sparse = 2 x dense; totals = price x cards, or x ceil(cards / 8) servers",
        assumptions=assumptions,
        warnings=[],
        sources=list(dict.fromkeys(sources)),
        specs=specs,
        totals=totals,
        achieved_share=share,
        quote_per_tflop=per_tflop,
        quote_per_gb=per_gb,
    )
