"""The observation tensor shared by every research interface (Gymnasium, PettingZoo, OpenSpiel)
and the bots that learn (``splendor.rl.encoding`` is this package, under the name the
research interfaces document).

One flat ``float32`` vector per observation, built **only** from a game's ``Observation``
(what one seat may see, C16 / D22): deck order, the generator and the other seats'
blind-reserved cards never reach it, so an agent fed with these tensors cannot cheat.

Conventions
-----------
- **Seat-relative.** Every per-player field has one row per seat, the observing seat first,
  then the others in turn order (row ``k`` is seat ``(observer + k) % num_players``). The
  current player and owners (royal cards) are relative in the same way. The observer's
  absolute seat is given once (``seat``), since turn order matters (C5, C14, D5).
- **Cards as features, not ids.** A card slot holds a fixed-length feature vector: presence,
  level one-hot, bonus colour one-hot, points, cost (and, in Duel, bonus count, crowns and
  ability bits). Two cards with equal features play identically, so nothing is lost and the
  network needs no card table. An empty slot is all zeros. A blind-reserved card of another
  seat shows only ``present``, its level and the ``hidden`` flag.
- **Raw values.** Counts are stored as they are (tokens, points, turns...), not scaled;
  flags and one-hots are 0/1. Every value is ``>= 0``.

Each game declares its part of this package as its ``"encoding"`` part
(:meth:`splendor.descriptor.Game.part`): a :class:`~splendor.encoding.pieces.GameEncoding`
with its layout table, feature tables and compiled encoder
(:mod:`splendor.encoding.classic`, :mod:`splendor.encoding.duel`). The functions here ask
the game for it and never name a game. A ``game`` argument is anything
:func:`splendor.game.get_game` accepts (``"classic"``, ``"splendor"``, ``"duel"``, a
:class:`~splendor.descriptor.Game`...).

:func:`layout` describes every slice of the tensor (name, offset, shape, kind of value,
meaning, rule id); ``docs/rl.md`` lists the same tables. :func:`observation_tensor` fills
exactly those slices.

Example::

    from splendor import duel
    from splendor import encoding          # also splendor.rl.encoding

    state = duel.new_game(seed=1)
    x = encoding.observation_tensor(state.observation(state.current_player))
    x.shape == (encoding.observation_size("duel"),)
    mask = encoding.action_mask(state)          # int8, shape (encoding.num_actions("duel"),)
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from ..descriptor import Game
from ..game import games, get_game
from .classic import C_CARD_FEATURES, C_NOBLE_FEATURES, C_RESERVED_FEATURES, encode_classic
from .duel import D_CARD_FEATURES, D_RESERVED_FEATURES, D_ROYAL_FEATURES, encode_duel
from .pieces import Field, FieldSpec, GameEncoding

__all__ = [
    "C_CARD_FEATURES",
    "C_NOBLE_FEATURES",
    "C_RESERVED_FEATURES",
    "D_CARD_FEATURES",
    "D_RESERVED_FEATURES",
    "D_ROYAL_FEATURES",
    "GAMES",
    "Field",
    "FieldSpec",
    "GameEncoding",
    "action_mask",
    "card_tables",
    "encode_classic",
    "encode_duel",
    "encoding_of",
    "field_offsets",
    "game_name",
    "layout",
    "num_actions",
    "observation_high",
    "observation_size",
    "observation_tensor",
    "seat_tensor",
]

GAMES = tuple(g.package for g in games())
"""The games' package names (``"classic"``, ``"duel"``); every other name of
:func:`splendor.game.get_game` is accepted too."""


def game_name(game: str | Game) -> str:
    """The package name (``"classic"`` or ``"duel"``) of ``game``: deprecated, use
    ``splendor.game.get_game(game).package`` (or the :class:`~splendor.descriptor.Game`
    itself).

    Raises:
        ValueError: an unknown game.
    """
    return get_game(game).package


def encoding_of(game: str | Game) -> GameEncoding:
    """The game's ``"encoding"`` part: layout table, feature tables, compiled encoder.

    Raises:
        ValueError: an unknown game.
    """
    part: GameEncoding = get_game(game).part("encoding")
    return part


# ------------------------------------------------------------------------------ layout


@cache
def _layout(game: Game, num_players: int) -> tuple[Field, ...]:
    out: list[Field] = []
    off = 0
    for spec in encoding_of(game).fields:
        f = spec.field(off, num_players)
        out.append(f)
        off += f.size
    return tuple(out)


@cache
def _offsets(game: Game, num_players: int) -> tuple[np.ndarray, int]:
    fields = _layout(game, num_players)
    off = np.array([f.offset for f in fields], dtype=np.int64)
    off.setflags(write=False)
    return off, fields[-1].offset + fields[-1].size


def _checked(game: str | Game, num_players: Any) -> tuple[Game, int]:
    g = get_game(game)
    return g, g.check_players(num_players)


def layout(game: str | Game, num_players: int = 2) -> list[Field]:
    """Every slice of the observation tensor of ``game``, in tensor order.

    Args:
        game: a name of :func:`splendor.game.get_game` (``"classic"``, ``"duel"``...) or
            a :class:`~splendor.descriptor.Game`.
        num_players: a player count of the game (2-4 for classic, 2 for Duel).

    Returns:
        A new list of :class:`Field`; consecutive fields tile ``0..observation_size``.

    Raises:
        ValueError: unknown game or a player count the game does not allow.
    """
    return list(_layout(*_checked(game, num_players)))


def observation_size(game: str | Game, num_players: int = 2) -> int:
    """Length of the observation tensor of ``game`` with ``num_players`` seats.

    Classic: 405 (2 players), 473 (3), 541 (4). Duel: 816.

    Raises:
        ValueError: unknown game or a player count the game does not allow.
    """
    return _offsets(*_checked(game, num_players))[1]


def observation_high(game: str | Game, num_players: int = 2) -> np.ndarray:
    """Upper bound of every value of the tensor (float32, shape ``(observation_size,)``;
    ``inf`` where unbounded); the lower bound is 0 everywhere. Used for Box spaces.

    Raises:
        ValueError: unknown game or a player count the game does not allow.
    """
    fields = layout(game, num_players)
    out = np.empty(observation_size(game, num_players), dtype=np.float32)
    for f in fields:
        out[f.slice] = f.high
    return out


def field_offsets(game: str | Game, num_players: int = 2) -> np.ndarray:
    """The offset of each field of :func:`layout` (read-only ``int64``), as the compiled
    encoders take them.

    Raises:
        ValueError: an unknown game or player count.
    """
    return _offsets(*_checked(game, num_players))[0]


def card_tables(game: str | Game) -> tuple[np.ndarray, np.ndarray]:
    """The static tables the compiled encoders read (read-only): classic ``(cards,
    nobles)``, Duel ``(cards, royal cards)``, one row of features per card.

    Raises:
        ValueError: an unknown game.
    """
    return encoding_of(game).tables


def num_actions(game: str | Game) -> int:
    """Number of distinct decision ids of ``game`` (its descriptor's ``num_actions``: 93
    for classic, 296 for Duel).

    Raises:
        ValueError: unknown game.
    """
    return get_game(game).num_actions


# ------------------------------------------------------------------------------ tensors


@cache
def _game_of_class(cls: type) -> tuple[Game | None, bool]:
    """The game whose ``Observation`` (``False``) or full ``State`` (``True``) class
    ``cls`` is; ``(None, False)`` for anything else (worked out once per class)."""
    for g in games():
        if issubclass(cls, g.observation_type):
            return g, False
        if issubclass(cls, g.state_type):
            return g, True
    return None, False


@cache
def _plan(game: Game, num_players: int) -> tuple[Any, np.ndarray, int, np.ndarray, np.ndarray]:
    """What encoding a tensor of ``game`` takes: the encoder, the offsets, the size and the
    two tables (looked up once per game and player count)."""
    part = encoding_of(game)
    off, size = _offsets(game, num_players)
    return part.encode, off, size, *part.tables


def _encode(game: Game, arr: np.ndarray, num_players: int, seat: int, hide: bool) -> np.ndarray:
    encode, off, size, table1, table2 = _plan(game, num_players)
    out = np.zeros(size, dtype=np.float32)
    encode(arr, seat, hide, out, off, table1, table2)
    return out


def observation_tensor(observation: Any) -> np.ndarray:
    """The observation tensor of one seat (see the package docstring and :func:`layout`).

    Args:
        observation: ``state.observation(seat)`` of a game. A full ``State`` is refused, so
            that hidden information cannot slip in.

    Returns:
        A new ``float32`` array of shape ``(observation_size(game, num_players),)``, every
        value ``>= 0``; seat-relative (the observer's rows first).

    Raises:
        TypeError: ``observation`` is not a game's ``Observation`` (C16, D22).
    """
    kind: type = type(observation)
    game, full = _game_of_class(kind)
    if full:
        raise TypeError(
            "observation_tensor takes an Observation (state.observation(seat)), not a full "
            "State: a State holds hidden information (C16, D22)"
        )
    if game is None:
        raise TypeError(
            f"observation_tensor takes a game's Observation, got {type(observation).__name__}"
        )
    arr = observation.array
    return _encode(game, arr, int(observation.num_players), int(arr[0]["observer"]), False)


def seat_tensor(state: Any, seat: int) -> np.ndarray:
    """The tensor of ``seat`` in a full ``state``: exactly
    ``observation_tensor(state.observation(seat))``, without building the observation
    (what a search does with each determinization). Only what ``seat`` may see is read
    (C16, D22).

    Raises:
        TypeError: not a game's full ``State``.
        ValueError: ``seat`` is not a seat of the game.
    """
    kind: type = type(state)
    game, full = _game_of_class(kind)
    if game is None or not full:
        raise TypeError(
            f"seat_tensor takes a full classic or duel State, got {type(state).__name__} "
            "(an Observation's tensor is observation_tensor's)"
        )
    if not 0 <= seat < state.num_players:
        raise ValueError(f"seat must be 0..{state.num_players - 1}, got {seat}")
    return _encode(game, state._a, state.num_players, seat, True)


def action_mask(state_or_view: Any) -> np.ndarray:
    """Legal decisions of the player to act, as ``int8`` 0/1 of shape ``(num_actions,)``.

    Args:
        state_or_view: a game's ``State`` or ``Observation`` (anything with
            ``legal_mask()``); all zeros once the game is over.

    Raises:
        TypeError: ``state_or_view`` has no ``legal_mask()``.
    """
    fn = getattr(state_or_view, "legal_mask", None)
    if fn is None:
        raise TypeError(
            f"action_mask needs a State or an Observation, got {type(state_or_view).__name__}"
        )
    return np.asarray(fn(), dtype=np.int8)
