"""The fixed action-id table of Splendor Duel and its text notation.

Every choice the rules give a player is one *decision* with a fixed integer id
``0 <= id < NUM_ACTIONS`` and a notation string that round-trips
(``Action.parse(str(a)) == a``). A turn is a sequence of decisions by the same player:
optional privileges (D6) and replenish (D7, D12), one mandatory action (D8-D10), then, when
the rules ask for them, the payment (D10), the joker's colour (D14), the token of a
``token`` ability (D15), the stolen token (D17), the royal card (D19) and the tokens
returned at the limit (D20). A choice with a single option is made by the engine.

======== =================== ==========================================================
ids      notation            meaning
======== =================== ==========================================================
0-24     ``privilege c3``    use 1 privilege: take the gem or pearl token on c3 (D6)
25       ``replenish``       refill the board from the bag; the opponent gets a privilege
                             (D7; forced when no mandatory action is possible, D12)
26-170   ``take c3 c4 c5``   take the tokens of 1-3 adjacent cells in a line (D8)
171-195  ``gold c3``         take the gold on c3 to reserve a card (D9), then ...
196-207  ``reserve 2.3``     ... reserve the pyramid card of level 2, slot 3 (D9)
208-210  ``reserve d2``      ... or the top card of the level-2 deck, blind (D9)
211-225  ``buy 2.3``         buy a pyramid card (``buy r1``: own reserved card 1), default
                             payment (D10)
226-240  ``buy 2.3 choose``  buy, choosing the payment with ``gold C`` and ``pay`` (D10)
241-246  ``gold W``          while paying: 1 gold in place of 1 W token (``gold P``: pearl)
247      ``pay``             while paying: pay the rest with coloured tokens and pearls
248-252  ``joker W``         attach the joker just bought to your white cards (D14)
253-277  ``token c3``        ``token`` ability: take the token on c3 (D15)
278-283  ``steal W``         ``steal`` ability: take a W token from the opponent (D17)
284-287  ``royal 2``         take royal card 2 (D19)
288-294  ``return W``        return one token above 10 (``return P``, ``return *``) (D20)
295      ``pass``            only when no other decision is possible (engine ruling)
======== =================== ==========================================================

Cells are named ``a1``-``e5`` (column a-e from the left, row 1-5 from the top, see
:mod:`splendor.duel.board`). Pyramid slots are ``level.slot``: level 1 has slots 1-5,
level 2 slots 1-4, level 3 slots 1-3.
"""

from __future__ import annotations

import numpy as np

from ..colors import DUEL_TOKEN_LETTERS, GEM_LETTERS, duel_token_index
from ..errors import ParseError
from .board import NUM_CELLS, NUM_LINES, cell_name, line_cells, line_id, parse_cell
from .cards import MAX_RESERVED, NUM_PYRAMID, NUM_ROYALS_MAX, SLOT_LEVEL, pyramid_slot, slot_name

PRIVILEGE = 0
REPLENISH = 25
TAKE = 26
TAKE_GOLD = TAKE + NUM_LINES  # 171
RESERVE = TAKE_GOLD + NUM_CELLS  # 196
RESERVE_DECK = RESERVE + NUM_PYRAMID  # 208
BUY = RESERVE_DECK + 3  # 211: 12 pyramid slots, then 3 reserved slots
BUY_CHOOSE = BUY + NUM_PYRAMID + MAX_RESERVED  # 226
PAY_GOLD = BUY_CHOOSE + NUM_PYRAMID + MAX_RESERVED  # 241
PAY_DONE = PAY_GOLD + 6  # 247
JOKER = PAY_DONE + 1  # 248
TOKEN = JOKER + 5  # 253
STEAL = TOKEN + NUM_CELLS  # 278
ROYAL = STEAL + 6  # 284
RETURN_TOKEN = ROYAL + NUM_ROYALS_MAX  # 288
PASS = RETURN_TOKEN + 7  # 295
NUM_ACTIONS = PASS + 1
"""Number of distinct decision ids of Splendor Duel (296)."""

_KINDS = (
    (PRIVILEGE, "privilege"),
    (REPLENISH, "replenish"),
    (TAKE, "take"),
    (TAKE_GOLD, "take_gold"),
    (RESERVE, "reserve_pyramid"),
    (RESERVE_DECK, "reserve_deck"),
    (BUY, "buy"),
    (BUY_CHOOSE, "buy_choose"),
    (PAY_GOLD, "pay_gold"),
    (PAY_DONE, "pay"),
    (JOKER, "joker"),
    (TOKEN, "token"),
    (STEAL, "steal"),
    (ROYAL, "royal"),
    (RETURN_TOKEN, "return"),
    (PASS, "pass"),
)

