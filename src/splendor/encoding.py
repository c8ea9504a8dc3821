"""The observation tensor shared by every research interface (Gymnasium, PettingZoo, OpenSpiel)
and the bots that learn (``splendor.rl.encoding`` is this module, under the name the
research interfaces document).

One flat ``float32`` vector per observation, built **only** from an
:class:`~splendor.classic.Observation` or :class:`~splendor.duel.Observation` (what one seat
may see, C16 / D22): deck order, the generator and the other seats' blind-reserved cards never
reach it, so an agent fed with these tensors cannot cheat.

Conventions
-----------
- **Seat-relative.** Every per-player field has one row per seat, the observing seat first,
  then the others in turn order (row ``k`` is seat ``(observer + k) % num_players``). The
  current player and owners (royal cards) are relative in the same way. The observer's
  absolute seat is given once (``seat``), since turn order matters (C5, C14, D5).
- **Cards as features, not ids.** A card slot holds a fixed-length feature vector: presence,
  level one-hot, bonus colour one-hot, points, cost (and, in Duel, bonus count, crowns and
  ability bits). Two cards with equal features play identically, so nothing is lost and the
  network needs no card table. An empty slot is all zeros. A blind-reserved card of another
  seat shows only ``present``, its level and the ``hidden`` flag.
- **Raw values.** Counts are stored as they are (tokens, points, turns...), not scaled;
  flags and one-hots are 0/1. Every value is ``>= 0``.

:func:`layout` describes every slice of the tensor (name, offset, shape, kind of value,
meaning, rule id); ``docs/rl.md`` lists the same tables. :func:`observation_tensor` fills
exactly those slices.

Example::

    from splendor import duel
    from splendor import encoding          # also splendor.rl.encoding

    state = duel.new_game(seed=1)
    x = encoding.observation_tensor(state.observation(state.current_player))
    x.shape == (encoding.observation_size("duel"),)
    mask = encoding.action_mask(state)          # int8, shape (encoding.num_actions("duel"),)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
from numba import njit

from . import classic, duel
from .classic import cards as ccards
from .classic import rules as crules
from .classic import state as cstate
from .duel import cards as dcards
from .duel import rules as drules
from .duel import state as dstate
from .jit import ENGINE_SOURCES, refresh_numba_cache, state_record

refresh_numba_cache(__file__, *ENGINE_SOURCES)

__all__ = [
    "GAMES",
    "Field",
    "action_mask",
    "card_tables",
    "encode_classic",
    "encode_duel",
    "field_offsets",
    "game_name",
    "layout",
    "num_actions",
    "observation_high",
    "observation_size",
    "observation_tensor",
    "seat_tensor",
]

GAMES = ("classic", "duel")
"""Canonical game names of this module (``"splendor"`` and ``"splendor-duel"`` are aliases)."""

_ALIASES = {"classic": "classic", "splendor": "classic", "duel": "duel", "splendor-duel": "duel"}


def game_name(game: str) -> str:
    """The canonical name (``"classic"`` or ``"duel"``) of ``game``.

    Accepts ``"classic"``, ``"splendor"``, ``"duel"`` and ``"splendor-duel"``.

    Raises:
        ValueError: an unknown game.
    """
    key = _ALIASES.get(str(game).strip().lower()) if isinstance(game, str) else None
    if key is None:
        raise ValueError(f"unknown game {game!r}: use 'classic' or 'duel'")
    return key


# ------------------------------------------------------------------------------ layout


@dataclass(frozen=True)
class Field:
    """One named slice of the observation tensor.

    Attributes:
        name: unique dotted name (``"players.tokens"``, ``"faceup"``).
        offset: index of its first value in the flat tensor.
        shape: shape of the slice before flattening (C order).
        dtype: the kind of values (all stored as ``float32``): ``"one-hot"`` (0/1, at most one
            1 along the last axis), ``"binary"`` (0/1 flags), ``"count"`` (integer >= 0),
            ``"features"`` (a card or noble feature vector, see ``meaning``).
        meaning: what the values are, in words.
        rule: the rule ids the field stands for (``"C8, C16"``).
        high: an upper bound of every value (``inf`` when unbounded); the lower bound is 0.
    """

    name: str
    offset: int
    shape: tuple[int, ...]
    dtype: str
    meaning: str
    rule: str
    high: float = 1.0

    @property
    def size(self) -> int:
        """Number of values of the field (the product of ``shape``)."""
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def slice(self) -> slice:
        """Its slice of the flat tensor."""
        return slice(self.offset, self.offset + self.size)


# classic card features: present, level 1-3, bonus colour W U G R K, points, cost W U G R K
C_CARD_FEATURES = ("present", "L1", "L2", "L3", "W", "U", "G", "R", "K", "points",
                   "cost_W", "cost_U", "cost_G", "cost_R", "cost_K")  # fmt: skip
"""Names of the values of one classic card slot (``faceup``, ``payment.card``)."""
C_RESERVED_FEATURES = C_CARD_FEATURES + ("hidden", "blind")
"""A classic reserved slot: the card features, then ``hidden`` (another seat's blind
reserve: only ``present`` and the level are set) and ``blind`` (reserved from a deck, C8)."""
C_NOBLE_FEATURES = ("present", "req_W", "req_U", "req_G", "req_R", "req_K", "points")
"""Names of the values of one noble slot (C3, C12)."""

# duel card features
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


def _spec_classic(n: int) -> list[tuple[str, tuple[int, ...], str, str, str, float]]:
    nc = len(C_CARD_FEATURES)
    card_hi = 7.0  # the largest cost or point value on a card
    return [
        ("seat", (n,), "one-hot", "absolute seat of the observer (seat 0 plays first)", "C5", 1),
        (
            "current",
            (n,),
            "one-hot",
            "seat to decide, relative to the observer (index 0 = the observer); all 0 once over",
            "C5",
            1,
        ),
        (
            "phase",
            (len(cstate.PHASE_NAMES),),
            "one-hot",
            "decision owed: main, payment, return tokens, choose noble, game over",
            "C6-C12",
            1,
        ),
        (
            "final_round",
            (1,),
            "binary",
            "1 once a player reached 15 points: the round is completed",
            "C14",
            1,
        ),
        ("pass_streak", (1,), "count", "consecutive passes so far", "C17", n),
        ("turn", (1,), "count", "completed turns (all seats together)", "C14", np.inf),
        ("supply", (6,), "count", "tokens in the supply: W U G R K gold", "C1", 7),
        ("deck_sizes", (3,), "count", "cards left in the level 1, 2, 3 decks", "C4, C10", 40),
        (
            "faceup",
            (3, 4, nc),
            "features",
            "face-up cards [level-1][slot-1], card features " + " ".join(C_CARD_FEATURES),
            "C4, C10",
            card_hi,
        ),
        (
            "nobles",
            (ccards.MAX_NOBLES_SHOWN, len(C_NOBLE_FEATURES)),
            "features",
            "noble row slot by slot: " + " ".join(C_NOBLE_FEATURES),
            "C3, C12",
            4,
        ),
        ("players.tokens", (n, 6), "count", "tokens held per seat: W U G R K gold", "C11", 7),
        (
            "players.bonuses",
            (n, 5),
            "count",
            "bonuses (bought cards) per seat: W U G R K",
            "C9",
            30,
        ),
        (
            "players.points",
            (n,),
            "count",
            "prestige points per seat (cards and nobles)",
            "C14",
            200,
        ),
        (
            "players.cards",
            (n,),
            "count",
            "development cards bought per seat (C15 tie-break)",
            "C15",
            90,
        ),
        ("players.nobles", (n,), "count", "nobles that visited each seat", "C12", 5),
        ("players.num_reserved", (n,), "count", "reserved cards held per seat", "C8", 3),
        (
            "players.reserved",
            (n, ccards.MAX_RESERVED, len(C_RESERVED_FEATURES)),
            "features",
            "reserved cards per seat and slot: "
            + " ".join(C_RESERVED_FEATURES)
            + " (another seat's blind reserve: present, level, hidden only)",
            "C8, C16",
            card_hi,
        ),
        (
            "payment.card",
            (nc,),
            "features",
            "card being paid for during a chosen payment",
            "C9",
            card_hi,
        ),
        (
            "payment.source",
            (15,),
            "one-hot",
            "where it comes from: face-up slot (level-1)*4+(slot-1), or 12+k for own reserved "
            "slot k",
            "C9",
            1,
        ),
        ("payment.need", (5,), "count", "coloured tokens still owed: W U G R K", "C9", 7),
        ("payment.gold", (1,), "count", "gold committed so far", "C9", 5),
        (
            "return.excess",
            (1,),
            "count",
            "tokens the current player must still return (held above 10) in the return phase",
            "C11",
            3,
        ),
    ]


def _spec_duel() -> list[tuple[str, tuple[int, ...], str, str, str, float]]:
    nc = len(D_CARD_FEATURES)
    card_hi = 8.0
    return [
        ("seat", (2,), "one-hot", "absolute seat of the observer (seat 0 plays first)", "D5", 1),
        (
            "current",
            (2,),
            "one-hot",
            "seat to decide, relative to the observer (index 0 = the observer); all 0 once over",
            "D5",
            1,
        ),
        (
            "phase",
            (len(dstate.PHASE_NAMES),),
            "one-hot",
            "decision owed: main, reserve, payment, joker, token, steal, royal, return tokens, "
            "game over",
            "D6-D20",
            1,
        ),
        ("turn", (1,), "count", "completed turns (extra turns included)", "D13", np.inf),
        ("turn_cap", (1,), "binary", "1 when the host set a turn cap", "D25", 1),
        (
            "turns_left",
            (1,),
            "count",
            "turns left before the cap ends the game with no winner (0 without a cap)",
            "D25",
            np.inf,
        ),
        ("replenished", (1,), "binary", "1 once the board was replenished this turn", "D6, D7", 1),
        (
            "extra_turn",
            (1,),
            "binary",
            "1 when the current player plays again after this turn",
            "D13",
            1,
        ),
        (
            "board",
            (25, 7),
            "one-hot",
            "token on each cell (row*5+col): W U G R K pearl gold; all 0 for an empty cell",
            "D2, D8",
            1,
        ),
        ("bag", (7,), "count", "tokens in the bag (W U G R K pearl gold)", "D7, D22", 4),
        ("free_privileges", (1,), "count", "privilege scrolls beside the board", "D5, D18", 3),
        ("deck_sizes", (3,), "count", "cards left in the level 1, 2, 3 decks", "D3, D11", 30),
        (
            "pyramid",
            (12, nc),
            "features",
            "face-up pyramid (slots 0-4 level 1, 5-8 level 2, 9-11 level 3), card features "
            + " ".join(D_CARD_FEATURES),
            "D3, D11",
            card_hi,
        ),
        (
            "royals",
            (dcards.NUM_ROYALS, len(D_ROYAL_FEATURES)),
            "features",
            "royal cards by number: " + " ".join(D_ROYAL_FEATURES),
            "D4, D19",
            3,
        ),
        ("players.tokens", (2, 7), "count", "tokens held per seat: W U G R K pearl gold", "D20", 4),
        (
            "players.bonuses",
            (2, 5),
            "count",
            "bonuses per seat (jokers in their colour): W U G R K",
            "D10, D14",
            30,
        ),
        (
            "players.points",
            (2,),
            "count",
            "prestige points per seat (cards and royal cards)",
            "D21",
            200,
        ),
        ("players.crowns", (2,), "count", "crowns on bought cards per seat", "D19, D21", 30),
        (
            "players.color_points",
            (2, 5),
            "count",
            "card points per bonus colour per seat",
            "D21",
            100,
        ),
        ("players.privileges", (2,), "count", "privilege scrolls held per seat", "D6, D18", 3),
        (
            "players.royal_claims",
            (2,),
            "count",
            "crown thresholds (3, 6) already used per seat",
            "D19",
            2,
        ),
        ("players.cards", (2,), "count", "cards bought per seat", "D3", 67),
        ("players.num_reserved", (2,), "count", "reserved cards held per seat", "D9", 3),
        (
            "players.reserved",
            (2, dcards.MAX_RESERVED, len(D_RESERVED_FEATURES)),
            "features",
            "reserved cards per seat and slot: "
            + " ".join(D_RESERVED_FEATURES)
            + " (the opponent's blind reserve: present, level, hidden only)",
            "D9, D22",
            card_hi,
        ),
        (
            "pending.card",
            (nc,),
            "features",
            "card just bought whose effects are resolving",
            "D13-D19",
            card_hi,
        ),
        (
            "pending.effects",
            (3,),
            "binary",
            "effects of it still to resolve: joker, token, steal",
            "D14, D15, D17",
            1,
        ),
        (
            "payment.card",
            (nc,),
            "features",
            "card being paid for during a chosen payment",
            "D10",
            card_hi,
        ),
        (
            "payment.source",
            (15,),
            "one-hot",
            "where it comes from: pyramid slot 0-11, or 12+k for own reserved slot k",
            "D10",
            1,
        ),
        ("payment.need", (6,), "count", "tokens still owed: W U G R K pearl", "D10", 10),
        ("payment.gold", (1,), "count", "gold committed so far", "D10", 3),
        (
            "return.excess",
            (1,),
            "count",
            "tokens the current player must still return (held above 10) in the return phase",
            "D20",
            15,
        ),
    ]


@cache
def _layout(game: str, num_players: int) -> tuple[Field, ...]:
    spec = _spec_classic(num_players) if game == "classic" else _spec_duel()
    out: list[Field] = []
    off = 0
    for name, shape, kind, meaning, rule, high in spec:
        f = Field(name, off, tuple(int(x) for x in shape), kind, meaning, rule, float(high))
        out.append(f)
        off += f.size
    return tuple(out)


def _check_players(game: str, num_players: int) -> None:
    if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)):
        raise ValueError(f"num_players must be an integer, got {num_players!r}")
    if game == "classic" and not 2 <= num_players <= 4:
        raise ValueError(f"classic Splendor is for 2 to 4 players, got {num_players}")
    if game == "duel" and num_players != 2:
        raise ValueError(f"Splendor Duel is for 2 players, got {num_players}")


def layout(game: str, num_players: int = 2) -> list[Field]:
    """Every slice of the observation tensor of ``game``, in tensor order.

    Args:
        game: ``"classic"`` (or ``"splendor"``) or ``"duel"`` (or ``"splendor-duel"``).
        num_players: 2-4 for classic, 2 for Duel.

    Returns:
        A new list of :class:`Field`; consecutive fields tile ``0..observation_size``.

    Raises:
        ValueError: unknown game or a player count the game does not allow.
    """
    g = game_name(game)
    _check_players(g, num_players)
    return list(_layout(g, int(num_players)))


def observation_size(game: str, num_players: int = 2) -> int:
    """Length of the observation tensor of ``game`` with ``num_players`` seats.

    Classic: 405 (2 players), 473 (3), 541 (4). Duel: 816.

    Raises:
        ValueError: unknown game or a player count the game does not allow.
    """
    fields = layout(game, num_players)
    return fields[-1].offset + fields[-1].size


def observation_high(game: str, num_players: int = 2) -> np.ndarray:
    """Upper bound of every value of the tensor (float32, shape ``(observation_size,)``;
    ``inf`` where unbounded); the lower bound is 0 everywhere. Used for Box spaces.

    Raises:
        ValueError: unknown game or a player count the game does not allow.
    """
    fields = layout(game, num_players)
    out = np.empty(observation_size(game, num_players), dtype=np.float32)
    for f in fields:
        out[f.slice] = f.high
    return out


def num_actions(game: str) -> int:
    """Number of distinct decision ids of ``game`` (the engine's ``NUM_ACTIONS``: 93 for
    classic, 296 for Duel).

    Raises:
        ValueError: unknown game.
    """
    return classic.NUM_ACTIONS if game_name(game) == "classic" else duel.NUM_ACTIONS


def action_mask(state_or_view: Any) -> np.ndarray:
    """Legal decisions of the player to act, as ``int8`` 0/1 of shape ``(num_actions,)``.

    Args:
        state_or_view: a classic or duel :class:`State` or :class:`Observation` (anything
            with ``legal_mask()``); all zeros once the game is over.

    Raises:
        TypeError: ``state_or_view`` has no ``legal_mask()``.
    """
    fn = getattr(state_or_view, "legal_mask", None)
    if fn is None:
        raise TypeError(
            f"action_mask needs a State or an Observation, got {type(state_or_view).__name__}"
        )
    return np.asarray(fn(), dtype=np.int8)


# ------------------------------------------------------------------------------ tables


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def _classic_card_table() -> np.ndarray:
    """(NUM_CARDS + 1, 15): feature rows by card id; the last row (id -1) is all zeros."""
    n = ccards.NUM_CARDS
    t = np.zeros((n + 1, len(C_CARD_FEATURES)), dtype=np.float32)
    ids = np.arange(n)
    t[ids, 0] = 1.0
    t[ids, 1 + ccards.CARD_LEVEL.astype(np.int64)] = 1.0
    t[ids, 4 + ccards.CARD_BONUS.astype(np.int64)] = 1.0
    t[ids, 9] = ccards.CARD_POINTS
    t[ids, 10:15] = ccards.CARD_COST
    return _frozen(t)


def _classic_noble_table() -> np.ndarray:
    n = ccards.NUM_NOBLES
    t = np.zeros((n + 1, len(C_NOBLE_FEATURES)), dtype=np.float32)
    t[:n, 0] = 1.0
    t[:n, 1:6] = ccards.NOBLE_REQ
    t[:n, 6] = ccards.NOBLE_POINTS
    return _frozen(t)


def _duel_card_table() -> np.ndarray:
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
    return _frozen(t)


def _duel_royal_static() -> np.ndarray:
    """(NUM_ROYALS, 4): points, again, privilege, steal."""
    t = np.zeros((dcards.NUM_ROYALS, 4), dtype=np.float32)
    ab = dcards.ROYAL_ABILITY.astype(np.int64)
    t[:, 0] = dcards.ROYAL_POINTS
    t[:, 1] = (ab & dcards.AB_AGAIN) != 0
    t[:, 2] = (ab & dcards.AB_PRIVILEGE) != 0
    t[:, 3] = (ab & dcards.AB_STEAL) != 0
    return _frozen(t)


_C_CARD = _classic_card_table()
_C_NOBLE = _classic_noble_table()
_D_CARD = _duel_card_table()
_D_ROYAL = _duel_royal_static()
_C_PAY = crules.PH_PAY
_C_RETURN = crules.PH_RETURN
_D_PAY = drules.PH_PAY
_D_RETURN = drules.PH_RETURN
_PEND_JOKER = drules.PEND_JOKER
_PEND_TOKEN = drules.PEND_TOKEN
_PEND_STEAL = drules.PEND_STEAL


# ------------------------------------------------------------------------------ encoding
#
# The two kernels below are compiled with numba (like the rules) and read the observation
# record field by field; ``NUMBA_DISABLE_JIT=1`` runs them as plain Python. They write the
# fields in the order of ``_spec_classic`` / ``_spec_duel``; ``off`` holds each field's
# offset in that order (the indices below are checked against the specs at import).

_C_FIELDS = (
    "seat", "current", "phase", "final_round", "pass_streak", "turn", "supply", "deck_sizes",
    "faceup", "nobles", "players.tokens", "players.bonuses", "players.points", "players.cards",
    "players.nobles", "players.num_reserved", "players.reserved", "payment.card",
    "payment.source", "payment.need", "payment.gold", "return.excess",
)  # fmt: skip
_D_FIELDS = (
    "seat", "current", "phase", "turn", "turn_cap", "turns_left", "replenished", "extra_turn",
    "board", "bag", "free_privileges", "deck_sizes", "pyramid", "royals", "players.tokens",
    "players.bonuses", "players.points", "players.crowns", "players.color_points",
    "players.privileges", "players.royal_claims", "players.cards", "players.num_reserved",
    "players.reserved", "pending.card", "pending.effects", "payment.card", "payment.source",
    "payment.need", "payment.gold", "return.excess",
)  # fmt: skip
if (
    tuple(x[0] for x in _spec_classic(2)) != _C_FIELDS
    or tuple(x[0] for x in _spec_duel()) != _D_FIELDS
):
    raise RuntimeError("encoding: the kernel field order differs from the layout")


@cache
def _offsets(game: str, num_players: int) -> tuple[np.ndarray, int]:
    fields = _layout(game, num_players)
    off = np.array([f.offset for f in fields], dtype=np.int64)
    off.setflags(write=False)
    return off, fields[-1].offset + fields[-1].size


# Inlined (numba IR) into the encoders: a call per card slot cost a quarter of their time.
@njit(cache=True, inline="always")
def _put_card(  # pragma: no cover - compiled
    out: np.ndarray, o: int, table: np.ndarray, card: int | np.int64
) -> None:
    if card >= 0:
        # Unsigned indices: numba tests a signed index for wrap-around (a negative index
        # counts from the end) at every element, which kept this copy from vectorizing.
        start = np.uint64(o)
        features = table[np.uint64(card)]
        for j in range(np.uint64(table.shape[1])):
            out[start + j] = features[j]


# Inlined (numba IR) into the encoders: a call per card slot cost a quarter of their time.
@njit(cache=True, inline="always")
def _put_reserved(  # pragma: no cover - compiled
    out: np.ndarray,
    o: int,
    table: np.ndarray,
    s: np.record,
    p: int | np.int64,
    k: int,
    me: int | np.int64,
    paying: int | np.int64,
    hide: bool,
) -> None:
    """Slot ``k`` of seat ``p`` as seat ``me`` sees it: card features, hidden, blind (C8,
    C16, D9, D22). In an observation (``hide`` False) another seat's blind reserve is
    already -1; in a full state (``hide`` True) it is hidden here, unless it is the one being
    paid for (slot ``paying`` of the seat to play), as ``State.observation`` does."""
    nf = table.shape[1]
    if k >= s.num_reserved[p]:
        return
    card = s.reserved[p, k]
    hidden = hide and p != me and s.reserved_blind[p, k] and not (p == s.current and k == paying)
    if card >= 0 and not hidden:
        _put_card(out, o, table, card)
    else:  # another seat's blind reserve: only its level is public
        out[o] = 1.0
        out[o + s.reserved_level[p, k]] = 1.0
        out[o + nf] = 1.0
    if s.reserved_blind[p, k]:
        out[o + nf + 1] = 1.0


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
    ``float32``, :func:`observation_size`). ``hide``: ``arr`` is a full state or a
    determinization, whose other seats' blind reserves are hidden here as
    ``State.observation`` hides them (C16); False for an observation of ``me``. ``off``:
    :func:`field_offsets`; ``card``, ``noble``: :func:`card_tables`."""
    s = state_record(arr)
    n = np.int64(s.num_players)
    cur = np.int64(s.current)
    phase = np.int64(s.phase)
    paying = np.int64(s.pay_src) - 12 if phase == _C_PAY and s.pay_src >= 12 else -1
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
            _put_card(out, off[8] + (lvl * 4 + k) * nf, card, s.faceup[lvl, k])
    nn = noble.shape[1]
    for k in range(s.nobles.shape[0]):
        _put_card(out, off[9] + k * nn, noble, s.nobles[k])
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
            _put_reserved(out, off[16] + (r * 3 + k) * nr, card, s, p, k, me, paying, hide)
    for c in range(s.purchased_by.shape[0]):
        p = np.int64(s.purchased_by[c])
        if p >= 0:
            out[off[13] + (p - me if p >= me else p - me + n)] += 1.0
    for c in range(s.noble_owner.shape[0]):
        p = np.int64(s.noble_owner[c])
        if p >= 0:
            out[off[14] + (p - me if p >= me else p - me + n)] += 1.0
    if phase == _C_PAY:
        _put_card(out, off[17], card, s.pay_card)
        out[off[18] + s.pay_src] = 1.0
        for c in range(5):
            out[off[19] + c] = s.pay_need[c]
        out[off[20]] = s.pay_gold
    elif phase == _C_RETURN:
        held = 0
        for c in range(6):
            held += s.tokens[cur, c]
        out[off[21]] = max(0, held - 10)


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
    """Compiled: as :func:`encode_classic` for a Splendor Duel state (D22)."""
    s = state_record(arr)
    cur = np.int64(s.current)
    phase = np.int64(s.phase)
    paying = np.int64(s.pay_src) - 12 if phase == _D_PAY and s.pay_src >= 12 else -1
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
        _put_card(out, off[12] + k * nf, card, s.pyramid[k])
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
            _put_reserved(out, off[23] + (r * 3 + k) * nr, card, s, p, k, me, paying, hide)
    for c in range(s.card_owner.shape[0]):
        p = np.int64(s.card_owner[c])
        if p >= 0:
            out[off[21] + (0 if p == me else 1)] += 1.0
    pend = np.int64(s.pend_card)
    if pend >= 0:
        _put_card(out, off[24], card, pend)
        bits = np.int64(s.pend)
        out[off[25]] = 1.0 if bits & _PEND_JOKER else 0.0
        out[off[25] + 1] = 1.0 if bits & _PEND_TOKEN else 0.0
        out[off[25] + 2] = 1.0 if bits & _PEND_STEAL else 0.0
    if phase == _D_PAY:
        _put_card(out, off[26], card, s.pay_card)
        out[off[27] + s.pay_src] = 1.0
        for c in range(6):
            out[off[28] + c] = s.pay_need[c]
        out[off[29]] = s.pay_gold
    elif phase == _D_RETURN:
        held = 0
        for c in range(7):
            held += s.tokens[cur, c]
        out[off[30]] = max(0, held - 10)


