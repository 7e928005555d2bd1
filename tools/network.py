"""Data-parallel gradient all-reduce time per step, its share of the step, and the network it needs."""

from __future__ import annotations

import difflib
import math
from collections.abc import Collection
from typing import Literal

from pydantic import Field

from knowledge.catalog import Catalog, Interconnect, normalize_name
from tools.architecture import ArchitectureFields, describe, resolve_architecture
from tools.common import (
    GB,
    GIB,
    CalculatorInputError,
    Reference,
    ToolInput,
    ToolOutput,
    find_accelerator,
    round_sig,
)
from tools.compute import KAPLAN, gpu_hours

GradientPrecision = Literal["bf16", "fp16", "fp32"]
GRADIENT_BYTES: dict[str, float] = {"bf16": 2, "fp16": 2, "fp32": 4}
ZERO3_VOLUME_FACTOR = (
    1.5  # ZeRO §7: 3Ψ moved per step (all-gather x2 + reduce-scatter) against 2Ψ for all-reduce
)
BITS_PER_BYTE = 8

NCCL_PERFORMANCE = Reference(
    title="NVIDIA nccl-tests, doc/PERFORMANCE.md: all-reduce t = (S/B) x 2(n-1)/n, busbw = algbw x 2(n-1)/n",
    url="https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md",
)
ZERO_COMMUNICATION = Reference(
    title="Rajbhandari et al., ZeRO (2019), §7: data parallelism moves 2Ψ per step, ZeRO stage 3 (P_os+g+p) "
    "3Ψ, 1.5x",
    url="https://arxiv.org/abs/1910.02054",
)
HIERARCHICAL = Reference(
    title="Jia et al., Highly Scalable Deep Learning Training System with Mixed-Precision (2018): hierarchical "
    "all-reduce, intra-node reduce, inter-node all-reduce, intra-node broadcast",
    url="https://arxiv.org/abs/1807.11205",
)


class NetworkInput(ToolInput, ArchitectureFields):
    """Inputs of the network calculator: the model size, the GPUs, the links and the step time."""

    gradient_precision: GradientPrecision = Field(
        default="bf16", description="Precision of the all-reduced gradients (bf16/fp16 2 bytes, fp32 4)."
    )
    nodes: int = Field(default=1, ge=1, le=100_000, description="Servers in the data-parallel job.")
    gpus_per_node: int = Field(default=8, ge=1, le=72, description="GPUs per server.")
    gpu: str | None = Field(
        default=None,
        description="Catalog GPU; its scale-up link (NVLink, ...) sets the intra-node bandwidth.",
    )
    intra_node_link: str | None = Field(
        default=None,
        description="Catalog scale-up or host link inside a server, e.g. 'nvlink-4', 'pcie-gen5-x16'.",
    )
    intra_node_gb_s: float | None = Field(
        default=None,
        gt=0,
        le=100_000,
        description="Override: intra-node bandwidth per GPU, GB/s, one direction.",
    )
    inter_node_link: str | None = Field(
        default=None, description="Catalog scale-out link between servers, e.g. 'infiniband-ndr', '400GbE'."
    )
    nics_per_gpu: float = Field(
        default=1.0,
        gt=0,
        le=16,
        description="Scale-out ports per GPU (1 in DGX H100/B200; 0.5 for 4 per 8 GPUs).",
    )
    inter_node_gbit_s_per_gpu: float | None = Field(
        default=None,
        gt=0,
        le=100_000,
        description="Override: scale-out bandwidth per GPU in gigaBITS per second, one direction (400 = NDR).",
    )
    efficiency: float = Field(
        default=0.8, gt=0, le=1, description="Achieved share of the line rate (bus bandwidth / link rate)."
    )
    step_time_s: float | None = Field(
        default=None, gt=0, le=100_000, description="Compute time of one optimizer step, seconds."
    )
    batch_tokens: float | None = Field(
        default=None,
        gt=0,
        le=1e10,
        description="Tokens in one global batch: with no step_time_s, the compute time of a step is "
        "6 x active parameters x batch_tokens / (GPUs x dense BF16 peak x mfu).",
    )
    mfu: float = Field(
        default=0.40, gt=0, le=1, description="Model FLOPs utilisation of that compute, with batch_tokens."
    )
    overlap_share: float = Field(
        default=0.0, ge=0, lt=1, description="Share of the communication hidden behind compute (0 = none)."
    )
    target_comm_share: float | None = Field(
        default=None, gt=0, lt=1, description="Largest share of the step that exposed communication may take."
    )
    ring_only: bool = Field(
        default=False,
        description="Time one flat ring over all GPUs, as asked ('ring, 400Gb/s per gpu'), not the faster of a "
        "flat ring and the two-level algorithm.",
    )
    zero3: bool = Field(
        default=False,
        description="ZeRO stage 3 / FSDP full sharding: parameter all-gathers add 1.5x the volume.",
    )


