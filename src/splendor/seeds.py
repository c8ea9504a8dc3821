"""Seeds of games: what a seed is, and drawing one (C18, D24: a seed and the actions
replay a game exactly)."""

from __future__ import annotations

import secrets
from typing import Any

import numpy as np

MAX_SEED = 1 << 63
"""Seeds are integers ``0 <= seed < MAX_SEED``."""


def check_seed(seed: Any) -> int:
    """Return ``seed`` as an int, drawing one when it is None.

    Raises:
        ValueError: not an integer ``0 <= seed < 2**63``.
    """
    if seed is None:
        return secrets.randbelow(1 << 62)
    if (
        not isinstance(seed, (int, np.integer))
        or isinstance(seed, bool)
        or not 0 <= seed < MAX_SEED
    ):
        raise ValueError(f"seed must be an integer 0 <= seed < 2**63, got {seed!r}")
    return int(seed)
