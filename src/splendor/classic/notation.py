"""Position text of classic Splendor (a FEN for Splendor) and the position builder.

One line holds a whole position: what is where (face-up cards, deck order, nobles, each
seat's tokens, reserved and bought cards and nobles), whose turn and which decision is
owed, and the generator. Whatever follows from those is computed on reading, never
written: the supply (C1), deck lengths, bonuses and prestige points (C9, C12), the final
round (C14), why a game ended (C14, C17), the card being paid for and the gold committed
(C9). Example (a 2-player game after one decision)::

    splendor players=2 turn=1 current=1 phase=main faceup=… decks=… nobles=3,7,1
    tokens=1W1U1G/- rng=…

:func:`state_from_text`, :func:`observation_from_text` and :func:`to_text` back
``State.from_text``, ``Observation.from_text`` and their ``to_text``; the full grammar is
in ``docs/notation.md``. :func:`build_position` makes a position from Python values
(the same fields), dealing what is left unsaid. Every position, read or built, passes the
gate of :meth:`State.from_dict` (:func:`~splendor.classic.position.check_position`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import notation as nt
from ..colors import GEM_LETTERS, NUM_GEMS, TOKEN_LETTERS
from ..core import seed_rng
from . import rules
from .cards import (
    CARD_BONUS,
    CARD_COST,
    CARD_LEVEL,
    CARD_POINTS,
    FACEUP_PER_LEVEL,
    LEVEL_SIZE,
    LEVEL_START,
    MAX_RESERVED,
    NOBLE_POINTS,
    NUM_CARDS,
    NUM_LEVELS,
    NUM_NOBLES,
)
from .position import GEMS_BY_PLAYERS, MAX_PLAYERS, MIN_PLAYERS, PHASES, check_position
from .state import STATE_DTYPE, Observation, State

GAME_NAMES = ("splendor", "classic")
"""The first word of a classic position text (the first one is written)."""
KEYS = (
    "players",
    "observer",
    "turn",
    "current",
    "phase",
    "passes",
    "faceup",
    "decks",
    "deck_sizes",
    "nobles",
    "tokens",
    "reserved",
    "purchased",
    "visits",
    "payment",
    "rng",
)
"""The fields of a classic position text, in the order they are written."""
PHASE_WORDS = ("main", "payment", "return", "noble", "over")
"""The ``phase=`` word of each phase (``rules.PH_*`` order)."""
LABEL = "classic Splendor"
_STARTS = tuple(k * FACEUP_PER_LEVEL for k in range(NUM_LEVELS))
_SIZES = (FACEUP_PER_LEVEL,) * NUM_LEVELS
_FIRST_RESERVED = NUM_LEVELS * FACEUP_PER_LEVEL
_TOP_TOKENS = (max(GEMS_BY_PLAYERS.values()),) * NUM_GEMS + (rules.GOLD_TOKENS,)
_DEFAULT_SEED = 0
_LEVELS = tuple(int(x) + 1 for x in CARD_LEVEL)


def _top(players: int) -> list[int]:
    """Tokens of each colour in a game of ``players`` (C1)."""
    return [GEMS_BY_PLAYERS[players]] * NUM_GEMS + [rules.GOLD_TOKENS]


@dataclass
class _Spec:
    """A position as the text says it: what is where, nothing derived."""

    players: int
    turn: int
    current: int
    phase: int
    passes: int
    faceup: list[list[int]]
    decks: list[list[int]] | None  # top card first; None in an observation
    deck_sizes: list[int]
    nobles: list[int]
    tokens: list[list[int]]
    reserved: list[list[tuple[int, int, bool]]]  # (card or -1 hidden, level if hidden, blind)
    purchased: list[list[int]]
    visits: list[list[int]]
    payment: tuple[int, list[int]] | None  # (source, gold committed per gem colour)
    rng: int
    observer: int = -1


# --------------------------------------------------------------------------- writing


def to_text(a: np.ndarray) -> str:
    """The position text of a state or observation array (shape (1,), ``STATE_DTYPE``).

    Exact for every sound position: :func:`state_from_text` (or, for an observation,
    :func:`observation_from_text`) gives back an equal array.
    """
    s = a[0]
    n = int(s["num_players"])
    observer = int(s["observer"])
    phase = int(s["phase"])
    out = [GAME_NAMES[0], f"players={n}"]
    if observer >= 0:
        out.append(f"observer={observer}")
    out.append(f"turn={int(s['turn'])}")
    if phase != rules.PH_OVER:
        out.append(f"current={int(s['current'])}")
    out.append(f"phase={PHASE_WORDS[phase]}")
    if int(s["pass_streak"]):
        out.append(f"passes={int(s['pass_streak'])}")
    out.append("faceup=" + "/".join(nt.format_slots(int(c) for c in row) for row in s["faceup"]))
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
    out.append("nobles=" + nt.format_slots(int(x) for x in s["nobles"][: n + 1]))
    seats = range(n)
    per_seat = {
        "tokens": [
            nt.format_counts([int(x) for x in s["tokens"][p]], TOKEN_LETTERS) for p in seats
        ],
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
            nt.join_items(str(int(c)) for c in np.flatnonzero(s["purchased_by"] == p))
            for p in seats
        ],
        "visits": [
            nt.join_items(str(int(x)) for x in np.flatnonzero(s["noble_owner"] == p)) for p in seats
        ],
    }
    for key, groups in per_seat.items():
        if any(g != nt.EMPTY for g in groups):
            out.append(f"{key}=" + "/".join(groups))
    if phase == rules.PH_PAY:
        out.append("payment=" + _format_payment(s))
    if observer < 0:
        out.append("rng=" + nt.format_rng(int(s["rng"][0])))
    return " ".join(out)


def _format_payment(s: np.void) -> str:
    """``2.3`` or ``r1``, then ``:`` and the gold committed per colour when there is some."""
    src = nt.format_source(int(s["pay_src"]), _STARTS, _FIRST_RESERVED)
    card, p = int(s["pay_card"]), int(s["current"])
    owed = np.maximum(CARD_COST[card].astype(int) - s["bonuses"][p].astype(int), 0)
    committed = [int(x) for x in owed - s["pay_need"].astype(int)]
    return src + (":" + nt.format_counts(committed, GEM_LETTERS) if any(committed) else "")


# --------------------------------------------------------------------------- reading


def state_from_text(text: str) -> State:
    """Read a full position written by :func:`to_text`.

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
    """Read an observation written by :func:`to_text` (``observer=`` names its seat).

    It must hide what its seat cannot see (C16): no deck order (``deck_sizes=``, not
    ``decks=``), no generator, and another seat's blind reserve as ``?level`` (unless that
    seat is paying for it now); and it must be the view of a sound position: some full
    position consistent with it passes the gate of :meth:`State.from_dict`.

    Raises:
        NotationError: text that cannot be read, or that shows what the seat cannot see.
        ValueError: no sound position has this view (``corrupt position: …``).
    """
    fields = _fields(text)
    players = _players(fields)
    observer = nt.parse_int(
        nt.require(fields, "observer", "the seat whose view this is"),
        "observer",
        0,
        players - 1,
        "the observer is a seat,",
    )
    for key, why in (("decks", "deck_sizes= (deck order is hidden, C16)"), ("rng", "no rng")):
        if key in fields:
            raise nt.fail(key, f"an observation gives {why}")
    arr = _assemble(_spec_from_fields(fields, observer=observer))
    _gate_observation(arr)
    return Observation(arr)


