"""Arena results: per-bot statistics, the results document (JSON), tables and the plot.

Per bot, counted over its *seat-games* (a bot that holds two seats of one game, possible
with fewer bots than seats, counts twice):

- ``wins``: it was the only winner; ``draws``: it shared the win (C15/D-rules ties) or the
  game ended with no winner (a Duel game stopped by its turn cap, a classic game stopped
  by the arena's decision cap); ``losses``: the rest;
- ``win_rate`` = wins / games; ``score`` = (wins + draws / 2) / games;
- ``mean_points``: its prestige points at the end; ``mean_turns``: the length of its games
  in turns; ``forfeits``: games it lost by crashing, answering garbage or an illegal
  action, or timing out;
- ``elo``, ``elo_low``, ``elo_high``: see :mod:`splendor.arena.ratings`;
- ``style``: its habits, as means per seat-game (reserves, reserves never bought, token
  returns, forced passes, nobles or royal cards, cards bought per level:
  :mod:`splendor.arena.style`).

The results document (``results.json``, and what ``splendor arena --json`` prints) holds the
settings, that table, the head-to-head scores, the share of wins per seat, the end reasons,
the ratings and one summary per game. Everything in it but ``run`` (backend, workers,
timings, output folder) depends only on the settings and seeds, given deterministic bots.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich import box
from rich.table import Table

from ..game import get_game
from . import ratings as _ratings
from .style import mean_style

RESULTS_FORMAT = "splendor-arena"
RESULTS_VERSION = 1


def bot_stats(games: Sequence[Mapping[str, Any]], labels: Sequence[str]) -> list[dict[str, Any]]:
    """Per-bot statistics (module docstring), in the order of ``labels``.

    Args:
        games: game summaries (:func:`splendor.arena.runner.play_task`), each with
            ``bots``, ``scores``, ``winners``, ``turns`` and ``forfeit``.
        labels: bot labels; ``games[i]["bots"]`` index into it.
    """
    out = []
    for b, label in enumerate(labels):
        n = wins = draws = forfeits = points = turns = 0
        for g in games:
            winners = g["winners"]
            forfeit = g.get("forfeit")
            for seat, bot in enumerate(g["bots"]):
                if bot != b:
                    continue
                n += 1
                points += g["scores"][seat]
                turns += g["turns"]
                if not winners:
                    draws += 1
                elif seat in winners:
                    if len(winners) == 1:
                        wins += 1
                    else:
                        draws += 1
                if forfeit and forfeit["seat"] == seat:
                    forfeits += 1
        out.append(
            {
                "bot": label,
                "games": n,
                "wins": wins,
                "draws": draws,
                "losses": n - wins - draws,
                "win_rate": wins / n if n else 0.0,
                "score": (wins + draws / 2) / n if n else 0.0,
                "mean_points": points / n if n else 0.0,
                "mean_turns": turns / n if n else 0.0,
                "forfeits": forfeits,
                "style": mean_style(games, b),
            }
        )
    return out


def seat_stats(games: Sequence[Mapping[str, Any]], num_players: int) -> list[dict[str, Any]]:
    """Per seat: ``win_share`` (share of the games it won, a shared win split equally) and
    ``mean_points``; shows the advantage of playing first."""
    share = [0.0] * num_players
    points = [0.0] * num_players
    for g in games:
        for w in g["winners"]:
            share[w] += 1.0 / len(g["winners"])
        for s, p in enumerate(g["scores"]):
            points[s] += p
    n = max(1, len(games))
    return [
        {"seat": s, "win_share": share[s] / n, "mean_points": points[s] / n}
        for s in range(num_players)
    ]


def end_reasons(games: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """How many games ended each way (``points``, ``stall``, ``turn_cap``, ``decision_cap``,
    ``forfeit``…)."""
    out: dict[str, int] = {}
    for g in games:
        key = str(g.get("end_reason"))
        out[key] = out.get(key, 0) + 1
    return dict(sorted(out.items()))


def _num(x: float) -> float | None:
    """A JSON-safe float (None for NaN)."""
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else round(float(x), 6)


def build_results(
    *,
    settings: Mapping[str, Any],
    labels: Sequence[str],
    games: Sequence[Mapping[str, Any]],
    ratings: _ratings.Ratings,
    run: Mapping[str, Any],
) -> dict[str, Any]:
    """The results document (module docstring).

    Args:
        settings: ``game``, ``players``, ``specs``, ``seed``, ``requested_games``,
            ``cycles``, ``lineups``, ``options``, ``deterministic`` and optionally
            ``max_decisions`` (the classic decision cap, None for none).
        labels: bot labels.
        games: game summaries sorted by ``index``.
        ratings: :func:`splendor.arena.ratings.rate` of ``games``.
        run: run-specific facts (backend, workers, elapsed seconds, output folder).
    """
    table = bot_stats(games, labels)
    for row, e, lo, hi in zip(table, ratings.elo, ratings.low, ratings.high, strict=True):
        row.update(elo=_num(e), elo_low=_num(lo), elo_high=_num(hi))
    h2h = ratings.head_to_head()
    public_games = [
        {k: v for k, v in g.items() if k not in ("think_s", "seat_decisions", "style")}
        for g in games
    ]
    return {
        "format": RESULTS_FORMAT,
        "version": RESULTS_VERSION,
        "game": settings["game"],
        "players": settings["players"],
        "bots": list(labels),
        "specs": list(settings["specs"]),
        "seed": settings["seed"],
        "games": len(games),
        "requested_games": settings["requested_games"],
        "cycles": settings["cycles"],
        "lineups": [list(u) for u in settings["lineups"]],
        "options": dict(settings["options"]),
        "max_decisions": settings.get("max_decisions"),
        "deterministic": settings["deterministic"],
        "results": table,
        "head_to_head": {
            a: {b: _num(h2h[i, j]) for j, b in enumerate(labels) if j != i}
            for i, a in enumerate(labels)
        },
        "seats": seat_stats(games, settings["players"]),
        "end_reasons": end_reasons(games),
        "ratings": {
            "method": "Bradley-Terry maximum likelihood on pairwise outcomes, Elo scale "
            "(400*log10 odds), mean 1500; 95% CI: percentile bootstrap over games",
            "mean": _ratings.ELO_MEAN,
            "prior_draws": ratings.prior,
            "bootstrap": ratings.bootstrap,
            "elo": {b: _num(e) for b, e in zip(labels, ratings.elo, strict=True)},
            "ci95": {
                b: [_num(lo), _num(hi)]
                for b, lo, hi in zip(labels, ratings.low, ratings.high, strict=True)
            },
        },
        "game_results": public_games,
        "run": dict(run),
    }


def ms_per_decision(games: Sequence[Mapping[str, Any]], num_bots: int) -> list[float | None]:
    """Mean wall-clock milliseconds per decision of each bot (None if it made none)."""
    secs = [0.0] * num_bots
    made = [0] * num_bots
    for g in games:
        for seat, bot in enumerate(g["bots"]):
            secs[bot] += g.get("think_s", [0.0] * len(g["bots"]))[seat]
            made[bot] += g.get("seat_decisions", [0] * len(g["bots"]))[seat]
    return [round(1000 * s / m, 3) if m else None for s, m in zip(secs, made, strict=True)]


def results_table(results: Mapping[str, Any]) -> Table:
    """The per-bot table (rich), best Elo first."""
    t = Table(title="results", title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1))
    for col in (
        "bot",
        "games",
        "wins",
        "draws",
        "losses",
        "win %",
        "points",
        "turns",
        "forfeits",
        "Elo",
        "95% CI",
        "ms/dec",
    ):
        t.add_column(
            col, justify="left" if col in ("bot", "95% CI") else "right", no_wrap=col != "bot"
        )
    ms = dict(
        zip(results["bots"], results.get("run", {}).get("ms_per_decision") or [], strict=False)
    )
    rows = sorted(results["results"], key=lambda r: -(r["elo"] or 0.0))
    for r in rows:
        ci = f"[{r['elo_low']:.0f}, {r['elo_high']:.0f}]" if r["elo_low"] is not None else ""
        m = ms.get(r["bot"])
        t.add_row(
            r["bot"],
            str(r["games"]),
            str(r["wins"]),
            str(r["draws"]),
            str(r["losses"]),
            f"{100 * r['win_rate']:.1f}",
            f"{r['mean_points']:.2f}",
            f"{r['mean_turns']:.1f}",
            str(r["forfeits"]),
            f"{r['elo']:.0f}",
            ci,
            "" if m is None else f"{m:.2f}",
        )
    return t


STYLE_COLUMNS = (
    ("reserves", "reserves"),
    ("never bought", "reserves_never_bought"),
    ("returns", "returns"),
    ("passes", "passes"),
    ("nobles/royals", "nobles"),
    ("cards", "cards"),
    ("L1", "cards_l1"),
    ("L2", "cards_l2"),
    ("L3", "cards_l3"),
)
"""The style table's columns: heading and key of :data:`splendor.arena.style.STYLE_KEYS`."""


