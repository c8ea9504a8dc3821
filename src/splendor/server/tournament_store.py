"""The tournaments as the database holds them (tables ``tournaments``,
``tournament_players``, ``tournament_games``; :mod:`.community_rows`): blocking reads and
writes, called through ``asyncio.to_thread``. Every change that two requests (or two
server processes) could race for is one conditional ``UPDATE`` or one transaction: a
player registers once (primary key), a tournament that is full or started takes nobody,
a round is claimed by one writer (``current_round`` moves from r to r+1 once), and a
game's result is recorded once (``... WHERE result IS NULL``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, null, select, update
from sqlalchemy.exc import IntegrityError

from .community_rows import TournamentGameRow, TournamentPlayerRow, TournamentRow
from .errors import N_, Conflict, NotFound
from .ratings import game_kind, initial_rating
from .storage import GameRow, PlayerRow, RatingRow, Storage, storable, utcnow

REGISTERING, RUNNING, FINISHED, CANCELLED = "registering", "running", "finished", "cancelled"
"""A tournament's statuses (``cancelled``: too few players when it was due)."""


@dataclass(frozen=True)
class Snapshot:
    """A tournament read at once: ``row`` (its columns), ``players`` (``{"id", "name",
    "account", "rating", "withdrawn", "joined_at", "score", "data"}``, by registration) and
    ``games`` (``{"id", "game_id", "round", "players", "result", "created_at"}``, in
    order)."""

    row: dict[str, Any]
    players: list[dict[str, Any]]
    games: list[dict[str, Any]]

    @property
    def active(self) -> list[dict[str, Any]]:
        """The players not withdrawn (or paused)."""
        return [p for p in self.players if not p["withdrawn"]]


def _columns(row: Any, table: Any) -> dict[str, Any]:
    return {c.name: getattr(row, c.key) for c in table.__table__.columns}


def checked_id(tournament_id: str) -> str:
    """``tournament_id`` if it can be one. Raises NotFound."""
    if not storable(tournament_id) or not 1 <= len(tournament_id) <= 32:
        raise NotFound(N_("no tournament {tournament}"), tournament=repr(tournament_id[:40]))
    return tournament_id


def insert_tournament(storage: Storage, values: dict[str, Any]) -> None:
    """Store a new tournament (all of :class:`.community_rows.TournamentRow`'s columns)."""
    with storage.engine.begin() as c:
        c.execute(insert(TournamentRow), values)


def load(storage: Storage, tournament_id: str) -> Snapshot:
    """The tournament ``tournament_id`` with its players (their names, kinds and ratings
    in its game's kind) and games.

    Raises:
        NotFound: no such tournament.
    """
    checked_id(tournament_id)
    with storage.session() as s:
        row = s.get(TournamentRow, tournament_id)
        if row is None:
            raise NotFound(N_("no tournament {tournament}"), tournament=repr(tournament_id))
        kind = game_kind(row.game, row.num_players)
        entries = s.execute(
            select(TournamentPlayerRow, PlayerRow.name, PlayerRow.password_hash, RatingRow.value)
            .join(PlayerRow, PlayerRow.id == TournamentPlayerRow.player_id)
            .outerjoin(
                RatingRow,
                (RatingRow.player_id == TournamentPlayerRow.player_id) & (RatingRow.kind == kind),
            )
            .where(TournamentPlayerRow.tournament_id == tournament_id)
            .order_by(TournamentPlayerRow.joined_at, TournamentPlayerRow.player_id)
        ).all()
        games = s.scalars(
            select(TournamentGameRow)
            .where(TournamentGameRow.tournament_id == tournament_id)
            .order_by(TournamentGameRow.round, TournamentGameRow.id)
        ).all()
        newcomer = initial_rating(kind).value
        players = [
            {
                "id": e.player_id,
                "name": name,
                "account": password is not None,
                "rating": float(rating if rating is not None else newcomer),
                "withdrawn": bool(e.withdrawn),
                "joined_at": e.joined_at,
                "score": float(e.score or 0.0),
                "data": dict(e.data or {}),
            }
            for e, name, password, rating in entries
        ]
        return Snapshot(
            _columns(row, TournamentRow),
            players,
            [_columns(g, TournamentGameRow) for g in games],
        )


def summaries(storage: Storage, limit: int = 100) -> list[dict[str, Any]]:
    """The tournaments registering or running, then the latest finished ones (at most
    ``limit`` in all), each as its columns with ``"entrants"`` (players registered and
    not withdrawn)."""
    with storage.session() as s:
        counts = (
            select(TournamentPlayerRow.tournament_id, func.count().label("n"))
            .where(TournamentPlayerRow.withdrawn.is_(False))
            .group_by(TournamentPlayerRow.tournament_id)
            .subquery()
        )
        rows = s.execute(
            select(TournamentRow, counts.c.n)
            .outerjoin(counts, counts.c.tournament_id == TournamentRow.id)
            .order_by(
                (TournamentRow.status.in_((REGISTERING, RUNNING))).desc(),
                TournamentRow.created_at.desc(),
            )
            .limit(limit)
        ).all()
    return [{**_columns(r, TournamentRow), "entrants": int(n or 0)} for r, n in rows]


