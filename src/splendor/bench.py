"""Random-playout speed of the engines (``make bench``, ``splendor bench``).

For each game and player count (classic: 2, 3, 4; Duel: 2), uniformly random games (a
uniform choice among the legal decisions at every decision) are played for a fixed time,
twice:

- ``compiled``: the whole playout loop runs in numba (``rules.random_playout``); only the
  loop over games is Python.
- ``python_api``: driven from Python through the public API, ``legal_actions()`` then
  ``apply()`` on a ``State``.

Reported per game and player count: games/s, turns/s (a turn is one seat's whole turn:
C6-C12; D6-D20, an ``again`` extra turn counting as a turn), decisions/s (every decision:
main actions plus payment, return, noble, privilege, joker, token, steal and royal
choices), mean turns per game, share of unfinished games (classic: stalled by C17, key
``stalled_share``; Duel: stopped by the benchmark's turn cap of :data:`TURN_CAP`, D25,
key ``capped_share``), and the cost of one legal-mask call in µs (compiled kernel alone, and
through ``State.legal_mask()``). Everything runs on one core.

``greedy``: decisions per second of the greedy bot and its mean milliseconds per decision,
over the positions of random games (the bot's own choices are not played, so the positions
are varied).

``mcts``: information-set MCTS iterations per second (:mod:`splendor.bots.mcts`), from the
opening and from positions 20 and 40 decisions into random games, once with uniformly
random full playouts (the issue's target: at least 2,000 iterations/s, 2-player classic),
once with the cheap heuristic playouts (classic to the end, Duel cut off after 16 decisions
and evaluated) and once with the bot's default configuration (classic: greedy playouts to
the end; Duel: the heuristic ones, so the same as the row before). Beside them, the network
search's iterations per second (issue 17) with a network of the default shape: its value
alone, and its priors with the default playouts.

Every figure is measured on the process's CPU time (:func:`time.process_time`), not the
wall clock, so a machine busy with other work does not lower it (on wall-clock time a
loaded 2-core machine read 15-20% low). Time-budgeted searches still stop on the wall
clock; their iterations are divided by the CPU time they took.
"""

from __future__ import annotations

import json
import os
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from .classic import rules as classic_rules
from .classic.actions import NUM_ACTIONS as CLASSIC_ACTIONS
from .descriptor import Game
from .duel import rules as duel_rules
from .duel.actions import NUM_ACTIONS as DUEL_ACTIONS
from .game import games, get_game
from .jit import ENGINE_SOURCES, refresh_numba_cache, state_record

refresh_numba_cache(__file__, *ENGINE_SOURCES)

GAMES = tuple(g.package for g in games())
"""Games the benchmark measures, in report order (their package names, the report's keys)."""
TURN_CAP = 1000
"""Turn cap (D25) of the benchmark games of a game that has one (Duel), so that every
random game ends."""
DUEL_TURN_CAP = TURN_CAP
"""Deprecated name of :data:`TURN_CAP`."""


@njit(cache=True)
def _classic_games(
    arr: np.ndarray,
    num_players: int,
    first_seed: int,
    n_games: int,
    rng: np.ndarray,
    stats: np.ndarray,
) -> None:
    """Play ``n_games`` random classic games in ``arr``; add decisions, turns and stalled
    games (C17) to ``stats``."""
    for g in range(n_games):
        classic_rules.setup(arr, num_players, first_seed + g)
        stats[0] += classic_rules.random_playout(arr, rng, 1 << 30)
        s = state_record(arr)
        stats[1] += s.turn
        if s.end_reason == classic_rules.END_STALL:
            stats[2] += 1


@njit(cache=True)
def _duel_games(
    arr: np.ndarray,
    num_players: int,
    first_seed: int,
    n_games: int,
    rng: np.ndarray,
    stats: np.ndarray,
) -> None:
    """Play ``n_games`` random duel games in ``arr``; add decisions, turns and capped games
    (D25) to ``stats``. ``num_players`` is always 2 (same signature as the classic loop)."""
    for g in range(n_games):
        duel_rules.setup(arr, first_seed + g, TURN_CAP)
        stats[0] += duel_rules.random_playout(arr, rng, 1 << 30)
        s = state_record(arr)
        stats[1] += s.turn
        if s.end_reason == duel_rules.END_CAP:
            stats[2] += 1


