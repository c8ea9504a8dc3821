"""Hidden information: rule C16 (what an observation shows and hides) and
``determinize`` (a full state consistent with an observation)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from splendor import classic
from splendor.classic import CARDS, HiddenCard

from .helpers import (
    card_with,
    give_reserved,
    new,
    rec,
    set_current,
    set_tokens,
    sound,
    unplaced,
)

PUBLIC = (
    "num_players",
    "current",
    "phase",
    "final_round",
    "pass_streak",
    "end_reason",
    "turn",
    "supply",
    "deck_len",
    "faceup",
    "nobles",
    "tokens",
    "bonuses",
    "points",
    "reserved_level",
    "reserved_blind",
    "num_reserved",
    "purchased_by",
    "noble_owner",
    "pay_card",
    "pay_src",
    "pay_need",
    "pay_gold",
)


def played(n=3, seed=1, decisions=40):
    """A game after some random decisions, with blind reserves by seats 0 and 1."""
    st = new(n, seed)
    rnd = random.Random(seed)
    st.apply("reserve d1")
    st.apply("reserve d3")
    for _ in range(decisions):
        if st.is_terminal:
            break
        st.apply(rnd.choice(st.legal_actions()))
    return st


def test_c16_observation_keeps_every_public_field():
    """C16: supply, face-up cards, nobles, tokens, purchases, points, reserve levels are
    public: the observation holds them unchanged."""
    st = played()
    for seat in range(st.num_players):
        ob = st.observation(seat)._a[0]
        for name in PUBLIC:
            assert np.array_equal(ob[name], rec(st)[name]), name
        assert ob["observer"] == seat


def test_c16_deck_order_and_generator_hidden_from_everyone():
    """C16/C18: no observation holds a deck card or the generator state."""
    st = played()
    for seat in range(st.num_players):
        ob = st.observation(seat)
        assert (ob._a[0]["decks"] == -1).all()
        assert int(ob._a[0]["rng"][0]) == 0
        assert ob.deck_sizes == st.deck_sizes  # deck sizes are public
        d = ob.to_dict()
        assert all(x == -1 for row in d["decks"] for x in row) and d["rng"] == ["0"]


def test_c16_blind_reserve_hidden_from_others_only():
    """C16: another seat's blind reserve shows only its level; the owner sees the card;
    a card reserved face up is seen by all."""
    st = new(3, seed=4)
    lvl3_top = int(rec(st)["decks"][2, rec(st)["deck_len"][2] - 1])
    shown = int(rec(st)["faceup"][1, 0])
    st.apply("reserve d3")  # seat 0, blind
    st.apply("reserve 2.1")  # seat 1, face up
    for seat in range(3):
        view = st.observation(seat).player(0)
        if seat == 0:
            assert [c.id for c in view.reserved] == [lvl3_top]
        else:
            assert view.reserved == (HiddenCard(3),)
            assert lvl3_top not in st.observation(seat)._a[0]["reserved"]
        assert [c.id for c in st.observation(seat).player(1).reserved] == [shown]


def test_c16_observation_invariant_under_hidden_changes():
    """C16: two games that differ only in what seat 0 cannot see (deck order, the card
    seat 1 reserved blind, the generator) give seat 0 byte-identical observations, while
    seat 1 sees its own card."""
    a = new(2, seed=6)
    a.apply("take W U G")
    a.apply("reserve d2")  # seat 1, blind
    b = a.copy()
    s = rec(b)
    mine = int(s["reserved"][1, 0])
    n = int(s["deck_len"][1])
    other = int(s["decks"][1, 0])
    s["reserved"][1, 0], s["decks"][1, 0] = other, mine  # swap with a deck card
    s["decks"][0, : s["deck_len"][0]] = s["decks"][0, : s["deck_len"][0]][::-1]
    s["rng"][0] ^= np.uint64(12345)
    s["decks"][1, :n] = np.roll(s["decks"][1, :n], 3)
    sound(b)
    assert a._a.tobytes() != b._a.tobytes()
    assert a.observation(0)._a.tobytes() == b.observation(0)._a.tobytes()
    assert a.observation(1)._a.tobytes() != b.observation(1)._a.tobytes()
    # and so does anything computed from the observation, such as determinize
    da = classic.determinize(a.observation(0), 3)
    db = classic.determinize(b.observation(0), 3)
    assert da._a.tobytes() == db._a.tobytes()


def test_c16_observation_is_read_only_and_a_copy():
    """C16: an observation cannot be used to change the game."""
    st = new(2, seed=1)
    ob = st.observation(0)
    with pytest.raises(ValueError):
        ob._a[0]["supply"][0] = 0
    assert ob.seat == 0
    st.apply("take W U G")
    assert ob.supply == (4, 4, 4, 4, 4, 5)  # taken before the move


@pytest.mark.parametrize("seat", [-1, 2, 5])
def test_c16_observation_of_a_bad_seat(seat):
    st = new(2, seed=1)
    with pytest.raises(ValueError, match="seat"):
        st.observation(seat)


def test_c16_legal_actions_from_observation_match_state():
    """C16: the player to move can list its legal actions from its observation alone."""
    st = played(decisions=30)
    seat = st.current_player
    assert st.observation(seat).legal_actions() == st.legal_actions()


@pytest.mark.parametrize("n", [2, 3, 4])
def test_determinize_consistent_with_observation(n):
    """C16: determinize gives a sound full state whose observation for that seat is the
    given one byte for byte (observer field included), and whose hidden cards are drawn
    from the cards that seat has not seen."""
    st = played(n=n, seed=n, decisions=25)
    for seat in range(n):
        ob = st.observation(seat)
        d = classic.determinize(ob, np.random.default_rng(seat))
        assert classic.check_invariants(d._a) == []
        assert d.observation(seat)._a.tobytes() == ob._a.tobytes()
        assert d.legal_actions() == st.legal_actions()
        assert int(rec(d)["observer"]) == -1 and int(rec(d)["rng"][0]) != 0
        # own reserves are kept as they are
        assert d.player(seat).reserved == st.player(seat).reserved


def test_determinize_resamples_hidden_cards():
    """C16: determinize does not know the real decks: different draws give different
    decks and blind reserves, and a draw is not the real game."""
    st = played(n=2, seed=5, decisions=10)
    ob = st.observation(0)
    draws = {classic.determinize(ob, k)._a.tobytes() for k in range(20)}
    assert len(draws) == 20
    assert st._a.tobytes() not in draws
    # reproducible with the same seed
    assert classic.determinize(ob, 7)._a.tobytes() == classic.determinize(ob, 7)._a.tobytes()
    # the hidden reserve of seat 1 is some card of its level not seen by seat 0
    d = classic.determinize(ob, 1)
    for k in range(int(rec(st)["num_reserved"][1])):
        if rec(st)["reserved_blind"][1, k]:
            cid = int(rec(d)["reserved"][1, k])
            assert CARDS[cid].level == int(rec(st)["reserved_level"][1, k])


def test_determinize_while_paying_for_a_blind_reserve():
    """Regression (C9/C16): seat 1 pays, choosing the payment, for a card it reserved
    blind. The card being bought is public from then on (``payment`` shows it, and so
    does the reserve slot). Determinizing seat 0's observation used to fail with
    "inconsistent observation": the card was counted as seen while its reserve slot
    still asked for a hidden card."""
    st = new(2, seed=3)
    target = card_with(st, lambda c: c.cost == (0, 0, 0, 2, 1))
    other = unplaced(st, lambda c: c.level == 2)[0]
    give_reserved(st, 1, other, blind=True)
    give_reserved(st, 1, target, blind=True)
    set_current(st, 1)
    set_tokens(st, 1, "2R 1K 1*")
    sound(st)
    assert st.observation(0).player(1).reserved == (HiddenCard(2), HiddenCard(1))
    st.apply("buy r2 choose")
    assert st.phase == "payment" and st.payment[0].id == target
    ob = st.observation(0)
    assert ob.payment[0].id == target
    assert ob.player(1).reserved == (HiddenCard(2), CARDS[target])  # the other stays hidden
    d = classic.determinize(ob, 0)
    assert classic.check_invariants(d._a) == []
    assert d.observation(0)._a.tobytes() == ob._a.tobytes()
    assert int(rec(d)["reserved"][1, 1]) == target
    assert d.legal_actions() == st.legal_actions()
    for s in (st, d):
        s.apply("gold K")
        s.apply("pay")
        assert int(rec(s)["purchased_by"][target]) == 1
        assert s.observation(0).player(1).reserved == (HiddenCard(2),)
    assert st.observation(0)._a.tobytes() == d.observation(0)._a.tobytes()


def test_determinize_rejects_inconsistent_observation():
    """determinize checks its input: unseen card counts must add up."""
    st = new(2, seed=3)
    ob = st.observation(0)
    a = ob._a.copy()
    a.setflags(write=True)
    a[0]["deck_len"][0] += 1
    with pytest.raises(ValueError, match="inconsistent"):
        classic.determinize(classic.Observation(a), 0)


def test_c16_observations_compare_and_hash_by_value():
    """C16: two observations of one seat of one position are equal and hash alike (as
    states do); another seat's, or the same seat's after a move, differ."""
    st = classic.new_game(3, seed=5)
    a, b = st.observation(1), st.observation(1)
    assert a is not b and a == b and hash(a) == hash(b)
    assert a != st.observation(2) and a != st and len({a, b, st.observation(2)}) == 2
    st.apply("take W U G")
    assert st.observation(1) != a
    assert classic.Observation.from_text(a.to_text()) == a
