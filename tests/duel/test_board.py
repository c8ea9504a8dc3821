"""The token board: the spiral of ``duel_board.md`` (D2), the 145 lines of D8, cell
names, and the dealt position (D1-D5)."""

from __future__ import annotations

import re
from importlib import resources
from itertools import combinations

import pytest

from splendor import duel
from splendor.duel import board as B

from .helpers import (
    arrange,
    bag,
    board_counts,
    field,
    new,
    privileges,
    rec,
    sound,
    tokens_of,
)


def board_md() -> str:
    return resources.files("splendor.data").joinpath("duel_board.md").read_text(encoding="utf-8")


def drawn_fill_steps() -> dict[int, tuple[int, int]]:
    """Fill step -> (row, col) read from the drawing in duel_board.md."""
    text = board_md()
    block = text.split("fill step of each cell:")[1]
    rows = [ln.split() for ln in block.splitlines() if re.fullmatch(r"\s*(\d+\s+){4}\d+\s*", ln)]
    assert len(rows) == 5
    return {int(v): (r, c) for r, row in enumerate(rows) for c, v in enumerate(row)}


def listed_order() -> list[tuple[int, int]]:
    """The ``order = (r,c) ...`` list of duel_board.md."""
    text = board_md().split("order =")[1].split("Tokens:")[0]
    return [(int(r), int(c)) for r, c in re.findall(r"\((\d),(\d)\)", text)]


def test_d2_spiral_matches_the_drawing_and_the_list():
    """D2: the engine's fill order is the spiral drawn in duel_board.md and listed there."""
    steps = drawn_fill_steps()
    assert sorted(steps) == list(range(1, 26))
    drawn = [steps[k] for k in range(1, 26)]
    assert list(B.SPIRAL_CELLS) == drawn == listed_order()
    assert [int(x) for x in B.SPIRAL] == [r * 5 + c for r, c in drawn]


def test_d2_spiral_is_a_walk_from_the_centre():
    """D2: the spiral starts in the centre, visits every cell once, each step to an
    orthogonal neighbour, and ends in the bottom-right corner."""
    cells = list(B.SPIRAL_CELLS)
    assert cells[0] == (2, 2) and cells[-1] == (4, 4)
    assert len(set(cells)) == 25
    for (r1, c1), (r2, c2) in zip(cells, cells[1:], strict=False):
        assert abs(r1 - r2) + abs(c1 - c2) == 1


def brute_force_lines() -> set[frozenset[int]]:
    """D8 lines worked out independently: every set of 1-3 cells whose cells lie on one
    row, column or diagonal with consecutive positions."""
    cells = [(r, c) for r in range(5) for c in range(5)]
    out = {frozenset([r * 5 + c]) for r, c in cells}
    for k in (2, 3):
        for group in combinations(cells, k):
            g = sorted(group)
            dr, dc = g[1][0] - g[0][0], g[1][1] - g[0][1]
            if (dr, dc) not in ((0, 1), (1, 0), (1, 1), (1, -1)):
                continue
            steps = [(g[i + 1][0] - g[i][0], g[i + 1][1] - g[i][1]) for i in range(k - 1)]
            if all(step == (dr, dc) for step in steps):
                out.add(frozenset(r * 5 + c for r, c in g))
    return out


def test_d8_145_lines_25_72_48():
    """D8: 25 single cells, 72 pairs and 48 triples in rows, columns and diagonals; the
    table is exactly the independently computed set."""
    lines = [B.line_cells(i) for i in range(B.NUM_LINES)]
    assert B.NUM_LINES == 145
    assert [sum(1 for ln in lines if len(ln) == k) for k in (1, 2, 3)] == [25, 72, 48]
    assert {frozenset(ln) for ln in lines} == brute_force_lines()
    assert len({frozenset(ln) for ln in lines}) == 145
    for i, ln in enumerate(lines):
        assert list(B.LINES[i][: len(ln)]) == list(ln) == sorted(ln)
        assert all(x == -1 for x in B.LINES[i][len(ln) :])
        assert B.LINE_LEN[i] == len(ln)


def test_d8_line_id_accepts_any_order_and_rejects_non_lines():
    """D8: a line is found from its cells in any order; non-adjacent cells, repeated
    cells, bends and 4 cells are not lines."""
    c = B.parse_cell
    assert B.line_id([c("c3"), c("c4"), c("c5")]) == B.line_id([c("c5"), c("c3"), c("c4")])
    assert set(B.line_cells(B.line_id([c("a1"), c("b2"), c("c3")]))) == {0, 6, 12}
    assert set(B.line_cells(B.line_id([c("e1"), c("d2")]))) == {4, 8}  # anti-diagonal
    for bad in (
        ["a1", "a3"],
        ["a1", "c1"],
        ["a1", "b3"],
        ["a1", "a2", "b3"],
        ["a1", "a1"],
        ["a1", "a2", "a3", "a4"],
        ["a1", "b2", "c2"],
        ["e1", "a2"],
    ):
        with pytest.raises(ValueError):
            B.line_id([c(x) for x in bad])
    with pytest.raises(ValueError, match="not a line"):
        B.line_id([c("a1"), c("a3")])
    with pytest.raises(ValueError):
        B.line_id([])


