"""Quick play (issue 28): "Play now" seats a person at a new table with people who asked for the same
thing (game, player count or any, pace, rated or not), preferring close ratings and widening the window
while they wait, and fills the seats left with bots after the wait the person chose.

Matching happens in ONE place for the whole site: the ``quickplay`` table of the database. A request is
a row; the matcher of whichever process runs (after a request, at every poll) takes the site-wide lock
of matching (a PostgreSQL advisory lock per game; on SQLite the database's one writer), reads the
waiting rows, plans one table (:func:`plan`, a pure function), inserts it with its seats and claims the
rows by compare-and-set (``UPDATE … SET table_id WHERE id IN … AND table_id IS NULL``): a claim that
does not take every row of the group rolls the whole transaction back, table included. So two tables
are never made for the same people, every process shares the queue, and it survives a restart.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, delete, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from spieltafel.arena.stats import initial_rating
from spieltafel.core import Game
from spieltafel.server.accounts.service import Account
from spieltafel.server.db import AccountRow, Database, RatingRow, SeatRow
from spieltafel.server.db.models import QuickPlayRow
from spieltafel.server.errors import Conflict, Invalid, NotFound
from spieltafel.server.tables import creation, rows
from spieltafel.server.tables.clocks import PACES, Limits
from spieltafel.server.tables.live import BOT_LEVELS, DEFAULT_LEAVER_BOT

WINDOW = 2.0
"""The rating window at first: people whose ratings (the game's ``mu``: 25 for a new player, about 0 to 50)
differ by at most this are matched at once."""
WIDEN = 1.0
"""How much the window widens per ``WIDEN_EVERY_S`` seconds of waiting."""
WIDEN_EVERY_S = 5
MAX_BOT_WAIT_S = 600
CLOCKS: dict[str, dict[str, Any]] = {
    "live": {"pace": "live", "minutes": 10, "increment": 5},
    "turn": {"pace": "turn", "per_move": "1d"},
}
"""The time limit of a quick-play table of each pace."""
MAX_CLAIMS = 200
"""Tables one matcher run makes at most (each a transaction)."""
QUICKPLAY = cast(Table, QuickPlayRow.__table__)


@dataclass(frozen=True)
class Request:
    """One waiting person's request, as the matcher sees it."""

    id: int
    account_id: int
    players: int | None
    pace: str
    rated: bool
    rating: float
    since_ms: int
    bot: str | None = None
    bot_after_s: int | None = None

    def window(self, now_ms: int) -> float:
        """The rating difference this person accepts now: it widens while they wait."""
        waited = max(0, now_ms - self.since_ms) // 1000
        return WINDOW + WIDEN * (waited // WIDEN_EVERY_S)

    def bots_due(self, now_ms: int) -> bool:
        if self.bot is None or self.bot_after_s is None:
            return False
        return now_ms - self.since_ms >= self.bot_after_s * 1000


@dataclass(frozen=True)
class Plan:
    """A table to make: its player count, the requests seated there and the bots of the seats left."""

    players: int
    requests: tuple[Request, ...]
    bots: int
    bot: str | None = None


def _close(a: Request, b: Request, now_ms: int) -> bool:
    return abs(a.rating - b.rating) <= min(a.window(now_ms), b.window(now_ms))


def _fits(request: Request, players: int) -> bool:
    return request.players is None or request.players == players


def plan(waiting: Sequence[Request], min_players: int, max_players: int, now_ms: int) -> Plan | None:
    """The next table to make from ``waiting`` (one game's requests), or None when none can be made now.

    The person waiting longest comes first: with the most people of the same pace and rated-ness whose
    player count fits and whose ratings are close both ways (each within the other's window), at the
    largest player count that can be filled (a request for "any" count takes the largest). Seats are
    given to the closest ratings first. When nobody can be matched with people, the first person whose
    bot wait is over gets a table of their count (or the smallest one) with bots in the seats left."""
    ordered = sorted(waiting, key=lambda r: (r.since_ms, r.id))
    for first in ordered:
        peers = [r for r in ordered if r is not first and r.pace == first.pace and r.rated == first.rated
                 and _close(first, r, now_ms)]
        counts = [first.players] if first.players is not None else list(range(max_players, min_players - 1, -1))
        for players in counts:
            fitting = sorted((r for r in peers if _fits(r, players)), key=lambda r: abs(r.rating - first.rating))
            group = [first]
            for other in fitting:  # everybody in the group close to everybody
                if len(group) == players:
                    break
                if all(_close(other, member, now_ms) for member in group):
                    group.append(other)
            if len(group) == players:
                return Plan(players, tuple(group), 0)
    for first in ordered:
        if first.bots_due(now_ms):
            players = first.players or min_players
            peers = [r for r in ordered if r is not first and r.pace == first.pace and r.rated == first.rated
                     and _fits(r, players) and _close(first, r, now_ms)]
            seated = (first, *peers[: players - 1])
            return Plan(players, seated, players - len(seated), first.bot)
    return None


class _Lost(Exception):
    """The compare-and-set did not claim every request of the group: another matcher took one."""


class QuickPlay:
    """Ask, read, cancel, and match: the site's quick-play queue in the database."""

    def __init__(self, db: Database, now_ms: Callable[[], int], announce: Callable[[int], Awaitable[None]]) -> None:
        self.db = db
        self.now_ms = now_ms
        self.announce = announce
        """Called with each table made (the table service's ``announce``: clocks, watchers, bots)."""

    async def ask(self, account: Account, game: str, players: int | None, pace: str, rated: bool,
                  bot: str | None = None, bot_after_s: int | None = None) -> dict[str, Any]:
        """Put ``account`` in the queue (a request it had is replaced) and match at once."""
        engine = creation.game_named(game)
        if players is not None:
            creation.check_players(engine, players)
        if pace not in PACES:
            raise Invalid("bad-pace", f"the pace is {' or '.join(PACES)}, not {pace!r}")
        if bot is not None and bot not in BOT_LEVELS:
            raise Invalid("bad-bot", f"the bots are one of {', '.join(BOT_LEVELS)}, not {bot!r}")
        if (bot is None) != (bot_after_s is None):
            raise Invalid("bad-bot", "give both the bots' level and the wait before they come, or neither")
        if bot_after_s is not None and not 0 <= bot_after_s <= MAX_BOT_WAIT_S:
            raise Invalid("bad-bot", f"the bots come after 0 to {MAX_BOT_WAIT_S} seconds, not {bot_after_s}")
        try:
            async with self.db.write() as session:
                rating = await _rating(session, engine.name, account.id)
                await session.execute(delete(QuickPlayRow).where(QuickPlayRow.account_id == account.id))
                session.add(QuickPlayRow(
                    account_id=account.id, game=engine.name, players=players, pace=pace, rated=rated, bot=bot,
                    bot_after_s=bot_after_s, rating=rating, since_ms=self.now_ms(),
                ))
        except IntegrityError as error:  # the same account asking twice at the same moment
            raise Conflict("already-asking", "you asked for quick play a moment ago: wait for that request") from error
        await self.match(engine)
        return await self.status(account, match=False)

    async def cancel(self, account: Account) -> None:
        """Leave the queue. Refused when the person was seated a moment ago (then the table is theirs)."""
        async with self.db.write() as session:
            gone = await session.execute(
                delete(QuickPlayRow).where(QuickPlayRow.account_id == account.id, QuickPlayRow.table_id.is_(None))
            )
            if gone.rowcount:  # type: ignore[attr-defined]
                return
            seated = await session.scalar(select(QuickPlayRow.table_id).where(QuickPlayRow.account_id == account.id))
        if seated is not None:
            raise Conflict("seated", f"you were seated at table {seated} a moment ago: leave it there")
        raise NotFound("not-waiting", "you are not waiting for quick play")

    async def status(self, account: Account, match: bool = True) -> dict[str, Any]:
        """The person's request: seated (with the table) or waiting (how long, the window, who else waits
        for the same game, pace and rated-ness). Matches first, so that a poll also fills tables with bots."""
        async with self.db.session() as session:
            mine = await session.scalar(select(QuickPlayRow).where(QuickPlayRow.account_id == account.id))
        if mine is None:
            raise NotFound("not-waiting", "you are not waiting for quick play")
        if match and mine.table_id is None:
            await self.match(creation.game_named(mine.game))
            async with self.db.session() as session:
                mine = await session.scalar(select(QuickPlayRow).where(QuickPlayRow.account_id == account.id))
            if mine is None:
                raise NotFound("not-waiting", "you are not waiting for quick play")
        asked = {"game": mine.game, "players": mine.players, "pace": mine.pace, "rated": mine.rated,
                 "bots": {"level": mine.bot, "after": mine.bot_after_s} if mine.bot else None}
        if mine.table_id is not None:
            return {"state": "seated", "table_id": mine.table_id, "asked": asked}
        now = self.now_ms()
        async with self.db.session() as session:
            others = (await session.execute(
                select(QuickPlayRow.players, QuickPlayRow.since_ms, AccountRow.name)
                .join(AccountRow, AccountRow.id == QuickPlayRow.account_id)
                .where(QuickPlayRow.game == mine.game, QuickPlayRow.pace == mine.pace,
                       QuickPlayRow.rated == mine.rated, QuickPlayRow.table_id.is_(None))
                .order_by(QuickPlayRow.since_ms, QuickPlayRow.id).limit(50)
            )).all()
        request = _request(mine)
        return {
            "state": "waiting", "asked": asked, "waited_s": max(0, now - mine.since_ms) // 1000,
            "window": request.window(now),
            "waiting": [{"name": name, "players": players, "waited_s": max(0, now - since) // 1000}
                        for players, since, name in others],
        }

    async def match(self, game: Game) -> int:
        """Make every table that can be made now for ``game``; returns how many were made."""
        made = 0
        while made < MAX_CLAIMS:
            try:
                table_id = await self._claim_one(game)
            except _Lost:
                continue  # rolled back: read the queue again
            if table_id is None:
                return made
            made += 1
            await self.announce(table_id)
        return made

    async def _claim_one(self, game: Game) -> int | None:
        async with self.db.write() as session:
            await self._lock(session, game.name)
            found = (await session.scalars(
                select(QuickPlayRow).where(QuickPlayRow.game == game.name, QuickPlayRow.table_id.is_(None))
            )).all()
            chosen = plan([_request(r) for r in found], game.min_players, game.max_players, self.now_ms())
            if chosen is None:
                return None
            people = list(chosen.requests)
            random.shuffle(people)  # who starts is drawn
            seats = [SeatRow(seat=n, account_id=r.account_id, bot=None) for n, r in enumerate(people)]
            seats += [SeatRow(seat=len(people) + n, account_id=None, bot=chosen.bot) for n in range(chosen.bots)]
            first = chosen.requests[0]
            limits = Limits(creation.timing_of(CLOCKS[first.pace]), "bot", DEFAULT_LEAVER_BOT)
            table_id = await rows.insert_table(
                session, first.account_id, game.name, chosen.players, game.resolve_options({}), seats, False, limits,
                first.rated,
            )
            ids = [r.id for r in chosen.requests]
            claimed = await session.execute(
                update(QUICKPLAY).where(QUICKPLAY.c.id.in_(ids), QUICKPLAY.c.table_id.is_(None))
                .values(table_id=table_id)
            )
            if claimed.rowcount != len(ids):  # type: ignore[attr-defined]
                raise _Lost()
        return table_id

    async def _lock(self, session: AsyncSession, game: str) -> None:
        """The site-wide lock of matching ``game`` for this transaction: PostgreSQL's advisory lock, or on
        SQLite the database's write lock, taken before the read (a no-op write) so that no other process's
        matcher reads the same queue meanwhile."""
        if self.db.kind == "postgresql":
            key = zlib.crc32(f"quickplay:{game}".encode())
            await session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})
        else:
            await session.execute(update(QUICKPLAY).where(QUICKPLAY.c.id == -1).values(table_id=None))


def _request(row: QuickPlayRow) -> Request:
    return Request(row.id, row.account_id, row.players, row.pace, row.rated, row.rating, row.since_ms, row.bot,
                   row.bot_after_s)


async def _rating(session: AsyncSession, game: str, account_id: int) -> float:
    mu = await session.scalar(select(RatingRow.mu).where(RatingRow.game == game, RatingRow.player == f"a{account_id}"))
    return float(mu) if mu is not None else float(initial_rating().mu)
