"""The fixed action-id table of classic Splendor and its text notation.

Every choice the rules give a player is one *decision* with a fixed integer id
``0 <= id < NUM_ACTIONS`` (for masks, RL and OpenSpiel) and a notation string that
round-trips (``Action.parse(str(a)) == a``). A turn is a sequence of decisions by the same
player: one main action (C6-C9, C17), then, when the rules ask for it, the payment (C9),
token returns one at a time (C11) and the noble choice (C12).

======  ===================  =========================================================
ids     notation             meaning
======  ===================  =========================================================
0-9     ``take W U G``       3 tokens of 3 different gem colours (C6)
10-19   ``take W U``         2 different colours, only when only 2 colours are left (C6)
20-24   ``take W``           1 token, only when only 1 colour is left (C6)
25-29   ``take R R``         2 tokens of one colour from a pile of 4 or more (C7)
30-41   ``reserve 2.3``      reserve the face-up card of level 2, slot 3 (C8)
42-44   ``reserve d2``       reserve the top card of the level-2 deck, blind (C8)
45-56   ``buy 2.3``          buy a face-up card, default payment (C9)
57-59   ``buy r1``           buy own reserved card 1, default payment (C9)
60-74   ``buy 2.3 choose``   buy, choosing the payment with ``gold``/``pay`` (C9)
75-79   ``gold W``           while paying: spend 1 gold in place of 1 W token (C9)
80      ``pay``              while paying: pay the rest with coloured tokens (C9)
81-86   ``return W``         return 1 token (``return *`` for gold) above 10 (C11)
87-91   ``noble 2``          choose the noble in slot 2 of the noble row (C12)
92      ``pass``             no other action is legal (C17)
======  ===================  =========================================================

Levels are 1-3 and slots 1-based in the notation; ids use 0-based levels and slots.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from ..colors import GEM_LETTERS, NUM_GEMS, TOKEN_LETTERS, token_index
from ..errors import ParseError
from .cards import FACEUP_PER_LEVEL, MAX_NOBLES_SHOWN, MAX_RESERVED, NUM_LEVELS

# --- the id table (module constants are compile-time constants for numba) -------------
TAKE3 = 0
TAKE2_DIFF = 10
TAKE1 = 20
TAKE2_SAME = 25
RESERVE_FACEUP = 30
RESERVE_DECK = 42
BUY_FACEUP = 45
BUY_RESERVED = 57
BUY_CHOOSE = 60  # 12 face-up then 3 reserved
PAY_GOLD = 75
PAY_DONE = 80
RETURN_TOKEN = 81
CHOOSE_NOBLE = 87
PASS = 92
NUM_ACTIONS = 93
"""Number of distinct decision ids of classic Splendor."""

NUM_FACEUP = NUM_LEVELS * FACEUP_PER_LEVEL  # 12

TAKE3_COLORS = np.array(list(combinations(range(NUM_GEMS), 3)), dtype=np.int8)
"""Colours of each ``take`` of 3, shape (10, 3), in id order."""
TAKE2_COLORS = np.array(list(combinations(range(NUM_GEMS), 2)), dtype=np.int8)
"""Colours of each ``take`` of 2 different colours, shape (10, 2), in id order."""
TAKE3_COLORS.setflags(write=False)
TAKE2_COLORS.setflags(write=False)

_KINDS = (
    (TAKE3, "take3"),
    (TAKE2_DIFF, "take2_different"),
    (TAKE1, "take1"),
    (TAKE2_SAME, "take2_same"),
    (RESERVE_FACEUP, "reserve_faceup"),
    (RESERVE_DECK, "reserve_deck"),
    (BUY_FACEUP, "buy_faceup"),
    (BUY_RESERVED, "buy_reserved"),
    (BUY_CHOOSE, "buy_choose"),
    (PAY_GOLD, "pay_gold"),
    (PAY_DONE, "pay"),
    (RETURN_TOKEN, "return"),
    (CHOOSE_NOBLE, "noble"),
    (PASS, "pass"),
)

NOTATION_HELP = """\
take W U G        take 3 gem tokens of different colours (letters W U G R K)
take W U / take W only when fewer than 3 gem colours are left in the supply
take R R          take 2 tokens of one colour (its pile must hold 4 or more)
reserve 2.3       reserve face-up card: level 2, slot 3 (levels 1-3, slots 1-4)
reserve d2        reserve the top card of the level-2 deck without looking (blind)
buy 2.3           buy a face-up card (default payment: coloured tokens first, then gold)
buy r1            buy your reserved card 1 (1-3)
buy 2.3 choose    buy, then choose the payment: 'gold W' spends a gold for a W, 'pay' ends
                  (offered only when you hold spare gold, so a payment choice exists)
