"""Accelerators side by side: catalog specs, price-derived figures and a ranking by one criterion."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from knowledge.catalog import Accelerator, Catalog, CloudPrice, PricePoint, Source
from tools.architecture import Architecture, ArchitectureFields, describe, resolve_architecture
from tools.common import (
    SECONDS_PER_DAY,
    CalculatorInputError,
    PositiveFloat,
    Reference,
    Share,
    ToolInput,
    ToolOutput,
    find_accelerator,
    round_sig,
)
from tools.compute import ADAPTER_FLOPS_FACTOR, CHINCHILLA_TOKENS_PER_PARAM, KAPLAN, gpu_hours
from tools.messages import Message

_LISTED_TWICE = Message(
    "gpu_compare.listed_twice",
    en="{name} and {other} are both {gpu}; list each GPU once",
    zh="{name} 和 {other} 都是 {gpu}；每种 GPU 只列一次",
)
_NOT_COMPARED = Message(
    "gpu_compare.not_compared",
    en="{name} ({gpu}) is not one of the GPUs compared",
    zh="{name}（{gpu}）不在参与比较的 GPU 之中",
)
_PRICED_TWICE = Message(
    "gpu_compare.priced_twice",
    en="{name} and {other} both price {gpu}; give one price per GPU",
    zh="{name} 和 {other} 给的都是 {gpu} 的价格；每种 GPU 只给一个价格",
)
_MFU_TWICE = Message(
    "gpu_compare.mfu_twice",
    en="{name} and {other} both give {gpu} an MFU; give one MFU per GPU",
    zh="{name} 和 {other} 给的都是 {gpu} 的 MFU；每种 GPU 只给一个 MFU",
)
_PRICE_SPREAD = Message(
    "gpu_compare.price_spread",
    en="purchase prices {kinds} or {years}: $ per TFLOP and $ per GB are rough",
    zh="购买价格的{kinds}或{years}：每 TFLOP 价格和每 GB 价格只能作粗略参考",
)
_KINDS = Message(
    "gpu_compare.kinds", en="differ in kind ({kinds:comma})", zh="类型不同（{kinds:price_kind+comma}）"
)
_YEARS = Message(
    "gpu_compare.years",
    en="are more than a year apart ({years:comma})",
    zh="时间相差一年以上（{years:comma}）",
)
_NO_PURCHASE_PRICE = Message(
    "gpu_compare.no_purchase_price",
    en="no purchase price for {ids:comma}: give prices_usd to include them",
    zh="{ids:comma} 没有购买价格：请给出 prices_usd 以纳入比较",
)
_NOT_RANKED = Message(
    "gpu_compare.not_ranked",
    en="not ranked by {by} (no value): {ids:comma}",
    zh="{ids:comma} 没有 {by} 的数值，未参与排名",
)
_PAPER_PEAKS = Message(
    "gpu_compare.paper_peaks",
    en="paper peaks across vendors: achievable matmul is ~80% of peak on H100 and ~50-60% on MI300X with "
    "ROCm 6.2+, and software maturity differs; do not pick on peak TFLOPS alone",
    zh="这里比较的是各厂商的纸面峰值：实际可达的矩阵乘法性能在 H100 上约为峰值的 80%，在 MI300X（ROCm 6.2+）"
    "上约为 50-60%，软件成熟度也不同；不要只看峰值 TFLOPS 选卡",
)
_GEFORCE = Message(
    "gpu_compare.geforce",
    en="GeForce cards: BF16 at the FP32-accumulate rate, no NVLink, and a driver licence "
    "that excludes data-centre deployment",
    zh="GeForce 显卡：BF16 只有 FP32 累加时的速率，没有 NVLink，驱动许可也不允许在数据中心部署",
)
_JOB = Message(
    "gpu_compare.job",
    en="job: {work}{chinchilla}, {factor} x {params}B{active} FLOPs per token (6N trains every weight, "
    "4N adapters on a frozen base), attention term left out",
    zh="训练任务：{work}{chinchilla}，每 token 计算量 {factor} × {params}B{active}"
    "（6N 训练全部权重，冻结底座上的适配器为 4N），未计注意力项",
)
_PER_BILLION = Message("gpu_compare.per_billion", en="per billion tokens", zh="每十亿 token")
_JOB_TOKENS = Message("gpu_compare.job_tokens", en="{tokens}B tokens", zh="共 {tokens}B token")
_CHINCHILLA = Message(
    "gpu_compare.chinchilla",
    en=" (Chinchilla-optimal: 20 per parameter)",
    zh="（按 Chinchilla 最优取每个参数 20 个 token）",
)
_ACTIVE = Message("gpu_compare.active", en=" active", zh=" 激活参数")
_JOB_MFU = Message(
    "gpu_compare.job_mfu",
    en="job MFU {mfu} on every card without a measured one (well-run training reaches 35-50%); "
    "the same MFU on different vendors' cards flatters the one whose software is less mature",
    zh="没有实测 MFU 的卡都按 MFU {mfu} 计（运行良好的训练可达 35-50%）；"
    "不同厂商的卡用同一个 MFU，会高估软件不够成熟的那一家",
)
_DENSE = Message(
    "gpu_compare.dense",
    en="TFLOP/s are dense (no 2:4 sparsity) peak tensor rates from the catalog",
    zh="TFLOP/s 为目录中的稠密（不含 2:4 稀疏）张量峰值",
)
_MEMORY_GB = Message(
    "gpu_compare.memory_gb",
    en="memory is the vendor's usable GB (10^9 bytes) per GPU; TDP is the highest shipping configuration",
    zh="显存为厂商标称的单卡可用 GB（10^9 字节）；TDP 取出货配置中的最高值",
)
_PURCHASE_PRICE = Message(
    "gpu_compare.purchase_price",
    en="purchase price: yours where given, else the newest catalog price for one GPU (any kind)",
    zh="购买价格：给了价格就用你的，否则用目录中最新的单卡价格（不限价格类型）",
)
_CLOUD = {
    (False, True): Message(
        "gpu_compare.cloud_on_demand",
        en="cloud: the cheapest catalog price per GPU-hour among on-demand prices",
        zh="云价格：目录按需价格中最便宜的每 GPU 小时价格",
    ),
    (False, False): Message(
        "gpu_compare.cloud_any",
        en="cloud: the cheapest catalog price per GPU-hour of any kind (community, spot too)",
        zh="云价格：目录中最便宜的每 GPU 小时价格，不限类型（含社区和竞价实例）",
    ),
    (True, True): Message(
        "gpu_compare.cloud_yours_on_demand",
        en="cloud: your price per GPU-hour where given, else the cheapest catalog price among on-demand prices",
        zh="云价格：给了每 GPU 小时价格就用你的，否则用目录按需价格中最便宜的",
    ),
    (True, False): Message(
        "gpu_compare.cloud_yours_any",
        en="cloud: your price per GPU-hour where given, else the cheapest catalog price of any kind "
        "(community, spot too)",
        zh="云价格：给了每 GPU 小时价格就用你的，否则用目录中最便宜的价格，不限类型（含社区和竞价实例）",
    ),
}
_BOTH_DIRECTIONS = Message(
    "gpu_compare.both_directions",
    en="scale-up bandwidth adds both directions (NVLink 900 GB/s = 450 GB/s each way)",
    zh="纵向扩展（scale-up）带宽为双向之和（NVLink 900 GB/s = 每个方向 450 GB/s）",
)

RankBy = Literal[
    "bf16_tflops",
    "fp8_tflops",
    "memory_gb",
    "memory_bandwidth_gb_s",
    "scale_up_bandwidth_gb_s",
    "usd_per_tflop",
    "usd_per_gb",
    "usd_per_gb_s",
    "tflops_per_watt",
    "gb_s_per_tflop",
    "cloud_usd_per_hour",
    "cloud_usd_per_tflop_hour",
    "cloud_usd_per_useful_pflop_hour",
    "job_cloud_usd",
    "job_gpu_hours",
]
# what each criterion reads from a row, how it reads, and which way is better
_CRITERIA: dict[str, tuple[str, str, bool]] = {
    "bf16_tflops": ("bf16_dense_tflops", "dense BF16 TFLOP/s", True),
    "fp8_tflops": ("fp8_dense_tflops", "dense FP8 TFLOP/s", True),
    "memory_gb": ("memory_gb", "memory per GPU, GB", True),
    "memory_bandwidth_gb_s": ("memory_bandwidth_gb_s", "memory bandwidth, GB/s", True),
    "scale_up_bandwidth_gb_s": (
        "scale_up_bandwidth_gb_s",
        "scale-up bandwidth, GB/s (both directions)",
        True,
    ),
    "usd_per_tflop": ("usd_per_bf16_tflop", "purchase $ per dense BF16 TFLOP/s", False),
    "usd_per_gb": ("usd_per_gb", "purchase $ per GB of memory", False),
    # decoding reads every weight per token: the price of bandwidth is the price of serving speed
    "usd_per_gb_s": ("usd_per_gb_s", "purchase $ per GB/s of memory bandwidth", False),
    "tflops_per_watt": ("bf16_tflops_per_watt", "dense BF16 TFLOP/s per watt of TDP", True),
    "gb_s_per_tflop": ("gb_s_per_bf16_tflop", "GB/s of memory bandwidth per dense BF16 TFLOP/s", True),
    "cloud_usd_per_hour": ("cloud_usd_per_gpu_hour", "cheapest catalog cloud $ per GPU-hour", False),
    "cloud_usd_per_tflop_hour": (
        "cloud_usd_per_bf16_tflop_hour",
        "cheapest catalog cloud $ per GPU-hour per dense BF16 TFLOP/s",
        False,
    ),
    # "v5p at $4.20/chip-hr and 50% MFU, H100 at $3.00 and 40%: cost per training token?": what a PFLOP of work
    # that lands costs; cost per token is this x 6N, the same factor for every card
    "cloud_usd_per_useful_pflop_hour": (
        "cloud_usd_per_useful_pflop_hour",
        "$ per GPU-hour / (dense BF16 PFLOP/s x MFU): the price of a PFLOP-hour of useful work",
        False,
    ),
    # "TPU v5p or H100 for pretraining 30B?": what the job itself costs, and how long it runs, on each card
    "job_cloud_usd": ("job_cloud_usd", "$ for the training run at the cloud price per GPU-hour", False),
    "job_gpu_hours": ("job_gpu_hours", "GPU-hours for the training run", False),
}
# criteria about speed or price that a training job given replaces with its own cost or GPU-hours
_JOB_REPLACES = {"bf16_tflops", "usd_per_tflop", "cloud_usd_per_hour", "cloud_usd_per_tflop_hour",
                 "cloud_usd_per_useful_pflop_hour"}  # fmt: skip

GpuName = Annotated[str, Field(min_length=1, max_length=100)]


class TrainingJob(ArchitectureFields):
    """A training run to work out on every card compared: the model, the tokens and the method."""

    tokens_b: float | None = Field(
        default=None,
        gt=0,
        le=1_000_000,
        description="Training tokens, billions; default: Chinchilla-optimal (20 per parameter) for pre-training, "
        "per billion tokens for a fine-tune.",
    )
    finetune: Literal["full", "lora", "qlora"] | None = Field(
        default=None,
        description="null: pre-training; full: full fine-tuning (both 6N FLOPs per token); lora/qlora: 4N.",
    )
    per_billion_tokens: bool = Field(
        default=False,
        description="Without tokens_b: give the figures per billion tokens rather than for a Chinchilla-optimal "
        "run (always so for a fine-tune).",
    )
    gpus: int | None = Field(
        default=None, ge=1, le=1_000_000, description="GPUs of each kind the run uses: gives wall-clock days."
    )
    counts: dict[GpuName, Annotated[int, Field(ge=1, le=1_000_000)]] = Field(
        default_factory=dict,
        description="GPUs of each card when they differ ('512 H200 or 256 B200'), keyed by a name in gpus; "
        "replaces gpus for that card.",
    )
    mfu: Share = Field(
        default=0.40, description="MFU assumed on every card without a measured one in the comparison's mfu."
    )


class JobWork(BaseModel):
    """The training run's work, the same on every card."""

    model: str
    params_b: float
    active_params_b: float
    tokens_b: float = Field(
        description="Tokens of the run: given, Chinchilla-optimal for a pre-training, or 1 per billion tokens."
    )
    per_billion_tokens: bool = Field(
        description="True: the run's figures are per billion tokens (no data size)."
    )
    finetune: Literal["full", "lora", "qlora"] | None = Field(description="null: pre-training.")
    flops_per_token: float
    training_flops: float
    gpus: int | None
    counts: dict[str, int] = Field(default_factory=dict, description="GPUs of each card, by catalog id.")


