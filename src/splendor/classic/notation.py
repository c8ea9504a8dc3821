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
What both games' notations share (the fields of cards, tokens, reserves and payments, the
reading and the gate) is in :mod:`splendor.notation`; this module holds classic's own.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import notation as nt
from ..colors import GEM_LETTERS, NUM_GEMS, TOKEN_LETTERS
from ..errors import PositionError
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


def _top(players: int) -> list[int]:
    """Tokens of each colour in a game of ``players`` (C1)."""
    return [GEMS_BY_PLAYERS[players]] * NUM_GEMS + [rules.GOLD_TOKENS]


def _owed(s: np.void, p: int, card: int) -> np.ndarray:
    """What ``card`` costs seat ``p`` (W U G R K) after its bonuses (C9)."""
    owed: np.ndarray = np.maximum(CARD_COST[card].astype(int) - s["bonuses"][p].astype(int), 0)
    return owed


NOTATION = nt.GameNotation(
    names=GAME_NAMES,
    keys=KEYS,
    label=LABEL,
    phase_words=PHASE_WORDS,
    over=rules.PH_OVER,
    paying=rules.PH_PAY,
    row="faceup",
    row_starts=tuple(k * FACEUP_PER_LEVEL for k in range(NUM_LEVELS)),
    row_sizes=(FACEUP_PER_LEVEL,) * NUM_LEVELS,
    row_shape="3 levels of 4 slots",
    row_groups="one per level, 4 slots each",
    owner="purchased_by",
    token_letters=TOKEN_LETTERS,
    pay_letters=GEM_LETTERS,
    num_cards=NUM_CARDS,
    card_level=CARD_LEVEL,
    level_start=LEVEL_START,
    level_size=LEVEL_SIZE,
    max_reserved=MAX_RESERVED,
    token_rule="C1",
    deck_rule="C2",
    row_rule="C4",
    reserve_rule="C8",
    pay_rule="C9",
    hide_rule="C16",
    owed=_owed,
    problems=check_position,
    determinize_into=rules.determinize_into,
    dtype=STATE_DTYPE,
)
"""What classic's position notation is made of, for the shared helpers of
:mod:`splendor.notation`."""


@dataclass
class _Spec(nt.Spec):
    """A classic position as the text says it: the fields both games have, and these."""

    players: int
    passes: int
    nobles: list[int]
    purchased: list[list[int]]
    visits: list[list[int]]


# --------------------------------------------------------------------------- writing


def to_text(a: np.ndarray) -> str:
    """The position text of a state or observation array (shape (1,), ``STATE_DTYPE``).

    Exact for every sound position: :func:`state_from_text` (or, for an observation,
    :func:`observation_from_text`) gives back an equal array.
    """
    s = a[0]
    n = int(s["num_players"])
    passes = int(s["pass_streak"])
    own = {
        "players": str(n),
        "passes": str(passes) if passes else None,
        "nobles": nt.format_slots(int(x) for x in s["nobles"][: n + 1]),
        "purchased": nt.owner_field(s["purchased_by"], n),
        "visits": nt.owner_field(s["noble_owner"], n),
    }
    return nt.write_position(NOTATION, s, n, own)


# --------------------------------------------------------------------------- reading


def state_from_text(text: str) -> State:
    """Read a full position written by :func:`to_text`.

    Raises:
        NotationError: text that cannot be read (the message names the field and says
            what is allowed), or an observation's text.
        PositionError: an impossible position, from the gate of :meth:`State.from_dict`
            (``corrupt position: …``, naming the field and the rule).
    """
    return State(nt.read_position(NOTATION, text, _read, _players))


def observation_from_text(text: str) -> Observation:
    """Read an observation written by :func:`to_text` (``observer=`` names its seat).

    It must hide what its seat cannot see (C16): no deck order (``deck_sizes=``, not
    ``decks=``), no generator, and another seat's blind reserve as ``?level`` (unless that
    seat is paying for it now); and it must be the view of a sound position: some full
    position consistent with it passes the gate of :meth:`State.from_dict`.

    Raises:
        NotationError: text that cannot be read, or that shows what the seat cannot see.
        PositionError: no sound position has this view (``corrupt position: …``).
    """
    return Observation(nt.read_position(NOTATION, text, _read, _players, observation=True))


