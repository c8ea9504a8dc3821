"""splendor: a faithful, fast Python engine for Splendor and Splendor Duel.

Public API (see ``docs/engine.md``)::

    from splendor import classic, duel, get_game
    state = classic.new_game(num_players=2, seed=1)
    match = duel.new_game(seed=1)
    game = get_game("duel")                  # the game's descriptor: names, options, kernels

Every error the engines raise on bad input is a :class:`SplendorError` (a ``ValueError``):
:class:`ParseError` (notation or an action id), :class:`IllegalActionError` (a move the
rules forbid now) or :class:`PositionError` (a malformed or impossible position).
"""

from . import classic, duel
from .errors import IllegalActionError, ParseError, PositionError, SplendorError
from .game import games, get_game

__version__ = "0.1.0"

__all__ = [
    "IllegalActionError",
    "ParseError",
    "PositionError",
    "SplendorError",
    "classic",
    "duel",
    "games",
    "get_game",
    "__version__",
]
