"""Tables of the lobby, and rated games.

``tables`` holds one row per table opened in the lobby: the game, its number of seats,
the game options, whether it is rated, who may join (``open`` to all, or by ``invite``:
the SHA-256 of the invitation code), the clock (JSON, or null: none), its status
(``open`` while seats are free, ``started`` once its game is made, ``closed`` when everyone
left), the game it became, its host and times. ``table_seats`` holds one row per seat: the
player sitting there, or the bot, or neither (a free seat); a player sits at most once at
a table. ``games.rated`` says whether a game's result changes ratings, ``games.rated_at``
when it did (null: not yet); ``games.clock`` is the clock it is played with (JSON, or
null); ``games.dropped`` lists the seats whose player resigned a 3-4 player game (a bot
plays them; they rank last); ``moves.clock`` the clock after each move of a game with a
clock (:mod:`splendor.server.clocks`). ``chat_messages`` keeps what the players of a game wrote at
its table.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("num_players", sa.Integer(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("visibility", sa.String(8), nullable=False),
        sa.Column("invite_hash", sa.String(64), nullable=True),
        sa.Column("clock", sa.JSON(), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column(
            "game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="SET NULL"), nullable=True
        ),
        sa.Column(
            "host_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "table_seats",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("bot", sa.String(64), nullable=True),
        sa.UniqueConstraint("table_id", "player_id", name="uq_table_seats_player"),
    )
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_messages_game_id", "chat_messages", ["game_id"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("clock", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("rated_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("dropped", sa.JSON(), nullable=True))
    with op.batch_alter_table("moves") as batch:
        batch.add_column(sa.Column("clock", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("clock")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("dropped")
        batch.drop_column("rated_at")
        batch.drop_column("clock")
        batch.drop_column("rated")
    op.drop_index("ix_chat_messages_game_id", table_name="chat_messages")
    op.drop_table("chat_messages")
    op.drop_table("table_seats")
    op.drop_index("ix_tables_status", table_name="tables")
    op.drop_table("tables")
