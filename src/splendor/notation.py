"""The pieces both games' position notations share (a FEN for Splendor).

A position text is one line: the game's name, then ``key=value`` fields separated by
spaces (``splendor players=2 turn=0 current=0 phase=main faceup=… decks=… nobles=…``).
Inside a value, ``/`` separates groups (one per level, per seat or per board row) and
``,`` separates the items of a list; ``-`` is an empty list or an empty slot. Token counts
are written as counts before colour letters (``2W1U1*``). The grammar of each game, its
fields and its examples are in ``docs/notation.md``; :mod:`splendor.classic.notation` and
:mod:`splendor.duel.notation` build on the helpers here.

Every reading helper raises :class:`NotationError` (a ``ValueError``) whose message names
the field, quotes what was read and says what is allowed, and nothing else on bad text;
:func:`check_unseen` judges a position, and raises the gate's ``corrupt position`` error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

import numpy as np

from .core import seed_rng

T = TypeVar("T")

HIDDEN = "?"
"""Prefix of a blind reserve whose card the observer cannot see: ``?2`` (a level-2 card)."""
BLIND = "!"
"""Prefix of a blind reserve (taken from a deck) whose card is known: ``!52``."""
EMPTY = "-"
"""An empty list, an empty slot or no tokens."""
MAX_RNG = 1 << 64


class NotationError(ValueError):
    """A position text that cannot be read: the message names the field, quotes the bad
    part and says what is allowed. A position that reads well but is impossible raises a
    plain ``ValueError`` from the game's position gate instead (``corrupt position: …``)."""


def fail(field: str, message: str) -> NotationError:
    """The error for ``field`` (a key of the text, or ``"text"`` for the line itself)."""
    return NotationError(f"position text, {field}: {message}")


def split_fields(
    text: object, game_names: Sequence[str], keys: Sequence[str], game_label: str
) -> tuple[str, dict[str, str]]:
    """Tokenise a position text: the game's name, then ``key=value`` fields.

    Args:
        text: the position text (any whitespace separates fields).
        game_names: the names the first word may be (the canonical one first).
        keys: the allowed keys, in canonical order.
        game_label: the game's name for messages (``"classic Splendor"``).

    Returns:
        The first word in lower case, and the fields by key (values as written).

    Raises:
        NotationError: not text, empty, another game's name first, a word without ``=``,
            an unknown key or a key given twice.
    """
    if not isinstance(text, str):
        raise fail("text", f"a position text is a string, got {type(text).__name__}")
    words = text.split()
    if not words:
        raise fail("text", "the text is empty; it starts with the game's name")
    head = words[0]
    if head.lower() not in game_names:
        raise fail(
            "text",
            f"a {game_label} position starts with {' or '.join(repr(g) for g in game_names)}, "
            f"got {head[:40]!r}",
        )
    out: dict[str, str] = {}
    for word in words[1:]:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise fail("text", f"{word[:40]!r} is not a key=value field")
        if key not in keys:
            raise fail(key[:40], f"unknown field; the fields are {', '.join(keys)}")
        if key in out:
            raise fail(key, "given twice")
        out[key] = value
    return head.lower(), out


def require(fields: dict[str, str], key: str, why: str = "") -> str:
    """The value of a required field.

    Raises:
        NotationError: ``key`` is missing.
    """
    if key not in fields:
        raise fail(key, "missing" + (f" ({why})" if why else ""))
    return fields[key]


def parse_int(value: str, field: str, lo: int, hi: int, what: str) -> int:
    """A decimal integer ``lo <= n <= hi`` (a sign only for a negative number).

    Args:
        what: the words before the allowed range, e.g. ``"the turn is"``; may end with the
            rule id in parentheses.

    Raises:
        NotationError: not a decimal integer, or out of range.
    """
    digits = value[1:] if value.startswith("-") else value
    if not digits or not digits.isascii() or not digits.isdigit() or len(digits) > 12:
        raise fail(field, f"{value[:40]!r} is not a whole number; {what} {lo}..{hi}")
    n = int(value)
    if not lo <= n <= hi:
        raise fail(field, f"{n}: {what} {lo}..{hi}")
    return n


