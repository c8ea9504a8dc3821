"""Storage of games: SQLAlchemy 2.x models and the repository functions the service uses.

The database is a SQLite file by default (:func:`default_database_url`, in the user's data
directory) or any SQLAlchemy URL, PostgreSQL included (``postgresql+psycopg://user@host/db``).
The schema is created and upgraded by Alembic migrations shipped in
:mod:`splendor.server.migrations`, applied by :meth:`Storage.migrate` at start-up.

Tables:

- ``games``: one row per game: id (URL-safe text), game name, number of players, the deal
  seed (secret until the game ends), options (JSON), status ``"active" | "finished"``,
  result (the record's result, JSON, or null), created/updated times (UTC).
- ``seats``: one row per seat: type ``"human" | "bot"``, display name, bot spec, and for a
  person the SHA-256 hex digest of its seat token (the token itself is never stored).
- ``moves``: one row per accepted decision: ``(game_id, idx)`` is the primary key, so two
  writers can never both store move ``idx``; the seat that played it and its notation.
- ``idempotency_keys`` (migration 0003): one row per game created with an
  ``Idempotency-Key``: the key's SHA-256 (primary key), the game, the SHA-256 of the
  request, and the random salt from which, with the key, its seat tokens were derived
  (:func:`splendor.server.service.derive_token`). Deleted with its game.
- ``analyses`` (migration 0008): the post-game analysis of a finished game, one per game
  (``game_id`` is the primary key): the player who asked for it (``requested_by``, null
  for a seat token without a player), its status ``"queued" | "running" | "done" |
  "failed"``, the analysis so far (``data``: :meth:`splendor.analysis.GameAnalysis.to_dict`,
  rewritten after every analysed decision), the reason of a failure (``error``), and its
  created/updated times. Deleted with its game (:mod:`splendor.server.analysis_jobs`).

Text from clients never reaches the database unchecked: names are cleaned by the service,
and :func:`storable` refuses a NUL or a lone surrogate, which PostgreSQL rejects (and
SQLite would store).

A game's position is never stored: it is the replay of its moves from its seed (C18, D24),
so every committed move survives a crash and the restarted server resumes exactly.

Writing is cheap on purpose: a move is one SQLAlchemy Core ``INSERT ... SELECT`` (which
also checks that it is the next move of its game) and one ``UPDATE`` of the game row, and
:meth:`Storage.append_moves` commits the moves of many games in one transaction (the
service's group commit, :class:`splendor.server.writer.MoveWriter`). A SQLite file runs
in WAL mode with ``synchronous=NORMAL`` (see :func:`_sqlite_pragmas`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
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
    create_engine,
    delete,
    event,
    exists,
    false,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool

from .notify import notify

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


def default_database_url() -> str:
    """``sqlite:///<user data dir>/splendor/splendor.db`` (the directory is created).

    The data directory is the platform's (``platformdirs.user_data_dir``), for example
    ``~/.local/share/splendor`` on Linux.
    """
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("splendor", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'splendor.db'}"


def normalize_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` URLs use the psycopg 3 driver
    (``postgresql+psycopg://``, the one installed); other URLs are returned unchanged."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


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


class SessionRow(Base):
    """A browser session of a player: the SHA-256 of its cookie token (migration 0004)."""

    __tablename__ = "player_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_used_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


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
    player sitting there (None: a bot, or a person not known as a player)."""

    seat: int
    type: str
    name: str
    bot: str | None
    token_hash: str | None
    player_id: str | None = None


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


_MOVES = _table(MoveRow)
_GAMES = _table(GameRow)
_SEATS = _table(SeatRow)
ANALYSES_TABLE = _table(AnalysisRow)
"""The Core table of :class:`AnalysisRow` (:mod:`splendor.server.analysis_jobs`)."""
_IDEMPOTENCY = _table(IdempotencyRow)

_LAST_IDX = (
    select(_MOVES.c.game_id, func.max(_MOVES.c.idx))
    .where(_MOVES.c.game_id.in_(bindparam("game_ids", expanding=True)))
    .group_by(_MOVES.c.game_id)
)
_HAS_MOVES = exists().where(_MOVES.c.game_id == _GAMES.c.id)
_TOUCH_GAME = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("gid"))
    .values(updated_at=bindparam("now"), next_seat=bindparam("next_seat"))
)
_FINISH_GAME = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("gid"))
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