class GpuCompareInput(ToolInput):
    """Inputs of the GPU comparison: 2-8 catalog names and the criterion to rank by."""

    gpus: list[GpuName] = Field(
        min_length=2,
        max_length=8,
        description="2 to 8 catalog accelerators by name or alias, e.g. ['H100', 'H200', 'MI300X', 'B200'].",
    )
    rank_by: RankBy = Field(
        default="bf16_tflops",
        description=(
            "Ranking criterion: bf16_tflops, fp8_tflops, memory_gb, memory_bandwidth_gb_s, "
            "scale_up_bandwidth_gb_s, usd_per_tflop, usd_per_gb, usd_per_gb_s, tflops_per_watt, gb_s_per_tflop, "
            "cloud_usd_per_hour, cloud_usd_per_tflop_hour."
        ),
    )
    prices_usd: dict[GpuName, PositiveFloat] = Field(
        default_factory=dict,
        description="Your purchase price per GPU, USD, keyed by a name in gpus; replaces the catalog price.",
    )
    cloud_prices_usd: dict[GpuName, PositiveFloat] = Field(
        default_factory=dict,
        description="Your rental price per GPU (or chip) hour, USD, keyed by a name in gpus; replaces the "
        "catalog's cheapest cloud price.",
    )
    mfu: dict[GpuName, Annotated[float, Field(gt=0, le=1)]] = Field(
        default_factory=dict,
        description="Your measured MFU per GPU (0-1], keyed by a name in gpus: ranks by the cloud price of "
        "useful work (cloud_usd_per_useful_pflop_hour).",
    )
    on_demand_cloud_only: bool = Field(
        default=False, description="Consider only on-demand cloud prices (skip community, spot and reserved)."
    )
    datacenter: bool = Field(
        default=False,
        description="The cards go into data-centre racks running around the clock: a consumer (GeForce) card's "
        "driver licence excludes that use, so the best-ranked non-consumer card is the pick.",
    )
    job: TrainingJob | None = Field(
        default=None,
        description="A training run to work out on every card: GPU-hours, days on job.gpus cards and its cost "
        "at each card's cloud price; the ranking is then by that cost (or GPU-hours when a card has no price).",
    )


