"""A finished game: its record and log, and its finishers (the ratings), run exactly once."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from spieltafel.core import GameRecord, GameResult, RecordedAction, State
from spieltafel.server.db import Database, TableRow
from spieltafel.server.errors import Conflict, NotFound
from spieltafel.server.tables import rows
from spieltafel.server.tables.cache import TableCache
from spieltafel.server.tables.live import Live
from spieltafel.server.tables.undo import standing_rows

log = logging.getLogger("spieltafel.server")

FINISHING_AT_ONCE = 2
"""Finished games whose ratings one process makes at a time (:meth:`Results.finish`)."""
MAX_FINISH_SWEEP = 500
"""Due games one sweep finishes at most (:meth:`Results.finish_due`); the next sweep takes the rest."""

Finisher = Callable[[AsyncSession, Live, State], Awaitable[None]]


def require_over(live: Live) -> None:
    if live.status != "over":
        raise Conflict("not-over", f"table {live.id} is {live.status}: the record is there once the game is over")


class Results:
    """Records and logs of finished games, and the finishers run once per finished game."""

    def __init__(self, db: Database, cache: TableCache) -> None:
        self.db = db
        self.cache = cache
        self.finishers: list[Finisher] = []
        """Called with (session, table, final state) once per finished game, in a transaction of their own
        after the last move's (ratings: :meth:`finish`)."""
        self._finishing = asyncio.Semaphore(FINISHING_AT_ONCE)

    async def record(self, table_id: int) -> GameRecord:
        """The finished game's record, straight from the log (Conflict before the end)."""
        live = await self.cache.read(table_id)
        require_over(live)
        standing = standing_rows(await self._log(table_id))  # the moves that stand, no takebacks
        actions = [RecordedAction(seat=seat, action=notation) for _, seat, notation in standing]
        return GameRecord(
            game=live.game, players=live.players, options=dict(live.options), seed=live.seed,
            seats=[s.recorded(live.leaver) for s in live.seats],
            actions=actions, result=GameResult(scores=live.state.scores(), winners=live.state.winners()),
            hints=[s.hints for s in live.seats] if live.hints_allowed() else None,
        )

    async def moves(self, table_id: int) -> list[tuple[int, int, str]]:
        """(seq, seat, notation) of every row of a finished game's log, takebacks included (Conflict before
        the end)."""
        require_over(await self.cache.read(table_id))
        return await self._log(table_id)

    async def log_so_far(self, table_id: int) -> tuple[Live, list[tuple[int, int, str]]]:
        """The table and (seq, seat, notation) of every move so far that stands, for a replay that the server draws for
        one seat only (``/tables/ID/history``): the log never leaves the server through this."""
        return await self.cache.read(table_id), standing_rows(await self._log(table_id))

    async def _log(self, table_id: int) -> list[tuple[int, int, str]]:
        async with self.db.session() as session:
            return await rows.read_log(session, table_id)

    async def finish(self, live: Live) -> bool:
        """Run the finishers (the ratings) of ``live``'s finished game, exactly once over all processes:
        the game's ``rating_due`` flag is cleared in the same transaction, and a second caller finds it
        cleared (or waits on its row until the first commits). A failure is logged and leaves the flag:
        :meth:`finish_due` tries again. At most ``FINISHING_AT_ONCE`` at a time per process, so that the
        same players' games ending together (their rating rows locked in turn) take few connections of
        the pool. True when this call ran them."""
        async with self._finishing:
            try:
                async with self.db.write() as session:
                    claimed = await session.execute(
                        update(TableRow).where(TableRow.id == live.id, TableRow.rating_due.is_(True))
                        .values(rating_due=False)
                    )
                    if claimed.rowcount != 1:  # type: ignore[attr-defined]
                        return False
                    for finisher in self.finishers:
                        await finisher(session, live, live.state)
            except asyncio.CancelledError:
                raise
            except Exception:  # the game and its last move are committed; the ratings are made later
                log.exception("finishing table %s failed; the sweep tries again", live.id)
                return False
        return True

    async def finish_due(self) -> int:
        """:meth:`finish` every game over whose finishers have not run (e.g. its process died between the
        last move's commit and the ratings); returns how many this call finished. Run after a start and
        with the sweeps."""
        async with self.db.session() as session:
            due = (await session.execute(
                select(TableRow.id).where(TableRow.rating_due.is_(True)).order_by(TableRow.id).limit(MAX_FINISH_SWEEP)
            )).scalars().all()
        finished = 0
        for table_id in due:
            try:
                live = await self.cache.read(table_id, refresh=True)
            except NotFound:
                continue
            finished += await self.finish(live)
        return finished
