"""The position gate of Splendor Duel: what makes a state array one the rules can play on.

:func:`position_problems` is the one judge of soundness. :meth:`State.from_dict` refuses a
position it finds fault with (so that a position loaded from outside never sends the
compiled rules outside their tables, nor into a state they could not have produced), and
:func:`splendor.duel.check_invariants` returns its findings after every decision in the
property tests.

The checks run in stages; a stage runs only when the earlier ones passed, so that no
check indexes a table with a value it has not range-checked:

1. every field in its range (the message names the field, the value, what is allowed and
   the rule);
2. the seat to play and the phase agree (a finished game has no seat to play);
3. tokens, privileges and cards conserved and in their places (D1, D3, D5, D9, D11), the
   colour of every bought card (D14), bonuses, points, crowns and colour points equal to
   the sum of their parts, royal cards and crown thresholds (D19);
4. the decision in progress is one the rules could have produced: the pending effects
   equal the abilities of the card being resolved (D13-D17, D19), a payment agrees with
   its card (D10), a reserve has a gold and something to reserve (D9), the token limit of
   each phase (D20), the turn against the cap (D25), and a finished game's reason and
   winner (D21, D25);
5. a game in progress has a legal decision.

What the gate judges is the position as it stands, not the history that led to it: a
position built by hand that no game reaches but from which the rules play on soundly is
accepted (the rule tests build such "what if" positions): a seat sitting on 20 points
while the opponent plays (D21 is checked at the end of the active seat's own turn); a seat
whose crown thresholds are not yet claimed (the royal cards come at its next purchase,
D19), or claimed without a royal card; a seat holding more tokens than its privileges
explain before its mandatory action (it returns them at the end of its turn, D20).
Everything the rules read as an index, every count they conserve and every decision they
resume must be right.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from . import rules
from .actions import NUM_ACTIONS
from .board import BAG_START
from .cards import (
    AB_AGAIN,
    AB_JOKER,
    AB_STEAL,
    AB_TOKEN,
    CARD_ABILITY,
    CARD_BONUS_COUNT,
    CARD_COLOR,
    CARD_COST,
    CARD_CROWNS,
    CARD_LEVEL,
    CARD_POINTS,
    COLOR_JOKER,
    LEVEL_SIZE,
    MAX_DECK,
    MAX_RESERVED,
    NUM_CARDS,
    NUM_LEVELS,
    NUM_PYRAMID,
    ROYAL_ABILITY,
    ROYAL_POINTS,
    SLOT_LEVEL,
)

__all__ = ["position_problems"]

NUM_PLAYERS = 2
NUM_PRIVILEGES = 3  # D5
TOKEN_LIMIT = 10  # D20
MAX_TURN = 2**31 - 1  # the turn counter is an int32
COLOR_NAMES = ("white", "blue", "green", "red", "black", "pearl", "gold")
TOKEN_LETTERS = "WUGRKP*"
PHASES = (
    "main",
    "reserve",
    "payment",
    "joker",
    "token",
    "steal",
    "royal",
    "return tokens",
    "game over",
)
RESOLVING = (rules.PH_JOKER, rules.PH_TOKEN, rules.PH_STEAL, rules.PH_ROYAL)
BAG_TOTALS = np.array(BAG_START, dtype=np.int64)
IS_JOKER = CARD_COLOR == COLOR_JOKER
PRINTED = CARD_COLOR.astype(np.int64)
HAS_PRINTED_BONUS = ~IS_JOKER & (PRINTED >= 0) & (CARD_BONUS_COUNT > 0)
DECK_INDEX = np.arange(MAX_DECK)[None, :]
DECK_LEVEL = np.repeat(np.arange(NUM_LEVELS)[:, None], MAX_DECK, axis=1)
RESERVED_INDEX = np.arange(MAX_RESERVED)[None, :]
_STEAL_ROYALS = np.flatnonzero(ROYAL_ABILITY & AB_STEAL)
_AGAIN_ROYALS = np.flatnonzero(ROYAL_ABILITY & AB_AGAIN)


def _pend_of(ability: int) -> int:
    """The pending-effect bits (``rules.PEND_*``) a card of ``ability`` bits queues."""
    out = 0
    if ability & AB_JOKER:
        out |= rules.PEND_JOKER
    if ability & AB_TOKEN:
        out |= rules.PEND_TOKEN
    if ability & AB_STEAL:
        out |= rules.PEND_STEAL
    return out


def _thresholds(crowns: int) -> int:
    """Crown thresholds (3 and 6) reached with ``crowns`` crowns (D19)."""
    return int(crowns >= 3) + int(crowns >= 6)


def _hits(mask: np.ndarray) -> list[Any]:
    """Indices where ``mask`` is true (ints for 1-d, tuples of ints otherwise); quick when
    there are none, the usual case."""
    if not mask.any():
        return []
    if mask.ndim == 1:
        return [int(i) for i in np.flatnonzero(mask)]
    return [tuple(int(i) for i in ix) for ix in np.argwhere(mask)]


def _label(name: str, index: tuple[int, ...]) -> str:
    return name + "".join(f"[{i}]" for i in index)


# (field, lowest, highest, what the field holds, rule); ``highest`` may be an array that
# broadcasts against the field (a bound per colour or per level).
_RANGES: tuple[tuple[str, int, object, str, str], ...] = (
    (
        "observer",
        -1,
        -1,
        "a full state has observer -1 (an observation hides cards and cannot be loaded as a state)",
        "D22",
    ),
    ("phase", 0, rules.PH_OVER, "the phase is 0..8 (" + ", ".join(PHASES) + ")", "D6-D21"),
    ("current", -1, 1, "the seat to play is 0 or 1, -1 once the game is over", "D5"),
    (
        "end_reason",
        0,
        rules.END_CAP,
        "the end reason is 0 (none), 1 points, 2 crowns, 3 colour (D21) or 4 turn cap (D25)",
        "D21, D25",
    ),
    ("winner", -1, 1, "the winner is seat 0 or 1, or -1 for none", "D21"),
    ("replenished", 0, 1, "replenished must be 0 or 1", "D7"),
    ("again", 0, 1, "again must be 0 or 1", "D13"),
    (
        "pend",
        0,
        rules.PEND_JOKER | rules.PEND_TOKEN | rules.PEND_STEAL,
        "pending effects are bits 1 (joker), 2 (token) and 4 (steal)",
        "D14-D17",
    ),
    ("pend_card", -1, NUM_CARDS - 1, f"a card id 0..{NUM_CARDS - 1}, or -1 for none", "D3"),
    ("turn_cap", 0, MAX_TURN, "the turn cap is 0 (none) or a positive number of turns", "D25"),
    ("board", -1, 6, "a cell holds -1 (empty) or a token colour 0..6 (W U G R K P *)", "D2"),
    ("bag", 0, BAG_TOTALS, "the bag holds 0..4 of a gem colour, 0..2 pearls, 0..3 gold", "D1"),
    (
        "decks",
        -1,
        NUM_CARDS - 1,
        f"a deck holds card ids 0..{NUM_CARDS - 1}, -1 past its end",
        "D3",
    ),
    (
        "deck_len",
        0,
        LEVEL_SIZE,
        "a deck holds 0..30 level-1, 0..24 level-2, 0..13 level-3 cards",
        "D3",
    ),
    (
        "pyramid",
        -1,
        NUM_CARDS - 1,
        f"a pyramid slot holds a card id 0..{NUM_CARDS - 1} or -1 (empty)",
        "D3, D11",
    ),
    ("tokens", 0, BAG_TOTALS, "a seat holds 0..4 of a gem colour, 0..2 pearls, 0..3 gold", "D1"),
    ("bonuses", 0, 127, "bonuses are not negative", "D10"),
    ("points", 0, 32767, "points are not negative", "D21"),
    ("crowns", 0, 127, "crowns are not negative", "D19"),
    ("color_points", 0, 32767, "colour points are not negative", "D21"),
    ("privileges", 0, NUM_PRIVILEGES, "a seat holds 0..3 privileges", "D5"),
    (
        "reserved",
        -1,
        NUM_CARDS - 1,
        f"a reserved slot holds a card id 0..{NUM_CARDS - 1} or -1",
        "D9",
    ),
    ("reserved_level", 0, NUM_LEVELS, "a reserved slot's level is 1..3, 0 when empty", "D9"),
    ("reserved_blind", 0, 1, "reserved_blind must be 0 or 1", "D9"),
    ("num_reserved", 0, MAX_RESERVED, "a seat holds 0..3 reserved cards (at most 3)", "D9"),
    ("card_owner", -1, 1, "a card is owned by seat 0 or 1, or -1 (not bought)", "D3"),
    (
        "card_color",
        -1,
        4,
        "a card's bonus colour is a gem colour 0..4, or -1 (none, not "
        "bought, or a joker not yet attached)",
        "D14",
    ),
    ("royal_owner", -1, 1, "a royal card is held by seat 0 or 1, or -1 (still available)", "D19"),
    ("crown_claims", 0, 2, "a seat claims 0..2 crown thresholds (3 and 6 crowns)", "D19"),
    ("pay_card", -1, NUM_CARDS - 1, f"a card id 0..{NUM_CARDS - 1}, or -1 for none", "D10"),
    (
        "pay_src",
        0,
        NUM_PYRAMID + MAX_RESERVED - 1,
        "a payment source is 0..11 (pyramid) or 12..14 (own reserved slot)",
        "D10",
    ),
    ("pay_need", 0, 127, "tokens still owed are not negative", "D10"),
    ("pay_gold", 0, BAG_START[6], "gold committed is 0..3", "D10"),
)


@functools.cache
def _int8_bounds(dtype: np.dtype) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For the int8 fields of ``dtype`` bounded in :data:`_RANGES`: their byte offsets and
    their lowest and highest values, flat and aligned (the fast path of stage 1)."""
    offsets: list[np.ndarray] = []
    lows: list[np.ndarray] = []
    highs: list[np.ndarray] = []
    fields = dtype.fields
    assert fields is not None, "a state dtype is structured"
    for name, lo, hi, _, _ in _RANGES:
        sub, offset = fields[name][:2]
        if sub.base != np.int8:
            continue
        shape = sub.shape
        size = int(np.prod(shape)) if shape else 1
        offsets.append(offset + np.arange(size))
        lows.append(np.broadcast_to(np.asarray(lo, dtype=np.int64), shape).ravel())
        highs.append(np.broadcast_to(np.asarray(hi, dtype=np.int64), shape).ravel())
    return np.concatenate(offsets), np.concatenate(lows), np.concatenate(highs)


