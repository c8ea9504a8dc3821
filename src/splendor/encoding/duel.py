"""Splendor Duel's part of the observation tensor (:mod:`splendor.encoding`): its layout
table, its feature tables and its compiled encoder, declared to the game as its
``"encoding"`` part (:data:`ENCODING`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from ..duel import cards as dcards
from ..duel import rules as drules
from ..duel import state as dstate
from ..jit import ENGINE_SOURCES, refresh_numba_cache, state_record
from .pieces import FieldSpec, GameEncoding, frozen, put_card, put_reserved

refresh_numba_cache(__file__, *ENGINE_SOURCES, str(Path(__file__).with_name("pieces.py")))

__all__ = [
    "D_CARD_FEATURES",
    "D_RESERVED_FEATURES",
    "D_ROYAL_FEATURES",
    "ENCODING",
    "FIELDS",
    "encode_duel",
]

D_CARD_FEATURES = (
    "present", "L1", "L2", "L3", "W", "U", "G", "R", "K", "joker", "no_bonus", "bonus_count",
    "points", "crowns", "again", "token", "privilege", "steal", "joker_ability",
    "cost_W", "cost_U", "cost_G", "cost_R", "cost_K", "cost_P",
)  # fmt: skip
"""Names of the values of one Duel card slot (``pyramid``, ``pending.card``,
``payment.card``): presence, level, printed bonus colour (gem, joker or none), bonus
count, points, crowns, ability bits (D13-D17) and cost (W U G R K pearl)."""
D_RESERVED_FEATURES = D_CARD_FEATURES + ("hidden", "blind")
"""A Duel reserved slot: card features, ``hidden`` (the opponent's blind reserve) and
``blind`` (reserved from a deck, D9)."""
D_ROYAL_FEATURES = ("available", "mine", "opponent", "points", "again", "privilege", "steal")
"""Names of the values of one royal card (D4, D19): where it is (one-hot), points, ability."""

_NC = len(D_CARD_FEATURES)
_CARD_HI = 8.0  # the largest cost or point value on a card

# A data table: one row per field, in tensor order (see FieldSpec).
FIELDS: tuple[FieldSpec, ...] = (
    FieldSpec("seat", (2,), "one-hot", "absolute seat of the observer (seat 0 plays first)", "D5"),
    FieldSpec(
        "current",
        (2,),
        "one-hot",
        "seat to decide, relative to the observer (index 0 = the observer); all 0 once over",
        "D5",
    ),
    FieldSpec(
        "phase",
        (len(dstate.PHASE_NAMES),),
        "one-hot",
        "decision owed: main, reserve, payment, joker, token, steal, royal, return tokens, "
        "game over",
        "D6-D20",
    ),
    FieldSpec("turn", (1,), "count", "completed turns (extra turns included)", "D13", np.inf),
    FieldSpec("turn_cap", (1,), "binary", "1 when the host set a turn cap", "D25"),
    FieldSpec(
        "turns_left",
        (1,),
        "count",
        "turns left before the cap ends the game with no winner (0 without a cap)",
        "D25",
        np.inf,
    ),
    FieldSpec(
        "replenished", (1,), "binary", "1 once the board was replenished this turn", "D6, D7"
    ),
    FieldSpec(
        "extra_turn", (1,), "binary", "1 when the current player plays again after this turn", "D13"
    ),
    FieldSpec(
        "board",
        (25, 7),
        "one-hot",
        "token on each cell (row*5+col): W U G R K pearl gold; all 0 for an empty cell",
        "D2, D8",
    ),
    FieldSpec("bag", (7,), "count", "tokens in the bag (W U G R K pearl gold)", "D7, D22", 4),
    FieldSpec("free_privileges", (1,), "count", "privilege scrolls beside the board", "D5, D18", 3),
    FieldSpec("deck_sizes", (3,), "count", "cards left in the level 1, 2, 3 decks", "D3, D11", 30),
    FieldSpec(
        "pyramid",
        (12, _NC),
        "features",
        "face-up pyramid (slots 0-4 level 1, 5-8 level 2, 9-11 level 3), card features "
        + " ".join(D_CARD_FEATURES),
        "D3, D11",
        _CARD_HI,
    ),
    FieldSpec(
        "royals",
        (dcards.NUM_ROYALS, len(D_ROYAL_FEATURES)),
        "features",
        "royal cards by number: " + " ".join(D_ROYAL_FEATURES),
        "D4, D19",
        3,
    ),
    FieldSpec(
        "players.tokens", (2, 7), "count", "tokens held per seat: W U G R K pearl gold", "D20", 4
    ),
    FieldSpec(
        "players.bonuses",
        (2, 5),
        "count",
        "bonuses per seat (jokers in their colour): W U G R K",
        "D10, D14",
        30,
    ),
    FieldSpec(
        "players.points",
        (2,),
        "count",
        "prestige points per seat (cards and royal cards)",
        "D21",
        200,
    ),
    FieldSpec("players.crowns", (2,), "count", "crowns on bought cards per seat", "D19, D21", 30),
    FieldSpec(
        "players.color_points", (2, 5), "count", "card points per bonus colour per seat", "D21", 100
    ),
    FieldSpec("players.privileges", (2,), "count", "privilege scrolls held per seat", "D6, D18", 3),
    FieldSpec(
        "players.royal_claims",
        (2,),
        "count",
        "crown thresholds (3, 6) already used per seat",
        "D19",
        2,
    ),
    FieldSpec("players.cards", (2,), "count", "cards bought per seat", "D3", 67),
    FieldSpec("players.num_reserved", (2,), "count", "reserved cards held per seat", "D9", 3),
    FieldSpec(
        "players.reserved",
        (2, dcards.MAX_RESERVED, len(D_RESERVED_FEATURES)),
        "features",
        "reserved cards per seat and slot: "
        + " ".join(D_RESERVED_FEATURES)
        + " (the opponent's blind reserve: present, level, hidden only)",
        "D9, D22",
        _CARD_HI,
    ),
    FieldSpec(
        "pending.card",
        (_NC,),
        "features",
        "card just bought whose effects are resolving",
        "D13-D19",
        _CARD_HI,
    ),
    FieldSpec(
        "pending.effects",
        (3,),
        "binary",
        "effects of it still to resolve: joker, token, steal",
        "D14, D15, D17",
    ),
    FieldSpec(
        "payment.card",
        (_NC,),
        "features",
        "card being paid for during a chosen payment",
        "D10",
        _CARD_HI,
    ),
    FieldSpec(
        "payment.source",
        (15,),
        "one-hot",
        "where it comes from: pyramid slot 0-11, or 12+k for own reserved slot k",
        "D10",
    ),
    FieldSpec("payment.need", (6,), "count", "tokens still owed: W U G R K pearl", "D10", 10),
    FieldSpec("payment.gold", (1,), "count", "gold committed so far", "D10", 3),
    FieldSpec(
        "return.excess",
        (1,),
        "count",
        "tokens the current player must still return (held above 10) in the return phase",
        "D20",
        15,
    ),
)
"""The Duel layout, in tensor order (``docs/rl.md`` lists it)."""


def _card_table() -> np.ndarray:
    """(NUM_CARDS + 1, 25): feature rows by card id; the last row (id -1) is all zeros."""
    n = dcards.NUM_CARDS
    t = np.zeros((n + 1, len(D_CARD_FEATURES)), dtype=np.float32)
    ids = np.arange(n)
    t[ids, 0] = 1.0
    t[ids, 1 + dcards.CARD_LEVEL.astype(np.int64)] = 1.0
    col = dcards.CARD_COLOR.astype(np.int64)
    col = np.where(col == dcards.COLOR_NONE, 6, col)  # 0-4 gems, 5 joker, 6 none
    t[ids, 4 + col] = 1.0
    t[ids, 11] = dcards.CARD_BONUS_COUNT
    t[ids, 12] = dcards.CARD_POINTS
    t[ids, 13] = dcards.CARD_CROWNS
    ab = dcards.CARD_ABILITY.astype(np.int64)
    for k, bit in enumerate(
        (dcards.AB_AGAIN, dcards.AB_TOKEN, dcards.AB_PRIVILEGE, dcards.AB_STEAL, dcards.AB_JOKER)
    ):
        t[ids, 14 + k] = (ab & bit) != 0
    t[ids, 19:25] = dcards.CARD_COST
    return frozen(t)


def _royal_table() -> np.ndarray:
    """(NUM_ROYALS, 4): points, again, privilege, steal."""
    t = np.zeros((dcards.NUM_ROYALS, 4), dtype=np.float32)
    ab = dcards.ROYAL_ABILITY.astype(np.int64)
    t[:, 0] = dcards.ROYAL_POINTS
    t[:, 1] = (ab & dcards.AB_AGAIN) != 0
    t[:, 2] = (ab & dcards.AB_PRIVILEGE) != 0
    t[:, 3] = (ab & dcards.AB_STEAL) != 0
    return frozen(t)


_PAY = drules.PH_PAY
_RETURN = drules.PH_RETURN
_PEND_JOKER = drules.PEND_JOKER
_PEND_TOKEN = drules.PEND_TOKEN
_PEND_STEAL = drules.PEND_STEAL


# Compiled as splendor.encoding.classic.encode_classic; ``off[k]`` is the offset of
# FIELDS[k] (checked against _KERNEL_ORDER at import).
@njit(cache=True)
def encode_duel(  # pragma: no cover - compiled
    arr: np.ndarray,
    me: int | np.int64,
    hide: bool,
    out: np.ndarray,
    off: np.ndarray,
    card: np.ndarray,
    royal: np.ndarray,
) -> None:
    """Compiled: as :func:`splendor.encoding.classic.encode_classic` for a Splendor Duel
    state (D22)."""
    s = state_record(arr)
    cur = np.int64(s.current)
    phase = np.int64(s.phase)
    paying = np.int64(s.pay_src) - 12 if phase == _PAY and s.pay_src >= 12 else -1
    out[off[0] + me] = 1.0
    if cur >= 0:
        out[off[1] + (0 if cur == me else 1)] = 1.0
    out[off[2] + phase] = 1.0
    turn = np.int64(s.turn)
    cap = np.int64(s.turn_cap)
    out[off[3]] = turn
    if cap > 0:
        out[off[4]] = 1.0
        out[off[5]] = max(0, cap - turn)
    out[off[6]] = s.replenished
    out[off[7]] = s.again
    for cell in range(25):
        v = s.board[cell]
        if v >= 0:
            out[off[8] + cell * 7 + v] = 1.0
    for c in range(7):
        out[off[9] + c] = s.bag[c]
    out[off[10]] = 3 - s.privileges[0] - s.privileges[1]
    for lvl in range(3):
        out[off[11] + lvl] = s.deck_len[lvl]
    nf = card.shape[1]
    for k in range(12):
        put_card(out, off[12] + k * nf, card, s.pyramid[k])
    nroy = royal.shape[1] + 3
    for k in range(royal.shape[0]):
        o = off[13] + k * nroy
        w = s.royal_owner[k]
        out[o + (0 if w < 0 else (1 if w == me else 2))] = 1.0
        for j in range(royal.shape[1]):
            out[o + 3 + j] = royal[k, j]
    nr = nf + 2
    for r in range(2):
        p = (me + r) % 2
        for c in range(7):
            out[off[14] + r * 7 + c] = s.tokens[p, c]
        for c in range(5):
            out[off[15] + r * 5 + c] = s.bonuses[p, c]
            out[off[18] + r * 5 + c] = s.color_points[p, c]
        out[off[16] + r] = s.points[p]
        out[off[17] + r] = s.crowns[p]
        out[off[19] + r] = s.privileges[p]
        out[off[20] + r] = s.crown_claims[p]
        out[off[22] + r] = s.num_reserved[p]
        for k in range(3):
            put_reserved(out, off[23] + (r * 3 + k) * nr, card, s, p, k, me, paying, hide)
    for c in range(s.card_owner.shape[0]):
        p = np.int64(s.card_owner[c])
        if p >= 0:
            out[off[21] + (0 if p == me else 1)] += 1.0
    pend = np.int64(s.pend_card)
    if pend >= 0:
        put_card(out, off[24], card, pend)
        bits = np.int64(s.pend)
        out[off[25]] = 1.0 if bits & _PEND_JOKER else 0.0
        out[off[25] + 1] = 1.0 if bits & _PEND_TOKEN else 0.0
        out[off[25] + 2] = 1.0 if bits & _PEND_STEAL else 0.0
    if phase == _PAY:
        put_card(out, off[26], card, s.pay_card)
        out[off[27] + s.pay_src] = 1.0
        for c in range(6):
            out[off[28] + c] = s.pay_need[c]
        out[off[29]] = s.pay_gold
    elif phase == _RETURN:
        held = 0
        for c in range(7):
            held += s.tokens[cur, c]
        out[off[30]] = max(0, held - 10)


_KERNEL_ORDER = (
    "seat", "current", "phase", "turn", "turn_cap", "turns_left", "replenished", "extra_turn",
    "board", "bag", "free_privileges", "deck_sizes", "pyramid", "royals", "players.tokens",
    "players.bonuses", "players.points", "players.crowns", "players.color_points",
    "players.privileges", "players.royal_claims", "players.cards", "players.num_reserved",
    "players.reserved", "pending.card", "pending.effects", "payment.card", "payment.source",
    "payment.need", "payment.gold", "return.excess",
)  # fmt: skip
"""The fields in the order :func:`encode_duel` indexes ``off``."""

ENCODING = GameEncoding(FIELDS, (_card_table(), _royal_table()), encode_duel)
"""Splendor Duel's ``"encoding"`` part (:class:`~splendor.encoding.pieces.GameEncoding`)."""
ENCODING.check_order(_KERNEL_ORDER)
