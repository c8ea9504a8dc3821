"""Compiled information-set MCTS, one implementation for both games.

Single-observer information-set Monte Carlo tree search (SO-ISMCTS; Cowling, Powley and
Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012). Every iteration:

1. *Determinization*: deal the cards the searching seat cannot see at random, consistent
   with its observation (the game's ``determinize_into``; C16, D22). The search never
   reads the true state, only the observation.
2. *Selection*: from the root, follow the children whose decision is legal in this
   determinization, maximising UCB1 with availability counts,
   ``Q/n + c * sqrt(ln(avail) / n)``, where ``Q`` is the total reward of the player who
   made that decision (max-n: every player maximises its own reward, so 3-4 player games
   are not treated as two-player zero-sum).
3. *Expansion*: the first node with a legal decision that has no child gets one new child
   (chosen uniformly among the untried decisions).
4. *Playout*: the game's playout policy (uniform random, a cheap heuristic, or greedy's
   evaluation compiled, :mod:`splendor.bots.greedy_compiled` and
   :mod:`splendor.bots.greedy_duel_compiled`) to the end of
   the game or ``max_playout`` decisions; then each player's reward: at the end of the
   game the game's ``rewards`` (1 shared by the winners, 0 otherwise; optionally blended
   with the evaluation below, so the margin of a win counts a little), else the bot's
   evaluation of the cut-off position (:mod:`splendor.bots.playout`), also in [0, 1].
5. *Backpropagation*: every node on the path gains a visit and the reward of the player
   who moved into it.

The tree lives in flat arrays (see :func:`new_tree`) so that a search can run in chunks of
iterations from Python (which checks the clock between chunks; numba has no clock) and
grow the same tree. The generic bodies take the game's compiled functions as arguments; one
thin entry point per game (:func:`search_classic`, :func:`search_duel`) fixes them so numba
can cache the result, and the game's ``"search"`` part (:class:`SearchPart`) names it with
the game's tuned defaults.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias

import numpy as np
from numba import njit

from ..classic import rules as classic_rules
from ..duel import rules as duel_rules
from ..jit import ENGINE_SOURCES, refresh_numba_cache, state_record
from . import greedy_compiled as _greedy_compiled
from . import greedy_duel_compiled as _greedy_duel_compiled
from . import playout as _playout

refresh_numba_cache(
    __file__,
    *ENGINE_SOURCES,
    _playout.__file__,
    _greedy_compiled.__file__,
    _greedy_duel_compiled.__file__,
    str(Path(_greedy_duel_compiled.__file__).with_name("greedy_duel.py")),
)

# Tree arrays (all of length `capacity`); index 0 is the root.
T_PARENT = 0
T_CHILD = 1  # first child, -1 none
T_SIBLING = 2  # next sibling, -1 none
T_ACTION = 3  # decision id that leads here (root: -1)
T_PLAYER = 4  # seat that made that decision
T_FIELDS = 5

NO_NODE = -1

# The game's compiled functions that :func:`_iterate` takes (numba dispatchers).
LegalMaskFn: TypeAlias = Callable[[np.ndarray, np.ndarray], int]
ApplyFn: TypeAlias = Callable[[np.ndarray, int], int]
DeterminizeFn: TypeAlias = Callable[[np.ndarray, np.ndarray, np.ndarray], int]
RewardsFn: TypeAlias = Callable[[np.ndarray, np.ndarray], None]
PolicyFn: TypeAlias = Callable[[np.ndarray, np.ndarray, int, bool, np.ndarray], int]


def new_tree(capacity: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Empty tree arrays for at most ``capacity`` nodes (``capacity >= 1``).

    Returns:
        ``(links, stats, size)``: ``links`` int32 ``(T_FIELDS, capacity)`` (parent, first
        child, next sibling, action, player); ``stats`` float64 ``(3, capacity)`` (visits,
        availability, total reward of the node's player); ``size`` int64 ``(1,)`` nodes in
        use (1: the root only).
    """
    if capacity < 1:
        raise ValueError(f"tree capacity must be at least 1, got {capacity}")
    # append_child writes every field of a new node, so only the root is set here: a large
    # tree costs no time until its nodes are used (np.empty and np.zeros touch no memory)
    links = np.empty((T_FIELDS, capacity), dtype=np.int32)
    links[:, 0] = NO_NODE
    stats = np.zeros((3, capacity), dtype=np.float64)
    size = np.ones(1, dtype=np.int64)
    return links, stats, size