def _range_problems(a: np.ndarray) -> list[str]:
    """Stage 1: every field within its range (first offending element per field)."""
    s = a[0]
    offsets, lows, highs = _int8_bounds(a.dtype)
    small = np.frombuffer(a.tobytes(), dtype=np.int8)[offsets]
    turn, cap = int(s["turn"]), int(s["turn_cap"])
    top = cap if cap > 0 else MAX_TURN - 1
    if (
        not ((small < lows) | (small > highs)).any()
        and 0 <= turn <= top
        and cap >= 0
        and int(s["points"].min()) >= 0
        and int(s["color_points"].min()) >= 0
    ):
        return []
    out: list[str] = []
    for name, lo, hi, what, rule in _RANGES:
        value = np.asarray(s[name]).astype(np.int64)
        bad = (value < lo) | (value > np.asarray(hi))
        if bad.any():
            index = tuple(int(i) for i in np.argwhere(bad)[0]) if value.ndim else ()
            out.append(f"{_label(name, index)}={int(value[index])}: {what} ({rule})")
    if not 0 <= turn <= top:
        allowed = f"0..turn_cap={cap}" if cap > 0 else f"0..{MAX_TURN - 1} (no turn cap)"
        out.append(f"turn={turn}: the turn is {allowed} (D25)")
    return out


