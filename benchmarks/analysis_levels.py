"""Do the analysis labels mean something? Analyse every game of an arena folder and count,
per bot, the labels its moves got (issue 19).

Usage: ``python benchmarks/analysis_levels.py ARENA_FOLDER [--iterations N] [--workers W]
[--out DIR]``. Writes ``DIR/games/*.json`` (one analysis per record) and
``DIR/summary.json`` (:func:`splendor.analysis.batch.label_rates`), then prints, per bot,
the inaccuracies, mistakes and blunders per game and the accuracy. The check: the weaker
level collects more mistakes per game than the stronger.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from splendor.analysis import Settings
from splendor.analysis.batch import analyse_files, label_rates, save

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("arena", type=Path, help="an arena output folder (with games/*.json)")
    ap.add_argument("--iterations", type=int, default=2000, help="search iterations a decision")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=None, help="default results/analysis/<arena>")
    args = ap.parse_args()
    files = sorted((args.arena / "games").glob("*.json"))
    out = args.out or Path("results/analysis") / args.arena.name
    start = time.perf_counter()
    done = 0

    def tick(path: Path, _analysis: object) -> None:
        global done
        done += 1
        print(f"{done}/{len(files)} {path.name} {time.perf_counter() - start:.0f} s", flush=True)

    analyses = analyse_files(
        files, Settings(iterations=args.iterations, seed=0), args.workers, tick
    )
    summary = save(analyses, [p.stem for p in files], out)
    rates = label_rates(analyses)
    print(json.dumps(rates, indent=2))
    for player, r in rates.items():
        g = r["per_game"]
        print(
            f"{player}: {r['games']} games, accuracy {r['accuracy']:.1f}, per game: "
            f"{g['inaccuracy']:.2f} inaccuracies, {g['mistake']:.2f} mistakes, "
            f"{g['blunder']:.2f} blunders"
        )
    print(f"{summary} · {time.perf_counter() - start:.0f} s with {args.workers} workers")
