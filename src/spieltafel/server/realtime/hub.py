"""Fan-out of table changes to the connections watching a table.

The hub passes only the new ``seq``: each connection then builds the state message for its own seat,
so nothing seat-specific travels through the hub. :class:`Hub` serves one process; :class:`RedisHub`
also carries every change over Redis pub/sub to the other server processes and workers of the site,
with an optional ``detail`` (a move: seat, action, clocks; never a secret) that the receiving process
hands to ``on_remote`` before it tells its watchers (the table service applies the move to its cached
game, so that its watchers need not read the database).

The same hub, keyed by account id, carries the word that an account's session or token ended
(``AccountService.sign_ins_changed``, topic ``accounts``): each socket of that account checks its own."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

log = logging.getLogger("spieltafel.server")
HEALTH_TIMEOUT = 2.0
RETRY_SECONDS = 0.5
POLL_SECONDS = 0.5  # how often the receiver looks whether the hub is closing
CHANGES_PER_MESSAGE = 200
RESYNC = 2**31
"""Delivered to every watcher after a lost subscription: more than any ``seq``, so each reloads."""


class Hub:
    """In-memory publish/subscribe keyed by table id (one server process)."""

    kind = "memory"

    def __init__(self) -> None:
        self._subscribers: defaultdict[int, set[asyncio.Queue[int]]] = defaultdict(set)
        self.on_remote: Callable[[int, int, Any], None] | None = None
        """Called with (table, seq, detail or None) for every change from another process, before this
        process's watchers are told; it must not fail (an error is logged, the watchers still hear)."""

    def subscribe(self, table_id: int) -> asyncio.Queue[int]:
        queue: asyncio.Queue[int] = asyncio.Queue()
        self._subscribers[table_id].add(queue)
        return queue

    def unsubscribe(self, table_id: int, queue: asyncio.Queue[int]) -> None:
        queues = self._subscribers.get(table_id)
        if queues is not None:
            queues.discard(queue)
            if not queues:
                del self._subscribers[table_id]

    def publish(self, table_id: int, seq: int, detail: Any = None) -> None:
        """Tell every watcher of ``table_id`` that the table changed (now at ``seq``); ``detail`` (JSON)
        goes to the other processes' ``on_remote``."""
        self.deliver(table_id, seq)

    def deliver(self, table_id: int, seq: int) -> None:
        """Tell this process's watchers of ``table_id``."""
        for queue in self._subscribers.get(table_id, ()):
            queue.put_nowait(seq)

    def watchers(self, table_id: int) -> int:
        return len(self._subscribers.get(table_id, ()))

    def resync(self) -> None:
        """Make every watcher of this process check its table against the database."""
        for table_id in list(self._subscribers):
            self.deliver(table_id, RESYNC)

    async def start(self) -> None:
        """Nothing to connect for the in-memory hub."""

    async def close(self) -> None:
        """Nothing to disconnect for the in-memory hub."""

    async def healthy(self) -> bool:
        return True


