"""Hints and post-game analyses through Redis, for the processes without bot workers (the scaled-out site:
``spieltafel serve`` with ``bot_workers`` 0 beside ``spieltafel worker``s; docs/deploy.md).

A server process with no bot pool never searches: it hands the search to the processes that have one (the
*searchers*: every ``spieltafel worker``, and every server process with ``bot_workers`` > 0, on the site's
Redis) through two streams with consumer groups, as the bots' jobs go (``bots.jobs.RedisJobs``):

- ``<prefix>:hint-jobs`` (group ``hints``): request/reply. The job holds public numbers only: a random
  request id, the table, its ``seq``, the seat, the search budget and a deadline; never a state nor a
  secret. The searcher reads the table from the database itself, checks that it still stands at ``seq``
  with the seat to act, runs :func:`~spieltafel.server.analysis.work.hint_for` (the seat's observation
  only, as in one process) in its bot pool and pushes the answer to ``<prefix>:hint-reply:<id>`` (a list
  that expires); the asker waits for it with ``BLPOP`` up to :meth:`SearchQueue.hint_wait`.
- ``<prefix>:analysis-jobs`` (group ``analyses``): "analyse table T". The searcher computes it part by
  part, writing the progress and the result into ``game_analyses`` as one process does; the server process
  only started it (the row) and reads it. While it works the searcher claims its job anew after each part,
  so a job left pending longer than :data:`ANALYSIS_CLAIM_SECONDS` means its searcher died: the next taker
  computes it again from the start.

A searcher renews the hint jobs it has every third of ``bot_job_timeout`` (:meth:`SearchQueue.renew`, only
while it still holds them), so hint jobs taken by a process that died are taken again after
``bot_job_timeout`` while their asker waits; one past its deadline is dropped. A job is acknowledged only
once answered, judged invalid or failed: one whose searcher stops meanwhile stays pending for the next.
The searchers say that they are there in ``<prefix>:searchers`` (a sorted
set of ``"<slots>:<name>"`` scored by when the claim lapses, renewed every :data:`ANNOUNCE_SECONDS`): no
searcher there means no hint (503 ``hint-unavailable``). Hints in flight site-wide are in
``<prefix>:hints-in-flight`` (request ids scored by their deadline) and one per seat in
``<prefix>:hint-seat:<table>:<seat>``, so that ``hint-running`` and ``busy`` hold across server processes.

Every time that one process sets and another compares (a hint job's deadline, the searchers' claims, the
places of the hints in flight) is on one clock, Redis's (``TIME``: inside the scripts that compare, else
read with a command the process sends anyway), never a process's own ``time.time()``: the processes may
run on hosts whose clocks differ. The jobs' idle times (``XAUTOCLAIM``, ``XCLAIM``) are Redis's own."""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError, ResponseError

from spieltafel.server.bots.jobs import BLOCK_MS, RETRY_SECONDS, next_claim_start

log = logging.getLogger("spieltafel.server.analysis")

ANNOUNCE_SECONDS = 5.0
"""How often a searcher renews its place in ``<prefix>:searchers``; it lapses after three times that."""

ANALYSIS_CLAIM_SECONDS = 120.0
"""An analysis job pending this long without its searcher renewing it (after each part) is taken again."""

SOCKET_SECONDS = 5.0
"""Every command's socket timeout (redis-py's default, said here): a blocking command waits less than this."""

BLPOP_STEP_SECONDS = 2.0
"""The longest single ``BLPOP`` of an asker: it waits for its answer in such steps until its deadline."""

MAX_SLOTS = 64
"""The most hints one searcher may announce (``hint_slots`` ≤ 64); a member of ``<prefix>:searchers`` saying
more, or not a number, is ignored."""

REPLY_KEEP_SECONDS = 60
"""How long an answer waits in its reply list (its asker takes it at once, or has gone)."""

_NOW = """
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
"""
"""The start of every script that compares times: ``now``, Redis's clock in epoch milliseconds (a script that
writes after ``TIME`` is replicated by its effects, Redis 7's default)."""

