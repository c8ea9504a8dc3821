"""Who plays whom, in which seat, on which deal: lineups, cycles and seeds.

A *lineup* gives the bot (an index into the arena's bot list) sitting in each seat. For
``B`` bots in a ``K``-player game:

- ``B >= K``: every ``K``-combination of bots, each in its ``K`` cyclic rotations
  (``C(B, K) * K`` lineups). A bot is in ``C(B-1, K-1)`` combinations and takes each seat
  once per combination's rotations, so every bot plays every seat equally often.
- ``B < K`` (say 3 bots in a 4-player game): ``B`` lineups with repeats, seat ``i`` of
  lineup ``r`` holding bot ``(r + i) % B``; again each bot sits in each seat equally often.

A *cycle* is one pass over all lineups, and every lineup of a cycle plays the same deal
(common random numbers: the pairings are compared on equal cards). The requested number of
games is rounded up to whole cycles. The deal seed of cycle ``c`` derives from the arena
seed and ``c``; the seed of the bot in seat ``s`` derives from that deal seed and ``s``
(:func:`deal_seed`, :func:`bot_seed`), so a run is reproducible from its arena seed. (Two
copies of one deterministic bot therefore play the same game twice in a cycle, seats swapped.)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

SEED_BITS = 62
"""Derived seeds are integers in ``[0, 2**62)`` (the engines take ``0 <= seed < 2**63``)."""


def lineups(num_bots: int, num_players: int) -> list[tuple[int, ...]]:
    """Every lineup of one cycle, as tuples of bot indices in seat order (see the module
    docstring).

    Returns:
        ``C(B, K) * K`` lineups when ``B >= K``, else ``B`` lineups; each of length ``K``.

    Raises:
        ValueError: fewer than 1 bot or 1 seat.
    """
    if num_bots < 1 or num_players < 1:
        raise ValueError(f"need at least one bot and one seat, got {num_bots} and {num_players}")
    if num_bots >= num_players:
        out: list[tuple[int, ...]] = []
        for combo in itertools.combinations(range(num_bots), num_players):
            for r in range(num_players):
                out.append(tuple(combo[(i + r) % num_players] for i in range(num_players)))
        return out
    return [tuple((r + i) % num_bots for i in range(num_players)) for r in range(num_bots)]


def cycles_for(games: int, per_cycle: int) -> int:
    """Whole cycles needed for at least ``games`` games (at least one cycle).

    Raises:
        ValueError: ``games < 1`` or ``per_cycle < 1``.
    """
    if games < 1:
        raise ValueError(f"the number of games must be at least 1, got {games}")
    if per_cycle < 1:
        raise ValueError(f"a cycle needs at least one lineup, got {per_cycle}")
    return max(1, math.ceil(games / per_cycle))


def _derive(*words: int) -> int:
    """A 62-bit integer mixed from ``words`` by numpy's SeedSequence (stable across
    platforms and numpy versions)."""
    state = np.random.SeedSequence([int(w) & 0xFFFFFFFFFFFFFFFF for w in words]).generate_state(
        2, dtype=np.uint32
    )
    return ((int(state[0]) << 32) | int(state[1])) & ((1 << SEED_BITS) - 1)


def deal_seed(arena_seed: int, cycle: int) -> int:
    """The deal seed shared by every game of ``cycle`` (an integer in ``[0, 2**62)``)."""
    return _derive(0x5EED, arena_seed, cycle)


def bot_seed(deal: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of a game dealt with seed ``deal``."""
    return _derive(0xB07, deal, seat)


@dataclass(frozen=True)
class GameTask:
    """One arena game, everything a worker needs (picklable, JSON-able via :meth:`to_dict`).

    Attributes:
        index: position of the game in the schedule (``cycle * lineups + lineup``).
        cycle: the cycle (all its games share ``seed``).
        lineup: index of the lineup within the cycle.
        game: registered game name (``"splendor"`` or ``"duel"``).
        bots: bot index per seat (into the arena's bot list), length ``K``.
        specs: bot spec per seat.
        names: label per seat, as written in the record.
        seed: the deal seed.
        bot_seeds: seed per seat.
        options: game options (Duel: ``turn_cap``).
        max_decisions: the host's decision cap (classic): the game stops with no winner
            after this many decisions (:func:`splendor.record.decision_cap_result`); None
            for no cap. Not a game option: the engine never sees it.
    """

    index: int
    cycle: int
    lineup: int
    game: str
    bots: tuple[int, ...]
    specs: tuple[str, ...]
    names: tuple[str, ...]
    seed: int
    bot_seeds: tuple[int, ...]
    options: dict[str, Any] = field(default_factory=dict)
    max_decisions: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The task as a JSON-able dict (tuples become lists)."""
        d = asdict(self)
        for key in ("bots", "specs", "names", "bot_seeds"):
            d[key] = list(d[key])
        return d


@dataclass(frozen=True)
class Schedule:
    """Every game of an arena run, in order.

    Attributes:
        tasks: the games, ``tasks[i].index == i``.
        lineups: the lineups of one cycle.
        cycles: number of cycles.
        requested: games asked for; ``len(tasks)`` is that rounded up to whole cycles.
    """

    tasks: tuple[GameTask, ...]
    lineups: tuple[tuple[int, ...], ...]
    cycles: int
    requested: int

    @property
    def rounded(self) -> bool:
        """True when the number of games was rounded up to whole cycles."""
        return len(self.tasks) != self.requested


def seat_labels(labels: Sequence[str]) -> list[str]:
    """Labels per seat for a record: a label seen twice in the lineup gets its seat number
    (``random-0``, ``random-2``), as in :func:`splendor.tui.app.seat_names`."""
    return [f"{b}-{i}" if list(labels).count(b) > 1 else b for i, b in enumerate(labels)]


def make_schedule(
    specs: Sequence[str],
    labels: Sequence[str],
    *,
    game: str,
    num_players: int,
    games: int,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    max_decisions: int | None = None,
) -> Schedule:
    """Build the schedule of an arena run.

    Args:
        specs: bot spec per bot (``B`` of them).
        labels: display label per bot (distinct), same length as ``specs``.
        game: registered game name.
        num_players: seats per game (``K``).
        games: games requested; rounded up to whole cycles.
        seed: the arena seed; deal and bot seeds derive from it.
        options: game options for every game.
        max_decisions: decision cap of every game (None: none), see :class:`GameTask`.

    Raises:
        ValueError: ``games < 1``, no bot, or ``specs`` and ``labels`` of different lengths.
    """
    if len(specs) != len(labels):
        raise ValueError("specs and labels must have the same length")
    ups = lineups(len(specs), num_players)
    n_cycles = cycles_for(games, len(ups))
    tasks: list[GameTask] = []
    for c in range(n_cycles):
        deal = deal_seed(seed, c)
        for j, up in enumerate(ups):
            tasks.append(
                GameTask(
                    index=len(tasks),
                    cycle=c,
                    lineup=j,
                    game=game,
                    bots=up,
                    specs=tuple(specs[b] for b in up),
                    names=tuple(seat_labels([labels[b] for b in up])),
                    seed=deal,
                    bot_seeds=tuple(bot_seed(deal, s) for s in range(num_players)),
                    options=dict(options or {}),
                    max_decisions=max_decisions,
                )
            )
    return Schedule(tuple(tasks), tuple(ups), n_cycles, games)
