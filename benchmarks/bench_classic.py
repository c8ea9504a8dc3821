"""Classic Splendor random-playout benchmark (run by ``make bench``).

Usage: ``python benchmarks/bench_classic.py [--seconds S] [--players 2,3,4] [--output FILE]``.
Prints JSON (see :mod:`splendor.bench`). Targets (issue 2, one core, 2 players): compiled
playouts >= 200,000 turns/s; public Python API >= 30,000 turns/s.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from splendor.bench import main

TARGETS = {"compiled": 200_000, "python_api": 30_000}


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--output", type=Path, default=None)
    args = ap.parse_args()
    result = main(args.seconds, [int(x) for x in args.players.split(",")], args.output)
    two = result["classic"].get("2")
    if two:
        for mode, target in TARGETS.items():
            got = two[mode]["turns_per_s"]
            verdict = "meets" if got >= target else "MISSES"
            print(f"2 players, {mode}: {got:,.0f} turns/s {verdict} the target of {target:,}")
