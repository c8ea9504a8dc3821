"""The one-ply heuristic evaluator of :class:`~splendor.bots.greedy.GreedyBot` for
Splendor Duel.

:class:`DuelEvaluator` reads one :class:`splendor.duel.Observation` (never hidden
information: the opponent's blind reserves and the deck order are not in it) and scores
every legal decision; the bot plays the best one. Scores are in prestige-point units.

**Aim.** Each seat gets a *target* among the victory conditions of D21 (20 points, 10
crowns, 10 points in one colour): the one with the least estimated effort left, given what
it holds and the cards in view (face-up pyramid and its own reserves, each weighted by how
near it is to affordable). A potential over points, crowns and colour points, convex so
that progress near a goal counts more and boosted on the target, values what a card
brings; a card that meets a condition scores :data:`WIN` (a win at once).

**Reach.** As for classic Splendor, the cards in view are worth
``worth * GAMMA ** shortfall`` (the tokens still missing after bonuses, tokens and gold;
a missing token that is neither on the board nor in the bag, so held by the opponent,
counts twice); the best few count (:data:`REACH_WEIGHTS`). Taking, spending and returning
tokens, using privileges, replenishing and reserving for gold are scored by how they change
this reach; a take above 10 tokens counts what it gives back (D20) as the return decision
would.

**Decisions.**

* ``buy``: the card's potential gain (points, crowns, colour points, royal cards reached
  at 3 and 6 crowns, D19), its bonus, its ability (``again``, ``token``, ``privilege``,
  ``steal``), the reach of what is left after the default payment (coloured tokens and
  pearls first, gold kept, D10; a loss of reach counts :data:`SPEND_WEIGHT` of itself:
  spent tokens come back, a card stays), and denial of a card the opponent wants.
  ``buy … choose`` is never picked: the default payment is always legal beside it.
* ``take``: the reach gained, a little per token kept, minus the cost of handing the
  opponent a privilege (3 of a colour or both pearls, D8).
* ``privilege``: used when the token it brings is worth more than keeping the scroll;
  such a use comes before the mandatory action (it costs no action).
* ``replenish``: when the bag would bring a better take than the board offers now (judged
  over a few random fills of the empty cells), by more than the privilege it gives the
  opponent is worth (D7); always when it is forced (D12).
* ``gold`` / ``reserve``: the gold's reach, plus the reserved card (secured for later, or
  denied to the opponent), minus the cost of a reserve slot.
* Denial: a pyramid card the opponent could buy on its next turn (tokens, gold and
  privileges) and win with makes buying or reserving it worth :data:`DENY_WIN`, more than
  anything but a win at once.
* ``joker``: the colour that gains most (a colour reaching 10 points wins; else colour
  points toward the target and the bonus's reach). ``token``: any cell of the colour.
  ``steal``: the token worth most to it plus what its loss costs the opponent (breaking
  an opponent's win first). ``royal``: points or ability, whichever is worth more (3
  points that reach 20 win). ``return``: the token whose loss lowers the reach least.
  ``gold C`` / ``pay`` during a chosen payment: gold only where tokens are missing.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from ..duel.board import LINES, NUM_CELLS, SPIRAL
from ..duel.cards import COLOR_JOKER, Card, Royal
from ..duel.state import Observation, PlayerView, State

NUM_GEMS = 5
PEARL = 5
GOLD = 6
TOKEN_LIMIT = 10  # D20
WIN_POINTS = 20  # D21
WIN_CROWNS = 10
WIN_COLOR = 10
T_POINTS = 5
"""Target id of the 20-point condition (0..4: 10 points in that colour)."""
T_CROWNS = 6
"""Target id of the 10-crown condition."""
TARGET_NAMES = ("white", "blue", "green", "red", "black", "points", "crowns")
"""Readable names of the target ids."""

# --- weights, in prestige points ------------------------------------------------------
WIN = 10_000.0
"""Score of a decision that wins at once (D21)."""
DENY_WIN = 3_000.0
"""Score of removing (buying or reserving) the card that would let the opponent win on
its next turn."""
WIN_REACH = 12.0
"""Extra worth, in the reach, of a card in view that would meet a victory condition."""
GAMMA = 0.6
"""Discount of a card's worth per token it still lacks (read once, at import)."""
REACH_WEIGHTS = np.array([1.0, 0.45, 0.2, 0.1])
"""Weights of the best, second, third and fourth card in reach."""
TOKEN_BASE = np.array([0.02, 0.02, 0.02, 0.02, 0.02, 0.03, 0.08])
"""Small worth of holding each token (W U G R K pearl gold) beyond the reach: more tokens
are better than fewer when no card in view tells them apart, and gold is kept."""
PTS_SQ = 0.02
"""Convex part of the worth of prestige points (20 to win)."""
CROWN_LIN, CROWN_SQ = 0.5, 0.11
"""Worth of crowns (10 to win): linear and convex parts."""
COLOR_SQ = 0.06
"""Convex worth of points in one colour (10 to win)."""
TARGET_BOOST = 1.6
"""Factor on the potential of the target condition."""
TARGET_LIN = 0.25
"""Extra worth per unit of the target's resource (colour points or crowns)."""
EFFORT_SCALE = (1.1, 1.1, 1.1, 1.1, 1.1, 1.0, 1.15)
"""Relative difficulty of the conditions (5 colours, points, crowns) in target choice."""
BONUS_VALUE = 0.6
"""Worth of one bonus on its own (it discounts every later card), early in the game."""
AGAIN_VALUE = 1.6
"""Worth of an extra turn (D13)."""
TOKEN_ABILITY_VALUE = 0.45
"""Worth of the token a ``token`` ability brings (D15)."""
STEAL_VALUE = 0.7
"""Worth of a ``steal`` (D17): a token for it, one less for the opponent."""
PRIVILEGE_VALUE = 0.45
"""Worth of gaining a privilege scroll (D16, D18)."""
PRIVILEGE_KEEP = 0.25
"""Worth of keeping a scroll for later: a privilege is used only for a token worth more."""
PRIVILEGE_FIRST = 500.0
"""Added to a worthwhile privilege use, so that it comes before the mandatory action."""
PRIVILEGE_GIVE = 1.0
"""Cost of handing the opponent a privilege (D7, D8)."""
DENY_WEIGHT = 0.25
"""Share of what the opponent would gain from a card that removing it is worth."""
BUY_DENY_SHARE = 0.5
"""Share of that denial credited to a buy (a reserve gets all of it)."""
SECURE_SHARE = 0.3
"""Share of a card's worth gained by holding it in reserve."""
SLOT_COST = (0.35, 0.7, 1.2)
"""Cost of filling the 1st, 2nd, 3rd reserve slot."""
SPEND_WEIGHT = 0.6
"""Share of the reach lost by paying for a card that a buy counts (the tokens spent come
back to the board, a bought card stays)."""
UNAVAILABLE_COST = 1
"""Extra shortfall per token missing for a card that is neither on the board nor in the
bag (the opponent holds it)."""
SLOT_FREED = 0.2
"""Worth of emptying a reserve slot by buying from it."""
BLIND_VALUE = (0.1, 0.2, 0.3)
"""Worth of an unknown card reserved blind, by level (besides its gold)."""
NOOP_PENALTY = 0.3
"""Cost of a take whose tokens all go back at once (D20)."""
_EPS = 1e-9

