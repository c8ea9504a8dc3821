"""Reserving: rule C8 (face-up or blind reserve, gold, the limit of 3) and C10 (refill)."""

from __future__ import annotations

import pytest

from splendor import classic
from splendor.classic import CARDS, HiddenCard

from .helpers import (
    empty_deck,
    field,
    give_purchased,
    give_reserved,
    legal_texts,
    new,
    rec,
    set_supply,
    sound,
    supply,
    tokens_of,
    unplaced,
)


def reserves(st: classic.State) -> set[str]:
    return {str(a) for a in st.legal_actions() if a.kind.startswith("reserve")}


def test_c8_reserve_faceup_card_takes_gold_and_refills():
    """C8/C10: 'reserve 2.3' moves that card to the reserve, gives 1 gold, and the slot
    is refilled at once with the top card of the level-2 deck."""
    st = new(3, seed=4)
    s = rec(st)
    card = int(s["faceup"][1, 2])
    top = int(s["decks"][1, s["deck_len"][1] - 1])
    st.apply("reserve 2.3")
    sound(st)
    me = st.player(0)
    assert [c.id for c in me.reserved] == [card] and me.reserved_blind == (False,)
    assert tokens_of(st, 0) == [0, 0, 0, 0, 0, 1]
    assert supply(st)[5] == 4
    assert int(s["faceup"][1, 2]) == top
    assert st.deck_sizes == (36, 25, 16)
    assert st.current_player == 1


@pytest.mark.parametrize("level", [1, 2, 3])
def test_c8_blind_reserve_takes_top_of_deck(level):
    """C8: 'reserve dN' takes the top card of the level-N deck; the face-up row is
    untouched."""
    st = new(2, seed=8)
    s = rec(st)
    lvl = level - 1
    top = int(s["decks"][lvl, s["deck_len"][lvl] - 1])
    faceup = s["faceup"].copy()
    st.apply(f"reserve d{level}")
    sound(st)
    me = st.player(0)
    assert [c.id for c in me.reserved] == [top] and me.reserved_blind == (True,)
    assert CARDS[top].level == level
    assert (s["faceup"] == faceup).all()
    assert st.deck_sizes[lvl] == (36, 26, 16)[lvl] - 1
    assert tokens_of(st, 0)[5] == 1


def test_c8_blind_reserve_hidden_from_others_level_known():
    """C8/C16: a blind reserve is seen by its owner; others see only its level."""
    st = new(3, seed=2)
    s = rec(st)
    top = int(s["decks"][2, s["deck_len"][2] - 1])
    st.apply("reserve d3")
    own = st.observation(0).player(0)
    assert [c.id for c in own.reserved] == [top]
    for seat in (1, 2):
        other = st.observation(seat).player(0)
        assert other.reserved == (HiddenCard(level=3),)
        assert other.reserved_blind == (True,)
        ob = st.observation(seat)._a[0]
        assert ob["reserved"][0, 0] == -1 and ob["reserved_level"][0, 0] == 3
        assert top not in ob["reserved"] and top not in ob["decks"]


def test_c8_faceup_reserve_stays_public():
    """C16: a card reserved face up stays visible to every seat."""
    st = new(2, seed=2)
    card = int(rec(st)["faceup"][0, 0])
    st.apply("reserve 1.1")
    assert [c.id for c in st.observation(1).player(0).reserved] == [card]


def test_c8_reserve_without_gold_left():
    """C8: no gold in the supply: reserving stays legal and gives no gold."""
    st = new(2, seed=1)
    set_supply(st, "4W 4U 4G 4R 4K 0*", park=[1])
    sound(st)
    assert {"reserve 1.1", "reserve d3"} <= reserves(st)
    st.apply("reserve 1.1")
    sound(st)
    assert tokens_of(st, 0) == [0] * 6
    assert len(st.player(0).reserved) == 1
    assert supply(st)[5] == 0


def test_c8_last_gold_goes_then_none():
    """C8: with 1 gold left the first reserve takes it, the next reserve gets none."""
    st = new(2, seed=1)
    set_supply(st, "4W 4U 4G 4R 4K 1*", park=[1])
    st.apply("reserve 1.2")
    st.apply("reserve 1.2")
    assert tokens_of(st, 0)[5] == 1 and tokens_of(st, 1)[5] == 4  # 4 parked + 0 new
    sound(st)


def test_c8_three_reserved_no_more_reserve():
    """C8: a player holding 3 reserved cards has no reserve action."""
    st = new(2, seed=3)
    for cid in unplaced(st, lambda c: c.level == 3)[:3]:
        give_reserved(st, 0, cid)
    sound(st)
    assert reserves(st) == set()
    before = st._a.tobytes()
    for text in ("reserve 1.1", "reserve d1", "reserve 3.4", "reserve d3"):
        with pytest.raises(classic.IllegalActionError):
            st.apply(text)
    assert st._a.tobytes() == before
    # the other seat, with no reserve, still may
    st.apply("take W U G")
    assert len(reserves(st)) == 15


def test_c8_reserve_limit_reached_by_play():
    """C8: after reserving 3 times, the 4th reserve is illegal."""
    st = new(2, seed=3)
    for _ in range(3):
        st.apply("reserve 1.1")
        st.apply("take W U G")
    assert len(st.player(0).reserved) == 3
    assert reserves(st) == set()
    assert tokens_of(st, 0)[5] == 3


def test_c10_empty_deck_blind_reserve_illegal_and_slot_stays_empty():
    """C8/C10: an empty level-3 deck: 'reserve d3' is illegal; reserving a level-3 card
    face up leaves its slot empty (-1), with no card drawn from another level."""
    st = new(2, seed=6)
    empty_deck(st, 2, seat=1)
    sound(st)
    assert st.deck_sizes[2] == 0
    assert "reserve d3" not in legal_texts(st)
    st.apply("reserve 3.2")
    sound(st)
    assert int(rec(st)["faceup"][2, 1]) == -1
    assert st.faceup[2][1] is None
    assert st.deck_sizes == (36, 26, 0)
    # the empty slot can be neither reserved nor bought
    assert "reserve 3.2" not in legal_texts(st) and "buy 3.2" not in legal_texts(st)


def test_c8_nothing_left_to_reserve():
    """C8: empty level-3 deck and face-up row: no reserve of level 3, others still."""
    st = new(2, seed=6)
    empty_deck(st, 2, seat=1)
    row = [int(c) for c in field(st, "faceup")[2]]
    for cid in row[:3]:
        give_reserved(st, 1, cid)
    give_purchased(st, 1, row[3:])
    sound(st)
    assert st.faceup[2] == (None, None, None, None)
    assert not any(t.startswith("reserve 3.") or t == "reserve d3" for t in reserves(st))
    assert "reserve d1" in reserves(st) and "reserve 2.4" in reserves(st)
