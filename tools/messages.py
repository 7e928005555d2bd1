"""The calculators' sentences in two languages: one message code, its parameters, a template per language.

A calculator writes each assumption, warning and input error by calling a `Message` it defines next to the
code that uses it::

    _PUE = Message("power.pue", en="PUE {pue} ({how})", zh="PUE {pue}（{how:given}）")
    assumptions.append(_PUE(pue=f"{pue:g}", how="given"))

The call returns a `Said`: the English sentence as today (tests, the API and LLM tool calls read it as it is)
that also remembers its code and parameters, so an answer in another language fills the same parameters into
that language's template: the numbers are formatted once, by the calculator, and cannot drift.

Placeholders follow `str.format`, with three additions in the format spec:

- a list joins as ``a, b and c`` (``{items:or}``: ``a, b or c``; ``{items:comma}``: ``a, b``;
  ``{items:semicolon}``: ``a; b``); in Chinese as
  ``a、b、c`` (``a、b或c``);
- a `Said` inside the parameters renders in the same language (a sentence built from sentences);
- in a non-English template, a spec that names a glossary (``{how:given}``) looks the value up in it:
  enumerated words such as ``given``/``assumed`` or ``on-demand`` read in the reader's language.

Every code is defined once; tests/unit/test_messages.py checks that both templates use the same placeholders,
that every glossary a template names exists, and that Chinese templates read as Chinese.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

Language = Literal["en", "zh"]

# enumerated words the calculators write in English, read in Chinese by a template's ``{field:glossary}``
GLOSSARIES: dict[str, dict[str, str]] = {
    "given": {"given": "用户给定", "assumed": "假设值", "catalog": "目录数据", "default": "默认值"},
    "pricing": {
        "on-demand": "按需",
        "reserved-1y": "一年预留",
        "reserved-3y": "三年预留",
        "spot": "竞价",
        "community": "社区",
    },
    "price_kind": {"list": "标价", "street": "市场价", "msrp": "建议零售价", "estimate": "估算"},
    "currency": {"USD": "美元", "CNY": "元"},
    "cooling": {"air": "风冷", "liquid": "液冷"},
    "switch": {"on": "开启", "off": "关闭"},
    "segment": {"consumer": "消费级", "workstation": "工作站级", "datacenter": "数据中心级"},
    "recompute": {"none": "不做激活重计算", "selective": "选择性激活重计算", "full": "完整激活重计算"},
    "optimizer": {
        "adamw": "AdamW",
        "adam": "Adam",
        "adam-8bit": "8 位 Adam",
        "sgd-momentum": "带动量的 SGD",
        "sgd": "SGD",
        "adafactor": "Adafactor",
    },
    "training_precision": {
        "fp32": "FP32",
        "bf16-mixed": "BF16 混合精度",
        "fp16-mixed": "FP16 混合精度",
        "fp8-mixed": "FP8 混合精度",
    },
}
_JOINS = {"and", "or", "comma", "semicolon"}


def glossary(name: str, words: Mapping[str, str]) -> str:
    """Define a glossary next to the calculator that writes its words; returns its name for templates."""
    if name in GLOSSARIES and GLOSSARIES[name] != dict(words):
        raise DuplicateMessageError(f"glossary {name!r} is defined twice")
    GLOSSARIES[name] = dict(words)
    return name


class DuplicateMessageError(ValueError):
    """Two messages with one code: a stored note could not tell which sentence it was."""


class UnknownMessageError(LookupError):
    """A code no calculator defined (a typo in a stored note, or a message removed since)."""


class Message:
    """One sentence shape: its code and its template in each language."""

    __slots__ = ("code", "plain", "templates")

    def __init__(self, code: str, *, en: str, zh: str) -> None:
        if code in MESSAGES:
            raise DuplicateMessageError(f"message code {code!r} is defined twice")
        self.code = code
        self.templates: dict[Language, str] = {"en": en, "zh": zh}
        # templates with no format spec at all: str.format fills them, much faster than the formatter below
        self.plain: dict[Language, bool] = {
            language: not any(spec for _, _, spec, _ in string.Formatter().parse(template))
            for language, template in self.templates.items()
        }
        MESSAGES[code] = self

    def __call__(self, **params: Any) -> Said:
        return Said(self.code, params)

    def __repr__(self) -> str:
        return f"Message({self.code!r})"


MESSAGES: dict[str, Message] = {}


class Said(str):
    """A sentence in English (the string itself) that remembers its code and parameters."""

    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, params: Mapping[str, Any]) -> Said:
        text = render(code, params, "en")
        said = super().__new__(cls, text)
        said.code = code
        said.params = dict(params)
        return said

    def in_language(self, language: Language) -> str:
        return str(self) if language == "en" else render(self.code, self.params, language)

    def note(self) -> Note:
        # (constructed without validation: the fields are this sentence's own, already of their types)
        return Note.model_construct(text=str(self), code=self.code, params=_plain(self.params))


class Note(BaseModel):
    """A `Said` as data: what an output carries so that an answer can show the sentence in another language."""

    model_config = ConfigDict(frozen=True)

    text: str
    code: str
    params: dict[str, Any]

    def in_language(self, language: Language) -> str:
        return self.text if language == "en" else render(self.code, _revived(self.params), language)


def _plain(value: Any) -> Any:
    """Parameters as JSON: a nested `Said` becomes ``{"code": ..., "params": ...}``."""
    if isinstance(value, Said):
        return {"code": value.code, "params": _plain(value.params)}
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _revived(value: Any) -> Any:
    """The reverse of `_plain`: ``{"code": ..., "params": ...}`` is a sentence again."""
    if isinstance(value, Mapping):
        if set(value) == {"code", "params"} and isinstance(value["code"], str):
            return Said(value["code"], _revived(value["params"]))
        return {k: _revived(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_revived(v) for v in value]
    return value


class _Formatter(string.Formatter):
    def __init__(self, language: Language) -> None:
        self.language = language

    def format_field(self, value: Any, format_spec: str) -> str:
        word, plus, join = format_spec.partition("+")
        if not format_spec or format_spec in _JOINS:
            glossary, join = "", format_spec
        elif word in GLOSSARIES and (not plus or join in _JOINS):
            glossary = word
        elif isinstance(value, (list, tuple, Said)):
            raise TypeError(f"format spec {format_spec!r} cannot apply to {value!r}")
        else:
            return str(super().format_field(value, format_spec))
        if isinstance(value, (list, tuple)):
            return self._joined([self._word(v, glossary) for v in value], join or "and")
        return self._word(value, glossary)

    def _word(self, value: Any, glossary: str) -> str:
        if isinstance(value, Said):
            return value.in_language(self.language)
        text = str(value)
        if glossary and self.language != "en":
            return GLOSSARIES[glossary].get(text, text)
        return text

    def _joined(self, items: Sequence[str], join: str) -> str:
        if self.language == "en":
            if join == "semicolon":
                return "; ".join(items)
            if len(items) <= 1 or join == "comma":
                return ", ".join(items)
            return f"{', '.join(items[:-1])} {join} {items[-1]}"
        if join == "semicolon":
            return "；".join(items)
        if join == "or" and len(items) > 1:
            return f"{'、'.join(items[:-1])}或{items[-1]}"
        return "、".join(items)


def render(code: str, params: Mapping[str, Any], language: Language) -> str:
    """The sentence ``code`` with ``params`` in ``language``."""
    try:
        message = MESSAGES[code]
    except KeyError:
        raise UnknownMessageError(f"no message has the code {code!r}") from None
    if message.plain[language] and not any(isinstance(v, (list, tuple, Said)) for v in params.values()):
        return message.templates[language].format_map(params)
    return _Formatter(language).vformat(message.templates[language], (), dict(params))


def placeholders(template: str) -> set[str]:
    """The parameter names a template fills."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def glossaries(template: str) -> set[str]:
    """The glossaries a template's format specs name (``{how:given}``, ``{kinds:price_kind+or}``)."""
    named = set()
    for _, name, spec, _ in string.Formatter().parse(template):
        word = (spec or "").partition("+")[0]
        if name and word.isidentifier() and len(word) > 1 and word not in _JOINS:
            named.add(word)
    return named


def notes_of(texts: Sequence[str]) -> list[Note]:
    """The notes of the sentences in ``texts`` that were written as messages."""
    return [text.note() for text in texts if isinstance(text, Said)]
