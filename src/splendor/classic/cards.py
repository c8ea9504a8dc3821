"""Development cards and nobles of Splendor (rules C2, C3) as static integer tables.

A card is an integer id 0..89 in the row order of ``data/splendor_cards.csv``; a noble is an
id 0..9 in the row order of ``data/splendor_nobles.csv``. The compiled rules read only the
numpy tables below (read-only, never mutated); :class:`Card` and :class:`Noble` are the
readable Python view of the same rows.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..colors import GEM_COLORS, GEM_LETTERS, NUM_GEMS
from ..data import read_csv

NUM_LEVELS = 3
FACEUP_PER_LEVEL = 4  # C4
MAX_RESERVED = 3  # C8
MAX_NOBLES_SHOWN = 5  # C3: players + 1, at most 5


@dataclass(frozen=True)
class Card:
    """One development card (C2).

    Attributes:
        id: index 0..89 into the static tables.
        level: 1, 2 or 3.
        bonus: gem colour index 0..4 of the card's bonus.
        points: prestige points.
        cost: tokens needed per gem colour, length 5 (W, U, G, R, K).
    """

    id: int
    level: int
    bonus: int
    points: int
    cost: tuple[int, int, int, int, int]

    def __str__(self) -> str:
        cost = " ".join(f"{n}{GEM_LETTERS[c]}" for c, n in enumerate(self.cost) if n)
        return f"L{self.level} {GEM_LETTERS[self.bonus]} {self.points}pt [{cost}]"


@dataclass(frozen=True)
class Noble:
    """One noble tile (C3, C12): ``points`` prestige for bonuses meeting ``requirement``.

    Attributes:
        id: index 0..9 into the static tables.
        points: always 3.
        requirement: bonuses needed per gem colour, length 5.
    """

    id: int
    points: int
    requirement: tuple[int, int, int, int, int]

    def __str__(self) -> str:
        req = " ".join(f"{n}{GEM_LETTERS[c]}" for c, n in enumerate(self.requirement) if n)
        return f"{self.points}pt [{req}]"


def _gem_counts(row: dict[str, str]) -> tuple[int, int, int, int, int]:
    """A row's five gem columns (W, U, G, R, K) as ints; ValueError if one is missing."""
    w, u, g, r, k = (int(row[c]) for c in GEM_COLORS)
    return (w, u, g, r, k)


def _load_cards() -> tuple[Card, ...]:
    cards = []
    for i, row in enumerate(read_csv("splendor_cards.csv")):
        cards.append(
            Card(
                id=i,
                level=int(row["level"]),
                bonus=GEM_COLORS.index(row["bonus"]),
                points=int(row["points"]),
                cost=_gem_counts(row),
            )
        )
    return tuple(cards)


def _load_nobles() -> tuple[Noble, ...]:
    return tuple(
        Noble(
            id=i,
            points=int(row["points"]),
            requirement=_gem_counts(row),
        )
        for i, row in enumerate(read_csv("splendor_nobles.csv"))
    )


CARDS: tuple[Card, ...] = _load_cards()
"""All 90 development cards, indexed by id."""
NOBLES: tuple[Noble, ...] = _load_nobles()
"""All 10 nobles, indexed by id."""

NUM_CARDS = len(CARDS)
NUM_NOBLES = len(NOBLES)


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


CARD_LEVEL = _frozen(np.array([c.level - 1 for c in CARDS], dtype=np.int8))
"""Level of each card, 0-based (0, 1, 2), shape (90,)."""
CARD_BONUS = _frozen(np.array([c.bonus for c in CARDS], dtype=np.int8))
"""Bonus colour of each card, shape (90,)."""
CARD_POINTS = _frozen(np.array([c.points for c in CARDS], dtype=np.int8))
"""Prestige points of each card, shape (90,)."""
CARD_COST = _frozen(np.array([c.cost for c in CARDS], dtype=np.int8).reshape(NUM_CARDS, NUM_GEMS))
"""Cost of each card per gem colour, shape (90, 5)."""
NOBLE_REQ = _frozen(
    np.array([n.requirement for n in NOBLES], dtype=np.int8).reshape(NUM_NOBLES, NUM_GEMS)
)
"""Bonus requirement of each noble per gem colour, shape (10, 5)."""
NOBLE_POINTS = _frozen(np.array([n.points for n in NOBLES], dtype=np.int8))
"""Prestige points of each noble, shape (10,)."""


def _level_ranges() -> tuple[np.ndarray, np.ndarray]:
    start = np.zeros(NUM_LEVELS, dtype=np.int16)
    size = np.zeros(NUM_LEVELS, dtype=np.int16)
    for lvl in range(NUM_LEVELS):
        ids = [c.id for c in CARDS if c.level == lvl + 1]
        if ids != list(range(ids[0], ids[0] + len(ids))):
            raise RuntimeError("splendor_cards.csv must list cards grouped by level")
        start[lvl], size[lvl] = ids[0], len(ids)
    return _frozen(start), _frozen(size)


LEVEL_START, LEVEL_SIZE = _level_ranges()
"""First card id and number of cards of each level, shape (3,) each (40/30/20, C2)."""
MAX_DECK = int(LEVEL_SIZE.max())
