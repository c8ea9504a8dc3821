"""Classic Splendor's part of the observation tensor (:mod:`splendor.encoding`): its layout
table, its feature tables and its compiled encoder, declared to the game as its
``"encoding"`` part (:data:`ENCODING`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from ..classic import cards as ccards
from ..classic import rules as crules
from ..classic import state as cstate
from ..jit import ENGINE_SOURCES, refresh_numba_cache, state_record
from .pieces import PLAYERS, FieldSpec, GameEncoding, frozen, put_card, put_reserved

refresh_numba_cache(__file__, *ENGINE_SOURCES, str(Path(__file__).with_name("pieces.py")))

__all__ = [
    "C_CARD_FEATURES",
    "C_NOBLE_FEATURES",
    "C_RESERVED_FEATURES",
    "ENCODING",
    "FIELDS",
    "encode_classic",
]

N = PLAYERS

# classic card features: present, level 1-3, bonus colour W U G R K, points, cost W U G R K
C_CARD_FEATURES = ("present", "L1", "L2", "L3", "W", "U", "G", "R", "K", "points",
                   "cost_W", "cost_U", "cost_G", "cost_R", "cost_K")  # fmt: skip
"""Names of the values of one classic card slot (``faceup``, ``payment.card``)."""
C_RESERVED_FEATURES = C_CARD_FEATURES + ("hidden", "blind")
"""A classic reserved slot: the card features, then ``hidden`` (another seat's blind
reserve: only ``present`` and the level are set) and ``blind`` (reserved from a deck, C8)."""
C_NOBLE_FEATURES = ("present", "req_W", "req_U", "req_G", "req_R", "req_K", "points")
"""Names of the values of one noble slot (C3, C12)."""

_NC = len(C_CARD_FEATURES)
_CARD_HI = 7.0  # the largest cost or point value on a card

# A data table: one row per field, in tensor order (see FieldSpec).
FIELDS: tuple[FieldSpec, ...] = (
    FieldSpec("seat", (N,), "one-hot", "absolute seat of the observer (seat 0 plays first)", "C5"),
    FieldSpec("current", (N,), "one-hot",
              "seat to decide, relative to the observer (index 0 = the observer); all 0 once over",
              "C5"),
    FieldSpec("phase", (len(cstate.PHASE_NAMES),), "one-hot",
              "decision owed: main, payment, return tokens, choose noble, game over", "C6-C12"),
    FieldSpec("final_round", (1,), "binary",
              "1 once a player reached 15 points: the round is completed", "C14"),
    FieldSpec("pass_streak", (1,), "count", "consecutive passes so far", "C17", N),
    FieldSpec("turn", (1,), "count", "completed turns (all seats together)", "C14", np.inf),
    FieldSpec("supply", (6,), "count", "tokens in the supply: W U G R K gold", "C1", 7),
    FieldSpec("deck_sizes", (3,), "count", "cards left in the level 1, 2, 3 decks", "C4, C10",
              40),
    FieldSpec("faceup", (3, 4, _NC), "features",
              "face-up cards [level-1][slot-1], card features " + " ".join(C_CARD_FEATURES),
              "C4, C10", _CARD_HI),
    FieldSpec("nobles", (ccards.MAX_NOBLES_SHOWN, len(C_NOBLE_FEATURES)), "features",
              "noble row slot by slot: " + " ".join(C_NOBLE_FEATURES), "C3, C12", 4),
    FieldSpec("players.tokens", (N, 6), "count", "tokens held per seat: W U G R K gold", "C11",
              7),
    FieldSpec("players.bonuses", (N, 5), "count", "bonuses (bought cards) per seat: W U G R K",
              "C9", 30),
    FieldSpec("players.points", (N,), "count", "prestige points per seat (cards and nobles)",
              "C14", 200),
    FieldSpec("players.cards", (N,), "count", "development cards bought per seat (C15 tie-break)",
              "C15", 90),
    FieldSpec("players.nobles", (N,), "count", "nobles that visited each seat", "C12", 5),
    FieldSpec("players.num_reserved", (N,), "count", "reserved cards held per seat", "C8", 3),
    FieldSpec("players.reserved", (N, ccards.MAX_RESERVED, len(C_RESERVED_FEATURES)), "features",
              "reserved cards per seat and slot: " + " ".join(C_RESERVED_FEATURES)
              + " (another seat's blind reserve: present, level, hidden only)",
              "C8, C16", _CARD_HI),
    FieldSpec("payment.card", (_NC,), "features", "card being paid for during a chosen payment",
              "C9", _CARD_HI),
    FieldSpec("payment.source", (15,), "one-hot",
              "where it comes from: face-up slot (level-1)*4+(slot-1), or 12+k for own reserved "
              "slot k", "C9"),
    FieldSpec("payment.need", (5,), "count", "coloured tokens still owed: W U G R K", "C9", 7),
    FieldSpec("payment.gold", (1,), "count", "gold committed so far", "C9", 5),
    FieldSpec("return.excess", (1,), "count",
              "tokens the current player must still return (held above 10) in the return phase",
              "C11", 3),
)  # fmt: skip
"""The classic layout, in tensor order (``docs/rl.md`` lists it)."""


def _card_table() -> np.ndarray:
    """(NUM_CARDS + 1, 15): feature rows by card id; the last row (id -1) is all zeros."""
    n = ccards.NUM_CARDS
    t = np.zeros((n + 1, len(C_CARD_FEATURES)), dtype=np.float32)
    ids = np.arange(n)
    t[ids, 0] = 1.0
    t[ids, 1 + ccards.CARD_LEVEL.astype(np.int64)] = 1.0
    t[ids, 4 + ccards.CARD_BONUS.astype(np.int64)] = 1.0
    t[ids, 9] = ccards.CARD_POINTS
    t[ids, 10:15] = ccards.CARD_COST
    return frozen(t)


def _noble_table() -> np.ndarray:
    """(NUM_NOBLES + 1, 7): feature rows by noble id; the last row is all zeros."""
    n = ccards.NUM_NOBLES
    t = np.zeros((n + 1, len(C_NOBLE_FEATURES)), dtype=np.float32)
    t[:n, 0] = 1.0
    t[:n, 1:6] = ccards.NOBLE_REQ
    t[:n, 6] = ccards.NOBLE_POINTS
    return frozen(t)


_PAY = crules.PH_PAY
_RETURN = crules.PH_RETURN


# Compiled with numba (like the rules), reading the state record field by field;
# ``NUMBA_DISABLE_JIT=1`` runs it as plain Python. It writes the fields in the order of
# FIELDS: ``off[k]`` is the offset of FIELDS[k] (checked against _KERNEL_ORDER at import).
@njit(cache=True)
def encode_classic(  # pragma: no cover - compiled
    arr: np.ndarray,
    me: int | np.int64,
    hide: bool,
    out: np.ndarray,
    off: np.ndarray,
    card: np.ndarray,
    noble: np.ndarray,
) -> None:
    """Compiled: add seat ``me``'s tensor of the classic state ``arr`` to ``out`` (zeros,
    ``float32``, :func:`splendor.encoding.observation_size`). ``hide``: ``arr`` is a full
    state or a determinization, whose other seats' blind reserves are hidden here as
    ``State.observation`` hides them (C16); False for an observation of ``me``. ``off``:
    :func:`splendor.encoding.field_offsets`; ``card``, ``noble``:
    :func:`splendor.encoding.card_tables`."""
    s = state_record(arr)
    n = np.int64(s.num_players)
    cur = np.int64(s.current)
    phase = np.int64(s.phase)
    paying = np.int64(s.pay_src) - 12 if phase == _PAY and s.pay_src >= 12 else -1
    out[off[0] + me] = 1.0
    if cur >= 0:
        out[off[1] + (cur - me if cur >= me else cur - me + n)] = 1.0
    out[off[2] + phase] = 1.0
    out[off[3]] = s.final_round
    out[off[4]] = s.pass_streak
    out[off[5]] = s.turn
    for c in range(6):
        out[off[6] + c] = s.supply[c]
    for lvl in range(3):
        out[off[7] + lvl] = s.deck_len[lvl]
    nf = card.shape[1]
    for lvl in range(3):
        for k in range(4):
            put_card(out, off[8] + (lvl * 4 + k) * nf, card, s.faceup[lvl, k])
    nn = noble.shape[1]
    for k in range(s.nobles.shape[0]):
        put_card(out, off[9] + k * nn, noble, s.nobles[k])
    nr = nf + 2
    for r in range(n):
        p = me + r if me + r < n else me + r - n  # (me + r) % n without a division
        for c in range(6):
            out[off[10] + r * 6 + c] = s.tokens[p, c]
        for c in range(5):
            out[off[11] + r * 5 + c] = s.bonuses[p, c]
        out[off[12] + r] = s.points[p]
        out[off[15] + r] = s.num_reserved[p]
        for k in range(3):
            put_reserved(out, off[16] + (r * 3 + k) * nr, card, s, p, k, me, paying, hide)
    for c in range(s.purchased_by.shape[0]):
        p = np.int64(s.purchased_by[c])
        if p >= 0:
            out[off[13] + (p - me if p >= me else p - me + n)] += 1.0
    for c in range(s.noble_owner.shape[0]):
        p = np.int64(s.noble_owner[c])
        if p >= 0:
            out[off[14] + (p - me if p >= me else p - me + n)] += 1.0
    if phase == _PAY:
        put_card(out, off[17], card, s.pay_card)
        out[off[18] + s.pay_src] = 1.0
        for c in range(5):
            out[off[19] + c] = s.pay_need[c]
        out[off[20]] = s.pay_gold
    elif phase == _RETURN:
        held = 0
        for c in range(6):
            held += s.tokens[cur, c]
        out[off[21]] = max(0, held - 10)


_KERNEL_ORDER = (
    "seat", "current", "phase", "final_round", "pass_streak", "turn", "supply", "deck_sizes",
    "faceup", "nobles", "players.tokens", "players.bonuses", "players.points", "players.cards",
    "players.nobles", "players.num_reserved", "players.reserved", "payment.card",
    "payment.source", "payment.need", "payment.gold", "return.excess",
)  # fmt: skip
"""The fields in the order :func:`encode_classic` indexes ``off``."""

ENCODING = GameEncoding(FIELDS, (_card_table(), _noble_table()), encode_classic)
"""Classic Splendor's ``"encoding"`` part (:class:`~splendor.encoding.pieces.GameEncoding`)."""
ENCODING.check_order(_KERNEL_ORDER)
