"""Host RAM for a GPU training server: a ratio to GPU memory plus loaders, pinned buffers and offload."""

from __future__ import annotations

import math
import statistics

from pydantic import BaseModel, Field

from knowledge.catalog import Catalog
from tools.architecture import ArchitectureFields, resolve_architecture
from tools.common import (
    GB,
    GIB,
    CalculatorInputError,
    Reference,
    ToolInput,
    ToolOutput,
    find_accelerator,
)
from tools.messages import Message, Said

_DIMMS = Message("host_ram.dimms", en="{count} x {size} GB DIMMs", zh="{count} 条 {size} GB 内存条")
_DIMMS_EITHER = Message(
    "host_ram.dimms_either",
    en="{count} x {size} GB or {count2} x {size2} GB DIMMs",
    zh="{count} 条 {size} GB 或 {count2} 条 {size2} GB 内存条",
)
_DIMMS_BEYOND = Message(
    "host_ram.dimms_beyond",
    en="{total} GB: more than 32 x 256 GB DIMMs",
    zh="{total} GB：超过 32 条 256 GB 内存条的上限",
)

# Total RAM in a two-socket server, as DIMMs are sold (a "64 GB" DIMM holds 64 GiB): 16 DIMMs = 8 channels
# x 2 sockets, 24 = 12 channels x 2 sockets, 32 = 8 channels x 2 sockets x 2 DIMMs per channel.
DIMM_CONFIGS: tuple[tuple[int, Said], ...] = (
    (256, _DIMMS(count=16, size=16)),
    (512, _DIMMS(count=16, size=32)),
    (768, _DIMMS(count=24, size=32)),
    (1024, _DIMMS(count=16, size=64)),
    (1152, _DIMMS(count=24, size=48)),
    (1536, _DIMMS(count=24, size=64)),
    (2048, _DIMMS_EITHER(count=32, size=64, count2=16, size2=128)),
    (2304, _DIMMS(count=24, size=96)),
    (3072, _DIMMS(count=24, size=128)),
    (4096, _DIMMS(count=32, size=128)),
    (6144, _DIMMS(count=24, size=256)),
    (8192, _DIMMS(count=32, size=256)),
)
DESKTOP_ADVICE_GB = (
    64  # at or below this, a figure comes from desktop advice ("8-16 GB", "32 GB for heavy use")
)
OFFLOAD_OPTIMIZER_BYTES = 16.0  # FP32 master 4 + Adam moments 8 + FP32 gradients 4 (DeepSpeed, zero_init=1)
OFFLOAD_PARAMS_EXTRA_BYTES = 2.0  # ZeRO-3 parameter offload adds the 16-bit weights: 18 bytes

DEEPSPEED_MEMORY = Reference(
    title="DeepSpeed, Memory Requirements: estimate_zero2/zero3_model_states_mem_needs "
    "(host RAM = params x 16 (18 with parameter offload) x 1.5 / nodes)",
    url="https://deepspeed.readthedocs.io/en/latest/memory.html",
)
HF_DEEPSPEED = Reference(
    title="Hugging Face Transformers, DeepSpeed guide, memory requirements: bigscience/T0_3B (2,783M params) "
    "needs 62.23 GB per CPU with optimizer offload and 70.00 GB with parameter offload too (GiB)",
    url="https://huggingface.co/docs/transformers/deepspeed",
)
PYTORCH_DATALOADER = Reference(
    title="PyTorch, torch.utils.data.DataLoader: num_workers, prefetch_factor (default 2 batches per worker), "
    "pin_memory",
    url="https://docs.pytorch.org/docs/stable/data.html",
)


