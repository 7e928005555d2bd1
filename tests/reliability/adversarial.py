"""Messages built to make text patterns backtrack: long digit runs, repeated separators, mixed scripts.

Shared by the router's cost check (tests/reliability/test_adversarial_input.py) and the load script.
"""

from __future__ import annotations

import random

# pieces that patterns for numbers, units, counts and trigger words start on
PIECES = [
    "1", "1,", "1.", "1 ", "1-", "1/", "1%", "1e", "1.5.", "1,000,", "一", "十", "两", "万", "亿", "千亿",
    "$1", "¥1", "1b ", "1B", "1k", "1t token ", "8x", "8×", "8*", "H100 ", "A100 40G", "8卡", "8张", "台8卡",
    "需要", "多少", "几", "如果", "呢", " days train ", "how many ", "recommend ", "mfu 1", "zero",
    "-", "--", ",,", "..", "  ", "\t", "\n", "a", "ab ", "x", "(", "年", "1年", "天", "1天", "元", "1元",
    "参数", "1亿参数", "GPU", "gpu小时", "token", "的", "用", "é", "\u0301", "🙂", "Ⅻ", "١٢٣",
]  # fmt: skip


def repeated(piece: str, length: int) -> str:
    return (piece * (length // len(piece) + 1))[:length]


def adversarial_messages(length: int, *, pairs: int = 60, seed: int = 20261203) -> list[str]:
    """Every piece repeated to ``length`` characters, plus ``pairs`` random two-piece mixtures."""
    rng = random.Random(seed)
    messages = [repeated(piece, length) for piece in PIECES]
    for _ in range(pairs):
        first, second = rng.sample(PIECES, 2)
        messages.append(repeated(first + second, length))
    return messages


def prose(length: int) -> str:
    """An ordinary long question of ``length`` characters, the yardstick for the adversarial ones."""
    sentences = [
        "We want to train a 70B model on 2T tokens with 256 H100 GPUs at 40% MFU; how many days will it take?",
        "我们有两台8卡A100服务器，预算300万元，想在一个月内微调一个700亿参数的模型，显存够不够？",
    ]
    return repeated(" ".join(sentences) + " ", length)
