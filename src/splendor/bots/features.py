"""Reach features: what each seat still lacks to buy each visible card, for the network
(issue 17).

A small network learns slowly, from the raw observation tensor (:mod:`splendor.encoding`),
that a card costing 4 red is bought at once by a seat with 2 red bonuses and 2 red tokens and
is far from a seat with none: the cost, the bonuses and the tokens sit in different places
and the relation is a sum of clipped differences. These features compute it, from the tensor
alone (so from what the observing seat may see: C16, D22), for every seat (seat-relative
rows, as in the tensor):

* for each face-up card (classic, C4) or pyramid card (Duel, D4), then each of the seat's
  own reserved cards (C8, D9; an empty or hidden slot gives zeros):
  the cost left once the seat's bonuses are counted (C9, D11), the tokens still missing once
  its coloured tokens (and pearls in Duel) are counted and its gold spent (C9, D11), and 1
  if the card is affordable now;
* for each noble (classic, C12): the bonuses the seat still misses;
* the smallest shortfall over those cards, the most prestige points among the cards the
  seat can afford, its tokens and its bonuses in all.

With ``num_players`` seats the block has ``num_players * per_seat`` values, appended after
the observation tensor (:func:`feature_size`). A network trained with them says so in its
file (:class:`splendor.bots.network.PolicyValueNet` ``features``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..descriptor import Game
from ..encoding import (
    C_CARD_FEATURES,
    C_NOBLE_FEATURES,
    C_RESERVED_FEATURES,
    D_CARD_FEATURES,
    D_RESERVED_FEATURES,
    layout,
    observation_size,
)
from ..game import get_game

_NUM_CARDS = 12  # classic: 3 levels x 4 face-up cards; Duel: the pyramid's 3 + 4 + 5
_MAX_RESERVED = 3
_C_NOBLES = 5  # the most nobles on the table (C3), read by the compiled features
_FAR = 20.0  # the shortfall given when a seat sees no card at all


@dataclass(frozen=True)
class ReachLayout:
    """Where a game's tensor holds what the reach features read: its ``"reach"`` part
    (:meth:`splendor.descriptor.Game.part`).

    Attributes:
        cards: the layout field of the visible cards (``"faceup"``, ``"pyramid"``).
        card_features, reserved_features: the features of a card slot and of a reserved
            slot (:mod:`splendor.encoding`).
        token_stride: the values per seat of the ``players.tokens`` field (gold last).
        cost_colours: the cost values of a card (5 gems, and pearls in Duel).
        nobles: the layout field of the nobles, or None when the game has none.
        noble_features: the features of a noble slot (empty without nobles).
        num_nobles: the noble slots the features read (0 without nobles).
    """

    cards: str
    card_features: tuple[str, ...]
    reserved_features: tuple[str, ...]
    token_stride: int
    cost_colours: int
    nobles: str | None = None
    noble_features: tuple[str, ...] = ()
    num_nobles: int = 0


CLASSIC_REACH = ReachLayout(
    "faceup", C_CARD_FEATURES, C_RESERVED_FEATURES, 6, 5, "nobles", C_NOBLE_FEATURES, _C_NOBLES
)
"""Classic Splendor: 12 face-up cards, 5 gems and gold, up to 5 nobles (C3, C4)."""

DUEL_REACH = ReachLayout("pyramid", D_CARD_FEATURES, D_RESERVED_FEATURES, 7, 6)
"""Splendor Duel: the pyramid's 12 cards, 5 gems, pearls and gold, no nobles (D4)."""


def _reach(game: str | Game) -> ReachLayout:
    layout_: ReachLayout = get_game(game).part("reach")
    return layout_


def per_seat(game: str | Game) -> int:
    """Values per seat: 3 per card (face-up or pyramid, then the 3 reserved slots), 1 per
    noble (classic), and 4 totals.

    Raises:
        ValueError: unknown game.
    """
    return 3 * (_NUM_CARDS + _MAX_RESERVED) + _reach(game).num_nobles + 4


def feature_size(game: str | Game, num_players: int = 2) -> int:
    """Length of the feature block of ``game`` with ``num_players`` seats.

    Raises:
        ValueError: unknown game or a player count it does not allow.
    """
    layout(game, num_players)  # checks the player count
    return num_players * per_seat(game)


def feature_plan(game: str | Game, num_players: int = 2) -> np.ndarray:
    """The tensor offsets :func:`reach_features` reads (``int64``, shape ``(13,)``):
    tokens, token stride, bonuses, cards, card stride, cost offset in a card, cost colours,
    reserved, reserved stride, nobles (-1: none), noble stride, points offset in a card,
    number of seats.

    Raises:
        ValueError: unknown game or a player count it does not allow.
    """
    off = {f.name: f.offset for f in layout(game, num_players)}
    reach = _reach(game)
    card = reach.card_features
    return np.array(
        [
            off["players.tokens"],
            reach.token_stride,
            off["players.bonuses"],
            off[reach.cards],
            len(card),
            card.index("cost_W"),
            reach.cost_colours,
            off["players.reserved"],
            len(reach.reserved_features),
            -1 if reach.nobles is None else off[reach.nobles],
            len(reach.noble_features),
            card.index("points"),
            num_players,
        ],
        dtype=np.int64,
    )


PLAN_SIZE = 13
"""Length of :func:`feature_plan`; :func:`search_plan` adds the tensor's size after it."""