def count_registering(storage: Storage, creator_id: str) -> int:
    """How many tournaments ``creator_id`` created that have not started yet."""
    with storage.session() as s:
        return int(
            s.scalar(
                select(func.count())
                .select_from(TournamentRow)
                .where(TournamentRow.created_by == creator_id, TournamentRow.status == REGISTERING)
            )
            or 0
        )


def add_player(storage: Storage, tournament_id: str, player_id: str, late: bool) -> None:
    """Register ``player_id`` (``late``: while it runs, an arena), or bring a withdrawn
    (paused) one back.

    Raises:
        Conflict: registered already, the tournament is full, or it does not take
            players now.
    """
    statuses = (REGISTERING, RUNNING) if late else (REGISTERING,)
    with storage.engine.begin() as c:
        row = c.execute(
            select(TournamentRow.status, TournamentRow.max_players).where(
                TournamentRow.id == tournament_id
            )
        ).one()
        if row.status not in statuses:
            raise Conflict(
                N_("this tournament does not take players now ({status})"), status=row.status
            )
        back = c.execute(
            update(TournamentPlayerRow)
            .where(
                TournamentPlayerRow.tournament_id == tournament_id,
                TournamentPlayerRow.player_id == player_id,
                TournamentPlayerRow.withdrawn.is_(True),
            )
            .values(withdrawn=False)
        )
        if back.rowcount == 1:
            return
        entered = c.execute(
            select(func.count())
            .select_from(TournamentPlayerRow)
            .where(TournamentPlayerRow.tournament_id == tournament_id)
        ).scalar_one()
        if row.max_players is not None and entered >= row.max_players:
            raise Conflict(N_("this tournament is full ({max} players)"), max=row.max_players)
        try:
            with c.begin_nested():
                c.execute(
                    insert(TournamentPlayerRow),
                    {
                        "tournament_id": tournament_id,
                        "player_id": player_id,
                        "joined_at": utcnow(),
                        "withdrawn": False,
                        "score": 0.0,
                        "data": null(),
                    },
                )
        except IntegrityError:
            raise Conflict(N_("you are registered in this tournament already")) from None


def remove_player(storage: Storage, tournament_id: str, player_id: str, running: bool) -> bool:
    """Take ``player_id`` out: before the start, off the list; while it runs, marked
    withdrawn (their games stay). False when they were not in it (or withdrawn already)."""
    with storage.engine.begin() as c:
        where = (
            TournamentPlayerRow.tournament_id == tournament_id,
            TournamentPlayerRow.player_id == player_id,
        )
        if running:
            done = c.execute(
                update(TournamentPlayerRow)
                .where(*where, TournamentPlayerRow.withdrawn.is_(False))
                .values(withdrawn=True)
            )
        else:
            done = c.execute(delete(TournamentPlayerRow).where(*where))
        return done.rowcount == 1


def claim_round(
    storage: Storage,
    tournament_id: str,
    expected: int,
    tables: list[tuple[str, ...]],
    byes: list[tuple[str, dict[str, Any]]],
    start: dict[str, Any] | None = None,
) -> list[int] | None:
    """Move ``current_round`` from ``expected`` to ``expected + 1`` (``start``: also the
    columns that start the tournament) and store the round's tables (without games yet)
    and byes (each with its result), in one transaction. Returns the new rows' ids of
    ``tables`` in order, or None when another writer moved the round first."""
    status = (REGISTERING,) if start is not None else (RUNNING,)
    now = utcnow()
    with storage.engine.begin() as c:
        done = c.execute(
            update(TournamentRow)
            .where(
                TournamentRow.id == tournament_id,
                TournamentRow.current_round == expected,
                TournamentRow.status.in_(status),
            )
            .values(current_round=expected + 1, updated_at=now, **(start or {}))
        )
        if done.rowcount != 1:
            return None
        ids: list[int] = []
        for players in tables:
            key = c.execute(
                insert(TournamentGameRow).values(
                    tournament_id=tournament_id,
                    game_id=None,
                    round=expected + 1,
                    players=list(players),
                    result=null(),  # SQL NULL (None would store JSON null)
                    created_at=now,
                )
            ).inserted_primary_key
            assert key is not None
            ids.append(int(key[0]))
        for player, result in byes:
            c.execute(
                insert(TournamentGameRow).values(
                    tournament_id=tournament_id,
                    game_id=None,
                    round=expected + 1,
                    players=[player],
                    result=result,
                    created_at=now,
                )
            )
        return ids


