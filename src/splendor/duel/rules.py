"""The rules of Splendor Duel (D1-D25): the only place they live.

Every function here is compiled with numba (``@njit(cache=True)``) and works on one game
state: a numpy structured array of shape ``(1,)`` with dtype
:data:`splendor.duel.state.STATE_DTYPE`. The same code runs as plain Python with
``NUMBA_DISABLE_JIT=1``.

Public kernels:
    ``setup(arr, seed, turn_cap)``     deal a new game into an array (D1-D5).
    ``legal_mask(arr, mask)``          fill ``mask`` (bool, shape ``(NUM_ACTIONS,)``).
    ``is_legal(arr, action)``          whether one decision id is legal now.
    ``apply(arr, action)``             play one decision; returns 0, or -1 (state unchanged)
                                       when the id is illegal.
    ``random_playout(arr, rng, max_decisions)``  uniform random decisions to the end.

A turn (D6-D12) runs through phases: ``PH_MAIN`` (privileges, replenish, then one mandatory
action), ``PH_RESERVE`` (the card reserved after taking a gold, D9), ``PH_PAY`` (a chosen
payment, D10), then the pending effects of a bought card in the order joker (D14), token
(D15), steal (D17), royal card (D19), then the token limit (D20), the victory check (D21)
and the extra turn of ``again`` (D13, D23). A choice with a single option is made here.

Chance: the deck shuffles in ``setup`` and every bag draw (D2, D7) come from the splitmix64
generator stored in the state (``rng``), so a seed and a list of decisions replay a game
exactly (D24).

The pieces Duel plays like classic (the decks, reserved slots, chosen payment, random
playouts, determinization) are compiled once in :mod:`splendor.rule_pieces`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..colors import DUEL_GOLD as GOLD
from ..colors import PEARL
from ..jit import ENGINE_SOURCES, refresh_numba_cache, state_record
from ..rng import random_legal_id, rng_below, seed_rng
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
    BUY,
    BUY_CHOOSE,
    JOKER,
    NUM_ACTIONS,
    PASS,
    PAY_DONE,
    PAY_GOLD,
    PRIVILEGE,
    REPLENISH,
    RESERVE,
    RESERVE_DECK,
    RETURN_TOKEN,
    ROYAL,
    STEAL,
    TAKE,
    TAKE_GOLD,
    TOKEN,
)
from .board import BAG_START, LINE_LEN, LINES, NUM_CELLS, NUM_LINES, SPIRAL
from .cards import (
    AB_AGAIN,
    AB_JOKER,
    AB_PRIVILEGE,
    AB_STEAL,
    AB_TOKEN,
    CARD_ABILITY,
    CARD_BONUS_COUNT,
    CARD_COLOR,
    CARD_COST,
    CARD_CROWNS,
    CARD_LEVEL,
    CARD_POINTS,
    LEVEL_SIZE,
    LEVEL_START,
    MAX_RESERVED,
    NUM_PYRAMID,
    NUM_ROYALS,
    ROYAL_ABILITY,
    ROYAL_POINTS,
    SLOT_LEVEL,
)

refresh_numba_cache(__file__, *ENGINE_SOURCES)

# Phases: which kind of decision the current player owes.
PH_MAIN = 0  # privileges / replenish, then a mandatory action (D6-D10, D12)
PH_RESERVE = 1  # the card to reserve after taking a gold (D9)
PH_PAY = 2  # choosing a payment with gold (D10)
PH_JOKER = 3  # the colour a joker takes (D14)
PH_TOKEN = 4  # the token of a `token` ability (D15)
PH_STEAL = 5  # the token stolen (D17)
PH_ROYAL = 6  # the royal card taken (D19)
PH_RETURN = 7  # tokens returned above 10 (D20)
PH_OVER = 8

# Why the game ended (D21, D25).
END_NONE = 0
END_POINTS = 1  # 20 prestige points
END_CROWNS = 2  # 10 crowns
END_COLOR = 3  # 10 prestige points in one bonus colour
END_CAP = 4  # the host's turn cap (D25): no winner

# Pending effects of a bought card (bits of `pend`).
PEND_JOKER = 1
PEND_TOKEN = 2
PEND_STEAL = 4

TOKEN_LIMIT = 10  # D20
WIN_POINTS = 20  # D21
WIN_CROWNS = 10
WIN_COLOR_POINTS = 10
NUM_PRIVILEGES = 3  # D5


# --------------------------------------------------------------------------- setup


@njit(cache=True)
def setup(arr: np.ndarray, seed: int, turn_cap: int) -> None:
    """Deal a new game into ``arr`` (D1-D5): the bag spread over the board in spiral order,
    shuffled decks, the 12-card pyramid, 4 royal cards, one privilege for seat 1, seat 0 to
    play. ``turn_cap`` > 0 ends the game after that many turns (D25); 0 means no cap.
    Every field is overwritten, so ``arr`` may hold an old game."""
    s = state_record(arr)
    seed_rng(s.rng, seed)
    s.turn = 0
    s.turn_cap = turn_cap
    s.end_reason = END_NONE
    s.winner = -1
    s.observer = -1
    s.replenished = 0
    s.again = 0
    s.pend = 0
    s.pend_card = -1
    s.tokens[:, :] = 0
    s.bonuses[:, :] = 0
    s.points[:] = 0
    s.crowns[:] = 0
    s.color_points[:, :] = 0
    s.privileges[:] = 0
    s.reserved[:, :] = -1
    s.reserved_level[:, :] = 0
    s.reserved_blind[:, :] = 0
    s.num_reserved[:] = 0
    s.card_owner[:] = -1
    s.card_color[:] = -1
    s.royal_owner[:] = -1
    s.crown_claims[:] = 0
    s.pay_card = -1
    s.pay_src = 0
    s.pay_need[:] = 0
    s.pay_gold = 0
    for c in range(7):  # D1: everything starts in the bag
        s.bag[c] = BAG_START[c]
    s.board[:] = -1
    _fill_board(s)  # D2
    deal_decks(s, LEVEL_START, LEVEL_SIZE)  # D3: each level shuffled separately
    for k in range(NUM_PYRAMID):
        s.pyramid[k] = draw_card(s, SLOT_LEVEL[k])
    s.privileges[1] = 1  # D5
    s.current = 0
    s.phase = PH_MAIN


@njit(cache=True)
def _fill_board(s: np.record) -> None:
    """Draw the whole bag at random onto the empty cells in spiral order (D2, D7)."""
    total = 0
    for c in range(7):
        total += s.bag[c]
    for i in range(NUM_CELLS):
        if total == 0:
            break
        cell = SPIRAL[i]
        if s.board[cell] >= 0:
            continue
        r = rng_below(s.rng, total)
        c = 0
        while r >= s.bag[c]:
            r -= s.bag[c]
            c += 1
        s.bag[c] -= 1
        total -= 1
        s.board[cell] = c


# --------------------------------------------------------------------------- queries


@njit(cache=True, inline="always")
def _bag_total(s: np.record) -> int:
    t = 0
    for c in range(7):
        t += s.bag[c]
    return t


@njit(cache=True, inline="always")
def _need(s: np.record, p: int, card: int, c: int) -> int:
    """Tokens of colour ``c`` (0..5) owed for ``card`` after bonuses (pearls: none, D10)."""
    need = CARD_COST[card, c]
    if c < 5:
        need -= s.bonuses[p, c]
    return need if need > 0 else 0


@njit(cache=True, inline="always")
def _shortfall(s: np.record, p: int, card: int) -> int:
    """Gold needed to buy ``card`` with coloured tokens and pearls first (D10)."""
    short = 0
    for c in range(6):
        need = _need(s, p, card, c)
        if need > s.tokens[p, c]:
            short += need - s.tokens[p, c]
    return short


@njit(cache=True, inline="always")
def _has_colored_bonus(s: np.record, p: int) -> bool:
    for c in range(5):
        if s.bonuses[p, c] > 0:
            return True
    return False


@njit(cache=True, inline="always")
def _can_buy(s: np.record, p: int, card: int) -> bool:
    """D10 affordability, and D14: a joker needs a card with a coloured bonus."""
    if CARD_ABILITY[card] & AB_JOKER and not _has_colored_bonus(s, p):
        return False
    return _shortfall(s, p, card) <= s.tokens[p, GOLD]


@njit(cache=True, inline="always")
def _has_payment_choice(s: np.record, p: int, card: int) -> bool:
    """Whether a payment other than the default exists: spare gold, and a coloured token
    or pearl that the default payment would spend (D10)."""
    if s.tokens[p, GOLD] <= _shortfall(s, p, card):
        return False
    for c in range(6):
        if _need(s, p, card, c) > 0 and s.tokens[p, c] > 0:
            return True
    return False


@njit(cache=True, inline="always")
def _source_card(s: np.record, p: int, src: int) -> int:
    """Card at a buy source: 0-11 pyramid slot, 12-14 own reserved slot; -1 if none."""
    if src < NUM_PYRAMID:
        return s.pyramid[src]
    k = src - NUM_PYRAMID
    if k < s.num_reserved[p]:
        return s.reserved[p, k]
    return -1


@njit(cache=True, inline="always")
def _can_reserve_something(s: np.record) -> bool:
    for k in range(NUM_PYRAMID):
        if s.pyramid[k] >= 0:
            return True
    for lvl in range(3):
        if s.deck_len[lvl] > 0:
            return True
    return False


@njit(cache=True, inline="always")
def _line_takeable(s: np.record, line: int) -> bool:
    """D8: every cell of the line holds a gem or pearl token (no gap, no gold)."""
    for i in range(LINE_LEN[line]):
        v = s.board[LINES[line, i]]
        if v < 0 or v == GOLD:
            return False
    return True


@njit(cache=True)
def _mandatory_legal(s: np.record, p: int, a: int) -> bool:
    """Legality of a mandatory action (D8-D10)."""
    if TAKE <= a < TAKE_GOLD:
        return _line_takeable(s, a - TAKE)
    if TAKE_GOLD <= a < RESERVE:  # D9
        return (
            s.board[a - TAKE_GOLD] == GOLD
            and s.num_reserved[p] < MAX_RESERVED
            and _can_reserve_something(s)
        )
    if BUY <= a < BUY_CHOOSE:
        card = _source_card(s, p, a - BUY)
        return card >= 0 and _can_buy(s, p, card)
    if BUY_CHOOSE <= a < PAY_GOLD:
        card = _source_card(s, p, a - BUY_CHOOSE)
        return card >= 0 and _can_buy(s, p, card) and _has_payment_choice(s, p, card)
    return False


@njit(cache=True)
def _main_legal(s: np.record, p: int, a: int) -> bool:
    """Legality in PH_MAIN, pass excluded."""
    if a < REPLENISH:  # D6: before replenishing, a gem or pearl token
        v = s.board[a - PRIVILEGE]
        return s.privileges[p] > 0 and s.replenished == 0 and 0 <= v < GOLD
    if a == REPLENISH:  # D7, D12
        return s.replenished == 0 and _bag_total(s) > 0
    return _mandatory_legal(s, p, a)


@njit(cache=True)
def _count_cells_of(s: np.record, color: int) -> int:
    n = 0
    for cell in range(NUM_CELLS):
        if s.board[cell] == color:
            n += 1
    return n


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
            return _main_legal(s, p, a)
        if a == PASS:  # engine ruling: only when nothing else is possible
            for b in range(PAY_GOLD):
                if _main_legal(s, p, b):
                    return False
            return True
        return False
    if ph == PH_RESERVE:  # D9
        if RESERVE <= a < RESERVE_DECK:
            return s.pyramid[a - RESERVE] >= 0
        if RESERVE_DECK <= a < BUY:
            return s.deck_len[a - RESERVE_DECK] > 0
        return False
    if ph == PH_PAY:  # D10
        return payment_legal(s, p, a, PAY_GOLD, PAY_DONE, GOLD)
    if ph == PH_JOKER:  # D14
        return JOKER <= a < TOKEN and s.bonuses[p, a - JOKER] > 0
    if ph == PH_TOKEN:  # D15
        return TOKEN <= a < STEAL and s.board[a - TOKEN] == s.card_color[s.pend_card]
    if ph == PH_STEAL:  # D17
        return STEAL <= a < ROYAL and s.tokens[1 - p, a - STEAL] > 0
    if ph == PH_ROYAL:  # D19
        return ROYAL <= a < ROYAL + NUM_ROYALS and s.royal_owner[a - ROYAL] < 0
    if ph == PH_RETURN:  # D20
        return RETURN_TOKEN <= a < PASS and s.tokens[p, a - RETURN_TOKEN] > 0
    return False


@njit(cache=True, inline="always")
def _mandatory_mask(s: np.record, p: int, mask: np.ndarray) -> int:
    """Set in ``mask`` the legal mandatory actions (D8-D10), each family read once from
    the state (the same decisions as :func:`_mandatory_legal` one by one, several times
    faster); return how many."""
    n = 0
    for line in range(NUM_LINES):  # D8
        if _line_takeable(s, line):
            mask[TAKE + line] = True
            n += 1
    if s.num_reserved[p] < MAX_RESERVED and _can_reserve_something(s):  # D9
        for cell in range(NUM_CELLS):
            if s.board[cell] == GOLD:
                mask[TAKE_GOLD + cell] = True
                n += 1
    for src in range(NUM_PYRAMID + MAX_RESERVED):  # D10
        card = _source_card(s, p, src)
        if card >= 0 and _can_buy(s, p, card):
            mask[BUY + src] = True
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
        if s.privileges[p] > 0 and s.replenished == 0:
            for cell in range(NUM_CELLS):
                v = s.board[cell]
                if 0 <= v < GOLD:
                    mask[PRIVILEGE + cell] = True
                    n += 1
        if s.replenished == 0 and _bag_total(s) > 0:
            mask[REPLENISH] = True
            n += 1
        n += _mandatory_mask(s, p, mask)
        if n == 0:
            mask[PASS] = True
            n = 1
        return n
    lo = 0
    hi = 0
    if ph == PH_RESERVE:
        lo, hi = RESERVE, BUY
    elif ph == PH_PAY:
        lo, hi = PAY_GOLD, PAY_DONE + 1
    elif ph == PH_JOKER:
        lo, hi = JOKER, TOKEN
    elif ph == PH_TOKEN:
        lo, hi = TOKEN, STEAL
    elif ph == PH_STEAL:
        lo, hi = STEAL, ROYAL
    elif ph == PH_ROYAL:
        lo, hi = ROYAL, RETURN_TOKEN
    elif ph == PH_RETURN:
        lo, hi = RETURN_TOKEN, PASS
    for a in range(lo, hi):
        if is_legal(arr, a):
            mask[a] = True
            n += 1
    return n


# --------------------------------------------------------------------------- effects


@njit(cache=True)
def _gain_privilege(s: np.record, p: int) -> None:
    """D18: from beside the board, else from the opponent; nothing if ``p`` holds all 3."""
    free = NUM_PRIVILEGES - s.privileges[0] - s.privileges[1]
    if free > 0:
        s.privileges[p] += 1
    elif s.privileges[1 - p] > 0:
        s.privileges[1 - p] -= 1
        s.privileges[p] += 1


@njit(cache=True)
def _take_cell(s: np.record, p: int, cell: int) -> int:
    """Move the token on ``cell`` to player ``p``; return its colour."""
    c = s.board[cell]
    s.board[cell] = -1
    s.tokens[p, c] += 1
    return c


@njit(cache=True)
def _take_card(s: np.record, p: int, card: int, src: int) -> None:
    """Give a paid-for card to ``p``, refill or close its source (D11), and queue or apply
    its ability (D13-D17)."""
    if src < NUM_PYRAMID:
        s.pyramid[src] = draw_card(s, SLOT_LEVEL[src])
    else:
        drop_reserved(s, p, src - NUM_PYRAMID)
    s.card_owner[card] = p
    s.points[p] += CARD_POINTS[card]
    s.crowns[p] += CARD_CROWNS[card]
    ab = CARD_ABILITY[card]
    s.pend_card = card
    if ab & AB_JOKER:
        s.card_color[card] = -1
        s.pend |= PEND_JOKER
    else:
        col = CARD_COLOR[card]
        s.card_color[card] = col
        if col >= 0:
            s.bonuses[p, col] += CARD_BONUS_COUNT[card]
            s.color_points[p, col] += CARD_POINTS[card]
    if ab & AB_TOKEN:
        s.pend |= PEND_TOKEN
    if ab & AB_PRIVILEGE:
        _gain_privilege(s, p)
    if ab & AB_STEAL:
        s.pend |= PEND_STEAL
    if ab & AB_AGAIN:
        s.again = 1
    _resolve(s)


@njit(cache=True)
def _attach_joker(s: np.record, p: int, color: int) -> None:
    """D14: the joker just bought takes ``color``; its points count toward that colour."""
    card = s.pend_card
    s.card_color[card] = color
    s.bonuses[p, color] += CARD_BONUS_COUNT[card]
    s.color_points[p, color] += CARD_POINTS[card]
    s.pend &= ~PEND_JOKER


@njit(cache=True)
def _take_royal(s: np.record, p: int, k: int) -> None:
    """D19: royal card ``k`` goes to ``p``; its ability applies at once."""
    s.royal_owner[k] = p
    s.points[p] += ROYAL_POINTS[k]
    s.crown_claims[p] += 1
    ab = ROYAL_ABILITY[k]
    if ab & AB_PRIVILEGE:
        _gain_privilege(s, p)
    if ab & AB_STEAL:
        s.pend |= PEND_STEAL
    if ab & AB_AGAIN:
        s.again = 1


@njit(cache=True)
def _resolve(s: np.record) -> None:
    """Work through the pending effects of a purchase in order: joker (D14), token (D15),
    steal (D17), royal cards (D19); stop at the first real choice (setting its phase),
    make single-option choices here; when none is left, finish the turn."""
    p = s.current
    while True:
        if s.pend & PEND_JOKER:
            n = 0
            last = -1
            for c in range(5):
                if s.bonuses[p, c] > 0:
                    n += 1
                    last = c
            if n > 1:
                s.phase = PH_JOKER
                return
            _attach_joker(s, p, last)
            continue
        if s.pend & PEND_TOKEN:
            col = s.card_color[s.pend_card]
            n = _count_cells_of(s, col) if col >= 0 else 0
            if n > 1:
                s.phase = PH_TOKEN
                return
            if n == 1:
                for cell in range(NUM_CELLS):
                    if s.board[cell] == col:
                        _take_cell(s, p, cell)
                        break
            s.pend &= ~PEND_TOKEN
            continue
        if s.pend & PEND_STEAL:
            n = 0
            last = -1
            for c in range(6):
                if s.tokens[1 - p, c] > 0:
                    n += 1
                    last = c
            if n > 1:
                s.phase = PH_STEAL
                return
            if n == 1:
                s.tokens[1 - p, last] -= 1
                s.tokens[p, last] += 1
            s.pend &= ~PEND_STEAL
            continue
        reached = (1 if s.crowns[p] >= 3 else 0) + (1 if s.crowns[p] >= 6 else 0)
        if reached > s.crown_claims[p]:
            n = 0
            last = -1
            for k in range(NUM_ROYALS):
                if s.royal_owner[k] < 0:
                    n += 1
                    last = k
            if n > 1:
                s.phase = PH_ROYAL
                return
            if n == 1:
                _take_royal(s, p, last)
            else:
                s.crown_claims[p] += 1  # none left: the threshold is spent
            continue
        break
    s.pend_card = -1
    _after_mandatory(s)


@njit(cache=True)
def _after_mandatory(s: np.record) -> None:
    """End of turn: the token limit (D20) first, then :func:`_end_turn`."""
    if tokens_held(s, s.current) > TOKEN_LIMIT:
        s.phase = PH_RETURN
    else:
        _end_turn(s)


@njit(cache=True)
def _end_turn(s: np.record) -> None:
    """D21 victory of the active player, D25 turn cap, then D13 ``again`` or the
    opponent's turn."""
    p = s.current
    s.turn += 1
    reason = END_NONE
    if s.points[p] >= WIN_POINTS:
        reason = END_POINTS
    elif s.crowns[p] >= WIN_CROWNS:
        reason = END_CROWNS
    else:
        for c in range(5):
            if s.color_points[p, c] >= WIN_COLOR_POINTS:
                reason = END_COLOR
    if reason != END_NONE:
        s.end_reason = reason
        s.winner = p
    elif s.turn_cap > 0 and s.turn >= s.turn_cap:
        s.end_reason = END_CAP
    s.replenished = 0
    s.pend = 0
    s.pend_card = -1
    if s.end_reason != END_NONE:
        s.phase = PH_OVER
        s.current = -1
        s.again = 0
        return
    if s.again == 0:
        s.current = 1 - p
    s.again = 0
    s.phase = PH_MAIN


