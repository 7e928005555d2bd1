"""GPU memory for serving: weights and KV cache."""

from __future__ import annotations

import re
from typing import Any

from assistant.calculators.common import (
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
    num,
    words,
)
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog

_CHANGE_ZH = [
    (
        r"serve at most (\d+) concurrent sequences of ([\d,]+) tokens per replica",
        r"每个副本最多并发 \1 路 \2 token 的序列",
    ),
    (
        r"limit each of the (\d+) sequences to ([\d,]+) tokens of context",
        r"把 \1 路序列的上下文各限制在 \2 token",
    ),
    (
        r"store the KV cache in FP8 \(vLLM --kv-cache-dtype fp8\)",
        "KV 缓存用 FP8 存储（vLLM --kv-cache-dtype fp8）",
    ),
    (r"serve FP8 weights", "权重用 FP8"),
    (r"serve 4-bit weights \(an AWQ or GPTQ build\)", "权重用 4 比特量化（AWQ 或 GPTQ 版本）"),
    (
        r"raise tensor_parallel to (\d+) \((\d+) GPUs per replica\)",
        r"把张量并行提高到 \1（每个副本 \2 张卡）",
    ),
]


def _change_zh(text: str) -> str:
    """The serving calculator's suggested change, in Chinese."""
    for pattern, zh in _CHANGE_ZH:
        text = re.sub(pattern, zh, text)
    return text


# KV heads of a model known only by its size: Llama 3 (8B to 405B), Qwen 2.5 (7B to 72B: 4 to 8) and
# Mistral/Mixtral models all cache 8 KV heads (their model cards' config.json, num_key_value_heads)
DERIVED_KV_HEADS = 8
# "long context" with no length: 32k tokens, the window Qwen2.5 models were last pre-trained at (technical
# report, section 3) and a quarter of Llama 3.1's 128k
LONG_CONTEXT = 32_768


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    payload: dict[str, Any] = {}
    assumptions: list[Assumed] = []
    if not model_into(slots, payload):
        return None
    gpu_into(slots, payload, assumptions)
    card_memory_into(slots, payload, assumptions)
    if slots.gpu_count and slots.tensor_parallel and slots.gpu_count % slots.tensor_parallel == 0:
        # "4 H100s as two TP=2 instances": replicas of the group fill the GPUs
        payload.update(tensor_parallel=slots.tensor_parallel, gpus=slots.gpu_count)
    elif slots.gpu_count:
        payload.update(tensor_parallel=slots.gpu_count, gpus=slots.gpu_count)
    elif slots.tensor_parallel:
        # "each GPU holds its own copy of the weights", "TP2 instances": replicas of that group, as many as needed
        payload["tensor_parallel"] = slots.tensor_parallel
    if slots.seq_len:
        payload["context_tokens"] = slots.seq_len
    elif slots.prompt_tokens:
        # "avg prompt 1.5k tokens + 500 output": a request's KV cache holds its prompt and what it generates
        context = slots.prompt_tokens + int(slots.tokens_per_request or 0)
        payload["context_tokens"] = context
        if slots.tokens_per_request:
            assumptions.append(
                assumed(
                    f"each sequence holds {num(slots.prompt_tokens)} prompt + {num(slots.tokens_per_request)} output "
                    f"= {num(context)} tokens of KV cache",
                    f"每条序列的 KV 缓存按 {num(slots.prompt_tokens)} 输入 + {num(slots.tokens_per_request)} 输出 "
                    f"= {num(context)} token 计",
                )
            )
    elif slots.long_context:
        payload["context_tokens"] = LONG_CONTEXT
        assumptions.append(
            assumed(
                "long context read as 32k tokens (Qwen2.5's and Llama 3.1's native window is 32k-128k); give the length",
                "长上下文按 32k token 计（Qwen2.5、Llama 3.1 原生支持 32k-128k）；请给出实际长度",
            )
        )
    else:
        assumptions.append(assumed("context: the model's pre-training length", "上下文：模型预训练长度"))
    if batch := slots.concurrent or slots.micro_batch or slots.global_batch:
        payload["batch"] = batch  # "batch size 32" when serving: sequences in flight at once
    serving_fields(slots, payload, assumptions, catalog)
    if slots.lora_adapters:
        payload["lora_adapters"] = slots.lora_adapters  # multi-LoRA serving: the adapters stay resident
    return Plan(tool="inference_memory", payload=payload, assumed=assumptions)


