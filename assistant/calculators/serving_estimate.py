"""GPUs for a request rate when no throughput has been measured: the roofline estimate."""

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
    model_name,
    num,
    pct,
    words,
)
from assistant.calculators.inference_memory import serving_fields
from assistant.models import ToolCall
from assistant.slots import BUSY_HOURS_A_DAY, REQUESTS_PER_USER, Slots
from knowledge.catalog import Catalog


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    # no request rate: chosen only when the rate itself was asked ("how many tokens/s can one H100 do?")
    payload: dict[str, Any] = {}
    assumptions: list[Assumed] = []
    if slots.requests_per_second:
        payload["requests_per_second"] = slots.requests_per_second
    elif slots.demand_tokens_per_second:
        # "每天1亿token" or "1,200 tokens/s": the requests that demand makes, at the peak when one is given
        output_tokens = int(slots.tokens_per_request or 300)
        peak = slots.peak_factor or 1.0
        tokens = slots.demand_tokens_per_second * peak
        payload["requests_per_second"] = round(tokens / output_tokens, 4)
        shown = (
            f"{num(slots.demand_tokens_per_second)} x {num(peak)} = {num(tokens)}"
            if peak != 1
            else num(tokens)
        )
        assumptions.append(
            assumed(
                f"demand: {shown} output tokens/s, {num(payload['requests_per_second'])} requests/s of "
                f"{output_tokens} output tokens",
                f"需求：输出 {shown} token/s，即每秒 {num(payload['requests_per_second'])} 个请求（每个输出 {output_tokens} token）",
            )
        )
    if slots.daily_users:
        assumptions.append(
            assumed(
                f"{num(slots.daily_users)} daily active users x {REQUESTS_PER_USER} requests each a day "
                f"(a chat assistant's typical use; give your own)",
                f"日活 {num(slots.daily_users)} × 每人每天 {REQUESTS_PER_USER} 次请求（对话助手的常见用量；有实测请替换）",
            )
        )
    if slots.requests_per_day:
        assumptions.append(busy_hours(slots.requests_per_day, slots.requests_per_second or 0))
    if not model_into(slots, payload):
        return None
    gpu_into(slots, payload, assumptions)
    if "gpu" not in payload:
        return None  # a card outside the catalog: no bandwidth to estimate from
    if slots.tokens_per_request:
        payload["output_tokens"] = int(slots.tokens_per_request)
    else:
        assumptions.append(assumed("300 output tokens per request", "每个请求输出 300 token"))
    if slots.prompt_tokens:
        payload["prompt_tokens"] = slots.prompt_tokens
    else:
        assumptions.append(assumed("1,000 prompt tokens per request", "每个请求输入 1,000 token"))
    if slots.headroom is not None:
        payload["headroom"] = slots.headroom
    if slots.ttft_ms:
        payload["ttft_ms"] = slots.ttft_ms
    if slots.gpus_per_node:
        payload["gpus_per_server"] = slots.gpus_per_node
    if slots.tensor_parallel:
        payload["tensor_parallel"] = slots.tensor_parallel  # "TP=8": the group the user runs
    if slots.single_stream and not slots.requests_per_second:
        payload["batch_size"] = 1  # "decode 单请求": one stream's own speed
    if slots.gpu_count and not slots.requests_per_second:
        payload["gpus"] = slots.gpu_count  # "on 8x H20": as many replicas as those GPUs hold
    serving_fields(slots, payload, assumptions, catalog)
    return Plan(tool="serving_estimate", payload=payload, assumed=assumptions)


def busy_hours(per_day: float, per_second: float) -> Assumed:
    """How a day's requests became a rate to serve: the busy hours they arrive in."""
    return assumed(
        f"{num(per_day)} requests a day arrive within {BUSY_HOURS_A_DAY} busy hours: {num(per_second)} requests/s "
        "(3x the 24-hour average); give your peak rate to replace it",
        f"每天 {num(per_day)} 个请求集中在 {BUSY_HOURS_A_DAY} 个繁忙小时内：每秒 {num(per_second)} 个请求"
        "（24 小时平均值的 3 倍）；有实际峰值时请以峰值为准",
    )