def parse_choice(value: str, field: str, choices: Sequence[str]) -> int:
    """The index of ``value`` in ``choices`` (exact word).

    Raises:
        NotationError: not one of ``choices``.
    """
    if value not in choices:
        raise fail(field, f"{value[:40]!r}: one of {', '.join(choices)}")
    return list(choices).index(value)


def split_groups(value: str, field: str, count: int, what: str) -> list[str]:
    """Split a value into exactly ``count`` groups separated by ``/``.

    Args:
        what: what one group is, e.g. ``"one per level"``.

    Raises:
        NotationError: another number of groups.
    """
    groups = value.split("/")
    if len(groups) != count:
        raise fail(
            field, f"{count} groups separated by '/' ({what}), got {len(groups)} in {value[:60]!r}"
        )
    return groups


def split_items(group: str, field: str) -> list[str]:
    """The comma-separated items of a list (``-`` alone: the empty list).

    Raises:
        NotationError: an empty item (two commas in a row, a comma at an end).
    """
    if group == EMPTY:
        return []
    items = group.split(",")
    if any(not item for item in items):
        raise fail(field, f"an empty item in {group[:60]!r}: items are separated by single commas")
    return items


def join_items(items: Iterable[str]) -> str:
    """Items joined by commas, ``-`` for none."""
    out = ",".join(items)
    return out or EMPTY


def parse_id(item: str, field: str, count: int, what: str) -> int:
    """An id ``0 <= id < count`` written in decimal.

    Args:
        what: what the id names, e.g. ``"a card id"``.

    Raises:
        NotationError: not a decimal number in range.
    """
    if not item.isascii() or not item.isdigit() or len(item) > 6:
        raise fail(field, f"{item[:40]!r} is not {what} (0..{count - 1})")
    n = int(item)
    if n >= count:
        raise fail(field, f"{n} is not {what} (0..{count - 1})")
    return n


def items_of(value: object, field: str) -> list[str]:
    """The items of a list given as text (``12,5,33``; ``-`` for none) or as a Python
    iterable of ids and item texts (``None`` and -1 read as ``-``, an empty slot).

    Raises:
        NotationError: neither, an empty item, or a boolean or float item.
    """
    if value is None:
        return []
    if isinstance(value, str):
        return split_items(value, field)
    if not isinstance(value, Iterable):
        raise fail(field, f"a list of ids, got {type(value).__name__}")
    out: list[str] = []
    for item in value:
        if item is None or (_is_int(item) and int(item) == -1):
            out.append(EMPTY)
        elif _is_int(item):
            out.append(str(int(item)))
        elif isinstance(item, str) and item:
            out.append(item)
        else:
            raise fail(field, f"{item!r}: an item is an id or its text")
    return out


def _is_int(x: object) -> bool:
    return not isinstance(x, bool) and hasattr(x, "__index__") and not isinstance(x, str)


def parse_slots(
    value: object, field: str, size: int, count: int, what: str, *, pad: bool = False
) -> list[int]:
    """Exactly ``size`` slots (text: comma-separated), each an id below ``count`` or ``-``
    (empty, read as -1); with ``pad`` a Python list may be shorter (the rest empty).

    Raises:
        NotationError: another number of slots, or a bad id.
    """
    if isinstance(value, str):
        items = value.split(",")
    else:
        items = items_of(value, field)
        if pad:
            items += [EMPTY] * (size - len(items))
    if len(items) != size:
        raise fail(field, f"{size} slots separated by ',' ({what}), got {len(items)}")
    return [-1 if item == EMPTY else parse_id(item, field, count, what) for item in items]


def parse_groups(value: object, field: str, count: int, what: str) -> list[object]:
    """``count`` groups: a text split at ``/``, or a Python sequence of that length.

    Raises:
        NotationError: another number of groups.
    """
    if isinstance(value, str):
        return list(split_groups(value, field, count, what))
    if not isinstance(value, Sequence) or len(value) != count:
        raise fail(field, f"{count} groups ({what})")
    return list(value)


def format_slots(ids: Iterable[int]) -> str:
    """Slots joined by commas, ``-`` for an empty one (-1)."""
    return ",".join(EMPTY if i < 0 else str(i) for i in ids)


def format_counts(counts: Sequence[int], letters: str) -> str:
    """Token counts as ``2W1U1*`` (colour order, zero counts left out), ``-`` for none."""
    out = "".join(f"{n}{letters[c]}" for c, n in enumerate(counts) if n)
    return out or EMPTY


