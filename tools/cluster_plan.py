"""Cluster plan: rank the catalog's GPUs for one training run by cost, time, deadline and budget."""

from __future__ import annotations

import statistics
from typing import Literal

from pydantic import BaseModel, Field

from knowledge.catalog import Accelerator, Catalog
from tools.architecture import Architecture, ArchitectureFields
from tools.common import SECONDS_PER_DAY, ToolInput, ToolOutput, find_accelerator, peak_tflops, round_sig
from tools.compute import KAPLAN, ComputeFields, _workload
from tools.gpu_memory import KORTHIKANTI, ZERO, Precision, TrainingMemoryInput, min_gpus_to_fit
from tools.messages import Message

_NOT_NVIDIA_FIRST = Message(
    "cluster_plan.not_nvidia_first",
    en="{gpu} ranks first at the same MFU as every other GPU; with today's software AMD and "
    "Intel parts usually reach a lower share of peak, so re-run with a lower mfu for them",
    zh="{gpu} 排在第一，但这是按与其他 GPU 相同的 MFU 算的；以目前的软件，AMD 和 Intel 的卡通常只能达到"
    "更低的峰值比例，请为它们设更低的 mfu 重新计算",
)
_SAME_MFU = Message(
    "cluster_plan.same_mfu",
    en="MFU {mfu} on every GPU (vendors differ in achievable MFU: calibrate with your own runs)",
    zh="所有 GPU 都按 MFU {mfu} 计（各厂商实际能达到的 MFU 不同，请用自己的实测校准）",
)
_MEMORY_CHECK = Message(
    "cluster_plan.memory_check",
    en="memory check: ZeRO-3, tensor parallel up to 8, full recomputation where selective is not enough; "
    "{precision}, micro-batch {micro}",
    zh="显存校验：ZeRO-3，张量并行最多 8，选择性激活重计算不够时改用完整激活重计算；"
    "{precision:training_precision}，微批 {micro}",
)
_PURCHASE = Message(
    "cluster_plan.purchase",
    en="purchase cost = GPUs x newest catalog price x (1 + {share} for servers, network, storage)",
    zh="购买成本 = GPU 数量 × 目录最新价格 × (1 + {share}，用于服务器、网络和存储)",
)


class ClusterPlanInput(ToolInput, ComputeFields):
    """Inputs of the cluster planner; `gpu` is ignored unless it is the only candidate."""

    deadline_days: float | None = Field(
        default=None, gt=0, le=3650, description="Finish within this many days."
    )
    budget_usd: float | None = Field(
        default=None, gt=0, le=1e12, description="Budget in USD (cloud or purchase)."
    )
    candidates: list[str] | None = Field(
        default=None, min_length=1, max_length=40,
        description="GPUs to compare; default: every data-centre GPU with a catalog price.",
    )  # fmt: skip
    rank_by: Literal["cost", "time"] = Field(
        default="cost", description="What decides among options that meet the constraints."
    )
    gpus_per_node: int = Field(default=8, ge=1, le=72, description="GPUs per server.")
    training_precision: Precision = Field(
        default="bf16-mixed", description="Precision recipe for the memory check."
    )
    micro_batch: int = Field(
        default=1, ge=1, le=4096, description="Micro-batch per GPU for the memory check."
    )
    platform_share: float = Field(
        default=0.30, ge=0, le=5,
        description="Server, network and storage cost as a share of GPU purchase cost when buying.",
    )  # fmt: skip


class PlanOption(BaseModel):
    gpu: str
    gpu_id: str
    gpus: int
    nodes: int
    tensor_parallel: int = Field(
        description="Tensor-parallel degree used to fit memory (ZeRO-3 over the rest)."
    )
    recompute: str = Field(description="Activation recomputation needed to fit.")
    min_gpus_for_memory: int
    days: float
    gpu_hours: float
    cloud_usd: float | None = Field(description="GPU-hours x the cheapest catalog on-demand price.")
    cloud_price_per_gpu_hour: float | None
    cloud_price_source: str | None
    buy_usd: float | None = Field(description="GPUs x newest catalog purchase price x (1 + platform share).")
    cost_usd: float | None = Field(default=None, description="The cheaper of cloud and buying, USD.")
    cost_cny: float | None = Field(default=None, description="cost_usd in CNY at the catalog's dated rate.")
    buy_price_source: str | None
    meets_deadline: bool | None
    within_budget: bool | None
    note: str = ""


class ClusterPlanOutput(ToolOutput):
    usd_to_cny: float = Field(description="CNY per USD used for the CNY figures (catalog defaults, dated).")
    budget_cny: float | None = Field(default=None, description="The budget in CNY at that rate.")
    tokens_b: float
    training_flops: float
    options: list[PlanOption] = Field(description="Best first.")
    recommendation: str
    skipped: list[str] = Field(default_factory=list, description="Candidates left out, with the reason.")