_RESERVE = _NOW + """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('EXISTS', KEYS[2]) == 1 then return -1 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
local deadline = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], deadline, ARGV[3])
redis.call('SET', KEYS[2], ARGV[3], 'PX', math.max(1, deadline - now))
return 1
"""
"""Take a place for a hint until its deadline (Redis's clock): -1 when the seat has one running, 0 when the
site's hints are at the limit."""

_SEARCHERS = _NOW + """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return {now, redis.call('ZRANGEBYSCORE', KEYS[1], now, '+inf')}
"""
"""Redis's time and the searchers whose claim has not lapsed by it (the lapsed ones removed)."""

_ANNOUNCE = _NOW + """
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[2])
return now
"""
"""A searcher's claim, until Redis's time plus ``ARGV[1]`` ms."""

_RESERVE_SEAT = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return -1
"""
"""Take the seat's place only (a hint computed in this process's own pool): -1 when the seat has one running."""

_RENEW = """
local pending = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[2], ARGV[2], 1)
if #pending == 0 or pending[1][2] ~= ARGV[3] then return 0 end
redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[3], 0, ARGV[2], 'JUSTID')
return 1
"""
"""Reset a job's idle time if this consumer still holds it (0: another searcher took it meanwhile, or it is gone)."""

_RELEASE = """
redis.call('ZREM', KEYS[1], ARGV[1])
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
return 1
"""


def now_ms() -> int:
    """This process's own clock (epoch ms): for times that stay in this process only. A time compared in
    another process (a hint's deadline, the searchers' claims, the places of the hints in flight) is on
    Redis's clock (:meth:`SearchQueue.redis_now_ms`, or ``TIME`` inside a script)."""
    return int(time.time() * 1000)


def _ms(answer: Any) -> int:
    """Redis's ``TIME`` answer (seconds, microseconds) in epoch milliseconds."""
    seconds, micros = answer
    return int(seconds) * 1000 + int(micros) // 1000


@dataclass(frozen=True, slots=True)
class HintJob:
    """One hint asked for: public numbers only (the searcher reads the table itself). ``deadline_ms`` is on
    Redis's clock (epoch ms), the one every process reads it by."""

    request: str
    table_id: int
    seq: int
    seat: int
    iterations: int | None
    seconds: float
    deadline_ms: int

    def fields(self) -> dict[str, str]:
        return {"request": self.request, "table": str(self.table_id), "seq": str(self.seq), "seat": str(self.seat),
                "iterations": "" if self.iterations is None else str(self.iterations),
                "seconds": repr(self.seconds), "deadline": str(self.deadline_ms)}

    @classmethod
    def parse(cls, fields: dict[bytes, bytes]) -> HintJob:
        """The job in a stream entry (ValueError/KeyError when it is not one; budgets kept in range)."""
        text = {key.decode(): value.decode() for key, value in fields.items()}
        request = text["request"]
        if not (0 < len(request) <= 64 and request.replace("-", "").isalnum()):
            raise ValueError(f"bad request id {request!r}")
        iterations = int(text["iterations"]) if text["iterations"] else None
        seconds = float(text["seconds"])
        if not 0 < seconds <= 30 or (iterations is not None and not 1 <= iterations <= 100_000):
            raise ValueError("search budget out of range")
        return cls(request, int(text["table"]), int(text["seq"]), int(text["seat"]), iterations, seconds,
                   int(text["deadline"]))


@dataclass(frozen=True, slots=True)
class Taken:
    """A job taken from a stream: its entry id and its fields."""

    receipt: str
    fields: dict[bytes, bytes]


