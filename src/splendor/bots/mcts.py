"""The MCTS bot: information-set Monte Carlo tree search for both games.

``MCTSBot(seconds=1.0)`` searches for one second per decision; ``MCTSBot(iterations=5000)``
runs a fixed number of iterations (the same seed then gives the same choices). The search
itself is compiled (:mod:`splendor.bots.search`): it runs over the engine's state arrays,
never through the Python object API, and samples a determinization of the bot's own
observation every iteration, so it never reads hidden information (C16, D22).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..game import games
from ..rng import seed_rng
from . import search
from .search import SearchPart

PLAYOUTS = ("greedy", "heuristic", "random")
"""Playout policies: greedy's evaluation compiled, a cheap rule of thumb, uniform random."""


@dataclass(frozen=True)
class SearchStats:
    """What the last search did.

    Attributes:
        iterations: iterations run.
        seconds: wall-clock time of the search.
        nodes: tree nodes used.
        visits: ``{notation: visits}`` of the root's decisions.
    """

    iterations: int
    seconds: float
    nodes: int
    visits: dict[str, int]

    @property
    def iterations_per_second(self) -> float:
        """Iterations per second of search (0 when nothing ran)."""
        return self.iterations / self.seconds if self.seconds > 0 else 0.0


class MCTSBot:
    """Information-set MCTS (SO-ISMCTS with max-n rewards) for classic Splendor and
    Splendor Duel; see :mod:`splendor.bots.search` for the algorithm.

    Args:
        seconds: time budget per decision in seconds (used when ``iterations`` is None).
        iterations: iteration budget per decision; deterministic for a given ``seed``.
        playout: ``"greedy"`` (both sides play greedy's evaluation, compiled:
            :mod:`splendor.bots.greedy_compiled`, :mod:`splendor.bots.greedy_duel_compiled`),
            ``"heuristic"`` (buy the best card, else take tokens) or ``"random"`` (uniform
            legal decisions); None (default): the game's, from its ``"search"`` part
            (greedy for classic, heuristic for Duel).
        seed: seed of the search's generator.
        name: label for tables and records (default ``"mcts"``).
        exploration: the UCB constant ``c`` (rewards are in [0, 1]); default per game
            (classic 0.4, Duel 0.7; see docs/bots.md for the trials behind them).
        max_playout: decisions per playout before it is cut off and scored by the
            evaluation of :mod:`splendor.bots.playout`; 0 plays to the end of the game.
            Default per game, from measured strength against greedy: classic to the end,
            Duel 16 decisions.
        margin: weight in [0, 1] of the evaluation blended into the reward of a finished
            playout (0: win/loss only); default per game (see docs/bots.md).
        early_stop: end a search as soon as the most visited decision at the root leads
            the runner-up by more visits than the rest of the budget can give (the choice
            can no longer change; with a time budget the rest is estimated from the rate so
            far, with a 5% margin). ``last.iterations`` then counts the iterations run.

    Raises:
        ValueError: no budget, a non-positive budget, a negative ``max_playout`` or
            ``exploration``, a ``margin`` outside [0, 1] or an unknown playout.
    """

    def __init__(
        self,
        *,
        seconds: float | None = 1.0,
        iterations: int | None = None,
        playout: str | None = None,
        seed: int | None = None,
        name: str = "mcts",
        exploration: float | None = None,
        max_playout: int | None = None,
        early_stop: bool = True,
        margin: float | None = None,
    ) -> None:
        if iterations is None and seconds is None:
            raise ValueError("MCTS needs a budget: seconds or iterations")
        if iterations is not None and (not isinstance(iterations, int) or iterations < 1):
            raise ValueError(f"iterations must be a positive integer, got {iterations!r}")
        if iterations is None and not (seconds is not None and seconds > 0):
            raise ValueError(f"seconds must be positive, got {seconds!r}")
        if playout is not None and playout not in PLAYOUTS:
            raise ValueError(f"unknown playout {playout!r}; known: {', '.join(PLAYOUTS)}")
        self.name = name
        self.seconds: float | None = None  # the time budget, when there is no iteration budget
        if iterations is None:
            assert seconds is not None  # checked above
            self.seconds = float(seconds)
        self.iterations = iterations
        self.playout = playout
        if exploration is not None and not exploration >= 0.0:
            raise ValueError(f"exploration must be 0 or more, got {exploration}")
        self.exploration = None if exploration is None else float(exploration)
        if max_playout is not None and max_playout < 0:
            raise ValueError(
                f"max_playout must be 0 (play to the end) or positive, got {max_playout}"
            )
        self.max_playout = max_playout
        self.early_stop = bool(early_stop)
        if margin is not None and not 0.0 <= margin <= 1.0:
            raise ValueError(f"margin must be in [0, 1], got {margin}")
        self.margin = None if margin is None else float(margin)
        self._rng = np.zeros(1, dtype=np.uint64)
        seed_rng(
            self._rng,
            int(np.random.SeedSequence(seed).generate_state(1)[0]) if seed is None else int(seed),
        )
        self.last: SearchStats | None = None

    def choose(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """Search from ``observation`` and return the most visited of ``legal_actions``.

        A single legal decision is returned at once, without search.

        Raises:
            ValueError: ``legal_actions`` is empty.
            TypeError: ``observation`` is not an observation of a game of the project.
        """
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        stats = self.search(observation)
        by_id = {a.id: a for a in legal_actions}
        best = max(
            (c for c in search.root_children(*stats) if c[0] in by_id),
            key=lambda c: (c[1], c[2]),
            default=None,
        )
        return by_id[best[0]] if best is not None else legal_actions[0]

    def search(self, observation: Any) -> tuple[np.ndarray, np.ndarray]:
        """Run one search from ``observation`` and return the tree ``(links, stats)``
        (see :func:`splendor.bots.search.new_tree`); :attr:`last` describes it. The game's
        ``"search"`` part (:class:`splendor.bots.search.SearchPart`) gives the compiled
        search and the defaults of the settings left at None.

        Raises:
            ValueError: the observation is inconsistent (cannot be determinized).
            TypeError: ``observation`` is not an observation of a game of the project.
        """
        game = getattr(observation, "game", None)
        if game not in games() or not isinstance(observation, game.observation_type):
            raise TypeError(
                f"MCTSBot plays from a game's Observation, got {type(observation).__name__}"
            )
        part: SearchPart = game.part("search")
        tree = search.new_tree(self._capacity())
        links, stats, size = tree
        obs = observation.array
        scratch = (
            obs,
            np.zeros(1, dtype=game.state_dtype),
            np.zeros(game.num_actions, dtype=np.bool_),
            np.zeros(game.max_players, dtype=np.float64),
        )
        settings = self._settings(part)
        start = time.perf_counter()

        def step(want: int) -> int:
            n: int = part.mcts(tree, scratch, (want, *settings), self._rng)
            return n

        done = search.run_budget(
            step,
            links,
            stats,
            seconds=self.seconds,
            iterations=self.iterations,
            early_stop=self.early_stop,
        )
        elapsed = time.perf_counter() - start
        visits = {
            str(game.action_type.from_id(a)): int(n)
            for a, n, _ in search.root_children(links, stats)
        }
        self.last = SearchStats(done, elapsed, int(size[0]), visits)
        return links, stats

    def _capacity(self) -> int:
        """The tree's nodes: one per iteration (and the root) with an iteration budget,
        else an estimate from the time budget."""
        if self.iterations is not None:
            return self.iterations + 1
        assert self.seconds is not None  # a bot has an iteration or a time budget
        return int(min(8_000_000, max(10_000, self.seconds * 200_000)))

    def _settings(self, part: SearchPart) -> tuple[float, int, int, float]:
        """``(c, max_playout, playout, margin)`` of the compiled search
        (:data:`splendor.bots.search.SearchSettings` without the iterations): this bot's
        settings, the game's defaults (``part``) for those left at None."""
        policy = part.policy if self.playout is None else self.playout
        depth = part.max_playout if self.max_playout is None else self.max_playout
        exploration = part.exploration if self.exploration is None else self.exploration
        margin = part.margin if self.margin is None else self.margin
        return exploration, depth or (1 << 30), search.PLAYOUT_CODES[policy], margin


def warm_up() -> None:
    """Compile the search kernels of every game (or load them from numba's cache)."""
    for game in games():
        st = game.deal(game.min_players, 0)
        for playout in PLAYOUTS:
            MCTSBot(iterations=4, seed=0, playout=playout).search(st.observation(0))
