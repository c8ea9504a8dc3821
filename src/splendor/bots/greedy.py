"""A one-ply heuristic bot for classic Splendor and Splendor Duel.

For Splendor Duel the scores come from :class:`splendor.bots.greedy_duel.DuelEvaluator`
(see that module); everything below describes the classic evaluation.

:class:`GreedyBot` scores every legal decision of its observation with a direct evaluation
of its own holdings (no search, no hidden information) and plays the best one; ties go to
its seeded generator, so a seed makes it deterministic.

The evaluation, in prestige-point units:

* **points**: a bought card's points, a noble that visits at once (C12) and, for a buy that
  reaches 15 (C14), a large bonus;
* **development**: a bonus is worth a little on its own (it discounts future cards) and more
  when it brings a face-up noble closer; both fade as the leader nears 15 points;
* **reach**: the *potential* of the cards in view (face-up and own reserved), each card's
  worth discounted by ``GAMMA ** shortfall`` (the tokens it still lacks after bonuses, gold
  and tokens held). Taking tokens, spending them and gaining bonuses or gold are scored by
  how they change this potential, so takes go toward the cards that are nearest and worth
  most, and a take above 10 tokens counts what it would have to give back (C11);
* **denial**: a face-up card that an opponent can afford now, weighted by the points (and
  noble) it would give them, and heavily when it would take them to 15, makes reserving or
  buying it attractive;
* **reserve**: a reserve earns the gold's reach, a little for securing the card, minus the
  cost of the slot (C8). ``buy … choose`` is never chosen: the default payment (C9) is
  always legal alongside it.

Other decisions: ``return`` gives back the token whose loss lowers the reach least (C11);
``noble`` picks the noble the opponents are closest to (C12); during a chosen payment it
pays with coloured tokens where it can (C9); ``pass`` when it is the only decision (C17).
In the final round (C14) only immediate points count.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..classic.cards import Card
from ..colors import GOLD, NUM_GEMS

# --- weights, in prestige points --------------------------------------------------------
WIN_BONUS = 50.0
"""Extra score of a buy that reaches 15 points (C14)."""
GAMMA = 0.6
"""Discount of a card's worth per token it still lacks."""
BONUS_VALUE = 0.3
"""Worth of one bonus on its own (it discounts every later card), early in the game."""
NOBLE_POINTS = 3.0
"""Prestige of a noble (C3)."""
NOBLE_DISCOUNT = 0.55
NOBLE_FAR = 0.8
"""Noble progress: a noble still ``n`` bonuses away is worth
``3 * NOBLE_FAR * NOBLE_DISCOUNT ** n`` (halved when an opponent is closer to it)."""
DENY_WEIGHT = 0.2
"""Share of an opponent's immediate gain that reserving the card removes."""
DENY_WIN = 12.0
"""Extra denial value of a card that would take an opponent to 15 points."""
BUY_DENY_SHARE = 0.5
"""Share of the denial value credited to a buy (a reserve gets all of it)."""
SECURE_SHARE = 0.25
"""Share of a card's reach gained by holding it in reserve (no one else can buy it)."""
SLOT_COST = (0.5, 0.9, 1.6)
"""Cost of filling the 1st, 2nd, 3rd reserve slot (early in the game; it fades)."""
SLOT_FREED = 0.3
"""Worth of emptying a reserve slot by buying from it."""
NOOP_PENALTY = 0.3
"""Cost of a take whose tokens all go back at once (C11): nothing changes, and two bots
doing it could repeat the position for ever."""
BLIND_VALUE = (0.05, 0.15, 0.25)
"""Worth of an unknown card reserved blind, by level (besides its gold)."""
REACH_WEIGHTS = (1.0, 0.4, 0.15, 0.05)
"""Weights of the best, second, third and fourth card in reach: the cards are alternatives,
so only the best few count, the best most."""
TOKEN_LIMIT = 10
WIN_POINTS = 15
_EPS = 1e-9

_POW = [GAMMA**k for k in range(64)]
_NOBLE_POW = [NOBLE_DISCOUNT**k for k in range(64)]


class _Target:
    """A card in view that the bot might buy: its cost less bonuses and its worth."""

    __slots__ = ("card", "need", "worth")

    def __init__(self, card: Card, need: list[int], worth: float) -> None:
        self.card = card
        self.need = need  # cost - bonuses per colour (may be negative)
        self.worth = worth


