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
grow the same tree. The kernels take the game's compiled functions as arguments; the thin
``search_classic``/``search_duel`` wrappers fix them so numba can cache the result.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
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


@njit(cache=True)
def _iterate(
    obs: np.ndarray,
    work: np.ndarray,
    mask: np.ndarray,
    reward: np.ndarray,
    links: np.ndarray,
    stats: np.ndarray,
    size: np.ndarray,
    iterations: int,
    c: float,
    max_playout: int,
    heuristic: bool,
    margin: float,
    rng: np.ndarray,
    legal_mask: LegalMaskFn,
    apply: ApplyFn,
    determinize_into: DeterminizeFn,
    rewards: RewardsFn,
    policy: PolicyFn,
    evaluate: RewardsFn,
) -> int:
    """Run ``iterations`` ISMCTS iterations from observation ``obs`` (see the module
    docstring); ``work`` is a state array used as the determinization. Returns the number
    of iterations run (fewer when the tree is full), or -1 if a determinization failed.
    ``margin`` in [0, 1] blends the evaluation into the reward of a finished game:
    ``(1 - margin) * result + margin * evaluation`` (a clear win is worth more than a narrow
    one, and a lost game is still played for the best score)."""
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
        steps = 0
        while s.current >= 0 and steps < max_playout:
            n_legal = legal_mask(work, mask)
            if n_legal == 0:
                break
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
        while node > 0:
            stats[0, node] += 1.0
            stats[2, node] += reward[links[T_PLAYER, node]]
            node = links[T_PARENT, node]
        stats[0, 0] += 1.0
        done += 1
        if full:
            return done
    return done


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def search_classic(
    obs: np.ndarray,
    work: np.ndarray,
    mask: np.ndarray,
    reward: np.ndarray,
    links: np.ndarray,
    stats: np.ndarray,
    size: np.ndarray,
    iterations: int,
    c: float,
    max_playout: int,
    heuristic: bool,
    margin: float,
    rng: np.ndarray,
) -> int:
    """:func:`_iterate` for classic Splendor (state arrays of classic ``STATE_DTYPE``)."""
    return _iterate(
        obs,
        work,
        mask,
        reward,
        links,
        stats,
        size,
        iterations,
        c,
        max_playout,
        heuristic,
        margin,
        rng,
        classic_rules.legal_mask,
        classic_rules.apply,
        classic_rules.determinize_into,
        classic_rules.rewards,
        _playout.classic_policy,
        _playout.classic_evaluate,
    )


@njit(cache=True)
def search_classic_greedy(
    obs: np.ndarray,
    work: np.ndarray,
    mask: np.ndarray,
    reward: np.ndarray,
    links: np.ndarray,
    stats: np.ndarray,
    size: np.ndarray,
    iterations: int,
    c: float,
    max_playout: int,
    heuristic: bool,
    margin: float,
    rng: np.ndarray,
) -> int:
    """:func:`_iterate` for classic Splendor with greedy playouts
    (:func:`splendor.bots.greedy_compiled.classic_greedy_policy`)."""
    return _iterate(
        obs,
        work,
        mask,
        reward,
        links,
        stats,
        size,
        iterations,
        c,
        max_playout,
        heuristic,
        margin,
        rng,
        classic_rules.legal_mask,
        classic_rules.apply,
        classic_rules.determinize_into,
        classic_rules.rewards,
        _greedy_compiled.classic_greedy_policy,
        _playout.classic_evaluate,
    )


@njit(cache=True)
def search_duel(
    obs: np.ndarray,
    work: np.ndarray,
    mask: np.ndarray,
    reward: np.ndarray,
    links: np.ndarray,
    stats: np.ndarray,
    size: np.ndarray,
    iterations: int,
    c: float,
    max_playout: int,
    heuristic: bool,
    margin: float,
    rng: np.ndarray,
) -> int:
    """:func:`_iterate` for Splendor Duel (state arrays of duel ``STATE_DTYPE``)."""
    return _iterate(
        obs,
        work,
        mask,
        reward,
        links,
        stats,
        size,
        iterations,
        c,
        max_playout,
        heuristic,
        margin,
        rng,
        duel_rules.legal_mask,
        duel_rules.apply,
        duel_rules.determinize_into,
        duel_rules.rewards,
        _playout.duel_policy,
        _playout.duel_evaluate,
    )


@njit(cache=True)
def search_duel_greedy(
    obs: np.ndarray,
    work: np.ndarray,
    mask: np.ndarray,
    reward: np.ndarray,
    links: np.ndarray,
    stats: np.ndarray,
    size: np.ndarray,
    iterations: int,
    c: float,
    max_playout: int,
    heuristic: bool,
    margin: float,
    rng: np.ndarray,
) -> int:
    """:func:`_iterate` for Splendor Duel with greedy playouts
    (:func:`splendor.bots.greedy_duel_compiled.duel_greedy_policy`)."""
    return _iterate(
        obs,
        work,
        mask,
        reward,
        links,
        stats,
        size,
        iterations,
        c,
        max_playout,
        heuristic,
        margin,
        rng,
        duel_rules.legal_mask,
        duel_rules.apply,
        duel_rules.determinize_into,
        duel_rules.rewards,
        _greedy_duel_compiled.duel_greedy_policy,
        _playout.duel_evaluate,
    )


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
