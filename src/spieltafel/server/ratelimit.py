"""Rate limits (the ``limits`` library): counters in Redis when ``Settings.redis_url`` is set, so that
every server process counts together, else in this process's memory.

What is limited, and by what key (the defaults; ``SPIELTAFEL_RATE_LIMITS`` overrides any of them):

- ``sign_in_name``: failed sign-ins per account name, in growing steps: 5 a minute, 20 an hour, 100 a day;
  once a step is used up, sign-in for that name waits (429 with ``Retry-After``) until its window moves on.
- ``sign_in_address``: failed sign-ins per client address (20 a minute, 100 an hour).
  Sign-ins take turns per name and per address (:meth:`RateLimits.sign_in_turn`): only failures count, so
  attempts sent together would otherwise all pass the check before any of them had failed.
- ``accounts``: new accounts per client address; ``tables``: new tables per account;
  ``moves``: moves per account (HTTP and WebSocket together).
- ``ws_messages``: messages per WebSocket connection (100 in 20 s); past it the socket is closed with 1008.
  Counted by the connection itself (:class:`LocalWindow`), also with Redis: a connection lives in one process.
- ``reset_address``: password reset requests per client address; ``reset_target``: per name or e-mail
  address asked about (counted whether or not it belongs to anybody, so a refusal tells nothing).
- ``chat``: chat messages per account (5 in 10 s), counted by the chat service in this process and, with
  Redis, also here, so that an account talking through several server processes is counted once.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import math
import time
import weakref
from collections import deque
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any, Final

from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter
from redis.asyncio import BlockingConnectionPool
from redis.exceptions import LockError

from spieltafel.server.errors import ServiceError
from spieltafel.server.ops import metrics

DEFAULT_LIMITS: Final[Mapping[str, str]] = {
    "sign_in_name": "5/minute;20/hour;100/day",
    "sign_in_address": "20/minute;100/hour",
    "accounts": "10/minute;50/hour",
    "tables": "30/minute;300/hour",
    "moves": "1000/minute",
    "hints": "20/minute;200/hour",
    "ws_messages": "100 per 20 seconds",
    "chat": "5 per 10 seconds",
    "reset_address": "5/minute;20/hour",
    "reset_target": "3/hour;10/day",
}
REDIS_PREFIX = "spieltafel-limits"
REDIS_CONNECTIONS = 50
REDIS_WAIT_SECONDS = 20
SIGN_IN_TURN_SECONDS = 30
"""How long a sign-in's turn is held at most (a process that dies holding one in Redis frees it then)."""
SIGN_IN_WAIT_SECONDS = 15
"""How long a sign-in waits for its turn before it is refused (429)."""


class RateLimited(ServiceError):
    """Too many requests of one kind; ``retry_after`` seconds until the next is taken (429)."""

    status = 429

    def __init__(self, what: str, retry_after: int) -> None:
        super().__init__("rate-limited", f"too many {what}; try again in {retry_after} s")
        self.retry_after = retry_after
        metrics.rate_limited(what)


def limits_from(overrides: Mapping[str, str]) -> dict[str, list[RateLimitItem]]:
    """The limits in force: the defaults with ``overrides`` (unknown names or bad strings raise ValueError),
    each limit's windows shortest first (the order in which :meth:`RateLimits.hit` counts them)."""
    unknown = set(overrides) - set(DEFAULT_LIMITS)
    if unknown:
        raise ValueError(f"unknown rate limits {sorted(unknown)}; known: {', '.join(DEFAULT_LIMITS)}")
    return {
        name: sorted(parse_many(overrides.get(name, text)), key=lambda item: item.get_expiry())
        for name, text in DEFAULT_LIMITS.items()
    }


def storage_for(redis_url: str | None, site_prefix: str = "spieltafel") -> Storage:
    """Counters in memory, or in Redis under ``<site_prefix>-limits`` (the site's ``redis_prefix``)."""
    if not redis_url:
        return MemoryStorage()
    uri = "async+" + redis_url if not redis_url.startswith("async+") else redis_url
    key_prefix = REDIS_PREFIX if site_prefix == "spieltafel" else f"{site_prefix}-limits"
    # Waits for a free connection: redis-py's default pool refuses the 101st concurrent command with
    # MaxConnectionsError, which closed a loaded server's WebSockets (every move counts here).
    pool = BlockingConnectionPool.from_url(
        redis_url.removeprefix("async+"), max_connections=REDIS_CONNECTIONS, timeout=REDIS_WAIT_SECONDS
    )
    options: dict[str, Any] = {"connection_pool": pool}  # passed on to redis.asyncio.Redis
    return RedisStorage(uri, implementation="redispy", key_prefix=key_prefix, **options)