def _fields(text: str) -> dict[str, str]:
    return nt.split_fields(text, GAME_NAMES, KEYS, LABEL)[1]


def _players(fields: dict[str, str]) -> int:
    return nt.parse_int(
        nt.require(fields, "players"),
        "players",
        MIN_PLAYERS,
        MAX_PLAYERS,
        "the player count (C1) is",
    )


def _spec_from_fields(fields: dict[str, str], observer: int) -> _Spec:
    """Everything the text says, read field by field (the derived fields are not there)."""
    players = _players(fields)
    if observer < 0 and "deck_sizes" in fields:
        raise nt.fail("deck_sizes", "a full position lists its decks (decks=), top card first")
    return _spec(
        players,
        turn=nt.parse_int(nt.require(fields, "turn"), "turn", -(2**31), 2**31 - 1, "the turn is"),
        current=_current_text(fields, players),
        phase=nt.require(fields, "phase", ", ".join(PHASE_WORDS)),
        passes=_passes_text(fields, players),
        faceup=nt.require(fields, "faceup", "3 levels of 4 slots"),
        decks=None if observer >= 0 else nt.require(fields, "decks", "top card first"),
        deck_sizes=nt.require(fields, "deck_sizes") if observer >= 0 else None,
        nobles=nt.require(fields, "nobles", f"the noble row, {players + 1} slots"),
        tokens=fields.get("tokens"),
        reserved=fields.get("reserved"),
        purchased=fields.get("purchased"),
        visits=fields.get("visits"),
        payment=fields.get("payment"),
        rng=nt.parse_rng(fields["rng"]) if "rng" in fields else None,
        seed=_DEFAULT_SEED,
        observer=observer,
        deal=False,
    )