def test_cell_names_like_a_chessboard_from_above():
    """Cells a1 (top-left) to e5 (bottom-right); c3 is the centre, the first spiral cell."""
    assert B.parse_cell("a1") == 0 and B.parse_cell("e1") == 4
    assert B.parse_cell("a5") == 20 and B.parse_cell("E5") == 24
    assert B.parse_cell("c3") == 12 == int(B.SPIRAL[0])
    assert [B.cell_name(i) for i in range(25)][:6] == ["a1", "b1", "c1", "d1", "e1", "a2"]
    for i in range(25):
        assert B.parse_cell(B.cell_name(i)) == i
    for bad in ("f1", "a6", "a0", "c", "c33", "", "33"):
        with pytest.raises(ValueError):
            B.parse_cell(bad)
    for bad in (-1, 25):
        with pytest.raises(ValueError):
            B.cell_name(bad)


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 12345, 2**62])
def test_d1_d2_setup_fills_every_cell_with_the_25_tokens(seed):
    """D1, D2: all 25 tokens leave the bag and fill the 25 cells: 4 of each gem, 2 pearls,
    3 gold; nobody holds a token."""
    st = new(seed)
    assert all(v is not None for v in st.board)
    assert board_counts(st) == [4, 4, 4, 4, 4, 2, 3]
    assert bag(st) == [0] * 7 and st.bag == (0,) * 7
    assert tokens_of(st, 0) == tokens_of(st, 1) == [0] * 7
    sound(st)


def test_d3_d4_d5_setup_pyramid_royals_privileges():
    """D3: pyramid 5/4/3 of the right levels, decks hold the rest (25/20/10); D4: all 4
    royal cards available; D5: seat 1 holds 1 privilege, 2 lie beside the board, seat 0
    plays first."""
    st = new(5)
    pyr = st.pyramid
    assert [len(row) for row in pyr] == [5, 4, 3]
    for lvl, row in enumerate(pyr):
        assert all(c is not None and c.level == lvl + 1 for c in row)
    assert st.deck_sizes == (25, 20, 10)
    assert all(r is not None for r in st.royals)
    assert privileges(st) == [0, 1] and st.free_privileges == 2
    assert st.current_player == 0 and st.phase == "main" and st.turn == 0
    assert st.scores == [0, 0] and not st.is_terminal and st.winners == []


def test_d2_d3_setup_is_shuffled_by_the_seed():
    """D2, D3: different seeds deal different boards and pyramids; the same seed deals the
    same game (D24)."""
    boards = {new(s).board for s in range(12)}
    pyramids = {tuple(int(x) for x in rec(new(s))["pyramid"]) for s in range(12)}
    assert len(boards) > 6 and len(pyramids) > 6
    assert new(7)._a.tobytes() == new(7)._a.tobytes()
    # each colour shows up in the centre cell for some seed (a real shuffle, not a fixed
    # pattern)
    centres = {new(s).board[12] for s in range(80)}
    assert centres == set(range(7))


def test_d2_d7_refill_follows_the_spiral():
    """D2/D7: bag tokens go to the empty cells in spiral order, skipping occupied cells:
    with more empty cells than bag tokens, exactly the first empty cells of the spiral
    are filled."""
    st = new(3)
    # seat 0 holds 6 tokens, so 6 cells stay empty after the refill
    arrange(st, board=("WWWW./UUUU./GG.../....*/....."), tokens={0: "2G 2R 2K", 1: ""})
    sound(st)
    empty_before = [i for i in range(25) if st.board[i] is None]
    in_bag = sum(bag(st))
    assert in_bag == len(empty_before) - 6
    st.apply("replenish")
    spiral_empty = [int(c) for c in B.SPIRAL if int(c) in empty_before]
    filled = [i for i in empty_before if st.board[i] is not None]
    assert sorted(filled) == sorted(spiral_empty[:in_bag])
    assert bag(st) == [0] * 7
    sound(st)


def test_new_game_validates_its_arguments():
    """Two players only; a seed and a turn cap in range."""
    for bad in (1, 3, 4, True):
        with pytest.raises(ValueError, match="2 players"):
            duel.new_game(bad, 0)
    for bad in (-1, 2**63, 1.5, "7", True):
        with pytest.raises(ValueError):
            duel.new_game(2, bad)
    for bad in (0, -3, True, 2.5):
        with pytest.raises(ValueError):
            duel.new_game(2, 0, turn_cap=bad)
    assert duel.new_game(2, None).phase == "main"


def test_board_edits_in_these_tests_stay_sound():
    """The test helper that arranges boards keeps the 25 tokens in play (D1)."""
    st = new(0)
    arrange(st, board="WUGRK/WUGRK/WUGRK/WUGRK/PP*..", tokens={0: "1*", 1: "1*"})
    sound(st)
    assert bag(st) == [0] * 7
    field(st, "bag")[0] += 1
    assert duel.check_invariants(st._a) != []
