"""Jewel cards and royal cards of Splendor Duel (D3, D4) as static integer tables.

A card is an integer id 0..66 in the row order of ``data/duel_cards.csv`` (grouped by level:
30, 24, 13); a royal card is an id 0..3 in the row order of ``data/duel_royals.csv``. The
compiled rules read only the numpy tables below (read-only); :class:`Card` and
:class:`Royal` are the readable Python view of the same rows.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..colors import DUEL_TOKEN_LETTERS, GEM_COLORS, GEM_LETTERS
from ..data import read_csv

NUM_LEVELS = 3
PYRAMID_SIZES = (5, 4, 3)  # D3: face-up cards per level
PYRAMID_START = (0, 5, 9)  # first pyramid slot of each level
NUM_PYRAMID = 12
MAX_RESERVED = 3  # D9
NUM_ROYALS_MAX = 4

COLOR_NONE = -1
"""``Card.color`` of a card without a bonus."""
COLOR_JOKER = 5
"""``Card.color`` of a joker card before it is attached (D14)."""

# Ability bits (D13-D17); a card's ability is an OR of these.
AB_AGAIN = 1
AB_TOKEN = 2
AB_PRIVILEGE = 4
AB_STEAL = 8
AB_JOKER = 16

ABILITY_BITS = {
    "none": 0,
    "again": AB_AGAIN,
    "token": AB_TOKEN,
    "privilege": AB_PRIVILEGE,
    "steal": AB_STEAL,
    "joker": AB_JOKER,
    "joker+again": AB_JOKER | AB_AGAIN,
}
"""Ability names of the data files and their bits."""


@dataclass(frozen=True)
class Card:
    """One jewel card (D3).

    Attributes:
        id: index 0..66 into the static tables.
        level: 1, 2 or 3.
        color: bonus colour 0..4 (W U G R K), :data:`COLOR_JOKER` or :data:`COLOR_NONE`.
        bonus_count: bonuses it gives in its colour (0, 1 or 2).
        points: prestige points.
        crowns: crowns (D19, D21).
        ability: ``none``, ``again``, ``token``, ``privilege``, ``steal``, ``joker`` or
            ``joker+again`` (D13-D17).
        cost: tokens needed per colour, length 6 (W U G R K pearl).
    """

    id: int
    level: int
    color: int
    bonus_count: int
    points: int
    crowns: int
    ability: str
    cost: tuple[int, int, int, int, int, int]

    @property
    def is_joker(self) -> bool:
        """Whether the card takes the colour of a card it is attached to (D14)."""
        return self.color == COLOR_JOKER

    def __str__(self) -> str:
        cost = " ".join(f"{n}{DUEL_TOKEN_LETTERS[c]}" for c, n in enumerate(self.cost) if n)
        if self.color == COLOR_JOKER:
            bonus = "joker"
        elif self.color == COLOR_NONE:
            bonus = "-"
        else:
            bonus = GEM_LETTERS[self.color] * self.bonus_count
        extra = ""
        if self.crowns:
            extra += f" {self.crowns}cr"
        if self.ability != "none" and self.ability != "joker":
            extra += f" {self.ability}"
        return f"L{self.level} {bonus} {self.points}pt{extra} [{cost or 'free'}]"


@dataclass(frozen=True)
class Royal:
    """One royal card (D4, D19): prestige points and an ability (``none``, ``again``,
    ``privilege`` or ``steal``)."""

    id: int
    points: int
    ability: str

    def __str__(self) -> str:
        return f"royal {self.points}pt" + ("" if self.ability == "none" else f" {self.ability}")


def _color(name: str) -> int:
    if name == "joker":
        return COLOR_JOKER
    if name == "none":
        return COLOR_NONE
    return GEM_COLORS.index(name)


def _cost(row: dict[str, str]) -> tuple[int, int, int, int, int, int]:
    """A card row's cost columns (W, U, G, R, K, pearl) as ints."""
    w, u, g, r, k = (int(row[c]) for c in GEM_COLORS)
    return (w, u, g, r, k, int(row["pearl"]))


