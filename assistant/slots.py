"""Slot filling: the quantities a sizing question states, read from English or Chinese text.

"70B", "7.5 billion", "700亿参数", "1.8万亿参数", "2T tokens", "2万亿token", "8×H100", "64 H100s",
"8卡A100", "两台8卡H800", "MFU 45%", "$500k", "50万美元", "300万元", "in 30 days", "一个月内"...
Each pattern is a small, tested rule; what no rule matches stays unset, and the caller decides the default.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import cn2an
from pydantic import BaseModel, Field

from knowledge.names import Mention, NameIndex

_CN_DIGITS = "零〇一二两三四五六七八九十百千"
# A number never starts or ends inside a longer run of digits and separators ("1.5.1", "2025-12"), so
# each pattern tries one start per number instead of one per digit: the work stays linear in the text.
_AMOUNT = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"  # "1,024", "1,000,000.5", "45", "1.8"
_START = r"(?<![\d.,])"
_END = r"(?![.,]?\d)"
NUMBER = rf"(?<![\d.,{_CN_DIGITS}])({_AMOUNT}|[{_CN_DIGITS}]+){_END}"
DECIMAL = rf"{_START}(\d+(?:\.\d+)?){_END}"
AMOUNT = rf"{_START}({_AMOUNT}){_END}"
INTEGER = rf"{_START}(\d+){_END}"
_MULTIPLIERS = {
    "k": 1e3, "千": 1e3, "m": 1e6, "million": 1e6, "百万": 1e6, "万": 1e4, "亿": 1e8, "千亿": 1e11,
    "b": 1e9, "bn": 1e9, "billion": 1e9, "十亿": 1e9, "t": 1e12, "trillion": 1e12, "万亿": 1e12,
}  # fmt: skip


class Slots(BaseModel):
    """Quantities stated in a message; ``None`` means not stated."""

    model: str | None = Field(default=None, description="Catalog model preset id, e.g. 'llama-2-70b'.")
    params_b: float | None = Field(default=None, description="Model size, billions of parameters.")
    active_params_b: float | None = Field(default=None, description="MoE active parameters, billions.")
    tokens_b: float | None = Field(default=None, description="Training tokens, billions.")
    gpu: str | None = Field(default=None, description="Catalog accelerator id.")
    other_gpus: list[str] = Field(
        default_factory=list, description="Further accelerators named (comparisons)."
    )
    gpu_count: int | None = None
    gpus_per_node: int | None = None
    precision: str | None = Field(default=None, description="bf16, fp16, fp8, fp32 or tf32.")
    optimizer: str | None = None
    zero_stage: int | None = None
    tensor_parallel: int | None = None
    pipeline_parallel: int | None = None
    seq_len: int | None = None
    micro_batch: int | None = None
    global_batch: int | None = None
    mfu: float | None = Field(default=None, description="0-1.")
    finetune: str | None = Field(default=None, description="full, lora or qlora.")
    budget: float | None = None
    budget_currency: str | None = Field(default=None, description="USD or CNY.")
    deadline_days: float | None = None
    cloud_price_per_gpu_hour: float | None = None
    cloud_price_currency: str | None = None
    electricity_price_per_kwh: float | None = None
    electricity_currency: str | None = None
    utilization: float | None = Field(default=None, description="0-1.")
    years: float | None = None
    tokens_per_second_per_gpu: float | None = None
    concurrent: int | None = Field(default=None, description="Concurrent sequences being served.")

    def stated(self) -> dict[str, object]:
        """Only the slots the text set."""
        return self.model_dump(exclude_none=True, exclude_defaults=True)

    def merged_over(self, earlier: Slots) -> Slots:
        """These slots on top of ``earlier`` ones: what this message states wins, the rest carries over.

        Naming a new model preset drops the earlier size (and a new size drops the earlier preset),
        so "换成Llama 3 70B呢" does not keep the previous 34B; a new GPU drops the earlier comparison list.
        """
        stated = self.stated()
        carried = earlier.model_dump()
        if "model" in stated or "params_b" in stated:
            for key in ("model", "params_b", "active_params_b"):
                carried[key] = None
        if "gpu" in stated:
            carried["other_gpus"] = []
        return Slots.model_validate({**carried, **stated})


def to_number(text: str) -> float:
    """'1,024' -> 1024.0, '1.5' -> 1.5, '两' -> 2.0, '十二' -> 12.0."""
    text = text.strip()
    if text and text[0].isdigit():
        return float(text.replace(",", ""))
    if text[:1] in {"十", "百", "千"}:
        text = "一" + text  # "千亿" is one thousand hundred-millions
    return float(cn2an.cn2an(text, "smart"))


def _scaled(number: str, unit: str | None) -> float:
    value = to_number(number)
    return value * _MULTIPLIERS.get((unit or "").lower(), 1.0)


# \b treats CJK characters as word characters, so "QLoRA微调" or "5年TCO" has no boundary at the
# Latin word: boundaries here look at ASCII letters and digits only.
ASCII_BOUNDARY = r"(?:(?<![A-Za-z0-9])(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?![A-Za-z0-9]))"


def _flags(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern.replace(r"\b", ASCII_BOUNDARY), re.IGNORECASE)


# --- model size -----------------------------------------------------------------------------------
_PARAMS_EN = _flags(
    rf"(?<![A-Za-z0-9.$¥￥]){DECIMAL}\s*-?\s*(b|bn|billion|t|trillion|m|million)(?![A-Za-z])"
    r"(?!\s*-?\s*(?:tokens?|toks?|usd|dollars?|rmb|cny|yuan|美元|元|budget|预算))"
    r"(?:[\s-]*(?:params?|parameters?|model|llm|dense|moe))?"
)
_PARAMS_ZH = re.compile(rf"{NUMBER}\s*(万亿|千亿|亿|十亿|b|B|t|T)\s*(?:个)?\s*(?:参数|规模|的?模型|大模型)")
_PARAMS_ZH_BARE = re.compile(r"(千亿|万亿|百亿)(?:级|参数|规模)")
_PARAMS_ZH_AFTER = re.compile(
    rf"(?<!激活)参数(?:量|规模)?\s*(?:为|是|约|共)?\s*{NUMBER}\s*(万亿|千亿|亿|b|B|t|T)"
)
_ACTIVE = _flags(rf"{DECIMAL}\s*(b|billion)\s*(?:active|activated|激活)|激活(?:参数)?\s*{DECIMAL}\s*(b|亿)")

# --- tokens ---------------------------------------------------------------------------------------
_TOKENS = _flags(
    rf"{NUMBER}\s*(t|trillion|b|billion|m|million|万亿|亿|万)\s*(?:个)?\s*(?:tokens?|toks?|词元)"
)
_TOKENS_AFTER = _flags(rf"(?:tokens?|数据量|语料)\s*(?:of|:|=|为|是|约|共)?\s*{NUMBER}\s*(t|b|m|万亿|亿)\b")

# --- GPUs -----------------------------------------------------------------------------------------
# a vendor word may sit between the count and the name the catalog matched: "8张NVIDIA GB200"
_VENDOR = r"(?:nvidia|amd|intel|google(?:\s+cloud)?|英伟达|华为)"
_COUNT_BEFORE = _flags(rf"{NUMBER}\s*(?:[x×*]|张|块|颗|卡|个|片|台)?\s*(?:的)?\s*(?:{_VENDOR}\s*)?$")
_COUNT_AFTER = _flags(rf"^\s*(?:s\b)?\s*(?:[x×*]|GPU\s*[x×*])\s*{INTEGER}")
_NODES = _flags(
    rf"{NUMBER}\s*(?:台|个节点|节点|nodes?|servers?|machines?|boxes)\s*(?:of|的|，|,|each\s*with|with)?\s*"
    rf"{NUMBER}\s*(?:[x×*]|卡|张|块|GPUs?)?\s*(?:的)?\s*$"
)
_PLAIN_COUNT = _flags(
    rf"{NUMBER}\s*(?:张|块|颗)\s*(?:GPU|显卡|卡|加速卡)|{AMOUNT}\s*(?:GPUs|gpus|cards|accelerators)\b|{AMOUNT}\s*卡(?!\w)"
)

# --- training setup -------------------------------------------------------------------------------
_PRECISION = _flags(r"\b(bf16|fp16|fp8|fp32|tf32)\b|(混合精度|mixed[- ]precision)")
_OPTIMIZERS = [
    (_flags(r"8[- ]?bit\s*adam|adam\s*8[- ]?bit|adam-8bit"), "adam-8bit"),
    (_flags(r"\badamw\b"), "adamw"),
    (_flags(r"\badam\b"), "adam"),
    (_flags(r"\bsgd\b.*momentum|momentum\s*sgd|动量"), "sgd-momentum"),
    (_flags(r"\bsgd\b"), "sgd"),
    (_flags(r"\badafactor\b"), "adafactor"),
]
_ZERO = _flags(r"zero\s*[- ]?\s*(?:stage\s*)?([0-3])\b|\bzero\s*stage\s*([0-3])|(fsdp)")
_TP = _flags(rf"(?:\btp|tensor[- ]parallel(?:ism)?|张量并行)\s*(?:=|:|of|degree|度|为)?\s*{INTEGER}")
_PP = _flags(rf"(?:\bpp|pipeline[- ]parallel(?:ism)?|流水线并行)\s*(?:=|:|of|degree|度|为)?\s*{INTEGER}")
_SEQ = _flags(
    r"(?:seq(?:uence)?[\s_-]*len(?:gth)?|context(?:\s*length|\s*window)?|上下文(?:长度)?|序列长度)"
    r"\s*(?:of|=|:|to|为|是|改成|改为|换成|设为|设成)?\s*"
    rf"{DECIMAL}\s*(k)?\b|{DECIMAL}\s*(k)\s*(?:context|seq|tokens? context|上下文|序列)"
)
_MICRO_BATCH = _flags(
    rf"micro[\s_-]*batch(?:\s*size)?\s*(?:of|=|:|为)?\s*{INTEGER}|微批(?:次)?(?:大小)?\s*(?:为|=)?\s*{INTEGER}"
)
_CONCURRENT = _flags(
    rf"{INTEGER}\s*(?:concurrent|parallel|simultaneous)\s*(?:requests?|users?|sequences?|sessions?)"
    rf"|{INTEGER}\s*路\s*并发|并发\s*(?:数)?\s*(?:为|是|=)?\s*{INTEGER}"
)
_GLOBAL_BATCH = _flags(
    rf"(?:global\s*)?batch\s*size\s*(?:of|=|:|为)?\s*{INTEGER}|全局\s*batch\s*(?:为|=)?\s*{INTEGER}"
)
_MFU = _flags(
    rf"mfu\s*(?:of|=|:|to|为|是|按|约|改成|改为|换成|设为|设成)?\s*{DECIMAL}\s*%|{DECIMAL}\s*%\s*(?:的\s*)?mfu"
)
_FINETUNE = [(_flags(r"\bqlora\b"), "qlora"), (_flags(r"\blora\b"), "lora"),
             (_flags(r"full[\s-]*(?:parameter\s*)?fine[\s-]*tun|全参(?:数)?(?:微调)?|全量微调"), "full")]  # fmt: skip

# --- money and time -------------------------------------------------------------------------------
_USD = _flags(
    rf"(?:\$|usd\s*|us\$)\s*{AMOUNT}\s*(k|m|million|b|billion)?\b|{AMOUNT}\s*(k|m|million|b|billion)?\s*(?:usd|dollars?)\b"
    rf"|{NUMBER}\s*(万|亿|千)?\s*美(?:元|金)"
)
_CNY = _flags(
    rf"(?:¥|￥|rmb\s*|cny\s*)\s*{AMOUNT}\s*(k|m|million|万|亿)?|{NUMBER}\s*(万|亿|千)?\s*(?:元|块钱|人民币)(?!\s*/|每)"
    rf"|{AMOUNT}\s*(k|m|million)?\s*(?:rmb|cny|yuan)\b"
)
_DEADLINE = _flags(
    rf"(?:in|within|under|less than|by)\s*(?:about\s*)?{NUMBER}\s*(days?|weeks?|months?)"
    rf"|{NUMBER}\s*(?:个)?\s*(天|日|周|星期|月)\s*(?:内|以内|之内|完成|训完|训练完|搞定)"
    rf"|(?:deadline\s*(?:of|is|:)?\s*){NUMBER}\s*(days?|weeks?|months?)"
    rf"|(?:用|租用|租|跑|运行|for)\s*{NUMBER}\s*(?:个)?\s*(天|周|星期|月|days?|weeks?|months?)"
)
_PRICE_HOUR = _flags(
    rf"\$\s*{DECIMAL}\s*(?:/|per)\s*(?:gpu|card)?[\s-]*(?:h|hr|hour)\b"
    rf"|{DECIMAL}\s*(美元|元)\s*(?:/|每)\s*(?:卡)?\s*(?:时|小时|卡时|gpu\s*时)"
    rf"|(?:每卡时|每\s*gpu\s*小时)\s*{DECIMAL}\s*(美元|元)"
)
_POWER_PRICE = _flags(
    rf"\$\s*{DECIMAL}\s*(?:/|per)\s*kwh|{DECIMAL}\s*(?:cents?|¢)\s*(?:/|per)\s*kwh"
    rf"|电价\s*(?:为|是|按)?\s*{DECIMAL}\s*元|{DECIMAL}\s*元\s*(?:/|每)\s*(?:度|kwh)"
)
_UTIL = _flags(
    rf"(?:utili[sz]ation|utilised|utilized|利用率|使用率)\s*(?:of|=|:|为|是|按)?\s*{DECIMAL}\s*%|{DECIMAL}\s*%\s*(?:utili[sz]ation|利用率)"
)
_YEARS = _flags(
    rf"(?:over|for|across)\s*{NUMBER}\s*years?|{NUMBER}\s*(?:年|years?)\s*(?:的\s*)?(?:tco|总拥有成本|周期|内|horizon)"
)
_TPS = _flags(
    rf"{AMOUNT}\s*(k)?\s*tokens?\s*(?:/|per)\s*s(?:ec(?:ond)?)?\s*(?:/|per)\s*gpu"
    rf"|每卡每秒\s*{AMOUNT}\s*(?:个)?\s*token"
)
_RELATIVE_TIME = {"一个月": 30, "半个月": 15, "一周": 7, "两周": 14, "半年": 182, "一年": 365, "一季度": 91}
_DAYS_PER = {
    "day": 1,
    "days": 1,
    "天": 1,
    "日": 1,
    "week": 7,
    "weeks": 7,
    "周": 7,
    "星期": 7,
    "month": 30,
    "months": 30,
    "月": 30,
}


def _first(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    return pattern.search(text)


def _group(match: re.Match[str], *indexes: int) -> str | None:
    return next((match.group(i) for i in indexes if match.group(i)), None)


class SlotExtractor:
    """Reads ``Slots`` from a message; built once with the catalog's names."""

    def __init__(self, names: NameIndex) -> None:
        self._names = names
        self._rules: list[Callable[[str, Slots], None]] = [
            self._model_size, self._tokens, self._setup, self._money_and_time,
        ]  # fmt: skip

    def extract(self, text: str) -> Slots:
        slots = Slots()
        mentions = self._names.find(text)
        self._named(text, mentions, slots)
        masked = _mask(text, mentions)  # "Llama 2 7B" names a preset; its "7B" is not a size
        for rule in self._rules:
            rule(masked, slots)
        return slots

    def _named(self, text: str, mentions: list[Mention], slots: Slots) -> None:
        gpus = [m for m in mentions if m.group == "accelerators"]
        models = [m for m in mentions if m.group == "models"]
        if models:
            slots.model = models[-1].id  # "换成Llama 3 70B" names the newest choice last
        if gpus:
            slots.gpu = gpus[0].id
            slots.other_gpus = list(dict.fromkeys(m.id for m in gpus[1:] if m.id != gpus[0].id))
            self._gpu_count(text, gpus[0], slots)
        if slots.gpu_count is None and (match := _PLAIN_COUNT.search(_mask(text, mentions))):
            slots.gpu_count = int(to_number(_group(match, 1, 2, 3) or "0"))

    def _gpu_count(self, text: str, gpu: Mention, slots: Slots) -> None:
        before = text[max(0, gpu.start - 24) : gpu.start]
        nodes = _NODES.search(before)
        if nodes:
            per_node = int(to_number(nodes.group(2)))
            slots.gpus_per_node = per_node
            slots.gpu_count = int(to_number(nodes.group(1))) * per_node
            return
        count = _COUNT_BEFORE.search(before)
        if count and not re.search(r"[.\d]\s*$", before[: count.start()]):
            slots.gpu_count = int(to_number(count.group(1)))
            return
        after = _COUNT_AFTER.search(text[gpu.end : gpu.end + 16])
        if after:
            slots.gpu_count = int(after.group(1))

    def _model_size(self, text: str, slots: Slots) -> None:
        if match := _ACTIVE.search(text):
            number, unit = _group(match, 1, 3), _group(match, 2, 4)
            slots.active_params_b = _scaled(number or "0", unit) / 1e9
            text = text[: match.start()] + text[match.end() :]
        if match := _PARAMS_ZH.search(text) or _PARAMS_ZH_AFTER.search(text):
            slots.params_b = _scaled(match.group(1), match.group(2)) / 1e9
        elif match := _PARAMS_ZH_BARE.search(text):
            slots.params_b = {"千亿": 100.0, "万亿": 1000.0, "百亿": 10.0}[match.group(1)]
        else:
            for match in _PARAMS_EN.finditer(text):
                tail = text[match.end() : match.end() + 12].lower()
                if re.match(r"\s*(?:tokens?|toks?|个?token|词元)", tail):
                    continue
                slots.params_b = _scaled(match.group(1), match.group(2)) / 1e9
                break

    def _tokens(self, text: str, slots: Slots) -> None:
        match = _TOKENS.search(text) or _TOKENS_AFTER.search(text)
        if match:
            slots.tokens_b = _scaled(match.group(1), match.group(2)) / 1e9
            if slots.params_b and match.group(0) in text and slots.params_b == slots.tokens_b:
                slots.params_b = None  # the size rule read the token count

    def _setup(self, text: str, slots: Slots) -> None:
        if match := _PRECISION.search(text):
            slots.precision = (match.group(1) or "bf16").lower()
        slots.optimizer = next((name for pattern, name in _OPTIMIZERS if pattern.search(text)), None)
        if match := _ZERO.search(text):
            slots.zero_stage = 3 if match.group(3) else int(_group(match, 1, 2) or 0)
        if match := _TP.search(text):
            slots.tensor_parallel = int(match.group(1))
        if match := _PP.search(text):
            slots.pipeline_parallel = int(match.group(1))
        if match := _SEQ.search(text):
            number, k = _group(match, 1, 3), _group(match, 2, 4)
            slots.seq_len = int(float(number or 0) * (1024 if k else 1))
        if match := _MICRO_BATCH.search(text):
            slots.micro_batch = int(_group(match, 1, 2) or 1)
        if match := _CONCURRENT.search(text):
            slots.concurrent = int(_group(match, 1, 2, 3) or 1)
        if match := _GLOBAL_BATCH.search(text):
            slots.global_batch = int(_group(match, 1, 2) or 1)
        if match := _MFU.search(text):
            slots.mfu = float(_group(match, 1, 2) or 0) / 100
        slots.finetune = next((name for pattern, name in _FINETUNE if pattern.search(text)), None)
        if match := _TPS.search(text):
            number = _group(match, 1, 3) or "0"
            slots.tokens_per_second_per_gpu = to_number(number) * (1000 if match.group(2) else 1)

    def _money_and_time(self, text: str, slots: Slots) -> None:
        if match := _PRICE_HOUR.search(text):
            slots.cloud_price_per_gpu_hour = float(_group(match, 1, 2, 4) or 0)
            unit = _group(match, 3, 5)
            slots.cloud_price_currency = "CNY" if unit == "元" else "USD"
            text = text[: match.start()] + text[match.end() :]
        if match := _POWER_PRICE.search(text):
            if match.group(1):
                slots.electricity_price_per_kwh, slots.electricity_currency = float(match.group(1)), "USD"
            elif match.group(2):
                slots.electricity_price_per_kwh, slots.electricity_currency = (
                    float(match.group(2)) / 100,
                    "USD",
                )
            else:
                slots.electricity_price_per_kwh = float(_group(match, 3, 4) or 0)
                slots.electricity_currency = "CNY"
            text = text[: match.start()] + text[match.end() :]
        if match := _USD.search(text):
            if match.group(1):
                slots.budget = _scaled(match.group(1), match.group(2))
            elif match.group(3):
                slots.budget = _scaled(match.group(3), match.group(4))
            else:
                slots.budget = _scaled(match.group(5), match.group(6))
            slots.budget_currency = "USD"
        elif match := _CNY.search(text):
            number, unit = (
                (match.group(1), match.group(2))
                if match.group(1)
                else (
                    (match.group(3), match.group(4)) if match.group(3) else (match.group(5), match.group(6))
                )
            )
            slots.budget = _scaled(number, unit)
            slots.budget_currency = "CNY"
        slots.deadline_days = _deadline(text)
        if match := _UTIL.search(text):
            slots.utilization = float(_group(match, 1, 2) or 0) / 100
        if match := _YEARS.search(text):
            slots.years = to_number(_group(match, 1, 2) or "0")


def _deadline(text: str) -> float | None:
    for phrase, days in _RELATIVE_TIME.items():
        if re.search(rf"{phrase}\s*(?:内|以内|之内|完成|训完|搞定)", text):
            return float(days)
    match = _DEADLINE.search(text)
    if not match:
        return None
    number = _group(match, 1, 3, 5, 7)
    unit = (_group(match, 2, 4, 6, 8) or "day").lower()
    return to_number(number or "0") * _DAYS_PER.get(unit, 1)


def _mask(text: str, mentions: list[Mention]) -> str:
    """Blank out GPU and server names so 'H100' or 'A100 80GB' never read as sizes or counts."""
    chars = list(text)
    for m in mentions:
        chars[m.start : m.end] = " " * (m.end - m.start)
    return "".join(chars)
