"""Table ids are never used twice (issue 23). SQLite gives a new row the largest id + 1, so the id of the
newest table, removed when everybody left it before the start, went to the next table made, and whatever
was bound to the old id (an invitation opened, a link) opened the new one. ``AUTOINCREMENT`` makes SQLite
count up instead (its ``sqlite_sequence``); on SQLite that takes a rebuild of ``game_tables``, which
``spieltafel.server.db.migrate`` runs with foreign keys off (a rebuild with them on would cascade the
drop of the old table to the seats and moves) and checks afterwards. PostgreSQL's ``SERIAL`` sequence
never gives an id twice: nothing to do there.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def _rebuild(autoincrement: bool) -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.drop_index("ix_game_tables_rating_due", "game_tables")  # partial: made again by hand below
    with op.batch_alter_table(
        "game_tables", recreate="always", table_kwargs={"sqlite_autoincrement": autoincrement}
    ):
        pass
    op.create_index(
        "ix_game_tables_rating_due", "game_tables", ["id"],
        postgresql_where=sa.text("rating_due"), sqlite_where=sa.text("rating_due"),
    )


def upgrade() -> None:
    _rebuild(autoincrement=True)


def downgrade() -> None:
    _rebuild(autoincrement=False)