def search_plan(game: str, num_players: int, features: bool) -> np.ndarray:
    """What the compiled search needs (:mod:`splendor.bots.net_search`): the
    :func:`feature_plan` followed by the observation tensor's size (``int64``,
    ``(PLAN_SIZE + 1,)``), or an empty array when the network reads no features.

    Raises:
        ValueError: unknown game or a player count it does not allow.
    """
    if not features:
        return np.zeros(0, dtype=np.int64)
    size = observation_size(game, num_players)
    return np.concatenate([feature_plan(game, num_players), [size]]).astype(np.int64)


@njit(cache=True)
def _card(
    x: np.ndarray, at: int, plan: np.ndarray, tok: int, bon: int, out: np.ndarray, k: int
) -> tuple[float, float]:
    """Write the 3 values of the card at tensor offset ``at`` for the seat whose tokens
    start at ``tok`` and bonuses at ``bon``; return (shortfall, points if affordable else -1)
    or (-1, -1) for an empty slot."""
    cost_at, n_cost, pts_at, tok_stride = plan[5], plan[6], plan[11], plan[1]
    if x[at] == 0.0:  # "present" is the first value of a card slot
        out[k] = 0.0
        out[k + 1] = 0.0
        out[k + 2] = 0.0
        return -1.0, -1.0
    after = 0.0
    missing = 0.0
    for c in range(n_cost):
        need = x[at + cost_at + c]
        if c < 5:
            need -= x[bon + c]
        if need > 0.0:
            after += need
            have = x[tok + c]
            if need > have:
                missing += need - have
    short = missing - x[tok + tok_stride - 1]
    if short < 0.0:
        short = 0.0
    out[k] = after
    out[k + 1] = short
    out[k + 2] = 1.0 if short == 0.0 else 0.0
    return short, x[at + pts_at] if short == 0.0 else -1.0


@njit(cache=True)
def reach_features(x: np.ndarray, plan: np.ndarray, out: np.ndarray) -> None:
    """Compiled: the reach features (module docstring) of one observation tensor ``x``
    (``float32``, ``(observation_size,)``) into ``out`` (``float32``,
    ``(feature_size,)``), with the offsets of :func:`feature_plan`."""
    tok0, tok_stride, bon0, cards0, card_stride = plan[0], plan[1], plan[2], plan[3], plan[4]
    res0, res_stride, nob0, nob_stride, n = plan[7], plan[8], plan[9], plan[10], plan[12]
    k = 0
    for p in range(n):
        tok = tok0 + p * tok_stride
        bon = bon0 + p * 5
        best_short = _FAR
        best_points = 0.0
        for i in range(_NUM_CARDS):
            short, pts = _card(x, cards0 + i * card_stride, plan, tok, bon, out, k)
            k += 3
            if short >= 0.0 and short < best_short:
                best_short = short
            if pts > best_points:
                best_points = pts
        for i in range(_MAX_RESERVED):
            at = res0 + (p * _MAX_RESERVED + i) * res_stride
            if x[at + card_stride] != 0.0:  # another seat's blind reserve: unseen
                for j in range(3):
                    out[k + j] = 0.0
                k += 3
                continue
            short, pts = _card(x, at, plan, tok, bon, out, k)
            k += 3
            if short >= 0.0 and short < best_short:
                best_short = short
            if pts > best_points:
                best_points = pts
        if nob0 >= 0:
            for j in range(_C_NOBLES):
                at = nob0 + j * nob_stride
                miss = 0.0
                if x[at] != 0.0:
                    for c in range(5):
                        d = x[at + 1 + c] - x[bon + c]
                        if d > 0.0:
                            miss += d
                out[k] = miss
                k += 1
        tokens = 0.0
        for c in range(tok_stride):
            tokens += x[tok + c]
        bonuses = 0.0
        for c in range(5):
            bonuses += x[bon + c]
        out[k] = best_short
        out[k + 1] = best_points
        out[k + 2] = tokens
        out[k + 3] = bonuses
        k += 4


@njit(cache=True)
def reach_features_rows(x: np.ndarray, plan: np.ndarray, out: np.ndarray) -> None:
    """Compiled: :func:`reach_features` of every row of ``x`` (``(N, observation_size)``)
    into the rows of ``out`` (``(N, feature_size)``)."""
    for r in range(x.shape[0]):
        reach_features(x[r], plan, out[r])


def with_features(x: np.ndarray, game: str, num_players: int = 2) -> np.ndarray:
    """Observation tensors with their reach features appended: ``float32``,
    ``(N, observation_size + feature_size)`` for ``x`` of shape ``(N, observation_size)``
    (or ``(n,)`` for one tensor).

    Raises:
        ValueError: ``x`` is not of the game's tensor size.
    """
    plan = feature_plan(game, num_players)
    rows = np.atleast_2d(np.asarray(x, dtype=np.float32))
    n_in = observation_size(game, num_players)
    if rows.shape[1] != n_in:
        raise ValueError(
            f"{get_game(game).package} tensors with {num_players} players have {n_in} values, "
            f"got {rows.shape[1]}"
        )
    extra = np.zeros((rows.shape[0], feature_size(game, num_players)), np.float32)
    reach_features_rows(rows, plan, extra)
    out = np.concatenate([rows, extra], axis=1)
    return out[0] if np.asarray(x).ndim == 1 else out


__all__ = [
    "feature_plan",
    "feature_size",
    "PLAN_SIZE",
    "per_seat",
    "reach_features",
    "reach_features_rows",
    "search_plan",
    "with_features",
]
