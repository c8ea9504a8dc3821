"""What a lobby request may say (:mod:`.tables`): the tables' statuses and limits, the
clocks (:func:`check_clock`), the game and its number of seats (:func:`game_and_size`) and
the whole body of "open a table" (:func:`read_table_request`). Every check refuses with a
:class:`.errors.BadRequest` that says what is allowed; nothing here touches the
database."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from ..descriptor import Game
from ..game import game_names, games, get_game
from . import bots as server_bots
from .errors import N_, BadRequest

OPEN, STARTED, CLOSED = "open", "started", "closed"
VISIBILITIES = ("open", "invite")
MAX_OPEN_TABLES = 200
"""The lobby lists at most this many open tables (oldest first)."""
MAX_TABLES_PER_HOST = 5
"""Open tables one player may host at once."""

MIN_CLOCK = 60
"""The shortest time bank (real time) or turn (turn-based) a table may have by default, in
seconds (:attr:`.rates.Limits.min_clock`)."""


def check_clock(clock: Any, min_seconds: int = MIN_CLOCK) -> dict[str, Any] | None:
    """A clock as stored (see :mod:`.tables`), or None.

    Args:
        clock: the request's ``"clock"``.
        min_seconds: the shortest time bank or turn allowed (seconds, at least 1).

    Raises:
        BadRequest: not one of the two clock shapes, or a time out of its range (a bank
            ``min_seconds``..7200 s, an increment 0..600 s, a turn ``min_seconds`` s..14 days).
    """
    if clock is None:
        return None
    if not isinstance(clock, dict):
        raise BadRequest('"clock" must be null, {"kind": "realtime", ...} or {"kind": "turn", ...}')

    def seconds(name: str, low: int, high: int) -> int:
        value = clock.get(name)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise BadRequest(
                N_('clock "{name}" must be a whole number of seconds {low}..{high}'),
                name=name,
                low=low,
                high=high,
            )
        return value

    kind = clock.get("kind")
    if kind == "realtime":
        if set(clock) != {"kind", "base", "increment"}:
            raise BadRequest('a realtime clock is {"kind": "realtime", "base": s, "increment": s}')
        return {
            "kind": "realtime",
            "base": seconds("base", min_seconds, 7200),
            "increment": seconds("increment", 0, 600),
        }
    if kind == "turn":
        if set(clock) != {"kind", "per_move"}:
            raise BadRequest('a turn-based clock is {"kind": "turn", "per_move": s}')
        return {"kind": "turn", "per_move": seconds("per_move", min_seconds, 14 * 24 * 3600)}
    raise BadRequest('clock "kind" must be "realtime" or "turn"')


def game_named(value: Any) -> Game:
    """The game a request names (any name :func:`splendor.game.get_game` knows).

    Raises:
        BadRequest: not a string, or no such game (the message lists the games).
    """
    if not isinstance(value, str):
        names = " or ".join(f'"{name}"' for name in game_names())
        raise BadRequest(f'"game" must be {names}')
    try:
        return get_game(value)
    except ValueError as e:
        raise BadRequest(str(e)) from None


def game_and_size(body: dict[str, Any]) -> tuple[Game, int]:
    """The game and number of seats a request names (``"game"``, ``"num_players"``,
    default the game's smallest).

    Raises:
        BadRequest: an unknown game, or a number of seats the game does not allow.
    """
    game = game_named(body.get("game"))
    n = body.get("num_players", game.min_players)
    if isinstance(n, bool) or not isinstance(n, int):
        raise BadRequest('"num_players" must be a whole number')
    if not game.min_players <= n <= game.max_players:
        raise BadRequest(
            N_("{game} is for {min} to {max} players"),
            game=game.name,
            min=game.min_players,
            max=game.max_players,
        )
    return game, n


def check_table_options(game: Game, options: Any) -> dict[str, Any]:
    """A table's ``"options"`` (None: ``{}``), as given, once :meth:`Game.check_options`
    accepts them (the deal's defaults are filled in when the game starts, not stored).

    Raises:
        BadRequest: not an object, an option ``game`` does not have (the message lists
            every game's options), or a value out of its range.
    """
    options = options or {}
    if not isinstance(options, dict) or set(options) - set(game.options):
        held = ", ".join(f'"{name}"' for g in games() for name in g.options)
        titles = " and ".join(g.title for g in games() if g.options)
        raise BadRequest(f'"options" may only hold {held}, for {titles}')
    try:
        game.check_options(options)
    except ValueError as e:
        raise BadRequest(str(e)) from None
    return dict(options)


def invite_hash(code: str) -> str:
    """The SHA-256 hex digest of an invitation code (what the database stores)."""
    return hashlib.sha256(code.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class TableRequest:
    """The body of "open a table", checked (:func:`read_table_request`)."""

    game: Game
    num_players: int
    bots: tuple[str, ...]
    rated: bool
    visibility: str
    clock: dict[str, Any] | None
    options: dict[str, Any]

    @property
    def free(self) -> int:
        """Seats left for players besides the host."""
        return self.num_players - 1 - len(self.bots)

    def seat_rows(self, table_id: str, host_id: str) -> list[dict[str, Any]]:
        """The rows of the table's seats: the host at 0, the free seats, the bots last."""
        seats = [{"table_id": table_id, "seat": 0, "player_id": host_id, "bot": None}]
        seats += [
            {"table_id": table_id, "seat": i, "player_id": None, "bot": None}
            for i in range(1, 1 + self.free)
        ]
        seats += [
            {"table_id": table_id, "seat": 1 + self.free + k, "player_id": None, "bot": b}
            for k, b in enumerate(self.bots)
        ]
        return seats


def read_table_request(body: dict[str, Any], min_clock: int = MIN_CLOCK) -> TableRequest:
    """The body of "open a table" (:meth:`.tables.Tables.open`), checked.

    Raises:
        BadRequest: anything malformed (the message says what is allowed).
    """
    game, n = game_and_size(body)
    bots = body.get("bots", [])
    if not isinstance(bots, list) or len(bots) > n - 1:
        raise BadRequest(f'"bots" must be a list of at most {n - 1} bot levels')
    for b in bots:
        if b not in server_bots.SERVER_BOTS:
            raise BadRequest(
                f"unknown bot {str(b)[:40]!r}; bots: {', '.join(server_bots.SERVER_BOTS)}"
            )
    rated = body.get("rated", not bots)
    if not isinstance(rated, bool):
        raise BadRequest('"rated" must be true or false')
    if rated and bots:
        raise BadRequest(N_("a table with a bot seat cannot be rated"))
    visibility = body.get("visibility", "open")
    if visibility not in VISIBILITIES:
        raise BadRequest('"visibility" must be "open" or "invite"')
    clock = check_clock(body.get("clock"), min_clock)
    options = check_table_options(game, body.get("options"))
    return TableRequest(game, n, tuple(bots), rated, visibility, clock, options)


__all__ = [
    "CLOSED",
    "MAX_OPEN_TABLES",
    "MAX_TABLES_PER_HOST",
    "MIN_CLOCK",
    "OPEN",
    "STARTED",
    "VISIBILITIES",
    "TableRequest",
    "check_clock",
    "check_table_options",
    "game_and_size",
    "game_named",
    "invite_hash",
    "read_table_request",
]
