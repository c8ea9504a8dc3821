"""Hidden information: rule D22 (what an observation shows and hides) and ``determinize``
(a full state consistent with an observation)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from splendor import duel
from splendor.duel import CARDS, HiddenCard

from .helpers import (
    affordable,
    arrange,
    deck_top,
    field,
    free_cards,
    give_bonuses,
    give_reserved,
    legal_of,
    new,
    rec,
    sound,
    where,
)

PUBLIC = (
    "current",
    "phase",
    "end_reason",
    "winner",
    "replenished",
    "again",
    "pend",
    "pend_card",
    "turn",
    "turn_cap",
    "board",
    "bag",
    "deck_len",
    "pyramid",
    "tokens",
    "bonuses",
    "points",
    "crowns",
    "color_points",
    "privileges",
    "reserved_level",
    "reserved_blind",
    "num_reserved",
    "card_owner",
    "card_color",
    "royal_owner",
    "crown_claims",
    "pay_card",
    "pay_src",
    "pay_need",
    "pay_gold",
)
HIDDEN = ("decks", "rng", "reserved", "observer")
assert set(PUBLIC) | set(HIDDEN) == set(duel.STATE_DTYPE.names)


def played(seed=1, decisions=30):
    """A game after some random decisions, with a blind reserve by each seat and a face-up
    reserve by seat 0."""
    st = new(seed)
    rnd = random.Random(seed)
    st.apply(sorted(legal_of(st, "take_gold"))[0])
    st.apply("reserve d1")  # seat 0 blind
    st.apply(sorted(legal_of(st, "take_gold"))[0])
    st.apply("reserve d3")  # seat 1 blind
    st.apply(sorted(legal_of(st, "take_gold"))[0])
    st.apply("reserve 2.1")  # seat 0 face up
    for _ in range(decisions):
        acts = [
            a for a in st.legal_actions() if a.kind not in ("buy", "buy_choose") or not a.reserved
        ]
        if st.is_terminal or not acts:
            break
        st.apply(rnd.choice(acts))
    return st


def test_d22_observation_keeps_every_public_field():
    """D22: board, bag (as counts), privileges, pyramid, royal cards, tokens, bought
    cards, reserve levels: the observation holds them unchanged."""
    st = played()
    for seat in (0, 1):
        ob = st.observation(seat)._a[0]
        for name in PUBLIC:
            assert np.array_equal(ob[name], rec(st)[name]), name
        assert ob["observer"] == seat


def test_d22_deck_order_and_generator_hidden_from_everyone():
    """D22: no observation holds a deck card or the generator (the bag's draw order)."""
    st = played()
    for seat in (0, 1):
        ob = st.observation(seat)
        assert (ob._a[0]["decks"] == -1).all()
        assert int(ob._a[0]["rng"][0]) == 0
        assert ob.deck_sizes == st.deck_sizes
        d = ob.to_dict()
        assert all(x == -1 for row in d["decks"] for x in row) and d["rng"] == ["0"]


def test_d22_blind_reserve_hidden_from_the_opponent_only():
    """D22: a blind-reserved card shows only its level to the opponent; its owner sees
    it; a card reserved face up is seen by both."""
    st = new(4)
    top1 = deck_top(st, 0)
    shown = int(rec(st)["pyramid"][5])
    top3 = deck_top(st, 2)
    st.apply(sorted(legal_of(st, "take_gold"))[0])
    st.apply("reserve d1")  # seat 0, blind
    st.apply(sorted(legal_of(st, "take_gold"))[0])
    st.apply("reserve 2.1")  # seat 1, face up
    st.apply(sorted(legal_of(st, "take_gold"))[0])
    st.apply("reserve d3")  # seat 0, blind
    own = st.observation(0).player(0)
    assert [c.id for c in own.reserved] == [top1, top3]
    assert own.reserved_blind == (True, True)
    other = st.observation(1).player(0)
    assert other.reserved == (HiddenCard(1), HiddenCard(3))
    assert str(other.reserved[0]) == "L1 (hidden)"
    for seat in (0, 1):
        assert [c.id for c in st.observation(seat).player(1).reserved] == [shown]
    # the host's full state sees everything
    assert [c.id for c in st.player(0).reserved] == [top1, top3]
    # and no trace of the hidden ids in the opponent's observation
    ob = st.observation(1)
    assert top1 not in ob._a[0]["reserved"][0] and top3 not in ob._a[0]["reserved"][0]
    assert ob.to_dict()["reserved"][0] == [-1, -1, -1]
    assert json.loads(json.dumps(ob.to_dict()))["reserved_level"][0] == [1, 3, 0]


def test_d22_states_differing_only_in_hidden_information_look_the_same():
    """D22: two states that differ only in deck order, the generator and the opponent's
    blind-reserved card give byte-identical observations to that seat."""
    st = played(seed=3)
    other = st.copy()
    rng = np.random.default_rng(0)
    for lvl in range(3):  # a different deck order
        n = int(field(other, "deck_len")[lvl])
        field(other, "decks")[lvl, :n] = rng.permutation(field(other, "decks")[lvl, :n])
    field(other, "rng")[0] = np.uint64(987654321)
    # seat 1's blind card (level 3) swapped with a card of the level-3 deck
    k = next(
        k for k in range(int(rec(other)["num_reserved"][1])) if rec(other)["reserved_blind"][1, k]
    )
    lvl = int(rec(other)["reserved_level"][1, k]) - 1
    mine = int(field(other, "reserved")[1, k])
    deck_card = int(field(other, "decks")[lvl, 0])
    field(other, "reserved")[1, k] = deck_card
    field(other, "decks")[lvl, 0] = mine
    assert duel.check_invariants(other._a) == []
    assert other != st
    assert other.observation(0)._a.tobytes() == st.observation(0)._a.tobytes()
    # seat 1 sees its own card, so its observations differ
    assert other.observation(1)._a.tobytes() != st.observation(1)._a.tobytes()


def test_d22_observation_is_read_only_and_checks_the_seat():
    st = new(0)
    ob = st.observation(0)
    with pytest.raises(ValueError):
        ob._a[0]["tokens"][0, 0] = 3
    arr = ob.array
    arr[0]["tokens"][0, 0] = 3  # .array is a copy
    assert ob.player(0).tokens[0] == 0
    for bad in (-1, 2, 5):
        with pytest.raises(ValueError):
            st.observation(bad)
    assert repr(ob).startswith("<duel.Observation seat=0")


def test_d22_current_seat_legal_actions_from_its_observation():
    """D22: the current seat's observation holds everything its decisions depend on."""
    st = played(seed=5)
    for _ in range(40):
        if st.is_terminal:
            break
        seat = st.current_player
        assert st.observation(seat).legal_actions() == st.legal_actions()
        st.apply(random.Random(st.turn).choice(st.legal_actions()))


def test_determinize_is_consistent_with_the_observation():
    """determinize: a sound full state whose observation is the original one byte for
    byte; the hidden cards are drawn from the cards that seat has not seen."""
    st = played(seed=6)
    for seat in (0, 1):
        ob = st.observation(seat)
        seen_tops = set()
        for r in range(6):
            d = duel.determinize(ob, r)
            assert duel.check_invariants(d._a) == []
            assert d.observation(seat)._a.tobytes() == ob._a.tobytes()
            assert d.current_player == st.current_player and d.scores == st.scores
            seen_tops.add(tuple(int(x) for x in d._a[0]["decks"][0]))
        assert len(seen_tops) > 1  # the deck order really is drawn


def test_determinize_draws_the_opponents_blind_card_from_the_unseen_ones():
    st = played(seed=7)
    ob = st.observation(0)
    k = next(k for k in range(int(rec(st)["num_reserved"][1])) if rec(st)["reserved_blind"][1, k])
    lvl = int(rec(st)["reserved_level"][1, k])
    guesses = set()
    for r in range(20):
        d = duel.determinize(ob, r)
        cid = int(d._a[0]["reserved"][1, k])
        assert CARDS[cid].level == lvl
        loc = where(st, cid)
        assert loc[0] in ("deck", "reserved")  # never a card seat 0 can see
        if loc[0] == "reserved":
            assert loc[1] == 1
        guesses.add(cid)
    assert len(guesses) > 1


def test_determinize_draws_a_fresh_generator():
    """D22/D24: the bag's draw order is hidden: determinizations replenish the board in
    different ways."""
    st = new(0)
    arrange(st, board="WUGRK/UGRKW/GRPKU/...../.....", tokens={})
    sound(st)
    boards = set()
    for r in range(10):
        d = duel.determinize(st.observation(0), r)
        d.apply("replenish")
        boards.add(d.board)
    assert len(boards) > 1


def test_determinize_rejects_an_inconsistent_observation():
    st = new(0)
    arr = st.observation(0).array
    arr[0]["deck_len"][0] += 1
    with pytest.raises(ValueError, match="inconsistent observation"):
        duel.determinize(duel.Observation(arr))


def test_d22_blind_card_being_paid_for_is_shown():
    """D22 (engine ruling): a blind-reserved card its owner is buying with a chosen
    payment is no longer secret: it shows in the payment for both seats, and
    determinize keeps it."""
    st = new(0)
    cid = free_cards(
        st,
        lambda c: (
            c.level == 1
            and c.ability == "none"
            and c.color == 0
            and c.points == 0
            and c.crowns == 0
        ),
    )[0]
    give_reserved(st, 0, cid, blind=True)
    cost = " ".join(f"{n}{'WUGRKP'[c]}" for c, n in enumerate(CARDS[cid].cost) if n)
    arrange(st, tokens={0: cost + " 1*"})
    sound(st)
    assert isinstance(st.observation(1).player(0).reserved[0], HiddenCard)
    st.apply("buy r1 choose")
    ob = st.observation(1)
    assert ob.payment[0].id == cid and ob.player(0).reserved[0].id == cid
    d = duel.determinize(ob, 1)
    assert duel.check_invariants(d._a) == []
    assert d.observation(1)._a.tobytes() == ob._a.tobytes()
    assert d.legal_actions() == st.legal_actions()


def test_d22_bought_cards_and_bonuses_are_public():
    st = new(0)
    cid, slot = affordable(st, lambda c: c.ability == "none" and c.level == 1)
    give_bonuses(st, 1, (1, 0, 0, 0, 0))
    st.apply(f"buy {slot}")
    for seat in (0, 1):
        ob = st.observation(seat)
        assert [c.id for c in ob.player(0).purchased] == [cid]
        assert ob.player(1).bonuses == (1, 0, 0, 0, 0)


def test_d22_observations_compare_and_hash_by_value():
    """D22: two observations of one seat of one position are equal and hash alike (as
    states do); the other seat's, or the same seat's after a move, differ."""
    st = duel.new_game(seed=5)
    a, b = st.observation(0), st.observation(0)
    assert a is not b and a == b and hash(a) == hash(b)
    assert a != st.observation(1) and a != st and len({a, b, st.observation(1)}) == 2
    st.apply(st.legal_actions()[0])
    assert st.observation(0) != a
    assert duel.Observation.from_text(a.to_text()) == a
