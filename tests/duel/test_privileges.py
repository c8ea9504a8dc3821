"""Privileges and the bag: D5 (the second player's privilege), D6 (using privileges),
D7 (replenishing the board), D12 (forced replenish) and D18 (taking a privilege when
none is left)."""

from __future__ import annotations

import pytest

from splendor import duel

from .helpers import (
    arrange,
    bag,
    cell,
    fill_pyramid,
    free_cards,
    give_reserved,
    legal_of,
    legal_texts,
    new,
    privileges,
    set_privileges,
    snapshot,
    sound,
    tokens_of,
    vec,
)

BOARD = "WUGRK/UGRKW/GRPKU/RKWP*/GWU**"


def test_d5_second_player_starts_with_one_privilege():
    """D5: seat 1 holds 1 privilege before play, seat 0 none, 2 beside the board."""
    st = new(11)
    assert privileges(st) == [0, 1] and st.free_privileges == 2
    assert st.players[1].privileges == 1 and st.players[0].privileges == 0
    assert legal_of(st, "privilege") == set()  # seat 0 has none to use


def test_d6_use_privileges_then_a_mandatory_action():
    """D6: each privilege used takes one gem or pearl token of the player's choice and
    goes back beside the board; the turn goes on with the mandatory action."""
    st = new(0)
    arrange(st, board=BOARD, tokens={})
    set_privileges(st, [2, 0])
    sound(st)
    cells = "a1 b1 c1 d1 e1 a2 b2 c2 d2 e2 a3 b3 c3 d3 e3 a4 b4 c4 d4 a5 b5 c5"
    gems_and_pearls = {f"privilege {c}" for c in cells.split()}
    assert legal_of(st, "privilege") == gems_and_pearls
    st.apply("privilege c3")  # a pearl
    assert tokens_of(st, 0) == vec("1P") and cell(st, "c3") == -1
    assert privileges(st) == [1, 0] and st.free_privileges == 2
    assert st.current_player == 0 and st.phase == "main"
    st.apply("privilege e1")
    assert tokens_of(st, 0) == vec("1K 1P") and privileges(st) == [0, 0]
    assert legal_of(st, "privilege") == set()
    assert st.current_player == 0
    st.apply("take a1 b1")  # the mandatory action ends the turn
    assert tokens_of(st, 0) == vec("1W 1U 1K 1P") and st.current_player == 1
    sound(st)


def test_d6_never_gold_nor_an_empty_cell():
    """D6: a privilege never takes gold; an empty cell has nothing to take."""
    st = new(0)
    arrange(st, board=BOARD.replace("WUGRK", "WUGR."), tokens={})
    set_privileges(st, [1, 0])
    for text in ("privilege e4", "privilege d5", "privilege e5", "privilege e1"):
        assert text not in legal_texts(st)
        before = snapshot(st)
        with pytest.raises(duel.IllegalActionError):
            st.apply(text)
        assert snapshot(st) == before


def test_d6_needs_a_privilege():
    st = new(0)
    set_privileges(st, [0, 1])
    with pytest.raises(duel.IllegalActionError):
        st.apply("privilege c3")


def test_d6_d7_privileges_only_before_replenishing():
    """D6/D7: the optional actions come in this order: privileges may be used before a
    replenish, not after it."""
    st = new(0)
    arrange(st, board=BOARD.replace("GWU**", "....."), tokens={})
    set_privileges(st, [2, 0])
    sound(st)
    assert "replenish" in legal_texts(st)
    st.apply("privilege a1")  # before: fine
    assert "replenish" in legal_texts(st)
    st.apply("replenish")
    assert st.replenished and privileges(st)[0] == 1
    assert legal_of(st, "privilege") == set()
    with pytest.raises(duel.IllegalActionError):
        st.apply("privilege b1")
    assert "replenish" not in legal_texts(st)  # once per turn
    st.apply(next(iter(sorted(legal_of(st, "take")))))
    # next turn of seat 0: privileges allowed again
    st.apply(sorted(legal_of(st, "take"))[0])
    assert st.current_player == 0 and not st.replenished
    assert legal_of(st, "privilege")


