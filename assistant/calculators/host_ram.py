"""Host RAM per training server, sized from its GPU memory."""

from __future__ import annotations

from typing import Any

from assistant.calculators.common import (
    GPUS_PER_NODE,
    Assumed,
    Calculator,
    Plan,
    Row,
    Summary,
    View,
    assumed,
    gpu_into,
    model_into,
    model_name,
    num,
    words,
)
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumptions: list[Assumed] = []
    model_into(slots, payload)
    gpu_into(slots, payload, assumptions)
    payload["gpus_per_node"] = min(slots.gpu_count or GPUS_PER_NODE, slots.gpus_per_node or GPUS_PER_NODE)
    if not slots.gpu_count:
        assumptions.append(assumed("8 GPUs per server", "每台服务器 8 张卡"))
    if slots.offload and ("model" in payload or "params_b" in payload):
        # "and if we offload the optimizer to CPU, how much host RAM?": the offloaded states, shared by the
        # servers the job runs on
        payload["offload_optimizer"] = True
        # "on 2 of these nodes" says it; else the GPUs named fill whole servers
        payload["nodes"] = slots.servers or max(1, (slots.gpu_count or 0) // payload["gpus_per_node"])
    if slots.ram_gb:
        payload["current_ram_gb"] = slots.ram_gb  # "1T够不够": checked against what is needed
    return Plan(tool="host_ram", payload=payload, assumed=assumptions)


def _cores(i: dict[str, Any], o: dict[str, Any]) -> tuple[str, str]:
    """The CPU cores the server needs, beside the reference servers' counts."""
    eight = [r for r in o.get("reference_servers", []) if r["gpus"] == 8]
    low, high = (min(r["cpu_cores"] for r in eight), max(r["cpu_cores"] for r in eight)) if eight else (0, 0)
    shipped_en = f", as the catalog's 8-GPU servers ship {low}-{high}" if eight else ""
    shipped_zh = f"，目录中的 8 卡服务器配 {low}-{high} 核" if eight else ""
    workers = i.get("loader_workers_per_gpu", 4)  # the tool's default, as it ran
    planned = o.get("cpu_cores_planned") or o["cpu_cores_min"]
    per = planned / max(1, o["gpus_per_node"])
    en = (
        f" CPU: plan about **{planned} physical cores** ({num(per)} per GPU{shipped_en}); the data loaders alone "
        f"({workers} workers per GPU, plus the training process and NCCL/OS) need at least {o['cpu_cores_min']}."
    )
    zh = (
        f"CPU：按约 **{planned} 个物理核** 规划（每卡 {num(per)} 核{shipped_zh}）；仅数据加载（每卡 {workers} 个进程，"
        f"加上训练进程和 NCCL/系统）至少需要 {o['cpu_cores_min']} 核。"
    )
    return en, zh


def _summarize(call: ToolCall, view: View) -> Summary:
    o = call.output
    cores_en, cores_zh = _cores(call.input, o) if "cpu_cores_min" in o else ("", "")
    offload = o["per_node"]["offload_gb"]
    if offload:
        model, servers = model_name(call.input, o), call.input.get("nodes", 1)
        # the arithmetic in the lead: DeepSpeed's estimate is the states' 12 bytes (FP32 master, Adam moments)
        # plus FP32 gradients (16) and a 1.5x buffer, so a reader who counts 12 bytes sees where 24 comes from
        params = o.get("offloaded_params_b") or 0  # billions: x 12 bytes is GB
        over = over_zh = ""
        if servers > 1:
            over, over_zh = f" over {servers} servers", f"（分摊到 {servers} 台服务器）"
            if params and not call.input.get("offload_bytes_per_param"):
                states = num(params * 12 / servers)
                over = (
                    f" over {servers} servers (DeepSpeed's estimate: {num(params)}B x 16 bytes x 1.5 buffer / "
                    f"{servers}; the FP32 master weights and Adam moments alone are {states} GB per server)"
                )
                over_zh = (
                    f"（分摊到 {servers} 台服务器；DeepSpeed 估算为 {num(params)}B x 16 字节 x 1.5 倍缓冲 / {servers}，"
                    f"其中 FP32 主权重和 Adam 动量本身每台 {states} GB）"
                )
        ratio = num(o["ratio"])
        if offload > o["per_node"]["baseline_gb"]:
            with_en = f"it outgrows the {ratio}x GPU-memory baseline, so with loaders and pinned buffers"
            with_zh = f"它超过按显存 {ratio} 倍的基线，取代基线，再加上数据加载和锁页缓冲"
        else:
            with_en = f"it fits within the {ratio}x GPU-memory baseline, so with loaders and pinned buffers"
            with_zh = f"它在按显存 {ratio} 倍的基线之内，加上数据加载和锁页缓冲"
        en = (
            f"Offloading {model}'s optimizer states takes about **{num(offload)} GB of host RAM per server**{over}; "
            f"{with_en}, fit **{num(o['recommended_ram_gib'])} GB** ({o['dimm_layout']}) for "
            f"{o['gpus_per_node']} x {o['gpu']}."
        )
        zh = (
            f"把 {model} 的优化器状态卸载到内存，每台服务器约需 **{num(offload)} GB**{over_zh}；{with_zh}，"
            f"建议配 **{num(o['recommended_ram_gib'])} GB**（{o['dimm_layout']}），对应 {o['gpus_per_node']} 张 {o['gpu']}。"
        )
        if o.get("current_ram_sufficient") is not None:
            # "机器内存 1TB": their RAM against what offloading takes, first
            have = num(call.input["current_ram_gb"])
            if o["current_ram_sufficient"]:
                en, zh = (
                    f"Yes: your {have} GB of RAM holds the offload. " + en,
                    f"内存够：你们的 {have} GB 放得下卸载的状态。" + zh,
                )
            else:
                en = f"No, not with your {have} GB of RAM: " + en
                zh = f"按你们的 {have} GB 内存不够：" + zh
        return Summary(headline_en=en, headline_zh=zh, inputs=[], results=_rows(o))
    if view.asked == "cpu_cores" and cores_en:
        # "CPU呢，几核": the cores first, the RAM beside
        en = cores_en.strip() + f" RAM: {num(o['recommended_ram_gib'])} GB per server ({o['dimm_layout']})."
        zh = cores_zh + f"内存：每台 {num(o['recommended_ram_gib'])} GB（{o['dimm_layout']}）。"
        return Summary(headline_en=en, headline_zh=zh, inputs=[], results=_rows(o))
    if o.get("current_ram_sufficient") is not None:
        # "1T够不够": the verdict on their figure first
        have, need = num(call.input["current_ram_gb"]), num(o["per_node"]["total_gib"])
        if o["current_ram_sufficient"] and o.get("current_ram_comfortable") is False:
            # between the floor and the 2x plan: enough without offload, short of room for it
            floor = num(o["minimum_gib"])
            verdict_en, verdict_zh = (
                f"Enough for training without offload, and not overkill: {have} GB covers the ~{floor} GiB floor (the GPUs' own "
                f"memory plus loaders and pinned buffers); the ~{need} GiB plan at "
                f"{num(call.input.get('ram_to_gpu_memory_ratio', 2))}x GPU memory is what ZeRO-Offload or "
                "in-memory checkpoint staging would want.",
                f"不开 offload 够用，也不算多：{have} GB 高于约 {floor} GiB 的下限（与显存相当，再加数据加载和锁页缓冲）；"
                f"按显存 {num(call.input.get('ram_to_gpu_memory_ratio', 2))} 倍规划的约 {need} GiB，"
                "是开 ZeRO-Offload 或在内存里暂存检查点时才需要的。",
            )
        elif o["current_ram_sufficient"]:
            verdict_en, verdict_zh = (
                f"Yes: {have} GB covers the ~{need} GiB needed.",
                f"够：{have} GB 足以覆盖所需的约 {need} GiB。",
            )
        else:
            # below the floor: the least that covers it, for a tight budget, beside the plan
            floor = o["minimum_gib"]
            least = next((size for size in _RAM_SIZES if size >= floor), None)
            least_en = f" On a tight budget the least that covers it is {num(least)} GB;" if least else ""
            least_zh = f"预算紧的话至少配 {num(least)} GB；" if least else ""
            verdict_en, verdict_zh = (
                f"No: {have} GB is below the ~{num(floor)} GiB floor (the GPUs' own memory plus loaders and pinned "
                f"buffers).{least_en} the ~{need} GiB plan at {num(call.input.get('ram_to_gpu_memory_ratio', 2))}x GPU "
                "memory leaves room for ZeRO-Offload and checkpoint staging.",
                f"不够：{have} GB 低于约 {num(floor)} GiB 的下限（与显存相当，再加数据加载和锁页缓冲）。{least_zh}"
                f"按显存 {num(call.input.get('ram_to_gpu_memory_ratio', 2))} 倍规划约 {need} GiB，给 ZeRO-Offload 和检查点暂存留出空间。",
            )
    else:
        verdict_en = verdict_zh = ""
    en = (
        verdict_en
        + (" " if verdict_en else "")
        + (
            f"Fit **{num(o['recommended_ram_gib'])} GB of RAM per server** ({o['dimm_layout']}) for {o['gpus_per_node']} x {o['gpu']} "
            f"with {num(o['total_gpu_memory_gb'])} GB of GPU memory: host RAM is sized at {num(o['ratio'])}x GPU memory, not desktop figures."
            + cores_en
        )
    )
    zh = verdict_zh + (
        f"每台服务器建议配 **{num(o['recommended_ram_gib'])} GB 内存**（{o['dimm_layout']}），对应 {o['gpus_per_node']} 张 {o['gpu']}、"
        f"共 {num(o['total_gpu_memory_gb'])} GB 显存：主机内存按显存的 {num(o['ratio'])} 倍配置，而不是桌面电脑的 8-16 GB。"
        + cores_zh
    )
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=_rows(o))


