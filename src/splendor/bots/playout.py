"""Compiled playout policies for the MCTS bot, one per game.

A policy has the signature ``policy(arr, mask, n_legal, heuristic, rng) -> action id``:
``arr`` is a full state (the game's ``STATE_DTYPE``, shape ``(1,)``), ``mask`` its legal
mask already filled (bool, ``(NUM_ACTIONS,)``) with ``n_legal >= 1`` decisions, ``rng``
the splitmix64 generator (uint64, ``(1,)``). With ``heuristic`` False the choice is
uniform among the legal decisions. With ``heuristic`` True it is a cheap rule of thumb,
still randomised so playouts differ:

* buy the affordable card worth the most (prestige points, then crowns in Duel; ties at
  random), at the default payment;
* else take tokens (3 when possible: the most tokens), never spending a privilege or
  replenishing in Duel when something else is possible;
* else (and in the other decisions: payments, returns, nobles, abilities) uniformly at
  random;
* with probability 1/8 a uniformly random decision anyway (exploration).

The policies read only the state array's public fields and the static card tables.

A playout cut off before the end is scored by the game's evaluation: in classic a
hand-weighted value of points, bonuses and tokens (:func:`classic_evaluate`); in Duel the
probability of a win that a logistic model fitted on greedy self-play gives
(:func:`duel_evaluate`, weights from ``tools/fit_duel_evaluation.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..classic import actions as ca
from ..classic import cards as cc
from ..classic import rules as cr
from ..colors import NUM_GEMS
from ..duel import actions as da
from ..duel import board as db
from ..duel import cards as dc
from ..duel import rules as dr
from ..jit import ENGINE_SOURCES, refresh_numba_cache, state_record
from ..rng import rng_below

refresh_numba_cache(__file__, *ENGINE_SOURCES)

__all__ = ["best_scored", "classic_policy", "duel_policy", "random_legal", "rng_below"]

EXPLORE_IN_8 = 1  # chance (out of 8) of a uniformly random decision in heuristic mode


@njit(cache=True)
def _nth_legal(mask: np.ndarray, lo: int, hi: int, k: int) -> int:
    """The ``k``-th (0-based) legal id in ``[lo, hi)``, or -1 when there are fewer."""
    for a in range(lo, hi):
        if mask[a]:
            if k == 0:
                return a
            k -= 1
    return -1


@njit(cache=True)
def random_legal(mask: np.ndarray, n_legal: int, rng: np.ndarray) -> int:
    """A uniformly random legal decision id (``n_legal`` ids are set in ``mask``)."""
    return _nth_legal(mask, 0, mask.shape[0], rng_below(rng, n_legal))


@njit(cache=True)
def best_scored(mask: np.ndarray, scores: np.ndarray, rng: np.ndarray) -> int:
    """The legal id of ``mask`` with the best score (``scores``, one per id), ties within
    1e-9 of the best drawn uniformly with ``rng``, as :class:`~splendor.bots.greedy.GreedyBot`
    counts them; -1 when no id is legal."""
    best_value = -np.inf
    for a in range(mask.shape[0]):
        if mask[a] and scores[a] > best_value:
            best_value = scores[a]
    best = -1
    ties = 0
    for a in range(mask.shape[0]):
        if mask[a] and scores[a] >= best_value - 1e-9:
            ties += 1
            if rng_below(rng, ties) == 0:
                best = a
    return best


@njit(cache=True)
def _random_in(mask: np.ndarray, lo: int, hi: int, rng: np.ndarray) -> int:
    """A uniformly random legal id in ``[lo, hi)``, or -1 (drawing nothing) when none is."""
    n = 0
    for a in range(lo, hi):
        if mask[a]:
            n += 1
    if n == 0:
        return -1
    return _nth_legal(mask, lo, hi, rng_below(rng, n))


@njit(cache=True)
def _best_in(mask: np.ndarray, lo: int, hi: int, score: np.ndarray, rng: np.ndarray) -> int:
    """The legal id in ``[lo, hi)`` with the highest ``score[id - lo]`` (ties at random),
    or -1 when none of them is legal."""
    best = -1
    best_score = -1e300
    ties = 0
    for a in range(lo, hi):
        if mask[a]:
            v = score[a - lo]
            if v > best_score:
                best, best_score, ties = a, v, 1
            elif v == best_score:
                ties += 1
                if rng_below(rng, ties) == 0:
                    best = a
    return best


@njit(cache=True)
def classic_policy(
    arr: np.ndarray, mask: np.ndarray, n_legal: int, heuristic: bool, rng: np.ndarray
) -> int:
    """Playout policy of classic Splendor (see the module docstring)."""
    if not heuristic or n_legal == 1 or rng_below(rng, 8) < EXPLORE_IN_8:
        return random_legal(mask, n_legal, rng)
    s = state_record(arr)
    if s.phase != cr.PH_MAIN:
        return random_legal(mask, n_legal, rng)
    p = s.current
    n_buy = ca.BUY_CHOOSE - ca.BUY_FACEUP
    score = np.empty(n_buy, dtype=np.float64)
    for i in range(n_buy):
        a = ca.BUY_FACEUP + i
        card = -1
        if a < ca.BUY_RESERVED:
            card = s.faceup[i // 4, i % 4]
        else:
            card = s.reserved[p, a - ca.BUY_RESERVED]
        score[i] = 0.0 if card < 0 else 1.0 + cc.CARD_POINTS[card] + 0.1 * cc.CARD_LEVEL[card]
    a = _best_in(mask, ca.BUY_FACEUP, ca.BUY_CHOOSE, score, rng)
    if a >= 0:
        return a
    # Tokens toward a target: the card with the best points per missing token.
    want = np.zeros(NUM_GEMS, dtype=np.float64)
    best_value = -1.0
    for i in range(n_buy):
        a = ca.BUY_FACEUP + i
        card = (
            s.faceup[i // 4, i % 4] if a < ca.BUY_RESERVED else s.reserved[p, a - ca.BUY_RESERVED]
        )
        if card < 0:
            continue
        missing = 0
        for c in range(NUM_GEMS):
            m = cc.CARD_COST[card, c] - s.bonuses[p, c] - s.tokens[p, c]
            if m > 0:
                missing += m
        value = (1.0 + cc.CARD_POINTS[card]) / (1.0 + missing)
        if value > best_value:
            best_value = value
            for c in range(NUM_GEMS):
                m = cc.CARD_COST[card, c] - s.bonuses[p, c] - s.tokens[p, c]
                want[c] = m if m > 0 else 0.0
    n3 = ca.TAKE2_DIFF - ca.TAKE3
    score3 = np.empty(n3, dtype=np.float64)
    for k in range(n3):
        v = 0.0
        for j in range(3):
            v += min(want[ca.TAKE3_COLORS[k, j]], 1.0)
        score3[k] = v
    a = _best_in(mask, ca.TAKE3, ca.TAKE2_DIFF, score3, rng)
    if a >= 0:
        return a
    for lo, hi in (
        (ca.TAKE2_SAME, ca.RESERVE_FACEUP),
        (ca.TAKE2_DIFF, ca.TAKE1),
        (ca.TAKE1, ca.TAKE2_SAME),
    ):
        a = _random_in(mask, lo, hi, rng)
        if a >= 0:
            return a
    return random_legal(mask, n_legal, rng)


@njit(cache=True)
def duel_policy(
    arr: np.ndarray, mask: np.ndarray, n_legal: int, heuristic: bool, rng: np.ndarray
) -> int:
    """Playout policy of Splendor Duel (see the module docstring)."""
    if not heuristic or n_legal == 1 or rng_below(rng, 8) < EXPLORE_IN_8:
        return random_legal(mask, n_legal, rng)
    s = state_record(arr)
    if s.phase != dr.PH_MAIN:
        return random_legal(mask, n_legal, rng)
    p = s.current
    n_buy = da.BUY_CHOOSE - da.BUY
    score = np.empty(n_buy, dtype=np.float64)
    for i in range(n_buy):
        card = s.pyramid[i] if i < dc.NUM_PYRAMID else s.reserved[p, i - dc.NUM_PYRAMID]
        score[i] = 0.0 if card < 0 else 1.0 + dc.CARD_POINTS[card] + 0.5 * dc.CARD_CROWNS[card]
    a = _best_in(mask, da.BUY, da.BUY_CHOOSE, score, rng)
    if a >= 0:
        return a
    n_take = da.TAKE_GOLD - da.TAKE
    size = np.empty(n_take, dtype=np.float64)
    for i in range(n_take):
        size[i] = db.LINE_LEN[i]
    a = _best_in(mask, da.TAKE, da.TAKE_GOLD, size, rng)
    if a >= 0:
        return a
    # Nothing to buy or take: anything but spending privileges or replenishing, if possible.
    a = _random_in(mask, da.TAKE_GOLD, mask.shape[0], rng)
    return a if a >= 0 else random_legal(mask, n_legal, rng)


# --------------------------------------------------------------------------- evaluation


@njit(cache=True)
def _squash(x: float) -> float:
    """Logistic squashing of a value difference into a reward in (0, 1)."""
    # numpy's stubs type a ufunc called on a scalar as Any; numba compiles this to a float.
    return 1.0 / (1.0 + np.exp(-x))  # type: ignore[no-any-return]


@njit(cache=True)
def classic_evaluate(arr: np.ndarray, out: np.ndarray) -> None:
    """Rewards in ``out`` (float64, ``(4,)``) for an unfinished classic game cut off in a
    playout: each player's value (prestige points / 15 plus small credits for bonuses,
    tokens and progress toward nobles), squashed against the best other player's value."""
    s = state_record(arr)
    n = s.num_players
    value = np.zeros(4, dtype=np.float64)
    for p in range(n):
        bonus = 0
        tokens = 0
        for c in range(NUM_GEMS):
            bonus += s.bonuses[p, c]
            tokens += s.tokens[p, c]
        tokens += s.tokens[p, NUM_GEMS]
        value[p] = s.points[p] / 15.0 + 0.025 * bonus + 0.008 * tokens
    for p in range(out.shape[0]):
        if p >= n:
            out[p] = 0.0
            continue
        other = -1e300
        for q in range(n):
            if q != p and value[q] > other:
                other = value[q]
        out[p] = _squash(6.0 * (value[p] - other))