return W          return one token when above 10 (return * for gold)
noble 2           choose the noble in slot 2 of the noble row (when several visit you)
pass              only when no other action is legal"""


class Action:
    """One decision of classic Splendor: a fixed id and its notation.

    Instances are interned: ``Action.from_id(i)`` always returns the same object, so
    comparison and hashing are by id. Build them with :meth:`from_id` or :meth:`parse`.

    Attributes:
        id: the fixed integer id, ``0 <= id < NUM_ACTIONS``.
        kind: one of ``take3, take2_different, take1, take2_same, reserve_faceup,
            reserve_deck, buy_faceup, buy_reserved, buy_choose, pay_gold, pay, return,
            noble, pass``.
        colors: token indices involved (take, gold, return), else ``()``.
        level: 1-3 for face-up cards and decks, else ``None``.
        slot: 1-based face-up slot, reserved slot or noble slot, else ``None``.
    """

    __slots__ = ("id", "kind", "colors", "level", "slot", "_text")

    id: int
    kind: str
    colors: tuple[int, ...]
    level: int | None
    slot: int | None
    _text: str

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise TypeError("use Action.from_id(i) or Action.parse(text)")

    @classmethod
    def _make(cls, i: int) -> Action:
        self = object.__new__(cls)
        kind, base = "", 0
        for start, name in _KINDS:
            if i >= start:
                kind, base = name, start
        k = i - base
        colors: tuple[int, ...] = ()
        level = slot = None
        if kind == "take3":
            colors = tuple(int(c) for c in TAKE3_COLORS[k])
            text = "take " + " ".join(GEM_LETTERS[c] for c in colors)
        elif kind == "take2_different":
            colors = tuple(int(c) for c in TAKE2_COLORS[k])
            text = "take " + " ".join(GEM_LETTERS[c] for c in colors)
        elif kind == "take1":
            colors = (k,)
            text = f"take {GEM_LETTERS[k]}"
        elif kind == "take2_same":
            colors = (k, k)
            text = f"take {GEM_LETTERS[k]} {GEM_LETTERS[k]}"
        elif kind in ("reserve_faceup", "buy_faceup") or (kind == "buy_choose" and k < NUM_FACEUP):
            level, slot = k // FACEUP_PER_LEVEL + 1, k % FACEUP_PER_LEVEL + 1
            verb = "reserve" if kind == "reserve_faceup" else "buy"
            text = f"{verb} {level}.{slot}" + (" choose" if kind == "buy_choose" else "")
        elif kind == "reserve_deck":
            level = k + 1
            text = f"reserve d{level}"
        elif kind in ("buy_reserved", "buy_choose"):
            slot = k + 1 if kind == "buy_reserved" else k - NUM_FACEUP + 1
            text = f"buy r{slot}" + (" choose" if kind == "buy_choose" else "")
        elif kind == "pay_gold":
            colors = (k,)
            text = f"gold {GEM_LETTERS[k]}"
        elif kind == "pay":
            text = "pay"
        elif kind == "return":
            colors = (k,)
            text = f"return {TOKEN_LETTERS[k]}"
        elif kind == "noble":
            slot = k + 1
            text = f"noble {slot}"
        else:
            text = "pass"
        self.id, self.kind, self.colors, self.level, self.slot = i, kind, colors, level, slot
        self._text = text
        return self

    @classmethod
    def from_id(cls, i: int) -> Action:
        """Return the action with id ``i``.

        Raises:
            ParseError: ``i`` is not an integer in ``0 <= i < NUM_ACTIONS`` (93); the message
                quotes it.
        """
        if isinstance(i, (int, np.integer)) and not isinstance(i, bool) and 0 <= i < NUM_ACTIONS:
            return ACTIONS[int(i)]
        return _bad_id(i)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse an action in notation (case-insensitive, extra spaces ignored).

        Examples: ``take W U G``, ``take R R``, ``reserve 2.3``, ``reserve d1``,
        ``buy r2``, ``buy 3.1 choose``, ``gold K``, ``pay``, ``return *``, ``noble 1``,
        ``pass``. See :data:`NOTATION_HELP`.

        Raises:
            ParseError: the text is not a well-formed action (or not a string); the message
                quotes it and lists the forms.
        """
        if not isinstance(text, str):
            raise ParseError(f"an action must be a string, got {type(text).__name__}: {text!r}")
        key = " ".join(text.lower().split())
        found = _BY_TEXT.get(key)
        if found is None:
            found = _parse_loose(key)
        if found is None:
            raise ParseError(f"not an action: {text!r}. Actions look like:\n{NOTATION_HELP}")
        return found

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Action({self._text!r}, id={self.id})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and other.id == self.id

    def __hash__(self) -> int:
        return hash(("classic", self.id))

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Action.from_id, (self.id,))


def _bad_id(i: object) -> Action:
    raise ParseError(f"action id must be an integer 0 <= id < {NUM_ACTIONS}, got {i!r}")


ACTIONS: tuple[Action, ...] = tuple(Action._make(i) for i in range(NUM_ACTIONS))
"""Every action, indexed by id."""

_BY_TEXT: dict[str, Action] = {str(a).lower(): a for a in ACTIONS}


def _parse_loose(key: str) -> Action | None:
    """Accept takes in any colour order (``take G W U``) and ``gold``/``return`` by name."""
    parts = key.split()
    if not parts:
        return None
    if parts[0] == "take" and 2 <= len(parts) <= 4:
        try:
            colors = sorted(token_index(p) for p in parts[1:])
        except ValueError:
            return None
        if any(c >= NUM_GEMS for c in colors):
            return None
        canon = "take " + " ".join(GEM_LETTERS[c] for c in colors)
        return _BY_TEXT.get(canon.lower())
    if parts[0] in ("return", "gold") and len(parts) == 2:
        try:
            c = token_index(parts[1])
        except ValueError:
            return None
        return _BY_TEXT.get(f"{parts[0]} {TOKEN_LETTERS[c]}".lower())
    return None


def faceup_index(level: int, slot: int) -> int:
    """Return the 0-based face-up position ``(level-1)*4 + (slot-1)`` (levels 1-3, slots 1-4)."""
    return (level - 1) * FACEUP_PER_LEVEL + (slot - 1)


__all__ = [
    "ACTIONS",
    "Action",
    "NOTATION_HELP",
    "NUM_ACTIONS",
    "MAX_RESERVED",
    "MAX_NOBLES_SHOWN",
]