@njit(cache=True)
def _pay_default(s: np.record, p: int, card: int) -> None:
    """D10 default payment: coloured tokens and pearls first, gold for the shortfall; spent
    tokens go into the bag."""
    gold = 0
    for c in range(6):
        need = _need(s, p, card, c)
        if need > 0:
            paid = need if need <= s.tokens[p, c] else s.tokens[p, c]
            s.tokens[p, c] -= paid
            s.bag[c] += paid
            gold += need - paid
    s.tokens[p, GOLD] -= gold
    s.bag[GOLD] += gold


@njit(cache=True)
def apply(arr: np.ndarray, a: int) -> int:
    """Play decision ``a`` for the current player.

    Returns 0 when applied, -1 when ``a`` is not legal now (the state is then unchanged).
    """
    if not is_legal(arr, a):
        return -1
    s = state_record(arr)
    p = s.current
    if a < REPLENISH:  # D6
        s.privileges[p] -= 1
        _take_cell(s, p, a - PRIVILEGE)
    elif a == REPLENISH:  # D7, D12
        _fill_board(s)
        s.replenished = 1
        _gain_privilege(s, 1 - p)
    elif a < TAKE_GOLD:  # D8
        line = a - TAKE
        counts = np.zeros(6, dtype=np.int8)
        for i in range(LINE_LEN[line]):
            counts[_take_cell(s, p, LINES[line, i])] += 1
        same3 = False
        for c in range(5):
            if counts[c] == 3:
                same3 = True
        if same3 or counts[PEARL] == 2:
            _gain_privilege(s, 1 - p)
        _after_mandatory(s)
    elif a < RESERVE:  # D9: the gold first
        _take_cell(s, p, a - TAKE_GOLD)
        s.phase = PH_RESERVE
    elif a < RESERVE_DECK:  # D9, D11
        k = a - RESERVE
        card = s.pyramid[k]
        s.pyramid[k] = draw_card(s, SLOT_LEVEL[k])
        hold_reserved(s, p, card, CARD_LEVEL[card] + 1, False)
        s.phase = PH_MAIN
        _after_mandatory(s)
    elif a < BUY:  # D9 blind
        card = draw_card(s, a - RESERVE_DECK)
        hold_reserved(s, p, card, CARD_LEVEL[card] + 1, True)
        s.phase = PH_MAIN
        _after_mandatory(s)
    elif a < BUY_CHOOSE:  # D10 default payment
        src = a - BUY
        card = _source_card(s, p, src)
        _pay_default(s, p, card)
        _take_card(s, p, card, src)
    elif a < PAY_GOLD:  # D10 chosen payment starts
        src = a - BUY_CHOOSE
        card = _source_card(s, p, src)
        start_payment(s, card, src)
        for c in range(6):
            s.pay_need[c] = _need(s, p, card, c)
        s.phase = PH_PAY
    elif a < PAY_DONE:  # one gold in place of one token
        pay_with_gold(s, a - PAY_GOLD)
    elif a == PAY_DONE:  # spent tokens go into the bag
        card, src = settle_payment(s, p, s.bag, GOLD)
        s.phase = PH_MAIN
        _take_card(s, p, card, src)
    elif a < TOKEN:  # D14
        _attach_joker(s, p, a - JOKER)
        _resolve(s)
    elif a < STEAL:  # D15
        _take_cell(s, p, a - TOKEN)
        s.pend &= ~PEND_TOKEN
        _resolve(s)
    elif a < ROYAL:  # D17
        c = a - STEAL
        s.tokens[1 - p, c] -= 1
        s.tokens[p, c] += 1
        s.pend &= ~PEND_STEAL
        _resolve(s)
    elif a < RETURN_TOKEN:  # D19
        _take_royal(s, p, a - ROYAL)
        _resolve(s)
    elif a < PASS:  # D20
        c = a - RETURN_TOKEN
        s.tokens[p, c] -= 1
        s.bag[c] += 1
        if tokens_held(s, p) <= TOKEN_LIMIT:
            _end_turn(s)
    else:  # engine ruling: nothing else was possible
        _after_mandatory(s)
    return 0


