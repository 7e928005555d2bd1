"""Two `advisor serve` processes behind no proxy, sharing real stores started on loopback ports: a
PostgreSQL server (conversations), a Redis server (limits, Slack events) and a Chroma server (the
index, built by an `advisor ingest` run as a deployment's job would). What one replica does, the other
knows: a conversation continues across them, an ingest job's or an upload's documents are answered
from either without a restart, a replica killed mid-request leaves no half-stored turn, and a
PostgreSQL restart costs 503s only while it is down."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import psycopg
import pytest
from slack_sdk.signature import SignatureVerifier

from tests.helpers import copy_knowledge
from tests.servers import (
    ADVISOR,
    Advisor,
    Postgres,
    chroma_server,
    postgres_server,
    redis_server,
    start_advisor,
)
from tests.slack_standin import Call, SlackStandIn

pytestmark = pytest.mark.integration
SLACK_SECRET = "replica-signing-secret-0123456789abcdef"


@dataclass
class Cluster:
    env: dict[str, str]
    replicas: list[Advisor]
    postgres: Postgres
    database_url: str
    work: Path
    slack: SlackStandIn

    def ingest(self, *paths: Path) -> None:
        """`advisor ingest` as a deployment's one-off job runs it, against the shared stores."""
        done = subprocess.run(
            [ADVISOR, "ingest", *map(str, paths)], env=self.env, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, done.stderr[-2000:]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    work = tmp_path_factory.mktemp("replicas")
    knowledge = copy_knowledge(
        work / "knowledge", articles=3
    )  # the catalog and a few articles: a quick build
    with (
        postgres_server() as pg,
        redis_server() as redis,
        chroma_server(work / "chroma") as chroma,
        SlackStandIn() as slack,
    ):
        database_url = pg.new_database("advisor")
        env = {
            **os.environ,
            "HF_HUB_OFFLINE": "1",
            "ADVISOR_DATA_DIR": str(work / "data-job"),  # the ingest job's; each replica has its own
            "ADVISOR_KNOWLEDGE_DIR": str(knowledge),
            "ADVISOR_VECTOR_STORE__URL": chroma.url,
            "ADVISOR_VECTOR_STORE__WATCH_S": "0.5",
            "ADVISOR_DATABASE__URL": database_url,
            "ADVISOR_DATABASE__TIMEOUT_S": "2",
            "ADVISOR_REDIS__URL": redis.url,
            "ADVISOR_SERVER__RATE_LIMIT_PER_MINUTE": "0",
            "ADVISOR_SLACK__BOT_TOKEN": "xoxb-replica-test",
            "ADVISOR_SLACK__SIGNING_SECRET": SLACK_SECRET,
            "ADVISOR_SLACK__API_BASE_URL": slack.base_url,
        }
        cluster = Cluster(
            env=env, replicas=[], postgres=pg, database_url=database_url, work=work, slack=slack
        )
        cluster.ingest()
        cluster.replicas = [start_advisor(env, work, name) for name in ("a", "b")]
        try:
            for replica in cluster.replicas:
                replica.wait_ready()
            yield cluster
        finally:
            for replica in cluster.replicas:
                replica.process.terminate()
            for replica in cluster.replicas:
                try:
                    replica.process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    replica.process.kill()


def test_a_conversation_started_on_one_replica_continues_on_the_other(cluster: Cluster) -> None:
    a, b = cluster.replicas
    first = a.chat("How long does it take to pretrain a 7B model on 1T tokens with 64 H100s?")
    assert first.status_code == 200, first.text
    conversation_id = first.json()["conversation_id"]
    second = b.chat("and with 128 GPUs?", conversation_id)
    assert second.status_code == 200, second.text
    inputs = [call["input"] for call in second.json()["tool_calls"]]
    assert any(i.get("gpus") == 128 and i.get("params_b") == 7 for i in inputs), inputs
    stored = httpx.get(f"{a.url}/v1/conversations/{conversation_id}", timeout=30).json()
    assert [t["message"] for t in stored["turns"]] == [
        "How long does it take to pretrain a 7B model on 1T tokens with 64 H100s?",
        "and with 128 GPUs?",
    ]


def upload(replica: Advisor, name: str, data: bytes) -> None:
    """An administrator's upload through ``replica``, kept and indexed (201)."""
    done = httpx.post(f"{replica.url}/v1/documents", files={"file": (name, data)}, timeout=120)
    assert done.status_code == 201, done.text


def answered_from(replica: Advisor, question: str, path_part: str, within_s: float = 30) -> list[str]:
    """The citations' sources of the first answer that cites a document whose path contains ``path_part``."""
    deadline = time.monotonic() + within_s
    sources: list[str] = []
    answer = ""
    while time.monotonic() < deadline:
        response = replica.chat(question)
        assert response.status_code == 200, response.text
        sources = [c["source"] for c in response.json()["citations"]]
        answer = response.json()["answer"]
        if any(path_part in s for s in sources):
            return sources
        time.sleep(0.5)
    raise AssertionError(
        f"{replica.url} never cited {path_part} for {question!r}: {sources} {answer[:400]!r}"
    )


def test_an_ingest_job_and_an_upload_reach_both_replicas_without_a_restart(cluster: Cluster) -> None:
    a, b = cluster.replicas
    extra = cluster.work / "wiki"
    extra.mkdir()
    (extra / "quasar-rack-runbook.md").write_text(
        "# Quasar rack runbook\n\nThe Quasar rack's coolant loop is flushed every 90 days; the Quasar "
        "rack draws 41 kW at full load and its coolant loop uses propylene glycol.\n",
        encoding="utf-8",
    )
    cluster.ingest(extra)
    for replica in (a, b):
        answered_from(replica, "How often is the Quasar rack coolant loop flushed?", "quasar-rack-runbook")

    upload(
        a,
        "zephyr-rack-cooling.md",
        b"# Zephyr rack cooling\n\nThe Zephyr rack is cooled by rear-door heat exchangers rated for "
        b"58 kW; the Zephyr rack's cooling water is filtered every 30 days.\n",
    )
    for replica in (a, b):
        answered_from(replica, "How is the Zephyr rack cooled?", "zephyr-rack-cooling")

    # a change at the other replica, and another ingest job, keep the first upload: the uploads are shared
    upload(
        b,
        "orion-hall-power.md",
        b"# Orion hall power\n\nThe Orion hall feeds each rack from two "
        b"415 V circuits; the Orion hall's UPS holds 9 minutes at full load.\n",
    )
    cluster.ingest()
    for replica in (a, b):
        listed = {d["doc_id"]: d for d in httpx.get(f"{replica.url}/v1/documents", timeout=30).json()}
        assert listed["upload:zephyr-rack-cooling.md"]["passages"] >= 1
        assert listed["upload:orion-hall-power.md"]["passages"] >= 1
        assert listed["upload:zephyr-rack-cooling.md"]["uploaded"]
    answered_from(a, "How long does the Orion hall UPS hold?", "orion-hall-power")

    # deleted at B, gone at A
    gone = httpx.delete(f"{b.url}/v1/documents/upload:zephyr-rack-cooling.md", timeout=120)
    assert gone.status_code == 200, gone.text
    listed = {d["doc_id"] for d in httpx.get(f"{a.url}/v1/documents", timeout=30).json()}
    assert "upload:zephyr-rack-cooling.md" not in listed
    assert "upload:orion-hall-power.md" in listed


def stored_turns(database_url: str) -> dict[str, int]:
    with psycopg.connect(database_url) as db:
        rows = db.execute(
            "SELECT c.id, count(t.message_id) FROM conversations c LEFT JOIN turns t ON t.conversation_id = c.id "
            "GROUP BY c.id"
        ).fetchall()
    return dict(rows)


def test_a_replica_killed_mid_request_leaves_no_half_stored_turn(cluster: Cluster) -> None:
    victim = start_advisor(cluster.env, cluster.work, "victim")
    victim.wait_ready()
    answered: list[str] = []
    stop = threading.Event()

    def talk() -> None:
        while not stop.is_set():
            try:
                response = victim.chat(
                    "How much GPU memory does full fine-tuning of a 13B model need?", timeout=10
                )
            except httpx.HTTPError:
                return  # killed under us
            if response.status_code == 200:
                answered.append(response.json()["conversation_id"])

    talkers = [threading.Thread(target=talk) for _ in range(4)]
    for t in talkers:
        t.start()
    deadline = time.monotonic() + 60
    while len(answered) < 6 and time.monotonic() < deadline:
        time.sleep(0.05)
    victim.process.send_signal(signal.SIGKILL)
    victim.process.wait(timeout=30)
    stop.set()
    for t in talkers:
        t.join(timeout=30)
    assert len(answered) >= 6, victim.log.read_text()[-3000:]
    turns = stored_turns(cluster.database_url)
    assert all(turns.get(c) == 1 for c in answered), "an answered turn is missing"
    assert all(n >= 1 for n in turns.values()), "a conversation was stored without its turn"
    # the survivors answer on, and read what the killed one stored
    survivor = cluster.replicas[1]
    assert httpx.get(f"{survivor.url}/v1/conversations/{answered[-1]}", timeout=30).status_code == 200


def test_a_postgresql_restart_costs_503s_only_while_it_is_down(cluster: Cluster) -> None:
    replica = cluster.replicas[0]
    cluster.postgres.stop()
    try:
        down = replica.chat("How much host RAM does an 8-GPU server need?", timeout=30)
        assert down.status_code == 503, down.text
        assert down.json()["error"]["code"] == "storage_unavailable"
        ready = httpx.get(f"{replica.url}/readyz", timeout=30)
        assert ready.status_code == 503
        assert "conversations" in ready.json()["problems"]
    finally:
        cluster.postgres.start()
    deadline = time.monotonic() + 30
    while httpx.get(f"{replica.url}/readyz", timeout=30).status_code != 200:
        assert time.monotonic() < deadline, "the replica did not recover after PostgreSQL came back"
        time.sleep(0.5)
    again = replica.chat("How much host RAM does an 8-GPU server need?")
    assert again.status_code == 200, again.text
    assert replica.process.poll() is None  # recovered without a restart


def slack_event(replica: Advisor, event: dict[str, object], event_id: str, retry: int | None = None) -> int:
    """A signed Events API delivery, as Slack sends it (a retry carries X-Slack-Retry-Num)."""
    body = json.dumps(
        {"token": "unused", "team_id": "T1", "api_app_id": "A1", "type": "event_callback", "event_id": event_id,
         "event_time": int(time.time()), "event": event,
         "authorizations": [{"team_id": "T1", "user_id": "UBOT", "is_bot": True}]}
    )  # fmt: skip
    stamp = str(int(time.time()))
    signature = SignatureVerifier(SLACK_SECRET).generate_signature(timestamp=stamp, body=body)
    assert signature is not None
    headers = {
        "Content-Type": "application/json",
        "X-Slack-Request-Timestamp": stamp,
        "X-Slack-Signature": signature,
    }
    if retry is not None:
        headers |= {"X-Slack-Retry-Num": str(retry), "X-Slack-Retry-Reason": "http_timeout"}
    return httpx.post(
        f"{replica.url}/slack/events", content=body.encode(), headers=headers, timeout=30
    ).status_code


def test_a_slack_retry_delivered_to_the_other_replica_is_answered_once(cluster: Cluster) -> None:
    a, b = cluster.replicas
    ts = f"{int(time.time())}.000100"
    event = {"type": "app_mention", "user": "U1", "text": "<@UBOT> how much host RAM for an 8-GPU server?",
             "ts": ts, "channel": "CREPLICA", "event_ts": ts}  # fmt: skip
    assert slack_event(a, event, "EvREPLICA1") == 200
    assert slack_event(b, event, "EvREPLICA1", retry=1) == 200  # Slack gave up waiting and retried elsewhere

    def in_thread(call: Call) -> bool:
        return call.body.get("channel") == "CREPLICA" and call.body.get("thread_ts") == ts

    cluster.slack.wait_for("chat.postMessage", where=in_thread, timeout=60)
    # a later message to B, answered after anything the retry could have caused there
    later = f"{int(time.time())}.000200"
    dm = {"type": "message", "channel_type": "im", "user": "U1", "text": "how much storage for a 7B checkpoint?",
          "ts": later, "channel": "DREPLICA", "event_ts": later}  # fmt: skip
    assert slack_event(b, dm, "EvREPLICA2") == 200
    cluster.slack.wait_for(
        "chat.postMessage", where=lambda c: c.body.get("channel") == "DREPLICA", timeout=60
    )
    reactions = cluster.slack.calls_to("reactions.add", lambda c: c.body.get("timestamp") == ts)
    assert len(reactions) == 1, [c.body for c in reactions]  # answered by one replica only
