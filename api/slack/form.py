"""The sizing form (a Slack modal) and the question its answers become: pure functions, no Slack SDK, no I/O.

The listeners (listeners.py) open the form and send the question ``sizing_request`` builds through the
same path as a typed message.
"""

from __future__ import annotations

import re
from typing import Any

from api.slack.blocks import Block
from knowledge.catalog import Catalog, UnknownItemError, default_catalog
from knowledge.text import Language

SIZING_CALLBACK_ID = "advisor_sizing"

# the sizing form's inputs: each block_id is also its element's action_id
MODEL_SIZE_BLOCK = "advisor_model_size"
TOKENS_BLOCK = "advisor_tokens"
GPU_BLOCK = "advisor_gpu"
GPU_COUNT_BLOCK = "advisor_gpu_count"
DEADLINE_BLOCK = "advisor_deadline"
BUDGET_BLOCK = "advisor_budget"


# --- the sizing form ------------------------------------------------------------------------------

_FORM: dict[str, tuple[str, str]] = {
    "title": ("Size a training run", "训练服务器测算"),
    "submit": ("Ask", "提交"),
    "close": ("Cancel", "取消"),
    "intro": (
        "Describe the training run; fill in what you know and I will work out the rest.",
        "描述一次训练任务：填写已知的条件，其余由我来测算。",
    ),
    "model_label": ("Model size", "模型规模"),
    "model_placeholder": ("e.g. 70B", "例如 70B"),
    "model_hint": (
        "Parameters (70B, 7.5B, 500M) or a model name such as Llama 3 70B.",
        "参数量（如 70B、7.5B、500M、700亿），或模型名称，如 Llama 3 70B。",
    ),
    "tokens_label": ("Training tokens", "训练 token 数"),
    "tokens_placeholder": ("e.g. 2T", "例如 2T"),
    "tokens_hint": ("For example 2T, 500B or 1.5 trillion.", "例如 2T、500B 或 1.5万亿。"),
    "gpu_label": ("GPU", "GPU 型号"),
    "gpu_placeholder": ("Any: let the advisor compare", "不限：由助手比较推荐"),
    "count_label": ("Number of GPUs", "GPU 数量"),
    "count_hint": (
        "Leave empty to have the GPU count worked out from the deadline.",
        "留空则按工期推算所需的 GPU 数量。",
    ),
    "deadline_label": ("Deadline (days)", "工期（天）"),
    "budget_label": ("Budget (USD)", "预算（美元）"),
    "budget_placeholder": ("e.g. $2,000,000 or 2M", "例如 $2,000,000 或 2M"),
    "required": ("Required.", "必填。"),
    "model_error": (
        "Enter a size such as 70B, 7.5B or 500M, or a model name such as Llama 3 70B.",
        "请填写模型规模，如 70B、7.5B、500M，或模型名称，如 Llama 3 70B。",
    ),
    "tokens_error": (
        "Enter a token count with a unit, such as 2T, 500B or 1.5 trillion.",
        "请填写带单位的 token 数，如 2T、500B 或 1.5万亿。",
    ),
    "gpu_error": ("Choose a GPU from the list.", "请从列表中选择 GPU。"),
    "count_error": (
        "Enter a whole number of GPUs from 1 to 1,000,000.",
        "请填写 1 到 1,000,000 之间的整数。",
    ),
    "deadline_error": (
        "Enter a number of days greater than 0 and at most 3,650.",
        "请填写大于 0、不超过 3650 的天数。",
    ),
    "budget_error": (
        "Enter a budget in US dollars greater than 0, such as 2000000, $2M or 500k.",
        "请填写大于 0 的美元预算，如 2000000、$2M 或 500k。",
    ),
}
_PRIVATE_METADATA_CHARS = 3000
_OPTION_CHARS = 75


def _f(key: str, language: Language) -> str:
    en, zh = _FORM[key]
    return zh if language == "zh" else en


def _plain_text(text: str) -> dict[str, Any]:
    return {"type": "plain_text", "text": text, "emoji": True}


