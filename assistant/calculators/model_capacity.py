"""What the GPUs on hand can do: the largest model for full fine-tuning, LoRA, QLoRA and serving."""

from __future__ import annotations

from typing import Any

from assistant.calculators.common import Calculator, Plan, Row, Summary, View, num, words
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    if slots.params_b or slots.model:
        return None  # a model named: whether it fits is the memory calculators' question
    payload: dict[str, Any] = {}
    if slots.gpu:
        payload["gpu"] = slots.gpu
    elif slots.card_memory_gb:
        payload["gpu_memory_gb"] = slots.card_memory_gb  # "4张48G的卡能训多大的模型"
    else:
        return None
    payload["gpus"] = slots.gpu_count or 1
    if slots.seq_len:
        payload["seq_len"] = slots.seq_len
    return Plan(tool="model_capacity", payload=payload)


_JOB_EN = {"full": "full fine-tuning", "lora": "LoRA", "qlora": "QLoRA", "serve_bf16": "serving (BF16)", "serve_int4": "serving (4-bit)"}  # fmt: skip
_JOB_ZH = {"full": "全参微调", "lora": "LoRA", "qlora": "QLoRA", "serve_bf16": "推理（BF16）", "serve_int4": "推理（4 bit）"}  # fmt: skip


def _summarize(call: ToolCall, view: View) -> Summary:
    o = call.output
    size = {job["job"]: job["max_params_b"] for job in o["jobs"]}
    card = o["gpu"] or f"{num(o['gpu_memory_gb'])} GB GPU"
    cards_en = f"{o['gpus']} x {card}" if o["gpus"] > 1 else f"one {card}"
    cards_zh = f"{o['gpus']} 张 {card}" if o["gpus"] > 1 else f"单张 {card}"

    def b(job: str) -> str:
        return f"{num(size[job])}B" if size[job] else "-"

    en = (
        f"On {cards_en} you can fully fine-tune up to about **{b('full')}**, LoRA up to **{b('lora')}** and QLoRA up "
        f"to **{b('qlora')}** parameters; for serving, up to {b('serve_bf16')} in BF16 or {b('serve_int4')} with "
        "4-bit weights. Longer sequences or bigger micro-batches lower these; a named model checks exactly."
    )
    zh = (
        f"{cards_zh} 上：全参微调最大约 **{b('full')}**，LoRA 约 **{b('lora')}**，QLoRA 约 **{b('qlora')}**；"
        f"推理 BF16 最大约 {b('serve_bf16')}，4 bit 权重约 {b('serve_int4')}。序列更长或微批更大时会更小；"
        "给出具体模型可以精确核对。"
    )
    i = call.input
    sharded = f"ZeRO-3 分片到 {o['gpus']} 张卡" if o["gpus"] > 1 else "单卡"
    seq, context = num(i.get("seq_len", 2048)), num(i.get("context_tokens", 4096))
    tp = o["tensor_parallel"]
    setting_zh = {
        "full": f"BF16 + AdamW，{sharded}，完整重计算，序列 {seq}",
        "lora": f"BF16 底座，rank 16 适配器，{sharded}，序列 {seq}",
        "qlora": f"4 bit NF4 底座，rank 16 适配器，{sharded}，序列 {seq}",
        "serve_bf16": f"BF16 权重，张量并行 {tp}，一条 {context} token 的序列",
        "serve_int4": f"4 bit 权重，张量并行 {tp}，一条 {context} token 的序列",
    }
    rows = [
        Row(
            en=_JOB_EN[job["job"]],
            zh=_JOB_ZH[job["job"]],
            value=f"{b(job['job'])} ({job['setting']})",
            value_zh=f"{b(job['job'])}（{setting_zh[job['job']]}）",
        )
        for job in o["jobs"]
    ]
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


CALCULATOR = Calculator(
    name="model_capacity",
    title=("Largest model that fits", "能容纳的最大模型"),
    triggers=words(
        r"what (?:can|could) (?:we|i|it|they|you) (?:fine[- ]?tune|train|run|serve|do|fit)\b",
        r"what (?:size |sized |models? )?(?:can|could) (?:a |an |one |our |my |the )?(?:[\w.-]+ ){0,3}(?:fine[- ]?tune|train|run|serve|handle|hold)\b",
        r"(?:biggest|largest|max(?:imum)?)\s+(?:size\s+)?(?:model|llm)",
        r"how (?:big|large) (?:a |of a )?(?:model|llm)",
        r"what (?:size|sized?) (?:of )?(?:a )?(?:model|llm)",
        r"多大的?(?:模型|参数)",
        r"(?:能|可以)(?:训练?|跑|微调|部署|推理|做)\s*(?:多大|什么|啥|哪些)",
        r"最大(?:能|可以)?(?:训练?|跑|微调|部署|推理)",
        # "24G够干啥", "4090能拿来训模型吗": what the card is good for
        r"(?:够|能|可以)(?:干|做|用来干|拿来干)\s*(?:啥|什么|嘛)",
        r"(?:能|可以)(?:拿来|用来)\s*(?:训|训练|微调)(?:模型|大模型)?\s*(?:吗|么|不)",
        r"\bwhat (?:is|are) (?:a |an |one |the )?(?:[\w.-]+ ){0,3}(?:good|useful) for\b",
    ),
    build=_build,
    summarize=_summarize,
    answers=frozenset({"capacity"}),
    exemplars_en=("What can we fine-tune on 4x RTX 6000 Ada?", "Biggest model I can LoRA on one 4090?"),
    exemplars_zh=("8张4090能训多大的模型？", "单卡A100最大能微调多大的模型"),
    follow_ups_en=("Does Llama 3.1 70B fit with QLoRA?", "What about 8 of them?"),
    follow_ups_zh=("QLoRA 能跑 Llama 3.1 70B 吗？", "换成8张呢？"),
)
