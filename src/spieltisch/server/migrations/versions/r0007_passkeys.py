"""Passkeys (issue 39): each account's WebAuthn public keys, and the challenges of the
ceremonies under way (in the database: any cluster node finishes what another began).

Safe to run again after an interruption on SQLite: each table is made only if missing.

Revision ID: r0007
Revises: r0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "r0007"
down_revision = "r0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    prefix = context.config.attributes["prefix"]
    present = set(sa.inspect(op.get_bind()).get_table_names())
    accounts = f"{prefix}accounts.id"
    if f"{prefix}passkeys" not in present:
        op.create_table(
            f"{prefix}passkeys",
            sa.Column("credential_id", sa.String(1400), primary_key=True),
            sa.Column("account_id", sa.Integer,
                      sa.ForeignKey(accounts, ondelete="CASCADE"), nullable=False),
            sa.Column("user_handle", sa.String(128), nullable=False),
            sa.Column("public_key", sa.LargeBinary, nullable=False),
            sa.Column("sign_count", sa.BigInteger, nullable=False),
            sa.Column("transports", sa.String(200), nullable=False, server_default=""),
            sa.Column("created", sa.Float, nullable=False),
            sa.Column("last_used", sa.Float, nullable=True),
        )
        op.create_index(f"ix_{prefix}passkeys_account_id", f"{prefix}passkeys",
                        ["account_id"])
    if f"{prefix}passkey_challenges" not in present:
        op.create_table(
            f"{prefix}passkey_challenges",
            sa.Column("challenge", sa.String(128), primary_key=True),
            sa.Column("kind", sa.String(16), nullable=False),
            sa.Column("account_id", sa.Integer,
                      sa.ForeignKey(accounts, ondelete="CASCADE"), nullable=True),
            sa.Column("name", sa.String(32), nullable=True),
            sa.Column("lang", sa.String(8), nullable=True),
            sa.Column("user_handle", sa.String(128), nullable=True),
            sa.Column("expires", sa.Float, nullable=False),
        )
        op.create_index(f"ix_{prefix}passkey_challenges_account_id",
                        f"{prefix}passkey_challenges", ["account_id"])


def downgrade() -> None:
    prefix = context.config.attributes["prefix"]
    op.drop_table(f"{prefix}passkey_challenges")
    op.drop_table(f"{prefix}passkeys")
