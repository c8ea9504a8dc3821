"""PettingZoo environment of classic Splendor, 2-4 players (rules C1-C18).

``env(num_players=2, render_mode=None, max_turns=None, illegal_action="terminate")``
returns the AEC environment wrapped in PettingZoo's order-enforcing wrapper; ``raw_env``
is the bare class. See :mod:`splendor.rl.pettingzoo_env` for observations, rewards and
seeding.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from .pettingzoo_env import ClassicAECEnv, make_env

raw_env = ClassicAECEnv
"""The unwrapped AEC environment class (:class:`~splendor.rl.pettingzoo_env.ClassicAECEnv`)."""


def env(**kwargs: Any) -> AECEnv:
    """A wrapped classic Splendor AEC environment.

    Args:
        **kwargs: ``num_players`` (2-4, default 2), ``render_mode`` (``None``, ``"ansi"``,
            ``"rgb_array"``), ``max_turns`` (truncation, default ``None``),
            ``illegal_action`` (``"terminate"``, the default, or ``"raise"``) and
            ``illegal_reward`` (default -1).

    Raises:
        ValueError: a bad argument.
    """
    return make_env(raw_env, **kwargs)


__all__ = ["env", "raw_env"]