def parse_counts(value: str, field: str, letters: str, top: Sequence[int], rule: str) -> list[int]:
    """Token counts written as counts before letters (``2W1U1*``, any colour order, each
    colour once), or ``-`` for none.

    Args:
        letters: the colour letters, one per count (``WUGRK*``).
        top: the most tokens of each colour the game has.
        rule: the rule that fixes ``top`` (``"C1"``).

    Returns:
        One count per letter.

    Raises:
        NotationError: not counts and letters, a letter twice, an unknown letter or a
            count above the game's tokens of that colour.
    """
    out = [0] * len(letters)
    if value == EMPTY:
        return out
    shape = f"write counts before letters, like 2{letters[0]}1{letters[1]} (letters {letters})"
    i = 0
    seen: set[str] = set()
    while i < len(value):
        j = i
        while j < len(value) and value[j].isascii() and value[j].isdigit():
            j += 1
        if j == i or j >= len(value) or j - i > 3:
            raise fail(field, f"{value[:60]!r}: {shape}")
        letter = value[j].upper()
        if letter not in letters:
            raise fail(field, f"{value[j]!r} in {value[:60]!r} is not a token letter ({letters})")
        if letter in seen:
            raise fail(field, f"{letter} is written twice in {value[:60]!r}")
        seen.add(letter)
        c = letters.index(letter)
        n = int(value[i:j])
        if n > top[c]:
            raise fail(field, f"{n}{letter}: the game has {top[c]} {letter} tokens ({rule})")
        out[c] = n
        i = j + 1
    return out


def counts_of(value: object, field: str, letters: str, top: Sequence[int], rule: str) -> list[int]:
    """Token counts given as text (:func:`parse_counts`), as a list of one count per
    letter, or ``None`` (no tokens).

    Raises:
        NotationError: bad text, another length, or a count out of ``0..top``.
    """
    if value is None:
        return [0] * len(letters)
    if isinstance(value, str):
        return parse_counts(value, field, letters, top, rule)
    if (
        isinstance(value, Sequence)
        and len(value) == len(letters)
        and all(_is_int(x) for x in value)
    ):
        out = [int(x) for x in value]
        for c, n in enumerate(out):
            if not 0 <= n <= top[c]:
                raise fail(field, f"{n}{letters[c]}: the game has 0..{top[c]} ({rule})")
        return out
    raise fail(field, f"token counts: a text like 2W1U or {len(letters)} counts ({letters})")


def format_reserved(card: int, level: int, blind: bool) -> str:
    """One reserved card: ``13`` (reserved face up), ``!52`` (blind, card known), ``?2``
    (blind, hidden from the observer: only its level)."""
    if card < 0:
        return f"{HIDDEN}{level}"
    return f"{BLIND}{card}" if blind else str(card)


def parse_reserved(item: str, field: str, num_cards: int) -> tuple[int, int, bool]:
    """One reserved card as :func:`format_reserved` writes it.

    Returns:
        ``(card id or -1 when hidden, level when hidden else 0, blind)``.

    Raises:
        NotationError: not an id, ``!id`` or ``?level``.
    """
    if item.startswith(HIDDEN):
        level = item[1:]
        if level not in ("1", "2", "3"):
            raise fail(field, f"{item[:40]!r}: a hidden blind reserve is ?1, ?2 or ?3 (its level)")
        return -1, int(level), True
    if item.startswith(BLIND):
        return parse_id(item[1:], field, num_cards, "a card id after '!'"), 0, True
    return parse_id(item, field, num_cards, "a card id (!id: reserved blind)"), 0, False


def format_source(src: int, starts: Sequence[int], first_reserved: int) -> str:
    """A card's place for a payment: ``2.3`` (face-up level 2, slot 3) or ``r1`` (own
    reserved slot 1), as in the action notation."""
    if src >= first_reserved:
        return f"r{src - first_reserved + 1}"
    lvl = max(k for k, start in enumerate(starts) if start <= src)
    return f"{lvl + 1}.{src - starts[lvl] + 1}"