def _players(fields: dict[str, str]) -> int:
    return nt.parse_int(
        nt.require(fields, "players"),
        "players",
        MIN_PLAYERS,
        MAX_PLAYERS,
        "the player count (C1) is",
    )


def _read(fields: dict[str, str], observer: int) -> np.ndarray:
    """Everything the text says, read field by field (the derived fields are not there),
    assembled."""
    players = _players(fields)
    spec = _spec(
        players,
        turn=nt.text_turn(fields),
        current=_current_text(fields, players),
        phase=nt.require(fields, "phase", ", ".join(PHASE_WORDS)),
        passes=_passes_text(fields, players),
        **nt.card_texts(NOTATION, fields, observer),
        nobles=nt.require(fields, "nobles", f"the noble row, {players + 1} slots"),
        visits=fields.get("visits"),
        **nt.text_args(fields, observer),
    )
    return _assemble(spec)


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
    seed: int = nt.DEFAULT_SEED,
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
        PositionError: an impossible position (``corrupt position: …``, naming the field
            and the rule), or ``players`` or ``seed`` out of range.

    Example: ``build_position(2, turn=1, tokens=["2W1U", "-"], purchased=[[0, 85], []])``
    (more in ``docs/notation.md``, "Building positions").
    """
    _check_players(players)
    nt.check_seed(seed)
    spec = _spec(
        players,
        turn=nt.int_arg(turn, "turn"),
        current=None if current is None else nt.int_arg(current, "current"),
        phase=phase,
        passes=nt.int_arg(passes, "passes"),
        row=faceup,
        decks=decks,
        nobles=nobles,
        tokens=tokens,
        reserved=reserved,
        purchased=purchased,
        visits=visits,
        payment=payment,
        rng=rng,
        seed=seed,
    )
    return State(nt.gate(NOTATION, _assemble(spec)))


def _check_players(players: object) -> None:
    """Refuse a builder's player count that is not an integer 2..4 (C1).

    Raises:
        PositionError: any other count (the message quotes it).
    """
    if (
        isinstance(players, bool)
        or not isinstance(players, int)
        or not MIN_PLAYERS <= players <= MAX_PLAYERS
    ):
        raise PositionError(f"classic Splendor is for 2 to 4 players (C1), got {players!r}")


def _spec(
    players: int,
    *,
    turn: int,
    current: int | None,
    phase: object,
    passes: int,
    row: object,
    decks: object,
    nobles: object,
    tokens: object,
    reserved: object,
    purchased: object,
    visits: object,
    payment: object,
    rng: int | None,
    seed: int,
    deck_sizes: object = None,
    observer: int = -1,
    deal: bool = True,
) -> _Spec:
    """Read every field (text or Python values) into a :class:`_Spec`; with ``deal``, the
    face-up cards, decks and nobles left unsaid are dealt with ``seed``. The defaults are
    the builder's (a full position, dealt); a text gives ``deck_sizes``, ``observer`` and
    no dealing (:func:`splendor.notation.text_args`)."""
    n = players
    ph = nt.phase_of(NOTATION, phase, {v: k for k, v in PHASES.items()})
    if not 0 <= passes <= n:
        raise nt.fail("passes", f"{passes}: passes in a row (C17) are 0..{n}")
    if current is not None and not 0 <= current < n:
        raise nt.fail("current", f"{current}: the seat to play is 0..{n - 1}")
    toks = nt.seat_tokens(NOTATION, tokens, n, _top(n))
    res = nt.seat_reserved(NOTATION, reserved, n)
    bought = nt.per_seat(
        purchased, "purchased", n, lambda v, f: nt.ids_of(v, f, NUM_CARDS, "a card id")
    )
    won = nt.per_seat(visits, "visits", n, lambda v, f: nt.ids_of(v, f, NUM_NOBLES, "a noble id"))
    rng_value = nt.rng_value(rng, seed)
    placed: set[int] = {c for seat in bought for c in seat}
    placed |= {c for seat in res for c, _, _ in seat if c >= 0}
    rnd = np.random.default_rng(seed) if deal else None
    slots, deck_lists, sizes = nt.place_cards(
        NOTATION, row, decks, deck_sizes, placed, rnd, observer
    )
    if nobles is None and rnd is not None:
        taken = {x for seat in won for x in seat}
        pool = [x for x in range(NUM_NOBLES) if x not in taken]
        rnd.shuffle(pool)
        noble_row = pool[: max(n + 1 - len(taken), 0)]
    else:
        noble_row = nt.parse_slots(
            nobles,
            "nobles",
            n + 1,
            NUM_NOBLES,
            f"{n + 1} noble ids or - (a noble that left)",
            pad=True,
        )
    pay = nt.payment_of(NOTATION, payment)
    if current is None:
        current = -1 if ph == rules.PH_OVER else turn % n
    return _Spec(
        players=n,
        turn=turn,
        current=current,
        phase=ph,
        passes=passes,
        row=slots,
        decks=deck_lists,
        deck_sizes=sizes,
        nobles=noble_row,
        tokens=toks,
        reserved=res,
        purchased=bought,
        visits=won,
        payment=pay,
        rng=rng_value,
        observer=observer,
    )


# --------------------------------------------------------------------------- assembling


def _assemble(spec: _Spec) -> np.ndarray:
    """The state array of ``spec``, with every derived field computed. Refuses (with a
    :class:`NotationError`) what the array cannot hold or the text cannot mean; the gate
    judges the rest."""
    n = spec.players
    a = np.zeros(1, dtype=STATE_DTYPE)
    s = a[0]
    s["num_players"] = n
    s["pass_streak"] = spec.passes
    nt.put_cards(NOTATION, s, spec)
    s["nobles"][:] = -1
    s["nobles"][: len(spec.nobles)] = spec.nobles
    top = _top(n)
    held = [sum(t[c] for t in spec.tokens) for c in range(NUM_GEMS + 1)]
    nt.count_problem("tokens", held, top, TOKEN_LETTERS, "C1")
    for p in range(n):
        s["tokens"][p] = spec.tokens[p]
    s["supply"] = [top[c] - held[c] for c in range(NUM_GEMS + 1)]
    s["purchased_by"][:] = -1
    nt.put_owners(s["purchased_by"], spec.purchased, "purchased", "card")
    s["noble_owner"][:] = -1
    nt.put_owners(s["noble_owner"], spec.visits, "visits", "noble")
    bought = np.flatnonzero(s["purchased_by"] >= 0)
    owners = s["purchased_by"][bought].astype(np.int64)
    np.add.at(s["bonuses"], (owners, CARD_BONUS[bought]), 1)
    points = np.zeros(MAX_PLAYERS, dtype=np.int64)
    np.add.at(points, owners, CARD_POINTS[bought].astype(np.int64))
    won = np.flatnonzero(s["noble_owner"] >= 0)
    np.add.at(points, s["noble_owner"][won].astype(np.int64), NOBLE_POINTS[won].astype(np.int64))
    s["points"] = points
    nt.put_payment(NOTATION, s, spec)
    scorer = spec.current if spec.phase == rules.PH_NOBLE else -1  # mid-turn: not yet counted
    s["final_round"] = any(int(points[p]) >= rules.WIN_POINTS for p in range(n) if p != scorer)
    if spec.phase == rules.PH_OVER:
        s["end_reason"] = rules.END_STALL if spec.passes == n else rules.END_POINTS
    return a


__all__ = [
    "GAME_NAMES",
    "KEYS",
    "NOTATION",
    "PHASE_WORDS",
    "build_position",
    "observation_from_text",
    "state_from_text",
    "to_text",
]