DUEL_FEATURES = ("points/20", "crowns/10", "best colour/10", "nearness", "bonuses/10", "tokens/10")
"""The features of one seat that :func:`duel_evaluate` weighs (see :func:`duel_features`)."""

DUEL_EVAL_WEIGHTS = np.array([4.25, 0.65, 0.24, 1.29, 3.31, 0.94], dtype=np.float64)
"""Weights of :data:`DUEL_FEATURES` in :func:`duel_evaluate`, fitted by logistic regression
on 30,000 positions of greedy self-play (``tools/fit_duel_evaluation.py``, which prints them):
the probability that the seat to move wins is ``sigmoid(DUEL_EVAL_TEMPO + w . (f_me - f_opp))``.
Prestige points and bonuses carry most of the weight; colour points count hardly more than
the prestige they are part of."""

DUEL_EVAL_TEMPO = 0.10
"""Fitted advantage (in logits) of being the seat to move."""


@njit(cache=True)
def duel_features(arr: np.ndarray, seat: int, out: np.ndarray) -> None:
    """The :data:`DUEL_FEATURES` of ``seat`` in ``out`` (float64, ``(6,)``), from public
    fields only (D22): prestige points / 20, crowns / 10, the best colour's points / 10
    (the three victory conditions of D21), their nearness (the sum of their fourth powers:
    close to a goal counts more), bonuses / 10 and tokens held (gold and pearls included)
    / 10."""
    s = state_record(arr)
    best = 0
    bonus = 0
    for c in range(5):
        if s.color_points[seat, c] > best:
            best = s.color_points[seat, c]
        bonus += s.bonuses[seat, c]
    tokens = 0
    for c in range(7):
        tokens += s.tokens[seat, c]
    pts = s.points[seat] / 20.0
    crowns = s.crowns[seat] / 10.0
    colour = best / 10.0
    out[0] = pts
    out[1] = crowns
    out[2] = colour
    out[3] = pts**4 + crowns**4 + colour**4
    out[4] = bonus / 10.0
    out[5] = tokens / 10.0


@njit(cache=True)
def duel_evaluate(arr: np.ndarray, out: np.ndarray) -> None:
    """Rewards in ``out`` (float64, ``(2,)``) for an unfinished duel cut off in a playout:
    the fitted probability that each seat wins (:data:`DUEL_EVAL_WEIGHTS`, a logistic model
    of greedy self-play outcomes over :func:`duel_features`), summing to 1."""
    s = state_record(arr)
    mine = np.empty(6, dtype=np.float64)
    theirs = np.empty(6, dtype=np.float64)
    duel_features(arr, 0, mine)
    duel_features(arr, 1, theirs)
    x = 0.0
    for k in range(6):
        x += DUEL_EVAL_WEIGHTS[k] * (mine[k] - theirs[k])
    if s.current == 0:
        x += DUEL_EVAL_TEMPO
    elif s.current == 1:
        x -= DUEL_EVAL_TEMPO
    out[0] = 1.0 / (1.0 + np.exp(-x))
    out[1] = 1.0 - out[0]
