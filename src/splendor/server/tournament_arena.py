"""The arena's points and pairing (pure functions: no I/O), as on lichess.

**Points** (:func:`arena_score`): a win scores 2, a draw or a shared victory 1, a loss 0.
**Streak**: after two wins in a row a player is *on fire*: each following game scores
double (a win 4, a draw 2) until a game is not won, which ends the streak (that game
still scores double). The ``bonus`` is what the doubling added. In a game of three or
four players, the sole winner wins, the winners of a shared victory draw, and the others
lose.

**Pairing** (:func:`pair_waiting`): whenever players are waiting (registered, not paused,
not in a game), they are ranked by points (highest first), then rating, then id, and cut
into games of the tournament's size in that order, so that neighbours in the standings
meet. A game that would hold a player's immediately previous opponent is mended by
swapping with another game or with a player left waiting (the nearest first); when there
is no other choice (only two players waiting, who just met), they meet again rather than
wait. Two players one of whom blocks the other never meet: they wait for others.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from .tournament_groups import improve

WIN_POINTS, DRAW_POINTS = 2, 1
"""The points of a win and of a draw (a shared victory), before the streak's doubling."""
OUTCOMES = ("win", "draw", "loss")
"""A player's outcome of one arena game."""


@dataclass(frozen=True)
class ArenaScore:
    """A player's arena points: ``points`` (with the bonus), ``bonus`` (what the streaks
    added), ``streak`` (wins in a row now), ``fire`` (the next game scores double),
    ``games`` and ``wins``."""

    points: int
    bonus: int
    streak: int
    fire: bool
    games: int
    wins: int


@dataclass(frozen=True)
class Waiting:
    """A player waiting for a game: arena points, rating, and the opponents of their last
    game (none yet: empty)."""

    id: str
    points: float
    rating: float
    last_opponents: frozenset[str] = frozenset()


def outcome(winners: Collection[int], seat: int) -> str:
    """``"win"``, ``"draw"`` or ``"loss"`` of ``seat`` in a game won by ``winners`` (a
    record's ``"winners"``; none: a draw for everyone)."""
    if not winners:
        return "draw"
    if seat not in winners:
        return "loss"
    return "win" if len(winners) == 1 else "draw"


def arena_score(outcomes: Sequence[str]) -> ArenaScore:
    """The points after ``outcomes`` (a player's games in the order they ended; module
    docstring).

    Raises:
        ValueError: an outcome not in :data:`OUTCOMES`.
    """
    points = bonus = streak = wins = 0
    for o in outcomes:
        if o not in OUTCOMES:
            raise ValueError(f"unknown outcome {o!r}; one of {', '.join(OUTCOMES)}")
        base = WIN_POINTS if o == "win" else DRAW_POINTS if o == "draw" else 0
        if streak >= 2:
            bonus += base
            base *= 2
        points += base
        streak = streak + 1 if o == "win" else 0
        wins += o == "win"
    return ArenaScore(points, bonus, streak, streak >= 2, len(outcomes), wins)


def pair_waiting(
    waiting: Sequence[Waiting], size: int, blocked: Collection[frozenset[str]] = ()
) -> list[tuple[str, ...]]:
    """The games to start among ``waiting`` (module docstring): tuples of ``size``
    player ids in seat order (the higher-ranked first); whoever is left keeps waiting.

    Raises:
        ValueError: ``size`` below 2.
    """
    if size < 2:
        raise ValueError("a game needs at least 2 players")
    ranked = sorted(waiting, key=lambda w: (-w.points, -w.rating, w.id))
    by_id = {w.id: w for w in ranked}
    count = len(ranked) // size
    ids = [w.id for w in ranked]
    groups = [ids[k * size : (k + 1) * size] for k in range(count)]
    spare = ids[count * size :]
    blocks = set(blocked)

    def badness(group: Sequence[str]) -> int:
        if group is spare_group:
            return 0
        bad = 0
        for x, a in enumerate(group):
            for b in group[x + 1 :]:
                if frozenset((a, b)) in blocks:
                    bad += 10
                elif b in by_id[a].last_opponents or a in by_id[b].last_opponents:
                    bad += 1
        return bad

    spare_group = list(spare)
    improve([*groups, spare_group], badness)
    rank = {i: r for r, i in enumerate(ids)}
    games = []
    for g in groups:
        if any(frozenset((a, b)) in blocks for x, a in enumerate(g) for b in g[x + 1 :]):
            continue  # they wait for someone else
        games.append(tuple(sorted(g, key=lambda i: rank[i])))
    return games


__all__ = [
    "DRAW_POINTS",
    "OUTCOMES",
    "WIN_POINTS",
    "ArenaScore",
    "Waiting",
    "arena_score",
    "outcome",
    "pair_waiting",
]