_NO_GPU = Message(
    "host_ram.no_gpu",
    en="give the GPU (a catalog name), gpu_memory_gb per GPU, or total_gpu_memory_gb per server",
    zh="请给出 GPU（目录中的名称）、每卡显存 gpu_memory_gb，或每台服务器的总显存 total_gpu_memory_gb",
)
_GPU_TOTAL_GIVEN = Message(
    "host_ram.gpu_memory_total_given",
    en="GPU memory {total} GB per server (given)",
    zh="每台服务器显存 {total} GB（用户给定）",
)
_GPU_MEMORY = Message(
    "host_ram.gpu_memory",
    en="GPU memory {gpus} x {per_gpu} GB = {total} GB per server ({origin})",
    zh="每台服务器显存 {gpus} × {per_gpu} GB = {total} GB（{origin}）",
)
_GIVEN = Message("host_ram.given", en="given", zh="用户给定")
_FROM_CATALOG = Message("host_ram.from_catalog", en="catalog {name}", zh="目录中的 {name}")
_BEYOND_TWO_SOCKETS = Message(
    "host_ram.beyond_two_sockets",
    en="{gib} GiB is more than a two-socket server holds (8 TiB with 32 x 256 GB DIMMs): spread offload over "
    "more servers or offload less",
    zh="{gib} GiB 超过了双路服务器能装的上限（32 条 256 GB 内存条，共 8 TiB）：请把卸载分摊到更多服务器上，或少卸载一些",
)
_BASELINE = Message(
    "host_ram.baseline",
    en="baseline {ratio}x GPU memory: OS, framework and loader processes, page cache",
    zh="基础部分按显存的 {ratio} 倍：操作系统、框架与数据加载进程、页缓存",
)
_LOADERS = Message(
    "host_ram.loaders",
    en="data loaders: {gpus} GPUs x {workers} workers x {prefetch} batches x {mb} MB",
    zh="数据加载：{gpus} 张卡 × {workers} 个 worker × 预取 {prefetch} 批 × {mb} MB",
)
_PINNED = Message(
    "host_ram.pinned",
    en="pinned buffers {gb} GB per GPU (NCCL proxies, host-device copies; an assumption)",
    zh="锁页缓冲区每卡 {gb} GB（NCCL 代理、主机与 GPU 之间的拷贝；假设值）",
)
_STAGING = Message(
    "host_ram.checkpoint_staging",
    en="asynchronous checkpoint staging: {params}B x {bytes} bytes / {nodes} servers, pinned",
    zh="异步检查点暂存：{params}B × {bytes} 字节 / {nodes} 台服务器，使用锁页内存",
)
_OFFLOAD = Message(
    "host_ram.offload",
    en="ZeRO-Offload: {params}B x {bytes} bytes / {nodes} servers x {buffer} buffer (DeepSpeed zero_init estimate)",
    zh="ZeRO-Offload：{params}B × {bytes} 字节 / {nodes} 台服务器 × {buffer} 缓冲系数（按 DeepSpeed zero_init 估算）",
)
_OFFLOAD_SIZES = Message(
    "host_ram.offload_sizes_ram",
    en="the offloaded states exceed the baseline ratio, so they size the RAM in its place (not added to it)",
    zh="卸载的状态超过按比例的基线，由它取代基线来定内存大小（不与基线相加）",
)
_OFFLOAD_FITS = Message(
    "host_ram.offload_fits",
    en="the offloaded states fit within the baseline ratio's headroom (not added to it)",
    zh="卸载的状态在按比例基线的余量之内（不与基线相加）",
)
_ROUNDED = Message(
    "host_ram.rounded_to_dimms",
    en="rounded up to {size} GB of DIMMs ({layout}); DIMM 'GB' are binary, so the {gb} GB (10^9) needed is "
    "{gib} GiB",
    zh="向上取整为 {size} GB 内存（{layout}）；内存条标的“GB”其实是 GiB，所需的 {gb} GB（10^9 字节）即 {gib} GiB",
)
_RATIO_HIGH = Message(
    "host_ram.ratio_above_rule",
    en="ratio {ratio}x is above the 1-2x rule of thumb; the catalog's servers ship {low}-{high}x",
    zh="主机内存与显存之比 {ratio} 倍，高于 1-2 倍的经验值；目录中的服务器出厂配置为 {low}-{high} 倍",
)
_SERVERS_SHIP = Message(
    "host_ram.servers_ship",
    en="catalog servers ship {servers:comma} host RAM per GPU memory",
    zh="目录中各服务器的主机内存与显存之比：{servers:comma}",
)
_SERVER_RATIO = Message("host_ram.server_ratio", en="{name} {ratio}x", zh="{name} {ratio} 倍")
_CORES = Message(
    "host_ram.cores",
    en="CPU: {gpus} GPUs x ({workers} loader workers + the training process + NCCL/OS) = {cores} physical cores "
    "at least; the catalog's 8-GPU servers ship {low}-{high} cores",
    zh="CPU：{gpus} 张卡 ×（{workers} 个数据加载进程 + 训练进程 + NCCL/系统）= 至少 {cores} 个物理核；"
    "目录中的 8 卡服务器配 {low}-{high} 核",
)
_CORES_PLAIN = Message(
    "host_ram.cores_without_reference",
    en="CPU: {gpus} GPUs x ({workers} loader workers + the training process + NCCL/OS) = {cores} physical cores "
    "at least",
    zh="CPU：{gpus} 张卡 ×（{workers} 个数据加载进程 + 训练进程 + NCCL/系统）= 至少 {cores} 个物理核",
)
_PLAN_CORES = Message(
    "host_ram.plan_cores",
    en="plan {planned} cores: {per_gpu} per GPU, the median of the catalog's 8-GPU servers",
    zh="按 {planned} 核规划：每卡 {per_gpu} 核，取目录中 8 卡服务器的中位数",
)
_DESKTOP = Message(
    "host_ram.desktop_sizing",
    en="{ram} GB is desktop-PC sizing (the common '8-16 GB is enough' advice); a GPU training server with "
    "{gpu_memory} GB of GPU memory needs about {size} GB",
    zh="{ram} GB 是台式机的配置（常见的“8-16 GB 就够了”的说法）；显存共 {gpu_memory} GB 的 GPU 训练服务器需要约 {size} GB",
)
_SHORT = Message(
    "host_ram.short_of_floor",
    en="{ram} GB is short of the {floor} GiB floor",
    zh="{ram} GB 低于 {floor} GiB 的下限",
)


