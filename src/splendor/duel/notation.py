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
of :meth:`State.from_dict` (:func:`~splendor.duel.position.position_problems`). What both
games' notations share (the fields of cards, tokens, reserves and payments, the reading and
the gate) is in :mod:`splendor.notation`; this module holds the duel's own.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import notation as nt
from ..colors import DUEL_TOKEN_LETTERS, GEM_LETTERS, NUM_GEMS
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
_RESOLVING = (rules.PH_TOKEN, rules.PH_STEAL, rules.PH_ROYAL)
_PAY_LETTERS = DUEL_TOKEN_LETTERS[:-1]  # W U G R K P: what a gold may stand in for (D10)
_PEND_OF = (
    (AB_JOKER, rules.PEND_JOKER),
    (AB_TOKEN, rules.PEND_TOKEN),
    (AB_STEAL, rules.PEND_STEAL),
)


def _thresholds(crowns: int) -> int:
    """Crown thresholds (3 and 6) reached with ``crowns`` crowns (D19)."""
    return int(crowns >= 3) + int(crowns >= 6)


def _owed(s: np.void, p: int, card: int) -> np.ndarray:
    """What ``card`` costs seat ``p`` (W U G R K pearl): bonuses reduce gems only (D10)."""
    owed: np.ndarray = CARD_COST[card].astype(int)
    owed[:NUM_GEMS] = np.maximum(owed[:NUM_GEMS] - s["bonuses"][p].astype(int), 0)
    return owed


NOTATION = nt.GameNotation(
    names=GAME_NAMES,
    keys=KEYS,
    label=LABEL,
    phase_words=PHASE_WORDS,
    over=rules.PH_OVER,
    paying=rules.PH_PAY,
    row="pyramid",
    row_starts=PYRAMID_START,
    row_sizes=PYRAMID_SIZES,
    row_shape="3 levels of 5, 4 and 3 slots",
    row_groups="one per level, 5, 4 and 3 slots",
    owner="card_owner",
    token_letters=DUEL_TOKEN_LETTERS,
    pay_letters=_PAY_LETTERS,
    num_cards=NUM_CARDS,
    card_level=CARD_LEVEL,
    level_start=LEVEL_START,
    level_size=LEVEL_SIZE,
    max_reserved=MAX_RESERVED,
    token_rule="D1",
    deck_rule="D3",
    row_rule="D3",
    reserve_rule="D9",
    pay_rule="D10",
    hide_rule="D22",
    owed=_owed,
    problems=position_problems,
    determinize_into=rules.determinize_into,
    dtype=STATE_DTYPE,
)
"""What the duel's position notation is made of, for the shared helpers of
:mod:`splendor.notation`."""


@dataclass
class _Spec(nt.Spec):
    """A duel position as the text says it: the fields both games have, and these."""

    cap: int
    again: int
    replenished: int
    winner: int
    board: list[int]  # colour per cell, -1 empty
    privileges: list[int]
    purchased: list[list[tuple[int, int]]]  # (card, joker colour or -1; -2 not a joker)
    royals: list[list[int]]  # royal ids (0-based)
    claims: list[int] | None
    resolving: int


# --------------------------------------------------------------------------- writing


def to_text(a: np.ndarray) -> str:
    """The position text of a duel state or observation array (shape (1,),
    ``STATE_DTYPE``).

    Exact for every sound position: :func:`state_from_text` (or, for an observation,
    :func:`observation_from_text`) gives back an equal array.
    """
    s = a[0]
    phase = int(s["phase"])
    seats = range(NUM_PLAYERS)
    cells = "".join(EMPTY_CELL if c < 0 else DUEL_TOKEN_LETTERS[c] for c in s["board"])
    claims = [int(x) for x in s["crown_claims"]]
    own = {
        "cap": str(int(s["turn_cap"])) if int(s["turn_cap"]) else None,
        "again": str(int(s["again"])) if int(s["again"]) else None,
        "replenished": str(int(s["replenished"])) if int(s["replenished"]) else None,
        "winner": (
            str(int(s["winner"])) if phase == rules.PH_OVER and int(s["winner"]) >= 0 else None
        ),
        "board": "/".join(cells[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)),
        "privileges": nt.seat_field([str(int(s["privileges"][p])) for p in seats], "0"),
        "purchased": nt.seat_field(
            [
                nt.join_items(_format_bought(int(c), int(s["card_color"][c])) for c in _owned(s, p))
                for p in seats
            ]
        ),
        "royals": nt.owner_field(s["royal_owner"], NUM_PLAYERS, first=1),
        "claims": (
            "/".join(str(x) for x in claims)
            if claims != [_thresholds(int(x)) for x in s["crowns"]]
            else None
        ),
        "resolving": str(int(s["pend_card"])) if phase in _RESOLVING else None,
    }
    return nt.write_position(NOTATION, s, NUM_PLAYERS, own)


