"""The words of the moves' sentences (:mod:`splendor.move_text`), in the ``splendor``
catalogue: colours ("blue"), counted tokens ("2 red", through ``ngettext``), lists ("1 white,
1 blue and 1 green"), cards ("a level-2 card (blue, 1 point)") and the sentence of each
kind of decision, said of a player by name ("Ann takes…") or to the person playing ("you
take…", the terminal's own seat)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .i18n import Messages

Words = dict[str, str]
"""The fields a sentence may use: ``name``, ``other``, ``tokens``, ``colour``, ``cells``,
``card``, ``place``, ``points``."""

Sentence = Callable[[Messages, Words], str]


def _count(t: Messages, key: str, n: int) -> str:
    """``n`` tokens (or bonuses) of colour ``key``: "2 red"."""
    if key == "white":
        return t.ngettext("{n} white", "{n} white", n, n=n)
    if key == "blue":
        return t.ngettext("{n} blue", "{n} blue", n, n=n)
    if key == "green":
        return t.ngettext("{n} green", "{n} green", n, n=n)
    if key == "red":
        return t.ngettext("{n} red", "{n} red", n, n=n)
    if key == "black":
        return t.ngettext("{n} black", "{n} black", n, n=n)
    if key == "pearl":
        return t.ngettext("{n} pearl", "{n} pearls", n, n=n)
    if key == "gold":
        return t.ngettext("{n} gold", "{n} gold", n, n=n)
    raise ValueError(f"unknown token colour {key!r}")


LETTER_KEYS = {
    "W": "white",
    "U": "blue",
    "G": "green",
    "R": "red",
    "K": "black",
    "P": "pearl",
    "*": "gold",
}
"""The notation's token letters (both games) -> colour keys."""


def letter_tokens(t: Messages, counts: Sequence[tuple[str, int]]) -> str:
    """``(notation letter, count)`` pairs as words of ``t``'s language: ``[("U", 3), ("R",
    5)]`` -> "3 blue and 5 red" (where an explanation would otherwise show ``3U 5R``).

    Raises:
        KeyError: not a token letter (``W U G R K P *``).
    """
    return tokens_text(t, [(LETTER_KEYS[letter], n) for letter, n in counts])


def colour_word(t: Messages, key: str) -> str:
    """The word of a colour key (``white`` … ``black``, ``pearl``, ``gold``) alone ("blue"),
    in ``t``'s language.

    Raises:
        ValueError: an unknown key.
    """
    words = {
        "white": t.gettext("white"),
        "blue": t.gettext("blue"),
        "green": t.gettext("green"),
        "red": t.gettext("red"),
        "black": t.gettext("black"),
        "pearl": t.gettext("pearl"),
        "gold": t.gettext("gold"),
    }
    if key not in words:
        raise ValueError(f"unknown token colour {key!r}")
    return words[key]


def listed(t: Messages, items: Sequence[str]) -> str:
    """``items`` as a list of the language: "a", "a and b", "a, b and c"; "" for none."""
    if not items:
        return ""
    text = items[0]
    for k, item in enumerate(items[1:], start=2):
        if k == len(items):
            text = t.gettext("{items} and {item}", items=text, item=item)
        else:
            text = t.gettext("{items}, {item}", items=text, item=item)
    return text


def tokens_text(t: Messages, tokens: Sequence[tuple[str, int]]) -> str:
    """``(colour key, count)`` pairs as words ("1 white, 1 blue and 1 green"); the word for
    nothing when there are none (an empty cell)."""
    if not tokens:
        return t.gettext("nothing")
    return listed(t, [_count(t, key, n) for key, n in tokens])


def card_text(t: Messages, level: int, bonus: str, bonus_count: int, points: int) -> str:
    """A card in words: "a level-2 card (blue, 1 point)"; ``bonus`` is a colour key,
    ``joker``, ``none`` (no bonus), ``hidden`` (a blind reserve) or ``empty`` (no card)."""
    if bonus == "empty":
        return t.gettext("an empty slot")
    if bonus == "hidden":
        return t.gettext("a hidden level-{level} card", level=level)
    if bonus == "joker":
        shown = t.gettext("joker")
    elif bonus == "none":
        shown = t.gettext("no bonus")
    elif bonus_count > 1:
        shown = t.gettext("{colour} ×{n}", colour=colour_word(t, bonus), n=bonus_count)
    else:
        shown = colour_word(t, bonus)
    said = t.ngettext("{n} point", "{n} points", points, n=points)
    return t.gettext(
        "a level-{level} card ({bonus}, {points})", level=level, bonus=shown, points=said
    )


