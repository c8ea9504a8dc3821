"""Swiss pairing and its tie-breaks, for two-player games (pure functions: no I/O).

**Scores.** A win scores 1 point, a draw (a shared victory, or a game nobody won) ½, a
loss 0. A **bye** (the one player left over when the number of players is odd) scores a
win: 1 point, and counts as the player's "bye" (nobody has two while someone has none).

**Ranking.** Players are ranked by score (highest first), then rating (highest first),
then id (so the order is total and repeatable).

**Pairing a round** (:func:`pair_round`):

1. *The bye* (an odd number of players): the lowest-ranked player who has not had one yet
   (when everyone has had one, the lowest-ranked player), provided the others can then be
   paired without repeats; else the next one up.
2. *Brackets*: the ranked list is cut into score groups, top down. A group with an odd
   number of players (counting one carried down from above) sends its lowest-ranked player
   down into the next group (a *floater*). In each bracket the top half meets the bottom
   half in order (the Dutch system: 1st–(k/2+1)th, 2nd–(k/2+2)th, ...): that is each
   player's *ideal* opponent.
3. *Search*: the highest-ranked unpaired player takes the first eligible opponent among
   the unpaired, trying its ideal opponent first, then the others of its bracket by their
   distance in rank from the ideal one, then the players of the lower brackets in rank
   order. *Eligible* means: they have not met before and neither blocks the other. When
   a choice leaves someone with no eligible opponent, the search backtracks (a
   depth-first search over every choice, so it finds a pairing without repeats whenever
   one exists, within a budget of :data:`SEARCH_BUDGET` steps that realistic
   tournaments never reach).
4. *Fallback*: when no pairing without repeats and blocks exists (say a fourth round
   among four players) or the budget runs out, the round is paired greedily, preferring
   new opponents, then repeats, then blocked pairs; the :class:`Pairing` lists those in
   ``repeats`` and ``blocked`` so that the caller can say so.

**Who plays first** (the first seat, as white in chess): the player who has played first
less often than second (the lower balance); on equal balances, the one who played second
in their last game; else the higher-ranked player.

**Tie-breaks** (:func:`standings`), over finished games only:

- **Buchholz**: the sum of the scores of the opponents a player met. A bye adds nothing
  (there was no opponent).
- **Sonneborn–Berger**: the sum of the scores of the opponents a player beat, plus half
  the scores of those they drew with. A bye adds nothing.

Standings are ordered by score, then Buchholz, then Sonneborn–Berger (players equal on all
three share a rank), then rating. ``docs/tournaments.md`` works an example through by hand.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field

WIN, DRAW, LOSS = 1.0, 0.5, 0.0
"""The points of the first player of a game (:attr:`Played.result`)."""
BYE_POINTS = 1.0
"""A bye scores a win."""
SEARCH_BUDGET = 200_000
"""The most steps the depth-first search of one pairing takes before the fallback."""


@dataclass(frozen=True)
class Entrant:
    """A player in the round to pair: ``id`` and ``rating`` (the display rating, points)."""

    id: str
    rating: float


@dataclass(frozen=True)
class Played:
    """One pairing of a past (or current) round.

    Attributes:
        round: the round (1, 2, ...).
        first: the player of the first seat.
        second: the other player; None for a bye (``first`` had it).
        result: the points of ``first`` (:data:`WIN`, :data:`DRAW`, :data:`LOSS`); None
            while the game is not over. Ignored for a bye (it scores :data:`BYE_POINTS`).
    """

    round: int
    first: str
    second: str | None
    result: float | None = None


@dataclass
class Record:
    """What the history says of one player: score, opponents met (in order, finished or
    not), byes, first and second seats, and the seat of the last game (True: first)."""

    score: float = 0.0
    opponents: list[str] = field(default_factory=list)
    byes: int = 0
    firsts: int = 0
    seconds: int = 0
    last_first: bool | None = None


@dataclass(frozen=True)
class Pairing:
    """A paired round.

    Attributes:
        pairs: ``(first, second)`` player ids of each game, the top boards first.
        bye: the player with the bye, or None.
        repeats: pairs of ``pairs`` that met before (only in the fallback).
        blocked: pairs of ``pairs`` that one of them blocks (only in the fallback).
    """

    pairs: tuple[tuple[str, str], ...]
    bye: str | None
    repeats: tuple[tuple[str, str], ...] = ()
    blocked: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Standing:
    """One line of the standings: ``rank`` (shared by players equal on score and both
    tie-breaks), points, Buchholz, Sonneborn–Berger, and the games' count of wins, draws,
    losses and byes."""

    rank: int
    id: str
    score: float
    buchholz: float
    sonneborn_berger: float
    wins: int
    draws: int
    losses: int
    byes: int


def records(ids: Collection[str], history: Sequence[Played]) -> dict[str, Record]:
    """The :class:`Record` of each player of ``ids`` after ``history`` (players of the
    history who are not in ``ids`` are left out; a result of None scores nothing)."""
    out = {i: Record() for i in ids}
    for g in sorted(history, key=lambda g: g.round):
        if g.second is None:
            if g.first in out:
                out[g.first].byes += 1
                out[g.first].score += BYE_POINTS
            continue
        for me, other, first in ((g.first, g.second, True), (g.second, g.first, False)):
            r = out.get(me)
            if r is None:
                continue
            r.opponents.append(other)
            r.firsts += first
            r.seconds += not first
            r.last_first = first
            if g.result is not None:
                r.score += g.result if first else 1.0 - g.result
    return out


def ranked(entrants: Sequence[Entrant], recs: dict[str, Record]) -> list[Entrant]:
    """``entrants`` by score (highest first), rating (highest first), then id."""
    return sorted(entrants, key=lambda e: (-recs[e.id].score, -e.rating, e.id))


def pair_round(
    entrants: Sequence[Entrant],
    history: Sequence[Played] = (),
    blocked: Collection[frozenset[str]] = (),
    budget: int = SEARCH_BUDGET,
) -> Pairing:
    """Pair the next round of ``entrants`` (the rules are the module's docstring).

    Args:
        entrants: the players to pair (withdrawn players left out), each once.
        history: every pairing so far (finished or not; players no longer entered count
            for nobody).
        blocked: pairs of player ids that must not meet if avoidable (blocks).
        budget: the search's steps before the fallback (:data:`SEARCH_BUDGET`).

    Returns:
        The :class:`Pairing`: every entrant in exactly one pair, or the bye.

    Raises:
        ValueError: an id entered twice.
    """
    if len({e.id for e in entrants}) != len(entrants):
        raise ValueError("an entrant is listed twice")
    recs = records([e.id for e in entrants], history)
    order = ranked(entrants, recs)
    met = {e.id: set(recs[e.id].opponents) for e in order}
    avoid: dict[str, set[str]] = {e.id: set(met[e.id]) for e in order}
    for pair in blocked:
        if len(pair) == 2:
            a, b = tuple(pair)
            if a in avoid and b in avoid:
                avoid[a].add(b)
                avoid[b].add(a)
    bye_options = [None] if len(order) % 2 == 0 else _bye_candidates(order, recs)
    for bye in bye_options:
        found = _Search([e for e in order if e.id != bye], recs, avoid).run(budget)
        if found is not None:
            return _seated(found, bye, recs, order, met, blocked)
    bye = bye_options[0]
    search = _Search([e for e in order if e.id != bye], recs, avoid)
    return _seated(search.greedy(met, blocked), bye, recs, order, met, blocked)


def _seated(
    pairs: list[tuple[str, str]],
    bye: str | None,
    recs: dict[str, Record],
    order: list[Entrant],
    met: dict[str, set[str]],
    blocked: Collection[frozenset[str]],
) -> Pairing:
    """The :class:`Pairing` of ``pairs``: who plays first in each (module docstring), the
    top boards first, and the repeats and blocked pairs among them."""
    rank = {e.id: r for r, e in enumerate(order)}

    def seat_key(i: str) -> tuple[int, bool, int]:
        r = recs[i]
        return (r.firsts - r.seconds, r.last_first is True, rank[i])

    seated = [(a, b) if seat_key(a) <= seat_key(b) else (b, a) for a, b in pairs]
    seated.sort(key=lambda ab: min(rank[ab[0]], rank[ab[1]]))
    blocks = set(blocked)
    return Pairing(
        pairs=tuple(seated),
        bye=bye,
        repeats=tuple(ab for ab in seated if ab[1] in met[ab[0]]),
        blocked=tuple(ab for ab in seated if frozenset(ab) in blocks),
    )


def _bye_candidates(order: list[Entrant], recs: dict[str, Record]) -> list[str | None]:
    """Who may have the bye, the first choice first: the players without one from the
    bottom up (everyone from the bottom up when all have had one)."""
    bottom_up = [e.id for e in reversed(order)]
    fresh = [i for i in bottom_up if recs[i].byes == 0]
    return list(fresh or bottom_up)


def _brackets(order: Sequence[Entrant], recs: dict[str, Record]) -> tuple[list[int], list[int]]:
    """The end (exclusive) of each rank's bracket and each rank's ideal opponent's rank
    (module docstring, step 2); ``order`` is ranked and of even length."""
    n = len(order)
    end_of = [n] * n
    ideal = list(range(n))
    start = i = 0
    while i < n:
        j = i
        while j < n and recs[order[j].id].score == recs[order[i].id].score:
            j += 1
        end = j if (j - start) % 2 == 0 else j - 1  # odd: its last player floats down
        if end > start:
            half = (end - start) // 2
            for k in range(half):
                ideal[start + k], ideal[start + half + k] = start + half + k, start + k
            for r in range(start, end):
                end_of[r] = end
            start = end
        i = j
    return end_of, ideal


def _preferences(p: int, end: int, ideal: int, n: int) -> Iterator[int]:
    """The ranks ``p`` would meet, preferred first: outward from its ideal opponent within
    its bracket (which ends at ``end``), then the lower brackets in rank order (the
    caller skips the paired and the ineligible)."""
    for d in range(n):
        low, high = ideal - d, ideal + d
        if high < end and high != p:
            yield high
        if d and p < low and low != p:
            yield low
        if high >= end and low <= p:
            break
    yield from range(end, n)


class _Search:
    """The depth-first search of step 3 over the ranked, even list ``rest``."""

    def __init__(
        self, rest: Sequence[Entrant], recs: dict[str, Record], avoid: dict[str, set[str]]
    ) -> None:
        self.rest = rest
        self.n = n = len(rest)
        pos = {e.id: r for r, e in enumerate(rest)}
        self.avoid = [{pos[o] for o in avoid[e.id] if o in pos} for e in rest]
        self.bad = [len(a) for a in self.avoid]
        self.max_bad = max(self.bad, default=0)
        self.end_of, self.ideal = _brackets(rest, recs)
        self.paired = [False] * n
        self.unpaired = n

    def _take(self, p: int, q: int, sign: int) -> None:
        self.paired[p] = self.paired[q] = sign < 0
        self.unpaired += 2 * sign
        for x in self.avoid[p]:
            self.bad[x] += sign
        for x in self.avoid[q]:
            self.bad[x] += sign

    def _dead(self) -> bool:
        """Whether an unpaired player has no eligible opponent left."""
        left = self.unpaired - 1
        if left < 0 or left > self.max_bad:
            return False
        return any(not self.paired[x] and self.bad[x] >= left for x in range(self.n))

    def _options(self, p: int) -> Iterator[int]:
        for q in _preferences(p, self.end_of[p], self.ideal[p], self.n):
            if not self.paired[q] and q not in self.avoid[p]:
                yield q

    def _first_unpaired(self, after: int) -> int:
        r = after
        while self.paired[r]:
            r += 1
        return r

    def run(self, budget: int) -> list[tuple[str, str]] | None:
        """The pairs found (ids), or None: none exists, or the budget ran out."""
        if self.n == 0:
            return []
        stack: list[tuple[int, Iterator[int]]] = [(0, self._options(0))]
        chosen: list[tuple[int, int]] = []
        steps = 0
        while stack:
            p, options = stack[-1]
            if len(chosen) == len(stack):
                self._take(*chosen.pop(), 1)
            for q in options:
                steps += 1
                if steps > budget:
                    return None
                self._take(p, q, -1)
                if not self._dead():
                    chosen.append((p, q))
                    break
                self._take(p, q, 1)
            else:
                stack.pop()
                continue
            if self.unpaired == 0:
                return [(self.rest[a].id, self.rest[b].id) for a, b in chosen]
            nxt = self._first_unpaired(p + 1)
            stack.append((nxt, self._options(nxt)))
        return None

    def greedy(
        self, met: dict[str, set[str]], blocked: Collection[frozenset[str]]
    ) -> list[tuple[str, str]]:
        """Step 4: each first unpaired player takes its preferred opponent among the new
        ones, else among those met before, else among the blocked."""
        pairs: list[tuple[str, str]] = []
        blocks = set(blocked)
        p = 0
        while self.unpaired:
            p = self._first_unpaired(p)
            best: tuple[int, int] | None = None
            for q in _preferences(p, self.end_of[p], self.ideal[p], self.n):
                if self.paired[q]:
                    continue
                a, b = self.rest[p].id, self.rest[q].id
                kind = 0 if q not in self.avoid[p] else 2 if frozenset((a, b)) in blocks else 1
                if best is None or kind < best[0]:
                    best = (kind, q)
                if kind == 0:
                    break
            assert best is not None  # an even count: someone is left
            self._take(p, best[1], -1)
            pairs.append((self.rest[p].id, self.rest[best[1]].id))
        return pairs


def standings(entrants: Sequence[Entrant], history: Sequence[Played]) -> list[Standing]:
    """The standings of ``entrants`` after ``history`` (finished games and byes count; the
    order and the tie-breaks are the module docstring's).

    Returns:
        One :class:`Standing` per entrant, best first.
    """
    ids = {e.id for e in entrants}
    for g in history:
        ids.add(g.first)
        if g.second is not None:
            ids.add(g.second)
    recs = records(ids, history)
    rows: list[tuple[str, float, float, list[int]]] = []
    for e in entrants:
        bh = sb = 0.0
        counts = [0, 0, 0, recs[e.id].byes]  # wins, draws, losses, byes
        for g in history:
            if g.second is None or g.result is None or e.id not in (g.first, g.second):
                continue
            mine = g.result if g.first == e.id else 1.0 - g.result
            other = recs[g.second if g.first == e.id else g.first].score
            bh += other
            if mine == WIN:
                sb += other
                counts[0] += 1
            elif mine == LOSS:
                counts[2] += 1
            else:
                sb += other / 2
                counts[1] += 1
        rows.append((e.id, bh, sb, counts))
    rating = {e.id: e.rating for e in entrants}
    rows.sort(key=lambda row: (-recs[row[0]].score, -row[1], -row[2], -rating[row[0]], row[0]))
    out: list[Standing] = []
    for i, (pid, bh, sb, counts) in enumerate(rows):
        key = (recs[pid].score, bh, sb)
        prev = out[-1] if out else None
        same = prev is not None and (prev.score, prev.buchholz, prev.sonneborn_berger) == key
        rank = prev.rank if same and prev is not None else i + 1
        out.append(Standing(rank, pid, recs[pid].score, bh, sb, *counts))
    return out


def result_points(winners: Sequence[int], seat: int) -> float:
    """The points of ``seat`` in a two-player game won by ``winners`` (a record's
    ``"winners"``: one seat wins 1, both or none share ½)."""
    if len(winners) == 1:
        return WIN if winners[0] == seat else LOSS
    return DRAW


__all__ = [
    "BYE_POINTS",
    "DRAW",
    "LOSS",
    "SEARCH_BUDGET",
    "WIN",
    "Entrant",
    "Pairing",
    "Played",
    "Record",
    "Standing",
    "pair_round",
    "ranked",
    "records",
    "result_points",
    "standings",
]
