"""Accounts, sign-in sessions and personal tokens.

Passwords are hashed with argon2id (argon2-cffi) off the event loop. Session ids and tokens are
random (256 bits) and stored only as their SHA-256, so a copy of the database lets nobody in.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Literal

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from spieltafel.server.db import AccountRow, Database, SessionRow, TokenRow
from spieltafel.server.errors import Conflict, Forbidden, Invalid, NotFound, Unauthenticated
from spieltafel.server.realtime.hub import Hub
from spieltafel.server.social.sanctions import banned_message

NAME_PATTERN = re.compile(r"[A-Za-z0-9_-]{3,20}")
MIN_PASSWORD = 8
MAX_PASSWORD = 256
LANGUAGES = ("en", "de", "nl")
TOKEN_PREFIX = "stt_"
"""Personal tokens look like ``stt_`` + 43 URL-safe characters (32 random bytes)."""

SESSION_LIFETIME = timedelta(days=30)
"""A session ends on the server after this long, whatever its cookie says."""
DELETED_NAME = "deleted player"
"""What a deleted account's seats show, in the API, the pages and the records."""

COMMON_PASSWORDS = Path(__file__).with_name("data") / "common-passwords.txt.gz"
"""The 20,000 most common passwords (Royce Williams' list as shipped by Django, BSD licence), lower case."""

_hasher = PasswordHasher()
_WRONG = "wrong name or password"
_DUMMY_HASH = _hasher.hash("not a password of anybody")


async def hash_password(password: str) -> str:
    """The password's argon2id hash, made off the event loop."""
    return await asyncio.to_thread(_hasher.hash, password)


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str
    language: str | None
    program: bool = False


@dataclass(frozen=True, slots=True)
class Credential:
    """What a request or socket signed in with: a session id (the cookie) or a personal token. Kept by an
    open socket, which checks it again when its account's sign-ins change (``sign_ins_changed``)."""

    kind: Literal["session", "token"]
    secret: str


def digest(secret: str) -> str:
    """The stored form of a session id or token."""
    return hashlib.sha256(secret.encode()).hexdigest()


def check_name(name: str) -> None:
    if not NAME_PATTERN.fullmatch(name):
        raise Invalid("bad-name", "a name has 3 to 20 characters, each a letter A-Z or a-z, a digit, '_' or '-'")


@cache
def common_passwords() -> frozenset[str]:
    with gzip.open(COMMON_PASSWORDS, "rt", encoding="utf-8") as handle:
        return frozenset(line.strip().lower() for line in handle if line.strip())


