"""The Splendor Duel greedy evaluation, compiled: a playout policy for the MCTS bot.

:func:`duel_greedy_scores` gives every legal decision of a duel state the score that
:class:`splendor.bots.greedy_duel.DuelEvaluator` gives it for the observation of the seat to
play (the same weights, read from :mod:`splendor.bots.greedy_duel`, the same target choice,
reach, denial, royal, privilege and replenish terms; score for score but for the rare
near-ties described below, checked by ``tests/bots/test_greedy_duel_compiled.py``).
:func:`duel_greedy_policy` plays the best of them with a little randomness, as MCTS
playouts need.

**What it reads** (D22): the board, the bag as counts, the pyramid, the deck sizes, the
royal cards left, the privileges, both seats' tokens, bonuses, points, crowns and colour
points, its own reserved cards (blind ones included) and the opponent's reserved cards that
were reserved face up (``reserved_blind`` 0), the phase, the card resolving and the payment
owed. Never the opponent's blind-reserved card ids, the decks' contents or order, nor the
generator (so never the bag's draw order): a determinization of the observation gets the
same scores.

**Near-ties among token returns.** The scores are DuelEvaluator's except, rarely, where
the Python evaluator breaks an exact tie between token returns (D20: "give back the token
whose loss lowers the reach least", an argmax over values that are equal in exact
arithmetic, two unneeded gems say) by the floating-point rounding of numpy's matrix
products, which depends on the BLAS kernel of the machine. This module adds its sums
plainly, left to right in float64, and gives back the first colour of equal reach, so
such a tie may send another token back: a take may then be scored as one that all goes
back (with its penalty, ``NOOP_PENALTY``), or not, and the reach after the returns, on
which takes, a replenish judged by its takes and (above 10 tokens held) buys and
privileges build, may differ. In tests about one score in 10,000 differs (27 of 330,719
over 120 games; 4 to 10 in 100,000 where the Python evaluator's sums are added in other
orders, as another BLAS kernel may; none where it adds them left to right). Which of two
equally good tokens goes back does not matter to a playout.

**Random draws.** The only chance in :class:`DuelEvaluator` is the replenish decision (D7),
judged over :data:`~splendor.bots.greedy_duel.REPLENISH_SAMPLES` random fills of the empty
cells by a numpy generator seeded from public counts (``31 * bag tokens + filled cells``).
Since the 25 tokens of D1 are always on the board, in the bag or held, a replenish fills as
many cells as the bag holds tokens, so the permutations depend only on the bag's size: they
are drawn here once, at import, with the same generator (:data:`_REPL_PERM`), and the
replenish score is the evaluator's too. A state whose tokens are not all accounted for
(never reached in play) would reuse them as an approximation.
"""

from __future__ import annotations

from typing import TypeAlias

import numpy as np
from numba import njit

from ..duel import actions as da
from ..duel import board as db
from ..duel import cards as dc
from ..duel import rules as dr
from ..jit import ENGINE_SOURCES, refresh_numba_cache, state_record
from ..rng import rng_below
from . import greedy_duel as _gd
from . import playout as _playout
from .playout import best_scored, random_legal

refresh_numba_cache(__file__, *ENGINE_SOURCES, _gd.__file__, _playout.__file__)

__all__ = ["EXPLORE_IN_16", "duel_greedy_policy", "duel_greedy_scores"]

EXPLORE_IN_16 = 1
"""Chance (out of 16) that :func:`duel_greedy_policy` plays a uniformly random decision."""

# --- DuelEvaluator's weights, frozen (numba reads module-level values as constants) ------
_WIN = _gd.WIN
_DENY_WIN = _gd.DENY_WIN
_WIN_REACH = _gd.WIN_REACH
_POW = np.array([_gd.GAMMA**k for k in range(64)], dtype=np.float64)
_RW = np.array(_gd.REACH_WEIGHTS, dtype=np.float64)
_TOP = len(_gd.REACH_WEIGHTS)
_TB = np.array(_gd.TOKEN_BASE, dtype=np.float64)
_PTS_SQ = _gd.PTS_SQ
_CROWN_LIN = _gd.CROWN_LIN
_CROWN_SQ = _gd.CROWN_SQ
_COLOR_SQ = _gd.COLOR_SQ
_TARGET_BOOST = _gd.TARGET_BOOST
_TARGET_LIN = _gd.TARGET_LIN
_EFFORT = np.array(_gd.EFFORT_SCALE, dtype=np.float64)
_BONUS_VALUE = _gd.BONUS_VALUE
_AGAIN_VALUE = _gd.AGAIN_VALUE
_TOKEN_ABILITY_VALUE = _gd.TOKEN_ABILITY_VALUE
_STEAL_VALUE = _gd.STEAL_VALUE
_PRIVILEGE_VALUE = _gd.PRIVILEGE_VALUE
_PRIVILEGE_KEEP = _gd.PRIVILEGE_KEEP
_PRIVILEGE_FIRST = _gd.PRIVILEGE_FIRST
_PRIVILEGE_GIVE = _gd.PRIVILEGE_GIVE
_DENY_WEIGHT = _gd.DENY_WEIGHT
_BUY_DENY_SHARE = _gd.BUY_DENY_SHARE
_SECURE_SHARE = _gd.SECURE_SHARE
_SLOT_COST = np.array(_gd.SLOT_COST, dtype=np.float64)
_SPEND_WEIGHT = _gd.SPEND_WEIGHT
_UNAVAILABLE_COST = _gd.UNAVAILABLE_COST
_SLOT_FREED = _gd.SLOT_FREED
_BLIND_VALUE = np.array(_gd.BLIND_VALUE, dtype=np.float64)
_NOOP_PENALTY = _gd.NOOP_PENALTY
_SAMPLES = _gd.REPLENISH_SAMPLES
_EPS = 1e-9

