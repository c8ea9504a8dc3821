"""The packaged Splendor Duel data (D3, D4) against the checks of
``shared/data/README.md`` and against the shared CSV files themselves."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from splendor.duel import CARDS, ROYALS
from splendor.duel import cards as C

SHARED = Path("/work/shared/data")
COLS = ("white", "blue", "green", "red", "black", "pearl")


def by_level(values):
    out = [0, 0, 0]
    for card, v in values:
        out[card.level - 1] += v
    return out


def test_d3_cards_per_level_30_24_13():
    """D3: 67 cards, 30/24/13 per level, ids grouped by level in file order."""
    assert len(CARDS) == 67
    assert by_level((c, 1) for c in CARDS) == [30, 24, 13]
    assert [c.id for c in CARDS] == list(range(67))
    assert [c.level for c in CARDS] == sorted(c.level for c in CARDS)


def test_d3_points_per_level_11_37_44():
    """Data check: points per level 11/37/44 (92 in all)."""
    pts = by_level((c, c.points) for c in CARDS)
    assert pts == [11, 37, 44] and sum(pts) == 92


def test_d3_crowns_per_level_6_9_13():
    """Data check: crowns per level 6/9/13 (28 in all)."""
    crowns = by_level((c, c.crowns) for c in CARDS)
    assert crowns == [6, 9, 13] and sum(crowns) == 28


def test_d3_pearl_cost_per_level_10_14_5():
    """Data check: pearls demanded per level 10/14/5 (29 in all)."""
    pearls = by_level((c, c.cost[5]) for c in CARDS)
    assert pearls == [10, 14, 5] and sum(pearls) == 29


def test_d3_nine_jokers_4_3_2():
    """Data check and D14: 9 joker cards (4/3/2 per level), each with bonus count 1 (its
    bonus count stays 1 once attached) and a joker ability."""
    jokers = [c for c in CARDS if c.is_joker]
    assert len(jokers) == 9
    assert by_level((c, 1) for c in jokers) == [4, 3, 2]
    assert all(c.bonus_count == 1 for c in jokers)
    assert all(c.ability in ("joker", "joker+again") for c in jokers)
    assert all(c.ability not in ("joker", "joker+again") for c in CARDS if not c.is_joker)


def test_d3_three_cards_without_bonus():
    """Data check: 3 cards with no bonus, and they are the only ones with bonus count 0."""
    none = [c for c in CARDS if c.color == C.COLOR_NONE]
    assert len(none) == 3
    assert all(c.bonus_count == 0 for c in none)
    assert [c for c in CARDS if c.bonus_count == 0] == none


def test_d3_five_cards_with_bonus_count_two():
    """Data check: 5 cards give 2 bonuses, one per gem colour."""
    double = [c for c in CARDS if c.bonus_count == 2]
    assert len(double) == 5
    assert sorted(c.color for c in double) == [0, 1, 2, 3, 4]


def test_d3_every_card_field_is_in_range():
    """D3: a bonus colour is a gem colour, joker or none; bonus count 0-2; abilities from
    the list of D3; costs are non-negative with at least one token demanded."""
    abilities = {"none", "again", "token", "privilege", "steal", "joker", "joker+again"}
    for c in CARDS:
        assert c.color in (-1, 0, 1, 2, 3, 4, 5)
        assert c.bonus_count in (0, 1, 2)
        assert c.ability in abilities
        assert len(c.cost) == 6 and min(c.cost) >= 0 and sum(c.cost) > 0
        assert c.points >= 0 and c.crowns >= 0


def test_d4_four_royals():
    """D4: 4 royal cards: 3 points, or 2 points with again, privilege or steal."""
    assert len(ROYALS) == 4
    assert sorted((r.points, r.ability) for r in ROYALS) == [
        (2, "again"),
        (2, "privilege"),
        (2, "steal"),
        (3, "none"),
    ]


def _shared_rows(name):
    path = SHARED / name
    if not path.exists():
        pytest.skip(f"{path} not available")
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def test_packaged_cards_equal_the_shared_csv():
    """The packaged card list is the shared data file, row for row."""
    rows = _shared_rows("duel_cards.csv")
    assert len(rows) == len(CARDS)
    colour = {"joker": C.COLOR_JOKER, "none": C.COLOR_NONE}
    colour.update({name: i for i, name in enumerate(COLS[:5])})
    for card, row in zip(CARDS, rows, strict=True):
        assert card.level == int(row["level"])
        assert card.color == colour[row["bonus"]]
        assert card.bonus_count == int(row["bonus_count"])
        assert card.points == int(row["points"])
        assert card.crowns == int(row["crowns"])
        assert card.ability == row["ability"]
        assert card.cost == tuple(int(row[k]) for k in COLS)


def test_packaged_royals_equal_the_shared_csv():
    rows = _shared_rows("duel_royals.csv")
    assert [(r.points, r.ability) for r in ROYALS] == [
        (int(row["points"]), row["ability"]) for row in rows
    ]


def test_static_tables_mirror_the_cards():
    """The numpy tables the compiled rules read hold the same numbers as ``CARDS``."""
    assert C.CARD_COST.tolist() == [list(c.cost) for c in CARDS]
    assert C.CARD_POINTS.tolist() == [c.points for c in CARDS]
    assert C.CARD_CROWNS.tolist() == [c.crowns for c in CARDS]
    assert C.CARD_COLOR.tolist() == [c.color for c in CARDS]
    assert C.CARD_BONUS_COUNT.tolist() == [c.bonus_count for c in CARDS]
    assert C.CARD_LEVEL.tolist() == [c.level - 1 for c in CARDS]
    bits = {"none": 0, "again": 1, "token": 2, "privilege": 4, "steal": 8, "joker": 16}
    for c, ab in zip(CARDS, C.CARD_ABILITY.tolist(), strict=True):
        want = sum(bits[p] for p in c.ability.split("+"))
        assert ab == want
    assert C.ROYAL_POINTS.tolist() == [r.points for r in ROYALS]
    assert C.LEVEL_SIZE.tolist() == [30, 24, 13]
    assert C.LEVEL_START.tolist() == [0, 30, 54]
    with pytest.raises(ValueError):
        C.CARD_COST[0, 0] = 9  # read-only


def test_card_text_names_bonus_cost_and_ability():
    """A card prints its level, bonus, points, crowns, ability and cost."""
    joker_again = next(c for c in CARDS if c.ability == "joker+again")
    text = str(joker_again)
    assert text.startswith("L3 joker 3pt") and "joker+again" in text and "8R" in text
    double = next(c for c in CARDS if c.bonus_count == 2 and c.color == 0)
    assert str(double).startswith("L2 WW 1pt")
