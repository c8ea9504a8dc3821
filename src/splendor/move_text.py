"""Moves in sentences: what a decision did, in the reader's language ("Ann takes 1 white,
1 blue and 1 green"), for every place a person reads a move (the log, the last turn, the
result, a replay, an analysis, the terminal). Notation (``take W U G``) stays for records,
bots and the command line.

A sentence is made in two steps, so that a server can say a move in any language long
after the position it was played in is gone:

1. :func:`move_facts` reads what the sentence needs from the position *before* the decision
   (a :class:`~splendor.classic.State` or any seat's observation, classic or Duel): the
   colours of the tokens taken (C6, C7; Duel D6, D8 by their cells), the card bought or
   reserved (its level, bonus colour and points, C8, C9, D9, D10), whether a gold comes with a
   reserve (C8), the noble (C12) or royal card (D19) chosen... It returns a
   :class:`MoveFacts`, plain values and no language.
2. :func:`say` writes a :class:`MoveFacts` in a language (``splendor`` catalogue, the words
   of :mod:`splendor.move_words`), with the players called by the names given
   (``{seat0}``-style placeholders for a client that fills them, :func:`seat_placeholders`),
   or to the person who played it ("you take…").

:func:`move_sentence` does both. Token counts go through ``ngettext`` ("2 red"); colours are
words of the language, never the notation's letters.

Example::

    from splendor import classic
    from splendor.move_text import move_sentence

    state = classic.new_game(2, seed=1)
    move_sentence(state, classic.Action.parse("take W U G"), ["Ann", "Bob"], "fr")
    # 'Ann prend 1 blanc, 1 bleu et 1 vert'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import astuple, dataclass
from typing import Any

from .i18n import Messages, messages
from .move_words import SECOND, THIRD, Words, card_text, colour_word, listed, tokens_text

TOKEN_KEYS = ("white", "blue", "green", "red", "black", "pearl", "gold")
"""The colour keys a :class:`MoveFacts` uses for tokens and bonuses (gems, pearl, gold)."""

CLASSIC_TOKENS = TOKEN_KEYS[:5] + ("gold",)
"""Classic token index (``W U G R K *``) -> colour key."""

DUEL_TOKENS = TOKEN_KEYS
"""Duel token index (``W U G R K P *``) -> colour key."""


@dataclass(frozen=True)
class CardWords:
    """What a sentence says of a card.

    Attributes:
        level: 1-3 (0 for an empty slot).
        bonus: a gem colour key of :data:`TOKEN_KEYS`, ``"joker"`` (Duel D14), ``"none"`` (a
            Duel card without a bonus), ``"hidden"`` (a blind reserve the reader cannot see,
            C16, D22) or ``"empty"`` (no card there).
        bonus_count: bonuses it gives (Duel cards may give 2).
        points: prestige points.
    """

    level: int
    bonus: str
    bonus_count: int = 1
    points: int = 0


@dataclass(frozen=True)
class MoveFacts:
    """One decision as a sentence needs it, in no language (:func:`move_facts`).

    Attributes:
        kind: the sentence (a key of the table of :func:`say`: ``take``, ``take_cells``,
            ``privilege``, ``replenish``, ``take_gold``, ``reserve``, ``reserve_deck``,
            ``buy``, ``buy_reserved``, ``pay_gold``, ``pay``, ``return``, ``noble``,
            ``joker``, ``token``, ``steal``, ``royal``, ``pass``).
        seat: who made it.
        tokens: ``(colour key, count)`` pairs: the tokens taken, returned, stolen or paid
            for; a noble's requirement.
        cells: Duel board cells (``"c3"``).
        card: the card bought or reserved, else None.
        place: where: a face-up slot ``"2.3"``, a reserved slot ``"1"``, a deck's or royal
            card's number; else ``""``.
        other: the seat something is taken from (Duel steal), else -1.
        points: a royal card's points.
        gold: a reserve that takes a gold (C8).
        choose: a purchase whose payment the player chooses (C9, D10).
    """

    kind: str
    seat: int
    tokens: tuple[tuple[str, int], ...] = ()
    cells: tuple[str, ...] = ()
    card: CardWords | None = None
    place: str = ""
    other: int = -1
    points: int = 0
    gold: bool = False
    choose: bool = False


# ------------------------------------------------------------------ reading a position


def _token_keys(before: Any) -> tuple[str, ...]:
    """The colour keys of the game's token indices (Duel has a board and pearls)."""
    return DUEL_TOKENS if hasattr(before, "board") else CLASSIC_TOKENS