def observation_tensor(observation: Any) -> np.ndarray:
    """The observation tensor of one seat (see the module docstring and :func:`layout`).

    Args:
        observation: ``state.observation(seat)`` of a classic or a Duel game. A full
            :class:`State` is refused, so that hidden information cannot slip in.

    Returns:
        A new ``float32`` array of shape ``(observation_size(game, num_players),)``, every
        value ``>= 0``; seat-relative (the observer's rows first).

    Raises:
        TypeError: ``observation`` is not a classic or duel :class:`Observation` (C16, D22).
    """
    if isinstance(observation, classic.Observation):
        arr = observation.array
        off, size = _offsets("classic", int(arr[0]["num_players"]))
        out = np.zeros(size, dtype=np.float32)
        encode_classic(arr, int(arr[0]["observer"]), False, out, off, _C_CARD, _C_NOBLE)
        return out
    if isinstance(observation, duel.Observation):
        arr = observation.array
        off, size = _offsets("duel", 2)
        out = np.zeros(size, dtype=np.float32)
        encode_duel(arr, int(arr[0]["observer"]), False, out, off, _D_CARD, _D_ROYAL)
        return out
    if isinstance(observation, (classic.State, duel.State)):
        raise TypeError(
            "observation_tensor takes an Observation (state.observation(seat)), not a full "
            "State: a State holds hidden information (C16, D22)"
        )
    raise TypeError(
        f"observation_tensor takes a classic or duel Observation, got {type(observation).__name__}"
    )


