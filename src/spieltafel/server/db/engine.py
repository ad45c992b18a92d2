"""The async engine (SQLite in WAL mode by default) and the migrations run on start."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]  # no stubs; used for its errors only
from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, event, text
from sqlalchemy.exc import DisconnectionError, IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

MIGRATIONS = Path(__file__).with_name("migrations")
HEALTH_TIMEOUT = 2.0
POOL_SIZE = 30
MAX_OVERFLOW = 0
"""Connections a process keeps to a database server (PostgreSQL), and how many more it may open for a
while under load. Too few kept ones made a loaded server open and close a connection (TLS attempt,
authentication) for most of its transactions; "more for a while" did the same under a steady load of
1,000 tables (connections opened and closed at 8% of a server's CPU), so the pool keeps all it may
have: a transaction waits for one instead (docs/performance.md). Mind PostgreSQL's
``max_connections`` (100 by default): 30 per server and worker process (docs/deploy.md)."""
IDLE_PING_SECONDS = 10.0


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic configuration pointing at the migrations inside the installed package."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def _upgrade(connection: Connection) -> None:
    command.upgrade(alembic_config(connection), "head")


MIGRATION_LOCK = 0x53_70_69_65_6C_74
"""The PostgreSQL advisory lock that makes processes starting at once on a new database migrate one after
the other (without it two could both create the schema, and one failed on a duplicate type)."""


SQLITE_MIGRATION_WAIT_MS = 120_000
"""How long a process starting on an SQLite file waits for another's migration (the file's write lock)."""


async def migrate(engine: AsyncEngine) -> None:
    """Create or upgrade the schema to the newest migration, one process after the other. On PostgreSQL under
    an advisory lock held until the migration's transaction ends: a process that waited for it finds the
    schema made. On SQLite likewise under the file's write lock (``BEGIN IMMEDIATE``), and with foreign keys
    off, as SQLite's way of changing a table asks (a rebuilt table is dropped and made again: with them on,
    the drop would cascade to the rows that refer to it); they are checked afterwards and the connection is
    not used again."""
    if engine.dialect.name == "sqlite":
        await _migrate_sqlite(engine)
        return
    async with engine.begin() as connection:
        await connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        await connection.run_sync(_upgrade)


async def _migrate_sqlite(engine: AsyncEngine) -> None:
    async with engine.connect() as connection:
        await connection.exec_driver_sql("PRAGMA foreign_keys=OFF")  # outside a transaction, or it is ignored
        await connection.exec_driver_sql(f"PRAGMA busy_timeout={SQLITE_MIGRATION_WAIT_MS}")
        await connection.commit()
        try:
            async with connection.begin():
                # Python's sqlite3 begins no transaction before DDL: without this, two processes starting on a
                # new file both read "no schema" and both created it ("table accounts already exists").
                # IMMEDIATE takes the write lock at once; the other processes wait here, then find it made.
                await connection.exec_driver_sql("BEGIN IMMEDIATE")
                await connection.run_sync(_upgrade)
                broken = (await connection.exec_driver_sql("PRAGMA foreign_key_check")).all()
                if broken:
                    raise RuntimeError(f"the migration left rows that refer to missing ones: {broken[:5]}")
        finally:
            await connection.invalidate()  # its pragmas differ from the pool's: never hand it out again


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def _ping_when_idle(engine: AsyncEngine) -> None:
    """Check a pooled connection before use only when it lay unused for ``IDLE_PING_SECONDS`` (a restarted
    database, a dropped idle connection), and then take a fresh one. SQLAlchemy's ``pool_pre_ping``
    checks before every use: with asyncpg that is BEGIN, a ping and ROLLBACK, three round trips more
    per transaction (docs/performance.md)."""
    dialect = engine.dialect

    def stamp(_dbapi_connection: Any, record: Any, *_: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    def check(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        if time.monotonic() - record.info.get("idle_since", 0.0) < IDLE_PING_SECONDS:
            return
        try:
            dialect.do_ping(dbapi_connection)
        except Exception as error:  # the pool drops this connection and checks out another
            raise DisconnectionError(f"a pooled connection failed its ping: {error}") from error

    pool = engine.sync_engine.pool
    event.listen(pool, "connect", stamp)
    event.listen(pool, "checkin", stamp)
    event.listen(pool, "checkout", check)


class Database:
    """The engine and a session factory for one database URL."""

    def __init__(self, url: str) -> None:
        self.url = url
        sqlite = url.startswith("sqlite")
        pool: dict[str, Any] = {} if sqlite else {"pool_size": POOL_SIZE, "max_overflow": MAX_OVERFLOW}
        self.engine = create_async_engine(url, **pool)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        else:
            _ping_when_idle(self.engine)
        self.session = async_sessionmaker(self.engine, expire_on_commit=False, class_=AsyncSession)
        self._autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        self._writer = asyncio.Lock()

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        """A session in a transaction that commits on leaving. SQLite has one writer at a time, so on
        SQLite this process's writers take turns here instead of waiting on the file lock."""
        if self.kind == "sqlite":
            async with self._writer, self.session.begin() as session:
                yield session
        else:
            async with self.session.begin() as session:
                yield session

    async def fetch_alone(self, sql: str, *arguments: Any) -> list[Any]:
        """Run one statement on PostgreSQL straight through asyncpg (its own prepared-statement cache) on a
        pooled connection in autocommit: committed when it returns, with no BEGIN and COMMIT and none of
        SQLAlchemy's per-call work (the group commit of moves; docs/performance.md). Returns its rows.
        asyncpg's errors come out as SQLAlchemy's (a broken connection leaves the pool)."""
        async with self._autocommit.connect() as connection:
            driver: Any = (await connection.get_raw_connection()).driver_connection
            try:
                return list(await driver.fetch(sql, *arguments))
            except asyncpg.IntegrityConstraintViolationError as error:
                raise IntegrityError(sql, arguments, error) from error
            except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as error:
                if not isinstance(error, asyncpg.PostgresError) or driver.is_closed():
                    await connection.invalidate()
                raise OperationalError(sql, arguments, error) from error

    @property
    def kind(self) -> str:
        return self.engine.dialect.name

    async def healthy(self) -> bool:
        """Whether the database answers ``SELECT 1`` within ``HEALTH_TIMEOUT`` seconds."""
        try:
            async with asyncio.timeout(HEALTH_TIMEOUT), self.engine.connect() as connection:
                await connection.execute(text("SELECT 1"))
        except (SQLAlchemyError, OSError, TimeoutError):
            return False
        return True

    async def start(self) -> None:
        await migrate(self.engine)

    async def close(self) -> None:
        await self.engine.dispose()