# OCP Microscaling (MX) v1.0: MXFP4 keeps one shared 8-bit scale per block of 32 FP4 values
MXFP4_BITS = 4 + 8 / 32


def serving_fields(
    slots: Slots, payload: dict[str, Any], assumptions: list[Assumed], catalog: Catalog | None = None
) -> None:
    """The precisions a served model runs at (as released when none is named), and the KV heads of a model known
    only by its size."""
    if slots.kv_precision in {"fp8", "int8", "fp16", "bf16"}:
        payload["kv_cache_precision"] = slots.kv_precision
    # the model as released decides only when no precision is named
    named = slots.precision in {"fp8", "fp16", "bf16", "int8", "int4", "fp4"}
    model = catalog.model(slots.model) if not named and slots.model and catalog is not None else None
    released = model.released_precision if model is not None else None
    if named:
        payload["weight_precision"] = slots.precision
    elif released == "fp8":
        # "满血 DeepSeek R1": served as released, in FP8 (about 1 byte a parameter), not converted to BF16
        payload["weight_precision"] = "fp8"
        assumptions.append(assumed("weights in FP8, as the model is released", "权重按发布时的 FP8 计"))
    elif model is not None and released == "mxfp4":
        # "can gpt-oss-120b run on one H100?": served as released, 4-bit experts, not converted to BF16; the
        # attention, router and embeddings it keeps in BF16 are the weights' overhead over 4 bits a parameter
        experts_b = (
            model.layers * (model.experts or 0) * (3 if model.activation in {"swiglu", "geglu"} else 2)
            * model.hidden_size * model.ffn_hidden_size / 1e9
        )  # fmt: skip
        released_gb = experts_b * MXFP4_BITS / 8 + max(model.params_b - experts_b, 0.0) * 2
        payload["weight_precision"] = "fp4"
        payload["quantization_overhead_pct"] = round(100 * (released_gb / (model.params_b * 0.5) - 1), 2)
        assumptions.append(
            assumed(
                f"weights as released: the MoE experts ({num(experts_b)}B parameters) in MXFP4, 4.25 bits each "
                f"with their scales, the other {num(model.params_b - experts_b)}B in BF16: {num(released_gb)} GB",
                f"权重按发布时的格式：MoE 专家（{num(experts_b)}B 参数）为 MXFP4，连同缩放因子每个 4.25 位；"
                f"其余 {num(model.params_b - experts_b)}B 为 BF16：共 {num(released_gb)} GB",
            )
        )
    if not slots.model and not slots.kv_heads:  # "4个KV head": the shape given is used as given
        # a size without a name: today's open models cache far fewer KV heads than attention heads
        payload["kv_heads"] = DERIVED_KV_HEADS
        assumptions.append(
            assumed(
                f"grouped-query attention with {DERIVED_KV_HEADS} KV heads, as Llama 3, Mistral and Qwen 2.5 72B use",
                f"分组查询注意力（GQA），{DERIVED_KV_HEADS} 个 KV 头（Llama 3、Mistral 系列和 Qwen 2.5 72B 均如此）",
            )
        )