REPLENISH_SAMPLES = 8
"""Random fills of the board a replenish is judged over."""

_POW = np.array([GAMMA**k for k in range(64)])
_POW_LIST = [float(x) for x in _POW]
_EYE7 = np.eye(7, dtype=np.int64)
_RADIX = 32 ** np.arange(7, dtype=np.int64)

# Gains of a take (D8): 1-3 gem or pearl tokens, coded as sum of 4 ** colour.
_CODE = [4**c for c in range(6)]
_CODE_ARR = np.array(_CODE + [0, 0], dtype=np.int64)  # gold never counts; 7: no cell
_TABLE_SIZE = 4**6


def _all_gains() -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[int, int]]:
    gains, codes, gives = [], [], []
    for n in (1, 2, 3):
        for combo in combinations_with_replacement(range(6), n):
            g = [0] * 7
            for c in combo:
                g[c] += 1
            gains.append(g)
            codes.append(sum(_CODE[c] for c in combo))
            gives.append(g[PEARL] == 2 or max(g[:NUM_GEMS]) == 3)
    row = {c: i for i, c in enumerate(codes)}
    return (
        np.array(gains, dtype=np.int64),
        np.array(codes, dtype=np.int64),
        np.array(gives, dtype=np.bool_),
        row,
    )


_GAINS, _GAIN_CODES, _GIVES, _CODE_ROW = _all_gains()
_LINE_CELLS = np.where(LINES >= 0, LINES, NUM_CELLS).astype(np.int64)


def _ability_value(ability: str, can_steal: bool, token_on_board: bool) -> float:
    v = 0.0
    if "again" in ability:
        v += AGAIN_VALUE
    if ability == "token" and token_on_board:
        v += TOKEN_ABILITY_VALUE
    if ability == "privilege":
        v += PRIVILEGE_VALUE
    if ability == "steal" and can_steal:
        v += STEAL_VALUE
    return v


