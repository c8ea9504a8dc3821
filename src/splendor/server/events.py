"""What happened on the platform, for the parts that react to it (notifications, "my games",
tournaments): a small in-process publish/subscribe, one per app.

The game service and the lobby **emit**; the reacting parts **subscribe**. None of the
subscribers writes a game's moves (DESIGN.md: "Notifications and tournaments are parts of
their own that react to game events"). Events are emitted on the event loop, by the process
that made the change (the game's home process), once per change: a process that only
reloads a game another process changed emits nothing.

Kinds (:data:`KINDS`) and their payloads:

- ``"game.started"``, ``"game.moved"``, ``"game.finished"``: a :class:`GameEvent` (a game
  was created; a decision was committed or a seat changed hands; the game ended);
- ``"game.resumed"``: a :class:`GameEvent` (a game with a running clock was loaded when the
  server started: nothing happened in it, but its deadline runs again);
- ``"table.joined"``: a :class:`TableEvent` (a player took a seat at a lobby table);
- ``"tournament.round"``: a :class:`TournamentEvent` (a tournament's round or arena
  pairing made games for these players).

A subscriber is a plain function called with the payload; it must return quickly (start
a task for slow work, see :meth:`Events.emit`). An exception in one subscriber is logged
and does not reach the emitter or the other subscribers.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

log = logging.getLogger("splendor.server.events")

KINDS = (
    "game.started",
    "game.moved",
    "game.finished",
    "game.resumed",
    "table.joined",
    "tournament.round",
)
"""The kinds of events (module docstring)."""


@dataclass(frozen=True)
class GameEvent:
    """A game changed.

    Attributes:
        game_id: the game.
        game: its game's name (``"splendor"``, ``"duel"``).
        num_players: its number of seats.
        move: how many decisions are committed (the move number the next decision gets).
        to_move: the seat whose decision is next (None: the game is over).
        players: the player id of each seat (None: a bot, or a person known only by a
            seat token).
        bots: the seats a bot plays.
        clock: the game's clock settings (:mod:`.tables`), or None.
        deadline: when the seat to move runs out of time (UTC), or None (no clock).
        turn_seconds: the time that seat had for this decision in seconds (its bank or
            the turn's allowance), or None.
        rated: whether the result changes ratings.
        result: the record's result once over, else None.
        at: when the change happened (UTC).
    """

    game_id: str
    game: str
    num_players: int
    move: int
    to_move: int | None
    players: tuple[str | None, ...]
    bots: frozenset[int]
    clock: dict[str, Any] | None
    deadline: datetime | None
    turn_seconds: float | None
    rated: bool
    result: dict[str, Any] | None
    at: datetime

    @property
    def player_to_move(self) -> str | None:
        """The player id of the seat to move (None: over, a bot, or unknown)."""
        if self.to_move is None or self.to_move in self.bots:
            return None
        return self.players[self.to_move]

    @property
    def turn_based(self) -> bool:
        """Whether the game is played with a deadline per move (``{"kind": "turn"}``)."""
        return self.clock is not None and self.clock.get("kind") == "turn"


@dataclass(frozen=True)
class TableEvent:
    """A player took a seat at a lobby table (``host_id``'s): ``seated`` the players seated
    now, ``free`` the seats still free."""

    table_id: str
    host_id: str
    player_id: str
    seated: tuple[str, ...]
    free: int
    game: str
    num_players: int


@dataclass(frozen=True)
class TournamentEvent:
    """A tournament paired players: ``games`` maps each game id it made to the player ids
    of its seats (a bye has no game: its player is in ``byes``)."""

    tournament_id: str
    name: str
    round: int
    games: dict[str, tuple[str, ...]] = field(default_factory=dict)
    byes: tuple[str, ...] = ()


class Events:
    """The app's event bus (no global state: one per app, ``app.state.events``)."""

    def __init__(self) -> None:
        self._subscribers: dict[str, list[Callable[[Any], None]]] = {k: [] for k in KINDS}

    def subscribe(self, kind: str, callback: Callable[[Any], None]) -> None:
        """Call ``callback(payload)`` for every event of ``kind``.

        Raises:
            ValueError: ``kind`` is not one of :data:`KINDS`.
        """
        if kind not in self._subscribers:
            raise ValueError(f"unknown event kind {kind!r}; one of {', '.join(KINDS)}")
        self._subscribers[kind].append(callback)

    def emit(self, kind: str, payload: Any) -> None:
        """Hand ``payload`` to every subscriber of ``kind``, in the order they subscribed
        (synchronously; a subscriber's exception is logged and skipped).

        Raises:
            ValueError: ``kind`` is not one of :data:`KINDS`.
        """
        if kind not in self._subscribers:
            raise ValueError(f"unknown event kind {kind!r}; one of {', '.join(KINDS)}")
        for callback in list(self._subscribers[kind]):
            try:
                callback(payload)
            except Exception:
                log.exception("a subscriber of %s failed", kind)


__all__ = ["KINDS", "Events", "GameEvent", "TableEvent", "TournamentEvent"]
