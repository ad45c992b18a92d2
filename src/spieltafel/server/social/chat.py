"""Table chat and muting.

Each table has two channels: ``players`` (written by the seated accounts, read by everyone at the
table) and ``spectators`` (written and read by those watching; players do not see it, so nobody
whispers advice to a player). Messages are plain text, kept with the table (a turn-based game's talk
stays), at most :data:`MAX_CHAT_CHARS` characters, at most :data:`RATE_MESSAGES` per account in
:data:`RATE_SECONDS` seconds (the ``chat`` rate limit; with Redis counted for the whole site, whichever
server process the messages go through). Muting is per reader: a muted account's messages are left out of what
that reader receives, for every table.

Only a signal (the new message id) goes through the chat hub; each connection then reads from the
database what its own reader may see, so nothing reader-specific travels through the hub. With Redis the
chat hub is a :class:`~spieltafel.server.realtime.hub.RedisHub` on ``<prefix>:chat``: a message said through one
server process reaches the readers of every other one.
"""

from __future__ import annotations

import time
import unicodedata
from collections import deque
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from limits import parse
from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite

from spieltafel.server.accounts.service import Account
from spieltafel.server.db import AccountRow, ChatRow, Database, MuteRow
from spieltafel.server.errors import Invalid, NotFound, TooMany, Unauthenticated
from spieltafel.server.ratelimit import DEFAULT_LIMITS, RateLimited, RateLimits
from spieltafel.server.realtime.hub import Hub
from spieltafel.server.social.sanctions import refuse_if_muted
from spieltafel.server.tables.service import TableService

MAX_CHAT_CHARS = 500
_DEFAULT_CHAT_LIMIT = parse(DEFAULT_LIMITS["chat"])
RATE_MESSAGES = _DEFAULT_CHAT_LIMIT.amount
RATE_SECONDS = float(_DEFAULT_CHAT_LIMIT.get_expiry())
HISTORY = 200
CHANNELS = ("players", "spectators")


JOINERS = frozenset("\u200c\u200d")
"""The zero-width non-joiner and joiner: invisible, but Persian, Indic scripts and emoji sequences need them."""


def hidden_character(text: str) -> str | None:
    """The first character of ``text`` that would hide text or change how the text around it shows, or None.

    Control characters (but line feed and tab), lone surrogates, line and paragraph separators and the
    invisible format characters (Unicode category Cf): the bidirectional controls U+202A–U+202E,
    U+2066–U+2069, U+200E, U+200F, U+061C, which make a line read as someone else's or in another order,
    zero-width spaces, the byte order mark, soft hyphens and the tag characters that can carry hidden
    text. Only the joiners (:data:`JOINERS`) are allowed."""
    for character in text:
        category = unicodedata.category(character)
        if category in ("Cc", "Cs", "Zl", "Zp") and character not in "\n\t":
            return character
        if category == "Cf" and character not in JOINERS:
            return character
    return None