# a run shorter than this on the smallest cluster that holds the model: buying more for a budget buys little
SMALL_RUN_DAYS = 7.0


def _default_candidates(catalog: Catalog) -> list[Accelerator]:
    priced = {p.item_id for p in catalog.prices} | {c.accelerator_id for c in catalog.cloud_prices}
    return [
        a
        for a in catalog.accelerators
        if a.segment == "datacenter" and a.id in priced and a.bf16_dense_tflops
    ]


def _option(
    inp: ClusterPlanInput,
    job: TrainingMemoryInput,
    arch: Architecture,
    acc: Accelerator,
    catalog: Catalog,
    flops: float,
) -> PlanOption | str:
    fit = min_gpus_to_fit(job, arch, acc.memory_gb)
    if fit is None:
        return (
            f"{acc.name}: activations alone exceed {acc.memory_gb:g} GB even with t=8 and full recomputation"
        )
    min_gpus, tp, recompute = fit
    node = max(inp.gpus_per_node, tp)
    peak = peak_tflops(acc, inp.precision) * 1e12
    gpus = min_gpus
    if inp.deadline_days:
        gpus = max(gpus, int(-(-flops // (peak * inp.mfu * inp.deadline_days * SECONDS_PER_DAY))))
    prices = [p for p in catalog.prices_for(acc.id) if p.unit == "accelerator"]
    smallest_days = flops / (peak * inp.mfu * -(-gpus // node) * node) / SECONDS_PER_DAY
    if inp.budget_usd and not inp.deadline_days and prices and smallest_days > SMALL_RUN_DAYS:
        # a budget and no deadline: the most whole servers the budget buys, for the shortest run; a run the
        # smallest cluster that holds it finishes within a week is not worth spending the rest on
        per_server = prices[0].usd * (1 + inp.platform_share) * node
        gpus = max(gpus, int(inp.budget_usd // per_server) * node)
    gpus = int(-(-gpus // node) * node)
    seconds = flops / (peak * inp.mfu * gpus)
    hours = gpus * seconds / 3600
    clouds = catalog.cloud_prices_for(acc.id)
    cloud_price = clouds[0].usd_per_accelerator_hour if clouds else None
    buy = gpus * prices[0].usd * (1 + inp.platform_share) if prices else None
    best_cost = (
        min(c for c in (cloud_price and hours * cloud_price, buy) if c) if (clouds or prices) else None
    )
    note = ""
    if clouds:
        median = statistics.median(c.usd_per_accelerator_hour for c in clouds)
        note = f"cloud prices for this GPU range ${cloud_price:.2f}-${clouds[-1].usd_per_accelerator_hour:.2f}/h (median ${median:.2f})"
    cheapest = min((c for c in (hours * cloud_price if cloud_price else None, buy) if c), default=None)
    return PlanOption(
        gpu=acc.name,
        gpu_id=acc.id,
        gpus=gpus,
        nodes=gpus // node,
        tensor_parallel=tp,
        recompute=recompute,
        min_gpus_for_memory=min_gpus,
        days=round_sig(seconds / SECONDS_PER_DAY),
        gpu_hours=round_sig(hours),
        cloud_usd=round_sig(hours * cloud_price) if cloud_price else None,
        cloud_price_per_gpu_hour=cloud_price,
        cloud_price_source=f"{clouds[0].provider} {clouds[0].instance_type}, {clouds[0].as_of}"
        if clouds
        else None,
        buy_usd=round_sig(buy) if buy else None,
        cost_usd=round_sig(cheapest) if cheapest else None,
        cost_cny=round_sig(cheapest * catalog.defaults.usd_to_cny) if cheapest else None,
        buy_price_source=f"{prices[0].kind} price, {prices[0].as_of} ({prices[0].sources[0].title})"
        if prices
        else None,
        meets_deadline=(seconds / SECONDS_PER_DAY <= inp.deadline_days) if inp.deadline_days else None,
        # a card the catalog has no price for cannot be checked against the budget either way
        within_budget=(best_cost <= inp.budget_usd) if inp.budget_usd and best_cost is not None else None,
        note=note,
    )


def _cost(option: PlanOption) -> float:
    costs = [c for c in (option.cloud_usd, option.buy_usd) if c is not None]
    return min(costs) if costs else float("inf")


def cluster_plan(inp: ClusterPlanInput, catalog: Catalog) -> ClusterPlanOutput:
    """Rank GPU options for one training run: GPU count, 8-GPU nodes, sharding to fit, days, cloud vs buy cost.

    For each candidate GPU: the fewest GPUs that hold the model with ZeRO-3 (and tensor parallelism up to 8)
    and the count that meets the deadline, rounded to whole servers; days from 6·N·D at the MFU; cloud cost
    from the cheapest catalog on-demand price and purchase cost from the newest catalog price plus a platform
    share. Options that meet the deadline and budget come first, then by cost (or time); the first is
    explained.
    """
    workload, _, assumptions, warnings = _workload(inp, catalog)
    accs = (
        [find_accelerator(catalog, c, field="candidates") for c in inp.candidates]
        if inp.candidates
        else _default_candidates(catalog)
    )
    job = TrainingMemoryInput(
        **inp.model_dump(include={*ArchitectureFields.model_fields, "seq_len"}),
        precision=inp.training_precision, micro_batch=inp.micro_batch,
    )  # fmt: skip
    options: list[PlanOption] = []
    skipped: list[str] = []
    for acc in {a.id: a for a in accs}.values():
        if acc.bf16_dense_tflops is None and inp.precision == "bf16":
            skipped.append(f"{acc.name}: no BF16 support")
            continue
        result = _option(inp, job, workload.architecture, acc, catalog, workload.training_flops)
        (skipped.append if isinstance(result, str) else options.append)(result)  # type: ignore[arg-type]

    by_time = inp.rank_by != "cost" or (inp.budget_usd is not None and not inp.deadline_days)

    def key(o: PlanOption) -> tuple[bool, bool, float, float]:
        primary = o.days if by_time else _cost(o)
        secondary = _cost(o) if by_time else o.days
        return (o.meets_deadline is False, o.within_budget is False, primary, secondary)

    options.sort(key=key)
    if options and find_accelerator(catalog, options[0].gpu_id).vendor != "NVIDIA":
        warnings.append(_NOT_NVIDIA_FIRST(gpu=options[0].gpu))
    recommendation = _explain(inp, options)
    assumptions += [
        _SAME_MFU(mfu=f"{inp.mfu:.0%}"),
        _MEMORY_CHECK(precision=inp.training_precision, micro=inp.micro_batch),
        _PURCHASE(share=f"{inp.platform_share:.0%}"),
    ]
    rate = catalog.defaults.usd_to_cny
    return ClusterPlanOutput(
        usd_to_cny=rate,
        budget_cny=round_sig(inp.budget_usd * rate) if inp.budget_usd else None,
        formula="GPUs = max(min GPUs to fit with ZeRO-3, 6·N·D / (peak x MFU x deadline)), rounded to servers; "
        "cost = min(GPU-hours x cloud $/h, GPUs x price x (1 + platform share))",
        assumptions=assumptions,
        warnings=warnings,
        sources=[KAPLAN, ZERO, KORTHIKANTI],
        tokens_b=workload.tokens_b,
        training_flops=workload.training_flops,
        options=options,
        recommendation=recommendation,
        skipped=skipped,
    )


def _explain(inp: ClusterPlanInput, options: list[PlanOption]) -> str:
    if not options:
        return "no candidate GPU can hold this model"
    first = options[0]
    if first.meets_deadline is False:
        return f"no option meets the {inp.deadline_days:g}-day deadline; {first.gpu} comes closest at {first.days:g} days"
    if first.within_budget is False:
        return f"no option fits the ${inp.budget_usd:,.0f} budget; the cheapest is {first.gpu} at ${_cost(first):,.0f}"
    by_time = inp.rank_by != "cost" or (inp.budget_usd is not None and not inp.deadline_days)
    what = "fastest" if by_time else "cheapest"
    servers = "1 server" if first.nodes == 1 else f"{first.nodes} servers"
    text = f"{first.gpus} x {first.gpu} ({servers}) is the {what} option"
    constraints = []
    if inp.deadline_days:
        constraints.append(f"meets the {inp.deadline_days:g}-day deadline")
    if inp.budget_usd and first.within_budget:
        constraints.append(f"stays within ${inp.budget_usd:,.0f}")
    if constraints:
        text += " that " + " and ".join(constraints)
    text += f": {first.days:g} days"
    if _cost(first) < float("inf"):
        text += f", ${_cost(first):,.0f}"
    elif inp.budget_usd:
        text += f" (the catalog has no price for {first.gpu}, so the budget is not checked)"
    if len(options) > 1:
        second = options[1]
        if not by_time and _cost(second) < float("inf"):
            text += f", {1 - _cost(first) / _cost(second):.0%} less than the next, {second.gpu} (${_cost(second):,.0f})"
        else:
            text += f", against {second.days:g} days on {second.gpu}"
    return text
