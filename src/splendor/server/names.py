"""One namespace for players' names: case-insensitive keys and confusables skeletons.

Two names are **the same name** when their :func:`name_key` is equal (NFKC, case-folded:
``Ann``, ``ANN`` and the full-width ``Ａｎｎ``). Two names are **confusable** when their
:func:`name_skeleton` is equal: the name case-folded, then every character replaced by
the prototype it is confusable with (or its capital's), as Unicode Technical Standard #39
("Unicode Security Mechanisms", section 4, *skeleton*) defines it, from the confusables
table that the ``confusable_homoglyphs`` package keeps. So ``Alice``, ``ALICE``, ``AIice``
and ``Аlice`` (with a Cyrillic А) have one skeleton, and so do ``Paypal`` and ``Pаypаl``.

The rules (:class:`.accounts.Accounts` enforces them, :func:`names_conflict` says which):

- an account's name cannot be confusable with another account's name;
- a guest cannot take a name confusable with an account's name;
- guests' names are not reserved (several guests may share one; each is shown as a guest).

Accounts store their skeleton in ``players.name_skeleton`` (indexed); guests store none.
"""

from __future__ import annotations

import unicodedata
from functools import cache

MAX_SKELETON = 256
"""Characters of a stored skeleton (the column's size; a prototype may be longer than its
character, so a 40-character name may make more than 40)."""


def name_key(name: str) -> str:
    """The comparison key of an account name: NFKC, case-folded (``"Ann"``, ``"ANN"`` and
    the full-width ``"Ａｎｎ"`` are one name)."""
    return unicodedata.normalize("NFKC", name).casefold()


def _strip_marks(text: str) -> str:
    # the table wraps right-to-left characters in LEFT-TO-RIGHT MARKs for display
    return text.replace("\u200e", "").replace("\u200f", "")


@cache
def _prototypes() -> dict[str, str]:
    """``{character: prototype}`` of every character that has a prototype other than
    itself. The package's table lists, for a character, either its one prototype (the
    character is a *source* of confusables.txt) or every source it is the prototype of;
    a pair that lists only each other is settled by the smaller code point."""
    from confusable_homoglyphs.confusables import (  # type: ignore[import-untyped]
        confusables_data,
    )

    out: dict[str, str] = {}
    for key, entries in confusables_data.items():
        char = _strip_marks(key)
        if len(char) != 1 or len(entries) != 1:
            continue
        target = _strip_marks(entries[0]["c"])
        if not target or target == char:
            continue
        back = confusables_data.get(entries[0]["c"]) or confusables_data.get(target) or []
        if len(back) == 1 and _strip_marks(back[0]["c"]) == char and char < target:
            continue  # a pair of mutual entries: the smaller one is the prototype
        out[char] = target
    return out


def name_skeleton(name: str) -> str:
    """The confusables skeleton of ``name``: NFKC and case-folded, each character replaced
    by its prototype (UTS #39) or, when it has none, by the prototype of its capital (so
    that case cannot hide a confusable: the capital ``I`` reads as ``l``, so ``i`` maps
    where ``l`` does), decomposed (NFD), case-folded again, at most :data:`MAX_SKELETON`
    characters. Equal skeletons: names a reader can take for each other
    (``Alice``, ``ALICE``, ``AIice`` and ``Аlice`` with a Cyrillic А have one)."""
    folded = unicodedata.normalize("NFD", name_key(name))
    table = _prototypes()

    def prototype(ch: str) -> str:
        if ch in table:
            return table[ch]
        capital = ch.upper()
        return table.get(capital, ch) if len(capital) == 1 else ch

    mapped = "".join(prototype(ch) for ch in folded)
    return unicodedata.normalize("NFD", mapped).casefold()[:MAX_SKELETON]


__all__ = ["MAX_SKELETON", "name_key", "name_skeleton"]
