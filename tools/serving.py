"""Serving economics from measured throughput: what a million output tokens cost, and how many servers a
peak demand needs.

Throughput decides both, and teams measure it on their own model and stack (vLLM, TensorRT-LLM, SGLang);
these calculators take that measurement as given rather than predicting it.
"""

from __future__ import annotations

import math

from pydantic import Field, model_validator

from knowledge.catalog import Catalog
from tools.common import Reference, ToolInput, ToolOutput, round_sig
from tools.cost.shared import Currency, Money, MoneyFields, _fx, _Notes
from tools.messages import Message

VLLM_BENCH = Reference(
    title="vLLM documentation, Benchmarking: throughput is measured in output tokens/s for a workload",
    url="https://docs.vllm.ai/en/latest/contributing/benchmarks.html",
)

_ONE_RATE = Message(
    "serving.one_rate",
    en="give exactly one of tokens_per_second_per_server or tokens_per_second_per_gpu",
    zh="tokens_per_second_per_server 和 tokens_per_second_per_gpu 请给且只给其中一个",
)
_SERVER_RATE = Message(
    "serving.server_rate_per_gpu",
    en="{rate} output tokens/s per server (given) over {gpus} GPUs = {per_gpu} per GPU",
    zh="每台服务器每秒输出 {rate} token（用户给定），分摊到 {gpus} 张卡为每卡 {per_gpu}",
)
_GPU_RATE = Message(
    "serving.gpu_rate",
    en="{rate} output tokens/s per GPU (given)",
    zh="每卡每秒输出 {rate} token（用户给定）",
)
_BUSY = Message("serving.busy", en="busy {share} of paid hours", zh="付费时长中有 {share} 的时间在处理请求")
_SERVER_RATE_GIVEN = Message(
    "serving.server_rate_given",
    en="{rate} output tokens/s per server (given)",
    zh="每台服务器每秒输出 {rate} token（用户给定）",
)
_SERVER_RATE_FROM_GPU = Message(
    "serving.server_rate_from_gpu",
    en="{rate} output tokens/s per server = {gpus} GPUs x {per_gpu}",
    zh="每台服务器每秒输出 {rate} token = {gpus} 张卡 × 每卡 {per_gpu}",
)
_HEADROOM = Message("serving.headroom", en="headroom {share} over the peak", zh="在峰值之上留 {share} 余量")
_LITTLE_SLACK = Message(
    "serving.little_slack",
    en="{servers} servers run at {load} of capacity at the peak: little slack",
    zh="{servers} 台服务器在峰值时负载达 {load}：余量很小",
)


def _check_one_rate(per_server: float | None, per_gpu: float | None) -> None:
    """A measured rate is per server or per GPU: exactly one of the two."""
    if (per_server is None) == (per_gpu is None):
        raise ValueError(_ONE_RATE())


class ServingCostInput(ToolInput, MoneyFields):
    """A price per GPU-hour and the output tokens per second one GPU (or one server) sustains."""

    price_per_gpu_hour: float = Field(gt=0, le=10_000, description="Price per GPU-hour in `currency`.")
    tokens_per_second_per_gpu: float | None = Field(
        default=None, gt=0, le=1e7, description="Output tokens/s one GPU sustains under your load (measured)."
    )
    tokens_per_second_per_server: float | None = Field(
        default=None, gt=0, le=1e9, description="Output tokens/s one server sustains (measured)."
    )
    gpus_per_server: int = Field(default=8, ge=1, le=72, description="GPUs per server, for a server rate.")
    utilization: float = Field(
        default=1.0, gt=0, le=1, description="Share of paid hours the GPU is busy at that rate."
    )

    @model_validator(mode="after")
    def _one_rate(self) -> ServingCostInput:
        _check_one_rate(self.tokens_per_second_per_server, self.tokens_per_second_per_gpu)
        return self


class ServingCostOutput(ToolOutput):
    tokens_per_second_per_gpu: float = Field(description="Output tokens/s per GPU used.")
    tokens_per_hour: float = Field(description="Output tokens per busy GPU-hour.")
    cost_per_million_tokens: Money
    currency: Currency


