"""Alembic environment: runs on the connection handed over by ``spieltafel.server.db.migrate``,
or on ``sqlalchemy.url`` when run from the ``alembic`` command."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from spieltafel.server.db.models import Base

config = context.config
target_metadata = Base.metadata


def run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


given = config.attributes.get("connection")
if given is not None:
    run(given)
else:
    url = config.get_main_option("sqlalchemy.url") or ""
    with create_engine(url.replace("+aiosqlite", "").replace("+asyncpg", "+psycopg")).connect() as conn:
        run(conn)
