"""Sound classic positions: what a state array must hold before the rules run on it.

The compiled rules (:mod:`splendor.classic.rules`) have no bounds checks: they index the
card and noble tables with ids read from the state, and the face-up row and reserved slots
with the payment's source. A position loaded from outside (:meth:`State.from_dict`, the
OpenSpiel ``deserialize_state``) must therefore be checked completely first. Two levels:

:func:`check_invariants`
    What every state the rules produce holds, and what the rules need to stay in bounds,
    conserve tokens and cards and always offer a legal decision: every field in its range
    (ids of real cards, nobles and seats; the sentinel -1 only where allowed), token and
    card conservation (C1, C2), the token, reserve and noble limits (C3, C8, C11), scores
    and bonuses equal to their parts, and each decision phase consistent with the rest
    (payment C9, token return C11, noble choice C12, game over C14/C17). Property tests
    run it after every decision; test positions built by hand must pass it.
:func:`check_position`
    The gate of :meth:`State.from_dict`: :func:`check_invariants` plus what the history of
    a real game implies: the seat to play follows from the turn count (C5), the final
    round agrees with the scores (C14), a run of passes needs an empty gem supply (C17).

Each problem is one message that names the field (as in the position dict), its value,
what is allowed and the rule, e.g. ``"nobles[2]=12: a noble id is 0..9 or -1 (C3)"``.
Both functions take any array of the state dtype, however corrupt, and never raise: table
lookups happen only after every id was found in range.
"""

from __future__ import annotations

import numpy as np

from ..colors import GOLD, NUM_GEMS, TOKEN_LETTERS
from ..positions import range_problems
from . import rules
from .actions import BUY_CHOOSE, PAY_GOLD
from .cards import (
    CARD_BONUS,
    CARD_COST,
    CARD_LEVEL,
    CARD_POINTS,
    FACEUP_PER_LEVEL,
    LEVEL_SIZE,
    LEVEL_START,
    MAX_DECK,
    MAX_NOBLES_SHOWN,
    MAX_RESERVED,
    NOBLE_POINTS,
    NOBLE_REQ,
    NUM_CARDS,
    NUM_LEVELS,
    NUM_NOBLES,
)

MIN_PLAYERS = 2
MAX_PLAYERS = 4
GEMS_BY_PLAYERS = {2: 4, 3: 5, 4: 7}
"""Tokens of each gem colour in play, by player count (C1)."""
MAX_TURN = 1 << 30
"""Largest turn count a position may hold: the int32 counter then has room for 2**30
more turns, more than any game plays."""
MAX_HELD_AFTER_TAKE = rules.TOKEN_LIMIT + 3
"""At most 10 tokens at the start of a turn, and a turn takes at most 3 (C6, C11)."""
NUM_PAY_SOURCES = PAY_GOLD - BUY_CHOOSE  # 12 face-up slots, then 3 own reserved slots
_MAX_COST = int(CARD_COST.max())
_TOKEN_TOP = {
    n: np.array([gems] * NUM_GEMS + [rules.GOLD_TOKENS], dtype=np.int64)
    for n, gems in GEMS_BY_PLAYERS.items()
}
_LEVEL_LO = LEVEL_START.astype(np.int64)[:, None]  # per level: first and last card id
_LEVEL_HI = (LEVEL_START.astype(np.int64) + LEVEL_SIZE.astype(np.int64) - 1)[:, None]
_DECK_INDEX = np.arange(MAX_DECK, dtype=np.int64)[None, :]
_NOBLE_SLOT = np.arange(MAX_NOBLES_SHOWN, dtype=np.int64)
_SEAT = np.arange(MAX_PLAYERS, dtype=np.int64)
_RESERVED_SLOT = np.arange(MAX_RESERVED, dtype=np.int64)[None, :]

PHASES = {
    rules.PH_MAIN: "main",
    rules.PH_PAY: "payment",
    rules.PH_RETURN: "return tokens",
    rules.PH_NOBLE: "choose noble",
    rules.PH_OVER: "game over",
}