def _input(
    block_id: str, label: str, element: dict[str, Any], *, optional: bool, hint: str | None = None
) -> Block:
    block: Block = {
        "type": "input",
        "block_id": block_id,
        "label": _plain_text(label),
        "element": {**element, "action_id": block_id},
        "optional": optional,
    }
    if hint:
        block["hint"] = _plain_text(hint)
    return block


def _gpu_options(catalog: Catalog) -> list[dict[str, Any]]:
    """The catalog's accelerators grouped by vendor, data-centre parts first, at most 100 in all."""
    order = {"datacenter": 0, "workstation": 1, "consumer": 2}
    groups: dict[str, list[dict[str, Any]]] = {}
    for acc in sorted(catalog.accelerators, key=lambda a: order[a.segment])[:100]:
        name = acc.name if len(acc.name) <= _OPTION_CHARS else acc.name[: _OPTION_CHARS - 1] + "…"
        groups.setdefault(acc.vendor, []).append({"text": _plain_text(name), "value": acc.id})
    return [{"label": _plain_text(vendor), "options": options} for vendor, options in groups.items()]


def sizing_modal(
    language: Language = "en", *, private_metadata: str = "", catalog: Catalog | None = None
) -> dict[str, Any]:
    """The sizing form as a ``modal`` view; model size and tokens are required, the rest optional."""
    if len(private_metadata) > _PRIVATE_METADATA_CHARS:
        raise ValueError("private_metadata is limited to 3,000 characters")
    catalog = catalog or default_catalog()
    lang = language

    def text_input(placeholder: str) -> dict[str, Any]:
        return {"type": "plain_text_input", "placeholder": _plain_text(_f(placeholder, lang))}

    return {
        "type": "modal",
        "callback_id": SIZING_CALLBACK_ID,
        "title": _plain_text(_f("title", lang)),
        "submit": _plain_text(_f("submit", lang)),
        "close": _plain_text(_f("close", lang)),
        "private_metadata": private_metadata,
        "blocks": [
            {
                "type": "context",
                "elements": [{"type": "plain_text", "text": _f("intro", lang), "emoji": True}],
            },
            _input(
                MODEL_SIZE_BLOCK,
                _f("model_label", lang),
                text_input("model_placeholder"),
                optional=False,
                hint=_f("model_hint", lang),
            ),
            _input(
                TOKENS_BLOCK,
                _f("tokens_label", lang),
                text_input("tokens_placeholder"),
                optional=False,
                hint=_f("tokens_hint", lang),
            ),
            _input(
                GPU_BLOCK,
                _f("gpu_label", lang),
                {
                    "type": "static_select",
                    "placeholder": _plain_text(_f("gpu_placeholder", lang)),
                    "option_groups": _gpu_options(catalog),
                },
                optional=True,
            ),
            _input(
                GPU_COUNT_BLOCK,
                _f("count_label", lang),
                {
                    "type": "number_input",
                    "is_decimal_allowed": False,
                    "min_value": "1",
                    "max_value": "1000000",
                },
                optional=True,
                hint=_f("count_hint", lang),
            ),
            _input(
                DEADLINE_BLOCK,
                _f("deadline_label", lang),
                {"type": "number_input", "is_decimal_allowed": True, "max_value": "3650"},
                optional=True,
            ),
            _input(BUDGET_BLOCK, _f("budget_label", lang), text_input("budget_placeholder"), optional=True),
        ],
    }


_SCALE = {
    "k": 1e3, "thousand": 1e3, "千": 1e3, "万": 1e4, "m": 1e6, "mn": 1e6, "million": 1e6, "百万": 1e6,
    "亿": 1e8, "b": 1e9, "bn": 1e9, "billion": 1e9, "十亿": 1e9, "千亿": 1e11, "t": 1e12, "trillion": 1e12,
    "万亿": 1e12,
}  # fmt: skip
_QUANTITY = re.compile(
    r"^\s*(\d+(?:,\d{3})*(?:\.\d+)?|\.\d+)\s*"
    r"(k|thousand|千|万亿|千亿|十亿|百万|万|亿|mn|m|million|bn|b|billion|t|trillion)?\s*$",
    re.IGNORECASE,
)
_MODEL_WORDS = r"\b(?:params?|parameters?|model)\b|参数|个|的?模型"
_TOKEN_WORDS = r"\b(?:tokens?|toks?)\b|个|词元"
_DOLLAR_WORDS = r"us\$|\$|\busd\b|\bdollars?\b|美元|美金"
_MILLION = 1e6