def check_text(text: str) -> str:
    """The message as it will be kept: line ends unified, blank ends trimmed; refusals say why."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not text:
        raise Invalid("empty", "a chat message needs some text")
    if len(text) > MAX_CHAT_CHARS:
        raise Invalid("too-long", f"a chat message has at most {MAX_CHAT_CHARS} characters, not {len(text)}")
    hidden = hidden_character(text)
    if hidden is not None:
        raise Invalid("bad-text", f"a chat message is plain text: no control characters and no invisible "
                                  f"formatting characters that hide text or turn its direction (U+{ord(hidden):04X})")
    return text


def _iso(moment: datetime) -> str:
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).isoformat(timespec="seconds")


class ChatService:
    """Say something at a table, read what one may read, mute and unmute accounts."""

    def __init__(
        self, db: Database, tables: TableService, hub: Hub, clock: Callable[[], float] = time.monotonic,
        shared: RateLimits | None = None,
    ) -> None:
        """``shared``: the site's rate limits, whose ``chat`` counters (in Redis) every server process
        shares; without it the limit is counted here only (one process: the whole site)."""
        self.db = db
        self.tables = tables
        self.hub = hub
        self.clock = clock
        self.shared = shared
        self._sent: dict[int, deque[float]] = {}

    async def say(self, account: Account | None, table_id: int, text: str) -> dict[str, Any]:
        """Keep ``text`` in the caller's channel (players when seated) and tell the table's watchers."""
        if account is None:
            raise Unauthenticated("signed-out", "sign in (session cookie or Bearer token) to chat")
        await refuse_if_muted(self.db, account.id)  # a moderator's site-wide mute
        text = check_text(text)
        seat = await self.tables.seat_of(table_id, account)
        channel = CHANNELS[0] if seat is not None else CHANNELS[1]
        self._throttle(account)
        await self._throttle_site_wide(account)
        async with self.db.write() as session:
            row = ChatRow(table_id=table_id, account_id=account.id, channel=channel, text=text)
            session.add(row)
            await session.flush()
        self.hub.publish(table_id, row.id)
        return {"id": row.id, "channel": channel, "name": account.name, "program": account.program, "text": text,
                "at": _iso(row.created_at)}

    def _throttle(self, account: Account) -> None:
        now = self.clock()
        sent = self._sent.setdefault(account.id, deque())
        while sent and sent[0] <= now - RATE_SECONDS:
            sent.popleft()
        if len(sent) >= RATE_MESSAGES:
            wait = max(1, round(sent[0] + RATE_SECONDS - now))
            raise TooMany("too-fast", f"at most {RATE_MESSAGES} chat messages in {RATE_SECONDS:g} seconds; "
                                      f"wait {wait} s")
        sent.append(now)

    async def _throttle_site_wide(self, account: Account) -> None:
        """The same limit counted for every server process together (in Redis), when configured."""
        if self.shared is None:
            return
        try:
            await self.shared.hit("chat", str(account.id), "chat messages")
        except RateLimited as limited:
            raise TooMany("too-fast", f"at most {RATE_MESSAGES} chat messages in {RATE_SECONDS:g} seconds; "
                                      f"wait {limited.retry_after} s") from limited

    async def history(self, table_id: int, account: Account | None, after: int = 0) -> list[dict[str, Any]]:
        """The messages ``account`` may read at the table (the latest 200, oldest first), after id ``after``."""
        seat = await self.tables.seat_of(table_id, account)
        channels = CHANNELS[:1] if seat is not None else CHANNELS
        query = (
            select(ChatRow.id, ChatRow.channel, AccountRow.name, AccountRow.program, ChatRow.text, ChatRow.created_at)
            .join(AccountRow, AccountRow.id == ChatRow.account_id)
            .where(ChatRow.table_id == table_id, ChatRow.channel.in_(channels), ChatRow.id > after,
                   ChatRow.hidden.is_(False))
            .order_by(ChatRow.id.desc()).limit(HISTORY)
        )
        if account is not None:
            muted = select(MuteRow.muted_id).where(MuteRow.account_id == account.id)
            query = query.where(ChatRow.account_id.not_in(muted))
        async with self.db.session() as session:
            rows = (await session.execute(query)).all()
        return [
            {"id": id_, "channel": channel, "name": name, "program": bool(program), "text": text, "at": _iso(at)}
            for id_, channel, name, program, text, at in reversed(rows)
        ]

    async def mutes(self, account: Account) -> list[str]:
        """The names ``account`` has muted, sorted."""
        async with self.db.session() as session:
            rows = await session.execute(
                select(AccountRow.name).join(MuteRow, MuteRow.muted_id == AccountRow.id)
                .where(MuteRow.account_id == account.id).order_by(AccountRow.name)
            )
            return list(rows.scalars().all())

    async def mute(self, account: Account, name: str, muted: bool = True) -> None:
        """Mute (or unmute) ``name`` for ``account`` alone; muting twice is the same as once."""
        async with self.db.write() as session:
            other = await session.scalar(select(AccountRow.id).where(AccountRow.name == name))
            if other is None:
                raise NotFound("no-account", f"there is no account {name[:60]!r}")
            if other == account.id:
                raise Invalid("bad-mute", "you cannot mute yourself")
            if not muted:
                await session.execute(delete(MuteRow).where(MuteRow.account_id == account.id,
                                                            MuteRow.muted_id == other))
                return
            insert = postgresql.insert if self.db.kind == "postgresql" else sqlite.insert
            await session.execute(
                insert(MuteRow).values(account_id=account.id, muted_id=other).on_conflict_do_nothing()
            )
