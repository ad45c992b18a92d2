"""The migrations make the schema the models describe: Alembic's comparison of a freshly migrated database
with ``Base.metadata`` finds nothing to change (a column, index or constraint added to one and not the
other fails here), on SQLite and, in the PostgreSQL run of the suite, on PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection

from spieltafel.server.db import Base, Database

from ..backing import fresh_database

pytestmark = pytest.mark.anyio


def _differences(connection: Connection) -> list[Any]:
    context = MigrationContext.configure(connection, opts={"compare_type": True, "compare_server_default": False})
    return list(compare_metadata(context, Base.metadata))


async def test_the_migrated_schema_is_the_models_schema(tmp_path: Any) -> None:
    async with fresh_database() as url:
        database = Database(url or f"sqlite+aiosqlite:///{tmp_path / 'schema.db'}")
        try:
            await database.start()
            async with database.engine.connect() as connection:
                differences = await connection.run_sync(_differences)
        finally:
            await database.close()
    assert differences == [], "\n".join(map(str, differences))
