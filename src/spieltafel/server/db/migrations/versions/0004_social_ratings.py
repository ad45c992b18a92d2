"""Ratings per game (people, programs and bot levels alike) and the rating after each finished game.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def _account() -> sa.Column[int]:
    return sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True)


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("player", sa.String(40), primary_key=True),
        _account(),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
    )
    op.create_index("ix_ratings_account_id", "ratings", ["account_id"])
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("player", sa.String(40), nullable=False),
        _account(),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("table_id", "player", name="uq_rating_changes_table_player"),
    )
    op.create_index("ix_rating_changes_player", "rating_changes", ["player"])
    op.create_index("ix_rating_changes_account_id", "rating_changes", ["account_id"])


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_table("ratings")
