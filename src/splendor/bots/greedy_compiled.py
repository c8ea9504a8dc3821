"""The classic greedy evaluation, compiled: a playout policy for the MCTS bot.

:func:`classic_greedy_scores` gives every legal decision of a classic state the score that
:class:`splendor.bots.greedy.GreedyBot` gives it (the same weights, read from
:mod:`splendor.bots.greedy`; score for score, checked by ``tests/bots/test_greedy_compiled.py``),
reading only what the deciding seat's observation shows: its own tokens, bonuses, points
and reserved cards, the face-up cards and nobles, and the public holdings of the others
(C16); never a deck or another seat's reserved card. :func:`classic_greedy_policy` plays
the best of them with a little randomness, as MCTS playouts need.

Playouts in which both sides play like greedy judge a position far better than the
cheaper rule of thumb of :mod:`splendor.bots.playout` (which, for instance, rates an
engine of level-1 cards far above what it is worth against a player who buys points), at
about a fifth of its speed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..classic import actions as ca
from ..classic import cards as cc
from ..classic import rules as cr
from ..colors import GOLD, NUM_GEMS
from ..jit import ENGINE_SOURCES, refresh_numba_cache, state_record
from ..rng import rng_below
from . import greedy as _greedy
from .playout import random_legal

refresh_numba_cache(__file__, *ENGINE_SOURCES)

__all__ = ["EXPLORE_IN_16", "classic_greedy_policy", "classic_greedy_scores"]

EXPLORE_IN_16 = 1
"""Chance (out of 16) that :func:`classic_greedy_policy` plays a uniformly random decision."""

# GreedyBot's weights as frozen tables (numba reads module-level arrays as constants).
_POW = np.array([_greedy.GAMMA**k for k in range(64)])
_NOBLE_POW = np.array([_greedy.NOBLE_DISCOUNT**k for k in range(64)])
_REACH_W = np.array(_greedy.REACH_WEIGHTS, dtype=np.float64)
_SLOT_COST = np.array(_greedy.SLOT_COST, dtype=np.float64)
_BLIND = np.array(_greedy.BLIND_VALUE, dtype=np.float64)
_TOP = len(_greedy.REACH_WEIGHTS)
_LIMIT = _greedy.TOKEN_LIMIT
_WIN = _greedy.WIN_POINTS
_NOBLE_PTS = _greedy.NOBLE_POINTS
_NOBLE_FAR = _greedy.NOBLE_FAR
_BONUS_VALUE = _greedy.BONUS_VALUE
_WIN_BONUS = _greedy.WIN_BONUS
_DENY_WEIGHT = _greedy.DENY_WEIGHT
_DENY_WIN = _greedy.DENY_WIN
_BUY_DENY = _greedy.BUY_DENY_SHARE
_SECURE = _greedy.SECURE_SHARE
_SLOT_FREED = _greedy.SLOT_FREED
_NOOP = _greedy.NOOP_PENALTY
_EPS = 1e-9
_MAX_TARGETS = ca.NUM_FACEUP + 3  # face-up cards, then own reserved cards


@njit(cache=True)
def _noble_need(nid: int, b: np.ndarray) -> int:
    """Bonuses still missing for noble ``nid`` given bonuses ``b`` (5,) (C12)."""
    need = 0
    for c in range(NUM_GEMS):
        d = cc.NOBLE_REQ[nid, c] - b[c]
        if d > 0:
            need += d
    return need


@njit(cache=True)
def _reach(
    tg_need: np.ndarray, tg_worth: np.ndarray, nt: int, tokens: np.ndarray, extra: int, skip: int
) -> float:
    """GreedyBot's reach: the weighted best few of ``worth * GAMMA ** shortfall`` over the
    first ``nt`` targets (``tg_need`` (15, 5) cost less bonuses, ``tg_worth`` (15,)) for
    ``tokens`` (6,); ``extra`` one more bonus of that colour (-1 none), ``skip`` a target
    left out (-1 none)."""
    top = np.zeros(_TOP)
    gold = tokens[GOLD]
    for i in range(nt):
        if i == skip:
            continue
        short = 0
        for c in range(NUM_GEMS):
            d = tg_need[i, c] - tokens[c]
            if c == extra:
                d -= 1
            if d > 0:
                short += d
        short -= gold
        v = tg_worth[i] * (_POW[short] if short > 0 else 1.0)
        # insert into top-4 (descending)
        j = _TOP
        while j > 0 and v > top[j - 1]:
            j -= 1
        if j < _TOP:
            for k in range(_TOP - 1, j, -1):
                top[k] = top[k - 1]
            top[j] = v
    tot = 0.0
    for k in range(_TOP):
        tot += _REACH_W[k] * top[k]
    return tot


@njit(cache=True)
def _after_returns(tg_need: np.ndarray, tg_worth: np.ndarray, nt: int, t: np.ndarray) -> None:
    """Give back from ``t`` (6,), in place, the least useful token until 10 remain (C11)."""
    tot = 0
    for c in range(6):
        tot += t[c]
    while tot > _LIMIT:
        best_c = -1
        best_v = -1e18
        for c in range(6):
            if t[c] > 0:
                t[c] -= 1
                v = _reach(tg_need, tg_worth, nt, t, -1, -1)
                t[c] += 1
                if v > best_v + _EPS:
                    best_c = c
                    best_v = v
        t[best_c] -= 1
        tot -= 1


@njit(cache=True)
def _opponents_need(s: np.record, p: int, nid: int) -> int:
    """The fewest bonuses any seat but ``p`` still lacks for noble ``nid`` (99 alone)."""
    best = 99
    ob = np.zeros(NUM_GEMS, dtype=np.int64)
    for o in range(s.num_players):
        if o != p:
            for c in range(NUM_GEMS):
                ob[c] = s.bonuses[o, c]
            best = min(best, _noble_need(nid, ob))
    return best


@njit(cache=True)
def _deny(s: np.record, p: int, card: int) -> float:
    """What another seat that can afford ``card`` now would gain by buying it (greedy's
    denial value), from public holdings only."""
    best = 0.0
    n = s.num_players
    b = np.zeros(NUM_GEMS, dtype=np.int64)
    for o in range(n):
        if o == p:
            continue
        short = 0
        for c in range(NUM_GEMS):
            d = cc.CARD_COST[card, c] - s.bonuses[o, c] - s.tokens[o, c]
            if d > 0:
                short += d
        if short - s.tokens[o, GOLD] > 0:
            continue
        gain = float(cc.CARD_POINTS[card])
        for c in range(NUM_GEMS):
            b[c] = s.bonuses[o, c]
        b[cc.CARD_BONUS[card]] += 1
        ob = np.zeros(NUM_GEMS, dtype=np.int64)
        for c in range(NUM_GEMS):
            ob[c] = s.bonuses[o, c]
        for k in range(s.nobles.shape[0]):
            nid = s.nobles[k]
            if nid >= 0 and _noble_need(nid, b) == 0 and _noble_need(nid, ob) > 0:
                gain += _NOBLE_PTS
                break
        value = _DENY_WEIGHT * gain
        if s.points[o] + gain >= _WIN:
            value += _DENY_WIN + gain
        if value > best:
            best = value
    return best


@njit(cache=True)
def classic_greedy_scores(arr: np.ndarray, mask: np.ndarray, out: np.ndarray) -> None:
    """GreedyBot's score of every legal decision of the seat to play.

    Args:
        arr: a classic state (``STATE_DTYPE``, shape ``(1,)``), full or an observation.
        mask: its legal mask (bool, ``(NUM_ACTIONS,)``), filled by ``rules.legal_mask``.
        out: float64 ``(NUM_ACTIONS,)``, filled with the score of each legal id in
            prestige-point units (the same value as ``GreedyBot``'s evaluation of the
            seat's observation), ``-inf`` for the illegal ones.
    """
    s = state_record(arr)
    p = s.current
    n = s.num_players
    for a in range(out.shape[0]):
        out[a] = -np.inf
    tokens = np.zeros(6, dtype=np.int64)
    bon = np.zeros(NUM_GEMS, dtype=np.int64)
    for c in range(6):
        tokens[c] = s.tokens[p, c]
    for c in range(NUM_GEMS):
        bon[c] = s.bonuses[p, c]
    if s.phase == cr.PH_NOBLE:
        for k in range(ca.CHOOSE_NOBLE, ca.PASS):
            if mask[k]:
                m = _opponents_need(s, p, s.nobles[k - ca.CHOOSE_NOBLE])
                out[k] = -float(m) if n > 1 else 0.0
        return
    if s.phase == cr.PH_PAY:
        for k in range(ca.PAY_GOLD, ca.PAY_DONE):
            if mask[k]:
                c = k - ca.PAY_GOLD
                out[k] = 1.0 if s.pay_need[c] > tokens[c] else -1.0
        if mask[ca.PAY_DONE]:
            out[ca.PAY_DONE] = 2.0
        return
    leader = s.points[p]
    for o in range(n):
        if s.points[o] > leader:
            leader = s.points[o]
    final = s.final_round != 0
    dev = max(0.2, 1.0 - leader / 18.0)
    if final:
        dev = 0.0
    # nobles table
    nob_w = np.zeros(s.nobles.shape[0])
    for k in range(s.nobles.shape[0]):
        nid = s.nobles[k]
        if nid < 0:
            continue
        nob_w[k] = 0.5 if _opponents_need(s, p, nid) < _noble_need(nid, bon) else 1.0
    base_nv = 0.0
    for k in range(s.nobles.shape[0]):
        nid = s.nobles[k]
        if nid >= 0:
            need = _noble_need(nid, bon)
            base_nv += (
                _NOBLE_PTS if need == 0 else nob_w[k] * _NOBLE_PTS * _NOBLE_FAR * _NOBLE_POW[need]
            )
    gains = np.zeros(NUM_GEMS)
    for col in range(NUM_GEMS):
        bon[col] += 1
        nv = 0.0
        for k in range(s.nobles.shape[0]):
            nid = s.nobles[k]
            if nid >= 0:
                need = _noble_need(nid, bon)
                nv += (
                    _NOBLE_PTS
                    if need == 0
                    else nob_w[k] * _NOBLE_PTS * _NOBLE_FAR * _NOBLE_POW[need]
                )
        bon[col] -= 1
        gains[col] = dev * (_BONUS_VALUE + nv - base_nv)
    # targets: 12 face-up (index = slot) then own reserved (12 + slot)
    tg_need = np.zeros((_MAX_TARGETS, NUM_GEMS), dtype=np.int64)
    tg_worth = np.zeros(_MAX_TARGETS)
    tg_card = np.full(_MAX_TARGETS, -1, dtype=np.int64)
    nt = 0
    slot_of = np.full(_MAX_TARGETS, -1, dtype=np.int64)  # action slot (0-14) -> target index
    for i in range(ca.NUM_FACEUP):
        card = s.faceup[i // 4, i % 4]
        if card >= 0:
            for c in range(NUM_GEMS):
                tg_need[nt, c] = cc.CARD_COST[card, c] - bon[c]
            tg_worth[nt] = cc.CARD_POINTS[card] + gains[cc.CARD_BONUS[card]]
            tg_card[nt] = card
            slot_of[i] = nt
            nt += 1
    for r in range(3):
        card = s.reserved[p, r]
        if card >= 0:
            for c in range(NUM_GEMS):
                tg_need[nt, c] = cc.CARD_COST[card, c] - bon[c]
            tg_worth[nt] = cc.CARD_POINTS[card] + gains[cc.CARD_BONUS[card]]
            tg_card[nt] = card
            slot_of[ca.NUM_FACEUP + r] = nt
            nt += 1
    if s.phase == cr.PH_RETURN:
        for k in range(ca.RETURN_TOKEN, ca.CHOOSE_NOBLE):
            if mask[k]:
                c = k - ca.RETURN_TOKEN
                tokens[c] -= 1
                out[k] = _reach(tg_need, tg_worth, nt, tokens, -1, -1)
                tokens[c] += 1
        return
    reach0 = _reach(tg_need, tg_worth, nt, tokens, -1, -1) if dev > 0.0 else 0.0
    t = np.zeros(6, dtype=np.int64)
    # takes
    for k in range(ca.TAKE3, ca.RESERVE_FACEUP):
        if not mask[k]:
            continue
        for c in range(6):
            t[c] = tokens[c]
        if k < ca.TAKE2_DIFF:
            for j in range(3):
                t[ca.TAKE3_COLORS[k - ca.TAKE3, j]] += 1
        elif k < ca.TAKE1:
            for j in range(2):
                t[ca.TAKE2_COLORS[k - ca.TAKE2_DIFF, j]] += 1
        elif k < ca.TAKE2_SAME:
            t[k - ca.TAKE1] += 1
        else:
            t[k - ca.TAKE2_SAME] += 2
        if dev == 0.0:
            out[k] = 0.0
            continue
        tot = 0
        for c in range(6):
            tot += t[c]
        if tot > _LIMIT:
            _after_returns(tg_need, tg_worth, nt, t)
            same = True
            for c in range(6):
                if t[c] != tokens[c]:
                    same = False
            if same:
                out[k] = -_NOOP
                continue
        out[k] = dev * _reach(tg_need, tg_worth, nt, t, -1, -1) - dev * reach0
    # reserves
    any_res = False
    for k in range(ca.RESERVE_FACEUP, ca.BUY_FACEUP):
        if mask[k]:
            any_res = True
    if any_res:
        for c in range(6):
            t[c] = tokens[c]
        if s.supply[GOLD] > 0:
            t[GOLD] += 1
        nr = s.num_reserved[p]
        slot = dev * _SLOT_COST[min(nr, _SLOT_COST.shape[0] - 1)]
        if final:
            common = -0.01
        else:
            tot = 0
            for c in range(6):
                tot += t[c]
            if tot > _LIMIT:
                _after_returns(tg_need, tg_worth, nt, t)
            common = dev * _reach(tg_need, tg_worth, nt, t, -1, -1) - dev * reach0 - slot
        for k in range(ca.RESERVE_FACEUP, ca.RESERVE_DECK):
            if not mask[k]:
                continue
            i = k - ca.RESERVE_FACEUP
            card = s.faceup[i // 4, i % 4]
            sc = common + _deny(s, p, card)
            if not final:
                short = 0
                for c in range(NUM_GEMS):
                    d = cc.CARD_COST[card, c] - bon[c] - t[c]
                    if d > 0:
                        short += d
                short = max(short - t[GOLD], 0)
                sc += (
                    _SECURE
                    * dev
                    * (cc.CARD_POINTS[card] + gains[cc.CARD_BONUS[card]])
                    * _POW[short]
                )
            out[k] = sc
        for k in range(ca.RESERVE_DECK, ca.BUY_FACEUP):
            if mask[k]:
                out[k] = common + dev * _BLIND[k - ca.RESERVE_DECK]
    # buys
    b2 = np.zeros(NUM_GEMS, dtype=np.int64)
    left = np.zeros(6, dtype=np.int64)
    for k in range(ca.BUY_FACEUP, ca.BUY_CHOOSE):
        if not mask[k]:
            continue
        i = k - ca.BUY_FACEUP
        from_res = i >= ca.NUM_FACEUP
        card = s.reserved[p, i - ca.NUM_FACEUP] if from_res else s.faceup[i // 4, i % 4]
        col = cc.CARD_BONUS[card]
        for c in range(NUM_GEMS):
            b2[c] = bon[c]
        b2[col] += 1
        gained = float(cc.CARD_POINTS[card])
        for q in range(s.nobles.shape[0]):
            nid = s.nobles[q]
            if nid >= 0 and _noble_need(nid, b2) == 0 and _noble_need(nid, bon) > 0:
                gained += _NOBLE_PTS
                break
        sc = gained
        if s.points[p] + gained >= _WIN:
            sc += _WIN_BONUS
        if final:
            out[k] = sc - (0.01 if cc.CARD_POINTS[card] == 0 else 0.0)
            continue
        sc += gains[col]
        for c in range(6):
            left[c] = tokens[c]
        gold = 0
        for c in range(NUM_GEMS):
            need = cc.CARD_COST[card, c] - bon[c]
            if need > 0:
                paid = min(need, left[c])
                left[c] -= paid
                gold += need - paid
        left[GOLD] -= gold
        skip = slot_of[i]
        before = dev * _reach(tg_need, tg_worth, nt, tokens, -1, skip)
        after = dev * _reach(tg_need, tg_worth, nt, left, col, skip)
        sc += after - before
        if not from_res:
            sc += _BUY_DENY * _deny(s, p, card)
        else:
            sc += _SLOT_FREED
        out[k] = sc
    for k in range(ca.BUY_CHOOSE, ca.PAY_GOLD):
        if mask[k]:
            out[k] = -1e3
    if mask[ca.PASS]:
        out[ca.PASS] = 0.0


@njit(cache=True)
def classic_greedy_policy(
    arr: np.ndarray, mask: np.ndarray, n_legal: int, heuristic: bool, rng: np.ndarray
) -> int:
    """Playout policy: greedy's best decision (ties at random), or with probability
    :data:`EXPLORE_IN_16`/16 a uniformly random legal one. The signature of
    :mod:`splendor.bots.playout`'s policies (``heuristic`` is ignored)."""
    if n_legal == 1 or rng_below(rng, 16) < EXPLORE_IN_16:
        return random_legal(mask, n_legal, rng)
    sc = np.empty(mask.shape[0])
    classic_greedy_scores(arr, mask, sc)
    best = -1
    bv = -np.inf
    ties = 0
    for a in range(mask.shape[0]):
        if mask[a]:
            v = sc[a]
            if v > bv + _EPS:
                best, bv, ties = a, v, 1
            elif v >= bv - _EPS:
                ties += 1
                if rng_below(rng, ties) == 0:
                    best = a
    return best
