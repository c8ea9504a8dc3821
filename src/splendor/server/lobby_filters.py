"""The lobby's filters: which open tables a player wants to see (``GET /api/tables``'s
query parameters; the browser applies the same rules to the live list of ``/ws/lobby``).

- ``game``: a game's name (``splendor``, ``duel``);
- ``clock``: ``none`` (no clock), ``realtime`` (time banks), ``turn`` (a deadline per move);
- ``rated``: ``true`` or ``false``;
- ``min_rating``, ``max_rating``: the host's rating in the table's kind
  (``host_rating.value`` of a table, :func:`.table_seating.host_ratings`), 0 to 10000.

A filter left out keeps every table. The tables where the asking player sits are always
kept (the player must see the table they wait at).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..game import game_names
from .errors import BadRequest

CLOCK_KINDS = ("none", "realtime", "turn")
"""The values of the ``clock`` filter."""

MAX_RATING = 10000


@dataclass(frozen=True)
class LobbyFilter:
    """What the lobby shows (module docstring); None: any."""

    game: str | None = None
    clock: str | None = None
    rated: bool | None = None
    min_rating: int | None = None
    max_rating: int | None = None

    @classmethod
    def parse(cls, query: Mapping[str, str]) -> LobbyFilter:
        """The filter of a request's query parameters (empty values are left out).

        Raises:
            BadRequest: an unknown game or clock kind, ``rated`` other than true/false, a
                rating that is not a whole number from 0 to 10000, or a minimum above the
                maximum.
        """
        get = {k: v for k, v in query.items() if v != ""}
        game = get.get("game")
        if game is not None and game not in game_names():
            raise BadRequest(f'"game" must be one of {", ".join(game_names())}, got {game!r}')
        clock = get.get("clock")
        if clock is not None and clock not in CLOCK_KINDS:
            raise BadRequest(f'"clock" must be one of {", ".join(CLOCK_KINDS)}, got {clock!r}')
        rated = get.get("rated")
        if rated is not None and rated not in ("true", "false"):
            raise BadRequest(f'"rated" must be true or false, got {rated!r}')
        low, high = _rating(get, "min_rating"), _rating(get, "max_rating")
        if low is not None and high is not None and low > high:
            raise BadRequest('"min_rating" must not be above "max_rating"')
        return cls(game, clock, None if rated is None else rated == "true", low, high)

    def keeps(self, table: Mapping[str, Any]) -> bool:
        """Whether ``table`` (a lobby table as JSON) passes the filter."""
        if self.game is not None and table.get("game") != self.game:
            return False
        if self.clock is not None:
            clock = table.get("clock")
            kind = "none" if clock is None else clock.get("kind")
            if kind != self.clock:
                return False
        if self.rated is not None and bool(table.get("rated")) != self.rated:
            return False
        if self.min_rating is not None or self.max_rating is not None:
            value = (table.get("host_rating") or {}).get("value")
            if not isinstance(value, (int, float)):
                return False
            if self.min_rating is not None and value < self.min_rating:
                return False
            if self.max_rating is not None and value > self.max_rating:
                return False
        return True

    def apply(self, tables: list[dict[str, Any]], player_id: str | None) -> list[dict[str, Any]]:
        """The tables that pass, and those where ``player_id`` sits, in their order."""
        return [
            t
            for t in tables
            if self.keeps(t)
            or (player_id is not None and any(s["player_id"] == player_id for s in t["seats"]))
        ]


def _rating(query: Mapping[str, str], name: str) -> int | None:
    raw = query.get(name)
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit()) or int(raw) > MAX_RATING:
        raise BadRequest(f'"{name}" must be a whole number from 0 to {MAX_RATING}, got {raw!r}')
    return int(raw)


__all__ = ["CLOCK_KINDS", "LobbyFilter"]
