"""Password reset and e-mail verification by one-time links (issue 28).

A link's secret is ``<nonce>.<signature>``: 32 random bytes and the HMAC-SHA256 of the link's purpose and
nonce under the server's secret key. A link whose signature is wrong is refused without a database look-up;
a signed one counts only while its row exists (``account_links``, keyed by the SHA-256 of the secret, so a
copy of the database holds no usable link) and has not expired. Using a link deletes its row in the same
transaction that acts on it: it works once.

- **Reset**: asking for one gives the same answer whether or not the name or address belongs to anybody,
  and the mail goes out after the answer (its time tells nothing either). It goes only to a *verified*
  address: a name without one cannot be reset. Rate-limited per client address and per name or address
  asked about (``reset_address``, ``reset_target``). A reset link is valid for an hour; a new one replaces
  the account's older ones. Setting the password through it ends every session, personal token and socket
  of the account (as changing it does) and every other reset link.
- **Verification**: a new address gets a link; only the click on it (within a week) makes the address
  verified, and only the address it was sent to. Changing the address makes it unverified again.
  'Your turn' mails (``notify``) and reset mails go to verified addresses only.

Links in the mails start with ``Settings.public_url``: never with the Host the request named (whoever asks
for another's reset could name their own site there and receive the link).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import re
import secrets
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Final, Literal
from urllib.parse import quote

from sqlalchemy import delete, func, select, update

from spieltafel.server.accounts.service import Account, AccountService, check_password, digest, hash_password
from spieltafel.server.db import AccountRow, Database, LinkRow, SessionRow, TokenRow
from spieltafel.server.errors import Invalid
from spieltafel.server.settings import Settings
from spieltafel.server.social.notify import Notifier, check_email

log = logging.getLogger("spieltafel.server")

RESET_LIFETIME_MS: Final = 3600 * 1000
"""A reset link is valid for one hour."""
VERIFY_LIFETIME_MS: Final = 7 * 24 * 3600 * 1000
"""A verification link is valid for a week."""
MAX_LINK = 200
Purpose = Literal["reset", "verify"]
BAD_LINK = "this link is unknown, was used already or has expired; ask for a new one"


@dataclass(frozen=True, slots=True)
class Recipient:
    account_id: int
    name: str
    email: str
    language: str | None


LINK_SHAPE: Final = re.compile(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+")
"""A link as :meth:`Recovery._new_link` makes it: nonce and signature in URL-safe base64."""


def _sign(key: str, purpose: str, nonce: str) -> str:
    mac = hmac.new(key.encode(), f"{purpose}:{nonce}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")


class Recovery:
    """Reset links, verification links and the mails that carry them."""

    def __init__(
        self, db: Database, settings: Settings, accounts: AccountService, notifier: Notifier,
        now_ms: Callable[[], int],
    ) -> None:
        self.db = db
        self.settings = settings
        self.accounts = accounts
        self.notifier = notifier
        self.now_ms = now_ms
        self._mailing: set[asyncio.Task[None]] = set()

    # links

    def _new_link(self, purpose: Purpose) -> str:
        nonce = secrets.token_urlsafe(32)
        return f"{nonce}.{_sign(self.settings.secret_key, purpose, nonce)}"

    def _signed(self, purpose: Purpose, link: str) -> bool:
        link = link.strip()
        if len(link) > MAX_LINK or not LINK_SHAPE.fullmatch(link):  # URL-safe base64 only: no other text
            return False  # reaches the HMAC (compare_digest refuses non-ASCII, encode() lone surrogates)
        nonce, _, signature = link.partition(".")
        return hmac.compare_digest(signature, _sign(self.settings.secret_key, purpose, nonce))

    def url(self, path: str, link: str) -> str:
        """The address of a link's page (``public_url`` + path; only the path when no public_url is set)."""
        base = (self.settings.public_url or "").rstrip("/")
        return f"{base}{path}?link={quote(link, safe='')}"

    async def _live_link(self, purpose: Purpose, link: str) -> LinkRow:
        """The row of a signed, unused, unexpired link; Invalid ``bad-link`` otherwise."""
        if not self._signed(purpose, link):
            raise Invalid("bad-link", BAD_LINK)
        async with self.db.session() as session:
            row = await session.get(LinkRow, digest(link.strip()))
        if row is None or row.purpose != purpose or row.expires_ms <= self.now_ms():
            raise Invalid("bad-link", BAD_LINK)
        return row

    # mails, sent after the answer

    def _later(self, work: Coroutine[Any, Any, None]) -> None:
        async def logged() -> None:
            try:
                await work
            except Exception:  # nobody awaits the task: say what went wrong
                log.exception("a reset or verification mail was not prepared")

        task = asyncio.create_task(logged())
        self._mailing.add(task)
        task.add_done_callback(self._mailing.discard)

    async def settle(self) -> None:
        """Wait until the mails asked for so far have been sent (tests; shutting down)."""
        while self._mailing:
            await asyncio.gather(*list(self._mailing), return_exceptions=True)

    # password reset

    async def request_reset(self, who: str) -> None:
        """Send a reset link to the verified address of the account named ``who`` (its name in any case) or
        to every account whose verified address ``who`` is. Returns at once and the same way whatever
        ``who`` is; the mails go out afterwards."""
        who = who.strip()[:254]
        if who and self.notifier.enabled:
            self._later(self._mail_resets(who))

    async def _recipients(self, who: str) -> list[Recipient]:
        columns = (AccountRow.id, AccountRow.name, AccountRow.email, AccountRow.language)
        async with self.db.session() as session:
            if "@" in who:
                query = select(*columns).where(func.lower(AccountRow.email) == who.lower())
                rows = (await session.execute(query.where(AccountRow.email_verified.is_(True)))).all()
                return [Recipient(account_id, name, email or "", language)
                        for account_id, name, email, language in rows]
            named = await self.accounts.named(session, who)
        if named is None or not named.email_verified or not named.email:
            return []
        return [Recipient(named.id, named.name, named.email, named.language)]

    async def _mail_resets(self, who: str) -> None:
        from spieltafel.server.web.mails import reset_mail

        for recipient in await self._recipients(who):
            link = self._new_link("reset")
            async with self.db.write() as session:  # a new link replaces the account's older ones
                # Two requests at once (PostgreSQL): each deleted before the other had inserted, and both
                # links stood. The account's row, locked first, puts them one after the other (SQLite writes
                # one at a time anyway: no FOR UPDATE there).
                await session.execute(
                    select(AccountRow.id).where(AccountRow.id == recipient.account_id).with_for_update()
                )
                await session.execute(
                    delete(LinkRow).where(LinkRow.account_id == recipient.account_id, LinkRow.purpose == "reset")
                )
                session.add(LinkRow(id_hash=digest(link), account_id=recipient.account_id, purpose="reset",
                                    email=recipient.email, expires_ms=self.now_ms() + RESET_LIFETIME_MS))
            subject, body = reset_mail(recipient.language, recipient.name, self.url("/password/reset", link))
            await self.notifier.send(recipient.email, subject, body)

    async def check_reset(self, link: str) -> Account:
        """The account a reset link is for (Invalid ``bad-link`` when it is not usable)."""
        row = await self._live_link("reset", link)
        account = await self.accounts.by_id(row.account_id)
        if account is None:
            raise Invalid("bad-link", BAD_LINK)
        return account

    async def reset(self, link: str, password: str) -> Account:
        """Set a new password through a reset link: the link is used up, and every session, personal token,
        reset link and socket of the account ends. A refused password changes nothing (the link still works)."""
        account = await self.check_reset(link)
        check_password(password, account.name)
        hashed = await hash_password(password)
        async with self.db.write() as session:
            used = await session.execute(
                delete(LinkRow).where(LinkRow.id_hash == digest(link.strip()), LinkRow.purpose == "reset",
                                      LinkRow.expires_ms > self.now_ms())
            )
            if used.rowcount != 1:  # type: ignore[attr-defined]  # used meanwhile
                raise Invalid("bad-link", BAD_LINK)
            await session.execute(update(AccountRow).where(AccountRow.id == account.id).values(password_hash=hashed))
            await session.execute(delete(SessionRow).where(SessionRow.account_id == account.id))
            await session.execute(delete(TokenRow).where(TokenRow.account_id == account.id))
            await session.execute(delete(LinkRow).where(LinkRow.account_id == account.id, LinkRow.purpose == "reset"))
        self.accounts.sign_ins_changed(account.id)
        return account

    # e-mail verification

    async def set_email(self, account: Account, address: str | None) -> str | None:
        """Set the account's address (None or "": none). A changed address is unverified and gets a
        verification link (when this server sends mail); the same address again sends a new link while it
        is unverified."""
        stored = await self.notifier.set_email(account, address)
        async with self.db.write() as session:
            await session.execute(delete(LinkRow).where(LinkRow.account_id == account.id, LinkRow.purpose == "verify"))
        if stored is not None and self.notifier.enabled and not await self.notifier.verified(account):
            self._later(self._mail_verification(account, stored))
        return stored

    async def _mail_verification(self, account: Account, address: str) -> None:
        from spieltafel.server.web.mails import verify_mail

        link = self._new_link("verify")
        async with self.db.write() as session:
            session.add(LinkRow(id_hash=digest(link), account_id=account.id, purpose="verify", email=address,
                                expires_ms=self.now_ms() + VERIFY_LIFETIME_MS))
        subject, body = verify_mail(account.language, account.name, address, self.url("/account/verify", link))
        await self.notifier.send(address, subject, body)

    async def verify(self, link: str) -> str:
        """Mark the address a verification link was sent to as verified (if it is still the account's);
        returns the address. The link is used up."""
        row = await self._live_link("verify", link)
        address = check_email(row.email or "")
        async with self.db.write() as session:
            used = await session.execute(delete(LinkRow).where(LinkRow.id_hash == row.id_hash))
            if used.rowcount != 1:  # type: ignore[attr-defined]
                raise Invalid("bad-link", BAD_LINK)
            done = await session.execute(
                update(AccountRow).where(AccountRow.id == row.account_id, AccountRow.email == address)
                .values(email_verified=True)
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]  # the address was changed since
                raise Invalid("bad-link", BAD_LINK)
        return address