@njit(cache=True)
def _classic_mask_loop(states: np.ndarray, reps: int) -> int:
    """Call ``legal_mask`` ``reps`` times over every sampled state; return a checksum."""
    mask = np.zeros(CLASSIC_ACTIONS, dtype=np.bool_)
    total = 0
    for _ in range(reps):
        for i in range(states.shape[0]):
            total += classic_rules.legal_mask(states[i : i + 1], mask)
    return total


@njit(cache=True)
def _duel_mask_loop(states: np.ndarray, reps: int) -> int:
    """Call ``legal_mask`` ``reps`` times over every sampled state; return a checksum."""
    mask = np.zeros(DUEL_ACTIONS, dtype=np.bool_)
    total = 0
    for _ in range(reps):
        for i in range(states.shape[0]):
            total += duel_rules.legal_mask(states[i : i + 1], mask)
    return total


class BenchSide(NamedTuple):
    """What the benchmark needs of one game besides its descriptor: the game's ``"bench"``
    part (:data:`CLASSIC_BENCH`, :data:`DUEL_BENCH`).

    Attributes:
        games_loop: ``games_loop(arr, num_players, first_seed, n_games, rng, stats)``,
            compiled: deals and plays ``n_games`` random games, adding decisions, turns and
            unfinished games to ``stats``.
        mask_loop: ``mask_loop(states, reps) -> checksum``, compiled: ``legal_mask`` over
            every state, ``reps`` times.
        unfinished_key: the report's key of the share of unfinished games.
        unfinished_reason: the ``end_reason`` of an unfinished game.
    """

    games_loop: Any
    mask_loop: Any
    unfinished_key: str
    unfinished_reason: str


CLASSIC_BENCH = BenchSide(_classic_games, _classic_mask_loop, "stalled_share", "stall")
"""Classic Splendor's ``"bench"`` part (games stalled by C17 are unfinished)."""
DUEL_BENCH = BenchSide(_duel_games, _duel_mask_loop, "capped_share", "turn cap")
"""Splendor Duel's ``"bench"`` part (games stopped by :data:`TURN_CAP` are unfinished)."""


class _Game:
    """What the benchmark needs of one game: its descriptor and its ``"bench"`` part.

    Raises:
        ValueError: an unknown game.
    """

    def __init__(self, name: str | Game) -> None:
        self.game = get_game(name)
        self.name = self.game.package
        side: BenchSide = self.game.part("bench")
        self.games_loop = side.games_loop
        self.mask_loop = side.mask_loop
        self.unfinished_key = side.unfinished_key
        self.unfinished_reason = side.unfinished_reason
        option = self.game.turn_option
        self.options: dict[str, Any] = {} if option is None else {option: TURN_CAP}

    def new_game(self, num_players: int, seed: int) -> Any:
        return self.game.new_game(num_players, seed, **self.options)


def _sample_states(game: _Game, num_players: int, count: int, seed: int) -> np.ndarray:
    """Positions met in random games (all phases), for timing legal-mask calls."""
    out = np.zeros(count, dtype=game.game.state_dtype)
    rng = np.ones(1, dtype=np.uint64) * np.uint64(seed + 1)
    pyrng = random.Random(seed)
    k = 0
    g = 0
    while k < count:
        st = game.new_game(num_players, seed + g)
        g += 1
        while not st.is_terminal and k < count:
            if pyrng.random() < 0.2:
                out[k] = st._a[0]
                k += 1
            game.game.kernels.random_playout(st._a, rng, 1)
    return out


def bench_compiled(num_players: int, seconds: float, game: str = "classic") -> dict[str, float]:
    """Compiled random playouts of ``game`` for ``seconds``; returns the figures."""
    g = _Game(game)
    arr = np.zeros(1, dtype=g.game.state_dtype)
    rng = np.array([12345], dtype=np.uint64)
    stats = np.zeros(3, dtype=np.int64)
    g.games_loop(arr, num_players, 0, 2, rng, stats)  # compile / load cache
    stats[:] = 0
    games = 0
    batch = 50
    t0 = time.process_time()
    while True:
        g.games_loop(arr, num_players, 1000 + games, batch, rng, stats)
        games += batch
        el = time.process_time() - t0
        if el >= seconds:
            break
    return _figures(g, games, int(stats[0]), int(stats[1]), int(stats[2]), el)


