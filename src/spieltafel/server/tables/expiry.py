"""Abandoned open tables expire (issue 26): an open table (not started, waiting for players) whose seats saw
no activity (a seat taken or given up, the table made) for the site's time closes; its seats, its invitation
and its chat go with it. A table whose game started never expires.

The time is the site's (``Settings.open_table_expiry_minutes`` for turn-based tables and tables without a
time limit, ``open_live_table_expiry_minutes`` for live ones; 0: never). The periodic sweep runs it in every
server process and worker: each table is removed with a compare-and-set on its row (still open, its last
activity still the one seen), so exactly one process closes it, and a later activity saves it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from spieltafel.server.db import Database
from spieltafel.server.errors import NotFound
from spieltafel.server.tables import rows
from spieltafel.server.tables.cache import TableCache

log = logging.getLogger("spieltafel.server")

MINUTE_MS = 60_000
NOTICE_MS = 7 * 24 * 60 * MINUTE_MS
"""How long the lobby tells the people who sat at an expired table about it."""


@dataclass(frozen=True)
class ExpiryTimes:
    """How long an open table may wait without activity, in minutes (0: for ever)."""

    turn_minutes: int = 0
    live_minutes: int = 0

    def after_ms(self, pace: str | None) -> int:
        return (self.live_minutes if pace == "live" else self.turn_minutes) * MINUTE_MS

    @property
    def never(self) -> bool:
        return not self.turn_minutes and not self.live_minutes


class Expiry:
    """Closes the open tables nobody touched for the site's time, once over all processes."""

    def __init__(
        self, db: Database, cache: TableCache, now_ms: Callable[[], int], times: ExpiryTimes,
        removed: Callable[[int, int], None],
    ) -> None:
        self.db = db
        self.cache = cache
        self.now_ms = now_ms
        self.times = times
        self.removed = removed
        """Told of each table this process closed, with its last ``seq`` (after the commit): its watchers learn it."""

    async def sweep(self) -> int:
        """Close every open table whose last activity is older than its time; returns how many this call closed.
        An open table without a recorded activity (made before this feature) gets "now" as its first one."""
        if self.times.never:
            return 0
        now = self.now_ms()
        async with self.db.write() as session:
            waiting = await rows.open_tables_activity(session)
            await rows.drop_old_notices(session, now - NOTICE_MS)
            unstamped = [table_id for table_id, active, _ in waiting if active is None]
            if unstamped:
                await rows.stamp_activity(session, unstamped, now)
        closed = 0
        for table_id, active, pace in waiting:
            after = self.times.after_ms(pace)
            if active is None or not after or now - active < after:
                continue
            async with self.cache.lock(table_id):
                try:
                    seq = (await self.cache.load(table_id, refresh=True)).seq
                except NotFound:  # closed or emptied by another process meanwhile
                    continue
                async with self.db.write() as session:
                    seated = await rows.remove_stale_open_table(session, table_id, active, now)
                if seated is None:  # joined, left or closed by another process meanwhile
                    continue
                self.cache.forget(table_id)
            log.info("table %s expired: open without activity since %s", table_id, active)
            closed += 1
            self.removed(table_id, seq)
        return closed

    async def notices(self, account_id: int) -> list[dict[str, int | str]]:
        """The account's tables that expired in the last week, newest first: ``{"id", "game", "expired_ms"}``."""
        async with self.db.session() as session:
            found = await rows.expired_notices(session, account_id, self.now_ms() - NOTICE_MS)
        return [{"id": table_id, "game": game, "expired_ms": when} for table_id, game, when in found]