def _load_cards() -> tuple[Card, ...]:
    return tuple(
        Card(
            id=i,
            level=int(row["level"]),
            color=_color(row["bonus"]),
            bonus_count=int(row["bonus_count"]),
            points=int(row["points"]),
            crowns=int(row["crowns"]),
            ability=row["ability"],
            cost=_cost(row),
        )
        for i, row in enumerate(read_csv("duel_cards.csv"))
    )


def _load_royals() -> tuple[Royal, ...]:
    return tuple(
        Royal(id=i, points=int(row["points"]), ability=row["ability"])
        for i, row in enumerate(read_csv("duel_royals.csv"))
    )


CARDS: tuple[Card, ...] = _load_cards()
"""All 67 jewel cards, indexed by id."""
ROYALS: tuple[Royal, ...] = _load_royals()
"""All 4 royal cards, indexed by id."""

NUM_CARDS = len(CARDS)
NUM_ROYALS = len(ROYALS)


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


CARD_LEVEL = _frozen(np.array([c.level - 1 for c in CARDS], dtype=np.int8))
"""Level of each card, 0-based, shape (67,)."""
CARD_COLOR = _frozen(np.array([c.color for c in CARDS], dtype=np.int8))
"""Printed bonus colour of each card (0..4, 5 joker, -1 none), shape (67,)."""
CARD_BONUS_COUNT = _frozen(np.array([c.bonus_count for c in CARDS], dtype=np.int8))
"""Bonuses each card gives, shape (67,)."""
CARD_POINTS = _frozen(np.array([c.points for c in CARDS], dtype=np.int8))
"""Prestige points of each card, shape (67,)."""
CARD_CROWNS = _frozen(np.array([c.crowns for c in CARDS], dtype=np.int8))
"""Crowns of each card, shape (67,)."""
CARD_ABILITY = _frozen(np.array([ABILITY_BITS[c.ability] for c in CARDS], dtype=np.int8))
"""Ability bits of each card (``AB_*``), shape (67,)."""
CARD_COST = _frozen(np.array([c.cost for c in CARDS], dtype=np.int8).reshape(NUM_CARDS, 6))
"""Cost of each card per colour (W U G R K pearl), shape (67, 6)."""
ROYAL_POINTS = _frozen(np.array([r.points for r in ROYALS], dtype=np.int8))
"""Prestige points of each royal card, shape (4,)."""
ROYAL_ABILITY = _frozen(np.array([ABILITY_BITS[r.ability] for r in ROYALS], dtype=np.int8))
"""Ability bits of each royal card, shape (4,)."""


def _level_ranges() -> tuple[np.ndarray, np.ndarray]:
    start = np.zeros(NUM_LEVELS, dtype=np.int16)
    size = np.zeros(NUM_LEVELS, dtype=np.int16)
    for lvl in range(NUM_LEVELS):
        ids = [c.id for c in CARDS if c.level == lvl + 1]
        if ids != list(range(ids[0], ids[0] + len(ids))):
            raise RuntimeError("duel_cards.csv must list cards grouped by level")
        start[lvl], size[lvl] = ids[0], len(ids)
    return _frozen(start), _frozen(size)


LEVEL_START, LEVEL_SIZE = _level_ranges()
"""First card id and number of cards of each level, shape (3,) each (30/24/13, D3)."""
MAX_DECK = int(LEVEL_SIZE.max())
SLOT_LEVEL = _frozen(np.array([0] * 5 + [1] * 4 + [2] * 3, dtype=np.int8))
"""Level (0-based) of each of the 12 pyramid slots."""


def pyramid_slot(level: int, slot: int) -> int:
    """Pyramid index 0..11 of ``level`` (1-3) and 1-based ``slot`` within that level.

    Raises:
        ValueError: no such slot (level 1 has 5, level 2 has 4, level 3 has 3).
    """
    if level not in (1, 2, 3) or not 1 <= slot <= PYRAMID_SIZES[level - 1]:
        raise ValueError(
            f"no pyramid slot {level}.{slot}: level 1 has slots 1-5, level 2 slots 1-4, "
            "level 3 slots 1-3"
        )
    return PYRAMID_START[level - 1] + slot - 1


def slot_name(index: int) -> str:
    """``"2.3"`` for pyramid index ``index`` (0..11)."""
    lvl = int(SLOT_LEVEL[index])
    return f"{lvl + 1}.{index - PYRAMID_START[lvl] + 1}"