class HostRamInput(ToolInput, ArchitectureFields):
    """Inputs of the host-RAM calculator: the node's GPUs, the ratio and the optional extra terms."""

    gpu: str | None = Field(
        default=None, description="Catalog GPU in the server, e.g. 'H100', 'B200', 'MI300X'."
    )
    gpus_per_node: int = Field(default=8, ge=1, le=72, description="GPUs in one server.")
    gpu_memory_gb: float | None = Field(
        default=None, gt=0, le=10_000, description="Override the memory of one GPU, GB (10^9 bytes)."
    )
    total_gpu_memory_gb: float | None = Field(
        default=None, gt=0, le=100_000, description="Total GPU memory of the server, GB; overrides the rest."
    )
    ram_to_gpu_memory_ratio: float = Field(
        default=2.0,
        ge=1.0,
        le=4.0,
        description="Host RAM as a multiple of the server's GPU memory: rule of thumb 1-2x; NVIDIA's DGX H100 "
        "and DGX A100 ship 3.2x.",
    )
    loader_workers_per_gpu: int = Field(
        default=4, ge=0, le=256, description="Data-loader worker processes per GPU."
    )
    prefetch_factor: int = Field(
        default=2, ge=1, le=64, description="Batches each worker keeps ready (PyTorch: 2)."
    )
    loader_batch_mb: float = Field(
        default=64.0,
        gt=0,
        le=1_000_000,
        description="One batch as a worker holds it in host RAM, MB (10^6 bytes).",
    )
    pinned_gb_per_gpu: float = Field(
        default=2.0,
        ge=0,
        le=1000,
        description="Pinned host buffers per GPU for NCCL proxies and host-device copies, GB (an assumption).",
    )
    checkpoint_staging: bool = Field(
        default=False,
        description="Asynchronous checkpointing: a pinned host copy of this server's share of the checkpoint.",
    )
    checkpoint_bytes_per_param: float = Field(
        default=14.0,
        gt=0,
        le=64,
        description="Bytes per parameter of a full checkpoint (2 + 4 + 8 for Adam).",
    )
    offload_optimizer: bool = Field(
        default=False, description="ZeRO-Offload: optimizer states and FP32 gradients in host RAM."
    )
    offload_params: bool = Field(
        default=False,
        description="ZeRO-3/Infinity: the 16-bit weights in host RAM too (implies optimizer offload).",
    )
    offload_bytes_per_param: float | None = Field(
        default=None,
        gt=0,
        le=64,
        description="Override offloaded bytes per parameter (default 16, or 18 with params).",
    )
    offload_buffer_factor: float = Field(
        default=1.5, ge=1, le=4, description="DeepSpeed's additional buffer factor on offloaded states."
    )
    nodes: int = Field(
        default=1, ge=1, le=100_000, description="Servers the job (and the offload) spreads over."
    )
    current_ram_gb: float | None = Field(
        default=None,
        gt=0,
        le=100_000,
        description="RAM the server has or was quoted, GB as DIMMs are labelled (binary), to check.",
    )


