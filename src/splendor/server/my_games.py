"""A player's games ("My games"): every game the player sits in (a lobby table, Play now,
an invitation game claimed by a session, a tournament: every ``seats.player_id`` row),
unfinished first, with the opponents, whose turn it is, whether the game waits on the
player, the time or deadline left and the last activity; then the recent finished ones.

The number of games **waiting on** a player (:func:`waiting_counts`: an active game whose
next decision is a seat the player holds and still plays, ``games.next_seat``) is one
indexed query; it is what the top bar shows and what ``WS /ws/me`` pushes
(:mod:`.player_feed`).

The time left comes from the game's clock: the running clock of a game in the service's
memory (:attr:`.live.LiveGame.clock_state`), else the clock stored with its last move
(``moves.clock``, ``{"remaining": [s, ...], "running": seat}``, counted from that move's
time), else a fresh clock counted from the game's creation (no move yet).

The work is split between a thread and the event loop: :func:`read_games` reads the
database (call it through :func:`asyncio.to_thread`), :func:`entries` turns what it read
into JSON on the event loop, where the service's live games may be looked at.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, func, select

from .storage import (
    STATUS_ACTIVE,
    STATUS_FINISHED,
    GameRow,
    MoveRow,
    PlayerRow,
    SeatRow,
    Storage,
    aware,
    utcnow,
)

if TYPE_CHECKING:
    from .live import LiveGame

FINISHED_LIMIT = 20
"""How many recent finished games "My games" lists."""

MAX_UNFINISHED = 500
"""At most this many unfinished games are listed (the most recently active first)."""


@dataclass(frozen=True)
class SeatView:
    """One seat of a listed game: its player (None: a bot or a person known only by a
    seat token), name, bot level, and whether its player is a guest."""

    seat: int
    name: str
    player_id: str | None
    bot: str | None
    guest: bool


@dataclass
class GameRead:
    """What the database holds about one listed game (:func:`read_games`).

    Attributes:
        row: the game's row. seat: the player's seat (the first one, if several).
        seats: every seat of the game, in order.
        last_clock: the clock stored with its last move (None: no move, or no clock).
        last_move_at: when its last move was stored (None: no move).
        moves: the number of stored decisions.
    """

    row: GameRow
    seat: int
    seats: list[SeatView] = field(default_factory=list)
    last_clock: dict[str, Any] | None = None
    last_move_at: datetime | None = None
    moves: int = 0


def _waiting_rows(storage: Storage, player_ids: Sequence[str]) -> list[tuple[str, str]]:
    """``(player_id, game_id)`` of every active game waiting on one of ``player_ids``."""
    if not player_ids:
        return []
    with storage.session() as s:
        return [
            (p, g)
            for p, g in s.execute(
                select(SeatRow.player_id, SeatRow.game_id)
                .join(GameRow, GameRow.id == SeatRow.game_id)
                .where(
                    SeatRow.player_id.in_(set(player_ids)),
                    SeatRow.type == "human",
                    GameRow.status == STATUS_ACTIVE,
                    GameRow.next_seat == SeatRow.seat,
                )
            ).all()
            if p is not None
        ]


def waiting_counts(storage: Storage, player_ids: Sequence[str]) -> dict[str, int]:
    """How many active games wait on each of ``player_ids`` (their next decision is a seat
    the player holds and plays: a seat a bot took over after a resignation does not
    count), in one query. Every id asked for is in the answer (0: none)."""
    counts = dict.fromkeys(player_ids, 0)
    seen: set[tuple[str, str]] = set()
    for p, g in _waiting_rows(storage, player_ids):
        if (p, g) not in seen:  # a player holding two seats of one game counts it once
            seen.add((p, g))
            counts[p] = counts.get(p, 0) + 1
    return counts


def waiting_count(storage: Storage, player_id: str) -> int:
    """:func:`waiting_counts` of one player."""
    return waiting_counts(storage, [player_id])[player_id]


def read_games(
    storage: Storage,
    player_id: str,
    *,
    finished: int = FINISHED_LIMIT,
    unfinished: int = MAX_UNFINISHED,
) -> tuple[list[GameRead], list[GameRead]]:
    """The unfinished games of ``player_id`` (at most ``unfinished``, the most recently
    active first) and its ``finished`` most recent finished games, read in four queries
    whatever their number (the games, their seats with their players, the last move of
    each). Blocking: call it in a thread."""
    with storage.session() as s:

        def mine(status_test: Any, limit: int) -> list[GameRead]:
            rows = s.execute(
                select(GameRow, func.min(SeatRow.seat))
                .join(SeatRow, SeatRow.game_id == GameRow.id)
                .where(SeatRow.player_id == player_id, status_test)
                .group_by(GameRow.id)
                .order_by(GameRow.updated_at.desc(), GameRow.id)
                .limit(limit)
            ).all()
            return [GameRead(row, int(seat)) for row, seat in rows]

        active = mine(GameRow.status != STATUS_FINISHED, unfinished) if unfinished > 0 else []
        done = mine(GameRow.status == STATUS_FINISHED, finished) if finished > 0 else []
        reads = {r.row.id: r for r in (*active, *done)}
        if reads:
            _read_seats(s, reads)
            _read_last_moves(s, {k: v for k, v in reads.items() if v.row.status != "finished"})
    return active, done


def _read_seats(s: Any, reads: dict[str, GameRead]) -> None:
    """Fill the seats of every game of ``reads`` (one query)."""
    rows = s.execute(
        select(SeatRow, PlayerRow.name_key, PlayerRow.id)
        .outerjoin(PlayerRow, PlayerRow.id == SeatRow.player_id)
        .where(SeatRow.game_id.in_(list(reads)))
        .order_by(SeatRow.game_id, SeatRow.seat)
    ).all()
    for seat, name_key, known in rows:
        reads[seat.game_id].seats.append(
            SeatView(
                seat=seat.seat,
                name=seat.name,
                player_id=seat.player_id,
                bot=seat.bot if seat.type == "bot" else None,
                guest=known is not None and name_key is None,
            )
        )


def _read_last_moves(s: Any, reads: dict[str, GameRead]) -> None:
    """Fill the last move's clock, time and the move count of the unfinished games of
    ``reads`` (one query)."""
    if not reads:
        return
    last = (
        select(MoveRow.game_id, func.max(MoveRow.idx).label("idx"))
        .where(MoveRow.game_id.in_(list(reads)))
        .group_by(MoveRow.game_id)
        .subquery()
    )
    rows = s.execute(
        select(MoveRow.game_id, MoveRow.idx, MoveRow.clock, MoveRow.created_at).join(
            last, and_(MoveRow.game_id == last.c.game_id, MoveRow.idx == last.c.idx)
        )
    ).all()
    for game_id, idx, clock, at in rows:
        read = reads[game_id]
        read.moves = int(idx) + 1
        read.last_clock = clock
        read.last_move_at = aware(at)


# ---------------------------------------------------------------------- as JSON


def _stored_deadline(read: GameRead, to_move: int | None) -> datetime | None:
    """When ``to_move``'s time runs out in a game not in memory: from the clock stored
    with its last move, else from its creation (a fresh clock)."""
    spec = read.row.clock
    if spec is None or to_move is None:
        return None
    full: Any = spec.get("base") if spec.get("kind") == "realtime" else spec.get("per_move")
    clock = read.last_clock
    try:
        if clock is not None and read.last_move_at is not None:
            if clock.get("running") != to_move:
                return None
            left = float(clock["remaining"][to_move])
            return read.last_move_at + timedelta(seconds=left)
        return aware(read.row.created_at) + timedelta(seconds=float(full))
    except (KeyError, IndexError, TypeError, ValueError):
        return None  # an unreadable stored clock: no deadline shown


def _clock_of(
    read: GameRead, live: LiveGame | None, to_move: int | None, now: datetime
) -> tuple[datetime | None, float | None]:
    """The deadline of the seat to move and its seconds left (None, None: no clock)."""
    deadline: datetime | None = None
    if live is not None and live.clock_state is not None:
        end = live.clock_state.deadline()
        if end is not None and live.clock_state.running == to_move:
            deadline = datetime.fromtimestamp(end, UTC)
    else:
        deadline = _stored_deadline(read, to_move)
    if deadline is None:
        return None, None
    return deadline, max(0.0, (deadline - now).total_seconds())


def _outcome(result: dict[str, Any] | None, seat: int) -> str | None:
    """``"won"``, ``"shared"``, ``"lost"`` for ``seat`` of a finished game's result."""
    if not isinstance(result, dict):
        return None
    winners = [w for w in result.get("winners") or [] if isinstance(w, int)]
    if seat in winners:
        return "shared" if len(winners) > 1 else "won"
    return "lost"


