"""The tables. Games are event logs: a table row (game, players, options, secret seed, status), its
seats (an account or a bot level) and the append-only moves ``(table, seq, seat, action)``."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
    true,
)
from sqlalchemy.engine.default import DefaultExecutionContext
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


def folded_name(context: DefaultExecutionContext) -> str:
    """The default of ``name_folded``: the name being inserted, case-folded."""
    name: str = context.get_current_parameters()["name"]  # type: ignore[no-untyped-call]
    return name.casefold()


class AccountRow(Base):
    __tablename__ = "accounts"
    __table_args__ = (Index("uq_accounts_name_folded", "name_folded", unique=True),)  # as migration 0009 made it

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(20), unique=True)
    name_folded: Mapped[str | None] = mapped_column(String(64), nullable=True, default=folded_name)
    """``name.casefold()``: two accounts' names may not differ only by case. NULL for the later account of
    a pair that already did before migration 0009 (both go on by their exact names)."""
    password_hash: Mapped[str] = mapped_column(String(200))
    language: Mapped[str | None] = mapped_column(String(8), nullable=True)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    """Where to tell the person that a turn-based game waits for them (None: no e-mail)."""
    email_verified: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Its owner clicked the link sent to ``email``: only then does it get 'your turn' and reset mails."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    program: Mapped[bool] = mapped_column(Boolean, default=False)
    """A program (a bot or an agent) rather than a person: marked as such wherever it shows."""
    deleted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Deleted by its owner (``leaving``): the row stays for the seats of finished games, emptied (no name,
    password, address or language); those seats show "deleted player"."""
    role: Mapped[str] = mapped_column(String(12), default="player", server_default="player")
    """``player``, ``moderator`` or ``admin`` (``spieltafel admin grant``; server.social.moderation)."""
    muted_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """Until when a moderator muted the account site-wide (it cannot chat), None: not muted."""
    banned: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Banned by a moderator: cannot sign in; its sessions and tokens were ended."""
    confirm_moves: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """"Ask before each move" at the table page (migration 0017): a Confirm for every move; off by default."""


class SessionRow(Base):
    """A signed-in browser session; only the SHA-256 of the session id is stored."""

    __tablename__ = "sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LinkRow(Base):
    """A one-time link sent by e-mail (``recovery``): a password reset or an address verification. Only
    the SHA-256 of the link's secret is stored; the row goes when the link is used or replaced."""

    __tablename__ = "account_links"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    purpose: Mapped[str] = mapped_column(String(10))
    """``reset`` or ``verify``."""
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    """The address a ``verify`` link was sent to (it verifies that address only)."""
    expires_ms: Mapped[int] = mapped_column(BigInteger)


class TokenRow(Base):
    """A personal token for programs; only its SHA-256 is stored (the token is shown once)."""

    __tablename__ = "tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TableRow(Base):
    __tablename__ = "game_tables"
    __table_args__ = (  # unique indexes as migration 0003 made them; the games whose ratings are due (partial)
        Index("uq_game_tables_invite", "invite", unique=True),
        Index("uq_game_tables_rematch_id", "rematch_id", unique=True),
        Index("ix_game_tables_rating_due", "id", postgresql_where=text("rating_due"), sqlite_where=text("rating_due")),
        {"sqlite_autoincrement": True},  # ids are never used twice (migration 0009); PostgreSQL's SERIAL neither
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, str]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(10), index=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    invite: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """A private table's invitation code (None: a public table)."""
    rematch_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The id of the rematch table, once somebody asked for it."""
    # Time limits: pace None (none), "live" (budget_ms per game + increment_ms per move) or "turn"
    # (budget_ms per move). The leaver rule: "bot" (leaver_bot takes the seat) or "out" (ranked last).
    pace: Mapped[str | None] = mapped_column(String(5), nullable=True)
    budget_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    increment_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    leaver: Mapped[str] = mapped_column(String(4), default="bot", server_default="bot")
    leaver_bot: Mapped[str | None] = mapped_column(String(20), nullable=True)
    rating_due: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """The game is over and its finishers (the ratings) have not run yet (``TableService.finish``)."""
    rated: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    """A rated game changes its players' ratings; a casual one (False) changes none (migration 0015)."""
    active_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """An open table's last activity (made, a seat taken or given up; epoch ms): ``tables.expiry`` closes it
    after the site's time. None: not stamped yet (the next sweep does it)."""


class GuestRow(Base):
    """An account that opened a private table's invitation link: it may watch and join that table."""

    __tablename__ = "table_guests"

    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)


