"""What the per-game encoders share (:mod:`splendor.encoding.classic`,
:mod:`splendor.encoding.duel`): the :class:`Field` of a layout, the rows of a game's layout
table (:class:`FieldSpec`), the per-game bundle :class:`GameEncoding` that each game declares
as its ``"encoding"`` part, and the compiled helpers that copy a card's features into a
tensor."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from ..jit import ENGINE_SOURCES, refresh_numba_cache

refresh_numba_cache(__file__, *ENGINE_SOURCES)

__all__ = ["PLAYERS", "Field", "FieldSpec", "GameEncoding", "frozen", "put_card", "put_reserved"]

PLAYERS = -1
"""Stands for the number of players in a :class:`FieldSpec`'s shape or bound (a classic
table serves 2, 3 and 4 players)."""


@dataclass(frozen=True)
class Field:
    """One named slice of the observation tensor.

    Attributes:
        name: unique dotted name (``"players.tokens"``, ``"faceup"``).
        offset: index of its first value in the flat tensor.
        shape: shape of the slice before flattening (C order).
        dtype: the kind of values (all stored as ``float32``): ``"one-hot"`` (0/1, at most one
            1 along the last axis), ``"binary"`` (0/1 flags), ``"count"`` (integer >= 0),
            ``"features"`` (a card or noble feature vector, see ``meaning``).
        meaning: what the values are, in words.
        rule: the rule ids the field stands for (``"C8, C16"``).
        high: an upper bound of every value (``inf`` when unbounded); the lower bound is 0.
    """

    name: str
    offset: int
    shape: tuple[int, ...]
    dtype: str
    meaning: str
    rule: str
    high: float = 1.0

    @property
    def size(self) -> int:
        """Number of values of the field (the product of ``shape``)."""
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def slice(self) -> slice:
        """Its slice of the flat tensor."""
        return slice(self.offset, self.offset + self.size)


class FieldSpec(NamedTuple):
    """One row of a game's layout table: a :class:`Field` without its offset, where
    :data:`PLAYERS` in ``shape`` or ``high`` stands for the number of players."""

    name: str
    shape: tuple[int, ...]
    dtype: str
    meaning: str
    rule: str
    high: float = 1.0

    def field(self, offset: int, num_players: int) -> Field:
        """The :class:`Field` of this row at ``offset`` for ``num_players`` seats."""
        shape = tuple(num_players if d == PLAYERS else int(d) for d in self.shape)
        high = float(num_players if self.high == PLAYERS else self.high)
        return Field(self.name, offset, shape, self.dtype, self.meaning, self.rule, high)


@dataclass(frozen=True)
class GameEncoding:
    """A game's part of the observation tensor (its ``"encoding"`` part, see
    :meth:`splendor.descriptor.Game.part`).

    Attributes:
        fields: the layout table, in tensor order (the compiled encoder writes the fields in
            this order: ``off[k]`` is the offset of ``fields[k]``).
        tables: the two read-only feature tables the encoder reads (cards, then nobles or
            royal cards).
        encode: the compiled encoder ``encode(arr, me, hide, out, off, table1, table2)``.
    """

    fields: tuple[FieldSpec, ...]
    tables: tuple[np.ndarray, np.ndarray]
    encode: Callable[..., Any]

    def check_order(self, kernel_order: tuple[str, ...]) -> None:
        """Refuse a table whose field order differs from the one the encoder writes.

        Raises:
            RuntimeError: the orders differ.
        """
        if tuple(f.name for f in self.fields) != kernel_order:
            raise RuntimeError("encoding: the kernel field order differs from the layout")


def frozen(a: np.ndarray) -> np.ndarray:
    """``a``, made read-only."""
    a.setflags(write=False)
    return a


# Inlined (numba IR) into the encoders: a call per card slot cost a quarter of their time.
@njit(cache=True, inline="always")
def put_card(  # pragma: no cover - compiled
    out: np.ndarray, o: int, table: np.ndarray, card: int | np.int64
) -> None:
    """Copy row ``card`` of ``table`` into ``out`` at ``o`` (nothing for ``card`` -1)."""
    if card >= 0:
        # Unsigned indices: numba tests a signed index for wrap-around (a negative index
        # counts from the end) at every element, which kept this copy from vectorizing.
        start = np.uint64(o)
        features = table[np.uint64(card)]
        for j in range(np.uint64(table.shape[1])):
            out[start + j] = features[j]


# Inlined (numba IR) into the encoders: a call per card slot cost a quarter of their time.
@njit(cache=True, inline="always")
def put_reserved(  # pragma: no cover - compiled
    out: np.ndarray,
    o: int,
    table: np.ndarray,
    s: np.record,
    p: int | np.int64,
    k: int,
    me: int | np.int64,
    paying: int | np.int64,
    hide: bool,
) -> None:
    """Slot ``k`` of seat ``p`` as seat ``me`` sees it: card features, hidden, blind (C8,
    C16, D9, D22). In an observation (``hide`` False) another seat's blind reserve is
    already -1; in a full state (``hide`` True) it is hidden here, unless it is the one being
    paid for (slot ``paying`` of the seat to play), as ``State.observation`` does."""
    nf = table.shape[1]
    if k >= s.num_reserved[p]:
        return
    card = s.reserved[p, k]
    hidden = hide and p != me and s.reserved_blind[p, k] and not (p == s.current and k == paying)
    if card >= 0 and not hidden:
        put_card(out, o, table, card)
    else:  # another seat's blind reserve: only its level is public
        out[o] = 1.0
        out[o + s.reserved_level[p, k]] = 1.0
        out[o + nf] = 1.0
    if s.reserved_blind[p, k]:
        out[o + nf + 1] = 1.0