def parse_source(
    value: str, field: str, starts: Sequence[int], sizes: Sequence[int], max_reserved: int
) -> int:
    """The source id of :func:`format_source`: ``starts[level - 1] + slot - 1`` for a
    face-up slot, ``sum(sizes) + slot - 1`` for a reserved one.

    Raises:
        NotationError: not ``L.S`` with a real level and slot, nor ``rK`` with ``1 <= K <=
            max_reserved``.
    """
    first_reserved = sum(sizes)
    if value[:1].lower() == "r":
        k = value[1:]
        if k.isascii() and k.isdigit() and 1 <= int(k) <= max_reserved:
            return first_reserved + int(k) - 1
    else:
        lvl, dot, slot = value.partition(".")
        if (
            dot
            and lvl in ("1", "2", "3")
            and slot.isascii()
            and slot.isdigit()
            and 1 <= int(slot) <= sizes[int(lvl) - 1]
        ):
            return starts[int(lvl) - 1] + int(slot) - 1
    slots = ", ".join(f"level {i + 1} slots 1-{n}" for i, n in enumerate(sizes))
    raise fail(
        field,
        f"{value[:40]!r}: the card paid for is face up, LEVEL.SLOT ({slots}), or your reserved "
        f"card r1-r{max_reserved}",
    )


def format_rng(value: int) -> str:
    """The generator's 64-bit state as 16 hexadecimal digits."""
    return f"{value:016x}"


def parse_rng(value: str, field: str = "rng") -> int:
    """1 to 16 hexadecimal digits (an optional ``0x`` first).

    Raises:
        NotationError: anything else.
    """
    digits = value[2:] if value[:2].lower() == "0x" else value
    if not 1 <= len(digits) <= 16 or not all(c in "0123456789abcdefABCDEF" for c in digits):
        raise fail(field, f"{value[:40]!r}: the generator state is 1-16 hexadecimal digits")
    return int(digits, 16)


def seat_groups(value: str, field: str, players: int) -> list[str]:
    """Split a per-seat value into one group per seat, seat 0 first.

    Raises:
        NotationError: not exactly ``players`` groups.
    """
    return split_groups(value, field, players, "one per seat, seat 0 first")


def per_seat(value: object, field: str, players: int, one: Callable[[object, str], T]) -> list[T]:
    """One value per seat from a text value (``2W1U/-/3G``), a list (seat 0 first; missing
    seats empty) or a dict by seat; ``None``: every seat empty.

    Args:
        one: reads one seat's value (a text group, a Python value, or ``None`` for an
            empty seat) given the label of that seat's field for messages.

    Raises:
        NotationError: another number of groups, more values than seats, a key that is
            not a seat, or whatever ``one`` raises.
    """
    groups: list[object]
    if value is None:
        groups = [None] * players
    elif isinstance(value, str):
        groups = list(seat_groups(value, field, players))
    elif isinstance(value, Mapping):
        groups = [None] * players
        for seat, v in value.items():
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
                raise fail(field, f"seat {seat!r}: the seats are 0..{players - 1}")
            groups[seat] = v
    elif isinstance(value, Sequence):
        if len(value) > players:
            raise fail(field, f"{len(value)} seats given, the game has {players}")
        groups = list(value) + [None] * (players - len(value))
    else:
        raise fail(
            field, f"one value per seat (text, list or dict by seat), got {type(value).__name__}"
        )
    return [one(g, f"{field} (seat {p})") for p, g in enumerate(groups)]


