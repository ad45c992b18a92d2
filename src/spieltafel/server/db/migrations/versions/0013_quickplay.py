"""Quick play (issue 28): the requests of the people who asked to be seated at the next matching table.
One row per account; the matcher of every server process claims rows by compare-and-set on ``table_id``.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "quickplay",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False,
                  unique=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("players", sa.Integer, nullable=True),
        sa.Column("pace", sa.String(10), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("bot", sa.String(20), nullable=True),
        sa.Column("bot_after_s", sa.Integer, nullable=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("since_ms", sa.BigInteger, nullable=False),
        sa.Column("table_id", sa.Integer, nullable=True),
    )
    op.create_index("ix_quickplay_game", "quickplay", ["game"])


def downgrade() -> None:
    op.drop_index("ix_quickplay_game", "quickplay")
    op.drop_table("quickplay")
