"""Bots think in a process pool, off the event loop, seeing only their seat's view.

A worker gets the table's full state (it never leaves the server) and hands the bot nothing but an
:class:`~spieltafel.bots.Observation` of its seat, exactly as :func:`spieltafel.match.choose` does.
Workers run at a lower scheduling priority so that the event loop answers people first. A
:class:`BotRunner` takes the bots' jobs from the job queue (in a server process or a ``spieltafel
worker``) and has them played."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Protocol, TypeVar

from spieltafel.bots import make_bot
from spieltafel.core import all_games, get_game
from spieltafel.match import choose
from spieltafel.server.bots.jobs import BotJob, Delivery, JobQueue
from spieltafel.server.tasks import CLOSE_SECONDS, cancel_and_wait

log = logging.getLogger("spieltafel.server")
T = TypeVar("T")
WORKER_NICENESS = 10


def _lower_priority(parent: int) -> None:
    with contextlib.suppress(OSError):  # not permitted: run at normal priority
        os.nice(WORKER_NICENESS)
    _exit_when_orphaned(parent)
    all_games()  # import the games once per worker, not on the first move


ORPHAN_CHECK_SECONDS = 1.0


def _exit_when_orphaned(parent: int) -> None:
    """End this worker once ``parent``, the process that started it, is gone. A server or worker process
    killed with SIGKILL cannot stop its pool, and the pool's processes would otherwise wait for work for
    ever (each holding its interpreter and the games: ~58 MB). The parent's pid comes from the parent: one
    killed before this worker got here has already left it to init."""

    def watch() -> None:
        while True:
            time.sleep(ORPHAN_CHECK_SECONDS)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="orphan-watch", daemon=True).start()


def think(game: str, state: dict[str, Any], seat: int, level: str, seed: int) -> int:
    """The action the bot ``level`` chooses for ``seat`` (runs in a worker process)."""
    position = get_game(game).state_from_json(state)
    return choose(make_bot(level, seed), position, seat)


class BotPool:
    """A process pool for bot turns."""

    def __init__(self, workers: int) -> None:
        context = multiprocessing.get_context("spawn")
        self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_lower_priority,
                                         initargs=(os.getpid(),))
        # Every worker now, not on demand: the pool starts a process only when none is idle, so the second
        # would start (seconds: a new interpreter importing the games) the first time one is busy, e.g. with
        # a post-game analysis part, and a bot's move would wait for it (docs/performance.md).
        for _ in range(workers):
            self._pool.submit(os.getpid)

    async def choose(self, game: str, state: dict[str, Any], seat: int, level: str, seed: int) -> int:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, think, game, state, seat, level, seed)

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in a worker process (other heavy work of the bots: post-game analyses)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, function, *args)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


SWEEP_SECONDS = 5.0
Chore = Callable[[], Awaitable[object]]
"""A periodic job of the runner (its answer, e.g. how many it handled, is ignored)."""


class BotTables(Protocol):
    """What the runner needs of the table service (``spieltafel.server.tables.TableService``)."""

    async def play_bot(self, job: BotJob) -> bool: ...

    async def wake_waiting_bots(self) -> None: ...

    async def finish_due(self) -> int: ...


class BotRunner:
    """Takes bot jobs from the queue and plays them, at most ``slots`` at a time, and every
    ``SWEEP_SECONDS`` runs its chores (queueing jobs for bots that wait, and any added chore)."""

    def __init__(self, tables: BotTables, jobs: JobQueue, slots: int, chores: list[Chore] | None = None) -> None:
        self.tables = tables
        self.jobs = jobs
        self.slots = slots
        self.chores: list[Chore] = [tables.wake_waiting_bots, tables.finish_due, *(chores or [])]
        self._tasks: set[asyncio.Task[None]] = set()

    async def run(self) -> None:
        sweeper = asyncio.create_task(self._sweep(), name="bots-sweep")
        free = asyncio.Semaphore(self.slots)
        try:
            while True:
                await free.acquire()
                delivery = await self.jobs.take()
                task = asyncio.create_task(self._play(delivery, free))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
        finally:  # the bots' moves in flight end too (each acknowledges its job) before the queue closes; in
            # bounded time, a task whose cancellation was lost cancelled again (``jobs.cancel_and_wait``)
            await cancel_and_wait([sweeper, *self._tasks], CLOSE_SECONDS / 2)

    async def _play(self, delivery: Delivery, free: asyncio.Semaphore) -> None:
        try:
            await self.tables.play_bot(delivery.job)
        except Exception:  # a failing bot must not stop the runner; the sweep queues it again
            log.exception("bot job %s failed", delivery.job.key)
        finally:
            free.release()
            await self.jobs.done(delivery)

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            for chore in self.chores:
                try:
                    await chore()
                except Exception:
                    log.exception("chore %s failed", getattr(chore, "__qualname__", chore))
