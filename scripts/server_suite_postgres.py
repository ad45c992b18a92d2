"""Run the server test suite on PostgreSQL + Redis, in a fresh database that is dropped afterwards.

    python scripts/server_suite_postgres.py [pytest arguments...]

The services: ``SPIELTAFEL_CI_POSTGRES_URL`` (default ``postgresql+asyncpg://postgres@127.0.0.1:5432/postgres``)
and ``SPIELTAFEL_CI_REDIS_URL`` (default ``redis://127.0.0.1:6379/0``). When one does not answer, the run
is skipped with the reason (exit 0), or fails under ``CI=true`` (exit 1)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import uuid

import asyncpg
from redis.asyncio import Redis
from sqlalchemy.engine import make_url

POSTGRES = os.environ.get("SPIELTAFEL_CI_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres")
REDIS = os.environ.get("SPIELTAFEL_CI_REDIS_URL", "redis://127.0.0.1:6379/0")


async def _execute(statement: str) -> None:
    url = make_url(POSTGRES).set(drivername="postgresql")
    connection = await asyncpg.connect(url.render_as_string(hide_password=False), timeout=5)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


async def _ping_redis() -> None:
    redis = Redis.from_url(REDIS, socket_connect_timeout=5)
    try:
        await redis.ping()
    finally:
        await redis.aclose()


def _unreachable() -> str | None:
    """Why the services cannot be used, or None when both answer."""
    for name, check in (("PostgreSQL", lambda: _execute("SELECT 1")), ("Redis", _ping_redis)):
        try:
            asyncio.run(check())
        except Exception as error:  # any failure to connect means: not there
            return f"{name} does not answer ({type(error).__name__}: {error})"
    return None


def main() -> int:
    reason = _unreachable()
    if reason is not None:
        if os.environ.get("CI", "").lower() == "true":
            print(f"server suite on PostgreSQL + Redis: FAILED, {reason} (CI=true needs both)", file=sys.stderr)
            return 1
        print(f"server suite on PostgreSQL + Redis: SKIPPED, {reason}")
        return 0
    database = f"spieltafel_ci_{uuid.uuid4().hex[:8]}"
    asyncio.run(_execute(f'CREATE DATABASE "{database}"'))
    url = make_url(POSTGRES).set(database=database).render_as_string(hide_password=False)
    env = {**os.environ, "SPIELTAFEL_TEST_DATABASE_URL": url, "SPIELTAFEL_TEST_REDIS_URL": REDIS}
    try:
        command = [sys.executable, "-m", "pytest", "-n", "2", "tests/server", *sys.argv[1:]]
        print(f"server suite on PostgreSQL + Redis (database {database}):", " ".join(command[2:]), flush=True)
        return subprocess.call(command, env=env)
    finally:
        asyncio.run(_execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))


if __name__ == "__main__":
    sys.exit(main())