def int_arg(value: object, field: str) -> int:
    """A builder's integer argument (an int or numpy integer, never a bool), in int32.

    Raises:
        NotationError: anything else.
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise fail(field, f"an integer, got {value!r}")
    if not -(2**31) <= int(value) < 2**31:
        raise fail(field, f"{int(value)} is out of range")
    return int(value)


def rng_value(rng: object, seed: int) -> int:
    """The generator's 64-bit state: ``rng`` itself, or when it is None the state
    :func:`splendor.core.seed_rng` gives for ``seed``.

    Raises:
        NotationError: ``rng`` is not an integer ``0 <= rng < 2**64``.
    """
    if rng is None:
        r = np.zeros(1, dtype=np.uint64)
        seed_rng(r, seed)
        return int(r[0])
    if isinstance(rng, bool) or not isinstance(rng, int) or not 0 <= rng < MAX_RNG:
        raise fail("rng", f"the generator state is 0 <= rng < 2**64, got {rng!r}")
    return rng


def check_hidden(
    reserved: Sequence[Sequence[tuple[int, int, bool]]],
    levels: Sequence[int],
    observer: int,
    payer: int,
    paying: int,
    rule: str,
) -> None:
    """Refuse reserves that show what their reader may not see, or hide what it may.

    In a full position (``observer`` -1) every reserved card is named. In an observation,
    another seat's blind reserve shows only its level (``?2``), except the one the seat to
    play (``payer``) is paying for (its slot ``paying``, -1 for none), which is public like
    every face-up reserve and the observer's own cards (C16, D22).

    Args:
        reserved: per seat, ``(card or -1, level when hidden, blind)`` as
            :func:`parse_reserved` reads them.
        levels: the level (1-3) of each card id.
        rule: the rule of hidden information (``"C16"`` or ``"D22"``).

    Raises:
        NotationError: names the seat and slot and says how to write it.
    """
    for p, cards in enumerate(reserved):
        for k, (c, level, blind) in enumerate(cards):
            if observer < 0:
                if c < 0:
                    raise fail(
                        "reserved",
                        f"seat {p}: ?{level} (a hidden card) is only for an observation; a "
                        f"full position names every card ({rule})",
                    )
                continue
            seen = p == observer or not blind or (p == payer and k == paying)
            if c < 0 and seen:
                raise fail(
                    "reserved",
                    f"seat {p}'s reserved card {k + 1} is seen by observer {observer}: "
                    f"write its id ({rule})",
                )
            if c >= 0 and not seen:
                raise fail(
                    "reserved",
                    f"seat {p}'s blind reserve !{c} is hidden from observer {observer}: "
                    f"write ?{levels[c]} ({rule})",
                )


def check_unseen(
    seen: np.ndarray,
    card_level: np.ndarray,
    deck_len: np.ndarray,
    reserved: np.ndarray,
    reserved_level: np.ndarray,
    rule: str,
) -> None:
    """Refuse an observation whose unseen cards cannot fill the places that hide them:
    per level, the cards not in ``seen`` must be exactly as many as the deck holds plus
    the hidden reserves of that level (the only places a card can hide, C16, D22).

    Args:
        seen: bool per card id, true for the cards the observation shows.
        card_level: the 0-based level of each card id.
        deck_len: cards per deck.
        reserved, reserved_level: the reserved slots (-1 with a level 1-3: hidden).
        rule: the rule that places every card somewhere (``"C2"`` or ``"D3"``).

    Raises:
        ValueError: ``corrupt position: deck_sizes: …``, naming the level.
    """
    hidden = (reserved < 0) & (reserved_level > 0)
    for lvl in range(len(deck_len)):
        unseen = int((~seen & (card_level == lvl)).sum())
        places = int(deck_len[lvl]) + int((hidden & (reserved_level == lvl + 1)).sum())
        if unseen != places:
            raise ValueError(
                f"corrupt position: deck_sizes: {unseen} level-{lvl + 1} cards are out of "
                f"sight, but the level-{lvl + 1} deck and hidden reserves hold {places} ({rule})"
            )


def count_problem(
    field: str, held: Sequence[int], top: Sequence[int], letters: str, rule: str
) -> None:
    """Refuse more tokens of a colour in play than the game has.

    Args:
        held: tokens of each colour in the places the text names (seats, the board).
        top: the game's tokens of each colour.

    Raises:
        NotationError: one colour over its total (the first such colour).
    """
    for c, (n, t) in enumerate(zip(held, top, strict=True)):
        if n > t:
            raise fail(field, f"{n} {letters[c]} tokens in play, the game has {t} ({rule})")


__all__ = [
    "BLIND",
    "EMPTY",
    "HIDDEN",
    "NotationError",
    "check_hidden",
    "check_unseen",
    "count_problem",
    "counts_of",
    "fail",
    "format_counts",
    "format_reserved",
    "format_rng",
    "format_slots",
    "format_source",
    "int_arg",
    "join_items",
    "parse_choice",
    "parse_counts",
    "items_of",
    "parse_groups",
    "parse_id",
    "parse_int",
    "parse_reserved",
    "parse_rng",
    "parse_slots",
    "parse_source",
    "per_seat",
    "require",
    "rng_value",
    "seat_groups",
    "split_groups",
    "split_items",
]