def _current_text(fields: dict[str, str], players: int) -> int | None:
    if "current" not in fields:
        return None
    return nt.parse_int(fields["current"], "current", 0, players - 1, "the seat to play is")


def _passes_text(fields: dict[str, str], players: int) -> int:
    if "passes" not in fields:
        return 0
    return nt.parse_int(fields["passes"], "passes", 0, players, "passes in a row (C17) are")


# --------------------------------------------------------------------------- building


def build_position(
    players: int = 2,
    *,
    turn: int = 0,
    current: int | None = None,
    phase: str = "main",
    passes: int = 0,
    faceup: object = None,
    decks: object = None,
    nobles: object = None,
    tokens: object = None,
    reserved: object = None,
    purchased: object = None,
    visits: object = None,
    payment: str | None = None,
    rng: int | None = None,
    seed: int = _DEFAULT_SEED,
) -> State:
    """Make a classic position by saying what is where; every derived field (supply,
    deck lengths, bonuses, points, final round, end reason, the payment's card and gold)
    is computed, and the result passes the gate of :meth:`State.from_dict`.

    Each argument takes a Python value or the text of the same field of the notation
    (``docs/notation.md``). Per-seat arguments take a list (seat 0 first), a dict by seat
    or a text with one ``/``-separated group per seat.

    Args:
        players: 2, 3 or 4 (C1).
        turn: completed turns; seat ``turn % players`` plays next (C5).
        current: the seat to play; default ``turn % players`` (none once the game is over).
        phase: ``main``, ``payment``, ``return``, ``noble`` or ``over``.
        passes: passes in a row just before (C17).
        faceup: 3 rows (levels 1-3) of up to 4 card ids, ``None`` for an empty slot.
            Default: dealt from the cards left.
        decks: per level the card ids from the top down. Default: the cards no other
            argument places, shuffled with ``seed``.
        nobles: the noble row (ids, ``None`` for a noble that left); default: drawn with
            ``seed`` to make ``players + 1`` nobles with the visits (C3).
        tokens: per seat, ``"2W1U1*"`` or 6 counts (W U G R K gold); the supply holds the
            rest (C1).
        reserved: per seat, card ids in slot order; ``"!52"`` marks a blind reserve (C8).
        purchased: per seat, the bought card ids.
        visits: per seat, the ids of the nobles that visited it (C12).
        payment: in phase ``payment``, the card paid for and the gold committed so far:
            ``"2.3"`` (face-up level 2 slot 3) or ``"r1"`` (own reserved card 1), then
            optionally ``":1W"`` (1 gold in place of a W token) (C9).
        rng: the generator's state (64 bits); default: seeded with ``seed``.
        seed: the shuffle of what is dealt by default, and the generator's default seed.

    Returns:
        The position as a :class:`State`.

    Raises:
        NotationError: a value that cannot be read (the message names the argument).
        ValueError: an impossible position (``corrupt position: …``, naming the field and
            the rule), or ``players`` or ``seed`` out of range.

    Example::

        >>> from splendor.classic import build_position
        >>> st = build_position(2, turn=1, tokens=["2W1U", "-"], purchased=[[0, 85], []])
        >>> st.players[0].bonuses, st.scores, st.supply, st.current_player
        ((1, 0, 0, 1, 0), [5, 0], (2, 3, 4, 4, 4, 5), 1)
    """
    if (
        isinstance(players, bool)
        or not isinstance(players, int)
        or not MIN_PLAYERS <= players <= MAX_PLAYERS
    ):
        raise ValueError(f"classic Splendor is for 2 to 4 players (C1), got {players!r}")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise ValueError(f"seed must be an integer 0 <= seed < 2**63, got {seed!r}")
    spec = _spec(
        players,
        turn=nt.int_arg(turn, "turn"),
        current=None if current is None else nt.int_arg(current, "current"),
        phase=phase,
        passes=nt.int_arg(passes, "passes"),
        faceup=faceup,
        decks=decks,
        deck_sizes=None,
        nobles=nobles,
        tokens=tokens,
        reserved=reserved,
        purchased=purchased,
        visits=visits,
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
    players: int,
    *,
    turn: int,
    current: int | None,
    phase: object,
    passes: int,
    faceup: object,
    decks: object,
    deck_sizes: object,
    nobles: object,
    tokens: object,
    reserved: object,
    purchased: object,
    visits: object,
    payment: object,
    rng: int | None,
    seed: int,
    observer: int,
    deal: bool,
) -> _Spec:
    """Read every field (text or Python values) into a :class:`_Spec`; with ``deal``, the
    face-up cards, decks and nobles left unsaid are dealt with ``seed``."""
    n = players
    if not isinstance(phase, str):
        raise nt.fail("phase", f"one of {', '.join(PHASE_WORDS)}")
    long_names = {v: k for k, v in PHASES.items()}
    ph = long_names[phase] if phase in long_names else nt.parse_choice(phase, "phase", PHASE_WORDS)
    if not 0 <= passes <= n:
        raise nt.fail("passes", f"{passes}: passes in a row (C17) are 0..{n}")
    if current is not None and not 0 <= current < n:
        raise nt.fail("current", f"{current}: the seat to play is 0..{n - 1}")
    toks = nt.per_seat(
        tokens, "tokens", n, lambda v, f: nt.counts_of(v, f, TOKEN_LETTERS, _top(n), "C1")
    )
    res = nt.per_seat(reserved, "reserved", n, _reserved_of)
    bought = nt.per_seat(
        purchased, "purchased", n, lambda v, f: _ids_of(v, f, NUM_CARDS, "a card id")
    )
    won = nt.per_seat(visits, "visits", n, lambda v, f: _ids_of(v, f, NUM_NOBLES, "a noble id"))
    rng_value = nt.rng_value(rng, seed)

    placed: set[int] = {c for seat in bought for c in seat}
    placed |= {c for seat in res for c, _, _ in seat if c >= 0}
    rows: list[list[int]] | None = None
    if faceup is not None:
        rows = [
            nt.parse_slots(
                g, "faceup", FACEUP_PER_LEVEL, NUM_CARDS, "a card id or - (empty)", pad=True
            )
            for g in nt.parse_groups(faceup, "faceup", NUM_LEVELS, "one per level, 4 slots each")
        ]
        placed |= {c for row in rows for c in row if c >= 0}
    deck_lists: list[list[int]] | None = None
    if decks is not None:
        deck_lists = [
            _ids_of(g, "decks", NUM_CARDS, "a card id")
            for g in nt.parse_groups(decks, "decks", NUM_LEVELS, "one per level, top card first")
        ]
        placed |= {c for deck in deck_lists for c in deck}
    rnd = np.random.default_rng(seed) if deal else None
    if rnd is not None:
        left = [
            [c for c in range(int(LEVEL_START[lvl]), int(LEVEL_START[lvl] + LEVEL_SIZE[lvl]))]
            for lvl in range(NUM_LEVELS)
        ]
        left = [[c for c in pile if c not in placed] for pile in left]
        for pile in left:
            rnd.shuffle(pile)
        if rows is None:
            rows = [[pile.pop() if pile else -1 for _ in range(FACEUP_PER_LEVEL)] for pile in left]
        if deck_lists is None:
            deck_lists = left
    if rows is None:
        raise nt.fail("faceup", "missing (3 levels of 4 slots)")
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
    if nobles is None and rnd is not None:
        taken = {x for seat in won for x in seat}
        pool = [x for x in range(NUM_NOBLES) if x not in taken]
        rnd.shuffle(pool)
        row = pool[: max(n + 1 - len(taken), 0)]
    else:
        row = nt.parse_slots(
            nobles,
            "nobles",
            n + 1,
            NUM_NOBLES,
            f"{n + 1} noble ids or - (a noble that left)",
            pad=True,
        )
    pay = None
    if payment is not None:
        if not isinstance(payment, str):
            raise nt.fail("payment", f"a text like 2.3 or r1:1W, got {payment!r}")
        where, _, gold = payment.partition(":")
        src = nt.parse_source(where, "payment", _STARTS, _SIZES, MAX_RESERVED)
        pay = (src, nt.parse_counts(gold or nt.EMPTY, "payment", GEM_LETTERS, [99] * 5, "C9"))
    if current is None:
        current = -1 if ph == rules.PH_OVER else turn % n
    return _Spec(
        players=n,
        turn=turn,
        current=current,
        phase=ph,
        passes=passes,
        faceup=rows,
        decks=None if observer >= 0 else deck_lists,
        deck_sizes=sizes,
        nobles=row,
        tokens=toks,
        reserved=res,
        purchased=bought,
        visits=won,
        payment=pay,
        rng=rng_value,
        observer=observer,
    )


