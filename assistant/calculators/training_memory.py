"""GPU memory per GPU for training or fine-tuning (weights, gradients, optimizer, activations)."""

from __future__ import annotations

import re
from typing import Any

from assistant.calculators.common import (
    PRECISION,
    Assumed,
    Brief,
    Calculator,
    Plan,
    Row,
    Summary,
    View,
    assumed,
    card_memory_into,
    gpu_into,
    model_into,
    model_name,
    num,
    words,
)
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog
from tools.gpu_memory import PLANNING_HEADROOM

FINETUNE_SEQ_LEN = 4096
_FIX_ZH = [
    ("turn on selective activation recomputation", "开启选择性激活重计算"),
    ("shard with ZeRO stage", "使用 ZeRO stage"),
    ("(FSDP full sharding)", "（FSDP 全分片）"),
    ("use full activation recomputation", "使用完整激活重计算"),
    ("halve the micro-batch to", "把微批减半到"),
    ("(keep the global batch with gradient accumulation)", "（用梯度累积保持全局 batch）"),
    ("raise tensor parallelism to ", "把张量并行提高到 "),
    (
        "(within one server: tensor parallelism needs NVLink-class links)",
        "（限一台服务器内：张量并行需要 NVLink 级的互连）",
    ),
    (
        "(these cards have no NVLink: over PCIe every layer waits on the link, so steps slow down)",
        "（这些卡没有 NVLink：走 PCIe 时每一层都要等互连，训练会变慢）",
    ),
    (
        "offload optimizer states to host RAM (ZeRO-Offload; slower steps)",
        "把优化器状态卸载到主机内存（ZeRO-Offload，速度变慢）",
    ),
    ("GPUs with ZeRO stage 3", "张卡并使用 ZeRO stage 3"),
    (", tensor parallel ", "、张量并行 "),
    (", keeping 10% of memory free", "，留 10% 显存余量"),
    ("shorten sequences to ", "把序列长度缩短到 "),
    (", full activation recomputation", "、完整激活重计算"),
    (", selective activation recomputation", "、选择性激活重计算"),
    (
        "fine-tune with LoRA instead of full training (a different job: adapters only)",
        "改用 LoRA 微调（只训练适配器，任务性质不同）",
    ),
    (
        "fine-tune with QLoRA (4-bit base; a different job: adapters only)",
        "改用 QLoRA 微调（4 bit 底座，只训练适配器）",
    ),
    ("use QLoRA (the same adapters on a 4-bit base model)", "改用 QLoRA（同样的适配器，底座模型用 4 bit）"),
    (
        "shard with FSDP (ZeRO-3) and offload the sharded weights to CPU RAM (FSDP CPU offload; slower steps)",
        "用 FSDP（ZeRO-3）分片，并把权重分片卸载到主机内存（FSDP CPU offload，速度变慢）",
    ),
    (", and ", "，并且"),
    ("use ", "使用 "),
]


