"""The store's schema migrations (Alembic): ``env.py`` runs them, ``versions/`` holds
one file per change of the schema (``spieltisch.server.migrate`` explains)."""
