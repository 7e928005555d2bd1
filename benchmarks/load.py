"""Load the service with mixed traffic and check that no conversation loses or reorders a turn.

Not a test: a script whose figures go into docs/RELIABILITY.md. It sends ``--requests`` requests
(default 5,000) from ``--concurrency`` clients (default 32) to 127.0.0.1 only: multi-turn chats (JSON
and streamed), OpenAI-compatible completions, calculator calls, feedback, health checks, adversarial
messages (4,000 digits) and invalid bodies. After the run every conversation is read back and compared
with what was sent: the same turns, in the same order. Usage:

    python benchmarks/load.py                       # starts `advisor serve` on a free port (builds an index)
    python benchmarks/load.py --url http://127.0.0.1:8000   # a running service without keys or rate limit

Exit status 1 if any request failed unexpectedly or any conversation does not match.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx

QUESTIONS = [
    "How many days to train a 70B model on 2T tokens with 512 H100s?",
    "用256张H100、MFU 45%，训练一个34B模型、1.5T token，要多少天？",
    "How much host RAM does an 8-GPU training server need?",
    "8卡A100 80GB、ZeRO-2全参微调13B显存够吗？",
    "What is NVLink and why does it matter?",
    "InfiniBand和RoCE怎么选？",
    "What does a 3-year TCO of 64 H100 look like at 70% utilisation?",
    "部署Llama 3 70B，32路并发，8张H100显存够吗？",
]
FOLLOW_UPS = ["换成A100呢？", "And with 1,024 GPUs?", "What about H200 instead?", "如果MFU只有30%呢？"]
TOOLS = [
    ("training_compute", {"params_b": 13, "tokens_b": 1000, "gpu": "h100-sxm", "gpus": 64}),
    ("host_ram", {"gpu": "a100-80gb-sxm", "gpus_per_node": 8}),
    ("power_cost", {"gpu": "h100-sxm", "gpus": 16}),
]


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: Counter[str] = field(default_factory=Counter)
    unexpected: list[str] = field(default_factory=list)
    sent: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))  # conversation -> messages
    requests: int = 0


class Load:
    def __init__(self, client: httpx.AsyncClient, tally: Tally, budget: int, seed: int) -> None:
        self.client = client
        self.tally = tally
        self.budget = budget
        self.rng = random.Random(seed)

    def _take(self) -> bool:
        if self.tally.requests >= self.budget:
            return False
        self.tally.requests += 1
        return True

    async def _request(
        self, kind: str, method: str, path: str, expect: set[int], **kwargs: Any
    ) -> httpx.Response | None:
        if not self._take():
            return None
        start = time.perf_counter()
        try:
            response = await self.client.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            self.tally.unexpected.append(f"{kind} {path}: {type(exc).__name__}: {exc}")
            return None
        self.tally.latencies[kind].append(time.perf_counter() - start)
        self.tally.statuses[f"{kind} {response.status_code}"] += 1
        if response.status_code not in expect:
            self.tally.unexpected.append(f"{kind} {path}: {response.status_code} {response.text[:200]}")
        return response

    async def conversation(self) -> None:
        conversation_id: str | None = None
        turns = [self.rng.choice(QUESTIONS), *self.rng.sample(FOLLOW_UPS, self.rng.randint(0, 2))]
        for message in turns:
            response = await self._request(
                "chat",
                "POST",
                "/v1/chat",
                {200},
                json={"message": message, "conversation_id": conversation_id},
            )
            if response is None or response.status_code != 200:
                return
            conversation_id = response.json()["conversation_id"]
            self.tally.sent[conversation_id].append(message)
            if self.rng.random() < 0.2:
                answer = response.json()
                await self._request(
                    "feedback",
                    "POST",
                    "/v1/feedback",
                    {204},
                    json={
                        "conversation_id": conversation_id,
                        "message_id": answer["message_id"],
                        "rating": "up",
                    },
                )

    async def streamed(self) -> None:
        message = self.rng.choice(QUESTIONS)
        if not self._take():
            return
        start = time.perf_counter()
        done: dict[str, Any] | None = None
        try:
            async with self.client.stream(
                "POST", "/v1/chat", json={"message": message, "stream": True}
            ) as response:
                event = ""
                async for line in response.aiter_lines():
                    if line.startswith("event: "):
                        event = line.removeprefix("event: ")
                    elif line.startswith("data: ") and event == "done":
                        done = json.loads(line.removeprefix("data: "))
        except httpx.HTTPError as exc:
            self.tally.unexpected.append(f"stream: {type(exc).__name__}: {exc}")
            return
        self.tally.latencies["stream"].append(time.perf_counter() - start)
        self.tally.statuses[f"stream {response.status_code}"] += 1
        if done is None:
            self.tally.unexpected.append(f"stream: no done event ({response.status_code})")
            return
        self.tally.sent[done["conversation_id"]].append(message)

    async def completion(self) -> None:
        message = self.rng.choice(QUESTIONS)
        response = await self._request(
            "openai",
            "POST",
            "/v1/chat/completions",
            {200},
            json={"messages": [{"role": "user", "content": message}]},
        )
        if response is not None and response.status_code == 200:
            self.tally.sent[response.json()["conversation_id"]].append(message)

    async def tool(self) -> None:
        name, payload = self.rng.choice(TOOLS)
        await self._request("tool", "POST", f"/v1/tools/{name}", {200}, json=payload)

    async def health(self) -> None:
        path = self.rng.choice(["/healthz", "/readyz", "/v1/tools"])
        await self._request("health", "GET", path, {200})

    async def adversarial(self) -> None:
        message = self.rng.choice(["1" * 4000, "1," * 2000, "需要" * 2000, "8卡" * 2000])
        response = await self._request("adversarial", "POST", "/v1/chat", {200}, json={"message": message})
        if response is not None and response.status_code == 200:
            self.tally.sent[response.json()["conversation_id"]].append(message)

    async def invalid(self) -> None:
        body = self.rng.choice([{"message": ""}, {"message": "hi", "stream": "yes"}, {"nothing": 1}])
        await self._request("invalid", "POST", "/v1/chat", {422}, json=body)

    def pick(self) -> Callable[[], Awaitable[None]]:
        mix: list[tuple[float, Callable[[], Awaitable[None]]]] = [
            (0.40, self.conversation), (0.15, self.streamed), (0.10, self.completion), (0.10, self.tool),
            (0.10, self.health), (0.05, self.adversarial), (0.10, self.invalid),
        ]  # fmt: skip
        roll, total = self.rng.random(), 0.0
        for weight, action in mix:
            total += weight
            if roll < total:
                return action
        return mix[-1][1]


async def drive(url: str, requests: int, concurrency: int, seed: int) -> tuple[Tally, float]:
    tally = Tally()
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as client:
        load = Load(client, tally, requests, seed)

        async def worker(n: int) -> None:
            while tally.requests < requests:
                await load.pick()()

        start = time.perf_counter()
        await asyncio.gather(*(worker(n) for n in range(concurrency)))
        elapsed = time.perf_counter() - start
        await check_integrity(client, tally)
    return tally, elapsed


async def check_integrity(client: httpx.AsyncClient, tally: Tally) -> None:
    """Every conversation holds exactly the messages sent to it, in order."""
    for conversation_id, messages in tally.sent.items():
        response = await client.get(f"/v1/conversations/{conversation_id}")
        if response.status_code != 200:
            tally.unexpected.append(f"integrity: {conversation_id}: {response.status_code}")
            continue
        stored = [turn["message"] for turn in response.json()["turns"]]
        if stored != messages:
            tally.unexpected.append(
                f"integrity: {conversation_id}: sent {len(messages)} turns, stored {len(stored)}"
            )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@asynccontextmanager
async def service(url: str | None) -> AsyncIterator[str]:
    """The service to load: ``url`` as given, or `advisor serve` started here on a free port."""
    if url:
        host = urlparse(url).hostname
        if host not in {"127.0.0.1", "localhost", "::1"}:
            raise SystemExit("load is sent to 127.0.0.1 only")
        yield url
        return
    data_dir = Path(tempfile.mkdtemp(prefix="advisor-load-"))
    port = _free_port()
    env = {**os.environ, "ADVISOR_DATA_DIR": str(data_dir), "ADVISOR_SERVER__RATE_LIMIT_PER_MINUTE": "0",
           "ADVISOR_SERVER__RATE_LIMIT_PER_ORIGIN_MINUTE": "0"}  # fmt: skip
    advisor = Path(sys.executable).parent / "advisor"
    process = subprocess.Popen(
        [str(advisor), "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=base) as client:
            for _ in range(600):
                try:
                    if (await client.get("/readyz")).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.5)
            else:
                raise SystemExit("the service did not become ready within 5 minutes")
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)
        shutil.rmtree(data_dir, ignore_errors=True)


def report(tally: Tally, elapsed: float, concurrency: int) -> str:
    lines = [
        f"{tally.requests} requests at concurrency {concurrency} in {elapsed:.1f} s: "
        f"{tally.requests / elapsed:.1f} requests/s; {len(tally.sent)} conversations read back; "
        f"{len(tally.unexpected)} unexpected results",
        "",
        "| kind | requests | p50 ms | p95 ms | max ms |",
        "|---|---|---|---|---|",
    ]
    for kind, values in sorted(tally.latencies.items()):
        ordered = sorted(values)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        lines.append(
            f"| {kind} | {len(values)} | {statistics.median(values) * 1000:.0f} | {p95 * 1000:.0f} | "
            f"{ordered[-1] * 1000:.0f} |"
        )
    lines += ["", "statuses: " + ", ".join(f"{k}: {v}" for k, v in sorted(tally.statuses.items()))]
    lines += [f"unexpected: {u}" for u in tally.unexpected[:20]]
    return "\n".join(lines)


async def amain(args: argparse.Namespace) -> int:
    async with service(args.url) as url:
        tally, elapsed = await drive(url, args.requests, args.concurrency, args.seed)
    print(report(tally, elapsed, args.concurrency))
    return 1 if tally.unexpected else 0


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", help="a running service on 127.0.0.1 (no keys, no rate limit)")
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--seed", type=int, default=20261203)
    return asyncio.run(amain(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
