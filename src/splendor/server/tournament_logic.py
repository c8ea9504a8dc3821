"""A tournament's standings and its next pairings, computed from what the database holds
(a :class:`.tournament_store.Snapshot`) with the pure rules of :mod:`.swiss`,
:mod:`.tournament_groups` and :mod:`.tournament_arena`; and what a finished game's
result is worth (:func:`game_result`).

A table's stored result (``tournament_games.result``) is ``{"winners", "scores",
"end_reason", "points": [per seat], "at": ISO time}`` for a game (``"outcomes"`` too in an
arena: ``"win"``, ``"draw"``, ``"loss"`` per seat), ``{"bye": true, "points": [p]}`` for a
bye, and ``{"void": true, ...}`` for a game the server could not make (it counts for
nobody).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from ..game import get_game
from . import swiss
from .swiss import Entrant, Played
from .tournament_arena import Waiting, arena_score, outcome, pair_waiting
from .tournament_groups import make_groups, placement_points
from .tournament_store import Snapshot

Line = dict[str, Any]


def game_result(fmt: str, table_size: int, result: dict[str, Any], at: datetime) -> dict[str, Any]:
    """The stored result of a tournament game from the game's record result (a forfeit's
    too: its winners are the other seats)."""
    winners = [int(w) for w in result.get("winners") or []]
    scores = [float(s) for s in result.get("scores") or []]
    seats = len(scores) or table_size
    stored: dict[str, Any] = {
        "winners": winners,
        "scores": scores,
        "end_reason": result.get("end_reason"),
        "at": at.isoformat(),
    }
    if fmt == "swiss":
        stored["points"] = [swiss.result_points(winners, s) for s in range(seats)]
    elif fmt == "groups":
        stored["points"] = placement_points(scores or [0.0] * seats, winners, table_size)
    else:
        stored["outcomes"] = [outcome(winners, s) for s in range(seats)]
    return stored


def bye_result(fmt: str, table_size: int) -> dict[str, Any]:
    """A bye's stored result: a win (Swiss 1 point, groups N−1)."""
    return {"bye": True, "points": [swiss.BYE_POINTS if fmt == "swiss" else table_size - 1.0]}


def _counted(g: dict[str, Any]) -> bool:
    return not (g["result"] or {}).get("void")


def _ranked(lines: list[Line], key: Callable[[Line], tuple[Any, ...]]) -> list[Line]:
    """Sort by ``key`` then rating; equal keys share a rank."""
    lines.sort(key=lambda line: (key(line), -line["rating"], line["player_id"]))
    for i, line in enumerate(lines):
        same = i and key(lines[i - 1]) == key(line)
        line["rank"] = lines[i - 1]["rank"] if same else i + 1
    return lines


def _line(p: dict[str, Any], score: float, **more: Any) -> Line:
    return {
        "player_id": p["id"],
        "name": p["name"],
        "account": p["account"],
        "rating": p["rating"],
        "withdrawn": p["withdrawn"],
        "score": score,
        **more,
    }


def swiss_history(snap: Snapshot) -> list[Played]:
    """The Swiss pairings so far (finished or not; void games left out)."""
    out = []
    for g in snap.games:
        if not _counted(g):
            continue
        result = g["result"]
        if len(g["players"]) == 1:
            out.append(Played(g["round"], g["players"][0], None))
        else:
            points = None if result is None else float(result["points"][0])
            out.append(Played(g["round"], g["players"][0], g["players"][1], points))
    return out


def standings(snap: Snapshot) -> list[Line]:
    """The standings of every registered player, best first (``rank``, ``player_id``,
    ``name``, ``account``, ``rating``, ``withdrawn``, ``score``, and per format:
    Swiss ``buchholz``, ``sonneborn_berger``, ``wins``, ``draws``, ``losses``, ``byes``;
    groups ``wins`` (first places), ``games``, ``byes``; arena ``bonus``, ``streak``,
    ``fire``, ``games``, ``wins``)."""
    fmt = snap.row["format"]
    if fmt == "swiss":
        entrants = [Entrant(p["id"], p["rating"]) for p in snap.players]
        by_id = {p["id"]: p for p in snap.players}
        return [
            {
                **_line(by_id[s.id], s.score),
                "rank": s.rank,
                "buchholz": s.buchholz,
                "sonneborn_berger": s.sonneborn_berger,
                "wins": s.wins,
                "draws": s.draws,
                "losses": s.losses,
                "byes": s.byes,
            }
            for s in swiss.standings(entrants, swiss_history(snap))
        ]
    if fmt == "groups":
        return _groups_standings(snap)
    return _arena_standings(snap)


