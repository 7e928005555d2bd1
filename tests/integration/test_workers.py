"""`advisor serve --workers N`: several processes on one port over one local index, one conversation store."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psutil
import pytest

from assistant.settings import Settings
from tests.helpers import free_port
from tests.servers import ADVISOR, Advisor


@pytest.fixture(scope="module")
def two_workers(indexed_settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Advisor]:
    """`advisor serve --workers 2` over a copy of the test index (so nothing here writes the shared one)."""
    work = tmp_path_factory.mktemp("workers")
    shutil.copytree(indexed_settings.chroma_path, work / "data" / "chroma")
    port = free_port()
    log = work / "serve.log"
    env = {**os.environ, "ADVISOR_DATA_DIR": str(work / "data"), "ADVISOR_SERVER__RATE_LIMIT_PER_MINUTE": "0"}
    env.pop("ADVISOR_SERVER__WORKERS", None)
    with log.open("wb") as out:
        process = subprocess.Popen(
            [ADVISOR, "serve", "--port", str(port), "--workers", "2"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    served = Advisor(url=f"http://127.0.0.1:{port}", process=process, log=log)
    try:
        served.wait_ready()
        yield served
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


def _workers(served: Advisor) -> list[psutil.Process]:
    return [
        child
        for child in psutil.Process(served.process.pid).children()
        if "spawn_main" in " ".join(child.cmdline())
    ]


def test_two_worker_processes_answer_on_one_port(two_workers: Advisor) -> None:
    assert len(_workers(two_workers)) == 2, two_workers.log.read_text()[-2000:]
    assert "serving with 2 worker processes" in two_workers.log.read_text()
    questions = ["What is NVLink and why does it matter?", "InfiniBand 和 RoCE 怎么选？"] * 4
    with ThreadPoolExecutor(8) as pool:
        replies = list(pool.map(two_workers.chat, questions))
    assert [r.status_code for r in replies] == [200] * 8
    assert all("NVLink" in r.json()["answer"] for r in replies[::2])
    assert all(r.json()["language"] == "zh" for r in replies[1::2])


def test_a_conversation_goes_on_whichever_worker_takes_the_next_turn(two_workers: Advisor) -> None:
    """The turns are kept in the one conversation store, not in a worker's memory: a follow-up that
    changes one input is understood on every try, whichever process answers it."""
    for size in ("13B", "30B", "34B", "65B"):
        first = two_workers.chat("How much GPU memory to fully fine-tune a 7B model with Adam in BF16?")
        assert first.status_code == 200
        follow = two_workers.chat(f"and for {size}?", conversation_id=first.json()["conversation_id"])
        assert follow.status_code == 200
        answer = follow.json()["answer"]
        assert size in answer.split("\n")[0], answer[:300]


def test_uploads_are_refused_with_the_reason_when_workers_share_a_local_index(two_workers: Advisor) -> None:
    """A change made through one worker would not reach the other's copy of the index: 409, saying what
    to do instead, and nothing is kept."""
    reply = httpx.post(
        f"{two_workers.url}/v1/documents", files={"file": ("rack-notes.md", b"# Racks\n\nRack 7 has 40 kW.")}
    )
    assert reply.status_code == 409
    message = reply.json()["error"]["message"]
    assert "2 worker processes" in message
    assert "advisor ingest" in message
    listed = httpx.get(f"{two_workers.url}/v1/documents").json()
    assert not any(doc["uploaded"] for doc in listed)


def test_workers_must_be_at_least_one(tmp_path: Path) -> None:
    result = subprocess.run(
        [ADVISOR, "serve", "--workers", "0"],
        env={**os.environ, "ADVISOR_DATA_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "--workers" in result.stderr