def _reach(
    targets: Sequence[_Target], tokens: Sequence[int], extra: int = -1, skip: _Target | None = None
) -> float:
    """Weighted sum of the largest ``worth * GAMMA ** shortfall`` over ``targets`` for
    ``tokens`` (6 long), see :data:`REACH_WEIGHTS`.

    ``extra`` is a colour of one more bonus (a card just bought), ``skip`` a target left
    out (that card)."""
    gold = tokens[GOLD]
    vals = []
    for tg in targets:
        if tg is skip:
            continue
        need = tg.need
        short = 0
        for c in range(NUM_GEMS):
            d = need[c] - tokens[c]
            if c == extra:
                d -= 1
            if d > 0:
                short += d
        short -= gold
        vals.append(tg.worth * (_POW[short] if short > 0 else 1.0))
    vals.sort(reverse=True)
    return sum(w * v for w, v in zip(REACH_WEIGHTS, vals, strict=False))


def _shortfall(cost: Sequence[int], bonuses: Sequence[int], tokens: Sequence[int]) -> int:
    """Gold a player would need to buy a card of ``cost`` (0: affordable), C9."""
    short = 0
    for c in range(NUM_GEMS):
        d = cost[c] - bonuses[c] - tokens[c]
        if d > 0:
            short += d
    return max(short - tokens[GOLD], 0)


def _default_payment(
    cost: Sequence[int], bonuses: Sequence[int], tokens: Sequence[int]
) -> list[int]:
    """Tokens left after the default payment of C9 (coloured first, gold for the rest)."""
    left = list(tokens)
    gold = 0
    for c in range(NUM_GEMS):
        need = cost[c] - bonuses[c]
        if need > 0:
            paid = min(need, left[c])
            left[c] -= paid
            gold += need - paid
    left[GOLD] -= gold
    return left


def _noble_need(req: Sequence[int], bonuses: Sequence[int]) -> int:
    """Bonuses still missing for a noble's requirement (C12)."""
    need = 0
    for c in range(NUM_GEMS):
        d = req[c] - bonuses[c]
        if d > 0:
            need += d
    return need


