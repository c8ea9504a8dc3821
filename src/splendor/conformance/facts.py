"""The facts a conformance case may state about a position, per game: the part
``"conformance_facts"`` of each game's descriptor (:meth:`splendor.descriptor.Game.part`),
so that the runner asks the game for them instead of branching on its name.

Every game's facts include ``turn``, ``current`` and ``phase`` (:mod:`.runner` adds them);
each :class:`FactTable` adds the game's own, computed from a ``State``
(``docs/conformance.md`` says what each is).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

COMMON = ("turn", "current", "phase")
"""The facts of every game (computed by :func:`splendor.conformance.runner.facts_of`)."""


@dataclass(frozen=True)
class FactTable:
    """One game's own facts.

    Attributes:
        names: every fact a case of this game may state, the common ones first.
        compute: ``compute(state) -> {name: value}``, the game's own facts of a ``State``.
    """

    names: tuple[str, ...]
    compute: Callable[[Any], dict[str, Any]]


def _classic(state: Any) -> dict[str, Any]:
    """Classic Splendor's facts: ``players``, ``supply`` (W U G R K gold, C1),
    ``deck_sizes``, ``faceup_levels`` (C4), ``nobles_shown`` (C3), ``empty_hands``,
    ``scores``."""
    return {
        "players": state.num_players,
        "supply": list(state.supply),
        "deck_sizes": list(state.deck_sizes),
        "faceup_levels": [[c.level if c else None for c in row] for row in state.faceup],
        "nobles_shown": sum(x is not None for x in state.nobles),
        "empty_hands": all(
            sum(p.tokens) == 0 and not p.reserved and not p.purchased and not p.nobles
            for p in state.players
        ),
        "scores": list(state.scores),
    }


def _duel(state: Any) -> dict[str, Any]:
    """Splendor Duel's facts: ``board_counts`` (W U G R K P gold, D1, D2),
    ``empty_cells``, ``bag``, ``deck_sizes``, ``pyramid_levels`` (D3),
    ``royals_available`` (1-4, D4), ``privileges`` (D5), ``turn_cap`` (D25),
    ``empty_hands``, ``scores``."""
    counts = [0] * 7
    for v in state.board:
        if v is not None:
            counts[v] += 1
    return {
        "board_counts": counts,
        "empty_cells": sum(v is None for v in state.board),
        "bag": list(state.bag),
        "deck_sizes": list(state.deck_sizes),
        "pyramid_levels": [[c.level if c else None for c in row] for row in state.pyramid],
        "royals_available": [k + 1 for k, r in enumerate(state.royals) if r is not None],
        "privileges": [p.privileges for p in state.players],
        "turn_cap": state.turn_cap,
        "empty_hands": all(
            sum(p.tokens) == 0 and not p.reserved and not p.purchased and not p.royals
            for p in state.players
        ),
        "scores": list(state.scores),
    }


CLASSIC_FACTS = FactTable(
    names=(
        *COMMON,
        *"players supply deck_sizes faceup_levels nobles_shown empty_hands scores".split(),
    ),
    compute=_classic,
)
"""Classic Splendor's facts (its descriptor's part ``"conformance_facts"``)."""

DUEL_FACTS = FactTable(
    names=(
        *COMMON,
        *(
            "board_counts empty_cells bag deck_sizes pyramid_levels royals_available "
            "privileges turn_cap empty_hands scores"
        ).split(),
    ),
    compute=_duel,
)
"""Splendor Duel's facts (its descriptor's part ``"conformance_facts"``)."""

__all__ = ["CLASSIC_FACTS", "COMMON", "DUEL_FACTS", "FactTable"]
