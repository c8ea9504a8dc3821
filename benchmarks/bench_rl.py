"""Environment steps per second of the research interfaces, classic Splendor (2 players) and
Splendor Duel.

Usage: ``python benchmarks/bench_rl.py [--seconds S] [--games classic,duel] [--json]``.

Rows (every one plays uniformly random legal decisions, one core, one environment; times are
the process's CPU time, ``time.process_time()``; the batched environments are in
``benchmarks/bench_vector.py``):

- ``engine``: the bare engine through the State API (``legal_mask``, ``apply``).
- ``engine+tensor``: the same plus the observation tensor and mask of the seat to act
  (``encoding.observation_tensor``, ``encoding.action_mask``): the floor of any wrapper.
- ``pettingzoo``: the AEC environment (``env.last()`` then ``env.step``) via
  ``splendor_v0.env()`` / ``splendor_duel_v0.env()``.
- ``gymnasium``: ``gymnasium.make`` of ``splendor/Splendor-v0`` / ``SplendorDuel-v0`` against
  the random bot; a step is one decision of the learning seat, and the bot's decisions
  inside it are counted in the ``decisions/s`` column.
- ``openspiel``: ``pyspiel`` states of :mod:`splendor.rl.openspiel_game`
  (``python_splendor`` with 2 players, ``python_splendor_duel`` without turn cap):
  ``legal_actions()`` then ``apply_action()``; each game starts with the deal, its chance
  node, which is not counted as a step.
- ``openspiel+tensor``: the same plus ``state.observation_tensor(player)`` of the player
  to act (a Python list built through the C++ side).

The deals and the random choices follow the seed the same way in the engine and OpenSpiel
rows, so those rows play the same games.

The benchmarks are the list :data:`BENCHMARKS` of ``(name, function)``; a function takes
``(game, seconds, seed)`` (game ``"classic"`` or ``"duel"``) and returns ``(steps,
decisions, elapsed_seconds)``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

import numpy as np


def row_label(game: str) -> str:
    """The row's game: ``"classic-2p"`` for a game of several player counts (2 here), the
    package's name (``"duel"``) for a game of one."""
    from splendor.game import get_game

    g = get_game(game)
    return g.package if g.min_players == g.max_players else f"{g.package}-2p"


Bench = Callable[[str, float, int], tuple[int, int, float]]
"""``fn(game, seconds, seed) -> (steps, decisions, elapsed_seconds)``."""


def _new(game: str, seed: int):
    from splendor.game import get_game

    return get_game(game).new_game(2, seed)


def _engine(game: str, seconds: float, seed: int, tensor: bool) -> tuple[int, int, float]:
    """Random decisions through the bare State API, optionally each preceded by the acting
    seat's observation tensor and mask (``encoding``)."""
    from splendor.rl import encoding

    rng = np.random.default_rng(seed)
    st = _new(game, seed)
    steps = 0
    t0 = time.process_time()
    end = t0 + seconds
    while True:
        for _ in range(200):
            if st.is_terminal:
                seed += 1
                st = _new(game, seed)
            if tensor:
                encoding.observation_tensor(st.observation(st.current_player))
                mask = encoding.action_mask(st)
            else:
                mask = st.legal_mask()
            legal = np.flatnonzero(mask)
            st.apply(int(legal[rng.integers(len(legal))]))
            steps += 1
        if time.process_time() >= end:
            break
    return steps, steps, time.process_time() - t0


def bench_engine(game: str, seconds: float, seed: int) -> tuple[int, int, float]:
    """Random decisions through the bare State API."""
    return _engine(game, seconds, seed, tensor=False)


def bench_engine_tensor(game: str, seconds: float, seed: int) -> tuple[int, int, float]:
    """Random decisions, each preceded by the acting seat's tensor and mask."""
    return _engine(game, seconds, seed, tensor=True)


def bench_pettingzoo(game: str, seconds: float, seed: int) -> tuple[int, int, float]:
    """The AEC loop: ``last()`` (observation of the agent to act) then ``step``."""
    from splendor.rl.pettingzoo_env import SplendorAECEnv, make_env

    env = make_env(SplendorAECEnv, game=game, num_players=2)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    t0 = time.process_time()
    end = t0 + seconds
    while time.process_time() < end:
        for _ in range(200):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                if not env.agents:
                    seed += 1
                    env.reset(seed=seed)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    env.close()
    return steps, steps, time.process_time() - t0


