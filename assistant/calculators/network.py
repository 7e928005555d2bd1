"""Gradient all-reduce time over the interconnect."""

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
    nodes,
    num,
    pct,
    words,
)
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumptions: list[Assumed] = []
    if not model_into(slots, payload):
        return None
    gpu_into(slots, payload, assumptions)
    node_count = nodes(slots)
    per_node = min(slots.gpu_count or GPUS_PER_NODE, GPUS_PER_NODE)
    if slots.servers and slots.servers > 1 and (slots.gpu_count or 0) <= GPUS_PER_NODE:
        # "2 nodes x 8 h100": the count is each server's
        node_count, per_node = slots.servers, slots.gpu_count or slots.gpus_per_node or GPUS_PER_NODE
    payload.update(nodes=node_count, gpus_per_node=per_node)
    if node_count > 1 and slots.link_gbit:
        # "机间只有 100G 以太网": the servers' own link, shared by the GPUs of each unless said per GPU
        per_gpu = slots.link_gbit if slots.link_per_gpu else slots.link_gbit / per_node
        payload["inter_node_gbit_s_per_gpu"] = round(per_gpu, 6)
        if slots.link_per_gpu:
            assumptions.append(assumed(f"{slots.link_gbit:g} Gb/s between servers per GPU (given)",
                                       f"节点间每卡 {slots.link_gbit:g} Gb/s（给定）"))  # fmt: skip
        else:
            assumptions.append(
                assumed(
                    f"{slots.link_gbit:g} Gb/s between servers per server (given), shared by its {per_node} GPUs: "
                    f"{per_gpu:.3g} Gb/s each",
                    f"每台节点间 {slots.link_gbit:g} Gb/s（给定），由 {per_node} 张卡分用：每卡 {per_gpu:.3g} Gb/s",
                )
            )
    elif node_count > 1:
        payload["inter_node_link"] = "infiniband-ndr"
        assumptions.append(
            assumed("one 400 Gb/s NDR InfiniBand port per GPU", "每卡一个 400 Gb/s NDR InfiniBand 端口")
        )
    params = slots.params_b or (catalog.model(slots.model).params_b if slots.model else None)
    memory = catalog.accelerator(payload["gpu"]).memory_gb if "gpu" in payload else None
    if slots.ring_only:
        payload["ring_only"] = True
    if slots.zero_stage == 3:
        payload["zero3"] = True
    elif slots.zero_stage is None and params and memory and params * 4 > 0.9 * memory:
        # "换成 70B 呢" on 16 H100: 280 GB of BF16 weights and gradients cannot sit whole on each GPU, so
        # the job shards them (ZeRO-3/FSDP) and moves 1.5x the bytes of a plain all-reduce
        payload["zero3"] = True
        assumptions.append(
            assumed(
                f"{params:g}B BF16 weights and gradients ({params * 4:,.0f} GB, 4 bytes a parameter) outgrow one "
                f"GPU's {memory:g} GB, so ZeRO-3/FSDP shards them",
                f"{params:g}B 的 BF16 权重加梯度（每参数 4 字节，{params * 4:,.0f} GB）放不进单卡 {memory:g} GB，"
                "按 ZeRO-3/FSDP 切分",
            )
        )
    if slots.step_time_s:
        payload["step_time_s"] = slots.step_time_s
    elif "gpu" in payload and catalog.accelerator(payload["gpu"]).bf16_dense_tflops:
        # the compute a step gives the all-reduce to hide in: its share of the step decides whether the link is
        # enough
        if slots.batch_tokens:
            payload["batch_tokens"] = slots.batch_tokens
        elif slots.global_batch and slots.seq_len:
            payload["batch_tokens"] = slots.global_batch * slots.seq_len
        else:
            payload["batch_tokens"] = BATCH_TOKENS
            assumptions.append(
                assumed(
                    "a global batch of 4M tokens a step (Llama 2's, at every size)",
                    "每步全局 batch 4M token（Llama 2 各尺寸均用此值）",
                )
            )
        if slots.mfu:
            payload["mfu"] = slots.mfu
        else:
            assumptions.append(assumed("MFU 40% for the compute of a step", "每步计算按 MFU 40%"))
    return Plan(tool="network", payload=payload, assumed=assumptions)