class PurchasePrice(BaseModel):
    """The purchase price a row's $ figures use."""

    usd: float
    kind: Literal["list", "street", "msrp", "estimate", "user"]
    as_of: date | None = Field(description="When the price was quoted; None for a user price.")
    price_id: str | None = Field(description="Catalog price id; None for a user price.")


class CloudRate(BaseModel):
    """The cheapest catalog cloud price for one GPU-hour."""

    usd_per_gpu_hour: float
    provider: str
    instance_type: str
    pricing: str = Field(
        description="on-demand, community, spot, reserved-1y, reserved-3y, or quoted (yours)."
    )
    as_of: date | None = Field(description="When the catalog price was read; None for your quote.")
    price_id: str | None = Field(description="Catalog price id; None for your quote.")


class GpuRow(BaseModel):
    """One accelerator: catalog specs (dense TFLOPS, vendor GB) and derived figures."""

    id: str
    name: str
    vendor: str
    segment: str
    launch_year: int
    form_factor: str
    memory_gb: float
    memory_type: str
    memory_bandwidth_gb_s: float
    bf16_dense_tflops: float | None
    fp8_dense_tflops: float | None
    tdp_w: float
    scale_up_interconnect: str
    scale_up_bandwidth_gb_s: float | None = Field(description="Both directions added (NVLink 4 = 900).")
    scale_up_cards: int | None = Field(
        default=None, description="Cards the link joins when fewer than a server's (2: an NVLink bridge)."
    )
    purchase_price: PurchasePrice | None
    usd_per_bf16_tflop: float | None = Field(description="Purchase price / dense BF16 TFLOP/s.")
    usd_per_gb: float | None = Field(description="Purchase price / memory GB.")
    usd_per_gb_s: float | None = Field(default=None, description="Purchase price / memory bandwidth GB/s.")
    bf16_tflops_per_watt: float | None = Field(description="Dense BF16 TFLOP/s / TDP watts.")
    gb_s_per_bf16_tflop: float | None = Field(
        description="Memory GB/s per dense BF16 TFLOP/s (bytes per 1,000 FLOPs); higher is less memory-bound."
    )
    cheapest_cloud: CloudRate | None
    cloud_usd_per_gpu_hour: float | None
    cloud_usd_per_bf16_tflop_hour: float | None = Field(
        default=None,
        description="Cheapest cloud $ per GPU-hour / dense BF16 TFLOP/s: rental price-performance.",
    )
    mfu: float | None = Field(default=None, description="Your measured MFU on this card, when given.")
    cloud_usd_per_useful_pflop_hour: float | None = Field(
        default=None,
        description="Cloud $ per GPU-hour / (dense BF16 PFLOP/s x MFU): a PFLOP-hour of work that lands.",
    )
    job_mfu: float | None = Field(default=None, description="The MFU the job's figures use on this card.")
    job_gpu_hours: float | None = Field(default=None, description="GPU-hours of the job on this card.")
    job_days: float | None = Field(default=None, description="Wall-clock days of the job on job.gpus cards.")
    job_cloud_usd: float | None = Field(
        default=None, description="The job's GPU-hours x this card's cloud price per GPU-hour."
    )
    notes: list[str] = Field(default_factory=list, description="What is missing or needs care for this row.")


