"""Table chat (issue 39): the messages of each table and the reports of them.

Safe to run again after an interruption on SQLite: each table is made only if missing.

Revision ID: r0006
Revises: r0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "r0006"
down_revision = "r0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    prefix = context.config.attributes["prefix"]
    present = set(sa.inspect(op.get_bind()).get_table_names())
    tables = f"{prefix}tables.id"
    if f"{prefix}chat" not in present:
        op.create_table(
            f"{prefix}chat",
            sa.Column("table_id", sa.Integer, sa.ForeignKey(tables, ondelete="CASCADE"),
                      primary_key=True),
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("account_id", sa.Integer, nullable=True),
            sa.Column("name", sa.String(128), nullable=False),
            sa.Column("phrase", sa.String(32), nullable=True),
            sa.Column("text", sa.String(200), nullable=True),
            sa.Column("at", sa.Float, nullable=False),
        )
        op.create_index(f"ix_{prefix}chat_account_id", f"{prefix}chat", ["account_id"])
    if f"{prefix}chat_reports" not in present:
        op.create_table(
            f"{prefix}chat_reports",
            sa.Column("table_id", sa.Integer, sa.ForeignKey(tables, ondelete="CASCADE"),
                      primary_key=True),
            sa.Column("message_id", sa.Integer, primary_key=True, autoincrement=False),
            sa.Column("reporter", sa.String(96), primary_key=True),
            sa.Column("account_id", sa.Integer, nullable=True),
            sa.Column("address", sa.String(64), nullable=False),
            sa.Column("reason", sa.String(200), nullable=False),
            sa.Column("at", sa.Float, nullable=False),
        )
        op.create_index(f"ix_{prefix}chat_reports_account_id", f"{prefix}chat_reports",
                        ["account_id"])


def downgrade() -> None:
    prefix = context.config.attributes["prefix"]
    op.drop_table(f"{prefix}chat_reports")
    op.drop_table(f"{prefix}chat")
