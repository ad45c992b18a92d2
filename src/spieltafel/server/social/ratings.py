"""Ratings, leaderboards and profiles: openskill Plackett–Luce as in the arena, one rating per game.

People, programs and bot levels are rated alike: each finished game is one Plackett–Luce update
(:func:`spieltafel.arena.stats.rate_game`) of its participants, ranked as the arena ranks seats
(:func:`spieltafel.arena.stats.ranks`: winners first, then score; equal keys tie). A bot level sitting
at several seats of one game takes part once, at its best seat's rank, as a bot name does in the
arena's pooled ratings. The update runs right after the game's last move is committed and its players
have the final state, in a transaction of its own that clears the table's ``rating_due`` flag
(:meth:`~spieltafel.server.tables.service.TableService.finish`; a game whose process died in between is rated by
the next sweep); with ``rating_changes`` UNIQUE per (table, player), a game counts exactly once. The
mover's own answer (HTTP or WebSocket) comes after the ratings; the other players' state does not wait.

Leavers: under the table's rule "out" the person who left or ran out of time is rated, ranked last
(every seat that is out shares the last place, as in the table's result); the stand-in that played
the seat's remaining turns is not rated, and the seats still in are ranked among themselves. Under
the rule "bot" the seat's result goes to the bot level that took it over (as before).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from spieltafel.arena.stats import Rating, initial_rating, ranks, rate_game
from spieltafel.core import State, get_game
from spieltafel.server.accounts.service import Account
from spieltafel.server.db import AccountRow, Database, RatingChangeRow, RatingRow, SeatRow, TableRow
from spieltafel.server.errors import NotFound
from spieltafel.server.tables import clocks
from spieltafel.server.tables.live import Live, Seat

BOT_PREFIX = "bot:"
LEADERBOARD_SIZE = 100
RECENT_GAMES = 10


def player_key(seat: Seat, out: bool = False) -> str | None:
    """Who is rated for a seat: ``bot:<level>``, ``a<account id>``, or None for an open seat. A seat
    that is ``out`` (rule "out") is its person's, not its stand-in's."""
    if seat.bot and not (out and seat.account_id is not None):
        return BOT_PREFIX + seat.bot
    return f"a{seat.account_id}" if seat.account_id is not None else None


@dataclass(frozen=True, slots=True)
class Placing:
    """One participant of a finished game: its key, account, rank (1 = best) and whether it won."""

    player: str
    account_id: int | None
    place: int
    won: bool


def seat_places(scores: Sequence[int], winners: Collection[int], out: Collection[int] = ()) -> list[int]:
    """Each seat's rank (1 = best): the seats still in ranked among themselves as the arena ranks seats
    (:func:`~spieltafel.arena.stats.ranks`), every seat that is ``out`` after them, sharing the last place."""
    inside = [seat for seat in range(len(scores)) if seat not in out]
    inner = ranks([scores[seat] for seat in inside], [n for n, seat in enumerate(inside) if seat in winners])
    result = [len(inside) + 1] * len(scores)
    for seat, place in zip(inside, inner, strict=True):
        result[seat] = place
    return result


def placings(
    seats: list[Seat], scores: list[int], winners: list[int], out: Collection[int] = ()
) -> list[Placing]:
    """The participants of a game in seat order of their first seat, each at its best seat's rank;
    the seats in ``out`` rank last and are rated for their person. ``won``: the table's winners
    (:func:`~spieltafel.server.tables.clocks.table_result`: first place among the seats still in)."""
    seat_ranks = seat_places(scores, winners, out)
    winners = clocks.table_result(scores, winners, out)["winners"]
    best: dict[str, Placing] = {}
    for number, seat in enumerate(seats):
        key = player_key(seat, number in out)
        if key is None:
            continue
        known = best.get(key)
        place = min(seat_ranks[number], known.place if known else seat_ranks[number])
        won = number in winners or (known is not None and known.won)
        # a bot level that took over a leaver's seat is nobody's account (else the person's profile lists it)
        account = None if key.startswith(BOT_PREFIX) else seat.account_id
        best[key] = Placing(key, account, place, won)
    return list(best.values())


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating the boards sort by: mu − 3 sigma (as in the arena)."""
    return mu - 3 * sigma


def _iso(moment: datetime) -> str:
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).isoformat(timespec="seconds")