def _ids_of(value: object, field: str, count: int, what: str) -> list[int]:
    return [nt.parse_id(item, field, count, what) for item in nt.items_of(value, field)]


def _reserved_of(value: object, field: str) -> list[tuple[int, int, bool]]:
    items = nt.items_of(value, field)
    if len(items) > MAX_RESERVED:
        raise nt.fail(field, f"{len(items)} reserved cards, at most {MAX_RESERVED} (C8)")
    return [nt.parse_reserved(item, field, NUM_CARDS) for item in items]


# --------------------------------------------------------------------------- assembling


def _assemble(spec: _Spec) -> np.ndarray:
    """The state array of ``spec``, with every derived field computed. Refuses (with a
    :class:`NotationError`) what the array cannot hold or the text cannot mean; the gate
    judges the rest."""
    n = spec.players
    a = np.zeros(1, dtype=STATE_DTYPE)
    s = a[0]
    s["num_players"] = n
    s["observer"] = spec.observer
    s["turn"] = spec.turn
    s["current"] = spec.current
    s["phase"] = spec.phase
    s["pass_streak"] = spec.passes
    for lvl, row in enumerate(spec.faceup):
        for k, c in enumerate(row):
            if c >= 0 and int(CARD_LEVEL[c]) != lvl:
                raise nt.fail(
                    "faceup",
                    f"card {c} is level {int(CARD_LEVEL[c]) + 1}, in the level-{lvl + 1} row (C4)",
                )
            s["faceup"][lvl, k] = c
    s["decks"][:] = -1
    for lvl in range(NUM_LEVELS):
        size = spec.deck_sizes[lvl]
        if size > int(LEVEL_SIZE[lvl]):
            raise nt.fail(
                "decks", f"{size} cards in the level-{lvl + 1} deck, at most {LEVEL_SIZE[lvl]} (C2)"
            )
        s["deck_len"][lvl] = size
        if spec.decks is not None:
            for c in spec.decks[lvl]:
                if int(CARD_LEVEL[c]) != lvl:
                    raise nt.fail(
                        "decks",
                        f"card {c} is level {int(CARD_LEVEL[c]) + 1}, in the level-{lvl + 1} "
                        "deck (C2)",
                    )
            s["decks"][lvl, :size] = spec.decks[lvl][::-1]
    s["nobles"][:] = -1
    s["nobles"][: len(spec.nobles)] = spec.nobles
    top = _top(n)
    held = [sum(t[c] for t in spec.tokens) for c in range(NUM_GEMS + 1)]
    nt.count_problem("tokens", held, top, TOKEN_LETTERS, "C1")
    for p in range(n):
        s["tokens"][p] = spec.tokens[p]
    s["supply"] = [top[c] - held[c] for c in range(NUM_GEMS + 1)]
    s["reserved"][:] = -1
    for p, cards in enumerate(spec.reserved):
        for k, (c, level, blind) in enumerate(cards):
            s["reserved"][p, k] = c
            s["reserved_level"][p, k] = level if c < 0 else int(CARD_LEVEL[c]) + 1
            s["reserved_blind"][p, k] = blind
        s["num_reserved"][p] = len(cards)
    s["purchased_by"][:] = -1
    _owners(s["purchased_by"], spec.purchased, "purchased", "card")
    s["noble_owner"][:] = -1
    _owners(s["noble_owner"], spec.visits, "visits", "noble")
    bought = np.flatnonzero(s["purchased_by"] >= 0)
    owners = s["purchased_by"][bought].astype(np.int64)
    np.add.at(s["bonuses"], (owners, CARD_BONUS[bought]), 1)
    points = np.zeros(MAX_PLAYERS, dtype=np.int64)
    np.add.at(points, owners, CARD_POINTS[bought].astype(np.int64))
    won = np.flatnonzero(s["noble_owner"] >= 0)
    np.add.at(points, s["noble_owner"][won].astype(np.int64), NOBLE_POINTS[won].astype(np.int64))
    s["points"] = points
    s["pay_card"] = -1
    _payment(s, spec)
    _hidden(spec)
    scorer = spec.current if spec.phase == rules.PH_NOBLE else -1  # mid-turn: not yet counted
    s["final_round"] = any(int(points[p]) >= rules.WIN_POINTS for p in range(n) if p != scorer)
    if spec.phase == rules.PH_OVER:
        s["end_reason"] = rules.END_STALL if spec.passes == n else rules.END_POINTS
    s["rng"][0] = spec.rng if spec.observer < 0 else 0
    return a