def check_password(password: str, name: str = "") -> None:
    """Refuse passwords that are too short, too long, common or the account's name."""
    if len(password) < MIN_PASSWORD:
        raise Invalid("bad-password", f"a password has at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise Invalid("bad-password", f"a password has at most {MAX_PASSWORD} characters")
    if password.strip().lower() in common_passwords():
        raise Invalid("common-password", "this password is among the 20,000 most common ones; choose another")
    if name and name.lower() in password.lower():
        raise Invalid("bad-password", "a password must not contain the account's name")


@dataclass(frozen=True, slots=True)
class TokenInfo:
    """A personal token as listed: never the token itself (it was shown once)."""

    id: int
    created_at: datetime


def _aware(moment: datetime) -> datetime:
    """A stored time in UTC with its zone (SQLite gives it back without one)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _account(row: AccountRow) -> Account:
    return Account(row.id, row.name, row.language, bool(row.program))


def _verify(stored: str, password: str) -> bool:
    try:
        return _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


class AccountService:
    """Create accounts, sign in and out, issue tokens, find the account behind a session or token.

    Whenever a session or token ends, the account's id goes through ``sign_ins`` (a hub keyed by account:
    in-process, or over Redis to every server process of the site): each socket of that account then
    checks its own credential again and closes when it has ended (``ws``)."""

    def __init__(self, db: Database, sign_ins: Hub | None = None) -> None:
        self.db = db
        self.sign_ins = sign_ins or Hub()

    def sign_ins_changed(self, account_id: int) -> None:
        """Tell every process that a session or token of the account ended (after the commit)."""
        self.sign_ins.publish(account_id, 0)

    async def create(self, name: str, password: str, program: bool = False) -> Account:
        """A new account; 409 ``name-taken`` when the name is another's, also one differing only by case."""
        check_name(name)
        check_password(password, name)
        await self._refuse_taken(name)
        hashed = await hash_password(password)
        try:
            async with self.db.write() as session:
                row = AccountRow(name=name, name_folded=name.casefold(), password_hash=hashed, program=program)
                session.add(row)
                await session.flush()
                return _account(row)
        except IntegrityError as error:  # taken meanwhile
            raise Conflict("name-taken", f"the name {name!r} is taken; choose another") from error

    async def _refuse_taken(self, name: str) -> None:
        async with self.db.session() as session:
            taken = await session.scalar(select(AccountRow.name).where(AccountRow.name_folded == name.casefold()))
        if taken == name:
            raise Conflict("name-taken", f"the name {name!r} is taken; choose another")
        if taken is not None:
            raise Conflict("name-taken", f"the name {name!r} is taken: {taken!r} differs from it only by case, and "
                                         "names must differ by more than case; choose another")

    async def named(self, session: AsyncSession, name: str) -> AccountRow | None:
        """The account a sign-in means by ``name``: the one of exactly that name, else the one whose name
        differs only by case; none when several do (two accounts that already differed only by case before
        names were folded: each signs in by its exact name)."""
        exact = (await session.execute(select(AccountRow).where(AccountRow.name == name))).scalar_one_or_none()
        if exact is not None:
            return exact
        folded = name.casefold()
        found = await session.execute(
            select(AccountRow).where(or_(AccountRow.name_folded == folded, AccountRow.name_folded.is_(None)))
        )
        alike = [row for row in found.scalars() if row.name.casefold() == folded]
        return alike[0] if len(alike) == 1 else None

    async def name_clashes(self) -> list[tuple[str, str]]:
        """(older, later) names of accounts that differ only by case, from before names were folded
        (migration 0010): both go on by their exact names; a sign-in by any other spelling finds neither."""
        async with self.db.session() as session:
            later = (await session.execute(select(AccountRow.name).where(AccountRow.name_folded.is_(None)))).scalars()
            names = list(later)
            if not names:
                return []
            older = await session.execute(
                select(AccountRow.name_folded, AccountRow.name)
                .where(AccountRow.name_folded.in_({name.casefold() for name in names}))
            )
            first = dict(older.all())
        return [(first.get(name.casefold(), "?"), name) for name in sorted(names)]

    async def authenticate(self, name: str, password: str) -> Account:
        """The account for these credentials (the name in any case, :meth:`named`); the same refusal for an
        unknown name and a wrong password."""
        async with self.db.session() as session:
            row = await self.named(session, name)
        stored = row.password_hash if row is not None else _DUMMY_HASH
        ok = await asyncio.to_thread(_verify, stored, password)
        if row is None or not ok:
            raise Unauthenticated("wrong-credentials", _WRONG)
        if row.banned:
            raise Forbidden("banned", banned_message(row.language))
        return _account(row)

    async def open_session(self, account: Account) -> str:
        session_id = secrets.token_urlsafe(32)
        async with self.db.write() as session:
            session.add(SessionRow(id_hash=digest(session_id), account_id=account.id))
        return session_id

    async def close_session(self, session_id: str) -> None:
        async with self.db.write() as session:
            ended = await session.execute(
                delete(SessionRow).where(SessionRow.id_hash == digest(session_id)).returning(SessionRow.account_id)
            )
            owners = set(ended.scalars())
        for account_id in owners:
            self.sign_ins_changed(account_id)

    async def change_password(self, account: Account, current: str, new: str) -> None:
        """Check the current password, store the new one and end every session and every personal token
        of the account (as GitHub and lichess do: whoever knew the old password may have made either)."""
        try:
            await self.authenticate(account.name, current)
        except Unauthenticated as error:
            raise Forbidden("wrong-password", "the current password is wrong; nothing was changed") from error
        check_password(new, account.name)
        hashed = await hash_password(new)
        async with self.db.write() as session:
            await session.execute(update(AccountRow).where(AccountRow.id == account.id).values(password_hash=hashed))
            await session.execute(delete(SessionRow).where(SessionRow.account_id == account.id))
            await session.execute(delete(TokenRow).where(TokenRow.account_id == account.id))
        self.sign_ins_changed(account.id)

    async def mark_program(self, account: Account, program: bool) -> None:
        """Say whether the account is a program (marked as such on seats, boards, profiles and chat)."""
        async with self.db.write() as session:
            await session.execute(update(AccountRow).where(AccountRow.id == account.id).values(program=program))

    async def create_token(self, account: Account) -> str:
        """A new personal token; only its hash is kept, so it is shown this once."""
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        async with self.db.write() as session:
            session.add(TokenRow(token_hash=digest(token), account_id=account.id))
        return token

    async def tokens(self, account: Account) -> list[TokenInfo]:
        async with self.db.session() as session:
            rows = await session.execute(
                select(TokenRow.id, TokenRow.created_at).where(TokenRow.account_id == account.id).order_by(TokenRow.id)
            )
            return [TokenInfo(token_id, _aware(created)) for token_id, created in rows.all()]

    async def revoke_token(self, account: Account, token_id: int) -> None:
        """End one of the account's tokens (NotFound for another account's token or none)."""
        async with self.db.write() as session:
            gone = await session.execute(
                delete(TokenRow).where(TokenRow.id == token_id, TokenRow.account_id == account.id)
            )
            if gone.rowcount != 1:  # type: ignore[attr-defined]
                raise NotFound("no-token", f"you have no token {token_id}")
        self.sign_ins_changed(account.id)

    async def set_language(self, account: Account, language: str | None) -> None:
        if language is not None and language not in LANGUAGES:
            raise Invalid("bad-language", f"language {language!r} is not offered; choose one of {', '.join(LANGUAGES)}")
        async with self.db.write() as session:
            await session.execute(update(AccountRow).where(AccountRow.id == account.id).values(language=language))

    async def confirm_moves(self, account: Account) -> bool:
        """Whether the account asks for a Confirm before each move at the table page (off by default)."""
        async with self.db.session() as session:
            found = await session.scalar(select(AccountRow.confirm_moves).where(AccountRow.id == account.id))
        return bool(found)

    async def set_confirm_moves(self, account: Account, on: bool) -> None:
        """Remember "Ask before each move" on the account (every device of its owner shows it)."""
        async with self.db.write() as session:
            await session.execute(update(AccountRow).where(AccountRow.id == account.id).values(confirm_moves=on))

    async def by_session(self, session_id: str) -> Account | None:
        query = select(AccountRow).join(SessionRow, SessionRow.account_id == AccountRow.id)
        fresh = SessionRow.created_at > datetime.now(UTC) - SESSION_LIFETIME
        return await self._one(query.where(SessionRow.id_hash == digest(session_id), fresh))

    async def by_token(self, token: str) -> Account | None:
        query = select(AccountRow).join(TokenRow, TokenRow.account_id == AccountRow.id)
        return await self._one(query.where(TokenRow.token_hash == digest(token)))

    async def by_credential(self, credential: Credential) -> Account | None:
        """The account behind a session id or token, None once it has ended."""
        if credential.kind == "token":
            return await self.by_token(credential.secret)
        return await self.by_session(credential.secret)

    async def by_id(self, account_id: int) -> Account | None:
        return await self._one(select(AccountRow).where(AccountRow.id == account_id))

    async def _one(self, query: object) -> Account | None:
        async with self.db.session() as session:
            row = (await session.execute(query)).scalar_one_or_none()  # type: ignore[call-overload]
        return _account(row) if row is not None and not row.banned else None
