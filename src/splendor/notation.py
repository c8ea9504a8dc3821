"""The pieces both games' position notations share (a FEN for Splendor).

A position text is one line: the game's name, then ``key=value`` fields separated by
spaces (``splendor players=2 turn=0 current=0 phase=main faceup=… decks=… nobles=…``).
Inside a value, ``/`` separates groups (one per level, per seat or per board row) and
``,`` separates the items of a list; ``-`` is an empty list or an empty slot. Token counts
are written as counts before colour letters (``2W1U1*``). The grammar of each game, its
fields and its examples are in ``docs/notation.md``; :mod:`splendor.classic.notation` and
:mod:`splendor.duel.notation` build on the helpers here.

Every reading helper raises :class:`NotationError` (a
:class:`~splendor.errors.PositionError`, so a ``ValueError``) whose message names
the field, quotes what was read and says what is allowed, and nothing else on bad text;
:func:`check_unseen` judges a position, and raises the gate's ``corrupt position`` error.

What both games' notations do alike is written here once, over a per-game table,
:class:`GameNotation` (names, fields, phases, card tables, rule ids and the game's gate):
writing a position (:func:`write_position`), reading one (:func:`read_position`), the
builder's fields of cards, tokens, reserves and payments (:func:`place_cards`,
:func:`seat_tokens`, :func:`seat_reserved`, :func:`payment_of`), assembling them into a
state array (:class:`Spec`, :func:`put_cards`, :func:`put_owners`, :func:`put_payment`) and
the gate (:func:`gate`, :func:`gate_observation`). Each game's module keeps its own fields.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict, TypeVar

import numpy as np

from .errors import PositionError
from .rng import seed_rng

T = TypeVar("T")

HIDDEN = "?"
"""Prefix of a blind reserve whose card the observer cannot see: ``?2`` (a level-2 card)."""
BLIND = "!"
"""Prefix of a blind reserve (taken from a deck) whose card is known: ``!52``."""
EMPTY = "-"
"""An empty list, an empty slot or no tokens."""
MAX_RNG = 1 << 64
DEFAULT_SEED = 0
"""The seed of what a builder deals by default, and of an observation's trial deal."""


class NotationError(PositionError):
    """A position text that cannot be read: the message names the field, quotes the bad
    part and says what is allowed. A position that reads well but is impossible raises a
    plain :class:`~splendor.errors.PositionError` from the game's position gate instead
    (``corrupt position: …``)."""


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


