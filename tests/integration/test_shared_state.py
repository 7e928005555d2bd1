"""What replicas share through a real Redis server (started on a free loopback port): rate limits hold
across replicas, a Slack retry that reaches another replica is dropped there, and when Redis goes away
chats go on with per-replica limits while ``/readyz`` says so."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from slack_bolt import BoltRequest, BoltResponse

from api.app import create_app
from api.coordination import Shared
from api.slack.bot import DropRepeatedRetries
from assistant.errors import StorageError
from assistant.settings import RedisSettings, ServerSettings
from tests.helpers import make_settings
from tests.servers import Redis, redis_server

pytestmark = pytest.mark.integration


@pytest.fixture
def redis() -> Iterator[Redis]:
    with redis_server() as server:
        yield server


def replica(tmp_path: Path, redis_url: str, name: str, per_minute: int = 3) -> TestClient:
    """An app as one replica builds it (no assistant needed: the limit answers before any route)."""
    settings = make_settings(
        tmp_path / name,
        server=ServerSettings(rate_limit_per_minute=per_minute),
        redis=RedisSettings(url=redis_url),  # type: ignore[arg-type]
    )
    return TestClient(create_app(settings=settings), base_url="http://127.0.0.1:8000")


def test_a_rate_limit_holds_across_replicas(tmp_path: Path, redis: Redis) -> None:
    a, b = replica(tmp_path, redis.url, "a"), replica(tmp_path, redis.url, "b")
    assert [c.get("/v1/tools").status_code for c in (a, b, a)] == [200, 200, 200]
    refused = b.get("/v1/tools")  # the fourth request in the minute, at the other replica
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert "more than 3 requests per minute" in refused.json()["error"]["message"]
    # each replica alone would have allowed it: the count is the shared one
    alone = replica(tmp_path, redis.url.replace("/0", "/1"), "c")
    assert [alone.get("/v1/tools").status_code for _ in range(3)] == [200, 200, 200]


def bolt_request(event_id: str, retry: int | None = None) -> BoltRequest:
    headers: dict[str, Any] = {"content-type": ["application/json"]}
    if retry is not None:
        headers["x-slack-retry-num"] = [str(retry)]
    return BoltRequest(body=f'{{"type": "event_callback", "event_id": "{event_id}"}}', headers=headers)


def test_a_slack_retry_reaching_another_replica_is_answered_once(redis: Redis) -> None:
    settings = RedisSettings(url=redis.url)  # type: ignore[arg-type]
    at_a, at_b = (
        DropRepeatedRetries(Shared(settings).seen("events")),
        DropRepeatedRetries(Shared(settings).seen("events")),
    )
    passed: list[str] = []

    def handled(req: BoltRequest) -> BoltResponse:
        passed.append(req.body["event_id"])
        return BoltResponse(status=200, body="answered")

    for middleware, request in (
        (at_a, bolt_request("Ev1")),
        (at_b, bolt_request("Ev1", retry=1)),
        (at_b, bolt_request("Ev2")),
    ):
        response = middleware.process(
            req=request, resp=BoltResponse(status=200), next=lambda r=request: handled(r)
        )
        assert response is not None
        assert response.status == 200
    assert passed == ["Ev1", "Ev2"]  # the retry of Ev1 at replica B was acknowledged and dropped


def test_without_redis_chats_go_on_per_replica_and_readyz_says_so(tmp_path: Path, redis: Redis) -> None:
    a = replica(tmp_path, redis.url, "a", per_minute=2)
    shared: Shared = a.app.state.shared  # type: ignore[attr-defined]
    assert shared.probe() is None
    redis.process.terminate()
    redis.process.wait(timeout=30)
    # the limit still holds, in this replica's memory
    assert [a.get("/v1/tools").status_code for _ in range(3)] == [200, 200, 429]
    problem = shared.probe()
    assert problem is not None
    assert f"127.0.0.1:{redis.port}/0 cannot be reached" in problem
    assert "per replica meanwhile" in problem


def test_a_configured_redis_that_cannot_be_reached_fails_the_start_by_name(tmp_path: Path) -> None:
    shared = Shared(RedisSettings(url="redis://:s3cret@127.0.0.1:1/2", timeout_s=0.5))  # type: ignore[arg-type]
    with pytest.raises(StorageError, match=r"cannot reach Redis at redis://127\.0\.0\.1:1/2") as raised:
        shared.check()
    assert "s3cret" not in str(raised.value)
    settings = make_settings(tmp_path, redis=RedisSettings(url="redis://127.0.0.1:1/0", timeout_s=0.5))  # type: ignore[arg-type]
    with pytest.raises(StorageError), TestClient(create_app(settings=settings)):
        pass  # the lifespan checks before building anything