class NetworkOutput(ToolOutput):
    """All-reduce time per step, its share of the step, and the scale-out bandwidth needed."""

    params_b: float
    gradient_gb: float = Field(description="Gradient bytes all-reduced per step, GB (10^9).")
    gradient_gib: float
    total_gpus: int
    intra_node_gb_s: float | None = Field(description="Intra-node bandwidth per GPU, GB/s, one direction.")
    inter_node_gb_s_per_gpu: float | None = Field(
        description="Scale-out bandwidth per GPU, GB/s, one direction."
    )
    inter_node_gbit_s_per_gpu: float | None = Field(description="The same in Gb/s.")
    efficiency: float
    flat_ring_s: float | None = Field(description="One ring over all GPUs, limited by its slowest link.")
    hierarchical_s: float | None = Field(
        description="Two-level: intra-node + inter-node + intra-node phases."
    )
    allreduce_s: float | None = Field(description="The faster of the two: one gradient all-reduce.")
    algorithm: str
    volume_factor: float = Field(description="1.5 with ZeRO-3/FSDP parameter all-gathers, else 1.")
    comm_per_step_s: float | None
    algbw_gb_s: float | None = Field(description="NCCL algorithm bandwidth S / t.")
    busbw_gb_s: float | None = Field(description="NCCL bus bandwidth algbw x 2(n-1)/n.")
    step_time_s: float | None = Field(description="Compute time of one step: given, or from batch_tokens.")
    exposed_comm_s: float | None
    comm_share_of_step: float | None = Field(description="Exposed communication / (compute + exposed).")
    needed_for: Literal["intra-node", "inter-node"] | None
    needed_gb_s_per_gpu: float | None = Field(
        description="Line rate per GPU to meet target_comm_share, GB/s."
    )
    needed_gbit_s_per_gpu: float | None = Field(description="The same in Gb/s.")
    matched_option: str | None = Field(description="Slowest catalog scale-out link that meets the need (id).")
    matched_options: list[str] = Field(
        default_factory=list, description="Every catalog link at that bandwidth."
    )
    verdict: str


def find_link(catalog: Catalog, name: str, *, field: str, kinds: Collection[str]) -> Interconnect:
    """The catalog interconnect of one of ``kinds`` by id, name, alias or an unambiguous part of its name."""
    key = normalize_name(name)
    links = [link for link in catalog.interconnects if link.kind in kinds]
    names = {link.id: [normalize_name(x) for x in (link.id, link.name, *link.aliases)] for link in links}
    exact = [link for link in links if key in names[link.id]]
    partial = [link for link in links if any(key in x for x in names[link.id])]
    for hits in (exact, partial):
        if len(hits) == 1:
            return hits[0]
    by_key = {x: link.id for link in links for x in names[link.id]}
    close = [by_key[k] for k in difflib.get_close_matches(key, list(by_key), n=6, cutoff=0.4)]
    suggestions = list(dict.fromkeys([h.id for h in partial] + close))[:4] or [link.id for link in links]
    raise CalculatorInputError(
        field,
        f"unknown {' or '.join(kinds)} link {name!r}; did you mean {', '.join(suggestions)}?",
        suggestions,
    )