def _summarize(call: ToolCall, view: View) -> Summary:
    i, o = call.input, call.output
    per, total = o["per_gpu"], o["total"]
    gpu = o.get("gpu") or (f"{num(o['gpu_memory_gb'])} GB GPU" if o.get("gpu_memory_gb") else "GPU")
    batch, context = o["batch"], num(o["context_tokens"])
    kv_en = f"KV cache {num(o['kv_kib_per_token'])} KiB per token, {num(o['kv_gb_per_sequence'])} GB per {context}-token sequence"
    kv_zh = f"KV 缓存每 token {num(o['kv_kib_per_token'])} KiB，每条 {context} token 的序列 {num(o['kv_gb_per_sequence'])} GB"
    if "gpus" not in i and o.get("gpus_needed"):
        n = o["gpus_needed"]
        most = o.get("max_concurrent_sequences")
        servers_en = (
            ", one 8-GPU server" if n == 8 else f", {n // 8} 8-GPU servers" if n > 8 and n % 8 == 0 else ""
        )
        servers_zh = (
            "，即一台 8 卡服务器"
            if n == 8
            else f"，即 {n // 8} 台 8 卡服务器"
            if n > 8 and n % 8 == 0
            else ""
        )
        # one sequence or two fit: it runs, but serves no traffic
        crowded = most is not None and most < 4 and batch <= most
        small = i.get("weight_precision", "bf16") in {"fp8", "int8", "int4", "fp4"}
        lighter_en = "an FP8 KV cache" if small else "FP8 weights and KV cache"
        lighter_zh = "FP8 KV 缓存" if small else "FP8 权重和 KV 缓存"
        en = (
            f"Serving {batch} concurrent sequence{'s' if batch != 1 else ''} of {context} tokens takes **{n} x {gpu}** "
            f"(tensor parallel {n}{servers_en}): about {num(per.get('total_gb'))} GB per GPU of the {num(o['usable_gb_per_gpu'])} GB usable, "
            f"weights plus {kv_en}" + (f"; room for up to {num(most)} such sequences." if most else ".")
            + (" That leaves almost no room for concurrent requests: for real traffic plan twice the GPUs, or "
               f"{lighter_en}." if crowded else "")
        )  # fmt: skip
        zh = (
            f"{batch} 路并发、每路 {context} token 的推理需要 **{n} 张 {gpu}**（张量并行 {n}{servers_zh}）：每卡约 "
            f"{num(per.get('total_gb'))} GB（可用 {num(o['usable_gb_per_gpu'])} GB），包括权重和 {kv_zh}"
            + (f"；最多可容纳约 {num(most)} 路这样的序列。" if most else "。")
            + (f"几乎没有并发余量：实际上线请按两倍卡数规划，或用 {lighter_zh}。" if crowded else "")
        )
        if view.asked == "memory":
            # "推理需要多少显存": the amount first, then the cards it takes
            en = (
                f"Serving {batch} concurrent sequence{'s' if batch != 1 else ''} of {context} tokens needs about "
                f"**{num(total.get('total_gb'))} GB** of GPU memory in all (weights {num(total.get('weights_gb'))} GB "
                f"plus {kv_en}): **{n} x {gpu}** at tensor parallel {n}, {num(per.get('total_gb'))} GB per GPU of the "
                f"{num(o['usable_gb_per_gpu'])} GB usable."
            )
            zh = (
                f"{batch} 路并发、每路 {context} token 的推理共需约 **{num(total.get('total_gb'))} GB** 显存（权重 "
                f"{num(total.get('weights_gb'))} GB，加上 {kv_zh}）：即 **{n} 张 {gpu}**（张量并行 {n}），每卡约 "
                f"{num(per.get('total_gb'))} GB（可用 {num(o['usable_gb_per_gpu'])} GB）。"
            )
    elif "gpus" not in i and not o.get("gpu") and not o.get("gpu_memory_gb"):
        # no card to count: the job's own memory
        en = (
            f"Serving {batch} concurrent sequence{'s' if batch != 1 else ''} of {context} tokens needs about "
            f"**{num(total.get('total_gb'))} GB** of GPU memory in all: weights {num(total.get('weights_gb'))} GB plus {kv_en}."
        )
        zh = (
            f"{batch} 路并发、每路 {context} token 的推理共需约 **{num(total.get('total_gb'))} GB** 显存："
            f"权重 {num(total.get('weights_gb'))} GB，加上 {kv_zh}。"
        )
    elif "gpus" not in i and (spread := o.get("replicas_for_batch")):
        # no one group holds them all: replicas share the sequences, each with its own weights
        gpus, tp, each = spread
        copies = gpus // tp
        group_en = (
            f"{copies} replicas of {tp} GPU{'s' if tp > 1 else ''}" if copies > 1 else f"tensor parallel {tp}"
        )
        group_zh = f"{copies} 个副本、每个 {tp} 张卡" if copies > 1 else f"张量并行 {tp}"
        # each replica holds the weights and its share of the sequences (the totals above are one group's)
        en = (
            f"{batch} concurrent sequences of {context} tokens need about **{gpus} x {gpu}** ({group_en}, up to {each} "
            f"sequences each, every replica with its own copy of the weights): {kv_en}."
        )
        zh = (
            f"{batch} 路并发、每路 {context} token 的推理约需 **{gpus} 张 {gpu}**（{group_zh}，每个副本最多 {each} 路，"
            f"每个副本各有一份权重）：{kv_zh}。"
        )
    elif "gpus" not in i and o.get("gpu_memory_gb"):
        en = f"Even 64 x {gpu} cannot hold {batch} sequences of {context} tokens: {num(total.get('total_gb'))} GB are needed."
        zh = f"即使 64 张 {gpu} 也放不下 {batch} 路 {context} token 的并发：需要约 {num(total.get('total_gb'))} GB。"
    else:
        fits = o.get("fits")
        verdict_en = "" if fits is None else ("Yes: it fits. " if fits else "No: it does not fit. ")
        verdict_zh = "" if fits is None else ("放得下。" if fits else "放不下。")
        most = o.get("max_concurrent_sequences")
        if fits and most is not None and most <= 2 and batch <= most:
            # "671B FP8 on 8 x H20: fits?" with room for one 4k sequence: a fit in name only for serving
            verdict_en = (
                f"Only just: the weights fit, but the KV cache left has room for {num(most)} sequence"
                f"{'s' if most != 1 else ''} of {context} tokens, too few to serve users; plan more GPUs. "
            )
            verdict_zh = f"只是勉强放下：权重放得下，剩下的显存只够 {num(most)} 路 {context} token 的 KV 缓存，撑不起实际服务，要加卡。"
        elif fits and most is not None and most <= 4 and batch <= most:
            # "fine at 8k, but at 128k concurrency drops to ~2: why?": the KV cache is what limits it, said first
            verdict_en = f"It fits, but the KV cache is the limit: only {num(most)} sequences of {context} tokens fit at once. "
            verdict_zh = f"放得下，但 KV 缓存是瓶颈：同时只放得下 {num(most)} 路 {context} token 的序列。"
        # the verdict is against the memory a serving engine may use (vLLM's gpu_memory_utilization)
        usable = num(o.get("usable_gb_per_gpu"))
        usable_en = (
            ""
            if fits is None
            else (f", of the {usable} GB usable" if fits else f", more than the {usable} GB usable")
        )
        usable_zh = "" if fits is None else (f"，可用 {usable} GB" if fits else f"，超过可用的 {usable} GB")
        en = (
            f"{verdict_en}Serving needs about **{num(per.get('total_gb'))} GB per GPU** on {o['gpus']} x {gpu}{usable_en}; {kv_en}"
            + (
                f"; up to {num(o['max_concurrent_sequences'])} concurrent sequences."
                if o.get("max_concurrent_sequences")
                else "."
            )
        )
        zh = (
            f"{verdict_zh}推理每卡约需 **{num(per.get('total_gb'))} GB**（{o['gpus']} 张 {gpu}{usable_zh}）；{kv_zh}"
            + (
                f"，最多约 {num(o['max_concurrent_sequences'])} 路并发。"
                if o.get("max_concurrent_sequences")
                else "。"
            )
        )
        if view.asked == "concurrency" and fits and (most := o.get("max_concurrent_sequences")):
            # "how many concurrent sequences?": the count first, then the memory behind it
            en = (
                f"Up to **{num(most)} concurrent sequences** of {context} tokens fit on {o['gpus']} x {gpu}: "
                f"about {num(per.get('total_gb'))} GB per GPU at one sequence{usable_en}; {kv_en}."
            )
            zh = (
                f"{o['gpus']} 张 {gpu} 最多约 **{num(most)} 路并发**（每路 {context} token）：单路时每卡约 "
                f"{num(per.get('total_gb'))} GB{usable_zh}；{kv_zh}。"
            )
        if view.asked == "context_fit" and (room := o.get("max_kv_tokens_per_replica")):
            # "能撑多长上下文": the tokens of KV cache left after the weights, as one sequence's length
            shape = o.get("architecture") or {}
            # a shape derived from the parameter count has no context of its own to quote
            native = None if "derived" in str(shape.get("name", "")) else shape.get("context_window")
            cap_en = f", though the model itself supports {num(native)}" if native and native < room else ""
            cap_zh = f"（但模型本身只支持 {num(native)}）" if native and native < room else ""
            en = (
                f"{o['gpus']} x {gpu} hold about **{num(room)} tokens** of KV cache after the weights: one sequence "
                f"of up to about {num(room)} tokens{cap_en}, or several shorter ones sharing it. {en}"
            )
            zh = (
                f"{o['gpus']} 张 {gpu} 放下权重后，KV 缓存还能放约 **{num(room)} 个 token**：单条序列最长约 "
                f"{num(room)} token{cap_zh}，或由多条更短的序列分用。{zh}"
            )
        if fits is False and o.get("suggestions"):
            en += f" The smallest change that fits: {o['suggestions'][0]}."
            zh += f"能放下的最小改动：{_change_zh(o['suggestions'][0])}。"
    if adapters := i.get("lora_adapters"):
        en += f" The {adapters} LoRA adapters (rank {i.get('lora_rank', 16)}) are {num(o['lora_adapters_gb'])} GB of it."
        zh += f"其中 {adapters} 个 LoRA 适配器（秩 {i.get('lora_rank', 16)}）共 {num(o['lora_adapters_gb'])} GB。"
    if view.asked == "kv_per_token":
        # "KV cache per token 多大": that figure first, then one sequence of the context given
        en = (
            f"The KV cache takes **{num(o['kv_kib_per_token'])} KiB per token** at {num(o['kv_bytes_per_value'])} "
            f"byte{'' if o['kv_bytes_per_value'] == 1 else 's'} per value, {num(o['kv_gb_per_sequence'])} GB for one "
            f"sequence of {context} tokens. " + en
        )
        zh = (
            f"KV 缓存每 token 约 **{num(o['kv_kib_per_token'])} KiB**（每个值 {num(o['kv_bytes_per_value'])} 字节），"
            f"一条 {context} token 的序列约 {num(o['kv_gb_per_sequence'])} GB。" + zh
        )
    elif view.asked == "kv_cache":
        # "KV cache for one 32k request?": the cache of the sequences asked about, then what serving them takes
        kv_total, seqs = o["kv_gb_per_sequence"] * batch, f"{batch} sequence{'s' if batch != 1 else ''}"
        en = (
            f"The KV cache of {seqs} of {context} tokens is **{num(kv_total)} GB** ({num(o['kv_kib_per_token'])} KiB "
            f"per token at {num(o['kv_bytes_per_value'])} byte{'' if o['kv_bytes_per_value'] == 1 else 's'} per value). "
            + en
        )
        zh = (
            f"{batch} 条 {context} token 序列的 KV 缓存约 **{num(kv_total)} GB**（每 token {num(o['kv_kib_per_token'])} KiB，"
            f"每个值 {num(o['kv_bytes_per_value'])} 字节）。" + zh
        )
    rows = [Row(en="KV cache per token", zh="每 token KV 缓存", value=f"{num(o['kv_kib_per_token'])} KiB"),
            Row(en="KV cache per sequence", zh="每条序列 KV 缓存", value=f"{num(o['kv_gb_per_sequence'])} GB"),
            Row(en="Total memory", zh="总显存", value=f"{num(total.get('total_gb'))} GB"),
            Row(en="Per GPU", zh="每卡", value=f"{num(per.get('total_gb'))} GB"),
            Row(en="GPUs needed", zh="需要的 GPU 数", value=num(o.get("gpus_needed"))),
            Row(en="Max concurrent sequences", zh="最大并发序列", value=num(o.get("max_concurrent_sequences")))]  # fmt: skip
    if "gpus" not in i and (spread := o.get("replicas_for_batch")):
        # replicas share the sequences: one group holding them all (the totals above) is not the plan
        gpus, tp, each = spread
        rows = [*rows[:2],
                Row(en="GPUs needed", zh="需要的 GPU 数", value=num(gpus)),
                Row(en="Replicas x GPUs each", zh="副本数 × 每副本卡数", value=f"{num(gpus // tp)} x {num(tp)}"),
                Row(en="Sequences per replica", zh="每副本并发序列", value=num(each))]  # fmt: skip
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows, brief=_brief(i, o))


