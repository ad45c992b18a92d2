"""The tables' rows: every SQL statement of the table service (tables, seats, the move log, clocks).

Reads and writes take the caller's session, so that the caller decides what one transaction holds."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any, cast

from sqlalchemy import Insert, Table, bindparam, delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from spieltafel.server.accounts.service import DELETED_NAME
from spieltafel.server.db import AccountRow, MoveRow, SeatRow, TableRow
from spieltafel.server.db.models import ExpiredTableRow, utcnow
from spieltafel.server.tables.clocks import Limits, SeatClock
from spieltafel.server.tables.live import Seat


class SeatGone(Exception):
    """The mover's seat was taken over (the leaver rule) a moment ago."""


class Stale(Exception):
    """Another move at this ``seq`` was committed first (the group commit's answer)."""


class RematchTaken(Exception):
    """Another player's rematch of the same table was committed first."""


SEATS = cast(Table, SeatRow.__table__)
MOVES = cast(Table, MoveRow.__table__)


async def insert_table(
    session: AsyncSession, creator: int, game: str, players: int, options: dict[str, str], rows: list[SeatRow],
    private: bool, limits: Limits, rated: bool = True,
) -> int:
    """Insert a table and its seats; it plays at once when no seat is open. Returns its id. ``rated``:
    whether the game changes ratings (False: a casual game)."""
    status = "playing" if all(r.account_id is not None or r.bot for r in rows) else "open"
    timing = limits.timing
    table = TableRow(
        game=game, players=players, options=options, seed=secrets.randbits(62), status=status, created_by=creator,
        invite=secrets.token_urlsafe(24) if private else None, pace=timing.pace, budget_ms=timing.budget_ms or None,
        increment_ms=timing.increment_ms or None, leaver=limits.leaver, leaver_bot=limits.leaver_bot,
        rated=rated,
    )
    for row in rows:
        row.clock_ms = timing.first_clock() if row.account_id is not None and row.bot is None else None
    session.add(table)
    await session.flush()
    for row in rows:
        row.table_id = table.id
        session.add(row)
    return table.id


async def read_seats(session: AsyncSession, table_id: int) -> list[Seat]:
    """The table's seats with their people's names (a deleted account's as :data:`DELETED_NAME`)."""
    rows = await session.execute(
        select(SeatRow, AccountRow.name, AccountRow.program, AccountRow.deleted)
        .outerjoin(AccountRow, AccountRow.id == SeatRow.account_id)
        .where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
    )
    return [
        Seat(
            row.account_id, DELETED_NAME if deleted else name, row.bot, bool(program), row.gone,
            SeatClock(row.clock_ms, row.since_ms, row.deadline_ms), row.hints or 0,
        )
        for row, name, program, deleted in rows.all()
    ]


async def read_log(session: AsyncSession, table_id: int) -> list[tuple[int, int, str]]:
    """(seq, seat, notation) of every move of the table, in order."""
    rows = await session.execute(
        select(MoveRow.seq, MoveRow.seat, MoveRow.notation).where(MoveRow.table_id == table_id).order_by(MoveRow.seq)
    )
    return [(seq, seat, notation) for seq, seat, notation in rows.all()]


async def read_moves_from(session: AsyncSession, table_id: int, seq: int) -> list[tuple[int, int, int]]:
    """(seq, seat, action index) of the moves from ``seq`` on, to replay them."""
    rows = await session.execute(
        select(MoveRow.seq, MoveRow.seat, MoveRow.action)
        .where(MoveRow.table_id == table_id, MoveRow.seq >= seq).order_by(MoveRow.seq)
    )
    return [(s, seat, action) for s, seat, action in rows.all()]


async def count_moves(session: AsyncSession, table_id: int) -> int:
    return await session.scalar(select(func.count()).select_from(MoveRow).where(MoveRow.table_id == table_id)) or 0


async def take_seat(session: AsyncSession, table_id: int, number: int, account_id: int, clock_ms: int | None) -> bool:
    """Seat ``account_id`` at an open seat; False when somebody took it a moment ago."""
    taken = await session.execute(
        update(SeatRow)
        .where(SeatRow.table_id == table_id, SeatRow.seat == number)
        .where(SeatRow.account_id.is_(None), SeatRow.bot.is_(None))
        .values(account_id=account_id, clock_ms=clock_ms)
    )
    return bool(taken.rowcount == 1)  # type: ignore[attr-defined]


