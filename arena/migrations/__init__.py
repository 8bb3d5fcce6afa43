"""Alembic migrations of the arena's database (run by arena.db.database.migrate, never by hand)."""
