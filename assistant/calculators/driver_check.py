"""Whether the driver one has runs the CUDA version (and the GPU) one wants, and what to upgrade to."""

from __future__ import annotations

from typing import Any

from assistant.calculators.common import Calculator, Plan, Row, Summary, View, words
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog
from tools.driver_check import ARCHITECTURE_LAST_CUDA, architecture_cuda, version


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    if not (slots.driver_version or slots.cuda_version):
        return None  # "how do drivers and CUDA relate?": the guidance, no versions to check
    payload: dict[str, Any] = {}
    if slots.driver_version:
        payload["driver"] = slots.driver_version
    if slots.cuda_version:
        payload["cuda"] = slots.cuda_version
    if card := _deciding_card(slots, catalog):
        payload["gpu"] = card
    if "cuda" not in payload and "gpu" not in payload:
        return None  # a driver alone: nothing to check it against
    return Plan(tool="driver_check", payload=payload)


def _deciding_card(slots: Slots, catalog: Catalog) -> str | None:
    """The NVIDIA card the check is for when several share the images ("H100 nodes on 535, B200 nodes arrive,
    one image for both"): one CUDA 13 dropped when a 13.x is asked, else the newest, which needs the most."""
    cards = [
        catalog.accelerator(gpu)
        for gpu in dict.fromkeys([slots.gpu, *slots.other_gpus])
        if gpu and catalog.accelerator(gpu).vendor == "NVIDIA"
    ]
    if not cards:
        return None
    if slots.cuda_version and version(slots.cuda_version)[0] >= 13:
        dropped = [acc for acc in cards if architecture_cuda(acc.architecture or "", ARCHITECTURE_LAST_CUDA)]
        if dropped:
            return dropped[0].id
    return max(cards, key=lambda acc: version(architecture_cuda(acc.architecture or "") or "0")).id


