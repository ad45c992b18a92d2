"""The searcher's side of remote hints and analyses (``analysis.remote``): a process with a bot pool on a
site with Redis takes hint and analysis jobs and computes them in its pool, ``hint_slots`` hints and
``analysis_at_once`` analyses at a time (per process: the hints' slots shared with the hints this process's
own askers compute, the analyses' slots with the analyses it starts itself), and tells the site it is
there."""

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
from spieltafel.server.analysis.remote import ANNOUNCE_SECONDS, HintJob, SearchQueue, Taken
from spieltafel.server.analysis.service import AnalysisService
from spieltafel.server.analysis.work import hint_for
from spieltafel.server.bots.jobs import RETRY_SECONDS
from spieltafel.server.bots.runners import BotPool
from spieltafel.server.db.models import AnalysisRow
from spieltafel.server.errors import NotFound
from spieltafel.server.tables.service import TableService
from spieltafel.server.tasks import CLOSE_SECONDS, cancel_and_wait

log = logging.getLogger("spieltafel.server.analysis")


class JobLost(Exception):
    """Another searcher took this job meanwhile (its renewal found it held by someone else): stop working on it."""


RETRY_MAX_SECONDS = 10.0
"""The longest pause of a searcher's loop after an unexpected error (the pauses double from ``RETRY_SECONDS``)."""