def _card_words(card: Any) -> CardWords:
    """:class:`CardWords` of a classic or Duel card, a hidden card or None (empty)."""
    if card is None:
        return CardWords(0, "empty")
    if not hasattr(card, "points"):  # HiddenCard: only its level is public
        return CardWords(int(card.level), "hidden")
    if hasattr(card, "bonus"):  # classic
        return CardWords(card.level, TOKEN_KEYS[card.bonus], 1, card.points)
    color = int(card.color)
    bonus = "none" if color < 0 else "joker" if color == 5 else TOKEN_KEYS[color]
    return CardWords(card.level, bonus, int(card.bonus_count), int(card.points))


def _table_card(before: Any, level: int, slot: int) -> CardWords:
    rows = before.pyramid if hasattr(before, "pyramid") else before.faceup
    row = rows[level - 1]
    return _card_words(row[slot - 1] if slot <= len(row) else None)


def _reserved_card(before: Any, seat: int, slot: int) -> CardWords:
    reserved = before.player(seat).reserved
    return _card_words(reserved[slot - 1] if slot <= len(reserved) else None)


def _counted(keys: Sequence[str], colors: Sequence[int]) -> tuple[tuple[str, int], ...]:
    """``(key, count)`` of ``colors`` (token indices), in the order they first appear."""
    out: dict[str, int] = {}
    for c in colors:
        out[keys[c]] = out.get(keys[c], 0) + 1
    return tuple(out.items())


