"""The rules of classic Splendor (C1-C18): the only place they live.

Every function here is compiled with numba (``@njit(cache=True)``) and works on one game
state: a numpy structured array of shape ``(1,)`` with dtype
:data:`splendor.classic.state.STATE_DTYPE`. The same code runs as plain Python with
``NUMBA_DISABLE_JIT=1`` (debugging, coverage).

Public kernels:
    ``setup(arr, num_players, seed)``  deal a new game into a zeroed array (C1-C5).
    ``legal_mask(arr, mask)``          fill ``mask`` (bool, shape ``(NUM_ACTIONS,)``).
    ``is_legal(arr, action)``          whether one decision id is legal now.
    ``apply(arr, action)``             play one decision; returns 0, or -1 (state unchanged)
                                       when the id is illegal.
    ``winners_mask(arr, out)``         C15 winners of a finished game.
    ``random_playout(arr, rng, max_decisions)``  uniform random decisions to the end.

Chance: the deck shuffles and the noble draw happen in ``setup`` from the splitmix64
generator stored in the state (``rng``), so a seed and a list of decisions replay a game
exactly (C18).

What classic plays like Duel (dealing and drawing from the decks, the reserved slots, the
chosen payment, random playouts, determinization) is compiled once in :mod:`splendor.rule_pieces`
and called from here with classic's tables.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..colors import GOLD, NUM_GEMS
from ..jit import ENGINE_SOURCES, refresh_numba_cache, state_record
from ..rng import random_legal_id, seed_rng, shuffle
from ..rule_pieces import (
    deal_decks,
    deal_unseen,
    draw_card,
    drop_reserved,
    hold_reserved,
    pay_with_gold,
    payment_legal,
    random_playout_of,
    settle_payment,
    start_payment,
    tokens_held,
)
from .actions import (
    BUY_CHOOSE,
    BUY_FACEUP,
    BUY_RESERVED,
    CHOOSE_NOBLE,
    NUM_ACTIONS,
    PASS,
    PAY_DONE,
    PAY_GOLD,
    RESERVE_DECK,
    RESERVE_FACEUP,
    RETURN_TOKEN,
    TAKE1,
    TAKE2_COLORS,
    TAKE2_DIFF,
    TAKE2_SAME,
    TAKE3,
    TAKE3_COLORS,
)
from .cards import (
    CARD_BONUS,
    CARD_COST,
    CARD_LEVEL,
    CARD_POINTS,
    LEVEL_SIZE,
    LEVEL_START,
    MAX_RESERVED,
    NOBLE_POINTS,
    NOBLE_REQ,
    NUM_NOBLES,
)

refresh_numba_cache(__file__, *ENGINE_SOURCES)

# Phases: which kind of decision the current player owes.
PH_MAIN = 0  # one of the four actions, or pass (C6-C9, C17)
PH_PAY = 1  # choosing a payment with gold (C9)
PH_RETURN = 2  # returning tokens above 10 (C11)
PH_NOBLE = 3  # choosing one of several nobles (C12)
PH_OVER = 4  # the game is over

# Why the game ended.
END_NONE = 0
END_POINTS = 1  # C14: 15 points reached and the round completed
END_STALL = 2  # C17: every player passed in one full round

TOKEN_LIMIT = 10  # C11
WIN_POINTS = 15  # C14
GOLD_TOKENS = 5  # C1


# --------------------------------------------------------------------------- setup


@njit(cache=True)
def setup(arr: np.ndarray, num_players: int, seed: int) -> None:
    """Deal a new game into ``arr`` (C1-C5): supply, shuffled decks, 12 face-up cards,
    ``num_players + 1`` nobles, seat 0 to play. Every field is overwritten, so ``arr`` may
    hold an old game."""
    s = state_record(arr)
    seed_rng(s.rng, seed)
    s.num_players = num_players
    s.turn = 0
    s.final_round = 0
    s.pass_streak = 0
    s.end_reason = END_NONE
    s.tokens[:, :] = 0
    s.bonuses[:, :] = 0
    s.points[:] = 0
    s.reserved_level[:, :] = 0
    s.reserved_blind[:, :] = 0
    s.num_reserved[:] = 0
    s.pay_need[:] = 0
    s.pay_gold = 0
    s.pay_src = 0
    gems = 4 if num_players == 2 else (5 if num_players == 3 else 7)  # C1
    for c in range(NUM_GEMS):
        s.supply[c] = gems
    s.supply[GOLD] = GOLD_TOKENS
    s.faceup[:, :] = -1
    s.nobles[:] = -1
    s.reserved[:, :] = -1
    s.purchased_by[:] = -1
    s.noble_owner[:] = -1
    s.pay_card = -1
    s.observer = -1
    deal_decks(s, LEVEL_START, LEVEL_SIZE)  # C4: each level shuffled separately
    for lvl in range(3):
        for slot in range(4):
            s.faceup[lvl, slot] = draw_card(s, lvl)
    order = np.arange(NUM_NOBLES)  # C3: reveal players + 1 nobles
    shuffle(order, NUM_NOBLES, s.rng)
    for k in range(num_players + 1):
        s.nobles[k] = order[k]
    s.current = 0  # C5
    s.phase = PH_MAIN


# --------------------------------------------------------------------------- queries


@njit(cache=True, inline="always")
def _shortfall(s: np.record, p: int, card: int) -> int:
    """Gold needed to buy ``card`` with coloured tokens first (C9)."""
    short = 0
    for c in range(NUM_GEMS):
        need = CARD_COST[card, c] - s.bonuses[p, c]
        if need > s.tokens[p, c]:
            short += need - s.tokens[p, c]
    return short


@njit(cache=True, inline="always")
def _can_afford(s: np.record, p: int, card: int) -> bool:
    return _shortfall(s, p, card) <= s.tokens[p, GOLD]


@njit(cache=True, inline="always")
def _has_payment_choice(s: np.record, p: int, card: int) -> bool:
    """Whether a payment other than the default exists: spare gold, and a coloured token
    the default payment would spend (C9)."""
    if s.tokens[p, GOLD] <= _shortfall(s, p, card):
        return False
    for c in range(NUM_GEMS):
        need = CARD_COST[card, c] - s.bonuses[p, c]
        if need > 0 and s.tokens[p, c] > 0:
            return True
    return False


@njit(cache=True)
def _qualifies(s: np.record, p: int, noble: int) -> bool:
    """C12: bonuses (cards only) meet or exceed the noble's requirement."""
    for c in range(NUM_GEMS):
        if s.bonuses[p, c] < NOBLE_REQ[noble, c]:
            return False
    return True