def _seat_problems(s: np.void, phase: int, cur: int) -> list[str]:
    """Stage 2: the seat to play agrees with the phase."""
    if phase == rules.PH_OVER and cur != -1:
        return [
            f"current={cur}: a finished game (phase game over) has no current player, -1 (D21, D25)"
        ]
    if phase != rules.PH_OVER and cur not in (0, 1):
        return [
            f"current={cur}: the current player is seat 0 or 1 while the game goes on "
            f"(phase {PHASES[phase]}, D5, D21)"
        ]
    return []


def _token_problems(s: np.void, phase: int, cur: int) -> list[str]:
    """Stage 3a: the 25 tokens (D1), the token limit (D20), the 3 privileges (D5)."""
    out: list[str] = []
    board = s["board"].astype(np.int64)
    on_board = np.bincount(board[board >= 0], minlength=7)
    totals = on_board + s["bag"].astype(np.int64) + s["tokens"].astype(np.int64).sum(axis=0)
    for c in np.flatnonzero(totals != BAG_TOTALS):
        out.append(
            f"board/bag/tokens: {TOKEN_LETTERS[c]} tokens: {int(totals[c])} in play, "
            f"expected {BAG_START[c]} (D1)"
        )
    for p in range(NUM_PLAYERS):
        held = int(s["tokens"][p].sum())
        if held > TOKEN_LIMIT and p != cur:
            out.append(
                f"tokens[{p}]: seat {p} holds {held} tokens (limit 10, D20): only the seat "
                "to play may hold more, until the end of its turn"
            )
    priv = s["privileges"]
    if int(priv.sum()) > NUM_PRIVILEGES:
        out.append(f"privileges={priv.tolist()}: 3 in all, the rest beside the board (D5)")
    return out


