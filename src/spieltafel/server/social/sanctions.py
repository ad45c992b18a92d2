"""What a muted or banned account is told, in its language, and the check that refuses a muted account's chat
(issue 30; the moderators' side is ``social.moderation``)."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select

from spieltafel.server.db import AccountRow, Database
from spieltafel.server.errors import Forbidden
from spieltafel.server.web.i18n import gettext_for


def translated(account_language: str | None, message: str) -> str:
    return gettext_for(account_language or "en")(message)


def muted_message(language: str | None, until: datetime) -> str:
    """What a muted account is told when it tries to chat, in its language."""
    text = translated(language, "A moderator muted you: you cannot chat until %(until)s (UTC).")
    return text % {"until": until.astimezone(UTC).strftime("%Y-%m-%d %H:%M")}


def banned_message(language: str | None) -> str:
    """What a banned account is told when it tries to sign in, in its language."""
    return translated(language, "A moderator banned this account: it can no longer sign in.")


def aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


async def refuse_if_muted(db: Database, account_id: int) -> None:
    """Raise ``Forbidden('muted')`` (in the account's language) while a moderator's mute lasts."""
    async with db.session() as session:
        row = (await session.execute(select(AccountRow.muted_until, AccountRow.language)
                                     .where(AccountRow.id == account_id))).one_or_none()
    if row is not None and row.muted_until is not None and aware(row.muted_until) > datetime.now(UTC):
        raise Forbidden("muted", muted_message(row.language, aware(row.muted_until)))