def bench_python_api(num_players: int, seconds: float, game: str = "classic") -> dict[str, float]:
    """Random games of ``game`` through ``State.legal_actions()`` + ``State.apply()``."""
    g = _Game(game)
    pick = random.Random(7)
    games = decisions = turns = unfinished = 0
    t0 = time.process_time()
    while True:
        st = g.new_game(num_players, 5000 + games)
        while not st.is_terminal:
            legal = st.legal_actions()
            st.apply(legal[pick.randrange(len(legal))])
            decisions += 1
        turns += st.turn
        unfinished += st.end_reason == g.unfinished_reason
        games += 1
        el = time.process_time() - t0
        if el >= seconds:
            break
    return _figures(g, games, decisions, turns, unfinished, el)


def bench_legal_mask(num_players: int, seconds: float, game: str = "classic") -> dict[str, float]:
    """µs per legal-mask call: the compiled kernel alone, and via ``State.legal_mask()``."""
    g = _Game(game)
    states = _sample_states(g, num_players, 2000, 99)
    g.mask_loop(states[:2], 1)
    reps = 1
    while True:
        t0 = time.process_time()
        g.mask_loop(states, reps)
        el = time.process_time() - t0
        if el >= seconds / 2 or reps >= 1 << 20:
            break
        reps *= 2
    kernel_us = el / (reps * len(states)) * 1e6
    views = [g.game.state_type(states[i : i + 1].copy()) for i in range(len(states))]
    calls = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds / 2:
        for v in views:
            v.legal_mask()
        calls += len(views)
    api_us = (time.process_time() - t0) / calls * 1e6
    return {"kernel_us": round(kernel_us, 3), "state_legal_mask_us": round(api_us, 3)}


def bench_mcts(num_players: int, seconds: float, game: str = "classic") -> dict[str, float]:
    """MCTS iterations per second of search (one search per position, ``seconds / 6`` each)
    for random full playouts and for the default bot."""
    from .bots.mcts import MCTSBot

    g = _Game(game)
    positions = []
    for depth in (0, 20, 40):
        st = g.new_game(num_players, 77 + depth)
        pick = random.Random(depth)
        for _ in range(depth):
            if st.is_terminal:
                break
            legal = st.legal_actions()
            st.apply(legal[pick.randrange(len(legal))])
        positions.append(st)
    for playout in ("random", "heuristic", None):  # compile / load
        MCTSBot(iterations=8, seed=0, playout=playout).search(positions[0].observation(0))
    out: dict[str, float] = {}
    for key, kwargs in (
        ("random_full_playouts_per_s", {"playout": "random", "max_playout": 0}),
        ("heuristic_playouts_per_s", {"playout": "heuristic"}),
        ("default_bot_per_s", {}),
    ):
        iterations = 0
        spent = 0.0
        for st in positions:
            bot = MCTSBot(seconds=seconds / 6, seed=1, early_stop=False, **kwargs)
            t0 = time.process_time()
            bot.search(st.observation(st.current_player))
            spent += time.process_time() - t0
            assert bot.last is not None
            iterations += bot.last.iterations
        out[key] = round(iterations / spent, 1)
    out.update(_bench_net_search(g, num_players, positions, seconds))
    return out


def _bench_net_search(
    g: _Game, num_players: int, positions: list[Any], seconds: float
) -> dict[str, float]:
    """Iterations per second of the network search (:mod:`splendor.bots.net_search`) with
    a network of the default shape (random weights: the speed does not depend on them),
    over the same positions: the network's value alone (``mix = 0``), its priors with
    the playouts of ``mcts`` (``mix = 1``), and the setting of the shipped networks: the
    reach features read (:mod:`splendor.bots.features`) and value and playouts blended
    half and half (``net_features_half_per_s``); and the network shipped for the game and
    player count, played as it ships (``net_shipped_per_s``; absent where none ships)."""
    from .bots.net_bot import NetBot
    from .bots.nets import shipped_path
    from .bots.network import PolicyValueNet

    game = g.name
    plain = PolicyValueNet.initial(game, num_players, (256, 128), 0)
    reach = PolicyValueNet.initial(game, num_players, (256, 128), 0, features=True)
    settings: list[tuple[str, PolicyValueNet, float | None]] = [
        ("net_value_per_s", plain, 0.0),
        ("net_priors_playouts_per_s", plain, 1.0),
        ("net_features_half_per_s", reach, 0.5),
    ]
    path = shipped_path(game, num_players)
    if path is not None:
        settings.append(("net_shipped_per_s", PolicyValueNet.load(path), None))
    out: dict[str, float] = {}
    for key, net, mix in settings:
        NetBot(net, iterations=8, seed=0, mix=mix).search(positions[0].observation(0))
        iterations, spent = 0, 0.0
        for st in positions:
            bot = NetBot(net, seconds=seconds / 6, seed=1, early_stop=False, mix=mix)
            t0 = time.process_time()
            bot.search(st.observation(st.current_player))
            spent += time.process_time() - t0
            assert bot.last is not None
            iterations += bot.last.iterations
        out[key] = round(iterations / spent, 1)
    return out


