"""The searcher's side of remote hints and analyses (``analysis.remote``): a process with a bot pool on a
site with Redis takes hint and analysis jobs and computes them in its pool, ``hint_slots`` hints and
``analysis_at_once`` analyses at a time (per process, the analyses' slots shared with the analyses this
process starts itself), and tells the site it is there."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from redis.exceptions import RedisError
from sqlalchemy import select

from spieltafel.analysis import plan
from spieltafel.core import SpieltafelError
from spieltafel.server.analysis.hints import hint_seed
from spieltafel.server.analysis.remote import ANNOUNCE_SECONDS, HintJob, SearchQueue, Taken, now_ms
from spieltafel.server.analysis.service import AnalysisService
from spieltafel.server.analysis.work import hint_for
from spieltafel.server.bots.jobs import CLOSE_SECONDS
from spieltafel.server.bots.runners import BotPool
from spieltafel.server.db.models import AnalysisRow
from spieltafel.server.errors import NotFound
from spieltafel.server.tables.service import TableService

log = logging.getLogger("spieltafel.server.analysis")


class SearchRunner:
    """Takes hint and analysis jobs from Redis and computes them in this process's bot pool."""

    def __init__(self, queue: SearchQueue, tables: TableService, pool: BotPool, analyses: AnalysisService,
                 hint_slots: int) -> None:
        self.queue = queue
        self.tables = tables
        self.pool = pool
        self.analyses = analyses
        self.hint_slots = hint_slots
        self._tasks: set[asyncio.Task[None]] = set()

    async def run(self) -> None:
        loops = [asyncio.create_task(self._announce()), asyncio.create_task(self._hints()),
                 asyncio.create_task(self._analyses())]
        try:
            await asyncio.gather(*loops)
        finally:
            self.queue.closing = True
            for task in [*loops, *self._tasks]:
                task.cancel()
            await asyncio.wait([*loops, *self._tasks], timeout=CLOSE_SECONDS)
            with contextlib.suppress(RedisError, OSError):
                await self.queue.withdraw(self.hint_slots)

    async def _announce(self) -> None:
        while True:
            try:
                await self.queue.announce(self.hint_slots)
            except (RedisError, OSError) as error:
                log.warning("searcher not announced: %s", error)
            await asyncio.sleep(ANNOUNCE_SECONDS)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task: asyncio.Task[None] = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _hints(self) -> None:
        await self._take(SearchQueue.HINTS, asyncio.Semaphore(self.hint_slots), self._hint)

    async def _analyses(self) -> None:
        await self._take(SearchQueue.ANALYSES, self.analyses.slots, self._analysis)

    async def _take(
        self, kind: str, slots: asyncio.Semaphore, work: Callable[[Taken, asyncio.Semaphore], Coroutine[Any, Any, None]]
    ) -> None:
        """Take jobs of ``kind`` while a slot is free. The slot is given back between looks (each waits at
        most a second), so that the analyses this process starts itself get their turn at the shared slots."""
        while True:
            await slots.acquire()
            try:
                taken = await self.queue.poll(kind)
            except BaseException:
                slots.release()
                raise
            if taken is None:
                slots.release()
                await asyncio.sleep(0)
                continue
            self._spawn(work(taken, slots))

    async def _hint(self, taken: Taken, free: asyncio.Semaphore) -> None:
        try:
            try:
                job = HintJob.parse(taken.fields)
            except (KeyError, ValueError) as error:
                log.warning("hint job %s dropped: %s", taken.receipt, error)
                return
            if job.deadline_ms <= now_ms():  # its asker has given up
                return
            answer = await self.hint(job)
            await self.queue.reply(job.request, answer)
        except Exception:
            log.exception("hint job %s failed", taken.receipt)
        finally:
            free.release()
            await self.queue.done(SearchQueue.HINTS, taken.receipt)

    async def hint(self, job: HintJob) -> dict[str, Any]:
        """The answer to a hint job: ``{"hint": ...}`` or ``{"error": code, "message": ...}``. The table is
        read here, from the database; the search sees the seat's observation only (``work.hint_for``)."""
        try:
            live = await self.tables.read(job.table_id)
        except NotFound:
            return {"error": "stale", "message": "the table is gone"}
        if (live.status != "playing" or live.seq != job.seq or not 0 <= job.seat < live.players
                or job.seat not in live.to_act() or not live.state.legal_actions(job.seat)):
            return {"error": "stale", "message": "the position moved on"}
        args = (live.game, live.state.to_json(), job.seat, job.iterations, job.seconds,
                hint_seed(job.table_id, job.seq, job.seat))
        try:
            found = await self.pool.run(hint_for, *args)
        except SpieltafelError as error:
            return {"error": "no-hint", "message": str(error)}
        except BrokenProcessPool:
            log.exception("a bot worker died while working out a hint for %s", live.game)
            return {"error": "hint-failed", "message": "a worker stopped"}
        return {"hint": found}

    async def _analysis(self, taken: Taken, slots: asyncio.Semaphore) -> None:
        try:
            table = taken.fields.get(b"table", b"")
            if not table.isdigit():
                log.warning("analysis job %s dropped: no table", taken.receipt)
                return
            await self.analyse(int(table), taken.receipt)
        except Exception:
            log.exception("analysis job %s failed", taken.receipt)
        finally:
            slots.release()
            await self.queue.done(SearchQueue.ANALYSES, taken.receipt)

    async def analyse(self, table_id: int, receipt: str) -> None:
        """Compute the analysis its row asks for (the budget as started), unless it is kept already."""
        async with self.analyses.db.session() as session:
            query = select(AnalysisRow).where(AnalysisRow.table_id == table_id)
            row = (await session.execute(query)).scalar_one_or_none()
        if row is None or row.result is not None:
            return
        record = await self.tables.record(table_id)
        chosen, numbers = plan(record, None, row.iterations)

        async def renew() -> None:
            with contextlib.suppress(RedisError, OSError):
                await self.queue.renew(SearchQueue.ANALYSES, receipt)

        await self.analyses.compute_now(table_id, record, chosen, numbers, row.iterations, renew)
