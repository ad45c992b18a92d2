"""The async engine (SQLite in WAL mode by default) and the migrations run on start."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, event, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

MIGRATIONS = Path(__file__).with_name("migrations")
HEALTH_TIMEOUT = 2.0


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic configuration pointing at the migrations inside the installed package."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def _upgrade(connection: Connection) -> None:
    command.upgrade(alembic_config(connection), "head")


async def migrate(engine: AsyncEngine) -> None:
    """Create or upgrade the schema to the newest migration."""
    async with engine.begin() as connection:
        await connection.run_sync(_upgrade)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


class Database:
    """The engine and a session factory for one database URL."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = create_async_engine(url, pool_pre_ping=not url.startswith("sqlite"))
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self.session = async_sessionmaker(self.engine, expire_on_commit=False, class_=AsyncSession)
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