def check_invariants(a: np.ndarray) -> list[str]:
    """Every invariant a full classic state must hold; returns the broken ones (empty when
    the state is sound). See the module docstring for the list; the rules keep all of them
    (a state reached in play from a sound one is sound).

    Args:
        a: a state array, shape ``(1,)`` and dtype ``STATE_DTYPE``; only read.

    Returns:
        One message per problem, naming the field, the value, what is allowed and the
        rule. When a field is out of range only range problems are returned (the deeper
        checks would read tables with the bad ids).
    """
    s = a[0]
    n = int(s["num_players"])
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        return range_problems(
            "num_players", n, MIN_PLAYERS, MAX_PLAYERS, "the player count is", "C1"
        )
    out = _field_ranges(s, n)
    if out:
        return out
    out += _tokens(s, n)
    out += _cards(s, n)
    out += _nobles(s, n)
    out += _phase(s, n)
    return out


def check_position(a: np.ndarray) -> list[str]:
    """The complete gate for a loaded position: :func:`check_invariants`, then what the
    history of a real game implies (checked only on a sound state):

    - while the game goes on, the seat to play is ``turn`` mod ``num_players``: seat 0
      starts and play goes round in seat order (C5);
    - ``final_round`` is 1 exactly when a seat ended a turn with 15 points or more: then
      a seat that played this round holds them, seat 0 is not to play, and no seat that has
      not played yet this round holds them; a game ended on points has ``final_round`` 1
      and a completed round (C14);
    - ``pass_streak`` above 0 means the last seats passed, which needs a supply without a
      gem token (C17).

    Args:
        a: a state array, shape ``(1,)`` and dtype ``STATE_DTYPE``; only read.

    Returns:
        The problems, as :func:`check_invariants` gives them; empty for a sound position.
    """
    out = check_invariants(a)
    if out:
        return out
    return _history(a[0], int(a[0]["num_players"]))


# --------------------------------------------------------------------------- ranges


def _field_ranges(s: np.void, n: int) -> list[str]:
    """Every field element in its range, sentinels only where they belong: the turn's
    fields, the seats' holdings, the cards on the table, the reserves, then the owners and
    the payment."""
    return [
        *_turn_ranges(s, n),
        *_holding_ranges(s, n),
        *_table_ranges(s, n),
        *_reserve_ranges(s, n),
        *_owner_ranges(s, n),
    ]


def _turn_ranges(s: np.void, n: int) -> list[str]:
    """The fields of whose turn it is and how the game stands (C5, C14, C16, C17)."""
    r = range_problems
    out: list[str] = []
    out += r("observer", s["observer"], -1, -1, "a full state's observer is", "C16")
    out += r(
        "phase",
        s["phase"],
        0,
        len(PHASES) - 1,
        "the phase (main, payment, return tokens, choose noble, game over) is",
        "C6-C17",
    )
    out += r("current", s["current"], 0, n - 1, "the seat to play is", "C5", also=(-1,))
    out += r("final_round", s["final_round"], 0, 1, "final_round is", "C14")
    out += r("pass_streak", s["pass_streak"], 0, n, f"with {n} players, pass_streak is", "C17")
    out += r("end_reason", s["end_reason"], 0, 2, "end_reason (none, points, stall) is", "C14, C17")
    out += r("turn", s["turn"], 0, MAX_TURN, "the count of completed turns is", "C5")
    return out


def _holding_ranges(s: np.void, n: int) -> list[str]:
    """The supply and each seat's tokens, bonuses and points; none for a seat not in the
    game (C1, C9, C12)."""
    r = range_problems
    out: list[str] = []
    top = _TOKEN_TOP[n]
    out += r("supply", s["supply"], 0, top, f"with {n} players, a supply pile holds", "C1")
    out += r("tokens", s["tokens"][:n], 0, top, f"with {n} players, a seat holds", "C1")
    out += r("tokens", s["tokens"][n:], 0, 0, "a seat not in the game holds", "C1", start=n)
    out += r("bonuses", s["bonuses"][:n], 0, NUM_CARDS, "a bonus count is", "C9")
    out += r("bonuses", s["bonuses"][n:], 0, 0, "a seat not in the game has bonuses", "C9", start=n)
    out += r("points", s["points"][:n], 0, 10 * NUM_CARDS, "a score is", "C9, C12")
    out += r("points", s["points"][n:], 0, 0, "a seat not in the game scores", "C9, C12", start=n)
    return out


