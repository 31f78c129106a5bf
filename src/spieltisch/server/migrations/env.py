"""Alembic's environment: run the migrations on the connection and table prefix that
``spieltisch.server.migrate`` hands over (no alembic.ini: the store knows its database)."""

from __future__ import annotations

from alembic import context

config = context.config
connection = config.attributes["connection"]
prefix = config.attributes["prefix"]
# each prefix is its own store, with its own record of the revision it is at
context.configure(connection=connection, version_table=f"{prefix}alembic_version")
with context.begin_transaction():
    context.run_migrations()
