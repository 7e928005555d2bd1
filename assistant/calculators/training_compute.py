"""Training FLOPs, GPU-hours and wall-clock days for a model, tokens, GPU type and count."""

from __future__ import annotations

from typing import Any

from assistant.calculators.common import (
    ASK_TOKENS,
    Assumed,
    Calculator,
    Plan,
    Row,
    Summary,
    View,
    assumed,
    compute_fields,
    model_into,
    model_name,
    num,
    pct,
    span,
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
    if slots.finetune and not slots.tokens_b:
        return None  # a fine-tuning data set is not Chinchilla-sized: asked back instead
    compute_fields(slots, payload, assumptions, catalog)
    if slots.finetune:
        payload["finetune"] = slots.finetune
    if slots.gpu_count:
        payload["gpus"] = slots.gpu_count
    if per_step := slots.batch_tokens or (slots.global_batch or 0) * (slots.seq_len or 0):
        payload["tokens_per_step"] = per_step  # "global batch 512 at 8k": the time of one step follows
    ask = None
    if not slots.tokens_b:
        ask = ASK_TOKENS
    elif not slots.gpu_count:
        ask = assumed(
            "How many GPUs will you use? Then I can give the wall-clock days.",
            "计划用多少张卡？这样可以算出训练天数。",
        )
    elif not slots.mfu and not slots.achieved_tflops:
        ask = assumed(
            "Do you have a measured MFU or tokens/s from your own runs?", "有实测的 MFU 或每卡 tokens/s 吗？"
        )
    return Plan(tool="training_compute", payload=payload, assumed=assumptions, ask=ask)


def _range_en(values: dict[str, float], unit: str) -> str:
    """`` (range 28-40 days)``, or nothing when the MFU is measured and the range is one figure."""
    shown = span(values["low"], values["high"])
    return "" if "-" not in shown else f" (range {shown} {unit})"


def _range_zh(values: dict[str, float], unit: str) -> str:
    shown = span(values["low"], values["high"])
    return "" if "-" not in shown else f"（区间 {shown} {unit}）"


_KIND = {"full": "full-parameter", "lora": "LoRA", "qlora": "QLoRA"}
_KIND_ZH = {"full": "全参微调", "lora": "LoRA 微调", "qlora": "QLoRA 微调"}


def _summarize(call: ToolCall, view: View) -> Summary:
    i, o = call.input, call.output
    w = o["workload"]
    model, tokens, gpu = model_name(i, o), num(w["tokens_b"]), w["gpu"]
    hours = o["gpu_hours"]
    mfu = pct(o["mfu"])
    precision = i.get("precision", "bf16")
    of_en = "" if precision == "bf16" else f" of the {precision.upper()} peak"
    of_zh = "" if precision == "bf16" else f"（按 {precision.upper()} 峰值）"
    days = o.get("days")
    kind = i.get("finetune")  # absent: pre-training
    doing_en = f"Fine-tuning {model} ({_KIND[kind]})" if kind else f"Training {model}"
    doing_zh = f"{_KIND_ZH[kind]} {model}" if kind else f"训练 {model}"
    if days and days["expected"] < 1:
        # under a day reads in hours: "0.1 days" is 2.4 hours
        wall = {k: days[k] * 24 for k in ("low", "expected", "high")}
        en = (
            f"{doing_en} on {tokens}B tokens takes about **{num(wall['expected'])} hours** on {i['gpus']} x {gpu} "
            f"at {mfu} MFU{of_en}{_range_en(wall, 'hours')}, {num(hours['expected'])} GPU-hours in all."
        )
        zh = (
            f"在 {i['gpus']} 张 {gpu} 上以 MFU {mfu}{of_zh} {doing_zh}（{tokens}B token）约需 **{num(wall['expected'])} 小时**"
            f"{_range_zh(wall, '小时')}，共 {num(hours['expected'])} GPU 小时。"
        )
    elif days:
        en = (
            f"{doing_en} on {tokens}B tokens takes about **{num(days['expected'])} days** on {i['gpus']} x {gpu} "
            f"at {mfu} MFU{of_en}{_range_en(days, 'days')}, {num(hours['expected'])} GPU-hours in all."
        )
        zh = (
            f"在 {i['gpus']} 张 {gpu} 上以 MFU {mfu}{of_zh} {doing_zh}（{tokens}B token）约需 **{num(days['expected'])} 天**"
            f"{_range_zh(days, '天')}，共 {num(hours['expected'])} GPU 小时。"
        )
    else:
        en = (
            f"{doing_en} on {tokens}B tokens needs about **{num(hours['expected'])} GPU-hours** of {gpu} at {mfu} MFU{of_en} "
            f"(range {span(hours['low'], hours['high'])})."
        )
        zh = (
            f"以 MFU {mfu}{of_zh} 在 {gpu} 上{doing_zh}（{tokens}B token）约需 **{num(hours['expected'])} GPU 小时**"
            f"（区间 {span(hours['low'], hours['high'])}）。"
        )
    if instances := o.get("instance_hours"):
        # "how many trn2.48xlarge instance-hours?": the chips as the cloud rents them
        name, count = next(iter(instances.items()))
        chips = round(hours["expected"] / count) if count else 0
        en += f" That is **{num(count)} {name} instance-hours** ({chips} chips each)."
        zh += f"折合 **{num(count)} 个 {name} 实例小时**（每个实例 {chips} 颗芯片）。"
    if (step := o.get("step_time_s")) and (view.asked == "step_time" or not days):
        # "MFU 40% 的话 step time 应该多少秒": one step's time leads, the whole run follows
        per_step = num(i["tokens_per_step"])
        en = (
            f"One step of {per_step} tokens takes about **{num(step)} s** on {i['gpus']} x {gpu} at {mfu} MFU{of_en} "
            f"({model}: {num(w['flops_per_token'] * i['tokens_per_step'])} FLOPs per step)."
        ) + (f" {en}" if i.get("tokens_b") else "")  # the whole run only when its tokens were given
        zh = (
            f"在 {i['gpus']} 张 {gpu} 上以 MFU {mfu}{of_zh}，每步 {per_step} token 约需 **{num(step)} 秒**"
            f"（{model} 每步 {num(w['flops_per_token'] * i['tokens_per_step'])} FLOPs）。"
        ) + (zh if i.get("tokens_b") else "")
    inputs = [Row(en="Model", zh="模型", value=model), Row(en="Training tokens", zh="训练 token", value=f"{tokens}B"),
              Row(en="GPU", zh="GPU", value=gpu), Row(en="GPUs", zh="GPU 数量", value=num(i.get("gpus"))),
              Row(en="MFU", zh="MFU", value=mfu),
              Row(en="Dense peak per GPU", zh="单卡稠密峰值", value=f"{num(w['peak_tflops_per_gpu'])} TFLOPS")]  # fmt: skip
    results = [Row(en="Training FLOPs", zh="训练计算量", value=f"{num(w['training_flops'])} FLOPs"),
               Row(en="GPU-hours", zh="GPU 小时", value=num(hours["expected"])),
               Row(en="Tokens/s per GPU", zh="每卡 tokens/s", value=num(o["tokens_per_second_per_gpu"]))]  # fmt: skip
    if step:
        results.insert(0, Row(en="Step time", zh="每步时间", value=f"{num(step)} s"))
    if days:
        results.insert(
            0,
            Row(
                en="Wall-clock days",
                zh="训练天数",
                value=f"{num(days['expected'])} ({span(days['low'], days['high'])})",
            ),
        )
    results.append(
        Row(
            en="Chinchilla-optimal tokens",
            zh="Chinchilla 最优 token",
            value=f"{num(w['chinchilla_tokens_b'])}B",
        )
    )
    return Summary(headline_en=en, headline_zh=zh, inputs=inputs, results=results)


CALCULATOR = Calculator(
    name="training_compute",
    title=("Training compute and time", "训练算力与时间"),
    triggers=words(
        r"how (?:long|many days|many hours|many weeks)",
        r"\bdays?\b.*\btrain",
        r"train.*\bdays?\b",
        r"gpu[- ]?hours?",
        r"gpu\s*小时",
        # "理论GPU时多少", "卡时大概多少": GPU-hours asked with the number word after them
        r"(?<![每单])(?:gpu\s*|卡)(?:小时|时)\s*(?:数|总数)?\s*(?:是|要|需要|大概|约|一共|总共|共)?\s*多少(?!\s*钱)",
        r"time to train",
        r"wall[\s-]*clock",  # "rough wall clock?"
        r"training time",
        r"\bflops\b",
        r"compute budget",
        r"tokens? per second",
        r"多少天",
        r"多久",
        r"多长时间",
        r"训练时间",
        r"几天",
        r"(?:多少|几|总|共)\s*(?:个)?\s*卡时",
        r"卡时(?:数|是多少)",
        r"算力需求",
        r"计算量",
        r"多少(?:个)?月",
    ),
    build=_build,
    summarize=_summarize,
    needs_model=True,
    answers=frozenset({"days", "gpu_hours"}),
    follow_ups_en=(
        "What about H200 instead?",
        "How much GPU memory per GPU does this need?",
        "What would it cost in the cloud?",
    ),
    follow_ups_zh=("换成H200呢？", "每张卡需要多少显存？", "上云要花多少钱？"),
)
