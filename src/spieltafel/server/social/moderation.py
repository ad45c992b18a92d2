"""Moderation (issue 30): site roles, the players' reports, and what moderators do about them.

Roles: ``player`` (everyone), ``moderator`` and ``admin``, given on the command line (``spieltafel admin grant
NAME moderator|admin``; ``player`` takes a role back). Any signed-in account may report another account or one
of its chat lines with a reason. Moderators and admins read the reports, hide chat lines (no reader gets
them any more), mute an account site-wide for a time (it cannot chat) and ban an account (it cannot sign in;
its sessions and tokens end, so its open sockets close; in each of its running games the table's leaver rule
takes its seat). A moderator acts on players only; an admin on anyone but themself. Every action is written
to the audit log, which admins read. The account that is muted or banned is told so in its language.

The routes (docs/protocol.md): ``POST /api/reports``; ``GET /api/moderation/reports``, ``POST
/api/moderation/chat/{chat_id}/hide``, ``POST /api/moderation/accounts/{name}/mute`` and ``.../ban``
(moderators and admins); ``GET /api/moderation/audit`` (admins).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from spieltafel.server.accounts.service import Account, AccountService
from spieltafel.server.db import (
    AccountRow,
    AuditRow,
    ChatRow,
    Database,
    ReportRow,
    SeatRow,
    SessionRow,
    TableRow,
    TokenRow,
)
from spieltafel.server.errors import Conflict, Forbidden, Invalid, NotFound
from spieltafel.server.social.sanctions import aware
from spieltafel.server.tables.service import TableService

ROLES = ("player", "moderator", "admin")
Role = Literal["player", "moderator", "admin"]
MAX_MUTE_MINUTES = 365 * 24 * 60
MAX_REASON = 500


class ModerationService:
    """Reports, hidden chat lines, mutes, bans and the audit log."""

    def __init__(self, db: Database, accounts: AccountService, tables: TableService | None) -> None:
        self.db = db
        self.accounts = accounts
        self.tables = tables

    async def role_of(self, account_id: int) -> str:
        async with self.db.session() as session:
            role = await session.scalar(select(AccountRow.role).where(AccountRow.id == account_id))
        return role or "player"

    async def grant(self, name: str, role: str, actor: int | None = None) -> None:
        """Give the account ``name`` the site role ``role`` (``player`` takes a role back)."""
        if role not in ROLES:
            raise Invalid("bad-role", f"a role is one of {', '.join(ROLES)}, not {role[:40]!r}")
        async with self.db.write() as session:
            target = await self._account(session, name)
            await session.execute(update(AccountRow).where(AccountRow.id == target.id).values(role=role))
            session.add(AuditRow(actor_id=actor, action="grant", account_id=target.id, detail=role))

    async def report(
        self, reporter: Account, name: str, chat_id: int | None, reason: str, table_id: int | None = None
    ) -> int:
        """File a report of ``name`` (or of its chat line ``chat_id``, at ``table_id`` when given) with a
        reason. A chat line counts only where the reporter may see its table: a line elsewhere is refused
        with the same words as one that does not exist."""
        reason = reason.strip()
        if not reason or len(reason) > MAX_REASON:
            raise Invalid("bad-reason", f"a report needs a reason of 1 to {MAX_REASON} characters")
        if chat_id is not None and not await self._line_visible(reporter, chat_id, table_id):
            raise NotFound("no-chat", f"{name} wrote no chat message {chat_id}")
        async with self.db.write() as session:
            target = await self._account(session, name)
            if target.id == reporter.id:
                raise Invalid("bad-report", "you cannot report yourself")
            if chat_id is not None:
                author = await session.scalar(select(ChatRow.account_id).where(ChatRow.id == chat_id))
                if author != target.id:
                    raise NotFound("no-chat", f"{target.name} wrote no chat message {chat_id}")
            row = ReportRow(reporter_id=reporter.id, account_id=target.id, chat_id=chat_id, reason=reason)
            session.add(row)
            await session.flush()
            return row.id

    async def _line_visible(self, reporter: Account, chat_id: int, table_id: int | None) -> bool:
        async with self.db.session() as session:
            line_table = await session.scalar(select(ChatRow.table_id).where(ChatRow.id == chat_id))
        if line_table is None or (table_id is not None and line_table != table_id):
            return False
        return self.tables is None or await self.tables.may_see(line_table, reporter)

    async def reports(self) -> list[dict[str, Any]]:
        """The reports, newest first (at most 200), with the reported chat line's text."""
        reporter = AccountRow.__table__.alias("reporter")
        query = (
            select(ReportRow.id, reporter.c.name, AccountRow.name, ReportRow.chat_id, ChatRow.text, ChatRow.hidden,
                   ReportRow.reason, ReportRow.created_at)
            .join(reporter, reporter.c.id == ReportRow.reporter_id)
            .join(AccountRow, AccountRow.id == ReportRow.account_id)
            .outerjoin(ChatRow, ChatRow.id == ReportRow.chat_id)
            .order_by(ReportRow.id.desc()).limit(200)
        )
        async with self.db.session() as session:
            rows = (await session.execute(query)).all()
        return [{"id": id_, "reporter": by, "account": name, "chat_id": chat, "text": text, "hidden": bool(hidden),
                 "reason": reason, "at": aware(at).isoformat()}
                for id_, by, name, chat, text, hidden, reason, at in rows]

    async def hide(self, actor: Account, chat_id: int) -> None:
        async with self.db.write() as session:
            author = await session.scalar(select(ChatRow.account_id).where(ChatRow.id == chat_id))
            if author is None:
                raise NotFound("no-chat", f"there is no chat message {chat_id}")
            await self._may_act(session, actor, author)
            await session.execute(update(ChatRow).where(ChatRow.id == chat_id).values(hidden=True))
            session.add(AuditRow(actor_id=actor.id, action="hide", account_id=author, chat_id=chat_id))

    async def mute(self, actor: Account, name: str, minutes: int) -> datetime | None:
        """Mute ``name`` site-wide for ``minutes`` (0: lift the mute); returns until when."""
        if not 0 <= minutes <= MAX_MUTE_MINUTES:
            raise Invalid("bad-minutes", f"a mute lasts 0 to {MAX_MUTE_MINUTES} minutes")
        until = datetime.now(UTC) + timedelta(minutes=minutes) if minutes else None
        async with self.db.write() as session:
            target = await self._account(session, name)
            await self._may_act(session, actor, target.id)
            await session.execute(update(AccountRow).where(AccountRow.id == target.id).values(muted_until=until))
            session.add(AuditRow(actor_id=actor.id, action="mute" if minutes else "unmute", account_id=target.id,
                                 detail=f"{minutes} minutes" if minutes else ""))
        return until

    async def ban(self, actor: Account, name: str, reason: str) -> None:
        """Ban ``name``: no more sign-ins, its sessions and tokens end (its sockets close), and in each of its
        running games the table's leaver rule takes its seat."""
        reason = reason.strip()
        if not reason or len(reason) > MAX_REASON:
            raise Invalid("bad-reason", f"a ban needs a reason of 1 to {MAX_REASON} characters")
        async with self.db.write() as session:
            target = await self._account(session, name)
            await self._may_act(session, actor, target.id)
            if target.banned:
                raise Conflict("banned", f"{target.name} is banned already")
            await session.execute(update(AccountRow).where(AccountRow.id == target.id).values(banned=True))
            await session.execute(delete(SessionRow).where(SessionRow.account_id == target.id))
            await session.execute(delete(TokenRow).where(TokenRow.account_id == target.id))
            session.add(AuditRow(actor_id=actor.id, action="ban", account_id=target.id, detail=reason))
            playing = list((await session.execute(
                select(SeatRow.table_id).join(TableRow, TableRow.id == SeatRow.table_id)
                .where(SeatRow.account_id == target.id, TableRow.status == "playing")
            )).scalars())
        self.accounts.sign_ins_changed(target.id)
        banned = Account(target.id, target.name, target.language, target.program)
        if self.tables is None:  # the command line's service bans nobody
            return
        for table_id in playing:
            try:
                await self.tables.leave(banned, table_id, confirmed=True)
            except Conflict:  # the game ended meanwhile, or the seat was taken already
                continue

    async def audit(self) -> list[dict[str, Any]]:
        """The audit log, newest first (at most 500)."""
        actor, target = AccountRow.__table__.alias("actor"), AccountRow.__table__.alias("target")
        query = (
            select(AuditRow.id, actor.c.name, AuditRow.action, target.c.name, AuditRow.chat_id, AuditRow.detail,
                   AuditRow.created_at)
            .outerjoin(actor, actor.c.id == AuditRow.actor_id)
            .outerjoin(target, target.c.id == AuditRow.account_id)
            .order_by(AuditRow.id.desc()).limit(500)
        )
        async with self.db.session() as session:
            rows = (await session.execute(query)).all()
        return [{"id": id_, "actor": by, "action": action, "account": name, "chat_id": chat, "detail": detail,
                 "at": aware(at).isoformat()} for id_, by, action, name, chat, detail, at in rows]

    @staticmethod
    async def _account(session: AsyncSession, name: str) -> AccountRow:
        row = (await session.execute(
            select(AccountRow).where(func.lower(AccountRow.name) == name.lower()).order_by(AccountRow.id)
        )).scalars().first()
        if row is None:
            raise NotFound("no-account", f"there is no account {name[:60]!r}")
        return row

    @staticmethod
    async def _may_act(session: AsyncSession, actor: Account, target_id: int) -> None:
        """A moderator acts on players only, an admin on anyone but themself."""
        if target_id == actor.id:
            raise Forbidden("self", "a moderator cannot act on their own account")
        roles = dict((await session.execute(select(AccountRow.id, AccountRow.role)
                                            .where(AccountRow.id.in_((actor.id, target_id))))).all())
        if roles.get(actor.id) != "admin" and roles.get(target_id, "player") != "player":
            raise Forbidden("not-admin", "only an admin acts on a moderator's or an admin's account")