def entry(
    read: GameRead, player_id: str | None, live: LiveGame | None, now: datetime
) -> dict[str, Any]:
    """One game as "My games" and the player page list it: ``{"id", "game",
    "num_players", "status", "rated", "clock" (its settings or null), "seat" (the listed
    player's), "players": [{"seat", "name", "player_id", "bot", "guest", "you"}],
    "to_move" (seat or null), "to_move_name", "waiting" (on the player ``player_id``),
    "deadline" (ISO 8601 UTC or null), "time_left" (seconds or null), "moves",
    "updated_at", "url"}``, and once over ``"result"``, ``"outcome"`` (won, shared, lost),
    ``"scores"`` and ``"replay"``. ``live``: the game in the service's memory, if it is."""
    row = read.row
    finished = row.status == STATUS_FINISHED
    to_move = None if finished else row.next_seat
    moves = read.moves
    updated = aware(row.updated_at)
    if live is not None and not finished:
        to_move = live.current_player
        moves = len(live.moves)
        updated = max(updated, aware(live.updated_at))
    seats = {v.seat: v for v in read.seats}
    mover = seats.get(to_move) if to_move is not None else None
    plays = mover is not None and mover.bot is None
    deadline, left = _clock_of(read, live, to_move, now) if not finished else (None, None)
    out: dict[str, Any] = {
        "id": row.id,
        "game": row.game,
        "num_players": row.num_players,
        "status": row.status,
        "rated": bool(row.rated),
        "clock": row.clock,
        "seat": read.seat,
        "players": [
            {
                "seat": v.seat,
                "name": v.name,
                "player_id": v.player_id,
                "bot": v.bot,
                "guest": v.guest,
                "you": player_id is not None and v.player_id == player_id,
            }
            for v in read.seats
        ],
        "to_move": to_move,
        "to_move_name": None if mover is None else mover.name,
        "waiting": bool(plays and mover is not None and mover.player_id == player_id),
        "deadline": None if deadline is None else deadline.isoformat(),
        "time_left": None if left is None else round(left, 1),
        "moves": moves,
        "updated_at": updated.isoformat(),
        "url": f"/games/{row.id}",
    }
    if finished:
        out["result"] = row.result
        out["outcome"] = _outcome(row.result, read.seat)
        out["scores"] = (row.result or {}).get("scores")
        out["replay"] = f"/games/{row.id}/replay"
    return out