def _card_problems(s: np.void, phase: int, cur: int) -> list[str]:
    """Stage 3b: each card in exactly one place, in a place of its level (D3, D9, D11);
    every bought card's colour (D14)."""
    out, in_decks = _deck_problems(s)
    problems, in_pyramid = _pyramid_problems(s)
    out += problems
    problems, in_reserves = _reserve_problems(s)
    out += problems
    owned = s["card_owner"] >= 0
    placed = np.concatenate((in_decks, in_pyramid, in_reserves))
    where = np.bincount(placed, minlength=NUM_CARDS) + owned
    for cid in _hits(where != 1):
        out.append(
            f"decks/pyramid/reserved/card_owner: card {int(cid)} is in "
            f"{int(where[cid])} places (expected exactly 1: a deck, the pyramid, a "
            "reserve or a seat's purchases, D3)"
        )
    return out + _color_problems(s, phase)


def _deck_problems(s: np.void) -> tuple[list[str], np.ndarray]:
    """Each deck holds cards of its level up to its length, -1 past it (D3); and the ids
    of the cards soundly in a deck (for the count of places)."""
    out: list[str] = []
    decks = s["decks"].astype(np.int64)
    dl = s["deck_len"].astype(np.int64)
    in_deck = DECK_INDEX < dl[:, None]
    bad = in_deck & ((decks < 0) | (CARD_LEVEL[np.maximum(decks, 0)] != DECK_LEVEL))
    for lvl, i in _hits(bad):
        out.append(
            f"decks[{lvl}][{i}]={int(decks[lvl, i])}: the level-{lvl + 1} deck holds "
            f"level-{lvl + 1} cards only (D3)"
        )
    for lvl in _hits((~in_deck & (decks != -1)).any(axis=1)):
        out.append(
            f"decks[{lvl}]: the level-{lvl + 1} deck has cards past "
            f"deck_len={int(dl[lvl])} (-1 there) (D3)"
        )
    return out, decks[in_deck & ~bad]


def _pyramid_problems(s: np.void) -> tuple[list[str], np.ndarray]:
    """Each pyramid slot shows a card of its level, and is empty only when its deck is
    (D3, D11); and the ids of the cards soundly shown."""
    out: list[str] = []
    dl = s["deck_len"].astype(np.int64)
    pyr = s["pyramid"].astype(np.int64)
    shown = pyr >= 0
    for k in _hits(~shown & (dl[SLOT_LEVEL] > 0)):
        out.append(
            f"pyramid[{k}]=-1: an empty slot is refilled from its deck while the "
            f"level-{int(SLOT_LEVEL[k]) + 1} deck has cards (D11)"
        )
    wrong = shown & (CARD_LEVEL[np.maximum(pyr, 0)] != SLOT_LEVEL)
    for k in _hits(wrong):
        out.append(
            f"pyramid[{k}]={int(pyr[k])}: slot {k} shows level-{int(SLOT_LEVEL[k]) + 1} "
            f"cards, card {int(pyr[k])} is level {int(CARD_LEVEL[pyr[k]]) + 1} (D3)"
        )
    return out, pyr[shown & ~wrong]


def _reserve_problems(s: np.void) -> tuple[list[str], np.ndarray]:
    """Each seat's reserved slots hold a card of the recorded level up to its count, and
    are empty past it (D9, D22); and the ids of the cards held there."""
    out: list[str] = []
    res = s["reserved"].astype(np.int64)
    level = s["reserved_level"].astype(np.int64)
    blind = s["reserved_blind"]
    nr = s["num_reserved"].astype(np.int64)
    in_res = RESERVED_INDEX < nr[:, None]
    for p, k in _hits(in_res & (res < 0)):
        out.append(
            f"reserved[{p}][{k}]={int(res[p, k])}: seat {p}'s reserved slot {k + 1} of "
            f"{int(nr[p])} holds a card (a full state hides none, D9, D22)"
        )
    held = in_res & (res >= 0)
    for p, k in _hits(held & (level != CARD_LEVEL[np.maximum(res, 0)] + 1)):
        out.append(
            f"reserved_level[{p}][{k}]={int(level[p, k])}: seat {p}'s reserved slot "
            f"{k + 1} holds card {int(res[p, k])} of level "
            f"{int(CARD_LEVEL[res[p, k]]) + 1} (D9)"
        )
    for p, k in _hits(~in_res & ((res != -1) | (level != 0) | (blind != 0))):
        out.append(
            f"reserved[{p}][{k}]: seat {p}'s reserved slot {k + 1} should be empty "
            f"(-1, level 0, not blind): it holds {int(nr[p])} reserved cards (D9)"
        )
    return out, res[held]