_GOLD = 6
_LIMIT = _gd.TOKEN_LIMIT  # D20
_WIN_POINTS = _gd.WIN_POINTS  # D21
_WIN_CROWNS = _gd.WIN_CROWNS
_WIN_COLOR = _gd.WIN_COLOR
_T_POINTS = _gd.T_POINTS
_T_CROWNS = _gd.T_CROWNS
_GOALS = np.array([_WIN_COLOR] * 5 + [_WIN_POINTS, _WIN_CROWNS], dtype=np.int64)
"""Size of each victory condition by target id (5 colours, points, crowns), D21."""
_TARGET_ORDER = np.array([_T_POINTS, _T_CROWNS, 0, 1, 2, 3, 4], dtype=np.int64)
"""The order in which the evaluator tries the targets (the first of equal efforts wins)."""
if _TOP != 4 or len(_gd.TOKEN_BASE) != 7:
    raise RuntimeError("_values keeps the best 4 reach values and 7 token weights")
_JOKER = dc.COLOR_JOKER
_MAX_VIEW = dc.NUM_PYRAMID + dc.MAX_RESERVED
"""At most 12 pyramid cards and 3 reserved cards are in view."""


def _code_rows() -> np.ndarray:
    """The row in the evaluator's take tables (:data:`~splendor.bots.greedy_duel._GAINS`)
    of each code (sum of ``4 ** colour`` over the tokens taken; -1: no such take)."""
    row = np.full(4**6, -1, dtype=np.int64)
    row[_gd._GAIN_CODES] = np.arange(len(_gd._GAIN_CODES))
    return row


# The 83 gains of a take (D8: 1-3 gem or pearl tokens) and whether each hands the opponent
# a privilege: the Python evaluator's own tables.
_GAIN = _gd._GAINS
_GIVES = _gd._GIVES
_CODE_ROW = _code_rows()
_NUM_GAINS = _GAIN.shape[0]
_CODE = np.array([4**c for c in range(6)] + [0, 0], dtype=np.int64)
"""Code of a cell's token (gold and the padding sentinel 7 count nothing)."""
_LINE_CELLS = np.where(db.LINES >= 0, db.LINES, db.NUM_CELLS).astype(np.int64)
"""Cells of each line, padded with cell 25 (which holds the sentinel 7)."""
_SPIRAL = db.SPIRAL.astype(np.int64)


def _replenish_permutations() -> np.ndarray:
    """``[n, k, :n]``: the permutation of the ``n`` bag tokens (sorted by colour) that the
    evaluator's generator draws for its ``k``-th random fill when the bag holds ``n``
    tokens and the board at least ``n`` empty cells (so ``n`` cells are filled)."""
    total = sum(db.BAG_START)
    out = np.zeros((total + 1, _SAMPLES, total), dtype=np.int8)
    for n in range(1, total + 1):
        rng = np.random.default_rng(n * 31 + n)
        for k in range(_SAMPLES):
            out[n, k, :n] = rng.permutation(n)
    return out


_REPL_PERM = _replenish_permutations()


# --------------------------------------------------------------------------- arithmetic


@njit(cache=True)
def _base(T: np.ndarray) -> float:
    """``T @ TOKEN_BASE`` for a token vector ``T`` (7,), summed left to right."""
    v = 0.0
    for c in range(7):
        v += T[c] * _TB[c]
    return v


@njit(cache=True)
def _weighted(v0: float, v1: float, v2: float, v3: float, k: int) -> float:
    """``top[:k] @ REACH_WEIGHTS[:k]`` for the best values ``v0 >= v1 >= v2 >= v3``,
    summed left to right."""
    r = v0 * _RW[0]
    if k > 1:
        r += v1 * _RW[1]
    if k > 2:
        r += v2 * _RW[2]
    if k > 3:
        r += v3 * _RW[3]
    return r


# --------------------------------------------------------------------------- holdings


@njit(cache=True)
def _phi(P: int | np.int64, C: int | np.int64, CP: np.ndarray, target: int) -> float:
    """Potential of holdings (points ``P``, crowns ``C``, colour points ``CP`` (5,)):
    convex toward each goal of D21, boosted on ``target``."""
    P = min(P, _WIN_POINTS)
    C = min(C, _WIN_CROWNS)
    v = float(P)
    sq = _PTS_SQ * P * P
    if target == _T_POINTS:
        v += sq * _TARGET_BOOST
    else:
        v += sq
    cr = _CROWN_LIN * C + _CROWN_SQ * C * C
    if target == _T_CROWNS:
        v += cr * _TARGET_BOOST + _TARGET_LIN * C
    else:
        v += cr
    for c in range(5):
        x = min(CP[c], _WIN_COLOR)
        if x != 0:
            col = _COLOR_SQ * x * x
            if target == c:
                v += col * _TARGET_BOOST + _TARGET_LIN * x
            else:
                v += col
    return v


@njit(cache=True)
def _ability_value(ab: int, can_steal: bool, token_on_board: bool) -> float:
    """Worth of a card's or royal card's ability bits ``ab`` (D13, D15-D17)."""
    v = 0.0
    if ab & dc.AB_AGAIN:
        v += _AGAIN_VALUE
    if ab == dc.AB_TOKEN and token_on_board:
        v += _TOKEN_ABILITY_VALUE
    if ab == dc.AB_PRIVILEGE:
        v += _PRIVILEGE_VALUE
    if ab == dc.AB_STEAL and can_steal:
        v += _STEAL_VALUE
    return v


@njit(cache=True)
def _has_colored(b: np.ndarray) -> bool:
    for c in range(5):
        if b[c] > 0:
            return True
    return False


@njit(cache=True)
def _joker_color(b: np.ndarray, CP: np.ndarray, target: int) -> int:
    """The colour a joker would take (D14): the most colour points, the target first;
    -1 without a coloured bonus."""
    best = -1
    best_v = -1.0
    for c in range(5):
        if b[c] > 0:
            v = CP[c] + (0.5 if c == target else 0.0) + 0.01 * b[c]
            if v > best_v:
                best = c
                best_v = v
    return best


@njit(cache=True)
def _shortfall(card: int, b: np.ndarray, t: np.ndarray) -> int:
    """Gold still missing to buy ``card`` with bonuses ``b`` and tokens ``t`` (D10)."""
    short = 0
    for c in range(6):
        n = dc.CARD_COST[card, c] - (b[c] if c < 5 else 0)
        d = n - t[c]
        if d > 0:
            short += d
    short -= t[_GOLD]
    return short if short > 0 else 0


@njit(cache=True)
def _tokens6(t: np.ndarray) -> int:
    n = 0
    for c in range(6):
        n += t[c]
    return n


