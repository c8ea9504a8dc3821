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
from typing import Any

import numpy as np

from ..descriptor import Game
from ..encoding import card_tables, field_offsets
from ..game import games
from ..rng import seed_rng
from . import net_search, search
from .features import search_plan
from .mcts import MCTSBot, SearchStats
from .net_search import NetScratch, NetSearchPart
from .nets import shipped_path
from .network import WEIGHTS, PolicyValueNet

DEFAULT_EXPLORATION = 1.5
"""The PUCT constant of a network whose ``info`` names none."""

MAX_NODES = 2_000_000
"""The most tree nodes a search holds (each expansion adds one node per legal decision)."""


class NetBot:
    """Information-set search with a policy + value network (module docstring).

    Args:
        network: the network, or the path of its ``.npz`` file; None: the network that
            ships for the game and player count of each observation
            (:mod:`splendor.bots.nets`), and where none ships, :class:`MCTSBot` with the
            same budget and seed.
        seconds: time budget per decision (used when ``iterations`` is None).
        iterations: iteration budget per decision; deterministic for a given ``seed``.
        exploration: the PUCT constant ``c``; None: the network's own setting
            (``info["play"]["exploration"]``), else 1.5.
        seed: seed of the search's generator.
        name: label for tables and records (default ``"net"``).
        noise: share in [0, 1) of Dirichlet noise mixed into the priors of the root's
            decisions (AlphaZero's exploration in self-play; 0, the default, for play).
        noise_alpha: the Dirichlet distribution's concentration.
        early_stop: end a search once its choice can no longer change, as
            :class:`~splendor.bots.mcts.MCTSBot` does (:func:`splendor.bots.search.run_budget`;
            never with ``noise``, whose visit shares are training targets).
        mix: the weight in [0, 1] of a playout's reward in the evaluation of a new
            position (:mod:`splendor.bots.net_search`); 0: the network's value alone;
            None: the network's own setting (``info["play"]["mix"]``), else 0.
        max_playout: decisions per playout before the evaluation scores it; None: the
            game's default (as :class:`~splendor.bots.mcts.MCTSBot`: classic to the end of
            the game, Duel 16).
        lookahead: playout decisions played past a new position before the network's
            value is read (:mod:`splendor.bots.net_search`); None: the network's own
            setting (``info["play"]["lookahead"]``), else 0.
        temperature: the priors' temperature: the search's priors are the network's policy
            logits divided by it (above 1 flattens them, so the search looks beyond the
            network's favourite decisions); None: the network's own setting
            (``info["play"]["temperature"]``), else 1.

    Raises:
        ValueError: no budget or a non-positive one, a negative ``exploration``, a
            ``noise`` outside [0, 1) or a non-positive ``noise_alpha``, a ``mix`` outside
            [0, 1], a ``max_playout`` below 1, a negative ``lookahead``, a ``temperature``
            not above 0, or a network file that cannot be read (its message says why).
    """

    def __init__(
        self,
        network: PolicyValueNet | str | Path | None,
        *,
        seconds: float | None = 1.0,
        iterations: int | None = None,
        exploration: float | None = None,
        seed: int | None = None,
        name: str = "net",
        noise: float = 0.0,
        noise_alpha: float = 0.3,
        early_stop: bool = True,
        mix: float | None = None,
        max_playout: int | None = None,
        temperature: float | None = None,
        lookahead: int | None = None,
    ) -> None:
        if iterations is None and not (seconds is not None and seconds > 0):
            raise ValueError(f"the network bot needs a positive budget, got {seconds!r}")
        if iterations is not None and (not isinstance(iterations, int) or iterations < 1):
            raise ValueError(f"iterations must be a positive integer, got {iterations!r}")
        if exploration is not None and not exploration >= 0.0:
            raise ValueError(f"exploration must be 0 or more, got {exploration}")
        if not 0.0 <= noise < 1.0 or not noise_alpha > 0.0:
            raise ValueError(
                f"noise must be in [0, 1) and noise_alpha positive, got {noise} and {noise_alpha}"
            )
        if mix is not None and not 0.0 <= mix <= 1.0:
            raise ValueError(f"mix must be in [0, 1], got {mix}")
        if max_playout is not None and max_playout < 1:
            raise ValueError(f"max_playout must be 1 or more, got {max_playout}")
        if lookahead is not None and (not isinstance(lookahead, int) or lookahead < 0):
            raise ValueError(f"lookahead must be 0 or more decisions, got {lookahead!r}")
        self.lookahead = lookahead
        if temperature is not None and not temperature > 0.0:
            raise ValueError(f"temperature must be above 0, got {temperature}")
        self.temperature = None if temperature is None else float(temperature)
        self.mix = None if mix is None else float(mix)
        self.max_playout = max_playout
        self.noise = float(noise)
        self.early_stop = bool(early_stop) and noise == 0.0
        self.noise_alpha = float(noise_alpha)
        self.net: PolicyValueNet | None = (
            network
            if network is None or isinstance(network, PolicyValueNet)
            else PolicyValueNet.load(network)
        )
        self._shipped: dict[tuple[str, int], PolicyValueNet | MCTSBot] = {}
        self._seed = seed
        self.seconds = None if iterations is not None else float(seconds or 0.0)
        self.iterations = iterations
        self.exploration = None if exploration is None else float(exploration)
        self.name = name
        self._rng = np.zeros(1, dtype=np.uint64)
        first = (
            int(np.random.SeedSequence(seed).generate_state(1)[0]) if seed is None else int(seed)
        )
        seed_rng(self._rng, first)
        self._noise_rng = np.random.default_rng(first)
        self.last: SearchStats | None = None

    def choose(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """Search from ``observation`` and return the most visited of ``legal_actions``
        (a single legal decision at once, without search).

        Raises:
            ValueError: ``legal_actions`` is empty, or the observation's game or player
                count is not the network's.
            TypeError: ``observation`` is not an observation of a game of the project.
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

    def search(
        self,
        observation: Any,
        *,
        focus: int | None = None,
        focus_visits: int = 0,
        focus_share: float = 0.0,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Run one search from ``observation``; returns the tree ``(links, stats)``
        (:func:`splendor.bots.net_search.new_tree`); :attr:`last` describes it.

        Args:
            observation: the searching seat's observation.
            focus: an action id of the root (the move a post-game analysis judges,
                :mod:`splendor.analysis`): once the budget is spent, if its child has
                fewer than ``focus_visits`` visits or ``focus_share`` of the iterations
                run, more iterations run through it alone until it has, so its mean
                reward is measured, not guessed from a few visits. :attr:`last`
                describes the search before them (its choice).
            focus_visits, focus_share: see ``focus``.

        Raises:
            ValueError, TypeError: as :meth:`choose`; an observation that cannot be
                determinized; a ``focus`` that is not a legal decision of the root.
        """
        game = getattr(observation, "game", None)
        if game not in games() or not isinstance(observation, game.observation_type):
            raise TypeError(
                f"NetBot plays from a game's Observation, got {type(observation).__name__}"
            )
        n = observation.num_players
        net = self._network(game, n, focus)
        if isinstance(net, MCTSBot):  # no network ships for this game
            links, stats = net.search(observation)
            self.last = net.last
            return links, stats
        tree = net_search.new_tree(self._capacity(focus_visits))
        links, stats, size = tree
        part: NetSearchPart = game.part("net_search")
        obs = observation.array
        scratch = (
            obs,
            np.zeros(1, dtype=obs.dtype),
            np.zeros(game.num_actions, np.bool_),
            np.zeros(n),
        )
        buffers = self._buffers(game, n, net)
        settings = self._settings(game, net)
        start = time.perf_counter()

        def step(want: int) -> int:
            ran: int = part.run(tree, scratch, buffers, (want, *settings), self._rng)
            return ran

        done = self._run(step, links, stats, start)
        elapsed = time.perf_counter() - start
        visits = {
            str(game.action_type.from_id(a)): int(v)
            for a, v, _ in search.root_children(links, stats[:3])
        }
        self.last = SearchStats(done, elapsed, int(size[0]), visits)
        if focus is not None:
            focus_on(links, stats, focus, max(focus_visits, int(focus_share * done)), step)
        return links, stats

    def _network(self, game: Game, n: int, focus: int | None) -> PolicyValueNet | MCTSBot:
        """The network that searches ``game`` with ``n`` players: this bot's, else the
        shipped one, else the MCTS bot that stands in for it.

        Raises:
            ValueError: this bot's network plays another game or player count; no network
                ships for it and ``focus`` is asked for.
        """
        if self.net is None:
            chosen = self._shipped_for(game.package, n)
            if isinstance(chosen, MCTSBot) and focus is not None:
                raise ValueError(f"no network ships for {game.package} with {n} players")
            return chosen
        if (game.package, n) != (self.net.game, self.net.num_players):
            raise ValueError(
                f"this bot's network plays {self.net.game} with {self.net.num_players} "
                f"players, not {game.package} with {n}"
            )
        return self.net

    def _capacity(self, focus_visits: int) -> int:
        """The tree's nodes: about 96 per iteration with an iteration budget (each
        expansion adds one node per legal decision), at most :data:`MAX_NODES`."""
        if self.iterations is None:
            return MAX_NODES
        return min(MAX_NODES, (self.iterations + max(0, focus_visits)) * 96)

    def _buffers(self, game: Game, n: int, net: PolicyValueNet) -> NetScratch:
        """The network's buffers and arrays for the compiled search
        (:data:`splendor.bots.net_search.NetScratch`)."""
        play = net.info.get("play") or {}
        temperature = _setting(self.temperature, play, "temperature", 1.0)
        return (
            np.zeros(net.input_size, np.float32),
            field_offsets(game, n),
            np.zeros(game.num_actions),
            np.zeros(n),
            tempered(net, temperature),
            search_plan(game.package, n, net.features),
            card_tables(game),
        )

    def _settings(self, game: Game, net: PolicyValueNet) -> tuple[float, float, int, int]:
        """``(c, mix, max_playout, lookahead)`` of the compiled search
        (:data:`splendor.bots.net_search.NetSettings` without the iterations): this bot's
        settings, else the network's ``info["play"]``, else the defaults (the playouts'
        length: the game's, from its ``"search"`` part)."""
        play = net.info.get("play") or {}
        exploration = _setting(self.exploration, play, "exploration", DEFAULT_EXPLORATION)
        mix = _setting(self.mix, play, "mix", 0.0)
        lookahead = int(_setting(self.lookahead, play, "lookahead", 0))
        depth: int = self.max_playout or game.part("search").depth
        return exploration, mix, depth, lookahead

    def _run(self, step: Any, links: np.ndarray, stats: np.ndarray, start: float) -> int:
        """Run the search's budget (:func:`splendor.bots.search.run_budget`), the root
        first when noise is mixed into its priors; returns the iterations run."""
        done = 0
        if self.noise > 0.0:  # expand the root, then mix the noise into its priors
            done = search.run_budget(
                step, links, stats, seconds=self.seconds, iterations=1, early_stop=False
            )
            self._mix_noise(links, stats)
        if self.iterations is None or done < self.iterations:
            spent = time.perf_counter() - start
            done += search.run_budget(
                step,
                links,
                stats,
                seconds=None if self.seconds is None else max(1e-6, self.seconds - spent),
                iterations=None if self.iterations is None else self.iterations - done,
                early_stop=self.early_stop,
                chunk=16,
            )
        return done

    def _shipped_for(self, game: str, players: int) -> PolicyValueNet | MCTSBot:
        """The shipped network of ``game`` with ``players`` players, or the MCTS bot that
        stands in for it (loaded once)."""
        key = (game, players)
        if key not in self._shipped:
            path = shipped_path(game, players)
            self._shipped[key] = (
                PolicyValueNet.load(path)
                if path is not None
                else MCTSBot(
                    seconds=self.seconds,
                    iterations=self.iterations,
                    seed=self._seed,
                    name=self.name,
                )
            )
        return self._shipped[key]

    def _mix_noise(self, links: np.ndarray, stats: np.ndarray) -> None:
        """Mix Dirichlet noise into the priors of the root's children (``noise`` share)."""
        children = []
        ch = int(links[search.T_CHILD, 0])
        while ch != search.NO_NODE:
            children.append(ch)
            ch = int(links[search.T_SIBLING, ch])
        if len(children) < 2:
            return
        eta = self._noise_rng.dirichlet([self.noise_alpha] * len(children))
        for k, node in enumerate(children):
            prior = stats[net_search.S_PRIOR, node]
            stats[net_search.S_PRIOR, node] = (1.0 - self.noise) * prior + self.noise * eta[k]


def _setting(mine: float | None, play: dict[str, Any], key: str, default: float) -> float:
    """A bot's setting ``mine``, else the network's ``play[key]``, else ``default``."""
    return float(mine) if mine is not None else float(play.get(key, default))


def focus_on(
    links: np.ndarray,
    stats: np.ndarray,
    action: int,
    visits: int,
    step: Any,
) -> int:
    """Run iterations through the root's child of ``action`` alone until it has
    ``visits`` visits (:meth:`NetBot.search`'s ``focus``); returns how many ran.

    The other children of the root are made unselectable for the while (a mean reward far
    below any real one) and then given back their statistics exactly, so the tree is the
    one a search would hold had those iterations chosen ``action`` at the root.

    Raises:
        ValueError: ``action`` has no child at the root (not a legal decision there).
    """
    target = search.NO_NODE
    others: list[int] = []
    ch = int(links[search.T_CHILD, 0])
    while ch != search.NO_NODE:
        if int(links[search.T_ACTION, ch]) == action:
            target = ch
        else:
            others.append(ch)
        ch = int(links[search.T_SIBLING, ch])
    if target == search.NO_NODE:
        raise ValueError(f"action id {action} is not a legal decision of the searched position")
    missing = int(visits - stats[net_search.S_VISITS, target])
    if missing <= 0:
        return 0
    saved = stats[:, others].copy()
    stats[net_search.S_VISITS, others] = np.maximum(saved[net_search.S_VISITS], 1.0)
    stats[net_search.S_REWARD, others] = -1e12
    try:
        done = 0
        while done < missing:
            ran = int(step(min(64, missing - done)))
            if ran <= 0:
                if ran < 0:
                    raise ValueError("inconsistent observation: it cannot be determinized")
                break
            done += ran
    finally:
        stats[:, others] = saved
    return done


def tempered(net: PolicyValueNet, temperature: float) -> tuple[np.ndarray, ...]:
    """``net``'s arrays (:meth:`PolicyValueNet.arrays`) with the policy head divided by
    ``temperature``: the policy of the result is the softmax of the logits over
    ``temperature`` (the same arrays, not copies, at 1).

    Raises:
        ValueError: ``temperature`` not above 0.
    """
    if not temperature > 0.0:
        raise ValueError(f"temperature must be above 0, got {temperature}")
    if temperature == 1.0:
        return net.arrays()
    t = np.float32(temperature)
    return tuple(getattr(net, k) / t if k in ("wp", "bp") else getattr(net, k) for k in WEIGHTS)


def warm_up() -> None:
    """Compile the network search's kernel for each game (or load it from numba's cache):
    one search each, as features and ``mix`` are values of the same types for every
    network, not new signatures."""
    for game in games():
        net = PolicyValueNet.initial(game.package, 2, (4, 4), seed=0, features=True)
        NetBot(net, iterations=8, seed=0, mix=0.5).search(game.new_game(2, 0).observation(0))


__all__ = ["DEFAULT_EXPLORATION", "MAX_NODES", "NetBot", "focus_on", "tempered", "warm_up"]
