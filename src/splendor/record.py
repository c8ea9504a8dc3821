"""Game records: write, read, replay and validate (C18, D24).

A record is a versioned JSON document::

    {
      "format": "splendor-record",
      "version": 1,
      "game": "splendor",
      "num_players": 2,
      "players": ["alice", "greedy"],
      "seed": 7,
      "options": {},
      "actions": ["take W U G", "reserve 1.2", ...],
      "result": {"scores": [15, 9], "winners": [0], "end_reason": "points",
                 "turns": 46} | null,
      "started_at": "2026-11-22T10:00:00+00:00",
      "metadata": {}
    }

``actions`` lists every decision in notation, in order; the seed fixes the deal, so
replaying the actions from ``new_game(num_players, seed, **options)`` reproduces the game
exactly. ``options`` holds game settings (Splendor Duel's ``turn_cap``, D25); a record
without it has none. ``game`` is ``"splendor"`` (classic) or ``"duel"``.
``result`` is ``null`` for an unfinished game (for instance one stopped with Ctrl-C).

A game lost by a failing bot (it crashed, answered garbage or an illegal action, or ran out
of time: :func:`splendor.match.play_game` with ``forfeit_on_error``) ends as a *forfeit*:
its actions stop before the end of the game, and its result is::

    {"scores": [6, 4], "winners": [0], "end_reason": "forfeit", "turns": 21,
     "forfeit": {"seat": 1, "reason": "external bot './my_bot.py' did not answer
                 within 10 s; it was stopped"}}

``scores`` are the points when the game stopped, ``winners`` every seat but the one that
forfeited. Replaying checks all of that (:meth:`GameRecord.replay`).

A game stopped by its host's *decision cap* (the arena's ``--max-decisions`` for classic
games, which have no turn limit in their rules: two bots can shuffle tokens for ever) is
not a rule ending: the engine's game is not over, but the host stopped it after exactly
``N`` decisions and nobody wins. Its result is::

    {"scores": [9, 11], "winners": [], "end_reason": "decision_cap", "turns": 1000,
     "decision_cap": 2000}

and replaying checks that the record holds exactly ``decision_cap`` actions, that they do
not finish the game, that ``winners`` is empty and ``scores`` are the points then
(:func:`decision_cap_result`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterator

from .game import get_game

RECORD_FORMAT = "splendor-record"
RECORD_VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read or replayed. ``index`` is the 0-based position of the
    first bad action (``None`` when the problem is not an action)."""

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


