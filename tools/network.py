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
from tools.messages import Message, Said, glossary

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


_LINK_KINDS = glossary(
    "link_kinds",
    {
        "scale-out": "节点间（scale-out）",
        "scale-up": "节点内（scale-up）",
        "host": "主机接口",
    },
)
_UNKNOWN_LINK = Message(
    "network.unknown_link",
    en="unknown {kinds:or} link {name}; did you mean {ids:comma}?",
    zh=f"目录中没有名为 {{name}} 的{{kinds:{_LINK_KINDS}+or}}链路；你是不是指 {{ids:comma}}？",
)
_GIVE_INTER_LINK = Message(
    "network.give_inter_node_link",
    en="give inter_node_link ({ids:comma}) or inter_node_gbit_s_per_gpu",
    zh="请给出 inter_node_link（{ids:comma}）或 inter_node_gbit_s_per_gpu",
)


_NO_HOST_LINK = Message(
    "network.no_host_link",
    en="{gpu} has no switched GPU link and its host interface {interface} is not in the catalog; give "
    "intra_node_link or intra_node_gb_s",
    zh="{gpu} 没有经交换机互连的 GPU 链路，它的主机接口 {interface} 也不在目录中；请给出 intra_node_link 或 "
    "intra_node_gb_s",
)
_ONE_GPU = Message(
    "network.one_gpu",
    en="one GPU has nothing to all-reduce; give 2 or more GPUs",
    zh="只有一张 GPU 时没有需要 all-reduce 的数据；请给出 2 张或更多 GPU",
)
_NO_STEP_TIME = Message(
    "network.no_step_time",
    en="give the compute time per step to size against a share of it",
    zh="要按单步时间的占比来测算，请给出每步的计算时间",
)
_NO_GPU_FOR_BATCH = Message(
    "network.no_gpu_for_batch",
    en="give the GPU whose peak sets the compute time of a batch",
    zh="请给出 GPU 型号，用它的峰值算力来计算一个 batch 的计算时间",
)
_NO_BF16_PEAK = Message(
    "network.no_bf16_peak",
    en="the catalog has no dense BF16 peak for {gpu}",
    zh="目录中没有 {gpu} 的 BF16 稠密峰值算力",
)
_NO_INTRA_LINK = Message(
    "network.no_intra_link",
    en="give gpu, intra_node_link or intra_node_gb_s for the link between GPUs in a server",
    zh="请给出 gpu、intra_node_link 或 intra_node_gb_s，以确定服务器内 GPU 之间的链路",
)
_INTRA_GIVEN = Message(
    "network.intra_given",
    en="intra-node {gb_s} GB/s per GPU each way (given)",
    zh="节点内每卡单向 {gb_s} GB/s（用户给定）",
)
_INTRA_LINK = Message(
    "network.intra_link", en="intra-node {link}: {gb_s} GB/s each way", zh="节点内 {link}：单向 {gb_s} GB/s"
)
_MESH = Message(
    "network.full_mesh",
    en="{gpu} GPUs are fully meshed without a switch: one GPU pair shares a single link, so rings reach the "
    "aggregate figure only when spread over all links; expect less than an NVSwitch node",
    zh="{gpu} 各卡之间是无交换机的全互联：每对 GPU 只共用一条链路，环形通信要分布到所有链路上才能达到标称的总带宽；"
    "实际会低于 NVSwitch 节点",
)
_SCALE_UP = Message(
    "network.scale_up",
    en="intra-node {interconnect}: {both} GB/s per {gpu} with both directions added, so {one_way} GB/s each way",
    zh="节点内 {interconnect}：每张 {gpu} 双向合计 {both} GB/s，即单向 {one_way} GB/s",
)
_THROUGH_HOST = Message(
    "network.ring_through_host",
    en="{gpu} {why}: the ring inside a {gpus}-GPU server runs over {link}, and through the CPUs when GPUs sit "
    "on different sockets",
    zh="{gpu} {why}：{gpus} 卡服务器内的环形通信走 {link}，GPU 分属不同 CPU 插槽时还要经过 CPU",
)
_BRIDGES_ONLY = Message(
    "network.bridges_only", en="only bridges pairs of cards", zh="只能用桥接器连接成对的卡"
)
_NO_P2P = Message("network.no_gpu_link", en="has no GPU-to-GPU link", zh="没有 GPU 之间的直连链路")
_INTER_GIVEN = Message(
    "network.inter_given",
    en="scale-out {gbit_s} Gb/s per GPU (given) / 8 = {gb_s} GB/s each way",
    zh="节点间每卡 {gbit_s} Gb/s（用户给定）/ 8 = 单向 {gb_s} GB/s",
)
_INTER_LINK = Message(
    "network.inter_link",
    en="scale-out {nics} x {link} per GPU: {port} GB/s per port each way, {per_gpu} GB/s per GPU",
    zh="节点间每卡 {nics} × {link}：每端口单向 {port} GB/s，每卡 {per_gpu} GB/s",
)
_INTER_LINK_RATE = Message(
    "network.inter_link_line_rate",
    en="scale-out {nics} x {link} per GPU: {line} Gb/s / 8 = {port} GB/s per port each way, {per_gpu} GB/s per GPU",
    zh="节点间每卡 {nics} × {link}：{line} Gb/s / 8 = 每端口单向 {port} GB/s，每卡 {per_gpu} GB/s",
)
_NO_SCALE_OUT = Message(
    "network.no_scale_out_links",
    en="the catalog lists no scale-out links",
    zh="目录中没有节点间（scale-out）网络链路",
)
_NO_LINK_FAST_ENOUGH = Message(
    "network.no_link_fast_enough",
    en="no catalog link gives {need} GB/s per GPU with {nics} port(s) per GPU; {fastest} would need {ports} "
    "ports per GPU",
    zh="目录中没有哪种链路能在每卡 {nics} 个端口时提供每卡 {need} GB/s；{fastest} 需要每卡 {ports} 个端口",
)
_COMPUTE_FROM_BATCH = Message(
    "network.compute_from_batch",
    en="compute per step = 6 x {active}B x {tokens} tokens / ({gpus} GPUs x {peak} dense BF16 TFLOPS x {mfu} MFU) "
    "= {seconds} s",
    zh="每步计算时间 = 6 × {active}B × {tokens} token /（{gpus} 张卡 × {peak} TFLOPS BF16 稠密峰值 × MFU {mfu}）"
    "= {seconds} 秒",
)
_COMPUTE_GIVEN = Message(
    "network.compute_given", en="compute {seconds} s per step", zh="每步计算 {seconds} 秒"
)
_OVERLAP = Message(
    "network.overlap",
    en="{compute}; {overlap} of communication overlapped",
    zh="{compute}；{overlap} 的通信与计算重叠",
)
_DATA_PARALLEL = Message(
    "network.data_parallel",
    en="pure data parallelism over {gpus} GPUs ({nodes} x {per_node}): every GPU all-reduces all {params}B "
    "{precision} gradients once per optimizer step (frameworks that reduce FP32 gradients, e.g. Megatron with "
    "FP32 gradient accumulation, need gradient_precision='fp32')",
    zh="纯数据并行，共 {gpus} 张卡（{nodes} × {per_node}）：每个优化器步里每张卡对全部 {params}B 个 {precision} "
    "梯度做一次 all-reduce（以 FP32 归约梯度的框架，例如开启 FP32 梯度累积的 Megatron，需设 "
    "gradient_precision='fp32'）",
)
_EFFICIENCY = Message(
    "network.efficiency",
    en="efficiency {efficiency} of line rate; bandwidth terms only (latency matters for small buckets and very "
    "many ranks)",
    zh="有效带宽按线速的 {efficiency} 计；只计带宽项（分桶很小或 rank 很多时，延迟也会有影响）",
)
_TWO_LEVEL = Message(
    "network.two_level",
    en="two-level time = 2(g-1)/g x S/B_intra + 2(N-1)/N x S/(g x B_inter); NCCL pipelines the phases over one "
    "ring per NIC, so measured times approach the larger term, not the sum",
    zh="两级时间 = 2(g-1)/g × S/B_intra + 2(N-1)/N × S/(g × B_inter)；NCCL 在每块网卡的一个环上流水执行各阶段，"
    "所以实测时间接近两项中较大的一项，而不是两项之和",
)
_ZERO3 = Message(
    "network.zero3",
    en="ZeRO-3/FSDP: parameter all-gathers in forward and backward plus gradient reduce-scatter move 3Ψ against "
    "2Ψ, so 1.5x the all-reduce volume (ZeRO §7)",
    zh="ZeRO-3/FSDP：前向和反向的参数 all-gather 加上梯度 reduce-scatter 共传输 3Ψ（all-reduce 为 2Ψ），"
    "即 all-reduce 通信量的 1.5 倍（ZeRO 论文 §7）",
)
_COMM_HEAVY = Message(
    "network.communication_heavy",
    en="communication is {share} of the step: overlap it with the backward pass, accumulate more micro-batches "
    "per step, or use a faster network",
    zh="通信占单步时间的 {share}：请让通信与反向传播重叠、每步累积更多微批，或换用更快的网络",
)
_INTRA_OVER_BUDGET = Message(
    "network.intra_over_budget",
    en="the intra-node phases alone take {inside} s, over the {budget} s budget: no network meets the target; "
    "overlap more or accumulate more micro-batches per step",
    zh="仅节点内阶段就要 {inside} 秒，超过了 {budget} 秒的预算：任何网络都达不到目标；请提高通信重叠比例，"
    "或每步累积更多微批",
)
_TARGET = Message(
    "network.target",
    en="target: exposed communication <= {share} of the step, so one all-reduce may take {budget} s",
    zh="目标：未被掩盖的通信不超过单步时间的 {share}，因此一次 all-reduce 最多可用 {budget} 秒",
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
        field, _UNKNOWN_LINK(kinds=kinds, name=repr(name), ids=suggestions), suggestions
    )


