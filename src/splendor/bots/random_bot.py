"""A bot that picks uniformly among the legal decisions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


class RandomBot:
    """Uniform choice among ``legal_actions`` at every decision, from a seeded generator.

    Args:
        seed: seed of its numpy generator; the same seed makes the same choices.
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def choose(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """A uniformly random element of ``legal_actions``.

        Raises:
            ValueError: ``legal_actions`` is empty.
        """
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        return legal_actions[int(self._rng.integers(len(legal_actions)))]