@njit(cache=True, inline="always")
def _num_colors_available(s: np.record) -> int:
    n = 0
    for c in range(NUM_GEMS):
        if s.supply[c] > 0:
            n += 1
    return n


@njit(cache=True, inline="always")
def _source_card(s: np.record, p: int, src: int) -> int:
    """Card at a buy/reserve source: 0-11 face-up (level*4+slot), 12-14 own reserved."""
    if src < 12:
        return s.faceup[src // 4, src % 4]
    k = src - 12
    if k < s.num_reserved[p]:
        return s.reserved[p, k]
    return -1


# --------------------------------------------------------------------------- legality


@njit(cache=True, inline="always")
def _main_action_legal(s: np.record, p: int, a: int) -> bool:
    """Legality of a main action other than pass (C6-C9)."""
    if a < TAKE2_DIFF:  # C6: three different colours
        k = a - TAKE3
        return (
            s.supply[TAKE3_COLORS[k, 0]] > 0
            and s.supply[TAKE3_COLORS[k, 1]] > 0
            and s.supply[TAKE3_COLORS[k, 2]] > 0
        )
    if a < TAKE1:  # C6: exactly the 2 colours left
        k = a - TAKE2_DIFF
        return (
            _num_colors_available(s) == 2
            and s.supply[TAKE2_COLORS[k, 0]] > 0
            and s.supply[TAKE2_COLORS[k, 1]] > 0
        )
    if a < TAKE2_SAME:  # C6: the 1 colour left
        return _num_colors_available(s) == 1 and s.supply[a - TAKE1] > 0
    if a < RESERVE_FACEUP:  # C7: a pile of 4 or more
        return s.supply[a - TAKE2_SAME] >= 4
    if a < RESERVE_DECK:  # C8
        k = a - RESERVE_FACEUP
        return s.num_reserved[p] < MAX_RESERVED and s.faceup[k // 4, k % 4] >= 0
    if a < BUY_FACEUP:  # C8: blind
        return s.num_reserved[p] < MAX_RESERVED and s.deck_len[a - RESERVE_DECK] > 0
    if a < BUY_CHOOSE:  # C9: default payment
        card = _source_card(s, p, a - BUY_FACEUP)
        return card >= 0 and _can_afford(s, p, card)
    if a < PAY_GOLD:  # C9: chosen payment, only when there is a choice
        card = _source_card(s, p, a - BUY_CHOOSE)
        return card >= 0 and _can_afford(s, p, card) and _has_payment_choice(s, p, card)
    return False


@njit(cache=True)
def is_legal(arr: np.ndarray, a: int) -> bool:
    """Whether decision ``a`` is legal for the current player now (any int accepted)."""
    s = state_record(arr)
    if a < 0 or a >= NUM_ACTIONS:
        return False
    ph = s.phase
    p = s.current
    if ph == PH_MAIN:
        if a < PAY_GOLD:
            return _main_action_legal(s, p, a)
        if a == PASS:  # C17: only when nothing else is legal
            for b in range(PAY_GOLD):
                if _main_action_legal(s, p, b):
                    return False
            return True
        return False
    if ph == PH_PAY:  # C9
        return payment_legal(s, p, a, PAY_GOLD, PAY_DONE, GOLD)
    if ph == PH_RETURN:
        return RETURN_TOKEN <= a < CHOOSE_NOBLE and s.tokens[p, a - RETURN_TOKEN] > 0
    if ph == PH_NOBLE:
        if CHOOSE_NOBLE <= a < PASS:
            n = s.nobles[a - CHOOSE_NOBLE]
            return n >= 0 and _qualifies(s, p, n)
        return False
    return False


@njit(cache=True, inline="always")
def _main_mask(s: np.record, p: int, mask: np.ndarray) -> int:
    """Set in ``mask`` the legal main actions other than pass (C6-C9), each family read
    once from the state (the same decisions as :func:`_main_action_legal` one by one, five
    times faster); return how many."""
    n = 0
    colors = _num_colors_available(s)
    for k in range(TAKE3_COLORS.shape[0]):  # C6: three different colours
        if (
            s.supply[TAKE3_COLORS[k, 0]] > 0
            and s.supply[TAKE3_COLORS[k, 1]] > 0
            and s.supply[TAKE3_COLORS[k, 2]] > 0
        ):
            mask[TAKE3 + k] = True
            n += 1
    if colors == 2:  # C6: exactly the 2 colours left
        for k in range(TAKE2_COLORS.shape[0]):
            if s.supply[TAKE2_COLORS[k, 0]] > 0 and s.supply[TAKE2_COLORS[k, 1]] > 0:
                mask[TAKE2_DIFF + k] = True
                n += 1
    for c in range(NUM_GEMS):
        if colors == 1 and s.supply[c] > 0:  # C6: the 1 colour left
            mask[TAKE1 + c] = True
            n += 1
        if s.supply[c] >= 4:  # C7
            mask[TAKE2_SAME + c] = True
            n += 1
    if s.num_reserved[p] < MAX_RESERVED:  # C8
        for k in range(12):
            if s.faceup[k // 4, k % 4] >= 0:
                mask[RESERVE_FACEUP + k] = True
                n += 1
        for lvl in range(3):
            if s.deck_len[lvl] > 0:
                mask[RESERVE_DECK + lvl] = True
                n += 1
    for src in range(BUY_CHOOSE - BUY_FACEUP):  # C9
        card = _source_card(s, p, src)
        if card >= 0 and _can_afford(s, p, card):
            mask[BUY_FACEUP + src] = True
            n += 1
            if _has_payment_choice(s, p, card):
                mask[BUY_CHOOSE + src] = True
                n += 1
    return n


@njit(cache=True)
def legal_mask(arr: np.ndarray, mask: np.ndarray) -> int:
    """Fill ``mask`` (bool, shape ``(NUM_ACTIONS,)``) with the legal decisions of the
    current player; return how many there are (0 only when the game is over)."""
    s = state_record(arr)
    mask[:] = False
    ph = s.phase
    p = s.current
    n = 0
    if ph == PH_MAIN:
        n = _main_mask(s, p, mask)
        if n == 0:
            mask[PASS] = True
            n = 1
    elif ph == PH_PAY:
        for a in range(PAY_GOLD, PAY_DONE + 1):
            if is_legal(arr, a):
                mask[a] = True
                n += 1
    elif ph == PH_RETURN:
        for c in range(6):
            if s.tokens[p, c] > 0:
                mask[RETURN_TOKEN + c] = True
                n += 1
    elif ph == PH_NOBLE:
        for k in range(5):
            if is_legal(arr, CHOOSE_NOBLE + k):
                mask[CHOOSE_NOBLE + k] = True
                n += 1
    return n


# --------------------------------------------------------------------------- effects


@njit(cache=True)
def _take_card(s: np.record, p: int, card: int, src: int) -> None:
    """Move a paid-for card to player ``p`` and refill or close its source (C9, C10)."""
    if src < 12:
        lvl = src // 4
        s.faceup[lvl, src % 4] = draw_card(s, lvl)  # C10
    else:
        drop_reserved(s, p, src - 12)
    s.purchased_by[card] = p
    s.bonuses[p, CARD_BONUS[card]] += 1
    s.points[p] += CARD_POINTS[card]


@njit(cache=True)
def _buy_default(s: np.record, p: int, card: int, src: int) -> None:
    """C9 default payment: coloured tokens first, gold for the shortfall."""
    gold = 0
    for c in range(NUM_GEMS):
        need = CARD_COST[card, c] - s.bonuses[p, c]
        if need > 0:
            paid = need if need <= s.tokens[p, c] else s.tokens[p, c]
            s.tokens[p, c] -= paid
            s.supply[c] += paid
            gold += need - paid
    s.tokens[p, GOLD] -= gold
    s.supply[GOLD] += gold
    _take_card(s, p, card, src)


@njit(cache=True)
def _reserve(s: np.record, p: int, card: int, blind: bool) -> None:
    """C8: hold the card; take a gold if one is left."""
    hold_reserved(s, p, card, CARD_LEVEL[card] + 1, blind)
    if s.supply[GOLD] > 0:
        s.supply[GOLD] -= 1
        s.tokens[p, GOLD] += 1


@njit(cache=True)
def _after_main(s: np.record) -> None:
    """End of turn after the main action: token limit first (C11, C13), then nobles."""
    if tokens_held(s, s.current) > TOKEN_LIMIT:
        s.phase = PH_RETURN
    else:
        _visit_nobles(s)


@njit(cache=True)
def _visit_nobles(s: np.record) -> None:
    """C12: one qualifying noble visits at once; several qualifying ones make a choice."""
    p = s.current
    found = -1
    count = 0
    for k in range(5):
        n = s.nobles[k]
        if n >= 0 and _qualifies(s, p, n):
            found = k
            count += 1
    if count == 0:
        _end_turn(s)
    elif count == 1:
        _award_noble(s, p, found)
        _end_turn(s)
    else:
        s.phase = PH_NOBLE


@njit(cache=True)
def _award_noble(s: np.record, p: int, k: int) -> None:
    n = s.nobles[k]
    s.noble_owner[n] = p
    s.points[p] += NOBLE_POINTS[n]
    s.nobles[k] = -1


@njit(cache=True)
def _end_turn(s: np.record) -> None:
    """C14 round completion, C17 full-round stall, then the next seat plays (C5)."""
    p = s.current
    np_ = s.num_players
    s.turn += 1
    if s.points[p] >= WIN_POINTS:
        s.final_round = 1
    nxt = p + 1
    if nxt == np_:
        nxt = 0
    if s.pass_streak >= np_:
        s.phase = PH_OVER
        s.end_reason = END_STALL
        s.current = -1
    elif s.final_round == 1 and nxt == 0:
        s.phase = PH_OVER
        s.end_reason = END_POINTS
        s.current = -1
    else:
        s.current = nxt
        s.phase = PH_MAIN


@njit(cache=True)
def apply(arr: np.ndarray, a: int) -> int:
    """Play decision ``a`` for the current player.

    Returns 0 when applied, -1 when ``a`` is not legal now (the state is then unchanged).
    """
    if not is_legal(arr, a):
        return -1
    s = state_record(arr)
    p = s.current
    if a < TAKE2_SAME:  # C6
        if a < TAKE2_DIFF:
            for i in range(3):
                c = TAKE3_COLORS[a - TAKE3, i]
                s.supply[c] -= 1
                s.tokens[p, c] += 1
        elif a < TAKE1:
            for i in range(2):
                c = TAKE2_COLORS[a - TAKE2_DIFF, i]
                s.supply[c] -= 1
                s.tokens[p, c] += 1
        else:
            c = a - TAKE1
            s.supply[c] -= 1
            s.tokens[p, c] += 1
        s.pass_streak = 0
        _after_main(s)
    elif a < RESERVE_FACEUP:  # C7
        c = a - TAKE2_SAME
        s.supply[c] -= 2
        s.tokens[p, c] += 2
        s.pass_streak = 0
        _after_main(s)
    elif a < RESERVE_DECK:  # C8, C10
        k = a - RESERVE_FACEUP
        lvl = k // 4
        card = s.faceup[lvl, k % 4]
        s.faceup[lvl, k % 4] = draw_card(s, lvl)
        _reserve(s, p, card, False)
        s.pass_streak = 0
        _after_main(s)
    elif a < BUY_FACEUP:  # C8 blind
        card = draw_card(s, a - RESERVE_DECK)
        _reserve(s, p, card, True)
        s.pass_streak = 0
        _after_main(s)
    elif a < BUY_CHOOSE:  # C9 default payment
        src = a - BUY_FACEUP
        _buy_default(s, p, _source_card(s, p, src), src)
        s.pass_streak = 0
        _after_main(s)
    elif a < PAY_GOLD:  # C9 chosen payment starts
        src = a - BUY_CHOOSE
        card = _source_card(s, p, src)
        start_payment(s, card, src)
        for c in range(NUM_GEMS):
            need = CARD_COST[card, c] - s.bonuses[p, c]
            s.pay_need[c] = need if need > 0 else 0
        s.pass_streak = 0
        s.phase = PH_PAY
    elif a < PAY_DONE:  # one gold in place of one coloured token
        pay_with_gold(s, a - PAY_GOLD)
    elif a == PAY_DONE:
        card, src = settle_payment(s, p, s.supply, GOLD)
        s.phase = PH_MAIN
        _take_card(s, p, card, src)
        _after_main(s)
    elif a < CHOOSE_NOBLE:  # C11
        c = a - RETURN_TOKEN
        s.tokens[p, c] -= 1
        s.supply[c] += 1
        if tokens_held(s, p) <= TOKEN_LIMIT:
            _visit_nobles(s)
    elif a < PASS:  # C12
        _award_noble(s, p, a - CHOOSE_NOBLE)
        _end_turn(s)
    else:  # C17
        s.pass_streak += 1
        _visit_nobles(s)
    return 0


# --------------------------------------------------------------------------- results


@njit(cache=True)
def num_purchased(arr: np.ndarray, p: int) -> int:
    """Number of development cards player ``p`` has bought (reserved cards excluded)."""
    s = state_record(arr)
    n = 0
    for card in range(s.purchased_by.shape[0]):
        if s.purchased_by[card] == p:
            n += 1
    return n


@njit(cache=True)
def winners_mask(arr: np.ndarray, out: np.ndarray) -> int:
    """C15: mark the winners in ``out`` (bool, shape ``(4,)``); return how many.

    Most prestige points; ties go to the fewest purchased cards; a tie on both is shared.
    """
    s = state_record(arr)
    out[:] = False
    best_pts = -1
    best_cards = 1 << 30
    for p in range(s.num_players):
        pts = s.points[p]
        cards = num_purchased(arr, p)
        if pts > best_pts or (pts == best_pts and cards < best_cards):
            best_pts = pts
            best_cards = cards
    n = 0
    for p in range(s.num_players):
        if s.points[p] == best_pts and num_purchased(arr, p) == best_cards:
            out[p] = True
            n += 1
    return n


# --------------------------------------------------------------------------- playouts


@njit(cache=True)
def random_action(arr: np.ndarray, mask: np.ndarray, rng: np.ndarray) -> int:
    """A uniformly random legal decision (``mask`` is scratch space), or -1 at game end."""
    return random_legal_id(mask, legal_mask(arr, mask), rng)


@njit(cache=True)
def random_playout(arr: np.ndarray, rng: np.ndarray, max_decisions: int) -> int:
    """Play uniformly random legal decisions (drawn with ``rng``) until the game ends
    (C14, C17) or ``max_decisions`` were made; return the number of decisions made."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    return random_playout_of(arr, mask, rng, max_decisions, legal_mask, apply, PH_OVER)


# --------------------------------------------------------------------------- information sets


@njit(cache=True)
def determinize_into(obs: np.ndarray, out: np.ndarray, rng: np.ndarray) -> int:
    """Write into ``out`` a full state consistent with the observation ``obs`` (C16):
    the cards its observer cannot see (other seats' blind reserves of known level, deck
    contents and order) are dealt at random with ``rng`` (uint64, shape (1,), advanced)
    from the cards neither bought nor face-up, and the state's own generator is reseeded
    from ``rng`` (:func:`splendor.rule_pieces.deal_unseen`). Both arrays have the state dtype;
    ``obs`` is unchanged.

    Returns:
        0, or a negative number when ``obs`` is inconsistent (``out`` is then garbage).
    """
    out[0] = obs[0]
    s = state_record(out)
    reserved_src = BUY_RESERVED - BUY_FACEUP
    return deal_unseen(s, s.purchased_by, s.faceup, CARD_LEVEL, s.num_players, reserved_src, rng)


@njit(cache=True)
def rewards(arr: np.ndarray, out: np.ndarray) -> None:
    """Each player's reward in ``out`` (float64, shape ``(4,)``): 1 shared equally by the
    C15 winners, 0 for the others (seats beyond ``num_players`` get 0). On an unfinished
    state the current leaders by C15 count as winners (a cut-off playout)."""
    s = state_record(arr)
    won = np.zeros(4, dtype=np.bool_)
    n = winners_mask(arr, won)
    for p in range(out.shape[0]):
        out[p] = 1.0 / n if p < s.num_players and won[p] else 0.0