@njit(cache=True)
def append_child(
    links: np.ndarray, stats: np.ndarray, size: np.ndarray, node: int, action: int
) -> int:
    """Give ``node`` a new first child for ``action``, every statistic 0; returns its
    index, or ``NO_NODE`` when the tree is full."""
    if size[0] >= links.shape[1]:
        return NO_NODE
    new: int = size[0]
    size[0] += 1
    links[T_PARENT, new] = node
    links[T_CHILD, new] = NO_NODE
    links[T_SIBLING, new] = links[T_CHILD, node]
    links[T_ACTION, new] = action
    links[T_PLAYER, new] = -1
    links[T_CHILD, node] = new
    for k in range(stats.shape[0]):
        stats[k, new] = 0.0
    return new


@njit(cache=True)
def _select_or_expand(
    links: np.ndarray,
    stats: np.ndarray,
    size: np.ndarray,
    node: int,
    mask: np.ndarray,
    n_legal: int,
    c: float,
    rng: np.ndarray,
) -> tuple[int, int]:
    """Pick the next node below ``node`` for this determinization: a new child for an
    untried legal decision (returns ``(child, 1)``), or the best UCB child among the legal
    ones (returns ``(child, 0)``). Returns ``(-1, 0)`` when the tree is full."""
    tried = 0
    child = links[T_CHILD, node]
    while child != NO_NODE:
        if mask[links[T_ACTION, child]]:
            tried += 1
        child = links[T_SIBLING, child]
    if tried < n_legal:
        if size[0] >= links.shape[1]:
            return NO_NODE, 0
        k = _playout.rng_below(rng, n_legal - tried)
        action = -1
        for a in range(mask.shape[0]):
            if mask[a]:
                seen = False
                ch = links[T_CHILD, node]
                while ch != NO_NODE:
                    if links[T_ACTION, ch] == a:
                        seen = True
                        break
                    ch = links[T_SIBLING, ch]
                if not seen:
                    if k == 0:
                        action = a
                        break
                    k -= 1
        return append_child(links, stats, size, node, action), 1
    best = NO_NODE
    best_score = -1e300
    child = links[T_CHILD, node]
    while child != NO_NODE:
        if mask[links[T_ACTION, child]]:
            stats[1, child] += 1.0
            n = stats[0, child]
            if n <= 0.0:
                score = 1e300
            else:
                score = stats[2, child] / n + c * math.sqrt(math.log(stats[1, child]) / n)
            if score > best_score:
                best_score = score
                best = child
        child = links[T_SIBLING, child]
    return best, 0


# A search's playout policy, as its compiled entry point takes it (``playout`` of
# :data:`SearchSettings`): uniform random, the rule of thumb of :mod:`.playout`, greedy's.
PLAYOUT_RANDOM = 0
PLAYOUT_HEURISTIC = 1
PLAYOUT_GREEDY = 2
PLAYOUT_CODES = {"random": PLAYOUT_RANDOM, "heuristic": PLAYOUT_HEURISTIC, "greedy": PLAYOUT_GREEDY}
"""The code of each playout policy's name."""

Tree: TypeAlias = tuple[np.ndarray, np.ndarray, np.ndarray]
"""``(links, stats, size)`` of :func:`new_tree`."""
Scratch: TypeAlias = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""``(obs, work, mask, reward)``: the searching seat's observation array, a state array of
the same game for the determinizations, a bool mask ``(NUM_ACTIONS,)`` and a float64 reward
per seat."""
SearchSettings: TypeAlias = tuple[int, float, int, int, float]
"""``(iterations, c, max_playout, playout, margin)`` of :func:`_iterate`."""


@njit(cache=False)  # takes compiled functions: cached in each game's entry point
def _play_and_score(
    work: np.ndarray,
    mask: np.ndarray,
    reward: np.ndarray,
    blend: np.ndarray,
    settings: SearchSettings,
    rng: np.ndarray,
    legal_mask: LegalMaskFn,
    apply: ApplyFn,
    rewards: RewardsFn,
    policy: PolicyFn,
    greedy: PolicyFn,
    evaluate: RewardsFn,
) -> None:
    """Step 4 of an iteration (module docstring): play ``work`` on for at most
    ``max_playout`` decisions by the ``playout`` policy of ``settings`` (``greedy`` for
    :data:`PLAYOUT_GREEDY`, else ``policy``, heuristic unless :data:`PLAYOUT_RANDOM`) and
    write each seat's reward into ``reward`` (``blend``: scratch of the same shape)."""
    _, _, max_playout, playout, margin = settings
    heuristic = playout != PLAYOUT_RANDOM
    s = state_record(work)
    steps = 0
    while s.current >= 0 and steps < max_playout:
        n_legal = legal_mask(work, mask)
        if n_legal == 0:
            break
        if playout == PLAYOUT_GREEDY:
            apply(work, greedy(work, mask, n_legal, heuristic, rng))
        else:
            apply(work, policy(work, mask, n_legal, heuristic, rng))
        steps += 1
    if s.current >= 0:
        evaluate(work, reward)
    else:
        rewards(work, reward)
        if margin > 0.0:
            evaluate(work, blend)
            for p in range(reward.shape[0]):
                reward[p] = (1.0 - margin) * reward[p] + margin * blend[p]


