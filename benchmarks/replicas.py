"""Capacity with shared stores: requests per second of one `advisor serve` replica, and of two replicas
on the same machine, both against real PostgreSQL, Redis and Chroma servers started on loopback ports.

Not a test: its figures go into the README's capacity note (a smoke run keeps it working in CI). Both
set-ups get the same distinct questions (first turns of the held-out sets) at the same concurrency; with
two replicas the client sends alternate requests to each, as a round-robin proxy would. Traffic goes
only to 127.0.0.1. Usage:

    python benchmarks/replicas.py                 # 240 questions per round, concurrency 16, 2 rounds
    python benchmarks/replicas.py --smoke         # a handful of questions, one round
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")


HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # run as a script from anywhere: the repo's tests helpers

from benchmarks.over_http import Load, burst, question_pool  # noqa: E402
from tests.servers import ADVISOR, Advisor, chroma_server, postgres_server, redis_server, start_advisor  # noqa: E402

READY_S = 600.0


def measure(urls: list[str], questions: list[str], concurrency: int, rounds: int) -> Load:
    asyncio.run(burst(urls, questions[:8], min(8, concurrency), Load()))  # warm-up, not measured
    load = Load()
    for _ in range(rounds):
        asyncio.run(burst(urls, questions, concurrency, load))
    return load


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--questions", type=int, default=240)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--smoke", action="store_true", help="8 questions, one round")
    args = parser.parse_args()
    if args.smoke:
        args.questions, args.rounds, args.concurrency = 8, 1, 4
    questions = question_pool(args.questions)

    with tempfile.TemporaryDirectory(prefix="advisor-replicas-") as tmp, ExitStack() as stack:
        scratch = Path(tmp)
        pg = stack.enter_context(postgres_server())
        redis = stack.enter_context(redis_server())
        chroma = stack.enter_context(chroma_server(scratch / "chroma"))
        env = {
            **os.environ,
            "ADVISOR_VECTOR_STORE__URL": chroma.url,
            "ADVISOR_DATABASE__URL": pg.new_database("advisor"),
            "ADVISOR_REDIS__URL": redis.url,
            "ADVISOR_SERVER__RATE_LIMIT_PER_MINUTE": "0",
        }
        began = time.perf_counter()
        done = subprocess.run(
            [ADVISOR, "ingest"],
            env={**env, "ADVISOR_DATA_DIR": str(scratch / "data-job")},
            capture_output=True,
        )
        if done.returncode != 0:
            raise SystemExit(done.stderr.decode()[-2000:])
        ingest_s = time.perf_counter() - began

        started: list[Advisor] = []

        def ready(name: str) -> Advisor:
            started.append(start_advisor(env, scratch, name))
            started[-1].wait_ready(timeout=READY_S)
            return started[-1]

        try:
            a = ready("a")
            one = measure([a.url], questions, args.concurrency, args.rounds)
            b = ready("b")
            two = measure([a.url, b.url], questions, args.concurrency, args.rounds)
        finally:
            for replica in started:
                replica.process.terminate()
                replica.process.wait(timeout=60)

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(
        f"stores: PostgreSQL, Redis and a Chroma server on loopback; index built by `advisor ingest` in {ingest_s:.1f} s"
    )
    print(f"{len(questions)} distinct questions x {args.rounds} rounds, concurrency {args.concurrency}")
    print("| replicas | requests | failures | req/s | p50 ms | p95 ms |")
    print("|---|---|---|---|---|---|")
    for name, load in (("1", one), ("2 (same machine)", two)):
        p50 = statistics.median(load.latencies_ms) if load.latencies_ms else float("nan")
        print(
            f"| {name} | {len(load.latencies_ms)} | {load.failures} | {load.rps:.1f} | {p50:.0f} | {load.pct(95):.0f} |"
        )
    return 1 if one.failures or two.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
