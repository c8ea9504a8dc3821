"""What "create a tournament" may say (:func:`read_tournament_request`): its name, game and
table size, format, clock, rating, rounds, player limit, start and arena duration. Every
check refuses with a :class:`.errors.BadRequest` that says what is allowed; nothing here
touches the database."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from .errors import N_, BadRequest
from .protocol import BadNameError, clean_name
from .table_forms import MIN_CLOCK, check_clock, game_and_size

FORMATS = ("swiss", "groups", "arena")
"""``swiss``: two players a game; ``groups``: three or four; ``arena``: any size."""
MAX_NAME = 64
"""The longest tournament name (characters)."""
MAX_ROUNDS = 30
MIN_PLAYERS, MAX_PLAYERS = 2, 1000
"""The range of a tournament's player limit."""
MIN_ARENA, MAX_ARENA = 60, 14 * 24 * 3600
"""An arena's shortest and longest duration (seconds)."""
MAX_AHEAD = timedelta(days=60)
"""How far ahead a tournament may be scheduled."""


@dataclass(frozen=True)
class TournamentRequest:
    """The body of "create a tournament", checked (:func:`read_tournament_request`).
    ``starts_at`` None: it starts when full (``max_players``) or when its creator starts
    it; ``duration``: an arena's length in seconds (else None)."""

    name: str
    game: str
    num_players: int
    format: str
    clock: dict[str, Any] | None
    rated: bool
    rounds: int | None
    max_players: int | None
    starts_at: datetime | None
    duration: int | None


def _whole(body: dict[str, Any], name: str, low: int, high: int) -> int | None:
    """``body[name]`` if it is a whole number ``low..high`` (None when absent or null)."""
    value = body.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRequest(
            N_('"{name}" must be a whole number {low}..{high}'), name=name, low=low, high=high
        )
    return value


def _starts_at(value: Any, now: datetime) -> datetime | None:
    """A start time: an ISO 8601 date and time with its offset, in the future, at most
    :data:`MAX_AHEAD` ahead (None when absent or null)."""
    if value is None:
        return None
    try:
        when = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        raise BadRequest(
            N_('"starts_at" must be a date and time with its offset, such as {example}'),
            example="2030-01-31T18:00:00+00:00",
        )
    if not now <= when <= now + MAX_AHEAD:
        raise BadRequest(N_('"starts_at" must be in the next {days} days'), days=MAX_AHEAD.days)
    return when


def _format(value: Any, game_min: int, game_max: int, n: int) -> str:
    if value not in FORMATS:
        raise BadRequest(N_('"format" must be "swiss", "groups" or "arena"'))
    fmt = str(value)
    if fmt == "swiss" and n != 2:
        raise BadRequest(N_("a Swiss tournament is for games of 2 players"))
    if fmt == "groups" and n < 3:
        raise BadRequest(N_("groups are for games of 3 or 4 players"))
    if not game_min <= n <= game_max:  # game_and_size checked it: kept for the reader
        raise BadRequest(N_("this game cannot be played by {n}"), n=n)
    return fmt


def read_tournament_request(
    body: dict[str, Any], now: datetime, min_clock: int = MIN_CLOCK
) -> TournamentRequest:
    """The body of ``POST /api/tournaments``, checked: ``{"name": 1-64 characters,
    "game", "num_players" (as a table: 2 for swiss, 3-4 for groups), "format": "swiss" |
    "groups" | "arena", "clock": a table's clock or null, "rated": bool (default false),
    "rounds": 1-30 (swiss and groups; default 5), "max_players": 2-1000 or null,
    "starts_at": ISO 8601 with offset or null, "duration": an arena's seconds
    60-1,209,600 (default 3600)}``. Without ``starts_at`` a ``max_players`` is required
    (it starts when full, or when its creator starts it).

    Raises:
        BadRequest: anything malformed (the message says what is allowed).
    """
    known = {"name", "game", "num_players", "format", "clock", "rated", "rounds"}
    known |= {"max_players", "starts_at", "duration"}
    unknown = sorted(set(body) - known)
    if unknown:
        raise BadRequest(f"unknown field {unknown[0][:40]!r}; fields: {', '.join(sorted(known))}")
    raw = body.get("name")
    try:
        name = clean_name(raw, MAX_NAME) if isinstance(raw, str) else ""
    except BadNameError:
        name = ""
    if not name:
        raise BadRequest(N_('"name" must be 1 to {max} characters'), max=MAX_NAME)
    game, n = game_and_size(body)
    fmt = _format(body.get("format"), game.min_players, game.max_players, n)
    clock = check_clock(body.get("clock"), min_clock)
    rated = body.get("rated", False)
    if not isinstance(rated, bool):
        raise BadRequest('"rated" must be true or false')
    rounds = _whole(body, "rounds", 1, MAX_ROUNDS)
    duration = _whole(body, "duration", MIN_ARENA, MAX_ARENA)
    if fmt == "arena":
        if rounds is not None:
            raise BadRequest(N_('an arena has no "rounds": it lasts its "duration"'))
        duration = 3600 if duration is None else duration
    else:
        if duration is not None:
            raise BadRequest(N_('only an arena has a "duration"'))
        rounds = 5 if rounds is None else rounds
    max_players = _whole(body, "max_players", max(MIN_PLAYERS, n), MAX_PLAYERS)
    starts_at = _starts_at(body.get("starts_at"), now)
    if starts_at is None and max_players is None:
        raise BadRequest(N_('give "starts_at" (a start time) or "max_players" (start when full)'))
    return TournamentRequest(
        name, game.name, n, fmt, clock, rated, rounds, max_players, starts_at, duration
    )


__all__ = [
    "FORMATS",
    "MAX_AHEAD",
    "MAX_ARENA",
    "MAX_NAME",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "MIN_ARENA",
    "MIN_PLAYERS",
    "TournamentRequest",
    "read_tournament_request",
]