def _table_ranges(s: np.void, n: int) -> list[str]:
    """The decks (a card of the deck's level up to its length), the face-up rows and the
    noble row (C2, C3, C4, C10)."""
    r = range_problems
    out: list[str] = []
    dl = s["deck_len"]
    bad_len = r(
        "deck_len", dl, 0, LEVEL_SIZE, "a deck length (40, 30, 20 cards by level) is", "C2, C4"
    )
    out += bad_len
    if not bad_len:
        inside = _DECK_INDEX < dl.astype(np.int64)[:, None]
        out += r(
            "decks",
            s["decks"],
            np.where(inside, _LEVEL_LO, -1),
            np.where(inside, _LEVEL_HI, -1),
            "a deck entry (a card of the deck's level up to deck_len, then -1) is",
            "C2",
        )
    out += r(
        "faceup",
        s["faceup"],
        _LEVEL_LO,
        _LEVEL_HI,
        "a face-up card (of the row's level) is",
        "C4, C10",
        also=(-1,),
    )
    out += r(
        "nobles",
        s["nobles"],
        0,
        np.where(_NOBLE_SLOT <= n, NUM_NOBLES - 1, -1),
        f"a noble id ({n + 1} nobles dealt) is",
        "C3",
        also=(-1,),
    )
    return out


def _reserve_ranges(s: np.void, n: int) -> list[str]:
    """Each seat's reserved cards, levels and blind flags up to its count (C8)."""
    r = range_problems
    out: list[str] = []
    nr = s["num_reserved"]
    bad_count = r(
        "num_reserved",
        nr,
        0,
        np.where(_SEAT < n, MAX_RESERVED, 0),
        "a seat's reserved card count is",
        "C8",
    )
    out += bad_count
    if not bad_count:
        held = _RESERVED_SLOT < nr.astype(np.int64)[:, None]
        out += r(
            "reserved",
            s["reserved"],
            np.where(held, 0, -1),
            np.where(held, NUM_CARDS - 1, -1),
            "a reserved slot (a card up to num_reserved, else -1) is",
            "C8",
        )
        out += r(
            "reserved_level",
            s["reserved_level"],
            np.where(held, 1, 0),
            np.where(held, NUM_LEVELS, 0),
            "a reserved card's level (0 past num_reserved) is",
            "C8",
        )
        out += r(
            "reserved_blind",
            s["reserved_blind"],
            0,
            np.where(held, 1, 0),
            "a reserved card's blind flag (0 past num_reserved) is",
            "C8",
        )
    return out


def _owner_ranges(s: np.void, n: int) -> list[str]:
    """Who bought each card and holds each noble, and the payment's fields (C9, C12)."""
    r = range_problems
    out: list[str] = []
    out += r(
        "purchased_by", s["purchased_by"], 0, n - 1, "a card's buyer is a seat", "C9", also=(-1,)
    )
    out += r(
        "noble_owner", s["noble_owner"], 0, n - 1, "a noble's owner is a seat", "C12", also=(-1,)
    )
    out += r(
        "pay_card", s["pay_card"], 0, NUM_CARDS - 1, "the card being paid for is", "C9", also=(-1,)
    )
    out += r(
        "pay_src",
        s["pay_src"],
        0,
        NUM_PAY_SOURCES - 1,
        "the payment's source (0-11 face-up, 12-14 own reserved) is",
        "C9",
    )
    out += r("pay_need", s["pay_need"], 0, _MAX_COST, "a count of tokens still owed is", "C9")
    out += r("pay_gold", s["pay_gold"], 0, rules.GOLD_TOKENS, "the gold committed is", "C9")
    return out


# --------------------------------------------------------------------------- tokens