class RankedGpu(BaseModel):
    rank: int = Field(description="1 is best; equal values share a rank.")
    id: str
    name: str
    value: float


class GpuCompareOutput(ToolOutput):
    """The comparison table, the ranking and the caveats."""

    rows: list[GpuRow]
    rank_by: str
    ranking_criterion: str = Field(description="What the ranking value is and which way is better.")
    ranking: list[RankedGpu]
    unranked: list[str] = Field(description="GPUs without a value for the criterion.")
    datacenter_pick: str | None = Field(
        default=None,
        description="With datacenter: the best-ranked card that is not a consumer card, when consumer cards "
        "are among those compared.",
    )
    job: JobWork | None = Field(default=None, description="The training run worked out on every card.")


def _reference(source: Source) -> Reference:
    return Reference(title=source.title, url=str(source.url))


def _resolve(catalog: Catalog, inp: GpuCompareInput) -> list[Accelerator]:
    accelerators: list[Accelerator] = []
    seen: dict[str, str] = {}
    for i, name in enumerate(inp.gpus):
        acc = find_accelerator(catalog, name, field=f"gpus.{i}")
        if acc.id in seen:
            raise CalculatorInputError(
                f"gpus.{i}", _LISTED_TWICE(name=repr(name), other=repr(seen[acc.id]), gpu=acc.name)
            )
        seen[acc.id] = name
        accelerators.append(acc)
    return accelerators


