"""PettingZoo environment of Splendor Duel, 2 players (rules D1-D25).

``env(render_mode=None, turn_cap=None, max_turns=None)`` returns the AEC environment
wrapped in PettingZoo's order-enforcing wrapper; ``raw_env`` is the bare class. See
:mod:`splendor.rl.pettingzoo_env` for observations, rewards and seeding; ``turn_cap`` ends
a game with no winner (reward 0 for both) after that many turns (D25).
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from .pettingzoo_env import DuelAECEnv, make_env

raw_env = DuelAECEnv
"""The unwrapped AEC environment class (:class:`~splendor.rl.pettingzoo_env.DuelAECEnv`)."""


def env(**kwargs: Any) -> AECEnv:
    """A wrapped Splendor Duel AEC environment.

    Args:
        **kwargs: ``render_mode`` (``None``, ``"ansi"``, ``"rgb_array"``), ``turn_cap``
            (D25, default ``None``), ``max_turns`` (truncation, default ``None``),
            ``illegal_action`` (``"terminate"``, the default, or ``"raise"``) and
            ``illegal_reward`` (default -1).

    Raises:
        ValueError: a bad argument.
    """
    return make_env(raw_env, **kwargs)


__all__ = ["env", "raw_env"]