def link_game(storage: Storage, row_id: int, game_id: str | None, result: Any = None) -> None:
    """Name the game of a table (or, when it could not be made, give it ``result``)."""
    with storage.engine.begin() as c:
        c.execute(
            update(TournamentGameRow)
            .where(TournamentGameRow.id == row_id)
            .values(game_id=game_id, **({} if result is None else {"result": result}))
        )


def record_result(
    storage: Storage,
    game_id: str,
    make: Callable[[str, int], dict[str, Any]],
) -> str | None:
    """Store the result of a tournament's game once: ``make(format, num_players)`` gives
    it (:func:`.tournament_logic.game_result`). Returns the tournament's id, or None (not
    a tournament game, or recorded already)."""
    with storage.engine.begin() as c:
        found = c.execute(
            select(TournamentGameRow.tournament_id, TournamentRow.format, TournamentRow.num_players)
            .join(TournamentRow, TournamentRow.id == TournamentGameRow.tournament_id)
            .where(TournamentGameRow.game_id == game_id, TournamentGameRow.result.is_(None))
        ).first()
        if found is None:
            return None
        done = c.execute(
            update(TournamentGameRow)
            .where(TournamentGameRow.game_id == game_id, TournamentGameRow.result.is_(None))
            .values(result=make(found.format, found.num_players))
        )
        return str(found.tournament_id) if done.rowcount == 1 else None


def save_standings(storage: Storage, tournament_id: str, lines: list[dict[str, Any]]) -> None:
    """Store each player's score, rank and tie-breaks (``lines`` as the standings)."""
    with storage.engine.begin() as c:
        for line in lines:
            data = {k: v for k, v in line.items() if k not in ("player_id", "name", "score")}
            c.execute(
                update(TournamentPlayerRow)
                .where(
                    TournamentPlayerRow.tournament_id == tournament_id,
                    TournamentPlayerRow.player_id == line["player_id"],
                )
                .values(score=line["score"], data=data)
            )


def set_status(storage: Storage, tournament_id: str, old: str, new: str, **values: Any) -> bool:
    """Move the status ``old`` → ``new`` (with other columns); False if another writer
    did first."""
    with storage.engine.begin() as c:
        done = c.execute(
            update(TournamentRow)
            .where(TournamentRow.id == tournament_id, TournamentRow.status == old)
            .values(status=new, updated_at=utcnow(), **values)
        )
        return done.rowcount == 1


def due(storage: Storage, now: datetime) -> dict[str, list[Any]]:
    """What the maintenance check acts on: ``"start"`` (ids of registering tournaments
    whose start time has come), ``"end"`` (running arenas past their end) and ``"results"``
    (``(game_id, result)`` of finished games whose result is not recorded yet)."""
    with storage.session() as s:
        start = s.scalars(
            select(TournamentRow.id).where(
                TournamentRow.status == REGISTERING, TournamentRow.starts_at <= now
            )
        ).all()
        end = s.scalars(
            select(TournamentRow.id).where(
                TournamentRow.status == RUNNING,
                TournamentRow.format == "arena",
                TournamentRow.ends_at <= now,
            )
        ).all()
        results = s.execute(
            select(GameRow.id, GameRow.result)
            .join(TournamentGameRow, TournamentGameRow.game_id == GameRow.id)
            .where(TournamentGameRow.result.is_(None), GameRow.status == "finished")
        ).all()
    return {"start": list(start), "end": list(end), "results": [tuple(r) for r in results]}


def of_player(storage: Storage, player_id: str, limit: int = 50) -> list[dict[str, Any]]:
    """The tournaments ``player_id`` entered, newest first: their columns with the
    player's ``"score"``, ``"place"`` (None before the start), ``"withdrawn"`` and
    ``"entrants"``."""
    with storage.session() as s:
        rows = s.execute(
            select(TournamentRow, TournamentPlayerRow)
            .join(TournamentPlayerRow, TournamentPlayerRow.tournament_id == TournamentRow.id)
            .where(TournamentPlayerRow.player_id == player_id)
            .order_by(TournamentRow.created_at.desc())
            .limit(limit)
        ).all()
        ids = [t.id for t, _ in rows]
        counts = dict(
            s.execute(
                select(TournamentPlayerRow.tournament_id, func.count())
                .where(TournamentPlayerRow.tournament_id.in_(ids))
                .group_by(TournamentPlayerRow.tournament_id)
            ).all()
        )
    return [
        {
            **_columns(t, TournamentRow),
            "score": float(e.score or 0.0),
            "place": (e.data or {}).get("rank"),
            "withdrawn": bool(e.withdrawn),
            "entrants": int(counts.get(t.id, 0)),
        }
        for t, e in rows
    ]


__all__ = [
    "CANCELLED",
    "FINISHED",
    "REGISTERING",
    "RUNNING",
    "Snapshot",
    "add_player",
    "checked_id",
    "claim_round",
    "count_registering",
    "due",
    "insert_tournament",
    "link_game",
    "load",
    "of_player",
    "record_result",
    "remove_player",
    "save_standings",
    "set_status",
    "summaries",
]
