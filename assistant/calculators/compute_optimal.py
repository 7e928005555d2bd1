"""The largest model a budget trains compute-optimally: money, GPU-hours or GPUs x days in."""

from __future__ import annotations

from typing import Any

from assistant.calculators.common import Assumed, Calculator, Plan, Row, Summary, View, assumed, num, words
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumptions: list[Assumed] = []
    if slots.budget:
        payload.update(budget=slots.budget, currency=slots.budget_currency or "USD")
        if slots.cloud_price_per_gpu_hour:
            payload["price_per_gpu_hour"] = slots.cloud_price_per_gpu_hour
            if slots.cloud_price_currency and slots.cloud_price_currency != payload["currency"]:
                return None  # a yuan budget at a dollar rate: asked back rather than mixed
    elif slots.gpu_hours:
        payload["gpu_hours"] = slots.gpu_hours
    elif slots.gpu_count and slots.deadline_days:
        payload.update(gpus=slots.gpu_count, days=slots.deadline_days)
    elif slots.training_flops:
        payload["training_flops"] = slots.training_flops
    else:
        return None
    if slots.gpu:
        payload["gpu"] = slots.gpu
    elif "training_flops" not in payload:
        assumptions.append(assumed("GPU: H100 SXM", "GPU：H100 SXM"))
    if slots.mfu:
        payload["mfu"] = slots.mfu
    elif "training_flops" not in payload:
        assumptions.append(assumed("MFU 40%", "MFU 40%"))
    if slots.precision in {"fp8", "fp16"}:
        payload["precision"] = slots.precision
    if slots.params_b and not slots.tokens_b:
        payload["params_b"] = slots.params_b  # "pretrain a 3B model: how many tokens can we afford?"
    return Plan(tool="compute_optimal", payload=payload, assumed=assumptions)


def _summarize(call: ToolCall, view: View) -> Summary:
    i, o = call.input, call.output
    size = f"{num(o['params_b'])}B parameters"
    tokens = f"{num(o['tokens_b'] / 1000)}T" if o["tokens_b"] >= 1000 else f"{num(o['tokens_b'])}B"
    flops = f"{o['training_flops']:.3g}".replace("e+", "e")
    if i.get("budget"):
        # "$250k": the money, the hourly price it buys time at, and the GPU-hours that makes
        sign = "¥" if i.get("currency") == "CNY" else "$"
        rate = o.get("price_per_gpu_hour")
        at_en = f" at {sign}{num(rate)} per GPU-hour" if rate else ""
        at_zh = f"按每卡时 {sign}{num(rate)}" if rate else ""
        budget_en = f"{sign}{num(i['budget'])}{at_en} ({num(o['gpu_hours'])} GPU-hours, {flops} FLOPs)"
        budget_zh = f"{sign}{num(i['budget'])}（{at_zh}{'，' if at_zh else ''}{num(o['gpu_hours'])} GPU 小时，{flops} FLOPs）"
    elif o.get("gpu_hours") is not None:
        budget_en = f"{num(o['gpu_hours'])} GPU-hours ({flops} FLOPs)"
        budget_zh = f"{num(o['gpu_hours'])} GPU 小时（{flops} FLOPs）"
    else:
        budget_en = budget_zh = f"{flops} FLOPs"
    if i.get("params_b"):
        # the model is chosen: what the budget buys is its tokens
        chinchilla = 20 * i["params_b"]
        times = o["tokens_b"] / chinchilla
        en = (
            f"{budget_en[0].upper()}{budget_en[1:]} trains a {num(i['params_b'])}B model on about "
            f"**{tokens} tokens** (D = C / 6N), {num(times)}x its Chinchilla-optimal {num(chinchilla)}B."
        )
        zh = (
            f"{budget_zh}可把 {num(i['params_b'])}B 模型训练约 **{tokens} token**（D = C / 6N），"
            f"是 Chinchilla 最优 {num(chinchilla)}B 的 {num(times)} 倍。"
        )
        return Summary(
            headline_en=en,
            headline_zh=zh,
            inputs=[],
            results=_rows(o, f"{num(i['params_b'])}B (given)", tokens, flops),
        )
    en = (
        f"The compute-optimal model for {budget_en} is about **{size}**, trained on **{tokens} tokens** "
        f"(Chinchilla: {num(i.get('tokens_per_param', 20))} tokens per parameter)."
    )
    zh = (
        f"{budget_zh}能以计算最优方式训练约 **{num(o['params_b'])}B 参数** 的模型，训练 **{tokens} token**"
        f"（Chinchilla：每参数 {num(i.get('tokens_per_param', 20))} 个 token）。"
    )
    if o.get("days") is not None:
        en += f" On {num(i['gpus'])} GPUs that takes {num(o['days'])} days."
        zh += f"在 {num(i['gpus'])} 张卡上约需 {num(o['days'])} 天。"
    en += " A smaller model trained on more tokens costs the same to train and less to serve."
    zh += "用更多 token 训练更小的模型，训练花费相同，推理更省。"
    return Summary(
        headline_en=en, headline_zh=zh, inputs=[], results=_rows(o, f"{num(o['params_b'])}B", tokens, flops)
    )


def _rows(o: dict[str, Any], size: str, tokens: str, flops: str) -> list[Row]:
    """The table: the model's size (given or compute-optimal), its tokens and FLOPs, and the GPU-hours."""
    rows = [Row(en="Parameters", zh="参数量", value=size),
            Row(en="Training tokens", zh="训练 token", value=tokens),
            Row(en="Training FLOPs", zh="训练 FLOPs", value=flops)]  # fmt: skip
    if o.get("gpu_hours") is not None:
        rows.append(Row(en="GPU-hours", zh="GPU 小时", value=num(o["gpu_hours"])))
    return rows


CALCULATOR = Calculator(
    name="compute_optimal",
    title=("Compute-optimal model size", "算力最优模型规模"),
    triggers=words(
        r"\b(?:biggest|largest|how (?:big|large)(?: of)? (?:a )?model)\b",
        r"\bcompute[- ]optimal\b",
        r"(?:最大|多大)(?:的)?\s*(?:的)?\s*模型",
        r"能训(?:练)?多大",
        # a model already chosen: the tokens the budget buys ("how many tokens can we afford?")
        r"\bhow many (?:training )?tokens (?:can|could|does|do|will|would)\b",
        r"(?:能|可以)(?:训|跑|练)(?:多少|几)\s*(?:个)?\s*(?:token|tokens|t\b|b\b)",
        r"(?:训|练)(?:多少|几)\s*(?:个)?\s*token",
    ),
    build=_build,
    summarize=_summarize,
    answers=frozenset({"model_size", "tokens"}),
    exemplars_en=("What's the largest model we can train with $250k of cloud H100 time?",),
    exemplars_zh=("100万预算，能训练多大的模型？",),
)
