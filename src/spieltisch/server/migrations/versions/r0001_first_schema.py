"""The schema of spieltisch 0.1.0: tables, seats and the action log.

Databases made before migrations existed already hold these tables (and those made
before practice tables lack ``setup``): this revision creates what is missing and
adds the column, so that such a database is taken over as it is.

Revision ID: r0001
Revises: (none)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "r0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    prefix = context.config.attributes["prefix"]
    present = set(sa.inspect(op.get_bind()).get_table_names())
    if f"{prefix}tables" not in present:
        op.create_table(
            f"{prefix}tables",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("code", sa.String(16), nullable=False, unique=True),
            sa.Column("game", sa.String(64), nullable=False),
            sa.Column("players", sa.Integer, nullable=False),
            sa.Column("options", sa.Text, nullable=False),
            sa.Column("seed", sa.String(32), nullable=False),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("created", sa.Float, nullable=False),
            sa.Column("owner", sa.String(128), nullable=False),
            sa.Column("result", sa.Text, nullable=True),
            sa.Column("setup", sa.Text, nullable=True),
        )
        op.create_index(f"ix_{prefix}tables_status", f"{prefix}tables", ["status"])
    else:
        columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns(f"{prefix}tables")}
        if "setup" not in columns:
            op.add_column(f"{prefix}tables", sa.Column("setup", sa.Text, nullable=True))
    if f"{prefix}seats" not in present:
        op.create_table(
            f"{prefix}seats",
            sa.Column("table_id", sa.Integer,
                      sa.ForeignKey(f"{prefix}tables.id", ondelete="CASCADE"),
                      primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("kind", sa.String(8), nullable=False),
            sa.Column("bot", sa.String(64), nullable=True),
            sa.Column("name", sa.String(64), nullable=False),
            sa.Column("token_hash", sa.String(64), nullable=True),
        )
    if f"{prefix}actions" not in present:
        op.create_table(
            f"{prefix}actions",
            sa.Column("table_id", sa.Integer,
                      sa.ForeignKey(f"{prefix}tables.id", ondelete="CASCADE"),
                      primary_key=True),
            sa.Column("idx", sa.Integer, primary_key=True),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("action", sa.Text, nullable=False),
            sa.Column("client_id", sa.String(128), nullable=True),
        )


def downgrade() -> None:
    prefix = context.config.attributes["prefix"]
    for name in ("actions", "seats", "tables"):
        op.drop_table(f"{prefix}{name}")
