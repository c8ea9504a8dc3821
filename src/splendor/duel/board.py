"""The Splendor Duel token board: the 5×5 grid, the spiral fill order, the bag's contents
and the legal token lines (D1, D2, D7, D8).

Cells are indices ``row * 5 + col`` (row 0 at the top, col 0 at the left) and are named
like a chessboard seen from above: columns ``a``-``e`` from left to right, rows ``1``-``5``
from top to bottom, so ``c3`` is the centre and ``a1`` the top-left corner. The drawing of
the board in the terminal puts these names on its edges.

A *line* (D8) is 1, 2 or 3 cells adjacent in one row, column or diagonal. The static table
:data:`LINES` lists all 145 of them; whether a line can be taken (every cell holds a gem or
pearl token, so no gap and no gold) depends on the board and is decided by the rules.
"""

from __future__ import annotations

import numpy as np

from ..colors import DUEL_GOLD, PEARL

SIZE = 5
NUM_CELLS = SIZE * SIZE
EMPTY = -1
"""Board value of an empty cell; otherwise the cell holds a token colour 0..6."""

BAG_START = (4, 4, 4, 4, 4, 2, 3)
"""Tokens of each colour in the game (W U G R K pearl gold), 25 in all (D1)."""

SPIRAL_CELLS = (
    (2, 2), (3, 2), (3, 1), (2, 1), (1, 1), (1, 2), (1, 3), (2, 3), (3, 3), (4, 3), (4, 2),
    (4, 1), (4, 0), (3, 0), (2, 0), (1, 0), (0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (1, 4),
    (2, 4), (3, 4), (4, 4),
)  # fmt: skip
"""(row, col) of the cells in fill order (``../shared/data/duel_board.md``, D2)."""


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


SPIRAL = _frozen(np.array([r * SIZE + c for r, c in SPIRAL_CELLS], dtype=np.int8))
"""Cell indices in fill order, shape (25,) (D2, D7)."""


def _lines() -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for length in (1, 2, 3):
        found: set[tuple[int, ...]] = set()
        for r in range(SIZE):
            for c in range(SIZE):
                directions = [(0, 1), (1, 0), (1, 1), (1, -1)] if length > 1 else [(0, 0)]
                for dr, dc in directions:
                    cells = [(r + k * dr, c + k * dc) for k in range(length)]
                    if all(0 <= rr < SIZE and 0 <= cc < SIZE for rr, cc in cells):
                        found.add(tuple(sorted(rr * SIZE + cc for rr, cc in cells)))
        out.extend(sorted(found))
    return out


_LINE_LIST = _lines()
NUM_LINES = len(_LINE_LIST)
"""145 lines: 25 single cells, 72 pairs, 48 triples."""
LINES = _frozen(
    np.array([list(cells) + [-1] * (3 - len(cells)) for cells in _LINE_LIST], dtype=np.int8)
)
"""Cells of each line in increasing index order, padded with -1, shape (145, 3)."""
LINE_LEN = _frozen(np.array([len(cells) for cells in _LINE_LIST], dtype=np.int8))
"""Number of cells of each line, shape (145,)."""
_LINE_ID = {frozenset(cells): i for i, cells in enumerate(_LINE_LIST)}


def cell_name(cell: int) -> str:
    """``"c3"`` for cell index 12: column letter a-e, then row 1-5 from the top."""
    if not 0 <= cell < NUM_CELLS:
        raise ValueError(f"cell index must be 0..24, got {cell}")
    return "abcde"[cell % SIZE] + str(cell // SIZE + 1)


def parse_cell(text: str) -> int:
    """Cell index of a name like ``"c3"`` (case-insensitive).

    Raises:
        ValueError: not a column a-e followed by a row 1-5.
    """
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in "abcde" or t[1] not in "12345":
        raise ValueError(
            f"bad cell {text!r}: a cell is a column a-e and a row 1-5, like c3 (the centre)"
        )
    return (int(t[1]) - 1) * SIZE + "abcde".index(t[0])


def line_id(cells: list[int] | tuple[int, ...]) -> int:
    """Index into :data:`LINES` of a set of 1-3 cells, in any order.

    Raises:
        ValueError: the cells are repeated, more than 3, or not adjacent in one row, column
            or diagonal (D8).
    """
    if not 1 <= len(cells) <= 3 or len(set(cells)) != len(cells):
        raise ValueError("a line is 1, 2 or 3 different cells")
    key = frozenset(cells)
    if key not in _LINE_ID:
        names = " ".join(cell_name(c) for c in sorted(cells))
        raise ValueError(
            f"cells {names} are not a line: take 1-3 cells next to each other in one row, "
            "column or diagonal, with no gap (D8)"
        )
    return _LINE_ID[key]


def line_cells(line: int) -> tuple[int, ...]:
    """The cells of line ``line`` in increasing index order."""
    return _LINE_LIST[line]


__all__ = [
    "BAG_START",
    "DUEL_GOLD",
    "EMPTY",
    "LINES",
    "LINE_LEN",
    "NUM_CELLS",
    "NUM_LINES",
    "PEARL",
    "SIZE",
    "SPIRAL",
    "SPIRAL_CELLS",
    "cell_name",
    "line_cells",
    "line_id",
    "parse_cell",
]