def _summarize(call: ToolCall, view: View) -> Summary:
    i, o = call.input, call.output
    if "requests_per_second" not in i:
        return _one_replica(call)
    gpus, gpu, servers = o["gpus"], o["gpu"], o["servers"]
    rate, per_gpu = num(i["requests_per_second"]), num(o["output_tokens_per_second_per_gpu"])
    demand = num(o["demand_output_tokens_per_second"])
    headroom = i.get("headroom", 0.2)
    user = num(i.get("tokens_per_second_per_user", 20))
    en = (
        f"About **{num(gpus)} x {gpu}** ({num(servers)} server{'s' if servers != 1 else ''} of "
        f"{i.get('gpus_per_server', 8)}) serve {rate} requests/s ({demand} output tokens/s) with {pct(headroom)} "
        f"headroom: an estimated {per_gpu} output tokens/s per GPU at batch {o['batch']}"
        + (f", tensor parallel {o['tensor_parallel']}" if o["tensor_parallel"] > 1 else "")
        + f", each user streaming at least {user} tokens/s. This is a roofline estimate from memory bandwidth; "
        "a measured tokens/s per GPU replaces it."
    )
    zh = (
        f"每秒 {rate} 个请求（输出 {demand} token/s），留 {pct(headroom)} 余量，约需 **{num(gpus)} 张 {gpu}**"
        f"（{num(servers)} 台 {i.get('gpus_per_server', 8)} 卡服务器）：估算每卡输出 {per_gpu} token/s，每个副本并发 {o['batch']} 路"
        + (f"、张量并行 {o['tensor_parallel']}" if o["tensor_parallel"] > 1 else "")
        + f"，每个用户至少 {user} token/s。这是按显存带宽的屋顶线估算；有实测的每卡 token/s 时以实测为准。"
    )
    if (meets := o.get("meets_ttft")) is not None:
        # "p95 TTFT < 2s": one prompt's prefill on the replica against the target, queueing aside
        prefill, target = num(o["prefill_ms_per_request"]), num(i["ttft_ms"])
        en += (
            f" First token: one {num(i.get('prompt_tokens', 1000))}-token prefill takes about {prefill} ms "
            f"{'within' if meets else 'over'} your {target} ms target"
            + ("" if meets else ": a card with more FLOPs, FP8 or shorter prompts is needed")
            + "; queueing at the peak adds to it."
        )
        zh += (
            f"首 token：{num(i.get('prompt_tokens', 1000))} token 的预填充约 {prefill} ms，"
            f"{'在' if meets else '超出'} {target} ms 的目标{'以内' if meets else ''}"
            + ("" if meets else "，需要算力更强的卡、FP8 或更短的输入")
            + "；高峰时的排队还会再加上去。"
        )
    rows = [
        Row(en="GPUs", zh="GPU 数量", value=num(gpus)),
        Row(en="Servers", zh="服务器台数", value=num(servers)),
        Row(en="Output tokens/s per GPU (estimated)", zh="每卡输出 token/s（估算）", value=per_gpu),
        Row(en="Batch per replica", zh="每副本并发", value=num(o["batch"])),
        Row(en="Decode step", zh="解码单步", value=f"{num(o['step_ms'])} ms"),
        Row(en="Prefill per request", zh="每请求预填充", value=f"{num(o['prefill_ms_per_request'])} ms"),
    ]
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


