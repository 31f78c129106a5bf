"""Ratings and leaves (issue 39): each account's rating per game and player count, the
rated tables whose result changed them (once), and who left a running game.

Safe to run again after an interruption on SQLite: each table is made only if missing.

Revision ID: r0004
Revises: r0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "r0004"
down_revision = "r0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    prefix = context.config.attributes["prefix"]
    present = set(sa.inspect(op.get_bind()).get_table_names())
    if f"{prefix}ratings" not in present:
        op.create_table(
            f"{prefix}ratings",
            sa.Column("account_id", sa.Integer,
                      sa.ForeignKey(f"{prefix}accounts.id", ondelete="CASCADE"),
                      primary_key=True),
            sa.Column("game", sa.String(64), primary_key=True),
            sa.Column("players", sa.Integer, primary_key=True),
            sa.Column("mu", sa.Float, nullable=False),
            sa.Column("sigma", sa.Float, nullable=False),
            sa.Column("games", sa.Integer, nullable=False, server_default="0"),
            sa.Column("updated", sa.Float, nullable=False),
        )
    if f"{prefix}rated_tables" not in present:
        op.create_table(
            f"{prefix}rated_tables",
            sa.Column("table_id", sa.Integer,
                      sa.ForeignKey(f"{prefix}tables.id", ondelete="CASCADE"),
                      primary_key=True),
            sa.Column("applied", sa.Float, nullable=False),
        )
    if f"{prefix}leaves" not in present:
        op.create_table(
            f"{prefix}leaves",
            sa.Column("table_id", sa.Integer,
                      sa.ForeignKey(f"{prefix}tables.id", ondelete="CASCADE"),
                      primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("account_id", sa.Integer,
                      sa.ForeignKey(f"{prefix}accounts.id", ondelete="CASCADE"),
                      nullable=True),
            sa.Column("round", sa.Integer, nullable=False),
            sa.Column("actions", sa.Integer, nullable=False),
            sa.Column("at", sa.Float, nullable=False),
        )
        op.create_index(f"ix_{prefix}leaves_account_id", f"{prefix}leaves", ["account_id"])


def downgrade() -> None:
    prefix = context.config.attributes["prefix"]
    op.drop_index(f"ix_{prefix}leaves_account_id", f"{prefix}leaves")
    op.drop_table(f"{prefix}leaves")
    op.drop_table(f"{prefix}rated_tables")
    op.drop_table(f"{prefix}ratings")