def _owners(out: np.ndarray, seats: list[list[int]], field: str, what: str) -> None:
    """Write ``out[id] = seat`` for each id a seat lists; an id listed twice is refused."""
    for p, ids in enumerate(seats):
        for i in ids:
            if out[i] >= 0:
                raise nt.fail(field, f"{what} {i} is written twice (it has one owner)")
            out[i] = p


def _payment(s: np.void, spec: _Spec) -> None:
    """The payment in progress (C9): the card at its source, the tokens still owed (the
    card's cost less bonuses, less the gold committed) and the gold committed."""
    if spec.payment is None:
        if spec.phase == rules.PH_PAY:
            raise nt.fail(
                "payment", "missing: phase payment names the card paid for (2.3 or r1) (C9)"
            )
        return
    if spec.phase != rules.PH_PAY:
        raise nt.fail("payment", "only in phase payment (C9)")
    src, committed = spec.payment
    p = spec.current
    if src < _FIRST_RESERVED:
        card = int(s["faceup"][src // FACEUP_PER_LEVEL, src % FACEUP_PER_LEVEL])
    else:
        k = src - _FIRST_RESERVED
        card = int(s["reserved"][p, k]) if k < int(s["num_reserved"][p]) else -1
    where = nt.format_source(src, _STARTS, _FIRST_RESERVED)
    if card < 0:
        raise nt.fail("payment", f"seat {p} pays for {where}, which holds no card it can see (C9)")
    owed = np.maximum(CARD_COST[card].astype(int) - s["bonuses"][p].astype(int), 0)
    for c in range(NUM_GEMS):
        if committed[c] > owed[c]:
            raise nt.fail(
                "payment",
                f"{committed[c]} gold in place of {GEM_LETTERS[c]}, but card {card} costs seat "
                f"{p} {owed[c]} {GEM_LETTERS[c]} after bonuses (C9)",
            )
    s["pay_card"] = card
    s["pay_src"] = src
    s["pay_need"] = owed - np.array(committed)
    s["pay_gold"] = sum(committed)


def _hidden(spec: _Spec) -> None:
    """What a blind reserve shows (C16): every card in a full position; in an observation,
    another seat's blind reserve only by its level, unless that seat is paying for it."""
    paying = -1
    if spec.payment is not None and spec.payment[0] >= _FIRST_RESERVED:
        paying = spec.payment[0] - _FIRST_RESERVED
    nt.check_hidden(spec.reserved, _LEVELS, spec.observer, spec.current, paying, "C16")


# --------------------------------------------------------------------------- the gate


def _gate(arr: np.ndarray) -> None:
    """The gate of :meth:`State.from_dict` (:func:`check_position`).

    Raises:
        ValueError: ``corrupt position: `` and every problem, naming the field and rule.
    """
    problems = check_position(arr)
    if problems:
        raise ValueError("corrupt position: " + "; ".join(problems))


def _gate_observation(arr: np.ndarray) -> None:
    """An observation is sound when a full position with its public part is: the unseen
    cards of each level are as many as its deck and hidden reserves hold (C2), and dealt
    into them (in a fixed order) they make a position the gate accepts."""
    s = arr[0]
    seen = np.zeros(NUM_CARDS, dtype=np.bool_)
    seen[s["purchased_by"] >= 0] = True
    for c in (*s["faceup"].ravel(), *s["reserved"].ravel()):
        if c >= 0:
            seen[c] = True
    nt.check_unseen(seen, CARD_LEVEL, s["deck_len"], s["reserved"], s["reserved_level"], "C2")
    full = np.zeros(1, dtype=STATE_DTYPE)
    r = np.zeros(1, dtype=np.uint64)
    seed_rng(r, _DEFAULT_SEED)
    if rules.determinize_into(arr, full, r) < 0:  # pragma: no cover - counted just above
        raise ValueError("corrupt position: the hidden cards do not match the decks (C2)")
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
