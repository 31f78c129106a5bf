"""History and meeting people (issue 39): the waiting lists per game and player count
(``server/meeting.py``). The history of a person's games needs no table of its own: it
reads the tables and seats (``seats.account_id``, r0003).

Safe to run again after an interruption on SQLite: the table is made only if missing.

Revision ID: r0005
Revises: r0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "r0005"
down_revision = "r0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    prefix = context.config.attributes["prefix"]
    present = set(sa.inspect(op.get_bind()).get_table_names())
    if f"{prefix}waiting" in present:
        return
    op.create_table(
        f"{prefix}waiting",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("name", sa.String(64), nullable=False, server_default=""),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("code", sa.String(16), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("seat_token", sa.String(64), nullable=True),
        sa.Column("seated", sa.Float, nullable=True),
    )
    op.create_index(f"ix_{prefix}waiting_game", f"{prefix}waiting", ["game"])
    op.create_index(f"ix_{prefix}waiting_account_id", f"{prefix}waiting", ["account_id"])


def downgrade() -> None:
    prefix = context.config.attributes["prefix"]
    op.drop_table(f"{prefix}waiting")