def serving_cost(inp: ServingCostInput, catalog: Catalog) -> ServingCostOutput:
    """Cost per million output tokens from a GPU-hour price and a measured tokens/s per GPU or per server.

    Tokens/s per GPU = per-server rate / GPUs per server when a server rate is given; tokens per hour =
    tokens/s x 3,600 x utilisation; cost per 1M tokens = price per GPU-hour / tokens per hour x 10^6. Shown
    in USD and CNY at the catalog's dated exchange rate (or yours).
    """
    notes = _Notes()
    fx = _fx(inp, catalog, notes)
    if inp.tokens_per_second_per_server is not None:
        per_gpu = inp.tokens_per_second_per_server / inp.gpus_per_server
        notes.assumptions.append(
            _SERVER_RATE(
                rate=f"{inp.tokens_per_second_per_server:g}",
                gpus=inp.gpus_per_server,
                per_gpu=f"{per_gpu:.4g}",
            )
        )
    else:
        per_gpu = inp.tokens_per_second_per_gpu or 0.0
        notes.assumptions.append(_GPU_RATE(rate=f"{per_gpu:g}"))
    if inp.utilization < 1:
        notes.assumptions.append(_BUSY(share=f"{inp.utilization:.0%}"))
    per_hour = per_gpu * 3600 * inp.utilization
    cost = fx.to_usd(inp.price_per_gpu_hour) / per_hour * 1e6
    return ServingCostOutput(
        formula="cost per 1M tokens = price per GPU-hour / (tokens/s per GPU x 3600 x utilisation) x 1e6",
        assumptions=notes.assumptions,
        warnings=[],
        sources=[VLLM_BENCH, *notes.sources],
        tokens_per_second_per_gpu=round_sig(per_gpu),
        tokens_per_hour=round_sig(per_hour),
        cost_per_million_tokens=fx.money(cost, 4),
        currency=inp.currency,
    )


class ServingCapacityInput(ToolInput):
    """Peak demand in output tokens/s and what one server (or GPU) sustains."""

    demand_tokens_per_second: float = Field(gt=0, le=1e10, description="Peak output tokens/s to serve.")
    tokens_per_second_per_server: float | None = Field(
        default=None, gt=0, le=1e9, description="Output tokens/s one server sustains (measured)."
    )
    tokens_per_second_per_gpu: float | None = Field(
        default=None, gt=0, le=1e8, description="Output tokens/s one GPU sustains (measured)."
    )
    gpus_per_server: int = Field(default=8, ge=1, le=72, description="GPUs per server.")
    headroom: float = Field(
        default=0.0, ge=0, le=5, description="Spare capacity on top of the peak (0.2 = 20%)."
    )

    @model_validator(mode="after")
    def _one_rate(self) -> ServingCapacityInput:
        _check_one_rate(self.tokens_per_second_per_server, self.tokens_per_second_per_gpu)
        return self


class ServingCapacityOutput(ToolOutput):
    needed_tokens_per_second: float = Field(description="Peak x (1 + headroom).")
    servers: int = Field(description="Whole servers.")
    gpus: int
    exact_servers: float
    gpus_needed: int | None = Field(
        default=None,
        description="With a per-GPU rate: ceil(needed / tokens/s per GPU), before whole servers.",
    )


def serving_capacity(inp: ServingCapacityInput, catalog: Catalog) -> ServingCapacityOutput:
    """How many servers (and GPUs) serve a peak output-token demand with headroom, from a measured rate.

    Servers = ceil(peak x (1 + headroom) / tokens/s per server), where tokens/s per server is measured or
    tokens/s per GPU x GPUs per server.
    """
    per_server = (
        inp.tokens_per_second_per_server or (inp.tokens_per_second_per_gpu or 0) * inp.gpus_per_server
    )
    needed = inp.demand_tokens_per_second * (1 + inp.headroom)
    exact = needed / per_server
    servers = math.ceil(exact - 1e-9)
    return ServingCapacityOutput(
        formula="servers = ceil(peak tokens/s x (1 + headroom) / tokens/s per server)",
        assumptions=[
            _SERVER_RATE_GIVEN(rate=f"{per_server:g}")
            if inp.tokens_per_second_per_server
            else _SERVER_RATE_FROM_GPU(
                rate=f"{per_server:g}", gpus=inp.gpus_per_server, per_gpu=f"{inp.tokens_per_second_per_gpu:g}"
            ),
            _HEADROOM(share=f"{inp.headroom:.0%}"),
        ],
        warnings=(
            [_LITTLE_SLACK(servers=servers, load=f"{needed / (servers * per_server):.0%}")]
            if needed / (servers * per_server) > 0.9 and inp.headroom == 0
            else []
        ),
        sources=[VLLM_BENCH],
        needed_tokens_per_second=round_sig(needed),
        servers=servers,
        gpus=servers * inp.gpus_per_server,
        exact_servers=round_sig(exact),
        gpus_needed=math.ceil(needed / inp.tokens_per_second_per_gpu - 1e-9)
        if inp.tokens_per_second_per_gpu
        else None,
    )