def _intra_node(inp: NetworkInput, catalog: Catalog) -> tuple[float | None, str, list[str]]:
    """Intra-node bandwidth per GPU (GB/s one way), where it came from, and warnings."""
    if inp.intra_node_gb_s:
        return inp.intra_node_gb_s, _INTRA_GIVEN(gb_s=f"{inp.intra_node_gb_s:g}"), []
    if inp.intra_node_link:
        link = find_link(catalog, inp.intra_node_link, field="intra_node_link", kinds=("scale-up", "host"))
        return link.unidirectional_gb_s, _INTRA_LINK(link=link.name, gb_s=f"{link.unidirectional_gb_s:g}"), []
    if not inp.gpu:
        return None, "", []
    acc = find_accelerator(catalog, inp.gpu)
    bridge = "bridge" in acc.scale_up_interconnect.lower()
    if acc.scale_up_bandwidth_gb_s and not (bridge and inp.gpus_per_node > 2):
        warnings: list[str] = []
        if "mesh" in acc.scale_up_interconnect.lower():
            warnings.append(_MESH(gpu=acc.name))
        return (
            acc.scale_up_bandwidth_gb_s / 2,
            _SCALE_UP(
                interconnect=acc.scale_up_interconnect,
                both=f"{acc.scale_up_bandwidth_gb_s:g}",
                gpu=acc.name,
                one_way=f"{acc.scale_up_bandwidth_gb_s / 2:g}",
            ),
            warnings,
        )
    try:
        link = find_link(catalog, acc.host_interface, field="intra_node_link", kinds=("host",))
    except CalculatorInputError:
        raise CalculatorInputError(
            "intra_node_link", _NO_HOST_LINK(gpu=acc.name, interface=repr(acc.host_interface))
        ) from None
    why = _BRIDGES_ONLY() if bridge else _NO_P2P()
    return (
        link.unidirectional_gb_s,
        _INTRA_LINK(link=link.name, gb_s=f"{link.unidirectional_gb_s:g}"),
        [_THROUGH_HOST(gpu=acc.name, why=why, gpus=inp.gpus_per_node, link=link.name)],
    )


