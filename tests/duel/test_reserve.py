"""Reserving: rule D9 (take 1 gold, then reserve a pyramid card or the top of a deck,
blind; at most 3 reserved; impossible without gold on the board) and D11 (refilling the
pyramid, or leaving the slot empty when the deck is empty)."""

from __future__ import annotations

import pytest

from splendor import duel
from splendor.duel import CARDS

from .helpers import (
    arrange,
    bag,
    cell,
    deck_top,
    empty_deck,
    field,
    free_cards,
    give_reserved,
    legal_of,
    legal_texts,
    new,
    rec,
    snapshot,
    sound,
    tokens_of,
    vec,
)

BOARD = "WUGRK/UGRKW/GRPKU/RKWP*/GWU**"


def test_d9_gold_then_reserve_a_pyramid_card():
    """D9: 'gold e4' takes that gold; the turn goes on with the card to reserve; the
    reserved card leaves the pyramid, which is refilled from the top of its deck (D11)."""
    st = new(0)
    arrange(st, board=BOARD, tokens={})
    assert legal_of(st, "take_gold") == {"gold e4", "gold d5", "gold e5"}
    st.apply("gold e4")
    assert tokens_of(st, 0) == vec("1*") and cell(st, "e4") == -1
    assert st.current_player == 0 and st.phase == "reserve"
    # only reservations are legal now: 12 pyramid cards and 3 decks
    assert {a.kind for a in st.legal_actions()} == {"reserve_pyramid", "reserve_deck"}
    assert len(st.legal_actions()) == 15
    target = int(rec(st)["pyramid"][6])  # level 2, slot 2
    top = deck_top(st, 1)
    st.apply("reserve 2.2")
    view = st.players[0]
    assert [c.id for c in view.reserved] == [target] and view.reserved_blind == (False,)
    assert int(rec(st)["pyramid"][6]) == top  # D11
    assert st.deck_sizes == (25, 19, 10)
    assert st.current_player == 1 and st.phase == "main"
    sound(st)


def test_d9_blind_reserve_takes_the_top_of_a_deck():
    """D9: 'reserve d3' reserves the top card of the level-3 deck, marked blind; the
    pyramid is unchanged."""
    st = new(0)
    pyramid = rec(st)["pyramid"].copy()
    top = deck_top(st, 2)
    st.apply(next(iter(legal_of(st, "take_gold"))))
    st.apply("reserve d3")
    view = st.players[0]
    assert [c.id for c in view.reserved] == [top] and view.reserved_blind == (True,)
    assert (rec(st)["pyramid"] == pyramid).all()
    assert st.deck_sizes == (25, 20, 9)
    sound(st)


def test_d9_reserved_card_counts_only_once_bought():
    """D9: a reserved card's points and crowns do not count while it is reserved."""
    st = new(0)
    level3 = free_cards(st, lambda c: c.level == 3)
    rich = max(level3, key=lambda i: CARDS[i].points + CARDS[i].crowns)
    from .helpers import put_pyramid

    put_pyramid(st, 9, rich)
    st.apply(next(iter(legal_of(st, "take_gold"))))
    st.apply("reserve 3.1")
    assert st.scores == [0, 0] and st.players[0].crowns == 0
    assert st.players[0].color_points == (0,) * 5 and st.players[0].bonuses == (0,) * 5


def test_d9_no_gold_on_the_board_no_reserve():
    """D9: impossible when no gold is on the board."""
    st = new(0)
    arrange(st, board=BOARD.replace("*", "."), tokens={1: "3*"})
    sound(st)
    assert legal_of(st, "take_gold", "reserve_pyramid", "reserve_deck") == set()
    with pytest.raises(duel.IllegalActionError):
        st.apply("gold e4")


def test_d9_gold_action_needs_gold_on_that_cell():
    """D9: 'gold c3' on a cell holding a gem (or nothing) is illegal."""
    st = new(0)
    arrange(st, board=BOARD, tokens={})
    for text in ("gold c3", "gold a1"):
        before = snapshot(st)
        with pytest.raises(duel.IllegalActionError):
            st.apply(text)
        assert snapshot(st) == before