class SearchQueue:
    """The Redis side of remote hints and analyses: what an asking server process and a searcher call."""

    HINTS = "hints"
    ANALYSES = "analyses"

    def __init__(self, url: str, prefix: str, consumer: str, timeout: float) -> None:
        self.redis: Redis = Redis.from_url(url, socket_connect_timeout=2.0, socket_timeout=SOCKET_SECONDS)
        self.prefix = prefix
        self.consumer = consumer
        self.timeout = timeout
        """``bot_job_timeout``: a hint job pending this long is taken again by another searcher."""
        self.streams = {self.HINTS: f"{prefix}:hint-jobs", self.ANALYSES: f"{prefix}:analysis-jobs"}
        self.searchers_key = f"{prefix}:searchers"
        self.in_flight_key = f"{prefix}:hints-in-flight"
        self._ready: set[str] = set()
        self.closing = False
        self._claim_from: dict[str, str] = {}
        """Per stream, where the next ``XAUTOCLAIM`` goes on scanning the pending jobs."""

    def stop_taking(self) -> None:
        """Make a searcher's waiting ``poll`` end at its next look (within ``BLOCK_MS``)."""
        self.closing = True

    async def close(self) -> None:
        self.closing = True
        await self.redis.aclose()

    # -- the asking side ----------------------------------------------------------------------------------
    async def redis_now_ms(self) -> int:
        """Redis's clock (epoch ms): the one clock of every time compared across processes."""
        return _ms(await self.redis.time())

    async def capacity(self) -> int:
        """Hints the searchers there now compute at once, all together (0: no searcher)."""
        total, _ = await self.searchers()
        return total

    async def searchers(self) -> tuple[int, int]:
        """:meth:`capacity` and Redis's time when it was looked at (one round trip): an asker's deadline is
        reckoned from that time, so that every process reads it on the same clock."""
        answer: Any = await self.redis.eval(_SEARCHERS, 1, self.searchers_key)
        now, members = int(answer[0]), answer[1]
        total = 0
        for member in members:
            text = member.decode() if isinstance(member, bytes) else str(member)
            slots, _, _ = text.partition(":")
            if slots.isascii() and slots.isdigit() and len(slots) <= 2 and 1 <= int(slots) <= MAX_SLOTS:
                total += int(slots)
            else:
                log.warning("searcher %r ignored: its slots are not a number from 1 to %s", text[:80], MAX_SLOTS)
        return total, now

    def hint_wait(self, seconds: float) -> float:
        """How long an asker waits for its answer: the search, time to be taken again after its searcher
        died (``timeout``) and the search once more, and a margin for a busy queue."""
        return 2 * seconds + self.timeout + 5.0

    async def reserve(self, table_id: int, seat: int, limit: int, request: str, deadline_ms: int) -> int:
        """1: the hint may go out; -1: the seat has one running; 0: the site's ``limit`` is reached. The place
        lapses at ``deadline_ms``, on Redis's clock (:meth:`searchers`, :meth:`redis_now_ms`), as do the
        other places it is compared with."""
        answer = await self.redis.eval(
            _RESERVE, 2, self.in_flight_key, self._seat_key(table_id, seat), limit, deadline_ms, request,
        )
        return int(answer)

    async def reserve_seat(self, table_id: int, seat: int, request: str, deadline_ms: int) -> bool:
        """The seat's place only, for a hint this process computes in its own pool: False when the seat has
        one running through any process (released with :meth:`release`, else it lapses at ``deadline_ms``,
        on this process's clock: only its distance from now goes to Redis, as the key's expiry)."""
        ttl = max(1, deadline_ms - now_ms())
        answer = await self.redis.eval(_RESERVE_SEAT, 1, self._seat_key(table_id, seat), request, ttl)
        return int(answer) == 1

    async def release(self, table_id: int, seat: int, request: str) -> None:
        await self.redis.eval(_RELEASE, 2, self.in_flight_key, self._seat_key(table_id, seat), request)

    def _seat_key(self, table_id: int, seat: int) -> str:
        return f"{self.prefix}:hint-seat:{table_id}:{seat}"

    def _reply_key(self, request: str) -> str:
        return f"{self.prefix}:hint-reply:{request}"

    @staticmethod
    def new_request() -> str:
        return uuid.uuid4().hex

    async def ask_hint(self, job: HintJob) -> dict[str, Any] | None:
        """Queue the job and wait for its answer until its deadline (Redis's clock); None when none came. The
        deadline is turned into a time of this process's monotonic clock once, by Redis's time read with the
        queueing (no round trip more); the wait is a row of ``BLPOP``s of at most :data:`BLPOP_STEP_SECONDS`
        each: one longer than the socket's timeout would end in ``redis.TimeoutError``. An answer that is not
        a JSON object is a ``hint-failed`` one."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.time()
            pipe.xadd(self.streams[self.HINTS], job.fields())  # type: ignore[arg-type]
            queued: list[Any] = await pipe.execute()
        end = time.monotonic() + max(job.deadline_ms - _ms(queued[0]), 1000) / 1000
        key = self._reply_key(job.request)
        answer: Any = None
        try:
            while answer is None:
                left = end - time.monotonic()
                if left < 0.01:  # BLPOP's timeout 0 would wait for ever
                    break
                answer = await self.redis.blpop([key], timeout=min(left, BLPOP_STEP_SECONDS))
        finally:
            await self.redis.delete(key)
        if answer is None:
            return None
        reply: Any = json.loads(answer[1])
        if not isinstance(reply, dict):
            return {"error": "hint-failed", "message": "the searcher's answer is not an object"}
        return reply

    async def queue_analysis(self, table_id: int) -> None:
        await self.redis.xadd(self.streams[self.ANALYSES], {"table": str(table_id)})

    # -- the searcher's side ------------------------------------------------------------------------------
    async def announce(self, slots: int) -> None:
        """Say that this searcher is there with ``slots`` hints at once (for three renewals' time, on Redis's
        clock)."""
        await self.redis.eval(_ANNOUNCE, 1, self.searchers_key, int(3 * ANNOUNCE_SECONDS * 1000),
                              f"{slots}:{self.consumer}")

    async def withdraw(self, slots: int) -> None:
        await self.redis.zrem(self.searchers_key, f"{slots}:{self.consumer}")

    async def reply(self, request: str, answer: dict[str, Any]) -> None:
        key = self._reply_key(request)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.lpush(key, json.dumps(answer))
            pipe.expire(key, REPLY_KEEP_SECONDS)
            await pipe.execute()

    async def _ensure_group(self, kind: str) -> None:
        if kind in self._ready:
            return
        try:
            await self.redis.xgroup_create(self.streams[kind], kind, id="0", mkstream=True)
        except ResponseError as error:
            if "BUSYGROUP" not in str(error):
                raise
        self._ready.add(kind)

    async def take(self, kind: str) -> Taken:
        """The next job of ``kind`` (``HINTS`` or ``ANALYSES``): one whose taker died, else a new one (waits).
        Ends with CancelledError once the queue closes."""
        while (taken := await self.poll(kind)) is None:
            pass
        return taken

    async def poll(self, kind: str) -> Taken | None:
        """One look for a job of ``kind`` (waits at most ``BLOCK_MS`` for a new one); None: none came."""
        if self.closing:
            raise asyncio.CancelledError
        idle = self.timeout if kind == self.HINTS else ANALYSIS_CLAIM_SECONDS
        stream = self.streams[kind]
        try:
            await self._ensure_group(kind)
            # XAUTOCLAIM looks at ten pending entries a call (count=1): go on from where the last scan stopped
            claimed: Any = await self.redis.xautoclaim(stream, kind, self.consumer, min_idle_time=int(idle * 1000),
                                                       start_id=self._claim_from.get(kind, "0-0"), count=1)
            self._claim_from[kind] = next_claim_start(claimed[0])
            entries = claimed[1]
            if not entries:
                read: Any = await self.redis.xreadgroup(kind, self.consumer, {stream: ">"}, count=1, block=BLOCK_MS)
                entries = read[0][1] if read else []
        except (RedisError, OSError) as error:
            log.warning("search jobs unreachable (%s); retrying", error)
            self._ready.discard(kind)
            await asyncio.sleep(RETRY_SECONDS)
            return None
        for entry_id, fields in entries:
            if fields:
                return Taken(entry_id.decode(), fields)
            await self.done(kind, entry_id.decode())  # deleted meanwhile: nothing to do
        return None

    async def renew(self, kind: str, receipt: str) -> bool:
        """Still working on it: reset the job's idle time so that no other searcher takes it, if this consumer
        still holds it. False: another searcher took it meanwhile (or it is gone): stop working on it, and do
        not acknowledge it (that would take it from its new holder)."""
        answer = await self.redis.eval(_RENEW, 1, self.streams[kind], kind, receipt, self.consumer)
        return int(answer) == 1

    async def done(self, kind: str, receipt: str) -> None:
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.xack(self.streams[kind], kind, receipt)
                pipe.xdel(self.streams[kind], receipt)
                await pipe.execute()
        except (RedisError, OSError) as error:  # taken again later: a hint past its deadline is dropped then
            log.warning("search job %s not acknowledged: %s", receipt, error)
