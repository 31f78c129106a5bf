"""Accounts and sessions (issue 39): a person's name, password hash and sessions, and
the account of the person at each seat.

Safe to run again after an interruption on SQLite: each table and the column are made
only if missing.

Revision ID: r0003
Revises: r0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "r0003"
down_revision = "r0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    prefix = context.config.attributes["prefix"]
    inspector = sa.inspect(op.get_bind())
    present = set(inspector.get_table_names())
    if f"{prefix}accounts" not in present:
        op.create_table(
            f"{prefix}accounts",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("name", sa.String(32), nullable=False),
            sa.Column("name_key", sa.String(64), nullable=False, unique=True),
            sa.Column("password_hash", sa.String(256), nullable=True),
            sa.Column("lang", sa.String(8), nullable=False, server_default="en"),
            sa.Column("created", sa.Float, nullable=False),
            sqlite_autoincrement=True,
        )
    if f"{prefix}sessions" not in present:
        op.create_table(
            f"{prefix}sessions",
            sa.Column("token_hash", sa.String(64), primary_key=True),
            sa.Column("account_id", sa.Integer,
                      sa.ForeignKey(f"{prefix}accounts.id", ondelete="CASCADE"),
                      nullable=False),
            sa.Column("created", sa.Float, nullable=False),
            sa.Column("expires", sa.Float, nullable=False),
            sa.Column("csrf", sa.String(64), nullable=False),
        )
        op.create_index(f"ix_{prefix}sessions_account_id", f"{prefix}sessions",
                        ["account_id"])
    columns = {c["name"] for c in inspector.get_columns(f"{prefix}seats")}
    if "account_id" not in columns:
        op.add_column(f"{prefix}seats", sa.Column("account_id", sa.Integer, nullable=True))
        op.create_index(f"ix_{prefix}seats_account_id", f"{prefix}seats", ["account_id"])


def downgrade() -> None:
    prefix = context.config.attributes["prefix"]
    op.drop_index(f"ix_{prefix}seats_account_id", f"{prefix}seats")
    with op.batch_alter_table(f"{prefix}seats") as batch:
        batch.drop_column("account_id")
    op.drop_table(f"{prefix}sessions")
    op.drop_table(f"{prefix}accounts")
