"""This process's tables: each replayed from the log once and kept, checked against the log's ``seq``.

Three ways in, one per kind of caller:

- :meth:`TableCache.read` for a reader (takes the table's lock itself);
- :meth:`TableCache.load` for a caller that holds the lock and wants the log's current table;
- :meth:`TableCache.for_move` for a writer at ``seq`` (holding the lock): the cached table when it plays at
  ``seq``, else a load.

A move committed by another process reaches :meth:`TableCache.apply_remote` through the hub."""

from __future__ import annotations

import asyncio
from typing import Any

from spieltafel.core import get_game
from spieltafel.server.db import Database, TableRow
from spieltafel.server.errors import NotFound, no_table
from spieltafel.server.tables import rows
from spieltafel.server.tables.clocks import SeatClock, Timing
from spieltafel.server.tables.live import Live


class TableCache:
    """The tables this process has read, their locks and their invitation codes."""

    def __init__(self, db: Database, recent_events: int = 16) -> None:
        self.db = db
        self.recent_events = recent_events
        """How many of the latest events each table keeps for the state message."""
        self._live: dict[int, Live] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._invites: dict[int, str | None] = {}

    def lock(self, table_id: int) -> asyncio.Lock:
        """The lock every change of the table in this process holds."""
        return self._locks.setdefault(table_id, asyncio.Lock())

    def cached(self, table_id: int) -> Live | None:
        """The table as last read here, unchecked (None when this process has not read it)."""
        return self._live.get(table_id)

    def keep(self, live: Live) -> None:
        """Hold ``live`` as the table's current state in this process."""
        self._live[live.id] = live

    def forget(self, table_id: int) -> None:
        """Drop the table: the next reader loads it from the database."""
        self._live.pop(table_id, None)

    def note_events(self, live: Live, seq: int, events: list[Any]) -> None:
        live.note_events(seq, events, self.recent_events)

    async def read(self, table_id: int, known_seq: int | None = None, refresh: bool = False) -> Live:
        """The table for a reader: the cache when it holds ``known_seq``, else a checked load."""
        cached = self._live.get(table_id)
        if cached is not None and known_seq is not None and cached.seq >= known_seq:
            return cached
        async with self.lock(table_id):
            return await self.load(table_id, refresh=refresh)

    async def for_move(self, table_id: int, seq: int) -> Live:
        """For a writer at ``seq`` (holding the lock): the cached table while it plays at ``seq``, else
        a load checked against the log (another process may have moved on).

        When the cache is at ``seq`` but another process wrote meanwhile, the UNIQUE (table, seq)
        constraint refuses the insert and the writer reloads from the log."""
        cached = self._live.get(table_id)
        if cached is not None and cached.status == "playing" and cached.seq == seq:
            return cached
        return await self.load(table_id)

    async def load(self, table_id: int, refresh: bool = False) -> Live:
        """The table, its seats and its game at the log's current ``seq`` (the caller holds the lock).

        The cached game is used when its ``seq`` is the log's; otherwise the missing moves are replayed
        from the log, so a change made by another process is seen too. ``refresh`` reads the seats and
        the row again even when the cache is current."""
        cached = self._live.get(table_id)
        async with self.db.session() as session:
            row = await session.get(TableRow, table_id)
            if row is None:
                self._live.pop(table_id, None)
                raise no_table(table_id)
            count = await rows.count_moves(session, table_id)
            current = cached is not None and cached.seq == count and cached.status == row.status
            self._invites[table_id] = row.invite
            if cached is not None and current and not refresh and row.status != "open":
                cached.rematch = row.rematch_id
                if row.status == "playing":  # another process may have applied the leaver rule
                    cached.seats = await rows.read_seats(session, table_id)
                return cached
            seats = await rows.read_seats(session, table_id)
            live = cached if cached is not None and cached.seq <= count else None
            if live is None:
                state = get_game(row.game).new_state(row.players, row.seed, row.options)
                live = Live(row.id, row.game, row.players, dict(row.options), row.seed, row.status, seats, state)
                live.timing = Timing.of(row.pace, row.budget_ms, row.increment_ms)
                live.leaver, live.leaver_bot = row.leaver or "bot", row.leaver_bot
                live.rated = row.rated is not False
            live.seats, live.status = seats, row.status
            live.invite, live.rematch = row.invite, row.rematch_id
            for seq, seat, action in await rows.read_moves_from(session, table_id, live.seq):
                if seq < live.seq:  # applied meanwhile (a move carried by the hub)
                    continue
                self.note_events(live, seq + 1, live.apply_row(seat, action))
                live.seq = seq + 1
        self.keep(live)
        return live

    async def invite_of(self, table_id: int) -> str | None:
        """The table's invitation code (None: public, or no such table); cached, as it never changes and
        table ids are never reused (``game_tables`` counts its ids up, on SQLite with ``AUTOINCREMENT``)."""
        if table_id not in self._invites:
            try:
                await self.read(table_id)
            except NotFound:
                return None
        return self._invites.get(table_id)

    def apply_remote(self, table_id: int, seq: int, detail: Any) -> None:
        """Another process committed a move (``detail``, see :func:`move_detail`) that makes the table's
        ``seq``: apply it to the cached game when the cache is just before it and nobody here holds the
        table (a reader then finds the cache current without the database). Otherwise nothing: whoever
        reads next loads from the log, as without the detail. A change without a move (a seat taken, left
        or timed out, a rematch) drops the cached table: the next reader loads it, seats included."""
        live = self._live.get(table_id)
        lock = self._locks.get(table_id)
        move = detail.get("move") if isinstance(detail, dict) else None
        if live is not None and move is None:
            self._live.pop(table_id, None)
            return
        if live is None or move is None or (lock is not None and lock.locked()):
            return
        before, seat, action = move
        if before != live.seq or seq != before + 1 or live.status != "playing":
            return
        if seat not in live.state.seats_to_act():
            self._live.pop(table_id, None)  # the cache disagrees with the log: load it afresh
            return
        try:
            events = live.apply_row(seat, action)
        except Exception:
            self._live.pop(table_id, None)
            raise
        for number, clock in detail.get("clocks", {}).items():
            live.seats[int(number)].clock = SeatClock(*clock)
        live.seq = seq
        live.status = "over" if live.state.is_over else "playing"
        self.note_events(live, seq, events)


def move_detail(before: int, seat: int, action: int, clocks: dict[int, SeatClock]) -> dict[str, Any]:
    """What the hub carries to the other processes about a committed move: the ``seq`` it was made at,
    the seat and the action index (the same as the log's row), and the clocks it changed."""
    detail: dict[str, Any] = {"move": [before, seat, action]}
    if clocks:
        detail["clocks"] = {str(n): [c.clock_ms, c.since_ms, c.deadline_ms] for n, c in clocks.items()}
    return detail
