"""The server's database as SQLAlchemy sees it: the ORM models of its tables (one class a
table, :class:`Base`), their Core tables and the statements the move writer reuses, and the
plain records a repository returns (:class:`StoredGame`, :class:`SeatInfo`,
:class:`MoveToStore`...). :class:`.storage.Storage` is the repository over them; the tables
are described in :mod:`.storage`'s docstring and made by the Alembic migrations
(:mod:`.migrations`)."""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    bindparam,
    exists,
    false,
    func,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

STATUS_ACTIVE = "active"
STATUS_FINISHED = "finished"


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


def hash_token(token: str) -> str:
    """SHA-256 hex digest of a seat token (what the database stores).

    Seat tokens are 256-bit random strings (:func:`secrets.token_urlsafe`), so a plain
    fast hash is enough: nothing can be guessed from it.
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Base(DeclarativeBase):
    """Declarative base of the server's tables."""


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    num_players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    status: Mapped[str] = mapped_column(String(16), index=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    next_seat: Mapped[int | None] = mapped_column(
        Integer, nullable=True
    )  # 0002: None = over or unknown
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # 0005
    clock: Mapped[dict[str, Any] | None] = mapped_column(
        JSON(none_as_null=True), nullable=True
    )  # 0005: None (SQL NULL): no clock
    rated_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )  # 0005: when its result changed the ratings (None: not yet, or not rated)
    dropped: Mapped[list[int] | None] = mapped_column(
        JSON, nullable=True
    )  # 0005: seats whose player left (a bot plays them; ranked last)


class SeatRow(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    type: Mapped[str] = mapped_column(String(8))
    name: Mapped[str] = mapped_column(String(64))
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    player_id: Mapped[str | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), nullable=True, index=True
    )  # 0004: the player sitting here (None: a bot, or not claimed through a session)


class PlayerRow(Base):
    """A guest (no ``name_key``, no password) or an account (migration 0004)."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(256), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # 0009 (the community, :mod:`.community_rows`):
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    email_key: Mapped[str | None] = mapped_column(String(254), nullable=True, index=True)
    email_verified_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    language: Mapped[str | None] = mapped_column(String(8), nullable=True)
    notify: Mapped[dict[str, Any] | None] = mapped_column(
        JSON(none_as_null=True), nullable=True
    )  # notification preferences (None: the defaults)
    role: Mapped[str] = mapped_column(String(16), default="player", server_default="player")
    name_skeleton: Mapped[str | None] = mapped_column(String(256), nullable=True, index=True)
    banned_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    ban_reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    muted_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class SessionRow(Base):
    """A browser session of a player: the SHA-256 of its cookie token (migration 0004)."""

    __tablename__ = "player_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_used_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    address_hash: Mapped[str | None] = mapped_column(
        String(64), nullable=True
    )  # 0009: SHA-256 of the client address that opened it (bans reach its new guests)


class RatingRow(Base):
    """A player's rating in one game kind (:mod:`splendor.server.ratings`, migration 0004).

    ``value`` repeats the displayed rating of ``rating`` (its ``"value"``, rating points)
    so that the leaderboard is one indexed query (migration 0007)."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_kind_value", "kind", "value"),)

    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    rating: Mapped[dict[str, Any]] = mapped_column(JSON)
    value: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TableRow(Base):
    """A table of the lobby (migration 0005, :mod:`splendor.server.tables`)."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    num_players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    rated: Mapped[bool] = mapped_column(Boolean)
    visibility: Mapped[str] = mapped_column(String(8))
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    game_id: Mapped[str | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), nullable=True
    )
    host_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    rematch_of: Mapped[str | None] = mapped_column(
        String(32), nullable=True, index=True
    )  # 0006: the finished game this table replays (only its players may sit)


class TableSeatRow(Base):
    """A seat of a lobby table: a player, a bot, or free (migration 0005)."""

    __tablename__ = "table_seats"
    __table_args__ = (UniqueConstraint("table_id", "player_id", name="uq_table_seats_player"),)

    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), nullable=True
    )
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ChatRow(Base):
    """One chat message written at a game's table by a seated player (migration 0005)."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MoveRow(Base):
    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    notation: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    note: Mapped[str | None] = mapped_column(
        Text, nullable=True
    )  # 0002: e.g. a random move played for a failed bot
    clock: Mapped[dict[str, Any] | None] = mapped_column(
        JSON(none_as_null=True), nullable=True
    )  # 0005: the clock after this move (a game with a clock)


class AnalysisRow(Base):
    """The post-game analysis of a finished game (migration 0008,
    :mod:`splendor.server.analysis_jobs`): one per game, asked for by one of its players."""

    __tablename__ = "analyses"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    requested_by: Mapped[str | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), nullable=True, index=True
    )  # None: asked for with a seat token by a person who is no known player
    status: Mapped[str] = mapped_column(String(16), index=True)
    data: Mapped[dict[str, Any] | None] = mapped_column(
        JSON(none_as_null=True), nullable=True
    )  # splendor.analysis.GameAnalysis.to_dict(), the moves analysed so far
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class IdempotencyRow(Base):
    __tablename__ = "idempotency_keys"

    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    request_hash: Mapped[str] = mapped_column(String(64))
    salt: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class IdempotencyRecord:
    """What is stored for a game created with an idempotency key: the key's and the
    request's SHA-256 hex digests, and the hex salt of its seat tokens."""

    key_hash: str
    request_hash: str
    salt: str