def _one_replica(call: ToolCall) -> Summary:
    """What one replica generates: the rate asked when no request rate was given."""
    i, o = call.input, call.output
    tp, per_gpu, gpus = o["tensor_parallel"], o["output_tokens_per_second_per_gpu"], o["gpus"]
    total = num(o["output_tokens_per_second"])
    user = num(1000 / o["step_ms"]) if o["step_ms"] else "-"
    cards = f"{gpus} x {o['gpu']}" if gpus > 1 else f"one {o['gpu']}"
    if o["replicas"] > 1:
        cards += f" ({o['replicas']} replicas of tensor parallel {tp})"
    model = o.get("model") or model_name(i, o)
    if o["batch"] == 1 and o["batch_limit"] == "given" and o.get("stream_ceiling_tokens_per_second"):
        # "单请求每秒最多多少 token": decoding one stream reads every weight per token, so the memory bandwidth
        # bounds it; the ceiling first, then what decoding reaches in practice
        ceiling, efficiency = (
            num(o["stream_ceiling_tokens_per_second"]),
            pct(i.get("bandwidth_efficiency", 0.6)),
        )
        group_en = f"{tp} x {o['gpu']} (tensor parallel {tp})" if tp > 1 else f"one {o['gpu']}"
        group_zh = f"{tp} 张 {o['gpu']}（张量并行 {tp}）" if tp > 1 else f"一张 {o['gpu']}"
        en = (
            f"One request decodes {model} at most about **{ceiling} tokens/s** on {group_en}: each token reads all "
            f"the weights (and its KV cache) from memory, so the bandwidth bounds it; at the {efficiency} of bandwidth "
            f"decoding reaches in practice, about {user} tokens/s ({num(o['step_ms'])} ms a token)"
            + (
                ", less the tensor-parallel all-reduce per layer, which this estimate leaves out."
                if tp > 1
                else "."
            )
        )
        zh = (
            f"单个请求在 {group_zh} 上解码 {model}，理论上限约 **{ceiling} token/s**：每生成一个 token 都要把全部权重"
            f"（和该请求的 KV 缓存）从显存读一遍，所以受显存带宽限制；按实际能达到的 {efficiency} 带宽计约 {user} token/s"
            f"（每 token {num(o['step_ms'])} ms）"
            + ("，还要再减去每层张量并行 all-reduce 的开销（此估算未计入）。" if tp > 1 else "。")
        )
        rows = [
            Row(en="Ceiling, one stream", zh="单路理论上限", value=f"{ceiling} tokens/s"),
            Row(en="Expected, one stream", zh="单路估算", value=f"{user} tokens/s"),
            Row(en="Decode step", zh="解码单步", value=f"{num(o['step_ms'])} ms"),
            Row(en="Tensor parallel", zh="张量并行", value=num(tp)),
        ]
        return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)
    en = (
        f"About **{total} output tokens/s** from {model} on {cards} (roofline estimate: {num(per_gpu)} per GPU at "
        f"batch {o['batch']}, limited by {o['batch_limit']}), each stream at about {user} tokens/s; prefill "
        f"{num(o['prefill_ms_per_request'])} ms per {num(i.get('prompt_tokens', 1000))}-token prompt. "
        "A measured vLLM benchmark replaces it."
    )
    zh = (
        f"{model} 在 {gpus} 张 {o['gpu']} 上约能输出 **{total} token/s**（屋顶线估算：每卡 {num(per_gpu)} token/s，"
        f"并发 {o['batch']} 路），每路约 {user} token/s；{num(i.get('prompt_tokens', 1000))} token 的输入预填充约 "
        f"{num(o['prefill_ms_per_request'])} ms。有实测（vLLM benchmark）时以实测为准。"
    )
    rows = [
        Row(en="Output tokens/s (estimated)", zh="输出 token/s（估算）", value=total),
        Row(en="Output tokens/s per GPU", zh="每卡输出 token/s", value=num(per_gpu)),
        Row(en="Batch per replica", zh="每副本并发", value=num(o["batch"])),
        Row(en="Decode step", zh="解码单步", value=f"{num(o['step_ms'])} ms"),
    ]
    return Summary(headline_en=en, headline_zh=zh, inputs=[], results=rows)


CALCULATOR = Calculator(
    name="serving_estimate",
    title=("Serving GPUs", "推理所需 GPU"),
    triggers=words(r"a^"),  # chosen by the figures given: a request rate, a model and no measured rate
    build=_build,
    summarize=_summarize,
    answers=frozenset({"gpus", "servers", "throughput"}),
    needs_model=True,
)