def test_d9_at_most_three_reserved_cards():
    """D9: a player holding 3 reserved cards cannot take a gold; with 2 they can."""
    st = new(0)
    arrange(st, board=BOARD, tokens={})
    ids = free_cards(st, lambda c: c.level == 3)
    give_reserved(st, 0, ids[0])
    give_reserved(st, 0, ids[1], blind=True)
    sound(st)
    assert legal_of(st, "take_gold") == {"gold e4", "gold d5", "gold e5"}
    give_reserved(st, 0, ids[2])
    sound(st)
    assert legal_of(st, "take_gold") == set()
    before = snapshot(st)
    with pytest.raises(duel.IllegalActionError):
        st.apply("gold e4")
    assert snapshot(st) == before
    # the limit is per player: seat 1 may still reserve
    st.apply("take a1")
    assert legal_of(st, "take_gold")


def test_d9_reserve_phase_rejects_other_decisions():
    """D9: after the gold, only a reservation may follow (no take, no buy, no pass)."""
    st = new(0)
    arrange(st, board=BOARD, tokens={})
    st.apply("gold e5")
    before = snapshot(st)
    for text in ("take a1", "gold d5", "pass", "replenish", "buy 1.1", "reserve r1"):
        with pytest.raises(ValueError):
            st.apply(text)
        assert snapshot(st) == before


def test_d11_empty_deck_leaves_the_slot_empty_and_cannot_be_reserved_blind():
    """D11: with the level-1 deck empty, a reserved level-1 card is not replaced and
    'reserve d1' is illegal; the emptied slot can no longer be reserved or bought."""
    st = new(0)
    empty_deck(st, 0, 1)  # seat 1 "bought" the whole level-1 deck (11 points at most)
    sound(st)
    assert st.deck_sizes[0] == 0
    st.apply(next(iter(legal_of(st, "take_gold"))))
    assert "reserve d1" not in legal_texts(st) and "reserve d2" in legal_texts(st)
    with pytest.raises(duel.IllegalActionError):
        st.apply("reserve d1")
    card = int(rec(st)["pyramid"][1])
    st.apply("reserve 1.2")
    assert int(rec(st)["pyramid"][1]) == -1 and st.pyramid[0][1] is None
    assert st.players[0].reserved[0].id == card
    sound(st)
    st.apply(sorted(legal_of(st, "take"))[0])  # seat 1
    assert not st.is_terminal and st.current_player == 0
    assert "buy 1.2" not in legal_texts(st) and "buy 1.2 choose" not in legal_texts(st)
    st.apply(next(iter(legal_of(st, "take_gold"))))
    assert "reserve 1.2" not in legal_texts(st) and "reserve 1.1" in legal_texts(st)


def test_d9_no_card_to_reserve_no_gold_taken():
    """D9 edge: with every deck and pyramid slot empty there is nothing to reserve, so
    the gold cannot be taken (the action would strand the turn)."""
    st = new(0)
    for lvl in range(3):
        empty_deck(st, lvl, 1)
    pyr = field(st, "pyramid")
    owners = [int(c) for c in pyr if c >= 0]
    from .helpers import give_bought

    give_bought(st, 1, owners)
    sound(st)
    assert all(c is None for row in st.pyramid for c in row)
    assert legal_of(st, "take_gold") == set()


def test_d9_reserving_is_the_only_way_to_gold():
    """D9: no take and no privilege ever reaches a gold cell; gold comes only with a
    reservation."""
    st = new(3)
    golds = {i for i, v in enumerate(st.board) if v == 6}
    assert len(golds) == 3
    for a in duel.ACTIONS:
        if a.kind in ("take", "privilege") and golds & set(a.cells):
            with pytest.raises(duel.IllegalActionError):
                st.copy().apply(a)


def test_d9_d20_gold_counts_toward_the_token_limit():
    """D9 with D20: a gold that makes 11 tokens must be returned down to 10."""
    st = new(0)
    arrange(st, board="...../..RK./GRPK./RK.P*/G..**", tokens={0: "4W 4U 2G"})
    sound(st)
    st.apply("gold e4")
    st.apply("reserve 1.1")
    assert st.phase == "return tokens" and st.current_player == 0
    assert legal_of(st, "return") == {"return W", "return U", "return G", "return *"}
    st.apply("return *")
    assert tokens_of(st, 0) == vec("4W 4U 2G") and bag(st)[6] == 1
    assert st.current_player == 1
    sound(st)
