"""Groups by rating for games of three or four players (pure functions: no I/O).

**A round.** The players are ranked by score (highest first), then rating (highest first),
then id, and cut into tables in that order, the top of the standings together
(:func:`make_groups`):

- *Table sizes* (:func:`table_sizes`): tables of N (the tournament's game size) and, to
  seat everyone, tables of N−1 when N−1 is at least the game's minimum; the fewest byes
  first, then the most full tables. Splendor (2-4 players) at N = 4 seats everyone from 6
  players up (10 = 4 + 3 + 3); 5 players make one table of 4 and a bye.
- *Byes*: the lowest-ranked players who have not had one (then the lowest-ranked). A bye
  scores as a win at a table (N−1 points).
- *Avoiding repeats and blocks*: a table whose players sat together as that exact group
  in an earlier round, or that holds two players one of whom blocks the other, is mended
  by swapping one of its players with one of a neighbouring table (the nearest first),
  when that makes fewer such tables (:func:`improve`). Blocks weigh more than repeats.
- *Seats*: at each table the seats go round: in round r the table's ranked list is
  rotated by r−1, so the first seat changes hands.

**Points by placement** (:func:`placement_points`): a game's winners share the first
place; the others are placed by their score (their prestige points), best first. At a
table of k players in a tournament of N, place p scores (N−1)·(k−p)/(k−1): at a full
table of 4, 3/2/1/0; at a table of 3 in a tournament of 4, 3/1.5/0 (the winner and the
last always score N−1 and 0). Players sharing places share their points equally (two
sharing the first two places at a table of 4: 2.5 each). A forfeit (resignation or time)
places the forfeiting player last and the others by their score.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from .swiss import Entrant

MAX_PASSES = 20
"""Rounds of mending (:func:`improve`) before giving up on the tables left as they are."""


@dataclass(frozen=True)
class GroupRound:
    """A round of groups: ``tables`` (player ids of each table, its seat order) and the
    players with a bye."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]


def table_sizes(n: int, size: int, minimum: int) -> tuple[list[int], int]:
    """How ``n`` players sit at tables of ``size`` (and of ``size - 1`` when that is at
    least ``minimum``): the sizes (the bigger first) and the number of byes (module
    docstring).

    Raises:
        ValueError: ``size`` below ``minimum`` or below 2, or ``n`` negative.
    """
    if size < max(2, minimum) or n < 0:
        raise ValueError(f"no tables of {size} for {n} players (at least {minimum} a game)")
    small = size - 1 if size - 1 >= max(2, minimum) else 0
    best: tuple[int, int, int] | None = None  # (byes, -full tables, small tables)
    for full in range(n // size, -1, -1):
        rest = n - full * size
        smalls = rest // small if small else 0
        option = (rest - smalls * small, -full, smalls)
        if best is None or option < best:
            best = option
    assert best is not None
    byes, full, smalls = best[0], -best[1], best[2]
    return [size] * full + [small] * smalls, byes


def placement_points(
    scores: Sequence[float], winners: Collection[int], full_size: int
) -> list[float]:
    """The tournament points of each seat of a finished game (module docstring).

    Args:
        scores: each seat's score (prestige points) at the end.
        winners: the seats that won (a record's ``"winners"``; a forfeit: every seat but
            the forfeiting one).
        full_size: N, the tournament's table size.

    Returns:
        The points of each seat, in seat order.
    """
    k = len(scores)
    if k < 2:
        return [float(full_size - 1)] * k
    key = [(0 if s in winners else 1, -scores[s]) for s in range(k)]
    order = sorted(range(k), key=lambda s: key[s])

    def points(place: int) -> float:  # place 1..k
        return (full_size - 1) * (k - place) / (k - 1)

    out = [0.0] * k
    i = 0
    while i < k:
        j = i
        while j < k and key[order[j]] == key[order[i]]:
            j += 1
        shared = sum(points(p + 1) for p in range(i, j)) / (j - i)
        for s in order[i:j]:
            out[s] = shared
        i = j
    return out


def improve(groups: list[list[str]], badness: Callable[[Sequence[str]], int]) -> list[list[str]]:
    """Mend the groups that ``badness`` finds bad (> 0) by swapping one of their players
    with one of another group, the nearest groups first, whenever the swap lowers the two
    groups' total badness; at most :data:`MAX_PASSES` passes. Returns the groups (the
    same lists, changed in place)."""
    for _ in range(MAX_PASSES):
        changed = False
        for i, group in enumerate(groups):
            if badness(group) == 0:
                continue
            changed |= _mend(groups, i, badness)
        if not changed:
            break
    return groups


def _mend(groups: list[list[str]], i: int, badness: Callable[[Sequence[str]], int]) -> bool:
    """One swap that lowers the badness of group ``i`` and a neighbour; whether found."""
    near = sorted((j for j in range(len(groups)) if j != i), key=lambda j: (abs(j - i), j))
    here = groups[i]
    for j in near:
        there = groups[j]
        before = badness(here) + badness(there)
        for a in range(len(here) - 1, -1, -1):
            for b in range(len(there)):
                here[a], there[b] = there[b], here[a]
                if badness(here) + badness(there) < before:
                    return True
                here[a], there[b] = there[b], here[a]
    return False


def make_groups(
    entrants: Sequence[Entrant],
    scores: Mapping[str, float],
    round_no: int,
    size: int,
    minimum: int,
    *,
    byes_had: Mapping[str, int] | None = None,
    earlier: Collection[frozenset[str]] = (),
    blocked: Collection[frozenset[str]] = (),
) -> GroupRound:
    """The tables of round ``round_no`` (module docstring).

    Args:
        entrants: the players to seat (withdrawn ones left out), each once.
        scores: each player's tournament points so far (absent: 0).
        round_no: the round (1, 2, ...): the seats' rotation.
        size: N, the game's number of players.
        minimum: the game's fewest players.
        byes_had: byes each player had so far (absent: 0).
        earlier: the groups of the earlier rounds (player id sets).
        blocked: pairs of players who must not share a table if avoidable.

    Raises:
        ValueError: as :func:`table_sizes`.
    """
    had = byes_had or {}
    ranked = sorted(entrants, key=lambda e: (-scores.get(e.id, 0.0), -e.rating, e.id))
    sizes, n_byes = table_sizes(len(ranked), size, minimum)
    bottom_up = [e.id for e in reversed(ranked)]
    byes = sorted(bottom_up, key=lambda i: had.get(i, 0) > 0)[:n_byes]  # stable: lowest first
    seated = [e.id for e in ranked if e.id not in byes]
    groups: list[list[str]] = []
    at = 0
    for k in sizes:
        groups.append(seated[at : at + k])
        at += k
    seen = set(earlier)
    blocks = set(blocked)

    def badness(group: Sequence[str]) -> int:
        pairs = sum(
            frozenset((a, b)) in blocks for x, a in enumerate(group) for b in group[x + 1 :]
        )
        return 10 * pairs + (frozenset(group) in seen)

    improve(groups, badness)
    rank = {i: r for r, i in enumerate(seated)}
    tables = []
    for g in groups:
        order = sorted(g, key=lambda i: rank[i])
        turn = (round_no - 1) % len(order)
        tables.append(tuple(order[turn:] + order[:turn]))
    return GroupRound(tuple(tables), tuple(byes))


__all__ = [
    "MAX_PASSES",
    "GroupRound",
    "improve",
    "make_groups",
    "placement_points",
    "table_sizes",
]
