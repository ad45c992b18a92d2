"""Time limits and leavers: the clocks of a started table, a seat whose time ran out, a person who left.

The leaver rule (docs/protocol.md): a bot of the table's level plays on for the seat, or (rule "out") a
stand-in plays on and the seat is ranked last."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from spieltafel.server.db import Database, SeatRow
from spieltafel.server.tables import clocks, rows
from spieltafel.server.tables.cache import TableCache
from spieltafel.server.tables.live import Live

log = logging.getLogger("spieltafel.server")


class Leavers:
    """Starts clocks, notices missed deadlines and applies the leaver rule, once over all processes."""

    def __init__(
        self, db: Database, cache: TableCache, now_ms: Callable[[], int], changed: Callable[[Live], None]
    ) -> None:
        self.db = db
        self.cache = cache
        self.now_ms = now_ms
        self.changed = changed

    async def start_clocks(self, live: Live) -> None:
        """Start the clocks of the seats to act at a table that has just started (the caller holds the lock)."""
        if live.status != "playing":
            return
        changes = clocks.retime(
            live.timing, [s.clock for s in live.seats], live.timed(), None, set(live.to_act()), self.now_ms()
        )
        if changes:
            async with self.db.write() as session:
                await rows.write_clocks(session, live.id, changes)
            live.set_clocks(changes)

    async def replace(self, live: Live, seat: int, reason: str, *condition: Any) -> bool:
        """The leaver rule for ``seat`` (its person left or ran out of time). Conditional on the database
        (the person still plays, plus ``condition``), so it happens once even when several processes
        sweep; the caller holds the lock and tells the watchers. True when this call did it."""
        bot = live.leaver_bot if live.leaver == "bot" and live.leaver_bot else clocks.OUT_PLAYER
        async with self.db.write() as session:
            if not await rows.claim_leaver_seat(session, live.id, seat, reason, bot, *condition):
                return False
        log.info("table %s seat %s: %s, %s takes the seat", live.id, seat, reason, live.leaver)
        return True

    async def overdue(self, live: Live, seat: int) -> bool:
        """Whether ``seat``'s time ran out before now; if so the leaver rule is applied (once)."""
        deadline = live.seats[seat].clock.deadline_ms
        if live.status != "playing" or deadline is None or self.now_ms() < deadline:
            return False
        await self.replace(live, seat, "time", SeatRow.deadline_ms == deadline)
        return True

    async def sweep(self) -> int:
        """Apply the leaver rule to every seat whose deadline has passed; returns how many it handled.

        Idempotent and safe to run in several processes at once: each missed deadline is claimed with a
        compare-and-set on its row (the deadline still the one seen), so it is handled exactly once, also
        when it passed while no server ran."""
        async with self.db.session() as session:
            due = await rows.overdue_seats(session, self.now_ms())
        handled = 0
        for table_id, seat, deadline in due:
            async with self.cache.lock(table_id):
                live = await self.cache.load(table_id, refresh=True)
                if not await self.replace(live, seat, "time", SeatRow.deadline_ms == deadline):
                    continue
                live = await self.cache.load(table_id, refresh=True)
            handled += 1
            self.changed(live)
        return handled