NOTATION_HELP = """\
privilege c3      before your action: spend a privilege to take the token on c3 (any gem
                  or pearl, never gold); repeat for each privilege you spend
replenish         before your action: refill the board from the bag (your opponent gets
                  a privilege); forced when you could do nothing else
take c3 c4 c5     take 1-3 tokens on adjacent cells in one row, column or diagonal (no
                  gap, no gold); 3 of one colour or both pearls give your opponent a privilege
gold c3           take the gold on c3 to reserve a card, then:
  reserve 2.3     reserve the pyramid card of level 2, slot 3 (level 1: slots 1-5,
                  level 2: 1-4, level 3: 1-3), or
  reserve d2      reserve the top card of the level-2 deck without looking (blind)
buy 2.3           buy a pyramid card (default payment: coloured tokens and pearls first,
                  then gold)
buy r1            buy your reserved card 1 (1-3)
buy 2.3 choose    buy, then choose the payment: 'gold W' spends a gold for a W ('gold P'
                  for a pearl), 'pay' ends (offered only when you hold spare gold)
joker W           attach the joker you bought to your white cards (W U G R K)
token c3          a 'token' card: take the token of its colour on c3
steal W           a 'steal' card: take a W token from your opponent (W U G R K P)
royal 2           take royal card 2 (at 3 and at 6 crowns)
return W          return one token when above 10 (W U G R K P, * for gold)
pass              only when nothing else is possible
Cells: columns a-e from the left, rows 1-5 from the top (c3 is the centre)."""


