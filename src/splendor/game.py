"""The protocol every game of the project implements, and the registry of games.

Interfaces (CLI, terminal, records, bots) reach a game only through this protocol, so that
classic Splendor and Splendor Duel are served by the same code.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

import numpy as np


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


class GameModule(Protocol):
    """A game package such as :mod:`splendor.classic`."""

    GAME_NAME: str
    MIN_PLAYERS: int
    MAX_PLAYERS: int
    NUM_ACTIONS: int
    TOKEN_LETTERS: str
    Action: Any
    IllegalActionError: type[Exception]

    def new_game(self, num_players: int = ..., seed: int | None = ..., **options: Any) -> Any:
        """Deal a game; ``options`` are game settings such as Duel's ``turn_cap`` (D25)."""
        ...

    def determinize(self, observation: Any, rng: np.random.Generator | int | None = ...) -> Any: ...
    def effects_of(self, before: Any, action: Any, after: Any) -> tuple[Any, ...]:
        """What a decision did besides its notation (:mod:`splendor.effects`)."""
        ...

    def warm_up(self) -> None: ...


ALIASES = {"classic": "splendor", "splendor-duel": "duel"}
"""Other accepted names of the registered games."""


def games() -> dict[str, ModuleType]:
    """The registered games by name: ``"splendor"`` (classic, 2-4 players) and ``"duel"``
    (Splendor Duel, 2 players)."""
    from . import classic, duel

    return {classic.GAME_NAME: classic, duel.GAME_NAME: duel}


def get_game(name: str) -> ModuleType:
    """The game module registered as ``name`` (or one of :data:`ALIASES`).

    Raises:
        ValueError: unknown game; the message lists the known ones.
    """
    table = games()
    key = ALIASES.get(name, name)
    if key not in table:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(sorted(table))}")
    return table[key]


def check_player_count(game: ModuleType, num_players: int) -> None:
    """Raise ValueError unless ``num_players`` suits ``game``."""
    if not game.MIN_PLAYERS <= num_players <= game.MAX_PLAYERS:
        raise ValueError(
            f"{game.GAME_NAME} is for {game.MIN_PLAYERS} to {game.MAX_PLAYERS} players, "
            f"got {num_players}"
        )


def seats_summary(names: Sequence[str]) -> str:
    """``"0:alice 1:greedy"`` style one-line listing of seats."""
    return " ".join(f"{i}:{n}" for i, n in enumerate(names))
