"""splendor: a faithful, fast Python engine for Splendor and Splendor Duel.

Public API (see ``docs/engine.md``)::

    from splendor import classic, duel
    state = classic.new_game(num_players=2, seed=1)
    match = duel.new_game(seed=1)
"""

from . import classic, duel
from .errors import IllegalActionError

__version__ = "0.1.0"

__all__ = ["IllegalActionError", "classic", "duel", "__version__"]
