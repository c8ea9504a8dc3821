"""Tables of an analysed game for the terminal (``splendor analyse``), as rich tables
(issue 19)."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from . import judge
from .engine import GameAnalysis

LABEL_STYLES = {
    "best": "bold green",
    "good": "green",
    "inaccuracy": "yellow",
    "mistake": "dark_orange",
    "blunder": "bold red",
    judge.FORCED: "dim",
}
"""The style of each label in the move table."""


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.0f}%"


def moves_table(analysis: GameAnalysis, all_moves: bool = True) -> Table:
    """One row per analysed decision: turn, player, move played, label, win probability
    before and after, loss in points and the engine's move when it differs; with
    ``all_moves`` False only the inaccuracies, mistakes and blunders."""
    t = Table(title="moves", title_justify="left")
    for name, justify in (
        ("turn", "right"),
        ("player", "left"),
        ("played", "left"),
        ("label", "left"),
        ("win before", "right"),
        ("after", "right"),
        ("loss", "right"),
        ("best", "left"),
    ):
        t.add_column(name, justify=justify)  # type: ignore[arg-type]
    for m in analysis.moves:
        if not all_moves and m.label not in ("inaccuracy", "mistake", "blunder"):
            continue
        t.add_row(
            str(m.turn),
            Text(analysis.players[m.seat]),
            Text(m.played),
            Text(m.label, style=LABEL_STYLES.get(m.label, "")),
            _pct(m.before),
            _pct(m.after),
            "—" if m.loss is None else f"{100 * m.loss:.1f}",
            Text("" if m.best in (None, m.played) else str(m.best)),
        )
    return t


def summary_table(analysis: GameAnalysis) -> Table:
    """One row per analysed seat: accuracy, average loss and the count of each label."""
    t = Table(title="summary", title_justify="left")
    t.add_column("player")
    t.add_column("accuracy", justify="right")
    t.add_column("avg loss", justify="right")
    for name in judge.LABELS:
        t.add_column(name, justify="right")
    t.add_column("forced", justify="right")
    for s in analysis.summaries():
        t.add_row(
            Text(f"{s.player} (seat {s.seat})"),
            "—" if s.accuracy is None else f"{s.accuracy:.1f}",
            "—" if s.average_loss is None else f"{100 * s.average_loss:.1f}",
            *(str(s.counts[n]) for n in judge.LABELS),
            str(s.forced),
        )
    return t


__all__ = ["LABEL_STYLES", "moves_table", "summary_table"]