def bench_gymnasium(game: str, seconds: float, seed: int) -> tuple[int, int, float]:
    """One learning seat against the random bot; counts the bot's decisions too."""
    import gymnasium

    import splendor.rl  # noqa: F401
    from splendor.bots import RandomBot

    class CountingBot(RandomBot):
        calls = 0

        def choose(self, observation, legal_actions):  # type: ignore[no-untyped-def]
            CountingBot.calls += 1
            return super().choose(observation, legal_actions)

    from splendor.rl import GYM_IDS

    env_id = next(k for k, v in GYM_IDS.items() if v == game)
    env = gymnasium.make(env_id, opponent=CountingBot(seed))
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    steps = 0
    CountingBot.calls = 0
    t0 = time.process_time()
    end = t0 + seconds
    while time.process_time() < end:
        for _ in range(100):
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, term, trunc, _ = env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            if term or trunc:
                seed += 1
                obs, _ = env.reset(seed=seed)
    elapsed = time.process_time() - t0
    env.close()
    return steps, steps + CountingBot.calls, elapsed


def _openspiel(game: str, seconds: float, seed: int, tensor: bool) -> tuple[int, int, float]:
    """Random decisions through ``pyspiel`` states, optionally reading the acting player's
    observation tensor before each; the deal (chance node) is not counted."""
    import pyspiel

    from splendor.game import get_game

    descriptor = get_game(game)
    params = {"players": 2} if descriptor.min_players != descriptor.max_players else {}
    if descriptor.turn_option is not None:  # no turn cap, as new_game in the engine rows
        params[descriptor.turn_option] = 0
    side = descriptor.part("openspiel")  # imports splendor.rl.openspiel_game: registers
    g = pyspiel.load_game(side.short_name, params)
    deals = g.max_chance_outcomes()  # deal d = engine seed d (game parameter seed=0)
    rng = np.random.default_rng(seed)

    def new_state():  # type: ignore[no-untyped-def]
        st = g.new_initial_state()
        st.apply_action(seed % deals)
        return st

    st = new_state()
    steps = 0
    t0 = time.process_time()
    end = t0 + seconds
    while True:
        for _ in range(200):
            if st.is_terminal():
                seed += 1
                st = new_state()
            if tensor:
                st.observation_tensor(st.current_player())
            legal = st.legal_actions()
            st.apply_action(legal[rng.integers(len(legal))])
            steps += 1
        if time.process_time() >= end:
            break
    return steps, steps, time.process_time() - t0


def bench_openspiel(game: str, seconds: float, seed: int) -> tuple[int, int, float]:
    """Random decisions through ``pyspiel`` states (``legal_actions``, ``apply_action``)."""
    return _openspiel(game, seconds, seed, tensor=False)


def bench_openspiel_tensor(game: str, seconds: float, seed: int) -> tuple[int, int, float]:
    """The same, each decision preceded by ``state.observation_tensor(player to act)``."""
    return _openspiel(game, seconds, seed, tensor=True)


BENCHMARKS: list[tuple[str, Bench]] = [
    ("engine", bench_engine),
    ("engine+tensor", bench_engine_tensor),
    ("pettingzoo", bench_pettingzoo),
    ("gymnasium", bench_gymnasium),
    ("openspiel", bench_openspiel),
    ("openspiel+tensor", bench_openspiel_tensor),
]
"""The rows of the table, in order: ``(name, fn(game, seconds, seed))``."""


def warm_up() -> None:
    """Compile (or load from cache) the engine and encoding kernels before timing."""
    for bench in (bench_engine_tensor, bench_pettingzoo, bench_gymnasium, bench_openspiel_tensor):
        for game in ("classic", "duel"):
            bench(game, 0.0, 0)


def run(seconds: float, games: list[str], benchmarks: list[tuple[str, Bench]]) -> list[dict]:
    """Run every benchmark on every game; one dict per (benchmark, game)."""
    rows = []
    for name, fn in benchmarks:
        for game in games:
            steps, decisions, elapsed = fn(game, seconds, 1)
            rows.append(
                {
                    "interface": name,
                    "game": row_label(game),
                    "steps": steps,
                    "seconds": round(elapsed, 3),
                    "steps_per_s": round(steps / elapsed, 1),
                    "decisions_per_s": round(decisions / elapsed, 1),
                }
            )
    return rows


def table(rows: list[dict]) -> str:
    """The rows as a plain-text table."""
    out = [f"{'interface':<18}{'game':<12}{'steps/s':>12}{'decisions/s':>14}"]
    for r in rows:
        out.append(
            f"{r['interface']:<18}{r['game']:<12}{r['steps_per_s']:>12,.0f}{r['decisions_per_s']:>14,.0f}"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time per benchmark and game")
    ap.add_argument("--games", default="classic,duel")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = ap.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    for g in games:
        if g not in ("classic", "duel"):
            ap.error(f"unknown game {g!r}: use classic and/or duel")
    warm_up()
    rows = run(args.seconds, games, BENCHMARKS)
    print(json.dumps(rows, indent=2) if args.json else table(rows))
    return rows


if __name__ == "__main__":
    main()
