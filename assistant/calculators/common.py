"""What every calculator module shares: plans with stated defaults, summaries in two languages, number
formatting, and the trigger-word patterns.

A calculator module (``assistant/calculators/<name>.py``) builds its input from the conversation's
slots (``Plan``, naming every default it assumed) and summarises its output (``Summary``: a direct
sentence and labelled rows in English and Chinese). Every number in a summary is read from the
calculator's output or its validated input; nothing is computed here beyond unit formatting.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field

from assistant.models import ToolCall
from assistant.numbers import ASCII_BOUNDARY
from assistant.slots import Slots
from knowledge.catalog import Catalog, UnknownItemError
from knowledge.text import Language
from tools.common import GPUS_PER_SERVER

DEFAULT_GPU = "h100-sxm"
GPUS_PER_NODE = GPUS_PER_SERVER
PRECISION = {"bf16": "bf16-mixed", "fp16": "fp16-mixed", "fp8": "fp8-mixed", "fp32": "fp32", "tf32": "fp32"}
# what may stand between two words of one trigger ("recommend ... server"); bounded, so that no
# message makes a pattern scan the rest of the text from every position
GAP = ".{0,100}"


def words(*patterns: str) -> re.Pattern[str]:
    """One pattern of alternatives; ``\\b`` looks at ASCII letters and digits only, and ``.*`` between two
    words spans at most ``GAP``, so a pattern's work stays linear in the message."""
    return re.compile(
        "|".join(p.replace(r"\b", ASCII_BOUNDARY).replace(".*", GAP) for p in patterns), re.IGNORECASE
    )


# --- plans ----------------------------------------------------------------------------------------


class Assumed(BaseModel):
    """A default the calculator used because the user did not give the value."""

    en: str
    zh: str
    setting: bool = Field(
        default=False,
        description="A job setting (sharding, recomputation, micro-batch) that a fitted plan may change.",
    )

    def text(self, language: Language) -> str:
        return self.zh if language == "zh" else self.en


def assumed(en: str, zh: str, *, setting: bool = False) -> Assumed:
    return Assumed(en=en, zh=zh, setting=setting)


class Plan(BaseModel):
    """One calculator call, before it runs."""

    tool: str
    payload: dict[str, Any]
    assumed: list[Assumed] = Field(default_factory=list)
    ask: Assumed | None = Field(
        default=None, description="The missing input that would change the result most."
    )


def model_into(slots: Slots, payload: dict[str, Any]) -> bool:
    """Put the model size into ``payload``; False when the conversation has none."""
    if slots.model:
        payload["model"] = slots.model
    if slots.params_b:
        payload["params_b"] = slots.params_b
    if slots.active_params_b:
        payload["active_params_b"] = slots.active_params_b
    return bool(slots.model or slots.params_b)


def card_memory_into(slots: Slots, payload: dict[str, Any], assumptions: list[Assumed]) -> None:
    """A catalog card with memory the user gave it that no catalog member has ("魔改 4090 48G", "4090 48GB"): the
    fit is checked against that memory, and the answer says so."""
    if payload.get("gpu") and slots.card_memory_gb and "gpu_memory_gb" not in payload:
        payload["gpu_memory_gb"] = slots.card_memory_gb
        gb = num(slots.card_memory_gb)
        assumptions.append(assumed(f"{gb} GB per card, as you gave it", f"每卡 {gb} GB（用户给定）"))


def gpu_into(slots: Slots, payload: dict[str, Any], assumptions: list[Assumed], field: str = "gpu") -> None:
    if slots.gpu:
        payload[field] = slots.gpu
    elif slots.unknown_gpu or (slots.card_memory_gb and field == "gpu"):
        # a card the catalog does not hold is never replaced by a default: its memory if stated, else none
        if slots.card_memory_gb and field == "gpu":
            payload["gpu_memory_gb"] = slots.card_memory_gb
    else:
        payload[field] = DEFAULT_GPU
        assumptions.append(
            assumed(
                "GPU: H100 SXM (the most common training GPU today)", "GPU：H100 SXM（目前最常用的训练卡）"
            )
        )