def _fix_zh(text: str) -> str:
    for en, zh in _FIX_ZH:
        text = text.replace(en, zh)
    return text


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumptions: list[Assumed] = []
    if not model_into(slots, payload):
        return None
    tp, pp = slots.tensor_parallel or 1, slots.pipeline_parallel or 1
    gpus = slots.gpu_count or tp * pp
    payload.update(gpus=max(gpus, tp * pp), tensor_parallel=tp, pipeline_parallel=pp)
    gpu_into(slots, payload, assumptions)
    card_memory_into(slots, payload, assumptions)
    if slots.zero_stage is not None:
        payload["zero_stage"] = slots.zero_stage
    elif slots.offload and gpus > 1:
        # "ZeRO-Offload" is DeepSpeed's stage 2 with the optimizer in host memory (Ren et al., 2021): the
        # gradients and optimizer states are sharded over the data-parallel GPUs, not held whole on each
        payload["zero_stage"] = 2
        assumptions.append(
            assumed(
                "ZeRO stage 2 with the optimizer offloaded (ZeRO-Offload)",
                "ZeRO stage 2，优化器卸载到主机内存（ZeRO-Offload）",
            )
        )
    elif gpus > 1:
        assumptions.append(
            assumed("no ZeRO/FSDP sharding (stage 0)", "不使用 ZeRO/FSDP 分片（stage 0）", setting=True)
        )
    if slots.precision in PRECISION:
        payload["precision"] = PRECISION[slots.precision]
    else:
        assumptions.append(
            assumed("BF16 mixed precision with FP32 master weights", "BF16 混合精度，FP32 主权重")
        )
    if slots.offload:
        payload["offload_optimizer"] = True  # "ZeRO-3 offload", "offload the optimizer to CPU"
    elif slots.offload is False:
        # "NO offload": a fit never comes from offloading; more GPUs or settings instead
        payload.setdefault("keep", []).append("offload_optimizer")
    if slots.optimizer:
        payload["optimizer"] = slots.optimizer
    else:
        assumptions.append(assumed("AdamW optimizer", "AdamW 优化器"))
    if slots.seq_len:
        payload["seq_len"] = slots.seq_len
        payload.setdefault("keep", []).append(
            "seq_len"
        )  # the length their data needs: a fix never shortens it
    elif slots.finetune:
        # fine-tuning samples are cut far shorter than a model's context window (Axolotl's and
        # LLaMA-Factory's example configs use 2,048-4,096)
        payload["seq_len"] = FINETUNE_SEQ_LEN
        assumptions.append(
            assumed(
                f"sequences of {FINETUNE_SEQ_LEN:,} tokens, a common fine-tuning length",
                f"序列长度 {FINETUNE_SEQ_LEN:,} token（常见的微调长度）",
            )
        )
    else:
        assumptions.append(
            assumed("sequence length: the model's pre-training context", "序列长度：模型预训练时的上下文长度")
        )
    if slots.micro_batch:
        payload["micro_batch"] = slots.micro_batch
    else:
        assumptions.append(assumed("micro-batch 1 per GPU", "每卡微批 1", setting=True))
    if slots.finetune:
        payload["finetune"] = slots.finetune
    if slots.recompute:
        payload["recompute"] = slots.recompute  # "no activation checkpointing": as they run it
    elif slots.finetune in {"lora", "qlora"}:
        # adapters are trained with gradient checkpointing on: the QLoRA paper's and PEFT's recipes do
        payload["recompute"] = "full"
        assumptions.append(
            assumed(
                "gradient checkpointing (full activation recomputation), as LoRA/QLoRA recipes use; FlashAttention",
                "开启梯度检查点（完整激活重计算，LoRA/QLoRA 的常规做法）；FlashAttention",
                setting=True,
            )
        )
    else:
        assumptions.append(
            assumed(
                "selective activation recomputation, FlashAttention",
                "选择性激活重计算，FlashAttention",
                setting=True,
            )
        )
    ask = None
    if not slots.gpu_count:
        ask = assumed(
            "How many GPUs, and with which sharding (ZeRO stage / FSDP)?",
            "用几张卡、用哪种分片（ZeRO stage / FSDP）？",
        )
    elif not slots.seq_len:
        ask = assumed(
            "What sequence length and micro-batch will you train with?", "训练用多长的序列、多大的微批？"
        )
    return Plan(tool="training_memory", payload=payload, assumed=assumptions, ask=ask)


def model_states_gb(per_gpu: dict[str, Any]) -> float:
    """Weights, gradients and optimizer states on one GPU: the plan without activations and buffers."""
    return float(per_gpu["weights_gb"] + per_gpu["gradients_gb"] + per_gpu["optimizer_states_gb"])