def _order(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Unfinished games: those waiting on the player first, soonest deadline first; then
    the others, most recently active first (the sort is stable)."""
    games = sorted(games, key=lambda g: g["updated_at"], reverse=True)
    return sorted(
        games,
        key=lambda g: (
            not g["waiting"],
            g["time_left"] is None,
            g["time_left"] if g["time_left"] is not None else 0.0,
        ),
    )


def entries(
    active: Iterable[GameRead],
    finished: Iterable[GameRead],
    player_id: str | None,
    find_live: Callable[[str], LiveGame | None],
    now: datetime,
) -> dict[str, Any]:
    """``{"games": [...unfinished, ordered], "finished": [...], "waiting": n}`` (each entry
    as :func:`entry`; ``waiting``: how many unfinished games wait on ``player_id``).
    ``find_live(game_id)``: the game in the service's memory or None (event loop only)."""
    games = _order([entry(r, player_id, find_live(r.row.id), now) for r in active])
    done = [entry(r, player_id, None, now) for r in finished]
    return {
        "games": games,
        "finished": done,
        "waiting": sum(1 for g in games if g["waiting"]),
    }


def open_games_of(storage: Storage, player_id: str, limit: int) -> list[dict[str, Any]]:
    """The unfinished games of ``player_id`` for its player page: at most ``limit`` (the
    most recently active), as :func:`entry` (from the stored clocks: usable in a thread),
    those waiting on the player first. Blocking: call it in a thread."""
    active, _ = read_games(storage, player_id, finished=0, unfinished=limit)
    games: list[dict[str, Any]] = entries(active, [], player_id, lambda _id: None, utcnow())[
        "games"
    ]
    return games


__all__ = [
    "FINISHED_LIMIT",
    "MAX_UNFINISHED",
    "GameRead",
    "SeatView",
    "entries",
    "entry",
    "open_games_of",
    "read_games",
    "waiting_count",
    "waiting_counts",
]