def _intra_node(inp: NetworkInput, catalog: Catalog) -> tuple[float | None, str, list[str]]:
    """Intra-node bandwidth per GPU (GB/s one way), where it came from, and warnings."""
    if inp.intra_node_gb_s:
        return inp.intra_node_gb_s, f"intra-node {inp.intra_node_gb_s:g} GB/s per GPU each way (given)", []
    if inp.intra_node_link:
        link = find_link(catalog, inp.intra_node_link, field="intra_node_link", kinds=("scale-up", "host"))
        return (
            link.unidirectional_gb_s,
            f"intra-node {link.name}: {link.unidirectional_gb_s:g} GB/s each way",
            [],
        )
    if not inp.gpu:
        return None, "", []
    acc = find_accelerator(catalog, inp.gpu)
    bridge = "bridge" in acc.scale_up_interconnect.lower()
    if acc.scale_up_bandwidth_gb_s and not (bridge and inp.gpus_per_node > 2):
        warnings = []
        if "mesh" in acc.scale_up_interconnect.lower():
            warnings.append(
                f"{acc.name} GPUs are fully meshed without a switch: one GPU pair shares a single link, so rings "
                "reach the aggregate figure only when spread over all links; expect less than an NVSwitch node"
            )
        return (
            acc.scale_up_bandwidth_gb_s / 2,
            (
                f"intra-node {acc.scale_up_interconnect}: {acc.scale_up_bandwidth_gb_s:g} GB/s per {acc.name} with "
                f"both directions added, so {acc.scale_up_bandwidth_gb_s / 2:g} GB/s each way"
            ),
            warnings,
        )
    try:
        link = find_link(catalog, acc.host_interface, field="intra_node_link", kinds=("host",))
    except CalculatorInputError:
        raise CalculatorInputError(
            "intra_node_link",
            f"{acc.name} has no switched GPU link and its host interface {acc.host_interface!r} is not in the "
            "catalog; give intra_node_link or intra_node_gb_s",
        ) from None
    why = "only bridges pairs of cards" if bridge else "has no GPU-to-GPU link"
    return (
        link.unidirectional_gb_s,
        f"intra-node {link.name}: {link.unidirectional_gb_s:g} GB/s each way",
        [
            f"{acc.name} {why}: the ring inside a {inp.gpus_per_node}-GPU server runs over {link.name}, and through "
            "the CPUs when GPUs sit on different sockets"
        ],
    )


def _inter_node(inp: NetworkInput, catalog: Catalog) -> tuple[float | None, str]:
    """Scale-out bandwidth per GPU (GB/s one way) and where it came from."""
    if inp.inter_node_gbit_s_per_gpu:
        gbit = inp.inter_node_gbit_s_per_gpu
        return (
            gbit / BITS_PER_BYTE,
            f"scale-out {gbit:g} Gb/s per GPU (given) / 8 = {gbit / 8:g} GB/s each way",
        )
    if inp.inter_node_link:
        link = find_link(catalog, inp.inter_node_link, field="inter_node_link", kinds=("scale-out",))
        per_gpu = link.unidirectional_gb_s * inp.nics_per_gpu
        rate = f"{link.line_rate_gbit_s:g} Gb/s / 8 = " if link.line_rate_gbit_s else ""
        return per_gpu, (
            f"scale-out {inp.nics_per_gpu:g} x {link.name} per GPU: {rate}{link.unidirectional_gb_s:g} GB/s per "
            f"port each way, {per_gpu:g} GB/s per GPU"
        )
    return None, ""


def _match(catalog: Catalog, need_gb_s: float, nics_per_gpu: float) -> tuple[list[Interconnect], str | None]:
    """The slowest scale-out links that meet ``need_gb_s`` per GPU, or a warning."""
    options = sorted(
        (c for c in catalog.interconnects if c.kind == "scale-out"), key=lambda c: c.unidirectional_gb_s
    )
    meeting = [c for c in options if c.unidirectional_gb_s * nics_per_gpu >= need_gb_s]
    if meeting:
        slowest = meeting[0].unidirectional_gb_s
        return [c for c in meeting if c.unidirectional_gb_s == slowest], None
    if not options:
        return [], "the catalog lists no scale-out links"
    fastest = options[-1]
    ports = math.ceil(need_gb_s / fastest.unidirectional_gb_s - 1e-9)
    return [], (
        f"no catalog link gives {need_gb_s:.3g} GB/s per GPU with {nics_per_gpu:g} port(s) per GPU; "
        f"{fastest.name} would need {ports} ports per GPU"
    )


