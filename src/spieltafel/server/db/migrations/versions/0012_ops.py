"""Moderation (issue 30): site roles, site-wide mutes and bans of accounts, hidden chat lines, the players'
reports and the moderators' audit log.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as accounts:
        accounts.add_column(sa.Column("role", sa.String(12), nullable=False, server_default="player"))
        accounts.add_column(sa.Column("muted_until", sa.DateTime(timezone=True), nullable=True))
        accounts.add_column(sa.Column("banned", sa.Boolean, nullable=False, server_default=sa.false()))
    with op.batch_alter_table("chat_messages") as chat:
        chat.add_column(sa.Column("hidden", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("reporter_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("chat_id", sa.Integer, sa.ForeignKey("chat_messages.id", ondelete="CASCADE"), nullable=True),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_reports_account_id", "reports", ["account_id"])
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("actor_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
        sa.Column("action", sa.String(20), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
        sa.Column("chat_id", sa.Integer, sa.ForeignKey("chat_messages.id", ondelete="SET NULL"), nullable=True),
        sa.Column("detail", sa.String(500), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("audit_log")
    op.drop_index("ix_reports_account_id", "reports")
    op.drop_table("reports")
    with op.batch_alter_table("chat_messages") as chat:
        chat.drop_column("hidden")
    with op.batch_alter_table("accounts") as accounts:
        accounts.drop_column("banned")
        accounts.drop_column("muted_until")
        accounts.drop_column("role")
