"""Numbers as people write them, in English and Chinese: "1,024", "1.5", "两", "十二", "2.4e24", with
multipliers ("70B", "1.8万亿", "$300k"), and the regular-expression pieces that find them.

A number never starts or ends inside a longer run of digits and separators ("1.5.1", "2025-12"), so
each pattern tries one start per number instead of one per digit: the work stays linear in the text.
"""

from __future__ import annotations

import re

import cn2an

CN_DIGITS = "零〇一二两三四五六七八九十百千"
AMOUNT_BODY = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"  # "1,024", "1,000,000.5", "45", "1.8"
_START = r"(?<![\d.,])"
NUMBER_END = r"(?![.,]?\d)"
NUMBER = rf"(?<![\d.,{CN_DIGITS}])({AMOUNT_BODY}|[{CN_DIGITS}]+){NUMBER_END}"
DECIMAL = rf"{_START}(\d+(?:\.\d+)?){NUMBER_END}"
AMOUNT = rf"{_START}({AMOUNT_BODY}){NUMBER_END}"
INTEGER = rf"{_START}(\d+){NUMBER_END}"
MULTIPLIERS = {
    "k": 1e3, "千": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6, "百万": 1e6, "万": 1e4, "千万": 1e7, "亿": 1e8,
    "千亿": 1e11, "b": 1e9, "bn": 1e9, "billion": 1e9, "十亿": 1e9, "t": 1e12, "trillion": 1e12, "万亿": 1e12,
}  # fmt: skip

# \b treats CJK characters as word characters, so "QLoRA微调" or "5年TCO" has no boundary at the
# Latin word: boundaries here look at ASCII letters and digits only.
ASCII_BOUNDARY = r"(?:(?<![A-Za-z0-9])(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?![A-Za-z0-9]))"


def flags(pattern: str) -> re.Pattern[str]:
    """Compile case-insensitively, with ``\\b`` meaning an ASCII word boundary."""
    return re.compile(pattern.replace(r"\b", ASCII_BOUNDARY), re.IGNORECASE)


_DIGIT = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def to_number(text: str) -> float:
    """'1,024' -> 1024.0, '1.5' -> 1.5, '两' -> 2.0, '十二' -> 12.0, '三四' (three or four) -> 3.5."""
    text = text.strip()
    if text and text[0].isdigit():
        return float(text.replace(",", ""))
    if (
        len(text) == 2
        and (low := _DIGIT.get(text[0]))
        and (high := _DIGIT.get(text[1]))
        and 0 < high - low <= 2
    ):
        # "三四个月", "两三台", "三五年": two digits side by side are a rough range, not 34; its middle
        return (low + high) / 2
    if text[:1] in {"十", "百", "千"}:
        text = "一" + text  # "千亿" is one thousand hundred-millions
    try:
        return float(cn2an.cn2an(text, "smart"))
    except ValueError:
        return 0.0  # numerals that make no number ("十十"): nothing stated, never an error


def scaled(number: str, unit: str | None) -> float:
    """``number`` times its multiplier word ("300", "k") -> 300000.0."""
    return to_number(number) * MULTIPLIERS.get((unit or "").lower(), 1.0)