class ReferenceServerRatio(BaseModel):
    """A catalog server's shipped RAM against its GPU memory."""

    id: str
    name: str
    ram_gb: float = Field(description="Host RAM as the catalog lists it (DIMM labels).")
    gpu_memory_gb: float
    ratio: float
    gpus: int
    cpu: str
    cpu_cores: int
    cores_per_gpu: float


class HostRamBreakdown(BaseModel):
    """Host RAM per server, GB (10^9 bytes)."""

    baseline_gb: float = Field(
        description="Ratio x GPU memory: OS, framework processes, page cache, staging."
    )
    loader_buffers_gb: float
    pinned_gb: float
    checkpoint_staging_gb: float
    offload_gb: float
    total_gb: float
    total_gib: float


class HostRamOutput(ToolOutput):
    """Host RAM per server, the DIMM configuration to buy and the reference servers' ratios."""

    gpu: str | None
    gpus_per_node: int
    total_gpu_memory_gb: float
    ratio: float
    per_node: HostRamBreakdown
    recommended_ram_gib: int = Field(
        description="DIMM total to install, as sold: DIMM 'GB' are binary, so 2,048 means 2 TiB."
    )
    dimm_layout: str
    reference_servers: list[ReferenceServerRatio]
    current_ram_sufficient: bool | None = Field(
        description="current_ram_gb covers the floor: 1x GPU memory (or the offloaded states) plus loaders, "
        "pinned buffers and staging."
    )
    current_ram_comfortable: bool | None = Field(
        default=None, description="current_ram_gb also covers the plan at ram_to_gpu_memory_ratio."
    )
    minimum_gib: float = Field(
        default=0.0,
        description="The floor a server must have, GiB: 1x GPU memory (or the offloaded states, "
        "if larger) plus loaders, pinned buffers and checkpoint staging.",
    )
    cpu_cores_min: int = Field(
        description="Physical cores per server: GPUs x (loader workers + 2: the training process and NCCL/OS)."
    )
    cpu_cores_planned: int = Field(
        default=0,
        description="Cores to plan per server: the catalog's 8-GPU servers' median cores per GPU x GPUs, at least "
        "cpu_cores_min.",
    )
    verdict: str
    offloaded_params_b: float | None = Field(
        default=None,
        description="Parameters whose optimizer states are offloaded, billions (None: no offload).",
    )


def _gpu_memory(inp: HostRamInput, catalog: Catalog) -> tuple[float, str | None, str]:
    if inp.total_gpu_memory_gb:
        return inp.total_gpu_memory_gb, None, _GPU_TOTAL_GIVEN(total=f"{inp.total_gpu_memory_gb:g}")
    name = None
    per_gpu = inp.gpu_memory_gb
    if inp.gpu:
        acc = find_accelerator(catalog, inp.gpu)
        name = acc.name
        per_gpu = per_gpu or acc.memory_gb
    if per_gpu is None:
        raise CalculatorInputError("gpu", _NO_GPU())
    origin = _GIVEN() if inp.gpu_memory_gb else _FROM_CATALOG(name=name)
    total = per_gpu * inp.gpus_per_node
    return (
        total,
        name,
        _GPU_MEMORY(gpus=inp.gpus_per_node, per_gpu=f"{per_gpu:g}", total=f"{total:g}", origin=origin),
    )


def _dimms(required_gib: float) -> tuple[int, str, str | None]:
    for size, layout in DIMM_CONFIGS:
        if required_gib <= size:
            return size, layout, None
    size = math.ceil(required_gib / 1024) * 1024
    return (
        size,
        _DIMMS_BEYOND(total=f"{size:,}"),
        _BEYOND_TWO_SOCKETS(gib=f"{required_gib:,.0f}"),
    )


