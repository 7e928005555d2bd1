"""A calculator's sentence in the reader's language, by its message code.

Calculators write each assumption, warning and input error as a message (tools/messages.py): the English
sentence, plus its code and parameters in the output's ``messages`` (errors: in ``ToolRun.error_messages``).
An answer in another language fills the same parameters into that language's template, so the numbers,
names and ids are the calculator's own. A sentence that carries no code (an output stored before codes, a
calculator added without them) is shown in English answers and left out of others; an error without one
reads as a generic sentence naming its field, never as English in a Chinese answer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from knowledge.text import Language
from tools.messages import Note, UnknownMessageError


def _noted(text: str, output: Mapping[str, Any]) -> Note | None:
    for note in output.get("messages", []):
        if note.get("text") == text:
            return Note.model_validate(note)
    return None


def _rendered(note: Note, language: Language) -> str | None:
    """``note`` in ``language``, or None when it cannot be (an output stored before an upgrade whose code or
    parameters the templates no longer have): such a sentence is left out, the turn still answered."""
    try:
        return note.in_language(language)
    except (UnknownMessageError, KeyError, IndexError, ValueError, TypeError):
        return None


def sentence_in(text: str, output: Mapping[str, Any], language: Language) -> str | None:
    """One of ``output``'s assumptions or warnings in ``language``; None when it has no rendering there."""
    if language == "en":
        return text
    note = _noted(text, output)
    return _rendered(note, language) if note else None


def error_in(text: str, notes: Mapping[str, Note], language: Language) -> str:
    """One input error, ``field: message``, in ``language``; ``notes`` are the run's errors written as messages."""
    if language == "en":
        return text
    field = text.split(": ", 1)[0] if ": " in text else "input"
    note = notes.get(text)
    shown = _rendered(note, language) if note else None
    if shown is None:
        named = "" if field == "input" else f" {field} "
        return f"输入{named}的值无法用于计算，请检查后重试"
    # "两次运行的 GPU 数量（gpus_to）相同…" names its field already; "必须大于 0" needs it before
    names_it = re.search(rf"(?<![a-z0-9_]){re.escape(field)}(?![a-z0-9_])", shown)
    return shown if names_it or field == "input" else f"{field}：{shown}"


# the calculators' input fields in words, for errors shown in a chat (the API keeps the field names)
FIELD_WORDS: dict[str, tuple[str, str]] = {
    "gpu": ("the GPU", "GPU 型号"),
    "gpus": ("the GPU count", "GPU 数量"),
    "gpus_per_node": ("GPUs per server", "每台服务器的 GPU 数"),
    "nodes": ("the server count", "服务器台数"),
    "model": ("the model", "模型"),
    "params_b": ("the model size", "模型参数量"),
    "active_params_b": ("the active parameters", "激活参数量"),
    "tokens_b": ("the training tokens", "训练 token 数"),
    "seq_len": ("the sequence length", "序列长度"),
    "context_tokens": ("the context length", "上下文长度"),
    "micro_batch": ("the micro-batch", "微批大小"),
    "tensor_parallel": ("tensor parallelism", "张量并行度"),
    "pipeline_parallel": ("pipeline parallelism", "流水线并行度"),
    "zero_stage": ("the ZeRO stage", "ZeRO 阶段"),
    "mfu": ("the MFU", "MFU"),
    "run_days": ("the run's days", "训练天数"),
    "deadline_days": ("the deadline", "期限"),
    "cloud_price_per_gpu_hour": ("a cloud price per GPU-hour", "每卡时的云上价格"),
    "price_per_gpu_hour": ("a price per GPU-hour", "每卡时的价格"),
    "cloud_per_month": ("a monthly cloud bill", "每月云账单"),
    "electricity_price_per_kwh": ("the electricity price", "电价"),
    "server_power_kw": ("the server's power", "每台服务器功率"),
    "rack_kw": ("the rack's power", "机柜功率"),
    "capex_per_server": ("the price per server", "每台服务器价格"),
    "prices_usd": ("the prices", "价格"),
    "budget": ("the budget", "预算"),
    "years": ("the period", "年限"),
    "months": ("the period", "月数"),
    "utilization": ("the utilisation", "利用率"),
    "lease_per_month": ("the monthly lease", "每月租金"),
    "lease_term_months": ("the lease term", "租期"),
    "lease_apr": ("the lease APR", "租赁年利率"),
    "staff_per_year": ("staff cost per year", "每年人员成本"),
    "weight_precision": ("the weights' precision", "权重精度"),
    "kv_cache_precision": ("the KV cache precision", "KV 缓存精度"),
    "precision": ("the precision", "精度"),
}
_FIELD_PREFIX = re.compile(r"^(?P<field>[a-z][\w.]*)\s*[:：]\s*")
_FIELD_TOKEN = re.compile(r"\b([a-z]+(?:_[a-z0-9]+)+)\b")
_FIELD_TOKEN_ZH = re.compile(r"\s?\b([a-z]+(?:_[a-z0-9]+)+)\b\s?")


def for_reader(text: str, notes: Mapping[str, Note], language: Language) -> str:
    """``text``, one calculator input error, as a chat shows it: in ``language``, without the field name
    before it, and with the field names inside it in words ('give a cloud price per GPU-hour')."""
    shown = error_in(text, notes, language)
    index = 0 if language == "en" else 1
    field = _FIELD_PREFIX.match(shown)
    if field and field.group("field").split(".")[0] in {*FIELD_WORDS, "input"}:
        name = field.group("field").split(".")[0]
        rest = shown[field.end() :]
        # "gpus: Input should be <= 64" needs the field it is about; "gpu: unknown accelerator 'X'" does not
        labelled = name != "input" and not _SELF_CONTAINED.match(rest)
        shown = f"{FIELD_WORDS[name][index]}{': ' if index == 0 else '：'}{rest}" if labelled else rest
    tokens = _FIELD_TOKEN if index == 0 else _FIELD_TOKEN_ZH  # no spaces around words in Chinese
    return tokens.sub(
        lambda m: FIELD_WORDS.get(m.group(1), (m.group(1).replace("_", " "),) * 2)[index], shown
    )


# a message that names what it is about: "the catalog has no …", "unknown accelerator 'X'", "目录中没有…"
_SELF_CONTAINED = re.compile(r"^(?:the catalog|unknown|no |give |目录中|请给出|没有)", re.IGNORECASE)
