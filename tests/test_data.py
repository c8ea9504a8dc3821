"""The verified card and noble data (``../shared/data/README.md``) as the package loads it
(rules C2, C3): every check the data README lists for the Splendor lists."""

from __future__ import annotations

from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from splendor.classic import cards as cardmod
from splendor.classic.cards import CARDS, NOBLES
from splendor.colors import GEM_COLORS

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
LEVELS = (1, 2, 3)


def by_level(level: int):
    return [c for c in CARDS if c.level == level]


def test_c2_ninety_cards_40_30_20_per_level():
    """C2: 90 cards, 40 level 1, 30 level 2, 20 level 3."""
    assert len(CARDS) == 90
    assert [len(by_level(lv)) for lv in LEVELS] == [40, 30, 20]
    assert [c.id for c in CARDS] == list(range(90))


@pytest.mark.parametrize("level,per_colour", [(1, 8), (2, 6), (3, 4)])
def test_c2_bonus_colours_per_level(level, per_colour):
    """C2: 8/6/4 cards of each bonus colour at levels 1/2/3."""
    counts = Counter(c.bonus for c in by_level(level))
    assert counts == {colour: per_colour for colour in range(5)}


def test_c2_points_per_level_5_55_80():
    """C2: prestige points per level 5/55/80, 140 in all."""
    pts = [sum(c.points for c in by_level(lv)) for lv in LEVELS]
    assert pts == [5, 55, 80]
    assert sum(c.points for c in CARDS) == 140


def test_c2_total_cost_per_level_165_205_215():
    """C2: the summed cost (all colours) per level is 165/205/215."""
    assert [sum(sum(c.cost) for c in by_level(lv)) for lv in LEVELS] == [165, 205, 215]


@pytest.mark.parametrize("level,demand", [(1, 33), (2, 41), (3, 43)])
def test_c2_each_colour_demanded_33_41_43(level, demand):
    """C2: "every colour is demanded 33/41/43 times" holds as the number of tokens asked
    in that colour (the sum of the cost column), the same for all five colours. It does not
    hold as a number of cards with a nonzero cost in the colour (20/13/10 cards)."""
    cards = by_level(level)
    sums = [sum(c.cost[col] for c in cards) for col in range(5)]
    assert sums == [demand] * 5
    # consistent with the total cost per level: 5 colours x 33/41/43 = 165/205/215
    assert 5 * demand == sum(sum(c.cost) for c in cards)
    nonzero = [sum(1 for c in cards if c.cost[col] > 0) for col in range(5)]
    assert nonzero != [demand] * 5


def test_c2_card_fields_in_range():
    """C2: every card has a positive cost in gem colours only and points 0..5."""
    for c in CARDS:
        assert sum(c.cost) > 0 and all(x >= 0 for x in c.cost)
        assert 0 <= c.points <= 5
        assert c.bonus in range(5)


def test_c3_nobles_all_three_points():
    """C3: 10 nobles, each worth 3 prestige."""
    assert len(NOBLES) == 10
    assert all(n.points == 3 for n in NOBLES)


def test_c3_five_nobles_4_4_and_five_nobles_3_3_3():
    """C3: five nobles need 4+4 of two colours, five need 3+3+3 of three colours."""
    shapes = Counter(tuple(sorted((x for x in n.requirement if x), reverse=True)) for n in NOBLES)
    assert shapes == {(4, 4): 5, (3, 3, 3): 5}
    # and no two nobles ask for the same thing
    assert len({n.requirement for n in NOBLES}) == 10


def test_static_tables_agree_with_card_objects():
    """C2/C3: the numpy tables the compiled rules read equal the Card/Noble rows."""
    for c in CARDS:
        assert cardmod.CARD_LEVEL[c.id] == c.level - 1
        assert cardmod.CARD_BONUS[c.id] == c.bonus
        assert cardmod.CARD_POINTS[c.id] == c.points
        assert tuple(int(x) for x in cardmod.CARD_COST[c.id]) == c.cost
    for n in NOBLES:
        assert tuple(int(x) for x in cardmod.NOBLE_REQ[n.id]) == n.requirement
        assert cardmod.NOBLE_POINTS[n.id] == n.points
    assert list(cardmod.LEVEL_SIZE) == [40, 30, 20]
    assert list(cardmod.LEVEL_START) == [0, 40, 70]


def test_card_rows_follow_the_csv():
    """C2: card ``i`` is row ``i`` of the CSV (colour order white, blue, green, red, black)."""
    text = resources.files("splendor.data").joinpath("splendor_cards.csv").read_text("utf-8")
    lines = text.strip().splitlines()
    assert lines[0] == "level,bonus,points," + ",".join(GEM_COLORS)
    for c, line in zip(CARDS, lines[1:], strict=True):
        level, bonus, points, *cost = line.split(",")
        assert (c.level, GEM_COLORS[c.bonus], c.points) == (int(level), bonus, int(points))
        assert c.cost == tuple(int(x) for x in cost)


@pytest.mark.parametrize("name", ["splendor_cards.csv", "splendor_nobles.csv"])
def test_packaged_csv_equals_shared_data(name):
    """The packaged data is a byte-for-byte copy of ``../shared/data`` (when present)."""
    shared = SHARED_DATA / name
    if not shared.exists():
        pytest.skip("../shared/data is not available here")
    packaged = resources.files("splendor.data").joinpath(name).read_bytes()
    assert packaged == shared.read_bytes()