def gpus_of(slots: Slots, catalog: Catalog) -> int | None:
    """The GPUs the user described: counted, or servers x GPUs per server (8, or the catalog server's)."""
    if slots.gpu_count:
        return slots.gpu_count
    if slots.servers:
        per = slots.gpus_per_node or (
            catalog.server(slots.server).accelerator_count if slots.server else GPUS_PER_NODE
        )
        return slots.servers * per
    if slots.server:
        # "one GB200 NVL72 rack", "a DGX B200": one of the machine named, with the GPUs it holds
        return catalog.server(slots.server).accelerator_count
    return None


def power_into(slots: Slots, payload: dict[str, Any], assumptions: list[Assumed]) -> None:
    """The power the user stated: per server, for the whole fleet (at the wall or IT), and the PUE."""
    if slots.server:
        payload["server"] = slots.server
        payload.pop("gpu", None)
        assumptions[:] = [a for a in assumptions if not a.en.startswith("GPU:")]
    if slots.server_power_kw:
        payload["server_power_kw"] = slots.server_power_kw
        if not slots.server:
            payload["servers"] = slots.servers or max(
                1, math.ceil(payload.get("gpus", GPUS_PER_NODE) / GPUS_PER_NODE)
            )
    if slots.power_kw:
        payload["wall_power_kw" if slots.power_at_wall else "it_power_kw"] = slots.power_kw
    elif slots.gpu_power_kw:
        # "0.7 kW per GPU all-in": the fleet's IT load is that share times the GPUs
        gpus = payload.get("gpus") or slots.gpu_count or GPUS_PER_NODE
        payload["it_power_kw"] = round(gpus * slots.gpu_power_kw, 6)
        payload.pop("server", None)
        assumptions.append(
            assumed(
                f"IT load {gpus:,} GPUs x {slots.gpu_power_kw:g} kW each, all in (the per-GPU figure given)",
                f"IT 负载按 {gpus:,} 张卡 × 每卡 {slots.gpu_power_kw:g} kW（所给的每卡全口径功耗）",
            )
        )
    if slots.always_on_kw and not slots.power_at_wall:
        payload["always_on_kw"] = slots.always_on_kw  # "网络存储另外常年 6kW": drawn all year
    if slots.pue:
        payload["pue"] = slots.pue


def nodes(slots: Slots) -> int:
    return max(1, math.ceil((slots.gpu_count or GPUS_PER_NODE) / (slots.gpus_per_node or GPUS_PER_NODE)))


def to_usd(amount: float, currency: str | None, catalog: Catalog) -> float:
    return amount / catalog.defaults.usd_to_cny if currency == "CNY" else amount


ASK_TOKENS = Assumed(en="How many training tokens?", zh="训练数据有多少 token？")


def tokens_into(
    slots: Slots, payload: dict[str, Any], assumptions: list[Assumed], catalog: Catalog | None = None
) -> None:
    published = (
        catalog.model(slots.model).training_tokens_t
        if catalog and slots.model and not slots.finetune
        else None
    )
    if slots.tokens_b:
        payload["tokens_b"] = slots.tokens_b * (slots.epochs or 1)
        if slots.epochs and slots.epochs != 1:
            # "数据 50 亿 token 跑 3 个 epoch": every pass over the data is work again
            assumptions.append(
                assumed(f"{num(slots.epochs)} epochs over the data", f"数据训练 {num(slots.epochs)} 个 epoch")
            )
    elif published:
        # "how long to train GPT-3 175B on 1,024 A100s?": on the data it was trained on
        assert slots.model is not None
        assert catalog is not None
        payload["tokens_b"] = published * 1000
        name = catalog.model(slots.model).name
        assumptions.append(
            assumed(
                f"tokens: the {published:g}T {name} was trained on (published)",
                f"训练 token 数：{name} 公开的训练数据量 {published:g}T",
            )
        )
    else:
        assumptions.append(
            assumed(
                "tokens: Chinchilla-optimal, 20 per parameter",
                "训练 token 数：按 Chinchilla 最优，每参数 20 个",
            )
        )


