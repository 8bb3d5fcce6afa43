"""The first schema: authors, bots, versions, pairs, games, records, stderr, encounters, finals.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _serial_id() -> sa.Column[int]:
    """A table's own key: a whole number the database gives each new row."""
    return sa.Column("id", sa.Integer, primary_key=True, autoincrement=True)


def _results() -> list[sa.Column[int]]:
    """Wins, draws and losses: a version's whole tally and its tally against one opponent."""
    return [sa.Column(name, sa.Integer, nullable=False) for name in ("wins", "draws", "losses")]


def upgrade() -> None:
    op.create_table(
        "authors",
        _serial_id(),
        sa.Column("name", sa.String(40), nullable=False, unique=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("is_admin", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "bots",
        _serial_id(),
        sa.Column("author_id", sa.Integer, sa.ForeignKey("authors.id"), nullable=False),
        sa.Column("name", sa.String(40), nullable=False, unique=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("deleted", sa.Boolean, nullable=False),
    )
    op.create_index("ix_bots_author_id", "bots", ["author_id"])
    op.create_table(
        "versions",
        _serial_id(),
        sa.Column("bot_id", sa.Integer, sa.ForeignKey("bots.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("archive", sa.String(255), nullable=False),
        sa.Column("archive_sha256", sa.String(64), nullable=False),
        sa.Column("command", sa.Text, nullable=False),
        sa.Column("build_command", sa.Text, nullable=True),
        sa.Column("build_log", sa.Text, nullable=False),
        sa.Column("check_report", sa.Text, nullable=False),
        sa.Column("activated_at", sa.Float, nullable=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        *_results(),
        sa.Column("failed_in_row", sa.Integer, nullable=False),
        sa.Column("last_game_at", sa.Float, nullable=True),
        sa.Column("spark", sa.Text, nullable=False),
    )
    op.create_index("ix_versions_bot_id", "versions", ["bot_id"])
    op.create_index("ix_versions_status", "versions", ["status"])
    op.create_table(
        "pairs",
        _serial_id(),
        sa.Column("game_type", sa.String(16), nullable=False),
        sa.Column("first", sa.Integer, sa.ForeignKey("versions.id"), nullable=False),
        sa.Column("second", sa.Integer, sa.ForeignKey("versions.id"), nullable=False),
        sa.Column("opening", sa.Integer, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
    )
    op.create_index("ix_pairs_status", "pairs", ["status"])
    op.create_table(
        "games",
        sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("pair_id", sa.Integer, sa.ForeignKey("pairs.id"), nullable=False),
        sa.Column("game_type", sa.String(16), nullable=False),
        sa.Column("dark", sa.Integer, sa.ForeignKey("versions.id"), nullable=False),
        sa.Column("light", sa.Integer, sa.ForeignKey("versions.id"), nullable=False),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("termination", sa.String(24), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("failed", sa.Integer, nullable=True),
        sa.Column("plies", sa.Integer, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
        sa.Column("duration", sa.Float, nullable=False),
    )
    op.create_index("ix_games_dark_id", "games", ["dark", "id"])
    op.create_index("ix_games_light_id", "games", ["light", "id"])
    op.create_table(
        "records",
        sa.Column("game_id", sa.BigInteger, sa.ForeignKey("games.id"), primary_key=True, autoincrement=False),
        sa.Column("record", sa.LargeBinary, nullable=False),
    )
    op.create_table(
        "stderr",
        sa.Column("game_id", sa.BigInteger, sa.ForeignKey("games.id"), primary_key=True, autoincrement=False),
        sa.Column("version_id", sa.Integer, sa.ForeignKey("versions.id"), primary_key=True, autoincrement=False),
        sa.Column("head", sa.Text, nullable=False),
        sa.Column("tail", sa.Text, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
    )
    op.create_table(
        "encounters",
        sa.Column("version_id", sa.Integer, sa.ForeignKey("versions.id"), primary_key=True, autoincrement=False),
        sa.Column("opponent_id", sa.Integer, sa.ForeignKey("versions.id"), primary_key=True, autoincrement=False),
        *_results(),
    )
    op.create_table(
        "finals",
        _serial_id(),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
        sa.Column("top", sa.Integer, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("run_dir", sa.Text, nullable=False),
        sa.Column("ranking", sa.Text, nullable=False),
        sa.Column("message", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for table in ("finals", "encounters", "stderr", "records", "games", "pairs", "versions", "bots", "authors"):
        op.drop_table(table)