def _owned(s: np.void, p: int) -> list[int]:
    return [int(c) for c in np.flatnonzero(s["card_owner"] == p)]


def _format_bought(card: int, color: int) -> str:
    """``12``, or for a joker the colour it is attached to, ``40U`` (D14)."""
    if int(CARD_COLOR[card]) == COLOR_JOKER and color >= 0:
        return f"{card}{GEM_LETTERS[color]}"
    return str(card)


# --------------------------------------------------------------------------- reading


def state_from_text(text: str) -> State:
    """Read a full duel position written by :func:`to_text`.

    Raises:
        NotationError: text that cannot be read (the message names the field and says
            what is allowed), or an observation's text.
        PositionError: an impossible position, from the gate of :meth:`State.from_dict`
            (``corrupt position: …``, naming the field and the rule).
    """
    return State(nt.read_position(NOTATION, text, _read, _players))


def observation_from_text(text: str) -> Observation:
    """Read a duel observation written by :func:`to_text` (``observer=`` names its seat).

    It must hide what its seat cannot see (D22): no deck order (``deck_sizes=``), no
    generator, and the opponent's blind reserves as ``?level`` (unless the opponent is
    paying for one now); and some full position consistent with it must pass the gate of
    :meth:`State.from_dict`.

    Raises:
        NotationError: text that cannot be read, or that shows what the seat cannot see.
        PositionError: no sound position has this view (``corrupt position: …``).
    """
    return Observation(nt.read_position(NOTATION, text, _read, _players, observation=True))


def _players(fields: dict[str, str]) -> int:
    """Two seats, whatever the fields (the duel has no ``players=``)."""
    return NUM_PLAYERS


def _flag(fields: dict[str, str], key: str, rule: str) -> int:
    if key not in fields:
        return 0
    return nt.parse_int(fields[key], key, 0, 1, f"{key} ({rule}) is")


