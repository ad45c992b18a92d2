"""E-mail when a turn-based game waits: an account's address, and per seat the turn last mailed about.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("accounts", sa.Column("email", sa.String(254), nullable=True))
    op.add_column("seats", sa.Column("mailed_since_ms", sa.BigInteger, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("mailed_since_ms")
    with op.batch_alter_table("accounts") as accounts:
        accounts.drop_column("email")