@njit(cache=True)
def _royal_gain(
    roy: np.ndarray, n_roy: int, can_steal: bool, before: int | np.int64, after: int
) -> tuple[int, float, int]:
    """The royal cards (D19) a purchase taking crowns from ``before`` to ``after`` reaches,
    among the ``n_roy`` left (ids in ``roy``): points and ability worth of the best ones
    (points plus ability, the lower id first on equal worth), and the most points."""
    n = (1 if before < 3 <= after else 0) + (1 if before < 6 <= after else 0)
    if n == 0 or n_roy == 0:
        return 0, 0.0, 0
    pts = 0
    ab = 0.0
    taken = -1
    for _ in range(min(n, n_roy)):
        best = -1
        best_key = -1e300
        for i in range(n_roy):
            if i == taken:
                continue
            r = roy[i]
            key = dc.ROYAL_POINTS[r] + _ability_value(dc.ROYAL_ABILITY[r], can_steal, False)
            if key > best_key:
                best = i
                best_key = key
        taken = best
        pts += dc.ROYAL_POINTS[roy[best]]
        ab += _ability_value(dc.ROYAL_ABILITY[roy[best]], can_steal, False)
    # the most points n royal cards can bring
    most = 0
    first = -1
    for _ in range(min(n, n_roy)):
        bi = -1
        bp = -1
        for i in range(n_roy):
            if i != first and dc.ROYAL_POINTS[roy[i]] > bp:
                bi = i
                bp = dc.ROYAL_POINTS[roy[i]]
        first = bi
        most += bp
    return pts, ab, most


@njit(cache=True)
def _card_gain(
    card: int,
    b: np.ndarray,
    CP: np.ndarray,
    P: int | np.int64,
    C: int | np.int64,
    target: int,
    phi0: float,
    can_steal: bool,
    roy: np.ndarray,
    n_roy: int,
    bc: np.ndarray,
    dev: float,
) -> tuple[float, bool]:
    """What buying ``card`` brings a seat (``b``, ``CP``, ``P``, ``C``; ``phi0`` its
    potential now): worth, and whether it wins at once (D21, royal cards of D19 included).
    ``can_steal``: the other seat holds a gem or pearl (D17); ``bc`` board counts (D15)."""
    col = dc.CARD_COLOR[card]
    if col == _JOKER:
        col = _joker_color(b, CP, target)
    pts = dc.CARD_POINTS[card]
    P2 = P + pts
    C2 = C + dc.CARD_CROWNS[card]
    CP2 = CP.copy()
    if col >= 0:
        CP2[col] += pts
    royal_pts, royal_ab, royal_most = _royal_gain(roy, n_roy, can_steal, C, C2)
    win = (
        P2 + royal_most >= _WIN_POINTS or C2 >= _WIN_CROWNS or (col >= 0 and CP2[col] >= _WIN_COLOR)
    )
    P2 += royal_pts
    gain = _phi(P2, C2, CP2, target) - phi0
    gain += royal_ab
    if col >= 0:
        gain += _BONUS_VALUE * dev * dc.CARD_BONUS_COUNT[card]
    gain += _ability_value(dc.CARD_ABILITY[card], can_steal, col >= 0 and bc[col] > 0)
    return gain, win


@njit(cache=True)
def _choose_target(
    b: np.ndarray,
    CP: np.ndarray,
    P: int | np.int64,
    C: int | np.int64,
    t: np.ndarray,
    view: np.ndarray,
    nview: int,
) -> int:
    """The victory condition of D21 with the least estimated effort left, given the
    ``nview`` cards in ``view`` weighted by how near they are to affordable."""
    vis = np.zeros(7)
    colored = _has_colored(b)
    for i in range(nview):
        card = view[i]
        color = dc.CARD_COLOR[card]
        if color == _JOKER and not colored:
            continue
        w = _POW[min(_shortfall(card, b, t), 63)]
        pts = dc.CARD_POINTS[card]
        vis[_T_POINTS] += w * pts
        vis[_T_CROWNS] += w * dc.CARD_CROWNS[card]
        if 0 <= color < 5:
            vis[color] += w * pts
        elif color == _JOKER and pts:
            for c in range(5):
                if b[c] > 0:
                    vis[c] += w * pts
    best = _T_POINTS
    best_e = 1e9
    for j in range(7):
        k = _TARGET_ORDER[j]
        if k < 5:
            left = _WIN_COLOR - CP[k]
        elif k == _T_POINTS:
            left = _WIN_POINTS - P
        else:
            left = _WIN_CROWNS - C
        r = max(left, 0)
        m = vis[k] if vis[k] < r else float(r)
        e = (r - 0.5 * m) / _GOALS[k] * _EFFORT[k]
        if e < best_e - _EPS:
            best = k
            best_e = e
    return best


@njit(cache=True)
def _side_model(
    view: np.ndarray,
    nview: int,
    b: np.ndarray,
    CP: np.ndarray,
    P: int | np.int64,
    C: int | np.int64,
    t: np.ndarray,
    can_steal: bool,
    roy: np.ndarray,
    n_roy: int,
    bc: np.ndarray,
    dev: float,
    gain: np.ndarray,
    win: np.ndarray,
    need: np.ndarray,
    worth: np.ndarray,
    ridx: np.ndarray,
) -> tuple[int, float, int]:
    """One seat's target, potential and reach model over its cards in view: fills
    ``gain``/``win`` per view card, and the reach cards (``need`` (15, 6) cost less
    bonuses, ``worth`` (15,)); ``ridx`` maps a view card to its reach row (-1: a joker
    that cannot be bought yet, D14). Returns (target, potential, reach cards)."""
    target = _choose_target(b, CP, P, C, t, view, nview)
    phi0 = _phi(P, C, CP, target)
    colored = _has_colored(b)
    n = 0
    for i in range(nview):
        card = view[i]
        g, w = _card_gain(card, b, CP, P, C, target, phi0, can_steal, roy, n_roy, bc, dev)
        gain[i] = g
        win[i] = w
        if dc.CARD_COLOR[card] == _JOKER and not colored:
            ridx[i] = -1
            continue
        ridx[i] = n
        for c in range(5):
            need[n, c] = dc.CARD_COST[card, c] - b[c]
        need[n, 5] = dc.CARD_COST[card, 5]
        worth[n] = max(g, 0.05) + (_WIN_REACH if w else 0.0)
        n += 1
    return target, phi0, n


