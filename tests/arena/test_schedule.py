"""Arena schedule: lineups, seat balance, shared deals per cycle, rounding, seeds."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest

from splendor.arena.schedule import (
    bot_seed,
    cycles_for,
    deal_seed,
    lineups,
    make_schedule,
    seat_labels,
)

SIZES = [(2, 2), (3, 2), (4, 2), (3, 3), (4, 3), (5, 4), (2, 3), (3, 4), (2, 4)]


@pytest.mark.parametrize("bots,players", SIZES)
def test_every_bot_plays_every_seat_equally(bots, players):
    ups = lineups(bots, players)
    assert all(len(u) == players for u in ups)
    seats = Counter((b, s) for u in ups for s, b in enumerate(u))
    counts = {seats[(b, s)] for b in range(bots) for s in range(players)}
    assert len(counts) == 1 and counts.pop() > 0


@pytest.mark.parametrize("bots,players", [(b, k) for b, k in SIZES if b >= k])
def test_enough_bots_means_every_combination_in_every_rotation(bots, players):
    ups = lineups(bots, players)
    assert len(ups) == math.comb(bots, players) * players
    assert len(set(ups)) == len(ups)
    assert all(len(set(u)) == players for u in ups)  # no bot twice in a game
    assert {tuple(sorted(u)) for u in ups} == set(itertools.combinations(range(bots), players))


def test_fewer_bots_than_seats_repeats_bots_cyclically():
    assert lineups(3, 4) == [(0, 1, 2, 0), (1, 2, 0, 1), (2, 0, 1, 2)]
    assert lineups(2, 3) == [(0, 1, 0), (1, 0, 1)]


def test_games_are_rounded_up_to_whole_cycles():
    assert cycles_for(1, 6) == 1
    assert cycles_for(6, 6) == 1
    assert cycles_for(7, 6) == 2
    with pytest.raises(ValueError, match="at least 1"):
        cycles_for(0, 6)
    s = make_schedule(
        ["random", "greedy", "random"], ["a", "b", "c"], game="splendor", num_players=2, games=10
    )
    assert len(s.lineups) == 6 and s.cycles == 2 and len(s.tasks) == 12
    assert s.rounded and s.requested == 10
    exact = make_schedule(["random", "greedy"], ["a", "b"], game="splendor", num_players=2, games=4)
    assert len(exact.tasks) == 4 and not exact.rounded


def test_a_cycle_shares_its_deal_and_cycles_differ():
    s = make_schedule(
        ["random", "greedy", "random"],
        ["a", "b", "c"],
        game="splendor",
        num_players=3,
        games=9,
        seed=5,
    )
    assert [t.index for t in s.tasks] == list(range(len(s.tasks)))
    by_cycle: dict[int, set[int]] = {}
    for t in s.tasks:
        by_cycle.setdefault(t.cycle, set()).add(t.seed)
        # a bot's seed depends on the deal and its seat only
        assert list(t.bot_seeds) == [bot_seed(t.seed, i) for i in range(3)]
        assert len(set(t.bot_seeds)) == 3
        assert t.specs == tuple(["random", "greedy", "random"][b] for b in t.bots)
    assert all(len(v) == 1 for v in by_cycle.values())
    assert len({v.pop() for v in by_cycle.values()}) == s.cycles == 3


def test_seeds_are_reproducible_and_depend_on_the_arena_seed():
    assert deal_seed(0, 3) == deal_seed(0, 3)
    assert deal_seed(0, 3) != deal_seed(1, 3) != deal_seed(1, 4)
    assert all(0 <= deal_seed(s, c) < 2**62 for s in range(3) for c in range(3))
    a = make_schedule(
        ["random", "greedy"],
        ["a", "b"],
        game="duel",
        num_players=2,
        games=6,
        seed=1,
        options={"turn_cap": 400},
    )
    b = make_schedule(
        ["random", "greedy"],
        ["a", "b"],
        game="duel",
        num_players=2,
        games=6,
        seed=1,
        options={"turn_cap": 400},
    )
    c = make_schedule(
        ["random", "greedy"],
        ["a", "b"],
        game="duel",
        num_players=2,
        games=6,
        seed=2,
        options={"turn_cap": 400},
    )
    assert a == b
    assert [t.seed for t in a.tasks] != [t.seed for t in c.tasks]
    assert all(t.options == {"turn_cap": 400} for t in a.tasks)
    assert a.tasks[0].to_dict()["bots"] == list(a.tasks[0].bots)


def test_repeated_bots_in_one_game_get_distinct_seat_labels():
    assert seat_labels(["a", "b", "a"]) == ["a-0", "b", "a-2"]
    s = make_schedule(
        ["random", "greedy"], ["random", "greedy"], game="splendor", num_players=3, games=1
    )
    assert all(len(set(t.names)) == 3 for t in s.tasks)