def style_table(results: Mapping[str, Any]) -> Table:
    """How each bot plays (rich): means per game of its style counts
    (:mod:`splendor.arena.style`), best Elo first."""
    t = Table(
        title="style (means per game)", title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1)
    )
    t.add_column("bot", justify="left")
    for heading, _key in STYLE_COLUMNS:
        t.add_column(heading, justify="right", no_wrap=True)
    for r in sorted(results["results"], key=lambda r: -(r["elo"] or 0.0)):
        style = r.get("style")
        if style:
            t.add_row(r["bot"], *(f"{style[key]:.2f}" for _h, key in STYLE_COLUMNS))
    return t


def head_to_head_table(results: Mapping[str, Any]) -> Table:
    """Rows against columns: the share of pairwise comparisons the row bot won (draws
    count half), in %."""
    labels = results["bots"]
    t = Table(
        title="head to head (row's % score vs column)",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        padding=(0, 1),
    )
    t.add_column("")
    for b in labels:
        t.add_column(b, justify="right")
    for a in labels:
        cells = []
        for b in labels:
            v = results["head_to_head"][a].get(b) if a != b else None
            cells.append("—" if v is None else f"{100 * v:.1f}")
        t.add_row(a, *cells)
    return t


def plot_ratings(results: Mapping[str, Any], path: str | Path) -> Path:
    """Save a PNG of each bot's Elo with its 95% interval (horizontal error bars, best on
    top). Uses matplotlib's Agg canvas directly (no pyplot, no global backend change).

    Returns:
        the path written.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    rows = sorted(results["results"], key=lambda r: r["elo"])
    names = [r["bot"] for r in rows]
    elo = [r["elo"] for r in rows]
    lo = [r["elo"] - r["elo_low"] for r in rows]
    hi = [r["elo_high"] - r["elo"] for r in rows]
    fig = Figure(figsize=(7.0, 1.2 + 0.5 * len(rows)), dpi=120)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    ax.errorbar(elo, range(len(rows)), xerr=[lo, hi], fmt="o", capsize=4, color="tab:blue")
    ax.axvline(results["ratings"]["mean"], color="grey", linewidth=0.8, linestyle="--")
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(names)
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xlabel("Elo (mean 1500), 95% bootstrap interval")
    game = get_game(results["game"]).label(results["players"])
    ax.set_title(f"{game}: {results['games']} games")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(p)
    return p
