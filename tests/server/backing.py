"""The backing services of the server tests: SQLite in a temporary folder, or PostgreSQL and Redis.

``SPIELTAFEL_TEST_DATABASE_URL`` (a ``postgresql+asyncpg://`` URL) gives each test a fresh database
created next to the one named there (dropped afterwards); ``SPIELTAFEL_TEST_REDIS_URL`` makes the apps
use Redis for fan-out and bot jobs, each test with its own key prefix. The multi-process tests need
Redis always (``SPIELTAFEL_TEST_REDIS_URL`` or ``redis://127.0.0.1:6379/0``): without it they are
skipped, or fail when ``CI=true``."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import pytest
from redis.asyncio import Redis
from redis.exceptions import RedisError
from sqlalchemy.engine import make_url

TEST_DATABASE_URL = os.environ.get("SPIELTAFEL_TEST_DATABASE_URL") or None
TEST_REDIS_URL = os.environ.get("SPIELTAFEL_TEST_REDIS_URL") or None
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
IN_CI = os.environ.get("CI", "").lower() == "true"


needs_postgres = pytest.mark.skipif(
    TEST_DATABASE_URL is None,
    reason="PostgreSQL only: set SPIELTAFEL_TEST_DATABASE_URL (scripts/server_suite_postgres.py does)",
)
"""For tests of PostgreSQL's own paths (the group commit, the migration lock)."""


def unavailable(reason: str) -> None:
    """Skip the test, or fail it under CI (where the services must be there)."""
    if IN_CI:
        pytest.fail(f"CI=true and {reason}")
    pytest.skip(reason)


async def _postgres(url: str, statement: str) -> None:
    import asyncpg

    parsed = make_url(url).set(drivername="postgresql", database="postgres")
    connection = await asyncpg.connect(parsed.render_as_string(hide_password=False))
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


async def create_database() -> str | None:
    """A fresh PostgreSQL database next to ``SPIELTAFEL_TEST_DATABASE_URL`` (None: use SQLite)."""
    if TEST_DATABASE_URL is None:
        return None
    base = make_url(TEST_DATABASE_URL)
    name = f"{base.database}_{uuid.uuid4().hex[:10]}"
    try:
        await _postgres(TEST_DATABASE_URL, f'CREATE DATABASE "{name}"')
    except OSError as error:
        unavailable(f"PostgreSQL unreachable at {base.render_as_string()}: {error}")
    return base.set(database=name).render_as_string(hide_password=False)


async def drop_database(url: str | None) -> None:
    if url is not None:
        name = make_url(url).database
        await _postgres(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@asynccontextmanager
async def fresh_database() -> AsyncIterator[str | None]:
    url = await create_database()
    try:
        yield url
    finally:
        await drop_database(url)


@contextmanager
def fresh_database_sync() -> Iterator[str | None]:
    url = asyncio.run(create_database())
    try:
        yield url
    finally:
        asyncio.run(drop_database(url))


def redis_prefix() -> str:
    return f"sttest-{uuid.uuid4().hex[:10]}"


async def _forget(url: str, prefix: str) -> None:
    redis = Redis.from_url(url)
    try:
        keys = [key async for key in redis.scan_iter(match=f"{prefix}:*")]
        if keys:
            await redis.delete(*keys)
    finally:
        await redis.aclose()


async def reachable_redis() -> str:
    """The Redis URL of the multi-process tests (skip, or fail in CI, when it does not answer)."""
    url = TEST_REDIS_URL or DEFAULT_REDIS_URL
    redis = Redis.from_url(url, socket_connect_timeout=2)
    try:
        await redis.ping()
    except (RedisError, OSError) as error:
        unavailable(f"Redis unreachable at {url} ({error}); set SPIELTAFEL_TEST_REDIS_URL")
    finally:
        await redis.aclose()
    return url


@asynccontextmanager
async def redis_keys(url: str | None) -> AsyncIterator[str]:
    """A fresh key prefix, its keys deleted afterwards."""
    prefix = redis_prefix()
    try:
        yield prefix
    finally:
        if url is not None:
            await _forget(url, prefix)


async def site_database(folder: Path) -> str:
    """The database URL of a multi-process test: a fresh PostgreSQL database, or SQLite in ``folder``."""
    return await create_database() or f"sqlite+aiosqlite:///{folder / 'site.db'}"


async def drop_site_database(url: str) -> None:
    if url.startswith("postgresql"):
        await drop_database(url)
