"""The table service: the only code that creates, fills, starts and changes a game.

It is put together from the parts of this package, each with one responsibility:

- :mod:`.cache`: the tables this process has replayed from the log, checked against its ``seq``;
- :mod:`.moves`: checking and committing a move (every submission: HTTP, WebSocket, bots);
- :mod:`.invitations`: private tables, guests and rematches;
- :mod:`.leavers` (with :mod:`.clocks`): time limits and the leaver rule;
- :mod:`.results`: records, logs and the finishers (ratings) of finished games;
- :mod:`.payload`: the per-seat state message, the only place labels are made;
- :mod:`.creation` and :mod:`.rows`: a new table's request checked, and every SQL statement.

A change is committed before anyone is told (``hub.publish``), and bots are woken through the job queue.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import select

from spieltafel.core import GameRecord, Rng
from spieltafel.server.accounts.service import Account
from spieltafel.server.bots.jobs import BotJob, JobQueue
from spieltafel.server.bots.runners import BotPool
from spieltafel.server.db import Database, SeatRow, TableRow
from spieltafel.server.errors import Conflict, Forbidden, Invalid, NotFound, StaleSeq, Unauthenticated
from spieltafel.server.ops import metrics
from spieltafel.server.realtime.hub import Hub
from spieltafel.server.tables import creation, rows
from spieltafel.server.tables.cache import TableCache
from spieltafel.server.tables.clocks import Limits
from spieltafel.server.tables.expiry import Expiry, ExpiryTimes
from spieltafel.server.tables.invitations import Invitations
from spieltafel.server.tables.leavers import Leavers
from spieltafel.server.tables.live import STATUSES, Live
from spieltafel.server.tables.moves import MoveWriter
from spieltafel.server.tables.payload import Payloads
from spieltafel.server.tables.results import Finisher, Results

log = logging.getLogger("spieltafel.server")

MAX_LIST = 200


def wall_clock_ms() -> int:
    return int(time.time() * 1000)


def bot_seed(table_seed: int, seq: int, seat: int) -> int:
    """The seed of a bot's decision: the same for the same table, move and seat (a replayed job decides alike)."""
    return (table_seed * 1_000_003 + seq * 101 + seat) % (2**63)


