"""The community: e-mail, notifications, follows and blocks, moderation, tournaments.

``players`` gains an optional e-mail address (``email``, its case-folded ``email_key``,
``email_verified_at``), a language for its mails, notification preferences (``notify``), a
``role`` (``player`` or ``admin``), the confusables skeleton of its name
(``name_skeleton``: one namespace for names), and the moderators' marks (``banned_at``,
``ban_reason``, ``muted_until``) and ``deleted_at`` (an account deleted: its games stay,
its name is anonymised). ``player_sessions`` gains the SHA-256 of the address that opened
it. New tables: ``email_tokens``, ``push_subscriptions``, ``notifications``,
``server_keys``, ``follows``, ``blocks``, ``reports``, ``audit_log``,
``banned_addresses``, ``tournaments``, ``tournament_players``, ``tournament_games``
(:mod:`splendor.server.community_rows`).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def _player(
    name: str, *, primary: bool = False, index: bool = False, null: str = ""
) -> sa.Column[str]:
    ondelete = "SET NULL" if null else "CASCADE"
    return sa.Column(
        name,
        sa.String(32),
        sa.ForeignKey("players.id", ondelete=ondelete),
        primary_key=primary,
        nullable=bool(null),
        index=index,
    )


def _fill_name_skeletons() -> None:
    """The confusables skeleton of every existing account's name
    (:func:`splendor.server.names.name_skeleton`; guests have none)."""
    from splendor.server.names import name_skeleton

    players = sa.table(
        "players",
        sa.column("id", sa.String),
        sa.column("name", sa.String),
        sa.column("name_key", sa.String),
        sa.column("name_skeleton", sa.String),
    )
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(players.c.id, players.c.name).where(players.c.name_key.is_not(None))
    ).all()
    if rows:
        bind.execute(
            players.update()
            .where(players.c.id == sa.bindparam("pid"))
            .values(name_skeleton=sa.bindparam("skeleton")),
            [{"pid": pid, "skeleton": name_skeleton(name)} for pid, name in rows],
        )


def upgrade() -> None:
    with op.batch_alter_table("players") as b:
        b.add_column(sa.Column("email", sa.String(254), nullable=True))
        b.add_column(sa.Column("email_key", sa.String(254), nullable=True))
        b.add_column(sa.Column("email_verified_at", TZ, nullable=True))
        b.add_column(sa.Column("language", sa.String(8), nullable=True))
        b.add_column(sa.Column("notify", sa.JSON(), nullable=True))
        b.add_column(sa.Column("role", sa.String(16), nullable=False, server_default="player"))
        b.add_column(sa.Column("name_skeleton", sa.String(256), nullable=True))
        b.add_column(sa.Column("banned_at", TZ, nullable=True))
        b.add_column(sa.Column("ban_reason", sa.Text(), nullable=True))
        b.add_column(sa.Column("muted_until", TZ, nullable=True))
        b.add_column(sa.Column("deleted_at", TZ, nullable=True))
    op.create_index("ix_players_email_key", "players", ["email_key"])
    op.create_index("ix_players_name_skeleton", "players", ["name_skeleton"])
    _fill_name_skeletons()
    with op.batch_alter_table("player_sessions") as b:
        b.add_column(sa.Column("address_hash", sa.String(64), nullable=True))

    op.create_table(
        "email_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        _player("player_id", index=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("expires_at", TZ, nullable=False),
        sa.Column("used_at", TZ, nullable=True),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _player("player_id", index=True),
        sa.Column("endpoint", sa.Text(), nullable=False),
        sa.Column("endpoint_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(256), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
    )
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _player("player_id"),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("key", sa.String(128), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.UniqueConstraint("player_id", "channel", "kind", "key", name="uq_notifications_once"),
    )
    op.create_index("ix_notifications_player_time", "notifications", ["player_id", "created_at"])
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_table(
        "follows",
        _player("follower_id", primary=True),
        _player("followee_id", primary=True, index=True),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_table(
        "blocks",
        _player("blocker_id", primary=True),
        _player("blocked_id", primary=True, index=True),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _player("reporter_id", index=True, null="yes"),
        _player("reported_id", index=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.String(1000), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("created_at", TZ, nullable=False),
        _player("resolved_by", null="yes"),
        sa.Column("resolved_at", TZ, nullable=True),
        sa.Column("resolution", sa.String(32), nullable=True),
    )
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _player("actor_id", null="yes"),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target_id", sa.String(32), nullable=True, index=True),
        sa.Column("details", sa.JSON(), nullable=True),
        sa.Column("created_at", TZ, nullable=False, index=True),
    )
    op.create_table(
        "banned_addresses",
        sa.Column("address_hash", sa.String(64), primary_key=True),
        _player("player_id", index=True),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("num_players", sa.Integer(), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("clock", sa.JSON(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("starts_at", TZ, nullable=True),
        sa.Column("ends_at", TZ, nullable=True),
        sa.Column("max_players", sa.Integer(), nullable=True),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("current_round", sa.Integer(), nullable=False),
        _player("created_by", null="yes"),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("updated_at", TZ, nullable=False),
    )
    op.create_table(
        "tournament_players",
        sa.Column(
            "tournament_id",
            sa.String(32),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        _player("player_id", primary=True, index=True),
        sa.Column("joined_at", TZ, nullable=False),
        sa.Column("withdrawn", sa.Boolean(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=True),
    )
    op.create_table(
        "tournament_games",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "tournament_id",
            sa.String(32),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="SET NULL"),
            nullable=True,
            unique=True,
        ),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("created_at", TZ, nullable=False),
    )


def downgrade() -> None:
    for table in (
        "tournament_games",
        "tournament_players",
        "tournaments",
        "banned_addresses",
        "audit_log",
        "reports",
        "blocks",
        "follows",
        "server_keys",
        "notifications",
        "push_subscriptions",
        "email_tokens",
    ):
        op.drop_table(table)
    with op.batch_alter_table("player_sessions") as b:
        b.drop_column("address_hash")
    op.drop_index("ix_players_name_skeleton", table_name="players")
    op.drop_index("ix_players_email_key", table_name="players")
    with op.batch_alter_table("players") as b:
        for column in (
            "deleted_at",
            "muted_until",
            "ban_reason",
            "banned_at",
            "name_skeleton",
            "role",
            "notify",
            "language",
            "email_verified_at",
            "email_key",
            "email",
        ):
            b.drop_column(column)
