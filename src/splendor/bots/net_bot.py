"""The network bot: the search of :mod:`splendor.bots.net_search` guided by a policy + value
network (:mod:`splendor.bots.network`), issue 17.

``NetBot("net.npz", seconds=1.0)`` searches for one second per decision;
``NetBot(net, iterations=800)`` runs a fixed number of iterations (the same seed then gives
the same choices). Like :class:`~splendor.bots.mcts.MCTSBot` it searches from its own
observation with determinizations, so it never reads hidden information (C16, D22).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from .. import classic, duel
from ..core import seed_rng
from ..encoding import card_tables, field_offsets, observation_size
from . import net_search, search
from .mcts import SearchStats
from .network import PolicyValueNet

MAX_NODES = 2_000_000
"""The most tree nodes a search holds (each expansion adds one node per legal decision)."""


class NetBot:
    """Information-set search with a policy + value network (module docstring).

    Args:
        network: the network, or the path of its ``.npz`` file.
        seconds: time budget per decision (used when ``iterations`` is None).
        iterations: iteration budget per decision; deterministic for a given ``seed``.
        exploration: the PUCT constant ``c``.
        seed: seed of the search's generator.
        name: label for tables and records (default ``"net"``).

    Raises:
        ValueError: no budget or a non-positive one, a negative ``exploration``, or a
            network file that cannot be read (its message says why).
    """

    def __init__(
        self,
        network: PolicyValueNet | str | Path,
        *,
        seconds: float | None = 1.0,
        iterations: int | None = None,
        exploration: float = 1.5,
        seed: int | None = None,
        name: str = "net",
    ) -> None:
        if iterations is None and not (seconds is not None and seconds > 0):
            raise ValueError(f"the network bot needs a positive budget, got {seconds!r}")
        if iterations is not None and (not isinstance(iterations, int) or iterations < 1):
            raise ValueError(f"iterations must be a positive integer, got {iterations!r}")
        if not exploration >= 0.0:
            raise ValueError(f"exploration must be 0 or more, got {exploration}")
        self.net = network if isinstance(network, PolicyValueNet) else PolicyValueNet.load(network)
        self.seconds = None if iterations is not None else float(seconds or 0.0)
        self.iterations = iterations
        self.exploration = float(exploration)
        self.name = name
        self._rng = np.zeros(1, dtype=np.uint64)
        seed_rng(
            self._rng,
            int(np.random.SeedSequence(seed).generate_state(1)[0]) if seed is None else int(seed),
        )
        self.last: SearchStats | None = None

    def choose(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """Search from ``observation`` and return the most visited of ``legal_actions``
        (a single legal decision at once, without search).

        Raises:
            ValueError: ``legal_actions`` is empty, or the observation's game or player
                count is not the network's.
            TypeError: ``observation`` is not a classic or duel observation.
        """
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        links, stats = self.search(observation)
        by_id = {a.id: a for a in legal_actions}
        best = max(
            (c for c in search.root_children(links, stats[:3]) if c[0] in by_id),
            key=lambda c: (c[1], c[2]),
            default=None,
        )
        return by_id[best[0]] if best is not None else legal_actions[0]

    def search(self, observation: Any) -> tuple[np.ndarray, np.ndarray]:
        """Run one search from ``observation``; returns the tree ``(links, stats)``
        (:func:`splendor.bots.net_search.new_tree`); :attr:`last` describes it.

        Raises:
            ValueError, TypeError: as :meth:`choose`; an observation that cannot be
                determinized.
        """
        module: ModuleType
        if isinstance(observation, classic.Observation):
            game, module, kernel = "classic", classic, net_search.net_search_classic
        elif isinstance(observation, duel.Observation):
            game, module, kernel = "duel", duel, net_search.net_search_duel
        else:
            raise TypeError(
                f"NetBot plays from a classic or duel Observation, got {type(observation).__name__}"
            )
        n = observation.num_players
        if (game, n) != (self.net.game, self.net.num_players):
            raise ValueError(
                f"this bot's network plays {self.net.game} with {self.net.num_players} players, "
                f"not {game} with {n}"
            )
        obs = observation.array
        capacity = MAX_NODES if self.iterations is None else min(MAX_NODES, self.iterations * 96)
        links, stats, size = net_search.new_tree(capacity)
        work = np.zeros(1, dtype=obs.dtype)
        mask = np.zeros(module.NUM_ACTIONS, np.bool_)
        reward = np.zeros(n)
        x = np.zeros(observation_size(game, n), np.float32)
        off = field_offsets(game, n)
        policy = np.zeros(module.NUM_ACTIONS)
        value = np.zeros(n)
        weights = self.net.arrays()
        tables = card_tables(game)
        start = time.perf_counter()
        done = 0
        chunk = 16
        while True:
            want = chunk if self.iterations is None else min(chunk, self.iterations - done)
            if want <= 0:
                break
            ran = kernel(
                obs,
                work,
                mask,
                reward,
                links,
                stats,
                size,
                want,
                self.exploration,
                self._rng,
                x,
                off,
                policy,
                value,
                weights,
                tables,
            )
            if ran < 0:
                raise ValueError("inconsistent observation: it cannot be determinized")
            done += ran
            if ran < want:  # the tree is full
                break
            if self.iterations is None:
                spent = time.perf_counter() - start
                assert self.seconds is not None
                if spent >= self.seconds:
                    break
                rate = done / max(spent, 1e-6)
                chunk = int(max(1, min(rate * 0.01, rate * (self.seconds - spent))))
        elapsed = time.perf_counter() - start
        action = module.Action
        visits = {
            str(action.from_id(a)): int(v) for a, v, _ in search.root_children(links, stats[:3])
        }
        self.last = SearchStats(done, elapsed, int(size[0]), visits)
        return links, stats


__all__ = ["MAX_NODES", "NetBot"]
