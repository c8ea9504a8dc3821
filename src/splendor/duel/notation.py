"""Position text of Splendor Duel (a FEN for the duel) and the position builder.

One line holds a whole position: the token board, the pyramid, deck order, each seat's
tokens, privileges, reserved and bought cards (a joker with the colour it is attached
to) and royal cards, whose turn and which decision is owed, and the generator (which
also fixes the bag's draws, D22). Whatever follows from those is computed on reading,
never written: the bag (D1), the privileges beside the board (D5), deck lengths, bonuses,
prestige points, crowns and colour points (D10, D14, D19, D21), the crown thresholds
claimed (unless they differ, D19), the effects still due from the card being resolved
(D13-D17), why a finished game ended (D21, D25), and the payment's card and gold (D10).

:func:`state_from_text`, :func:`observation_from_text` and :func:`to_text` back
``State.from_text``, ``Observation.from_text`` and their ``to_text``; the full grammar is
in ``docs/notation.md``. :func:`build_position` makes a position from Python values (the
same fields), dealing what is left unsaid. Every position, read or built, passes the gate
of :meth:`State.from_dict` (:func:`~splendor.duel.position.position_problems`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import notation as nt
from ..colors import DUEL_TOKEN_LETTERS, GEM_LETTERS, NUM_GEMS
from ..core import seed_rng
from . import rules
from .board import BAG_START, NUM_CELLS, SIZE, SPIRAL
from .cards import (
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
    LEVEL_START,
    MAX_RESERVED,
    NUM_CARDS,
    NUM_LEVELS,
    NUM_PYRAMID,
    NUM_ROYALS,
    PYRAMID_SIZES,
    PYRAMID_START,
    ROYAL_POINTS,
)
from .position import position_problems
from .state import STATE_DTYPE, Observation, State

GAME_NAMES = ("duel", "splendor-duel")
"""The first word of a duel position text (the first one is written)."""
KEYS = (
    "observer",
    "turn",
    "cap",
    "current",
    "phase",
    "again",
    "replenished",
    "winner",
    "board",
    "pyramid",
    "decks",
    "deck_sizes",
    "tokens",
    "privileges",
    "reserved",
    "purchased",
    "royals",
    "claims",
    "resolving",
    "payment",
    "rng",
)
"""The fields of a duel position text, in the order they are written."""
PHASE_WORDS = ("main", "reserve", "payment", "joker", "token", "steal", "royal", "return", "over")
"""The ``phase=`` word of each phase (``rules.PH_*`` order)."""
LABEL = "Splendor Duel"
NUM_PLAYERS = 2
EMPTY_CELL = "."
"""An empty cell of the board."""
_FIRST_RESERVED = NUM_PYRAMID
_RESOLVING = (rules.PH_TOKEN, rules.PH_STEAL, rules.PH_ROYAL)
_PAY_LETTERS = DUEL_TOKEN_LETTERS[:-1]  # W U G R K P: what a gold may stand in for (D10)
_DEFAULT_SEED = 0
_LEVELS = tuple(int(x) + 1 for x in CARD_LEVEL)
_PEND_OF = (
    (AB_JOKER, rules.PEND_JOKER),
    (AB_TOKEN, rules.PEND_TOKEN),
    (AB_STEAL, rules.PEND_STEAL),
)


def _thresholds(crowns: int) -> int:
    """Crown thresholds (3 and 6) reached with ``crowns`` crowns (D19)."""
    return int(crowns >= 3) + int(crowns >= 6)


@dataclass
class _Spec:
    """A duel position as the text says it: what is where, nothing derived."""

    turn: int
    cap: int
    current: int
    phase: int
    again: int
    replenished: int
    winner: int
    board: list[int]  # colour per cell, -1 empty
    pyramid: list[int]
    decks: list[list[int]] | None  # top card first; None in an observation
    deck_sizes: list[int]
    tokens: list[list[int]]
    privileges: list[int]
    reserved: list[list[tuple[int, int, bool]]]
    purchased: list[list[tuple[int, int]]]  # (card, joker colour or -1; -2 not a joker)
    royals: list[list[int]]  # royal ids (0-based)
    claims: list[int] | None
    resolving: int
    payment: tuple[int, list[int]] | None
    rng: int
    observer: int = -1


# --------------------------------------------------------------------------- writing


def to_text(a: np.ndarray) -> str:
    """The position text of a duel state or observation array (shape (1,),
    ``STATE_DTYPE``).

    Exact for every sound position: :func:`state_from_text` (or, for an observation,
    :func:`observation_from_text`) gives back an equal array.
    """
    s = a[0]
    observer = int(s["observer"])
    phase = int(s["phase"])
    out = [GAME_NAMES[0]]
    if observer >= 0:
        out.append(f"observer={observer}")
    out.append(f"turn={int(s['turn'])}")
    if int(s["turn_cap"]):
        out.append(f"cap={int(s['turn_cap'])}")
    if phase != rules.PH_OVER:
        out.append(f"current={int(s['current'])}")
    out.append(f"phase={PHASE_WORDS[phase]}")
    for key in ("again", "replenished"):
        if int(s[key]):
            out.append(f"{key}={int(s[key])}")
    if phase == rules.PH_OVER and int(s["winner"]) >= 0:
        out.append(f"winner={int(s['winner'])}")
    cells = "".join(EMPTY_CELL if c < 0 else DUEL_TOKEN_LETTERS[c] for c in s["board"])
    out.append("board=" + "/".join(cells[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)))
    pyr = [int(c) for c in s["pyramid"]]
    out.append(
        "pyramid="
        + "/".join(
            nt.format_slots(pyr[PYRAMID_START[lvl] : PYRAMID_START[lvl] + PYRAMID_SIZES[lvl]])
            for lvl in range(NUM_LEVELS)
        )
    )
    dl = [int(x) for x in s["deck_len"]]
    if observer >= 0:
        out.append("deck_sizes=" + "/".join(str(x) for x in dl))
    else:
        out.append(
            "decks="
            + "/".join(
                nt.join_items(str(int(c)) for c in s["decks"][lvl, : dl[lvl]][::-1])
                for lvl in range(NUM_LEVELS)
            )
        )
    seats = range(NUM_PLAYERS)
    per_seat = {
        "tokens": [
            nt.format_counts([int(x) for x in s["tokens"][p]], DUEL_TOKEN_LETTERS) for p in seats
        ],
        "privileges": [str(int(s["privileges"][p])) for p in seats],
        "reserved": [
            nt.join_items(
                nt.format_reserved(
                    int(s["reserved"][p, k]),
                    int(s["reserved_level"][p, k]),
                    bool(s["reserved_blind"][p, k]),
                )
                for k in range(int(s["num_reserved"][p]))
            )
            for p in seats
        ],
        "purchased": [
            nt.join_items(_format_bought(int(c), int(s["card_color"][c])) for c in _owned(s, p))
            for p in seats
        ],
        "royals": [
            nt.join_items(str(int(k) + 1) for k in np.flatnonzero(s["royal_owner"] == p))
            for p in seats
        ],
    }
    for key, groups in per_seat.items():
        if any(g != (nt.EMPTY if key != "privileges" else "0") for g in groups):
            out.append(f"{key}=" + "/".join(groups))
    claims = [int(x) for x in s["crown_claims"]]
    if claims != [_thresholds(int(x)) for x in s["crowns"]]:
        out.append("claims=" + "/".join(str(x) for x in claims))
    if phase in _RESOLVING:
        out.append(f"resolving={int(s['pend_card'])}")
    if phase == rules.PH_PAY:
        out.append("payment=" + _format_payment(s))
    if observer < 0:
        out.append("rng=" + nt.format_rng(int(s["rng"][0])))
    return " ".join(out)


def _owned(s: np.void, p: int) -> list[int]:
    return [int(c) for c in np.flatnonzero(s["card_owner"] == p)]


def _format_bought(card: int, color: int) -> str:
    """``12``, or for a joker the colour it is attached to, ``40U`` (D14)."""
    if int(CARD_COLOR[card]) == COLOR_JOKER and color >= 0:
        return f"{card}{GEM_LETTERS[color]}"
    return str(card)


def _owed(s: np.void, p: int, card: int) -> np.ndarray:
    """What ``card`` costs seat ``p`` (W U G R K pearl): bonuses reduce gems only (D10)."""
    owed: np.ndarray = CARD_COST[card].astype(int)
    owed[:NUM_GEMS] = np.maximum(owed[:NUM_GEMS] - s["bonuses"][p].astype(int), 0)
    return owed


def _format_payment(s: np.void) -> str:
    """``2.3`` or ``r1``, then ``:`` and the gold committed per colour when there is some."""
    src = nt.format_source(int(s["pay_src"]), PYRAMID_START, _FIRST_RESERVED)
    committed = _owed(s, int(s["current"]), int(s["pay_card"])) - s["pay_need"].astype(int)
    counts = [int(x) for x in committed]
    return src + (":" + nt.format_counts(counts, _PAY_LETTERS) if any(counts) else "")


# --------------------------------------------------------------------------- reading


def state_from_text(text: str) -> State:
    """Read a full duel position written by :func:`to_text`.

    Raises:
        NotationError: text that cannot be read (the message names the field and says
            what is allowed), or an observation's text.
        ValueError: an impossible position, from the gate of :meth:`State.from_dict`
            (``corrupt position: …``, naming the field and the rule).
    """
    fields = _fields(text)
    if "observer" in fields:
        raise nt.fail(
            "observer",
            "this is an observation (one seat's view); read it with Observation.from_text",
        )
    arr = _assemble(_spec_from_fields(fields, observer=-1))
    _gate(arr)
    return State(arr)


def observation_from_text(text: str) -> Observation:
    """Read a duel observation written by :func:`to_text` (``observer=`` names its seat).

    It must hide what its seat cannot see (D22): no deck order (``deck_sizes=``), no
    generator, and the opponent's blind reserves as ``?level`` (unless the opponent is
    paying for one now); and some full position consistent with it must pass the gate of
    :meth:`State.from_dict`.

    Raises:
        NotationError: text that cannot be read, or that shows what the seat cannot see.
        ValueError: no sound position has this view (``corrupt position: …``).
    """
    fields = _fields(text)
    observer = nt.parse_int(
        nt.require(fields, "observer", "the seat whose view this is"),
        "observer",
        0,
        1,
        "the observer is a seat,",
    )
    for key, why in (("decks", "deck_sizes= (deck order is hidden, D22)"), ("rng", "no rng")):
        if key in fields:
            raise nt.fail(key, f"an observation gives {why}")
    arr = _assemble(_spec_from_fields(fields, observer=observer))
    _gate_observation(arr)
    return Observation(arr)


def _fields(text: str) -> dict[str, str]:
    return nt.split_fields(text, GAME_NAMES, KEYS, LABEL)[1]


def _flag(fields: dict[str, str], key: str, rule: str) -> int:
    if key not in fields:
        return 0
    return nt.parse_int(fields[key], key, 0, 1, f"{key} ({rule}) is")


def _spec_from_fields(fields: dict[str, str], observer: int) -> _Spec:
    """Everything the text says, read field by field (the derived fields are not there)."""
    if observer < 0 and "deck_sizes" in fields:
        raise nt.fail("deck_sizes", "a full position lists its decks (decks=), top card first")
    phase = nt.require(fields, "phase", ", ".join(PHASE_WORDS))
    if "current" in fields:
        current = nt.parse_int(fields["current"], "current", 0, 1, "the seat to play is")
    elif phase == "over":
        current = -1
    else:
        raise nt.fail("current", "missing (the seat to play, 0 or 1)")
    return _spec(
        turn=nt.parse_int(nt.require(fields, "turn"), "turn", -(2**31), 2**31 - 1, "the turn is"),
        cap=nt.parse_int(fields.get("cap", "0"), "cap", 0, 2**31 - 1, "the turn cap (D25) is"),
        current=current,
        phase=phase,
        again=_flag(fields, "again", "D13"),
        replenished=_flag(fields, "replenished", "D7"),
        winner=(
            nt.parse_int(fields["winner"], "winner", 0, 1, "the winner (D21) is seat")
            if "winner" in fields
            else -1
        ),
        board=nt.require(fields, "board", "5 rows of 5 cells"),
        pyramid=nt.require(fields, "pyramid", "3 levels of 5, 4 and 3 slots"),
        decks=None if observer >= 0 else nt.require(fields, "decks", "top card first"),
        deck_sizes=nt.require(fields, "deck_sizes") if observer >= 0 else None,
        tokens=fields.get("tokens"),
        privileges=fields.get("privileges"),
        reserved=fields.get("reserved"),
        purchased=fields.get("purchased"),
        royals=fields.get("royals"),
        claims=fields.get("claims"),
        resolving=(
            nt.parse_id(fields["resolving"], "resolving", NUM_CARDS, "a card id")
            if "resolving" in fields
            else None
        ),
        payment=fields.get("payment"),
        rng=nt.parse_rng(fields["rng"]) if "rng" in fields else None,
        seed=_DEFAULT_SEED,
        observer=observer,
        deal=False,
    )


# --------------------------------------------------------------------------- building


def build_position(
    *,
    turn: int = 0,
    turn_cap: int | None = None,
    current: int | None = None,
    phase: str = "main",
    again: bool = False,
    replenished: bool = False,
    winner: int | None = None,
    board: object = None,
    pyramid: object = None,
    decks: object = None,
    tokens: object = None,
    privileges: object = None,
    reserved: object = None,
    purchased: object = None,
    royals: object = None,
    claims: object = None,
    resolving: int | None = None,
    payment: str | None = None,
    rng: int | None = None,
    seed: int = _DEFAULT_SEED,
) -> State:
    """Make a Splendor Duel position by saying what is where; every derived field (bag,
    deck lengths, bonuses, points, crowns, colour points, pending effects, end reason, the
    payment's card and gold) is computed, and the result passes the gate of
    :meth:`State.from_dict`.

    Each argument takes a Python value or the text of the same field of the notation
    (``docs/notation.md``). Per-seat arguments take a list (seat 0 first), a dict by seat
    or a text with one ``/``-separated group per seat.

    Args:
        turn: completed turns (extra turns included).
        turn_cap: the host's turn cap (D25), ``None`` for none.
        current: the seat to play; default 0 (none once the game is over).
        phase: ``main``, ``reserve``, ``payment``, ``joker``, ``token``, ``steal``,
            ``royal``, ``return`` or ``over``.
        again: the current seat plays another turn after this one (D13).
        replenished: the board was replenished this turn (D7).
        winner: the winning seat of a finished game (D21); ``None`` for a game ended by
            the turn cap (D25) or in progress.
        board: 25 cells, row 1 first (``"WUG.K/…"`` or colour indices 0..6, ``None`` for
            empty). Default: the tokens no seat holds, spread in spiral order (D2) in an
            order shuffled with ``seed``; the bag holds what the board and seats do not.
        pyramid: 3 rows of 5, 4 and 3 card ids (``None`` empty). Default: dealt.
        decks: per level the card ids from the top down. Default: the cards no other
            argument places, shuffled with ``seed``.
        tokens: per seat, ``"2W1P1*"`` or 7 counts (W U G R K pearl gold).
        privileges: per seat, privileges held (D5); the rest lie beside the board.
        reserved: per seat, card ids in slot order; ``"!52"`` marks a blind reserve (D9).
        purchased: per seat, bought card ids; a joker with its colour, ``"40U"`` (D14).
        royals: per seat, the royal cards held, numbered 1-4 as in ``royal 2`` (D19).
        claims: per seat, crown thresholds (3, 6) claimed; default: those reached (D19).
        resolving: in phase ``token``, ``steal`` or ``royal``, the card just bought whose
            effects are resolving (in phase ``joker`` it is the unattached joker).
        payment: in phase ``payment``, ``"2.3"`` or ``"r1"``, then optionally ``":1W"``
            (1 gold committed in place of a W token) (D10).
        rng: the generator's state (64 bits); default: seeded with ``seed``.
        seed: the shuffle of what is dealt by default, and the generator's default seed.

    Returns:
        The position as a :class:`State`.

    Raises:
        NotationError: a value that cannot be read (the message names the argument).
        ValueError: an impossible position (``corrupt position: …``, naming the field and
            the rule), or ``seed`` out of range.

    Example::

        >>> from splendor.duel import build_position
        >>> st = build_position(tokens=["2W1P", "-"], purchased=[[0], []], privileges=[0, 1])
        >>> st.bag, st.free_privileges
        ((0, 0, 0, 0, 0, 0, 0), 2)
    """
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise ValueError(f"seed must be an integer 0 <= seed < 2**63, got {seed!r}")
    over = phase == "over"
    spec = _spec(
        turn=nt.int_arg(turn, "turn"),
        cap=0 if turn_cap is None else nt.int_arg(turn_cap, "turn_cap"),
        current=(-1 if over else 0) if current is None else nt.int_arg(current, "current"),
        phase=phase,
        again=int(bool(again)),
        replenished=int(bool(replenished)),
        winner=-1 if winner is None else nt.int_arg(winner, "winner"),
        board=board,
        pyramid=pyramid,
        decks=decks,
        deck_sizes=None,
        tokens=tokens,
        privileges=privileges,
        reserved=reserved,
        purchased=purchased,
        royals=royals,
        claims=claims,
        resolving=None if resolving is None else nt.int_arg(resolving, "resolving"),
        payment=payment,
        rng=rng,
        seed=seed,
        observer=-1,
        deal=True,
    )
    arr = _assemble(spec)
    _gate(arr)
    return State(arr)


def _spec(
    *,
    turn: int,
    cap: int,
    current: int,
    phase: object,
    again: int,
    replenished: int,
    winner: int,
    board: object,
    pyramid: object,
    decks: object,
    deck_sizes: object,
    tokens: object,
    privileges: object,
    reserved: object,
    purchased: object,
    royals: object,
    claims: object,
    resolving: int | None,
    payment: object,
    rng: int | None,
    seed: int,
    observer: int,
    deal: bool,
) -> _Spec:
    """Read every field (text or Python values) into a :class:`_Spec`; with ``deal``, the
    board, pyramid and decks left unsaid are dealt with ``seed``."""
    if not isinstance(phase, str):
        raise nt.fail("phase", f"one of {', '.join(PHASE_WORDS)}")
    ph = nt.parse_choice(phase, "phase", PHASE_WORDS)
    if not -1 <= current <= 1 or (current == -1 and ph != rules.PH_OVER):
        raise nt.fail("current", f"{current}: the seat to play is 0 or 1")
    if cap < 0:
        raise nt.fail("cap", f"{cap}: the turn cap (D25) is a positive number of turns")
    if not -1 <= winner <= 1:
        raise nt.fail("winner", f"{winner}: the winner (D21) is seat 0 or 1")
    n = NUM_PLAYERS
    toks = nt.per_seat(
        tokens, "tokens", n, lambda v, f: nt.counts_of(v, f, DUEL_TOKEN_LETTERS, BAG_START, "D1")
    )
    privs = nt.per_seat(privileges, "privileges", n, _privileges_of)
    res = nt.per_seat(reserved, "reserved", n, _reserved_of)
    bought = nt.per_seat(purchased, "purchased", n, _bought_of)
    held_royals = nt.per_seat(royals, "royals", n, _royals_of)
    claimed = None if claims is None else nt.per_seat(claims, "claims", n, _claims_of)
    rnd = np.random.default_rng(seed)

    placed: set[int] = {c for seat in bought for c, _ in seat}
    placed |= {c for seat in res for c, _, _ in seat if c >= 0}
    slots: list[int] | None = None
    if pyramid is not None:
        rows = nt.parse_groups(pyramid, "pyramid", NUM_LEVELS, "one per level, 5, 4 and 3 slots")
        slots = []
        for lvl, row in enumerate(rows):
            slots += nt.parse_slots(
                row, "pyramid", PYRAMID_SIZES[lvl], NUM_CARDS, "a card id or - (empty)", pad=True
            )
        placed |= {c for c in slots if c >= 0}
    deck_lists: list[list[int]] | None = None
    if decks is not None:
        deck_lists = [
            [nt.parse_id(x, "decks", NUM_CARDS, "a card id") for x in nt.items_of(g, "decks")]
            for g in nt.parse_groups(decks, "decks", NUM_LEVELS, "one per level, top card first")
        ]
        placed |= {c for deck in deck_lists for c in deck}
    if deal:
        left = [
            [
                c
                for c in range(int(LEVEL_START[lvl]), int(LEVEL_START[lvl] + LEVEL_SIZE[lvl]))
                if c not in placed
            ]
            for lvl in range(NUM_LEVELS)
        ]
        for pile in left:
            rnd.shuffle(pile)
        if slots is None:
            slots = [
                left[lvl].pop() if left[lvl] else -1
                for lvl in range(NUM_LEVELS)
                for _ in range(PYRAMID_SIZES[lvl])
            ]
        if deck_lists is None:
            deck_lists = left
    if slots is None:
        raise nt.fail("pyramid", "missing (3 levels of 5, 4 and 3 slots)")
    if observer >= 0:
        sizes = [
            nt.parse_int(
                g, "deck_sizes", 0, int(LEVEL_SIZE[lvl]), f"the level-{lvl + 1} deck holds"
            )
            for lvl, g in enumerate(
                nt.split_groups(str(deck_sizes), "deck_sizes", NUM_LEVELS, "one per level")
            )
        ]
    else:
        if deck_lists is None:
            raise nt.fail("decks", "missing (top card first)")
        sizes = [len(d) for d in deck_lists]
    if board is None and deal:
        free = [BAG_START[c] - sum(t[c] for t in toks) for c in range(len(BAG_START))]
        held = [b - f for b, f in zip(BAG_START, free, strict=True)]
        nt.count_problem("tokens", held, BAG_START, DUEL_TOKEN_LETTERS, "D1")
        pool = [c for c, k in enumerate(free) for _ in range(k)]
        rnd.shuffle(pool)
        cells = [-1] * NUM_CELLS
        for i, c in enumerate(pool):
            cells[int(SPIRAL[i])] = c
    else:
        cells = _board_of(board)
    pay = None
    if payment is not None:
        if not isinstance(payment, str):
            raise nt.fail("payment", f"a text like 2.3 or r1:1W, got {payment!r}")
        where, _, gold = payment.partition(":")
        src = nt.parse_source(where, "payment", PYRAMID_START, PYRAMID_SIZES, MAX_RESERVED)
        pay = (src, nt.parse_counts(gold or nt.EMPTY, "payment", _PAY_LETTERS, [99] * 6, "D10"))
    return _Spec(
        turn=turn,
        cap=cap,
        current=current,
        phase=ph,
        again=again,
        replenished=replenished,
        winner=winner,
        board=cells,
        pyramid=slots,
        decks=None if observer >= 0 else deck_lists,
        deck_sizes=sizes,
        tokens=toks,
        privileges=privs,
        reserved=res,
        purchased=bought,
        royals=held_royals,
        claims=claimed,
        resolving=-1 if resolving is None else resolving,
        payment=pay,
        rng=nt.rng_value(rng, seed),
        observer=observer,
    )


def _board_of(value: object) -> list[int]:
    """25 cells from ``"WUG.K/…"`` (5 rows of 5, row 1 first) or 25 colours/``None``."""
    if isinstance(value, str):
        rows = nt.split_groups(value, "board", SIZE, "5 rows, row 1 (a1-e1) first")
        cells: list[int] = []
        for r, row in enumerate(rows):
            if len(row) != SIZE:
                raise nt.fail("board", f"row {r + 1} {row[:20]!r}: 5 cells, one letter each")
            for ch in row:
                if ch == EMPTY_CELL:
                    cells.append(-1)
                elif ch.upper() in DUEL_TOKEN_LETTERS:
                    cells.append(DUEL_TOKEN_LETTERS.index(ch.upper()))
                else:
                    raise nt.fail(
                        "board",
                        f"{ch!r} in row {r + 1}: a cell is a token letter "
                        f"({DUEL_TOKEN_LETTERS}) or . (empty)",
                    )
        return cells
    if value is None or isinstance(value, (bytes, dict)) or not hasattr(value, "__len__"):
        raise nt.fail("board", "5 rows of 5 cells, like WUG.K/…, or 25 colours")
    items = list(value)  # type: ignore[call-overload]
    if len(items) != NUM_CELLS:
        raise nt.fail("board", f"25 cells, got {len(items)}")
    out = []
    for x in items:
        if x is None:
            out.append(-1)
        elif not isinstance(x, bool) and isinstance(x, (int, np.integer)) and -1 <= x <= 6:
            out.append(int(x))
        else:
            raise nt.fail("board", f"{x!r}: a cell is a colour 0..6 or None (empty)")
    return out


def _privileges_of(value: object, field: str) -> int:
    if value is None:
        return 0
    if isinstance(value, str):
        return nt.parse_int(value, field, 0, rules.NUM_PRIVILEGES, "privileges held (D5) are")
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise nt.fail(field, f"a number of privileges, got {value!r}")
    if not 0 <= value <= rules.NUM_PRIVILEGES:
        raise nt.fail(field, f"{value}: privileges held (D5) are 0..3")
    return int(value)


def _claims_of(value: object, field: str) -> int:
    if value is None:
        return 0
    if isinstance(value, str):
        return nt.parse_int(value, field, 0, 2, "crown thresholds claimed (D19) are")
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value <= 2:
        raise nt.fail(field, f"{value!r}: crown thresholds claimed (D19) are 0..2")
    return int(value)


def _reserved_of(value: object, field: str) -> list[tuple[int, int, bool]]:
    items = nt.items_of(value, field)
    if len(items) > MAX_RESERVED:
        raise nt.fail(field, f"{len(items)} reserved cards, at most {MAX_RESERVED} (D9)")
    return [nt.parse_reserved(item, field, NUM_CARDS) for item in items]


def _bought_of(value: object, field: str) -> list[tuple[int, int]]:
    """Bought cards: ``12``, or a joker with its colour ``40U``; (card, colour), the colour
    -1 for an unattached joker and -2 for any other card."""
    out = []
    for item in nt.items_of(value, field):
        letter = item[-1].upper() if item[-1:].isalpha() else ""
        card = nt.parse_id(item[:-1] if letter else item, field, NUM_CARDS, "a card id")
        joker = int(CARD_COLOR[card]) == COLOR_JOKER
        if letter and not joker:
            raise nt.fail(
                field, f"{item!r}: card {card} is not a joker; only a joker's colour is written"
            )
        if letter and letter not in GEM_LETTERS:
            raise nt.fail(field, f"{item!r}: a joker takes a gem colour ({GEM_LETTERS}) (D14)")
        out.append((card, GEM_LETTERS.index(letter) if letter else (-1 if joker else -2)))
    return out


def _royals_of(value: object, field: str) -> list[int]:
    """Royal cards by number 1-4 (as in ``royal 2``), returned as ids 0-3."""
    out = []
    for item in nt.items_of(value, field):
        k = nt.parse_id(item, field, NUM_ROYALS + 1, "a royal card number")
        if k == 0:
            raise nt.fail(field, "royal cards are numbered 1-4 (as in 'royal 2')")
        out.append(k - 1)
    return out


# --------------------------------------------------------------------------- assembling


def _assemble(spec: _Spec) -> np.ndarray:
    """The state array of ``spec``, with every derived field computed. Refuses (with a
    :class:`NotationError`) what the array cannot hold or the text cannot mean; the gate
    judges the rest."""
    a = np.zeros(1, dtype=STATE_DTYPE)
    s = a[0]
    s["observer"] = spec.observer
    s["turn"] = spec.turn
    s["turn_cap"] = spec.cap
    s["current"] = spec.current
    s["phase"] = spec.phase
    s["again"] = spec.again
    s["replenished"] = spec.replenished
    s["winner"] = spec.winner
    s["board"] = spec.board
    for k, c in enumerate(spec.pyramid):
        lvl = next(i for i in reversed(range(NUM_LEVELS)) if PYRAMID_START[i] <= k)
        if c >= 0 and int(CARD_LEVEL[c]) != lvl:
            raise nt.fail(
                "pyramid",
                f"card {c} is level {int(CARD_LEVEL[c]) + 1}, in the level-{lvl + 1} row (D3)",
            )
        s["pyramid"][k] = c
    s["decks"][:] = -1
    for lvl in range(NUM_LEVELS):
        size = spec.deck_sizes[lvl]
        if size > int(LEVEL_SIZE[lvl]):
            raise nt.fail(
                "decks", f"{size} cards in the level-{lvl + 1} deck, at most {LEVEL_SIZE[lvl]} (D3)"
            )
        s["deck_len"][lvl] = size
        if spec.decks is not None:
            for c in spec.decks[lvl]:
                if int(CARD_LEVEL[c]) != lvl:
                    raise nt.fail(
                        "decks",
                        f"card {c} is level {int(CARD_LEVEL[c]) + 1}, in the level-{lvl + 1} "
                        "deck (D3)",
                    )
            s["decks"][lvl, :size] = spec.decks[lvl][::-1]
    on_board = [spec.board.count(c) for c in range(len(BAG_START))]
    held = [on_board[c] + sum(t[c] for t in spec.tokens) for c in range(len(BAG_START))]
    nt.count_problem("board/tokens", held, BAG_START, DUEL_TOKEN_LETTERS, "D1")
    for p in range(NUM_PLAYERS):
        s["tokens"][p] = spec.tokens[p]
    s["bag"] = [BAG_START[c] - held[c] for c in range(len(BAG_START))]
    if sum(spec.privileges) > rules.NUM_PRIVILEGES:
        raise nt.fail("privileges", f"{spec.privileges}: 3 privileges in all (D5)")
    s["privileges"] = spec.privileges
    s["reserved"][:] = -1
    for p, cards in enumerate(spec.reserved):
        for k, (c, level, blind) in enumerate(cards):
            s["reserved"][p, k] = c
            s["reserved_level"][p, k] = level if c < 0 else int(CARD_LEVEL[c]) + 1
            s["reserved_blind"][p, k] = blind
        s["num_reserved"][p] = len(cards)
    s["card_owner"][:] = -1
    s["card_color"][:] = -1
    for p, bought in enumerate(spec.purchased):
        for c, color in bought:
            if s["card_owner"][c] >= 0:
                raise nt.fail("purchased", f"card {c} is written twice (it has one owner)")
            s["card_owner"][c] = p
            s["card_color"][c] = int(CARD_COLOR[c]) if color == -2 else color
    s["royal_owner"][:] = -1
    for p, ids in enumerate(spec.royals):
        for k in ids:
            if s["royal_owner"][k] >= 0:
                raise nt.fail("royals", f"royal card {k + 1} is written twice (it has one owner)")
            s["royal_owner"][k] = p
    _holdings(s)
    if spec.claims is None:
        s["crown_claims"] = [_thresholds(int(x)) for x in s["crowns"]]
    else:
        s["crown_claims"] = spec.claims
    s["pay_card"] = -1
    s["pend_card"] = -1
    _pending(s, spec)
    _payment(s, spec)
    _hidden(spec)
    if spec.phase == rules.PH_OVER:
        s["end_reason"] = _end_reason(s, spec.winner)
    s["rng"][0] = spec.rng if spec.observer < 0 else 0
    return a


def _holdings(s: np.void) -> None:
    """Bonuses, colour points, points and crowns from the cards and royal cards held
    (D10, D14, D19, D21)."""
    owner = s["card_owner"].astype(np.int64)
    color = s["card_color"].astype(np.int64)
    colored = (owner >= 0) & (color >= 0)
    bonuses = np.zeros((NUM_PLAYERS, NUM_GEMS), dtype=np.int64)
    cpts = np.zeros((NUM_PLAYERS, NUM_GEMS), dtype=np.int64)
    np.add.at(bonuses, (owner[colored], color[colored]), CARD_BONUS_COUNT[colored])
    np.add.at(cpts, (owner[colored], color[colored]), CARD_POINTS[colored])
    owned = owner >= 0
    points = np.zeros(NUM_PLAYERS, dtype=np.int64)
    crowns = np.zeros(NUM_PLAYERS, dtype=np.int64)
    np.add.at(points, owner[owned], CARD_POINTS[owned])
    np.add.at(crowns, owner[owned], CARD_CROWNS[owned])
    royal = s["royal_owner"].astype(np.int64)
    np.add.at(points, royal[royal >= 0], ROYAL_POINTS[royal >= 0])
    s["bonuses"] = bonuses
    s["color_points"] = cpts
    s["points"] = points
    s["crowns"] = crowns


def _pending(s: np.void, spec: _Spec) -> None:
    """The card being resolved and the effects still due from it (D13-D17, D19): in
    phase joker the current seat's unattached joker, in phases token, steal and royal the
    card named by ``resolving=``; joker, token and steal resolve in that order."""
    ph = spec.phase
    if ph == rules.PH_JOKER:
        if spec.resolving >= 0:
            raise nt.fail("resolving", "not in phase joker: the unattached joker is resolving")
        loose = [c for c, color in spec.purchased[spec.current] if color == -1]
        if len(loose) != 1:
            raise nt.fail(
                "purchased",
                f"phase joker: seat {spec.current} has {len(loose)} jokers without a colour; the "
                "joker just bought is written without one, every other with its colour (D14)",
            )
        card = loose[0]
    elif ph in _RESOLVING:
        if spec.resolving < 0:
            raise nt.fail(
                "resolving",
                f"missing: phase {PHASE_WORDS[ph]} names the card just bought (D13-D19)",
            )
        card = spec.resolving
    else:
        if spec.resolving >= 0:
            raise nt.fail("resolving", "only in phases token, steal and royal (D15-D19)")
        return
    due = 0
    for ability, bit in _PEND_OF:
        if int(CARD_ABILITY[card]) & ability:
            due |= bit
    if ph == rules.PH_TOKEN:
        due &= ~rules.PEND_JOKER
    elif ph == rules.PH_STEAL:
        due = rules.PEND_STEAL
    elif ph == rules.PH_ROYAL:
        due = 0
    s["pend_card"] = card
    s["pend"] = due


def _payment(s: np.void, spec: _Spec) -> None:
    """The payment in progress (D10): the card at its source, the tokens still owed (its
    cost less bonuses, less the gold committed) and the gold committed."""
    if spec.payment is None:
        if spec.phase == rules.PH_PAY:
            raise nt.fail(
                "payment", "missing: phase payment names the card paid for (2.3 or r1) (D10)"
            )
        return
    if spec.phase != rules.PH_PAY:
        raise nt.fail("payment", "only in phase payment (D10)")
    src, committed = spec.payment
    p = spec.current
    if src < _FIRST_RESERVED:
        card = int(s["pyramid"][src])
    else:
        k = src - _FIRST_RESERVED
        card = int(s["reserved"][p, k]) if k < int(s["num_reserved"][p]) else -1
    where = nt.format_source(src, PYRAMID_START, _FIRST_RESERVED)
    if card < 0:
        raise nt.fail("payment", f"seat {p} pays for {where}, which holds no card it can see (D10)")
    owed = _owed(s, p, card)
    for c in range(len(_PAY_LETTERS)):
        if committed[c] > owed[c]:
            raise nt.fail(
                "payment",
                f"{committed[c]} gold in place of {_PAY_LETTERS[c]}, but card {card} costs seat "
                f"{p} {owed[c]} {_PAY_LETTERS[c]} after bonuses (D10)",
            )
    s["pay_card"] = card
    s["pay_src"] = src
    s["pay_need"] = owed - np.array(committed)
    s["pay_gold"] = sum(committed)


def _hidden(spec: _Spec) -> None:
    """What a blind reserve shows (D22): every card in a full position; in an observation,
    the opponent's blind reserve only by its level, unless the opponent is paying for it."""
    paying = -1
    if spec.payment is not None and spec.payment[0] >= _FIRST_RESERVED:
        paying = spec.payment[0] - _FIRST_RESERVED
    nt.check_hidden(spec.reserved, _LEVELS, spec.observer, spec.current, paying, "D22")


def _end_reason(s: np.void, winner: int) -> int:
    """Why a finished game ended: the turn cap without a winner (D25), else the first
    victory condition the winner meets, in the order points, crowns, colour (D21)."""
    if winner < 0:
        return rules.END_CAP
    if int(s["points"][winner]) >= rules.WIN_POINTS:
        return rules.END_POINTS
    if int(s["crowns"][winner]) >= rules.WIN_CROWNS:
        return rules.END_CROWNS
    if int(s["color_points"][winner].max()) >= rules.WIN_COLOR_POINTS:
        return rules.END_COLOR
    raise nt.fail(
        "winner",
        f"seat {winner} meets no victory condition: 20 prestige points, 10 crowns or 10 "
        "prestige points in one colour (D21)",
    )


# --------------------------------------------------------------------------- the gate


def _gate(arr: np.ndarray) -> None:
    """The gate of :meth:`State.from_dict` (:func:`position_problems`).

    Raises:
        ValueError: ``corrupt position: `` and every problem, naming the field and rule.
    """
    problems = position_problems(arr)
    if problems:
        raise ValueError("corrupt position: " + "; ".join(problems))


def _gate_observation(arr: np.ndarray) -> None:
    """An observation is sound when a full position with its public part is: the unseen
    cards of each level are as many as its deck and hidden reserves hold (D3), and dealt
    into them (in a fixed order) they make a position the gate accepts."""
    s = arr[0]
    seen = np.zeros(NUM_CARDS, dtype=np.bool_)
    seen[s["card_owner"] >= 0] = True
    for c in (*s["pyramid"], *s["reserved"].ravel()):
        if c >= 0:
            seen[c] = True
    nt.check_unseen(seen, CARD_LEVEL, s["deck_len"], s["reserved"], s["reserved_level"], "D3")
    full = np.zeros(1, dtype=STATE_DTYPE)
    r = np.zeros(1, dtype=np.uint64)
    seed_rng(r, _DEFAULT_SEED)
    if rules.determinize_into(arr, full, r) < 0:  # pragma: no cover - counted just above
        raise ValueError("corrupt position: the hidden cards do not match the decks (D3)")
    _gate(full)


__all__ = [
    "GAME_NAMES",
    "KEYS",
    "PHASE_WORDS",
    "build_position",
    "observation_from_text",
    "state_from_text",
    "to_text",
]
