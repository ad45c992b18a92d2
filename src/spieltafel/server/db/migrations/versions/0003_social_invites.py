"""Private tables (an invitation code), their guests, and the rematch of a finished table.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN plus unique indexes: no table rebuild (on SQLite a rebuild would cascade deletes).
    op.add_column("game_tables", sa.Column("invite", sa.String(64), nullable=True))
    op.add_column("game_tables", sa.Column("rematch_id", sa.Integer, nullable=True))
    op.create_index("uq_game_tables_invite", "game_tables", ["invite"], unique=True)
    op.create_index("uq_game_tables_rematch_id", "game_tables", ["rematch_id"], unique=True)
    op.create_table(
        "table_guests",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("table_guests")
    op.drop_index("uq_game_tables_rematch_id", "game_tables")
    op.drop_index("uq_game_tables_invite", "game_tables")
    op.drop_column("game_tables", "rematch_id")
    op.drop_column("game_tables", "invite")