# --------------------------------------------------------------------------- reach
# A reach model is a tuple ``(need, worth, n, avail)``: the cost less bonuses of each of
# the ``n`` cards in reach (int64 (15, 6)), their worth (float64 (15,)), and the tokens of
# each colour on the board or in the bag (int64 (6,)). A memo is a tuple ``(keys, values)``
# (int64 and float64, (_MEMO_SIZE,), keys -1 when free) of batch reach values by token vector.
ReachModel: TypeAlias = tuple[np.ndarray, np.ndarray, int, np.ndarray]
Memo: TypeAlias = tuple[np.ndarray, np.ndarray]

_MEMO_BITS = 11
_MEMO_SIZE = 1 << _MEMO_BITS
_MEMO_PROBES = 16


@njit(cache=True)
def _values(R: ReachModel, T: np.ndarray, ex_col: int, ex_n: int, skip: int) -> float:
    """The reach of tokens ``T`` (7,): the best :data:`_TOP` of ``worth * GAMMA **
    shortfall`` over the cards of reach model ``R``, weighted, plus a little per token; a
    token missing beyond what the board and bag hold counts twice. ``ex_col``/``ex_n``:
    bonuses gained first (a card bought; -1 none); ``skip``: a card left out (-1 none)."""
    need, worth, n, avail = R
    base = _base(T)
    if n == 0:
        return base
    v0 = 0.0
    v1 = 0.0
    v2 = 0.0
    v3 = 0.0
    for i in range(n):
        if i == skip:
            continue  # a 0 among the best: no change to the sum
        short = 0
        extra = 0
        for c in range(6):
            d = need[i, c] - T[c]
            if c == ex_col:
                d -= ex_n
            if d > 0:
                short += d
                e = d - avail[c]
                if e > 0:
                    extra += e
        short += _UNAVAILABLE_COST * extra - T[_GOLD]
        if short < 0:
            short = 0
        elif short > 63:
            short = 63
        v = worth[i] * _POW[short]
        if v > v3:  # keep the best four, in decreasing order
            if v > v1:
                v3 = v2
                v2 = v1
                if v > v0:
                    v1 = v0
                    v0 = v
                else:
                    v1 = v
            elif v > v2:
                v3 = v2
                v2 = v
            else:
                v3 = v
    return _weighted(v0, v1, v2, v3, min(n, _TOP)) + base


@njit(cache=True)
def _batch_value(R: ReachModel, memo: Memo, T: np.ndarray) -> float:
    """``_values(R, T)`` (no extra bonus, no card left out), remembered in ``memo``: the
    returns of many takes go through the same vectors."""
    keys, vals = memo
    key = 0
    for c in range(7):
        x = T[c]
        if x < 0 or x > 15:
            return _values(R, T, -1, 0, -1)
        key = (key << 4) | x
    h = (np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - _MEMO_BITS)
    i = np.int64(h)
    for _ in range(_MEMO_PROBES):
        k = keys[i]
        if k == key:
            return vals[i]
        if k < 0:
            v = _values(R, T, -1, 0, -1)
            keys[i] = key
            vals[i] = v
            return v
        i = (i + 1) & (_MEMO_SIZE - 1)
    return _values(R, T, -1, 0, -1)


@njit(cache=True)
def _settle(R: ReachModel, memo: Memo, T: np.ndarray) -> None:
    """D20 on ``T`` (7,), in place: above 10 tokens, give back one at a time the token
    whose loss lowers the reach least (the first colour on equal reach)."""
    over = -_LIMIT
    for c in range(7):
        over += T[c]
    while over > 0:
        best = -1
        best_v = -np.inf
        for c in range(7):
            if T[c] <= 0:
                continue
            T[c] -= 1
            v = _batch_value(R, memo, T)
            T[c] += 1
            if v > best_v:
                best = c
                best_v = v
        T[best] -= 1
        over -= 1


@njit(cache=True)
def _settled_value(R: ReachModel, memo: Memo, t: np.ndarray, work: np.ndarray) -> float:
    """Reach of ``t`` (7,) after the returns of D20 (``work`` (7,) scratch)."""
    for c in range(7):
        work[c] = t[c]
    _settle(R, memo, work)
    return _batch_value(R, memo, work)


@njit(cache=True)
def _take_value(
    g: int, t: np.ndarray, R: ReachModel, memo: Memo, r0: float, give_cost: float, work: np.ndarray
) -> float:
    """Score of the take of gain row ``g`` (D8) with tokens ``t``: the reach gained after
    the returns of D20, less the cost of a take that all goes back and of the privilege it
    may hand the opponent (D8)."""
    for c in range(7):
        work[c] = t[c] + _GAIN[g, c]
    _settle(R, memo, work)
    v = _batch_value(R, memo, work) - r0
    same = True
    for c in range(7):
        if work[c] != t[c]:
            same = False
    if same:
        v -= _NOOP_PENALTY
    if _GIVES[g]:
        v -= give_cost
    return v


@njit(cache=True)
def _take_code(board: np.ndarray, line: int) -> int:
    """The evaluator's code of the tokens of a legal ``line`` (sum of ``4 ** colour``)."""
    code = 0
    for j in range(3):
        code += _CODE[board[_LINE_CELLS[line, j]]]
    return code


# --------------------------------------------------------------------------- the opponent


@njit(cache=True)
def _can_buy_next(
    card: int, b: np.ndarray, t: np.ndarray, priv: int | np.int64, bc: np.ndarray
) -> bool:
    """Whether a seat (bonuses ``b``, tokens ``t``, ``priv`` privileges) could buy
    ``card`` on its next turn: tokens and gold, plus one board token per privilege (D6,
    D10, D14); ``bc`` tokens on the board per colour."""
    if dc.CARD_COLOR[card] == _JOKER and not _has_colored(b):
        return False
    short = 0
    for c in range(6):
        m = dc.CARD_COST[card, c] - (b[c] if c < 5 else 0) - t[c]
        if m > 0:
            short += m
    short -= t[_GOLD]
    if short <= 0:
        return True
    if priv == 0:
        return False
    usable = 0
    for c in range(6):
        m = dc.CARD_COST[card, c] - (b[c] if c < 5 else 0) - t[c]
        if m > 0:
            usable += min(m, bc[c])
    return short <= min(priv, usable)


