"""Storage of games: SQLAlchemy 2.x models (:mod:`.rows`) and the repository the service
uses (:class:`Storage`, in parts: :mod:`.game_writes`, :mod:`.game_queries`).

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

from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from . import community_rows  # noqa: F401  (the community's tables join Base.metadata)
from .game_queries import GameLifecycle, GameReads
from .game_writes import GameWrites
from .rows import (
    ANALYSES_TABLE,
    STATUS_ACTIVE,
    STATUS_FINISHED,
    AnalysisRow,
    Base,
    ChatRow,
    GameRow,
    IdempotencyRecord,
    IdempotencyRow,
    MoveRow,
    MoveToStore,
    PlayerRow,
    RatingRow,
    SeatInfo,
    SeatRow,
    SessionRow,
    StaleMoveError,
    StoredGame,
    TableRow,
    TableSeatRow,
    aware,
    hash_token,
    storable,
    utcnow,
)


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


class Storage(GameWrites, GameReads, GameLifecycle):
    """Repository over one database. Thread-safe (one SQLAlchemy engine, one session per
    call); the service calls it from worker threads (``asyncio.to_thread``).

    Its methods come in parts, one job each: the schema and sessions here, writing games,
    seats and moves (:class:`.game_writes.GameWrites`), reading games
    (:class:`.game_queries.GameReads`) and the life-cycle queries
    (:class:`.game_queries.GameLifecycle`). The models and records are in :mod:`.rows`
    (all importable from here). The lobby's, the players' and the ratings' queries live
    beside their jobs (:mod:`.tables`, :mod:`.accounts`, :mod:`.rated_games`).

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


__all__ = [
    "ANALYSES_TABLE",
    "STATUS_ACTIVE",
    "STATUS_FINISHED",
    "AnalysisRow",
    "Base",
    "ChatRow",
    "GameRow",
    "IdempotencyRecord",
    "IdempotencyRow",
    "MoveRow",
    "MoveToStore",
    "PlayerRow",
    "RatingRow",
    "SeatInfo",
    "SeatRow",
    "SessionRow",
    "StaleMoveError",
    "Storage",
    "StoredGame",
    "TableRow",
    "TableSeatRow",
    "aware",
    "default_database_url",
    "hash_token",
    "normalize_url",
    "storable",
    "utcnow",
]