def _per_gpu(
    catalog: Catalog, given: dict[str, float], ids: set[str], field: str = "prices_usd"
) -> dict[str, float]:
    """A figure per GPU compared, keyed by catalog id: each name must be one of the GPUs, once."""
    values: dict[str, float] = {}
    named: dict[str, str] = {}
    for name, value in given.items():
        acc = find_accelerator(catalog, name, field=field)
        if acc.id not in ids:
            raise CalculatorInputError(field, _NOT_COMPARED(name=repr(name), gpu=acc.name))
        if acc.id in values:
            raise CalculatorInputError(
                field,
                (_MFU_TWICE if field == "mfu" else _PRICED_TWICE)(
                    name=repr(name), other=repr(named[acc.id]), gpu=acc.name
                ),
            )
        values[acc.id] = value
        named[acc.id] = name
    return values


def _catalog_price(catalog: Catalog, acc: Accelerator) -> PricePoint | None:
    points = [p for p in catalog.prices_for(acc.id) if p.unit == "accelerator"]
    return points[0] if points else None  # prices_for is newest first


def _cheapest_cloud(catalog: Catalog, acc: Accelerator, on_demand_only: bool) -> CloudPrice | None:
    rates = [c for c in catalog.cloud_prices_for(acc.id) if not on_demand_only or c.pricing == "on-demand"]
    return rates[0] if rates else None  # cloud_prices_for is cheapest first


def _ratio(numerator: float | None, denominator: float | None) -> float | None:
    return numerator / denominator if numerator is not None and denominator else None