def _achieved_mfu(slots: Slots, catalog: Catalog | None) -> tuple[float, float] | None:
    """The MFU a measured TFLOP/s per GPU stands for on the card named, and that card's dense BF16 peak."""
    if not slots.achieved_tflops or not slots.gpu or catalog is None:
        return None
    try:
        peak = catalog.accelerator(slots.gpu).bf16_dense_tflops
    except UnknownItemError:
        return None
    if not peak or slots.achieved_tflops > peak:
        return None
    return round(slots.achieved_tflops / peak, 4), peak


def compute_fields(
    slots: Slots, payload: dict[str, Any], assumptions: list[Assumed], catalog: Catalog | None = None
) -> None:
    tokens_into(slots, payload, assumptions, catalog)
    gpu_into(slots, payload, assumptions)
    achieved = _achieved_mfu(slots, catalog)
    if slots.mfu:
        payload["mfu"] = slots.mfu
        payload["mfu_low"] = min(0.35, slots.mfu)
        payload["mfu_high"] = max(0.50, slots.mfu)
    elif achieved:
        # "we measured ~410 TFLOPS/gpu achieved", "按实测 280T 算力（不是峰值）": that is the work each GPU does
        mfu, peak = achieved
        payload.update(mfu=mfu, mfu_low=mfu, mfu_high=mfu)
        assumptions.append(
            assumed(
                f"MFU {mfu:.0%}: the {num(slots.achieved_tflops)} TFLOP/s measured per GPU of its {num(peak)} dense peak",
                f"MFU {mfu:.0%}：实测每卡 {num(slots.achieved_tflops)} TFLOP/s，对应其稠密峰值 {num(peak)}",
            )
        )
    else:
        assumptions.append(assumed("MFU 40% (range 35-50%)", "MFU 40%（区间 35%-50%）"))
    if efficiency := slots.scaling_efficiency:
        # "add 64 GPUs at 90% scaling efficiency": each GPU then does 90% of the work it did
        base = payload.get("mfu", 0.40)
        payload.update(
            mfu=round(base * efficiency, 6),
            mfu_low=round(payload.get("mfu_low", 0.35) * efficiency, 6),
            mfu_high=round(payload.get("mfu_high", 0.50) * efficiency, 6),
        )
        assumptions.append(
            assumed(
                f"{efficiency:.0%} scaling efficiency: MFU {base:.0%} x {efficiency:.0%} = {base * efficiency:.0%}",
                f"扩展效率 {efficiency:.0%}：MFU {base:.0%} × {efficiency:.0%} = {base * efficiency:.0%}",
            )
        )
    if slots.seq_len:
        payload["seq_len"] = slots.seq_len
    if slots.precision in {"fp8", "fp16", "tf32"}:
        payload["precision"] = slots.precision
    if slots.precision == "fp8" and not slots.mfu:
        # FP8 seldom doubles BF16's speed: MFU against the twice-as-high FP8 peak is planned lower
        payload.update(mfu=0.3, mfu_low=0.25, mfu_high=0.4)
        assumptions[:] = [a for a in assumptions if not a.en.startswith("MFU 40%")]
        assumptions.append(
            assumed(
                "FP8: MFU 30% of the FP8 peak (range 25-40%), about 1.5x the BF16 speed at 40%; an assumption, "
                "measure your run",
                "FP8：按 FP8 峰值的 MFU 30% 估算（区间 25%-40%），约为 BF16（MFU 40%）速度的 1.5 倍；这是假设，请以实测为准",
            )
        )


def amount_in(value: float, currency: str | None, target: str, catalog: Catalog) -> float:
    """An amount given in ``currency`` (None: USD) for a payload in ``target``: as given when they agree,
    else in USD (a payload mixes currencies only in USD)."""
    return value if target == (currency or "USD") else to_usd(value, currency, catalog)


