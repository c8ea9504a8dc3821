"""Classic Splendor (2014), 2-4 players: the engine API of ``../shared/DESIGN.md``.

Example::

    from splendor import classic

    state = classic.new_game(num_players=3, seed=7)
    state.apply(classic.Action.parse("take W U G"))
    obs = state.observation(1)          # what seat 1 may see (C16)
    full = classic.determinize(obs, 0)  # a state consistent with it
    text = state.to_text()              # the position as one line (docs/notation.md)
    assert classic.State.from_text(text) == state
"""

from ..colors import TOKEN_LETTERS
from .actions import ACTIONS, NOTATION_HELP, NUM_ACTIONS, Action
from .cards import CARDS, NOBLES, Card, Noble
from .effects import effects_of
from .game import GAME
from .notation import build_position
from .state import (
    STATE_DTYPE,
    HiddenCard,
    IllegalActionError,
    Observation,
    PlayerView,
    State,
    check_invariants,
    check_position,
    determinize,
    new_game,
    replay,
    warm_up,
)

GAME_NAME = GAME.name
MIN_PLAYERS = GAME.min_players
MAX_PLAYERS = GAME.max_players

__all__ = [
    "ACTIONS",
    "GAME",
    "CARDS",
    "GAME_NAME",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NOBLES",
    "NOTATION_HELP",
    "NUM_ACTIONS",
    "STATE_DTYPE",
    "TOKEN_LETTERS",
    "Action",
    "Card",
    "HiddenCard",
    "IllegalActionError",
    "Noble",
    "Observation",
    "PlayerView",
    "State",
    "build_position",
    "check_invariants",
    "check_position",
    "determinize",
    "effects_of",
    "new_game",
    "replay",
    "warm_up",
]
