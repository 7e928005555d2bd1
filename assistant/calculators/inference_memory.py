"""GPU memory for serving: weights and KV cache."""

from __future__ import annotations

from typing import Any

from assistant.calculators.common import (
    Assumed,
    Calculator,
    Plan,
    Row,
    Summary,
    View,
    assumed,
    gpu_into,
    model_into,
    num,
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
    if slots.gpu_count:
        payload.update(tensor_parallel=slots.gpu_count, gpus=slots.gpu_count)
    if slots.seq_len:
        payload["context_tokens"] = slots.seq_len
    else:
        assumptions.append(assumed("context: the model's pre-training length", "上下文：模型预训练长度"))
    if slots.concurrent or slots.micro_batch:
        payload["batch"] = slots.concurrent or slots.micro_batch
    if slots.precision in {"fp8", "fp16", "bf16"}:
        payload["weight_precision"] = slots.precision
    return Plan(tool="inference_memory", payload=payload, assumed=assumptions)


def _summarize(call: ToolCall, view: View) -> Summary:
    o = call.output
    per = o["per_gpu"]
    en = (
        f"Serving needs about **{num(per.get('total_gb'))} GB per GPU** on {o['gpus']} x {o.get('gpu') or 'GPU'}; the KV cache is "
        f"{num(o['kv_kib_per_token'])} KiB per token ({num(o['kv_gb_per_sequence'])} GB per {num(o['context_tokens'])}-token sequence)"
        + (
            f", up to {num(o['max_concurrent_sequences'])} concurrent sequences."
            if o.get("max_concurrent_sequences")
            else "."
        )
    )
    zh = (
        f"推理每卡约需 **{num(per.get('total_gb'))} GB**（{o['gpus']} 张 {o.get('gpu') or 'GPU'}）；KV 缓存每 token "
        f"{num(o['kv_kib_per_token'])} KiB，每条 {num(o['context_tokens'])} token 的序列 {num(o['kv_gb_per_sequence'])} GB"
        + (
            f"，最多约 {num(o['max_concurrent_sequences'])} 路并发。"
            if o.get("max_concurrent_sequences")
            else "。"
        )
    )
    rows = [Row(en="KV cache per token", zh="每 token KV 缓存", value=f"{num(o['kv_kib_per_token'])} KiB"),
            Row(en="KV cache per sequence", zh="每条序列 KV 缓存", value=f"{num(o['kv_gb_per_sequence'])} GB"),
            Row(en="Per GPU", zh="每卡", value=f"{num(per.get('total_gb'))} GB"),
            Row(en="Max concurrent sequences", zh="最大并发序列", value=num(o.get("max_concurrent_sequences")))]  # fmt: skip
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


CALCULATOR = Calculator(
    name="inference_memory",
    triggers=words(
        r"inference",
        r"serving",
        r"\bserve\b",
        r"kv[- ]?cache",
        r"concurrent (?:users|requests)",
        r"推理",
        r"部署",
        r"kv\s*缓存",
        r"并发",
    ),
    build=_build,
    summarize=_summarize,
    needs_model=True,
    answers=frozenset({"memory", "gpus", "fit"}),
)
