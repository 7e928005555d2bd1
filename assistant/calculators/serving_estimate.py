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
    num,
    pct,
    words,
)
from assistant.calculators.inference_memory import serving_fields
from assistant.models import ToolCall
from assistant.slots import Slots
from knowledge.catalog import Catalog


def _build(slots: Slots, catalog: Catalog) -> Plan | None:
    if not slots.requests_per_second:
        return None
    payload: dict[str, Any] = {"requests_per_second": slots.requests_per_second}
    assumptions: list[Assumed] = []
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
    serving_fields(slots, payload, assumptions)
    return Plan(tool="serving_estimate", payload=payload, assumed=assumptions)


def _summarize(call: ToolCall, view: View) -> Summary:
    i, o = call.input, call.output
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


CALCULATOR = Calculator(
    name="serving_estimate",
    triggers=words(r"a^"),  # chosen by the figures given: a request rate, a model and no measured rate
    build=_build,
    summarize=_summarize,
    answers=frozenset({"gpus", "servers"}),
    needs_model=True,
)
