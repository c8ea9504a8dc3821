"""Post-game analysis: what each move cost, from what its player could know (issue 19).

Each decision of an analysed seat is searched by the network bot
(:class:`splendor.bots.net_bot.NetBot`, the shipped network of the game and player count,
:mod:`splendor.bots.nets`) from that seat's *observation* at that moment: the search deals
the cards the seat could not see (the other seats' blind reserves, the decks' order) at
random in every iteration (C16, D22), so nothing hidden is read from the record. Two
records that differ only in hidden cards get the same analysis of a move (with an
iteration budget; ``tests/analysis/test_engine.py``).

From one search per decision:

- the engine's preferred move: the root's most visited decision;
- the win probability *before* the move: that move's mean reward for the mover;
- the win probability *after* it: the played decision's mean reward in the same tree.
  When the search visited it less than :attr:`Settings.focus_share` of its iterations
  (at least :attr:`Settings.min_focus`), more iterations run through it alone until it
  has (``focus`` of :meth:`NetBot.search`), so a poor move is measured, not guessed;
- the loss (before minus after, at least 0) and its label (:mod:`splendor.analysis.judge`).

A decision with one legal action is ``forced`` and not searched. The result is a
:class:`GameAnalysis`, JSON-able (``format: "splendor-analysis"``), which the command line
(``splendor analyse``) prints and plots and the web server stores with the game.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..bots import search as _search
from ..bots.net_bot import NetBot
from ..bots.nets import shipped_path
from ..bots.network import PolicyValueNet
from ..game import game_names, get_game
from ..record import GameRecord, RecordError
from . import judge

ANALYSIS_FORMAT = "splendor-analysis"
ANALYSIS_VERSION = 1

DEFAULT_SECONDS = 0.5
"""Search time per analysed decision by default (seconds of one core)."""

ALTERNATIVES = 3
"""The engine's top decisions kept per move (by visits)."""