def _brief(i: dict[str, Any], o: dict[str, Any]) -> Brief | None:
    gpu = o.get("gpu")
    if not gpu:
        return None
    cards = o.get("gpus_needed") if "gpus" not in i else o.get("gpus")
    most = o.get("max_concurrent_sequences")
    per_card = round(most / cards, 1) if most and cards else None  # "按每张卡能扛的并发比"
    if "gpus" not in i and o.get("gpus_needed"):
        n = o["gpus_needed"]
        return Brief(
            card=gpu, en=f"{n} card{'s' if n != 1 else ''}", zh=f"{n} 张", rank=n, fits=n == 1, count=n,
            per_card=per_card,
        )  # fmt: skip
    if "gpus" not in i:
        return Brief(card=gpu, en="more than 64 cards", zh="超过 64 张", rank=65, fits=False)
    share = (o["per_gpu"].get("total_gb") or 0) / (o.get("gpu_memory_gb") or 1)
    if o.get("fits"):
        return Brief(card=gpu, en=f"fits on {o['gpus']}", zh=f"{o['gpus']} 张放得下", rank=share, fits=True)
    return Brief(
        card=gpu, en=f"does not fit on {o['gpus']}", zh=f"{o['gpus']} 张放不下", rank=100 + share, fits=False
    )


CALCULATOR = Calculator(
    name="inference_memory",
    title=("Serving memory", "推理显存"),
    triggers=words(
        r"inference",
        r"serving",
        r"\bserve\b",
        r"kv[- ]?cache",
        r"concurrent (?:users|requests)",
        # "128k context, one request at a time": the KV cache of the requests served
        r"\b(?:one|a single|single|each|per) request\b|\brequests? at a time\b|(?:单|一)(?:个|条)?请求",
        r"推理",
        r"部署",
        r"kv\s*缓存",
        r"并发",
        # "kv能放几个请求", "能跑几路", "how many 8k requests fit": sequences the KV cache holds
        r"\bkv\s*(?:能|可以)?\s*(?:放|装|存|撑|容纳)",
        r"(?:放|装|跑|撑|扛|容纳)(?:得下)?\s*(?:几|多少)\s*(?:个|路|条)?\s*(?:请求|序列|会话|对话)",
        r"how many (?:[\w-]+ )?(?:requests|sequences|sessions|conversations) (?:fit|can|could|will|would|at once)",
    ),
    build=_build,
    summarize=_summarize,
    needs_model=True,
    answers=frozenset({"memory", "gpus", "fit", "kv_cache", "kv_per_token"}),
)
