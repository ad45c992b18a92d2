"""The table service: the only code that creates, fills, starts and changes a game.

Every submission (HTTP, WebSocket, bots) goes through :meth:`TableService.move`/``_submit``, which
checks who is asking, their seat, the turn, the ``seq`` they saw and the engine's legality, appends
the move to the log and commits before anyone is told. The state is the engine's replay of the log,
cached per process and checked against the log's ``seq``.
"""

from __future__ import annotations

import asyncio
import builtins
import importlib
import logging
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from spieltafel.bots import BOTS
from spieltafel.core import Event, GameRecord, GameResult, RecordedAction, Rng, SpieltafelError, State, get_game

from .accounts import Account
from .db import AccountRow, Database, GuestRow, MoveRow, SeatRow, TableRow
from .errors import Conflict, Forbidden, Invalid, NotFound, StaleSeq, Unauthenticated
from .hub import Hub
from .jobs import BotJob, JobQueue
from .runners import BotPool

log = logging.getLogger("spieltafel.server")

STATUSES = ("open", "playing", "over")
SEAT_KINDS = ("me", "open", "bot")
BOT_LEVELS = tuple(BOTS)
MAX_LIST = 200


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

    @property
    def kind(self) -> str:
        return "bot" if self.bot else "player" if self.account_id is not None else "open"

    def public(self, number: int) -> dict[str, Any]:
        return {"seat": number, "kind": self.kind, "name": self.name, "bot": self.bot, "program": self.program}


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

    def seat_of(self, account: Account | None) -> int | None:
        if account is None:
            return None
        return next((n for n, s in enumerate(self.seats) if s.account_id == account.id), None)

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
        }


def _labeller(game: str) -> Callable[[str], str]:
    """The game's ``words.action_label`` (plain English) when it has one, else the notation itself."""
    try:
        words = importlib.import_module(f"spieltafel.games.{game}.words")
        label: Callable[[str, Callable[[str], str]], str] = words.action_label
    except (ImportError, AttributeError):
        return lambda notation: notation

    def safe(notation: str) -> str:
        try:
            return label(notation, lambda s: s)
        except Exception:  # a label is a courtesy: never let it fail a state message
            log.exception("no label for %s action %r", game, notation)
            return notation

    return safe


def _bot_seed(table_seed: int, seq: int, seat: int) -> int:
    return (table_seed * 1_000_003 + seq * 101 + seat) % (2**63)