# server memory totals sold in common DIMM layouts (16 or 24 DIMMs of 32, 48, 64 or 96 GB), GB
_RAM_SIZES = (512, 768, 1024, 1536, 2048, 3072)


def _rows(o: dict[str, Any]) -> list[Row]:
    rows = [Row(en="GPU memory per server", zh="每台显存合计", value=f"{num(o['total_gpu_memory_gb'])} GB"),
            Row(en="RAM / GPU memory", zh="内存/显存比", value=f"{num(o['ratio'])}x")]  # fmt: skip
    if o["per_node"]["offload_gb"]:
        rows.append(
            Row(en="Offloaded states", zh="卸载的状态", value=f"{num(o['per_node']['offload_gb'])} GB")
        )
    rows.append(
        Row(
            en="Recommended RAM",
            zh="建议内存",
            value=f"{num(o['recommended_ram_gib'])} GB ({o['dimm_layout']})",
        )
    )
    if "cpu_cores_min" in o:
        rows.append(
            Row(
                en="CPU cores to plan",
                zh="CPU 规划核数",
                value=str(o.get("cpu_cores_planned") or o["cpu_cores_min"]),
            )
        )
    return rows


CALCULATOR = Calculator(
    name="host_ram",
    title=("Host RAM", "主机内存"),
    triggers=words(
        r"host (?:ram|memory)",
        r"system (?:ram|memory)",
        r"\bram\b",
        r"\d\s*(?:gb|tb)\s*(?:of\s+)?(?:ddr\d|dimms?)\b",  # "512GB DDR5": the server's memory, as quoted
        r"cpu memory",
        r"(?<!显)内存",
        r"主机内存",
        r"系统内存",
        r"cpu cores?",
        r"how many (?:cpu )?cores",
        r"(?:多少|几)\s*(?:个)?核",
        r"核数",
        r"cpu\s*(?:要|选|配)",
    ),
    build=_build,
    summarize=_summarize,
    answers=frozenset({"cpu_cores", "ram"}),
)
