"""E-mail when a turn-based game waits for a person: once per waiting game, off when SMTP is not set.

A game that has waited ``mail_after_seconds`` (default 5 minutes) for a person gets them one e-mail;
a person who moves and is to act again (a turn of several steps) is not mailed again for it.

:meth:`Notifier.notify` runs with the deadline sweep (periodically, in every server process and every
``spieltafel worker``). A seat whose turn started at ``since_ms`` is mailed about once: the claim is a
compare-and-set of the seat's ``mailed_since_ms`` to that turn, committed before the mail goes out, so
two processes never send it twice (a failed send is logged and not retried)."""

from __future__ import annotations

import asyncio
import logging
import re
import smtplib
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage

from sqlalchemy import or_, select, update

from spieltafel.server.accounts.service import Account
from spieltafel.server.db import AccountRow, Database, SeatRow, TableRow
from spieltafel.server.errors import Invalid
from spieltafel.server.ops import metrics
from spieltafel.server.settings import Settings

log = logging.getLogger("spieltafel.server")
EMAIL_PATTERN = re.compile(r"[^@\s]{1,64}@[^@\s.]+(\.[^@\s.]+)+")
MAX_EMAIL = 254
SMTP_TIMEOUT = 20.0


@dataclass(frozen=True, slots=True)
class Waiting:
    """One person a turn-based game waits for."""

    table_id: int
    game: str
    seat: int
    since_ms: int
    email: str
    name: str
    language: str | None


def check_email(address: str) -> str:
    """The address, trimmed; Invalid when it does not look like one (we never send to check it)."""
    address = address.strip()
    if len(address) > MAX_EMAIL or not EMAIL_PATTERN.fullmatch(address):
        raise Invalid("bad-email", "give an e-mail address like name@example.org (at most 254 characters)")
    return address


class Notifier:
    """Addresses of accounts, and the 'your turn' e-mails of turn-based games."""

    def __init__(self, db: Database, settings: Settings, now_ms: Callable[[], int]) -> None:
        self.db = db
        self.settings = settings
        self.now_ms = now_ms

    @property
    def enabled(self) -> bool:
        return bool(self.settings.smtp_host)

    async def email_of(self, account: Account) -> str | None:
        async with self.db.session() as session:
            return await session.scalar(select(AccountRow.email).where(AccountRow.id == account.id))

    async def set_email(self, account: Account, address: str | None) -> str | None:
        """Set (or with None or "" remove) the account's address; returns what is stored. A new address is
        unverified (it gets no mail until its owner clicks the link ``recovery`` sends to it)."""
        stored = check_email(address) if address and address.strip() else None
        async with self.db.write() as session:
            await session.execute(
                update(AccountRow).where(AccountRow.id == account.id, AccountRow.email.is_distinct_from(stored))
                .values(email=stored, email_verified=False)
            )
        return stored

    async def verified(self, account: Account) -> bool:
        """Whether the account's address was verified (False without an address)."""
        async with self.db.session() as session:
            found = await session.scalar(select(AccountRow.email_verified).where(AccountRow.id == account.id))
        return bool(found)

    async def notify(self) -> int:
        """Mail every person a turn-based game waits for and who was not told about this turn yet."""
        if not self.enabled:
            return 0
        sent = 0
        for waiting in await self._waiting():
            if await self._claim(waiting):
                sent += await self._send(waiting)
        return sent

    async def _waiting(self) -> list[Waiting]:
        query = (
            select(SeatRow.table_id, TableRow.game, SeatRow.seat, SeatRow.since_ms, AccountRow.email,
                   AccountRow.name, AccountRow.language)
            .join(TableRow, TableRow.id == SeatRow.table_id)
            .join(AccountRow, AccountRow.id == SeatRow.account_id)
            .where(TableRow.status == "playing", TableRow.pace == "turn", SeatRow.since_ms.is_not(None))
            .where(SeatRow.gone.is_(None), SeatRow.bot.is_(None), AccountRow.email.is_not(None))
            .where(AccountRow.email_verified.is_(True))  # only to an address its owner confirmed (recovery)
            .where(or_(SeatRow.mailed_since_ms.is_(None), SeatRow.mailed_since_ms != SeatRow.since_ms))
            .where(SeatRow.since_ms <= self.now_ms() - self.settings.mail_after_seconds * 1000)
            .order_by(SeatRow.since_ms)
        )
        async with self.db.session() as session:
            rows = (await session.execute(query)).all()
        return [
            Waiting(table_id, game, seat, since or 0, email or "", name, language)
            for table_id, game, seat, since, email, name, language in rows
        ]

    async def _claim(self, waiting: Waiting) -> bool:
        async with self.db.write() as session:
            claimed = await session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == waiting.table_id, SeatRow.seat == waiting.seat)
                .where(SeatRow.since_ms == waiting.since_ms)
                .where(or_(SeatRow.mailed_since_ms.is_(None), SeatRow.mailed_since_ms != waiting.since_ms))
                .values(mailed_since_ms=waiting.since_ms)
            )
        return claimed.rowcount == 1  # type: ignore[attr-defined,no-any-return]

    async def _send(self, waiting: Waiting) -> int:
        from spieltafel.server.web.mails import waiting_mail

        subject, body = waiting_mail(waiting.language, waiting.name, waiting.game, waiting.table_id,
                                     self.settings.public_url)
        if not await self.send(waiting.email, subject, body):
            log.error("the 'your turn' e-mail for table %s seat %s was not sent", waiting.table_id, waiting.seat)
            return 0
        return 1

    async def send(self, to: str, subject: str, body: str) -> bool:
        """Send one plain-text mail; False (logged) when the SMTP server refused it or could not be reached."""
        message = EmailMessage()
        message["From"] = self.settings.mail_from
        message["To"] = to
        message["Subject"] = subject
        message.set_content(body)
        try:
            await asyncio.to_thread(self._deliver, message)
        except (OSError, smtplib.SMTPException):
            log.exception("an e-mail (%s) was not sent", subject)
            metrics.email(sent=False)
            return False
        metrics.email(sent=True)
        return True

    def _deliver(self, message: EmailMessage) -> None:
        settings = self.settings
        assert settings.smtp_host is not None
        kind = smtplib.SMTP_SSL if settings.smtp_security == "ssl" else smtplib.SMTP
        with kind(settings.smtp_host, settings.smtp_port, timeout=SMTP_TIMEOUT) as smtp:
            if settings.smtp_security == "starttls":
                smtp.starttls()
            if settings.smtp_user:
                smtp.login(settings.smtp_user, settings.smtp_password or "")
            smtp.send_message(message)
