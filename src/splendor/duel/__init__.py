"""Splendor Duel (2022), 2 players: the engine API of ``../shared/DESIGN.md``.

Example::

    from splendor import duel

    state = duel.new_game(seed=7)
    state.apply(duel.Action.parse("take c3 c4 c5"))
    obs = state.observation(1)          # what seat 1 may see (D22)
    full = duel.determinize(obs, 0)     # a state consistent with it
    text = state.to_text()              # the position as one line (docs/notation.md)
    assert duel.State.from_text(text) == state
"""

from ..colors import DUEL_TOKEN_LETTERS as TOKEN_LETTERS
from . import board
from .actions import ACTIONS, NOTATION_HELP, NUM_ACTIONS, Action
from .cards import CARDS, ROYALS, Card, Royal
from .effects import effects_of
from .game import GAME
from .notation import build_position
from .position import position_problems as check_position  # the gate of State.from_dict
from .state import (
    STATE_DTYPE,
    HiddenCard,
    IllegalActionError,
    Observation,
    PlayerView,
    State,
    check_invariants,
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
    "NOTATION_HELP",
    "NUM_ACTIONS",
    "ROYALS",
    "STATE_DTYPE",
    "TOKEN_LETTERS",
    "Action",
    "Card",
    "HiddenCard",
    "IllegalActionError",
    "Observation",
    "PlayerView",
    "Royal",
    "State",
    "board",
    "build_position",
    "check_invariants",
    "check_position",
    "determinize",
    "effects_of",
    "new_game",
    "replay",
    "warm_up",
]