# --------------------------------------------------------------------------- playouts


@njit(cache=True)
def random_action(arr: np.ndarray, mask: np.ndarray, rng: np.ndarray) -> int:
    """A uniformly random legal decision (``mask`` is scratch space), or -1 at game end."""
    return random_legal_id(mask, legal_mask(arr, mask), rng)


@njit(cache=True)
def random_playout(arr: np.ndarray, rng: np.ndarray, max_decisions: int) -> int:
    """Play uniformly random legal decisions (drawn with ``rng``) until the game ends
    (D21, D25) or ``max_decisions`` were made; return the number of decisions made."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    return random_playout_of(arr, mask, rng, max_decisions, legal_mask, apply, PH_OVER)


# --------------------------------------------------------------------------- information sets


@njit(cache=True)
def determinize_into(obs: np.ndarray, out: np.ndarray, rng: np.ndarray) -> int:
    """Write into ``out`` a full state consistent with the observation ``obs`` (D22): the
    opponent's blind reserves (of known level) and the decks' contents and order are dealt
    at random with ``rng`` (uint64, shape (1,), advanced) from the cards neither bought
    nor in the pyramid, and the state's own generator is reseeded from ``rng``
    (:func:`splendor.rule_pieces.deal_unseen`). Both arrays have the state dtype; ``obs`` is
    unchanged.

    Returns:
        0, or a negative number when ``obs`` is inconsistent (``out`` is then garbage).
    """
    out[0] = obs[0]
    s = state_record(out)
    return deal_unseen(s, s.card_owner, s.pyramid, CARD_LEVEL, 2, NUM_PYRAMID, rng)


@njit(cache=True)
def rewards(arr: np.ndarray, out: np.ndarray) -> None:
    """Each player's reward in ``out`` (float64, shape ``(2,)``): 1 to the winner (D21),
    0 to the other; 0.5 each when the game ended without a winner (turn cap, D25). On an
    unfinished state the player with more prestige points counts as the winner (0.5 each
    on equal points), for cut-off playouts."""
    s = state_record(arr)
    w = s.winner
    if s.phase != PH_OVER:
        w = 0 if s.points[0] > s.points[1] else (1 if s.points[1] > s.points[0] else -1)
    for p in range(2):
        out[p] = 0.5 if w < 0 else (1.0 if p == w else 0.0)
