"""GPUs to serve a request rate when nobody has measured the throughput yet: a roofline estimate.

Decoding one step of a batch reads every weight and the batch's KV cache from memory once, so at the
batch sizes serving uses it is bound by memory bandwidth; prefill is a dense matrix multiply bound by
tensor FLOPs. The estimate sizes one model replica (the smallest tensor-parallel group that holds the
weights and one sequence, as the serving-memory calculator does), picks the largest batch that both fits
its memory and still streams tokens at the per-user speed asked for, and counts the replicas the rate
needs. It is a planning figure: a measured tokens/s per GPU (vLLM's benchmark_serving) replaces it.
"""

from __future__ import annotations

import math

from pydantic import Field

from knowledge.catalog import Catalog
from tools.common import GB, CalculatorInputError, Reference, ToolOutput, find_accelerator, round_sig
from tools.inference_memory import BYTES_PER_VALUE, InferenceMemoryInput, inference_memory
from tools.messages import Message, glossary

ROOFLINE = Reference(
    title="Williams, Waterman, Patterson: Roofline, an insightful visual performance model (CACM 2009)",
    url="https://doi.org/10.1145/1498765.1498785",
)
DATABRICKS_MBU = Reference(
    title="Databricks: LLM Inference Performance Engineering, Best Practices (2023): model bandwidth "
    "utilisation of about 60% on A100/H100",
    url="https://www.databricks.com/blog/llm-inference-performance-engineering-best-practices",
)
TRTLLM_PERF = Reference(
    title="TensorRT-LLM 0.5.0 docs, performance.md: output tokens/s at fixed batch on H100 (FP8)",
    url="https://github.com/NVIDIA/TensorRT-LLM/blob/release/0.5.0/docs/source/performance.md",
)

# vLLM's default ceiling on sequences scheduled together (max_num_seqs)
MAX_BATCH = 256

BATCH_LIMIT = glossary(
    "batch_limit", {"memory": "显存", "latency": "每用户速度", "scheduler": "调度上限", "given": "给定值"}
)
_NEED_GPU = Message(
    "serving_estimate.need_gpu",
    en="a catalog GPU is needed: its bandwidth and FLOPs set the rate",
    zh="需要目录中的 GPU：速率由它的显存带宽和算力决定",
)
_TOO_BIG = Message(
    "serving_estimate.too_big",
    en="even {gpus} x {gpu} cannot hold the model and one sequence",
    zh="即使 {gpus} 张 {gpu} 也放不下模型和一路序列",
)
_NO_DENSE = Message(
    "serving_estimate.no_dense_figure",
    en="{gpu} has no dense BF16 figure in the catalog",
    zh="目录中没有 {gpu} 的稠密 BF16 算力数据",
)
_TTFT = Message(
    "serving_estimate.ttft",
    en="time to first token: one {prompt}-token prefill takes {ms} ms on {tp} GPU(s) against the {target} ms "
    "target; queueing at the peak adds to it, so keep the replicas below saturation (the headroom) or measure "
    "p95 under load",
    zh="首 token 时间：一次 {prompt} token 的预填充在 {tp} 张卡上约 {ms} ms，目标 {target} ms；高峰时的排队会再加上去，"
    "所以副本要留余量不跑满，或在真实负载下实测 p95",
)
_TTFT_MISSED = Message(
    "serving_estimate.ttft_missed",
    en="the {target} ms first-token target is missed even at tensor parallel {tp}: a card with more FLOPs, FP8 "
    "or a shorter prompt is needed",
    zh="即使张量并行 {tp}，也达不到 {target} ms 的首 token 目标：需要算力更强的卡、FP8 或更短的输入",
)
_SLOW_STREAM = Message(
    "serving_estimate.slow_stream",
    en="even one sequence streams at {rate} tokens/s on {tp} x {gpu}, below the {asked} asked: a faster card or "
    "more tensor parallelism is needed",
    zh="在 {tp} 张 {gpu} 上单路序列也只有 {rate} token/s，低于要求的 {asked}：需要更快的卡或更高的张量并行",
)
_TP_COMM = Message(
    "serving_estimate.tp_not_modelled",
    en="tensor parallel {tp}: communication between the GPUs is not modelled, so the rate is optimistic",
    zh="张量并行 {tp}：未计入卡间通信，估算的速率偏乐观",
)
_MOE = Message(
    "serving_estimate.moe",
    en="mixture of experts: every expert's weights are counted as read each step",
    zh="混合专家模型：按每一步读取全部专家权重计算",
)
_RATES = Message(
    "serving_estimate.rates",
    en="{gpu}: {bandwidth} GB/s at {bw_eff} efficiency for decoding, {tflops} dense {precision} TFLOPS at "
    "{flops_eff} for prefill",
    zh="{gpu}：解码按显存带宽 {bandwidth} GB/s 的 {bw_eff} 计，预填充按 {precision} 稠密算力 {tflops} TFLOPS 的 "
    "{flops_eff} 计",
)
_REQUEST = Message(
    "serving_estimate.request",
    en="{prompt} prompt + {output} output tokens per request; each user streams at least {speed} tokens/s",
    zh="每个请求输入 {prompt} + 输出 {output} token；每个用户至少 {speed} token/s",
)
_BATCH = Message(
    "serving_estimate.batch",
    en="batch {batch} per replica, limited by {limit}",
    zh="每个副本并发 {batch} 路，受{limit:batch_limit}限制",
)
_BATCH_SCHEDULER = Message(
    "serving_estimate.batch_scheduler",
    en="batch {batch} per replica, limited by scheduler (vLLM max_num_seqs {most})",
    zh="每个副本并发 {batch} 路，受调度上限限制（vLLM max_num_seqs {most}）",
)
_HEADROOM = Message(
    "serving_estimate.headroom",
    en="{headroom} headroom over the peak; {gpus} GPUs per server",
    zh="在峰值之上留 {headroom} 余量；每台服务器 {gpus} 张卡",
)
_NO_RATE = Message(
    "serving_estimate.no_rate",
    en="no request rate given: the rate one replica sustains",
    zh="未给出请求速率：按一个副本能承受的速率计",
)
_ROOFLINE = Message(
    "serving_estimate.roofline",
    en="a roofline estimate: measure tokens/s per GPU under your load (vLLM benchmark_serving) to replace it",
    zh="这是屋顶线估算：请在自己的负载下实测每卡 token/s（vLLM benchmark_serving）来替代它",
)