def money_into(slots: Slots, payload: dict[str, Any], catalog: Catalog) -> None:
    """One currency for every money input: CNY only when every given amount is in CNY."""
    given = [(slots.electricity_price_per_kwh, slots.electricity_currency),
             (slots.cloud_price_per_gpu_hour, slots.cloud_price_currency)]  # fmt: skip
    currencies = {c for v, c in given if v is not None}
    currency = "CNY" if currencies == {"CNY"} else "USD"
    payload["currency"] = currency
    if slots.usd_to_cny:
        payload["usd_to_cny"] = slots.usd_to_cny  # "in RMB, use 7.2": the user's rate, not the catalog's
    if slots.electricity_price_per_kwh is not None:
        payload["electricity_price_per_kwh"] = amount_in(
            slots.electricity_price_per_kwh, slots.electricity_currency, currency, catalog
        )
    if slots.cloud_price_per_gpu_hour is not None:
        payload["cloud_price_per_gpu_hour"] = amount_in(
            slots.cloud_price_per_gpu_hour, slots.cloud_price_currency, currency, catalog
        )


# --- summaries ------------------------------------------------------------------------------------


class Row(BaseModel):
    en: str
    zh: str
    value: str
    value_zh: str | None = None  # a value with words in it, in Chinese

    def label(self, language: Language) -> str:
        return self.zh if language == "zh" else self.en

    def shown(self, language: Language) -> str:
        return self.value_zh if language == "zh" and self.value_zh else self.value


class Brief(BaseModel):
    """One card's result in a few words, for a lead that compares cards ("H20: 2 cards")."""

    card: str
    en: str
    zh: str
    rank: float = Field(description="Lower is better: cards needed, or per-GPU memory share.")
    fits: bool = Field(description="Does it on the cards given (one card when none were given).")
    count: int | None = Field(default=None, description="Cards needed, when that is the result.")
    per_card: float | None = Field(
        default=None,
        description="Concurrent sequences each card carries (a serving plan's replicas / cards).",
    )
    card_tflops: float | None = Field(
        default=None,
        description="Dense BF16 TFLOPS of one card, where a budget's lead weighs cards by price.",
    )


class Summary(BaseModel):
    headline_en: str
    headline_zh: str
    inputs: list[Row]
    results: list[Row]
    brief: Brief | None = None
    settled: bool = Field(
        default=False,
        description="The table shows the plan the headline recommends, not the settings first assumed: "
        "assumptions about those settings no longer describe it.",
    )

    def headline(self, language: Language) -> str:
        return self.headline_zh if language == "zh" else self.headline_en


def num(value: float | int | None, digits: int = 3) -> str:
    """A readable number: thousands separators, no spurious decimals, 3.15e23 for huge values."""
    if value is None:
        return "-"
    v = float(value)
    if v != 0 and (abs(v) >= 1e12 or abs(v) < 1e-3):
        mantissa, exponent = f"{v:.{digits - 1}e}".split("e")
        return f"{mantissa}e{int(exponent)}"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    if v == int(v):
        return f"{int(v)}"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(v))))
    text = f"{v:,.{decimals}f}"  # 999.96 rounds to "1,000"
    # only decimals lose their trailing zeros: "110" must stay 110
    return text.rstrip("0").rstrip(".") if "." in text else text


def span(low: float | None, high: float | None) -> str:
    """``656-936``, or one number when both ends round to the same text."""
    a, b = num(low), num(high)
    return a if a == b else f"{a}-{b}"


def usd(value: float | None) -> str:
    """``$1,156,000``, or ``-`` when there is no price (never ``$-``)."""
    return "-" if value is None else f"${num(value)}"


def duration(seconds: float, zh: bool = False) -> str:
    """120 s, 3.3 min, 1.5 h: the unit a person would say."""
    if seconds < 90:
        return f"{num(seconds)} 秒" if zh else f"{num(seconds)} s"
    if seconds < 5400:
        return f"{num(seconds / 60)} 分钟" if zh else f"{num(seconds / 60)} min"
    return f"{num(seconds / 3600)} 小时" if zh else f"{num(seconds / 3600)} h"


def pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.0f}%"


def money(amount: dict[str, Any] | None, first: str = "USD") -> str:
    """``$1,000 (¥7,100)``, or ``¥7,100 ($1,000)`` with ``first="CNY"``."""
    if not amount:
        return "-"
    usd, cny = f"${num(amount.get('usd'))}", f"¥{num(amount.get('cny'))}"
    return f"{cny} ({usd})" if first == "CNY" else f"{usd} ({cny})"


@dataclass(frozen=True)
class View:
    """How the reader wants a result put: the quantity they asked for first, in the currency they asked."""

    asked: str | None = None
    currency: str | None = None  # "USD" or "CNY" when the reader named one
    period: str | None = None  # "month" or "year": a bill asked per month is shown per month
    states_only: bool = False  # "not counting activations": the model states alone are the question
    rank_by: str | None = None  # what cards are judged by ("mainly for serving": memory bandwidth)
    component: str | None = None  # "just the optimizer state", "activation memory": that part of memory first
    ethernet_team: bool = False  # "our team only knows Ethernet", "预算紧": a fabric choice leans to RoCE
    usd_to_cny: float | None = None  # the rate amounts were converted at: the user's, else the catalog's
    # a run with no count of GPUs or servers given, of pre-training or on cards spoken of in the plural ("can we
    # fine-tune 70B on H100s?"): it runs on as many as it needs, never on one
    uncounted_run: bool = False

    def yuan_rate(self) -> float | None:
        """The rate to show dollar results in yuan at, when the reader's amounts were in yuan."""
        return self.usd_to_cny if self.currency == "CNY" else None

    def first(self, language: Language | None = None) -> str:
        """The currency to show first: the one asked for, else the reader's own (yuan for Chinese)."""
        return self.currency or ("CNY" if language == "zh" else "USD")


def model_name(inp: dict[str, Any], out: dict[str, Any]) -> str:
    arch = out.get("workload", {}).get("architecture") or out.get("architecture") or {}
    if isinstance(arch, dict) and arch.get("name") and not arch.get("derived"):
        return str(arch["name"])
    size = inp.get("params_b") or arch.get("params_b") if isinstance(arch, dict) else inp.get("params_b")
    if size and (active := inp.get("active_params_b")) and active < size:
        return f"{num(size)}B-A{num(active)}B MoE"  # Qwen's naming, the same in both languages
    return f"{num(size)}B" if size else str(inp.get("model") or "the model")


def generic_summary(call: ToolCall, view: View | None = None) -> Summary:
    verdict = str(call.output.get("verdict") or call.output.get("recommendation") or call.name)
    return Summary(headline_en=verdict, headline_zh=verdict, inputs=[], results=[])


# --- the module contract --------------------------------------------------------------------------


@dataclass(frozen=True)
class Calculator:
    """Everything the assistant needs to reach one calculator of ``tools.registry``."""

    name: str
    triggers: re.Pattern[str] = field(repr=False)  # words that ask for its result, EN and ZH
    build: Callable[[Slots, Catalog], Plan | None] = field(repr=False)  # None: the slots cannot feed it
    summarize: Callable[[ToolCall, View], Summary] = field(repr=False)
    title: tuple[str, str] = ("", "")  # what its card is headed, English and Chinese ("Host RAM", "主机内存")
    answers: frozenset[str] = frozenset()  # the quantities asked that it answers: days, gpus, cost, ...
    needs_model: bool = False  # nothing to compute without a model size or preset
    exemplars_en: tuple[str, ...] = ()  # questions it answers, as users write them
    exemplars_zh: tuple[str, ...] = ()
    follow_ups_en: tuple[str, ...] = ()
    follow_ups_zh: tuple[str, ...] = ()

    def heading(self, language: Language) -> str:
        return self.title[language == "zh"]

    def follow_ups(self, language: Language) -> list[str]:
        return list(self.follow_ups_zh if language == "zh" else self.follow_ups_en)