@dataclass
class GameRecord:
    """One game: enough to replay it exactly.

    Attributes:
        game: registered game name (``"splendor"``).
        num_players: seats in the game.
        players: one label per seat (a person's name or a bot name).
        seed: the deal's seed (C18, D24).
        options: game settings passed to ``new_game`` (Duel: ``turn_cap``, D25).
        actions: every decision in notation, in order.
        result: ``{"scores", "winners", "end_reason", "turns"}`` once finished, plus
            ``"forfeit": {"seat", "reason"}`` for a forfeit or ``"decision_cap": N`` for a
            game stopped by its host's decision cap (module docstring); else None.
        started_at: ISO 8601 time the game started.
        metadata: free-form JSON-able extras.
    """

    game: str
    num_players: int
    players: list[str]
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    started_at: str = field(default_factory=lambda: datetime.now(timezone.utc).isoformat())
    metadata: dict[str, Any] = field(default_factory=dict)

    # -------------------------------------------------------------- building

    def game_module(self) -> Any:
        """The engine of this record's game.

        Raises:
            RecordError: unknown game.
        """
        try:
            return get_game(self.game)
        except ValueError as e:
            raise RecordError(f"record cannot start its game: {e}") from None

    def new_state(self) -> Any:
        """The dealt position before any action.

        Raises:
            RecordError: unknown game or bad player count.
        """
        try:
            return self.game_module().new_game(self.num_players, self.seed, **self.options)
        except (ValueError, TypeError) as e:
            raise RecordError(f"record cannot start its game: {e}") from None

    def add(self, action: Any) -> None:
        """Append one decision (an Action or its notation)."""
        self.actions.append(str(action))

    def finish(self, state: Any) -> None:
        """Store the result of a finished ``state`` (no-op while it is not terminal)."""
        if state.is_terminal:
            self.result = result_of(state)

    # -------------------------------------------------------------- replay

    def replay(self, on_action: Callable[[int, Any, Any, int], None] | None = None) -> Any:
        """Re-play every action from the deal, checking each; return the final state.

        Args:
            on_action: called as ``on_action(index, state_before, action, seat)`` before
                each action is applied.

        Raises:
            RecordError: the first malformed or illegal action (its ``index`` set), or a
                stored result that does not match the replayed game (for a forfeit: the
                actions finish the game, or the winners are not every other seat; for a
                decision cap: the actions finish the game, their number is not the cap, or
                the result names a winner).
        """
        final = None
        for _, _, _, final in self.iter_replay(on_action):
            pass
        return final if final is not None else self.new_state()

    def iter_replay(
        self, on_action: Callable[[int, Any, Any, int], None] | None = None
    ) -> Iterator[tuple[int, Any, int, Any]]:
        """Yield ``(index, action, seat, state_after)`` for every action, checking each.

        Raises:
            RecordError: as :meth:`replay`.
        """
        game = self.game_module()
        state = self.new_state()
        for i, text in enumerate(self.actions):
            if state.is_terminal:
                raise RecordError(f"action {i + 1} ({text!r}): the game was already over", i)
            try:
                action = game.Action.parse(text)
            except ValueError as e:
                first = str(e).splitlines()[0]
                raise RecordError(f"action {i + 1} ({text!r}) is malformed: {first}", i) from None
            seat = state.current_player
            if on_action is not None:
                on_action(i, state, action, seat)
            try:
                state.apply(action)
            except ValueError as e:
                raise RecordError(f"action {i + 1} ({text!r}) is illegal: {e}", i) from None
            yield i, action, seat, state
        if self.result is not None:
            if self.result.get("end_reason") == "forfeit":
                seat = _forfeit_seat(self.result, self.num_players)
                if state.is_terminal:
                    raise RecordError(
                        f"record says seat {seat} forfeited, but its actions finish the game "
                        f"({state.end_reason}, {state.turn} turns)"
                    )
                expected = forfeit_result(state, seat, "")
            elif self.result.get("end_reason") == "decision_cap":
                cap = _decision_cap(self.result)
                if state.is_terminal:
                    raise RecordError(
                        f"record says the game was stopped by a decision cap of {cap}, but its "
                        f"actions finish the game ({state.end_reason}, {state.turn} turns)"
                    )
                if len(self.actions) != cap:
                    raise RecordError(
                        f"record says the game was stopped by a decision cap of {cap}, but it "
                        f"holds {len(self.actions)} actions (a capped game holds exactly "
                        f"{cap})"
                    )
                expected = decision_cap_result(state, cap)
            elif not state.is_terminal:
                raise RecordError("record has a result but its actions do not finish the game")
            else:
                expected = result_of(state)
            for key in ("scores", "winners"):
                if self.result.get(key) != expected[key]:
                    raise RecordError(
                        f"record result {key} {self.result.get(key)} does not match the "
                        f"replayed game ({expected[key]})"
                        + (
                            f": after a forfeit by seat {expected['forfeit']['seat']} every "
                            "other seat wins"
                            if key == "winners" and "forfeit" in expected
                            else ": a game stopped by its decision cap has no winner"
                            if key == "winners" and "decision_cap" in expected
                            else ""
                        )
                    )

    # -------------------------------------------------------------- I/O

    def to_dict(self) -> dict[str, Any]:
        """The record as a JSON-able dict (see the module docstring)."""
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game,
            "num_players": self.num_players,
            "players": list(self.players),
            "seed": self.seed,
            "options": dict(self.options),
            "actions": list(self.actions),
            "result": self.result,
            "started_at": self.started_at,
            "metadata": self.metadata,
        }

    @classmethod
    def from_dict(cls, data: Any) -> "GameRecord":
        """Read a record dict, checking its shape (not its actions: see :meth:`replay`).

        Raises:
            RecordError: wrong format or version, missing or mistyped field.
        """
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        if data.get("format") != RECORD_FORMAT:
            raise RecordError(f"not a game record: 'format' must be {RECORD_FORMAT!r}")
        if data.get("version") != RECORD_VERSION:
            raise RecordError(
                f"unsupported record version {data.get('version')!r}; this build reads {RECORD_VERSION}"
            )
        checks: list[tuple[str, type | tuple[type, ...]]] = [
            ("game", str),
            ("num_players", int),
            ("players", list),
            ("seed", int),
            ("actions", list),
        ]
        for key, typ in checks:
            if key not in data:
                raise RecordError(f"record is missing {key!r}")
            if not isinstance(data[key], typ) or isinstance(data[key], bool):
                raise RecordError(f"record field {key!r} has the wrong type")
        if not all(isinstance(a, str) for a in data["actions"]):
            bad = next(i for i, a in enumerate(data["actions"]) if not isinstance(a, str))
            raise RecordError(f"action {bad + 1} is not a string", bad)
        if len(data["players"]) != data["num_players"]:
            raise RecordError("record 'players' must name every seat")
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise RecordError("record 'options' must be an object")
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError("record 'result' must be an object or null")
        if result is not None and ("forfeit" in result or result.get("end_reason") == "forfeit"):
            _forfeit_seat(result, data["num_players"])
        if result is not None and (
            "decision_cap" in result or result.get("end_reason") == "decision_cap"
        ):
            _decision_cap(result)
        return cls(
            game=data["game"],
            num_players=data["num_players"],
            players=[str(p) for p in data["players"]],
            seed=data["seed"],
            options=dict(options),
            actions=list(data["actions"]),
            result=result,
            started_at=str(data.get("started_at", "")),
            metadata=dict(data.get("metadata") or {}),
        )

    def to_json(self) -> str:
        """The record as indented JSON text."""
        return json.dumps(self.to_dict(), indent=2)

    def save(self, path: str | Path) -> Path:
        """Write the record to ``path`` atomically (temporary file, then rename)."""
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_name(p.name + ".tmp")
        tmp.write_text(self.to_json() + "\n", encoding="utf-8")
        tmp.replace(p)
        return p

    @classmethod
    def load(cls, path: str | Path) -> "GameRecord":
        """Read a record file.

        Raises:
            RecordError: unreadable file, invalid JSON or malformed record.
        """
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as e:
            raise RecordError(f"cannot read record {path}: {e.strerror or e}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"record {path} is not valid JSON: {e}") from None
        return cls.from_dict(data)


def forfeit_result(state: Any, seat: int, reason: str) -> dict[str, Any]:
    """The result of a game that ``seat`` lost by forfeit in ``state`` (not terminal):
    ``{"scores": [points now], "winners": [every other seat], "end_reason": "forfeit",
    "turns": state.turn, "forfeit": {"seat": seat, "reason": reason}}``."""
    return {
        "scores": list(state.scores),
        "winners": [p for p in range(state.num_players) if p != seat],
        "end_reason": "forfeit",
        "turns": int(state.turn),
        "forfeit": {"seat": int(seat), "reason": str(reason)},
    }


def decision_cap_result(state: Any, cap: int) -> dict[str, Any]:
    """The result of a game that its host stopped after ``cap`` decisions in ``state`` (not
    terminal; no rule ended it, so nobody wins): ``{"scores": [points now], "winners": [],
    "end_reason": "decision_cap", "turns": state.turn, "decision_cap": cap}``."""
    return {
        "scores": list(state.scores),
        "winners": [],
        "end_reason": "decision_cap",
        "turns": int(state.turn),
        "decision_cap": int(cap),
    }


def _decision_cap(result: dict[str, Any]) -> int:
    """The cap of a decision-cap result, after checking its fields.

    Raises:
        RecordError: ``end_reason`` is not ``"decision_cap"`` or ``decision_cap`` is missing
            or not a whole number >= 1.
    """
    if result.get("end_reason") != "decision_cap":
        raise RecordError(
            f"record result has a 'decision_cap' but its end_reason is "
            f"{result.get('end_reason')!r}, not 'decision_cap'"
        )
    cap = result.get("decision_cap")
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
        raise RecordError(
            f"record result ends by decision cap but its 'decision_cap' is {cap!r}, not a "
            "number of decisions >= 1"
        )
    return cap


def _forfeit_seat(result: dict[str, Any], num_players: int) -> int:
    """The seat of a forfeit result, after checking the result's forfeit fields.

    Raises:
        RecordError: ``end_reason`` is not ``"forfeit"`` or ``forfeit`` is missing, not an
            object, or has no valid ``seat`` (a seat number of the game) or ``reason``
            (a string).
    """
    forfeit = result.get("forfeit")
    if result.get("end_reason") != "forfeit":
        raise RecordError(
            f"record result has a 'forfeit' but its end_reason is {result.get('end_reason')!r}, "
            "not 'forfeit'"
        )
    if not isinstance(forfeit, dict):
        raise RecordError(
            "record result ends by forfeit but has no 'forfeit' object {\"seat\", \"reason\"}"
        )
    seat = forfeit.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < num_players:
        raise RecordError(
            f"record forfeit seat {seat!r} is not a seat of this {num_players}-player game"
        )
    if not isinstance(forfeit.get("reason"), str):
        raise RecordError("record forfeit has no 'reason' text")
    return seat


def result_of(state: Any) -> dict[str, Any]:
    """``{"scores", "winners", "end_reason", "turns"}`` of a finished state."""
    return {
        "scores": list(state.scores),
        "winners": list(state.winners),
        "end_reason": getattr(state, "end_reason", None),
        "turns": int(state.turn),
    }
