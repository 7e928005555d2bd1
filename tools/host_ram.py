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

# Total RAM in a two-socket server, as DIMMs are sold (a "64 GB" DIMM holds 64 GiB): 16 DIMMs = 8 channels
# x 2 sockets, 24 = 12 channels x 2 sockets, 32 = 8 channels x 2 sockets x 2 DIMMs per channel.
DIMM_CONFIGS: tuple[tuple[int, str], ...] = (
    (256, "16 x 16 GB DIMMs"),
    (512, "16 x 32 GB DIMMs"),
    (768, "24 x 32 GB DIMMs"),
    (1024, "16 x 64 GB DIMMs"),
    (1152, "24 x 48 GB DIMMs"),
    (1536, "24 x 64 GB DIMMs"),
    (2048, "32 x 64 GB or 16 x 128 GB DIMMs"),
    (2304, "24 x 96 GB DIMMs"),
    (3072, "24 x 128 GB DIMMs"),
    (4096, "32 x 128 GB DIMMs"),
    (6144, "24 x 256 GB DIMMs"),
    (8192, "32 x 256 GB DIMMs"),
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
        return inp.total_gpu_memory_gb, None, f"GPU memory {inp.total_gpu_memory_gb:g} GB per server (given)"
    name = None
    per_gpu = inp.gpu_memory_gb
    if inp.gpu:
        acc = find_accelerator(catalog, inp.gpu)
        name = acc.name
        per_gpu = per_gpu or acc.memory_gb
    if per_gpu is None:
        raise CalculatorInputError(
            "gpu", "give the GPU (a catalog name), gpu_memory_gb per GPU, or total_gpu_memory_gb per server"
        )
    origin = "given" if inp.gpu_memory_gb else f"catalog {name}"
    total = per_gpu * inp.gpus_per_node
    return (
        total,
        name,
        f"GPU memory {inp.gpus_per_node} x {per_gpu:g} GB = {total:g} GB per server ({origin})",
    )


def _dimms(required_gib: float) -> tuple[int, str, str | None]:
    for size, layout in DIMM_CONFIGS:
        if required_gib <= size:
            return size, layout, None
    size = math.ceil(required_gib / 1024) * 1024
    return (
        size,
        f"{size:,} GB: more than 32 x 256 GB DIMMs",
        (
            f"{required_gib:,.0f} GiB is more than a two-socket server holds (8 TiB with 32 x 256 GB DIMMs): "
            "spread offload over more servers or offload less"
        ),
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
        f"baseline {inp.ram_to_gpu_memory_ratio:g}x GPU memory: OS, framework and loader processes, page cache",
        f"data loaders: {n} GPUs x {inp.loader_workers_per_gpu} workers x {inp.prefetch_factor} batches x "
        f"{inp.loader_batch_mb:g} MB",
        f"pinned buffers {inp.pinned_gb_per_gpu:g} GB per GPU (NCCL proxies, host-device copies; an assumption)",
    ]

    staging = offload = 0.0
    offloaded_b = None
    if inp.checkpoint_staging or inp.offload_optimizer or inp.offload_params:
        arch = resolve_architecture(catalog, inp)
        params = arch.params_b * 1e9
        if inp.checkpoint_staging:
            staging = params * inp.checkpoint_bytes_per_param / inp.nodes
            assumptions.append(
                f"asynchronous checkpoint staging: {arch.params_b:g}B x {inp.checkpoint_bytes_per_param:g} bytes "
                f"/ {inp.nodes} servers, pinned"
            )
        if inp.offload_optimizer or inp.offload_params:
            per_param = inp.offload_bytes_per_param or (
                OFFLOAD_OPTIMIZER_BYTES + (OFFLOAD_PARAMS_EXTRA_BYTES if inp.offload_params else 0.0)
            )
            offload = params * per_param / inp.nodes * inp.offload_buffer_factor
            offloaded_b = arch.params_b
            assumptions.append(
                f"ZeRO-Offload: {arch.params_b:g}B x {per_param:g} bytes / {inp.nodes} servers x "
                f"{inp.offload_buffer_factor:g} buffer (DeepSpeed zero_init estimate)"
            )

    # The ratio's headroom (page cache, framework, processes) and DeepSpeed's 1.5x-buffered offload estimate
    # cover the same spare memory: the larger of the two sizes the server, not their sum (which asked 24+
    # bytes per parameter on top of 2x the GPU memory).
    total = max(baseline, offload) + loaders + pinned + staging
    # the floor: host memory at least the GPUs' own (a copy of every weight and state can pass through it)
    floor = max(gpu_total * GB, offload) + loaders + pinned + staging
    if offload > baseline:
        assumptions.append(
            "the offloaded states exceed the baseline ratio, so they size the RAM in its place (not added to it)"
        )
    elif offload:
        assumptions.append("the offloaded states fit within the baseline ratio's headroom (not added to it)")
    required_gib = total / GIB
    size, layout, beyond = _dimms(required_gib)
    if beyond:
        warnings.append(beyond)
    assumptions.append(
        f"rounded up to {size:,} GB of DIMMs ({layout}); DIMM 'GB' are binary, so the {total / GB:,.0f} GB "
        f"(10^9) needed is {required_gib:,.0f} GiB"
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
            f"ratio {inp.ram_to_gpu_memory_ratio:g}x is above the 1-2x rule of thumb; the catalog's servers ship "
            f"{min(ratios):g}-{max(ratios):g}x"
        )
    assumptions.append(
        "catalog servers ship "
        + ", ".join(f"{r.name} {r.ratio:g}x" for r in sorted(references, key=lambda r: -r.ratio))
        + " host RAM per GPU memory"
    )

    cores = n * (inp.loader_workers_per_gpu + 2)
    eight = [r for r in references if r.gpus == 8]
    assumptions.append(
        f"CPU: {n} GPUs x ({inp.loader_workers_per_gpu} loader workers + the training process + NCCL/OS) = "
        f"{cores} physical cores at least; the catalog's 8-GPU servers ship "
        f"{min(r.cpu_cores for r in eight)}-{max(r.cpu_cores for r in eight)} cores"
        if eight
        else f"CPU: {n} GPUs x ({inp.loader_workers_per_gpu} loader workers + 2) = {cores} physical cores at least"
    )
    # what the reference servers ship per GPU (DGX H100 and B200: 14, DGX A100: 16): the headroom that
    # heavy preprocessing, tokenisation on the fly and image decoding use, so plan on it, not the floor
    per_gpu = statistics.median(r.cores_per_gpu for r in eight) if eight else 0.0
    planned = max(cores, math.ceil(per_gpu * n))
    if per_gpu:
        assumptions.append(
            f"plan {planned} cores: {per_gpu:g} per GPU, the median of the catalog's 8-GPU servers"
        )
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
                f"{inp.current_ram_gb:g} GB is desktop-PC sizing (the common '8-16 GB is enough' advice); a GPU "
                f"training server with {gpu_total:g} GB of GPU memory needs about {size:,} GB"
            )
        elif not sufficient:
            warnings.append(f"{inp.current_ram_gb:g} GB is short of the {floor / GIB:,.0f} GiB floor")
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
