"""The compute-optimal model a compute budget trains: money, GPU-hours, GPUs x days or FLOPs in; the
Chinchilla-optimal parameter count and tokens out."""

from __future__ import annotations

import math
from typing import Literal

from pydantic import Field, model_validator

from knowledge.catalog import Catalog
from tools.common import (
    CalculatorInputError,
    Reference,
    ToolInput,
    ToolOutput,
    find_accelerator,
    peak_tflops,
    round_sig,
)
from tools.compute import CHINCHILLA, CHINCHILLA_TOKENS_PER_PARAM, KAPLAN
from tools.cost import MoneyFields, cheapest_on_demand
from tools.messages import Message

_ONE_BUDGET = Message(
    "compute_optimal.one_budget",
    en="give exactly one of budget, gpu_hours, gpus with days, or training_flops",
    zh="budget、gpu_hours、gpus 加 days、training_flops 请给且只给其中一项",
)
_NO_CLOUD_PRICE = Message(
    "compute_optimal.no_cloud_price",
    en="the catalog has no on-demand cloud price for {gpu}; give price_per_gpu_hour",
    zh="目录中没有 {gpu} 的按需云上价格；请给出 price_per_gpu_hour",
)
_PRICE_GIVEN = Message(
    "compute_optimal.price_given",
    en="{rate} {currency} per GPU-hour (given)",
    zh="每 GPU 小时 {rate} {currency:currency}（用户给定）",
)
_CHEAPEST = Message(
    "compute_optimal.cheapest",
    en="cheapest current catalog on-demand price: {price}",
    zh="目录中当前最便宜的按需价格：{price}",
)
_PEAK_AT_MFU = Message(
    "compute_optimal.peak_at_mfu",
    en="{gpu}: {peak} dense {precision} TFLOP/s at {mfu} MFU",
    zh="{gpu}：稠密 {precision} 算力 {peak} TFLOP/s，MFU {mfu}",
)
_MODEL_FIXED = Message(
    "compute_optimal.model_fixed",
    en="model fixed at {params}B parameters (given); tokens = C / (6 N)",
    zh="模型规模固定为 {params}B 参数（用户给定）；token 数 = C / (6N)",
)
_TOKENS_PER_PARAM = Message(
    "compute_optimal.tokens_per_param",
    en="{k} tokens per parameter (Chinchilla); more tokens per parameter give a smaller model that is "
    "cheaper to serve (Llama 3 8B saw about 1,900)",
    zh="每参数 {k} 个 token（Chinchilla）；每参数 token 更多，模型更小、推理更省（Llama 3 8B 约为 1,900）",
)

SECONDS_PER_HOUR = 3600.0


class ComputeOptimalInput(ToolInput, MoneyFields):
    """A compute budget in one of four forms, and the GPUs it buys time on."""

    budget: float | None = Field(
        default=None,
        gt=0,
        le=1e12,
        description="Money for GPU time in `currency` (with a price per GPU-hour).",
    )
    price_per_gpu_hour: float | None = Field(
        default=None,
        gt=0,
        le=10_000,
        description="Price per GPU-hour in `currency`; default the catalog's cheapest on-demand.",
    )
    gpu_hours: float | None = Field(default=None, gt=0, le=1e12, description="GPU-hours available.")
    gpus: int | None = Field(default=None, ge=1, le=1_000_000, description="GPUs available (with days).")
    days: float | None = Field(default=None, gt=0, le=3650, description="Days the GPUs run (with gpus).")
    training_flops: float | None = Field(default=None, gt=0, le=1e32, description="Total training FLOPs.")
    gpu: str = Field(default="h100-sxm", description="Catalog GPU, e.g. 'H100', 'A100', 'MI300X'.")
    precision: Literal["bf16", "fp16", "fp8"] = Field(
        default="bf16", description="Training compute precision."
    )
    mfu: float = Field(default=0.4, gt=0, le=1, description="Model FLOPs utilisation.")
    params_b: float | None = Field(
        default=None,
        gt=0,
        le=100_000,
        description="A model size fixed in advance, billions: the tokens the budget trains it on (D = C / 6N), "
        "not the compute-optimal size.",
    )
    tokens_per_param: float = Field(
        default=CHINCHILLA_TOKENS_PER_PARAM,
        gt=0,
        le=10_000,
        description="Tokens per parameter (Chinchilla: 20).",
    )

    @model_validator(mode="after")
    def _one_budget(self) -> ComputeOptimalInput:
        given = [
            self.budget is not None,
            self.gpu_hours is not None,
            self.gpus is not None and self.days is not None,
            self.training_flops is not None,
        ]
        if sum(given) != 1:
            raise ValueError(_ONE_BUDGET())
        return self


