"""Rated or casual games and hints (issues 28 and 27): ``game_tables.rated`` (a casual game changes no
rating; every table made before is rated) and ``seats.hints``, how many hints the seat's person got.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("game_tables", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.true()))
    op.add_column("seats", sa.Column("hints", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("hints")
    with op.batch_alter_table("game_tables") as tables:
        tables.drop_column("rated")
