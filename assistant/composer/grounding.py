"""The numeric grounding check: every number an answer written by a model states must come from a calculator's
input or output or from a passage (rounding and unit changes allowed), and every citation must name a passage.

The LLM composer (llm.py) rejects an answer that fails it and serves the template's answer instead; it reads
numbers in English and Chinese (1.5T, 45%, 1,536, 三千, 1.2万亿).
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Iterable
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from typing import NamedTuple

import cn2an

from assistant.retriever import Passage
from assistant.toolbox import ToolRun

_CITATION = re.compile(r"\[\s*(\d+(?:\s*[,，、\-–]\s*\d+)*)\s*\]")
_MULTIPLIERS: dict[str, tuple[float, ...]] = {
    "万亿": (1e12,), "千亿": (1e11,), "百万": (1e6,), "千万": (1e7,), "亿": (1e8,), "万": (1e4,), "千": (1e3,),
    "trillion": (1e12,), "billion": (1e9,), "million": (1e6,), "thousand": (1e3,), "bn": (1e9,),
    "t": (1e12,), "b": (1e9,), "m": (1e6,), "k": (1e3, 1024.0),
}  # fmt: skip
_SUFFIX = (
    r"(?P<pct>\s?(?:%|％|\s?percent\b))"
    r"|\s?(?P<mult>万亿|千亿|百万|千万|亿|万|千|(?:trillion|billion|million|thousand|bn)\b|[kKMBT](?![A-Za-z]))"
)
_NUMBER = (
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?P<exp>[eE][+-]?\d+|\s?[x×*]\s?10\s?(?:\^|\*\*)\s?[+-]?\d+)?"
    rf"(?:{_SUFFIX})?"
)
_ARABIC = re.compile(r"(?<![0-9.])" + _NUMBER)
_NAME_BEFORE = re.compile(r"[A-Za-z]-?$")  # H100, BF16, ZeRO-3, v1.2, GPT-4
_CHINESE = re.compile(
    r"(?<![0-9.])(?P<pre>百分之)?(?P<num>[一二两三四五六七八九]?[十百千][一二两三四五六七八九十百千零〇]*)"
    r"(?P<mult>万亿|亿|万)?"
)
_RANGE = re.compile(r"\s?(?:-|–|—|~|～|至|到|to)\s?")
_REL_TOL = 0.005


class Number(NamedTuple):
    """A number as written, with what it may mean."""

    text: str
    value: float
    multiplier: str = ""  # "万", "m", "billion"...: a key of _MULTIPLIERS
    percent: bool = False
    plain: bool = True  # digits only: no decimals, separators, exponent, multiplier or percent

    @property
    def multipliers(self) -> tuple[float, ...]:
        return _MULTIPLIERS.get(self.multiplier, ())

    def readings(self) -> set[float]:
        """Values it may stand for: 1.5T is 1.5e12, 1,500 in billions (tokens_b) or 1.5; 45% is 0.45 or 45."""
        if not self.multiplier:
            out = {self.value}
        else:
            out = {self.value * m / unit for m in self.multipliers for unit in (1, 1e9)}
            if self.multiplier.isascii():  # 34B, 32k, 1.2M: the figure itself may be what a field holds
                out.add(self.value)
        if self.percent:
            out |= {self.value / 100, self.value}
        return out


def extract_numbers(text: str, *, strict: bool = True) -> list[Number]:
    """Every number in ``text`` (EN or ZH), citation markers left out.

    ``strict`` skips digits that belong to names (H100, BF16, ZeRO-3); the loose reading used for the
    allowed side keeps them, so a model name in a passage never makes its own number suspicious.
    """
    text = _CITATION.sub(" ", text)
    found: list[tuple[int, int, Number]] = []
    for m in _ARABIC.finditer(text):
        pct = bool(m.group("pct"))
        if strict and not pct and _NAME_BEFORE.search(text[max(0, m.start() - 2) : m.start()]):
            continue  # "MFU45%" is still checked
        digits = m.group("num")
        exp = m.group("exp")
        power = re.split(r"[eE]|\^|\*\*", exp)[-1].strip() if exp else "0"
        value = float(f"{digits.replace(',', '')}e{power}")
        mult = (m.group("mult") or "").lower()
        plain = not (exp or mult or pct or "." in digits or "," in digits)
        found.append((m.start(), m.end(), Number(m.group().strip(), value, mult, pct, plain)))
    for m in _CHINESE.finditer(text):
        if len(m.group("num")) < 2:  # 十分 (very), 千万 (by all means), 百兆 are words, not numbers
            continue
        try:
            value = float(cn2an.cn2an(m.group("num"), "normal"))
        except (ValueError, KeyError):  # "三四十" (thirty or forty) is no single number
            continue
        mult = m.group("mult") or ""
        pct = bool(m.group("pre"))
        found.append((m.start(), m.end(), Number(m.group(), value, mult, pct, not (mult or pct))))
    found.sort(key=lambda f: f[0])
    numbers = [n for _, _, n in found]
    # "35-50%", "1.5-2T": the first end of a range takes the second's unit
    for i in range(len(found) - 2, -1, -1):
        (_, end, first), (start, _, second) = found[i], found[i + 1]
        if (
            not (first.multiplier or first.percent)
            and (second.multiplier or second.percent)
            and _RANGE.fullmatch(text[end:start])
        ):
            numbers[i] = first._replace(multiplier=second.multiplier, percent=second.percent, plain=False)
            found[i] = (found[i][0], end, numbers[i])
    return numbers


def numbers_in(data: object) -> set[float]:
    """Every value a nested JSON value (numbers and strings with numbers in them) may stand for."""
    out: set[float] = set()
    if isinstance(data, bool) or data is None:
        return out
    if isinstance(data, int | float):
        if math.isfinite(data):
            out.add(abs(float(data)))
    elif isinstance(data, str):
        for number in extract_numbers(data, strict=False):
            out |= number.readings()
    elif isinstance(data, dict):
        for value in data.values():
            out |= numbers_in(value)
    elif isinstance(data, list | tuple | set):
        for item in data:
            out |= numbers_in(item)
    return out


def allowed_numbers(run: ToolRun, passages: list[Passage]) -> set[float]:
    """The numbers an answer may use: the calculators' inputs, outputs and errors, and the passages."""
    sources: list[object] = [[call.input, call.output] for call in run.calls]
    sources += run.errors
    sources += [[p.title, p.section, p.text, p.snippet, p.as_of] for p in passages]
    return numbers_in(sources)