class ComputeOptimalOutput(ToolOutput):
    training_flops: float
    gpu_hours: float | None = Field(description="GPU-hours of the budget (None when FLOPs were given).")
    price_per_gpu_hour: float | None = Field(description="The price used, in `currency` per GPU-hour.")
    price_per_gpu_hour_usd: float | None
    params_b: float = Field(
        description="Compute-optimal parameters, billions: sqrt(C / (6 x tokens per param))."
    )
    tokens_b: float = Field(description="Compute-optimal training tokens, billions: tokens per param x N.")
    days: float | None = Field(description="Wall-clock days when the GPU count is known.")


def compute_optimal(inp: ComputeOptimalInput, catalog: Catalog) -> ComputeOptimalOutput:
    """The largest model a compute budget trains compute-optimally (Chinchilla, Hoffmann et al. 2022).

    Budget: money / price per GPU-hour (the catalog's cheapest on-demand price unless given), GPU-hours,
    GPUs x days x 24, or total FLOPs. FLOPs C = GPU-hours x 3,600 x dense peak x MFU. With training cost
    C = 6 N D (Kaplan et al. 2020) and D = k N tokens (k = 20 for Chinchilla), N = sqrt(C / (6 k)) and
    D = k N. Returns N, D, the FLOPs and GPU-hours, and days when the GPU count is known.
    """
    acc = find_accelerator(catalog, inp.gpu)
    peak = peak_tflops(acc, inp.precision) * 1e12
    assumptions: list[str] = []
    sources: list[Reference] = [CHINCHILLA, KAPLAN]
    rate = usd_price = None
    if inp.budget is not None:
        if inp.price_per_gpu_hour is not None:
            rate = inp.price_per_gpu_hour
            assumptions.append(_PRICE_GIVEN(rate=f"{rate:g}", currency=inp.currency))
        else:
            cheapest = cheapest_on_demand(catalog, acc)
            if cheapest is None:
                raise CalculatorInputError("price_per_gpu_hour", _NO_CLOUD_PRICE(gpu=acc.name))
            usd, described, cited = cheapest
            usd_to_cny = inp.usd_to_cny or catalog.defaults.usd_to_cny
            rate = usd if inp.currency == "USD" else usd * usd_to_cny
            assumptions.append(_CHEAPEST(price=described))
            sources += cited
        usd_price = rate if inp.currency == "USD" else rate / (inp.usd_to_cny or catalog.defaults.usd_to_cny)
        gpu_hours: float | None = inp.budget / rate
    elif inp.gpu_hours is not None:
        gpu_hours = inp.gpu_hours
    elif inp.gpus and inp.days:
        gpu_hours = inp.gpus * inp.days * 24
    else:
        gpu_hours = None
    if gpu_hours is not None:
        flops = gpu_hours * SECONDS_PER_HOUR * peak * inp.mfu
        assumptions.append(
            _PEAK_AT_MFU(
                gpu=acc.name, peak=f"{peak / 1e12:g}", precision=inp.precision.upper(), mfu=f"{inp.mfu:.0%}"
            )
        )
    else:
        assert inp.training_flops is not None
        flops = inp.training_flops
    k = inp.tokens_per_param
    if inp.params_b is not None:
        # the model is chosen: the budget buys its tokens, C = 6 N D
        params = inp.params_b * 1e9
        tokens = flops / (6 * params)
        assumptions.append(_MODEL_FIXED(params=f"{inp.params_b:g}"))
    else:
        params = math.sqrt(flops / (6 * k))
        tokens = k * params
        assumptions.append(_TOKENS_PER_PARAM(k=f"{k:g}"))
    days = None
    if gpu_hours is not None and (gpus := inp.gpus) is not None:
        days = gpu_hours / gpus / 24
    return ComputeOptimalOutput(
        formula=(
            "C = GPU-hours x 3600 x peak x MFU; C = 6 N D; D = C / (6 N) for a given N"
            if inp.params_b is not None
            else "C = GPU-hours x 3600 x peak x MFU; C = 6 N D; D = k N; N = sqrt(C / (6 k))"
        ),
        assumptions=assumptions,
        warnings=[],
        sources=sources,
        training_flops=round_sig(flops),
        gpu_hours=round_sig(gpu_hours) if gpu_hours is not None else None,
        price_per_gpu_hour=round_sig(rate) if rate is not None else None,
        price_per_gpu_hour_usd=round_sig(usd_price) if usd_price is not None else None,
        params_b=round_sig(params / 1e9),
        tokens_b=round_sig(tokens / 1e9),
        days=round_sig(days) if days is not None else None,
    )