class LocalWindow:
    """The moving windows of one key held by its owner (e.g. a WebSocket connection, which lives in one
    process): no storage, no lock, no Redis round trip per message."""

    def __init__(self, items: Sequence[RateLimitItem]) -> None:
        self.windows = [(item.amount, float(item.get_expiry())) for item in items]
        self.times: deque[float] = deque(maxlen=max(amount for amount, _ in self.windows))

    def allowed(self) -> bool:
        """One more counted, if every window has room; False (nothing counted) if not."""
        now = time.monotonic()
        for amount, seconds in self.windows:
            if len(self.times) >= amount and now - self.times[-amount] < seconds:
                return False
        self.times.append(now)
        return True


KEYS_KEPT = 10_000


class BatchedHits:
    """Moving-window hits of one-window limits sent to Redis together: the hits that arrive while a batch
    is on its way make the next batch, one pipeline of ``limits``' own acquire script (the same script,
    keys and answers as ``MovingWindowRateLimiter.hit``, which the other checks of these counters use).
    One round trip per batch instead of per hit, and about a fifth of redis-py's CPU per hit: under
    1,000 busy tables the ``moves`` limit was 18% of a server's CPU (docs/performance.md). Relies on
    ``limits``' Redis bridge (pinned in pyproject.toml; ``test_rate_limits.py`` checks it against the
    library's own counting)."""

    def __init__(self, storage: RedisStorage) -> None:
        self.bridge: Any = storage.bridge
        self.pending: list[tuple[str, int, int, asyncio.Future[bool]]] = []
        self.sending: asyncio.Task[None] | None = None
        self._keys: dict[tuple[RateLimitItem, tuple[str, ...]], tuple[str, int, int]] = {}
        """Redis key, amount and expiry per limit and identifiers (``limits`` builds the key anew per call:
        3-4% of a loaded server's time); forgotten when it grows past ``KEYS_KEPT``."""

    async def hit(self, item: RateLimitItem, *identifiers: str) -> bool:
        """Count one, if the window has room; False (nothing counted) if not."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        known = self._keys.get((item, identifiers))
        if known is None:
            if len(self._keys) >= KEYS_KEPT:
                self._keys.clear()
            key = self.bridge.prefixed_key(item.key_for(*identifiers))
            known = self._keys[item, identifiers] = (key, item.amount, item.get_expiry())
        self.pending.append((*known, future))
        if self.sending is None or self.sending.done():
            self.sending = asyncio.create_task(self._send())
        return await future

    async def _send(self) -> None:
        while self.pending:
            batch, self.pending = self.pending, []
            try:
                script = self.bridge.lua_acquire_moving_window
                async with self.bridge.get_connection().pipeline(transaction=False) as pipe:
                    for key, limit, expiry, _ in batch:
                        await script(keys=[key], args=[time.time(), limit, expiry, 1], client=pipe)
                    answers = await pipe.execute()
            except Exception as error:  # each waiting hit gets the error (a Redis error: the move is "busy")
                for *_, future in batch:
                    if not future.done():
                        future.set_exception(error)
                continue
            for (*_, future), answer in zip(batch, answers, strict=True):
                if not future.done():
                    future.set_result(bool(answer))


class RateLimits:
    """Checks and counts; every method raises :class:`RateLimited` when a limit is used up."""

    def __init__(
        self, overrides: Mapping[str, str] | None = None, redis_url: str | None = None, site_prefix: str = "spieltafel"
    ) -> None:
        self.limits = limits_from(overrides or {})
        self.storage = storage_for(redis_url, site_prefix)
        self.limiter = MovingWindowRateLimiter(self.storage)
        redis = self.storage if isinstance(self.storage, RedisStorage) else None
        self.batched = None if redis is None else BatchedHits(redis)
        self._redis_bridge: Any = None if redis is None else redis.bridge
        """``limits``' Redis bridge (its client and key prefix), for the sign-in turns' locks; None in memory."""
        self._local_turns: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        """Sign-in turns in this process (no Redis): a lock lives while somebody holds or waits for it."""

    def local_window(self, kind: str) -> LocalWindow:
        """A moving window of ``kind`` for one key that lives in this process only (a WebSocket connection)."""
        return LocalWindow(self.limits[kind])

    async def hit(self, kind: str, key: str, what: str) -> None:
        """Count one ``kind`` for ``key``; refuse when any of its windows is full (then nothing is counted)."""
        items = self.limits[kind]
        if len(items) == 1:  # one window: the hit checks and counts in one step (nothing counted when full)
            hit = self.batched.hit if self.batched is not None else self.limiter.hit
            if not await hit(items[0], kind, key):
                raise RateLimited(what, await self._wait(items[0], kind, key))
            return
        await self._refuse_if_full(what, ((kind, key),))
        await self._hit_every_window(what, kind, key)

    async def _hit_every_window(self, what: str, kind: str, key: str) -> None:
        """Count one in each window, shortest first, each window checking and counting in one step (the
        library's acquire: one Lua script in Redis), so requests that arrive together cannot all pass
        between one's check and its count. A window that is full refuses, and the longer windows after it
        count nothing; the shorter ones before it keep the refused request's count, which errs on the side
        of refusing and lasts less than the full window's own wait."""
        for item in self.limits[kind]:  # shortest first (limits_from)
            if not await self.limiter.hit(item, kind, key):
                raise RateLimited(what, await self._wait(item, kind, key))

    async def allowed(self, kind: str, key: str) -> bool:
        """One more ``kind`` for ``key`` counted, if every window has room; False (nothing counted) if not."""
        try:
            await self.hit(kind, key, kind)
        except RateLimited:
            return False
        return True

    @asynccontextmanager
    async def sign_in_turn(self, name: str, address: str) -> AsyncIterator[None]:
        """One sign-in at a time per name and per client address (the name's turn first, then the
        address's), across every server process when the counters are in Redis: the check of
        :meth:`check_sign_in` then sees the failures of every attempt before it. Without turns, attempts
        sent at the same moment all passed the check before the first had failed and been counted (a
        thousand guesses at once against a limit of five a minute). Refused with 429 when the turn does
        not come within ``SIGN_IN_WAIT_SECONDS``."""
        async with AsyncExitStack() as turns:
            for kind, key in (("name", name.lower()), ("address", address)):
                digest = hashlib.sha256(key.encode()).hexdigest()  # a name of any length, one short key
                await turns.enter_async_context(self._turn(f"sign-in:{kind}:{digest}"))
            yield

    @asynccontextmanager
    async def _turn(self, key: str) -> AsyncIterator[None]:
        if self._redis_bridge is not None:  # Redis: redis-py's lock, which expires if its holder dies
            lock = self._redis_bridge.get_connection().lock(
                self._redis_bridge.prefixed_key(key), timeout=SIGN_IN_TURN_SECONDS, sleep=0.02,
                blocking_timeout=SIGN_IN_WAIT_SECONDS,
            )
            if not await lock.acquire():
                raise self._busy()
            try:
                yield
            finally:
                with contextlib.suppress(LockError):  # held past its timeout: already free
                    await lock.release()
            return
        local = self._local_turns.get(key)
        if local is None:
            local = self._local_turns[key] = asyncio.Lock()
        try:
            async with asyncio.timeout(SIGN_IN_WAIT_SECONDS):
                await local.acquire()
        except TimeoutError:
            raise self._busy() from None
        try:
            yield
        finally:
            local.release()

    @staticmethod
    def _busy() -> RateLimited:
        return RateLimited("sign-ins at once", SIGN_IN_WAIT_SECONDS)  # made only when raised: it is counted

    async def check_sign_in(self, name: str, address: str) -> None:
        """Refuse a sign-in while the name or the address has used up its failures."""
        await self._refuse_if_full("failed sign-ins", (("sign_in_name", name.lower()), ("sign_in_address", address)))

    async def failed_sign_in(self, name: str, address: str) -> None:
        for kind, key in (("sign_in_name", name.lower()), ("sign_in_address", address)):
            for item in self.limits[kind]:
                await self.limiter.hit(item, kind, key)

    async def _refuse_if_full(self, what: str, counters: tuple[tuple[str, str], ...]) -> None:
        """RateLimited with the longest wait among the full windows (the growing step), if any is full."""
        waits = [
            await self._wait(item, kind, key)
            for kind, key in counters
            for item in self.limits[kind]
            if not await self.limiter.test(item, kind, key)
        ]
        if waits:
            raise RateLimited(what, max(waits))

    async def _wait(self, item: RateLimitItem, kind: str, key: str) -> int:
        stats = await self.limiter.get_window_stats(item, kind, key)
        return max(1, math.ceil(stats.reset_time - time.time()))

    async def clear(self) -> None:
        """Forget every counter (tests)."""
        await self.storage.reset()