async def start_if_full(session: AsyncSession, table_id: int) -> None:
    empty = await session.scalar(
        select(func.count()).select_from(SeatRow)
        .where(SeatRow.table_id == table_id, SeatRow.account_id.is_(None), SeatRow.bot.is_(None))
    )
    if not empty:
        await session.execute(
            update(TableRow).where(TableRow.id == table_id, TableRow.status == "open").values(status="playing")
        )


async def free_seat(session: AsyncSession, table_id: int, number: int) -> None:
    """Open a seat again before the start; remove the table when nobody sits at it any more."""
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


async def claim_rematch(session: AsyncSession, table_id: int, new_id: int) -> None:
    """Mark ``new_id`` as the rematch of ``table_id`` unless another one was marked first (RematchTaken)."""
    claimed = await session.execute(
        update(TableRow).where(TableRow.id == table_id, TableRow.rematch_id.is_(None)).values(rematch_id=new_id)
    )
    if claimed.rowcount != 1:  # type: ignore[attr-defined]
        raise RematchTaken


async def end_game(session: AsyncSession, table_id: int) -> None:
    """The table is over and its ratings are due (made after the commit: ``Results.finish``)."""
    await session.execute(update(TableRow).where(TableRow.id == table_id).values(status="over", rating_due=True))


async def hold_person(session: AsyncSession, table_id: int, seat: int) -> None:
    """Lock the mover's seat row for this transaction, checking that its person still plays it (the
    sweeper's claim on the same row waits, or came first and this move is refused)."""
    seats = SEATS.c
    held = await session.execute(  # a Core statement: no ORM bookkeeping on the hot path of every move
        update(SEATS).where(seats.table_id == table_id, seats.seat == seat)
        .where(seats.gone.is_(None), seats.bot.is_(None)).values(gone=None)
    )
    if held.rowcount != 1:  # type: ignore[attr-defined]
        raise SeatGone


async def append_move(session: AsyncSession, row: Mapping[str, Any]) -> None:
    await session.execute(insert(MOVES).values(row))


async def hold_person_and_append(session: AsyncSession, row: Mapping[str, Any]) -> None:
    """:func:`hold_person` and the move's insert in one statement (one round trip fewer per move): on
    PostgreSQL an UPDATE in a WITH clause locks the seat row, and the move is inserted only if it did.
    Atomic on its own, so a move that changes nothing else is committed without a transaction block."""
    inserted = await session.execute(_HOLD_AND_APPEND, _hold_and_append_parameters(row))
    if inserted.rowcount != 1:  # type: ignore[attr-defined]
        raise SeatGone


def _hold_and_append_statement() -> Insert:
    """The statement of :func:`hold_person_and_append`, built once (its parameters are bound per move)."""
    seats = SEATS.c
    held = (
        update(SEATS).where(seats.table_id == bindparam("new_table_id"), seats.seat == bindparam("held_seat"))
        .where(seats.gone.is_(None), seats.bot.is_(None)).values(gone=None)
        .returning(seats.seat).cte("held")
    )
    names = ["table_id", "seq", "seat", "action", "notation", "created_at"]
    values = select(*(bindparam(f"new_{name}", type_=MOVES.c[name].type) for name in names)).select_from(held)
    return insert(MOVES).from_select(names, values)


def _hold_and_append_parameters(row: Mapping[str, Any]) -> dict[str, Any]:
    parameters = {f"new_{name}": value for name, value in row.items()}
    parameters["held_seat"] = row["seat"]
    parameters["new_created_at"] = utcnow()  # INSERT ... SELECT takes no column defaults
    return parameters


_HOLD_AND_APPEND = _hold_and_append_statement()


