"""Post-game analysis (issue 19): what each move cost, from what its player could know.

:mod:`.engine` searches every decision from its seat's observation;
:mod:`.judge` labels the moves and sums them up; :mod:`.chart` draws the win
probability over the game. ``splendor analyse RECORD`` and the web server's Analysis view
use them.
"""

from __future__ import annotations

from .engine import (
    ANALYSIS_FORMAT,
    DEFAULT_SECONDS,
    Analyser,
    Decision,
    GameAnalysis,
    MoveAnalysis,
    Settings,
    analyse,
    decisions,
)
from .judge import LABELS, THRESHOLDS, SeatSummary, label, move_accuracy

__all__ = [
    "ANALYSIS_FORMAT",
    "DEFAULT_SECONDS",
    "LABELS",
    "THRESHOLDS",
    "Analyser",
    "Decision",
    "GameAnalysis",
    "MoveAnalysis",
    "SeatSummary",
    "Settings",
    "analyse",
    "decisions",
    "label",
    "move_accuracy",
]