@njit(cache=False)  # takes compiled functions: cached in each game's entry point
def _iterate(
    tree: Tree,
    scratch: Scratch,
    settings: SearchSettings,
    rng: np.ndarray,
    legal_mask: LegalMaskFn,
    apply: ApplyFn,
    determinize_into: DeterminizeFn,
    rewards: RewardsFn,
    policy: PolicyFn,
    greedy: PolicyFn,
    evaluate: RewardsFn,
) -> int:
    """Run ``iterations`` ISMCTS iterations from the observation of ``scratch`` (see the
    module docstring and :data:`Scratch`; its state array is the determinization). Returns
    the number of iterations run (fewer when the tree is full), or -1 if a determinization
    failed. ``settings`` (:data:`SearchSettings`): ``c`` the UCB constant, the playout
    policy and length (:func:`_play_and_score`), and ``margin`` in [0, 1], which blends the
    evaluation into the reward of a finished game: ``(1 - margin) * result + margin *
    evaluation`` (a clear win is worth more than a narrow one, and a lost game is still
    played for the best score)."""
    links, stats, size = tree
    obs, work, mask, reward = scratch
    iterations, c = settings[0], settings[1]
    done = 0
    blend = np.zeros(reward.shape[0], dtype=np.float64)
    for _ in range(iterations):
        if determinize_into(obs, work, rng) < 0:
            return -1
        s = state_record(work)
        node = 0
        path_len = 0
        full = False
        while s.current >= 0:
            n_legal = legal_mask(work, mask)
            if n_legal == 0:
                break
            player = s.current
            nxt, expanded = _select_or_expand(links, stats, size, node, mask, n_legal, c, rng)
            if nxt == NO_NODE:
                full = True
                break
            links[T_PLAYER, nxt] = player
            apply(work, links[T_ACTION, nxt])
            if expanded:
                stats[1, nxt] += 1.0
            node = nxt
            path_len += 1
            if expanded:
                break
        if full and path_len == 0:
            return done
        _play_and_score(
            work,
            mask,
            reward,
            blend,
            settings,
            rng,
            legal_mask,
            apply,
            rewards,
            policy,
            greedy,
            evaluate,
        )
        while node > 0:
            stats[0, node] += 1.0
            stats[2, node] += reward[links[T_PLAYER, node]]
            node = links[T_PARENT, node]
        stats[0, 0] += 1.0
        done += 1
        if full:
            return done
    return done


@njit(cache=False)  # takes compiled functions: cached in each game's entry point
def play_out(
    work: np.ndarray,
    mask: np.ndarray,
    reward: np.ndarray,
    max_playout: int,
    rng: np.ndarray,
    legal_mask: LegalMaskFn,
    apply: ApplyFn,
    rewards: RewardsFn,
    policy: PolicyFn,
    evaluate: RewardsFn,
) -> None:
    """Compiled: play the state ``work`` on by ``policy`` (heuristic mode) for at most
    ``max_playout`` decisions and write each seat's reward into ``reward``: the game's
    ``rewards`` if it ended, else the ``evaluate`` of the cut-off position (both in [0, 1]).
    The network search's and the distillation's playouts."""
    if advance(work, mask, max_playout, rng, legal_mask, apply, policy):
        evaluate(work, reward)
    else:
        rewards(work, reward)


@njit(cache=False)  # takes compiled functions: cached in each game's entry point
def advance(
    work: np.ndarray,
    mask: np.ndarray,
    decisions: int,
    rng: np.ndarray,
    legal_mask: LegalMaskFn,
    apply: ApplyFn,
    policy: PolicyFn,
) -> bool:
    """Compiled: play the state ``work`` on by ``policy`` (heuristic mode) for at most
    ``decisions`` decisions (``mask``: scratch); True if the game goes on, False if it
    ended."""
    s = state_record(work)
    steps = 0
    while s.current >= 0 and steps < decisions:
        n_legal = legal_mask(work, mask)
        if n_legal == 0:
            break
        apply(work, policy(work, mask, n_legal, True, rng))
        steps += 1
    return bool(s.current >= 0)