def host_ram(inp: HostRamInput, catalog: Catalog) -> HostRamOutput:
    """Size the host RAM (system memory) of a GPU server for LLM training and the DIMM configuration to buy.

    Baseline = ratio x the server's GPU memory (GPU count x the catalog memory of the GPU, or given; default
    2x, rule of thumb 1-2x; the catalog's DGX H100 and DGX A100 ship 2 TB for 640 GB of HBM, 3.2x, and their
    ratios are reported). On top: data-loader buffers (GPUs x workers x prefetch x batch size), pinned buffers
    for NCCL and host-device copies, optionally a pinned copy of this server's share of the checkpoint for
    asynchronous saves. ZeRO-Offload (parameters x 16 bytes, 18 with parameter offload, / nodes x 1.5
    buffer, as DeepSpeed estimates) takes the baseline's place when it is larger, rather than adding to it. The total rounds up to a practical DIMM configuration
    (256 GB to 8 TB). Give current_ram_gb to check an existing or quoted server; desktop advice of 8-16 GB
    does not apply to training servers.
    """
    gpu_total, gpu_name, gpu_note = _gpu_memory(inp, catalog)
    n = inp.gpus_per_node
    assumptions = [gpu_note]
    warnings: list[str] = []

    baseline = inp.ram_to_gpu_memory_ratio * gpu_total * GB
    loaders = n * inp.loader_workers_per_gpu * inp.prefetch_factor * inp.loader_batch_mb * 1e6
    pinned = n * inp.pinned_gb_per_gpu * GB
    assumptions += [
        _BASELINE(ratio=f"{inp.ram_to_gpu_memory_ratio:g}"),
        _LOADERS(
            gpus=n,
            workers=inp.loader_workers_per_gpu,
            prefetch=inp.prefetch_factor,
            mb=f"{inp.loader_batch_mb:g}",
        ),
        _PINNED(gb=f"{inp.pinned_gb_per_gpu:g}"),
    ]

    staging = offload = 0.0
    offloaded_b = None
    if inp.checkpoint_staging or inp.offload_optimizer or inp.offload_params:
        arch = resolve_architecture(catalog, inp)
        params = arch.params_b * 1e9
        if inp.checkpoint_staging:
            staging = params * inp.checkpoint_bytes_per_param / inp.nodes
            assumptions.append(
                _STAGING(
                    params=f"{arch.params_b:g}", bytes=f"{inp.checkpoint_bytes_per_param:g}", nodes=inp.nodes
                )
            )
        if inp.offload_optimizer or inp.offload_params:
            per_param = inp.offload_bytes_per_param or (
                OFFLOAD_OPTIMIZER_BYTES + (OFFLOAD_PARAMS_EXTRA_BYTES if inp.offload_params else 0.0)
            )
            offload = params * per_param / inp.nodes * inp.offload_buffer_factor
            offloaded_b = arch.params_b
            assumptions.append(
                _OFFLOAD(
                    params=f"{arch.params_b:g}",
                    bytes=f"{per_param:g}",
                    nodes=inp.nodes,
                    buffer=f"{inp.offload_buffer_factor:g}",
                )
            )

    # The ratio's headroom (page cache, framework, processes) and DeepSpeed's 1.5x-buffered offload estimate
    # cover the same spare memory: the larger of the two sizes the server, not their sum (which asked 24+
    # bytes per parameter on top of 2x the GPU memory).
    total = max(baseline, offload) + loaders + pinned + staging
    # the floor: host memory at least the GPUs' own (a copy of every weight and state can pass through it)
    floor = max(gpu_total * GB, offload) + loaders + pinned + staging
    if offload > baseline:
        assumptions.append(_OFFLOAD_SIZES())
    elif offload:
        assumptions.append(_OFFLOAD_FITS())
    required_gib = total / GIB
    size, layout, beyond = _dimms(required_gib)
    if beyond:
        warnings.append(beyond)
    assumptions.append(
        _ROUNDED(size=f"{size:,}", layout=layout, gb=f"{total / GB:,.0f}", gib=f"{required_gib:,.0f}")
    )

    references = []
    for server in catalog.servers:
        acc = catalog.accelerator(server.accelerator_id)
        hbm = server.accelerator_count * acc.memory_gb
        references.append(
            ReferenceServerRatio(
                id=server.id,
                name=server.name,
                ram_gb=server.ram_gb,
                gpu_memory_gb=hbm,
                ratio=round(server.ram_gb / hbm, 2),
                gpus=server.accelerator_count,
                cpu=server.cpu,
                cpu_cores=server.cpu_cores_total,
                cores_per_gpu=round(server.cpu_cores_total / server.accelerator_count, 1),
            )
        )

    ratios = [r.ratio for r in references]
    if inp.ram_to_gpu_memory_ratio > 2 and ratios:
        warnings.append(
            _RATIO_HIGH(
                ratio=f"{inp.ram_to_gpu_memory_ratio:g}", low=f"{min(ratios):g}", high=f"{max(ratios):g}"
            )
        )
    ordered = sorted(references, key=lambda r: -r.ratio)
    listed = [_SERVER_RATIO(name=r.name, ratio=f"{r.ratio:g}") for r in ordered]
    assumptions.append(_SERVERS_SHIP(servers=listed))

    cores = n * (inp.loader_workers_per_gpu + 2)
    eight = [r for r in references if r.gpus == 8]
    assumptions.append(
        _CORES(
            gpus=n,
            workers=inp.loader_workers_per_gpu,
            cores=cores,
            low=min(r.cpu_cores for r in eight),
            high=max(r.cpu_cores for r in eight),
        )
        if eight
        else _CORES_PLAIN(gpus=n, workers=inp.loader_workers_per_gpu, cores=cores)
    )
    # what the reference servers ship per GPU (DGX H100 and B200: 14, DGX A100: 16): the headroom that
    # heavy preprocessing, tokenisation on the fly and image decoding use, so plan on it, not the floor
    per_gpu = statistics.median(r.cores_per_gpu for r in eight) if eight else 0.0
    planned = max(cores, math.ceil(per_gpu * n))
    if per_gpu:
        assumptions.append(_PLAN_CORES(planned=planned, per_gpu=f"{per_gpu:g}"))
    sufficient: bool | None = None
    comfortable: bool | None = None
    verdict = (
        f"install {size:,} GB of RAM per server ({layout}; DIMM GB are GiB) for the {total / GB:,.0f} GB "
        f"= {required_gib:,.0f} GiB needed"
    )
    if inp.current_ram_gb is not None:
        sufficient = inp.current_ram_gb >= floor / GIB
        comfortable = inp.current_ram_gb >= required_gib
        if inp.current_ram_gb <= DESKTOP_ADVICE_GB:
            warnings.append(
                _DESKTOP(ram=f"{inp.current_ram_gb:g}", gpu_memory=f"{gpu_total:g}", size=f"{size:,}")
            )
        elif not sufficient:
            warnings.append(_SHORT(ram=f"{inp.current_ram_gb:g}", floor=f"{floor / GIB:,.0f}"))
        verdict += f"; the current {inp.current_ram_gb:g} GB is " + (
            "enough" if comfortable else "enough at the floor" if sufficient else "not enough"
        )

    sources = [
        Reference(title=f"{s.title} (catalog: {server.id})", url=str(s.url))
        for server in catalog.servers
        if server.id in {"dgx-h100", "dgx-a100"}
        for s in server.sources[:1]
    ]
    sources.append(PYTORCH_DATALOADER)
    if offload:
        sources += [DEEPSPEED_MEMORY, HF_DEEPSPEED]
    return HostRamOutput(
        formula=(
            "RAM = ratio x GPUs x GPU memory + GPUs x workers x prefetch x batch + GPUs x pinned "
            "(+ params x checkpoint bytes / nodes) (+ params x 16|18 bytes / nodes x 1.5 offload), "
            "rounded up to a DIMM configuration; CPU cores >= GPUs x (loader workers + 2)"
        ),
        assumptions=assumptions,
        warnings=warnings,
        sources=sources,
        gpu=gpu_name,
        gpus_per_node=n,
        total_gpu_memory_gb=gpu_total,
        ratio=inp.ram_to_gpu_memory_ratio,
        per_node=HostRamBreakdown(
            baseline_gb=baseline / GB,
            loader_buffers_gb=loaders / GB,
            pinned_gb=pinned / GB,
            checkpoint_staging_gb=staging / GB,
            offload_gb=offload / GB,
            total_gb=total / GB,
            total_gib=required_gib,
        ),
        recommended_ram_gib=size,
        dimm_layout=layout,
        reference_servers=references,
        current_ram_sufficient=sufficient,
        current_ram_comfortable=comfortable,
        minimum_gib=round(floor / GIB, 1),
        cpu_cores_min=cores,
        cpu_cores_planned=planned,
        verdict=verdict,
        offloaded_params_b=offloaded_b,
    )
