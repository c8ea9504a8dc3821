"""Time of ``State.legal_actions()`` and ``State.legal_mask()`` of the Python API, per call,
on the positions of random games; process CPU time, one core.

Usage: ``python benchmarks/bench_legal.py [--rounds R] [--against TREE] [--json]``.

The positions are every decision of 20 random games of 2-player classic Splendor and of
Splendor Duel (seeds 0-19, random legal decisions seeded alike), each method called on each
position in turn, ``R`` rounds (default 5); the figure is the median round's CPU time
divided by the number of calls.

``--against TREE`` also measures another source tree of this project (a ``git worktree`` of
an earlier commit: ``git worktree add /tmp/before <commit>``) in a subprocess with
``PYTHONPATH=TREE/src``, alternating rounds with this one, and prints how many times faster
this tree is (issue 20 asks ``legal_actions()`` to be at least 2x faster than before it).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def positions(game: str, games: int = 20) -> list[Any]:
    """Copies of every position met in ``games`` random games (seeds 0..games-1)."""
    import random

    from splendor.game import get_game

    out = []
    for seed in range(games):
        st = get_game(game).new_game(2, seed)
        rnd = random.Random(seed)
        while not st.is_terminal:
            out.append(st.copy())
            st.apply(rnd.choice(st.legal_actions()))
    return out


def one_round(states: list[Any], method: str) -> float:
    """CPU seconds per call of ``method`` over ``states``."""
    calls = [getattr(st, method) for st in states]
    t0 = time.process_time()
    for _ in range(3):
        for call in calls:
            call()
    return (time.process_time() - t0) / (3 * len(calls))


def measure(rounds: int) -> dict[str, dict[str, float]]:
    """Median microseconds per call, by game and method."""
    out: dict[str, dict[str, float]] = {}
    for game in ("classic", "duel"):
        states = positions(game)
        out[game] = {}
        for method in ("legal_actions", "legal_mask"):
            one_round(states[:50], method)  # compile or load the kernels
            times = [one_round(states, method) for _ in range(rounds)]
            out[game][method] = round(statistics.median(times) * 1e6, 3)
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--against", type=Path, default=None, help="another source tree to compare")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # a subprocess round
    args = ap.parse_args(argv)
    if args.one:
        result: dict[str, Any] = measure(args.rounds)
        print(json.dumps(result))
        return result
    if args.against is None:
        result = {"this": measure(args.rounds)}
    else:
        src = args.against.resolve() / "src"
        if not (src / "splendor").is_dir():
            ap.error(f"{args.against} is not a source tree of this project (no src/splendor)")
        runs: dict[str, list[dict[str, dict[str, float]]]] = {"this": [], "against": []}
        here = Path(__file__).resolve()
        for _ in range(max(1, args.rounds)):
            for label, path in (("against", src), ("this", here.parents[1] / "src")):
                env = {**os.environ, "PYTHONPATH": str(path)}
                cmd = [sys.executable, str(here), "--one", "--rounds", "3"]
                done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
                runs[label].append(json.loads(done.stdout.strip().splitlines()[-1]))
        result = {
            label: {g: {m: statistics.median(r[g][m] for r in rs) for m in rs[0][g]} for g in rs[0]}
            for label, rs in runs.items()
        }
        result["speedup"] = {
            g: {
                m: round(result["against"][g][m] / result["this"][g][m], 2)
                for m in result["this"][g]
            }
            for g in result["this"]
        }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for label in ("this", "against"):
            for g, ms in result.get(label, {}).items():
                figures = ", ".join(f"{m}() {v:.2f} µs" for m, v in ms.items())
                print(f"{label:<8}{g:<8}{figures}")
        for g, ms in result.get("speedup", {}).items():
            figures = ", ".join(f"{m}() {v:.2f}x" for m, v in ms.items())
            print(f"{'speedup':<8}{g:<8}{figures}")
    return result


if __name__ == "__main__":
    main()