def _summarize(call: ToolCall, view: View) -> Summary:
    i, o = call.input, call.output
    driver, cuda, upgrade = i.get("driver"), o.get("cuda"), o.get("upgrade_to")
    en: list[str] = []
    zh: list[str] = []
    asked_cuda, gpu_cuda = i.get("cuda"), o.get("gpu_cuda")
    card_en = card_zh = ""  # the card's own minimum: it leads, unless a CUDA version was asked
    cuda_too_old = bool(asked_cuda and gpu_cuda and version(str(asked_cuda)) < version(str(gpu_cuda)))
    if last := o.get("gpu_last_cuda"):
        # "move the whole cluster to CUDA 13 images, we still have V100s": the toolkit dropped the card
        en.append(
            f"**CUDA {cuda} does not support the {o['gpu']}**: CUDA 13.0 removed Maxwell, Pascal and Volta, so "
            f"keep those nodes on CUDA {last} images (driver branch R580 is their last) or retire them before moving."
        )
        zh.append(
            f"**CUDA {cuda} 已不支持 {o['gpu']}**：CUDA 13.0 移除了 Maxwell、Pascal 和 Volta，这些节点要留在 CUDA {last} "
            f"的镜像上（R580 是它们最后的驱动分支），或者迁移前先下线。"
        )
    elif cuda_too_old:
        # "moving from A100 to B200, containers on CUDA 12.1": the toolkit itself cannot build for the new card
        en.append(
            f"**CUDA {asked_cuda} is too old for the {o['gpu']}**: its architecture needs CUDA {gpu_cuda} or newer, "
            f"so rebuild the containers (and the PyTorch build inside them) on CUDA {gpu_cuda}+ and run driver "
            f"{o['gpu_driver']} or newer."
        )
        zh.append(
            f"**CUDA {asked_cuda} 对 {o['gpu']} 来说太旧**：它的架构需要 CUDA {gpu_cuda} 及以上，容器（以及其中的 "
            f"PyTorch 构建）要换成 CUDA {gpu_cuda}+ 的版本，驱动用 {o['gpu_driver']} 及以上。"
        )
    elif o.get("gpu") and o.get("gpu_cuda"):
        if o.get("gpu_supported") is False:
            en.append(
                f"**Driver {driver} is too old for the {o['gpu']}**: it needs CUDA {o['gpu_cuda']} or newer, "
                f"so driver {o['gpu_driver']} or newer."
            )
            zh.append(
                f"**驱动 {driver} 对 {o['gpu']} 来说太旧**：它需要 CUDA {o['gpu_cuda']} 及以上，即驱动 "
                f"{o['gpu_driver']} 及以上。"
            )
        else:
            card_en = (
                f"The {o['gpu']} needs CUDA {o['gpu_cuda']} or newer and driver {o['gpu_driver']} or newer"
                + (f"; driver {driver} meets that." if driver else ".")
            )
            card_zh = f"{o['gpu']} 需要 CUDA {o['gpu_cuda']} 及以上、驱动 {o['gpu_driver']} 及以上" + (
                f"；驱动 {driver} 满足。" if driver else "。"
            )
    if card_en and not asked_cuda:
        en.append(card_en)
        zh.append(card_zh)
    support = o.get("support")
    # the GPU's own requirement already says what a driver too old for it lacks
    too_old_for_gpu = o.get("gpu_supported") is False and cuda == o.get("gpu_cuda")
    if cuda and (i.get("cuda") or not o.get("gpu")) and not too_old_for_gpu and not cuda_too_old:
        if support == "full":
            en.append(
                f"Driver {driver} fully supports CUDA {cuda} (which needs {o['release_driver']} or newer)."
            )
            zh.append(f"驱动 {driver} 完整支持 CUDA {cuda}（要求 {o['release_driver']} 及以上）。")
        elif support == "minor-version":
            en.append(
                f"Driver {driver} runs CUDA {cuda} builds (PyTorch wheels, containers) through minor-version "
                f"compatibility, since CUDA {cuda.split('.')[0]}.x needs {o['family_driver']} or newer; full "
                f"CUDA {cuda} support needs driver **{o['release_driver']}** or newer."
            )
            zh.append(
                f"驱动 {driver} 可以通过次版本兼容运行 CUDA {cuda} 的构建（PyTorch wheel、容器），因为 CUDA "
                f"{cuda.split('.')[0]}.x 只要求 {o['family_driver']} 及以上；要完整支持 CUDA {cuda} 需升级到 "
                f"**{o['release_driver']}** 及以上。"
            )
        elif support in {"forward-compat-only", "unsupported"}:
            extra_en = (
                " Without upgrading, only the cuda-compat forward-compatibility package helps, and only on "
                "data-centre GPUs."
                if support == "forward-compat-only"
                else ""
            )
            extra_zh = (
                "；不升级的话只能用 cuda-compat 向前兼容包，且仅限数据中心 GPU"
                if support == "forward-compat-only"
                else ""
            )
            en.append(
                f"**Driver {driver} is too old for CUDA {cuda}**: it needs {o['release_driver']} or newer "
                f"({o['family_driver']} at the least, through minor-version compatibility).{extra_en}"
            )
            zh.append(
                f"**驱动 {driver} 对 CUDA {cuda} 来说太旧**：需要 {o['release_driver']} 及以上（次版本兼容下最低 "
                f"{o['family_driver']}）{extra_zh}。"
            )
        elif not driver:
            en.append(
                f"CUDA {cuda} needs driver **{o['release_driver']}** or newer for full support "
                f"({o['family_driver']} or newer runs its builds through minor-version compatibility)."
            )
            zh.append(
                f"CUDA {cuda} 完整支持需要驱动 **{o['release_driver']}** 及以上（{o['family_driver']} 及以上"
                "可通过次版本兼容运行它的构建）。"
            )
    if upgrade and driver and (support not in {"full", "minor-version"} or o.get("gpu_supported") is False):
        en.append(f"Upgrade to {upgrade} or newer, with the matching Fabric Manager on NVSwitch systems.")
        zh.append(f"升级到 {upgrade} 及以上；NVSwitch 机器上 Fabric Manager 要同步到相同版本。")
    rows = [Row(en="Driver", zh="驱动", value=str(driver or "-")),
            Row(en="CUDA", zh="CUDA", value=str(cuda or "-")),
            Row(en="CUDA release's driver", zh="该 CUDA 版本要求的驱动", value=str(o.get("release_driver") or "-")),
            Row(en="Family minimum (minor-version)", zh="大版本最低驱动（次版本兼容）", value=str(o.get("family_driver") or "-"))]  # fmt: skip
    if o.get("gpu"):
        rows.append(
            Row(
                en=f"{o['gpu']} needs",
                zh=f"{o['gpu']} 需要",
                value=f"CUDA {o['gpu_cuda']}, {o['gpu_driver']}",
            )
        )
    if card_en and asked_cuda:
        # "driver 470 on A100s, want CUDA 12.4": the CUDA asked decides; the card's own minimum follows
        en.append(card_en)
        zh.append(card_zh)
    return Summary(headline_en=" ".join(en), headline_zh="".join(zh), inputs=[], results=rows)


CALCULATOR = Calculator(
    name="driver_check",
    title=("Driver and CUDA check", "驱动与 CUDA 检查"),
    triggers=words(r"\bdrivers?\b", r"驱动", r"\bcuda\s*1[1-3]", r"\bcu1[1-3]\d\b"),
    build=_build,
    summarize=_summarize,
    answers=frozenset({"driver"}),
    exemplars_en=("Our nodes run driver 535; can we use CUDA 12.8 PyTorch?",),
    exemplars_zh=("驱动550 能跑cuda12.8吗",),
)
