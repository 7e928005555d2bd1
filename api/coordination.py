"""What API replicas share: the request counts behind rate limits, and the Slack events already received.

In this process's memory by default; in Redis when ``ADVISOR_REDIS__URL`` is set, so that limits hold
across replicas and a Slack retry delivered to another replica is answered once. Start-up checks a
configured Redis (a wrong URL fails the start). If Redis goes away later, chats go on: each call that
cannot reach it falls back to this process's memory (limits per replica again, a retried Slack event
perhaps answered twice), Redis is tried again after ``RETRY_AFTER_S``, the outage is logged once, and
``/readyz`` names it under ``degraded``.
"""

from __future__ import annotations

import logging
import math
import threading
import time
import uuid
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Protocol
from urllib.parse import urlsplit

import anyio
import redis

from assistant.errors import StorageError
from assistant.settings import RedisSettings

logger = logging.getLogger(__name__)
WINDOW_S = 60.0
RETRY_AFTER_S = 5.0  # after a failed Redis call, this process's memory answers for this long
SEEN_TTL_S = 24 * 3600  # Slack retries an event for minutes, never a day later

# One request in a sliding 60 s window, atomically, on Redis's clock (so replicas' clocks never disagree):
# returns -1 when allowed, else the whole seconds until the oldest request in the window leaves it.
_HIT = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1000000
local window, limit = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', t - window)
if redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, math.ceil(tonumber(oldest[2]) + window - t))
end
redis.call('ZADD', KEYS[1], t, ARGV[3])
redis.call('PEXPIRE', KEYS[1], math.ceil(window * 1000))
return -1
"""


class Window(Protocol):
    async def hit(self, key: str, limit: int) -> int | None:
        """Count one request under ``key``; None when allowed, else the seconds until one would be."""
        ...


class Seen(Protocol):
    def first(self, key: str) -> bool:
        """True the first time ``key`` is offered (by any replica sharing the store), False after."""
        ...


class LocalWindow:
    """Requests per key in a sliding window, in this process's memory."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, window_s: float = WINDOW_S) -> None:
        self.clock = clock
        self.window_s = window_s
        self._hits: dict[str, deque[float]] = {}

    async def hit(self, key: str, limit: int) -> int | None:
        return self.hit_now(key, limit)

    def hit_now(self, key: str, limit: int) -> int | None:
        now = self.clock()
        if len(self._hits) > 10_000:  # forget idle clients so the table cannot grow without bound
            self._hits = {k: q for k, q in self._hits.items() if q and now - q[-1] < self.window_s}
        hits = self._hits.setdefault(key, deque())
        while hits and now - hits[0] >= self.window_s:
            hits.popleft()
        if len(hits) >= limit:
            return max(1, math.ceil(self.window_s - (now - hits[0])))
        hits.append(now)
        return None


class LocalSeen:
    """A bounded, thread-safe set of recently seen keys in this process's memory."""

    def __init__(self, size: int = 10_000) -> None:
        self._keys: OrderedDict[str, None] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def first(self, key: str) -> bool:
        with self._lock:
            if key in self._keys:
                self._keys.move_to_end(key)
                return False
            self._keys[key] = None
            if len(self._keys) > self._size:
                self._keys.popitem(last=False)
            return True


class _Breaker:
    """Whether to try Redis now: not for ``RETRY_AFTER_S`` after a failure; logs an outage once."""

    def __init__(self, where: str) -> None:
        self._where = where
        self._down_until = 0.0
        self.problem: str | None = None

    def closed(self) -> bool:
        return time.monotonic() >= self._down_until

    def failed(self, what: str, exc: BaseException) -> None:
        if self.problem is None:
            logger.error(
                "Redis at %s cannot be reached (%s): %s falls back to this process's memory",
                self._where,
                exc,
                what,
            )
        self.problem = f"Redis at {self._where} cannot be reached ({exc}); {what} is per replica meanwhile"
        self._down_until = time.monotonic() + RETRY_AFTER_S

    def worked(self) -> None:
        if self.problem is not None:
            logger.warning("Redis at %s is reachable again", self._where)
        self.problem = None


