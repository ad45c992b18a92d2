"""Time limits and leavers: a table's pace (live clock or per-move limit) and leaver rule; per seat its
clock, the start of its current turn, its deadline (what the sweeper looks for) and why its person left.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

TABLE_COLUMNS = (
    sa.Column("pace", sa.String(5), nullable=True),
    sa.Column("budget_ms", sa.BigInteger, nullable=True),
    sa.Column("increment_ms", sa.BigInteger, nullable=True),
    sa.Column("leaver", sa.String(4), nullable=False, server_default="bot"),
    sa.Column("leaver_bot", sa.String(20), nullable=True),
)
SEAT_COLUMNS = (
    sa.Column("clock_ms", sa.BigInteger, nullable=True),
    sa.Column("since_ms", sa.BigInteger, nullable=True),
    sa.Column("deadline_ms", sa.BigInteger, nullable=True),
    sa.Column("gone", sa.String(5), nullable=True),
)


def upgrade() -> None:
    for column in TABLE_COLUMNS:
        op.add_column("game_tables", column)
    for column in SEAT_COLUMNS:
        op.add_column("seats", column)
    op.create_index("ix_seats_deadline_ms", "seats", ["deadline_ms"])


def downgrade() -> None:
    op.drop_index("ix_seats_deadline_ms", "seats")
    with op.batch_alter_table("seats") as seats:
        for column in SEAT_COLUMNS:
            seats.drop_column(column.name)
    with op.batch_alter_table("game_tables") as tables:
        for column in TABLE_COLUMNS:
            tables.drop_column(column.name)