@njit(cache=False)  # takes compiled functions: cached in each game's entry point
def _playout_mean(
    scratch: Scratch,
    acc: np.ndarray,
    k: int,
    max_playout: int,
    rng: np.ndarray,
    legal_mask: LegalMaskFn,
    apply: ApplyFn,
    determinize_into: DeterminizeFn,
    rewards: RewardsFn,
    policy: PolicyFn,
    evaluate: RewardsFn,
) -> int:
    """Each seat's mean reward over ``k`` determinized playouts (:func:`play_out`) from
    the observation of ``scratch`` into ``acc``; 0, or -1 if a determinization failed."""
    obs, work, mask, reward = scratch
    for p in range(acc.shape[0]):
        acc[p] = 0.0
    for _ in range(k):
        if determinize_into(obs, work, rng) < 0:
            return -1
        play_out(work, mask, reward, max_playout, rng, legal_mask, apply, rewards, policy, evaluate)
        for p in range(acc.shape[0]):
            acc[p] += reward[p] / k
    return 0


# The compiled entry points of each game: the generic bodies above with the game's rules
# (its descriptor's ``kernels``), playout policies and evaluation fixed, so that numba can
# cache them. A function that takes compiled functions as arguments is never found again in
# numba's cache (their types hold identities of this process), and rewriting its cache
# index fails once the functions of an earlier process have vanished: those bodies are
# compiled without a cache of their own, inside each cached entry point. Each compiled
# function is named as a module's attribute: a bare global name passed as a value would be
# compiled as its address in this process, which numba refuses to cache.


@njit(cache=True)
def search_classic(tree: Tree, scratch: Scratch, settings: SearchSettings, rng: np.ndarray) -> int:
    """:func:`_iterate` for classic Splendor (state arrays of its ``STATE_DTYPE``); greedy
    playouts by :func:`splendor.bots.greedy_compiled.classic_greedy_policy`."""
    return _iterate(
        tree, scratch, settings, rng,
        classic_rules.legal_mask, classic_rules.apply, classic_rules.determinize_into,
        classic_rules.rewards, _playout.classic_policy, _greedy_compiled.classic_greedy_policy,
        _playout.classic_evaluate,
    )  # fmt: skip


@njit(cache=True)
def search_duel(tree: Tree, scratch: Scratch, settings: SearchSettings, rng: np.ndarray) -> int:
    """:func:`_iterate` for Splendor Duel (state arrays of its ``STATE_DTYPE``); greedy
    playouts by :func:`splendor.bots.greedy_duel_compiled.duel_greedy_policy`."""
    return _iterate(
        tree, scratch, settings, rng,
        duel_rules.legal_mask, duel_rules.apply, duel_rules.determinize_into,
        duel_rules.rewards, _playout.duel_policy, _greedy_duel_compiled.duel_greedy_policy,
        _playout.duel_evaluate,
    )  # fmt: skip


@njit(cache=True)
def playout_mean_classic(
    scratch: Scratch, acc: np.ndarray, k: int, max_playout: int, rng: np.ndarray
) -> int:
    """Compiled: each seat's mean reward (``acc``, float64, one per seat of ``scratch``'s
    reward) over ``k`` playouts of at most ``max_playout`` decisions by classic's default
    policy (greedy's) from the observation of ``scratch`` (:data:`Scratch`), each from its
    own determinization. Returns 0, or -1 for an observation that cannot be
    determinized."""
    return _playout_mean(
        scratch, acc, k, max_playout, rng,
        classic_rules.legal_mask, classic_rules.apply, classic_rules.determinize_into,
        classic_rules.rewards, _greedy_compiled.classic_greedy_policy, _playout.classic_evaluate,
    )  # fmt: skip


@njit(cache=True)
def playout_mean_duel(
    scratch: Scratch, acc: np.ndarray, k: int, max_playout: int, rng: np.ndarray
) -> int:
    """Compiled: as :func:`playout_mean_classic` for Splendor Duel, whose default policy is
    the heuristic of :func:`splendor.bots.playout.duel_policy`."""
    return _playout_mean(
        scratch, acc, k, max_playout, rng,
        duel_rules.legal_mask, duel_rules.apply, duel_rules.determinize_into,
        duel_rules.rewards, _playout.duel_policy, _playout.duel_evaluate,
    )  # fmt: skip


