"""The Slack app's listener threads can be waited on: at shutdown, and by tests instead of sleeping."""

from __future__ import annotations

import threading

from api.slack.bot import ListenerPool


def test_waiting_for_idle_covers_work_that_starts_more_work() -> None:
    pool = ListenerPool(max_workers=2)
    done: list[str] = []
    gate = threading.Event()

    def second() -> None:
        gate.wait(1)
        done.append("second")

    def first() -> None:
        pool.submit(second)  # an answer that posts a follow-up message from another listener
        done.append("first")

    pool.submit(first)
    gate.set()
    assert pool.wait_idle(timeout=5)
    assert sorted(done) == ["first", "second"]
    pool.shutdown()


def test_waiting_for_idle_gives_up_after_its_timeout() -> None:
    pool = ListenerPool(max_workers=1)
    release = threading.Event()
    pool.submit(release.wait, 5)
    assert not pool.wait_idle(timeout=0.05)  # still busy
    release.set()
    assert pool.wait_idle(timeout=5)
    pool.shutdown()