def _row(
    acc: Accelerator,
    user_price: float | None,
    point: PricePoint | None,
    cloud: CloudPrice | None,
    quoted_hour: float | None = None,
    mfu: float | None = None,
) -> GpuRow:
    notes: list[str] = []
    price: PurchasePrice | None = None
    if user_price is not None:
        price = PurchasePrice(usd=user_price, kind="user", as_of=None, price_id=None)
    elif point is not None:
        price = PurchasePrice(usd=point.usd, kind=point.kind, as_of=point.as_of, price_id=point.id)
    elif acc.kind == "tpu":
        notes.append("TPUs are not sold: rent them (no purchase price)")
    else:
        notes.append("no purchase price in the catalog: give prices_usd to get $ per TFLOP and $ per GB")
    if acc.bf16_dense_tflops is None:
        notes.append(
            "no dense BF16 figure in the catalog (no BF16 tensor cores): BF16-based ratios are empty"
        )
    if acc.fp8_dense_tflops is None:
        notes.append("no FP8 tensor cores")
    if quoted_hour is not None:
        pass  # the user's own rental price
    elif cloud is None:
        notes.append("no cloud price in the catalog")
    elif cloud.pricing != "on-demand":
        notes.append(f"cheapest cloud price is {cloud.pricing}, not on-demand")
    if acc.segment == "consumer":
        notes.append("GeForce: BF16 rate with FP32 accumulation (half the FP16-accumulate rate); no NVLink")
    usd = price.usd if price else None
    rate: CloudRate | None = None
    if quoted_hour is not None:
        rate = CloudRate(
            usd_per_gpu_hour=quoted_hour,
            provider="your quote",
            instance_type="-",
            pricing="quoted",
            as_of=None,
            price_id=None,
        )
    elif cloud is not None:
        rate = CloudRate(
            usd_per_gpu_hour=cloud.usd_per_accelerator_hour,
            provider=cloud.provider,
            instance_type=cloud.instance_type,
            pricing=cloud.pricing,
            as_of=cloud.as_of,
            price_id=cloud.id,
        )
    hourly = rate.usd_per_gpu_hour if rate else None
    useful = acc.bf16_dense_tflops * mfu / 1000 if acc.bf16_dense_tflops and mfu else None
    return GpuRow(
        id=acc.id,
        name=acc.name,
        vendor=acc.vendor,
        segment=acc.segment,
        launch_year=acc.launch_year,
        form_factor=acc.form_factor,
        memory_gb=acc.memory_gb,
        memory_type=acc.memory_type,
        memory_bandwidth_gb_s=acc.memory_bandwidth_gb_s,
        bf16_dense_tflops=acc.bf16_dense_tflops,
        fp8_dense_tflops=acc.fp8_dense_tflops,
        tdp_w=acc.tdp_w,
        scale_up_interconnect=acc.scale_up_interconnect,
        scale_up_bandwidth_gb_s=acc.scale_up_bandwidth_gb_s,
        scale_up_cards=acc.scale_up_cards,
        purchase_price=price,
        usd_per_bf16_tflop=_ratio(usd, acc.bf16_dense_tflops),
        usd_per_gb=_ratio(usd, acc.memory_gb),
        usd_per_gb_s=_ratio(usd, acc.memory_bandwidth_gb_s),
        bf16_tflops_per_watt=_ratio(acc.bf16_dense_tflops, acc.tdp_w),
        gb_s_per_bf16_tflop=_ratio(acc.memory_bandwidth_gb_s, acc.bf16_dense_tflops),
        cheapest_cloud=rate,
        cloud_usd_per_gpu_hour=hourly,
        cloud_usd_per_bf16_tflop_hour=_ratio(hourly, acc.bf16_dense_tflops),
        mfu=mfu,
        cloud_usd_per_useful_pflop_hour=_ratio(hourly, useful),
        notes=notes,
    )


def _rank(rows: list[GpuRow], rank_by: str) -> tuple[list[RankedGpu], list[str]]:
    field, _, higher_is_better = _CRITERIA[rank_by]
    valued: list[tuple[GpuRow, float]] = []
    unranked: list[str] = []
    for row in rows:
        value = getattr(row, field)
        if value is None:
            unranked.append(row.id)
        else:
            valued.append((row, float(value)))
    valued.sort(key=lambda item: -item[1] if higher_is_better else item[1])  # stable: input order on ties

    def better(a: float, b: float) -> bool:
        return a > b if higher_is_better else a < b

    ranking = [
        RankedGpu(
            rank=1 + sum(better(other, value) for _, other in valued), id=row.id, name=row.name, value=value
        )
        for row, value in valued
    ]
    return ranking, unranked


def _warnings(rows: list[GpuRow], inp: GpuCompareInput, unranked: list[str]) -> list[str]:
    warnings: list[str] = []
    priced = [r for r in rows if r.purchase_price]
    kinds = {r.purchase_price.kind for r in priced if r.purchase_price}
    dates = [r.purchase_price.as_of for r in priced if r.purchase_price and r.purchase_price.as_of]
    if len(kinds) > 1 or (dates and (max(dates) - min(dates)).days > 365):
        warnings.append(
            _PRICE_SPREAD(
                kinds=_KINDS(kinds=sorted(kinds)),
                years=_YEARS(years=sorted({str(d.year) for d in dates})),
            )
        )
    missing = [r.id for r in rows if not r.purchase_price]
    if missing:
        warnings.append(_NO_PURCHASE_PRICE(ids=missing))
    if len({r.vendor for r in rows}) > 1:
        warnings.append(_PAPER_PEAKS())
    if any(r.segment == "consumer" for r in rows):
        warnings.append(_GEFORCE())
    if unranked:
        warnings.append(_NOT_RANKED(ids=unranked, by=inp.rank_by))
    return warnings