def _key(value: float) -> float:
    return float(f"{value:.9g}")


class _Allowed:
    """Allowed values, looked up with a relative tolerance or as roundings to 1-3 significant digits."""

    def __init__(self, values: Iterable[float]) -> None:
        self._sorted = sorted({abs(v) for v in values if math.isfinite(v)})
        self._rounded = {_key(v) for v in self._sorted}
        for v in self._sorted:
            if v == 0:
                continue
            text = repr(v)
            for digits in (1, 2, 3):
                exponent = Decimal(text).adjusted() - digits + 1
                for mode in (ROUND_HALF_UP, ROUND_HALF_EVEN):  # 0.125 -> 0.13 by hand, 0.12 by Python
                    self._rounded.add(_key(float(Decimal(text).quantize(Decimal(f"1e{exponent}"), mode))))

    def __contains__(self, value: float) -> bool:
        value = abs(value)
        if _key(value) in self._rounded:
            return True
        i = bisect.bisect_left(self._sorted, value / (1 + _REL_TOL))
        return any(math.isclose(a, value, rel_tol=_REL_TOL) for a in self._sorted[i : i + 2])


def unsupported_numbers(text: str, allowed: Iterable[float]) -> list[str]:
    """The numbers in ``text`` that no allowed value supports, as written.

    Always allowed: whole numbers 0-10 and years (1950-2100) written as plain digits.
    """
    pool = _Allowed(allowed)
    bad: list[str] = []
    for number in extract_numbers(text):
        whole = number.plain and number.value.is_integer()  # False for inf: 400 nines are no year
        if whole and (number.value <= 10 or 1950 <= number.value <= 2100):
            continue
        if not any(reading in pool for reading in number.readings()):
            bad.append(number.text)
    return bad


def cited_ids(text: str) -> set[int]:
    """The passage numbers an answer cites: [1], [1, 3], [2-4]."""
    ids: set[int] = set()
    for m in _CITATION.finditer(text):
        for part in re.split(r"[,，、]", m.group(1)):
            ends = [int(x) for x in re.split(r"[\-–]", part)]
            low, high = min(ends), max(ends)
            ids.update(range(low, min(high, low + 20) + 1))
            ids.add(high)
    return ids


def check_answer(text: str, *, allowed: Iterable[float], passages: int) -> str | None:
    """Why the answer cannot be served, or None when every number and citation is supported."""
    if not text:
        return "empty answer"
    bad = unsupported_numbers(text, allowed)
    if bad:
        return f"unsupported number {bad[0]}"
    unknown = sorted(n for n in cited_ids(text) if not 1 <= n <= passages)
    if unknown:
        return f"unknown citation [{unknown[0]}]"
    return None