def network(inp: NetworkInput, catalog: Catalog) -> NetworkOutput:
    """Estimate the gradient all-reduce time per training step, its share of the step, and the network needed.

    Ring all-reduce: t = 2(n-1)/n x S / (efficiency x B), with S = parameters x gradient bytes (2 for BF16,
    4 for FP32) and B the per-GPU bandwidth in one direction (NCCL tests' bus bandwidth). Inside a server B is
    the GPU's scale-up link (NVLink 900 GB/s both ways = 450 each way) or a catalog link; between servers it is
    scale-out ports per GPU x port rate (400 Gb/s NDR = 50 GB/s: bits, not bytes). Across servers the
    two-level formula 2(g-1)/g x S/B_intra + 2(N-1)/N x S/(g x B_inter) is used when faster than one flat
    ring. ZeRO-3/FSDP moves 1.5x the volume. Given the compute time per step and the overlap, it reports the
    exposed share of the step; given a target share, the scale-out bandwidth per GPU needed (GB/s and Gb/s)
    and the slowest catalog link (InfiniBand, RoCE Ethernet) that meets it.
    """
    arch = resolve_architecture(catalog, inp)
    g, nodes = inp.gpus_per_node, inp.nodes
    n = g * nodes
    if n == 1:
        raise CalculatorInputError("gpus_per_node", "one GPU has nothing to all-reduce; give 2 or more GPUs")
    if inp.target_comm_share is not None and inp.step_time_s is None and inp.batch_tokens is None:
        raise CalculatorInputError(
            "step_time_s", "give the compute time per step to size against a share of it"
        )
    size = arch.params_b * 1e9 * GRADIENT_BYTES[inp.gradient_precision]
    step_time = inp.step_time_s
    compute_note: str | None = None
    if step_time is None and inp.batch_tokens is not None:
        if inp.gpu is None:
            raise CalculatorInputError("gpu", "give the GPU whose peak sets the compute time of a batch")
        peak = find_accelerator(catalog, inp.gpu).bf16_dense_tflops
        if not peak:
            raise CalculatorInputError("gpu", f"the catalog has no dense BF16 peak for {inp.gpu!r}")
        # the step's 6ND FLOPs spread over the n GPUs (compute's GPU-hours, back to seconds on each GPU)
        step_time = gpu_hours(6 * arch.active_params_b * 1e9 * inp.batch_tokens, peak, inp.mfu) * 3600 / n
        compute_note = (
            f"compute per step = 6 x {arch.active_params_b:g}B x {inp.batch_tokens:,.0f} tokens / "
            f"({n} GPUs x {peak:g} dense BF16 TFLOPS x {inp.mfu:.0%} MFU) = {step_time:.3g} s"
        )
    eta = inp.efficiency
    zf = ZERO3_VOLUME_FACTOR if inp.zero3 else 1.0
    warnings: list[str] = []
    assumptions = [
        describe(arch),
        f"pure data parallelism over {n} GPUs ({nodes} x {g}): every GPU all-reduces all "
        f"{arch.params_b:g}B {inp.gradient_precision} gradients once per optimizer step (frameworks that "
        "reduce FP32 gradients, e.g. Megatron with FP32 gradient accumulation, need gradient_precision='fp32')",
    ]

    intra: float | None = None
    if g > 1:
        intra, intra_note, intra_warnings = _intra_node(inp, catalog)
        if intra is None:
            raise CalculatorInputError(
                "gpu", "give gpu, intra_node_link or intra_node_gb_s for the link between GPUs in a server"
            )
        assumptions.append(intra_note)
        warnings += intra_warnings
    inter: float | None = None
    if nodes > 1:
        inter, inter_note = _inter_node(inp, catalog)
        if inter is None and inp.target_comm_share is None:
            options = ", ".join(c.id for c in catalog.interconnects if c.kind == "scale-out")
            raise CalculatorInputError(
                "inter_node_link", f"give inter_node_link ({options}) or inter_node_gbit_s_per_gpu"
            )
        if inter is not None:
            assumptions.append(inter_note)
    assumptions.append(
        f"efficiency {eta:.0%} of line rate; bandwidth terms only (latency matters for small buckets and very "
        "many ranks)"
    )

    def ring(ranks: int, volume: float, bandwidth: float) -> float:
        return 2 * (ranks - 1) / ranks * volume / (eta * bandwidth * GB)

    flat = hier = None
    algorithm = ""
    if nodes == 1:
        assert intra is not None
        flat = ring(n, size, intra)
        algorithm = f"ring over the {g} GPUs of one server"
    elif inter is not None:
        flat = ring(n, size, min(intra, inter) if intra else inter)
        algorithm = f"ring over {nodes} servers, one GPU each"
        if intra is not None:
            hier = ring(g, size, intra) + ring(nodes, size / g, inter)
            algorithm = (
                "two-level: reduce-scatter in each server, all-reduce of 1/g across servers, all-gather in each "
                "server"
                if hier <= flat
                else "one flat ring (faster than two levels here)"
            )
            assumptions.append(
                "two-level time = 2(g-1)/g x S/B_intra + 2(N-1)/N x S/(g x B_inter); NCCL pipelines the phases "
                "over one ring per NIC, so measured times approach the larger term, not the sum"
            )
    allreduce = min(t for t in (flat, hier) if t is not None) if flat is not None else None
    if inp.ring_only and flat is not None and hier is not None:
        allreduce, algorithm = (
            flat,
            f"one flat ring over all {n} GPUs (as asked), limited by its slowest link",
        )
    if inp.zero3:
        assumptions.append("ZeRO-3/FSDP: parameter all-gathers in forward and backward plus gradient reduce-scatter "
                           "move 3Ψ against 2Ψ, so 1.5x the all-reduce volume (ZeRO §7)")  # fmt: skip

    comm = allreduce * zf if allreduce is not None else None
    algbw = size / allreduce / GB if allreduce else None
    busbw = algbw * 2 * (n - 1) / n if algbw is not None else None
    exposed = share = None
    if comm is not None and step_time is not None:
        exposed = comm * (1 - inp.overlap_share)
        share = exposed / (step_time + exposed)
        assumptions.append(
            f"{compute_note or f'compute {step_time:g} s per step'}; {inp.overlap_share:.0%} of communication "
            "overlapped"
        )
        if share > 0.3:
            warnings.append(
                f"communication is {share:.0%} of the step: overlap it with the backward pass, accumulate more "
                "micro-batches per step, or use a faster network"
            )

    needed_for: Literal["intra-node", "inter-node"] | None = None
    need: float | None = None
    matched: list[Interconnect] = []
    if inp.target_comm_share is not None:
        assert step_time is not None
        target = inp.target_comm_share
        budget = target / (1 - target) * step_time / (1 - inp.overlap_share) / zf
        if nodes == 1:
            needed_for = "intra-node"
            need = 2 * (n - 1) / n * size / (eta * budget) / GB
        else:
            needed_for = "inter-node"
            inside = ring(g, size, intra) if intra else 0.0
            left = budget - inside
            if left <= 0:
                warnings.append(
                    f"the intra-node phases alone take {inside:.3g} s, over the {budget:.3g} s budget: no network "
                    "meets the target; overlap more or accumulate more micro-batches per step"
                )
            else:
                need = 2 * (nodes - 1) / nodes * size / (g * eta * left) / GB
                matched, problem = _match(catalog, need, inp.nics_per_gpu)
                if problem:
                    warnings.append(problem)
        assumptions.append(
            f"target: exposed communication <= {target:.0%} of the step, so one all-reduce may take "
            f"{budget:.3g} s"
        )

    if allreduce is None:
        verdict = ""
    else:
        verdict = f"one gradient all-reduce takes {allreduce:.3g} s ({algorithm})"
        if share is not None:
            verdict += f"; exposed communication is {share:.0%} of the step"
    if need is not None:
        verdict += ("; " if verdict else "") + (
            f"{needed_for} bandwidth needed: {need:.3g} GB/s = {need * BITS_PER_BYTE:.3g} Gb/s per GPU"
        )
        if matched:
            verdict += f", met by {' or '.join(m.name for m in matched)}"
    return NetworkOutput(
        formula=(
            "ring all-reduce t = 2(n-1)/n x S / (eff x B), S = params x gradient bytes, B per GPU one direction; "
            "two-level t = 2(g-1)/g x S/B_intra + 2(N-1)/N x S/(g x B_inter); x 1.5 for ZeRO-3; "
            "share = (1-overlap) t / (step + (1-overlap) t); busbw = (S/t) x 2(n-1)/n"
        ),
        assumptions=assumptions,
        warnings=warnings,
        sources=[
            NCCL_PERFORMANCE,
            ZERO_COMMUNICATION,
            *([HIERARCHICAL] if nodes > 1 else []),
            *([KAPLAN] if compute_note else []),
        ],
        params_b=arch.params_b,
        gradient_gb=round_sig(size / GB, 6),
        gradient_gib=round_sig(size / GIB, 6),
        total_gpus=n,
        intra_node_gb_s=intra,
        inter_node_gb_s_per_gpu=inter,
        inter_node_gbit_s_per_gpu=inter * BITS_PER_BYTE if inter is not None else None,
        efficiency=eta,
        flat_ring_s=flat,
        hierarchical_s=hier,
        allreduce_s=allreduce,
        algorithm=algorithm,
        volume_factor=zf,
        comm_per_step_s=comm,
        algbw_gb_s=algbw,
        busbw_gb_s=busbw,
        step_time_s=step_time,
        exposed_comm_s=exposed,
        comm_share_of_step=share,
        needed_for=needed_for,
        needed_gb_s_per_gpu=need,
        needed_gbit_s_per_gpu=need * BITS_PER_BYTE if need is not None else None,
        matched_option=matched[0].id if matched else None,
        matched_options=[m.id for m in matched],
        verdict=verdict or "no all-reduce time without the scale-out link",
    )