@njit(cache=True)
def _wins_next(
    view: np.ndarray,
    nview: int,
    win: np.ndarray,
    ridx: np.ndarray,
    b: np.ndarray,
    t: np.ndarray,
    priv: int | np.int64,
    bc: np.ndarray,
) -> bool:
    """Whether a seat could buy, on its next turn, a card of its reach that wins (D21)."""
    for i in range(nview):
        if ridx[i] >= 0 and win[i] and _can_buy_next(view[i], b, t, priv, bc):
            return True
    return False


# --------------------------------------------------------------------------- decisions


@njit(cache=True)
def _replenish_score(
    board: np.ndarray,
    bag: np.ndarray,
    best_mand: float,
    give_cost: float,
    nres: int | np.int64,
    t: np.ndarray,
    R: ReachModel,
    memo: Memo,
    r0: float,
    table: np.ndarray,
    done: np.ndarray,
    work: np.ndarray,
) -> float:
    """D7: the better take the bag may bring (over the evaluator's fills of the empty
    cells, :data:`_REPL_PERM`) than the best mandatory action ``best_mand``, less the
    privilege the opponent takes. ``table``/``done``: take scores per gain row, filled on
    demand."""
    total = 0
    for c in range(7):
        total += bag[c]
    if total == 0:
        return -1e3
    toks = np.empty(total, dtype=np.int64)  # the bag, sorted by colour
    m = 0
    for c in range(7):
        for _ in range(bag[c]):
            toks[m] = c
            m += 1
    empties = np.empty(db.NUM_CELLS, dtype=np.int64)  # spiral order (D2)
    ne = 0
    for i in range(db.NUM_CELLS):
        cell = _SPIRAL[i]
        if board[cell] < 0 and ne < total:
            empties[ne] = cell
            ne += 1
    # lines away from the empty cells are the same in every fill
    n_lines = _LINE_CELLS.shape[0]
    fixed_best = -np.inf
    touches = np.zeros(n_lines, dtype=np.bool_)
    for line in range(n_lines):
        bad = False
        for j in range(3):
            v = board[_LINE_CELLS[line, j]]
            if v < 0:
                touches[line] = True
            if v < 0 or v == _GOLD:
                bad = True
        if not bad:
            g = _CODE_ROW[_take_code(board, line)]
            if not done[g]:
                table[g] = _take_value(g, t, R, memo, r0, give_cost, work)
                done[g] = True
            fixed_best = max(fixed_best, table[g])
    after = np.empty(_SAMPLES)
    sample = board.copy()
    for k in range(_SAMPLES):
        for i in range(ne):
            sample[empties[i]] = toks[_REPL_PERM[total, k, i]]
        best = fixed_best
        for line in range(n_lines):
            if not touches[line]:
                continue
            bad = False
            for j in range(3):
                v = sample[_LINE_CELLS[line, j]]
                if v < 0 or v == _GOLD:
                    bad = True
            if bad:
                continue
            g = _CODE_ROW[_take_code(sample, line)]
            if not done[g]:
                table[g] = _take_value(g, t, R, memo, r0, give_cost, work)
                done[g] = True
            best = max(best, table[g])
        after[k] = best if best > best_mand else best_mand
    total_after = 0.0
    for k in range(_SAMPLES):
        total_after += after[k]
    gain = total_after / _SAMPLES - best_mand
    if bag[_GOLD] > 0 and nres < 3:
        gain += 0.1
    return best_mand + gain - give_cost - _EPS