THIRD: dict[str, Sentence] = {
    "take": lambda t, w: t.gettext("{name} takes {tokens}", **w),
    "take_cells": lambda t, w: t.gettext("{name} takes {tokens} from {cells}", **w),
    "privilege": lambda t, w: t.gettext(
        "{name} uses a privilege to take {tokens} from {cells}", **w
    ),
    "replenish": lambda t, w: t.gettext("{name} replenishes the board", **w),
    "take_gold": lambda t, w: t.gettext("{name} takes the gold on {cells} to reserve a card", **w),
    "reserve": lambda t, w: t.gettext("{name} reserves {card} from slot {place}", **w),
    "reserve+gold": lambda t, w: t.gettext(
        "{name} reserves {card} from slot {place} and takes 1 gold", **w
    ),
    "reserve_deck": lambda t, w: t.gettext(
        "{name} reserves the top card of the level-{place} deck", **w
    ),
    "reserve_deck+gold": lambda t, w: t.gettext(
        "{name} reserves the top card of the level-{place} deck and takes 1 gold", **w
    ),
    "buy": lambda t, w: t.gettext("{name} buys {card} from slot {place}", **w),
    "buy+choose": lambda t, w: t.gettext(
        "{name} buys {card} from slot {place}, choosing the payment", **w
    ),
    "buy_reserved": lambda t, w: t.gettext(
        "{name} buys {card} from their reserve (slot {place})", **w
    ),
    "buy_reserved+choose": lambda t, w: t.gettext(
        "{name} buys {card} from their reserve (slot {place}), choosing the payment", **w
    ),
    "pay_gold": lambda t, w: t.gettext("{name} spends 1 gold in place of {tokens}", **w),
    "pay": lambda t, w: t.gettext("{name} pays the rest with their tokens", **w),
    "return": lambda t, w: t.gettext("{name} returns {tokens}", **w),
    "noble": lambda t, w: t.gettext("{name} chooses the noble asking for {tokens} (3 points)", **w),
    "noble+empty": lambda t, w: t.gettext("{name} chooses noble {place}", **w),
    "joker": lambda t, w: t.gettext("{name} gives the joker the colour {colour}", **w),
    "token": lambda t, w: t.gettext("{name} takes {tokens} from {cells} (card ability)", **w),
    "steal": lambda t, w: t.gettext("{name} steals {tokens} from {other}", **w),
    "royal": lambda t, w: t.gettext("{name} takes royal card {place} ({points})", **w),
    "royal+empty": lambda t, w: t.gettext("{name} chooses royal card {place}", **w),
    "pass": lambda t, w: t.gettext("{name} passes", **w),
}
"""The sentence of each kind of decision (and variant: ``+gold``, ``+choose``,
``+empty``), said of a player by name."""

SECOND: dict[str, Sentence] = {
    "take": lambda t, w: t.gettext("you take {tokens}", **w),
    "take_cells": lambda t, w: t.gettext("you take {tokens} from {cells}", **w),
    "privilege": lambda t, w: t.gettext("you use a privilege to take {tokens} from {cells}", **w),
    "replenish": lambda t, w: t.gettext("you replenish the board", **w),
    "take_gold": lambda t, w: t.gettext("you take the gold on {cells} to reserve a card", **w),
    "reserve": lambda t, w: t.gettext("you reserve {card} from slot {place}", **w),
    "reserve+gold": lambda t, w: t.gettext(
        "you reserve {card} from slot {place} and take 1 gold", **w
    ),
    "reserve_deck": lambda t, w: t.gettext(
        "you reserve the top card of the level-{place} deck", **w
    ),
    "reserve_deck+gold": lambda t, w: t.gettext(
        "you reserve the top card of the level-{place} deck and take 1 gold", **w
    ),
    "buy": lambda t, w: t.gettext("you buy {card} from slot {place}", **w),
    "buy+choose": lambda t, w: t.gettext(
        "you buy {card} from slot {place}, choosing the payment", **w
    ),
    "buy_reserved": lambda t, w: t.gettext("you buy {card} from your reserve (slot {place})", **w),
    "buy_reserved+choose": lambda t, w: t.gettext(
        "you buy {card} from your reserve (slot {place}), choosing the payment", **w
    ),
    "pay_gold": lambda t, w: t.gettext("you spend 1 gold in place of {tokens}", **w),
    "pay": lambda t, w: t.gettext("you pay the rest with your tokens", **w),
    "return": lambda t, w: t.gettext("you return {tokens}", **w),
    "noble": lambda t, w: t.gettext("you choose the noble asking for {tokens} (3 points)", **w),
    "noble+empty": lambda t, w: t.gettext("you choose noble {place}", **w),
    "joker": lambda t, w: t.gettext("you give the joker the colour {colour}", **w),
    "token": lambda t, w: t.gettext("you take {tokens} from {cells} (card ability)", **w),
    "steal": lambda t, w: t.gettext("you steal {tokens} from {other}", **w),
    "royal": lambda t, w: t.gettext("you take royal card {place} ({points})", **w),
    "royal+empty": lambda t, w: t.gettext("you choose royal card {place}", **w),
    "pass": lambda t, w: t.gettext("you pass", **w),
}
"""The same sentences said to the person playing (the terminal's "you")."""


__all__ = ["SECOND", "THIRD", "Sentence", "Words", "card_text", "colour_word", "listed"]
__all__ += ["tokens_text"]
