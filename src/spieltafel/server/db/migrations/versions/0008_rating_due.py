"""A finished game's ratings are made after its last move's commit: ``rating_due`` marks the games whose
finishers have not run yet (set in the last move's transaction, cleared in the ratings' own).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "game_tables", sa.Column("rating_due", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.create_index(
        "ix_game_tables_rating_due", "game_tables", ["id"],
        postgresql_where=sa.text("rating_due"), sqlite_where=sa.text("rating_due"),
    )


def downgrade() -> None:
    op.drop_index("ix_game_tables_rating_due", "game_tables")
    with op.batch_alter_table("game_tables") as tables:
        tables.drop_column("rating_due")