@njit(cache=True)
def _main_scores(
    mask: np.ndarray,
    out: np.ndarray,
    board: np.ndarray,
    bag: np.ndarray,
    t: np.ndarray,
    b: np.ndarray,
    cp: np.ndarray,
    target: int,
    R: ReachModel,
    memo: Memo,
    r0: float,
    view: np.ndarray,
    pyr_view: np.ndarray,
    npyr: int,
    gain: np.ndarray,
    win: np.ndarray,
    ridx: np.ndarray,
    threat_v: np.ndarray,
    threat_w: np.ndarray,
    res_opt: np.ndarray,
    res_ok: np.ndarray,
    give_cost: float,
    free_priv: int | np.int64,
    dev: float,
    nres: int | np.int64,
) -> None:
    """Scores of the main phase (D6-D10, D12): privileges, replenish, takes, gold for a
    reserve, buys. ``t``/``b``/``cp``: the seat's tokens, bonuses, colour points; ``view``
    its cards in view (the pyramid, then its reserved cards; ``pyr_view`` the view index of
    each pyramid slot) with ``gain``/``win``/``ridx`` per view card; ``threat_*`` the
    denial worth of each pyramid card; ``res_opt``/``res_ok`` the reserve options."""
    work = np.empty(7, dtype=np.int64)
    work2 = np.empty(7, dtype=np.int64)
    # ---- takes (D8, D20): one score per distinct gain of tokens
    replenish = mask[da.REPLENISH]
    table = np.empty(_NUM_GAINS)
    done = np.zeros(_NUM_GAINS, dtype=np.bool_)
    best_mand = -np.inf
    has_mand = False
    for a in range(da.TAKE, da.TAKE_GOLD):
        if mask[a]:
            g = _CODE_ROW[_take_code(board, a - da.TAKE)]
            if not done[g]:
                table[g] = _take_value(g, t, R, memo, r0, give_cost, work)
                done[g] = True
            out[a] = table[g]
    # ---- buys (D10): gain, the reach left after the default payment, denial
    n_buy = 0
    for a in range(da.BUY, da.BUY_CHOOSE):
        if mask[a]:
            n_buy += 1
    if n_buy > 0:
        for c in range(7):
            work[c] = t[c]
        _settle(R, memo, work)  # the holdings now, after the returns of D20
    for a in range(da.BUY, da.BUY_CHOOSE):
        if not mask[a]:
            continue
        src = a - da.BUY
        i = pyr_view[src] if src < dc.NUM_PYRAMID else npyr + src - dc.NUM_PYRAMID
        card = view[i]
        gold = 0
        for c in range(7):
            work2[c] = t[c]
        for c in range(6):
            n = dc.CARD_COST[card, c] - (b[c] if c < 5 else 0)
            if n > 0:
                paid = min(n, work2[c])
                work2[c] -= paid
                gold += n - paid
        work2[_GOLD] -= gold
        col = dc.CARD_COLOR[card]
        if col == _JOKER:
            col = _joker_color(b, cp, target)
        ex_n = dc.CARD_BONUS_COUNT[card] if col >= 0 else 0
        after = _values(R, work2, col, ex_n, ridx[i])
        before = _values(R, work, -1, 0, ridx[i])
        spent = after - before
        sc = gain[i] + (spent * _SPEND_WEIGHT if spent < 0 else spent)
        if win[i]:
            sc += _WIN
        if src >= dc.NUM_PYRAMID:
            sc += _SLOT_FREED
        else:
            sc += _BUY_DENY_SHARE * threat_v[i] + (_DENY_WIN if threat_w[i] else 0.0)
        out[a] = sc
    for a in range(da.BUY_CHOOSE, da.PAY_GOLD):
        if mask[a]:
            out[a] = -1e3  # the default payment (gold kept) is always legal beside it
    # ---- gold for a reserve (D9): the gold's reach and the best card or deck
    has_gold = False
    for a in range(da.TAKE_GOLD, da.RESERVE):
        has_gold |= mask[a]
    if has_gold:
        for c in range(7):
            work2[c] = t[c]
        work2[_GOLD] += 1
        gold_gain = _settled_value(R, memo, work2, work) - r0
        best_res = -np.inf
        for k in range(res_opt.shape[0]):
            if res_ok[k]:
                best_res = max(best_res, res_opt[k])
        if best_res == -np.inf:
            best_res = -1e6
        for a in range(da.TAKE_GOLD, da.RESERVE):
            if mask[a]:
                out[a] = gold_gain + best_res
    for a in range(da.TAKE, da.PAY_GOLD):
        if mask[a] and not da.RESERVE <= a < da.BUY:
            has_mand = True
            best_mand = max(best_mand, out[a])
    # ---- privileges (D6): worth the token, before the mandatory action
    seen = np.zeros(7, dtype=np.bool_)
    n_col = 0
    for a in range(da.PRIVILEGE, da.REPLENISH):
        if mask[a] and not seen[board[a - da.PRIVILEGE]]:
            seen[board[a - da.PRIVILEGE]] = True
            n_col += 1
    if n_col > 0:
        keep = _PRIVILEGE_KEEP * (1.0 if free_priv > 0 else 0.6) * (0.5 + 0.5 * dev)
        pgain = np.zeros(7)
        for c in range(6):
            if seen[c]:
                for j in range(7):
                    work2[j] = t[j]
                work2[c] += 1
                pgain[c] = _settled_value(R, memo, work2, work) - r0
        for a in range(da.PRIVILEGE, da.REPLENISH):
            if mask[a]:
                d = pgain[board[a - da.PRIVILEGE]] - keep
                out[a] = (_PRIVILEGE_FIRST + d) if d > 0 else (-50.0 + d)
    # ---- replenish (D7, D12)
    if replenish:
        if not has_mand:
            out[da.REPLENISH] = 10.0  # D12: nothing else can be done
        else:
            out[da.REPLENISH] = _replenish_score(
                board, bag, best_mand, give_cost, nres, t, R, memo, r0, table, done, work
            )
    if mask[da.PASS]:
        out[da.PASS] = 0.0


@njit(cache=True)
def _phase_scores(
    s: np.record,
    mask: np.ndarray,
    out: np.ndarray,
    t: np.ndarray,
    b: np.ndarray,
    cp: np.ndarray,
    P: int | np.int64,
    C: int | np.int64,
    target: int,
    R: ReachModel,
    memo: Memo,
    r0: float,
    t_opp: np.ndarray,
    b_opp: np.ndarray,
    priv_opp: int | np.int64,
    R_opp: ReachModel,
    view_opp: np.ndarray,
    nv_opp: int,
    win_opp: np.ndarray,
    ridx_opp: np.ndarray,
    bc: np.ndarray,
    res_opt: np.ndarray,
    can_steal: bool,
) -> None:
    """Scores of the decisions outside the main phase: reserve (D9), payment (D10), joker
    (D14), token (D15), steal (D17), royal card (D19), return (D20) and pass. ``s`` is the
    state record (its phase, payment, resolving card and royal cards are read)."""
    work = np.empty(7, dtype=np.int64)
    work2 = np.empty(7, dtype=np.int64)
    for a in range(da.RESERVE, da.BUY):
        if mask[a]:
            out[a] = res_opt[a - da.RESERVE]
    for a in range(da.PAY_GOLD, da.PAY_DONE):  # gold only where tokens are missing
        if mask[a]:
            c = a - da.PAY_GOLD
            out[a] = 1.0 if s.phase == dr.PH_PAY and s.pay_need[c] > t[c] else -1.0
    if mask[da.PAY_DONE]:
        out[da.PAY_DONE] = 2.0
    card = s.pend_card
    for a in range(da.JOKER, da.TOKEN):
        if not mask[a]:
            continue
        c = a - da.JOKER
        cp2 = cp.copy()
        cp2[c] += dc.CARD_POINTS[card] if card >= 0 else 0
        if cp2[c] >= _WIN_COLOR:
            out[a] = _WIN
            continue
        sc = _phi(P, C, cp2, target) - _phi(P, C, cp, target)
        ex_n = dc.CARD_BONUS_COUNT[card] if card >= 0 else 1
        sc += _values(R, t, c, ex_n, -1) - r0
        out[a] = sc + 0.001 * b[c]
    for a in range(da.TOKEN, da.STEAL):  # every legal cell holds the card's colour
        if mask[a]:
            out[a] = 0.0
    for a in range(da.STEAL, da.ROYAL):
        if not mask[a]:
            continue
        c = a - da.STEAL
        for j in range(7):
            work2[j] = t[j]
        work2[c] += 1
        sc = _settled_value(R, memo, work2, work) - r0
        for j in range(7):
            work2[j] = t_opp[j]
        work2[c] -= 1
        loss = _values(R_opp, t_opp, -1, 0, -1) - _values(R_opp, work2, -1, 0, -1)
        sc += 0.5 * loss
        # break a win the opponent could buy on its next turn
        if _wins_next(
            view_opp, nv_opp, win_opp, ridx_opp, b_opp, t_opp, priv_opp, bc
        ) and not _wins_next(view_opp, nv_opp, win_opp, ridx_opp, b_opp, work2, priv_opp, bc):
            sc += _DENY_WIN
        out[a] = sc
    for a in range(da.ROYAL, da.RETURN_TOKEN):
        if not mask[a]:
            continue
        k = a - da.ROYAL
        rp = dc.ROYAL_POINTS[k]
        if s.royal_owner[k] >= 0:
            out[a] = -1e6
        elif P + rp >= _WIN_POINTS:
            out[a] = _WIN + rp
        else:
            sc = _phi(P + rp, C, cp, target) - _phi(P, C, cp, target)
            out[a] = sc + _ability_value(dc.ROYAL_ABILITY[k], can_steal, False)
    for a in range(da.RETURN_TOKEN, da.PASS):
        if mask[a]:
            for j in range(7):
                work2[j] = t[j]
            work2[a - da.RETURN_TOKEN] -= 1
            out[a] = _values(R, work2, -1, 0, -1)
    if mask[da.PASS]:
        out[da.PASS] = 0.0


