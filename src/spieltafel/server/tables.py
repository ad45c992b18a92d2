"""The table service: the only code that creates, fills, starts and changes a game.

Every submission (HTTP, WebSocket, bots) goes through :meth:`TableService.move`/``_submit``, which
checks who is asking, their seat, the turn, the ``seq`` they saw and the engine's legality, appends
the move to the log and commits before anyone is told. The state is the engine's replay of the log,
cached per process and checked against the log's ``seq``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import Insert, Table, bindparam, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from spieltafel.bots import BOTS
from spieltafel.core import (
    Event,
    GameRecord,
    GameResult,
    RecordedAction,
    Rng,
    SpieltafelError,
    State,
    get_game,
    kit_of,
)

from . import clocks
from .accounts import Account
from .clocks import Limits, SeatClock, Timing
from .db import AccountRow, Database, GuestRow, MoveRow, SeatRow, TableRow
from .db.group_commit import GroupCommit, PlainMove
from .db.models import utcnow
from .errors import Conflict, Forbidden, Invalid, NotFound, StaleSeq, Unauthenticated, no_table
from .hub import Hub
from .jobs import BotJob, JobQueue
from .runners import BotPool

log = logging.getLogger("spieltafel.server")

STATUSES = ("open", "playing", "over")
SEAT_KINDS = ("me", "open", "bot")
BOT_LEVELS = tuple(BOTS)
"""Every bot a seat may hold (``spieltafel.bots.BOTS``)."""
OFFERED_BOTS: tuple[str, ...] = ("easy", "medium", "hard", "expert", "greedy", "random")
"""The bots the pages offer for a seat, weakest level first (the rest of :data:`BOT_LEVELS` through the API)."""
MAX_LIST = 200
MAX_MINUTES = 180
MAX_INCREMENT = 60
DEFAULT_LEAVER_BOT = "medium"
FINISHING_AT_ONCE = 2
"""Finished games whose ratings one process makes at a time (:meth:`TableService.finish`)."""
MAX_FINISH_SWEEP = 500
"""Due games one sweep finishes at most (:meth:`TableService.finish_due`); the next sweep takes the rest."""


Finisher = Callable[[AsyncSession, "Live", State], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class StateContext:
    """What a state decorator knows about the message it decorates."""

    game: str
    seat: int | None
    account: Account | None
    params: Mapping[str, str]


@dataclass(slots=True)
class Seat:
    account_id: int | None
    name: str | None
    bot: str | None
    program: bool = False
    gone: str | None = None
    clock: SeatClock = field(default_factory=SeatClock)

    @property
    def kind(self) -> str:
        return "bot" if self.bot else "player" if self.account_id is not None else "open"

    @property
    def playing(self) -> bool:
        """A person who still plays this seat (not a bot, not gone)."""
        return self.account_id is not None and self.bot is None and self.gone is None

    def public(self, number: int) -> dict[str, Any]:
        return {"seat": number, "kind": self.kind, "name": self.name, "bot": self.bot, "program": self.program,
                "gone": self.gone}

    def recorded(self, leaver: str) -> str:
        """Who sat here, for the record: a bot level, a name, or who left and what took the seat."""
        if self.gone is not None:
            taken = "out" if leaver == "out" else f"bot:{self.bot}"
            return f"{self.name} ({self.gone}, {taken})"
        return f"bot:{self.bot}" if self.bot else self.name or "open"


@dataclass(slots=True)
class Live:
    """One table as this process knows it: its row, seats and the replayed game at ``seq``."""

    id: int
    game: str
    players: int
    options: dict[str, str]
    seed: int
    status: str
    seats: list[Seat]
    state: State
    seq: int = 0
    events: deque[tuple[int, Event]] = field(default_factory=deque)
    invite: str | None = None
    rematch: int | None = None
    timing: Timing = field(default_factory=Timing)
    leaver: str = "bot"
    leaver_bot: str | None = None

    def seat_of(self, account: Account | None) -> int | None:
        """The seat ``account`` plays (None for a spectator and for a person who left or timed out)."""
        if account is None:
            return None
        return next((n for n, s in enumerate(self.seats) if s.account_id == account.id and s.gone is None), None)

    def gone_seat(self, account: Account) -> int | None:
        return next((n for n, s in enumerate(self.seats) if s.account_id == account.id and s.gone), None)

    def out(self) -> list[int]:
        """Seats whose person is out (the leaver rule "out"): ranked last."""
        return [n for n, s in enumerate(self.seats) if s.gone and self.leaver == "out"]

    def timed(self) -> list[int]:
        return [n for n, s in enumerate(self.seats) if s.playing] if self.timing.pace else []

    def to_act(self) -> list[int]:
        return list(self.state.seats_to_act()) if self.status == "playing" else []

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "players": self.players,
            "options": dict(self.options),
            "status": self.status,
            "seats": [s.public(n) for n, s in enumerate(self.seats)],
            "seq": self.seq,
            "private": self.invite is not None,
            "rematch": self.rematch,
            "clock": self.timing.public(),
            "leaver": {"rule": self.leaver, "bot": self.leaver_bot if self.leaver == "bot" else None},
        }


def _labeller(game: str) -> Callable[[str], str]:
    """The game's action labels in plain English (its kit's words; the notation where it has none)."""
    words = kit_of(get_game(game)).words_module()
    return lambda notation: words.action_label(notation, lambda text: text)


def wall_clock_ms() -> int:
    return int(time.time() * 1000)


def _bot_seed(table_seed: int, seq: int, seat: int) -> int:
    return (table_seed * 1_000_003 + seq * 101 + seat) % (2**63)


class TableService:
    """Create, join, leave, read and play tables; the one writer of every game."""

    def __init__(
        self, db: Database, hub: Hub, bots: BotPool | None, recent_events: int = 16, jobs: JobQueue | None = None,
        now_ms: Callable[[], int] | None = None,
    ) -> None:
        self.db = db
        self.hub = hub
        self.bots = bots
        self.jobs = jobs
        self.recent_events = recent_events
        self._live: dict[int, Live] = {}
        self._group_commit = GroupCommit(db, utcnow)
        """Plain moves on PostgreSQL (``_append``): one statement for the moves of many tables."""
        self._locks: dict[int, asyncio.Lock] = {}
        self._labels: dict[str, Callable[[str], str]] = {}
        self._invites: dict[int, str | None] = {}
        self.finishers: list[Finisher] = []
        """Called with (session, table, final state) once per finished game, in a transaction of their own
        after the last move's (ratings: :meth:`finish`)."""
        self._finishing = asyncio.Semaphore(FINISHING_AT_ONCE)
        self.closing = False
        self.now_ms: Callable[[], int] = now_ms or wall_clock_ms
        """The clock of every time limit (epoch milliseconds)."""
        hub.on_remote = self._remote_move

    # -- life cycle ----------------------------------------------------------------------------
    async def resume(self) -> None:
        """After a (re)start: queue a job for every bot whose turn it is; rate the games that ended while
        their ratings were not made (a process gone between a last move's commit and its ratings)."""
        await self.wake_waiting_bots()
        await self.finish_due()

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
                self._wake_bots(await self._read(table_id))
            except NotFound:  # removed meanwhile
                continue

    async def close(self) -> None:
        self.closing = True

    # -- creating and filling tables -----------------------------------------------------------
    async def create(
        self, account: Account, game: str, players: int, options: Mapping[str, Any], seats: list[Mapping[str, Any]],
        private: bool = False, clock: Mapping[str, Any] | None = None, leaver: Mapping[str, Any] | None = None,
    ) -> int:
        """A new table; it starts at once when no seat is open. Returns its id.

        A private table gets an unguessable invitation code: only its seats and the accounts that
        opened its invitation link see it (:meth:`may_see`).
        ``clock``: None, ``{"pace": "live", "minutes", "increment"}`` or ``{"pace": "turn", "per_move"}``;
        ``leaver``: ``{"rule": "bot", "bot": level}`` (default: medium) or ``{"rule": "out"}``."""
        engine = _game(game)
        _check_players(engine.name, players)
        resolved = _options(engine.name, options)
        rows = _seat_rows(seats, players, account)
        limits = Limits(_timing(clock), *_leaver(leaver))
        async with self.db.write() as session:
            table_id = await _insert_table(session, account.id, engine.name, players, resolved, rows, private, limits)
        await self._announce(table_id)
        return table_id

    async def _announce(self, table_id: int) -> None:
        async with self._lock(table_id):
            live = await self._load(table_id, refresh=True)
            await self._start_clocks(live)
        self._changed(live)

    # -- private tables and rematches ----------------------------------------------------------
    async def invite_of(self, table_id: int) -> str | None:
        """The table's invitation code (None: public, or no such table); cached, as it never changes and
        table ids are never reused (``game_tables`` counts its ids up, on SQLite with ``AUTOINCREMENT``)."""
        if table_id not in self._invites:
            try:
                await self._read(table_id)
            except NotFound:
                return None
        return self._invites.get(table_id)

    async def may_see(self, table_id: int, account: Account | None) -> bool:
        """Whether ``account`` may see the table: any public table; a private one only from its seats
        or after opening its invitation link (``table_guests``, removed with the table). False for a
        private table that does not exist any more. (True for a table that never was: the caller's own
        refusal for it is the same as for a private table.)"""
        if await self.invite_of(table_id) is None:
            return True
        if account is None:
            return False
        try:
            live = await self._read(table_id)
        except NotFound:
            return False
        if live.seat_of(account) is not None or live.gone_seat(account) is not None:
            return True
        async with self.db.session() as session:
            guest = await session.get(GuestRow, (table_id, account.id))
        return guest is not None

    async def admit(self, account: Account, code: str) -> int:
        """The table of an invitation code; ``account`` may see and join it from now on."""
        async with self.db.write() as session:
            table_id = await session.scalar(select(TableRow.id).where(TableRow.invite == code)) if code else None
            if table_id is None:
                raise NotFound("no-invitation", "this invitation link is not valid (ask for a new one)")
            if await session.get(GuestRow, (table_id, account.id)) is None:
                session.add(GuestRow(table_id=table_id, account_id=account.id))
        return table_id

    async def sample_for(self, account: Account, table_id: int) -> dict[str, Any]:
        """A full state drawn from ``account``'s seat's information set (``determinise`` with fresh
        randomness: it depends only on that seat's view, so it tells nothing the view does not)."""
        live = await self._read(table_id)
        seat = live.seat_of(account)
        if seat is None:
            raise Forbidden("not-seated", f"you do not sit at table {table_id}: samples are for players")
        if live.status != "playing":
            raise Conflict("not-playing", f"table {table_id} is {live.status}: samples are drawn while it plays")
        drawn = live.state.determinise(seat, Rng(secrets.randbits(62)))
        return {"seq": live.seq, "seat": seat, "state": drawn.to_json()}

    async def invitation(self, table_id: int, account: Account | None) -> str | None:
        """The invitation code of a private table, for the accounts seated there (else None)."""
        live = await self._read(table_id)
        return live.invite if live.seat_of(account) is not None else None

    async def rematch(self, account: Account, table_id: int) -> tuple[int, bool]:
        """A new table for the same players of a finished game, seats turned by one so that another
        seat starts; (its id, whether this call made it). Asking again gives the same rematch.

        An invitation, not a summons (issue 26): the asker sits down, the bots keep their seats, and the
        other people's seats stay open for them — the table is private and they are its guests, so they
        alone see it and accept by taking their seat; it starts when all have."""
        live = await self._read(table_id)
        if live.seat_of(account) is None:
            raise Forbidden("not-seated", f"only the players of table {table_id} can ask for a rematch")
        if live.rematch is not None:
            return live.rematch, False
        self._require_over(live)
        turned = live.seats[1:] + live.seats[:1]
        rows = [SeatRow(seat=n, account_id=s.account_id if s.account_id == account.id else None,
                        bot=None if s.gone else s.bot) for n, s in enumerate(turned)]
        invited = {s.account_id for s in live.seats if s.account_id is not None and s.account_id != account.id}
        try:
            async with self.db.write() as session:
                new_id = await _insert_table(
                    session, account.id, live.game, live.players, live.options, rows,
                    live.invite is not None or bool(invited), Limits(live.timing, live.leaver, live.leaver_bot),
                )
                session.add_all(GuestRow(table_id=new_id, account_id=guest) for guest in sorted(invited))
                claimed = await session.execute(
                    update(TableRow).where(TableRow.id == table_id, TableRow.rematch_id.is_(None))
                    .values(rematch_id=new_id)
                )
                if claimed.rowcount != 1:  # type: ignore[attr-defined]
                    raise _RematchTaken
        except (_RematchTaken, IntegrityError):  # another player asked at the same moment: theirs stands
            return (await self._read(table_id, refresh=True)).rematch or 0, False
        await self._announce(new_id)
        await self._announce(table_id)
        return new_id, True

    async def join(self, account: Account, table_id: int, seat: int | None = None) -> int:
        """Take ``seat`` (or the first open one) of an open table; the table starts when it is full."""
        async with self._lock(table_id):
            live = await self._load(table_id, refresh=True)
            if live.status != "open":
                raise Conflict("not-open", f"table {table_id} is {live.status}: only open tables can be joined")
            if live.seat_of(account) is not None:
                raise Conflict("already-seated", f"you already sit at seat {live.seat_of(account)} of table {table_id}")
            number = self._open_seat(live, seat)
            async with self.db.write() as session:
                taken = await session.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table_id, SeatRow.seat == number)
                    .where(SeatRow.account_id.is_(None), SeatRow.bot.is_(None))
                    .values(account_id=account.id, clock_ms=live.timing.first_clock())
                )
                if taken.rowcount != 1:  # type: ignore[attr-defined]
                    raise Conflict("seat-taken", f"seat {number} of table {table_id} was taken a moment ago")
                await self._start_if_full(session, table_id)
            live = await self._load(table_id, refresh=True)
            await self._start_clocks(live)
        self._changed(live)
        return number

    async def leave(self, account: Account, table_id: int) -> None:
        """Give up one's seat: before the start it opens again (a table nobody sits at any more is
        removed); during the game the table's leaver rule takes the seat, for good."""
        async with self._lock(table_id):
            live = await self._load(table_id, refresh=True)
            number = live.seat_of(account)
            if number is None:
                raise Conflict("not-seated", f"you do not sit at table {table_id}")
            if live.status == "playing":
                if not await self._replace(live, number, "left"):
                    raise Conflict("not-seated", f"you no longer play at table {table_id}")
                live = await self._load(table_id, refresh=True)
            elif live.status != "open":
                raise Conflict("over", f"table {table_id} is over: there is nothing to leave")
            else:
                await self._free_seat(table_id, number)
                self._live.pop(table_id, None)
                self.hub.publish(table_id, live.seq)
                return
        self._changed(live)

    async def _free_seat(self, table_id: int, number: int) -> None:
        """Open a seat again before the start; remove the table when nobody sits at it any more."""
        async with self.db.write() as session:
            await session.execute(
                update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == number).values(account_id=None)
            )
            people = await session.scalar(
                select(func.count()).select_from(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.account_id.is_not(None))
            )
            if not people:
                await session.execute(delete(SeatRow).where(SeatRow.table_id == table_id))
                await session.execute(delete(TableRow).where(TableRow.id == table_id))

    def _open_seat(self, live: Live, seat: int | None) -> int:
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

    async def _start_if_full(self, session: AsyncSession, table_id: int) -> None:
        empty = await session.scalar(
            select(func.count()).select_from(SeatRow)
            .where(SeatRow.table_id == table_id, SeatRow.account_id.is_(None), SeatRow.bot.is_(None))
        )
        if not empty:
            await session.execute(
                update(TableRow).where(TableRow.id == table_id, TableRow.status == "open").values(status="playing")
            )

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
            live = await self._read(table_id)
            listed.append({**live.summary(), "to_act": live.to_act()})
        return listed

    async def get(self, table_id: int) -> dict[str, Any]:
        return (await self._read(table_id)).summary()

    async def seat_of(self, table_id: int, account: Account | None) -> int | None:
        """``account``'s seat at the table, None for a spectator (NotFound for no table)."""
        return (await self._read(table_id)).seat_of(account)

    async def state_for(
        self, table_id: int, account: Account | None, known_seq: int | None = None
    ) -> dict[str, Any]:
        """What ``account``'s seat (a spectator when it has none) may see now.

        ``known_seq`` (from the hub) lets a watcher skip the database check when the cache has it."""
        live = await self._read(table_id, known_seq=known_seq)
        return self.payload(live, live.seat_of(account))

    def payload(self, live: Live, seat: int | None) -> dict[str, Any]:
        started = live.status != "open"
        to_act = live.to_act()
        legal: list[dict[str, Any]] = []
        if seat is not None and seat in to_act:
            label = self._labels.get(live.game)
            if label is None:  # once per game (setdefault would look the module up for every message)
                label = self._labels[live.game] = _labeller(live.game)
            for action in live.state.legal_actions(seat):
                notation = live.state.action_text(seat, action)
                legal.append({"action": action, "notation": notation, "label": label(notation)})
        over = live.status == "over"
        result = clocks.table_result(live.state.scores(), live.state.winners(), live.out()) if over else None
        return {
            "seq": live.seq,
            "seat": seat,
            "to_act": to_act,
            "view": live.state.view(seat) if started else None,
            "legal": legal,
            "events": [{"seq": seq, **event.view(seat)} for seq, event in live.events],
            "result": result,
            "clocks": self._clocks(live) if started else None,
            "seats": [s.public(n) for n, s in enumerate(live.seats)],
        }

    def _clocks(self, live: Live) -> dict[str, Any] | None:
        """The time left per seat now (null for seats without a clock) and whose clock runs."""
        if live.timing.pace is None:
            return None
        now = self.now_ms()
        timed = set(live.timed())
        return {
            "now_ms": now,
            "seats": [
                {
                    "seat": n,
                    "remaining_ms": clocks.remaining(live.timing, s.clock, now) if n in timed else None,
                    "running": n in timed and s.clock.deadline_ms is not None and live.status == "playing",
                }
                for n, s in enumerate(live.seats)
            ],
        }

    async def record(self, table_id: int) -> GameRecord:
        """The finished game's record, straight from the log (Conflict before the end)."""
        live = await self._read(table_id)
        self._require_over(live)
        actions = [RecordedAction(seat=seat, action=notation) for _, seat, notation in await self._moves(table_id)]
        return GameRecord(
            game=live.game, players=live.players, options=dict(live.options), seed=live.seed,
            seats=[s.recorded(live.leaver) for s in live.seats],
            actions=actions, result=GameResult(scores=live.state.scores(), winners=live.state.winners()),
        )

    async def moves(self, table_id: int) -> list[tuple[int, int, str]]:
        """(seq, seat, notation) of every move of a finished game (Conflict before the end)."""
        self._require_over(await self._read(table_id))
        return await self._moves(table_id)

    async def log_so_far(self, table_id: int) -> tuple[Live, list[tuple[int, int, str]]]:
        """The table and (seq, seat, notation) of every move so far, for a replay that the server draws for
        one seat only (``/tables/ID/history``): the log never leaves the server through this."""
        return await self._read(table_id), await self._moves(table_id)

    def _require_over(self, live: Live) -> None:
        if live.status != "over":
            raise Conflict("not-over", f"table {live.id} is {live.status}: the record is there once the game is over")

    async def _moves(self, table_id: int) -> list[tuple[int, int, str]]:
        async with self.db.session() as session:
            rows = await session.execute(
                select(MoveRow.seq, MoveRow.seat, MoveRow.notation).where(MoveRow.table_id == table_id)
                .order_by(MoveRow.seq)
            )
            return [(seq, seat, notation) for seq, seat, notation in rows.all()]

    # -- playing -------------------------------------------------------------------------------
    async def move(self, account: Account | None, table_id: int, seq: int, action: int | str) -> int:
        """Play ``action`` for the caller's seat at ``seq``; returns the new ``seq`` once committed."""
        if account is None:
            raise Unauthenticated("signed-out", "sign in (session cookie or Bearer token) to play")
        async with self._lock(table_id):
            live = await self._current(table_id, seq)
            seat = live.seat_of(account)
            if seat is None:
                if live.gone_seat(account) is not None:
                    raise Forbidden("left", f"you left table {table_id} (or your time ran out): you cannot play on")
                raise Forbidden("not-seated", f"you do not sit at table {table_id}: spectators cannot move")
            if not await self._overdue(live, seat):
                return await self._submit(live, seat, seq, action)
            live = await self._load(table_id, refresh=True)
        self._changed(live)
        raise Conflict("time-out", f"your time at table {table_id} ran out before this move arrived")

    async def _overdue(self, live: Live, seat: int) -> bool:
        """Whether ``seat``'s time ran out before now; if so the leaver rule is applied (once)."""
        deadline = live.seats[seat].clock.deadline_ms
        if live.status != "playing" or deadline is None or self.now_ms() < deadline:
            return False
        await self._replace(live, seat, "time", SeatRow.deadline_ms == deadline)
        return True

    async def _submit(self, live: Live, seat: int, seq: int, action: int | str) -> int:
        """Check and apply one move for ``seat`` (the caller holds the table's lock)."""
        if seq < live.seq:  # the mover saw an older state (also when the game has ended since, e.g. by the
            raise StaleSeq(seq, live.seq)  # other process's move just carried here by the hub)
        if live.status != "playing":
            raise Conflict("not-playing", f"table {live.id} is {live.status}: moves are taken only while it plays")
        if seq != live.seq:
            raise StaleSeq(seq, live.seq)
        if seat not in live.state.seats_to_act():
            acting = ", ".join(map(str, live.state.seats_to_act()))
            raise Forbidden("not-your-turn", f"it is not seat {seat}'s turn; seats to act: {acting}")
        after = live.state.clone()
        try:
            events = after.apply(seat, action)
        except SpieltafelError as error:
            raise Invalid("illegal", str(error)) from error
        index = action if isinstance(action, int) else live.state.parse_action(seat, action)
        changes = clocks.retime(
            live.timing, [s.clock for s in live.seats], live.timed(), seat,
            set() if after.is_over else set(after.seats_to_act()), self.now_ms(),
        )
        await self._append(live, seat, index, live.state.action_text(seat, index), after, changes)
        self._set_clocks(live, changes)
        live.state, live.seq = after, seq + 1
        live.status = "over" if after.is_over else "playing"
        self._note_events(live, live.seq, events)
        self._changed(live, _move_detail(seq, seat, index, changes))
        if after.is_over:  # the players have the final state; the mover's answer waits for the ratings
            await self.finish(live)
        return live.seq

    def _remote_move(self, table_id: int, seq: int, detail: Any) -> None:
        """Another process committed a move (``detail``, see :func:`_move_detail`) that makes the table's
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
            events = live.state.apply(seat, action)
        except Exception:
            self._live.pop(table_id, None)
            raise
        for number, clock in detail.get("clocks", {}).items():
            live.seats[int(number)].clock = SeatClock(*clock)
        live.seq = seq
        live.status = "over" if live.state.is_over else "playing"
        self._note_events(live, seq, events)

    async def _append(
        self, live: Live, seat: int, action: int, notation: str, after: State,
        changes: Mapping[int, SeatClock],
    ) -> None:
        alone = not changes and live.seats[seat].playing and self.db.kind == "postgresql"
        try:
            if alone:  # committed with the other processes' plain moves of the moment, one statement
                move = PlainMove(live.id, live.seq, seat, action, notation, ends=after.is_over)
                outcome = await self._group_commit.append(move)
                if outcome == "gone":
                    raise _SeatGone
                if outcome == "stale":
                    raise _Stale
                return
            row = {"table_id": live.id, "seq": live.seq, "seat": seat, "action": action, "notation": notation}
            async with self.db.write() as session:
                if live.seats[seat].playing and self.db.kind == "postgresql":
                    await _hold_person_and_append(session, row)
                else:
                    if live.seats[seat].playing:
                        await _hold_person(session, live.id, seat)
                    await session.execute(insert(_MOVES).values(row))
                await _write_clocks(session, live.id, changes, live.seats)
                if after.is_over:  # the ratings come after the commit (finish): no last move waits for another
                    await session.execute(  # game's ratings (the same players' games ending at once)
                        update(TableRow).where(TableRow.id == live.id)
                        .values(status="over", rating_due=True)
                    )
        except (IntegrityError, _Stale) as error:  # another writer committed this seq first
            fresh = await self._load(live.id, refresh=True)
            raise StaleSeq(live.seq, fresh.seq) from error
        except _SeatGone as error:  # another process applied the leaver rule a moment ago
            await self._load(live.id, refresh=True)
            raise Forbidden("left", f"your seat at table {live.id} was taken over: you cannot play on") from error

    # -- time limits and leavers ---------------------------------------------------------------
    async def _start_clocks(self, live: Live) -> None:
        """Start the clocks of the seats to act at a table that has just started (the caller holds the lock)."""
        if live.status != "playing":
            return
        changes = clocks.retime(
            live.timing, [s.clock for s in live.seats], live.timed(), None, set(live.to_act()), self.now_ms()
        )
        if changes:
            async with self.db.write() as session:
                await _write_clocks(session, live.id, changes)
            self._set_clocks(live, changes)

    @staticmethod
    def _set_clocks(live: Live, changes: Mapping[int, SeatClock]) -> None:
        for seat, clock in changes.items():
            live.seats[seat].clock = clock

    async def _replace(self, live: Live, seat: int, reason: str, *condition: Any) -> bool:
        """The leaver rule for ``seat`` (its person left or ran out of time): a bot of the table's level
        plays on, or (rule "out") the stand-in plays on and the seat is ranked last. Conditional on the
        database (the person still plays, plus ``condition``), so it happens once even when several
        processes sweep; the caller holds the lock and tells the watchers. True when this call did it."""
        bot = live.leaver_bot if live.leaver == "bot" and live.leaver_bot else clocks.OUT_PLAYER
        async with self.db.write() as session:
            claimed = await session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == live.id, SeatRow.seat == seat, SeatRow.gone.is_(None))
                .where(SeatRow.account_id.is_not(None), SeatRow.bot.is_(None), *condition)
                .values(gone=reason, bot=bot, since_ms=None, deadline_ms=None)
            )
        if claimed.rowcount != 1:  # type: ignore[attr-defined]
            return False
        log.info("table %s seat %s: %s, %s takes the seat", live.id, seat, reason, live.leaver)
        return True

    async def sweep(self) -> int:
        """Apply the leaver rule to every seat whose deadline has passed; returns how many it handled.

        Idempotent and safe to run in several processes at once: each missed deadline is claimed with a
        compare-and-set on its row (the deadline still the one seen), so it is handled exactly once, also
        when it passed while no server ran."""
        now = self.now_ms()
        async with self.db.session() as session:
            due = (
                await session.execute(
                    select(SeatRow.table_id, SeatRow.seat, SeatRow.deadline_ms)
                    .join(TableRow, TableRow.id == SeatRow.table_id)
                    .where(SeatRow.deadline_ms <= now, TableRow.status == "playing")
                    .order_by(SeatRow.deadline_ms)
                )
            ).all()
        handled = 0
        for table_id, seat, deadline in due:
            async with self._lock(table_id):
                live = await self._load(table_id, refresh=True)
                if not await self._replace(live, seat, "time", SeatRow.deadline_ms == deadline):
                    continue
                live = await self._load(table_id, refresh=True)
            handled += 1
            self._changed(live)
        return handled

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
                live = await self._read(table_id, refresh=True)
            except NotFound:
                continue
            finished += await self.finish(live)
        return finished

    async def sweep_forever(self, every: float, *also: Callable[[], Awaitable[int]]) -> None:
        """``sweep`` and ``finish_due`` (then each of ``also``, e.g. the e-mails) every ``every`` seconds
        until cancelled; the server runs this; failures are logged and tried again next time."""
        while not self.closing:
            for job in (self.sweep, self.finish_due, *also):
                try:
                    await job()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("%s failed; trying again", getattr(job, "__qualname__", job))
            await asyncio.sleep(every)

    async def waiting(self, account: Account) -> list[dict[str, Any]]:
        """The running games that wait for ``account`` now (its seat is to act), soonest deadline first:
        each the ``list`` shape plus ``deadline_ms`` (null without a time limit)."""
        found = []
        for table in await self.listing("playing", account):
            live = self._live.get(table["id"]) or await self._read(table["id"])
            seat = live.seat_of(account)
            if seat is not None and seat in table["to_act"]:
                found.append({**table, "deadline_ms": live.seats[seat].clock.deadline_ms})
        found.sort(key=lambda t: (t["deadline_ms"] is None, t["deadline_ms"] or 0, -t["id"]))
        return found

    def _note_events(self, live: Live, seq: int, events: list[Event]) -> None:
        for event in events:
            live.events.append((seq, event))
        while len(live.events) > self.recent_events:
            live.events.popleft()

    def _changed(self, live: Live, detail: dict[str, Any] | None = None) -> None:
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
            live = await self._read(job.table_id)
        except NotFound:
            return False
        if not _waits_for(live, job):
            return False
        level = live.seats[job.seat].bot or "random"
        seed = _bot_seed(live.seed, job.seq, job.seat)
        action = await self.bots.choose(live.game, live.state.to_json(), job.seat, level, seed)
        async with self._lock(job.table_id):
            live = await self._current(job.table_id, job.seq)
            if not _waits_for(live, job):
                return False
            try:
                await self._submit(live, job.seat, job.seq, action)
            except StaleSeq:
                return False
        return True

    # -- the cache -----------------------------------------------------------------------------
    def _lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    async def _current(self, table_id: int, seq: int) -> Live:
        """For a writer at ``seq`` (holding the lock): the cached table while it plays at ``seq``, else
        a load checked against the log (another process may have moved on).

        When the cache is at ``seq`` but another process wrote meanwhile, the UNIQUE (table, seq)
        constraint refuses the insert and ``_append`` reloads from the log."""
        cached = self._live.get(table_id)
        if cached is not None and cached.status == "playing" and cached.seq == seq:
            return cached
        return await self._load(table_id)

    async def _read(self, table_id: int, known_seq: int | None = None, refresh: bool = False) -> Live:
        """The table for a reader: the cache when it holds ``known_seq``, else a checked load."""
        cached = self._live.get(table_id)
        if cached is not None and known_seq is not None and cached.seq >= known_seq:
            return cached
        async with self._lock(table_id):
            return await self._load(table_id, refresh=refresh)

    async def _load(self, table_id: int, refresh: bool = False) -> Live:
        """The table, its seats and its game at the log's current ``seq`` (the caller holds the lock).

        The cached game is used when its ``seq`` is the log's; otherwise the missing moves are replayed
        from the log, so a change made by another process is seen too."""
        cached = self._live.get(table_id)
        async with self.db.session() as session:
            row = await session.get(TableRow, table_id)
            if row is None:
                self._live.pop(table_id, None)
                raise no_table(table_id)
            count = await session.scalar(select(func.count()).select_from(MoveRow).where(MoveRow.table_id == table_id))
            current = cached is not None and cached.seq == count and cached.status == row.status
            self._invites[table_id] = row.invite
            if cached is not None and current and not refresh and row.status != "open":
                cached.rematch = row.rematch_id
                if row.status == "playing":  # another process may have applied the leaver rule
                    cached.seats = await _seats(session, table_id)
                return cached
            seats = await _seats(session, table_id)
            live = cached if cached is not None and cached.seq <= (count or 0) else None
            if live is None:
                state = get_game(row.game).new_state(row.players, row.seed, row.options)
                live = Live(row.id, row.game, row.players, dict(row.options), row.seed, row.status, seats, state)
                live.timing = Timing.of(row.pace, row.budget_ms, row.increment_ms)
                live.leaver, live.leaver_bot = row.leaver or "bot", row.leaver_bot
            live.seats, live.status = seats, row.status
            live.invite, live.rematch = row.invite, row.rematch_id
            await self._replay(session, live)
        self._live[table_id] = live
        return live

    async def _replay(self, session: AsyncSession, live: Live) -> None:
        rows = await session.execute(
            select(MoveRow.seq, MoveRow.seat, MoveRow.action)
            .where(MoveRow.table_id == live.id, MoveRow.seq >= live.seq)
            .order_by(MoveRow.seq)
        )
        for seq, seat, action in rows.all():
            if seq < live.seq:  # applied meanwhile (a move carried by the hub)
                continue
            self._note_events(live, seq + 1, live.state.apply(seat, action))
            live.seq = seq + 1


class _RematchTaken(Exception):
    pass


async def _insert_table(
    session: AsyncSession, creator: int, game: str, players: int, options: dict[str, str], rows: list[SeatRow],
    private: bool, limits: Limits,
) -> int:
    """Insert a table and its seats; it plays at once when no seat is open. Returns its id."""
    status = "playing" if all(r.account_id is not None or r.bot for r in rows) else "open"
    timing = limits.timing
    table = TableRow(
        game=game, players=players, options=options, seed=secrets.randbits(62), status=status, created_by=creator,
        invite=secrets.token_urlsafe(24) if private else None, pace=timing.pace, budget_ms=timing.budget_ms or None,
        increment_ms=timing.increment_ms or None, leaver=limits.leaver, leaver_bot=limits.leaver_bot,
    )
    for row in rows:
        row.clock_ms = timing.first_clock() if row.account_id is not None and row.bot is None else None
    session.add(table)
    await session.flush()
    for row in rows:
        row.table_id = table.id
        session.add(row)
    return table.id


def _move_detail(before: int, seat: int, action: int, clocks: Mapping[int, SeatClock]) -> dict[str, Any]:
    """What the hub carries to the other processes about a committed move: the ``seq`` it was made at,
    the seat and the action index (the same as the log's row), and the clocks it changed."""
    detail: dict[str, Any] = {"move": [before, seat, action]}
    if clocks:
        detail["clocks"] = {str(n): [c.clock_ms, c.since_ms, c.deadline_ms] for n, c in clocks.items()}
    return detail


def _waits_for(live: Live, job: BotJob) -> bool:
    return live.seq == job.seq and job.seat in live.to_act() and bool(live.seats[job.seat].bot)


def _game(name: object) -> Any:
    try:
        return get_game(str(name))
    except SpieltafelError as error:
        raise Invalid("bad-game", str(error)) from error


def _check_players(game: str, players: int) -> None:
    try:
        get_game(game).check_players(players)
    except SpieltafelError as error:
        raise Invalid("bad-players", str(error)) from error


def _options(game: str, options: Mapping[str, Any]) -> dict[str, str]:
    bad = [key for key, value in options.items() if not isinstance(value, str)]
    if bad:
        raise Invalid("bad-option", f"option values are strings; {bad[0]!r} is not")
    try:
        return get_game(game).resolve_options({str(k): str(v) for k, v in options.items()})
    except SpieltafelError as error:
        raise Invalid("bad-option", str(error)) from error


def _seat_rows(seats: list[Mapping[str, Any]], players: int, account: Account) -> list[SeatRow]:
    """Seat rows in the order given (seats are not shuffled: seat 0 starts)."""
    if len(seats) != players:
        raise Invalid("bad-seats", f"give one seat per player: {players} seats, not {len(seats)}")
    rows = []
    for number, spec in enumerate(seats):
        kind = spec.get("kind")
        if kind not in SEAT_KINDS:
            raise Invalid("bad-seats", f"seat {number}: kind {kind!r} is not one of {', '.join(SEAT_KINDS)}")
        bot = spec.get("bot")
        if kind == "bot" and bot not in BOT_LEVELS:
            raise Invalid("bad-seats", f"seat {number}: bot {bot!r} is not one of {', '.join(BOT_LEVELS)}")
        if kind != "bot" and bot is not None:
            raise Invalid("bad-seats", f"seat {number}: only a seat of kind 'bot' names a bot")
        rows.append(SeatRow(seat=number, account_id=account.id if kind == "me" else None,
                            bot=bot if kind == "bot" else None))
    if sum(spec.get("kind") == "me" for spec in seats) > 1:
        raise Invalid("bad-seats", "at most one seat can be 'me': an account plays one seat of a table")
    return rows


async def _seats(session: AsyncSession, table_id: int) -> list[Seat]:
    rows = await session.execute(
        select(SeatRow, AccountRow.name, AccountRow.program)
        .outerjoin(AccountRow, AccountRow.id == SeatRow.account_id)
        .where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
    )
    return [
        Seat(
            row.account_id, name, row.bot, bool(program), row.gone,
            SeatClock(row.clock_ms, row.since_ms, row.deadline_ms),
        )
        for row, name, program in rows.all()
    ]


class _SeatGone(Exception):
    pass


class _Stale(Exception):
    """Another move at this ``seq`` was committed first (the group commit's answer)."""


_SEATS = cast(Table, SeatRow.__table__)
_MOVES = cast(Table, MoveRow.__table__)


async def _hold_person(session: AsyncSession, table_id: int, seat: int) -> None:
    """Lock the mover's seat row for this transaction, checking that its person still plays it (the
    sweeper's claim on the same row waits, or came first and this move is refused)."""
    seats = _SEATS.c
    held = await session.execute(  # a Core statement: no ORM bookkeeping on the hot path of every move
        update(_SEATS).where(seats.table_id == table_id, seats.seat == seat)
        .where(seats.gone.is_(None), seats.bot.is_(None)).values(gone=None)
    )
    if held.rowcount != 1:  # type: ignore[attr-defined]
        raise _SeatGone


async def _hold_person_and_append(session: AsyncSession, row: Mapping[str, Any]) -> None:
    """:func:`_hold_person` and the move's insert in one statement (one round trip fewer per move): on
    PostgreSQL an UPDATE in a WITH clause locks the seat row, and the move is inserted only if it did.
    Atomic on its own, so a move that changes nothing else is committed without a transaction block."""
    inserted = await session.execute(_HOLD_AND_APPEND, _hold_and_append_parameters(row))
    if inserted.rowcount != 1:  # type: ignore[attr-defined]
        raise _SeatGone


def _hold_and_append_statement() -> Insert:
    """The statement of :func:`_hold_person_and_append`, built once (its parameters are bound per move)."""
    seats = _SEATS.c
    held = (
        update(_SEATS).where(seats.table_id == bindparam("new_table_id"), seats.seat == bindparam("held_seat"))
        .where(seats.gone.is_(None), seats.bot.is_(None)).values(gone=None)
        .returning(seats.seat).cte("held")
    )
    names = ["table_id", "seq", "seat", "action", "notation", "created_at"]
    values = select(*(bindparam(f"new_{name}", type_=_MOVES.c[name].type) for name in names)).select_from(held)
    return insert(_MOVES).from_select(names, values)


def _hold_and_append_parameters(row: Mapping[str, Any]) -> dict[str, Any]:
    parameters = {f"new_{name}": value for name, value in row.items()}
    parameters["held_seat"] = row["seat"]
    parameters["new_created_at"] = utcnow()  # INSERT ... SELECT takes no column defaults
    return parameters


_HOLD_AND_APPEND = _hold_and_append_statement()


async def _write_clocks(
    session: AsyncSession, table_id: int, changes: Mapping[int, SeatClock], before: Sequence[Seat] = ()
) -> None:
    """Store changed clocks. A seat that moved and is to act again (a turn of several steps) keeps its
    'e-mailed about this wait' mark: the game has not stopped waiting for that person."""
    for seat, clock in changes.items():
        await session.execute(
            update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
            .values(clock_ms=clock.clock_ms, since_ms=clock.since_ms, deadline_ms=clock.deadline_ms)
        )
        old = before[seat].clock.since_ms if seat < len(before) else None
        if old is not None and clock.since_ms is not None and old != clock.since_ms:
            await session.execute(
                update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .where(SeatRow.mailed_since_ms == old).values(mailed_since_ms=clock.since_ms)
            )


def _timing(clock: Mapping[str, Any] | None) -> Timing:
    if not clock:
        return Timing()
    pace = clock.get("pace")
    if pace == "live":
        minutes, increment = clock.get("minutes"), clock.get("increment", 0)
        if not isinstance(minutes, int) or not 1 <= minutes <= MAX_MINUTES:
            raise Invalid("bad-clock", f"a live clock has 1 to {MAX_MINUTES} minutes per game, not {minutes!r}")
        if not isinstance(increment, int) or not 0 <= increment <= MAX_INCREMENT:
            raise Invalid("bad-clock", f"a live clock adds 0 to {MAX_INCREMENT} seconds per move, not {increment!r}")
        return Timing("live", minutes * 60_000, increment * 1000)
    if pace == "turn":
        per_move = clock.get("per_move")
        if per_move not in clocks.PER_MOVE_LIMITS:
            choices = ", ".join(clocks.PER_MOVE_LIMITS)
            raise Invalid("bad-clock", f"a turn-based table has a per-move limit of {choices}, not {per_move!r}")
        return Timing("turn", clocks.PER_MOVE_LIMITS[str(per_move)])
    raise Invalid("bad-clock", f"a clock's pace is live or turn, not {pace!r}")


def _leaver(leaver: Mapping[str, Any] | None) -> tuple[str, str | None]:
    rule = (leaver or {}).get("rule", "bot")
    if rule == "out":
        return "out", None
    if rule != "bot":
        raise Invalid("bad-leaver", f"the leaver rule is bot or out, not {rule!r}")
    bot = (leaver or {}).get("bot", DEFAULT_LEAVER_BOT)
    if bot not in BOT_LEVELS:
        raise Invalid("bad-leaver", f"the bot that takes a leaver's seat is one of {', '.join(BOT_LEVELS)}")
    return "bot", str(bot)