def _cell_name(cell: int) -> str:
    return "abcde"[cell % 5] + str(cell // 5 + 1)


def _board_tokens(before: Any, cells: Sequence[int]) -> tuple[tuple[str, int], ...]:
    board = before.board
    return _counted(DUEL_TOKENS, [board[c] for c in cells if board[c] is not None])


def _card_move(before: Any, action: Any, seat: int) -> MoveFacts:
    """A reserve or a purchase (C8, C9, D9, D10)."""
    kind = str(action.kind)
    choose = kind == "buy_choose"
    if kind == "reserve_deck":
        gold = hasattr(before, "supply") and before.supply[-1] > 0
        return MoveFacts("reserve_deck", seat, place=str(action.level), gold=gold)
    if action.level is None or getattr(action, "reserved", False):
        card = _reserved_card(before, seat, action.slot)
        return MoveFacts("buy_reserved", seat, card=card, place=str(action.slot), choose=choose)
    card = _table_card(before, action.level, action.slot)
    place = f"{action.level}.{action.slot}"
    if kind.startswith("reserve"):
        gold = hasattr(before, "supply") and before.supply[-1] > 0
        return MoveFacts("reserve", seat, card=card, place=place, gold=gold)
    return MoveFacts("buy", seat, card=card, place=place, choose=choose)


_CARD_KINDS = frozenset(
    {"reserve_faceup", "reserve_pyramid", "reserve_deck", "buy_faceup", "buy_reserved", "buy"}
    | {"buy_choose"}
)
_CELL_KINDS = {"take": "take_cells", "privilege": "privilege", "token": "token"}


def move_facts(before: Any, action: Any) -> MoveFacts:
    """What a sentence needs of ``action`` (a classic or Duel action) played in ``before``
    by ``before.current_player`` (a state or an observation, of the position just before
    the decision; only public parts and the observer's own are read).

    Any action id gives facts, legal or not (an empty slot or cell is said as such).

    Raises:
        ValueError: ``before`` is a finished game (nobody plays).
    """
    seat = before.current_player
    if seat is None:
        raise ValueError("the game is over: nobody makes a decision")
    kind = str(action.kind)
    keys = _token_keys(before)
    if kind in _CARD_KINDS:
        return _card_move(before, action, seat)
    if kind in _CELL_KINDS:
        cells = tuple(int(c) for c in action.cells)
        names = tuple(_cell_name(c) for c in cells)
        return MoveFacts(_CELL_KINDS[kind], seat, _board_tokens(before, cells), names)
    if kind == "take_gold":
        return MoveFacts("take_gold", seat, cells=(_cell_name(int(action.cells[0])),))
    if kind.startswith("take"):  # classic take3, take2_different, take1, take2_same (C6, C7)
        return MoveFacts("take", seat, _counted(keys, action.colors))
    if kind in ("pay_gold", "return", "steal"):
        other = 1 - seat if kind == "steal" else -1
        return MoveFacts(kind, seat, _counted(keys, action.colors), other=other)
    if kind == "joker":
        return MoveFacts("joker", seat, _counted(keys, action.colors))
    if kind == "noble":
        noble = before.nobles[action.slot - 1] if action.slot <= len(before.nobles) else None
        need = (
            ()
            if noble is None
            else tuple((TOKEN_KEYS[c], int(n)) for c, n in enumerate(noble.requirement) if n)
        )
        return MoveFacts("noble", seat, need, place=str(action.slot))
    if kind == "royal":
        royal = before.royals[action.slot - 1]
        points = -1 if royal is None else int(royal.points)
        return MoveFacts("royal", seat, place=str(action.slot), points=points)
    if kind in ("replenish", "pay", "pass"):
        return MoveFacts(kind, seat)
    raise ValueError(f"no sentence for a decision of kind {kind!r}")


def _variant(facts: MoveFacts) -> str:
    """The key of the sentence of ``facts`` in :data:`~splendor.move_words.THIRD`."""
    if facts.gold:
        return f"{facts.kind}+gold"
    if facts.choose:
        return f"{facts.kind}+choose"
    if (facts.kind == "noble" and not facts.tokens) or (facts.kind == "royal" and facts.points < 0):
        return f"{facts.kind}+empty"
    return facts.kind


def _words(t: Messages, facts: MoveFacts, names: Sequence[str]) -> Words:
    card = facts.card
    return {
        "name": names[facts.seat],
        "other": names[facts.other] if facts.other >= 0 else "",
        "tokens": tokens_text(t, facts.tokens),
        "colour": colour_word(t, facts.tokens[0][0] if facts.tokens else "white"),
        "cells": listed(t, list(facts.cells)),
        "card": "" if card is None else card_text(t, *astuple(card)),
        "place": facts.place,
        "points": t.ngettext("{n} point", "{n} points", facts.points, n=facts.points),
    }


def say(facts: MoveFacts, names: Sequence[str], language: str = "en", you: bool = False) -> str:
    """The sentence of ``facts`` in ``language``, the players called by ``names`` (by
    seat); ``you``: said to the player who made it ("you take…", the terminal's person),
    not of them.

    Raises:
        ValueError: an unknown language, or facts of an unknown kind.
        IndexError: a seat without a name.
    """
    t = messages(language)
    sentence = (SECOND if you else THIRD).get(_variant(facts))
    if sentence is None:
        raise ValueError(f"no sentence for a decision of kind {facts.kind!r}")
    return sentence(t, _words(t, facts, names))


def seat_placeholders(num_players: int) -> list[str]:
    """``["{seat0}", "{seat1}", ...]``: names for a sentence that a client fills with the
    names it shows (as :func:`splendor.effects.described` does)."""
    return [f"{{seat{k}}}" for k in range(num_players)]


def move_sentence(
    before: Any, action: Any, names: Sequence[str], language: str = "en", you: bool = False
) -> str:
    """The sentence of ``action`` played in ``before`` (:func:`move_facts`, then
    :func:`say`).

    Raises:
        ValueError: a finished game, or an unknown language.
        IndexError: a seat without a name.
    """
    return say(move_facts(before, action), names, language, you)


__all__ = [
    "CLASSIC_TOKENS",
    "DUEL_TOKENS",
    "TOKEN_KEYS",
    "CardWords",
    "MoveFacts",
    "move_facts",
    "move_sentence",
    "say",
    "seat_placeholders",
]
