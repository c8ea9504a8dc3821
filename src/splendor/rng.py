"""The compiled random generator stored inside every state (splitmix64): a seed and the
actions replay a game exactly (C18, D24), and a copy of a state replays identically.
The generator is hidden information: an observation drops it."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def rng_next(rng: np.ndarray) -> np.uint64:
    """splitmix64: advance ``rng`` (uint64, shape (1,)) and return the next 64-bit value."""
    z = rng[0] + np.uint64(0x9E3779B97F4A7C15)
    rng[0] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def rng_below(rng: np.ndarray, n: int) -> int:
    """A uniform integer in ``[0, n)`` from ``rng`` (Lemire's multiply-shift, n < 2**32)."""
    x = rng_next(rng) >> np.uint64(32)
    return int((x * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def seed_rng(rng: np.ndarray, seed: int) -> None:
    """Set ``rng`` from an integer seed (any int64), mixing it once."""
    rng[0] = np.uint64(seed & 0x7FFFFFFFFFFFFFFF) ^ np.uint64(0x5851F42D4C957F2D)
    rng_next(rng)


# Inlined (numba IR) where it is called: the callers run as fast as with the loop written
# out in them.
@njit(cache=True, inline="always")
def shuffle(a: np.ndarray, n: int, rng: np.ndarray) -> None:
    """Shuffle ``a[:n]`` in place, uniformly (Fisher-Yates, from the last element down,
    one :func:`rng_below` draw per element after the first); ``a[n:]`` is untouched."""
    for i in range(n - 1, 0, -1):
        j = rng_below(rng, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


# Inlined (numba IR) into the playout loop, which draws with it at every decision.
@njit(cache=True, inline="always")
def random_legal_id(mask: np.ndarray, n_legal: int, rng: np.ndarray) -> int:
    """A uniformly random decision id among the ``n_legal`` set in ``mask`` (bool, one per
    decision id), drawn with ``rng``; -1 (drawing nothing) when ``n_legal`` is 0."""
    if n_legal == 0:
        return -1
    k = rng_below(rng, n_legal)
    for a in range(mask.shape[0]):
        if mask[a]:
            if k == 0:
                return a
            k -= 1
    return -1