def gpu_compare(inp: GpuCompareInput, catalog: Catalog) -> GpuCompareOutput:
    """Compare 2-8 catalog GPUs side by side, with price-derived figures and a ranking by one criterion.

    Each row shows memory (vendor GB, type), bandwidth, dense (not sparse) BF16 and FP8 TFLOP/s, TDP, scale-up
    bandwidth, form factor and launch year, plus $ per dense BF16 TFLOP/s and $ per GB from the newest catalog
    purchase price (with its date and kind: list, street, MSRP or estimate) or from your prices_usd, TFLOP/s
    per watt, GB/s per TFLOP/s (higher means less memory-bound, better for decoding), and the cheapest catalog
    cloud price per GPU-hour with its provider and date. Rank by bf16_tflops, fp8_tflops, memory_gb,
    memory_bandwidth_gb_s, scale_up_bandwidth_gb_s, usd_per_tflop, usd_per_gb, usd_per_gb_s, tflops_per_watt,
    gb_s_per_tflop, cloud_usd_per_hour or cloud_usd_per_tflop_hour (rental price-performance, used for
    usd_per_tflop when a card compared is only rented, like a TPU). With a training job (a model, its tokens and
    method, the GPUs of each card), every row also gets the run's GPU-hours at its MFU, its days and its cost at
    the card's cloud price (6N FLOPs per token, 4N for LoRA/QLoRA), and speed or price criteria rank by that cost.
    Unknown names get the closest catalog names.
    """
    accelerators = _resolve(catalog, inp)
    ids = {a.id for a in accelerators}
    user_prices = _per_gpu(catalog, inp.prices_usd, ids)
    quoted_hours = _per_gpu(catalog, inp.cloud_prices_usd, ids, "cloud_prices_usd")
    mfus = _per_gpu(catalog, inp.mfu, ids, "mfu")
    rows: list[GpuRow] = []
    sources: dict[str, Reference] = {}
    for acc in accelerators:
        point = None if acc.id in user_prices else _catalog_price(catalog, acc)
        cloud = None if acc.id in quoted_hours else _cheapest_cloud(catalog, acc, inp.on_demand_cloud_only)
        rows.append(
            _row(acc, user_prices.get(acc.id), point, cloud, quoted_hours.get(acc.id), mfus.get(acc.id))
        )
        for entry in (acc, point, cloud):
            if entry is not None:
                ref = _reference(entry.sources[0])
                sources.setdefault(ref.url, ref)
    rank_by = inp.rank_by
    arch = resolve_architecture(catalog, inp.job) if inp.job else None
    work = _job(inp.job, arch, rows, mfus, catalog) if inp.job and arch else None
    if work is not None and rank_by in _JOB_REPLACES:
        # the job's own cost answers "which is cheaper for this run"; GPU-hours when a card has no price
        rank_by = "job_cloud_usd" if all(r.job_cloud_usd for r in rows) else "job_gpu_hours"
        sources.setdefault(str(KAPLAN.url), KAPLAN)
    if (
        rank_by == "usd_per_tflop"
        and any(r.usd_per_bf16_tflop is None for r in rows)
        and all(r.cloud_usd_per_bf16_tflop_hour is not None for r in rows)
    ):
        # "TPU v5p or H100, which is better per dollar?": a TPU is only rented, so price-performance is
        # the rental price per TFLOP, which every card compared has
        rank_by = "cloud_usd_per_tflop_hour"
    if (
        rank_by in {"usd_per_tflop", "cloud_usd_per_tflop_hour"}
        and rows
        and all(r.cloud_usd_per_useful_pflop_hour is not None for r in rows)
    ):
        # a measured MFU on every card: the price of the work that lands, not of the peak
        rank_by = "cloud_usd_per_useful_pflop_hour"
    ranking, unranked = _rank(rows, rank_by)
    _, criterion, higher_is_better = _CRITERIA[rank_by]
    job_assumptions: list[str] = []
    if work is not None and inp.job is not None and arch is not None:
        job_assumptions = [
            describe(arch),
            _JOB(
                work=_PER_BILLION() if work.per_billion_tokens else _JOB_TOKENS(tokens=f"{work.tokens_b:g}"),
                chinchilla=_CHINCHILLA() if inp.job.tokens_b is None and not work.per_billion_tokens else "",
                factor=f"{work.flops_per_token / (arch.active_params_b * 1e9):g}",
                params=f"{arch.active_params_b:g}",
                active=_ACTIVE() if arch.active_params_b < arch.params_b else "",
            ),
            _JOB_MFU(mfu=f"{inp.job.mfu:.0%}"),
        ]
    return GpuCompareOutput(
        formula=(
            "$ per TFLOP = purchase USD / dense BF16 TFLOP/s; $ per GB = purchase USD / memory GB; "
            "TFLOP/W = dense BF16 TFLOP/s / TDP W; GB/s per TFLOP = memory GB/s / dense BF16 TFLOP/s; cloud $ per "
            "TFLOP-hour = cheapest cloud $ per GPU-hour / dense BF16 TFLOP/s; cloud $ per useful PFLOP-hour = $ per "
            "GPU-hour / (dense BF16 PFLOP/s x MFU)"
        ),
        assumptions=[
            _DENSE(),
            _MEMORY_GB(),
            _PURCHASE_PRICE(),
            _CLOUD[bool(quoted_hours), bool(inp.on_demand_cloud_only)](),
            _BOTH_DIRECTIONS(),
            *job_assumptions,
        ],
        warnings=_warnings(rows, inp, unranked),
        sources=list(sources.values()),
        rows=rows,
        rank_by=rank_by,
        ranking_criterion=f"{criterion}, {'higher' if higher_is_better else 'lower'} is better",
        ranking=ranking,
        unranked=unranked,
        datacenter_pick=_datacenter_pick(rows, ranking) if inp.datacenter else None,
        job=work,
    )


