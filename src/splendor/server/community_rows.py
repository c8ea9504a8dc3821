"""The community's tables (migration 0009): what players add to their accounts (an e-mail
address, a language, notification preferences, a role, bans), the one-time e-mail tokens,
Web Push subscriptions, the log of notifications sent, the server's own keys, follows and
blocks, reports and the moderators' audit log, and tournaments.

The models share :class:`.rows.Base` with the games' tables, so one Alembic history makes
them all (``tests/server/test_storage.py`` checks that the migrations build exactly these
models). The columns added to ``players`` and ``player_sessions`` are declared on
:class:`.rows.PlayerRow` and :class:`.rows.SessionRow`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from .rows import Base


class EmailTokenRow(Base):
    """A single-use token sent by e-mail: ``purpose`` ``"verify"`` (confirms ``email`` as
    the player's address) or ``"reset"`` (sets a new password). Only its SHA-256 is
    stored; it is spent by setting ``used_at`` and is worthless after ``expires_at``."""

    __tablename__ = "email_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    purpose: Mapped[str] = mapped_column(String(16))
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PushSubscriptionRow(Base):
    """One browser's Web Push subscription of a player (RFC 8030 endpoint and the RFC 8291
    keys the browser gave: ``p256dh``, ``auth``, base64url)."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    endpoint: Mapped[str] = mapped_column(Text)
    endpoint_hash: Mapped[str] = mapped_column(String(64), unique=True)
    p256dh: Mapped[str] = mapped_column(String(256))
    auth: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)


class NotificationRow(Base):
    """One notification sent to a player on one channel (``"email"``, ``"push"``): what
    it was about as ``kind`` and ``key`` (a game and its move number, a table, a tournament
    round). The unique key makes "one message per game and turn" a database fact; the
    rows per player and time are the rate limit's count."""

    __tablename__ = "notifications"
    __table_args__ = (
        UniqueConstraint("player_id", "channel", "kind", "key", name="uq_notifications_once"),
        Index("ix_notifications_player_time", "player_id", "created_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    channel: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(16))
    key: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ServerKeyRow(Base):
    """A secret the server made once and keeps (the VAPID key pair of Web Push, the key
    that signs unsubscribe links), by name."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class FollowRow(Base):
    """``follower_id`` follows ``followee_id``; two players who follow each other are
    friends."""

    __tablename__ = "follows"

    follower_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    followee_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class BlockRow(Base):
    """``blocker_id`` blocks ``blocked_id``: never paired, no chat from them, no seat at
    the blocker's tables."""

    __tablename__ = "blocks"

    blocker_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    blocked_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ReportRow(Base):
    """A report of a player (``reason``: ``"chat"``, ``"bot"``, ``"name"``, ``"other"``),
    ``open`` until a moderator resolves it."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[str | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), nullable=True, index=True
    )
    reported_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), index=True
    )
    reason: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(String(1000))
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    resolved_by: Mapped[str | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), nullable=True
    )
    resolved_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    resolution: Mapped[str | None] = mapped_column(String(32), nullable=True)


class AuditRow(Base):
    """One moderation act (grant, revoke, mute, ban, unban, rename, resolve...) by
    ``actor_id`` (None: the ``splendor admin`` command) on ``target_id``."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    actor_id: Mapped[str | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), nullable=True
    )
    action: Mapped[str] = mapped_column(String(32))
    target_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    details: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class BannedAddressRow(Base):
    """The SHA-256 of a client address a banned player used (no new guest from it)."""

    __tablename__ = "banned_addresses"

    address_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TournamentRow(Base):
    """A tournament: ``format`` ``"swiss"`` (2 players a game), ``"groups"`` (3-4 players,
    groups by rating), or ``"arena"`` (paired again as soon as a game ends, until
    ``ends_at``); ``status`` ``"registering"``, ``"running"``, ``"finished"``."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    game: Mapped[str] = mapped_column(String(16))
    num_players: Mapped[int] = mapped_column(Integer)
    format: Mapped[str] = mapped_column(String(16))
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean)
    status: Mapped[str] = mapped_column(String(16), index=True)
    starts_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    ends_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    max_players: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    current_round: Mapped[int] = mapped_column(Integer, default=0)
    created_by: Mapped[str | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), nullable=True
    )
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TournamentPlayerRow(Base):
    """A player registered in a tournament: its score and tie-breaks so far (``data``:
    Buchholz, Sonneborn-Berger, the arena's streak...)."""

    __tablename__ = "tournament_players"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)
    score: Mapped[float] = mapped_column(Float, default=0.0)
    data: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class TournamentGameRow(Base):
    """A game of a tournament: its round (the arena counts pairings), the player of each
    seat, and its result once over (a bye is a row with no game)."""

    __tablename__ = "tournament_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    game_id: Mapped[str | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), nullable=True, unique=True
    )
    round: Mapped[int] = mapped_column(Integer)
    players: Mapped[list[str]] = mapped_column(JSON)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


__all__ = [
    "AuditRow",
    "BannedAddressRow",
    "BlockRow",
    "EmailTokenRow",
    "FollowRow",
    "NotificationRow",
    "PushSubscriptionRow",
    "ReportRow",
    "ServerKeyRow",
    "TournamentGameRow",
    "TournamentPlayerRow",
    "TournamentRow",
]
