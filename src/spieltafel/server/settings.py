"""Server settings: read from ``SPIELTAFEL_*`` environment variables or given by ``spieltafel serve``."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATA_DIR = Path("spieltafel-data")
"""The data folder when none is given: ``spieltafel-data/`` in the current directory."""

MAX_MESSAGE_BYTES = 16 * 1024
"""The largest API body or WebSocket message the server accepts."""

MAX_PAGE_BODY_BYTES = 2 * 1024 * 1024
"""The largest body of a page's form (a record upload, at most 1 MB of JSON, is the largest)."""

HINT_MARGIN_SECONDS = 3.0
"""What ``bot_job_timeout`` must exceed beyond twice ``hint_seconds`` on a site with Redis."""


class Settings(BaseSettings):
    """Where the data lives and how the server behaves; every field has a ``SPIELTAFEL_`` variable."""

    model_config = SettingsConfigDict(env_prefix="SPIELTAFEL_", extra="ignore")

    data_dir: Path = Field(default=DEFAULT_DATA_DIR, description="folder of the SQLite database and the secret key")
    database_url: str | None = Field(default=None, description="SQLAlchemy async URL; default: SQLite in data_dir")
    redis_url: str | None = Field(
        default=None, description="Redis: fan-out between processes and the bots' job queue; default: in memory"
    )
    redis_prefix: str = Field(
        default="spieltafel", pattern=r"^[A-Za-z0-9_.:-]{1,40}$", description="prefix of this site's Redis keys"
    )
    secret_key: str = Field(default="", description="server secret; default: generated once into data_dir")
    bot_workers: int = Field(
        default=2, ge=0, le=64, description="processes that run the bots' thinking (0: only `spieltafel worker`s)"
    )
    bot_job_timeout: float = Field(
        default=15.0, gt=0, le=3600, description="seconds after which a bot job taken by a dead process is retaken"
    )
    analysis_iterations: int = Field(
        default=1000, ge=1, le=100_000, description="search iterations per decision of a post-game analysis"
    )
    hint_seconds: float = Field(
        default=1.0, gt=0, le=30, description="seconds of search per hint during a game (the expert bot's 1 s)"
    )
    hint_iterations: int | None = Field(
        default=None, ge=1, le=100_000, description="an iteration cap per hint as well (none: the time alone)"
    )
    analysis_at_once: int = Field(
        default=1, ge=1, le=64,
        description="post-game analyses a server process computes at the same time (more wait their turn; "
        "docs/performance.md: one keeps a bot worker free for the bots' moves)",
    )
    hint_slots: int | None = Field(
        default=None, ge=1, le=64,
        description="hints computed at once per process with bot workers (none: half of them, at least 1); in a "
        "process without, the hints in flight on the whole site (none: what the workers there take); more: 503 busy",
    )
    recent_events: int = Field(default=16, ge=0, le=1000, description="events kept for the state's 'events'")
    secure_cookies: bool = Field(default=False, description="always mark cookies Secure (set behind HTTPS)")
    forwarded_allow_ips: str = Field(
        default="127.0.0.1", description="proxies trusted for X-Forwarded-Proto/-For (comma-separated; '*' any)"
    )
    rate_limits: dict[str, str] = Field(
        default_factory=dict, description="overrides of the rate limits by name (see ratelimit.DEFAULT_LIMITS)"
    )
    cors_origins: list[str] = Field(
        default_factory=list, description="other sites whose pages may call the API with a token; none by default"
    )
    tune_collector: bool = Field(
        default=False,
        description="freeze the start-up heap and make the cyclic garbage collector's passes rarer "
        "(`spieltafel serve` turns it on; server.app.tune_collector)",
    )
    sweep_seconds: float = Field(
        default=1.0, ge=0.0, le=3600.0, description="how often this process sweeps missed deadlines (0: never)"
    )
    open_table_expiry_minutes: int = Field(
        default=1440, ge=0, le=525_600,
        description="minutes an open turn-based table (or one without a time limit) waits without a seat taken or "
        "given up before the sweep closes it (0: never)",
    )
    open_live_table_expiry_minutes: int = Field(
        default=30, ge=0, le=525_600,
        description="the same for an open table with a live time limit (0: never)",
    )
    smtp_host: str | None = Field(default=None, description="SMTP server for 'your turn' e-mails; none: no e-mail")
    smtp_port: int = Field(default=587, ge=1, le=65535, description="the SMTP server's port")
    smtp_security: Literal["starttls", "ssl", "none"] = Field(default="starttls", description="how to talk to it")
    smtp_user: str | None = Field(default=None, description="SMTP login name, if it needs one")
    smtp_password: str | None = Field(default=None, description="SMTP password, if it needs one")
    mail_from: str = Field(default="Spieltafel <spieltafel@localhost>", description="the e-mails' sender")
    mail_after_seconds: int = Field(
        default=300, ge=0, le=86400, description="how long a turn-based game waits before the e-mail goes out"
    )
    public_url: str | None = Field(default=None, description="the server's address in e-mails' links")
    log_format: Literal["text", "json"] = Field(
        default="text", description="the logs: plain lines, or one JSON object per line (server.ops.logs)"
    )
    metrics: bool = Field(default=False, description="answer GET /metrics (Prometheus format; server.ops.metrics)")
    metrics_allow_ips: str = Field(
        default="127.0.0.1,::1", description="addresses or networks that may read /metrics (comma-separated; '*' any)"
    )

    @model_validator(mode="after")
    def _bots_need_a_queue(self) -> Settings:
        if self.bot_workers == 0 and not self.redis_url:
            raise ValueError("bot_workers 0 needs redis_url: without Redis no worker can take the bots' jobs")
        return self

    @model_validator(mode="after")
    def _hints_within_the_job_timeout(self) -> Settings:
        """On Redis a hint job is taken again after ``bot_job_timeout``: its search (twice ``hint_seconds``,
        the time to wait for a worker and to search) and a margin must fit in it."""
        needed = 2 * self.hint_seconds + HINT_MARGIN_SECONDS
        if self.redis_url and not needed < self.bot_job_timeout:
            raise ValueError(
                f"bot_job_timeout ({self.bot_job_timeout:g} s) must be more than 2 × hint_seconds + "
                f"{HINT_MARGIN_SECONDS:g} s ({needed:g} s): else a hint still being worked out is taken again "
                "by another worker; raise bot_job_timeout or lower hint_seconds"
            )
        return self

    def resolved_database_url(self) -> str:
        """The database URL in use: the configured one, else ``spieltafel.db`` in the data folder."""
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{(self.data_dir / 'spieltafel.db').resolve()}"

    def database_kind(self) -> str:
        """``sqlite`` or ``postgresql`` (the dialect name of the database URL)."""
        return self.resolved_database_url().split(":", 1)[0].split("+", 1)[0]

    def prepare(self) -> Settings:
        """Create the data folder (for SQLite) and load or create the secret key; returns self."""
        if self.database_kind() == "sqlite" and not self.database_url:
            self.data_dir.mkdir(parents=True, exist_ok=True)
        if not self.secret_key:
            self.secret_key = _stored_secret(self.data_dir)
        return self


def _stored_secret(data_dir: Path) -> str:
    """The secret kept in ``data_dir/secret.key``, created on first use (readable by the owner only)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "secret.key"
    if path.exists():
        return path.read_text(encoding="utf-8").strip()
    key = secrets.token_urlsafe(32)
    path.write_text(key + "\n", encoding="utf-8")
    path.chmod(0o600)
    return key
