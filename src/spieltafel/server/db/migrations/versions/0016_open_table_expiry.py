"""Abandoned open tables expire (issue 26): an open table's last activity, and the lobby's notices of the
tables that expired (per account that sat at one).

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("game_tables", sa.Column("active_ms", sa.BigInteger, nullable=True))
    op.create_table(
        "expired_tables",
        sa.Column("table_id", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("expired_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_expired_tables_expired_ms", "expired_tables", ["expired_ms"])


def downgrade() -> None:
    op.drop_index("ix_expired_tables_expired_ms", "expired_tables")
    op.drop_table("expired_tables")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("active_ms")