def _quantity(text: str, *, words: str) -> tuple[float, bool] | None:
    """'2T' -> (2e12, True), '700亿' -> (7e10, True), '2,000,000' -> (2e6, False); None if unreadable.

    The flag says whether a unit was written; ``words`` (like "tokens") may surround the number.
    """
    match = _QUANTITY.match(re.sub(words, " ", text, flags=re.IGNORECASE))
    if not match:
        return None
    value = float(match.group(1).replace(",", ""))
    unit = match.group(2)
    return (value * _SCALE[unit.lower()], True) if unit else (value, False)


def _number(text: str) -> float | None:
    try:
        value = float(text.replace(",", "").strip())
    except ValueError:
        return None
    return value if value == value and abs(value) != float("inf") else None


def _short(count: float) -> str:
    """A count of at least a million as 1.8T, 70B, 7.5B or 500M: forms the slot extractor reads."""
    scale, unit = next((s, u) for s, u in ((1e12, "T"), (1e9, "B"), (1e6, "M")) if count >= s)
    return f"{count / scale:.4f}".rstrip("0").rstrip(".") + unit


def _dollars(value: float) -> str:
    return f"${value:,.0f}" if value == int(value) else f"${value:,.2f}"


def _days(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _state_value(values: dict[str, dict[str, dict[str, Any]]], block_id: str) -> dict[str, Any]:
    actions = values.get(block_id) or {}
    return actions.get(block_id) or next(iter(actions.values()), {})


def _text_value(values: dict[str, dict[str, dict[str, Any]]], block_id: str) -> str:
    value = _state_value(values, block_id).get("value")
    return value.strip() if isinstance(value, str) else ""


def _model_subject(text: str, catalog: Catalog) -> str | None:
    """'a 70B model' for a size (a bare number is billions, or a raw count from a million up), or a preset's name."""
    if quantity := _quantity(text, words=_MODEL_WORDS):
        value, has_unit = quantity
        params = value if has_unit or value >= _MILLION else value * 1e9
        return f"a {_short(params)} model" if _MILLION <= params <= 1e14 else None
    for name in (text, re.sub(_MODEL_WORDS, " ", text, flags=re.IGNORECASE).strip()):
        try:
            return catalog.model(name).name
        except UnknownItemError:
            continue
    return None


def _tokens(text: str) -> str | None:
    """'2T' for two trillion tokens; a bare number must be a raw count (a million or more)."""
    quantity = _quantity(text, words=_TOKEN_WORDS)
    if quantity is None or not (quantity[1] or quantity[0] >= _MILLION):
        return None
    return _short(quantity[0]) if _MILLION <= quantity[0] <= 1e15 else None


def sizing_request(
    values: dict[str, dict[str, dict[str, Any]]],
    *,
    language: Language = "en",
    catalog: Catalog | None = None,
) -> tuple[str, dict[str, str]]:
    """The question to ask for a submitted sizing form (in ``language``), and ``{block_id: error}`` per bad input.

    The question is phrased for the router: with a GPU count it asks how long training takes, with a
    deadline how many GPUs are needed, otherwise which GPUs to use (or the GPU-hours on the chosen
    GPU); a budget adds what it will cost. The error texts are in ``language``.
    """
    catalog = catalog or default_catalog()
    errors: dict[str, str] = {}

    def fail(block_id: str, key: str) -> None:
        errors[block_id] = _f(key, language)

    model_text = _text_value(values, MODEL_SIZE_BLOCK)
    subject = _model_subject(model_text, catalog) if model_text else None
    if subject is None:
        fail(MODEL_SIZE_BLOCK, "model_error" if model_text else "required")

    tokens_text = _text_value(values, TOKENS_BLOCK)
    tokens = _tokens(tokens_text) if tokens_text else None
    if tokens is None:
        fail(TOKENS_BLOCK, "tokens_error" if tokens_text else "required")

    gpu, noun = "", "GPU"
    selected = _state_value(values, GPU_BLOCK).get("selected_option")
    if isinstance(selected, dict) and selected.get("value"):
        try:
            accelerator = catalog.accelerator(str(selected["value"]))
            gpu, noun = accelerator.name, "GPU" if accelerator.kind == "gpu" else "accelerator"
        except UnknownItemError:
            fail(GPU_BLOCK, "gpu_error")

    count: int | None = None
    if count_text := _text_value(values, GPU_COUNT_BLOCK):
        number = _number(count_text)
        if number is None or number != int(number) or not 1 <= number <= 1_000_000:
            fail(GPU_COUNT_BLOCK, "count_error")
        else:
            count = int(number)

    deadline: float | None = None
    if deadline_text := _text_value(values, DEADLINE_BLOCK):
        deadline = _number(re.sub(r"\s*(?:days?|d|天)\s*$", "", deadline_text, flags=re.IGNORECASE))
        if deadline is None or not 0 < deadline <= 3650:
            fail(DEADLINE_BLOCK, "deadline_error")

    budget: float | None = None
    if budget_text := _text_value(values, BUDGET_BLOCK):
        quantity = _quantity(budget_text, words=_DOLLAR_WORDS)
        budget = quantity[0] if quantity else None
        if budget is None or not 0 < budget <= 1e12:
            fail(BUDGET_BLOCK, "budget_error")

    if errors or subject is None or tokens is None:
        return "", errors
    if language == "zh":  # the answer follows the question's language, so a Chinese form asks in Chinese
        return _question_zh(_subject_zh(subject), tokens, gpu, count, deadline, budget), {}
    return _question(f"train {subject} on {tokens} tokens", gpu, noun, count, deadline, budget), {}


def _subject_zh(subject: str) -> str:
    """'a 70B model' -> '一个70B模型'; a preset's name gets a Chinese noun, so the question reads as Chinese."""
    size = re.fullmatch(r"an? (\S+) model", subject)
    return f"一个{size.group(1)}模型" if size else f"模型{subject}"


def _question_zh(
    subject: str, tokens: str, gpu: str, count: int | None, deadline: float | None, budget: float | None
) -> str:
    # enough Chinese around the model's and GPU's English names that the question reads as Chinese
    run = f"训练{subject}，训练数据共{tokens} token"
    gpu = re.sub(r"\s*\(.*?\)", "", gpu)  # "NVIDIA GB200 (per Blackwell GPU of ...)" -> "NVIDIA GB200"
    within = f"，要求{_days(deadline)}天内完成" if deadline else ""
    cost = f"，预算{_dollars(budget)}，要花多少钱" if budget else ""
    if count:
        return f"用{count}张{gpu or 'GPU'}{run}{within}，要多少天{cost}？"
    if gpu and deadline:
        return f"用{gpu}{run}{within}，需要多少张卡{cost}？"
    if gpu:
        return f"用{gpu}{run}，需要多少GPU小时{cost}？"
    with_budget = f"，预算{_dollars(budget)}" if budget else ""
    days = "，要多少天" if deadline else ""
    return f"{run}{within}{with_budget}，该选哪种GPU{days}？"


def _question(
    run: str, gpu: str, noun: str, count: int | None, deadline: float | None, budget: float | None
) -> str:
    within = f" within {_days(deadline)} days" if deadline else ""
    cost = f", and what will it cost with a budget of {_dollars(budget)}" if budget else ""
    if count:
        plural = noun if count == 1 else f"{noun}s"
        hardware = f"{count} {gpu} {plural}" if gpu else f"{count} {plural}"
        return f"How long does it take to {run} with {hardware}{within}{cost}?"
    if gpu and deadline:
        return f"How many {gpu} {noun}s do I need to {run}{within}{cost}?"
    if gpu:
        return f"How many GPU-hours does it take to {run} on {gpu} {noun}s{cost}?"
    with_budget = f" with a budget of {_dollars(budget)}" if budget else ""
    return f"Which GPUs should I use to {run}{within}{with_budget}?"