def bench_greedy(num_players: int, seconds: float, game: str = "classic") -> dict[str, float]:
    """Decisions per second of the greedy bot (:class:`splendor.bots.greedy.GreedyBot`, the
    ``greedy`` seats and the MCTS rollouts' policy) and its mean time per decision, over
    the positions of random games played until ``seconds`` of its thinking are spent (its
    kernels compiled first, outside the clock)."""
    from .bots.greedy import GreedyBot

    g = _Game(game)
    bot = GreedyBot(0)
    warm = g.new_game(num_players, 1)
    bot.choose(warm.observation(warm.current_player), warm.legal_actions())
    pick = random.Random(5)
    spent, decisions, seed = 0.0, 0, 100
    while spent < seconds:
        st = g.new_game(num_players, seed)
        seed += 1
        while not st.is_terminal and spent < seconds:
            legal = st.legal_actions()
            obs = st.observation(st.current_player)
            t0 = time.process_time()
            bot.choose(obs, legal)
            spent += time.process_time() - t0
            decisions += 1
            st.apply(legal[pick.randrange(len(legal))])
    return {
        "decisions_per_s": round(decisions / spent, 1),
        "mean_ms": round(1000 * spent / decisions, 3),
    }


def _figures(
    game: _Game, games: int, decisions: int, turns: int, unfinished: int, el: float
) -> dict[str, float]:
    return {
        "games": games,
        "seconds": round(el, 3),
        "games_per_s": round(games / el, 1),
        "turns_per_s": round(turns / el, 1),
        "decisions_per_s": round(decisions / el, 1),
        "mean_turns_per_game": round(turns / games, 2),
        game.unfinished_key: round(unfinished / games, 4),
    }


def _player_counts(game: Game, player_counts: list[int] | None) -> list[int]:
    """The player counts to measure ``game`` with: ``player_counts`` (default: all of them)
    for a game with several, its only one otherwise.

    Raises:
        ValueError: a count the game does not allow.
    """
    allowed = game.player_counts
    if len(allowed) == 1:
        return list(allowed)
    counts = list(player_counts or allowed)
    for n in counts:
        if n not in allowed:
            words = ", ".join(map(str, allowed[:-1])) + f" or {allowed[-1]}"
            raise ValueError(f"{game.title} player counts are {words}, got {n}")
    return counts


def run(
    seconds: float = 3.0, player_counts: list[int] | None = None, games: list[str] | None = None
) -> dict[str, Any]:
    """All figures as a JSON-able dict (see the module docstring): ``{"classic": {"2":
    {...}, ...}, "duel": {"2": {...}}}`` (keyed by the games' package names) plus the
    machine's description. ``player_counts`` applies to the games with several (classic;
    Duel is always 2 players).

    Raises:
        ValueError: an unknown game or a player count outside a chosen game's range.
    """
    chosen = [_Game(name) for name in (games or list(GAMES))]
    counts = {g.name: _player_counts(g.game, player_counts) for g in chosen}
    try:  # one core, as the targets are stated
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    except (AttributeError, OSError):
        pass
    import numba

    out: dict[str, Any] = {
        "benchmark": "random playouts",
        "python": sys.version.split()[0],
        "numba": numba.__version__,
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "seconds_per_measurement": seconds,
    }
    for g in chosen:
        name = g.name
        out[name] = {}
        for n in counts[name]:
            out[name][str(n)] = {
                "compiled": bench_compiled(n, seconds, name),
                "python_api": bench_python_api(n, seconds, name),
                "legal_mask": bench_legal_mask(n, seconds, name),
                "mcts": bench_mcts(n, seconds, name),
                "greedy": bench_greedy(n, seconds, name),
            }
    return out


def main(
    seconds: float = 3.0,
    player_counts: list[int] | None = None,
    output: Path | None = None,
    games: list[str] | None = None,
) -> dict[str, Any]:
    """Run :func:`run`, print its JSON, and write it to ``output`` if given."""
    print("preparing the engine…", file=sys.stderr, flush=True)
    result = run(seconds, player_counts, games)
    text = json.dumps(result, indent=2)
    print(text)
    if output is not None:
        Path(output).write_text(text + "\n", encoding="utf-8")
    return result