def _tokens(s: np.void, n: int) -> list[str]:
    """C1 conservation, C11 limit and the return phase."""
    out: list[str] = []
    gems = GEMS_BY_PLAYERS[n]
    totals = s["supply"].astype(int) + s["tokens"][:n].astype(int).sum(axis=0)
    for c in range(NUM_GEMS + 1):
        want = rules.GOLD_TOKENS if c == GOLD else gems
        if totals[c] != want:
            out.append(
                f"{TOKEN_LETTERS[c]} tokens: {totals[c]} in play (supply and seats), "
                f"expected {want} (C1)"
            )
    phase, cur = int(s["phase"]), int(s["current"])
    for p in range(n):
        held = int(s["tokens"][p].astype(int).sum())
        returning = p == cur and phase == rules.PH_RETURN
        if held > rules.TOKEN_LIMIT and not returning:
            out.append(f"seat {p} holds {held} tokens (limit 10, C11)")
        if returning and not rules.TOKEN_LIMIT < held <= MAX_HELD_AFTER_TAKE:
            out.append(
                f"phase={phase} (return tokens) but seat {p} holds {held} tokens: tokens are "
                f"returned only above 10, and a turn ends with at most {MAX_HELD_AFTER_TAKE} "
                "before returning (C6, C11)"
            )
    return out


# --------------------------------------------------------------------------- cards


def _cards(s: np.void, n: int) -> list[str]:
    """C2: each card in exactly one place; C10: an empty face-up slot only with an empty
    deck; reserved levels; bonuses and points from the cards bought and nobles."""
    out: list[str] = []
    dl = s["deck_len"].astype(np.int64)
    faceup = s["faceup"]
    for lvl, k in np.argwhere((faceup < 0) & (dl[:, None] > 0)):
        out.append(
            f"faceup[{lvl}][{k}] is empty while the level {lvl + 1} deck holds {dl[lvl]} "
            "cards: a slot is refilled at once (C10)"
        )
    reserved = s["reserved"][:n]
    held = reserved >= 0  # the range check made these exactly the slots below num_reserved
    wrong = held & (s["reserved_level"][:n] != CARD_LEVEL[np.where(held, reserved, 0)] + 1)
    for p, k in np.argwhere(wrong):
        cid = int(reserved[p, k])
        out.append(
            f"reserved_level[{p}][{k}]={int(s['reserved_level'][p, k])}: seat {p}'s "
            f"reserved card {cid} is level {int(CARD_LEVEL[cid]) + 1} (C8)"
        )
    placed = np.concatenate((s["decks"].ravel(), faceup.ravel(), reserved.ravel())).astype(np.int64)
    where = np.bincount(placed[placed >= 0], minlength=NUM_CARDS)
    pb = s["purchased_by"].astype(np.int64)
    bought = pb >= 0
    where += bought
    for misplaced in np.flatnonzero(where != 1):
        out.append(
            f"card {int(misplaced)} is in {int(where[misplaced])} places (expected exactly 1, C2)"
        )
    bonus = np.zeros((MAX_PLAYERS, NUM_GEMS), dtype=np.int64)
    np.add.at(bonus, (pb[bought], CARD_BONUS[bought]), 1)
    owner = s["noble_owner"].astype(np.int64)
    pts = np.zeros(MAX_PLAYERS, dtype=np.int64)
    np.add.at(pts, pb[bought], CARD_POINTS[bought].astype(np.int64))
    np.add.at(pts, owner[owner >= 0], NOBLE_POINTS[owner >= 0].astype(np.int64))
    for p in range(n):
        if (bonus[p] != s["bonuses"][p]).any():
            out.append(
                f"bonuses[{p}]={[int(x) for x in s['bonuses'][p]]}: seat {p} bonuses do not "
                f"match the cards bought, {bonus[p].tolist()} (C9)"
            )
        if int(pts[p]) != int(s["points"][p]):
            out.append(
                f"points[{p}]={int(s['points'][p])}: seat {p} has {int(s['points'][p])} points, "
                f"its cards and nobles give {int(pts[p])} (C9, C12)"
            )
    return out


# --------------------------------------------------------------------------- nobles


def _nobles(s: np.void, n: int) -> list[str]:
    """C3: n + 1 nobles, each shown once or owned; C12: an owner meets the requirement."""
    out: list[str] = []
    shown = [int(x) for x in s["nobles"] if x >= 0]
    owned = [int(x) for x in np.flatnonzero(s["noble_owner"] >= 0)]
    if len(set(shown)) != len(shown):
        out.append(f"nobles={[int(x) for x in s['nobles']]}: a noble is shown twice (C3)")
    both = sorted(set(shown) & set(owned))
    if both:
        out.append(f"noble {both[0]} is both shown and owned (noble_owner[{both[0]}]) (C3, C12)")
    if len(shown) + len(owned) != n + 1:
        out.append(f"{len(shown) + len(owned)} nobles in play, expected {n + 1} (C3)")
    for nid in owned:
        p = int(s["noble_owner"][nid])
        if (s["bonuses"][p] < NOBLE_REQ[nid]).any():
            out.append(
                f"noble_owner[{nid}]={p}: seat {p}'s bonuses do not meet noble {nid}'s "
                "requirement (C12)"
            )
    return out


