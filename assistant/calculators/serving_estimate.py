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
from assistant.slots import BUSY_HOURS_A_DAY, Slots
from knowledge.catalog import Catalog


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    # no request rate: chosen only when the rate itself was asked ("how many tokens/s can one H100 do?")
    payload: dict[str, Any] = {}
    assumptions: list[Assumed] = []
    if slots.requests_per_second:
        payload["requests_per_second"] = slots.requests_per_second
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
    if slots.gpus_per_node:
        payload["gpus_per_server"] = slots.gpus_per_node
    if slots.gpu_count and not slots.requests_per_second:
        payload["gpus"] = slots.gpu_count  # "on 8x H20": as many replicas as those GPUs hold
    serving_fields(slots, payload, assumptions)
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
    triggers=words(r"a^"),  # chosen by the figures given: a request rate, a model and no measured rate
    build=_build,
    summarize=_summarize,
    answers=frozenset({"gpus", "servers", "throughput"}),
    needs_model=True,
)
