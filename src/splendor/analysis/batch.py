"""Analysing many records at once, and what the labels say about who played them
(issue 19's check that the labels mean something: over arena games between bots of
different levels, the weaker collects more mistakes per game).

``benchmarks/analysis_levels.py`` runs it over an arena folder.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from . import judge
from .engine import Analyser, GameAnalysis, Settings


def _analyse_file(path: str, settings: dict[str, Any]) -> dict[str, Any]:
    """Worker: the analysis of every seat of the record at ``path`` (JSON form)."""
    from ..record import GameRecord

    record = GameRecord.load(path)
    return Analyser(Settings.from_dict(settings)).analyse(record).to_dict()


def analyse_files(
    paths: Iterable[Path],
    settings: Settings,
    workers: int = 1,
    on_done: Callable[[Path, GameAnalysis], None] | None = None,
) -> list[GameAnalysis]:
    """Analyse every seat of each record file, ``workers`` processes at once; returns the
    analyses in the order of ``paths``.

    Raises:
        RecordError: a record cannot be read or replayed.
        ValueError: no network ships for a record's game and player count.
    """
    files = list(paths)
    out: list[GameAnalysis | None] = [None] * len(files)
    with ProcessPoolExecutor(max_workers=max(1, workers)) as pool:
        futures = {
            pool.submit(_analyse_file, str(p), settings.to_dict()): k for k, p in enumerate(files)
        }
        for future in as_completed(futures):
            k = futures[future]
            analysis = GameAnalysis.from_dict(future.result())
            out[k] = analysis
            if on_done is not None:
                on_done(files[k], analysis)
    return [a for a in out if a is not None]


def label_rates(analyses: Iterable[GameAnalysis]) -> dict[str, dict[str, Any]]:
    """Per player label (a bot's name in arena records): games, judged moves, mean
    accuracy, mean loss, and each label's count per game and per 100 judged moves.

    Returns:
        ``{player: {"games", "moves", "accuracy", "average_loss", "per_game": {label: x},
        "per_100_moves": {label: x}}}``.
    """
    totals: dict[str, dict[str, Any]] = {}
    for a in analyses:
        for s in a.summaries():
            t = totals.setdefault(
                s.player,
                {
                    "games": 0,
                    "moves": 0,
                    "loss": 0.0,
                    "accuracy": 0.0,
                    "counts": dict.fromkeys(judge.LABELS, 0),
                },
            )
            t["games"] += 1
            t["moves"] += s.moves
            if s.moves:
                assert s.accuracy is not None and s.average_loss is not None
                t["accuracy"] += s.accuracy * s.moves
                t["loss"] += s.average_loss * s.moves
            for name in judge.LABELS:
                t["counts"][name] += s.counts[name]
    rates = {}
    for player, t in totals.items():
        moves = max(1, t["moves"])
        rates[player] = {
            "games": t["games"],
            "moves": t["moves"],
            "accuracy": round(t["accuracy"] / moves, 2),
            "average_loss": round(t["loss"] / moves, 4),
            "per_game": {n: round(t["counts"][n] / t["games"], 3) for n in judge.LABELS},
            "per_100_moves": {n: round(100 * t["counts"][n] / moves, 2) for n in judge.LABELS},
        }
    return rates


def save(analyses: list[GameAnalysis], names: list[str], out: Path) -> Path:
    """Write each analysis as ``out/games/<name>.json`` and the :func:`label_rates` as
    ``out/summary.json``; returns the summary's path."""
    (out / "games").mkdir(parents=True, exist_ok=True)
    for name, a in zip(names, analyses, strict=True):
        (out / "games" / f"{name}.json").write_text(json.dumps(a.to_dict()) + "\n")
    path = out / "summary.json"
    path.write_text(json.dumps(label_rates(analyses), indent=2) + "\n")
    return path


__all__ = ["analyse_files", "label_rates", "save"]
