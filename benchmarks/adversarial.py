"""How long routing (language, intent, slots) takes for messages built to make patterns backtrack,
against ordinary prose of the same length, in one run. Usage: python benchmarks/adversarial.py

The suite's check (tests/reliability/test_adversarial_input.py) asserts the worst ratio; this prints
every figure for docs/RELIABILITY.md.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assistant.router import Router
from assistant.service import MAX_MESSAGE_CHARS
from assistant.slots import SlotExtractor
from knowledge.catalog import default_catalog
from knowledge.names import NameIndex
from tests.reliability.adversarial import adversarial_messages, prose


def cost(router: Router, message: str, runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        router.route(message)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    router = Router(extractor=SlotExtractor(NameIndex(default_catalog())))
    for length in (500, 2000, MAX_MESSAGE_CHARS):
        yardstick = cost(router, prose(length))
        costs = sorted(((cost(router, m), m) for m in adversarial_messages(length)), reverse=True)
        worst, message = costs[0]
        print(
            f"{length:>5} characters: prose {yardstick * 1000:.1f} ms; {len(costs)} adversarial messages, "
            f"median {costs[len(costs) // 2][0] * 1000:.1f} ms, worst {worst * 1000:.1f} ms "
            f"({worst / yardstick:.1f}x prose, {message[:12]!r}...)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