class GreedyBot:
    """One-ply heuristic player of classic Splendor (see the module docstring) and of
    Splendor Duel (:mod:`splendor.bots.greedy_duel`): :meth:`choose` scores with the
    evaluator of the observation's game (its ``"greedy_evaluator"`` part).

    It reads only its observation and chooses only among ``legal_actions``; equal scores
    are broken by its numpy generator, so the same seed makes the same choices.

    Args:
        seed: seed of its numpy generator.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    # ------------------------------------------------------------------ entry point

    def choose(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """The best-scoring element of ``legal_actions`` for ``observation``.

        Raises:
            ValueError: ``legal_actions`` is empty.
        """
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        evaluator = observation.game.part("greedy_evaluator")
        scores = evaluator(observation).scores(legal_actions)
        best = max(scores)
        top = [i for i, s in enumerate(scores) if s >= best - _EPS]
        pick = top[0] if len(top) == 1 else top[int(self._rng.integers(len(top)))]
        return legal_actions[pick]


class ClassicEvaluator:
    """Scores of the legal decisions of one classic observation (the module docstring):
    everything the scores need, read once from the observation (classic Splendor's
    ``"greedy_evaluator"`` part)."""

    def __init__(self, obs: Any) -> None:
        seat = getattr(obs, "seat", None)
        if seat is None or seat < 0:
            seat = obs.current_player
        self.obs = obs
        self.seat = seat
        self.num_players = obs.num_players
        self.me = obs.player(seat)
        self.opponents = [obs.player(p) for p in range(self.num_players) if p != seat]
        self.tokens = list(self.me.tokens)
        self.bonuses = list(self.me.bonuses)
        self.points = self.me.points
        self.supply = obs.supply
        self.faceup = obs.faceup
        self.nobles = [n for n in obs.nobles]
        self.final_turn = bool(getattr(obs, "final_round", False))
        leader = max([self.points] + [o.points for o in self.opponents])
        # development (bonuses, nobles, reach) fades as the game nears its end
        self.dev: float = max(0.2, 1.0 - leader / 18.0)
        if self.final_turn:
            self.dev = 0.0
        self._nobles_w = self._noble_table()
        self._gains = self._bonus_gains()
        self._targets: list[_Target] | None = None
        self._reach0 = 0.0

    # ------------------------------------------------------------------ shared values

    def _noble_table(self) -> list[tuple[tuple[int, ...], float]]:
        """Each noble in the row with its weight: halved where an opponent is closer."""
        table = []
        for n in self.nobles:
            if n is None:
                continue
            mine = _noble_need(n.requirement, self.bonuses)
            theirs = min(
                (_noble_need(n.requirement, o.bonuses) for o in self.opponents), default=99
            )
            table.append((n.requirement, 0.5 if theirs < mine else 1.0))
        return table

    def noble_value(self, bonuses: Sequence[int]) -> float:
        """Progress toward the nobles in the row (a noble met counts its 3 points)."""
        total = 0.0
        for req, weight in self._nobles_w:
            need = _noble_need(req, bonuses)
            total += (
                NOBLE_POINTS
                if need == 0
                else (weight * NOBLE_POINTS * NOBLE_FAR * _NOBLE_POW[need])
            )
        return total

    def bonus_gain(self, color: int) -> float:
        """Development worth of one more bonus of ``color``."""
        return self._gains[color]

    def _bonus_gains(self) -> list[float]:
        base = self.noble_value(self.bonuses)
        out = []
        for color in range(NUM_GEMS):
            b = list(self.bonuses)
            b[color] += 1
            out.append(self.dev * (BONUS_VALUE + self.noble_value(b) - base))
        return out

    def card_worth(self, card: Card) -> float:
        return card.points + self.bonus_gain(card.bonus)

    @property
    def targets(self) -> list[_Target]:
        if self._targets is None:
            gains = self._gains
            cards: list[Card] = [c for row in self.faceup for c in row if c is not None]
            cards += [c for c in self.me.reserved if isinstance(c, Card)]
            self._targets = [
                _Target(
                    c,
                    [c.cost[k] - self.bonuses[k] for k in range(NUM_GEMS)],
                    c.points + gains[c.bonus],
                )
                for c in cards
            ]
            self._reach0 = _reach(self._targets, self.tokens)
        return self._targets

    def reach(self, tokens: Sequence[int], extra: int = -1, skip: _Target | None = None) -> float:
        if self.dev == 0.0:
            return 0.0
        return self.dev * _reach(self.targets, tokens, extra, skip)

    def base_reach(self) -> float:
        if self.dev == 0.0:
            return 0.0
        _ = self.targets
        return self.dev * self._reach0

    def after_returns(self, tokens: list[int], extra: int = -1) -> list[int]:
        """``tokens`` after giving back, one at a time, the least useful token until 10
        remain (C11), as the return decision would."""
        t = list(tokens)
        while sum(t) > TOKEN_LIMIT:
            best_c, best_v = -1, -1e18
            for c in range(6):
                if t[c] > 0:
                    t[c] -= 1
                    v = _reach(self.targets, t, extra)
                    t[c] += 1
                    if v > best_v + _EPS:
                        best_c, best_v = c, v
            t[best_c] -= 1
        return t

    def deny_value(self, card: Card) -> float:
        """What an opponent who can afford ``card`` now would gain by buying it."""
        best = 0.0
        for o in self.opponents:
            if _shortfall(card.cost, o.bonuses, o.tokens) > 0:
                continue
            gain = float(card.points)
            b = list(o.bonuses)
            b[card.bonus] += 1
            if any(
                n is not None
                and _noble_need(n.requirement, b) == 0
                and _noble_need(n.requirement, o.bonuses) > 0
                for n in self.nobles
            ):
                gain += NOBLE_POINTS
            value = DENY_WEIGHT * gain
            if o.points + gain >= WIN_POINTS:
                value += DENY_WIN + gain
            best = max(best, value)
        return best

    # ------------------------------------------------------------------ scoring

    def scores(self, legal: Sequence[Any]) -> list[float]:
        out = []
        for a in legal:
            kind = getattr(a, "kind", None)
            fn = _SCORERS.get(kind) if isinstance(kind, str) else None
            out.append(fn(self, a) if fn is not None else -1e6)
        return out

    def score_take(self, a: Any) -> float:
        t = list(self.tokens)
        for c in a.colors:
            t[c] += 1
        if self.dev == 0.0:
            return 0.0
        if sum(t) > TOKEN_LIMIT:
            t = self.after_returns(t)
            if t == self.tokens:
                # everything taken goes back: a wasted turn that can repeat for ever
                return -NOOP_PENALTY
        return self.reach(t) - self.base_reach()

    def _buy(self, card: Card, target: _Target | None, from_reserve: bool) -> float:
        b = list(self.bonuses)
        b[card.bonus] += 1
        gained = float(card.points)
        # C12: a noble whose requirement this bonus completes visits at once
        for n in self.nobles:
            if (
                n is not None
                and _noble_need(n.requirement, b) == 0
                and _noble_need(n.requirement, self.bonuses) > 0
            ):
                gained += NOBLE_POINTS
                break
        score = gained
        if self.points + gained >= WIN_POINTS:
            score += WIN_BONUS
        if self.final_turn:
            # only points count now; a card without points only worsens the tie-break (C15)
            return score - (0.01 if card.points == 0 else 0.0)
        score += self.bonus_gain(card.bonus)
        left = _default_payment(card.cost, self.bonuses, self.tokens)
        before = self.reach(self.tokens, skip=target)
        score += self.reach(left, extra=card.bonus, skip=target) - before
        if not from_reserve:
            score += BUY_DENY_SHARE * self.deny_value(card)
        else:
            score += SLOT_FREED
        return score

    def _target_of(self, card: Card) -> _Target | None:
        for tg in self.targets:
            if tg.card is card:
                return tg
        return None

    def score_buy_faceup(self, a: Any) -> float:
        card = self.faceup[a.level - 1][a.slot - 1]
        if card is None:
            return -1e6
        return self._buy(card, self._target_of(card), False)

    def score_buy_reserved(self, a: Any) -> float:
        card = self.me.reserved[a.slot - 1]
        if not isinstance(card, Card):
            return -1e6
        return self._buy(card, self._target_of(card), True)

    def _reserve_common(self) -> tuple[float, list[int]]:
        """Score of the gold a reserve brings (C8), minus the slot, and tokens after."""
        t = list(self.tokens)
        if self.supply[GOLD] > 0:
            t[GOLD] += 1
        slot = self.dev * SLOT_COST[min(len(self.me.reserved), len(SLOT_COST) - 1)]
        if self.final_turn:
            return -0.01, t
        if sum(t) > TOKEN_LIMIT:
            t = self.after_returns(t)
        return self.reach(t) - self.base_reach() - slot, t

    def score_reserve_faceup(self, a: Any) -> float:
        card = self.faceup[a.level - 1][a.slot - 1]
        if card is None:
            return -1e6
        score, t = self._reserve_common()
        score += self.deny_value(card)
        if not self.final_turn:
            short = _shortfall(card.cost, self.bonuses, t)
            score += SECURE_SHARE * self.dev * self.card_worth(card) * _POW[short]
        return score

    def score_reserve_deck(self, a: Any) -> float:
        score, _ = self._reserve_common()
        return score + self.dev * BLIND_VALUE[a.level - 1]

    def score_return(self, a: Any) -> float:
        t = list(self.tokens)
        c = a.colors[0]
        t[c] -= 1
        return _reach(self.targets, t)

    def score_noble(self, a: Any) -> float:
        n = self.nobles[a.slot - 1]
        if n is None:
            return -1e6
        if not self.opponents:
            return 0.0
        # every noble gives 3 points: take the one an opponent would get soonest
        return -float(min(_noble_need(n.requirement, o.bonuses) for o in self.opponents))

    def score_pay_gold(self, a: Any) -> float:
        pay = self.obs.payment
        c = a.colors[0]
        if pay is None:
            return -1.0
        _, need, _ = pay
        # spend gold only where coloured tokens are missing
        return 1.0 if need[c] > self.tokens[c] else -1.0

    def score_pay(self, a: Any) -> float:
        return 2.0

    def score_other(self, a: Any) -> float:
        return -1e3  # buy … choose: the default buy is always legal beside it

    def score_pass(self, a: Any) -> float:
        return 0.0


_SCORERS = {
    "take3": ClassicEvaluator.score_take,
    "take2_different": ClassicEvaluator.score_take,
    "take1": ClassicEvaluator.score_take,
    "take2_same": ClassicEvaluator.score_take,
    "reserve_faceup": ClassicEvaluator.score_reserve_faceup,
    "reserve_deck": ClassicEvaluator.score_reserve_deck,
    "buy_faceup": ClassicEvaluator.score_buy_faceup,
    "buy_reserved": ClassicEvaluator.score_buy_reserved,
    "buy_choose": ClassicEvaluator.score_other,
    "pay_gold": ClassicEvaluator.score_pay_gold,
    "pay": ClassicEvaluator.score_pay,
    "return": ClassicEvaluator.score_return,
    "noble": ClassicEvaluator.score_noble,
    "pass": ClassicEvaluator.score_pass,
}

__all__ = ["ClassicEvaluator", "GreedyBot"]