def _read(fields: dict[str, str], observer: int) -> np.ndarray:
    """Everything the text says, read field by field (the derived fields are not there),
    assembled."""
    phase = nt.require(fields, "phase", ", ".join(PHASE_WORDS))
    if "current" in fields:
        current = nt.parse_int(fields["current"], "current", 0, 1, "the seat to play is")
    elif phase == "over":
        current = -1
    else:
        raise nt.fail("current", "missing (the seat to play, 0 or 1)")
    spec = _spec(
        turn=nt.text_turn(fields),
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
        **nt.card_texts(NOTATION, fields, observer),
        privileges=fields.get("privileges"),
        royals=fields.get("royals"),
        claims=fields.get("claims"),
        resolving=(
            nt.parse_id(fields["resolving"], "resolving", NUM_CARDS, "a card id")
            if "resolving" in fields
            else None
        ),
        **nt.text_args(fields, observer),
    )
    return _assemble(spec)


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
    seed: int = nt.DEFAULT_SEED,
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
        PositionError: an impossible position (``corrupt position: …``, naming the field
            and the rule), or ``seed`` out of range.

    Example::

        >>> from splendor.duel import build_position
        >>> st = build_position(tokens=["2W1P", "-"], purchased=[[0], []], privileges=[0, 1])
        >>> st.bag, st.free_privileges
        ((0, 0, 0, 0, 0, 0, 0), 2)
    """
    nt.check_seed(seed)
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
        row=pyramid,
        decks=decks,
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
    )
    return State(nt.gate(NOTATION, _assemble(spec)))


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
    row: object,
    decks: object,
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
    deck_sizes: object = None,
    observer: int = -1,
    deal: bool = True,
) -> _Spec:
    """Read every field (text or Python values) into a :class:`_Spec`; with ``deal``, the
    board, pyramid and decks left unsaid are dealt with ``seed``. The defaults are the
    builder's (a full position, dealt); a text gives ``deck_sizes``, ``observer`` and no
    dealing (:func:`splendor.notation.text_args`)."""
    ph = nt.phase_of(NOTATION, phase)
    if not -1 <= current <= 1 or (current == -1 and ph != rules.PH_OVER):
        raise nt.fail("current", f"{current}: the seat to play is 0 or 1")
    if cap < 0:
        raise nt.fail("cap", f"{cap}: the turn cap (D25) is a positive number of turns")
    if not -1 <= winner <= 1:
        raise nt.fail("winner", f"{winner}: the winner (D21) is seat 0 or 1")
    n = NUM_PLAYERS
    toks = nt.seat_tokens(NOTATION, tokens, n, BAG_START)
    privs = nt.per_seat(privileges, "privileges", n, _privileges_of)
    res = nt.seat_reserved(NOTATION, reserved, n)
    bought = nt.per_seat(purchased, "purchased", n, _bought_of)
    held_royals = nt.per_seat(royals, "royals", n, _royals_of)
    claimed = None if claims is None else nt.per_seat(claims, "claims", n, _claims_of)
    placed: set[int] = {c for seat in bought for c, _ in seat}
    placed |= {c for seat in res for c, _, _ in seat if c >= 0}
    rnd = np.random.default_rng(seed) if deal else None
    slots, deck_lists, sizes = nt.place_cards(
        NOTATION, row, decks, deck_sizes, placed, rnd, observer
    )
    cells = _dealt_board(toks, rnd) if board is None and rnd is not None else _board_of(board)
    return _Spec(
        turn=turn,
        cap=cap,
        current=current,
        phase=ph,
        again=again,
        replenished=replenished,
        winner=winner,
        board=cells,
        row=slots,
        decks=deck_lists,
        deck_sizes=sizes,
        tokens=toks,
        privileges=privs,
        reserved=res,
        purchased=bought,
        royals=held_royals,
        claims=claimed,
        resolving=-1 if resolving is None else resolving,
        payment=nt.payment_of(NOTATION, payment),
        rng=nt.rng_value(rng, seed),
        observer=observer,
    )


def _dealt_board(tokens: list[list[int]], rnd: np.random.Generator) -> list[int]:
    """The board a builder deals when none is given: the tokens no seat holds, shuffled
    with ``rnd`` and spread in spiral order (D2); the bag is then empty.

    Raises:
        NotationError: the seats hold more tokens of a colour than the game has (D1).
    """
    free = [BAG_START[c] - sum(t[c] for t in tokens) for c in range(len(BAG_START))]
    held = [b - f for b, f in zip(BAG_START, free, strict=True)]
    nt.count_problem("tokens", held, BAG_START, DUEL_TOKEN_LETTERS, "D1")
    pool = [c for c, k in enumerate(free) for _ in range(k)]
    rnd.shuffle(pool)
    cells = [-1] * NUM_CELLS
    for i, c in enumerate(pool):
        cells[int(SPIRAL[i])] = c
    return cells


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
    s["turn_cap"] = spec.cap
    s["again"] = spec.again
    s["replenished"] = spec.replenished
    s["winner"] = spec.winner
    s["board"] = spec.board
    nt.put_cards(NOTATION, s, spec)
    on_board = [spec.board.count(c) for c in range(len(BAG_START))]
    held = [on_board[c] + sum(t[c] for t in spec.tokens) for c in range(len(BAG_START))]
    nt.count_problem("board/tokens", held, BAG_START, DUEL_TOKEN_LETTERS, "D1")
    for p in range(NUM_PLAYERS):
        s["tokens"][p] = spec.tokens[p]
    s["bag"] = [BAG_START[c] - held[c] for c in range(len(BAG_START))]
    if sum(spec.privileges) > rules.NUM_PRIVILEGES:
        raise nt.fail("privileges", f"{spec.privileges}: 3 privileges in all (D5)")
    s["privileges"] = spec.privileges
    s["card_owner"][:] = -1
    s["card_color"][:] = -1
    nt.put_owners(
        s["card_owner"], [[c for c, _ in seat] for seat in spec.purchased], "purchased", "card"
    )
    for bought in spec.purchased:
        for c, color in bought:
            s["card_color"][c] = int(CARD_COLOR[c]) if color == -2 else color
    s["royal_owner"][:] = -1
    nt.put_owners(s["royal_owner"], spec.royals, "royals", "royal card", first=1)
    _holdings(s)
    if spec.claims is None:
        s["crown_claims"] = [_thresholds(int(x)) for x in s["crowns"]]
    else:
        s["crown_claims"] = spec.claims
    s["pend_card"] = -1
    _pending(s, spec)
    nt.put_payment(NOTATION, s, spec)
    if spec.phase == rules.PH_OVER:
        s["end_reason"] = _end_reason(s, spec.winner)
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