async def write_clocks(
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


async def claim_leaver_seat(
    session: AsyncSession, table_id: int, seat: int, reason: str, bot: str, *condition: Any
) -> bool:
    """Give a seat whose person still plays it to ``bot`` (the leaver rule), if ``condition`` holds too."""
    claimed = await session.execute(
        update(SeatRow)
        .where(SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.gone.is_(None))
        .where(SeatRow.account_id.is_not(None), SeatRow.bot.is_(None), *condition)
        .values(gone=reason, bot=bot, since_ms=None, deadline_ms=None)
    )
    return bool(claimed.rowcount == 1)  # type: ignore[attr-defined]


async def overdue_seats(session: AsyncSession, now_ms: int) -> list[tuple[int, int, int]]:
    """(table, seat, deadline) of every seat of a running table whose deadline has passed, earliest first."""
    rows = await session.execute(
        select(SeatRow.table_id, SeatRow.seat, SeatRow.deadline_ms)
        .join(TableRow, TableRow.id == SeatRow.table_id)
        .where(SeatRow.deadline_ms <= now_ms, TableRow.status == "playing")
        .order_by(SeatRow.deadline_ms)
    )
    return [(table_id, seat, deadline) for table_id, seat, deadline in rows.all() if deadline is not None]


async def touch(session: AsyncSession, table_id: int, now_ms: int) -> None:
    """Activity at an open table (made, a seat taken or given up): its expiry starts again (``tables.expiry``)."""
    await session.execute(
        update(TableRow).where(TableRow.id == table_id, TableRow.status == "open").values(active_ms=now_ms)
    )


async def open_tables_activity(session: AsyncSession) -> list[tuple[int, int | None, str | None]]:
    """Every open table: its id, its last activity (epoch ms, None if never stamped) and its pace."""
    found = await session.execute(
        select(TableRow.id, TableRow.active_ms, TableRow.pace).where(TableRow.status == "open")
    )
    return [(row[0], row[1], row[2]) for row in found.all()]


async def stamp_activity(session: AsyncSession, table_ids: list[int], now_ms: int) -> None:
    """A first activity for open tables that have none (made before activity was kept)."""
    await session.execute(
        update(TableRow)
        .where(TableRow.id.in_(table_ids), TableRow.status == "open", TableRow.active_ms.is_(None))
        .values(active_ms=now_ms)
    )


async def remove_stale_open_table(
    session: AsyncSession, table_id: int, active_ms: int, now_ms: int
) -> list[int] | None:
    """Remove an open table whose last activity is still ``active_ms`` (a compare-and-set: exactly one
    process does it) with its seats (its chat and guests by cascade), and leave a lobby notice for each
    account that sat at it; returns those accounts, or None when it changed or went meanwhile."""
    game = await session.scalar(select(TableRow.game).where(TableRow.id == table_id))
    seated = [account for account in (await session.execute(
        select(SeatRow.account_id).where(SeatRow.table_id == table_id, SeatRow.account_id.is_not(None))
    )).scalars() if account is not None]
    gone = await session.execute(
        delete(TableRow).where(TableRow.id == table_id, TableRow.status == "open", TableRow.active_ms == active_ms)
    )
    if gone.rowcount != 1:  # type: ignore[attr-defined]
        return None
    await session.execute(delete(SeatRow).where(SeatRow.table_id == table_id))
    for account in seated:
        session.add(ExpiredTableRow(table_id=table_id, account_id=account, game=game or "", expired_ms=now_ms))
    return seated


async def expired_notices(session: AsyncSession, account_id: int, since_ms: int) -> list[tuple[int, str, int]]:
    """The account's notices of expired tables since ``since_ms``, newest first: (table id, game, when)."""
    found = await session.execute(
        select(ExpiredTableRow.table_id, ExpiredTableRow.game, ExpiredTableRow.expired_ms)
        .where(ExpiredTableRow.account_id == account_id, ExpiredTableRow.expired_ms >= since_ms)
        .order_by(ExpiredTableRow.expired_ms.desc(), ExpiredTableRow.table_id.desc())
    )
    return [(row[0], row[1], row[2]) for row in found.all()]


async def drop_old_notices(session: AsyncSession, before_ms: int) -> None:
    await session.execute(delete(ExpiredTableRow).where(ExpiredTableRow.expired_ms < before_ms))