def _color_problems(s: np.void, phase: int) -> list[str]:
    """Every bought card's bonus colour: the printed one, or for a joker the colour of a
    card its owner holds, unset only while it is being resolved (D3, D14)."""
    out: list[str] = []
    owner = s["card_owner"].astype(np.int64)
    owned = owner >= 0
    color = s["card_color"].astype(np.int64)
    for cid in _hits(owned & ~IS_JOKER & (color != PRINTED)):
        out.append(
            f"card_color[{cid}]={int(color[cid])}: card {cid} was bought, its bonus "
            f"colour is the printed {int(PRINTED[cid])} (D3)"
        )
    for cid in _hits(~owned & (color != -1)):
        out.append(
            f"card_color[{cid}]={int(color[cid])}: card {cid} is not bought, so it "
            "has no bonus colour (-1) (D14)"
        )
    jokers = owned & IS_JOKER
    if not jokers.any():
        return out
    pend = int(s["pend_card"])
    for cid in _hits(jokers & (color < 0)):
        if not (phase == rules.PH_JOKER and pend == cid):
            out.append(
                f"card_color[{cid}]=-1: joker card {cid} was bought but never "
                "attached: only the joker being resolved has no colour (D14)"
            )
    # D14: a joker is attached to a colour of a card carrying a bonus; jokers never
    # leave, so the seat still owns a printed card of that colour.
    base = owned & HAS_PRINTED_BONUS
    can = np.bincount(owner[base] * 5 + PRINTED[base], minlength=10).reshape(2, 5) > 0
    attached = jokers & (color >= 0)
    for cid in _hits(attached & ~can[np.maximum(owner, 0), np.maximum(color, 0)]):
        col, p = int(color[cid]), int(owner[cid])
        out.append(
            f"card_color[{cid}]={col}: joker card {cid} is attached to "
            f"{COLOR_NAMES[col]}, but seat {p} owns no {COLOR_NAMES[col]} card to "
            "attach it to (D14)"
        )
    return out


def _holding_problems(s: np.void, phase: int, cur: int) -> list[str]:
    """Stage 3c: bonuses, colour points, points and crowns equal the sum of their parts;
    royal cards against crown thresholds (D19)."""
    out: list[str] = []
    owner = s["card_owner"].astype(np.int64)
    color = s["card_color"].astype(np.int64)
    royal = s["royal_owner"].astype(np.int64)
    owned = owner >= 0
    colored = owned & (color >= 0)
    slot = owner[colored] * 5 + color[colored]
    bonus = np.bincount(slot, weights=CARD_BONUS_COUNT[colored], minlength=10).reshape(2, 5)
    cpts = np.bincount(slot, weights=CARD_POINTS[colored], minlength=10).reshape(2, 5)
    held = royal >= 0
    pts = np.bincount(owner[owned], weights=CARD_POINTS[owned], minlength=2) + np.bincount(
        royal[held], weights=ROYAL_POINTS[held], minlength=2
    )
    crowns = np.bincount(owner[owned], weights=CARD_CROWNS[owned], minlength=2).astype(np.int64)
    n_royals = np.bincount(royal[held], minlength=2)
    for p in range(NUM_PLAYERS):
        if (bonus[p] != s["bonuses"][p]).any():
            out.append(
                f"bonuses[{p}]={s['bonuses'][p].tolist()}: seat {p}'s cards give "
                f"{bonus[p].astype(int).tolist()} (D10, D14)"
            )
        if (cpts[p] != s["color_points"][p]).any():
            out.append(
                f"color_points[{p}]={s['color_points'][p].tolist()}: seat {p}'s colour "
                f"points do not match the cards bought, {cpts[p].astype(int).tolist()} "
                "(D21)"
            )
        if int(pts[p]) != int(s["points"][p]):
            out.append(
                f"points[{p}]={int(s['points'][p])}: seat {p} has "
                f"{int(s['points'][p])} points, its cards and royals give {int(pts[p])} "
                "(D21)"
            )
        if int(crowns[p]) != int(s["crowns"][p]):
            out.append(
                f"crowns[{p}]={int(s['crowns'][p])}: seat {p} has "
                f"{int(s['crowns'][p])} crowns, its cards give {int(crowns[p])} (D19)"
            )
        n_royal, claims = int(n_royals[p]), int(s["crown_claims"][p])
        if n_royal > claims or claims > _thresholds(int(crowns[p])):
            out.append(
                f"crown_claims[{p}]={claims}: seat {p} holds {n_royal} royal cards and "
                f"{int(crowns[p])} crowns, and a seat claims a royal card at 3 and at 6 "
                "crowns (D19)"
            )
    return out