class ServingEstimateInput(InferenceMemoryInput):
    """A request rate and the shape of a request, for a model on a catalog GPU."""

    requests_per_second: float | None = Field(
        default=None,
        gt=0,
        le=1e6,
        description="Requests per second to serve (peak); none: the rate one replica sustains.",
    )
    prompt_tokens: int = Field(default=1000, ge=1, le=1_000_000, description="Input tokens per request.")
    output_tokens: int = Field(default=300, ge=1, le=1_000_000, description="Output tokens per request.")
    tokens_per_second_per_user: float = Field(
        default=20.0,
        gt=0,
        le=10_000,
        description="Streaming speed each user must see (20 tokens/s = 50 ms per output token).",
    )
    bandwidth_efficiency: float = Field(
        default=0.6, gt=0, le=1, description="Share of the memory bandwidth decoding achieves."
    )
    compute_efficiency: float = Field(
        default=0.5, gt=0, le=1, description="Share of the dense tensor FLOPs prefill achieves."
    )
    batch_size: int | None = Field(
        default=None,
        ge=1,
        le=MAX_BATCH * 16,
        description="Sequences decoded together per replica; default the largest that fits memory and the "
        "per-user speed (at most 256).",
    )
    headroom: float = Field(default=0.2, ge=0, le=5, description="Spare capacity over the peak (0.2 = 20%).")
    gpus_per_server: int = Field(default=8, ge=1, le=72, description="GPUs per server.")
    ttft_ms: float | None = Field(
        default=None,
        gt=0,
        le=600_000,
        description="Time-to-first-token target, ms: the replica's tensor parallelism grows (up to a server) "
        "until one prompt's prefill fits it.",
    )


class ServingEstimateOutput(ToolOutput):
    gpu: str
    model: str = Field(default="", description="The model's name.")
    tensor_parallel: int = Field(description="GPUs per model replica.")
    batch: int = Field(description="Sequences decoded together per replica.")
    batch_limit: str = Field(description="What sets the batch: 'memory', 'latency', 'scheduler' or 'given'.")
    step_ms: float = Field(description="Time of one decode step of the batch, ms.")
    prefill_ms_per_request: float
    output_tokens_per_second_per_gpu: float
    requests_per_second_per_replica: float
    demand_output_tokens_per_second: float | None
    output_tokens_per_second: float = Field(
        default=0.0, description="Output tokens/s of all the replicas together (the GPUs counted)."
    )
    replicas: int
    gpus: int
    servers: int
    stream_ceiling_tokens_per_second: float = Field(
        default=0.0,
        description="One stream's decode ceiling at the full memory bandwidth: TP x bandwidth / (weights + "
        "the sequence's KV cache), the bound a single request never exceeds.",
    )
    meets_ttft: bool | None = Field(
        default=None,
        description="Whether one prompt's prefill fits ttft_ms on an idle replica; none: no target.",
    )