@dataclass(frozen=True)
class SearchPart:
    """A game's compiled searches and their tuned defaults: its ``"search"`` part
    (:meth:`splendor.descriptor.Game.part`), which :class:`~splendor.bots.mcts.MCTSBot`,
    :class:`~splendor.bots.net_bot.NetBot` and the distillation read.

    Attributes:
        mcts: the compiled MCTS, ``mcts(tree, scratch, settings, rng) -> int``
            (:func:`search_classic`).
        playout_mean: ``playout_mean(scratch, acc, k, max_playout, rng) -> int``, the
            mean reward of playouts by ``policy`` (:func:`playout_mean_classic`).
        greedy: greedy's compiled playout policy, ``greedy(arr, mask, n_legal, heuristic,
            rng) -> int`` (:mod:`splendor.bots.playout`'s signature).
        policy: the default playout policy (``"greedy"``, ``"heuristic"``), also that of
            the network search's and the distillation's playouts.
        max_playout: decisions per playout before a cut-off; 0: to the end of the game.
        exploration: the UCB constant of MCTS.
        margin: the weight of the evaluation in a finished playout's reward.
    """

    mcts: Callable[..., int]
    playout_mean: Callable[..., int]
    greedy: PolicyFn
    policy: str
    max_playout: int
    exploration: float
    margin: float

    @property
    def depth(self) -> int:
        """``max_playout`` as a count of decisions (to the end: ``1 << 30``)."""
        return self.max_playout or (1 << 30)


CLASSIC_SEARCH = SearchPart(
    search_classic,
    playout_mean_classic,
    _greedy_compiled.classic_greedy_policy,
    "greedy",
    0,
    0.4,
    0.0,
)
"""Classic Splendor's searches: greedy playouts to the end of the game (docs/bots.md)."""

DUEL_SEARCH = SearchPart(
    search_duel,
    playout_mean_duel,
    _greedy_duel_compiled.duel_greedy_policy,
    "heuristic",
    16,
    0.7,
    0.0,
)
"""Splendor Duel's searches: heuristic playouts of 16 decisions, then the evaluation."""


@njit(cache=True)
def root_lead(links: np.ndarray, stats: np.ndarray) -> float:
    """Visits of the root's most visited child minus those of the runner-up (the most
    visited child's count when it is the only child; 0 for a root without children)."""
    first = 0.0
    second = 0.0
    child = links[T_CHILD, 0]
    while child != NO_NODE:
        n = stats[0, child]
        if n > first:
            second = first
            first = n
        elif n > second:
            second = n
        child = links[T_SIBLING, child]
    return first - second


def run_budget(
    step: Callable[[int], int],
    links: np.ndarray,
    stats: np.ndarray,
    *,
    seconds: float | None,
    iterations: int | None,
    early_stop: bool,
    chunk: int = 32,
) -> int:
    """Run a search under its budget, a chunk of iterations at a time; returns the
    iterations run. Shared by the MCTS and the network bots.

    ``step(want)`` runs up to ``want`` iterations on the tree ``(links, stats)`` and returns
    how many ran: fewer when the tree is full (the search ends), a negative number when the
    observation cannot be determinized. With ``iterations`` the budget is that count; else
    ``seconds`` of wall-clock time, in chunks of about 10 ms. With ``early_stop`` the search
    ends as soon as the root's most visited decision leads the runner-up by more visits than
    the rest of the budget can give (with a time budget the rest is estimated from the rate
    so far, with a 5% margin): the choice can no longer change.

    Raises:
        ValueError: no budget, or the observation cannot be determinized.
    """
    if iterations is None and not (seconds is not None and seconds > 0):
        raise ValueError("a search needs a budget: seconds or iterations")
    start = time.perf_counter()
    done = 0
    while True:
        want = chunk if iterations is None else min(chunk, iterations - done)
        if want <= 0:
            break
        ran = step(want)
        if ran < 0:
            raise ValueError("inconsistent observation: it cannot be determinized")
        done += ran
        if ran < want:  # the tree is full
            break
        if iterations is None:
            assert seconds is not None  # checked above
            spent = time.perf_counter() - start
            left = seconds - spent
            if left <= 0:
                break
            rate = done / max(spent, 1e-6)  # iterations per second so far
            remaining = rate * left
            chunk = int(max(1, min(rate * 0.01, remaining)))  # about 10 ms a chunk
        else:
            remaining = iterations - done
        if early_stop and root_lead(links, stats) > remaining * 1.05 + 1:
            break
    return done


def root_children(links: np.ndarray, stats: np.ndarray) -> list[tuple[int, float, float]]:
    """The root's children as ``(action id, visits, mean reward of the mover)``."""
    out = []
    child = int(links[T_CHILD, 0])
    while child != NO_NODE:
        n = float(stats[0, child])
        out.append((int(links[T_ACTION, child]), n, float(stats[2, child]) / n if n else 0.0))
        child = int(links[T_SIBLING, child])
    return out
