"""The compiled pieces of the rules that both engines play alike: decks, reserved
slots, chosen payments (C9, D10), random playouts, and the deal of unseen cards behind
determinization (C16, D22). ``s`` is a game's state record (``state_record(arr)``, either
game's ``STATE_DTYPE``: numba compiles one version per dtype); every field named here
exists in both dtypes with the same meaning. Each game's ``rules.py`` calls them with its
own tables."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

from .jit import state_record
from .rng import random_legal_id, rng_next, shuffle


@njit(cache=True)
def redeal_hidden(
    seen: np.ndarray,
    card_level: np.ndarray,
    decks: np.ndarray,
    deck_len: np.ndarray,
    reserved: np.ndarray,
    reserved_level: np.ndarray,
    num_reserved: np.ndarray,
    num_players: int,
    pay_card: int,
    pay_src: int,
    current: int,
    first_reserved_src: int,
    rng: np.ndarray,
) -> int:
    """Deal the cards an observer cannot see into the hidden places, uniformly at random.

    ``seen`` (bool, one per card id) comes marked with the game's public cards (face-up,
    bought); the visible reserved cards and the card being paid for (``pay_card``, -1 for
    none) are marked here, and a blind reserve being paid for (``pay_src`` at least
    ``first_reserved_src``, the source ids of ``current``'s reserved slots) is put back in
    its slot, since its owner's payment shows it (C9, D10). Then for each level the cards
    not marked in ``seen`` with that
    ``card_level`` (0-based) are shuffled with ``rng`` and dealt first to the hidden
    reserved slots of that level (``reserved[p, k] < 0`` with ``reserved_level[p, k] ==
    level + 1``, for ``k < num_reserved[p]``), then to the deck (``decks[level, :deck_len]``;
    the rest of the row is set to -1). Used by both games' determinization (C16, D22).

    Returns:
        0, or ``-(level + 1)`` when a level's unseen cards do not match its hidden places
        (an inconsistent observation; the arrays are then partly written).
    """
    for p in range(reserved.shape[0]):
        for k in range(reserved.shape[1]):
            if reserved[p, k] >= 0:
                seen[reserved[p, k]] = True
    if pay_card >= 0:
        seen[pay_card] = True
        k = pay_src - first_reserved_src
        if k >= 0 and reserved[current, k] < 0:
            reserved[current, k] = pay_card
    n_cards = seen.shape[0]
    pool = np.empty(n_cards, dtype=np.int16)
    for lvl in range(decks.shape[0]):
        m = 0
        for c in range(n_cards):
            if not seen[c] and card_level[c] == lvl:
                pool[m] = c
                m += 1
        shuffle(pool, m, rng)
        hidden = 0
        for p in range(num_players):
            for k in range(num_reserved[p]):
                if reserved[p, k] < 0 and reserved_level[p, k] == lvl + 1:
                    hidden += 1
        if m != hidden + deck_len[lvl]:
            return -(lvl + 1)
        i = 0
        for p in range(num_players):
            for k in range(num_reserved[p]):
                if reserved[p, k] < 0 and reserved_level[p, k] == lvl + 1:
                    reserved[p, k] = pool[i]
                    i += 1
        for d in range(decks.shape[1]):
            decks[lvl, d] = pool[i + d] if d < deck_len[lvl] else -1
    return 0


@njit(cache=True)
def tokens_held(s: np.record, p: int) -> int:
    """How many tokens seat ``p`` holds, gold (and Duel's pearls) included: what the token
    limit counts (C11, D20)."""
    t = 0
    for c in range(s.tokens.shape[1]):
        t += s.tokens[p, c]
    return t


# Inlined (numba IR) into each game's ``setup``, like the loop it replaces there.
@njit(cache=True, inline="always")
def deal_decks(s: np.record, level_start: np.ndarray, level_size: np.ndarray) -> None:
    """Fill each level's deck with its card ids (level ``lvl``: ``level_start[lvl]`` to
    ``level_start[lvl] + level_size[lvl] - 1``) and shuffle it with the state's generator,
    level 1 first (C4, D3). Writes ``s.decks`` (the rest of each row -1), ``s.deck_len``
    and ``s.rng``."""
    s.decks[:, :] = -1
    for lvl in range(s.decks.shape[0]):
        n = level_size[lvl]
        for i in range(n):
            s.decks[lvl, i] = level_start[lvl] + i
        shuffle(s.decks[lvl], n, s.rng)
        s.deck_len[lvl] = n


@njit(cache=True)
def draw_card(s: np.record, lvl: int) -> int:
    """Take the top card of level ``lvl``'s deck (0-based; the top is
    ``s.decks[lvl, s.deck_len[lvl] - 1]``, which becomes -1), or -1 when the deck is empty
    (C10, D11)."""
    n = s.deck_len[lvl]
    if n == 0:
        return -1
    card = s.decks[lvl, n - 1]
    s.decks[lvl, n - 1] = -1
    s.deck_len[lvl] = n - 1
    return card


@njit(cache=True)
def hold_reserved(s: np.record, p: int, card: int, level: int, blind: bool) -> None:
    """Put ``card`` (of ``level``, 1-3) in seat ``p``'s next free reserved slot, marked
    ``blind`` when it was taken from a deck (C8, D9). The caller has checked that a slot
    is free."""
    k = s.num_reserved[p]
    s.reserved[p, k] = card
    s.reserved_level[p, k] = level
    s.reserved_blind[p, k] = 1 if blind else 0
    s.num_reserved[p] = k + 1


@njit(cache=True)
def drop_reserved(s: np.record, p: int, k: int) -> None:
    """Empty seat ``p``'s reserved slot ``k`` (0-based; its card was bought, C9, D10): the
    later slots move up one, and the last one becomes empty (card -1, level 0)."""
    nr = s.num_reserved[p]
    for i in range(k, nr - 1):
        s.reserved[p, i] = s.reserved[p, i + 1]
        s.reserved_level[p, i] = s.reserved_level[p, i + 1]
        s.reserved_blind[p, i] = s.reserved_blind[p, i + 1]
    s.reserved[p, nr - 1] = -1
    s.reserved_level[p, nr - 1] = 0
    s.reserved_blind[p, nr - 1] = 0
    s.num_reserved[p] = nr - 1


@njit(cache=True)
def start_payment(s: np.record, card: int, src: int) -> None:
    """Open a chosen payment for ``card`` bought from source ``src`` (C9, D10), no gold
    committed yet; the caller fills ``s.pay_need`` (what the card costs after bonuses)."""
    s.pay_card = card
    s.pay_src = src
    s.pay_gold = 0


@njit(cache=True)
def pay_shortfall(s: np.record, p: int) -> int:
    """During a chosen payment: how many of the tokens still owed (``s.pay_need``, one
    entry per colour a card can cost, gold excluded) seat ``p`` lacks (C9, D10)."""
    short = 0
    for c in range(s.pay_need.shape[0]):
        if s.pay_need[c] > s.tokens[p, c]:
            short += s.pay_need[c] - s.tokens[p, c]
    return short


@njit(cache=True)
def payment_legal(s: np.record, p: int, a: int, pay_gold: int, pay_done: int, gold: int) -> bool:
    """Whether decision ``a`` is legal while seat ``p`` chooses a payment (C9, D10).

    ``pay_gold + c`` (a gold in place of a token of colour ``c``) is legal while ``c`` is
    still owed and a gold is left, and only when the rest stays payable (a payment is never
    stranded); ``pay_done`` once nothing owed is lacking. ``gold`` is the gold token's
    colour index in ``s.tokens``.
    """
    if a == pay_done:
        return pay_shortfall(s, p) == 0
    if pay_gold <= a < pay_done:
        c = a - pay_gold
        gold_left = s.tokens[p, gold] - s.pay_gold
        if s.pay_need[c] <= 0 or gold_left <= 0:
            return False
        short = pay_shortfall(s, p)
        if s.pay_need[c] > s.tokens[p, c]:
            short -= 1
        return short <= gold_left - 1
    return False


@njit(cache=True)
def pay_with_gold(s: np.record, c: int) -> None:
    """Commit one gold in place of one token of colour ``c`` still owed (C9, D10)."""
    s.pay_need[c] -= 1
    s.pay_gold += 1


@njit(cache=True)
def settle_payment(s: np.record, p: int, pool: np.ndarray, gold: int) -> tuple[int, int]:
    """Finish seat ``p``'s chosen payment (C9, D10): the tokens still owed and the gold
    committed go from ``p`` to ``pool`` (the supply; in Duel the bag), and the payment
    fields are cleared. ``gold`` is the gold token's colour index.

    Returns:
        ``(card, src)``: the card paid for and its source, for the game to hand over.
    """
    for c in range(s.pay_need.shape[0]):
        s.tokens[p, c] -= s.pay_need[c]
        pool[c] += s.pay_need[c]
        s.pay_need[c] = 0
    s.tokens[p, gold] -= s.pay_gold
    pool[gold] += s.pay_gold
    card = s.pay_card
    src = s.pay_src
    s.pay_card = -1
    s.pay_src = 0
    s.pay_gold = 0
    return card, src


# Takes a game's kernels as arguments (numba dispatchers). Inlined into each game's cached
# ``random_playout`` (numba IR), where they become plain calls: no cache of its own that
# could outlive a change of the rules, and no dispatcher passed as a value (a runtime
# address, which would make the caller uncacheable).
@njit(inline="always")
def random_playout_of(
    arr: np.ndarray,
    mask: np.ndarray,
    rng: np.ndarray,
    max_decisions: int,
    legal_mask: Callable[[np.ndarray, np.ndarray], int],
    apply: Callable[[np.ndarray, int], int],
    over: int,
) -> int:
    """Play uniformly random legal decisions (:func:`random_legal_id`, drawn with ``rng``)
    on the state ``arr`` with a game's ``legal_mask`` and ``apply`` kernels until its phase
    is ``over`` or ``max_decisions`` were made; ``mask`` (bool, the game's ``NUM_ACTIONS``)
    is scratch space. Returns the number of decisions made."""
    n = 0
    while n < max_decisions and state_record(arr).phase != over:
        apply(arr, random_legal_id(mask, legal_mask(arr, mask), rng))
        n += 1
    return n


# Inlined (numba IR) into each game's ``determinize_into``, which then runs as fast as
# when it marked the cards seen itself.
@njit(cache=True, inline="always")
def deal_unseen(
    s: np.record,
    owner: np.ndarray,
    shown: np.ndarray,
    card_level: np.ndarray,
    num_players: int,
    first_reserved_src: int,
    rng: np.ndarray,
) -> int:
    """Turn ``s``, a copy of an observation's record, into a full state consistent with
    it (C16, D22): the cards with an owner (``owner``, one seat or -1 per card id) and
    those on display (``shown``, card ids of any shape, -1 for an empty place) are seen;
    :func:`redeal_hidden` deals the others at random with ``rng`` into the hidden places
    (blind reserves, decks), ``s.observer`` is cleared and the state's own generator is
    reseeded from ``rng`` (fresh future chance, so no bot can foresee a draw).

    Returns:
        0, or a negative number when the observation is inconsistent (``s`` is then
        garbage).
    """
    seen = np.zeros(card_level.shape[0], dtype=np.bool_)
    for c in range(owner.shape[0]):
        if owner[c] >= 0:
            seen[c] = True
    for c in shown.flat:
        if c >= 0:
            seen[c] = True
    r = redeal_hidden(
        seen,
        card_level,
        s.decks,
        s.deck_len,
        s.reserved,
        s.reserved_level,
        s.num_reserved,
        num_players,
        s.pay_card,
        s.pay_src,
        s.current,
        first_reserved_src,
        rng,
    )
    s.observer = -1
    s.rng[0] = rng_next(rng)
    return r