class _Side:
    """One seat's holdings, as plain lists, and its target."""

    __slots__ = (
        "seat",
        "t",
        "b",
        "P",
        "C",
        "CP",
        "priv",
        "reserved",
        "n_reserved",
        "target",
        "_phi0",
        "_phi_target",
    )

    def __init__(self, view: PlayerView, own: bool) -> None:
        """``own``: the deciding seat, which sees its blind reserves; the opponent's are
        hidden from it (D22), so only the face-up ones are kept."""
        self.seat = view.seat
        self.t = list(view.tokens)
        self.b = list(view.bonuses)
        self.P = view.points
        self.C = view.crowns
        self.CP = list(view.color_points)
        self.priv = view.privileges
        self.n_reserved = len(view.reserved)
        self.reserved = (
            view.reserved
            if own
            else tuple(
                c for c, blind in zip(view.reserved, view.reserved_blind, strict=True) if not blind
            )
        )
        self.target = T_POINTS
        self._phi0 = 0.0
        self._phi_target = -1

    def phi(self) -> float:
        """:func:`_phi` of the holdings now (for the current target)."""
        if self._phi_target != self.target:
            self._phi0 = _phi(self.P, self.C, self.CP, self.target)
            self._phi_target = self.target
        return self._phi0

    def has_colored_bonus(self) -> bool:
        return any(x > 0 for x in self.b)

    def joker_color(self) -> int:
        """The colour a joker would take: the most colour points (the target first)."""
        best, best_v = -1, -1.0
        for c in range(NUM_GEMS):
            if self.b[c] > 0:
                v = self.CP[c] + (0.5 if c == self.target else 0.0) + 0.01 * self.b[c]
                if v > best_v:
                    best, best_v = c, v
        return best

    def need(self, card: Card) -> list[int]:
        """Tokens owed per colour after bonuses (6: gems, pearl); may be negative."""
        cost = card.cost
        b = self.b
        return [
            cost[0] - b[0],
            cost[1] - b[1],
            cost[2] - b[2],
            cost[3] - b[3],
            cost[4] - b[4],
            cost[5],
        ]

    def shortfall(self, card: Card, tokens: Sequence[int] | None = None) -> int:
        """Gold still missing to buy ``card`` (0: affordable now), D10."""
        t = self.t if tokens is None else tokens
        short = 0
        for c, n in enumerate(self.need(card)):
            d = n - t[c]
            if d > 0:
                short += d
        short -= t[GOLD]
        return short if short > 0 else 0

    def missing(self, card: Card) -> list[int]:
        """Coloured tokens and pearls missing per colour (before gold)."""
        t = self.t
        return [max(n - t[c], 0) for c, n in enumerate(self.need(card))]


def _phi(P: int, C: int, CP: Sequence[int], target: int) -> float:
    """Potential of holdings: points, crowns and colour points, convex toward each goal,
    boosted on the target."""
    P = min(P, WIN_POINTS)
    C = min(C, WIN_CROWNS)
    v = float(P)
    sq = PTS_SQ * P * P
    v += sq * TARGET_BOOST if target == T_POINTS else sq
    cr = CROWN_LIN * C + CROWN_SQ * C * C
    v += (cr * TARGET_BOOST + TARGET_LIN * C) if target == T_CROWNS else cr
    for c in range(NUM_GEMS):
        x = min(CP[c], WIN_COLOR)
        if x:
            col = COLOR_SQ * x * x
            v += (col * TARGET_BOOST + TARGET_LIN * x) if target == c else col
    return v


class _ReachModel:
    """The cards in view of one seat as arrays, for fast reach values of many token
    vectors at once."""

    __slots__ = ("cards", "need", "worth", "n", "index", "avail")

    def __init__(
        self, side: _Side, cards: list[Card], worths: list[float], avail: Sequence[int]
    ) -> None:
        self.cards = cards
        self.avail = np.array(avail[:6], dtype=np.int64)
        self.n = len(cards)
        self.need = np.array([side.need(c) for c in cards], dtype=np.int64).reshape(self.n, 6)
        self.worth = np.array(worths, dtype=np.float64)
        self.index = {c.id: i for i, c in enumerate(cards)}

    def values(
        self, T: np.ndarray, extra: np.ndarray | None = None, skip: np.ndarray | None = None
    ) -> np.ndarray:
        """Reach of each row of ``T`` (m × 7 tokens); ``extra`` (m × 6) are bonuses gained
        first (a card bought), ``skip`` (m × n, bool) cards left out."""
        base: np.ndarray = T @ TOKEN_BASE
        if self.n == 0:
            return base
        need = self.need[None, :, :]
        if extra is not None:
            need = need - extra[:, None, :]
        d = need - T[:, None, :6]
        np.maximum(d, 0, out=d)
        short = d.sum(axis=2) - T[:, 6:7]
        if UNAVAILABLE_COST:
            # tokens that are neither on the board nor in the bag (the opponent holds them)
            ex = d - self.avail
            np.maximum(ex, 0, out=ex)
            short += UNAVAILABLE_COST * ex.sum(axis=2)
        np.clip(short, 0, 63, out=short)
        vals = self.worth[None, :] * _POW[short]
        if skip is not None:
            vals[skip] = 0.0
        if self.n > 1:
            vals = -np.sort(-vals, axis=1)
        k = min(self.n, len(REACH_WEIGHTS))
        reach: np.ndarray = vals[:, :k] @ REACH_WEIGHTS[:k] + base
        return reach

    def after_returns(self, T: np.ndarray) -> np.ndarray:
        """Rows of ``T`` above 10 tokens after giving back, one at a time, the token whose
        loss lowers the reach least, as the return decision does (D20). Changes ``T``."""
        over = T.sum(axis=1) - TOKEN_LIMIT
        while True:
            idx = np.flatnonzero(over > 0)
            if idx.size == 0:
                return T
            rows = T[idx]
            cand = (rows[:, None, :] - _EYE7[None, :, :]).reshape(-1, 7)
            # many candidates coincide (t+{W,U}-W == t+{U,G}-G): value each once
            _, first, inv = np.unique((cand + 1) @ _RADIX, return_index=True, return_inverse=True)
            vals = self.values(cand[first])[inv.reshape(-1)].reshape(idx.size, 7)
            vals[rows <= 0] = -np.inf
            best = vals.argmax(axis=1)
            T[idx, best] -= 1
            over[idx] -= 1