# Touvron et al., Llama 2 (2023), §2.2: "a global batch-size of 4M tokens" for every model size
BATCH_TOKENS = 4_000_000
# what share of a step exposed communication may take before the link is the thing to fix
ENOUGH_SHARE, SLOW_SHARE = 0.10, 0.30


def _share_verdict(share: float, zh: bool) -> str:
    if share <= ENOUGH_SHARE:
        return "对数据并行够用" if zh else "the link is enough for data parallelism"
    if share <= SLOW_SHARE:
        return (
            "能用，但通信已明显拖慢训练：让通信与反向计算重叠，或增大梯度累积"
            if zh
            else "workable, but communication visibly slows training: overlap it with the backward pass or "
            "accumulate more micro-batches per step"
        )
    return (
        "网络是瓶颈：增大每步 batch、减少跨机通信，或升级网络"
        if zh
        else "the link is the bottleneck: a larger batch per step, less traffic between servers or a faster "
        "network"
    )


def _summarize(call: ToolCall, view: View) -> Summary:
    o = call.output
    en = (
        f"One gradient all-reduce of {num(o['gradient_gb'])} GB across {o['total_gpus']} GPUs takes about **{num(o['allreduce_s'])} s** "
        f"({num(o['inter_node_gbit_s_per_gpu'])} Gb/s per GPU between servers, {num(o['intra_node_gb_s'])} GB/s inside)."
    )
    zh = (
        f"{o['total_gpus']} 张卡做一次 {num(o['gradient_gb'])} GB 的梯度 all-reduce 约需 **{num(o['allreduce_s'])} 秒**"
        f"（节点间每卡 {num(o['inter_node_gbit_s_per_gpu'])} Gb/s，节点内 {num(o['intra_node_gb_s'])} GB/s）。"
    )
    share = o.get("comm_share_of_step")
    if share is not None and o.get("step_time_s") and o.get("volume_factor", 1) > 1:
        # sharded states: the step moves 1.5x a gradient all-reduce (parameter all-gathers and reduce-scatter)
        between = (
            f"{num(o['inter_node_gbit_s_per_gpu'])} Gb/s per GPU between servers, "
            if o.get("inter_node_gbit_s_per_gpu")
            else ""
        )
        zh_between = (
            f"节点间每卡 {num(o['inter_node_gbit_s_per_gpu'])} Gb/s，"
            if o.get("inter_node_gbit_s_per_gpu")
            else ""
        )
        en = (
            f"Communication is **{pct(share)}** of each step, so {_share_verdict(share, False)}: with ZeRO-3/FSDP a "
            f"step moves 1.5x a gradient all-reduce of {num(o['gradient_gb'])} GB across {o['total_gpus']} GPUs, "
            f"about {num(o['comm_per_step_s'])} s against {num(o['step_time_s'])} s of compute "
            f"({between}{num(o['intra_node_gb_s'])} GB/s inside)."
        )
        zh = (
            f"通信约占每步的 **{pct(share)}**，{_share_verdict(share, True)}：ZeRO-3/FSDP 下每步的通信量是 "
            f"{o['total_gpus']} 张卡一次 {num(o['gradient_gb'])} GB 梯度 all-reduce 的 1.5 倍，约 "
            f"{num(o['comm_per_step_s'])} 秒，每步计算约 {num(o['step_time_s'])} 秒（{zh_between}节点内 "
            f"{num(o['intra_node_gb_s'])} GB/s）。"
        )
    elif share is not None and o.get("step_time_s"):
        # "机间只有 100G 以太网行不行": the share of the step decides, so it comes first
        step = num(o["step_time_s"])
        en = (
            f"Communication is **{pct(share)}** of each step, so {_share_verdict(share, False)}: one gradient "
            f"all-reduce of {num(o['gradient_gb'])} GB across {o['total_gpus']} GPUs takes about "
            f"{num(o['allreduce_s'])} s against {step} s of compute a step "
            f"({num(o['inter_node_gbit_s_per_gpu'])} Gb/s per GPU between servers, {num(o['intra_node_gb_s'])} GB/s inside)."
            if o.get("inter_node_gbit_s_per_gpu")
            else f"Communication is **{pct(share)}** of each step: one gradient all-reduce of {num(o['gradient_gb'])} GB "
            f"across {o['total_gpus']} GPUs takes about {num(o['allreduce_s'])} s against {step} s of compute a step "
            f"({num(o['intra_node_gb_s'])} GB/s per GPU inside the server)."
        )
        zh = (
            f"通信约占每步的 **{pct(share)}**，{_share_verdict(share, True)}：{o['total_gpus']} 张卡做一次 "
            f"{num(o['gradient_gb'])} GB 的梯度 all-reduce 约 {num(o['allreduce_s'])} 秒，每步计算约 {step} 秒"
            f"（节点间每卡 {num(o['inter_node_gbit_s_per_gpu'])} Gb/s，节点内 {num(o['intra_node_gb_s'])} GB/s）。"
            if o.get("inter_node_gbit_s_per_gpu")
            else f"通信约占每步的 **{pct(share)}**：{o['total_gpus']} 张卡做一次 {num(o['gradient_gb'])} GB 的梯度 "
            f"all-reduce 约 {num(o['allreduce_s'])} 秒，每步计算约 {step} 秒（节点内每卡 {num(o['intra_node_gb_s'])} GB/s）。"
        )
    if view.asked == "step_time" and share is not None and o.get("step_time_s"):
        # "how long per step if no overlap": the communication's time first, its share of the step after
        en = (
            f"One gradient all-reduce of {num(o['gradient_gb'])} GB across {o['total_gpus']} GPUs takes about "
            f"**{num(o['comm_per_step_s'])} s** per step ({o['algorithm']}); against {num(o['step_time_s'])} s of "
            f"compute that is {pct(share)} of the step."
        )
        zh = (
            f"{o['total_gpus']} 张卡做一次 {num(o['gradient_gb'])} GB 的梯度 all-reduce 每步约 **{num(o['comm_per_step_s'])} 秒**；"
            f"每步计算约 {num(o['step_time_s'])} 秒，通信占 {pct(share)}。"
        )
    rows = [Row(en="Gradient size", zh="梯度大小", value=f"{num(o['gradient_gb'])} GB"),
            Row(en="All-reduce time", zh="all-reduce 时间", value=f"{num(o['allreduce_s'])} s"),
            Row(en="Bus bandwidth", zh="总线带宽", value=f"{num(o['busbw_gb_s'])} GB/s")]  # fmt: skip
    if o.get("step_time_s") is not None:
        rows.append(Row(en="Compute per step", zh="每步计算时间", value=f"{num(o['step_time_s'])} s"))
    if o.get("comm_share_of_step") is not None:
        rows.append(Row(en="Share of step time", zh="占单步时间比例", value=pct(o["comm_share_of_step"])))
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


CALCULATOR = Calculator(
    name="network",
    title=("Gradient all-reduce", "梯度 All-Reduce 通信"),
    triggers=words(
        r"all[- ]?reduce",
        r"network bandwidth",
        r"interconnect bandwidth",
        r"infiniband",
        r"\broce\b",
        r"communication (?:time|overhead)",
        r"网络带宽",
        r"通信(?:时间|开销)",
        r"组网",
        r"网络",
    ),
    build=_build,
    summarize=_summarize,
    needs_model=True,
    answers=frozenset({"network"}),
)
