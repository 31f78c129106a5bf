"""The owner epoch of a table (issue 41, item 4): a fencing token for its action log.

Every runtime that serves a table for writing claims it by raising ``epoch`` (a new
table starts at 1), and every action is stored only while the table's ``epoch`` is the
one its writer claimed (``store.ActionWriter``): a node that lost a table without
noticing can no longer append to its log. Tables stored before start at 0; each is
claimed anew when a server or node opens it.

Safe to run again after an interruption on SQLite: the column is added only if missing.

Revision ID: r0002
Revises: r0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "r0002"
down_revision = "r0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    prefix = context.config.attributes["prefix"]
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns(f"{prefix}tables")}
    if "epoch" not in columns:
        op.add_column(f"{prefix}tables", sa.Column("epoch", sa.Integer, nullable=False,
                                                   server_default="0"))


def downgrade() -> None:
    prefix = context.config.attributes["prefix"]
    with op.batch_alter_table(f"{prefix}tables") as batch:
        batch.drop_column("epoch")
