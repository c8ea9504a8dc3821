"""Random-playout speed of the engines (``make bench``, ``splendor bench``).

For each player count, uniformly random games (a uniform choice among the legal decisions
at every decision) are played for a fixed time, twice:

- ``compiled``: the whole playout loop runs in numba (``rules.random_playout``); only the
  loop over games is Python.
- ``python_api``: driven from Python through the public API, ``legal_actions()`` then
  ``apply()`` on a :class:`splendor.classic.State`.

Reported per player count: games/s, turns/s (a turn is one seat's whole turn, C6-C12),
decisions/s (main actions plus payment, return and noble decisions), mean turns per game,
share of stalled games (C17), and the cost of one legal-mask call in µs (compiled kernel
alone, and through ``State.legal_mask()``). Everything runs on one core.
"""

from __future__ import annotations

import json
import os
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from .classic import rules
from .classic.actions import NUM_ACTIONS
from .classic.state import STATE_DTYPE, State, new_game


@njit(cache=True)
def _compiled_games(arr: np.ndarray, num_players: int, first_seed: int, n_games: int,
                    rng: np.ndarray, stats: np.ndarray) -> None:
    """Play ``n_games`` random games in ``arr``; add decisions, turns, stalls to ``stats``."""
    for g in range(n_games):
        rules.setup(arr, num_players, first_seed + g)
        stats[0] += rules.random_playout(arr, rng, 1 << 30)
        s = rules.state_record(arr)
        stats[1] += s.turn
        if s.end_reason == rules.END_STALL:
            stats[2] += 1


@njit(cache=True)
def _mask_loop(states: np.ndarray, reps: int) -> int:
    """Call ``legal_mask`` ``reps`` times over every sampled state; return a checksum."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    total = 0
    for _ in range(reps):
        for i in range(states.shape[0]):
            total += rules.legal_mask(states[i : i + 1], mask)
    return total


def _sample_states(num_players: int, count: int, seed: int) -> np.ndarray:
    """Positions met in random games (all phases), for timing legal-mask calls."""
    out = np.zeros(count, dtype=STATE_DTYPE)
    rng = np.ones(1, dtype=np.uint64) * np.uint64(seed + 1)
    pyrng = random.Random(seed)
    k = 0
    g = 0
    while k < count:
        st = new_game(num_players, seed + g)
        g += 1
        while not st.is_terminal and k < count:
            if pyrng.random() < 0.2:
                out[k] = st._a[0]
                k += 1
            rules.random_playout(st._a, rng, 1)
    return out


def bench_compiled(num_players: int, seconds: float) -> dict[str, float]:
    """Compiled random playouts for ``seconds``; returns the figures."""
    arr = np.zeros(1, dtype=STATE_DTYPE)
    rng = np.array([12345], dtype=np.uint64)
    stats = np.zeros(3, dtype=np.int64)
    _compiled_games(arr, num_players, 0, 2, rng, stats)  # compile / load cache
    stats[:] = 0
    games = 0
    batch = 50
    t0 = time.perf_counter()
    while True:
        _compiled_games(arr, num_players, 1000 + games, batch, rng, stats)
        games += batch
        el = time.perf_counter() - t0
        if el >= seconds:
            break
    return _figures(games, int(stats[0]), int(stats[1]), int(stats[2]), el)


def bench_python_api(num_players: int, seconds: float) -> dict[str, float]:
    """Random games through ``State.legal_actions()`` + ``State.apply()``."""
    pick = random.Random(7)
    games = decisions = turns = stalled = 0
    t0 = time.perf_counter()
    while True:
        st = new_game(num_players, 5000 + games)
        while not st.is_terminal:
            legal = st.legal_actions()
            st.apply(legal[pick.randrange(len(legal))])
            decisions += 1
        turns += st.turn
        stalled += st.end_reason == "stall"
        games += 1
        el = time.perf_counter() - t0
        if el >= seconds:
            break
    return _figures(games, decisions, turns, stalled, el)


def bench_legal_mask(num_players: int, seconds: float) -> dict[str, float]:
    """µs per legal-mask call: the compiled kernel alone, and via ``State.legal_mask()``."""
    states = _sample_states(num_players, 2000, 99)
    _mask_loop(states[:2], 1)
    reps = 1
    while True:
        t0 = time.perf_counter()
        _mask_loop(states, reps)
        el = time.perf_counter() - t0
        if el >= seconds / 2 or reps >= 1 << 20:
            break
        reps *= 2
    kernel_us = el / (reps * len(states)) * 1e6
    views = [State(states[i : i + 1].copy()) for i in range(len(states))]
    calls = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds / 2:
        for v in views:
            v.legal_mask()
        calls += len(views)
    api_us = (time.perf_counter() - t0) / calls * 1e6
    return {"kernel_us": round(kernel_us, 3), "state_legal_mask_us": round(api_us, 3)}


def _figures(games: int, decisions: int, turns: int, stalled: int, el: float) -> dict[str, float]:
    return {
        "games": games,
        "seconds": round(el, 3),
        "games_per_s": round(games / el, 1),
        "turns_per_s": round(turns / el, 1),
        "decisions_per_s": round(decisions / el, 1),
        "mean_turns_per_game": round(turns / games, 2),
        "stalled_share": round(stalled / games, 4),
    }


def run(seconds: float = 3.0, player_counts: list[int] | None = None) -> dict[str, Any]:
    """All figures as a JSON-able dict (see the module docstring)."""
    counts = player_counts or [2, 3, 4]
    try:  # one core, as the targets are stated
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    except (AttributeError, OSError):
        pass
    import numba

    out: dict[str, Any] = {
        "benchmark": "classic random playouts",
        "python": sys.version.split()[0],
        "numba": numba.__version__,
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "seconds_per_measurement": seconds,
        "classic": {},
    }
    for n in counts:
        out["classic"][str(n)] = {
            "compiled": bench_compiled(n, seconds),
            "python_api": bench_python_api(n, seconds),
            "legal_mask": bench_legal_mask(n, seconds),
        }
    return out


def main(seconds: float = 3.0, player_counts: list[int] | None = None,
         output: Path | None = None) -> dict[str, Any]:
    """Run :func:`run`, print its JSON, and write it to ``output`` if given."""
    print("preparing the engine…", file=sys.stderr, flush=True)
    result = run(seconds, player_counts)
    text = json.dumps(result, indent=2)
    print(text)
    if output is not None:
        Path(output).write_text(text + "\n", encoding="utf-8")
    return result
