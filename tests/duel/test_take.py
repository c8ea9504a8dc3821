"""Taking tokens: rule D8 (1-3 gem or pearl tokens on adjacent cells of one line, no
gap, no gold; 3 of one colour or both pearls give the opponent a privilege, with D18)."""

from __future__ import annotations

from itertools import combinations

import pytest

from splendor import duel

from .helpers import (
    arrange,
    bag,
    cell,
    legal_of,
    new,
    privileges,
    set_privileges,
    snapshot,
    sound,
    tokens_of,
    vec,
)

FULL = "WUGRK/UGRKW/GRPKU/RKWP*/GWU**"


def expected_takes(board: tuple) -> set[frozenset[int]]:
    """D8 from the rule: sets of 1-3 cells in one row, column or diagonal, consecutive,
    every cell holding a gem or pearl (no empty cell, no gold)."""
    ok = [v is not None and v != 6 for v in board]
    rc = [(i // 5, i % 5) for i in range(25)]
    out = {frozenset([i]) for i in range(25) if ok[i]}
    for k in (2, 3):
        for group in combinations(range(25), k):
            if not all(ok[i] for i in group):
                continue
            pts = sorted(rc[i] for i in group)
            d = (pts[1][0] - pts[0][0], pts[1][1] - pts[0][1])
            if d not in ((0, 1), (1, 0), (1, 1), (1, -1)):
                continue
            steps = [(pts[j + 1][0] - pts[j][0], pts[j + 1][1] - pts[j][1]) for j in range(k - 1)]
            if all(step == d for step in steps):
                out.add(frozenset(group))
    return out


def legal_take_sets(st: duel.State) -> set[frozenset[int]]:
    return {frozenset(a.cells) for a in st.legal_actions() if a.kind == "take"}


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_d8_legal_takes_at_setup_are_exactly_the_gold_free_lines(seed):
    """D8: on a full dealt board the legal takes are the lines without gold."""
    st = new(seed)
    assert legal_take_sets(st) == expected_takes(st.board)


def test_d8_legal_takes_with_gaps_and_gold():
    """D8: empty cells and gold cut lines; the legal takes are exactly those of the rule."""
    st = new(0)
    arrange(st, board=("W.GRK/U*R.W/GRPKU/.K.PG/KWU*."), tokens={0: "", 1: ""})
    sound(st)
    assert legal_take_sets(st) == expected_takes(st.board)


def test_d8_a_line_with_an_empty_cell_is_illegal():
    """D8: no gap: 'take a1 b1 c1' with b1 empty, and 'take a1 b1', are illegal; the
    state is unchanged; 'take a1' alone is legal."""
    st = new(0)
    arrange(st, board="W.GRK/UGRKW/GRPKU/RKWP*/GWU**", tokens={})
    sound(st)
    for text in ("take a1 b1 c1", "take a1 b1", "take b1", "take b1 c1"):
        assert text not in legal_of(st, "take")
        before = snapshot(st)
        with pytest.raises(duel.IllegalActionError, match="illegal action"):
            st.apply(text)
        assert snapshot(st) == before
    assert "take a1" in legal_of(st, "take") and "take c1 d1 e1" in legal_of(st, "take")


def test_d8_cells_across_a_gap_are_not_a_line():
    """D8: a1 and c1 are not adjacent (b1 between): the parser rejects 'take a1 c1' even
    when b1 is empty, and so does the engine."""
    st = new(0)
    arrange(st, board="W.GRK/UGRKW/GRPKU/RKWP*/GWU**", tokens={})
    with pytest.raises(ValueError, match="not a line"):
        st.apply("take a1 c1")
    with pytest.raises(ValueError, match="not a line"):
        st.apply("take a1 c3")


def test_d8_gold_in_a_line_is_illegal():
    """D8: gold can never be taken, nor be between taken tokens."""
    st = new(0)
    arrange(st, board="W*GRK/UGRKW/GRPKU/RKWP*/GU.*W", tokens={})
    sound(st)
    for text in (
        "take a1 b1 c1",
        "take a1 b1",
        "take b1",
        "take b1 c1",
        "take e4",
        "take d5 e5",
        "take c4 d4 e4",
        "take d4 e4",
    ):
        assert text not in legal_of(st, "take")
        with pytest.raises(duel.IllegalActionError):
            st.apply(text)
    # gold cells never appear in any legal decision of the main phase but 'gold X'
    golds = {i for i, v in enumerate(st.board) if v == 6}
    for a in st.legal_actions():
        if a.kind in ("take", "privilege"):
            assert not golds & set(a.cells)


def test_d8_take_three_moves_the_tokens_and_passes_the_turn():
    """D8: 'take a3 b3 c3' moves those tokens to seat 0 and empties the cells."""
    st = new(0)
    arrange(st, board=FULL, tokens={})
    st.apply("take a3 b3 c3")
    sound(st)
    assert tokens_of(st, 0) == vec("1G 1R 1P")
    assert [cell(st, c) for c in ("a3", "b3", "c3")] == [-1, -1, -1]
    assert st.current_player == 1 and st.turn == 1
    assert privileges(st) == [0, 1]  # mixed colours: no privilege


@pytest.mark.parametrize("cells", ["a2 b3 c4", "c1 b2 a3", "e1 e2 e3", "a5 b5"])
def test_d8_diagonals_and_columns_can_be_taken(cells):
    """D8: rows, columns and both diagonals are lines."""
    st = new(0)
    arrange(st, board="WUGRK/UG..W/RK..U/..W../KW...", tokens={})
    sound(st)
    assert f"take {cells}" in legal_of(st, "take")
    st.apply(f"take {cells}")
    assert sum(tokens_of(st, 0)) == len(cells.split())


def test_d8_three_of_one_colour_gives_the_opponent_a_privilege():
    """D8: 3 tokens of the same colour: the opponent takes a privilege."""
    st = new(0)
    arrange(st, board="WWWRK/...../...../...../....*", tokens={})
    sound(st)
    assert privileges(st) == [0, 1]
    st.apply("take a1 b1 c1")
    assert tokens_of(st, 0) == vec("3W")
    assert privileges(st) == [0, 2]
    sound(st)


def test_d8_both_pearls_give_the_opponent_a_privilege():
    """D8: both pearls (in a line of 2 or of 3) give the opponent a privilege."""
    for board, take, got in (
        ("WUGRK/.PPK./...../...../....*", "take b2 c2", "2P"),
        ("WUGRK/.PPG./...../...../....*", "take b2 c2 d2", "2P 1G"),
    ):
        st = new(0)
        arrange(st, board=board, tokens={})
        st.apply(take)
        assert tokens_of(st, 0) == vec(got)
        assert privileges(st) == [0, 2]


@pytest.mark.parametrize(
    "take, board",
    [
        ("take a1 b1 c1", "WWUR*/...../...../...../....."),  # 2 same + 1 other
        ("take a1 b1", "WW.R*/...../...../...../....."),  # 2 same
        ("take a1 b1 c1", "WPUR*/...../...../...../....."),  # one pearl
        ("take a1", "P.UR*/...../...../...../....."),  # one pearl alone
    ],
)
def test_d8_other_takes_give_no_privilege(take, board):
    """D8: only 3 of one colour or both pearls give a privilege."""
    st = new(0)
    arrange(st, board=board, tokens={})
    st.apply(take)
    assert privileges(st) == [0, 1]


def test_d8_d18_privilege_taken_from_the_taker_when_none_is_left():
    """D8 with D18: no privilege beside the board: the opponent takes one from the player
    who took 3 of a colour."""
    st = new(0)
    arrange(st, board="WWWRK/...../...../...../....*", tokens={})
    set_privileges(st, [2, 1])
    sound(st)
    st.apply("take a1 b1 c1")
    assert privileges(st) == [1, 2]
    sound(st)


def test_d8_d18_nothing_when_the_opponent_holds_all_three():
    """D8 with D18: the opponent already holds all 3 privileges: nothing happens."""
    st = new(0)
    arrange(st, board="WWWRK/...../...../...../....*", tokens={})
    set_privileges(st, [0, 3])
    st.apply("take a1 b1 c1")
    assert privileges(st) == [0, 3] and st.free_privileges == 0
    sound(st)


def test_d8_spent_tokens_do_not_touch_the_bag():
    """D8: taking moves tokens from the board to the player; the bag is untouched."""
    st = new(0)
    arrange(st, board="....K/....W/...../...../....*", tokens={1: "1W 1U"})
    before = bag(st)
    st.apply("take e1 e2")
    assert bag(st) == before
    assert tokens_of(st, 0) == vec("1K 1W")


def test_d8_a_take_is_a_whole_mandatory_action():
    """D8 is the mandatory action: after one take the turn passes to the opponent, whose
    legal decisions are their own (seat 1 holds a privilege, D6)."""
    st = new(0)
    arrange(st, board=FULL, tokens={})
    st.apply("take a1")
    assert st.current_player == 1 and st.turn == 1 and st.phase == "main"
    assert legal_of(st, "privilege")  # seat 1's privilege can now be used
    st.apply("take b1")
    assert tokens_of(st, 0) == vec("1W") and tokens_of(st, 1) == vec("1U")
