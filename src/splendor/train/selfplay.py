"""Self-play games for training the policy + value network (issue 17).

Every decision of a training game is searched from the mover's own observation (C16, D22)
by a *searcher*: :class:`~splendor.bots.net_bot.NetBot` (self-play, the network guides the
search) or :class:`~splendor.bots.mcts.MCTSBot` (a *teacher*: expert iteration starts
from today's search, whose visit shares the first network learns). The search's visit
counts at the root become the policy target ``pi``, and the game's outcome (1 shared by
the winners, 0 otherwise, seat-relative to the mover) the value target ``z``, or a blend of
it with the search's own value of the position (``search_value``: the mean reward of the
root's decisions weighted by their visits, for the mover; the other seats share the rest
equally). The outcome is one noisy bit shared by a whole game, which a network memorises
from a few hundred games; the search's value differs from position to position. The first
decisions of a game are sampled from ``pi`` (exploration), the later ones are its most
visited decision. Decisions with a single legal choice are played without search and give
no example.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from ..bots import search as _search
from ..encoding import seat_tensor
from ..game import get_game


class Searcher(Protocol):
    """A bot whose search returns its tree: ``search(observation) -> (links, stats)``
    (:func:`splendor.bots.search.new_tree`; ``stats`` may hold more rows)."""

    def search(self, observation: Any) -> tuple[np.ndarray, np.ndarray]: ...


@dataclass(frozen=True)
class Examples:
    """Training examples, one row per searched decision.

    Attributes:
        x: the mover's observation tensors, ``float32 (N, n_in)``.
        mask: its legal decisions, ``bool (N, NUM_ACTIONS)``.
        pi: the search's visit shares, ``float32 (N, NUM_ACTIONS)`` (rows sum to 1).
        z: the outcome per seat, seat-relative to the mover, ``float32 (N, num_players)``.
    """

    x: np.ndarray
    mask: np.ndarray
    pi: np.ndarray
    z: np.ndarray

    def __len__(self) -> int:
        return int(self.x.shape[0])

    @staticmethod
    def concat(parts: list[Examples]) -> Examples:
        """All rows of ``parts``, in order (``parts`` must not be empty)."""
        return Examples(*(np.concatenate([getattr(p, k) for p in parts]) for k in FIELDS))

    def tail(self, n: int) -> Examples:
        """The last ``n`` rows (all when there are fewer)."""
        return Examples(*(getattr(self, k)[-n:] for k in FIELDS))


FIELDS = ("x", "mask", "pi", "z")


def outcome_of(winners: list[int], num_players: int) -> np.ndarray:
    """A game's outcome per seat, ``float32 (num_players,)``: 1 shared equally by the
    ``winners`` (C15, D21), and ``1 / num_players`` each when there are none (a game stopped
    before its end)."""
    outcome = np.zeros(num_players, np.float32)
    for w in winners:
        outcome[w] = 1.0 / len(winners)
    if not winners:
        outcome[:] = 1.0 / num_players  # no winner: every seat shares the game
    return outcome


def seat_relative(outcome: np.ndarray, movers: list[int]) -> np.ndarray:
    """``outcome`` (per seat, ``(n,)``) seen from each mover: ``float32 (len(movers), n)``,
    row ``i`` column ``k`` the value of seat ``(movers[i] + k) % n`` (column 0: the mover)."""
    n = len(outcome)
    rows = [[outcome[(m + k) % n] for k in range(n)] for m in movers]
    return np.array(rows, np.float32).reshape(len(movers), n)


def self_play(
    searcher: Searcher,
    game: str,
    num_players: int,
    *,
    seed: int,
    explore_decisions: int = 20,
    max_decisions: int = 400,
    search_value: float = 0.0,
) -> tuple[Examples, list[str], list[int]]:
    """Play one training game, every seat searched by ``searcher`` (module docstring).

    Args:
        searcher: the bot searching every decision (a NetBot or an MCTSBot).
        game: a name of :func:`splendor.game.get_game` (``"classic"``, ``"duel"``...);
            ``num_players``: its player count.
        seed: the deal and the sampling of the first decisions (with a deterministic
            searcher, the same seed gives the same game).
        explore_decisions: decisions (of the whole game) sampled from the visit shares.
        max_decisions: a game still going after this many decisions stops; nobody won it.
        search_value: the weight in [0, 1] of the search's value in the value target.

    Returns:
        ``(examples, actions, winners)``: the examples, every decision in notation, and the
        winning seats (``[]`` for a game stopped by ``max_decisions``).
    """
    found = get_game(game)
    state = found.new_game(num_players, seed)
    rng = np.random.default_rng(seed)
    rows = _SearchedRows(found.num_actions)
    actions: list[str] = []
    while not state.is_terminal and len(actions) < max_decisions:
        legal = state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        else:
            pi = rows.search(searcher, state, legal)
            if len(actions) < explore_decisions:
                p = pi.astype(np.float64)
                choice = int(rng.choice(found.num_actions, p=p / p.sum()))
            else:
                choice = int(np.argmax(pi))
            action = found.action_type.from_id(choice)
        state.apply(action)
        actions.append(str(action))
    winners = state.winners if state.is_terminal else []
    return rows.examples(winners, num_players, search_value), actions, list(winners)


class _SearchedRows:
    """The searched positions of one self-play game (:func:`self_play`)."""

    def __init__(self, num_actions: int) -> None:
        self.num_actions = num_actions
        self.xs: list[np.ndarray] = []
        self.masks: list[np.ndarray] = []
        self.pis: list[np.ndarray] = []
        self.movers: list[int] = []
        self.values: list[float] = []

    def search(self, searcher: Searcher, state: Any, legal: list[Any]) -> np.ndarray:
        """Search the position ``state`` for its mover, keep it with the root's visit
        shares (returned, float32 ``(num_actions,)``) and mean reward."""
        seat = state.current_player
        links, stats = searcher.search(state.observation(seat))
        pi = np.zeros(self.num_actions, np.float32)
        mask = state.legal_mask()
        seen = weighted = 0.0
        for a, visits, q in _search.root_children(links, stats[:3]):
            if mask[a]:
                pi[a] = visits
                seen += visits
                weighted += visits * q
        self.values.append(weighted / seen if seen > 0 else 1.0 / state.num_players)
        if pi.sum() <= 0:
            pi[[a.id for a in legal]] = 1.0
        pi /= pi.sum()
        self.xs.append(seat_tensor(state, seat))
        self.masks.append(mask)
        self.pis.append(pi)
        self.movers.append(seat)
        return pi

    def examples(self, winners: list[int], n: int, search_value: float) -> Examples:
        """The kept positions with their value targets: the outcome (``winners``), with
        weight ``search_value`` given to the search's value (:func:`self_play`)."""
        movers = self.movers
        z = seat_relative(outcome_of(winners, n), movers)
        if search_value and movers:
            v = np.array(self.values, np.float32)[:, None]
            own = np.zeros((1, n), np.float32)
            own[0, 0] = 1.0
            by_search = v * own + (1.0 - v) * (1.0 - own) / (n - 1)
            z = ((1.0 - search_value) * z + search_value * by_search).astype(np.float32)
        k = len(movers)
        return Examples(
            np.array(self.xs, np.float32).reshape(k, -1),
            np.array(self.masks, np.bool_).reshape(k, self.num_actions),
            np.array(self.pis, np.float32).reshape(k, self.num_actions),
            z.reshape(k, n),
        )


__all__ = ["FIELDS", "Examples", "Searcher", "outcome_of", "seat_relative", "self_play"]
