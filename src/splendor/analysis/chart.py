"""The win-probability chart of an analysed game (issue 19): a matplotlib PNG for
``splendor analyse --plot`` (the web client draws its own SVG from the same numbers).

One line per analysed seat: its win probability after each of its judged moves, over the
game's turns; each turning point (a mistake or a blunder,
:data:`splendor.analysis.judge.TURNING_LABELS`) is a vertical segment from the win
probability the engine's move kept to the one the move played left, with a marker and the
turn, so the chart shows where the game turned and how far.
"""

from __future__ import annotations

from pathlib import Path

from ..game import get_game
from .engine import GameAnalysis

SEAT_COLORS = ("tab:blue", "tab:orange", "tab:green", "tab:red")
"""Line colour of each seat."""

MARKERS = {"mistake": "o", "blunder": "X"}
"""Marker of each kind of turning point."""


def series(analysis: GameAnalysis, seat: int) -> tuple[list[int], list[float]]:
    """``(turns, win probabilities)`` of ``seat``'s judged moves, after each (forced moves
    left out)."""
    turns: list[int] = []
    wins: list[float] = []
    for m in analysis.moves:
        if m.seat == seat and m.after is not None:
            turns.append(m.turn)
            wins.append(m.after)
    return turns, wins


def plot_analysis(analysis: GameAnalysis, path: str | Path) -> Path:
    """Save the chart (module docstring) as a PNG at ``path`` (folders made). Uses
    matplotlib's Agg canvas directly (no pyplot, no global backend change).

    Returns:
        the path written.

    Raises:
        OSError: the file cannot be written.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8.0, 4.0), dpi=120)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    for seat in analysis.seats:
        turns, wins = series(analysis, seat)
        color = SEAT_COLORS[seat % len(SEAT_COLORS)]
        label = f"{analysis.players[seat]} (seat {seat})"
        ax.plot(turns, [100 * w for w in wins], color=color, linewidth=1.6, label=label)
    for m in analysis.turning_points():
        assert m.before is not None and m.after is not None  # judged moves have both
        color = SEAT_COLORS[m.seat % len(SEAT_COLORS)]
        ax.vlines(m.turn, 100 * m.after, 100 * m.before, color=color, linewidth=1.0)
        ax.scatter(
            [m.turn], [100 * m.after], marker=MARKERS.get(m.label, "o"), color=color, zorder=3
        )
        ax.annotate(
            f"{m.turn}",
            (m.turn, 100 * m.after),
            textcoords="offset points",
            xytext=(3, -10),
            fontsize=7,
            color=color,
        )
    ax.axhline(100 / analysis.num_players, color="grey", linewidth=0.8, linestyle="--")
    ax.set_ylim(0, 100)
    ax.set_xlabel("turn")
    ax.set_ylabel("win probability (%)")
    game = get_game(analysis.game).label(analysis.num_players)
    ax.set_title(f"{game}: win probability after each move (o mistake, x blunder)")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(p)
    return p


__all__ = ["MARKERS", "SEAT_COLORS", "plot_analysis", "series"]
