"""The tournaments' pure rules: Swiss pairing and tie-breaks (:mod:`splendor.server.swiss`),
groups by rating and points by placement (:mod:`splendor.server.tournament_groups`), the
arena's points and pairing (:mod:`splendor.server.tournament_arena`). The worked examples
are those of ``docs/tournaments.md``, computed by hand there."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from splendor.server.swiss import (
    DRAW,
    LOSS,
    WIN,
    Entrant,
    Played,
    pair_round,
    records,
    standings,
)
from splendor.server.tournament_arena import Waiting, arena_score, outcome, pair_waiting
from splendor.server.tournament_groups import make_groups, placement_points, table_sizes

SIX = [
    Entrant("A", 1900),
    Entrant("B", 1800),
    Entrant("C", 1700),
    Entrant("D", 1600),
    Entrant("E", 1500),
    Entrant("F", 1400),
]


def test_the_worked_example_pairs_as_computed_by_hand() -> None:
    history: list[Played] = []
    r1 = pair_round(SIX, history)
    assert r1.pairs == (("A", "D"), ("B", "E"), ("C", "F")) and r1.bye is None
    history += [Played(1, "A", "D", WIN), Played(1, "B", "E", LOSS), Played(1, "C", "F", DRAW)]
    r2 = pair_round(SIX, history)
    # C-F met already: C takes the top of the lower bracket (B), F the next (D)
    assert r2.pairs == (("E", "A"), ("C", "B"), ("F", "D"))
    history += [Played(2, "E", "A", LOSS), Played(2, "C", "B", DRAW), Played(2, "F", "D", LOSS)]
    r3 = pair_round(SIX, history)
    # A floats into the 1-point bracket; A-D met, A-E met: A meets C
    assert r3.pairs == (("A", "C"), ("D", "E"), ("B", "F"))
    assert not r3.repeats and not r3.blocked


def test_the_worked_example_standings_and_tie_breaks() -> None:
    history = [
        Played(1, "A", "D", WIN),
        Played(1, "B", "E", LOSS),
        Played(1, "C", "F", DRAW),
        Played(2, "E", "A", LOSS),
        Played(2, "C", "B", DRAW),
        Played(2, "F", "D", LOSS),
        Played(3, "A", "C", LOSS),
        Played(3, "D", "E", DRAW),
        Played(3, "B", "F", WIN),
    ]
    table = [
        (s.rank, s.id, s.score, s.buchholz, s.sonneborn_berger) for s in standings(SIX, history)
    ]
    assert table == [
        (1, "A", 2.0, 5.0, 3.0),
        (2, "C", 2.0, 4.0, 3.0),
        (3, "E", 1.5, 5.0, 2.25),
        (4, "B", 1.5, 4.0, 1.5),
        (5, "D", 1.5, 4.0, 1.25),
        (6, "F", 0.5, 5.0, 1.0),
    ]
    a = standings(SIX, history)[0]
    assert (a.wins, a.draws, a.losses, a.byes) == (2, 0, 1, 0)


def test_a_bye_goes_to_the_lowest_ranked_without_one_and_scores_a_win() -> None:
    five = SIX[:5]
    r1 = pair_round(five, [])
    assert r1.bye == "E" and len(r1.pairs) == 2
    history = [Played(1, a, b, WIN) for a, b in r1.pairs] + [Played(1, "E", None)]
    assert records(["E"], history)["E"].score == 1.0
    r2 = pair_round(five, history)
    assert r2.bye is not None and r2.bye != "E"
    # Buchholz and Sonneborn-Berger count nothing for a bye
    line = {s.id: s for s in standings(five, history)}["E"]
    assert (line.score, line.buchholz, line.sonneborn_berger, line.byes) == (1.0, 0.0, 0.0, 1)


def test_equal_players_share_a_rank() -> None:
    two = [Entrant("x", 1500), Entrant("y", 1400)]
    lines = standings(two, [Played(1, "x", "y", DRAW)])
    assert [(s.rank, s.id) for s in lines] == [(1, "x"), (1, "y")]


def test_blocked_pairs_are_avoided_and_reported_only_when_unavoidable() -> None:
    four = SIX[:4]
    r1 = pair_round(four, [], blocked={frozenset(("A", "C"))})
    assert frozenset(("A", "C")) not in {frozenset(p) for p in r1.pairs}
    assert not r1.blocked
    two = SIX[:2]
    forced = pair_round(two, [], blocked={frozenset(("A", "B"))})
    assert forced.pairs == (("A", "B"),) and forced.blocked == (("A", "B"),)


def test_the_fallback_says_which_pairs_repeat() -> None:
    four = SIX[:4]
    history: list[Played] = []
    for r in range(1, 4):  # a round robin of 4 is 3 rounds
        p = pair_round(four, history)
        assert not p.repeats
        history += [Played(r, a, b, WIN) for a, b in p.pairs]
    fourth = pair_round(four, history)
    assert len(fourth.pairs) == 2 and len(fourth.repeats) == 2


def test_the_first_seat_alternates() -> None:
    two = SIX[:2]
    history = [Played(1, "A", "B", DRAW)]
    assert pair_round(two, history).pairs == (("B", "A"),)


def _exists_without_repeats(ids: list[str], met: set[frozenset[str]]) -> bool:
    if not ids:
        return True
    a = ids[0]
    for b in ids[1:]:
        if frozenset((a, b)) not in met:
            rest = [x for x in ids if x not in (a, b)]
            if _exists_without_repeats(rest, met):
                return True
    return False


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(2, 12),
    rounds=st.integers(1, 8),
    seed=st.integers(0, 10**6),
    blocks=st.integers(0, 3),
)
def test_every_round_pairs_everyone_once_with_at_most_one_bye_and_no_avoidable_repeat(
    n: int, rounds: int, seed: int, blocks: int
) -> None:
    rng = random.Random(seed)
    players = [Entrant(f"p{i}", rng.uniform(1000, 2000)) for i in range(n)]
    blocked = {frozenset(rng.sample([p.id for p in players], 2)) for _ in range(blocks)}
    history: list[Played] = []
    byes: list[str] = []
    for r in range(1, rounds + 1):
        met = {frozenset((g.first, g.second)) for g in history if g.second is not None}
        pairing = pair_round(players, history, blocked)
        seen = [x for pair in pairing.pairs for x in pair]
        seen += [] if pairing.bye is None else [pairing.bye]
        assert sorted(seen) == sorted(p.id for p in players)  # everyone once
        assert (pairing.bye is not None) == (n % 2 == 1)  # one bye when odd, else none
        if pairing.bye is not None and len(byes) < n:
            assert pairing.bye not in byes  # nobody gets two byes before everyone has one
        avoid = met | blocked
        clean = not pairing.repeats and not pairing.blocked
        if clean:
            assert all(frozenset(pair) not in avoid for pair in pairing.pairs)
        if n <= 10:  # the search finds a clean pairing whenever one exists
            ids = [p.id for p in players]
            fresh = [i for i in ids if i not in byes] or ids
            options = [None] if n % 2 == 0 else fresh
            exists = any(
                _exists_without_repeats([i for i in ids if i != b], avoid) for b in options
            )
            assert clean == exists
        history += [Played(r, a, b, rng.choice((WIN, DRAW, LOSS))) for a, b in pairing.pairs]
        if pairing.bye is not None:
            history.append(Played(r, pairing.bye, None))
            byes.append(pairing.bye)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(20, 120), seed=st.integers(0, 10**6))
def test_large_tournaments_have_no_repeats_in_their_first_rounds(n: int, seed: int) -> None:
    rng = random.Random(seed)
    players = [Entrant(f"p{i}", rng.uniform(1000, 2000)) for i in range(n)]
    history: list[Played] = []
    for r in range(1, 8):
        pairing = pair_round(players, history)
        assert not pairing.repeats
        pairs = {frozenset(p) for p in pairing.pairs}
        assert len(pairs) == n // 2
        history += [Played(r, a, b, rng.choice((WIN, DRAW, LOSS))) for a, b in pairing.pairs]
        if pairing.bye:
            history.append(Played(r, pairing.bye, None))


def test_an_entrant_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        pair_round([SIX[0], SIX[0]], [])


# ---------------------------------------------------------------------------- groups


@pytest.mark.parametrize(
    ("n", "size", "minimum", "sizes", "byes"),
    [
        (8, 4, 2, [4, 4], 0),
        (10, 4, 2, [4, 3, 3], 0),
        (9, 4, 2, [3, 3, 3], 0),
        (5, 4, 2, [4], 1),
        (7, 3, 2, [3, 2, 2], 0),
        (6, 3, 3, [3, 3], 0),
        (7, 3, 3, [3, 3], 1),
        (2, 4, 2, [], 2),
    ],
)
def test_table_sizes(n: int, size: int, minimum: int, sizes: list[int], byes: int) -> None:
    assert table_sizes(n, size, minimum) == (sizes, byes)


def test_points_by_placement_worked_examples() -> None:
    assert placement_points([15, 12, 10, 9], [0], 4) == [3.0, 2.0, 1.0, 0.0]
    assert placement_points([15, 12, 12, 9], [0], 4) == [3.0, 1.5, 1.5, 0.0]  # shared
    assert placement_points([15, 15, 8, 9], [0, 1], 4) == [2.5, 2.5, 0.0, 1.0]  # shared win
    assert placement_points([16, 9, 11], [0], 4) == [3.0, 0.0, 1.5]  # a table of 3
    # a forfeit: the others win, placed by their score; the forfeiting seat is last
    assert placement_points([4, 10, 7, 12], [1, 2, 3], 4) == [0.0, 2.0, 1.0, 3.0]


def test_groups_follow_the_standings_and_rotate_the_first_seat() -> None:
    players = [Entrant(f"P{i}", 2000 - 10 * i) for i in range(1, 9)]
    r1 = make_groups(players, {}, 1, 4, 2)
    assert r1.tables == (("P1", "P2", "P3", "P4"), ("P5", "P6", "P7", "P8")) and not r1.byes
    scores = {"P1": 3, "P2": 1.5, "P3": 1.5, "P4": 0, "P5": 0, "P6": 3, "P7": 2, "P8": 1}
    r2 = make_groups(players, scores, 2, 4, 2, earlier=[frozenset(t) for t in r1.tables])
    assert r2.tables == (("P6", "P7", "P2", "P1"), ("P8", "P4", "P5", "P3"))


def test_groups_avoid_a_group_met_before_and_blocks() -> None:
    players = [Entrant(f"P{i}", 2000 - 10 * i) for i in range(1, 9)]
    top = frozenset(("P1", "P2", "P3", "P4"))
    again = make_groups(players, {}, 2, 4, 2, earlier=[top])
    assert top not in {frozenset(t) for t in again.tables}
    blocked = make_groups(players, {}, 1, 4, 2, blocked={frozenset(("P1", "P2"))})
    for t in blocked.tables:
        assert not {"P1", "P2"} <= set(t)


def test_groups_give_byes_bottom_up_to_players_without_one() -> None:
    players = [Entrant(f"P{i}", 2000 - 10 * i) for i in range(1, 6)]
    assert make_groups(players, {}, 1, 4, 2).byes == ("P5",)
    assert make_groups(players, {}, 2, 4, 2, byes_had={"P5": 1}).byes == ("P4",)


# ---------------------------------------------------------------------------- arena


def test_arena_points_with_a_streak() -> None:
    s = arena_score(["win", "win", "win", "loss", "win"])
    assert (s.points, s.bonus, s.streak, s.fire) == (2 + 2 + 4 + 0 + 2, 2, 1, False)
    s = arena_score(["win", "win", "draw", "win"])
    assert (s.points, s.bonus, s.streak) == (2 + 2 + 2 + 2, 1, 1)
    s = arena_score(["win", "win", "win", "win"])
    assert (s.points, s.bonus, s.fire) == (12, 4, True)
    with pytest.raises(ValueError):
        arena_score(["lost"])


def test_outcomes_of_a_game() -> None:
    assert [outcome([0], s) for s in (0, 1)] == ["win", "loss"]
    assert [outcome([0, 1], s) for s in (0, 1, 2)] == ["draw", "draw", "loss"]
    assert outcome([], 0) == "draw"


def test_the_arena_pairs_neighbours_and_avoids_the_last_opponent() -> None:
    waiting = [
        Waiting("a", 6, 1500, frozenset({"b"})),
        Waiting("b", 5, 1500, frozenset({"a"})),
        Waiting("c", 4, 1500),
        Waiting("d", 0, 1500),
        Waiting("e", 0, 1400),
    ]
    games = pair_waiting(waiting, 2)
    assert len(games) == 2
    assert frozenset(("a", "b")) not in {frozenset(g) for g in games}
    # only two waiting, who just met: they meet again rather than wait
    assert pair_waiting(waiting[:2], 2) == [("a", "b")]
    # a block: they wait
    assert pair_waiting(waiting[2:4], 2, {frozenset(("c", "d"))}) == []


def test_the_bench_sized_round_pairs_everyone_without_repeats() -> None:
    rng = random.Random(7)
    players = [Entrant(f"p{i}", rng.uniform(1000, 2500)) for i in range(1000)]
    history: list[Played] = []
    for r in range(1, 6):
        pairing = pair_round(players, history)
        assert not pairing.repeats and len(pairing.pairs) == 500
        history += [Played(r, a, b, rng.choice((WIN, DRAW, LOSS))) for a, b in pairing.pairs]
    met = [frozenset((g.first, g.second)) for g in history]
    assert len(met) == len(set(met))
