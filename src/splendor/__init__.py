"""splendor: a faithful, fast Python engine for Splendor and Splendor Duel.

Public API (see ``README.md``)::

    from splendor import classic
    state = classic.new_game(num_players=2, seed=1)
"""

from . import classic

__version__ = "0.1.0"

__all__ = ["classic", "__version__"]