class SearchRunner:
    """Takes hint and analysis jobs from Redis and computes them in this process's bot pool.

    ``hint_free`` is the process's one semaphore of hints at once, shared with the hints this process's own
    askers compute (``HintService``): the two paths together never run more than ``hint_slots`` on the pool.
    A hint job is renewed every third of ``bot_job_timeout`` while this searcher has it (waiting for a slot or
    computing), so that no other searcher takes it again; an analysis job after each part. A job is
    acknowledged (and deleted) only when it was answered, judged invalid or failed; one whose task is
    cancelled (the process stops) or taken by another searcher stays pending, for the next taker."""

    def __init__(self, queue: SearchQueue, tables: TableService, pool: BotPool, analyses: AnalysisService,
                 hint_slots: int, hint_free: asyncio.Semaphore | None = None) -> None:
        self.queue = queue
        self.tables = tables
        self.pool = pool
        self.analyses = analyses
        self.hint_slots = hint_slots
        self.hint_free = hint_free if hint_free is not None else asyncio.Semaphore(hint_slots)
        self._tasks: set[asyncio.Task[None]] = set()
        self._keepers: set[asyncio.Task[None]] = set()
        """The renewals of the hint jobs taken (``_keep``), each ended with its job's task."""
        self.working: set[str] = set()
        """The receipts this searcher works on now (taken again by its own look: skipped)."""
        self.lost: set[str] = set()
        """Receipts whose renewal found them held by another searcher: not acknowledged here."""

    async def run(self) -> None:
        """Run the loops until cancelled (the process stops) or one of them fails; then stop them and the
        jobs in flight, in bounded time, and withdraw.

        The stop never waits for a loop to honour its cancellation: a cancellation that comes while a Redis
        command is in flight may be lost (``bots.jobs.cancel_and_wait``), and the loop goes on. So the loops
        are awaited with ``asyncio.wait`` (which, cancelled, returns at once; ``gather`` would wait for a
        loop that lost its cancellation for ever), ``queue.closing`` ends each loop at its next turn, and
        :func:`~spieltafel.server.bots.jobs.cancel_and_wait` cancels them again and gives up after
        ``CLOSE_SECONDS`` (logged)."""
        loops = [asyncio.create_task(self._announce(), name="searcher-announce"),
                 asyncio.create_task(self._hints(), name="searcher-hints"),
                 asyncio.create_task(self._analyses(), name="searcher-analyses")]
        try:
            done, _ = await asyncio.wait(loops, return_when=asyncio.FIRST_COMPLETED)
            for task in done:  # a loop ends only by failing (or by a stop from outside): so does the searcher
                task.result()
        finally:
            self.queue.closing = True  # from here no loop spawns a job (``_take_one``), cancelled or not
            await cancel_and_wait([*loops, *self._tasks, *self._keepers], CLOSE_SECONDS / 2)
            with contextlib.suppress(RedisError, OSError):
                await self.queue.withdraw(self.hint_slots)

    async def _announce(self) -> None:
        while not self.queue.closing:
            try:
                await self.queue.announce(self.hint_slots)
            except (RedisError, OSError) as error:
                log.warning("searcher not announced: %s", error)
            except Exception:
                log.exception("searcher not announced")
            if self.queue.closing:  # stopping, its cancellation lost in the announce: no sleep, no claim more
                return
            await asyncio.sleep(ANNOUNCE_SECONDS)

    def _spawn(self, work: Coroutine[Any, Any, None], receipt: str, slots: asyncio.Semaphore,
               keeping: asyncio.Task[None] | None = None) -> None:
        """Run a taken job holding one of ``slots``: the slot is given back when its task ends, even one
        cancelled before its first step (a done callback, not the coroutine's ``finally``)."""
        task: asyncio.Task[None] = asyncio.create_task(work)
        self._tasks.add(task)
        self.working.add(receipt)

        def ended(_: asyncio.Task[None]) -> None:
            self._tasks.discard(task)
            self.working.discard(receipt)
            self.lost.discard(receipt)
            slots.release()
            if keeping is not None:
                keeping.cancel()

        task.add_done_callback(ended)

    async def _hints(self) -> None:
        await self._take(SearchQueue.HINTS, self.hint_free, self._hint, hold=False)

    async def _analyses(self) -> None:
        await self._take(SearchQueue.ANALYSES, self.analyses.slots, self._analysis, hold=True)

    async def _take(
        self, kind: str, slots: asyncio.Semaphore, work: Callable[[Taken], Coroutine[Any, Any, None]], hold: bool
    ) -> None:
        """Take jobs of ``kind`` while a slot is free. ``hold`` (analyses): the slot is held during each look
        (at most a second) and given back between looks, so that the analyses this process starts itself
        get their turn. Else (hints): the look waits for a free slot without holding it, so that this
        process's own askers are not told ``busy`` meanwhile, and the job taken waits for its slot (renewed).
        An unexpected error is logged and the loop goes on after a pause (doubling, at most
        :data:`RETRY_MAX_SECONDS`)."""
        delay = RETRY_SECONDS
        while True:
            try:
                await self._take_one(kind, slots, work, hold)
                delay = RETRY_SECONDS
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the searcher's %s loop failed; going on in %.1f s", kind, delay)
                await asyncio.sleep(delay)
                delay = min(2 * delay, RETRY_MAX_SECONDS)

    async def _take_one(
        self, kind: str, slots: asyncio.Semaphore, work: Callable[[Taken], Coroutine[Any, Any, None]], hold: bool
    ) -> None:
        await slots.acquire()
        if not hold:
            slots.release()
        try:
            taken = await self.queue.poll(kind)
        except BaseException:
            if hold:
                slots.release()
            raise
        if self.queue.closing:  # stopping, its cancellation lost in the look: the job stays for the next taker
            if hold:
                slots.release()
            raise asyncio.CancelledError
        if taken is None or taken.receipt in self.working:  # none came, or one this searcher works on already
            if hold:
                slots.release()
            await asyncio.sleep(0)
            return
        keeping: asyncio.Task[None] | None = None
        if not hold:
            keeping = asyncio.create_task(self._keep(kind, taken.receipt), name=f"searcher-keep-{taken.receipt}")
            self._keepers.add(keeping)
            keeping.add_done_callback(self._keepers.discard)
            try:
                await slots.acquire()
            except BaseException:
                keeping.cancel()
                raise
            if self.queue.closing:  # stopping meanwhile (its cancellation lost): the job stays pending
                keeping.cancel()
                slots.release()
                raise asyncio.CancelledError
        self._spawn(work(taken), taken.receipt, slots, keeping)

    async def _keep(self, kind: str, receipt: str) -> None:
        """Renew a hint job every third of ``bot_job_timeout`` until its task ends (cancelled then); a job
        another searcher took meanwhile is noted in ``lost`` and no longer renewed."""
        every = max(0.05, self.queue.timeout / 3)
        while not self.queue.closing:  # stopping: its cancellation may have been lost in a renewal
            await asyncio.sleep(every)
            try:
                kept = await self.queue.renew(kind, receipt)
            except (RedisError, OSError) as error:
                log.warning("search job %s not renewed: %s", receipt, error)
                continue
            if not kept:
                log.warning("search job %s was taken by another searcher", receipt)
                self.lost.add(receipt)
                return

    async def _finish(self, kind: str, receipt: str) -> None:
        """Acknowledge a job answered, judged invalid or failed, unless another searcher holds it now."""
        if receipt not in self.lost:
            await self.queue.done(kind, receipt)

    async def _hint(self, taken: Taken) -> None:
        """One hint job; acknowledged when answered, invalid, past its deadline or failed (answered
        ``hint-failed`` then); left pending when cancelled (the process stops: another searcher takes it
        while its asker still waits)."""
        try:
            job = HintJob.parse(taken.fields)
        except (KeyError, ValueError) as error:
            log.warning("hint job %s dropped: %s", taken.receipt, error)
            await self._finish(SearchQueue.HINTS, taken.receipt)
            return
        try:
            if job.deadline_ms > await self.queue.redis_now_ms():  # else its asker has given up (Redis's clock)
                answer = await self.hint(job)
                await self.queue.reply(job.request, answer)
        except Exception:
            log.exception("hint job %s failed", taken.receipt)
            with contextlib.suppress(RedisError, OSError):
                await self.queue.reply(job.request, {"error": "hint-failed", "message": "the searcher failed"})
        await self._finish(SearchQueue.HINTS, taken.receipt)

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

    async def _analysis(self, taken: Taken) -> None:
        """One analysis job; acknowledged when computed, invalid or failed (its row goes stale and is queued
        again by the next read after ``STALE_MS``); left pending when cancelled (the process stops) or taken
        by another searcher (``JobLost``): the next taker computes it."""
        try:
            table = taken.fields.get(b"table", b"")
            if not (table.isdigit() and len(table) <= 18):
                log.warning("analysis job %s dropped: no table", taken.receipt)
            else:
                await self.analyse(int(table), taken.receipt)
        except JobLost:
            log.warning("analysis job %s was taken by another searcher: stopped here", taken.receipt)
            return
        except Exception:
            log.exception("analysis job %s failed", taken.receipt)
        await self._finish(SearchQueue.ANALYSES, taken.receipt)

    async def analyse(self, table_id: int, receipt: str) -> None:
        """Compute the analysis its row asks for (the budget as started), unless it is kept already; JobLost
        when another searcher took the job meanwhile (seen at a renewal, after a part)."""
        async with self.analyses.db.session() as session:
            query = select(AnalysisRow).where(AnalysisRow.table_id == table_id)
            row = (await session.execute(query)).scalar_one_or_none()
        if row is None or row.result is not None:
            return
        record = await self.tables.record(table_id)
        chosen, numbers = plan(record, None, row.iterations)

        async def renew() -> None:
            try:
                kept = await self.queue.renew(SearchQueue.ANALYSES, receipt)
            except (RedisError, OSError) as error:
                log.warning("analysis job %s not renewed: %s", receipt, error)
                return
            if not kept:
                raise JobLost(receipt)

        await self.analyses.compute_now(table_id, record, chosen, numbers, row.iterations, renew)
