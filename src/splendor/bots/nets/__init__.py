"""The trained networks that ship with the package (issue 17).

One file per game and player count, ``{game}-{players}p.npz`` (``classic-2p.npz``,
``classic-3p.npz``, ``classic-4p.npz``, ``duel-2p.npz``), each a
:class:`~splendor.bots.network.PolicyValueNet` whose ``info`` holds the command, seed and
log summary that produced it and ``play``, the search settings it is played with (``mix``,
``exploration``, ``temperature``, ``lookahead``). The runs
themselves (config, full log) are in ``results/training/`` of the repository.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from ...descriptor import Game
from ...game import get_game


def shipped_path(game: str | Game, players: int) -> Path | None:
    """The shipped network file for ``game`` (any name of :func:`splendor.game.get_game`,
    or the :class:`~splendor.descriptor.Game`) with ``players`` players, or None when none
    ships for it.

    Raises:
        ValueError: an unknown game.
    """
    name = f"{get_game(game).package}-{int(players)}p.npz"
    path = Path(str(resources.files(__name__).joinpath(name)))
    return path if path.is_file() else None


def shipped() -> list[str]:
    """The names of the shipped networks (``["classic-2p", ...]``), sorted."""
    folder = Path(str(resources.files(__name__)))
    return sorted(p.stem for p in folder.glob("*.npz"))


__all__ = ["shipped", "shipped_path"]
