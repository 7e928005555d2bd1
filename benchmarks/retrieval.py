"""Retrieval and whole chat turns against the yardstick: a bare LangChain + Chroma similarity search.

Both run in the same process, on the same collection, with the same embedding model and the same
questions, interleaved, so the ratio is meaningful on any machine. Usage:

    python benchmarks/retrieval.py [--rounds 5]

It indexes the packaged knowledge base into a temporary folder first (or reuses ADVISOR_DATA_DIR).
A chat turn is ``Assistant.ask`` with routing, calculators, hybrid retrieval, composing and SQLite memory.
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

from langchain_chroma import Chroma

from assistant.evaluation import load_questions
from assistant.providers import load_embeddings
from assistant.settings import ConversationSettings, Settings
from assistant.wiring import build_assistant, build_retriever, ingest, open_index
from knowledge.store import open_client


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=5, help="passes over the labelled questions")
    args = parser.parse_args()

    data_dir = Path(os.environ.get("ADVISOR_DATA_DIR") or tempfile.mkdtemp(prefix="advisor-bench-"))
    settings = Settings(_env_file=None, data_dir=data_dir)  # type: ignore[call-arg]
    embeddings = load_embeddings(settings.embedding.model)
    if open_index(settings).count() == 0:
        ingest(settings, embeddings=embeddings)
    collection = open_index(settings)
    ours = build_retriever(settings, embeddings)
    scratch = Path(tempfile.mkdtemp(prefix="advisor-bench-chat-"))
    assistant = build_assistant(
        settings.model_copy(update={"conversations": ConversationSettings(path=scratch / "c.db")}), embeddings
    )
    baseline = Chroma(
        client=open_client(path=settings.chroma_path),
        collection_name=collection.name,
        embedding_function=embeddings,
    )
    questions = [q.q for q in load_questions()]
    k = settings.retrieval.top_k
    for q in questions[:5]:  # warm-up
        ours.search(q, k=k)
        baseline.similarity_search(q, k=k)

    times: dict[str, list[float]] = {"baseline": [], "hybrid": [], "chat turn": []}
    for _ in range(args.rounds):
        for q in questions:
            start = time.perf_counter()
            baseline.similarity_search(q, k=k)
            times["baseline"].append(time.perf_counter() - start)
            start = time.perf_counter()
            ours.search(q, k=k)
            times["hybrid"].append(time.perf_counter() - start)
            start = time.perf_counter()
            assistant.ask(q)
            times["chat turn"].append(time.perf_counter() - start)

    med = {name: statistics.median(values) * 1000 for name, values in times.items()}
    p95 = {name: statistics.quantiles(values, n=20)[-1] * 1000 for name, values in times.items()}
    print(f"{len(questions)} questions x {args.rounds} rounds, {collection.count()} passages, k={k}")
    for name in times:
        print(f"{name:>10}: median {med[name]:.2f} ms, p95 {p95[name]:.2f} ms")
    print(f"ratio hybrid/baseline (median): {med['hybrid'] / med['baseline']:.2f}")
    print(f"ratio chat turn/baseline (median): {med['chat turn'] / med['baseline']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