class TableService:
    """Create, join, leave, read and play tables; the one writer of every game."""

    def __init__(
        self, db: Database, hub: Hub, bots: BotPool | None, recent_events: int = 16, jobs: JobQueue | None = None,
        now_ms: Callable[[], int] | None = None, expiry: ExpiryTimes | None = None,
    ) -> None:
        self.db = db
        self.hub = hub
        self.bots = bots
        self.jobs = jobs
        self.closing = False
        self.now_ms: Callable[[], int] = now_ms or wall_clock_ms
        """The clock of every time limit (epoch milliseconds)."""
        self.cache = TableCache(db, recent_events)
        self.payloads = Payloads(self.now_ms)
        self.results = Results(db, self.cache)
        self.leavers = Leavers(db, self.cache, self.now_ms, self.changed)
        self.invitations = Invitations(db, self.cache, self.announce)
        self.writer = MoveWriter(db, self.cache, self.results, self.now_ms, self.changed)
        self.expiry = Expiry(db, self.cache, self.now_ms, expiry or ExpiryTimes(), self.hub.publish)

    @property
    def finishers(self) -> list[Finisher]:
        """Called once per finished game after its last move's commit (:meth:`Results.finish`)."""
        return self.results.finishers

    # -- life cycle ----------------------------------------------------------------------------
    async def resume(self) -> None:
        """After a (re)start: queue a job for every bot whose turn it is; rate the games that ended while
        their ratings were not made (a process gone between a last move's commit and its ratings)."""
        await self.wake_waiting_bots()
        await self.results.finish_due()

    async def wake_waiting_bots(self) -> None:
        """Queue a job for every bot whose turn it is at a running table (a queued job is not repeated).
        Run after a start and now and then, so that no bot waits for a job lost with a process."""
        bot_tables = select(SeatRow.table_id).where(SeatRow.bot.is_not(None))
        async with self.db.session() as session:
            ids = (await session.execute(
                select(TableRow.id).where(TableRow.status == "playing", TableRow.id.in_(bot_tables))
            )).scalars().all()
        for table_id in ids:
            try:
                self._wake_bots(await self.cache.read(table_id))
            except NotFound:  # removed meanwhile
                continue

    async def close(self) -> None:
        self.closing = True

    async def sweep_forever(self, every: float, *also: Callable[[], Awaitable[int]]) -> None:
        """The leaver sweep, ``finish_due`` and the expiry of abandoned open tables (then each of ``also``,
        e.g. the e-mails) every ``every``
        seconds until cancelled; the server runs this; failures are logged and tried again next time."""
        while not self.closing:
            for job in (self.leavers.sweep, self.results.finish_due, self.expiry.sweep, *also):
                try:
                    await job()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("%s failed; trying again", getattr(job, "__qualname__", job))
            await asyncio.sleep(every)

    # -- creating and filling tables -----------------------------------------------------------
    async def create(
        self, account: Account, game: str, players: int, options: Mapping[str, Any], seats: Sequence[Mapping[str, Any]],
        private: bool = False, clock: Mapping[str, Any] | None = None, leaver: Mapping[str, Any] | None = None,
        rated: bool = True,
    ) -> int:
        """A new table; it starts at once when no seat is open. Returns its id.

        A private table gets an unguessable invitation code: only its seats and the accounts that
        opened its invitation link see it (:meth:`Invitations.may_see`).
        ``clock``: None, ``{"pace": "live", "minutes", "increment"}`` or ``{"pace": "turn", "per_move"}``;
        ``leaver``: ``{"rule": "bot", "bot": level}`` (default: medium) or ``{"rule": "out"}``;
        ``rated``: the game changes ratings (the default, with or without bots) or, False, it is casual."""
        engine = creation.game_named(game)
        creation.check_players(engine, players)
        resolved = creation.resolved_options(engine, options)
        seat_rows = creation.seat_rows(seats, players, account)
        limits = Limits(creation.timing_of(clock), *creation.leaver_of(leaver))
        async with self.db.write() as session:
            table_id = await rows.insert_table(
                session, account.id, engine.name, players, resolved, seat_rows, private, limits, rated
            )
            await rows.touch(session, table_id, self.now_ms())
        await self.announce(table_id)
        return table_id

    async def announce(self, table_id: int) -> None:
        """Load a new or changed table, start its clocks if it has just started, and tell its watchers."""
        async with self.cache.lock(table_id):
            live = await self.cache.load(table_id, refresh=True)
            await self.leavers.start_clocks(live)
        self.changed(live)

    async def join(self, account: Account, table_id: int, seat: int | None = None) -> int:
        """Take ``seat`` (or the first open one) of an open table; the table starts when it is full."""
        async with self.cache.lock(table_id):
            live = await self.cache.load(table_id, refresh=True)
            if live.status != "open":
                raise Conflict("not-open", f"table {table_id} is {live.status}: only open tables can be joined")
            if live.seat_of(account) is not None:
                raise Conflict("already-seated", f"you already sit at seat {live.seat_of(account)} of table {table_id}")
            number = _open_seat(live, seat)
            async with self.db.write() as session:
                if not await rows.take_seat(session, table_id, number, account.id, live.timing.first_clock()):
                    raise Conflict("seat-taken", f"seat {number} of table {table_id} was taken a moment ago")
                await rows.touch(session, table_id, self.now_ms())
                await rows.start_if_full(session, table_id)
            live = await self.cache.load(table_id, refresh=True)
            await self.leavers.start_clocks(live)
        self.changed(live)
        return number

    async def leave(self, account: Account, table_id: int, *, confirmed: bool = False) -> None:
        """Give up one's seat: before the start it opens again (a table nobody sits at any more is
        removed); during the game the table's leaver rule takes the seat, for good, and only when the
        caller ``confirmed`` it (issue 26: "asks before Leave for good"; the site's own moves, a ban or an
        account deletion, confirm for the person)."""
        async with self.cache.lock(table_id):
            live = await self.cache.load(table_id, refresh=True)
            number = live.seat_of(account)
            if number is None:
                raise Conflict("not-seated", f"you do not sit at table {table_id}")
            if live.status == "playing" and not confirmed:
                raise Invalid(
                    "confirm-leave",
                    f"table {table_id} is playing: leaving is for good (the table's leaver rule takes your seat); "
                    'send {"confirm": true} to leave',
                )
            if live.status == "playing":
                if not await self.leavers.replace(live, number, "left"):
                    raise Conflict("not-seated", f"you no longer play at table {table_id}")
                live = await self.cache.load(table_id, refresh=True)
            elif live.status != "open":
                raise Conflict("over", f"table {table_id} is over: there is nothing to leave")
            else:
                async with self.db.write() as session:
                    await rows.touch(session, table_id, self.now_ms())
                    await rows.free_seat(session, table_id, number)
                self.cache.forget(table_id)
                self.hub.publish(table_id, live.seq)
                return
        self.changed(live)

    # -- reading -------------------------------------------------------------------------------
    async def listing(self, status: str | None = None, mine: Account | None = None) -> list[dict[str, Any]]:
        """Tables, newest first (at most 200): each the ``get`` shape plus ``to_act``."""
        if status is not None and status not in STATUSES:
            raise Invalid("bad-status", f"status {status!r} is not one of {', '.join(STATUSES)}")
        query = select(TableRow.id).order_by(TableRow.id.desc()).limit(MAX_LIST)
        if status is not None:
            query = query.where(TableRow.status == status)
        if mine is not None:
            query = query.where(TableRow.id.in_(select(SeatRow.table_id).where(SeatRow.account_id == mine.id)))
        else:  # private tables are listed only to their players
            query = query.where(TableRow.invite.is_(None))
        async with self.db.session() as session:
            ids = (await session.execute(query)).scalars().all()
        listed = []
        for table_id in ids:
            live = await self.cache.read(table_id)
            listed.append({**live.summary(), "to_act": live.to_act()})
        return listed

    async def get(self, table_id: int) -> dict[str, Any]:
        return (await self.cache.read(table_id)).summary()

    def forget(self, table_ids: set[int]) -> None:
        """Drop these tables from this process's cache: their seats changed outside a move (a deleted
        account, ``accounts.leaving``), and the next read loads them again."""
        for table_id in table_ids:
            self.cache.forget(table_id)

    async def read(self, table_id: int, refresh: bool = False) -> Live:
        """The table as this process knows it, checked against the log (NotFound for no table); ``refresh``
        reads its row and seats again."""
        return await self.cache.read(table_id, refresh=refresh)

    async def seat_of(self, table_id: int, account: Account | None) -> int | None:
        """``account``'s seat at the table, None for a spectator (NotFound for no table)."""
        return (await self.cache.read(table_id)).seat_of(account)

    async def state_for(
        self, table_id: int, account: Account | None, known_seq: int | None = None
    ) -> dict[str, Any]:
        """What ``account``'s seat (a spectator when it has none) may see now.

        ``known_seq`` (from the hub) lets a watcher skip the database check when the cache has it."""
        live = await self.cache.read(table_id, known_seq=known_seq)
        return self.payloads.for_seat(live, live.seat_of(account))

    async def sample_for(self, account: Account, table_id: int) -> dict[str, Any]:
        """A full state drawn from ``account``'s seat's information set (``determinise`` with fresh
        randomness: it depends only on that seat's view, so it tells nothing the view does not)."""
        live = await self.cache.read(table_id)
        seat = live.seat_of(account)
        if seat is None:
            raise Forbidden("not-seated", f"you do not sit at table {table_id}: samples are for players")
        if live.status != "playing":
            raise Conflict("not-playing", f"table {table_id} is {live.status}: samples are drawn while it plays")
        drawn = live.state.determinise(seat, Rng(secrets.randbits(62)))
        return {"seq": live.seq, "seat": seat, "state": drawn.to_json()}

    async def waiting(self, account: Account) -> list[dict[str, Any]]:
        """The running games that wait for ``account`` now (its seat is to act), soonest deadline first:
        each the ``listing`` shape plus ``deadline_ms`` (null without a time limit)."""
        found = []
        for table in await self.listing("playing", account):
            live = self.cache.cached(table["id"]) or await self.cache.read(table["id"])
            seat = live.seat_of(account)
            if seat is not None and seat in table["to_act"]:
                found.append({**table, "deadline_ms": live.seats[seat].clock.deadline_ms})
        found.sort(key=lambda t: (t["deadline_ms"] is None, t["deadline_ms"] or 0, -t["id"]))
        return found

    # -- the parts' verbs, as the routes and pages call them -----------------------------------
    async def may_see(self, table_id: int, account: Account | None) -> bool:
        return await self.invitations.may_see(table_id, account)

    async def invite_of(self, table_id: int) -> str | None:
        return await self.cache.invite_of(table_id)

    async def admit(self, account: Account, code: str) -> int:
        return await self.invitations.admit(account, code)

    async def invitation(self, table_id: int, account: Account | None) -> str | None:
        return await self.invitations.invitation(table_id, account)

    async def rematch(self, account: Account, table_id: int) -> tuple[int, bool]:
        return await self.invitations.rematch(account, table_id)

    async def record(self, table_id: int) -> GameRecord:
        return await self.results.record(table_id)

    async def moves(self, table_id: int) -> list[tuple[int, int, str]]:
        return await self.results.moves(table_id)

    async def log_so_far(self, table_id: int) -> tuple[Live, list[tuple[int, int, str]]]:
        return await self.results.log_so_far(table_id)

    async def sweep(self) -> int:
        return await self.leavers.sweep()

    async def expire_open(self) -> int:
        """Close the abandoned open tables (``tables.expiry``); returns how many this call closed."""
        return await self.expiry.sweep()

    async def expired_notices(self, account: Account) -> list[dict[str, int | str]]:
        return await self.expiry.notices(account.id)

    async def finish(self, live: Live) -> bool:
        return await self.results.finish(live)

    async def finish_due(self) -> int:
        return await self.results.finish_due()

    # -- playing -------------------------------------------------------------------------------
    async def move(
        self, account: Account | None, table_id: int, seq: int, action: int | str | Sequence[int | str]
    ) -> int:
        """Play ``action`` for the caller's seat at ``seq`` (a list: its steps in a row, all or none, as
        :meth:`MoveWriter.submit_steps`); returns the new ``seq`` once committed."""
        if account is None:
            raise Unauthenticated("signed-out", "sign in (session cookie or Bearer token) to play")
        async with self.cache.lock(table_id):
            live = await self.cache.for_move(table_id, seq)
            seat = live.seat_of(account)
            if seat is None:
                if live.gone_seat(account) is not None:
                    raise Forbidden("left", f"you left table {table_id} (or your time ran out): you cannot play on")
                raise Forbidden("not-seated", f"you do not sit at table {table_id}: spectators cannot move")
            if not await self.leavers.overdue(live, seat):
                if isinstance(action, (int, str)):
                    return await self.writer.submit(live, seat, seq, action)
                return await self.writer.submit_steps(live, seat, seq, action)
            live = await self.cache.load(table_id, refresh=True)
        self.changed(live)
        raise Conflict("time-out", f"your time at table {table_id} ran out before this move arrived")

    def changed(self, live: Live, detail: dict[str, Any] | None = None) -> None:
        """Tell the table's watchers (in every process) and wake the bots whose turn it is."""
        self.hub.publish(live.id, live.seq, detail)
        self._wake_bots(live)

    # -- bots ----------------------------------------------------------------------------------
    def _wake_bots(self, live: Live) -> None:
        if self.jobs is None or self.closing or live.status != "playing":
            return
        for seat in live.state.seats_to_act():
            if live.seats[seat].bot:
                self.jobs.put(BotJob(live.id, live.seq, seat))

    async def play_bot(self, job: BotJob) -> bool:
        """Think and move for the bot of ``job`` if its table still waits for it at ``job.seq``.

        A job delivered twice moves once: the second finds the table past ``job.seq`` (or loses the
        race for it at the log's UNIQUE (table, seq)). Returns whether this call moved."""
        if self.bots is None:
            raise RuntimeError("this process has no bot pool")
        try:
            live = await self.cache.read(job.table_id)
        except NotFound:
            return False
        if not _waits_for(live, job):
            return False
        level = live.seats[job.seat].bot or "random"
        seed = bot_seed(live.seed, job.seq, job.seat)
        with metrics.bot_thinking(live.game):
            action = await self.bots.choose(live.game, live.state.to_json(), job.seat, level, seed)
        async with self.cache.lock(job.table_id):
            live = await self.cache.for_move(job.table_id, job.seq)
            if not _waits_for(live, job):
                return False
            try:
                await self.writer.submit(live, job.seat, job.seq, action)
            except StaleSeq:
                return False
        return True


def _open_seat(live: Live, seat: int | None) -> int:
    open_seats = [n for n, s in enumerate(live.seats) if s.kind == "open"]
    if seat is None:
        if not open_seats:
            raise Conflict("full", f"table {live.id} has no open seat")
        return open_seats[0]
    if not 0 <= seat < live.players:
        raise Invalid("bad-seat", f"there is no seat {seat}: seats are 0 to {live.players - 1}")
    if seat not in open_seats:
        raise Conflict("seat-taken", f"seat {seat} of table {live.id} is taken; open seats: {open_seats}")
    return seat


def _waits_for(live: Live, job: BotJob) -> bool:
    return live.seq == job.seq and job.seat in live.to_act() and bool(live.seats[job.seat].bot)