def _meets_victory(s: np.void, p: int) -> str | None:
    """The first victory condition seat ``p`` meets (D21, in the engine's order), or None."""
    if int(s["points"][p]) >= rules.WIN_POINTS:
        return "points"
    if int(s["crowns"][p]) >= rules.WIN_CROWNS:
        return "crowns"
    if int(s["color_points"][p].max()) >= rules.WIN_COLOR_POINTS:
        return "colour"
    return None


_VICTORY_WORDS = {
    "points": "20 prestige points",
    "crowns": "10 crowns",
    "colour": "10 prestige points in one colour",
}
_REASON_OF = {rules.END_POINTS: "points", rules.END_CROWNS: "crowns", rules.END_COLOR: "colour"}


def _end_problems(s: np.void, phase: int, cur: int) -> list[str]:
    """Stage 4a: in progress or finished, consistently (D21, D25)."""
    out: list[str] = []
    reason, winner = int(s["end_reason"]), int(s["winner"])
    turn, cap = int(s["turn"]), int(s["turn_cap"])
    if phase != rules.PH_OVER:
        if reason != rules.END_NONE or winner != -1:
            out.append(
                f"end_reason={reason}, winner={winner}: a game in progress has no end "
                "reason (0) and no winner (-1) (D21)"
            )
        if cap > 0 and turn >= cap:
            out.append(
                f"turn={turn}: a game in progress is before its turn cap, turn < "
                f"turn_cap={cap} (D25)"
            )
        return out
    if turn < 1:
        out.append(f"turn={turn}: a finished game has played at least one turn (D21, D25)")
    if reason == rules.END_NONE:
        out.append("end_reason=0: a finished game needs an end reason, 1..4 (D21, D25)")
    elif reason == rules.END_CAP:
        if winner != -1:
            out.append(f"winner={winner}: a game ended by the turn cap has no winner (D25)")
        if cap <= 0 or turn != cap:
            out.append(
                f"end_reason=4 (turn cap): turn={turn} is not the turn cap turn_cap={cap} (D25)"
            )
    elif winner not in (0, 1):
        out.append(
            f"winner={winner}: a game won on points, crowns or colour has a winner, "
            "seat 0 or 1 (D21)"
        )
    else:
        want = _REASON_OF[reason]
        met = _meets_victory(s, winner)
        if met != want:
            has = f"first meets {_VICTORY_WORDS[met]}" if met else "meets no victory condition"
            out.append(
                f"end_reason={reason} ({want}): the winner, seat {winner}, {has}, and a "
                f"win on {want} needs {_VICTORY_WORDS[want]}, checked in the order "
                "points, crowns, colour (D21)"
            )
    for name, value in (("again", int(s["again"])), ("replenished", int(s["replenished"]))):
        if value:
            out.append(f"{name}={value}: a finished game has no turn in progress (0) (D13, D7)")
    return out


def _pending_problems(s: np.void, phase: int, cur: int) -> list[str]:
    """Stage 4b: the card being resolved and its pending effects (D13-D17, D19)."""
    pend_card, pend = int(s["pend_card"]), int(s["pend"])
    again = int(s["again"])
    if phase not in RESOLVING:
        return _idle_problems(phase, pend_card, pend, again)
    out: list[str] = []
    name = PHASES[phase]
    if pend_card < 0 or int(s["card_owner"][pend_card]) != cur:
        out.append(
            f"pend_card={pend_card}: phase {name} needs a card just bought by seat {cur} (D13-D19)"
        )
        return out
    ability = int(CARD_ABILITY[pend_card])
    royal = s["royal_owner"]
    holds_steal = bool((royal[_STEAL_ROYALS] == cur).any())
    holds_again = bool((royal[_AGAIN_ROYALS] == cur).any())
    # Effects resolve in the order joker, token, steal, royal: the phase says which are
    # done, the card's ability which are still due.
    due = _pend_of(ability)
    if phase == rules.PH_JOKER:
        expect = due
    elif phase == rules.PH_TOKEN:
        expect = due & ~rules.PEND_JOKER
    elif phase == rules.PH_STEAL:
        expect = rules.PEND_STEAL
    else:
        expect = 0
    if pend != expect:
        out.append(
            f"pend={pend}: in phase {name} the effects still due from card {pend_card} "
            f"(ability {ability}) are {expect} (bits: 1 joker, 2 token, 4 steal, "
            "resolved in that order, D14-D17)"
        )
    out += _choice_problems(s, phase, cur, pend_card, holds_steal)
    if ability & AB_AGAIN and not again:
        out.append(f"again=0: card {pend_card} being resolved gives an extra turn (D13)")
    if again and not ability & AB_AGAIN and not holds_again:
        out.append(
            f"again=1: neither card {pend_card} nor a royal card of seat {cur} gives "
            "an extra turn (D13)"
        )
    return out


