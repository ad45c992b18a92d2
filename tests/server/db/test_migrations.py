"""Processes that start at once on a new database (PostgreSQL or a new SQLite file) migrate one after the other."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from spieltafel.server.db import Database

from ..backing import fresh_database, needs_postgres

pytestmark = [pytest.mark.anyio]


@needs_postgres
async def test_four_processes_migrating_a_new_database_at_once_all_start() -> None:
    async with fresh_database() as url:
        assert url is not None
        databases = [Database(url) for _ in range(4)]
        try:
            results = await asyncio.wait_for(
                asyncio.gather(*(database.start() for database in databases), return_exceptions=True), 60
            )
            assert results == [None] * 4
            assert await databases[0].healthy()
        finally:
            for database in databases:
                await database.close()



START = """
import asyncio, sys
from spieltafel.server.db import Database

async def main() -> None:
    database = Database(sys.argv[1])
    await database.start()
    assert await database.healthy()
    await database.close()

asyncio.run(main())
"""


@pytest.mark.parametrize("attempt", range(3))
async def test_four_processes_migrating_a_new_sqlite_file_at_once_all_start(tmp_path: Path, attempt: int) -> None:
    """Once a server and a worker started together on a new file and one of them failed with "table accounts
    already exists": the DDL of SQLite's Python driver ran outside any transaction, so both had read "no
    schema" before either made it."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'site.db'}"
    processes = [
        await asyncio.create_subprocess_exec(sys.executable, "-c", START, url, stderr=asyncio.subprocess.PIPE)
        for _ in range(4)
    ]
    outcomes = await asyncio.wait_for(asyncio.gather(*(process.communicate() for process in processes)), 120)
    failures = [err.decode()[-400:] for process, (_, err) in zip(processes, outcomes, strict=True)
                if process.returncode]
    assert failures == []
