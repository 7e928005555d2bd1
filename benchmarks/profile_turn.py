"""Where a chat turn's time goes: a sampling profile of ``Assistant.ask`` over the benchmark's questions.

    python benchmarks/profile_turn.py [--questions 200] [--out benchmarks/PROFILE.md]

It indexes the packaged knowledge base into a scratch folder (or uses ADVISOR_DATA_DIR), asks the same
distinct, user-written questions as benchmarks/over_http.py in one process (no HTTP), and writes the
milliseconds per turn of each stage of ``Assistant._answer`` (routing, calculators, retrieval and its
parts, composing, HTML, storing the turn) with pyinstrument, beside the yardstick's own work: embedding
the question and one Chroma query, timed directly. This is what explains the ratios in RESULTS.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from pyinstrument import Profiler
from pyinstrument.frame import Frame

from assistant.providers import load_embeddings
from assistant.settings import ConversationSettings, Settings
from assistant.wiring import build_assistant, ingest, open_index

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from over_http import question_pool  # noqa: E402  (a sibling script, not a package)

# the stages worth naming: a frame of these functions below Assistant._answer
STAGES = {
    "Router.route": "understanding (routing and slot filling)",
    "ToolBox.run_for": "calculators",
    "HybridRetriever.search": "retrieval (hybrid, sections, sentences)",
    "TemplateComposer.stream": "composing the answer",
    "answer_html": "rendering and sanitising HTML",
    "SqliteStore.save_turn": "storing the turn (SQLite)",
}
PARTS = {
    "HybridRetriever._embed_queries": "embedding the question (and the sentence it asks in)",
    "HybridRetriever._dense": "Chroma query",
}


def _total(frame: Frame, name: str) -> float:
    """Seconds spent in frames called ``name`` anywhere under ``frame`` (outermost calls only)."""
    if f"{frame.class_name}.{frame.function}" == name or frame.function == name:
        return frame.time
    return sum(_total(child, name) for child in frame.children)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--out", type=Path, default=HERE / "PROFILE.md")
    args = parser.parse_args()
    data_dir = Path(os.environ.get("ADVISOR_DATA_DIR") or tempfile.mkdtemp(prefix="advisor-profile-"))
    scratch = Path(tempfile.mkdtemp(prefix="advisor-profile-chat-"))
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, data_dir=data_dir, conversations=ConversationSettings(path=scratch / "c.db")
    )
    embeddings = load_embeddings(settings.embedding.model)
    if open_index(settings).count() == 0:
        ingest(settings, embeddings=embeddings)
    assistant = build_assistant(settings, embeddings)
    questions = question_pool(args.questions)
    for q in questions[:10]:  # warm-up
        assistant.ask(q)

    # the yardstick's work per request: embed the question, one top-4 query
    collection = open_index(settings)
    yardstick = []
    for q in questions:
        started = time.perf_counter()
        collection.query(query_embeddings=[embeddings.embed_query(q)], n_results=4)
        yardstick.append(time.perf_counter() - started)

    profiler = Profiler(interval=0.001)
    started = time.perf_counter()
    with profiler:
        for q in questions:
            assistant.ask(q)
    per_turn_ms = (time.perf_counter() - started) / len(questions) * 1000
    session = profiler.last_session
    assert session is not None
    root = session.root_frame()
    assert root is not None
    n = len(questions)
    # the turn's generator is resumed from several places, so its time is summed over every frame of it
    sampled = _total(root, "Assistant._answer") / n * 1000
    rows = [(label, _total(root, name) / n * 1000) for name, label in STAGES.items()]
    parts = [(label, _total(root, name) / n * 1000) for name, label in PARTS.items()]
    named = sum(ms for _, ms in rows)
    lines = [
        "# Where a chat turn's time goes",
        "",
        f"`python benchmarks/profile_turn.py --questions {n}` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: "
        f"{n} distinct user-written questions asked in one process (no HTTP), sampled with pyinstrument every 1 ms.",
        "",
        f"A whole turn: **{per_turn_ms:.1f} ms** (the profiler's own overhead included); the yardstick's work for one "
        f"request (embed the question, one top-4 Chroma query): **{statistics.mean(yardstick) * 1000:.1f} ms**.",
        "",
        "| stage of `Assistant._answer` | ms per turn | share |",
        "|---|---|---|",
        *(f"| {label} | {ms:.1f} | {ms / sampled:.0%} |" for label, ms in rows),
        f"| everything else (conversation load, checks, models) | {sampled - named:.1f} | {(sampled - named) / sampled:.0%} |",
        f"| **all of `Assistant._answer`** | **{sampled:.1f}** | 100% |",
        "",
        "Inside retrieval: " + "; ".join(f"{label} {ms:.1f} ms" for label, ms in parts) + ".",
        "",
    ]
    args.out.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
