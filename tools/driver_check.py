"""Whether an NVIDIA driver runs a CUDA version, and on which GPUs: the three compatibility rules applied.

A CUDA toolkit release lists the driver it was built against (full support); since CUDA 11, minor-version
compatibility lets any release of a major family run on that family's minimum driver (some features, such as
JIT-compiling newer PTX, need the release's own driver); below the family minimum only the cuda-compat
forward-compatibility package helps, and only on data-centre GPUs. A GPU architecture needs a toolkit that
knows it, and so that toolkit's driver.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from knowledge.catalog import Catalog
from tools.common import CalculatorInputError, Reference, ToolInput, ToolOutput, find_accelerator
from tools.messages import Message

_NOTHING_TO_CHECK = Message(
    "driver_check.nothing_to_check",
    en="give a CUDA version or a GPU to check a driver against",
    zh="请给出 CUDA 版本或 GPU，才能核对驱动",
)
_MINIMUMS = Message(
    "driver_check.minimums",
    en="driver minimums for Linux, GA releases (NVIDIA release notes, as of {as_of})",
    zh="驱动最低版本按 Linux 正式版（NVIDIA 发行说明，截至 {as_of}）",
)
_NOT_NVIDIA = Message(
    "driver_check.not_nvidia",
    en="{gpu} is not an NVIDIA GPU: CUDA drivers do not apply",
    zh="{gpu} 不是 NVIDIA GPU，不适用 CUDA 驱动",
)
_NEEDS_CUDA = Message(
    "driver_check.needs_cuda",
    en="{gpu} ({architecture}) needs CUDA {cuda} or newer",
    zh="{gpu}（{architecture}）需要 CUDA {cuda} 及以上",
)
_UNKNOWN_CUDA = Message(
    "driver_check.unknown_cuda",
    en="CUDA {cuda} is not a release this check knows ({known})",
    zh="不认识 CUDA {cuda} 这个版本（已知版本：{known}）",
)
_MINOR_VERSION_ONLY = Message(
    "driver_check.minor_version_only",
    en="driver {driver} runs CUDA {cuda} builds through minor-version compatibility only: features "
    "that need the {release} driver (such as JIT-compiling newer PTX) are unavailable",
    zh="驱动 {driver} 只能通过次版本兼容运行 CUDA {cuda} 的构建：需要 {release} 驱动的功能"
    "（例如即时编译更新的 PTX）不可用",
)

_DROPPED = Message(
    "driver_check.dropped",
    en="CUDA {cuda} no longer supports the {gpu} ({architecture}): CUDA 13.0 removed Maxwell, Pascal and Volta, "
    "so CUDA {last} is the last toolkit that builds for it (and R580 the last driver branch)",
    zh="CUDA {cuda} 已不支持 {gpu}（{architecture}）：CUDA 13.0 移除了 Maxwell、Pascal 和 Volta，能为它编译的最后一个"
    "工具包是 CUDA {last}（最后一个驱动分支是 R580）",
)

AS_OF = "2026-12-05"
RELEASE_NOTES = Reference(
    title="NVIDIA CUDA Toolkit Release Notes, Table 3: CUDA Toolkit and Corresponding Driver Versions (Linux, GA)",
    url="https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html",
)
CUDA_13 = Reference(
    title="NVIDIA CUDA 13.0 Release Notes (August 2025): Maxwell, Pascal and Volta removed from the toolkit; "
    "R580 the last driver branch for them",
    url="https://docs.nvidia.com/cuda/archive/13.0.0/cuda-toolkit-release-notes/index.html",
)
COMPATIBILITY = Reference(
    title="NVIDIA CUDA Compatibility guide: minor-version compatibility and forward compatibility",
    url="https://docs.nvidia.com/deploy/cuda-compatibility/index.html",
)

# each CUDA release's own minimum Linux driver (GA), from the release notes' Table 3
RELEASE_DRIVERS: dict[str, str] = {
    "11.0": "450.36.06", "11.1": "455.23.05", "11.2": "460.27.03", "11.3": "465.19.01", "11.4": "470.42.01",
    "11.5": "495.29.05", "11.6": "510.39.01", "11.7": "515.43.04", "11.8": "520.61.05", "12.0": "525.60.13",
    "12.1": "530.30.02", "12.2": "535.54.03", "12.3": "545.23.06", "12.4": "550.54.14", "12.5": "555.42.02",
    "12.6": "560.28.03", "12.8": "570.26", "12.9": "575.51.03", "13.0": "580.65.06",
}  # fmt: skip
# a major family's minimum under minor-version compatibility (CUDA 11 onwards)
FAMILY_DRIVERS: dict[str, str] = {"11": "450.80.02", "12": "525.60.13", "13": "580.65.06"}
# the first toolkit that knows each architecture (the catalog's architecture names)
ARCHITECTURE_CUDA: dict[str, str] = {
    "Volta": "11.0", "Ampere (GA100)": "11.0", "Ampere (GA102)": "11.1", "Ada Lovelace": "11.8", "Hopper": "11.8",
    "Blackwell": "12.8",
}  # fmt: skip
# the last toolkit that builds for each architecture CUDA 13.0 removed (NVIDIA CUDA 13.0 release notes)
ARCHITECTURE_LAST_CUDA: dict[str, str] = {"Volta": "12.9", "Pascal": "12.9", "Maxwell": "12.9"}

Support = Literal["full", "minor-version", "forward-compat-only", "unsupported"]


class DriverCheckInput(ToolInput):
    driver: str | None = Field(
        default=None,
        pattern=r"^\d{3}(?:\.\d{1,3}){0,2}$",
        description="The installed driver, e.g. '535' or '535.104.05'; omitted: what the CUDA version needs.",
    )
    cuda: str | None = Field(
        default=None,
        pattern=r"^\d{2}\.\d$",
        description="The CUDA version wanted, e.g. '12.8' (or a cu128 build).",
    )
    gpu: str | None = Field(default=None, description="Catalog GPU the driver must run, e.g. 'B200'.")


class DriverCheckOutput(ToolOutput):
    driver: str | None
    cuda: str | None = Field(description="The CUDA version checked: the one asked, else the GPU's first.")
    release_driver: str | None = Field(description="The CUDA release's own minimum driver (full support).")
    family_driver: str | None = Field(
        description="The major family's minimum under minor-version compatibility."
    )
    support: Support | None = Field(
        description="How the driver runs that CUDA version, when a driver is given."
    )
    gpu: str | None
    gpu_cuda: str | None = Field(description="The first CUDA version that knows the GPU's architecture.")
    gpu_driver: str | None = Field(description="That version's minimum driver: the oldest that runs the GPU.")
    gpu_supported: bool | None = Field(description="Whether the driver given is new enough for the GPU.")
    upgrade_to: str | None = Field(description="The minimum driver for full support of everything asked.")
    gpu_last_cuda: str | None = Field(
        default=None,
        description="The last CUDA toolkit for the GPU's architecture, when the version checked is past it "
        "(Volta, Pascal and Maxwell end at CUDA 12.9).",
    )


def version(text: str) -> tuple[int, ...]:
    """'535.54.03' -> (535, 54, 3), '12.1' -> (12, 1): versions compared part by part."""
    return tuple(int(part) for part in text.split("."))


def _at_least(driver: str, minimum: str) -> bool:
    """'535' meets '535.54.03' (a branch named alone is taken at its newest release)."""
    have, need = version(driver), version(minimum)
    return have[: len(need)] >= need[: len(have)] if len(have) < len(need) else have >= need


def architecture_cuda(architecture: str, table: dict[str, str] = ARCHITECTURE_CUDA) -> str | None:
    """The version ``table`` gives the architecture named (the catalog writes "Volta (GV100)")."""
    return next((cuda for name, cuda in table.items() if architecture.startswith(name)), None)


def driver_check(inp: DriverCheckInput, catalog: Catalog) -> DriverCheckOutput:
    """The driver a CUDA version and a GPU need, and how a given driver runs them: full support at or above the
    release's own driver, minor-version compatibility at or above the family minimum, else forward
    compatibility (cuda-compat, data-centre GPUs only)."""
    if not (inp.cuda or inp.gpu):
        raise CalculatorInputError("cuda", _NOTHING_TO_CHECK())
    assumptions: list[str] = [_MINIMUMS(as_of=AS_OF)]
    warnings: list[str] = []
    gpu_name = gpu_cuda = gpu_driver = None
    datacenter = True
    if inp.gpu:
        acc = find_accelerator(catalog, inp.gpu)
        if acc.vendor != "NVIDIA":
            raise CalculatorInputError("gpu", _NOT_NVIDIA(gpu=acc.name))
        gpu_name, datacenter = acc.name, acc.segment == "datacenter"
        gpu_cuda = architecture_cuda(acc.architecture or "")
        gpu_driver = RELEASE_DRIVERS.get(gpu_cuda) if gpu_cuda else None
        if gpu_cuda:
            assumptions.append(_NEEDS_CUDA(gpu=acc.name, architecture=acc.architecture, cuda=gpu_cuda))
    cuda = inp.cuda or gpu_cuda
    gpu_last_cuda = None
    last = architecture_cuda(acc.architecture or "", ARCHITECTURE_LAST_CUDA) if inp.gpu else None
    if last and cuda and version(cuda) > version(last):
        # "move the whole cluster to CUDA 13 images … V100s": the toolkit no longer builds for the card
        gpu_last_cuda = last
        warnings.append(_DROPPED(cuda=cuda, gpu=acc.name, architecture=acc.architecture, last=last))
    if cuda is not None and cuda not in RELEASE_DRIVERS:
        raise CalculatorInputError("cuda", _UNKNOWN_CUDA(cuda=cuda, known=", ".join(RELEASE_DRIVERS)))
    release = RELEASE_DRIVERS.get(cuda) if cuda else None
    family = FAMILY_DRIVERS.get(cuda.split(".")[0]) if cuda else None
    support: Support | None = None
    if inp.driver and release:
        if _at_least(inp.driver, release):
            support = "full"
        elif family and _at_least(inp.driver, family):
            support = "minor-version"
            warnings.append(_MINOR_VERSION_ONLY(driver=inp.driver, cuda=cuda, release=release))
        elif datacenter:
            support = "forward-compat-only"
        else:
            support = "unsupported"
    gpu_supported = _at_least(inp.driver, gpu_driver) if inp.driver and gpu_driver else None
    needs = [d for d in (release, gpu_driver) if d]
    upgrade_to = max(needs, key=version) if needs else None
    if inp.driver and upgrade_to and _at_least(inp.driver, upgrade_to):
        upgrade_to = None
    return DriverCheckOutput(
        formula="full: driver >= the release's driver; minor-version: driver >= the family minimum (CUDA 11+); "
        "else forward compatibility (cuda-compat, data-centre GPUs); a GPU needs its architecture's first CUDA",
        assumptions=assumptions,
        warnings=warnings,
        sources=[RELEASE_NOTES, COMPATIBILITY, *([CUDA_13] if gpu_last_cuda else [])],
        driver=inp.driver,
        cuda=cuda,
        release_driver=release,
        family_driver=family,
        support=support,
        gpu=gpu_name,
        gpu_cuda=gpu_cuda,
        gpu_driver=gpu_driver,
        gpu_supported=gpu_supported,
        upgrade_to=upgrade_to,
        gpu_last_cuda=gpu_last_cuda,
    )