# --------------------------------------------------------------------------- phases


def _qualifying_nobles(s: np.void, p: int) -> int:
    return sum(
        1 for nid in s["nobles"] if nid >= 0 and bool((s["bonuses"][p] >= NOBLE_REQ[nid]).all())
    )


def _phase(s: np.void, n: int) -> list[str]:
    """Phase, seat to play, end of game, run of passes and the decision each phase owes."""
    out: list[str] = []
    phase, cur, end = int(s["phase"]), int(s["current"]), int(s["end_reason"])
    streak = int(s["pass_streak"])
    name = f"phase={phase} ({PHASES[phase]})"
    if phase == rules.PH_OVER:
        if cur != -1:
            out.append(
                f"current={cur} but {name}: a finished game has no current player (C14, C17)"
            )
        if end == rules.END_NONE:
            out.append(
                f"end_reason=0 but {name}: a game ends on points (1) or stalled (2) (C14, C17)"
            )
        elif end == rules.END_STALL and streak != n:
            out.append(
                f"end_reason=2 (stall) but pass_streak={streak}: a stalled game ends when all "
                f"{n} seats passed in a row (C17)"
            )
        elif end == rules.END_POINTS:
            if streak >= n:
                out.append(
                    f"end_reason=1 (points) but pass_streak={streak}: after {n} passes in a "
                    "row the game ends stalled (C17)"
                )
            if int(s["points"][:n].max()) < rules.WIN_POINTS:
                out.append("end_reason=1 (points) but no seat has 15 points (C14)")
    else:
        if cur == -1:
            out.append(f"current=-1 but {name}: a game in progress has a seat to play (C5)")
        if end != rules.END_NONE:
            out.append(
                f"end_reason={end} but {name}: end_reason is 0 while the game goes on (C14, C17)"
            )
        top = n if phase == rules.PH_NOBLE else (n - 1 if phase == rules.PH_MAIN else 0)
        if streak > top:
            why = (
                "a payment or token return follows a take, reserve or buy, which ends a run of "
                "passes"
                if top == 0
                else f"after {n} passes in a row the game is over"
            )
            out.append(f"pass_streak={streak} in {name}: at most {top} ({why}) (C17)")
    if phase == rules.PH_PAY:
        if cur >= 0:
            out += _payment(s, cur)
    elif (
        int(s["pay_card"]) != -1
        or int(s["pay_src"]) != 0
        or int(s["pay_gold"]) != 0
        or (s["pay_need"] != 0).any()
    ):
        out.append(
            f"pay_card={int(s['pay_card'])}, pay_src={int(s['pay_src'])}, "
            f"pay_need={[int(x) for x in s['pay_need']]}, pay_gold={int(s['pay_gold'])} in "
            f"{name}: outside a payment they are -1, 0, zeros and 0 (C9)"
        )
    if phase == rules.PH_NOBLE and cur >= 0:
        k = _qualifying_nobles(s, cur)
        if k < 2:
            out.append(
                f"{name} but seat {cur} qualifies for {k} shown noble(s): the choice is asked "
                "only when several qualify (C12)"
            )
    return out


