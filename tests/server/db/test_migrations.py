"""Processes that start at once on a new PostgreSQL database migrate one after the other."""

from __future__ import annotations

import asyncio

import pytest

from spieltafel.server.db import Database

from ..backing import fresh_database, needs_postgres

pytestmark = [pytest.mark.anyio, needs_postgres]


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