class RedisWindow:
    """Requests per key in a sliding window shared through Redis; this process's memory while it is away.

    The Redis call runs on a worker thread, so a slow Redis never holds up the event loop."""

    def __init__(self, client: redis.Redis, *, breaker: _Breaker, prefix: str = "advisor:rate:") -> None:
        self._breaker = breaker
        self._prefix = prefix
        self._fallback = LocalWindow()
        self._script = client.register_script(_HIT)

    async def hit(self, key: str, limit: int) -> int | None:
        if self._breaker.closed():
            try:
                answer = await anyio.to_thread.run_sync(self._shared_hit, key, limit)
            except (redis.RedisError, OSError) as exc:
                self._breaker.failed("the rate limit", exc)
            else:
                self._breaker.worked()
                return None if answer < 0 else answer
        return self._fallback.hit_now(key, limit)

    def _shared_hit(self, key: str, limit: int) -> int:
        return int(self._script(keys=[self._prefix + key], args=[WINDOW_S, limit, uuid.uuid4().hex]))


class RedisSeen:
    """Keys seen by any replica (``SET NX`` with a day's expiry); this process's memory while Redis is away."""

    def __init__(self, client: redis.Redis, *, breaker: _Breaker, prefix: str) -> None:
        self._client = client
        self._breaker = breaker
        self._prefix = prefix
        self._fallback = LocalSeen()

    def first(self, key: str) -> bool:
        local = self._fallback.first(key)  # remembered here too, for the time Redis may be away
        if not self._breaker.closed():
            return local
        try:
            created = self._client.set(self._prefix + key, "1", nx=True, ex=SEEN_TTL_S)
        except (redis.RedisError, OSError) as exc:
            self._breaker.failed("Slack's retry de-duplication", exc)
            return local
        self._breaker.worked()
        return bool(created)


class Shared:
    """The shared state of one process: Redis-backed when configured, else local."""

    def __init__(self, settings: RedisSettings) -> None:
        self.configured = settings.url is not None
        self._client: redis.Redis | None = None
        self._breaker: _Breaker | None = None
        if settings.url is not None:
            url = settings.url.get_secret_value()
            self._where = describe(url)
            self._client = redis.Redis.from_url(
                url, socket_timeout=settings.timeout_s, socket_connect_timeout=settings.timeout_s
            )
            self._breaker = _Breaker(self._where)
            self._window: Window = RedisWindow(self._client, breaker=self._breaker)
        else:
            self._window = LocalWindow()

    @property
    def window(self) -> Window:
        """The rate limit's request counts."""
        return self._window

    def seen(self, namespace: str) -> Seen:
        """A set of keys seen, shared by every replica when Redis is configured."""
        if self._client is None or self._breaker is None:
            return LocalSeen()
        return RedisSeen(self._client, breaker=self._breaker, prefix=f"advisor:seen:{namespace}:")

    def check(self) -> None:
        """``StorageError`` naming a configured Redis that cannot be reached (start-up); nothing without one."""
        if self._client is None:
            return
        try:
            self._client.ping()
        except (redis.RedisError, OSError) as exc:
            raise StorageError(f"cannot reach Redis at {self._where}: {exc}") from exc

    def probe(self) -> str | None:
        """What is degraded now (``/readyz``): a configured Redis that cannot be reached; None when it
        answers or none is configured."""
        if self._client is None or self._breaker is None:
            return None
        try:
            self._client.ping()
        except (redis.RedisError, OSError) as exc:
            self._breaker.failed("the rate limit and Slack's retry de-duplication", exc)
        else:
            self._breaker.worked()
        return self._breaker.problem

    def close(self) -> None:
        if self._client is not None:
            self._client.close()


def describe(url: str) -> str:
    """Redis as logs and errors may name it: scheme, host, port and database, never the password."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        return f"unix://{parts.path}"
    return f"{parts.scheme}://{parts.hostname or 'localhost'}:{parts.port or 6379}{parts.path or '/0'}"