def _payment(s: np.void, p: int) -> list[str]:
    """C9: the payment in progress is for the card at its source, owes what the card costs
    less bonuses and the gold committed, and can still be completed."""
    card, src = int(s["pay_card"]), int(s["pay_src"])
    faceup = NUM_LEVELS * FACEUP_PER_LEVEL
    if src < faceup:
        at = int(s["faceup"][src // FACEUP_PER_LEVEL, src % FACEUP_PER_LEVEL])
        place = f"face-up slot {src // FACEUP_PER_LEVEL + 1}.{src % FACEUP_PER_LEVEL + 1}"
    else:
        k = src - faceup
        at = int(s["reserved"][p, k]) if k < int(s["num_reserved"][p]) else -1
        place = f"seat {p}'s reserved slot {k + 1}"
    if card < 0 or at != card:
        return [
            f"pay_card={card}, pay_src={src}: {place} holds {at if at >= 0 else 'no card'}; "
            "the card being paid for stays at its source until paid (C9)"
        ]
    out: list[str] = []
    owed = np.maximum(CARD_COST[card].astype(int) - s["bonuses"][p].astype(int), 0)
    need = s["pay_need"].astype(int)
    if (need > owed).any():
        out.append(
            f"pay_need={need.tolist()}: more than card {card} costs seat {p} after bonuses, "
            f"{owed.tolist()} (C9)"
        )
    gold = int(s["pay_gold"])
    if int((owed - need).sum()) != gold:
        out.append(
            f"pay_gold={gold}: each gold committed replaces one token owed, so it is "
            f"{int((owed - need).sum())} here (C9)"
        )
    held_gold = int(s["tokens"][p, GOLD])
    if gold > held_gold:
        out.append(f"pay_gold={gold}: seat {p} holds only {held_gold} gold (C9)")
    short = int(np.maximum(need - s["tokens"][p, :NUM_GEMS].astype(int), 0).sum())
    if not out and short > held_gold - gold:
        out.append(
            f"pay_need={need.tolist()}: seat {p} lacks {short} tokens and has "
            f"{held_gold - gold} gold left, so the payment cannot be completed (C9)"
        )
    return out


# --------------------------------------------------------------------------- history


def _history(s: np.void, n: int) -> list[str]:
    """What a real game's history implies (see :func:`check_position`)."""
    out: list[str] = []
    phase, cur, turn = int(s["phase"]), int(s["current"]), int(s["turn"])
    final = int(s["final_round"])
    points = [int(x) for x in s["points"][:n]]
    win = rules.WIN_POINTS
    over = phase == rules.PH_OVER
    if not over and cur != turn % n:
        out.append(
            f"current={cur} but turn={turn}: seat 0 starts and seats play in order, so seat "
            f"{turn % n} is to play (C5)"
        )
    # seats whose score stands as at the end of their last turn, by when they last played
    mid_turn_scorer = cur if phase == rules.PH_NOBLE else -1
    if final == 0:
        high = [p for p in range(n) if points[p] >= win and p != mid_turn_scorer]
        if high:
            out.append(
                f"final_round=0 but seat {high[0]} ended a turn with {points[high[0]]} points: "
                "15 points start the final round (C14)"
            )
    elif not any(x >= win for x in points):
        out.append("final_round=1 but no seat has 15 points (C14)")
    elif not over:
        if cur == 0:
            out.append(
                "final_round=1 with seat 0 to play: the game ends when the round is complete (C14)"
            )
        late = [p for p in range(max(cur, 0), n) if points[p] >= win and p != mid_turn_scorer]
        if late:
            out.append(
                f"seat {late[0]} has {points[late[0]]} points since its turn of an earlier "
                "round: the game should have ended with that round (C14)"
            )
        elif not any(points[p] >= win for p in range(max(cur, 0))):
            out.append(
                "final_round=1 but no seat that played this round has 15 points: the final "
                "round starts when a seat reaches them (C14)"
            )
    if over and int(s["end_reason"]) == rules.END_POINTS:
        if final != 1:
            out.append(f"end_reason=1 (points) but final_round={final} (C14)")
        if turn % n != 0:
            out.append(
                f"end_reason=1 (points) but turn={turn}: a game ends on points after the last "
                "seat's turn, so turn is a multiple of the player count (C14)"
            )
    if int(s["pass_streak"]) > 0 and (s["supply"][:NUM_GEMS] > 0).any():
        out.append(
            f"pass_streak={int(s['pass_streak'])} but the supply holds gem tokens: a seat "
            "passes only when it can take no token (C17)"
        )
    return out


__all__ = [
    "GEMS_BY_PLAYERS",
    "MAX_PLAYERS",
    "MAX_TURN",
    "MIN_PLAYERS",
    "PHASES",
    "check_invariants",
    "check_position",
]