def _idle_problems(phase: int, pend_card: int, pend: int, again: int) -> list[str]:
    """Outside the phases of a purchase: no card resolving, no effect pending, and no
    extra turn due before the mandatory action (D13-D19)."""
    out: list[str] = []
    if pend_card != -1:
        out.append(
            f"pend_card={pend_card}: a card is resolving outside the phases of a "
            "purchase (joker, token, steal, royal), -1 here (D13-D19)"
        )
    if pend != 0:
        out.append(
            f"pend={pend}: pending effects outside the phases of a purchase, 0 here (D14-D17)"
        )
    if again and phase in (rules.PH_MAIN, rules.PH_RESERVE, rules.PH_PAY):
        out.append(
            f"again={again}: an extra turn comes from a card or royal card bought "
            f"this turn, none is before the mandatory action (phase "
            f"{PHASES[phase]}) (D13)"
        )
    return out


def _choice_problems(
    s: np.void, phase: int, cur: int, pend_card: int, holds_steal: bool
) -> list[str]:
    """A resolving phase asks a choice only when the card (or a royal card) calls for it
    and there are at least 2 options; with one, the engine takes it (D14, D15, D17, D19)."""
    ability = int(CARD_ABILITY[pend_card])
    if phase == rules.PH_JOKER:
        colors = int((s["bonuses"][cur] > 0).sum())
        if not ability & AB_JOKER or int(s["card_color"][pend_card]) != -1 or colors < 2:
            return [
                f"phase joker: card {pend_card} is not an unattached joker with at "
                f"least 2 bonus colours of seat {cur} to choose from (one is taken "
                "by the engine) (D14)"
            ]
    elif phase == rules.PH_TOKEN:
        col = int(s["card_color"][pend_card])
        cells = int((s["board"] == col).sum()) if col >= 0 else 0
        if not ability & AB_TOKEN or cells < 2:
            return [
                f"phase token: card {pend_card} has no token ability, or fewer than 2 "
                "tokens of its colour on the board to choose from (one is taken by "
                "the engine) (D15)"
            ]
    elif phase == rules.PH_STEAL:
        kinds = int((s["tokens"][1 - cur, :6] > 0).sum())
        if kinds < 2 or not (ability & AB_STEAL or holds_steal):
            return [
                f"phase steal: neither card {pend_card} nor a royal card of seat {cur} "
                f"steals, or fewer than 2 kinds of tokens to steal from seat {1 - cur} "
                "(one is taken by the engine) (D17)"
            ]
    else:  # royal
        crowns = int(s["crowns"][cur])
        claims = int(s["crown_claims"][cur])
        free = int((s["royal_owner"] < 0).sum())
        if _thresholds(crowns) <= claims or free < 2:
            return [
                f"phase royal: seat {cur} has no crown threshold left to claim "
                f"({crowns} crowns, {claims} claimed), or fewer than 2 royal cards "
                "to choose from (one is taken by the engine) (D19)"
            ]
    return []


