"""The change a follow-up makes to the previous turn's figure: "PUE降到1.15 一年能省多少" asks for the saving,
so the answer leads with the difference between the two runs, not with the new total alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from assistant.calculators.common import num
from assistant.models import ToolCall
from knowledge.text import Language

# one figure per calculator that a change is measured on: its value, and whether it is money (a dict of
# usd and cny) or a plain quantity with a unit in each language
_Figure = Callable[[dict[str, Any]], Any]


def _expected(key: str) -> _Figure:
    def read(output: dict[str, Any]) -> Any:
        value = output.get(key)
        return value.get("expected") if isinstance(value, dict) and "expected" in value else value

    return read


# name: (the figure, money?, unit in English, unit in Chinese, what it is in English, in Chinese)
_MEASURES: dict[str, tuple[_Figure, bool, str, str, str, str]] = {
    "power_cost": (_expected("yearly_energy_cost"), True, "", "", "the yearly electricity bill", "每年电费"),
    "cloud_cost": (_expected("total"), True, "", "", "the cloud bill", "云上费用"),
    "training_compute": (_expected("days"), False, " days", " 天", "the training time", "训练时间"),
    "gpus_for_deadline": (_expected("gpus"), False, " GPUs", " 张卡", "the GPU count", "所需卡数"),
}


def _money(amount: float, first: str) -> str:
    return f"¥{num(amount)}" if first == "CNY" else f"${num(amount)}"


def change_lead(
    previous: list[ToolCall], calls: list[ToolCall], language: Language, first: str
) -> str | None:
    """One sentence with the difference the follow-up makes to the first figure both turns computed, in the
    reader's currency (``first``); None when no calculator ran in both turns or nothing changed."""
    zh = language == "zh"
    for call in calls:
        earlier = next((c for c in reversed(previous) if c.name == call.name), None)
        if earlier is None or call.name not in _MEASURES:
            continue
        figure, is_money, unit_en, unit_zh, what_en, what_zh = _MEASURES[call.name]
        before, after = figure(earlier.output), figure(call.output)
        if is_money and isinstance(before, dict) and isinstance(after, dict):
            key = "cny" if first == "CNY" else "usd"
            if before.get(key) is None or after.get(key) is None:
                continue
            old, new = float(before[key]), float(after[key])
        elif isinstance(before, int | float) and isinstance(after, int | float):
            old, new = float(before), float(after)
        else:
            continue

        def shown(value: float, is_money: bool = is_money, unit: str = unit_zh if zh else unit_en) -> str:
            return _money(value, first) if is_money else f"{num(value)}{unit}"

        if old == new or old <= 0:
            continue
        share = abs(new - old) / old * 100
        if zh:
            return (
                f"与上一轮相比，{what_zh}{'减少' if new < old else '增加'} **{shown(abs(new - old))}**"
                f"（{shown(old)} → {shown(new)}，{share:.0f}%）。"
            )
        return (
            f"Against the previous answer, {what_en} {'falls' if new < old else 'rises'} by "
            f"**{shown(abs(new - old))}** ({shown(old)} → {shown(new)}, {share:.0f}%)."
        )
    return None