def require(fields: Mapping[str, str], key: str, why: str = "") -> str:
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
    :func:`splendor.rng.seed_rng` gives for ``seed``.

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
        PositionError: ``corrupt position: deck_sizes: …``, naming the level.
    """
    hidden = (reserved < 0) & (reserved_level > 0)
    for lvl in range(len(deck_len)):
        unseen = int((~seen & (card_level == lvl)).sum())
        places = int(deck_len[lvl]) + int((hidden & (reserved_level == lvl + 1)).sum())
        if unseen != places:
            raise PositionError(
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


# --------------------------------------------------------------------------- per game


@dataclass(frozen=True, eq=False)
class GameNotation:
    """What one game's position notation is made of: the tables that the shared reading,
    writing, building and assembling helpers below take, so that each game's module keeps
    only the fields and rules of its own.

    Attributes:
        names: the first word of a position text (the first one is written).
        keys: the fields, in the order they are written.
        label: the game's name in messages (``"classic Splendor"``).
        phase_words: the ``phase=`` word of each phase (the rules' ``PH_*`` order).
        over: the phase of a finished game (no ``current=`` then).
        paying: the phase of a payment with gold (the only one with ``payment=``).
        row: the key, and the state field, of the face-up cards (``"faceup"``).
        row_starts: per level, the source id of its first face-up slot.
        row_sizes: per level, its face-up slots.
        row_shape: the face-up cards in words, for a missing field (``"3 levels of 4
            slots"``).
        row_groups: what one group of the face-up field is (``"one per level, 4 slots
            each"``).
        owner: the state field that gives each card's buyer (``"purchased_by"``).
        token_letters: the letters of the tokens a seat holds (``WUGRK*``).
        pay_letters: the letters of the tokens a gold may stand in for (``WUGRK``).
        num_cards: the number of card ids.
        card_level: the 0-based level of each card id.
        level_start: per level, its first card id.
        level_size: per level, its number of cards.
        max_reserved: the most cards a seat reserves.
        token_rule: the rule that fixes the game's tokens (``"C1"``).
        deck_rule: the rule that places every card somewhere (``"C2"``).
        row_rule: the rule of the face-up rows (``"C4"``).
        reserve_rule: the rule that limits reserves (``"C8"``).
        pay_rule: the rule of a payment with gold (``"C9"``).
        hide_rule: the rule of hidden information (``"C16"``).
        owed: what a card costs a seat after its bonuses, one count per pay letter, given
            the state record, the seat and the card.
        problems: the game's position gate: every problem of a full state array, none
            when it is sound.
        determinize_into: the rules' kernel that deals an observation's unseen cards into
            a full state array (``(observation, out, rng) -> int``, negative when they do
            not fit).
        dtype: the state array's dtype.
    """

    names: tuple[str, ...]
    keys: tuple[str, ...]
    label: str
    phase_words: tuple[str, ...]
    over: int
    paying: int
    row: str
    row_starts: tuple[int, ...]
    row_sizes: tuple[int, ...]
    row_shape: str
    row_groups: str
    owner: str
    token_letters: str
    pay_letters: str
    num_cards: int
    card_level: np.ndarray
    level_start: np.ndarray
    level_size: np.ndarray
    max_reserved: int
    token_rule: str
    deck_rule: str
    row_rule: str
    reserve_rule: str
    pay_rule: str
    hide_rule: str
    owed: Callable[[np.void, int, int], np.ndarray]
    problems: Callable[[np.ndarray], list[str]]
    determinize_into: Callable[[np.ndarray, np.ndarray, np.ndarray], int]
    dtype: np.dtype

    @property
    def first_reserved(self) -> int:
        """The source id of a seat's first reserved card (after every face-up slot)."""
        return sum(self.row_sizes)

    @property
    def num_levels(self) -> int:
        """The number of card levels."""
        return len(self.row_sizes)


@dataclass
class Spec:
    """A position as its text says it, in the fields both games have: what is where,
    nothing derived. Each game's spec adds its own fields."""

    turn: int
    current: int
    phase: int
    row: list[int]  # face-up slots, level 1 first; -1 for an empty one
    decks: list[list[int]] | None  # top card first; None in an observation
    deck_sizes: list[int]
    tokens: list[list[int]]
    reserved: list[list[tuple[int, int, bool]]]  # (card or -1 hidden, level if hidden, blind)
    payment: tuple[int, list[int]] | None  # (source, gold committed per pay letter)
    rng: int
    observer: int


# --------------------------------------------------------------------------- writing


def write_position(
    game: GameNotation, s: np.void, seats: int, own: Mapping[str, str | None]
) -> str:
    """The position text of a state record: the fields both games write, and the game's
    ``own`` (``None`` for a field left out), in the order of ``game.keys``.

    Args:
        s: the record (``array[0]``) of a state or an observation.
        seats: the number of seats.
    """
    observer = int(s["observer"])
    phase = int(s["phase"])
    row = [int(c) for c in s[game.row].ravel()]
    dl = [int(x) for x in s["deck_len"]]
    if observer >= 0:
        decks = {"deck_sizes": "/".join(str(x) for x in dl)}
    else:
        decks = {
            "decks": "/".join(
                join_items(str(int(c)) for c in s["decks"][lvl, : dl[lvl]][::-1])
                for lvl in range(game.num_levels)
            )
        }
    fields: dict[str, str | None] = {
        "observer": str(observer) if observer >= 0 else None,
        "turn": str(int(s["turn"])),
        "current": None if phase == game.over else str(int(s["current"])),
        "phase": game.phase_words[phase],
        game.row: "/".join(
            format_slots(row[start : start + size])
            for start, size in zip(game.row_starts, game.row_sizes, strict=True)
        ),
        **decks,
        "tokens": seat_field(
            [
                format_counts([int(x) for x in s["tokens"][p]], game.token_letters)
                for p in range(seats)
            ]
        ),
        "reserved": seat_field(
            [
                join_items(
                    format_reserved(
                        int(s["reserved"][p, k]),
                        int(s["reserved_level"][p, k]),
                        bool(s["reserved_blind"][p, k]),
                    )
                    for k in range(int(s["num_reserved"][p]))
                )
                for p in range(seats)
            ]
        ),
        "payment": format_payment(game, s) if phase == game.paying else None,
        "rng": format_rng(int(s["rng"][0])) if observer < 0 else None,
        **own,
    }
    written = [f"{key}={fields[key]}" for key in game.keys if fields.get(key) is not None]
    return " ".join([game.names[0], *written])


def seat_field(groups: Sequence[str], empty: str = EMPTY) -> str | None:
    """One group per seat joined by ``/``, or ``None`` (the field is left out) when every
    seat's group is ``empty``."""
    if all(g == empty for g in groups):
        return None
    return "/".join(groups)


def owner_field(owner: np.ndarray, seats: int, first: int = 0) -> str | None:
    """Per seat, the ids that ``owner`` gives it (``12,5``; each written as ``id + first``),
    or ``None`` when no seat owns any: what :func:`put_owners` reads."""
    return seat_field(
        [join_items(str(int(i) + first) for i in np.flatnonzero(owner == p)) for p in range(seats)]
    )


def format_payment(game: GameNotation, s: np.void) -> str:
    """``2.3`` or ``r1``, then ``:`` and the gold committed per colour when there is some."""
    src = format_source(int(s["pay_src"]), game.row_starts, game.first_reserved)
    owed = game.owed(s, int(s["current"]), int(s["pay_card"]))
    committed = [int(x) for x in owed - s["pay_need"].astype(int)]
    return src + (":" + format_counts(committed, game.pay_letters) if any(committed) else "")


# --------------------------------------------------------------------------- reading


def read_position(
    game: GameNotation,
    text: object,
    read: Callable[[dict[str, str], int], np.ndarray],
    players: Callable[[dict[str, str]], int],
    *,
    observation: bool = False,
) -> np.ndarray:
    """Read a full position, or with ``observation`` one seat's view, and pass it through
    the gate.

    An observation names its seat (``observer=``) and gives neither the deck order nor the
    generator; a full position has no ``observer=`` and lists its decks (``decks=``, not
    ``deck_sizes=``).

    Args:
        read: assembles the state array from the fields and the observer (-1: none).
        players: the player count the fields give (it bounds ``observer=``).

    Returns:
        The state array, sound (an observation: the view of a sound position).

    Raises:
        NotationError: text that cannot be read, the other kind of position, or an
            observation that shows what its seat cannot see.
        PositionError: an impossible position (``corrupt position: …``).
    """
    fields = split_fields(text, game.names, game.keys, game.label)[1]
    if not observation and "observer" in fields:
        raise fail(
            "observer",
            "this is an observation (one seat's view); read it with Observation.from_text",
        )
    n = players(fields)
    observer = -1
    if observation:
        observer = parse_int(
            require(fields, "observer", "the seat whose view this is"),
            "observer",
            0,
            n - 1,
            "the observer is a seat,",
        )
        hidden = f"deck_sizes= (deck order is hidden, {game.hide_rule})"
        for key, why in (("decks", hidden), ("rng", "no rng")):
            if key in fields:
                raise fail(key, f"an observation gives {why}")
    elif "deck_sizes" in fields:
        raise fail("deck_sizes", "a full position lists its decks (decks=), top card first")
    arr = read(fields, observer)
    return gate_observation(game, arr) if observation else gate(game, arr)


class CardTexts(TypedDict):
    """The texts of the cards' fields, by builder argument (:func:`card_texts`)."""

    row: str
    decks: str | None
    deck_sizes: str | None


def card_texts(game: GameNotation, fields: Mapping[str, str], observer: int) -> CardTexts:
    """The texts of the face-up cards (``row``) and of the decks (a full position) or
    their sizes (an observation), by builder argument.

    Raises:
        NotationError: one of them is missing.
    """
    return {
        "row": require(fields, game.row, game.row_shape),
        "decks": None if observer >= 0 else require(fields, "decks", "top card first"),
        "deck_sizes": require(fields, "deck_sizes") if observer >= 0 else None,
    }


class TextArgs(TypedDict):
    """The builder arguments both games read from a text the same way (:func:`text_args`)."""

    tokens: str | None
    reserved: str | None
    purchased: str | None
    payment: str | None
    rng: int | None
    seed: int
    observer: int
    deal: bool


def text_args(fields: Mapping[str, str], observer: int) -> TextArgs:
    """The builder arguments both games read from a text the same way: tokens, reserved,
    purchased and payment as written, the generator read, and no dealing.

    Raises:
        NotationError: a bad ``rng=``.
    """
    return {
        "tokens": fields.get("tokens"),
        "reserved": fields.get("reserved"),
        "purchased": fields.get("purchased"),
        "payment": fields.get("payment"),
        "rng": parse_rng(fields["rng"]) if "rng" in fields else None,
        "seed": DEFAULT_SEED,
        "observer": observer,
        "deal": False,
    }


def text_turn(fields: Mapping[str, str]) -> int:
    """The required ``turn=``, a signed 32-bit number.

    Raises:
        NotationError: missing or out of range.
    """
    return parse_int(require(fields, "turn"), "turn", -(2**31), 2**31 - 1, "the turn is")


# --------------------------------------------------------------------------- building


def check_seed(seed: object) -> None:
    """Refuse a builder's seed that is not an integer ``0 <= seed < 2**63``.

    Raises:
        PositionError: any other seed (the message quotes it).
    """
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise PositionError(f"seed must be an integer 0 <= seed < 2**63, got {seed!r}")


def phase_of(game: GameNotation, phase: object, aliases: Mapping[str, int] | None = None) -> int:
    """The phase named by its ``phase=`` word (or one of ``aliases``).

    Raises:
        NotationError: anything else.
    """
    if not isinstance(phase, str):
        raise fail("phase", f"one of {', '.join(game.phase_words)}")
    if aliases and phase in aliases:
        return aliases[phase]
    return parse_choice(phase, "phase", game.phase_words)


def ids_of(value: object, field: str, count: int, what: str) -> list[int]:
    """A list of ids ``0 <= id < count`` (:func:`items_of`, then :func:`parse_id`).

    Raises:
        NotationError: not a list, or a bad id.
    """
    return [parse_id(item, field, count, what) for item in items_of(value, field)]


def seat_tokens(
    game: GameNotation, value: object, players: int, top: Sequence[int]
) -> list[list[int]]:
    """Each seat's tokens (:func:`per_seat` of :func:`counts_of`), at most ``top`` of a colour.

    Raises:
        NotationError: a value that cannot be read.
    """
    return per_seat(
        value,
        "tokens",
        players,
        lambda v, f: counts_of(v, f, game.token_letters, top, game.token_rule),
    )


def seat_reserved(
    game: GameNotation, value: object, players: int
) -> list[list[tuple[int, int, bool]]]:
    """Each seat's reserved cards in slot order, as :func:`parse_reserved` reads them.

    Raises:
        NotationError: a bad card, or more reserves than the game allows.
    """

    def one(v: object, field: str) -> list[tuple[int, int, bool]]:
        items = items_of(v, field)
        if len(items) > game.max_reserved:
            raise fail(
                field,
                f"{len(items)} reserved cards, at most {game.max_reserved} ({game.reserve_rule})",
            )
        return [parse_reserved(item, field, game.num_cards) for item in items]

    return per_seat(value, "reserved", players, one)


def place_cards(
    game: GameNotation,
    row: object,
    decks: object,
    deck_sizes: object,
    placed: set[int],
    rnd: np.random.Generator | None,
    observer: int,
) -> tuple[list[int], list[list[int]] | None, list[int]]:
    """The face-up slots, the decks and their sizes, read from text or Python values; with
    ``rnd``, the face-up cards and decks left unsaid are dealt from the cards no other
    place holds (``placed``, with the face-up cards and decks given), shuffled by ``rnd``.

    Returns:
        The face-up slots (level 1 first, -1 for empty), the decks (top card first; None
        in an observation) and their sizes.

    Raises:
        NotationError: a value that cannot be read, or one that is missing.
    """
    levels = game.num_levels
    placed = set(placed)
    slots: list[int] | None = None
    if row is not None:
        slots = []
        for lvl, group in enumerate(parse_groups(row, game.row, levels, game.row_groups)):
            slots += parse_slots(
                group,
                game.row,
                game.row_sizes[lvl],
                game.num_cards,
                "a card id or - (empty)",
                pad=True,
            )
        placed |= {c for c in slots if c >= 0}
    deck_lists: list[list[int]] | None = None
    if decks is not None:
        deck_lists = [
            ids_of(group, "decks", game.num_cards, "a card id")
            for group in parse_groups(decks, "decks", levels, "one per level, top card first")
        ]
        placed |= {c for deck in deck_lists for c in deck}
    if rnd is not None:
        left = [
            [c for c in range(int(start), int(start + size)) if c not in placed]
            for start, size in zip(game.level_start, game.level_size, strict=True)
        ]
        for pile in left:
            rnd.shuffle(pile)
        if slots is None:
            slots = [
                left[lvl].pop() if left[lvl] else -1
                for lvl in range(levels)
                for _ in range(game.row_sizes[lvl])
            ]
        if deck_lists is None:
            deck_lists = left
    if slots is None:
        raise fail(game.row, f"missing ({game.row_shape})")
    if observer >= 0:
        sizes = [
            parse_int(
                g, "deck_sizes", 0, int(game.level_size[lvl]), f"the level-{lvl + 1} deck holds"
            )
            for lvl, g in enumerate(
                split_groups(str(deck_sizes), "deck_sizes", levels, "one per level")
            )
        ]
        return slots, None, sizes
    if deck_lists is None:
        raise fail("decks", "missing (top card first)")
    return slots, deck_lists, [len(d) for d in deck_lists]


def payment_of(game: GameNotation, payment: object) -> tuple[int, list[int]] | None:
    """The payment in progress, ``2.3`` or ``r1`` then optionally ``:`` and the gold
    committed per colour: ``(source id, gold per pay letter)``; ``None`` for none.

    Raises:
        NotationError: anything else.
    """
    if payment is None:
        return None
    if not isinstance(payment, str):
        raise fail("payment", f"a text like 2.3 or r1:1W, got {payment!r}")
    where, _, gold = payment.partition(":")
    src = parse_source(where, "payment", game.row_starts, game.row_sizes, game.max_reserved)
    top = [99] * len(game.pay_letters)
    return src, parse_counts(gold or EMPTY, "payment", game.pay_letters, top, game.pay_rule)


# --------------------------------------------------------------------------- assembling


def put_cards(game: GameNotation, s: np.void, spec: Spec) -> None:
    """Write what both games' specs hold about whose turn it is and where the cards lie:
    the observer, turn, seat to play, phase and generator, the face-up slots, the decks
    and the reserves.

    Raises:
        NotationError: a card in the row or deck of another level.
    """
    s["observer"] = spec.observer
    s["turn"] = spec.turn
    s["current"] = spec.current
    s["phase"] = spec.phase
    s["rng"][0] = spec.rng if spec.observer < 0 else 0
    row = s[game.row].reshape(-1)
    for k, c in enumerate(spec.row):
        lvl = max(i for i, start in enumerate(game.row_starts) if start <= k)
        if c >= 0 and int(game.card_level[c]) != lvl:
            raise fail(game.row, _level_problem(game, c, lvl, "row", game.row_rule))
        row[k] = c
    s["decks"][:] = -1
    for lvl in range(game.num_levels):
        size = spec.deck_sizes[lvl]
        if size > int(game.level_size[lvl]):
            raise fail(
                "decks",
                f"{size} cards in the level-{lvl + 1} deck, at most {game.level_size[lvl]} "
                f"({game.deck_rule})",
            )
        s["deck_len"][lvl] = size
        if spec.decks is not None:
            for c in spec.decks[lvl]:
                if int(game.card_level[c]) != lvl:
                    raise fail("decks", _level_problem(game, c, lvl, "deck", game.deck_rule))
            s["decks"][lvl, :size] = spec.decks[lvl][::-1]
    s["reserved"][:] = -1
    for p, cards in enumerate(spec.reserved):
        for k, (c, level, blind) in enumerate(cards):
            s["reserved"][p, k] = c
            s["reserved_level"][p, k] = level if c < 0 else int(game.card_level[c]) + 1
            s["reserved_blind"][p, k] = blind
        s["num_reserved"][p] = len(cards)


def _level_problem(game: GameNotation, card: int, lvl: int, place: str, rule: str) -> str:
    """Where a card of another level lies: ``card 50 is level 2, in the level-1 deck (C2)``."""
    level = int(game.card_level[card]) + 1
    return f"card {card} is level {level}, in the level-{lvl + 1} {place} ({rule})"


def put_owners(
    out: np.ndarray, seats: Sequence[Iterable[int]], field: str, what: str, first: int = 0
) -> None:
    """Write ``out[id] = seat`` for each id a seat lists; an id listed twice is refused.

    Args:
        what: what an id names in messages (``"card"``).
        first: the number a message gives id 0 (1 for royal cards, numbered 1-4).

    Raises:
        NotationError: an id listed twice.
    """
    for p, ids in enumerate(seats):
        for i in ids:
            if out[i] >= 0:
                raise fail(field, f"{what} {i + first} is written twice (it has one owner)")
            out[i] = p


def put_payment(game: GameNotation, s: np.void, spec: Spec) -> None:
    """The payment in progress: the card at its source, the tokens still owed (its cost
    less bonuses, less the gold committed) and the gold committed; then what the reserves
    show (:func:`check_hidden`: another seat's blind reserve is public while it pays for
    it). Needs the bonuses and the reserves written.

    Raises:
        NotationError: a payment missing in phase payment or given in another, from a
            place without a card the seat can see, or with more gold than a colour owed;
            a reserve shown or hidden wrongly.
    """
    s["pay_card"] = -1
    if spec.payment is not None or spec.phase == game.paying:
        _put_payment(game, s, spec)
    first = game.first_reserved
    paying = -1
    if spec.payment is not None and spec.payment[0] >= first:
        paying = spec.payment[0] - first
    levels = [int(x) + 1 for x in game.card_level]
    check_hidden(spec.reserved, levels, spec.observer, spec.current, paying, game.hide_rule)


def _put_payment(game: GameNotation, s: np.void, spec: Spec) -> None:
    """The payment part of :func:`put_payment`."""
    rule = game.pay_rule
    if spec.payment is None:
        raise fail(
            "payment", f"missing: phase payment names the card paid for (2.3 or r1) ({rule})"
        )
    if spec.phase != game.paying:
        raise fail("payment", f"only in phase payment ({rule})")
    src, committed = spec.payment
    p = spec.current
    first = game.first_reserved
    if src < first:
        card = int(s[game.row].ravel()[src])
    else:
        k = src - first
        card = int(s["reserved"][p, k]) if k < int(s["num_reserved"][p]) else -1
    where = format_source(src, game.row_starts, first)
    if card < 0:
        raise fail("payment", f"seat {p} pays for {where}, which holds no card it can see ({rule})")
    owed = game.owed(s, p, card)
    for c, letter in enumerate(game.pay_letters):
        if committed[c] > owed[c]:
            raise fail(
                "payment",
                f"{committed[c]} gold in place of {letter}, but card {card} costs seat "
                f"{p} {owed[c]} {letter} after bonuses ({rule})",
            )
    s["pay_card"] = card
    s["pay_src"] = src
    s["pay_need"] = owed - np.array(committed)
    s["pay_gold"] = sum(committed)


# --------------------------------------------------------------------------- the gate


def gate(game: GameNotation, arr: np.ndarray) -> np.ndarray:
    """The game's position gate (the one of ``State.from_dict``).

    Returns:
        ``arr``, when it is sound.

    Raises:
        PositionError: ``corrupt position: `` and every problem, naming the field and rule.
    """
    problems = game.problems(arr)
    if problems:
        raise PositionError("corrupt position: " + "; ".join(problems))
    return arr


def gate_observation(game: GameNotation, arr: np.ndarray) -> np.ndarray:
    """An observation is sound when a full position with its public part is: the unseen
    cards of each level are as many as its deck and hidden reserves hold
    (:func:`check_unseen`), and dealt into them (in a fixed order) they make a position
    the gate accepts.

    Returns:
        ``arr``, when it is sound.

    Raises:
        PositionError: ``corrupt position: …``.
    """
    s = arr[0]
    seen = np.zeros(game.num_cards, dtype=np.bool_)
    seen[s[game.owner] >= 0] = True
    for c in (*s[game.row].ravel(), *s["reserved"].ravel()):
        if c >= 0:
            seen[c] = True
    rule = game.deck_rule
    check_unseen(seen, game.card_level, s["deck_len"], s["reserved"], s["reserved_level"], rule)
    full = np.zeros(1, dtype=game.dtype)
    r = np.zeros(1, dtype=np.uint64)
    seed_rng(r, DEFAULT_SEED)
    if game.determinize_into(arr, full, r) < 0:  # pragma: no cover - counted just above
        raise PositionError(f"corrupt position: the hidden cards do not match the decks ({rule})")
    gate(game, full)
    return arr


__all__ = [
    "CardTexts",
    "TextArgs",
    "BLIND",
    "DEFAULT_SEED",
    "EMPTY",
    "GameNotation",
    "HIDDEN",
    "NotationError",
    "Spec",
    "card_texts",
    "check_hidden",
    "check_seed",
    "check_unseen",
    "count_problem",
    "counts_of",
    "fail",
    "format_counts",
    "format_payment",
    "format_reserved",
    "format_rng",
    "format_slots",
    "format_source",
    "gate",
    "gate_observation",
    "ids_of",
    "int_arg",
    "items_of",
    "join_items",
    "owner_field",
    "parse_choice",
    "parse_counts",
    "parse_groups",
    "parse_id",
    "parse_int",
    "parse_reserved",
    "parse_rng",
    "parse_slots",
    "parse_source",
    "payment_of",
    "per_seat",
    "phase_of",
    "place_cards",
    "put_cards",
    "put_owners",
    "put_payment",
    "read_position",
    "require",
    "rng_value",
    "seat_field",
    "seat_groups",
    "seat_reserved",
    "seat_tokens",
    "split_groups",
    "split_items",
    "text_args",
    "text_turn",
    "write_position",
]
