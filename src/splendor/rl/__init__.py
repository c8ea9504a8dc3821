"""Research interfaces: Gymnasium and PettingZoo environments on top of the engine, and
the observation tensor they share (an OpenSpiel game lives in
:mod:`splendor.rl.openspiel_game`, imported on demand since it needs ``pyspiel``).

Importing this package registers the Gymnasium ids (no entry point needed)::

    import gymnasium
    import splendor.rl

    env = gymnasium.make("splendor/Splendor-v0", opponent="greedy")       # classic, 2-4 players
    env = gymnasium.make("splendor/SplendorDuel-v0", opponent="random")   # Splendor Duel
    envs = gymnasium.make_vec("splendor/Splendor-v0", num_envs=1024)       # compiled, batched

``gymnasium.make_vec`` builds the compiled :class:`~splendor.rl.vector_env.SplendorVectorEnv`
(bots ``"random"`` or ``"greedy"``; ``vectorization_mode="sync"`` for other bots), and
:class:`splendor.rl.batch.BatchedGames` steps every seat of N games for self-play. This
package exposes the PettingZoo modules :mod:`splendor.rl.splendor_v0` and
:mod:`splendor.rl.splendor_duel_v0` (``env()``, ``raw_env``). The tensor layout is in
:mod:`splendor.rl.encoding` and ``docs/rl.md``.
"""

from __future__ import annotations

from ..game import games
from . import encoding, splendor_duel_v0, splendor_v0

GYM_IDS: dict[str, str] = {f"splendor/{g.title.replace(' ', '')}-v0": g.package for g in games()}
"""The Gymnasium ids registered on import (``splendor/<title without spaces>-v0``:
``splendor/Splendor-v0``, ``splendor/SplendorDuel-v0``), and the game of each (its package
name)."""


def register_envs() -> None:
    """Register :data:`GYM_IDS` with Gymnasium (entry point
    ``splendor.rl.gym_env:SplendorEnv``, vector entry point
    ``splendor.rl.vector_env:SplendorVectorEnv``); ids already registered are left alone, so calling
    it again (or re-importing) is harmless."""
    import gymnasium

    for env_id, game in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="splendor.rl.gym_env:SplendorEnv",
                vector_entry_point="splendor.rl.vector_env:SplendorVectorEnv",
                kwargs={"game": game},
            )


register_envs()

__all__ = ["GYM_IDS", "encoding", "register_envs", "splendor_duel_v0", "splendor_v0"]
