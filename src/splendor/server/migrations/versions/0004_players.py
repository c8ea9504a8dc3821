"""Players: guests and accounts, their browser sessions, their ratings, and who sits where.

``players`` holds one row per player: a random id, the display name, and for an account
(a guest that chose a password) the name's comparison key (unique: one account per name,
compared case- and width-insensitively) and the Argon2 hash of the password. A guest has
neither. ``player_sessions`` holds the SHA-256 of each browser session token (the token
itself only lives in the browser's HTTP-only cookie). ``ratings`` holds one row per player
and game kind (``splendor-2``, ``splendor-multi``, ``duel``): the rating as JSON and the
number of rated games. ``seats.player_id`` says which player sits at a seat (null: a bot,
or a seat nobody has claimed through a session).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=True, unique=True),
        sa.Column("password_hash", sa.String(256), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "player_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_player_sessions_player_id", "player_sessions", ["player_id"])
    op.create_table(
        "ratings",
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("rating", sa.JSON(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("player_id", sa.String(32), nullable=True))
        batch.create_foreign_key(
            "fk_seats_player_id", "players", ["player_id"], ["id"], ondelete="SET NULL"
        )
        batch.create_index("ix_seats_player_id", ["player_id"])


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_player_id")
        batch.drop_constraint("fk_seats_player_id", type_="foreignkey")
        batch.drop_column("player_id")
    op.drop_table("ratings")
    op.drop_index("ix_player_sessions_player_id", table_name="player_sessions")
    op.drop_table("player_sessions")
    op.drop_table("players")
