"""Agent-steps per second of the batched environments (issue 20), against the single-game
PettingZoo loop measured in the same run; process CPU time, one core.

Usage: ``python benchmarks/bench_vector.py [--seconds S] [--envs N] [--games classic,duel]
[--json]``.

Rows (every one plays uniformly random legal decisions):

- ``batched``: :class:`splendor.rl.batch.BatchedGames` with ``N`` games (default 1,024):
  ``random_actions()`` (compiled) then ``step()``, which plays one decision in every game,
  writes the seat to play's observation tensor and mask, the rewards and terminations, and
  deals the games that ended anew. An agent-step is one decision of one game.
- ``vector-env``: :class:`splendor.rl.vector_env.SplendorVectorEnv` (Gymnasium, ``N``
  games, the learning seat against the compiled random bot, ``copy=True``); the actions are
  drawn in numpy from the returned masks (Gumbel trick). Its agent-steps are the learning
  seat's; the bots' decisions inside are counted in ``decisions/s``.
- ``pettingzoo``: the single-game AEC loop (``env.last()`` then ``env.step``) of
  ``splendor_v0.env()`` / ``splendor_duel_v0.env()``, actions drawn from the mask.

The targets (2-player classic >= 1,000,000 agent-steps/s, Duel >= 500,000, for
``batched`` with N = 1,024) are printed after the table with the ratio to ``pettingzoo``.
Times are ``time.process_time()`` of this process: the compiled code runs on one thread.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from bench_rl import row_label  # this folder is on sys.path

TARGETS = {"classic": 1_000_000, "duel": 500_000}


def bench_batched(game: str, seconds: float, envs: int) -> tuple[int, int, float]:
    """``BatchedGames`` stepped with compiled random legal actions."""
    from splendor.rl.batch import BatchedGames

    games = BatchedGames(game, envs, 2, seed=1)
    games.reset()
    games.step(games.random_actions())  # compiled or loaded before the clock starts
    steps = 0
    t0 = time.process_time()
    while True:
        for _ in range(20):
            games.step(games.random_actions())
        steps += 20 * envs
        elapsed = time.process_time() - t0
        if elapsed >= seconds:
            return steps, steps, elapsed


def bench_vector_env(game: str, seconds: float, envs: int) -> tuple[int, int, float]:
    """``SplendorVectorEnv`` against the random bot, actions drawn in numpy."""
    from splendor.rl.vector_env import SplendorVectorEnv

    env = SplendorVectorEnv(game, envs, opponent="random", seat="random")
    rng = np.random.default_rng(1)
    obs, _ = env.reset(seed=1)

    def act(mask: np.ndarray) -> np.ndarray:
        return np.argmax(np.where(mask > 0, rng.gumbel(size=mask.shape), -np.inf), axis=1)

    obs, *_ = env.step(act(obs["action_mask"]))
    start_bots = env.bot_decisions
    steps = 0
    t0 = time.process_time()
    while True:
        for _ in range(5):
            obs, *_ = env.step(act(obs["action_mask"]))
        steps += 5 * envs
        elapsed = time.process_time() - t0
        if elapsed >= seconds:
            return steps, steps + env.bot_decisions - start_bots, elapsed


def bench_pettingzoo(game: str, seconds: float, envs: int) -> tuple[int, int, float]:
    """The single-game AEC loop of ``benchmarks/bench_rl.py`` (``last()`` then ``step``)."""
    from bench_rl import bench_pettingzoo as loop  # this folder is on sys.path

    return loop(game, seconds, 1)


BENCHMARKS = [
    ("batched", bench_batched),
    ("vector-env", bench_vector_env),
    ("pettingzoo", bench_pettingzoo),
]
"""The rows, in order: ``(name, fn(game, seconds, envs) -> (steps, decisions, cpu_s))``."""


def run(seconds: float, envs: int, games: list[str]) -> list[dict]:
    """Every benchmark on every game (each warmed up for a moment first)."""
    rows = []
    for game in games:
        for name, fn in BENCHMARKS:
            fn(game, 0.05, min(envs, 16))  # compile or load the kernels
            steps, decisions, elapsed = fn(game, seconds, envs)
            rows.append(
                {
                    "interface": name,
                    "game": row_label(game),
                    "envs": 1 if name == "pettingzoo" else envs,
                    "agent_steps": steps,
                    "cpu_seconds": round(elapsed, 3),
                    "agent_steps_per_s": round(steps / elapsed, 1),
                    "decisions_per_s": round(decisions / elapsed, 1),
                }
            )
    return rows


def verdicts(rows: list[dict]) -> list[str]:
    """One line per game: the batched figure against its target, and the ratio to the
    PettingZoo loop of the same run."""
    lines = []
    for game, target in TARGETS.items():
        label = row_label(game)
        by = {r["interface"]: r for r in rows if r["game"] == label}
        if "batched" not in by:
            continue
        got = by["batched"]["agent_steps_per_s"]
        verdict = "meets" if got >= target else "MISSES"
        ratio = (
            f", {got / by['pettingzoo']['agent_steps_per_s']:.0f}x pettingzoo"
            if "pettingzoo" in by
            else ""
        )
        lines.append(
            f"{label}, batched: {got:,.0f} agent-steps/s {verdict} the target of {target:,}{ratio}"
        )
    return lines


def main(argv: list[str] | None = None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per row and game")
    ap.add_argument("--envs", type=int, default=1024, help="games stepped together")
    ap.add_argument("--games", default="classic,duel")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = ap.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    for g in games:
        if g not in TARGETS:
            ap.error(f"unknown game {g!r}: use classic and/or duel")
    if args.envs < 1:
        ap.error("--envs must be >= 1")
    rows = run(args.seconds, args.envs, games)
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"{'interface':<12}{'game':<12}{'envs':>6}{'agent-steps/s':>16}{'decisions/s':>14}")
        for r in rows:
            print(
                f"{r['interface']:<12}{r['game']:<12}{r['envs']:>6}"
                f"{r['agent_steps_per_s']:>16,.0f}{r['decisions_per_s']:>14,.0f}"
            )
    for line in verdicts(rows):
        print(line)
    return rows


if __name__ == "__main__":
    main()