def _groups_standings(snap: Snapshot) -> list[Line]:
    totals = {p["id"]: [0.0, 0, 0, 0] for p in snap.players}  # points, wins, games, byes
    for g in snap.games:
        result = g["result"]
        if result is None or not _counted(g):
            continue
        for seat, pid in enumerate(g["players"]):
            if pid not in totals:
                continue
            t = totals[pid]
            t[0] += float(result["points"][seat])
            if result.get("bye"):
                t[3] += 1
            else:
                t[2] += 1
                t[1] += seat in result.get("winners", [])
    lines = [
        _line(p, totals[p["id"]][0], wins=totals[p["id"]][1], games=totals[p["id"]][2])
        | {"byes": totals[p["id"]][3]}
        for p in snap.players
    ]
    return _ranked(lines, lambda line: (-line["score"], -line["wins"]))


def arena_outcomes(snap: Snapshot) -> dict[str, list[str]]:
    """Each player's arena outcomes in the order their games ended."""
    done = [g for g in snap.games if g["result"] is not None and _counted(g)]
    done.sort(key=lambda g: (g["result"].get("at", ""), g["id"]))
    out: dict[str, list[str]] = {p["id"]: [] for p in snap.players}
    for g in done:
        for seat, pid in enumerate(g["players"]):
            if pid in out:
                out[pid].append(g["result"]["outcomes"][seat])
    return out


def playing(snap: Snapshot) -> set[str]:
    """The players in a game that is not over."""
    return {pid for g in snap.games if g["result"] is None for pid in g["players"]}


def _arena_standings(snap: Snapshot) -> list[Line]:
    outcomes = arena_outcomes(snap)
    busy = playing(snap)
    lines = []
    for p in snap.players:
        a = arena_score(outcomes[p["id"]])
        lines.append(
            _line(
                p,
                float(a.points),
                bonus=a.bonus,
                streak=a.streak,
                fire=a.fire,
                games=a.games,
                wins=a.wins,
                playing=p["id"] in busy,
            )
        )
    return _ranked(lines, lambda line: (-line["score"], -line["wins"]))


def round_over(snap: Snapshot) -> bool:
    """Whether every table of the current round has its result."""
    r = snap.row["current_round"]
    return all(g["result"] is not None for g in snap.games if g["round"] == r)


def next_pairings(
    snap: Snapshot, blocked: set[frozenset[str]]
) -> tuple[list[tuple[str, ...]], list[tuple[str, dict[str, Any]]], dict[str, Any]]:
    """The next round's tables (player ids in seat order), byes (each with its stored
    result), and notes (``"repeats"``, ``"blocked"``: pairs the Swiss fallback could not
    avoid) of a Swiss or groups tournament, or the arena's new games among the waiting."""
    fmt, size = snap.row["format"], snap.row["num_players"]
    active = [p for p in snap.players if not p["withdrawn"]]
    entrants = [Entrant(p["id"], p["rating"]) for p in active]
    if fmt == "swiss":
        pairing = swiss.pair_round(entrants, swiss_history(snap), blocked)
        byes = [] if pairing.bye is None else [(pairing.bye, bye_result(fmt, size))]
        notes = {"repeats": [list(p) for p in pairing.repeats]}
        notes["blocked"] = [list(p) for p in pairing.blocked]
        return [tuple(p) for p in pairing.pairs], byes, notes
    if fmt == "groups":
        lines = {line["player_id"]: line for line in _groups_standings(snap)}
        rnd = make_groups(
            entrants,
            {i: line["score"] for i, line in lines.items()},
            snap.row["current_round"] + 1,
            size,
            get_game(snap.row["game"]).min_players,
            byes_had={i: line["byes"] for i, line in lines.items()},
            earlier=[frozenset(g["players"]) for g in snap.games if len(g["players"]) > 1],
            blocked=blocked,
        )
        return list(rnd.tables), [(b, bye_result(fmt, size)) for b in rnd.byes], {}
    busy = playing(snap)
    points = {line["player_id"]: line["score"] for line in _arena_standings(snap)}
    last: dict[str, frozenset[str]] = {}
    for g in snap.games:  # in order: the last game of each player wins
        for pid in g["players"]:
            last[pid] = frozenset(g["players"]) - {pid}
    waiting = [
        Waiting(p["id"], points[p["id"]], p["rating"], last.get(p["id"], frozenset()))
        for p in active
        if p["id"] not in busy
    ]
    return pair_waiting(waiting, size, blocked), [], {}


__all__ = [
    "arena_outcomes",
    "bye_result",
    "game_result",
    "next_pairings",
    "playing",
    "round_over",
    "standings",
    "swiss_history",
]
