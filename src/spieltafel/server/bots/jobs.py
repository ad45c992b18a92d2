"""The bots' job queue: "seat S of table T should move at ``seq`` Q".

A job is keyed by ``(table, seq, seat)``: a job whose ``seq`` the table has left does nothing, and the
UNIQUE ``(table, seq)`` of the move log lets only one of two deliveries of the same job commit a move.
:class:`MemoryJobs` serves one process; :class:`RedisJobs` is a Redis stream with a consumer group, so
any server process can queue a job and any ``spieltafel worker`` (or server) takes it; a job taken by a
process that died is handed to another after ``timeout`` seconds."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError, ResponseError

from spieltafel.server.tasks import CLOSE_SECONDS, stop

log = logging.getLogger("spieltafel.server")
RETRY_SECONDS = 0.5
BLOCK_MS = 1000


@dataclass(frozen=True, slots=True)
class BotJob:
    table_id: int
    seq: int
    seat: int

    @property
    def key(self) -> str:
        return f"{self.table_id}:{self.seq}:{self.seat}"

    @classmethod
    def parse(cls, key: str) -> BotJob:
        table_id, seq, seat = (int(part) for part in key.split(":"))
        return cls(table_id, seq, seat)


@dataclass(frozen=True, slots=True)
class Delivery:
    job: BotJob
    receipt: str


class MemoryJobs:
    """Jobs in one process: a job already waiting or running is not queued again."""

    kind = "memory"

    def __init__(self) -> None:
        self._queue: asyncio.Queue[BotJob] = asyncio.Queue()
        self._known: set[BotJob] = set()

    def stop_taking(self) -> None:
        """Nothing to do: a waiting ``take`` ends when its task is cancelled."""

    def put(self, job: BotJob) -> None:
        if job not in self._known:
            self._known.add(job)
            self._queue.put_nowait(job)

    async def take(self) -> Delivery:
        job = await self._queue.get()
        return Delivery(job, job.key)

    async def done(self, delivery: Delivery) -> None:
        self._known.discard(delivery.job)

    async def depth(self) -> int:
        """Jobs waiting to be taken (the metrics)."""
        return self._queue.qsize()

    async def start(self) -> None:
        """Nothing to connect."""

    async def close(self) -> None:
        """Nothing to disconnect."""


def next_claim_start(cursor: bytes | str) -> str:
    """The start of the next ``XAUTOCLAIM`` scan: the cursor it returned (``0-0`` once it has gone round)."""
    return cursor.decode() if isinstance(cursor, bytes) else str(cursor)


class RedisJobs:
    """Jobs in the Redis stream ``<prefix>:bot-jobs`` (consumer group ``bots``).

    ``put`` queues a job once per ``timeout`` (``SET <prefix>:bot-job:<key> NX EX``); a delivery is
    acknowledged and deleted when done, and one left pending longer than ``timeout`` (its taker died)
    is claimed by the next ``take`` of any process."""

    kind = "redis"
    GROUP = "bots"

    def __init__(self, url: str, prefix: str, consumer: str, timeout: float) -> None:
        self.redis: Redis = Redis.from_url(url, socket_connect_timeout=2.0)
        self.stream = f"{prefix}:bot-jobs"
        self.prefix = prefix
        self.consumer = consumer
        self.timeout = timeout
        self._outbox: asyncio.Queue[BotJob | None] = asyncio.Queue()
        self._sender: asyncio.Task[None] | None = None
        self._group_ready = False
        self._closing = False
        self._claim_from = "0-0"
        """Where the next ``XAUTOCLAIM`` goes on scanning the pending jobs (:meth:`_claim`)."""

    def put(self, job: BotJob) -> None:
        self._outbox.put_nowait(job)

    async def depth(self) -> int:
        """Jobs in the stream, waiting or being thought about (the metrics)."""
        return int(await self.redis.xlen(self.stream))

    async def start(self) -> None:
        self._sender = asyncio.create_task(self._send())

    def stop_taking(self) -> None:
        """Make a waiting ``take`` end at its next poll (within ``BLOCK_MS``), cancelled or not."""
        self._closing = True

    async def close(self) -> None:
        """Let queued jobs go out (at most a second), then stop the sender and disconnect.

        The sender ends by itself on the ``None`` put last, and ``take`` stops at its next poll, so a
        cancellation that redis-py swallows leaves no task behind; cancelling is only the fallback."""
        for _ in range(100):
            if self._outbox.empty():
                break
            await asyncio.sleep(0.01)
        self.stop_taking()
        self._outbox.put_nowait(None)
        if self._sender is not None:
            await stop(self._sender, CLOSE_SECONDS)
        await self.redis.aclose()

    async def _send(self) -> None:
        while (job := await self._outbox.get()) is not None:
            try:
                await self.queue(job)
            except (RedisError, OSError) as error:  # a waiting bot is found again by the next sweep
                log.warning("bot job %s not queued: %s", job.key, error)
                await asyncio.sleep(RETRY_SECONDS)

    async def queue(self, job: BotJob) -> bool:
        """Add ``job`` to the stream unless it was queued less than ``timeout`` ago; True when added."""
        fresh = await self.redis.set(f"{self.prefix}:bot-job:{job.key}", b"1", nx=True, ex=max(1, int(self.timeout)))
        if fresh:
            await self.redis.xadd(self.stream, {"job": job.key})
        return bool(fresh)

    async def _ensure_group(self) -> None:
        if self._group_ready:
            return
        try:
            await self.redis.xgroup_create(self.stream, self.GROUP, id="0", mkstream=True)
        except ResponseError as error:
            if "BUSYGROUP" not in str(error):
                raise
        self._group_ready = True

    async def take(self) -> Delivery:
        """The next job: one whose taker died (pending over ``timeout``), else a new one (waits)."""
        while True:
            if self._closing:  # the queue is closing: end the taker as a cancellation would
                raise asyncio.CancelledError
            try:
                await self._ensure_group()
                delivery = await self._claim() or await self._read()
            except (RedisError, OSError) as error:
                log.warning("bot jobs unreachable (%s); retrying", error)
                self._group_ready = False
                await asyncio.sleep(RETRY_SECONDS)
                continue
            if delivery is not None:
                return delivery

    async def _claim(self) -> Delivery | None:
        """A job pending over ``timeout``. ``XAUTOCLAIM`` looks at no more than ten pending entries a call (for
        ``count=1``), so the scan goes on from where the last call stopped (``_claim_from``, back to the start
        when it has gone round): a job left by a dead taker behind many running ones is reached too."""
        answer: Any = await self.redis.xautoclaim(
            self.stream, self.GROUP, self.consumer, min_idle_time=int(self.timeout * 1000),
            start_id=self._claim_from, count=1,
        )
        self._claim_from = next_claim_start(answer[0])
        return self._first(answer[1])

    async def _read(self) -> Delivery | None:
        streams: dict[Any, Any] = {self.stream: ">"}
        answer: Any = await self.redis.xreadgroup(self.GROUP, self.consumer, streams, count=1, block=BLOCK_MS)
        return self._first(answer[0][1]) if answer else None

    @staticmethod
    def _first(entries: list[tuple[bytes, dict[bytes, bytes] | None]]) -> Delivery | None:
        for entry_id, fields in entries:
            if fields and b"job" in fields:
                return Delivery(BotJob.parse(fields[b"job"].decode()), entry_id.decode())
        return None

    async def done(self, delivery: Delivery) -> None:
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.xack(self.stream, self.GROUP, delivery.receipt)
                pipe.xdel(self.stream, delivery.receipt)
                pipe.delete(f"{self.prefix}:bot-job:{delivery.job.key}")
                await pipe.execute()
        except (RedisError, OSError) as error:  # the job is claimed again later and then does nothing
            log.warning("bot job %s not acknowledged: %s", delivery.job.key, error)


JobQueue = MemoryJobs | RedisJobs
