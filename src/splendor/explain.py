"""The reasons both games give in the same words (C9, D10, C16, D22): a card out of reach and
a reserved card that is not there. Each game's own explanations are in
:mod:`splendor.classic.explain` and :mod:`splendor.duel.explain`."""

from __future__ import annotations

from collections.abc import Sequence

from .colors import NUM_GEMS
from .i18n import Messages
from .move_words import letter_tokens


def cannot_afford(
    t: Messages,
    cost: Sequence[int],
    bonuses: Sequence[int],
    tokens: Sequence[int],
    letters: str,
) -> str | None:
    """Why ``cost`` is out of reach, in ``t``'s language, or None when the tokens and gold
    cover it (C9, D10). What is short is said in words ("3 blue and 5 red"), never as the
    notation's letters.

    Args:
        t: the reader's messages.
        cost: what the card costs per colour of ``letters``.
        bonuses: the buyer's bonuses per gem colour (they reduce gem costs, never pearls).
        tokens: the buyer's tokens per colour of ``letters``, then gold.
        letters: the letters of the paying colours (``"WUGRK"``; Duel ``"WUGRKP"``).
    """
    short: list[tuple[str, int]] = []
    for c, letter in enumerate(letters):
        owed = max(0, cost[c] - (bonuses[c] if c < NUM_GEMS else 0))
        if owed > tokens[c]:
            short.append((letter, owed - tokens[c]))
    missing = sum(n for _, n in short)
    gold = tokens[len(letters)]
    if missing <= gold:
        return None
    return t.ngettext(
        "you cannot afford it: {missing} short ({detail}) and you hold {gold} gold",
        "you cannot afford it: {missing} short ({detail}) and you hold {gold} gold",
        gold,
        missing=missing,
        detail=letter_tokens(t, short),
        gold=gold,
    )


def no_reserved_card(t: Messages, slot: int, held: int) -> str:
    """The buyer has no reserved card ``slot`` (they hold ``held``)."""
    return t.ngettext(
        "you have no reserved card {slot} (you hold {n})",
        "you have no reserved card {slot} (you hold {n})",
        held,
        slot=slot,
        n=held,
    )


__all__ = ["cannot_afford", "no_reserved_card"]