@njit(cache=True)
def duel_greedy_scores(arr: np.ndarray, mask: np.ndarray, out: np.ndarray) -> None:
    """:class:`~splendor.bots.greedy_duel.DuelEvaluator`'s score of every legal decision.

    Args:
        arr: a duel state (:data:`splendor.duel.state.STATE_DTYPE`, shape ``(1,)``), full
            or an observation of the seat to play; only what that seat may see is read
            (D22, see the module docstring).
        mask: its legal decisions (bool, ``(NUM_ACTIONS,)``, from
            :func:`splendor.duel.rules.legal_mask`).
        out: float64, ``(NUM_ACTIONS,)``: set to the score of each legal id (higher is
            better, in prestige points; :data:`~splendor.bots.greedy_duel.WIN` for a win
            at once, D21) and ``-inf`` elsewhere; the same as
            ``DuelEvaluator(state.observation(seat)).scores(legal)`` for every decision:
            privileges (D6), replenish (D7, D12), takes (D8, D20), gold and reserves (D9),
            buys (D10, D13-D19), payments (D10), jokers (D14), tokens (D15), steals
            (D17), royal cards (D19), returns (D20) and pass.
    """
    s = state_record(arr)
    out[:] = -np.inf
    p = s.current
    if p < 0:
        return
    o = 1 - p
    # ---- public holdings (D22)
    tm = np.empty(7, dtype=np.int64)
    to = np.empty(7, dtype=np.int64)
    bag = np.empty(7, dtype=np.int64)
    for c in range(7):
        tm[c] = s.tokens[p, c]
        to[c] = s.tokens[o, c]
        bag[c] = s.bag[c]
    bm = np.empty(5, dtype=np.int64)
    bo = np.empty(5, dtype=np.int64)
    cpm = np.empty(5, dtype=np.int64)
    cpo = np.empty(5, dtype=np.int64)
    for c in range(5):
        bm[c] = s.bonuses[p, c]
        bo[c] = s.bonuses[o, c]
        cpm[c] = s.color_points[p, c]
        cpo[c] = s.color_points[o, c]
    Pm = np.int64(s.points[p])
    Po = np.int64(s.points[o])
    Cm = np.int64(s.crowns[p])
    Co = np.int64(s.crowns[o])
    priv_m = np.int64(s.privileges[p])
    priv_o = np.int64(s.privileges[o])
    free_priv = 3 - priv_m - priv_o
    nres_m = np.int64(s.num_reserved[p])
    board = np.empty(db.NUM_CELLS + 1, dtype=np.int64)  # + the padding sentinel
    bc = np.zeros(8, dtype=np.int64)
    for cell in range(db.NUM_CELLS):
        v = np.int64(s.board[cell])
        board[cell] = v
        if v >= 0:
            bc[v] += 1
    board[db.NUM_CELLS] = 7
    avail = np.empty(6, dtype=np.int64)
    for c in range(6):
        avail[c] = bc[c] + bag[c]
    roy = np.empty(dc.NUM_ROYALS, dtype=np.int64)  # royal cards left (D19)
    n_roy = 0
    for k in range(dc.NUM_ROYALS):
        if s.royal_owner[k] < 0:
            roy[n_roy] = k
            n_roy += 1
    mx_m = 0
    mx_o = 0
    for c in range(5):
        mx_m = max(mx_m, cpm[c])
        mx_o = max(mx_o, cpo[c])
    prog = max(0.0, Pm / _WIN_POINTS, Cm / _WIN_CROWNS, mx_m / _WIN_COLOR)
    prog = max(prog, Po / _WIN_POINTS, Co / _WIN_CROWNS, mx_o / _WIN_COLOR)
    dev = max(0.25, 1.0 - prog)
    can_steal_m = _tokens6(to) > 0  # the other seat holds a gem or pearl (D17)
    can_steal_o = _tokens6(tm) > 0
    # ---- cards in view: the pyramid, then the seat's reserved cards (all of them) or
    # the opponent's reserved face up (never its blind reserves, D22)
    view_m = np.empty(_MAX_VIEW, dtype=np.int64)
    view_o = np.empty(_MAX_VIEW, dtype=np.int64)
    pyr_view = np.full(dc.NUM_PYRAMID, -1, dtype=np.int64)
    npyr = 0
    for k in range(dc.NUM_PYRAMID):
        card = s.pyramid[k]
        if card >= 0:
            pyr_view[k] = npyr
            view_m[npyr] = card
            view_o[npyr] = card
            npyr += 1
    nv_m = npyr
    for k in range(nres_m):
        view_m[nv_m] = s.reserved[p, k]
        nv_m += 1
    nv_o = npyr
    for k in range(s.num_reserved[o]):
        if s.reserved_blind[o, k] == 0:
            view_o[nv_o] = s.reserved[o, k]
            nv_o += 1
    # ---- the seat's target, card gains and reach
    gain_m = np.empty(_MAX_VIEW)
    win_m = np.zeros(_MAX_VIEW, dtype=np.bool_)
    need_m = np.empty((_MAX_VIEW, 6), dtype=np.int64)
    worth_m = np.empty(_MAX_VIEW)
    ridx_m = np.empty(_MAX_VIEW, dtype=np.int64)
    target_m, _, n_m = _side_model(
        view_m,
        nv_m,
        bm,
        cpm,
        Pm,
        Cm,
        tm,
        can_steal_m,
        roy,
        n_roy,
        bc,
        dev,
        gain_m,
        win_m,
        need_m,
        worth_m,
        ridx_m,
    )
    R_m = (need_m, worth_m, n_m, avail)
    memo = (np.full(_MEMO_SIZE, -1, dtype=np.int64), np.empty(_MEMO_SIZE))
    work = np.empty(7, dtype=np.int64)
    r0 = _settled_value(R_m, memo, tm, work)
    # ---- which decisions are scored
    main = False
    for a in range(da.PRIVILEGE, da.RESERVE):
        main |= mask[a]
    for a in range(da.BUY, da.PAY_GOLD):
        main |= mask[a]
    reserve = False  # gold for a reserve, or the reserve itself (D9)
    for a in range(da.TAKE_GOLD, da.BUY):
        reserve |= mask[a]
    need_opp = reserve
    for a in range(da.BUY, da.BUY + dc.NUM_PYRAMID):
        need_opp |= mask[a]
    for a in range(da.STEAL, da.ROYAL):
        need_opp |= mask[a]
    # ---- the opponent's target, card gains and reach; the pyramid cards it could buy
    # next turn (the denial of a buy or a reserve)
    gain_o = np.empty(_MAX_VIEW)
    win_o = np.zeros(_MAX_VIEW, dtype=np.bool_)
    need_o = np.empty((_MAX_VIEW, 6), dtype=np.int64)
    worth_o = np.empty(_MAX_VIEW)
    ridx_o = np.empty(_MAX_VIEW, dtype=np.int64)
    threat_v = np.zeros(dc.NUM_PYRAMID)
    threat_w = np.zeros(dc.NUM_PYRAMID, dtype=np.bool_)
    n_o = 0
    if need_opp:
        _, _, n_o = _side_model(
            view_o,
            nv_o,
            bo,
            cpo,
            Po,
            Co,
            to,
            can_steal_o,
            roy,
            n_roy,
            bc,
            dev,
            gain_o,
            win_o,
            need_o,
            worth_o,
            ridx_o,
        )
        for i in range(npyr):
            if _can_buy_next(view_o[i], bo, to, priv_o, bc):
                threat_v[i] = _DENY_WEIGHT * max(gain_o[i], 0.0)
                threat_w[i] = win_o[i]
    R_o = (need_o, worth_o, n_o, avail)
    # ---- reserve options (D9): each pyramid card, then each deck
    res_opt = np.full(dc.NUM_PYRAMID + 3, -1e6)
    res_ok = np.zeros(dc.NUM_PYRAMID + 3, dtype=np.bool_)
    if reserve:
        slot = _SLOT_COST[min(nres_m, _SLOT_COST.shape[0] - 1)] * (0.5 + 0.5 * dev)
        tr = tm.copy()
        if s.phase == dr.PH_MAIN:
            tr[_GOLD] += 1  # the gold taken first
        colored = _has_colored(bm)
        for k in range(dc.NUM_PYRAMID):
            i = pyr_view[k]
            if i < 0:
                continue
            card = view_m[i]
            v = (threat_v[i] + (_DENY_WIN if threat_w[i] else 0.0)) - slot
            if dc.CARD_COLOR[card] != _JOKER or colored:
                worth = max(gain_m[i], 0.0) + (_WIN_REACH if win_m[i] else 0.0)
                v += _SECURE_SHARE * worth * _POW[min(_shortfall(card, bm, tr), 63)]
            res_opt[k] = v
            res_ok[k] = True
        for lvl in range(3):
            if s.deck_len[lvl] > 0:
                res_opt[dc.NUM_PYRAMID + lvl] = _BLIND_VALUE[lvl] * dev - slot
                res_ok[dc.NUM_PYRAMID + lvl] = True
    # privileges handed to the opponent (D7, D8, D18)
    if priv_o >= 3:
        give_cost = 0.0
    elif free_priv > 0:
        give_cost = _PRIVILEGE_GIVE
    else:
        give_cost = (_PRIVILEGE_GIVE + _PRIVILEGE_KEEP) if priv_m > 0 else 0.0
    if main:
        _main_scores(
            mask,
            out,
            board,
            bag,
            tm,
            bm,
            cpm,
            target_m,
            R_m,
            memo,
            r0,
            view_m,
            pyr_view,
            npyr,
            gain_m,
            win_m,
            ridx_m,
            threat_v,
            threat_w,
            res_opt,
            res_ok,
            give_cost,
            free_priv,
            dev,
            nres_m,
        )
    else:
        _phase_scores(
            s,
            mask,
            out,
            tm,
            bm,
            cpm,
            Pm,
            Cm,
            target_m,
            R_m,
            memo,
            r0,
            to,
            bo,
            priv_o,
            R_o,
            view_o,
            nv_o,
            win_o,
            ridx_o,
            bc,
            res_opt,
            can_steal_m,
        )


# --------------------------------------------------------------------------- policy


@njit(cache=True)
def duel_greedy_policy(
    arr: np.ndarray, mask: np.ndarray, n_legal: int, heuristic: bool, rng: np.ndarray
) -> int:
    """Playout policy of Splendor Duel with the signature of
    :func:`splendor.bots.playout.duel_policy` (``heuristic`` is ignored): with
    ``n_legal == 1`` or with probability :data:`EXPLORE_IN_16`/16 a uniformly random legal
    id, else the legal id with the best :func:`duel_greedy_scores` score, ties (within
    1e-9 of the best, as :class:`~splendor.bots.greedy.GreedyBot` counts them) drawn
    uniformly from ``rng`` (splitmix64, uint64 ``(1,)``)."""
    if n_legal == 1 or rng_below(rng, 16) < EXPLORE_IN_16:
        return random_legal(mask, n_legal, rng)
    sc = np.empty(mask.shape[0])
    duel_greedy_scores(arr, mask, sc)
    return best_scored(mask, sc, rng)
