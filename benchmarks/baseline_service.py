"""The yardstick of benchmarks/over_http.py: a bare LangChain + Chroma retrieval service, built the usual way.

``POST /v1/chat {"message": str}`` answers with the top-4 passages of ``Chroma.similarity_search``,
joined, and their sources; ``GET /readyz`` says it is up. It reads the collection our index wrote, with
the same embedding model, and serves with one uvicorn worker:

    python benchmarks/baseline_service.py --data-dir DIR [--port 8001]

Nothing else: no routing, no calculators, no keyword index, no memory. That is the point of it.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import uvicorn
from fastapi import FastAPI
from langchain_chroma import Chroma
from pydantic import BaseModel

from assistant.providers import load_embeddings
from assistant.settings import Settings
from assistant.wiring import open_index
from knowledge.store import open_client

TOP_K = 4


class Question(BaseModel):
    message: str


class Reply(BaseModel):
    answer: str
    sources: list[str]


def create_app(data_dir: Path) -> FastAPI:
    settings = Settings(_env_file=None, data_dir=data_dir)  # type: ignore[call-arg]
    store = Chroma(
        client=open_client(path=settings.chroma_path),
        collection_name=open_index(settings).name,
        # the same embedder as ours, with the same threads per call
        embedding_function=load_embeddings(settings.embedding.model, threads=settings.embedding.threads),
    )
    app = FastAPI(title="baseline: LangChain + Chroma")

    @app.post("/v1/chat")
    def chat(question: Question) -> Reply:
        docs = store.similarity_search(question.message, k=TOP_K)
        return Reply(
            answer="\n\n".join(d.page_content for d in docs),
            sources=[str(d.metadata.get("path", "")) for d in docs],
        )

    @app.get("/readyz")
    def ready() -> dict[str, str]:
        return {"status": "ready"}

    return app


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data-dir", type=Path, required=True, help="the data folder whose index to serve")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    args = parser.parse_args()
    if not (args.data_dir / "chroma").exists():
        print(
            f"no index under {args.data_dir}: run 'advisor ingest' with ADVISOR_DATA_DIR={args.data_dir}",
            file=sys.stderr,
        )
        return 2
    uvicorn.run(create_app(args.data_dir), host=args.host, port=args.port, workers=1, log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