def serving_estimate(inp: ServingEstimateInput, catalog: Catalog) -> ServingEstimateOutput:
    """Estimate the GPUs that serve a request rate, from memory bandwidth and FLOPs (no measurement).

    One replica is the smallest tensor-parallel group holding the weights and one sequence of
    prompt + output tokens. A decode step of batch B takes max((weights + B x KV of the average context)
    / (TP x bandwidth x efficiency), 2 x active params x B / (TP x dense TFLOPS x efficiency)); B is the
    largest batch that fits memory, keeps one step under 1 / tokens-per-second-per-user, and is at most
    256. Prefill costs 2 x active params x prompt tokens of FLOPs per request. A replica then serves
    1 / (prefill time + output tokens x step / B) requests per second; replicas = ceil(rate x (1 +
    headroom) / that). Tensor-parallel communication is not modelled, so groups above one GPU are
    optimistic. Weights of a mixture of experts are all read each step (large batches touch every expert).
    """
    if not inp.gpu:
        raise CalculatorInputError("gpu", _NEED_GPU())
    if inp.ttft_ms is None:
        return _estimate(inp, catalog)
    # a time-to-first-token target: prefill splits across the tensor-parallel group, so a slow-compute card
    # meets it with a wider group (fewer, larger replicas); the smallest group that meets it, up to a server
    best = _estimate(inp, catalog)
    tp = best.tensor_parallel
    while (
        best.prefill_ms_per_request > inp.ttft_ms
        and not inp.tensor_parallel
        and tp * 2 <= inp.gpus_per_server
    ):
        tp *= 2
        try:
            best = _estimate(inp.model_copy(update={"tensor_parallel": tp}), catalog)
        except CalculatorInputError:
            continue  # a group size the model's heads do not divide
    meets = best.prefill_ms_per_request <= inp.ttft_ms
    note = _TTFT(
        prompt=f"{inp.prompt_tokens:,}",
        ms=f"{best.prefill_ms_per_request:g}",
        tp=best.tensor_parallel,
        target=f"{inp.ttft_ms:g}",
    )
    return best.model_copy(
        update={
            "meets_ttft": meets,
            "assumptions": [*best.assumptions, note],
            "warnings": best.warnings
            + ([] if meets else [_TTFT_MISSED(target=f"{inp.ttft_ms:g}", tp=best.tensor_parallel)]),
        }
    )