class TableService:
    """Create, join, leave, read and play tables; the one writer of every game."""

    def __init__(
        self, db: Database, hub: Hub, bots: BotPool | None, recent_events: int = 16, jobs: JobQueue | None = None
    ) -> None:
        self.db = db
        self.hub = hub
        self.bots = bots
        self.jobs = jobs
        self.recent_events = recent_events
        self._live: dict[int, Live] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._labels: dict[str, Callable[[str], str]] = {}
        self._invites: dict[int, str | None] = {}
        self._guests: set[tuple[int, int]] = set()
        self.finishers: list[Finisher] = []
        """Called with (session, table, final state) in the transaction that ends a game (ratings)."""
        self.closing = False

    # -- life cycle ----------------------------------------------------------------------------
    async def resume(self) -> None:
        """After a (re)start: queue a job for every bot whose turn it is."""
        await self.wake_waiting_bots()

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
        private: bool = False,
    ) -> int:
        """A new table; it starts at once when no seat is open. Returns its id.

        A private table gets an unguessable invitation code: only its seats and the accounts that
        opened its invitation link see it (:meth:`may_see`)."""
        engine = _game(game)
        _check_players(engine.name, players)
        resolved = _options(engine.name, options)
        rows = _seat_rows(seats, players, account)
        async with self.db.write() as session:
            table_id = await _insert_table(session, account.id, engine.name, players, resolved, rows, private)
        await self._announce(table_id)
        return table_id

    async def _announce(self, table_id: int) -> None:
        async with self._lock(table_id):
            live = await self._load(table_id, refresh=True)
        self._changed(live)

    # -- private tables and rematches ----------------------------------------------------------
    async def invite_of(self, table_id: int) -> str | None:
        """The table's invitation code (None: public, or no such table); cached, it never changes."""
        if table_id not in self._invites:
            try:
                await self._read(table_id)
            except NotFound:
                return None
        return self._invites.get(table_id)

    async def may_see(self, table_id: int, account: Account | None) -> bool:
        """Whether ``account`` may see the table: any public table; a private one only from its seats
        or after opening its invitation link."""
        if await self.invite_of(table_id) is None:
            return True
        if account is None:
            return False
        if (table_id, account.id) in self._guests or (await self._read(table_id)).seat_of(account) is not None:
            return True
        async with self.db.session() as session:
            guest = await session.get(GuestRow, (table_id, account.id))
        if guest is not None:
            self._guests.add((table_id, account.id))
        return guest is not None

    async def admit(self, account: Account, code: str) -> int:
        """The table of an invitation code; ``account`` may see and join it from now on."""
        async with self.db.write() as session:
            table_id = await session.scalar(select(TableRow.id).where(TableRow.invite == code)) if code else None
            if table_id is None:
                raise NotFound("no-invitation", "this invitation link is not valid (ask for a new one)")
            if await session.get(GuestRow, (table_id, account.id)) is None:
                session.add(GuestRow(table_id=table_id, account_id=account.id))
        self._guests.add((table_id, account.id))
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
        seat starts; (its id, whether this call made it). Asking again gives the same rematch."""
        live = await self._read(table_id)
        if live.seat_of(account) is None:
            raise Forbidden("not-seated", f"only the players of table {table_id} can ask for a rematch")
        if live.rematch is not None:
            return live.rematch, False
        self._require_over(live)
        turned = live.seats[1:] + live.seats[:1]
        rows = [SeatRow(seat=n, account_id=s.account_id, bot=s.bot) for n, s in enumerate(turned)]
        try:
            async with self.db.write() as session:
                new_id = await _insert_table(
                    session, account.id, live.game, live.players, live.options, rows, live.invite is not None
                )
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
                    .values(account_id=account.id)
                )
                if taken.rowcount != 1:  # type: ignore[attr-defined]
                    raise Conflict("seat-taken", f"seat {number} of table {table_id} was taken a moment ago")
                await self._start_if_full(session, table_id)
            live = await self._load(table_id, refresh=True)
        self._changed(live)
        return number

    async def leave(self, account: Account, table_id: int) -> None:
        """Give up one's seat before the start; a table nobody sits at any more is removed."""
        async with self._lock(table_id):
            live = await self._load(table_id, refresh=True)
            number = live.seat_of(account)
            if number is None:
                raise Conflict("not-seated", f"you do not sit at table {table_id}")
            if live.status != "open":
                raise Conflict("started", f"table {table_id} has started: seats can be left only before the start")
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
            self._live.pop(table_id, None)
        self.hub.publish(table_id, live.seq)

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
    async def list(self, status: str | None = None, mine: Account | None = None) -> list[dict[str, Any]]:
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
            label = self._labels.setdefault(live.game, _labeller(live.game))
            for action in live.state.legal_actions(seat):
                notation = live.state.action_text(seat, action)
                legal.append({"action": action, "notation": notation, "label": label(notation)})
        over = live.status == "over"
        return {
            "seq": live.seq,
            "seat": seat,
            "to_act": to_act,
            "view": live.state.view(seat) if started else None,
            "legal": legal,
            "events": [{"seq": seq, **event.view(seat)} for seq, event in live.events],
            "result": {"scores": live.state.scores(), "winners": live.state.winners()} if over else None,
        }

    async def record(self, table_id: int) -> GameRecord:
        """The finished game's record, straight from the log (Conflict before the end)."""
        live = await self._read(table_id)
        self._require_over(live)
        actions = [RecordedAction(seat=seat, action=notation) for _, seat, notation in await self._moves(table_id)]
        return GameRecord(
            game=live.game, players=live.players, options=dict(live.options), seed=live.seed,
            seats=[f"bot:{s.bot}" if s.bot else s.name or "open" for s in live.seats],
            actions=actions, result=GameResult(scores=live.state.scores(), winners=live.state.winners()),
        )

    async def moves(self, table_id: int) -> builtins.list[tuple[int, int, str]]:
        """(seq, seat, notation) of every move of a finished game (Conflict before the end)."""
        self._require_over(await self._read(table_id))
        return await self._moves(table_id)

    def _require_over(self, live: Live) -> None:
        if live.status != "over":
            raise Conflict("not-over", f"table {live.id} is {live.status}: the record is there once the game is over")

    async def _moves(self, table_id: int) -> builtins.list[tuple[int, int, str]]:
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
                raise Forbidden("not-seated", f"you do not sit at table {table_id}: spectators cannot move")
            return await self._submit(live, seat, seq, action)

    async def _submit(self, live: Live, seat: int, seq: int, action: int | str) -> int:
        """Check and apply one move for ``seat`` (the caller holds the table's lock)."""
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
        await self._append(live, seat, index, live.state.action_text(seat, index), after)
        live.state, live.seq = after, seq + 1
        live.status = "over" if after.is_over else "playing"
        self._note_events(live, live.seq, events)
        self._changed(live)
        return live.seq

    async def _append(self, live: Live, seat: int, action: int, notation: str, after: State) -> None:
        try:
            async with self.db.write() as session:
                session.add(MoveRow(table_id=live.id, seq=live.seq, seat=seat, action=action, notation=notation))
                await session.flush()
                if after.is_over:
                    await session.execute(update(TableRow).where(TableRow.id == live.id).values(status="over"))
                    for finish in self.finishers:  # in the same transaction: once per game, with the last move
                        await finish(session, live, after)
        except IntegrityError as error:  # another writer committed this seq first
            fresh = await self._load(live.id, refresh=True)
            raise StaleSeq(live.seq, fresh.seq) from error

    def _note_events(self, live: Live, seq: int, events: builtins.list[Event]) -> None:
        for event in events:
            live.events.append((seq, event))
        while len(live.events) > self.recent_events:
            live.events.popleft()

    def _changed(self, live: Live) -> None:
        self.hub.publish(live.id, live.seq)
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
                raise NotFound("no-table", f"there is no table {table_id}")
            count = await session.scalar(select(func.count()).select_from(MoveRow).where(MoveRow.table_id == table_id))
            current = cached is not None and cached.seq == count and cached.status == row.status
            self._invites[table_id] = row.invite
            if cached is not None and current and not refresh and row.status != "open":
                cached.rematch = row.rematch_id
                return cached
            seats = await _seats(session, table_id)
            live = cached if cached is not None and cached.seq <= (count or 0) else None
            if live is None:
                state = get_game(row.game).new_state(row.players, row.seed, row.options)
                live = Live(row.id, row.game, row.players, dict(row.options), row.seed, row.status, seats, state)
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
            self._note_events(live, seq + 1, live.state.apply(seat, action))
            live.seq = seq + 1


class _RematchTaken(Exception):
    pass


async def _insert_table(
    session: AsyncSession, creator: int, game: str, players: int, options: dict[str, str], rows: list[SeatRow],
    private: bool,
) -> int:
    """Insert a table and its seats; it plays at once when no seat is open. Returns its id."""
    status = "playing" if all(r.account_id is not None or r.bot for r in rows) else "open"
    table = TableRow(
        game=game, players=players, options=options, seed=secrets.randbits(62), status=status, created_by=creator,
        invite=secrets.token_urlsafe(24) if private else None,
    )
    session.add(table)
    await session.flush()
    for row in rows:
        row.table_id = table.id
        session.add(row)
    return table.id


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
        select(SeatRow.account_id, AccountRow.name, SeatRow.bot, AccountRow.program)
        .outerjoin(AccountRow, AccountRow.id == SeatRow.account_id)
        .where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
    )
    return [Seat(account_id, name, bot, bool(program)) for account_id, name, bot, program in rows.all()]