@dataclass(frozen=True)
class Settings:
    """How hard each decision is searched.

    Attributes:
        seconds: search time per decision (used when ``iterations`` is None).
        iterations: iterations per decision instead of time: the analysis is then
            reproducible (the same record, settings and seed give the same numbers).
        seed: seed of the searches; decision ``i`` searches with a generator seeded from
            ``(seed, i)``, so analysing one seat or all gives the same numbers.
        focus_share: the played move's least share of the iterations (module docstring).
        min_focus: the played move's least visits.
        network: a network file to analyse with instead of the shipped one.
        mix: the weight in [0, 1] of playouts in the search's evaluations; None: the
            game's analysis default (``analysis_mix`` of its ``"net_search"`` part,
            :class:`splendor.bots.net_search.NetSearchPart`).

    Raises:
        ValueError: no budget or a non-positive one, a ``focus_share`` outside [0, 1], a
            negative ``min_focus``, a negative ``seed``, or a ``mix`` outside [0, 1].
    """

    seconds: float | None = DEFAULT_SECONDS
    iterations: int | None = None
    seed: int = 0
    focus_share: float = 0.1
    min_focus: int = 64
    network: str | None = None
    mix: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is not None:
            if isinstance(self.iterations, bool) or not isinstance(self.iterations, int):
                raise ValueError(f"iterations must be a whole number, got {self.iterations!r}")
            if self.iterations < 1:
                raise ValueError(f"iterations must be 1 or more, got {self.iterations}")
        elif not (
            isinstance(self.seconds, int | float)
            and math.isfinite(self.seconds)
            and 0 < self.seconds <= 3600
        ):
            raise ValueError(
                f"the time per move must be a number of seconds above 0 and at most 3600, "
                f"got {self.seconds!r}"
            )
        if not (isinstance(self.focus_share, int | float) and 0.0 <= self.focus_share <= 1.0):
            raise ValueError(f"focus_share must be in [0, 1], got {self.focus_share!r}")
        if not isinstance(self.min_focus, int) or self.min_focus < 0:
            raise ValueError(f"min_focus must be 0 or more, got {self.min_focus!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"seed must be a whole number 0 or more, got {self.seed!r}")
        if self.mix is not None and (
            isinstance(self.mix, bool)
            or not isinstance(self.mix, int | float)
            or not 0.0 <= self.mix <= 1.0
        ):
            raise ValueError(f"mix must be in [0, 1] or null, got {self.mix!r}")

    def to_dict(self) -> dict[str, Any]:
        """JSON form (the attributes)."""
        return {
            "seconds": None if self.iterations is not None else self.seconds,
            "iterations": self.iterations,
            "seed": self.seed,
            "focus_share": self.focus_share,
            "min_focus": self.min_focus,
            "network": self.network,
            "mix": self.mix,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Settings:
        """Parse :meth:`to_dict` output.

        Raises:
            ValueError: not an object, an unknown key, or a bad value (as the class).
        """
        if not isinstance(data, dict):
            raise ValueError(f"analysis settings must be an object, got {type(data).__name__}")
        known = {"seconds", "iterations", "seed", "focus_share", "min_focus", "network", "mix"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(
                f"unknown analysis setting(s) {unknown}; allowed: {', '.join(sorted(known))}"
            )
        if data.get("network") is not None and not isinstance(data["network"], str):
            raise ValueError("the analysis setting network must be a file path or null")
        return cls(**data)


@dataclass(frozen=True)
class MoveAnalysis:
    """One analysed decision.

    Attributes:
        index: 0-based position of the decision in the record's actions.
        turn: the game's turn when it was made (1 for the first turn; all seats' turns
            counted together, as the record's ``turns``).
        seat: the seat that made it.
        played: its notation.
        label: :data:`splendor.analysis.judge.LABELS` or ``"forced"``.
        legal: legal decisions there were.
        best: the engine's preferred decision (None for a forced move).
        before: win probability of the engine's move: the position's value for the mover
            (None for a forced move).
        after: win probability after the move played (None for a forced move).
        loss: ``before - after``, at least 0 (None for a forced move).
        iterations: iterations searched (focus iterations included).
        alternatives: the engine's top decisions, ``{"move", "visits", "win"}`` each.
    """

    index: int
    turn: int
    seat: int
    played: str
    label: str
    legal: int
    best: str | None = None
    before: float | None = None
    after: float | None = None
    loss: float | None = None
    iterations: int = 0
    alternatives: list[dict[str, Any]] = field(default_factory=list)

    @property
    def forced(self) -> bool:
        """Whether the decision had one legal action."""
        return self.label == judge.FORCED

    def to_dict(self) -> dict[str, Any]:
        """JSON form (the attributes; probabilities rounded to 4 decimals)."""

        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 4)

        return {
            "index": self.index,
            "turn": self.turn,
            "seat": self.seat,
            "played": self.played,
            "label": self.label,
            "legal": self.legal,
            "best": self.best,
            "before": r(self.before),
            "after": r(self.after),
            "loss": r(self.loss),
            "iterations": self.iterations,
            "alternatives": [
                {"move": a["move"], "visits": int(a["visits"]), "win": r(a["win"])}
                for a in self.alternatives
            ],
        }

    @classmethod
    def from_dict(cls, data: Any, num_players: int) -> MoveAnalysis:
        """Parse :meth:`to_dict` output.

        Raises:
            ValueError: a missing field or a value of the wrong type or range (the
                message names it).
        """
        if not isinstance(data, dict):
            raise ValueError(f"an analysed move must be an object, got {type(data).__name__}")

        def whole(key: str, low: int, high: int) -> int:
            v = data.get(key)
            if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
                raise ValueError(f"analysed move field {key!r} must be {low}..{high}, got {v!r}")
            return v

        def chance(key: str) -> float | None:
            v = data.get(key)
            if v is None:
                return None
            if isinstance(v, bool) or not isinstance(v, int | float) or not 0.0 <= v <= 1.0:
                raise ValueError(f"analysed move field {key!r} must be in [0, 1], got {v!r}")
            return float(v)

        def text(key: str, optional: bool = False) -> str | None:
            v = data.get(key)
            if v is None and optional:
                return None
            if not isinstance(v, str) or not 0 < len(v) <= 200:
                raise ValueError(f"analysed move field {key!r} must be a short text, got {v!r}")
            return v

        name = text("label")
        if name not in (*judge.LABELS, judge.FORCED):
            raise ValueError(
                f"analysed move label {name!r} is not one of "
                f"{', '.join((*judge.LABELS, judge.FORCED))}"
            )
        alternatives = data.get("alternatives", [])
        if not isinstance(alternatives, list) or len(alternatives) > ALTERNATIVES:
            raise ValueError(
                f"analysed move field 'alternatives' must be a list of at most {ALTERNATIVES}"
            )
        alts = []
        for a in alternatives:
            if (
                not isinstance(a, dict)
                or not isinstance(a.get("move"), str)
                or isinstance(a.get("visits"), bool)
                or not isinstance(a.get("visits"), int)
                or not isinstance(a.get("win"), int | float)
            ):
                raise ValueError(
                    "an alternative must be {'move': text, 'visits': int, 'win': number}"
                )
            alts.append({"move": a["move"], "visits": a["visits"], "win": float(a["win"])})
        return cls(
            index=whole("index", 0, 1 << 20),
            turn=whole("turn", 1, 1 << 20),
            seat=whole("seat", 0, num_players - 1),
            played=text("played") or "",
            label=name or "",
            legal=whole("legal", 1, 1 << 20),
            best=text("best", optional=True),
            before=chance("before"),
            after=chance("after"),
            loss=chance("loss"),
            iterations=whole("iterations", 0, 1 << 40),
            alternatives=alts,
        )


@dataclass
class GameAnalysis:
    """The analysis of a record: its analysed moves in order, and what sums them up.

    Attributes:
        game: the record's game name (``"splendor"`` or ``"duel"``).
        num_players: seats.
        players: one label per seat.
        seats: the analysed seats.
        settings: the search settings used.
        moves: the analysed decisions, in the record's order.
        total: the decisions to analyse (``len(moves) == total`` once complete).
        result: the record's result (None for an unfinished game).
    """

    game: str
    num_players: int
    players: list[str]
    seats: list[int]
    settings: Settings
    moves: list[MoveAnalysis] = field(default_factory=list)
    total: int = 0
    result: dict[str, Any] | None = None

    @property
    def complete(self) -> bool:
        """Whether every decision to analyse has been."""
        return len(self.moves) >= self.total

    def summaries(self) -> list[judge.SeatSummary]:
        """One :class:`~splendor.analysis.judge.SeatSummary` per analysed seat."""
        return [
            judge.summarize(
                seat,
                self.players[seat],
                ((m.label, m.loss) for m in self.moves if m.seat == seat),
            )
            for seat in self.seats
        ]

    def turning_points(self) -> list[MoveAnalysis]:
        """The moves that turned the game: mistakes and blunders
        (:func:`splendor.analysis.judge.turning_points`), in order."""
        marked = set(judge.turning_points([(m.index, m.label) for m in self.moves]))
        return [m for m in self.moves if m.index in marked]

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``format``, ``version``, the attributes, ``complete``, and
        ``summaries`` and ``turning_points`` (indices) for readers that do not compute
        them."""
        return {
            "format": ANALYSIS_FORMAT,
            "version": ANALYSIS_VERSION,
            "game": self.game,
            "num_players": self.num_players,
            "players": list(self.players),
            "seats": list(self.seats),
            "settings": self.settings.to_dict(),
            "total": self.total,
            "complete": self.complete,
            "result": self.result,
            "moves": [m.to_dict() for m in self.moves],
            "summaries": [s.to_dict() for s in self.summaries()],
            "turning_points": [m.index for m in self.turning_points()],
        }

    @classmethod
    def from_dict(cls, data: Any) -> GameAnalysis:
        """Parse :meth:`to_dict` output (stored analyses, ``--json`` files).

        Raises:
            ValueError: not an analysis, another version, or a field of the wrong type
                (the message names it).
        """
        if not isinstance(data, dict) or data.get("format") != ANALYSIS_FORMAT:
            raise ValueError(f"not a post-game analysis (its format must be {ANALYSIS_FORMAT!r})")
        if data.get("version") != ANALYSIS_VERSION:
            raise ValueError(
                f"analysis version {data.get('version')!r} is not supported "
                f"(only {ANALYSIS_VERSION})"
            )
        game = data.get("game")
        if game not in game_names():
            raise ValueError(
                f"analysis game must be one of {', '.join(game_names())}, got {game!r}"
            )
        n = data.get("num_players")
        found = get_game(game)
        if isinstance(n, bool) or not isinstance(n, int) or n not in found.player_counts:
            raise ValueError(
                f"analysis num_players must be {found.players_text()} for {game}, got {n!r}"
            )
        players = data.get("players")
        if (
            not isinstance(players, list)
            or len(players) != n
            or not all(isinstance(p, str) for p in players)
        ):
            raise ValueError(f"analysis players must be {n} names")
        seats = data.get("seats")
        if (
            not isinstance(seats, list)
            or not seats
            or any(isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n for s in seats)
        ):
            raise ValueError(f"analysis seats must be a non-empty list of seats 0..{n - 1}")
        moves = data.get("moves")
        if not isinstance(moves, list):
            raise ValueError("analysis moves must be a list")
        total = data.get("total")
        if isinstance(total, bool) or not isinstance(total, int) or total < 0:
            raise ValueError(f"analysis total must be a whole number, got {total!r}")
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise ValueError("analysis result must be an object or null")
        return cls(
            game=game,
            num_players=n,
            players=list(players),
            seats=list(seats),
            settings=Settings.from_dict(data.get("settings")),
            moves=[MoveAnalysis.from_dict(m, n) for m in moves],
            total=total,
            result=result,
        )


@dataclass(frozen=True)
class Decision:
    """A decision of a record to analyse: what its seat saw and what it played.

    Attributes:
        index: 0-based position in the record's actions.
        seat: the seat that decided.
        turn: the game's turn (1 for the first).
        observation: the seat's observation array (shape (1,), the game's state dtype),
            as :meth:`State.observation` gives it: nothing the seat could not see.
        action: the id of the action played.
        played: its notation.
    """

    index: int
    seat: int
    turn: int
    observation: np.ndarray
    action: int
    played: str


def decisions(record: GameRecord, seats: Iterable[int] | None = None) -> Iterator[Decision]:
    """The decisions of ``seats`` (default: every seat) in ``record``, in order, each with
    its seat's observation at that moment.

    Raises:
        RecordError: the record does not replay (:meth:`GameRecord.replay`).
        ValueError: a seat outside the game.
    """
    wanted = _check_seats(record.num_players, seats)
    found: list[Decision] = []

    def seen(index: int, state: Any, action: Any, seat: int) -> None:
        if seat in wanted:
            found.append(
                Decision(
                    index=index,
                    seat=seat,
                    turn=int(state.turn) + 1,
                    observation=state.observation(seat).array,
                    action=int(action.id),
                    played=str(action),
                )
            )

    for _step in record.iter_replay(seen):
        yield from found
        found.clear()


def _check_seats(num_players: int, seats: Iterable[int] | None) -> list[int]:
    if seats is None:
        return list(range(num_players))
    out = sorted(set(seats))
    bad = [
        s for s in out if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < num_players
    ]
    if bad or not out:
        raise ValueError(
            f"seat(s) {bad or 'none'} cannot be analysed: "
            f"this game's seats are 0..{num_players - 1}"
        )
    return out


class Analyser:
    """Searches decisions (module docstring), with the networks loaded once.

    Args:
        settings: the search settings.

    Raises:
        ValueError: ``settings.network`` cannot be read.
    """

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self._nets: dict[tuple[str, int], PolicyValueNet] = {}
        self._own = PolicyValueNet.load(self.settings.network) if self.settings.network else None

    def network(self, game: str, num_players: int) -> PolicyValueNet:
        """The network that analyses ``game`` (a record game name) with ``num_players``.

        Raises:
            ValueError: an unknown game, no network ships for that player count, or the
                settings' network plays another game or player count.
        """
        if game not in game_names():
            raise ValueError(f"cannot analyse {game!r}: the games are {', '.join(game_names())}")
        net_game = get_game(game).package
        if self._own is not None:
            if (self._own.game, self._own.num_players) != (net_game, num_players):
                raise ValueError(
                    f"network {self.settings.network} plays {self._own.game} with "
                    f"{self._own.num_players} players, not {net_game} with {num_players}"
                )
            return self._own
        key = (net_game, num_players)
        if key not in self._nets:
            path = shipped_path(net_game, num_players)
            if path is None:
                raise ValueError(f"no network ships for {game} with {num_players} players")
            self._nets[key] = PolicyValueNet.load(path)
        return self._nets[key]

    def decision(self, game: str, decision: Decision) -> MoveAnalysis:
        """Analyse one decision from its seat's observation alone.

        Raises:
            ValueError: the played action is not legal in the observation, or as
                :meth:`network`.
        """
        found = get_game(game)
        obs = found.observation_type(decision.observation)
        legal = obs.legal_actions()
        ids = {int(a.id) for a in legal}
        if decision.action not in ids:
            raise ValueError(f"move {decision.played!r} is not legal in the analysed position")
        base = MoveAnalysis(
            index=decision.index,
            turn=decision.turn,
            seat=decision.seat,
            played=decision.played,
            label=judge.FORCED,
            legal=len(legal),
        )
        if len(legal) == 1:
            return base
        s = self.settings
        bot = NetBot(
            self.network(game, obs.num_players),
            seconds=s.seconds,
            iterations=s.iterations,
            seed=_decision_seed(s.seed, decision.index),
            early_stop=False,
            mix=s.mix if s.mix is not None else found.part("net_search").analysis_mix,
            name="analysis",
        )
        links, stats = bot.search(
            obs, focus=decision.action, focus_visits=s.min_focus, focus_share=s.focus_share
        )
        children = _search.root_children(links, stats[:3])
        names = {a: str(found.action_type.from_id(a)) for a, _, _ in children}
        # the visits of the search itself (bot.last), before the focus iterations
        searched = bot.last.visits if bot.last is not None else {}
        visits = {a: searched.get(name, 0) for a, name in names.items()}
        q = {a: w for a, _, w in children}
        ranked = sorted(q, key=lambda a: (-visits[a], -q[a]))
        best_id = ranked[0]
        before = _clip(q[best_id])
        after = before if best_id == decision.action else _clip(q[decision.action])
        loss = round(max(0.0, before - after), 4)
        return replace(
            base,
            label=judge.label(loss, best_id == decision.action),
            best=names[best_id],
            before=before,
            after=after,
            loss=loss,
            iterations=int(stats[0, 0]),
            alternatives=[
                {"move": names[a], "visits": visits[a], "win": _clip(q[a])}
                for a in ranked[:ALTERNATIVES]
            ],
        )

    def analyse(
        self,
        record: GameRecord,
        seats: Iterable[int] | None = None,
        progress: Callable[[GameAnalysis, MoveAnalysis], None] | None = None,
    ) -> GameAnalysis:
        """Analyse the decisions of ``seats`` (default: all) in ``record``.

        Args:
            record: a game record (finished or not).
            seats: the seats to analyse.
            progress: called after each analysed decision with the analysis so far.

        Raises:
            RecordError: the record does not replay.
            ValueError: a seat outside the game, or no network for the game.
        """
        wanted = _check_seats(record.num_players, seats)
        self.network(record.game, record.num_players)  # fail before replaying
        todo = list(decisions(record, wanted))
        out = GameAnalysis(
            game=record.game,
            num_players=record.num_players,
            players=list(record.players),
            seats=wanted,
            settings=self.settings,
            total=len(todo),
            result=record.result,
        )
        for d in todo:
            move = self.decision(record.game, d)
            out.moves.append(move)
            if progress is not None:
                progress(out, move)
        return out


def _decision_seed(seed: int, index: int) -> int:
    """The seed of decision ``index``'s search (:attr:`Settings.seed`)."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1, np.uint64)[0] >> 1)


def _clip(x: float) -> float:
    """``x`` within [0, 1], rounded to 4 decimals (as stored: the JSON form reads back
    the same numbers, labels and summaries)."""
    return round(min(1.0, max(0.0, float(x))), 4)


def analyse(
    record: GameRecord | str | Path,
    seats: Iterable[int] | None = None,
    settings: Settings | None = None,
    progress: Callable[[GameAnalysis, MoveAnalysis], None] | None = None,
) -> GameAnalysis:
    """Analyse a record (a :class:`GameRecord` or a record file): :meth:`Analyser.analyse`.

    Raises:
        RecordError: the record cannot be read or does not replay.
        ValueError: as :meth:`Analyser.analyse`.
    """
    if not isinstance(record, GameRecord):
        record = GameRecord.load(record)
    return Analyser(settings).analyse(record, seats, progress)


__all__ = [
    "ALTERNATIVES",
    "ANALYSIS_FORMAT",
    "ANALYSIS_VERSION",
    "DEFAULT_SECONDS",
    "Analyser",
    "Decision",
    "GameAnalysis",
    "MoveAnalysis",
    "RecordError",
    "Settings",
    "analyse",
    "decisions",
]