def _summarize(call: ToolCall, view: View) -> Summary:
    """The plan's headline; asked for the model states alone ("not counting activations"), the floor they set
    comes first."""
    summary = _plan(call, view)
    o = call.output
    if view.component and (part := _component(call, view.component)):
        # "how much is JUST the optimizer state?": that part first, the plan after it
        en, zh = part
        return summary.model_copy(
            update={"headline_en": en + summary.headline_en, "headline_zh": zh + summary.headline_zh}
        )
    floor = o.get("states_floor_gpus")
    if not (view.states_only and floor):
        return summary
    model = model_name(call.input, o)
    cards = o.get("gpu") or f"{num(o['gpu_memory_gb'])} GB cards"
    states = o["architecture"]["params_b"] * o["model_state_bytes_per_param"]
    gpus, stage = call.input.get("gpus", 1), call.input.get("zero_stage", 0)
    if gpus > 1 and stage == 3:
        # "ZeRO-3 64张H100 每张卡占多少显存 不算激活": the states' share on each of the GPUs given
        share = model_states_gb(o["per_gpu"])
        bytes_pp = num(o["model_state_bytes_per_param"])
        en = (
            f"Without activations, each of the {gpus} GPUs holds about **{num(share)} GB** of {model}'s model states "
            f"({num(states)} GB at {bytes_pp} bytes per parameter, sharded {gpus} ways by ZeRO-3). With activations: "
        )
        zh = (
            f"不算激活，{gpus} 张卡每卡约占 **{num(share)} GB**（{model} 的模型状态共 {num(states)} GB，每参数 {bytes_pp} 字节，"
            f"ZeRO-3 切成 {gpus} 份）。算上激活："
        )
        return summary.model_copy(
            update={"headline_en": en + summary.headline_en, "headline_zh": zh + summary.headline_zh}
        )
    servers = -(-floor // 8) * 8
    bytes_pp = num(o["model_state_bytes_per_param"])
    en = (
        f"{model}'s model states alone (weights, gradients and optimizer, {bytes_pp} bytes per parameter) are "
        f"**{num(states)} GB**: at least **{floor} x {cards}** just to hold them, fully sharded with nothing else on "
        f"the cards ({servers} in whole 8-GPU servers). With activations and memory to spare, the plan is bigger: "
    )
    zh = (
        f"仅 {model} 的模型状态（权重、梯度和优化器，每参数 {bytes_pp} 字节）就有 **{num(states)} GB**：光是放下它们至少要 "
        f"**{floor} 张 {o.get('gpu') or cards}**（完全切分、卡上不放别的；按整台 8 卡服务器为 {servers} 张）。算上激活并留出余量，"
        f"实际方案更大："
    )
    return summary.model_copy(
        update={"headline_en": en + summary.headline_en, "headline_zh": zh + summary.headline_zh}
    )


def _component(call: ToolCall, component: str) -> tuple[str, str] | None:
    """One part of the memory asked alone, on each GPU of the plan as first set out (before any change the
    headline recommends): the optimizer's states with their bytes per parameter, or the activations."""
    i, o = call.input, call.output
    b, model = o["per_gpu"], model_name(i, o)
    gpus, stage = i.get("gpus", 1), i.get("zero_stage", 0)
    if component == "optimizer":
        gb = b["optimizer_states_gb"]
        trainable = o["trainable_params_b"]
        if not gb or not trainable:
            return None
        sharded = gpus > 1 and stage >= 1
        whole = gb * o["data_parallel"] if sharded else gb
        per_param = whole / trainable
        parts_en = parts_zh = ""
        if i.get("optimizer", "adamw") in {"adam", "adamw"} and round(per_param) == 12:
            # mixed-precision Adam (ZeRO paper): an FP32 master copy (4 bytes) and two FP32 moments (8 bytes)
            parts_en = f": the FP32 master weights 4 and Adam's two moments 8, so {num(trainable * 8)} GB for the moments alone"
            parts_zh = f"：FP32 主权重 4 字节、Adam 两个动量 8 字节，仅动量就 {num(trainable * 8)} GB"
        if sharded:
            # "64卡 zero3 优化器状态每卡占多少": each GPU's shard first, the whole behind it
            return (
                f"With ZeRO stage {stage} over {gpus} GPUs, {model}'s optimizer states take about **{num(gb)} GB per "
                f"GPU** ({num(whole)} GB in all, {num(per_param)} bytes per trainable parameter{parts_en}). ",
                f"ZeRO stage {stage} 切到 {gpus} 张卡上，{model} 的优化器状态每卡约 **{num(gb)} GB**（共 {num(whole)} GB，"
                f"每个可训练参数 {num(per_param)} 字节{parts_zh}）。",
            )
        return (
            f"{model}'s optimizer states alone are **{num(whole)} GB** ({num(per_param)} bytes per trainable "
            f"parameter{parts_en}). ",
            f"{model} 的优化器状态单独就约 **{num(whole)} GB**（每个可训练参数 {num(per_param)} 字节{parts_zh}）。",
        )
    gb, layers = b["activations_gb"], o["architecture"].get("layers")
    if not gb:
        return None
    recompute = {"none": ("no recomputation", "不做重计算"), "selective": ("selective recomputation", "选择性重计算"),
                 "full": ("full recomputation", "完全重计算")}.get(i.get("recompute", "selective"), ("", ""))  # fmt: skip
    shape = f"seq {num(i.get('seq_len'))} x micro-batch {num(i.get('micro_batch', 1))}"
    flash = i.get("flash_attention", True)
    return (
        f"Activations take about **{num(gb)} GB per GPU** ({shape}, {recompute[0]}"
        f"{', flash attention' if flash else ''}; {layers} layers x {num(gb / layers)} GB). ",
        f"激活约占 **每卡 {num(gb)} GB**（{shape}，{recompute[1]}{'，flash attention' if flash else ''}；"
        f"{layers} 层 x 每层 {num(gb / layers)} GB）。",
    )


def _plan(call: ToolCall, view: View) -> Summary:
    i, o = call.input, call.output
    b = o["per_gpu"]
    model = model_name(i, o)
    total = num(b["total_gb"])
    where = o.get("gpu") or (f"a {num(o['gpu_memory_gb'])} GB card" if o.get("gpu_memory_gb") else None)
    # the logits and the framework's own memory (CUDA context, allocator) complete the sum, so the parts add up
    other = b.get("logits_gb", 0) + b.get("overhead_gb", 0)
    parts_en = (
        f"weights {num(b['weights_gb'])}, gradients {num(b['gradients_gb'])}, optimizer states "
        f"{num(b['optimizer_states_gb'])}, activations {num(b['activations_gb'])}"
        + (f", logits and CUDA overhead {num(other)}" if other else "")
        + " GB"
    )
    parts_zh = (
        f"权重 {num(b['weights_gb'])}、梯度 {num(b['gradients_gb'])}、优化器状态 {num(b['optimizer_states_gb'])}、"
        f"激活 {num(b['activations_gb'])}" + (f"、logits 与 CUDA 开销 {num(other)}" if other else "") + " GB"
    )
    capacity = num(o["gpu_memory_gb"]) if o["fits"] is not None else ""
    where_zh = o.get("gpu") or (f"{num(o['gpu_memory_gb'])} GB 的卡" if o.get("gpu_memory_gb") else None)
    cards = o.get("gpu") or f"{capacity} GB cards"  # counted: "24 x 80 GB cards"
    cards_zh = o.get("gpu") or f"{capacity} GB 的卡"
    # "can we pretrain a 30B on Trainium2?", "fine-tune 70B on H100s?" with no count: such a run is never one
    # chip's, so whether it can be done is answered on the fewest chips that hold it, not "no" for one
    cluster = view.uncounted_run and o["fits"] is False and view.asked in {None, "fit"}
    fix = _count_fix(o.get("suggestion"), o.get("min_gpus"), i["gpus"], view.asked == "gpus" or cluster)
    if view.asked == "gpus" and o["fits"]:
        # "how many GPUs to LoRA 8B?": the count leads
        en = f"**{i['gpus']} x {cards}**: {model} needs about {total} GB per GPU of {capacity} GB ({parts_en})."
        zh = f"**{i['gpus']} 张 {cards_zh}**：{model} 每卡约需 {total} GB（共 {capacity} GB；{parts_zh}）。"
        return _summary(call, en, zh)
    if fix and (view.asked == "gpus" or (cluster and fix["gpus"] > i["gpus"])):
        change = re.sub(r"use \d+ GPUs with ZeRO stage 3", "shard with ZeRO stage 3", fix["change"])
        per_gpu = num(fix["total_gb"])
        if view.asked == "gpus":
            # "how many GPUs to fine-tune 70B?": the count leads, then the setting that makes it fit
            en = (
                f"**{fix['gpus']} x {cards}**, if you {change}: {model} then needs about {per_gpu} GB per GPU "
                f"of {capacity} GB (as assumed, {total} GB: {parts_en})."
            )
            zh = (
                f"**{fix['gpus']} 张 {cards_zh}**，需要{_fix_zh(change)}：{model} 每卡约需 {per_gpu} GB（共 {capacity} GB；"
                f"按假设的设置每卡 {total} GB：{parts_zh}）。"
            )
        else:
            en = (
                f"Yes, across at least **{fix['gpus']} x {cards}** if you {change}: {model} then needs about "
                f"{per_gpu} GB per GPU of {capacity} GB; one alone would need {total} GB ({parts_en})."
            )
            zh = (
                f"可以，至少要 **{fix['gpus']} 张 {cards_zh}**，并{_fix_zh(change)}：{model} 每卡约需 {per_gpu} GB"
                f"（共 {capacity} GB）；单卡则需 {total} GB（{parts_zh}）。"
            )
        return _summary(call, en, zh, led=fix)
    if o["fits"] is None or view.asked == "memory":
        # "how much memory?" is answered with the amount; whether it fits the card follows
        en = f"Training {model} needs about **{total} GB per GPU** ({parts_en})."
        zh = f"训练 {model} 每卡约需 **{total} GB** 显存（{parts_zh}）。"
        if o["fits"]:
            en += f" That fits {where} ({num(o['headroom_pct'])}% headroom)."
            zh += f"{where_zh} 放得下（余量 {num(o['headroom_pct'])}%）。"
        elif o["fits"] is False:
            en += f" That is more than the {capacity} GB of {where}."
            zh += f"超过 {where_zh} 的 {capacity} GB。"
    elif o["fits"]:
        # less free than a plan keeps: the calculator's warning says why, under the next steps
        tight = o["headroom_pct"] < 100 * PLANNING_HEADROOM
        en = (
            f"{'Only just' if tight else 'Yes'}: {model} fits on {where} at about **{total} GB per GPU** of {capacity} GB, "
            f"{num(o['headroom_pct'])}% headroom ({parts_en})."
        )
        zh = (
            f"{'勉强放得下' if tight else '放得下'}：{model} 在 {where_zh} 上每卡约需 **{total} GB**（共 {capacity} GB，"
            f"余量 {num(o['headroom_pct'])}%；{parts_zh}）。"
        )
    elif fix and _same_job(fix) and (fix.get("settings") or {}).get("offload_params"):
        # "qlora a 70b on two 4090s?": yes, the way FSDP + QLoRA does it (Answer.AI, 2024): the 4-bit shards in CPU
        # RAM, one layer at a time on the cards
        host = num(fix["host_ram_gb"])
        en = (
            f"Yes, with FSDP and CPU offload: sharded over the {i['gpus']} GPUs with the weights' shards in CPU RAM, "
            f"{model} needs about **{num(fix['total_gb'])} GB per GPU** of the {capacity} GB of {where}, plus "
            f"{host} GB of host RAM for the shards (Answer.AI's FSDP + QLoRA trains a 70B model this way on two 24 GB "
            f"cards). Every layer then crosses PCIe each step, so expect slow steps; on the GPUs alone it needs "
            f"{total} GB per GPU ({parts_en})."
        )
        zh = (
            f"可以，用 FSDP 加 CPU 卸载：权重分片到 {i['gpus']} 张卡、分片放在主机内存里，{model} 每卡约需 "
            f"**{num(fix['total_gb'])} GB**（{where_zh} 共 {capacity} GB），另需 {host} GB 主机内存存放分片"
            f"（Answer.AI 的 FSDP + QLoRA 就是这样在两张 24 GB 卡上微调 70B）。每步每层都要走 PCIe，速度会慢；"
            f"只靠显存则每卡需 {total} GB（{parts_zh}）。"
        )
        return _summary(call, en, zh, led=fix)
    elif fix and _same_job(fix) and "offload" in fix["change"] and not i.get("offload_optimizer"):
        # "70B全参8卡H800够不够": not as asked; offloading to host RAM is a slower job, so it is the
        # alternative beside the count that holds the job on GPUs alone, not a "yes"
        states = o["architecture"]["params_b"] * o["model_state_bytes_per_param"]
        together = i["gpus"] * o["gpu_memory_gb"]
        if i.get("finetune", "full") == "full" and states > together:
            # the whole model's states against all the cards together: no sharding makes that fit
            bytes_pp = num(o["model_state_bytes_per_param"])
            en = (
                f"No, not on the GPUs alone: {model}'s model states (weights, gradients, optimizer) are about "
                f"**{num(states)} GB** ({bytes_pp} bytes per parameter), more than the {i['gpus']} x {capacity} = "
                f"{num(together)} GB of all {i['gpus']} cards together."
            )
            zh = (
                f"不够（只靠显存放不下）：{model} 的模型状态（权重、梯度、优化器）约 **{num(states)} GB**（每参数 "
                f"{bytes_pp} 字节），超过 {i['gpus']} 张卡合计的 {i['gpus']} x {capacity} = {num(together)} GB。"
            )
        else:
            en = (
                f"No, not on the GPUs alone: {model} needs about **{total} GB per GPU**, more than the {capacity} GB "
                f"of {where} ({parts_en})."
            )
            zh = f"不够（只靠显存放不下）：{model} 每卡约需 **{total} GB**，超过 {where_zh} 的 {capacity} GB（{parts_zh}）。"
        en += f" It fits only if you {fix['change']}: {num(fix['total_gb'])} GB per GPU."
        zh += f"只有{_fix_zh(fix['change'])}才放得下：每卡 {num(fix['total_gb'])} GB。"
        if (least := o.get("min_gpus")) and least["gpus"] > i["gpus"]:
            en += f" Without offloading: {least['change']} ({num(least['total_gb'])} GB per GPU)."
            zh += f"不卸载的话：{_fix_zh(least['change'])}（每卡 {num(least['total_gb'])} GB）。"
        return _summary(call, en, zh, led=fix)
    elif (
        fix
        and _same_job(fix)
        and (stage := i.get("zero_stage"))
        and f"ZeRO stage {stage}" not in str(fix["change"])
        and re.search(r"ZeRO stage|tensor parallel", str(fix["change"]))
    ):
        # "那用ZeRO-2呢": the stage asked does not hold it; the change that does (another stage, or tensor
        # parallelism) comes after
        en = (
            f"No, not with ZeRO stage {stage}: {model} needs about **{total} GB per GPU**, more than the {capacity} GB "
            f"of {where} ({parts_en}). It fits if you {fix['change']} ({num(fix['total_gb'])} GB per GPU)."
        )
        zh = (
            f"ZeRO-{stage} 放不下：{model} 每卡约需 **{total} GB**，超过 {where_zh} 的 {capacity} GB（{parts_zh}）。"
            f"{_fix_zh(fix['change'])}才放得下（每卡 {num(fix['total_gb'])} GB）。"
        )
        return _summary(call, en, zh, led=fix)
    elif fix and _same_job(fix):
        # "can we train 7B on 8 H100s?": yes, sharded; the settings assumed are not the answer
        tight = _tight(fix["total_gb"], o["gpu_memory_gb"])
        en = (
            f"{'Only just' if tight else 'Yes'}, if you {fix['change']}: {model} then needs about **{num(fix['total_gb'])} GB per GPU** of the "
            f"{capacity} GB of {where} (as assumed, {total} GB: {parts_en})." + (_TIGHT_EN if tight else "")
        )
        zh = (
            f"{'勉强可以' if tight else '可以'}，但要{_fix_zh(fix['change'])}：{model} 每卡约需 **{num(fix['total_gb'])} GB**（{where_zh} 共 {capacity} GB；"
            f"按假设的设置则每卡 {total} GB：{parts_zh}）。" + (_TIGHT_ZH if tight else "")
        )
        return _summary(call, en, zh, led=fix)
    elif o["data_parallel"] > 1 and not i.get("zero_stage"):
        # the search tried ZeRO-1 to 3 over these GPUs first: none of them makes it fit
        en = (
            f"No: even sharded with ZeRO-3 over the {i['gpus']} GPUs, {model} does not fit {where} "
            f"(unsharded it needs about **{total} GB per GPU**: {parts_en})."
        )
        zh = f"放不下：即使用 ZeRO-3 在 {i['gpus']} 张卡上全分片，{model} 也超出 {where_zh}（不分片时每卡约需 **{total} GB**：{parts_zh}）。"
    else:
        en = f"No: {model} needs about **{total} GB per GPU**, more than the {capacity} GB of {where} ({parts_en})."
        zh = f"放不下：{model} 每卡约需 **{total} GB**，超过 {where_zh} 的 {capacity} GB（{parts_zh}）。"
    if o["fits"] is False:
        if fix:
            en += f" The smallest change that fits: {fix['change']} ({num(fix['total_gb'])} GB per GPU)."
            zh += f"能放下的最小改动：{_fix_zh(fix['change'])}（每卡 {num(fix['total_gb'])} GB）。"
        else:
            en += " No one or two changes make it fit: add GPUs and shard further."
            zh += "一两处改动都放不下：需要更多 GPU 并进一步切分。"
        if cards := o.get("single_gpus"):
            # "if no, the smallest single card that works": the job as asked, on one larger card
            names = ", ".join(cards[:3])
            en += f" On one card as asked, the smallest that holds it with 10% free: {names}."
            zh += f"按原设置单卡运行，能放下（留 10% 余量）的最小显存的卡：{names}。"
    return _summary(call, en, zh)


# a plan that fills more than this share of the card: allocator fragmentation, NCCL buffers and the longest
# batch often take the rest (PyTorch's CUDA caching allocator notes: reserved memory exceeds allocated)
_TIGHT_SHARE = 0.95
_TIGHT_EN = (
    " That leaves under 5% of the card free, which fragmentation, communication buffers and the longest batch "
    "often take: plan more GPUs or CPU offload for margin."
)
_TIGHT_ZH = (
    "这样每卡剩余不到 5%，内存碎片、通信缓冲和最长的批次往往就把它占满：请多留卡或用 CPU 卸载留出余量。"
)


def _tight(used_gb: float, card_gb: float | None) -> bool:
    return bool(card_gb) and used_gb > _TIGHT_SHARE * (card_gb or 0)


def _summary(call: ToolCall, en: str, zh: str, led: dict[str, Any] | None = None) -> Summary:
    """The headline with its table. ``led``: the change the headline recommends; the table then shows that
    plan (its settings and memory), with the first-assumed total beside it, so the two never disagree."""
    i, o = call.input, call.output
    plan = led if led and led.get("per_gpu") and led.get("settings") else None
    if i.get("offload_optimizer") and (host := o.get("host_ram_for_offload_gb_per_gpu")):
        # "offload the optimizer to CPU": where the states went, and the host RAM they need
        # the states of the whole model, wherever the GPUs sit: each GPU's shard times the GPUs; unsharded
        # (ZeRO stage 0, which the recommended plan then shards) each GPU's copy is already the whole model
        everything = host * i["gpus"] if i.get("zero_stage") else host
        en += (
            f" The offloaded optimizer states need about {num(everything)} GB of host RAM in all, split over "
            "the servers that hold the GPUs, and steps slow down to the PCIe copies."
        )
        zh += f"卸载到 CPU 的优化器状态共需约 {num(everything)} GB 主机内存（分摊到各台服务器），训练步会受 PCIe 拷贝拖慢。"
    elif plan and plan["settings"]["offload_optimizer"]:
        # the recommended plan offloads: the host RAM it then needs
        everything = plan["host_ram_gb"]
        en += f" Offloading needs about {num(everything)} GB of host RAM in all, and steps slow down to the PCIe copies."
        zh += f"卸载后共需约 {num(everything)} GB 主机内存，训练步会受 PCIe 拷贝拖慢。"
    b = plan["per_gpu"] if plan else o["per_gpu"]
    st = plan["settings"] if plan else {
        "zero_stage": i.get("zero_stage", 0), "tensor_parallel": i.get("tensor_parallel", 1),
        "pipeline_parallel": i.get("pipeline_parallel", 1), "data_parallel": o["data_parallel"],
        "micro_batch": i.get("micro_batch", 1), "seq_len": i.get("seq_len") or o["architecture"]["max_context"],
    }  # fmt: skip
    model = model_name(i, o)
    inputs = [Row(en="Model", zh="模型", value=model),
              Row(en="GPUs", zh="GPU 数量", value=str(plan["gpus"] if plan else i["gpus"])),
              Row(en="Data parallel", zh="数据并行度", value=str(st["data_parallel"])),
              Row(en="ZeRO stage", zh="ZeRO stage", value=str(st["zero_stage"])),
              Row(en="Tensor / pipeline parallel", zh="张量/流水线并行", value=f"{st['tensor_parallel']} / {st['pipeline_parallel']}"),
              Row(en="Precision, optimizer", zh="精度、优化器", value=f"{i.get('precision', 'bf16-mixed')}, {i.get('optimizer', 'adamw')}"),
              Row(en="Sequence x micro-batch", zh="序列长度 x 微批", value=f"{st['seq_len']} x {st['micro_batch']}")]  # fmt: skip
    if plan:
        inputs.append(
            Row(
                en="Activation recomputation",
                zh="激活重计算",
                value=plan["settings"]["recompute"],
                value_zh=_RECOMPUTE_ZH[plan["settings"]["recompute"]],
            )
        )
        if plan["settings"]["offload_optimizer"]:
            inputs.append(
                Row(
                    en="Optimizer states",
                    zh="优化器状态",
                    value="offloaded to host RAM",
                    value_zh="卸载到主机内存",
                )
            )
    results = [Row(en="Weights", zh="权重", value=f"{num(b['weights_gb'])} GB"),
               Row(en="Gradients", zh="梯度", value=f"{num(b['gradients_gb'])} GB"),
               Row(en="Optimizer states", zh="优化器状态", value=f"{num(b['optimizer_states_gb'])} GB"),
               Row(en="Activations", zh="激活", value=f"{num(b['activations_gb'])} GB"),
               Row(en="Total per GPU", zh="每卡合计", value=f"{num(b['total_gb'])} GB ({num(b['total_gib'])} GiB)")]  # fmt: skip
    if plan:
        first = o["per_gpu"]["total_gb"]
        results.append(
            Row(en="Total per GPU as first assumed", zh="按最初假设的每卡合计", value=f"{num(first)} GB")
        )
    if o.get("host_ram_for_offload_gb_per_gpu"):
        results.append(
            Row(
                en="Host RAM for offload, per GPU",
                zh="卸载所需主机内存（每卡）",
                value=f"{num(o['host_ram_for_offload_gb_per_gpu'])} GB",
            )
        )
    return Summary(
        headline_en=en,
        headline_zh=zh,
        inputs=inputs,
        results=results,
        brief=_brief(o, i),
        settled=plan is not None,
    )


_RECOMPUTE_ZH = {"none": "不重计算", "selective": "选择性重计算", "full": "完整重计算"}


# changes that keep the job and its cards: a card that fits with them still does it alone
_SAME_JOB = (
    "recomputation",
    "micro-batch",
    "ZeRO stage",
    "tensor parallelism",
    "shorten sequences",
    "offload",
)


def _count_fix(
    fix: dict[str, Any] | None, least: dict[str, Any] | None, gpus: int, count_asked: bool
) -> dict[str, Any] | None:
    """The change to lead with: more cards only as few as the same job needs, and the job asked about kept
    ("全参微调要多少卡" is never answered with a QLoRA count, nor with 32 cards when 12 do). Cards the user
    gave stay theirs unless they are too few, or the count is what was asked."""
    if least is None or (least["gpus"] <= gpus and not count_asked):
        return fix
    # "how many A100s for LoRA?": the count for the job asked, not a switch to QLoRA on fewer cards
    if fix is None:
        return least
    # ... nor with one card and the optimizer in host RAM when a count was asked ("14B 全参要几张 H20？zero3"):
    # offloading is a slower job, offered beside the count that holds the job on GPUs
    other_job = "a different job" in fix["change"] or (
        count_asked and ("QLoRA" in fix["change"] or "offload" in fix["change"])
    )
    return least if other_job or least["gpus"] < fix["gpus"] else fix


def _same_job(fix: dict[str, Any] | None) -> bool:
    """Whether the change that makes it fit is a setting on the same cards, not more cards or another job."""
    if not fix:
        return False
    return any(word in fix["change"] for word in _SAME_JOB) and "GPUs" not in fix["change"]


def _brief(o: dict[str, Any], i: dict[str, Any]) -> Brief | None:
    if not o.get("gpu") or o["fits"] is None:
        return None
    total, capacity = o["per_gpu"]["total_gb"], o["gpu_memory_gb"] or 1
    if o["fits"]:
        return Brief(card=o["gpu"], en=f"fits, {num(total)} of {num(capacity)} GB per GPU",
                     zh=f"放得下，每卡 {num(total)}/{num(capacity)} GB", rank=total / capacity, fits=True)  # fmt: skip
    fix = o.get("suggestion")
    if fix and _same_job(fix):
        offloads = "offload" in fix["change"]
        least = o.get("min_gpus") or {}
        # a fix that offloads to host RAM slows every step: after any that keeps the states on the GPUs; between
        # two cards that both offload, the one needing fewer cards without offloading ("H100 or H200 for 70B
        # full SFT on one 8-GPU server?": 24 H100s against 12 H200s)
        rank = 2 + min(least.get("gpus", 999), 999) / 1000 if offloads else 1 + fix["total_gb"] / capacity
        without = (
            (f"; without offloading, {least['gpus']} cards", f"；不卸载则需 {least['gpus']} 张")
            if offloads and least.get("gpus")
            else ("", "")
        )
        return Brief(card=o["gpu"], en=f"fits if you {fix['change']} ({num(fix['total_gb'])} GB per GPU{without[0]})",
                     zh=f"{_fix_zh(fix['change'])}后放得下（每卡 {num(fix['total_gb'])} GB{without[1]}）",
                     rank=rank, fits=True)  # fmt: skip
    # the same count the card's own headline leads with, so a comparison never names two
    least = _count_fix(fix, o.get("min_gpus"), i["gpus"], count_asked=True)
    if least and least["gpus"] > i["gpus"]:
        # "H200 or H100 for fine-tuning 70B?": how many of each card the same job needs
        n = least["gpus"]
        servers_en = f" ({n // 8} servers of 8)" if n >= 16 and n % 8 == 0 else ""
        servers_zh = f"（{n // 8} 台 8 卡服务器）" if servers_en else ""
        return Brief(card=o["gpu"], en=f"{n} cards{servers_en} with ZeRO-3", zh=f"ZeRO-3 下需 {n} 张{servers_zh}",
                     rank=2 + n, fits=False, count=n)  # fmt: skip
    return Brief(card=o["gpu"], en=f"does not fit, {num(total)} GB per GPU needed",
                 zh=f"放不下，每卡需 {num(total)} GB", rank=100 + total / capacity, fits=False)  # fmt: skip


CALCULATOR = Calculator(
    name="training_memory",
    title=("GPU memory for training", "训练显存"),
    triggers=words(
        r"\bfit\b",
        r"\bfits\b",
        r"memory (?:per gpu|needed|required|footprint|usage)",
        r"\boom\b",
        r"out of memory",
        r"how much (?:gpu |v)?(?:memory|vram|hbm)",
        r"enough (?:gpu )?memory",
        r"(?:memory|vram|hbm) (?:be |is )?enough",
        r"vram",
        r"显存(?:够|需要|占用|多少|要多少|大小)?",
        r"放得下",
        r"装得下",
        r"够不够",
        r"爆显存",
        r"能不能(?:跑|训)",
    ),
    build=_build,
    summarize=_summarize,
    needs_model=True,
    answers=frozenset({"memory", "fit"}),
    follow_ups_en=("And with ZeRO-3 over 8 GPUs?", "What about a 4k sequence length?"),
    follow_ups_zh=("换成ZeRO-3、8张卡呢？", "序列长度改成4096呢？"),
)