class Storage:
    """Repository over one database. Thread-safe (one SQLAlchemy engine, one session per
    call); the service calls it from worker threads (``asyncio.to_thread``).

    Args:
        url: SQLAlchemy URL, e.g. ``sqlite:///path/game.db`` or
            ``postgresql+psycopg://user@/db?host=/tmp``; ``None`` for
            :func:`default_database_url`.
    """

    def __init__(self, url: str | None = None) -> None:
        self.url = normalize_url(url or default_database_url())
        parsed = make_url(self.url)
        kwargs: dict[str, Any] = {}
        if parsed.get_backend_name() == "sqlite":
            if parsed.database in (None, "", ":memory:"):
                # one shared connection, or every thread would see its own empty database
                kwargs.update(poolclass=StaticPool, connect_args={"check_same_thread": False})
            else:
                Path(parsed.database).expanduser().resolve().parent.mkdir(
                    parents=True, exist_ok=True
                )
        else:
            # a connection left over from before a database restart is replaced, not used
            kwargs.update(pool_pre_ping=True)
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    # ------------------------------------------------------------------ schema

    def migrate(self) -> None:
        """Create or upgrade the schema to the newest Alembic revision (idempotent)."""
        from .migrations import upgrade

        upgrade(self.engine)

    def close(self) -> None:
        """Release the connection pool."""
        self.engine.dispose()

    def session(self) -> Session:
        """A new ORM session on this database (use it in a ``with`` block)."""
        return self._sessions()

    # ------------------------------------------------------------------ writing

    def create_game(
        self,
        game_id: str,
        game: str,
        num_players: int,
        seed: int,
        options: dict[str, Any],
        seats: Sequence[SeatInfo],
        next_seat: int | None = None,
        *,
        idempotency: IdempotencyRecord | None = None,
        rated: bool = False,
        clock: dict[str, Any] | None = None,
    ) -> StoredGame:
        """Store a new game and its seats in one transaction; return it. ``next_seat``:
        the seat whose decision is first (None: unknown). ``idempotency``: the key it was
        created with, stored in the same transaction. ``rated``: whether its result
        changes ratings; ``clock``: its clock (:mod:`splendor.server.tables`), or None.

        Raises:
            sqlalchemy.exc.IntegrityError: ``game_id`` already exists, or the idempotency
                key is stored already (nothing written).
            ValueError: a name is not :func:`storable` (nothing written).
        """
        for x in seats:
            if not storable(x.name):
                raise ValueError(
                    f"seat {x.seat}: the name holds a NUL or a lone surrogate; it cannot be stored"
                )
        now = utcnow()
        with self.engine.begin() as c:
            c.execute(
                insert(_GAMES),
                {
                    "id": game_id,
                    "game": game,
                    "num_players": num_players,
                    "seed": seed,
                    "options": dict(options),
                    "status": STATUS_ACTIVE,
                    "result": None,
                    "created_at": now,
                    "updated_at": now,
                    "next_seat": next_seat,
                    "rated": rated,
                    "clock": clock,
                },
            )
            if seats:
                c.execute(
                    insert(_SEATS),
                    [
                        {
                            "game_id": game_id,
                            "seat": x.seat,
                            "type": x.type,
                            "name": x.name,
                            "bot": x.bot,
                            "token_hash": x.token_hash,
                            "player_id": x.player_id,
                        }
                        for x in seats
                    ],
                )
            if idempotency is not None:
                c.execute(
                    insert(_IDEMPOTENCY),
                    {
                        "key_hash": idempotency.key_hash,
                        "game_id": game_id,
                        "request_hash": idempotency.request_hash,
                        "salt": idempotency.salt,
                        "created_at": now,
                    },
                )
        return StoredGame(
            id=game_id,
            game=game,
            num_players=num_players,
            seed=seed,
            options=dict(options),
            status=STATUS_ACTIVE,
            result=None,
            created_at=now,
            updated_at=now,
            seats=list(seats),
            next_seat=next_seat,
            rated=rated,
            clock=clock,
        )

    def claim_seat(self, game_id: str, seat: int, player_id: str) -> bool:
        """Record that ``player_id`` sits at ``seat`` of ``game_id`` (a person who opened an
        invite link while logged in): only a seat nobody has claimed, and only if the player
        has no other seat in that game. Returns whether the seat is now the player's."""
        with self.engine.begin() as c:
            other = c.execute(
                select(_SEATS.c.seat).where(
                    _SEATS.c.game_id == game_id, _SEATS.c.player_id == player_id
                )
            ).first()
            if other is not None:
                return int(other[0]) == seat
            done = c.execute(
                update(_SEATS)
                .where(
                    _SEATS.c.game_id == game_id,
                    _SEATS.c.seat == seat,
                    _SEATS.c.type == "human",
                    _SEATS.c.player_id.is_(None),
                )
                .values(player_id=player_id)
            )
            if done.rowcount == 1:
                notify(c, "game", game_id)
            return done.rowcount == 1

    def drop_seat(self, game_id: str, seat: int, bot: str, name: str) -> bool:
        """A person leaves an active game for good: ``seat`` becomes the bot ``bot`` named
        ``name`` (its token no longer plays; its player stays, for the ratings) and joins
        the game's ``dropped`` seats. False if the game is not active or the seat is not a
        person's."""
        with self.engine.begin() as c:
            game = c.execute(
                select(_GAMES.c.status, _GAMES.c.dropped)
                .where(_GAMES.c.id == game_id)
                .with_for_update()
            ).first()
            if game is None or game.status != STATUS_ACTIVE:
                return False
            done = c.execute(
                update(_SEATS)
                .where(_SEATS.c.game_id == game_id, _SEATS.c.seat == seat, _SEATS.c.type == "human")
                .values(type="bot", bot=bot, name=name, token_hash=None)
            ).rowcount
            if done != 1:
                return False
            dropped = sorted({*(game.dropped or []), seat})
            c.execute(
                update(_GAMES)
                .where(_GAMES.c.id == game_id)
                .values(dropped=dropped, updated_at=utcnow())
            )
            notify(c, "game", game_id)
            return True

    def append_move(
        self,
        game_id: str,
        idx: int,
        seat: int,
        notation: str,
        result: dict[str, Any] | None = None,
    ) -> datetime:
        """Commit move number ``idx`` (0-based) of a game; with ``result`` the game is
        finished in the same transaction. Returns the commit time (UTC).

        Raises:
            StaleMoveError: ``idx`` is not the number of moves stored (nothing written).
        """
        (outcome,) = self.append_moves([MoveToStore(game_id, idx, seat, notation, result)])
        if isinstance(outcome, StaleMoveError):
            raise outcome
        return outcome

    def append_moves(self, moves: Sequence[MoveToStore]) -> list[datetime | StaleMoveError]:
        """Commit several moves (of different games) in one transaction: a group commit.

        Each move is stored only if its ``idx`` is the number of moves its game has
        stored (the moves before it in ``moves`` included); a move with a ``result``
        finishes its game. Stale moves are skipped; the others are all committed together
        (on a race with another writer on the same database, which the primary key
        rejects, each move is retried in its own transaction).

        Returns:
            For each move, in order: the commit time (UTC), or the :class:`StaleMoveError`
            saying why it was not stored.
        """
        now = utcnow()
        if not moves:
            return []
        try:
            with self.engine.begin() as c:
                return self._store_moves(c, moves, now)
        except IntegrityError:
            if len(moves) == 1:
                m = moves[0]
                return [
                    StaleMoveError(
                        f"move {m.idx} of game {m.game_id} is stale: "
                        "it was stored by another writer"
                    )
                ]
        return [self.append_moves([m])[0] for m in moves]

    @staticmethod
    def _store_moves(
        c: Connection, moves: Sequence[MoveToStore], now: datetime
    ) -> list[datetime | StaleMoveError]:
        """Three statements whatever the number of moves: the last stored move number of
        each game, one multi-row INSERT, one executemany UPDATE (plus one per finished game)."""
        stored = {
            gid: int(last) + 1
            for gid, last in c.execute(_LAST_IDX, {"game_ids": sorted({m.game_id for m in moves})})
        }
        outcomes: list[datetime | StaleMoveError] = []
        rows: list[dict[str, Any]] = []
        touched: dict[str, MoveToStore] = {}
        for m in moves:
            expected = stored.get(m.game_id, 0)
            if m.idx != expected:
                outcomes.append(
                    StaleMoveError(
                        f"move {m.idx} of game {m.game_id} is stale: {expected} moves are stored"
                    )
                )
                continue
            stored[m.game_id] = expected + 1
            rows.append(
                {
                    "game_id": m.game_id,
                    "idx": m.idx,
                    "seat": m.seat,
                    "notation": m.notation,
                    "created_at": now,
                    "note": m.note,
                    "clock": m.clock,
                }
            )
            prev = touched.get(
                m.game_id
            )  # the last move of each game (its next seat), or the one that ends it
            touched[m.game_id] = prev if prev is not None and prev.result is not None else m
            outcomes.append(now)
        if rows:
            c.execute(insert(_MOVES), rows)
            touch = [
                {"gid": gid, "now": now, "next_seat": m.next_seat}
                for gid, m in touched.items()
                if m.result is None
            ]
            if touch:
                c.execute(_TOUCH_GAME, touch)
            for gid, m in touched.items():
                if m.result is not None:
                    c.execute(_FINISH_GAME, {"gid": gid, "now": now, "final": m.result})
            for gid in touched:
                notify(c, "game", gid)
        return outcomes

    # ------------------------------------------------------------------ reading

    def load_game_since(self, game_id: str, since: int) -> StoredGame | None:
        """The stored game as :meth:`load_game`, but with only the moves from number
        ``since`` on in ``moves`` (and ``notes`` keyed by their absolute numbers): what a
        process that holds the first ``since`` moves needs to catch up. None if there is no
        such game."""
        if not storable(game_id):
            return None
        with self._sessions() as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            seats = s.scalars(
                select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
            ).all()
            moves = s.execute(
                select(MoveRow.idx, MoveRow.seat, MoveRow.notation, MoveRow.note)
                .where(MoveRow.game_id == game_id, MoveRow.idx >= since)
                .order_by(MoveRow.idx)
            ).all()
            stored = _stored(row, seats, [(int(m.seat), str(m.notation)) for m in moves])
            stored.notes = {int(m.idx): str(m.note) for m in moves if m.note}
            if row.clock is not None and moves:  # the clock after the last move only
                stored.clock_after = s.scalar(
                    select(MoveRow.clock)
                    .where(MoveRow.game_id == game_id)
                    .order_by(MoveRow.idx.desc())
                    .limit(1)
                )
            return stored

    def load_game(self, game_id: str) -> StoredGame | None:
        """The stored game with its seats and moves, or None if there is no such game
        (an id that is not :func:`storable` names none)."""
        return self.load_game_since(game_id, 0)

    def find_idempotency_key(self, key_hash: str) -> tuple[str, IdempotencyRecord] | None:
        """The game created with the idempotency key whose SHA-256 is ``key_hash``, and
        what was stored with it; None if there is none."""
        q = select(IdempotencyRow).where(IdempotencyRow.key_hash == key_hash)
        with self._sessions() as s:
            row = s.scalars(q).first()
            if row is None:
                return None
            return row.game_id, IdempotencyRecord(row.key_hash, row.request_hash, row.salt)

    def game_ids(self, status: str | None = None) -> list[str]:
        """Ids of every game (or those with ``status``), oldest first."""
        q = select(GameRow.id).order_by(GameRow.created_at, GameRow.id)
        if status is not None:
            q = q.where(GameRow.status == status)
        with self._sessions() as s:
            return list(s.scalars(q).all())

    # ------------------------------------------------------------------ life cycle

    def games_with_bot_to_move(self) -> list[str]:
        """Ids of the active games whose next decision is a bot seat's, oldest first (what a
        restarted server must resume). A game stored before migration 0002 (next seat
        unknown) is listed when it has a bot seat."""
        q = (
            select(GameRow.id)
            .join(SeatRow, SeatRow.game_id == GameRow.id)
            .where(
                GameRow.status == STATUS_ACTIVE,
                SeatRow.type == "bot",
                or_(GameRow.next_seat == SeatRow.seat, GameRow.next_seat.is_(None)),
            )
            .group_by(GameRow.id, GameRow.created_at)
            .order_by(GameRow.created_at, GameRow.id)
        )
        with self._sessions() as s:
            return list(s.scalars(q).all())

    def active_clock_games(self, limit: int = 10000) -> list[str]:
        """Ids of the games in progress that have a clock (their timers run in memory)."""
        q = (
            select(GameRow.id)
            .where(GameRow.status == STATUS_ACTIVE, GameRow.clock.is_not(None))
            .order_by(GameRow.updated_at)
            .limit(limit)
        )
        with self._sessions() as s:
            return list(s.scalars(q).all())

    def unstarted_games(self, created_before: datetime, limit: int = 1000) -> list[str]:
        """Ids of the active games created before ``created_before`` (UTC) that hold no
        move, oldest first, at most ``limit``."""
        q = (
            select(GameRow.id)
            .where(
                GameRow.status == STATUS_ACTIVE, GameRow.created_at < created_before, ~_HAS_MOVES
            )
            .order_by(GameRow.created_at, GameRow.id)
            .limit(limit)
        )
        with self._sessions() as s:
            return list(s.scalars(q).all())

    def delete_unstarted_game(self, game_id: str, created_before: datetime) -> bool:
        """Delete the game ``game_id`` with its seats if it is still active, holds no move
        and was created before ``created_before``; True if it was deleted (nothing is
        written otherwise)."""
        with self.engine.begin() as c:
            gone = c.execute(
                delete(_GAMES).where(
                    _GAMES.c.id == game_id,
                    _GAMES.c.status == STATUS_ACTIVE,
                    _GAMES.c.created_at < created_before,
                    ~_HAS_MOVES,
                )
            ).rowcount
            if gone:
                c.execute(delete(_SEATS).where(_SEATS.c.game_id == game_id))
            return bool(gone)

    def idle_games(self, updated_before: datetime, limit: int = 1000) -> list[str]:
        """Ids of the active games with at least one move and none since
        ``updated_before`` (UTC), whose next decision is a person's (or unknown), oldest
        move first, at most ``limit``: the candidates for expiry as abandoned."""
        q = (
            select(GameRow.id)
            .outerjoin(
                SeatRow, (SeatRow.game_id == GameRow.id) & (SeatRow.seat == GameRow.next_seat)
            )
            .where(
                GameRow.status == STATUS_ACTIVE,
                GameRow.updated_at < updated_before,
                _HAS_MOVES,
                or_(SeatRow.type.is_(None), SeatRow.type != "bot"),
            )
            .order_by(GameRow.updated_at, GameRow.id)
            .limit(limit)
        )
        with self._sessions() as s:
            return list(s.scalars(q).all())

    def finish_game(self, game_id: str, num_moves: int, result: dict[str, Any]) -> bool:
        """Finish an active game that holds exactly ``num_moves`` moves with ``result``
        (a forfeit, say) without a move; True if it was finished (nothing is written
        otherwise: the game is over already or a move came in since)."""
        now = utcnow()
        moves = (
            select(func.count())
            .select_from(_MOVES)
            .where(_MOVES.c.game_id == game_id)
            .scalar_subquery()
        )
        with self.engine.begin() as c:
            done = c.execute(
                update(_GAMES)
                .where(_GAMES.c.id == game_id, _GAMES.c.status == STATUS_ACTIVE, moves == num_moves)
                .values(updated_at=now, status=STATUS_FINISHED, result=result, next_seat=None)
            ).rowcount
            if done:
                notify(c, "game", game_id)
            return bool(done)

    def games_for_token_hashes(self, hashes: Iterable[str]) -> list[tuple[StoredGame, list[int]]]:
        """Games in which any of ``hashes`` is a seat's token hash, newest first, each with
        the seats those tokens hold. Moves are not loaded (``moves`` is empty)."""
        hashes = list(set(hashes))
        if not hashes:
            return []
        with self._sessions() as s:
            hits = s.execute(
                select(SeatRow.game_id, SeatRow.seat).where(SeatRow.token_hash.in_(hashes))
            ).all()
            mine: dict[str, list[int]] = {}
            for gid, seat in hits:
                mine.setdefault(gid, []).append(int(seat))
            if not mine:
                return []
            rows = s.scalars(
                select(GameRow)
                .where(GameRow.id.in_(list(mine)))
                .order_by(GameRow.created_at.desc(), GameRow.id)
            ).all()
            out = []
            for row in rows:
                seats = s.scalars(
                    select(SeatRow).where(SeatRow.game_id == row.id).order_by(SeatRow.seat)
                ).all()
                out.append((_stored(row, seats, []), sorted(mine[row.id])))
            return out


def _stored(row: GameRow, seats: Sequence[SeatRow], moves: list[tuple[int, str]]) -> StoredGame:
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
        seats=[SeatInfo(r.seat, r.type, r.name, r.bot, r.token_hash, r.player_id) for r in seats],
        moves=moves,
        next_seat=row.next_seat,
        rated=bool(row.rated),
        clock=row.clock,
        dropped=[int(x) for x in row.dropped or []],
    )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL journal (readers do not block the writer), ``synchronous=NORMAL``, foreign
    keys on, and a busy timeout of 10 s (``busy_timeout``, in milliseconds).

    Durability: in WAL mode a commit appends the transaction to the ``-wal`` file with a
    ``write()`` before the commit returns; ``synchronous=NORMAL`` only skips the
    ``fsync`` of every commit (the WAL is synced at checkpoints). A write that has
    returned is in the operating system's page cache, which survives the death of the
    process, so every committed move survives a crash or a SIGKILL of the server (the
    requirement: the restarted server resumes every game exactly). Only a power loss or
    a kernel crash may drop the last commits (``synchronous=FULL`` would keep those too,
    at one ``fsync`` per commit). The database stays consistent in every case.
    """
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()
