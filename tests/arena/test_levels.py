"""The difficulty levels for people are calibrated (issue 17): each level is at least 150
Elo above the one below, with 95% bootstrap intervals that do not overlap, in a shipped
arena run (``results/strength/``) of the two levels' bot specs against each other.

The runs are found by their specs (:data:`splendor.bots.LEVELS`), so changing a level's
spec without measuring it again fails here. The records behind each run are replayed by
``test_strength_records.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from splendor.bots import LEVELS

STRENGTH = Path(__file__).resolve().parents[2] / "results" / "strength"
ORDER = list(LEVELS)
PAIRS = list(zip(ORDER, ORDER[1:], strict=False))
GAP = 150.0
"""The issue's least Elo between a level and the one below it."""
CALIBRATED = ("splendor", "duel")
"""The games (registered names) whose whole ladder is measured, 2 players (docs/strength.md)."""


RUNS: list[tuple[str, dict[str, Any]]] = [
    (p.parent.name, json.loads(p.read_text())) for p in sorted(STRENGTH.glob("*/results.json"))
]
"""Every shipped run: (folder, its ``results.json``), read once."""


def _measuring(game: str, lower: str, upper: str) -> list[tuple[str, dict[str, Any]]]:
    """The shipped 2-player runs of ``game`` between exactly the two levels' specs."""
    want = sorted([LEVELS[lower], LEVELS[upper]])
    return [
        (name, r)
        for name, r in RUNS
        if r["game"] == game and r["players"] == 2 and sorted(r["specs"]) == want
    ]


def test_the_ladder_is_four_levels_from_easy_to_expert() -> None:
    assert ORDER == ["easy", "medium", "hard", "expert"]
    assert len(set(LEVELS.values())) == len(LEVELS)


@pytest.mark.parametrize("game", CALIBRATED)
@pytest.mark.parametrize("lower, upper", PAIRS)
def test_a_level_is_150_elo_above_the_one_below(game: str, lower: str, upper: str) -> None:
    runs = _measuring(game, lower, upper)
    assert runs, f"no run of {LEVELS[lower]} against {LEVELS[upper]} in {game}"
    low, up = LEVELS[lower], LEVELS[upper]
    for name, results in runs:
        elo, ci = results["ratings"]["elo"], results["ratings"]["ci95"]
        assert elo[up] - elo[low] >= GAP, (name, elo)
        assert ci[up][0] > ci[low][1], (name, ci)
