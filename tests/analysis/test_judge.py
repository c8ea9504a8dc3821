"""Labels, accuracy and summaries of analysed moves (issue 19, :mod:`splendor.analysis.judge`)."""

from __future__ import annotations

import math

import pytest

from splendor.analysis import judge


@pytest.mark.parametrize(
    ("loss", "expected"),
    [
        (0.0, "best"),
        (0.0099, "best"),
        (0.01, "good"),
        (0.0499, "good"),
        (0.05, "inaccuracy"),
        (0.0999, "inaccuracy"),
        (0.10, "mistake"),
        (0.1499, "mistake"),
        (0.15, "blunder"),
        (0.9, "blunder"),
    ],
)
def test_labels_follow_the_documented_thresholds(loss: float, expected: str) -> None:
    assert judge.label(loss, engine_move=False) == expected


def test_the_engines_own_move_is_best_whatever_the_noise() -> None:
    assert judge.label(0.3, engine_move=True) == "best"
    with pytest.raises(ValueError, match="finite"):
        judge.label(math.nan, engine_move=False)


def test_accuracy_falls_with_the_loss() -> None:
    assert judge.move_accuracy(0.0) == 100.0
    values = [judge.move_accuracy(x / 100) for x in range(0, 101, 5)]
    assert values == sorted(values, reverse=True) and values[-1] < 2.0
    assert judge.move_accuracy(0.10) == pytest.approx(64.7, abs=0.1)
    with pytest.raises(ValueError, match="0 or more"):
        judge.move_accuracy(-0.1)


def test_a_summary_counts_labels_and_leaves_forced_moves_out() -> None:
    s = judge.summarize(
        1, "ann", [("best", 0.0), ("forced", None), ("blunder", 0.3), ("mistake", 0.15)]
    )
    assert (s.seat, s.player, s.moves, s.forced) == (1, "ann", 3, 1)
    assert s.counts == {"best": 1, "good": 0, "inaccuracy": 0, "mistake": 1, "blunder": 1}
    assert s.mistakes == 1 and s.blunders == 1
    assert s.average_loss == pytest.approx(0.15)
    expected = (100 + judge.move_accuracy(0.3) + judge.move_accuracy(0.15)) / 3
    assert s.accuracy == pytest.approx(expected)
    empty = judge.summarize(0, "bob", [("forced", None)])
    assert empty.accuracy is None and empty.moves == 0 and empty.forced == 1


def test_turning_points_are_the_mistakes_and_blunders() -> None:
    marks = [(0, "best"), (3, "mistake"), (4, "inaccuracy"), (9, "blunder")]
    assert judge.turning_points(marks) == [3, 9]
