"""Self-play games for training the policy + value network (issue 17).

Every decision of a self-play game is searched by :class:`~splendor.bots.net_bot.NetBot`
from the mover's own observation (C16, D22); the search's visit counts at the root become
the policy target ``pi``, and the game's outcome (1 shared by the winners, 0 otherwise,
seat-relative to the mover) the value target ``z``. The first decisions of a game are
sampled from ``pi`` (exploration), the later ones are its most visited decision. Decisions
with a single legal choice are played without search and give no example.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..bots import search as _search
from ..bots.net_bot import NetBot
from ..bots.network import PolicyValueNet
from ..encoding import seat_tensor
from ..game import get_game


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


def self_play(
    net: PolicyValueNet,
    *,
    iterations: int,
    seed: int,
    explore_decisions: int = 20,
    max_decisions: int = 400,
) -> tuple[Examples, list[str], list[int]]:
    """Play one game of the network against itself (module docstring).

    Args:
        net: the network (its game and player count are the game's).
        iterations: search iterations per decision.
        seed: the deal and the search's generator (the same seed, the same game).
        explore_decisions: decisions (of the whole game) sampled from the visit shares.
        max_decisions: a game still going after this many decisions stops; nobody won it.

    Returns:
        ``(examples, actions, winners)``: the examples, every decision in notation, and the
        winning seats (``[]`` for a game stopped by ``max_decisions``).
    """
    module = get_game("duel" if net.game == "duel" else "splendor")
    state = module.new_game(net.num_players, seed)
    bot = NetBot(net, iterations=iterations, seed=seed)
    rng = np.random.default_rng(seed)
    xs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    pis: list[np.ndarray] = []
    movers: list[int] = []
    actions: list[str] = []
    while not state.is_terminal and len(actions) < max_decisions:
        seat = state.current_player
        legal = state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        else:
            links, stats = bot.search(state.observation(seat))
            pi = np.zeros(module.NUM_ACTIONS, np.float32)
            for a, visits, _q in _search.root_children(links, stats[:3]):
                pi[a] = visits
            if pi.sum() <= 0:
                pi[[a.id for a in legal]] = 1.0
            pi /= pi.sum()
            xs.append(seat_tensor(state, seat))
            masks.append(state.legal_mask())
            pis.append(pi)
            movers.append(seat)
            if len(actions) < explore_decisions:
                p = pi.astype(np.float64)
                choice = int(rng.choice(module.NUM_ACTIONS, p=p / p.sum()))
            else:
                choice = int(np.argmax(pi))
            action = module.Action.from_id(choice)
        state.apply(action)
        actions.append(str(action))
    n = net.num_players
    winners = state.winners if state.is_terminal else []
    outcome = np.zeros(n, np.float32)
    for w in winners:
        outcome[w] = 1.0 / len(winners)
    if not winners:
        outcome[:] = 1.0 / n  # no winner: every seat shares the game
    z = np.array([[outcome[(m + k) % n] for k in range(n)] for m in movers], np.float32)
    examples = Examples(
        np.array(xs, np.float32).reshape(len(movers), -1),
        np.array(masks, np.bool_).reshape(len(movers), module.NUM_ACTIONS),
        np.array(pis, np.float32).reshape(len(movers), module.NUM_ACTIONS),
        z.reshape(len(movers), n),
    )
    return examples, actions, list(winners)


__all__ = ["FIELDS", "Examples", "self_play"]
