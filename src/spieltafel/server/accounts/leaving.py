"""Export my data, delete my account (issue 28).

**Export**: one JSON document with the account (name, creation time, language, address and whether it is
verified, program or not), its personal tokens (numbers and dates, never the tokens), the names it muted,
its games (every table it sits at; a finished game with its full record, a running one without: the
record of a running game would show what others may not see yet), its ratings with their history, and
its chat lines.

**Delete**: after the password is checked, the account leaves every table that has not ended (an open
table frees the seat; a running game follows its leaver rule, as a leaver's seat does), then in one
transaction its sessions, personal tokens, mailed links, chat lines, mutes (both ways), invitations,
ratings and rating history go, and the account row is emptied: no name (it becomes ``~<id>``, which no new
account can take, so the name is free again), no password (``!``, which no password matches), no address,
no language. The row stays so that finished games keep their seats: they show ``deleted player``
(:data:`DELETED_NAME`), and everybody else's games, records and ratings stay whole. Every socket of the
account closes (``sign_ins_changed``).
"""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import delete, or_, select, update

from spieltafel.server.accounts.service import Account, AccountService
from spieltafel.server.db import (
    AccountRow,
    ChatRow,
    Database,
    GuestRow,
    LinkRow,
    MuteRow,
    RatingChangeRow,
    RatingRow,
    SeatRow,
    SessionRow,
    TableRow,
    TokenRow,
)
from spieltafel.server.db.models import QuickPlayRow
from spieltafel.server.errors import Conflict, Forbidden, NotFound, Unauthenticated

if TYPE_CHECKING:
    from spieltafel.server.tables.service import TableService

EXPORT_FORMAT: Final = "spieltafel-account-export"
EXPORT_VERSION: Final = 1
UNUSABLE_HASH: Final = "!"


def _iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    return (moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)).isoformat()


class AccountData:
    """What an account may take with it, and its deletion."""

    def __init__(self, db: Database, accounts: AccountService, tables: TableService) -> None:
        self.db = db
        self.accounts = accounts
        self.tables = tables

    async def export(self, account: Account) -> dict[str, Any]:
        """Everything the site keeps about the account, as JSON-ready data."""
        async with self.db.session() as session:
            row = await session.get(AccountRow, account.id)
            if row is None or row.deleted:
                raise NotFound("no-account", "this account does not exist any more")
            tokens = (await session.execute(
                select(TokenRow.id, TokenRow.created_at).where(TokenRow.account_id == account.id).order_by(TokenRow.id)
            )).all()
            muted = (await session.execute(
                select(AccountRow.name).join(MuteRow, MuteRow.muted_id == AccountRow.id)
                .where(MuteRow.account_id == account.id).order_by(AccountRow.name)
            )).scalars().all()
            seated = (await session.execute(
                select(SeatRow.table_id, SeatRow.seat, TableRow.game, TableRow.status, TableRow.created_at,
                       TableRow.invite.is_not(None))
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(SeatRow.account_id == account.id).order_by(SeatRow.table_id)
            )).all()
            ratings = (await session.execute(
                select(RatingRow).where(RatingRow.account_id == account.id).order_by(RatingRow.game)
            )).scalars().all()
            history = (await session.execute(
                select(RatingChangeRow).where(RatingChangeRow.account_id == account.id).order_by(RatingChangeRow.id)
            )).scalars().all()
            chat = (await session.execute(
                select(ChatRow).where(ChatRow.account_id == account.id).order_by(ChatRow.id)
            )).scalars().all()
        games = []
        for table_id, seat, game, status, created, private in seated:
            record = None
            if status == "over":
                try:
                    record = (await self.tables.record(table_id)).model_dump(mode="json")
                except (Conflict, NotFound):  # removed meanwhile
                    record = None
            games.append({"table": table_id, "game": game, "status": status, "seat": seat, "private": bool(private),
                          "created_at": _iso(created), "record": record})
        return {
            "format": EXPORT_FORMAT, "version": EXPORT_VERSION, "exported_at": datetime.now(UTC).isoformat(),
            "account": {
                "name": row.name, "created_at": _iso(row.created_at), "language": row.language, "email": row.email,
                "email_verified": bool(row.email_verified), "program": bool(row.program),
            },
            "tokens": [{"id": token_id, "created_at": _iso(created)} for token_id, created in tokens],
            "muted": list(muted),
            "games": games,
            "ratings": [{"game": r.game, "mu": r.mu, "sigma": r.sigma, "games": r.games, "wins": r.wins}
                        for r in ratings],
            "rating_history": [{"game": h.game, "table": h.table_id, "place": h.place, "won": h.won, "mu": h.mu,
                                "sigma": h.sigma, "at": _iso(h.created_at)} for h in history],
            "chat": [{"table": c.table_id, "channel": c.channel, "text": c.text, "at": _iso(c.created_at)}
                     for c in chat],
        }

    async def delete(self, account: Account, password: str) -> None:
        """Delete the account (module docstring); Forbidden ``wrong-password`` changes nothing."""
        try:
            await self.accounts.authenticate(account.name, password)
        except Unauthenticated as error:
            raise Forbidden("wrong-password", "the password is wrong; nothing was deleted") from error
        async with self.db.write() as session:  # first, so that quick play seats the leaving account nowhere
            await session.execute(delete(QuickPlayRow).where(QuickPlayRow.account_id == account.id))
        async with self.db.session() as session:
            unended = (await session.execute(
                select(SeatRow.table_id).join(TableRow, TableRow.id == SeatRow.table_id)
                .where(SeatRow.account_id == account.id, SeatRow.gone.is_(None), TableRow.status != "over")
            )).scalars().all()
            seated = set((await session.execute(
                select(SeatRow.table_id).where(SeatRow.account_id == account.id)
            )).scalars().all())
        for table_id in unended:  # the leaver rule, as for anybody who leaves
            with contextlib.suppress(Conflict, NotFound):  # ended or removed meanwhile
                await self.tables.leave(account, table_id, confirmed=True)
        async with self.db.write() as session:
            for table in (SessionRow, TokenRow, LinkRow, ChatRow, GuestRow, RatingRow, RatingChangeRow):
                await session.execute(delete(table).where(table.account_id == account.id))
            await session.execute(delete(MuteRow).where(or_(MuteRow.account_id == account.id,
                                                            MuteRow.muted_id == account.id)))
            await session.execute(update(TableRow).where(TableRow.created_by == account.id).values(created_by=None))
            await session.execute(
                update(AccountRow).where(AccountRow.id == account.id).values(
                    name=f"~{account.id}", name_folded=f"~{account.id}", password_hash=UNUSABLE_HASH, email=None,
                    email_verified=False, language=None, program=False, deleted=True,
                )
            )
        self.tables.forget(seated)
        self.accounts.sign_ins_changed(account.id)