def _inter_node(inp: NetworkInput, catalog: Catalog) -> tuple[float | None, str]:
    """Scale-out bandwidth per GPU (GB/s one way) and where it came from."""
    if inp.inter_node_gbit_s_per_gpu:
        gbit = inp.inter_node_gbit_s_per_gpu
        return gbit / BITS_PER_BYTE, _INTER_GIVEN(gbit_s=f"{gbit:g}", gb_s=f"{gbit / 8:g}")
    if inp.inter_node_link:
        link = find_link(catalog, inp.inter_node_link, field="inter_node_link", kinds=("scale-out",))
        per_gpu = link.unidirectional_gb_s * inp.nics_per_gpu
        figures = {
            "nics": f"{inp.nics_per_gpu:g}",
            "link": link.name,
            "port": f"{link.unidirectional_gb_s:g}",
            "per_gpu": f"{per_gpu:g}",
        }
        if link.line_rate_gbit_s:
            return per_gpu, _INTER_LINK_RATE(line=f"{link.line_rate_gbit_s:g}", **figures)
        return per_gpu, _INTER_LINK(**figures)
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
        return [], _NO_SCALE_OUT()
    fastest = options[-1]
    ports = math.ceil(need_gb_s / fastest.unidirectional_gb_s - 1e-9)
    return [], _NO_LINK_FAST_ENOUGH(
        need=f"{need_gb_s:.3g}", nics=f"{nics_per_gpu:g}", fastest=fastest.name, ports=ports
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
        raise CalculatorInputError("gpus_per_node", _ONE_GPU())
    if inp.target_comm_share is not None and inp.step_time_s is None and inp.batch_tokens is None:
        raise CalculatorInputError("step_time_s", _NO_STEP_TIME())
    size = arch.params_b * 1e9 * GRADIENT_BYTES[inp.gradient_precision]
    step_time = inp.step_time_s
    compute_note: Said | None = None
    if step_time is None and inp.batch_tokens is not None:
        if inp.gpu is None:
            raise CalculatorInputError("gpu", _NO_GPU_FOR_BATCH())
        peak = find_accelerator(catalog, inp.gpu).bf16_dense_tflops
        if not peak:
            raise CalculatorInputError("gpu", _NO_BF16_PEAK(gpu=repr(inp.gpu)))
        # the step's 6ND FLOPs spread over the n GPUs (compute's GPU-hours, back to seconds on each GPU)
        step_time = gpu_hours(6 * arch.active_params_b * 1e9 * inp.batch_tokens, peak, inp.mfu) * 3600 / n
        compute_note = _COMPUTE_FROM_BATCH(
            active=f"{arch.active_params_b:g}",
            tokens=f"{inp.batch_tokens:,.0f}",
            gpus=n,
            peak=f"{peak:g}",
            mfu=f"{inp.mfu:.0%}",
            seconds=f"{step_time:.3g}",
        )
    eta = inp.efficiency
    zf = ZERO3_VOLUME_FACTOR if inp.zero3 else 1.0
    warnings: list[str] = []
    assumptions: list[str] = [
        describe(arch),
        _DATA_PARALLEL(
            gpus=n, nodes=nodes, per_node=g, params=f"{arch.params_b:g}", precision=inp.gradient_precision
        ),
    ]

    intra: float | None = None
    if g > 1:
        intra, intra_note, intra_warnings = _intra_node(inp, catalog)
        if intra is None:
            raise CalculatorInputError("gpu", _NO_INTRA_LINK())
        assumptions.append(intra_note)
        warnings += intra_warnings
    inter: float | None = None
    if nodes > 1:
        inter, inter_note = _inter_node(inp, catalog)
        if inter is None and inp.target_comm_share is None:
            options = [c.id for c in catalog.interconnects if c.kind == "scale-out"]
            raise CalculatorInputError("inter_node_link", _GIVE_INTER_LINK(ids=options))
        if inter is not None:
            assumptions.append(inter_note)
    assumptions.append(_EFFICIENCY(efficiency=f"{eta:.0%}"))

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
            assumptions.append(_TWO_LEVEL())
    allreduce = min(t for t in (flat, hier) if t is not None) if flat is not None else None
    if inp.ring_only and flat is not None and hier is not None:
        allreduce, algorithm = (
            flat,
            f"one flat ring over all {n} GPUs (as asked), limited by its slowest link",
        )
    if inp.zero3:
        assumptions.append(_ZERO3())

    comm = allreduce * zf if allreduce is not None else None
    algbw = size / allreduce / GB if allreduce else None
    busbw = algbw * 2 * (n - 1) / n if algbw is not None else None
    exposed = share = None
    if comm is not None and step_time is not None:
        exposed = comm * (1 - inp.overlap_share)
        share = exposed / (step_time + exposed)
        assumptions.append(
            _OVERLAP(
                compute=compute_note or _COMPUTE_GIVEN(seconds=f"{step_time:g}"),
                overlap=f"{inp.overlap_share:.0%}",
            )
        )
        if share > 0.3:
            warnings.append(_COMM_HEAVY(share=f"{share:.0%}"))

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
                warnings.append(_INTRA_OVER_BUDGET(inside=f"{inside:.3g}", budget=f"{budget:.3g}"))
            else:
                need = 2 * (nodes - 1) / nodes * size / (g * eta * left) / GB
                matched, problem = _match(catalog, need, inp.nics_per_gpu)
                if problem:
                    warnings.append(problem)
        assumptions.append(_TARGET(share=f"{target:.0%}", budget=f"{budget:.3g}"))

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