def _job(
    job: TrainingJob, arch: Architecture, rows: list[GpuRow], mfus: dict[str, float], catalog: Catalog
) -> JobWork:
    """The run's FLOPs (6N per token, 4N for adapters on a frozen base; N active for MoE) and, on each row's
    card, its GPU-hours at that card's MFU, days on job.gpus cards and cost at the row's cloud price."""
    counts = _per_gpu(
        catalog, {k: float(v) for k, v in job.counts.items()}, {r.id for r in rows}, "job.counts"
    )
    factor = ADAPTER_FLOPS_FACTOR if job.finetune in {"lora", "qlora"} else 6
    per_token = factor * arch.active_params_b * 1e9
    # a fine-tune's data is never Chinchilla-sized
    per_billion = job.tokens_b is None and (job.finetune is not None or job.per_billion_tokens)
    tokens = job.tokens_b or (1.0 if per_billion else CHINCHILLA_TOKENS_PER_PARAM * arch.params_b)
    flops = per_token * tokens * 1e9
    for row in rows:
        if not row.bf16_dense_tflops:
            row.notes.append("no dense BF16 figure: the job is not worked out on this card")
            continue
        mfu = mfus.get(row.id, job.mfu)
        hours = gpu_hours(flops, row.bf16_dense_tflops, mfu)
        row.job_mfu = mfu
        row.job_gpu_hours = round_sig(hours)
        if gpus := int(counts.get(row.id) or job.gpus or 0):
            row.job_days = round_sig(hours * 3600 / gpus / SECONDS_PER_DAY)
        if row.cloud_usd_per_gpu_hour:
            row.job_cloud_usd = round_sig(hours * row.cloud_usd_per_gpu_hour)
    return JobWork(
        model=arch.name,
        params_b=arch.params_b,
        active_params_b=arch.active_params_b,
        tokens_b=tokens,
        per_billion_tokens=per_billion,
        finetune=job.finetune,
        flops_per_token=per_token,
        training_flops=flops,
        gpus=job.gpus,
        counts={k: int(v) for k, v in counts.items()},
    )


def _datacenter_pick(rows: list[GpuRow], ranking: list[RankedGpu]) -> str | None:
    """The best-ranked card fit for a data centre, when a consumer card is among those compared."""
    segment = {r.name: r.segment for r in rows}
    if "consumer" not in segment.values() or set(segment.values()) == {"consumer"}:
        return None
    ranked = [r.name for r in sorted(ranking, key=lambda r: r.rank)] or [r.name for r in rows]
    return next((name for name in ranked if segment.get(name) != "consumer"), None)
