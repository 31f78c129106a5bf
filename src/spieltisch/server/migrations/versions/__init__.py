"""One file per change of the store's schema, oldest first (Alembic revisions)."""
