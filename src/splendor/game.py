"""The protocol every game of the project implements, and the registry of games
(:func:`games`, :func:`get_game`: each a :class:`~splendor.descriptor.Game`).

Interfaces (CLI, terminal, records, bots) reach a game only through this protocol, so that
classic Splendor and Splendor Duel are served by the same code.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .descriptor import Game


@runtime_checkable
class GameState(Protocol):
    """What a full game state offers (see ``../shared/DESIGN.md``, "The engine API")."""

    @property
    def num_players(self) -> int: ...
    @property
    def current_player(self) -> int | None: ...
    @property
    def is_terminal(self) -> bool: ...
    @property
    def winners(self) -> list[int]: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def turn(self) -> int: ...
    def legal_actions(self) -> list[Any]: ...
    def legal_mask(self) -> np.ndarray: ...
    def apply(self, action: Any) -> None: ...
    def copy(self) -> GameState: ...
    def observation(self, seat: int) -> Any: ...
    def to_dict(self) -> dict[str, Any]: ...
    @property
    def game(self) -> Game: ...


def games() -> tuple[Game, ...]:
    """Every game of the project, in a fixed order: classic Splendor (``"splendor"``, 2-4
    players) then Splendor Duel (``"duel"``, 2 players)."""
    from .classic.game import GAME as CLASSIC
    from .duel.game import GAME as DUEL

    return (CLASSIC, DUEL)


def game_names() -> tuple[str, ...]:
    """The canonical names of :func:`games`, for messages and ``--help``."""
    return tuple(g.name for g in games())


def get_game(name: str | Game) -> Game:
    """The game called ``name``: its canonical name, its package's (``"classic"``) or any
    of its aliases, in any case; a :class:`Game` is returned as it is.

    Raises:
        ValueError: unknown game; the message lists the known ones.
    """
    if isinstance(name, Game):
        return name
    key = str(name).strip().lower()
    for game in games():
        if key in game.names:
            return game
    raise ValueError(f"unknown game {name!r}; known games: {', '.join(game_names())}")


def seats_summary(names: Sequence[str]) -> str:
    """``"0:alice 1:greedy"`` style one-line listing of seats."""
    return " ".join(f"{i}:{n}" for i, n in enumerate(names))