class RedisHub(Hub):
    """The in-memory hub plus Redis pub/sub on one channel per site and topic (``<prefix>:tables``; the
    chat's hub uses ``<prefix>:chat``).

    A change is delivered to this process's watchers at once and published as ``origin table seq``
    (the changes of a moment together, one line each after the origin: ``_message``);
    every other process delivers it to its own watchers (a process skips its own messages). A detail
    follows as JSON: ``origin table seq {...}``."""

    kind = "redis"

    def __init__(self, url: str, prefix: str, topic: str = "tables") -> None:
        super().__init__()
        self.redis: Redis = Redis.from_url(url, socket_connect_timeout=HEALTH_TIMEOUT)
        self.channel = f"{prefix}:{topic}"
        self.origin = uuid.uuid4().hex[:12]
        self._outbox: asyncio.Queue[tuple[int, int, Any] | None] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False
        self.listening = asyncio.Event()

    def publish(self, table_id: int, seq: int, detail: Any = None) -> None:
        self.deliver(table_id, seq)
        self._outbox.put_nowait((table_id, seq, detail))

    async def start(self) -> None:
        self._tasks = [asyncio.create_task(self._send()), asyncio.create_task(self._receive())]
        with contextlib.suppress(TimeoutError):  # unreachable now: the loop goes on trying, /healthz says 503
            await asyncio.wait_for(self.listening.wait(), HEALTH_TIMEOUT)

    async def close(self) -> None:
        """Let the last changes go out, then stop both loops and disconnect.

        The loops end by themselves once ``_closing`` is set (the sender on a ``None`` in its outbox, the
        receiver at its next poll), so a cancellation that redis-py swallows cannot leave a task behind
        to hang the event loop's shutdown; cancelling is only the fallback."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._flushed(), HEALTH_TIMEOUT)
        self._closing = True
        self._outbox.put_nowait(None)
        if self._tasks:
            _, late = await asyncio.wait(self._tasks, timeout=HEALTH_TIMEOUT)
            for task in late:
                task.cancel()
            if late:
                await asyncio.wait(late, timeout=HEALTH_TIMEOUT)
        await self.redis.aclose()

    async def _flushed(self) -> None:
        while not self._outbox.empty():
            await asyncio.sleep(0.01)

    async def healthy(self) -> bool:
        try:
            return bool(await asyncio.wait_for(self.redis.ping(), HEALTH_TIMEOUT))
        except (RedisError, OSError, TimeoutError):
            return False

    async def _send(self) -> None:
        closing = False
        while not closing:
            items = [await self._outbox.get()]
            while not self._outbox.empty():
                items.append(self._outbox.get_nowait())
            closing = None in items  # put by close() after the last change
            batch = [item for item in items if item is not None]
            if not batch:
                continue
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for start in range(0, len(batch), CHANGES_PER_MESSAGE):
                        pipe.publish(self.channel, self._message(batch[start:start + CHANGES_PER_MESSAGE]))
                    await pipe.execute()
            except (RedisError, OSError) as error:  # the moves are committed; other processes' watchers
                log.warning("redis publish failed (%s): %d changes not fanned out", error, len(batch))
                await asyncio.sleep(RETRY_SECONDS)

    def _message(self, changes: list[tuple[int, int, Any]]) -> str:
        """``origin`` and then one line per change, ``table seq`` or ``table seq {detail}`` (JSON, which
        has no line breaks): the changes of a moment in one message, which every process reads and parses
        once (one message per change was 14% of a loaded server's time, docs/performance.md)."""
        lines = [self.origin]
        for table_id, seq, detail in changes:
            extra = "" if detail is None else " " + json.dumps(detail, separators=(",", ":"))
            lines.append(f"{table_id} {seq}{extra}")
        return "\n".join(lines)

    async def _receive(self) -> None:
        lost = False
        while not self._closing:
            try:
                async with self.redis.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.subscribe(self.channel)
                    if lost:
                        self.resync()
                    lost = False
                    self.listening.set()
                    while not self._closing:  # a message wakes the poll at once; the timeout only checks
                        message = await pubsub.get_message(timeout=POLL_SECONDS)
                        if message is not None:
                            self._received(message.get("data"))
            except (RedisError, OSError) as error:
                self.listening.clear()
                lost = True
                if not self._closing:
                    log.warning("redis subscription lost (%s); retrying", error)
                    await asyncio.sleep(RETRY_SECONDS)

    def _received(self, data: object) -> None:
        if not isinstance(data, bytes):
            return
        origin, *changes = data.decode().split("\n")
        if origin == self.origin:
            return
        for change in changes:
            try:
                table, number, *detail = change.split(" ", 2)
                table_id, seq = int(table), int(number)
            except ValueError:  # not from a process of this version: nothing to deliver
                log.warning("a change from another process was not understood: %s", change[:200])
                continue
            if self.on_remote is not None:
                try:
                    self.on_remote(table_id, seq, json.loads(detail[0]) if detail else None)
                except Exception:  # the watchers still hear of the change and reload from the database
                    log.exception("a change from another process was not applied here: %s", change[:200])
            self.deliver(table_id, seq)