def storable(text: str) -> bool:
    """Whether ``text`` can be stored as text by every supported database: no NUL
    (PostgreSQL refuses it) and no lone surrogate (not encodable as UTF-8)."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@dataclass(frozen=True)
class SeatInfo:
    """One seat of a stored game. ``token_hash`` is None for bots; ``player_id`` the
    player sitting there (None: a bot, or a person not known as a player); ``guest``:
    that player is a guest (not an account), shown as one wherever its name appears."""

    seat: int
    type: str
    name: str
    bot: str | None
    token_hash: str | None
    player_id: str | None = None
    guest: bool = False


@dataclass
class StoredGame:
    """Everything stored about one game (enough to replay it).

    Attributes:
        moves: ``(seat, notation)`` of every accepted decision, in order.
        notes: ``{move index: note}`` for the moves stored with a note (a random legal
            action played for a bot that kept failing, say).
        next_seat: the seat whose decision is next as stored with the last move (None when
            the game is over, or unknown: a game stored before migration 0002).
    """

    id: str
    game: str
    num_players: int
    seed: int
    options: dict[str, Any]
    status: str
    result: dict[str, Any] | None
    created_at: datetime
    updated_at: datetime
    seats: list[SeatInfo]
    moves: list[tuple[int, str]] = field(default_factory=list)
    notes: dict[int, str] = field(default_factory=dict)
    next_seat: int | None = None
    rated: bool = False
    clock: dict[str, Any] | None = None
    dropped: list[int] = field(default_factory=list)
    clock_after: dict[str, Any] | None = None


class StaleMoveError(Exception):
    """The move number to store is not the next one (another writer got there first)."""


@dataclass(frozen=True)
class MoveToStore:
    """One move for :meth:`Storage.append_moves`: move number ``idx`` (0-based) of
    ``game_id``, played by ``seat``; ``result`` (the record's result) when it ends the game;
    ``next_seat`` the seat to decide after it (None: over or unknown); ``note`` a remark
    shown with the move in the game log (None: none)."""

    game_id: str
    idx: int
    seat: int
    notation: str
    result: dict[str, Any] | None = None
    next_seat: int | None = None
    note: str | None = None
    clock: dict[str, Any] | None = None


def _table(model: type[Base]) -> Table:
    """The Core :class:`~sqlalchemy.Table` of a mapped class. A declarative class with a
    ``__tablename__`` is always mapped to a Table; SQLAlchemy types ``__table__`` as the wider
    ``FromClause`` (a class may be mapped to any selectable), which ``insert`` and ``update``
    do not accept."""
    table = model.__table__
    if not isinstance(table, Table):
        raise TypeError(f"{model.__name__} is not mapped to a table")
    return table


MOVES = _table(MoveRow)
GAMES = _table(GameRow)
SEATS = _table(SeatRow)
ANALYSES_TABLE = _table(AnalysisRow)
"""The Core table of :class:`AnalysisRow` (:mod:`splendor.server.analysis_jobs`)."""
IDEMPOTENCY = _table(IdempotencyRow)

LAST_IDX = (
    select(MOVES.c.game_id, func.max(MOVES.c.idx))
    .where(MOVES.c.game_id.in_(bindparam("game_ids", expanding=True)))
    .group_by(MOVES.c.game_id)
)
HAS_MOVES = exists().where(MOVES.c.game_id == GAMES.c.id)
TOUCH_GAME = (
    update(GAMES)
    .where(GAMES.c.id == bindparam("gid"))
    .values(updated_at=bindparam("now"), next_seat=bindparam("next_seat"))
)
FINISH_GAME = (
    update(GAMES)
    .where(GAMES.c.id == bindparam("gid"))
    .values(
        updated_at=bindparam("now"),
        status=STATUS_FINISHED,
        result=bindparam("final", type_=JSON()),
        next_seat=None,
    )
)


def aware(t: datetime) -> datetime:
    """SQLite gives naive datetimes back: they were stored as UTC."""
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


_aware = aware


def guest_ids(c: Connection | Session, player_ids: Iterable[str | None]) -> set[str]:
    """Those of ``player_ids`` that are guests (neither accounts nor deleted), in one
    query."""
    ids = {p for p in player_ids if p is not None}
    if not ids:
        return set()
    return set(
        c.execute(
            select(PlayerRow.id).where(
                PlayerRow.id.in_(ids), PlayerRow.name_key.is_(None), PlayerRow.deleted_at.is_(None)
            )
        ).scalars()
    )


def stored_game(
    row: GameRow,
    seats: Sequence[SeatRow],
    moves: list[tuple[int, str]],
    guests: Collection[str] = (),
) -> StoredGame:
    """A game row, its seat rows and ``moves`` as a :class:`StoredGame`; ``guests``: the
    player ids of guests (:func:`guest_ids`)."""
    return StoredGame(
        id=row.id,
        game=row.game,
        num_players=row.num_players,
        seed=int(row.seed),
        options=dict(row.options or {}),
        status=row.status,
        result=row.result,
        created_at=_aware(row.created_at),
        updated_at=_aware(row.updated_at),
        seats=[
            SeatInfo(
                r.seat,
                r.type,
                r.name,
                r.bot,
                r.token_hash,
                r.player_id,
                r.type == "human" and r.player_id in guests,
            )
            for r in seats
        ],
        moves=moves,
        next_seat=row.next_seat,
        rated=bool(row.rated),
        clock=row.clock,
        dropped=[int(x) for x in row.dropped or []],
    )


class Repository:
    """What the repository parts of :class:`.storage.Storage` share: its engine (Core
    statements, one transaction a ``with engine.begin()``) and its ORM session maker."""

    engine: Engine
    _sessions: sessionmaker[Session]