def _turn_problems(s: np.void, phase: int, cur: int) -> list[str]:
    """Stage 4c: the turn in progress: a replenish this turn (D7), the return phase
    (D20), the reserve phase (D9) and the payment (D10)."""
    out: list[str] = []
    if phase == rules.PH_OVER:
        return out
    held = int(s["tokens"][cur].sum())
    if phase in (rules.PH_MAIN, rules.PH_RESERVE, rules.PH_PAY):
        if int(s["replenished"]) and int(s["bag"].sum()) > 0:
            out.append(
                f"replenished=1: the board was replenished this turn, which empties "
                f"the bag, yet the bag holds {int(s['bag'].sum())} tokens before the "
                "mandatory action (D7)"
            )
    if phase == rules.PH_RETURN and held <= TOKEN_LIMIT:
        out.append(
            f"phase return tokens: seat {cur} holds {held} tokens, and the return phase is "
            "for a seat holding more than 10 (D20)"
        )
    if phase == rules.PH_RESERVE:
        if int(s["num_reserved"][cur]) >= MAX_RESERVED:
            out.append(f"phase reserve: seat {cur} already holds 3 reserved cards (D9)")
        if int(s["tokens"][cur, 6]) < 1:
            out.append(
                f"phase reserve: seat {cur} holds no gold, and the reserve phase follows "
                "taking one (D9)"
            )
        if (s["pyramid"] < 0).all() and (s["deck_len"] == 0).all():
            out.append("phase reserve: no card is left to reserve (D9)")
    out.extend(_payment_problems(s, phase, cur))
    return out


def _payment_problems(s: np.void, phase: int, cur: int) -> list[str]:
    """Stage 4d: a chosen payment agrees with its card, source and the payer's tokens
    (D10); outside the payment phase its fields are clear."""
    card, src, gold = int(s["pay_card"]), int(s["pay_src"]), int(s["pay_gold"])
    need = s["pay_need"].astype(np.int64)
    if phase != rules.PH_PAY:
        if card != -1 or src != 0 or gold != 0 or (need != 0).any():
            return [
                "pay_card/pay_src/pay_need/pay_gold: payment fields set outside the "
                "payment phase (-1, 0, zeros, 0 there) (D10)"
            ]
        return []
    out: list[str] = []
    k = src - NUM_PYRAMID
    if k < 0:
        at = int(s["pyramid"][src])
    else:
        at = int(s["reserved"][cur, k]) if k < int(s["num_reserved"][cur]) else -1
    if card < 0 or at != card:
        return [
            f"pay_card={card}: the card being paid for is not at its source "
            f"pay_src={src} (it holds {at}) (D10)"
        ]
    tokens = s["tokens"][cur].astype(np.int64)
    owed = CARD_COST[card].astype(np.int64)
    owed[:5] = np.maximum(owed[:5] - s["bonuses"][cur].astype(np.int64), 0)
    for c in np.flatnonzero(need > owed):
        out.append(
            f"pay_need[{c}]={int(need[c])}: card {card} costs seat {cur} only "
            f"{int(owed[c])} {COLOR_NAMES[c]} after bonuses (D10)"
        )
    if out:
        return out
    if int((owed - need).sum()) != gold:
        out.append(
            f"pay_gold={gold}: each gold committed replaces one token owed, and "
            f"{int((owed - need).sum())} were replaced (D10)"
        )
    gold_left = int(tokens[6]) - gold
    short = int(np.maximum(need - tokens[:6], 0).sum())
    if gold_left < 0 or short > gold_left:
        out.append(
            f"pay_gold={gold}: seat {cur} holds {int(tokens[6])} gold and lacks "
            f"{short} more tokens: the payment cannot be completed (D10)"
        )
    if IS_JOKER[card] and not (s["bonuses"][cur] > 0).any():
        out.append(
            f"pay_card={card}: a joker cannot be bought by a seat with no coloured bonus (D14)"
        )
    return out


def position_problems(a: np.ndarray) -> list[str]:
    """Every reason the rules cannot play on soundly from the duel state ``a``; ``[]``
    when it is sound (see the module docstring).

    Args:
        a: a state array, shape ``(1,)``, dtype :data:`splendor.duel.state.STATE_DTYPE`.

    Returns:
        Messages, each naming the field (``turn=-3: the turn is 0..turn_cap=100 (D25)``),
        the value, what is allowed and the rule. Later stages run only when the earlier
        ones found nothing, so no check reads outside a table.
    """
    s = a[0]
    out = _range_problems(a)
    if out:
        return out
    phase, cur = int(s["phase"]), int(s["current"])
    out = _seat_problems(s, phase, cur)
    if out:
        return out
    out = _token_problems(s, phase, cur) + _card_problems(s, phase, cur)
    out += _holding_problems(s, phase, cur)
    if out:
        return out
    out = _end_problems(s, phase, cur)
    out += _pending_problems(s, phase, cur)
    out += _turn_problems(s, phase, cur)
    if out or phase == rules.PH_OVER:
        return out
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    if rules.legal_mask(a, mask) == 0:
        out.append(f"phase {PHASES[phase]}: seat {cur} has no legal decision (D6-D20)")
    return out