class _DuelPosition:
    """What the evaluator knows of one duel position before it scores a decision (the
    module docstring's *aim* and *reach*): each side's holdings and target, what a card
    brings either side, the reach of token vectors, and the opponent's threats.

    Args:
        obs: a :class:`splendor.duel.Observation` of the seat to play (a full
            :class:`splendor.duel.State` works too; only what the current seat may see is
            read).

    Raises:
        ValueError: the game is over (no seat to play).
    """

    def __init__(self, obs: Observation | State) -> None:
        seat = getattr(obs, "seat", -1)
        cur = obs.current_player
        if seat is None or seat < 0:
            seat = cur
        if seat is None:
            raise ValueError("the game is over: there is no decision to score")
        self.obs = obs
        self.seat = seat
        self.me = _Side(obs.player(seat), True)
        self.opp = _Side(obs.player(1 - seat), False)
        self.board = obs.board
        counts = [0] * 7
        for v in self.board:
            if v is not None:
                counts[v] += 1
        self.board_counts = counts
        self.bag = obs.bag
        self.free_privileges = obs.free_privileges
        pyramid = obs.pyramid
        self.pyramid = pyramid
        self.pyr_cards: list[Card] = [c for row in pyramid for c in row if c is not None]
        self.royals: list[Royal] = [r for r in obs.royals if r is not None]
        prog = 0.0
        for s in (self.me, self.opp):
            prog = max(prog, s.P / WIN_POINTS, s.C / WIN_CROWNS, max(s.CP) / WIN_COLOR)
        self.dev = max(0.25, 1.0 - prog)
        self._view_me = self.pyr_cards + [c for c in self.me.reserved if isinstance(c, Card)]
        self.me.target = self._choose_target(self.me, self._view_me)
        self._reach: _ReachModel | None = None
        self._opp_reach: _ReachModel | None = None
        self._threat: dict[int, tuple[float, bool]] | None = None
        self._r0: float | None = None
        self._gains: dict[tuple[int, int, int, int | None], tuple[float, bool]] = {}
        self._reserve_opts: dict[tuple[str, int], float] | None = None

    # ------------------------------------------------------------------ aims

    def _choose_target(self, side: _Side, cards: Sequence[Card]) -> int:
        """The victory condition with the least estimated effort left (D21)."""
        vis = [0.0] * 7
        for card in cards:
            if card.color == COLOR_JOKER and not side.has_colored_bonus():
                continue
            w = _POW_LIST[min(side.shortfall(card), 63)]
            vis[T_POINTS] += w * card.points
            vis[T_CROWNS] += w * card.crowns
            if 0 <= card.color < NUM_GEMS:
                vis[card.color] += w * card.points
            elif card.color == COLOR_JOKER and card.points:
                for c in range(NUM_GEMS):
                    if side.b[c] > 0:
                        vis[c] += w * card.points
        left = [WIN_COLOR - x for x in side.CP] + [WIN_POINTS - side.P, WIN_CROWNS - side.C]
        goals = (WIN_COLOR,) * 5 + (WIN_POINTS, WIN_CROWNS)
        best, best_e = T_POINTS, 1e9
        for k in (T_POINTS, T_CROWNS, 0, 1, 2, 3, 4):
            r = max(left[k], 0)
            e = (r - 0.5 * min(vis[k], r)) / goals[k] * EFFORT_SCALE[k]
            if e < best_e - _EPS:
                best, best_e = k, e
        return best

    @property
    def target(self) -> str:
        """The victory condition this seat aims at: a colour name, ``points`` or
        ``crowns``."""
        return TARGET_NAMES[self.me.target]

    def _royal_gain(
        self, side: _Side, crowns_before: int, crowns_after: int
    ) -> tuple[int, float, int]:
        """The royal cards a purchase reaches (D19): points and ability worth of the best
        ones, and the most points they can bring (for the 20-point win)."""
        n = (crowns_before < 3 <= crowns_after) + (crowns_before < 6 <= crowns_after)
        if n == 0 or not self.royals:
            return 0, 0.0, 0
        can_steal = sum(self._other(side).t[:6]) > 0
        opts = sorted(
            ((r.points, _ability_value(r.ability, can_steal, False)) for r in self.royals),
            key=lambda x: x[0] + x[1],
            reverse=True,
        )[:n]
        most = sum(sorted((r.points for r in self.royals), reverse=True)[:n])
        return sum(p for p, _ in opts), sum(a for _, a in opts), most

    def _other(self, side: _Side) -> _Side:
        return self.opp if side is self.me else self.me

    def card_gain(self, side: _Side, card: Card, color: int | None = None) -> tuple[float, bool]:
        """What buying ``card`` brings ``side``: worth and whether it wins at once (D21).

        ``color`` is a joker's colour (default: the one :meth:`_Side.joker_color` picks).
        """
        key = (side.seat, side.target, card.id, color)
        hit = self._gains.get(key)
        if hit is not None:
            return hit
        col = card.color
        if col == COLOR_JOKER:
            col = side.joker_color() if color is None else color
        P = side.P + card.points
        C = side.C + card.crowns
        CP = list(side.CP)
        if col >= 0:
            CP[col] += card.points
        royal_pts, royal_ab, royal_most = self._royal_gain(side, side.C, C)
        win = P + royal_most >= WIN_POINTS or C >= WIN_CROWNS or (col >= 0 and CP[col] >= WIN_COLOR)
        P += royal_pts
        gain = _phi(P, C, CP, side.target) - side.phi()
        gain += royal_ab
        if col >= 0:
            gain += BONUS_VALUE * self.dev * card.bonus_count
        other = self._other(side)
        gain += _ability_value(
            card.ability, sum(other.t[:6]) > 0, col >= 0 and self.board_counts[col] > 0
        )
        self._gains[key] = (gain, win)
        return gain, win

    # ------------------------------------------------------------------ reach

    @property
    def reach(self) -> _ReachModel:
        if self._reach is None:
            self._reach = self._make_reach(self.me, self._view_me)
        return self._reach

    def _make_reach(self, side: _Side, cards: list[Card]) -> _ReachModel:
        keep, worths = [], []
        colored = side.has_colored_bonus()
        for card in cards:
            if card.color == COLOR_JOKER and not colored:
                continue  # D14: it cannot be bought yet
            gain, win = self.card_gain(side, card)
            keep.append(card)
            worths.append(max(gain, 0.05) + (WIN_REACH if win else 0.0))
        avail = [self.board_counts[c] + self.bag[c] for c in range(6)]
        return _ReachModel(side, keep, worths, avail)

    @property
    def opp_reach(self) -> _ReachModel:
        if self._opp_reach is None:
            cards = self.pyr_cards + [c for c in self.opp.reserved if isinstance(c, Card)]
            self.opp.target = self._choose_target(self.opp, cards)
            self._opp_reach = self._make_reach(self.opp, cards)
        return self._opp_reach

    def _rows(self, rows: Sequence[Sequence[int]]) -> np.ndarray:
        return np.array(rows, dtype=np.int64).reshape(len(rows), 7)

    def settled_reach(self, rows: Sequence[Sequence[int]]) -> np.ndarray:
        """Reach of each token vector after the returns of D20."""
        R = self.reach
        return R.values(R.after_returns(self._rows(rows)))

    @property
    def r0(self) -> float:
        """Reach of the tokens held now (after returns, if above 10)."""
        if self._r0 is None:
            self._r0 = float(self.settled_reach([self.me.t])[0])
        return self._r0

    # ------------------------------------------------------------------ the opponent

    def _opp_can_buy_next(self, card: Card) -> bool:
        """Whether the opponent could buy ``card`` on its next turn: its tokens and gold,
        plus a token per privilege from the board (D6, D10, D14)."""
        o = self.opp
        if card.color == COLOR_JOKER and not o.has_colored_bonus():
            return False
        miss = o.missing(card)
        short = sum(miss) - o.t[GOLD]
        if short <= 0:
            return True
        if o.priv == 0:
            return False
        usable = sum(min(m, self.board_counts[c]) for c, m in enumerate(miss))
        return short <= min(o.priv, usable)

    @property
    def threats(self) -> dict[int, tuple[float, bool]]:
        """Per pyramid card id: the denial worth of removing it and whether the opponent
        could win with it on its next turn."""
        if self._threat is None:
            self.opp.target = self._choose_target(
                self.opp, self.pyr_cards + [c for c in self.opp.reserved if isinstance(c, Card)]
            )
            out: dict[int, tuple[float, bool]] = {}
            for card in self.pyr_cards:
                if not self._opp_can_buy_next(card):
                    continue
                gain, win = self.card_gain(self.opp, card)
                out[card.id] = (DENY_WEIGHT * max(gain, 0.0), win)
            self._threat = out
        return self._threat

    def deny_value(self, card: Card, share: float = 1.0) -> float:
        v = self.threats.get(card.id)
        if v is None:
            return 0.0
        value, win = v
        return share * value + (DENY_WIN if win else 0.0)

    def _privilege_give_cost(self) -> float:
        """Cost of the opponent taking a privilege (D18)."""
        if self.opp.priv >= 3:
            return 0.0
        if self.free_privileges > 0:
            return PRIVILEGE_GIVE
        return PRIVILEGE_GIVE + PRIVILEGE_KEEP if self.me.priv > 0 else 0.0


