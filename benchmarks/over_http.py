"""Ours against the yardstick over HTTP, and how the cost grows with the corpus.

    python benchmarks/over_http.py [--questions 300] [--rounds 3] [--growth 10,100] [--out benchmarks]
    python benchmarks/over_http.py --smoke        # a handful of questions, no growth: CI keeps it working

It indexes the packaged knowledge base into a scratch folder, starts our service (``advisor serve``, its
embedded defaults, one process; and again with ``--workers``, one process per CPU unless told) and the
yardstick (``benchmarks/baseline_service.py``: LangChain + Chroma top-4 ``similarity_search``, one uvicorn
worker) on free loopback ports, all on that index, and sends them the same mixed English and Chinese questions at concurrency 1, 16 and 32, in alternating bursts so that noise
on the machine hits both. Each of our requests is a whole chat turn (routing, calculators, hybrid
retrieval, composing, the turn stored in SQLite). It writes RESULTS.md and results.png to ``--out``: latency
percentiles and requests/s with the ratios ours/baseline, cold start to ``/readyz``, full index build,
re-index after editing one file, peak RSS, time per calculator call, and the same figures with the corpus
grown by replicating its documents under distinct ids. A benchmark, not a test: nothing here passes or
fails on time; the figures are for reading against the targets in RESULTS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import httpx
import psutil
import yaml

from assistant.providers import load_embeddings
from assistant.settings import Settings
from assistant.version import VERSION
from assistant.wiring import ingest, open_index

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CORPUS = REPO / "knowledge" / "corpus"
READY_TIMEOUT_S = 600
REQUEST_TIMEOUT_S = 60

# targets from issue 14, checked in RESULTS.md (not asserted anywhere)
TARGETS = {
    "rps_ratio_c16": 1.5,  # ours / baseline requests per second at concurrency 16, at least
    "p95_c1_margin_ms": 5.0,  # ours' p95 at concurrency 1 no more than the baseline's + this
    "cold_start_s": 5.0,
    "full_index_s": 30.0,
    "one_file_reindex_s": 2.0,
    "rss_mb": 1024.0,
    "growth_p50_factor": 2.0,  # p50 at x100 corpus no more than this times its x1 value
}


# --- services -------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Service:
    name: str
    url: str
    process: subprocess.Popen[bytes]
    cold_start_s: float
    log: Path
    rss_peak: int = 0

    def rss(self) -> int:
        """Resident memory of the service and its children, in bytes."""
        try:
            proc = psutil.Process(self.process.pid)
            return sum(p.memory_info().rss for p in [proc, *proc.children(recursive=True)])
        except psutil.Error:
            return 0


def start(name: str, command: list[str], env: dict[str, str], log: Path) -> Service:
    """Start a service on a free port and wait for ``/readyz``; the wait is its cold start."""
    port = free_port()
    command = [*command, "--port", str(port)]
    url = f"http://127.0.0.1:{port}"
    started = time.perf_counter()
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=REPO)
    deadline = started + READY_TIMEOUT_S
    while time.perf_counter() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited with {process.returncode}; see {log}")
        try:
            if httpx.get(f"{url}/readyz", timeout=1).status_code == 200:
                return Service(name, url, process, time.perf_counter() - started, log)
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"{name} was not ready within {READY_TIMEOUT_S} s; see {log}")


def stop(service: Service) -> None:
    service.process.terminate()
    try:
        service.process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        service.process.kill()


def several(workers: int) -> str:
    """The name of ours served by ``workers`` processes (``advisor serve --workers``)."""
    return f"ours x{workers} workers"


@contextmanager
def services(data_dir: Path, scratch: Path, workers: int = 1) -> Iterator[tuple[Service, ...]]:
    """Ours and the baseline on ``data_dir``'s index, each watched for its peak RSS; with ``workers`` > 1,
    ours served by that many processes too (started after the other two, so their cold starts are alone)."""
    env = {
        **os.environ,
        "ADVISOR_DATA_DIR": str(data_dir),
        "ADVISOR_CONVERSATIONS__PATH": str(scratch / f"conversations-{time.time_ns()}.sqlite3"),
        "ADVISOR_SERVER__RATE_LIMIT_PER_MINUTE": "0",
        "ADVISOR_SERVER__RATE_LIMIT_PER_ORIGIN_MINUTE": "0",
    }
    advisor = shutil.which("advisor", path=str(Path(sys.executable).parent)) or "advisor"
    ours = start("ours", [advisor, "serve"], env, scratch / "ours.log")
    baseline = start(
        "baseline",
        [sys.executable, str(HERE / "baseline_service.py"), "--data-dir", str(data_dir)],
        env,
        scratch / "baseline.log",
    )
    running = [ours, baseline]
    if workers > 1:
        running.append(
            start(
                several(workers), [advisor, "serve", "--workers", str(workers)], env, scratch / "workers.log"
            )
        )
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.1):
            for s in running:
                s.rss_peak = max(s.rss_peak, s.rss())

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield tuple(running)
    finally:
        done.set()
        watcher.join()
        for s in running:
            stop(s)


# --- load -----------------------------------------------------------------------------------------


@dataclass
class Load:
    latencies_ms: list[float] = field(default_factory=list)
    seconds: float = 0.0
    failures: int = 0
    # the first burst alone: every question new to ours's caches of first messages and query vectors (later
    # bursts ask the same questions again)
    first: Load | None = None

    @property
    def rps(self) -> float:
        return len(self.latencies_ms) / self.seconds if self.seconds else 0.0

    def pct(self, q: float) -> float:
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))] if ordered else float("nan")


async def burst(urls: str | list[str], questions: list[str], concurrency: int, load: Load) -> None:
    """Every question once, ``concurrency`` at a time; several ``urls`` take them in turn (round robin)."""
    targets = [urls] if isinstance(urls, str) else urls
    gate = asyncio.Semaphore(concurrency)
    limits = httpx.Limits(
        max_connections=concurrency * len(targets), max_keepalive_connections=concurrency * len(targets)
    )
    async with httpx.AsyncClient(timeout=REQUEST_TIMEOUT_S, limits=limits) as client:

        async def one(n: int, question: str) -> None:
            async with gate:
                started = time.perf_counter()
                resp = await client.post(f"{targets[n % len(targets)]}/v1/chat", json={"message": question})
                if resp.status_code != 200:
                    load.failures += 1
                    return
                load.latencies_ms.append((time.perf_counter() - started) * 1000)

        started = time.perf_counter()
        await asyncio.gather(*(one(n, q) for n, q in enumerate(questions)))
        load.seconds += time.perf_counter() - started


def drive(
    running: tuple[Service, ...], questions: list[str], concurrency: int, rounds: int
) -> dict[str, Load]:
    """``rounds`` bursts of all ``questions`` to each service, alternating the order they go in."""
    loads = {s.name: Load() for s in running}
    for s in running:  # warm-up: first-request costs are not what is measured
        asyncio.run(burst(s.url, questions[:8], min(concurrency, 8), Load()))
    for n in range(rounds):
        for s in running if n % 2 == 0 else running[::-1]:
            asyncio.run(burst(s.url, questions, concurrency, loads[s.name]))
            if n == 0:
                load = loads[s.name]
                load.first = Load(list(load.latencies_ms), load.seconds, load.failures)
    return loads


def question_pool(n: int) -> list[str]:
    """``n`` distinct questions as users wrote them: the first turns of the held-out sets in tests/data/fresh
    (English, Chinese and mixed, in a fixed shuffled order), so that no cache answers a repeat."""
    seen: dict[str, None] = {}
    for path in sorted((REPO / "tests" / "data" / "fresh").glob("*.yaml")):
        if ".scored." in path.name:
            continue
        for conversation in yaml.safe_load(path.read_text(encoding="utf-8")).get("conversations", []):
            turns = conversation.get("turns") or []
            if turns and isinstance(turns[0].get("user"), str):
                seen[" ".join(turns[0]["user"].split())] = None
    ordered = sorted(seen, key=lambda q: hashlib.sha1(q.encode()).hexdigest())
    if len(ordered) < n:
        raise SystemExit(f"only {len(ordered)} distinct questions in tests/data/fresh; ask for fewer")
    return ordered[:n]


# --- indexing and calculators ---------------------------------------------------------------------


@dataclass
class Indexing:
    chunks: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.chunks / self.seconds if self.seconds else 0.0


def build_index(data_dir: Path, extra: list[Path] | None = None) -> Indexing:
    settings = Settings(_env_file=None, data_dir=data_dir)  # type: ignore[call-arg]
    embeddings = load_embeddings(settings.embedding.model)  # loaded before the clock starts
    started = time.perf_counter()
    ingest(settings, extra, embeddings=embeddings)
    return Indexing(open_index(settings).count(), time.perf_counter() - started)


def reindex_one_file(data_dir: Path, scratch: Path) -> float:
    """Seconds to re-index after one file of an indexed folder changes (the rest checked, not embedded)."""
    settings = Settings(_env_file=None, data_dir=data_dir)  # type: ignore[call-arg]
    embeddings = load_embeddings(settings.embedding.model)
    folder = scratch / "edited"
    shutil.copytree(CORPUS / "en", folder)
    ingest(settings, [folder], embeddings=embeddings)
    edited = folder / "storage.md"
    edited.write_text(
        edited.read_text(encoding="utf-8") + "\n\nAn added paragraph, as an editor would add one.\n",
        encoding="utf-8",
    )
    started = time.perf_counter()
    stats = ingest(settings, [folder], embeddings=embeddings)
    seconds = time.perf_counter() - started
    assert stats.embedded >= 1, stats
    return seconds


def calculator_ms(repeat: int) -> dict[str, float]:
    """Median milliseconds per call of each calculator through the registry (validation included)."""
    sys.path.insert(0, str(HERE))
    from calculators import time_calculators  # benchmarks/calculators.py: typical inputs, the timing loop

    return {name: statistics.median(times) for name, times in time_calculators(repeat).items()}


def grown_corpus(factor: int, scratch: Path) -> Path:
    """``factor - 1`` copies of the corpus under distinct paths: with the packaged one, ``factor`` times it."""
    folder = scratch / f"grown-x{factor}"
    for n in range(1, factor):
        shutil.copytree(CORPUS, folder / f"copy-{n:03d}", ignore=shutil.ignore_patterns("README.md"))
    return folder


# --- report ---------------------------------------------------------------------------------------


@dataclass
class Growth:
    factor: int
    indexing: Indexing
    loads: dict[str, Load]
    rss_mb: dict[str, float]


def mb(n: int | float) -> float:
    return n / 2**20


def chart(loads: dict[int, dict[str, Load]], growth: list[Growth], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    data, labels = [], []
    for c, measured in loads.items():
        for name, load in measured.items():
            data.append(load.latencies_ms)
            labels.append(f"{name.replace(' workers', 'w').replace('ours x', 'ours×')}\nc={c}")
    left.boxplot(data, tick_labels=labels, showfliers=False)
    left.tick_params(axis="x", labelsize=8)
    left.set_ylabel("latency per request (ms)")
    left.set_title("Latency over HTTP (whiskers 1.5 IQR)")
    if growth:
        # the packaged knowledge base (x1, at concurrency 1) is the curve's first point
        base = [(1, loads[1])] if 1 in loads else []
        points = base + [(g.factor, g.loads) for g in growth]
        for name, style in (("baseline", "o--"), ("ours", "s-")):
            right.plot(
                [f for f, _ in points], [ls[name].pct(50) for _, ls in points], style, label=f"{name} p50"
            )
        right.set_xscale("log")
        right.set_xlabel("corpus size (x the packaged knowledge base)")
        right.set_ylabel("p50 latency at concurrency 1 (ms)")
        right.set_title("Growth")
        right.legend()
    else:
        right.set_axis_off()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def verdict(ok: bool) -> str:
    return "met" if ok else "**not met**"


def report(
    args: argparse.Namespace,
    loads: dict[int, dict[str, Load]],
    cold: dict[str, float],
    rss: dict[str, float],
    full: Indexing,
    reindex_s: float,
    calculators: dict[str, float],
    growth: list[Growth],
    questions: int,
) -> str:
    import chromadb
    import fastapi
    import langchain_core

    lines = [
        "# HTTP benchmark: ours against a bare LangChain + Chroma service",
        "",
        f"Run `{' '.join(['python benchmarks/over_http.py', *sys.argv[1:]])}`"
        + f" on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.",
        f"Machine: {platform.platform()}, {os.cpu_count()} CPUs, {mb(psutil.virtual_memory().total) / 1024:.0f} GiB RAM; "
        f"Python {platform.python_version()}; advisor {VERSION}, chromadb {chromadb.__version__}, "
        f"langchain-core {langchain_core.__version__}, fastapi {fastapi.__version__}.",
        f"{questions} distinct questions (first turns of the held-out sets in tests/data/fresh, English, Chinese and "
        f"mixed), {args.rounds} burst(s) per "
        "service and concurrency, alternating which service goes first; the load generator runs on the same "
        "machine. Ours: `advisor serve` on its defaults, one process (a whole chat turn per request, each a new "
        "conversation stored in SQLite)"
        + (
            f"; {several(args.workers)}: the same with `--workers {args.workers}` (one process per core here)"
            if args.workers > 1
            else ""
        )
        + ". Baseline: `benchmarks/baseline_service.py` (top-4 similarity_search, one uvicorn worker).",
        "",
        "## Latency and throughput",
        "",
        "| concurrency | service | requests | failures | p50 ms | p95 ms | p99 ms | requests/s | ratio ours/baseline (req/s) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for c, measured in loads.items():
        for name in ["baseline", *(n for n in measured if n != "baseline")]:
            load = measured[name]
            ratio = f"{load.rps / measured['baseline'].rps:.2f}" if name != "baseline" else ""
            lines.append(
                f"| {c} | {name} | {len(load.latencies_ms)} | {load.failures} | {load.pct(50):.1f} | "
                f"{load.pct(95):.1f} | {load.pct(99):.1f} | {load.rps:.1f} | {ratio} |"
            )
    lines += [
        "",
        "Ours keeps what it works out for a conversation's first message (its understanding, and each query "
        "vector) for the most recent 2,048 and 4,096 texts, as a service meets the same starting questions "
        "again (suggestions clicked, common questions); the bursts after the first ask the same questions, so "
        "the first burst alone is the cost at first sight:",
        "",
        "| concurrency | service | first burst: p50 ms | p95 ms | requests/s | ratio ours/baseline (req/s) |",
        "|---|---|---|---|---|---|",
    ]
    for c, measured in loads.items():
        base = measured["baseline"].first
        for name in ["baseline", *(n for n in measured if n != "baseline")]:
            first = measured[name].first
            if first is None or base is None:
                continue
            ratio = f"{first.rps / base.rps:.2f}" if name != "baseline" and base.rps else ""
            lines.append(
                f"| {c} | {name} | {first.pct(50):.1f} | {first.pct(95):.1f} | {first.rps:.1f} | {ratio} |"
            )
    lines += [
        "",
        "## Start, index, memory, calculators",
        "",
        "| figure | ours | baseline |",
        "|---|---|---|",
        f"| cold start to /readyz, index present (s) | {cold['ours']:.1f} | {cold['baseline']:.1f} |",
        f"| peak RSS during the run (MB) | {rss['ours']:.0f} | {rss['baseline']:.0f} |",
        *(
            [
                f"| {several(args.workers)}: cold start (s), peak RSS of all its processes (MB) | "
                f"{cold[several(args.workers)]:.1f}, {rss[several(args.workers)]:.0f} | |"
            ]
            if args.workers > 1
            else []
        ),
        f"| full index build of knowledge/ ({full.chunks} passages; model loaded) (s) | {full.seconds:.1f} | |",
        f"| re-index after editing one file (s) | {reindex_s:.2f} | |",
        "",
        "Median milliseconds per calculator call (registry, validation included): "
        + ", ".join(f"{name} {ms:.3f}" for name, ms in calculators.items())
        + f". Slowest: {max(calculators, key=calculators.__getitem__)} {max(calculators.values()):.3f} ms.",
    ]
    if growth:
        lines += [
            "",
            "## Growth (corpus replicated under distinct ids)",
            "",
            "| corpus | passages | index build (s) | passages/s | ours p50 / p95 ms (c=1) | baseline p50 / p95 ms (c=1) | ours RSS MB | baseline RSS MB |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for g in growth:
            o, b = g.loads["ours"], g.loads["baseline"]
            lines.append(
                f"| x{g.factor} | {g.indexing.chunks} | {g.indexing.seconds:.1f} | {g.indexing.per_second:.0f} | "
                f"{o.pct(50):.1f} / {o.pct(95):.1f} | {b.pct(50):.1f} / {b.pct(95):.1f} | {g.rss_mb['ours']:.0f} | "
                f"{g.rss_mb['baseline']:.0f} |"
            )
    lines += ["", "## Targets (issue 14)", ""]
    c16 = loads.get(16)
    if c16:
        for name in [n for n in c16 if n != "baseline"]:
            r16 = c16[name].rps / c16["baseline"].rps
            lines.append(
                f"- requests/s at concurrency 16 ≥ {TARGETS['rps_ratio_c16']}× baseline ({name}): {r16:.2f}× — "
                f"{verdict(r16 >= TARGETS['rps_ratio_c16'])}"
            )
    c1 = loads.get(1)
    if c1:
        gap = c1["ours"].pct(95) - c1["baseline"].pct(95)
        lines.append(
            f"- p95 at concurrency 1 ≤ baseline + {TARGETS['p95_c1_margin_ms']:.0f} ms: {gap:+.1f} ms — {verdict(gap <= TARGETS['p95_c1_margin_ms'])}"
        )
    lines += [
        f"- cold start ≤ {TARGETS['cold_start_s']:.0f} s: {cold['ours']:.1f} s — {verdict(cold['ours'] <= TARGETS['cold_start_s'])}",
        f"- full index ≤ {TARGETS['full_index_s']:.0f} s: {full.seconds:.1f} s — {verdict(full.seconds <= TARGETS['full_index_s'])}",
        f"- one-file re-index ≤ {TARGETS['one_file_reindex_s']:.0f} s: {reindex_s:.2f} s — {verdict(reindex_s <= TARGETS['one_file_reindex_s'])}",
        f"- RSS ≤ {TARGETS['rss_mb']:.0f} MB: {rss['ours']:.0f} MB — {verdict(rss['ours'] <= TARGETS['rss_mb'])}",
    ]
    biggest = max(growth, key=lambda g: g.factor) if growth else None
    if biggest and c1:
        factor = biggest.loads["ours"].pct(50) / c1["ours"].pct(50)
        lines.append(
            f"- p50 at x{biggest.factor} corpus ≤ {TARGETS['growth_p50_factor']:.0f}× its x1 value: {factor:.2f}× — "
            f"{verdict(factor <= TARGETS['growth_p50_factor'])}"
        )
    lines += ["", "![latency and growth](results.png)", ""]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--questions", type=int, default=300, help="questions per burst (cycled from the labelled set)"
    )
    parser.add_argument("--rounds", type=int, default=3, help="bursts per service and concurrency")
    parser.add_argument("--concurrency", default="1,16,32", help="comma-separated concurrency levels")
    parser.add_argument("--growth", default="10,100", help="corpus factors to grow to ('' for none)")
    parser.add_argument("--growth-questions", type=int, default=60, help="questions per burst when grown")
    parser.add_argument("--out", type=Path, default=HERE, help="folder for RESULTS.md and results.png")
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="also measure ours served by this many processes (`advisor serve --workers`); 1 for not "
        "(default: one per CPU)",
    )
    parser.add_argument(
        "--smoke", action="store_true", help="8 questions, 1 round, concurrency 1 and 4, no growth"
    )
    args = parser.parse_args()
    if args.smoke:
        args.questions, args.rounds, args.concurrency, args.growth = 8, 1, "1,4", ""
    levels = [int(c) for c in args.concurrency.split(",") if c]
    factors = [int(f) for f in args.growth.split(",") if f]
    questions = question_pool(args.questions)
    scratch = Path(tempfile.mkdtemp(prefix="advisor-http-bench-"))
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        print(f"indexing knowledge/ into {scratch} ...", file=sys.stderr)
        full = build_index(scratch / "x1")
        reindex_s = reindex_one_file(scratch / "reindex", scratch)
        loads: dict[int, dict[str, Load]] = {}
        with services(scratch / "x1", scratch, args.workers) as running:
            cold = {s.name: s.cold_start_s for s in running}
            for c in levels:
                print(
                    f"concurrency {c}: {len(questions)} questions x {args.rounds} rounds each ...",
                    file=sys.stderr,
                )
                loads[c] = drive(running, questions, c, args.rounds)
        rss = {s.name: mb(s.rss_peak) for s in running}
        calculators = calculator_ms(20 if args.smoke else 200)
        growth = []
        for factor in factors:
            print(f"corpus x{factor}: indexing ...", file=sys.stderr)
            indexing = build_index(scratch / f"x{factor}", [grown_corpus(factor, scratch)])
            with services(scratch / f"x{factor}", scratch) as running:
                grown = drive(running, questions[: args.growth_questions], 1, 1)
            growth.append(Growth(factor, indexing, grown, {s.name: mb(s.rss_peak) for s in running}))
        failures = sum(load.failures for measured in loads.values() for load in measured.values())
        (args.out / "RESULTS.md").write_text(
            report(args, loads, cold, rss, full, reindex_s, calculators, growth, len(questions)),
            encoding="utf-8",
        )
        chart(loads, growth, args.out / "results.png")
        print(f"wrote {args.out / 'RESULTS.md'} and {args.out / 'results.png'}", file=sys.stderr)
        return 1 if failures else 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
