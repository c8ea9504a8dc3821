"""Random-playout benchmark of both engines (run by ``make bench``).

Usage: ``python benchmarks/bench_engines.py [--seconds S] [--players 2,3,4]
[--games classic,duel] [--output FILE]``. Prints JSON (see :mod:`splendor.bench`), then one
line per target. Targets (issue 2, one core, 2-player classic): compiled playouts >= 200,000
turns/s; public Python API >= 30,000 turns/s; information-set MCTS with random full
playouts >= 2,000 iterations/s (issue 4). Duel figures are reported beside them (issue 3).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from splendor.bench import main

TARGETS = {"compiled": 200_000, "python_api": 30_000}
MCTS_TARGET = 2_000  # issue 4: iterations/s, random full playouts, 2-player classic


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--players", default="2,3,4", help="classic player counts")
    ap.add_argument("--games", default="classic,duel")
    ap.add_argument("--output", type=Path, default=None)
    args = ap.parse_args()
    result = main(
        args.seconds,
        [int(x) for x in args.players.split(",")],
        args.output,
        [g.strip() for g in args.games.split(",")],
    )
    two = result.get("classic", {}).get("2")
    if two:
        for mode, target in TARGETS.items():
            got = two[mode]["turns_per_s"]
            verdict = "meets" if got >= target else "MISSES"
            print(
                f"classic, 2 players, {mode}: {got:,.0f} turns/s {verdict} the target of {target:,}"
            )
        got = two["mcts"]["random_full_playouts_per_s"]
        verdict = "meets" if got >= MCTS_TARGET else "MISSES"
        print(
            f"classic, 2 players, MCTS random playouts: {got:,.0f} iterations/s {verdict} "
            f"the target of {MCTS_TARGET:,}"
        )
    for n, figures in sorted(result.get("classic", {}).items()):
        m = figures["mcts"]
        print(
            f"classic, {n} players, MCTS: {m['random_full_playouts_per_s']:,.0f} iterations/s "
            f"(random playouts), {m['heuristic_playouts_per_s']:,.0f} (heuristic playouts), "
            f"{m['default_bot_per_s']:,.0f} (default bot: greedy playouts)"
        )
        greedy = figures["greedy"]
        print(
            f"classic, {n} players, greedy bot: {greedy['decisions_per_s']:,.0f} decisions/s "
            f"({greedy['mean_ms']:.2f} ms each)"
        )
    d = result.get("duel", {}).get("2")
    if d:
        for mode in TARGETS:
            print(f"duel, {mode}: {d[mode]['turns_per_s']:,.0f} turns/s")
        m = d["mcts"]
        print(
            f"duel, MCTS: {m['random_full_playouts_per_s']:,.0f} iterations/s (random "
            f"playouts), {m['default_bot_per_s']:,.0f} (default bot: heuristic playouts, "
            f"cut off after 16 decisions)"
        )
        print(
            f"duel, greedy bot: {d['greedy']['decisions_per_s']:,.0f} decisions/s "
            f"({d['greedy']['mean_ms']:.2f} ms each)"
        )