class SeatRow(Base):
    """One seat of a table: an account, a bot level, or open (both null)."""

    __tablename__ = "seats"

    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True, index=True)
    bot: Mapped[str | None] = mapped_column(String(20), nullable=True)
    # A person's clock (epoch milliseconds): time left at since_ms (live), the start of the current turn
    # and its deadline (null when not to act). gone: why the person no longer plays ("left", "time").
    clock_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    since_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    deadline_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True, index=True)
    gone: Mapped[str | None] = mapped_column(String(5), nullable=True)
    mailed_since_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """The ``since_ms`` of the turn the person was last e-mailed about (once per waiting game)."""
    hints: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """How many hints the seat's person asked for and got (``server.analysis.hints``, migration 0015)."""


class MoveRow(Base):
    """One applied move. ``seq`` is the number of moves applied before it (0 for the first), so the
    UNIQUE (table_id, seq) constraint lets only one of two racing submissions for a ``seq`` commit."""

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("table_id", "seq", name="uq_moves_table_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[int] = mapped_column(Integer)
    notation: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatRow(Base):
    """One chat message of a table: ``channel`` is ``players`` (seated accounts) or ``spectators``."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    channel: Mapped[str] = mapped_column(String(10))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Hidden by a moderator: no reader gets it any more."""


class ReportRow(Base):
    """A player's report of another account, or of one of its chat lines, for the moderators."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    chat_id: Mapped[int | None] = mapped_column(ForeignKey("chat_messages.id", ondelete="CASCADE"), nullable=True)
    reason: Mapped[str] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AuditRow(Base):
    """One moderator's or admin's action (or a role granted on the command line: no actor)."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True)
    action: Mapped[str] = mapped_column(String(20))
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True)
    chat_id: Mapped[int | None] = mapped_column(ForeignKey("chat_messages.id", ondelete="SET NULL"), nullable=True)
    detail: Mapped[str] = mapped_column(String(500), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class MuteRow(Base):
    """``account_id`` does not want to read ``muted_id``'s chat messages (for this account only)."""

    __tablename__ = "mutes"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    muted_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)


class RatingRow(Base):
    """A player's openskill rating in one game. ``player`` is ``a<account id>`` or ``bot:<level>``."""

    __tablename__ = "ratings"

    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    player: Mapped[str] = mapped_column(String(40), primary_key=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True,
                                                   index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)


class RatingChangeRow(Base):
    """A rating after one finished game; UNIQUE (table, player): each game counts once."""

    __tablename__ = "rating_changes"
    __table_args__ = (UniqueConstraint("table_id", "player", name="uq_rating_changes_table_player"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    player: Mapped[str] = mapped_column(String(40), index=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True,
                                                   index=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"))
    place: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class QuickPlayRow(Base):
    """A person's quick-play request (``tables.quickplay``): waiting while ``table_id`` is NULL, seated once
    the matcher set it (compare-and-set: ``UPDATE … WHERE table_id IS NULL``). One request per account."""

    __tablename__ = "quickplay"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), unique=True)
    game: Mapped[str] = mapped_column(String(40), index=True)
    players: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The player count asked for; None: any."""
    pace: Mapped[str] = mapped_column(String(10))
    rated: Mapped[bool] = mapped_column(Boolean)
    bot: Mapped[str | None] = mapped_column(String(20), nullable=True)
    """The level of the bots that fill the seats left after ``bot_after_s``; None: wait for people only."""
    bot_after_s: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rating: Mapped[float] = mapped_column(Float)
    since_ms: Mapped[int] = mapped_column(BigInteger)
    table_id: Mapped[int | None] = mapped_column(Integer, nullable=True)


class ExpiredTableRow(Base):
    """A lobby notice (``tables.expiry``): the open table ``table_id`` this account sat at expired. Written
    in the same transaction that removed the table (exactly once); the sweep drops notices after a week."""

    __tablename__ = "expired_tables"

    table_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    expired_ms: Mapped[int] = mapped_column(BigInteger, index=True)


class AnalysisRow(Base):
    """A finished table's post-game analysis (issue 27, ``server/analysis``): its progress while the bot
    workers compute it, then ``result``, the :class:`spieltafel.analysis.GameAnalysis` JSON, kept."""

    __tablename__ = "game_analyses"

    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True)
    iterations: Mapped[int] = mapped_column(Integer)
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[str | None] = mapped_column(Text, nullable=True)
    updated_ms: Mapped[int] = mapped_column(BigInteger)