class Action:
    """One decision of Splendor Duel: a fixed id and its notation.

    Instances are interned: ``Action.from_id(i)`` always returns the same object, so
    comparison and hashing are by id. Build them with :meth:`from_id` or :meth:`parse`.

    Attributes:
        id: the fixed integer id, ``0 <= id < NUM_ACTIONS``.
        kind: one of ``privilege, replenish, take, take_gold, reserve_pyramid,
            reserve_deck, buy, buy_choose, pay_gold, pay, joker, token, steal, royal,
            return, pass``.
        cells: board cells involved (privilege, take, take_gold, token), else ``()``.
        colors: token indices involved (pay_gold, joker, steal, return: 0..6), else ``()``.
        level: 1-3 for pyramid cards and decks, else ``None``.
        slot: 1-based pyramid slot within its level, reserved slot (buy ``r``) or royal
            card, else ``None``.
        reserved: True for ``buy r1``-style actions on one's own reserved cards.
    """

    __slots__ = ("id", "kind", "cells", "colors", "level", "slot", "reserved", "_text")

    id: int
    kind: str
    cells: tuple[int, ...]
    colors: tuple[int, ...]
    level: int | None
    slot: int | None
    _text: str
    reserved: bool

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
        cells: tuple[int, ...] = ()
        colors: tuple[int, ...] = ()
        level = slot = None
        reserved = False
        if kind in ("privilege", "take_gold", "token"):
            cells = (k,)
            verb = {"privilege": "privilege", "take_gold": "gold", "token": "token"}[kind]
            text = f"{verb} {cell_name(k)}"
        elif kind == "replenish":
            text = "replenish"
        elif kind == "take":
            cells = line_cells(k)
            text = "take " + " ".join(cell_name(c) for c in cells)
        elif kind == "reserve_pyramid":
            level = int(SLOT_LEVEL[k]) + 1
            slot = int(slot_name(k).split(".")[1])
            text = f"reserve {slot_name(k)}"
        elif kind == "reserve_deck":
            level = k + 1
            text = f"reserve d{level}"
        elif kind in ("buy", "buy_choose"):
            if k < NUM_PYRAMID:
                level = int(SLOT_LEVEL[k]) + 1
                slot = int(slot_name(k).split(".")[1])
                where = slot_name(k)
            else:
                slot = k - NUM_PYRAMID + 1
                reserved = True
                where = f"r{slot}"
            text = f"buy {where}" + (" choose" if kind == "buy_choose" else "")
        elif kind in ("pay_gold", "steal", "return"):
            colors = (k,)
            verb = {"pay_gold": "gold", "steal": "steal", "return": "return"}[kind]
            text = f"{verb} {DUEL_TOKEN_LETTERS[k]}"
        elif kind == "joker":
            colors = (k,)
            text = f"joker {GEM_LETTERS[k]}"
        elif kind == "royal":
            slot = k + 1
            text = f"royal {slot}"
        elif kind == "pay":
            text = "pay"
        else:
            text = "pass"
        self.id, self.kind, self.cells, self.colors = i, kind, cells, colors
        self.level, self.slot, self.reserved, self._text = level, slot, reserved, text
        return self

    @classmethod
    def from_id(cls, i: int) -> Action:
        """The decision with id ``i``.

        Raises:
            ParseError: ``i`` is not an integer with ``0 <= i < NUM_ACTIONS``; the message
                quotes it.
        """
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
            raise ParseError(f"an action id must be an integer, got {i!r}")
        if not 0 <= int(i) < NUM_ACTIONS:
            raise ParseError(f"action id must be 0..{NUM_ACTIONS - 1}, got {i}")
        return ACTIONS[int(i)]

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read one decision in notation (case and spacing are free; the cells of a
        ``take`` may come in any order).

        Raises:
            ParseError: malformed text (or not a string); the message quotes it, says what
                was wrong and lists the notation.
        """
        if not isinstance(text, str):
            raise ParseError(f"an action must be a string, got {text!r}")
        words = text.strip().lower().replace(",", " ").split()
        try:
            return ACTIONS[_parse_words(words)]
        except ValueError as e:
            raise ParseError(f"cannot read action {text!r}: {e}\n{NOTATION_HELP}") from None

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"duel.Action({self._text!r}, id={self.id})"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Action.from_id, (self.id,))


def _is_cell(word: str) -> bool:
    return len(word) == 2 and word[0] in "abcde" and word[1] in "12345"


def _one(words: list[str], what: str) -> str:
    if len(words) != 2:
        raise ValueError(f"'{words[0]}' takes exactly one {what}")
    return words[1]


def _source(word: str, *, allow_reserved: bool) -> int:
    """Pyramid index 0..11, or 12..14 for ``r1``-``r3``."""
    if allow_reserved and len(word) == 2 and word[0] == "r" and word[1] in "123":
        return NUM_PYRAMID + int(word[1]) - 1
    parts = word.split(".")
    if len(parts) != 2 or not parts[0].isdigit() or not parts[1].isdigit():
        extra = " or r1-r3" if allow_reserved else " or d1-d3"
        raise ValueError(f"expected a pyramid slot like 2.3{extra}, got {word!r}")
    return pyramid_slot(int(parts[0]), int(parts[1]))


def _parse_words(words: list[str]) -> int:
    if not words:
        raise ValueError("empty action")
    verb = words[0]
    if verb in ("replenish", "pay", "pass"):
        if len(words) != 1:
            raise ValueError(f"'{verb}' takes no argument")
        return {"replenish": REPLENISH, "pay": PAY_DONE, "pass": PASS}[verb]
    if verb == "privilege":
        return PRIVILEGE + parse_cell(_one(words, "cell"))
    if verb == "token":
        return TOKEN + parse_cell(_one(words, "cell"))
    if verb == "take":
        if not 2 <= len(words) <= 4:
            raise ValueError("'take' names 1 to 3 cells, like 'take c3 c4 c5'")
        return TAKE + line_id([parse_cell(w) for w in words[1:]])
    if verb == "gold":
        arg = _one(words, "cell or colour")
        if _is_cell(arg):
            return TAKE_GOLD + parse_cell(arg)
        c = duel_token_index(arg)
        if c > 5:
            raise ValueError("'gold C' pays for a colour W U G R K or P")
        return PAY_GOLD + c
    if verb == "reserve":
        arg = _one(words, "pyramid slot or deck")
        if len(arg) == 2 and arg[0] == "d" and arg[1] in "123":
            return RESERVE_DECK + int(arg[1]) - 1
        return RESERVE + _source(arg, allow_reserved=False)
    if verb == "buy":
        if len(words) == 3 and words[2] == "choose":
            return BUY_CHOOSE + _source(words[1], allow_reserved=True)
        if len(words) != 2:
            raise ValueError("'buy' takes a slot like 2.3 or r1, optionally followed by 'choose'")
        return BUY + _source(words[1], allow_reserved=True)
    if verb in ("steal", "return"):
        c = duel_token_index(_one(words, "token colour"))
        if verb == "steal" and c > 5:
            raise ValueError("gold cannot be stolen (D17)")
        return (STEAL if verb == "steal" else RETURN_TOKEN) + c
    if verb == "joker":
        c = duel_token_index(_one(words, "gem colour"))
        if c > 4:
            raise ValueError("a joker takes a gem colour W U G R K (D14)")
        return JOKER + c
    if verb == "royal":
        arg = _one(words, "royal card number")
        if not arg.isdigit() or not 1 <= int(arg) <= NUM_ROYALS_MAX:
            raise ValueError(f"royal cards are numbered 1-{NUM_ROYALS_MAX}, got {arg!r}")
        return ROYAL + int(arg) - 1
    raise ValueError(
        f"unknown verb {verb!r}; expected privilege, replenish, take, gold, reserve, buy, "
        "pay, joker, token, steal, royal, return or pass"
    )


ACTIONS: tuple[Action, ...] = tuple(Action._make(i) for i in range(NUM_ACTIONS))
"""Every decision, indexed by id."""
