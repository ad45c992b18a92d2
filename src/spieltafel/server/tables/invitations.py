"""Private tables and rematches: who may see a table, invitation codes, and a rematch of a finished game."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from spieltafel.server.accounts.service import Account
from spieltafel.server.db import Database, GuestRow, SeatRow, TableRow
from spieltafel.server.errors import Forbidden, NotFound
from spieltafel.server.tables import rows
from spieltafel.server.tables.cache import TableCache
from spieltafel.server.tables.clocks import Limits
from spieltafel.server.tables.results import require_over


class Invitations:
    """Invitation codes of private tables, their guests, and rematches."""

    def __init__(self, db: Database, cache: TableCache, announce: Callable[[int], Awaitable[None]]) -> None:
        self.db = db
        self.cache = cache
        self.announce = announce
        """Load a new or changed table, start its clocks and tell its watchers (the table service's)."""

    async def may_see(self, table_id: int, account: Account | None) -> bool:
        """Whether ``account`` may see the table: any public table; a private one only from its seats
        or after opening its invitation link (``table_guests``, removed with the table). False for a
        private table that does not exist any more. (True for a table that never was: the caller's own
        refusal for it is the same as for a private table.)"""
        if await self.cache.invite_of(table_id) is None:
            return True
        if account is None:
            return False
        try:
            live = await self.cache.read(table_id)
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

    async def invitation(self, table_id: int, account: Account | None) -> str | None:
        """The invitation code of a private table, for the accounts seated there (else None)."""
        live = await self.cache.read(table_id)
        return live.invite if live.seat_of(account) is not None else None

    async def rematch(self, account: Account, table_id: int) -> tuple[int, bool]:
        """A new table for the same players of a finished game, seats turned by one so that another
        seat starts; (its id, whether this call made it). Asking again gives the same rematch.

        An invitation, not a summons (issue 26): the asker sits down, the bots keep their seats, and the
        other people's seats stay open for them — the table is private and they are its guests, so they
        alone see it and accept by taking their seat; it starts when all have."""
        live = await self.cache.read(table_id)
        if live.seat_of(account) is None:
            raise Forbidden("not-seated", f"only the players of table {table_id} can ask for a rematch")
        if live.rematch is not None:
            return live.rematch, False
        require_over(live)
        turned = live.seats[1:] + live.seats[:1]
        seats = [SeatRow(seat=n, account_id=s.account_id if s.account_id == account.id else None,
                         bot=None if s.gone else s.bot) for n, s in enumerate(turned)]
        invited = {s.account_id for s in live.seats if s.account_id is not None and s.account_id != account.id}
        try:
            async with self.db.write() as session:
                new_id = await rows.insert_table(
                    session, account.id, live.game, live.players, live.options, seats,
                    live.invite is not None or bool(invited), Limits(live.timing, live.leaver, live.leaver_bot),
                    live.rated,
                )
                session.add_all(GuestRow(table_id=new_id, account_id=guest) for guest in sorted(invited))
                await rows.claim_rematch(session, table_id, new_id)
        except (rows.RematchTaken, IntegrityError):  # another player asked at the same moment: theirs stands
            return (await self.cache.read(table_id, refresh=True)).rematch or 0, False
        await self.announce(new_id)
        await self.announce(table_id)
        return new_id, True