def card_tables(game: str) -> tuple[np.ndarray, np.ndarray]:
    """The static tables the compiled encoders read (read-only): classic ``(cards,
    nobles)``, Duel ``(cards, royal cards)``, one row of features per card.

    Raises:
        ValueError: an unknown game.
    """
    return (_C_CARD, _C_NOBLE) if game_name(game) == "classic" else (_D_CARD, _D_ROYAL)


def field_offsets(game: str, num_players: int = 2) -> np.ndarray:
    """The offset of each field of :func:`layout` (read-only ``int64``), as the compiled
    encoders take them.

    Raises:
        ValueError: an unknown game or player count.
    """
    name = game_name(game)
    _check_players(name, num_players)
    return _offsets(name, num_players)[0]


def seat_tensor(state: Any, seat: int) -> np.ndarray:
    """The tensor of ``seat`` in a full ``state``: exactly
    ``observation_tensor(state.observation(seat))``, without building the observation
    (what a search does with each determinization). Only what ``seat`` may see is read
    (C16, D22).

    Raises:
        TypeError: not a full classic or Duel state.
        ValueError: ``seat`` is not a seat of the game.
    """
    if not isinstance(state, (classic.State, duel.State)):
        raise TypeError(
            f"seat_tensor takes a full classic or duel State, got {type(state).__name__} "
            "(an Observation's tensor is observation_tensor's)"
        )
    if not 0 <= seat < state.num_players:
        raise ValueError(f"seat must be 0..{state.num_players - 1}, got {seat}")
    arr = state._a
    if isinstance(state, classic.State):
        off, size = _offsets("classic", state.num_players)
        out = np.zeros(size, dtype=np.float32)
        encode_classic(arr, seat, True, out, off, _C_CARD, _C_NOBLE)
    else:
        off, size = _offsets("duel", 2)
        out = np.zeros(size, dtype=np.float32)
        encode_duel(arr, seat, True, out, off, _D_CARD, _D_ROYAL)
    return out
