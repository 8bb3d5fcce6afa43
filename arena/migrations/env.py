"""Alembic's environment for the arena: always given a live connection by arena.db.database.migrate
(config.attributes["connection"]), so the same migrations run on SQLite and PostgreSQL."""

from __future__ import annotations

from alembic import context

from arena.db.schema import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
