"""Setup and seating: rules C1 (tokens), C3 (nobles), C4 (decks and face-up cards),
C5 (seat order) and C18 (a seed and actions reproduce a game)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from splendor import classic
from splendor.classic import CARDS

from .helpers import field, harmless, rec, sound


@pytest.mark.parametrize("n,gems", [(2, 4), (3, 5), (4, 7)])
def test_c1_supply_per_player_count(n, gems):
    """C1: 7 of each gem minus 3 (2 players) or 2 (3 players); gold always 5."""
    st = classic.new_game(n, seed=11)
    assert st.supply == (gems,) * 5 + (5,)
    assert all(sum(p.tokens) == 0 for p in st.players)


@pytest.mark.parametrize("n", [1, 5, 0, -2, "3", 2.0])
def test_c1_player_count_outside_2_to_4_rejected(n):
    """C1: Splendor is for 2 to 4 players."""
    with pytest.raises(ValueError, match="2 to 4"):
        classic.new_game(n, seed=0)


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 12345, 2**62, 2**63 - 1])
def test_c3_players_plus_one_distinct_nobles(n, seed):
    """C3: players + 1 nobles revealed, all different; the other slots are empty."""
    st = classic.new_game(n, seed)
    row = [int(x) for x in rec(st)["nobles"]]
    shown = [x for x in row if x >= 0]
    assert len(shown) == n + 1 and len(set(shown)) == n + 1
    assert row[n + 1 :] == [-1] * (5 - n - 1)
    assert all(0 <= x < 10 for x in shown)
    assert all(nb is not None and nb.points == 3 for nb in st.nobles[: n + 1])
    assert (rec(st)["noble_owner"] == -1).all()


def test_c3_noble_draw_varies_with_the_seed():
    """C3: the nobles are drawn at random (different seeds give different rows)."""
    rows = {tuple(int(x) for x in rec(classic.new_game(3, s))["nobles"]) for s in range(40)}
    assert len(rows) > 20


@pytest.mark.parametrize("n", [2, 3, 4])
def test_c4_four_faceup_per_level_and_decks(n):
    """C4: 4 face-up cards of each level; the rest of each level is its deck; every card
    of the game is in exactly one place."""
    st = sound(classic.new_game(n, seed=5))
    assert st.deck_sizes == (36, 26, 16)
    s = rec(st)
    seen = []
    for lvl in range(3):
        face = [int(c) for c in s["faceup"][lvl]]
        deck = [int(c) for c in s["decks"][lvl, : s["deck_len"][lvl]]]
        assert all(CARDS[c].level == lvl + 1 for c in face + deck)
        assert (s["decks"][lvl, s["deck_len"][lvl] :] == -1).all()
        seen += face + deck
    assert sorted(seen) == list(range(90))


def test_c4_each_level_shuffled_separately():
    """C4: decks are shuffled (the order depends on the seed, each level on its own)."""
    orders = [
        [tuple(int(x) for x in rec(classic.new_game(2, s))["decks"][lvl]) for lvl in range(3)]
        for s in range(10)
    ]
    for lvl in range(3):
        assert len({o[lvl] for o in orders}) == 10
    # not sorted: a shuffle moved cards away from the id order
    d = rec(classic.new_game(2, 3))["decks"][0, :36]
    assert list(d) != sorted(d)


def test_c4_face_up_cards_are_roughly_uniform():
    """C4: over many deals every level-1 card shows up face up now and then (a real
    shuffle, not a fixed cut)."""
    counts = np.zeros(90, dtype=int)
    for s in range(300):
        for c in rec(classic.new_game(2, s))["faceup"].ravel():
            counts[c] += 1
    # each level-1 card shows with probability 4/40: about 30 times in 300 deals
    assert (counts[:40] > 5).all() and (counts[:40] < 70).all()


@pytest.mark.parametrize("n", [2, 3, 4])
def test_c5_seat_zero_starts_and_play_follows_seat_order(n):
    """C5: seat 0 plays first, then 1, 2, ... and back to 0."""
    st = classic.new_game(n, seed=3)
    assert st.current_player == 0 and st.phase == "main" and st.turn == 0
    order = []
    for _ in range(2 * n + 1):
        order.append(st.current_player)
        harmless(st)
    assert order == [i % n for i in range(2 * n + 1)]
    assert st.turn == 2 * n + 1


def test_c5_a_turn_is_several_decisions_of_one_seat():
    """C5/C11: the seat only changes once a turn's decisions are all made."""
    st = classic.new_game(2, seed=0)
    field(st, "tokens")[0, :] = [2, 2, 2, 2, 1, 0]
    field(st, "supply")[:5] -= np.array([2, 2, 2, 2, 1], dtype=np.int8)
    sound(st)
    st.apply("take W U G")  # 12 tokens
    assert st.current_player == 0 and st.phase == "return tokens"
    st.apply("return W")
    assert st.current_player == 0
    st.apply("return W")
    assert st.current_player == 1 and st.turn == 1


def play_random(st: classic.State, rnd: random.Random, limit: int = 10_000) -> list[int]:
    ids = []
    while not st.is_terminal and len(ids) < limit:
        a = rnd.choice(st.legal_actions())
        ids.append(a.id)
        st.apply(a)
    return ids


@pytest.mark.parametrize("n", [2, 3, 4])
def test_c18_same_seed_and_actions_same_game(n):
    """C18: the same seed and the same decisions reproduce the game byte for byte."""
    a = classic.new_game(n, seed=99)
    b = classic.new_game(n, seed=99)
    assert a._a.tobytes() == b._a.tobytes()
    ids = play_random(a, random.Random(n))
    for i in ids:
        b.apply(i)
    assert a._a.tobytes() == b._a.tobytes()
    c = classic.replay(n, 99, [str(classic.Action.from_id(i)) for i in ids])
    assert c._a.tobytes() == a._a.tobytes()
    assert c.is_terminal and c.winners == a.winners


def test_c18_different_seeds_deal_different_games():
    """C18: the seed fixes the deck order (different seeds, different deals)."""
    deals = {classic.new_game(2, s)._a.tobytes() for s in range(50)}
    assert len(deals) == 50


@pytest.mark.parametrize("seed", [-1, 2**63, 2**70, 1.5, "7", True])
def test_c18_seed_must_be_a_valid_integer(seed):
    """C18: a seed is an integer 0 <= seed < 2**63 (so that it fixes the game)."""
    with pytest.raises(ValueError, match="seed"):
        classic.new_game(2, seed)


def test_c18_no_seed_draws_a_fresh_one():
    """C18: without a seed the deal is random (two deals differ)."""
    assert classic.new_game(2)._a.tobytes() != classic.new_game(2)._a.tobytes()
