"""Account names are unique whatever their case (issue 23): ``name_folded`` holds ``name.casefold()`` under
a unique index. Where two accounts already differ only by case, the older (smaller id) gets its folded name
and the later ones keep NULL (a unique index admits any number of NULLs on SQLite and PostgreSQL): they
go on working by their exact names and are reported at every start (``AccountService.name_clashes``).
The folded names are computed here in Python, as the server computes them, not by SQL ``lower()``.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

accounts = sa.table("accounts", sa.column("id", sa.Integer), sa.column("name", sa.String),
                    sa.column("name_folded", sa.String))


def upgrade() -> None:
    op.add_column("accounts", sa.Column("name_folded", sa.String(64), nullable=True))
    bind = op.get_bind()
    seen: set[str] = set()
    folded = []
    for account_id, name in bind.execute(sa.select(accounts.c.id, accounts.c.name).order_by(accounts.c.id)):
        if name.casefold() not in seen:  # a later account of the same folded name keeps NULL
            seen.add(name.casefold())
            folded.append({"account": account_id, "folded": name.casefold()})
    if folded:
        bind.execute(
            accounts.update().where(accounts.c.id == sa.bindparam("account"))
            .values(name_folded=sa.bindparam("folded")), folded,
        )
    op.create_index("uq_accounts_name_folded", "accounts", ["name_folded"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_accounts_name_folded", "accounts")
    with op.batch_alter_table("accounts") as table:
        table.drop_column("name_folded")
