""""Ask before each move" as an account setting (issue 25): the table page's confirm toggle, remembered
on the account so that every device of its owner shows the same choice (off by default, docs/play.md).

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("accounts", sa.Column("confirm_moves", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as accounts:
        accounts.drop_column("confirm_moves")
