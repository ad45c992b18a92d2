"""Group commit of plain moves on PostgreSQL: the moves that arrive while one batch is being committed
are committed together by the next, in one statement (docs/performance.md, issue 13).

A *plain* move is a person's move that changes nothing but the log (no clock), or the log and, as the
game's last move, the table's status (``over``, with its ratings due: they are made after the commit).
Each is still acknowledged only after the commit that holds it, and each still gets its own
outcome: the batch locks the movers' seat rows (the person must still play the seat: the leaver rule
may have handed it to a bot) and inserts the moves of the seats it could lock; the UNIQUE (table_id,
seq) constraint refuses a move another writer committed first, as before, but only that move
(``ON CONFLICT DO NOTHING``) instead of the whole statement.

Locks are taken in one order everywhere in the batch (seat rows by table and seat, then the moves by
table and seq, all seat rows before the first insert), so two processes' batches never wait on each
other in a cycle; a deadlock with another kind of writer is retried (the batch had committed nothing).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

import asyncpg  # type: ignore[import-untyped]  # no stubs
from sqlalchemy.exc import OperationalError

from spieltafel.server.db.engine import Database

Outcome = Literal["appended", "stale", "gone"]
"""``appended``: committed. ``stale``: another move at the table's ``seq`` was committed first.
``gone``: the seat is no longer played by its person (left, or out of time)."""

MAX_BATCH = 400
"""Moves per statement at most; more wait for the next (a bound on the statement's size and time)."""
DEADLOCK_RETRIES = 3

HOLD_AND_APPEND_MANY = """
WITH batch AS (
    SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::varchar[])
        AS b(table_id, seq, seat, action, notation)
), held AS MATERIALIZED (
    SELECT seats.table_id, seats.seat FROM seats
    JOIN batch ON seats.table_id = batch.table_id AND seats.seat = batch.seat
    WHERE seats.table_id = ANY($1::int[]) AND seats.gone IS NULL AND seats.bot IS NULL
    ORDER BY seats.table_id, seats.seat
    FOR NO KEY UPDATE OF seats
), appended AS (
    INSERT INTO moves (table_id, seq, seat, action, notation, created_at)
    SELECT batch.table_id, batch.seq, batch.seat, batch.action, batch.notation, $6
    FROM batch JOIN held ON held.table_id = batch.table_id AND held.seat = batch.seat
    ORDER BY batch.table_id, batch.seq
    ON CONFLICT (table_id, seq) DO NOTHING
    RETURNING table_id
), ended AS (
    UPDATE game_tables SET status = 'over', rating_due = true
    FROM appended WHERE game_tables.id = appended.table_id AND game_tables.id = ANY($7::int[])
)
SELECT held.table_id, appended.table_id IS NOT NULL AS appended
FROM held LEFT JOIN appended ON appended.table_id = held.table_id
"""
"""One statement, so one transaction: the seat rows of the batch are locked (FOR NO KEY UPDATE, the
lock an UPDATE takes, which the leaver rule's UPDATE waits for) in (table, seat) order and fully, before
the first insert (the CTE is materialized and the insert's rows are sorted); then the moves of the held
seats are inserted in (table, seq) order; the tables whose last move went in ($7: the tables of the
batch whose move ends the game) are over, their ratings due. Rows: one per held seat, whether its
move went in. A batch holds at most one move per table (a process moves a table under its lock)."""


@dataclass(frozen=True, slots=True)
class PlainMove:
    table_id: int
    seq: int
    seat: int
    action: int
    notation: str
    ends: bool = False
    """The game's last move: the table is over once it is in."""


class GroupCommit:
    """Collects plain moves and commits them in batches, one statement in flight at a time."""

    def __init__(self, db: Database, now: Callable[[], datetime]) -> None:
        self.db = db
        self.now = now
        self._waiting: dict[int, tuple[PlainMove, asyncio.Future[Outcome]]] = {}
        self._runner: asyncio.Task[None] | None = None
        self.batches = 0
        """Statements sent (for tests and measurements)."""

    async def append(self, move: PlainMove) -> Outcome:
        """Commit ``move`` with the next batch; its outcome once that batch is committed."""
        if move.table_id in self._waiting:  # the table's lock makes this impossible; refuse, never merge
            raise RuntimeError(f"table {move.table_id} already has a move waiting for the group commit")
        future: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        self._waiting[move.table_id] = (move, future)
        if self._runner is None:
            self._runner = asyncio.create_task(self._run())
        try:
            return await future
        except asyncio.CancelledError:  # the mover went away (a closed socket): a move not sent yet never is
            if self._waiting.get(move.table_id, (None, None))[1] is future:
                del self._waiting[move.table_id]
            raise

    async def _run(self) -> None:
        try:
            while self._waiting:
                batch = self._take_batch()
                try:
                    outcomes = await self._commit([move for move, _ in batch])
                except Exception as error:  # every move of the batch failed, and nothing was acknowledged
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(error)
                    continue
                except BaseException:  # cancelled (shutting down): so are the moves of the batch
                    for _, future in batch:
                        future.cancel()
                    raise
                for move, future in batch:
                    if not future.done():  # done: its caller was cancelled (the move may still be in)
                        future.set_result(outcomes.get(move.table_id, "gone"))
        finally:
            self._runner = None
            for _, future in self._waiting.values():  # only after a cancellation
                future.cancel()
            self._waiting.clear()

    def _take_batch(self) -> list[tuple[PlainMove, asyncio.Future[Outcome]]]:
        tables = list(self._waiting)[:MAX_BATCH]
        return [self._waiting.pop(table) for table in tables]

    async def _commit(self, moves: list[PlainMove]) -> Mapping[int, Outcome]:
        columns = (
            [m.table_id for m in moves], [m.seq for m in moves], [m.seat for m in moves],
            [m.action for m in moves], [m.notation for m in moves], self.now(),
            [m.table_id for m in moves if m.ends],
        )
        for attempt in range(DEADLOCK_RETRIES + 1):
            try:
                rows = await self.db.fetch_alone(HOLD_AND_APPEND_MANY, *columns)
            except OperationalError as error:
                if not isinstance(error.orig, asyncpg.DeadlockDetectedError) or attempt == DEADLOCK_RETRIES:
                    raise
                continue
            self.batches += 1
            return {row[0]: ("appended" if row[1] else "stale") for row in rows}
        raise AssertionError("unreachable")