class DuelEvaluator(_DuelPosition):
    """Scores of the legal decisions of one duel observation (see the module docstring):
    the main phase's decisions against each other (takes, buys, the gold for a reserve,
    privileges, replenishing), the other phases' one kind at a time.

    Args:
        obs: a :class:`splendor.duel.Observation` of the seat to play (a full
            :class:`splendor.duel.State` works too; only what the current seat may see is
            read).

    Raises:
        ValueError: the game is over (no seat to play).
    """

    def scores(self, legal: Sequence[Any]) -> list[float]:
        """One score per element of ``legal`` (higher is better)."""
        kinds = {a.kind for a in legal}
        if kinds & {"take", "take_gold", "buy", "buy_choose", "privilege", "replenish"}:
            return self._main_scores(legal)
        out = []
        for a in legal:
            fn = _SCORERS.get(a.kind)
            out.append(fn(self, a) if fn is not None else -1e6)
        return out

    def _main_scores(self, legal: Sequence[Any]) -> list[float]:
        out = [0.0] * len(legal)
        me = self.me
        t = me.t
        board = self.board
        r0 = self.r0
        # --- takes: one score per distinct gain of tokens (D8)
        take_items: list[tuple[int, int]] = []
        for i, a in enumerate(legal):
            if a.kind != "take":
                continue
            code = 0
            for cell in a.cells:
                code += _CODE[board[cell]]
            take_items.append((i, code))
        replenish = any(a.kind == "replenish" for a in legal)
        best_take = None
        if take_items or replenish:
            table = self._take_table([code for _, code in take_items], replenish)
            for i, code in take_items:
                s = float(table[code])
                out[i] = s
                best_take = s if best_take is None else max(best_take, s)
        # --- buys
        buy_items = []
        for i, a in enumerate(legal):
            if a.kind == "buy":
                card = self._buy_card(a)
                if card is None:
                    out[i] = -1e6
                else:
                    buy_items.append((i, a, card))
            elif a.kind == "buy_choose":
                out[i] = -1e3  # the default payment (gold kept) is always legal beside it
            elif a.kind == "pass":
                out[i] = 0.0
        if buy_items:
            self._score_buys(buy_items, out)
        # --- gold for a reserve
        golds = [i for i, a in enumerate(legal) if a.kind == "take_gold"]
        if golds:
            t2 = list(t)
            t2[GOLD] += 1
            gold_gain = float(self.settled_reach([t2])[0]) - r0
            best_res = max(self._reserve_options().values(), default=-1e6)
            for i in golds:
                out[i] = gold_gain + best_res
        mandatory = [
            out[i]
            for i, a in enumerate(legal)
            if a.kind in ("take", "take_gold", "buy", "buy_choose")
        ]
        best_mand = max(mandatory) if mandatory else None
        # --- privileges (D6): before the mandatory action
        privs = [i for i, a in enumerate(legal) if a.kind == "privilege"]
        if privs:
            keep = (
                PRIVILEGE_KEEP * (1.0 if self.free_privileges > 0 else 0.6) * (0.5 + 0.5 * self.dev)
            )
            gains = {}
            colours = sorted({board[legal[i].cells[0]] for i in privs})
            rows = []
            for c in colours:
                r = list(t)
                r[c] += 1
                rows.append(r)
            vals = self.settled_reach(rows)
            for c, v in zip(colours, vals, strict=True):
                gains[c] = float(v) - r0
            for i in privs:
                d = gains[board[legal[i].cells[0]]] - keep
                out[i] = (PRIVILEGE_FIRST + d) if d > 0 else (-50.0 + d)
        # --- replenish (D7, D12)
        for i, a in enumerate(legal):
            if a.kind == "replenish":
                out[i] = self._score_replenish(best_mand, best_take, table)
        return out

    def _buy_card(self, a: Any) -> Card | None:
        if a.reserved:
            res = self.me.reserved
            c = res[a.slot - 1] if a.slot - 1 < len(res) else None
            return c if isinstance(c, Card) else None
        card: Card | None = self.pyramid[a.level - 1][a.slot - 1]
        return card

    def _score_buys(self, items: list[tuple[int, Any, Card]], out: list[float]) -> None:
        me = self.me
        R = self.reach
        rows, extras = [], []
        skip = np.zeros((len(items), R.n), dtype=np.bool_)
        gains = []
        for k, (_, _a, card) in enumerate(items):
            gain, win = self.card_gain(me, card)
            gains.append((gain, win))
            left = list(me.t)
            gold = 0
            for c, n in enumerate(me.need(card)):
                if n > 0:
                    paid = min(n, left[c])
                    left[c] -= paid
                    gold += n - paid
            left[GOLD] -= gold
            rows.append(left)
            ex = [0] * 6
            col = card.color if card.color != COLOR_JOKER else me.joker_color()
            if col >= 0:
                ex[col] += card.bonus_count
            extras.append(ex)
            j = R.index.get(card.id)
            if j is not None:
                skip[k, j] = True
        T = self._rows(rows)
        vals = R.values(T, np.array(extras, dtype=np.int64).reshape(len(items), 6), skip)
        # the reach without the card bought: its worth is counted once, by the gain
        before = R.values(R.after_returns(self._rows([me.t] * len(items))), None, skip)
        for k, (i, a, card) in enumerate(items):
            gain, win = gains[k]
            spent = float(vals[k] - before[k])
            s = gain + (spent * SPEND_WEIGHT if spent < 0 else spent)
            if win:
                s += WIN
            if a.reserved:
                s += SLOT_FREED
            else:
                s += self.deny_value(card, BUY_DENY_SHARE)
            out[i] = s

    def _reserve_options(self) -> dict[tuple[str, int], float]:
        """Worth of each card or deck that may be reserved (besides the gold, D9)."""
        if self._reserve_opts is not None:
            return self._reserve_opts
        me = self.me
        slot = SLOT_COST[min(me.n_reserved, len(SLOT_COST) - 1)] * (0.5 + 0.5 * self.dev)
        t = list(me.t)
        if self.obs.phase == "main":
            t[GOLD] += 1
        opts: dict[tuple[str, int], float] = {}
        for lvl, row in enumerate(self.pyramid):
            for k, card in enumerate(row):
                if card is None:
                    continue
                v = self.deny_value(card) - slot
                if card.color != COLOR_JOKER or me.has_colored_bonus():
                    gain, win = self.card_gain(me, card)
                    worth = max(gain, 0.0) + (WIN_REACH if win else 0.0)
                    v += SECURE_SHARE * worth * _POW_LIST[min(me.shortfall(card, t), 63)]
                opts[("p", lvl * 10 + k)] = v
        for lvl, n in enumerate(self.obs.deck_sizes):
            if n > 0:
                opts[("d", lvl)] = BLIND_VALUE[lvl] * self.dev - slot
        self._reserve_opts = opts
        return opts

    def _take_table(self, codes: list[int], full: bool) -> np.ndarray:
        """Score of a take per gain code (see :data:`_GAINS`): the reach gained after the
        returns of D20, less the privilege it may hand the opponent (D8) and the cost of a
        take that all goes back. All 83 gains when ``full``, else those in ``codes``."""
        rows_idx = (
            np.arange(len(_GAINS))
            if full
            else np.unique(np.array([_CODE_ROW[c] for c in codes], dtype=np.int64))
        )
        gains = _GAINS[rows_idx]
        t = np.array(self.me.t, dtype=np.int64)
        R = self.reach
        T = R.after_returns(gains + t[None, :])
        vals = R.values(T) - self.r0
        vals[(T == t[None, :]).all(axis=1)] -= NOOP_PENALTY
        vals[_GIVES[rows_idx]] -= self._privilege_give_cost()
        table = np.full(_TABLE_SIZE, -np.inf)
        table[_GAIN_CODES[rows_idx]] = vals
        return table

    def _score_replenish(
        self, best_mand: float | None, best_take: float | None, table: np.ndarray
    ) -> float:
        """D7: the opponent takes a privilege; the bag fills the empty cells. The better
        take it may bring is estimated over a few random fills (a fixed generator: the
        bag's real order is hidden, D22)."""
        if best_mand is None:
            return 10.0  # D12: nothing else can be done
        bag = self.bag
        tokens = [c for c in range(7) for _ in range(bag[c])]
        if not tokens:
            return -1e3
        board = np.array([-1 if v is None else v for v in self.board] + [7], dtype=np.int64)
        empties = [int(c) for c in SPIRAL if board[c] < 0][: len(tokens)]
        rng = np.random.default_rng(len(tokens) * 31 + len(empties))
        samples = np.repeat(board[None, :], REPLENISH_SAMPLES, axis=0)
        toks = np.array(tokens, dtype=np.int64)
        for k in range(REPLENISH_SAMPLES):
            samples[k, empties] = rng.permutation(toks)[: len(empties)]
        cells = samples[:, _LINE_CELLS]  # (S, lines, 3), padding reads the sentinel 7
        bad = ((cells < 0) | (cells == GOLD)).any(axis=2)
        codes = _CODE_ARR[np.clip(cells, 0, 7)].sum(axis=2)
        vals = table[codes]
        vals[bad] = -np.inf
        best_after = vals.max(axis=1)
        others = best_mand if best_take is None or best_mand > best_take else best_take
        after = np.maximum(best_after, others)
        gain = float(after.mean()) - others
        if bag[GOLD] and self.me.n_reserved < 3:
            gain += 0.1
        return others + gain - self._privilege_give_cost() - _EPS

    # --- the other phases ---------------------------------------------------------

    def score_reserve(self, a: Any) -> float:
        opts = self._reserve_options()
        if a.kind == "reserve_deck":
            return opts.get(("d", a.level - 1), -1e6)
        return opts.get(("p", (a.level - 1) * 10 + a.slot - 1), -1e6)

    def score_pay_gold(self, a: Any) -> float:
        pay = self.obs.payment
        c = a.colors[0]
        if pay is None:
            return -1.0
        _, need, _ = pay
        # spend gold only where coloured tokens or pearls are missing (gold is kept)
        return 1.0 if need[c] > self.me.t[c] else -1.0

    def score_pay(self, a: Any) -> float:
        return 2.0

    def score_joker(self, a: Any) -> float:
        card = self.obs.pending_card
        c: int = a.colors[0]
        me = self.me
        pts = card.points if card is not None else 0
        CP = list(me.CP)
        CP[c] += pts
        if CP[c] >= WIN_COLOR:
            return WIN
        s = _phi(me.P, me.C, CP, me.target) - _phi(me.P, me.C, me.CP, me.target)
        ex = np.zeros((1, 6), dtype=np.int64)
        ex[0, c] = card.bonus_count if card is not None else 1
        R = self.reach
        s += float(R.values(self._rows([me.t]), ex)[0]) - self.r0
        return s + 0.001 * me.b[c]

    def score_token(self, a: Any) -> float:
        return 0.0  # every legal cell holds the card's colour

    def score_steal(self, a: Any) -> float:
        c = a.colors[0]
        mine = list(self.me.t)
        mine[c] += 1
        s = float(self.settled_reach([mine])[0]) - self.r0
        o = self.opp
        theirs = list(o.t)
        theirs[c] -= 1
        R = self.opp_reach
        loss = float(R.values(self._rows([o.t]))[0] - R.values(self._rows([theirs]))[0])
        s += 0.5 * loss
        # break a win the opponent could buy next turn
        before = any(self._opp_can_buy_next(cd) and self.card_gain(o, cd)[1] for cd in R.cards)
        if before:
            o.t[c] -= 1
            after = any(self._opp_can_buy_next(cd) and self.card_gain(o, cd)[1] for cd in R.cards)
            o.t[c] += 1
            if not after:
                s += DENY_WIN
        return s

    def score_royal(self, a: Any) -> float:
        royal: Royal | None = self.obs.royals[a.slot - 1]
        if royal is None:
            return -1e6
        me = self.me
        if me.P + royal.points >= WIN_POINTS:
            return WIN + royal.points
        s = _phi(me.P + royal.points, me.C, me.CP, me.target) - _phi(me.P, me.C, me.CP, me.target)
        return s + _ability_value(royal.ability, sum(self.opp.t[:6]) > 0, False)

    def score_return(self, a: Any) -> float:
        t = list(self.me.t)
        t[a.colors[0]] -= 1
        return float(self.reach.values(self._rows([t]))[0])

    def score_pass(self, a: Any) -> float:
        return 0.0


_SCORERS = {
    "reserve_pyramid": DuelEvaluator.score_reserve,
    "reserve_deck": DuelEvaluator.score_reserve,
    "pay_gold": DuelEvaluator.score_pay_gold,
    "pay": DuelEvaluator.score_pay,
    "joker": DuelEvaluator.score_joker,
    "token": DuelEvaluator.score_token,
    "steal": DuelEvaluator.score_steal,
    "royal": DuelEvaluator.score_royal,
    "return": DuelEvaluator.score_return,
    "pass": DuelEvaluator.score_pass,
}

__all__ = ["DuelEvaluator", "TARGET_NAMES"]