def _estimate(inp: ServingEstimateInput, catalog: Catalog) -> ServingEstimateOutput:
    """The estimate at the input's (or the smallest fitting) tensor parallelism."""
    assert inp.gpu  # checked by serving_estimate
    acc = find_accelerator(catalog, inp.gpu)
    context = inp.prompt_tokens + inp.output_tokens
    memory = inference_memory(
        inp.model_copy(update={"context_tokens": context, "batch": 1, "gpus": None}, deep=True), catalog
    )
    if not memory.fits and memory.gpus_needed is None:
        raise CalculatorInputError("gpu", _TOO_BIG(gpus=64, gpu=acc.name))
    tp = memory.tensor_parallel
    arch = memory.architecture
    weight_bytes = arch.params_b * 1e9 * memory.weight_bytes_per_param
    kv_per_token = memory.kv_bytes_per_token_per_gpu * tp  # the group's KV of one token, copies included
    average_context = inp.prompt_tokens + inp.output_tokens / 2
    bandwidth = tp * acc.memory_bandwidth_gb_s * GB * inp.bandwidth_efficiency
    eight_bit = BYTES_PER_VALUE[inp.weight_precision] <= 1 and acc.fp8_dense_tflops
    tflops = (acc.fp8_dense_tflops if eight_bit else acc.bf16_dense_tflops or acc.fp16_dense_tflops) or 0
    if not tflops:
        raise CalculatorInputError("gpu", _NO_DENSE(gpu=acc.name))
    flops = tp * tflops * 1e12 * inp.compute_efficiency
    active = arch.active_params_b * 1e9

    def step(batch: int) -> float:
        return max(
            (weight_bytes + batch * average_context * kv_per_token) / bandwidth, 2 * active * batch / flops
        )

    memory_batch = max(1, memory.max_batch_per_replica or 1)
    deadline = 1 / inp.tokens_per_second_per_user
    batch, limit = min(memory_batch, MAX_BATCH), "memory" if memory_batch <= MAX_BATCH else "scheduler"
    if inp.batch_size:
        batch, limit = inp.batch_size, "given"
    elif step(1) <= deadline and step(batch) > deadline:
        low, high = 1, batch  # step() grows with the batch: the largest batch still within the deadline
        while low < high:
            middle = (low + high + 1) // 2
            low, high = (middle, high) if step(middle) <= deadline else (low, middle - 1)
        batch, limit = low, "latency"
    step_s = step(batch)
    prefill_s = 2 * active * inp.prompt_tokens / flops
    per_replica = 1 / (prefill_s + inp.output_tokens * step_s / batch)
    if inp.requests_per_second is None:
        # "how many tokens/s can one H100 generate?": one replica's rate, or as many replicas as GPUs given
        replicas = max(1, (inp.gpus or tp) // tp)
    else:
        replicas = math.ceil(inp.requests_per_second * (1 + inp.headroom) / per_replica - 1e-9)
    gpus = replicas * tp
    per_gpu = per_replica * inp.output_tokens / tp
    warnings = []
    if step(1) > deadline:
        warnings.append(
            _SLOW_STREAM(
                rate=f"{1 / step(1):.3g}", tp=tp, gpu=acc.name, asked=f"{inp.tokens_per_second_per_user:g}"
            )
        )
    if tp > 1:
        warnings.append(_TP_COMM(tp=tp))
    if arch.active_params_b < arch.params_b:
        warnings.append(_MOE())
    return ServingEstimateOutput(
        formula=(
            "step = max((weights + batch x avg context x KV/token) / (TP x bandwidth x eff), 2 x active params "
            "x batch / (TP x TFLOPS x eff)); prefill = 2 x active params x prompt / (TP x TFLOPS x eff); "
            "requests/s per replica = 1 / (prefill + output tokens x step / batch); replicas = ceil(rate x "
            "(1 + headroom) / requests/s per replica)"
        ),
        assumptions=[
            _RATES(
                gpu=acc.name,
                bandwidth=f"{acc.memory_bandwidth_gb_s:g}",
                bw_eff=f"{inp.bandwidth_efficiency:.0%}",
                tflops=f"{tflops:g}",
                precision="FP8" if eight_bit else "BF16",
                flops_eff=f"{inp.compute_efficiency:.0%}",
            ),
            _REQUEST(
                prompt=f"{inp.prompt_tokens:,}",
                output=f"{inp.output_tokens:,}",
                speed=f"{inp.tokens_per_second_per_user:g}",
            ),
            _BATCH_SCHEDULER(batch=batch, most=MAX_BATCH)
            if limit == "scheduler"
            else _BATCH(batch=batch, limit=limit),
            _HEADROOM(headroom=f"{inp.headroom:.0%}", gpus=inp.gpus_per_server)
            if inp.requests_per_second is not None
            else _NO_RATE(),
            _ROOFLINE(),
        ],
        warnings=warnings,
        sources=[ROOFLINE, DATABRICKS_MBU, TRTLLM_PERF],
        gpu=acc.name,
        model=arch.name,
        tensor_parallel=tp,
        batch=batch,
        batch_limit=limit,
        step_ms=round_sig(step_s * 1000),
        prefill_ms_per_request=round_sig(prefill_s * 1000),
        output_tokens_per_second_per_gpu=round_sig(per_gpu),
        requests_per_second_per_replica=round_sig(per_replica),
        demand_output_tokens_per_second=round_sig(inp.requests_per_second * inp.output_tokens)
        if inp.requests_per_second is not None
        else None,
        output_tokens_per_second=round_sig(per_replica * inp.output_tokens * replicas),
        replicas=replicas,
        gpus=gpus,
        stream_ceiling_tokens_per_second=round_sig(
            tp * acc.memory_bandwidth_gb_s * GB / (weight_bytes + average_context * kv_per_token)
        ),
        servers=math.ceil(gpus / inp.gpus_per_server),
    )
