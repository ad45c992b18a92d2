"""The parts of a site that a server process and a ``spieltafel worker`` share: the database, the hub,
the bots' job queue, the bot pool and its runner, and the table service over them.

Without ``redis_url`` everything lives in this one process. With it, changes fan out over Redis and
bot jobs go through the Redis queue: a process with ``bot_workers > 0`` takes jobs from it, one with
0 only queues them (for the ``spieltafel worker`` processes)."""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass, field

from . import metrics
from .db import Database
from .hub import Hub, RedisHub
from .jobs import CLOSE_SECONDS, JobQueue, MemoryJobs, RedisJobs, stop
from .ratings import RatingService
from .runners import BotPool, BotRunner, Chore
from .settings import Settings
from .tables import TableService


@dataclass
class Site:
    settings: Settings
    db: Database
    hub: Hub
    jobs: JobQueue
    bots: BotPool | None
    tables: TableService
    ratings: RatingService
    runner: BotRunner | None = None
    _tasks: list[asyncio.Task[None]] = field(default_factory=list)

    async def healthy(self) -> dict[str, bool]:
        """Whether the database and the pub/sub answer now."""
        database, pubsub = await asyncio.gather(self.db.healthy(), self.hub.healthy())
        return {"database": database, "pubsub": pubsub}

    async def close(self) -> None:
        await self.tables.close()
        self.jobs.stop_taking()
        for task in self._tasks:  # bounded: a task that does not end must not hold the shutdown forever
            task.cancel()
            await stop(task, CLOSE_SECONDS)
        if self.bots is not None:
            self.bots.close()
        await self.jobs.close()
        await self.hub.close()
        await self.db.close()


def consumer_name() -> str:
    """This process's name among the takers of bot jobs."""
    return f"{socket.gethostname()}-{os.getpid()}"


async def open_site(
    settings: Settings, chores: list[Chore] | None = None, now_ms: Callable[[], int] | None = None
) -> Site:
    """Migrate the database, connect the hub and the queue, start the bot runner (when this process
    thinks for bots) and queue the jobs of bots that wait."""
    settings.prepare()
    db = Database(settings.resolved_database_url())
    await db.start()
    metrics.watch_pool(db.engine)
    hub: Hub = Hub()
    jobs: JobQueue = MemoryJobs()
    if settings.redis_url:
        hub = RedisHub(settings.redis_url, settings.redis_prefix)
        jobs = RedisJobs(settings.redis_url, settings.redis_prefix, consumer_name(), settings.bot_job_timeout)
    await hub.start()
    await jobs.start()
    bots = BotPool(settings.bot_workers) if settings.bot_workers else None
    tables = TableService(db, hub, bots, settings.recent_events, jobs, now_ms=now_ms)
    ratings = RatingService(db)
    tables.finishers.append(ratings.rate_finished)  # a game a worker's bot ends is rated there
    site = Site(settings, db, hub, jobs, bots, tables, ratings)
    if bots is not None:
        site.runner = BotRunner(tables, jobs, settings.bot_workers, chores)
        site._tasks.append(asyncio.create_task(site.runner.run()))
    await tables.resume()
    return site
