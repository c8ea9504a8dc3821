"""Judging analysed moves: labels, an accuracy figure, turning points and per-seat
summaries (issue 19). Pure functions over the numbers :mod:`splendor.analysis.engine`
measures; no search here.

Every number is a *win probability*: a seat's expected share of the win (1 shared by the
winners, C15 / D20), in [0, 1], as the search's rewards measure it. With two players it is
the chance to win (a Duel draw counts a half to each).

The *loss* of a move is the win probability of the engine's preferred move minus that of
the move played, both as one search from the mover's observation measured them (never
below 0). Its label:

========== =======================================
label      loss (win-probability points)
========== =======================================
best       the engine's move, or a loss below 1
good       below 5
inaccuracy 5 to below 10
mistake    10 to below 15
blunder    15 or more
forced     the only legal decision (not judged)
========== =======================================

The steps are those chess sites use on the chance to win (Lichess: 0.1, 0.2 and 0.3 of its
"winning chances" from -1 to 1, which are 5, 10 and 15 points of win probability). The
search's own noise is below them: at the default budget the same record analysed with
another seed changes a move's loss by 0.8 point on average in classic Splendor and 0.3 in
Duel (90% of moves within 2.9 and 1.2 points; ``docs/analysis.md``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

LABELS: tuple[str, ...] = ("best", "good", "inaccuracy", "mistake", "blunder")
"""The labels of a judged move, from the best to the worst (``forced`` moves are not
judged)."""

FORCED = "forced"
"""The label of a decision with one legal action."""

THRESHOLDS: dict[str, float] = {"good": 0.01, "inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.15}
"""The loss (in win probability, 0 to 1) from which each label starts (module docstring)."""

ACCURACY_SCALE = 0.23
"""Loss at which a move's accuracy falls to 1/e of 100 (:func:`move_accuracy`)."""

TURNING_LABELS = ("mistake", "blunder")
"""The labels that mark a turning point on the chart."""


def label(loss: float, engine_move: bool) -> str:
    """The label of a move that lost ``loss`` (win probability, 0 to 1) against the
    engine's preferred move; ``engine_move``: it is that move (module docstring).

    Raises:
        ValueError: ``loss`` is not a finite number.
    """
    if not math.isfinite(loss):
        raise ValueError(f"a move's loss must be a finite number, got {loss!r}")
    if engine_move:
        return "best"
    found = "best"
    for name, start in THRESHOLDS.items():
        if loss >= start:
            found = name
    return found


def move_accuracy(loss: float) -> float:
    """An accuracy-like figure of one move, 0 to 100: ``100 * exp(-loss / 0.23)``
    (the idea of chess sites' accuracy: 100 for no loss, about 65 for a 10-point
    mistake, 52 for a 15-point blunder, near 0 for a move that throws the game away).

    Raises:
        ValueError: a negative or non-finite ``loss``.
    """
    if not (math.isfinite(loss) and loss >= 0.0):
        raise ValueError(f"a move's loss must be 0 or more, got {loss!r}")
    return 100.0 * math.exp(-loss / ACCURACY_SCALE)


@dataclass(frozen=True)
class SeatSummary:
    """One seat's analysed game.

    Attributes:
        seat: the seat (0-based).
        player: its label in the record.
        moves: judged moves (forced ones not counted).
        forced: decisions with one legal action.
        accuracy: mean :func:`move_accuracy` of the judged moves, 0 to 100 (None without
            any).
        average_loss: mean loss of the judged moves, win probability (None without any).
        counts: ``{label: moves}`` for every label of :data:`LABELS`.
    """

    seat: int
    player: str
    moves: int
    forced: int
    accuracy: float | None
    average_loss: float | None
    counts: dict[str, int]

    @property
    def mistakes(self) -> int:
        """Mistakes (blunders not counted)."""
        return self.counts["mistake"]

    @property
    def blunders(self) -> int:
        """Blunders."""
        return self.counts["blunder"]

    def to_dict(self) -> dict[str, Any]:
        """JSON form (the keys of the attributes)."""
        return {
            "seat": self.seat,
            "player": self.player,
            "moves": self.moves,
            "forced": self.forced,
            "accuracy": self.accuracy,
            "average_loss": self.average_loss,
            "counts": dict(self.counts),
        }


def summarize(seat: int, player: str, judged: Iterable[tuple[str, float | None]]) -> SeatSummary:
    """The :class:`SeatSummary` of ``seat`` from its moves' ``(label, loss)`` pairs
    (``loss`` None for a forced move)."""
    counts = dict.fromkeys(LABELS, 0)
    losses: list[float] = []
    forced = 0
    for name, loss in judged:
        if name == FORCED or loss is None:
            forced += 1
            continue
        counts[name] += 1
        losses.append(loss)
    return SeatSummary(
        seat=seat,
        player=player,
        moves=len(losses),
        forced=forced,
        accuracy=(sum(move_accuracy(x) for x in losses) / len(losses) if losses else None),
        average_loss=sum(losses) / len(losses) if losses else None,
        counts=counts,
    )


def turning_points(losses: Sequence[tuple[int, str]]) -> list[int]:
    """The positions (in the order given) of the moves that turn the game: every mistake
    and blunder (:data:`TURNING_LABELS`). ``losses`` holds ``(index, label)`` pairs;
    the result is their indices."""
    return [index for index, name in losses if name in TURNING_LABELS]


__all__ = [
    "ACCURACY_SCALE",
    "FORCED",
    "LABELS",
    "THRESHOLDS",
    "TURNING_LABELS",
    "SeatSummary",
    "label",
    "move_accuracy",
    "summarize",
    "turning_points",
]