class RatingService:
    """Rate finished games; read leaderboards and profiles."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def rate_finished(self, session: AsyncSession, live: Live, final: State) -> None:
        """A :data:`~spieltafel.server.tables.service.Finisher`: rate the game that ``final`` ends. A casual
        game (``live.rated`` False) changes no rating: no row here (its ``rating_due`` is cleared all the same);
        nor does a rated game in which any seat used a hint ("unrated: hints used")."""
        if not live.rated:
            return
        hinted = await session.scalar(
            select(func.coalesce(func.sum(SeatRow.hints), 0)).where(SeatRow.table_id == live.id)
        )
        if hinted:  # a seat used a hint: the game is unrated (a fair ladder), no rating moves
            return
        places = placings(live.seats, final.scores(), final.winners(), live.out())
        if len(places) < 2:
            return
        keys = [p.player for p in places]
        rows = await self._lock_rows(session, live.game, places)
        before = [Rating(rows[k].mu, rows[k].sigma) for k in keys]
        after = rate_game(before, [p.place for p in places])
        for placing, rating in zip(places, after, strict=True):
            row = rows[placing.player]
            row.mu, row.sigma = rating.mu, rating.sigma
            row.games += 1
            row.wins += placing.won
            session.add(RatingChangeRow(
                game=live.game, player=placing.player, account_id=placing.account_id, table_id=live.id,
                place=placing.place, won=placing.won, mu=rating.mu, sigma=rating.sigma,
            ))

    async def _lock_rows(self, session: AsyncSession, game: str, places: list[Placing]) -> dict[str, RatingRow]:
        """The rating rows of ``places``, locked for this transaction; a player's first row is made here.

        Two games of the same new players may end at the same moment: each makes the missing rows with
        ``INSERT … ON CONFLICT DO NOTHING`` (the second waits for the first to commit, then inserts nothing)
        instead of a plain insert that would fail on the primary key and refuse the game's last move. Rows
        are made and locked in the order of their keys, so two such games cannot deadlock."""
        start = initial_rating()
        insert = postgresql.insert if self.db.kind == "postgresql" else sqlite.insert
        values = [
            {"game": game, "player": p.player, "account_id": p.account_id, "mu": start.mu, "sigma": start.sigma,
             "games": 0, "wins": 0}
            for p in sorted(places, key=lambda p: p.player)
        ]
        await session.execute(insert(RatingRow).values(values).on_conflict_do_nothing())
        found = await session.execute(
            select(RatingRow)
            .where(RatingRow.game == game, RatingRow.player.in_([p.player for p in places]))
            .order_by(RatingRow.player)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
        return {row.player: row for row in found.scalars()}

    async def leaderboard(self, game: str, limit: int = LEADERBOARD_SIZE) -> list[dict[str, Any]]:
        """The game's rated players, best first by mu − 3 sigma."""
        _known_game(game)
        query = (
            select(RatingRow, AccountRow.name, AccountRow.program)
            .outerjoin(AccountRow, AccountRow.id == RatingRow.account_id)
            .where(RatingRow.game == game)
            .order_by((RatingRow.mu - 3 * RatingRow.sigma).desc(), RatingRow.player).limit(limit)
        )
        async with self.db.session() as session:
            found = (await session.execute(query)).all()
        return [{"rank": n, **_entry(row, name, program)} for n, (row, name, program) in enumerate(found, start=1)]

    async def profile(self, name: str, viewer: Account | None) -> dict[str, Any]:
        """An account's games played, ratings and wins per game with their history, recent rated games and
        recent casual ones (``casual``: they change no rating, so they are listed apart, without a place).

        A private table's game shows (in the history and the recent games) only to those who sat at that
        table; anyone else sees neither its id nor its place, win or time (the totals still count it)."""
        async with self.db.session() as session:
            account = await session.scalar(select(AccountRow).where(AccountRow.name == name, ~AccountRow.deleted))
            if account is None:
                raise NotFound("no-account", f"there is no account {name[:60]!r}")
            # by the person's own key: a stand-in bot's rows once stored the leaver's account id as well
            key = f"a{account.id}"
            ratings = (await session.execute(
                select(RatingRow).where(RatingRow.player == key).order_by(RatingRow.game)
            )).scalars().all()
            hidden = await _hidden_tables(session, account.id, viewer)
            changes = (await session.execute(
                select(RatingChangeRow).where(RatingChangeRow.player == key).order_by(RatingChangeRow.id)
            )).scalars().all()
            recent = await _recent(session, account.id, hidden)
            casual = await _casual(session, account.id, viewer)
        changes = [change for change in changes if change.table_id not in hidden]
        games = []
        for row in ratings:
            history = [_point(change) for change in changes if change.game == row.game]
            games.append({**_entry(row, account.name, account.program), "history": history})
        return {
            "name": account.name,
            "kind": "program" if account.program else "person",
            "games_played": sum(row.games for row in ratings),
            "games": games,
            "recent": recent,
            "casual": casual,
        }