def test_d7_replenish_empties_the_bag_and_gives_the_opponent_a_privilege():
    """D7: all bag tokens go on the board; the opponent takes 1 privilege."""
    st = new(0)
    arrange(st, board=BOARD.replace("GWU**", ".....").replace("RKWP*", "....."), tokens={1: "1W"})
    sound(st)
    in_bag = bag(st)
    on_board_before = sum(v is not None for v in st.board)
    assert sum(in_bag) == 9
    st.apply("replenish")
    assert bag(st) == [0] * 7
    assert sum(v is not None for v in st.board) == on_board_before + 9
    assert privileges(st) == [0, 2]
    assert st.current_player == 0 and st.phase == "main"  # still owes the mandatory action
    sound(st)


def test_d7_replenish_impossible_with_an_empty_bag():
    """D7: only if the bag holds at least one token (at setup it is empty)."""
    st = new(0)
    assert bag(st) == [0] * 7
    assert "replenish" not in legal_texts(st)
    before = snapshot(st)
    with pytest.raises(duel.IllegalActionError):
        st.apply("replenish")
    assert snapshot(st) == before


def test_d7_d18_replenish_privilege_taken_from_the_player_when_none_is_left():
    """D7 with D18: no privilege beside the board: the opponent takes one from the player
    who replenishes; if the opponent holds all 3, nothing happens."""
    st = new(0)
    arrange(st, board=BOARD.replace("GWU**", "....."), tokens={})
    set_privileges(st, [3, 0])
    st.apply("replenish")
    assert privileges(st) == [2, 1]
    sound(st)
    st = new(0)
    arrange(st, board=BOARD.replace("GWU**", "....."), tokens={})
    set_privileges(st, [0, 3])
    st.apply("replenish")
    assert privileges(st) == [0, 3]
    sound(st)


def test_d18_opponent_privileges_move_one_at_a_time():
    """D18: with 1 beside the board, the opponent takes that one (not the player's)."""
    st = new(0)
    arrange(st, board=BOARD.replace("GWU**", "....."), tokens={})
    set_privileges(st, [2, 0])
    st.apply("replenish")
    assert privileges(st) == [2, 1] and st.free_privileges == 0


def test_d12_forced_replenish_when_no_mandatory_action_is_possible():
    """D12: an empty board (everything in the bag), so no take, no gold and nothing
    affordable: replenish is the only legal decision; the opponent still takes a
    privilege; then the mandatory action follows."""
    st = new(0)
    arrange(st, board="...../...../...../...../.....", tokens={})
    sound(st)
    assert legal_texts(st) == {"replenish"}
    st.apply("replenish")
    assert privileges(st) == [0, 2]
    assert all(v is not None for v in st.board)
    assert st.current_player == 0 and legal_of(st, "take")
    assert "pass" not in legal_texts(st)


def test_d12_forced_replenish_with_only_gold_on_the_board_and_a_full_reserve():
    """D12 with D9: only gold on the board and 3 reserved cards: no take, no reserve;
    seat 0 holds nothing it could buy with: it must replenish."""
    st = new(0)
    arrange(st, board="...../..*../.*.*./...../.....", tokens={})
    for cid in free_cards(st, lambda c: c.level == 3)[:3]:
        give_reserved(st, 0, cid)
    sound(st)
    assert legal_texts(st) == {"replenish"}
    st.apply("replenish")
    assert privileges(st) == [0, 2]
    assert legal_of(st, "take") and not legal_of(st, "take_gold")  # still 3 reserved


def test_d12_ruling_pass_when_nothing_at_all_is_possible():
    """D12 edge (engine ruling): the bag is empty and, after using privileges, no gem or
    pearl is left on the board, the reserve is full and nothing is affordable: the only
    decision is 'pass', after which the token limit (D20) still applies."""
    st = new(0)
    needs_grp = lambda c: c.cost[2] > 0 or c.cost[3] > 0 or c.cost[5] > 0  # noqa: E731
    fill_pyramid(st, needs_grp)
    for cid in free_cards(st, lambda c: needs_grp(c) and c.level == 2)[:3]:
        give_reserved(st, 0, cid, blind=True)
    arrange(st, board="K*.../..K../.*.*./...../....K", tokens={0: "4W 4U 1K", 1: "4G 4R 2P"})
    set_privileges(st, [3, 0])
    sound(st)
    assert bag(st) == [0] * 7
    for c in ("a1", "c2", "e5"):
        st.apply(f"privilege {c}")
    assert tokens_of(st, 0) == vec("4W 4U 4K")
    assert legal_texts(st) == {"pass"}
    st.apply("pass")
    assert st.phase == "return tokens" and st.current_player == 0
    st.apply("return W")
    st.apply("return U")
    assert st.current_player == 1 and sum(tokens_of(st, 0)) == 10
    sound(st)
