"""The post-game analysis of a finished table (issue 27): started once, computed in the bot workers in parts
of :data:`PART` decisions (never on the event loop; its progress kept in the database after each part),
kept once computed (``game_analyses``, migration 0012). A server process without bot workers computes none:
it queues the analysis through Redis for a process that has them (``analysis.remote``), which writes the
progress and the result into the same row; with no such process there now it starts none (503
``analysis-unavailable``, no row). Who may read it is the table gate's business
(``privacy.TableNumber``): the players of a private table, everyone for a public one; only a finished
game has one (its record is public then)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from pydantic import BaseModel
from redis.exceptions import RedisError
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from spieltafel.analysis import Decision, GameAnalysis, assemble, plan
from spieltafel.core import GameRecord, SpieltafelError
from spieltafel.server.analysis.remote import SearchQueue
from spieltafel.server.analysis.work import analyse_part
from spieltafel.server.bots.runners import BotPool
from spieltafel.server.db import Database
from spieltafel.server.db.models import AnalysisRow
from spieltafel.server.errors import Conflict, NotFound, Unavailable
from spieltafel.server.tables.service import TableService

log = logging.getLogger("spieltafel.server.analysis")

PART = 8
"""Decisions per job handed to a worker: the progress moves on after each part."""

STALE_MS = 10 * 60 * 1000
"""An analysis whose progress has not moved for this long (its process died) is started again. ``updated_ms``
is written from the writing process's own clock (``now_ms``), not Redis's: hosts whose clocks differ by
seconds (NTP) change nothing at this scale; a host minutes off only starts a stale analysis again sooner or
later (the conditional update keeps it to one restart), never loses one."""


class AnalysisStatus(BaseModel):
    """Where a table's analysis stands: ``none`` (not started), ``running`` (``done`` of ``total``
    decisions analysed) or ``done`` (with ``analysis``)."""

    table_id: int
    status: Literal["none", "running", "done"]
    done: int = 0
    total: int = 0
    iterations: int = 0
    analysis: GameAnalysis | None = None


class AnalysisService:
    """Starts, computes and reads the analyses of finished tables."""

    def __init__(
        self,
        db: Database,
        tables: TableService,
        pool: BotPool | None,
        iterations: int,
        now_ms: Callable[[], int],
        at_once: int = 1,
        remote: SearchQueue | None = None,
    ) -> None:
        """``at_once``: how many analyses this process computes at the same time (``settings.analysis_at_once``);
        the others wait, shown as running with nothing done yet. ``remote``: where a process without a bot
        pool (``pool`` None) queues its analyses for the processes that have one."""
        self.db = db
        self.remote = remote
        self.tables = tables
        self.pool = pool
        self.iterations = iterations
        self.now_ms = now_ms
        self.running: dict[int, asyncio.Task[None]] = {}
        self.slots = asyncio.Semaphore(at_once)

    async def read(self, table_id: int, restart: bool = True) -> AnalysisStatus:
        """The analysis of a table the caller may see (the gate has checked that). A ``running`` one whose
        progress stood still for ``STALE_MS`` (its process died, or its job was lost) is started again here
        (:meth:`start`), not only by the next POST."""
        async with self.db.session() as session:
            query = select(AnalysisRow).where(AnalysisRow.table_id == table_id)
            row = (await session.execute(query)).scalar_one_or_none()
        if restart and row is not None and row.result is None and self.now_ms() - row.updated_ms > STALE_MS:
            try:
                return await self.start(table_id)
            except (Conflict, Unavailable, NotFound) as error:
                log.warning("stale analysis of table %s not started again: %s", table_id, error)
            async with self.db.session() as session:  # a refusal may have removed it (no searcher there)
                row = (await session.execute(query)).scalar_one_or_none()
        if row is None:
            return AnalysisStatus(table_id=table_id, status="none")
        if row.result is not None:
            analysis = GameAnalysis.model_validate_json(row.result)
            total = len(analysis.decisions)
            return AnalysisStatus(
                table_id=table_id, status="done", done=total, total=total, iterations=row.iterations, analysis=analysis
            )
        return AnalysisStatus(
            table_id=table_id, status="running", done=row.done, total=row.total, iterations=row.iterations
        )

    async def start(self, table_id: int) -> AnalysisStatus:
        """Start the analysis of a finished table unless it is kept or running; Conflict before the end. A
        process without a bot pool starts one only while a searcher is there to compute it (else 503
        ``analysis-unavailable``, and no row: the page would show it running for ``STALE_MS``)."""
        record = await self.tables.record(table_id)  # Conflict "not-over" while the game runs
        if self.pool is None and self.remote is None:  # the search never runs on the web process
            raise Unavailable("analysis-unavailable",
                              "analyses are not offered by this server: it has no bot workers to compute them")
        try:
            chosen, numbers = plan(record, None, self.iterations)
        except SpieltafelError as error:
            raise Conflict("no-analysis", f"table {table_id} cannot be analysed: {error}") from error
        if self.pool is None:
            await self.searcher_there(table_id)
        now = self.now_ms()
        try:
            async with self.db.write() as session:
                query = select(AnalysisRow).where(AnalysisRow.table_id == table_id)
                row = (await session.execute(query)).scalar_one_or_none()
                fresh = row is None or (row.result is None and now - row.updated_ms > STALE_MS)
                if row is None:
                    session.add(AnalysisRow(table_id=table_id, iterations=self.iterations, done=0,
                                            total=len(numbers), result=None, updated_ms=now))
                elif fresh:  # started again: by one process only, the one whose update finds the stale row
                    claimed = await session.execute(
                        update(AnalysisRow)
                        .where(AnalysisRow.table_id == table_id, AnalysisRow.updated_ms == row.updated_ms,
                               AnalysisRow.result.is_(None))
                        .values(done=0, total=len(numbers), iterations=self.iterations, updated_ms=now)
                        .execution_options(synchronize_session=False)
                    )
                    fresh = claimed.rowcount == 1  # type: ignore[attr-defined]
        except IntegrityError:  # another process started it a moment ago
            fresh = False
        if fresh and self.pool is None:
            assert self.remote is not None
            try:
                await self.remote.queue_analysis(table_id)
            except (RedisError, OSError) as error:  # the row goes stale and the next start queues it again
                log.warning("analysis of table %s not queued: %s", table_id, error)
        elif fresh and table_id not in self.running:
            task = asyncio.create_task(self.compute(table_id, record, chosen, numbers))
            self.running[table_id] = task
            task.add_done_callback(lambda _: self.running.pop(table_id, None))
        return await self.read(table_id, restart=False)

    async def searcher_there(self, table_id: int) -> None:
        """Before a process without a bot pool starts (or starts again) an analysis: a searcher must be there
        to compute it (``<prefix>:searchers``), else Unavailable ``analysis-unavailable``, and an unfinished
        row left stale is removed (the page then says why, instead of "running" for ever). A kept or
        running analysis needs none: it is only read."""
        remote = self.remote
        assert remote is not None
        async with self.db.session() as session:
            query = select(AnalysisRow).where(AnalysisRow.table_id == table_id)
            row = (await session.execute(query)).scalar_one_or_none()
        if row is not None and (row.result is not None or self.now_ms() - row.updated_ms <= STALE_MS):
            return
        try:
            there = await remote.capacity() > 0
        except (RedisError, OSError) as error:
            log.warning("searchers not looked up for the analysis of table %s: %s", table_id, error)
            there = False
        if there:
            return
        if row is not None:
            async with self.db.write() as session:
                await session.execute(delete(AnalysisRow).where(
                    AnalysisRow.table_id == table_id, AnalysisRow.result.is_(None),
                    AnalysisRow.updated_ms == row.updated_ms))
        raise Unavailable("analysis-unavailable",
                          "no process that computes analyses is running now: try again later")

    async def compute(self, table_id: int, record: GameRecord, chosen: list[int], numbers: list[int]) -> None:
        """Analyse the decisions part by part in the workers, noting the progress, and keep the result (after
        waiting for one of the ``at_once`` slots)."""
        async with self.slots:
            await self.compute_now(table_id, record, chosen, numbers, self.iterations)

    async def compute_now(
        self, table_id: int, record: GameRecord, chosen: list[int], numbers: list[int], iterations: int,
        after_part: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """The analysis with ``iterations`` per decision; ``after_part`` is called after each part's progress
        is written (a searcher renews its job there)."""
        started = time.perf_counter()
        text = record.model_dump_json()
        decisions: list[Decision] = []
        try:
            for first in range(0, len(numbers), PART):
                part = numbers[first : first + PART]
                found = await self.run(text, part, iterations)
                decisions += [Decision.model_validate(d) for d in found]
                await self.note(table_id, len(decisions), None)
                if after_part is not None:
                    await after_part()
            analysis = assemble(record, chosen, iterations, 0, decisions, time.perf_counter() - started)
            await self.note(table_id, len(decisions), analysis.model_dump_json())
        except (IntegrityError, SpieltafelError):
            log.exception("analysis of table %s failed", table_id)

    async def run(self, text: str, part: list[int], iterations: int) -> list[dict[str, Any]]:
        """One part in a bot worker process (never on the loop, never in a process without workers)."""
        if self.pool is None:
            raise RuntimeError("this process has no bot pool: its analyses go to the searchers (analysis.remote)")
        return await self.pool.run(analyse_part, text, part, iterations, 0)

    async def note(self, table_id: int, done: int, result: str | None) -> None:
        async with self.db.write() as session:
            row = (await session.execute(select(AnalysisRow).where(AnalysisRow.table_id == table_id))).scalar_one()
            row.done, row.result, row.updated_ms = done, result, self.now_ms()

    async def close(self) -> None:
        for task in list(self.running.values()):
            task.cancel()
        await asyncio.gather(*self.running.values(), return_exceptions=True)
