"""Account safety (issue 28): whether an account's e-mail address was verified, whether the account was
deleted (its row stays, emptied, for the seats of finished games: they show "deleted player"), and the
one-time links of password resets and address verifications (only the SHA-256 of each link's secret).

Addresses stored before this migration count as unverified: they get no mail until their owner has
clicked the verification link (docs/security.md).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("accounts", sa.Column("email_verified", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("accounts", sa.Column("deleted", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "account_links",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("purpose", sa.String(10), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("expires_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_account_links_account_id", "account_links", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_account_links_account_id", "account_links")
    op.drop_table("account_links")
    with op.batch_alter_table("accounts") as accounts:
        accounts.drop_column("deleted")
        accounts.drop_column("email_verified")