def _known_game(game: str) -> None:
    try:
        get_game(game)
    except Exception as error:
        raise NotFound("no-game", f"there is no game {game[:60]!r}") from error


def _entry(row: RatingRow, name: str | None, program: bool | None) -> dict[str, Any]:
    bot = row.player.startswith(BOT_PREFIX)
    return {
        "game": row.game,
        "name": row.player[len(BOT_PREFIX):] if bot else name,
        "kind": "bot" if bot else "program" if program else "person",
        "mu": row.mu,
        "sigma": row.sigma,
        "ordinal": ordinal(row.mu, row.sigma),
        "games": row.games,
        "wins": row.wins,
    }


def _point(change: RatingChangeRow) -> dict[str, Any]:
    return {
        "table": change.table_id, "place": change.place, "won": change.won, "mu": change.mu,
        "sigma": change.sigma, "ordinal": ordinal(change.mu, change.sigma), "at": _iso(change.created_at),
    }


async def _hidden_tables(session: AsyncSession, account_id: int, viewer: Account | None) -> set[int]:
    """The private tables of the account's rated games at which ``viewer`` did not sit (anonymous: all)."""
    if viewer is not None and viewer.id == account_id:
        return set()
    played = select(RatingChangeRow.table_id).where(RatingChangeRow.account_id == account_id)
    private = select(TableRow.id).where(TableRow.id.in_(played), TableRow.invite.is_not(None))
    if viewer is not None:
        seated = select(SeatRow.table_id).where(SeatRow.account_id == viewer.id)
        private = private.where(TableRow.id.not_in(seated))
    return set((await session.execute(private)).scalars().all())


async def _recent(session: AsyncSession, account_id: int, hidden: Collection[int]) -> list[dict[str, Any]]:
    """The account's latest rated games, but those at the ``hidden`` tables."""
    query = (
        select(RatingChangeRow, TableRow.players)
        .join(TableRow, TableRow.id == RatingChangeRow.table_id)
        .where(RatingChangeRow.player == f"a{account_id}")
        .order_by(RatingChangeRow.id.desc()).limit(RECENT_GAMES)
    )
    if hidden:
        query = query.where(RatingChangeRow.table_id.not_in(hidden))
    rows = (await session.execute(query)).all()
    return [
        {"table": change.table_id, "game": change.game, "players": players, "place": change.place,
         "won": change.won, "at": _iso(change.created_at), "replay": f"/tables/{change.table_id}/replay"}
        for change, players in rows
    ]


async def _casual(session: AsyncSession, account_id: int, viewer: Account | None) -> list[dict[str, Any]]:
    """The account's latest finished casual games; a private table's only for those who sat at it."""
    seated = select(SeatRow.table_id).where(SeatRow.account_id == account_id)
    query = (
        select(TableRow.id, TableRow.game, TableRow.players, TableRow.created_at)
        .where(TableRow.id.in_(seated), TableRow.rated.is_(False), TableRow.status == "over")
        .order_by(TableRow.id.desc()).limit(RECENT_GAMES)
    )
    if viewer is None or viewer.id != account_id:
        if viewer is None:
            query = query.where(TableRow.invite.is_(None))
        else:
            theirs = TableRow.id.in_(select(SeatRow.table_id).where(SeatRow.account_id == viewer.id))
            query = query.where(or_(TableRow.invite.is_(None), theirs))
    rows = (await session.execute(query)).all()
    return [
        {"table": table_id, "game": game, "players": players, "at": _iso(created),
         "replay": f"/tables/{table_id}/replay"}
        for table_id, game, players, created in rows
    ]
