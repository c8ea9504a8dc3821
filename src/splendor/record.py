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
      "metadata": {},
      "effects": [{"action": 14, "kind": "privilege", "seat": 1, "source": -1,
                   "color": -1, "cell": "", "item": -1, "count": 1}, ...]
    }

``actions`` lists every decision in notation, in order; the seed fixes the deal, so
replaying the actions from ``new_game(num_players, seed, **options)`` reproduces the game
exactly. ``options`` holds game settings (Splendor Duel's ``turn_cap``, D25); a record
without it has none. ``game`` is ``"splendor"`` (classic) or ``"duel"``.
``result`` is ``null`` for an unfinished game (for instance one stopped with Ctrl-C).

``effects`` (optional) tells what the rules did besides the notation of each action: a
noble's visit without a choice (C12), privileges changing hands, Duel abilities the engine
resolved because they had one possible choice (D13-D19); see :mod:`splendor.effects`. Each
is an :class:`~splendor.effects.Effect` in JSON form with ``action``, the 0-based index of
the action that caused it. They follow from the seed and the actions, so a writer adds them
with :meth:`GameRecord.with_effects` (the terminal and the web server do; the arena, which
writes many records, does not), and replaying checks them.

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

Every way a record can be wrong raises the one error :class:`RecordError` (a
``ValueError``) with a one-line message naming the field and what it allows: a file that
cannot be read, is too large (:data:`MAX_RECORD_BYTES`) or is not UTF-8 JSON
(:meth:`GameRecord.load`, :meth:`GameRecord.from_json`), a document of the wrong shape
(:meth:`GameRecord.from_dict`: every field is type-checked, nothing is converted), and
actions or a result that do not replay (:meth:`GameRecord.replay`).

Version history (``version``): 1, the only one so far (``effects`` was added to it as an
optional field: earlier readers ignore it).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .effects import Effect
from .game import get_game

RECORD_FORMAT = "splendor-record"
RECORD_VERSION = 1

MAX_RECORD_BYTES = 64 << 20
"""Largest record file :meth:`GameRecord.load` reads (64 MiB; a long game takes a few
dozen KiB)."""

MAX_DEPTH = 64
"""Deepest nesting of objects and lists accepted in a record's free-form values
(``options``, ``metadata``, extra result fields)."""

MAX_INT_DIGITS = 4000
"""Most decimal digits of a whole number accepted in a record's free-form values (Python
writes no more than 4300 by default)."""


class RecordError(ValueError):
    """A record that cannot be read or replayed: the one error for every malformed record
    (module docstring). Its message is one line that names the bad field or action and
    what is allowed. ``index`` is the 0-based position of the first bad action (``None``
    when the problem is not an action)."""

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
        effects: what the rules did besides each action's notation (module docstring), or
            None when the record does not say (:meth:`with_effects` adds them).
    """

    game: str
    num_players: int
    players: list[str]
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    started_at: str = field(default_factory=lambda: datetime.now(UTC).isoformat())
    metadata: dict[str, Any] = field(default_factory=dict)
    effects: list[dict[str, Any]] | None = None

    # -------------------------------------------------------------- building

    def game_module(self) -> Any:
        """The game of this record (its :class:`~splendor.descriptor.Game`).

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
        except (ValueError, TypeError, OverflowError) as e:
            raise RecordError(f"record cannot start its game: {e}") from None

    def add(self, action: Any) -> None:
        """Append one decision (an Action or its notation)."""
        self.actions.append(str(action))

    def finish(self, state: Any) -> None:
        """Store the result of a finished ``state`` (no-op while it is not terminal)."""
        if state.is_terminal:
            self.result = result_of(state)

    def with_effects(self) -> GameRecord:
        """A copy of this record with its :attr:`effects` found by replaying it.

        Raises:
            RecordError: the actions do not replay (as :meth:`replay`).
        """
        return dataclasses.replace(self, effects=self._replayed_effects())

    def _replayed_effects(self) -> list[dict[str, Any]]:
        game = self.game_module()
        found: list[dict[str, Any]] = []
        before: list[Any] = []
        for i, action, _seat, state in self.iter_replay(
            lambda _i, state, _a, _s: before.append(state.copy()), check_effects=False
        ):
            found.extend(
                {"action": i, **e.to_dict()} for e in game.effects_of(before.pop(), action, state)
            )
        return found

    # -------------------------------------------------------------- replay

    def replay(self, on_action: Callable[[int, Any, Any, int], None] | None = None) -> Any:
        """Re-play every action from the deal, checking each (and the stored effects);
        return the final state.

        Args:
            on_action: called as ``on_action(index, state_before, action, seat)`` before
                each action is applied.

        Raises:
            RecordError: the first malformed or illegal action (its ``index`` set), or a
                stored result that does not match the replayed game (its scores, winners,
                turns or end reason differ; stored effects that are not the replayed
                game's; for a forfeit: the
                actions finish the game, or the winners are not every other seat; for a
                decision cap: the actions finish the game, their number is not the cap, or
                the result names a winner).
        """
        final = None
        for step in self.iter_replay(on_action):
            final = step[3]
        return final if final is not None else self.new_state()

    def iter_replay(
        self,
        on_action: Callable[[int, Any, Any, int], None] | None = None,
        check_effects: bool = True,
    ) -> Iterator[tuple[int, Any, int, Any]]:
        """Yield ``(index, action, seat, state_after)`` for every action, checking each
        (and, at the end, the stored :attr:`effects` unless ``check_effects`` is False).

        Raises:
            RecordError: as :meth:`replay`.
        """
        game = self.game_module()
        state = self.new_state()
        for i, text in enumerate(self.actions):
            if state.is_terminal:
                raise RecordError(f"action {i + 1} ({_show(text)}): the game was already over", i)
            try:
                action = game.action_type.parse(text)
            except ValueError as e:
                first = str(e).splitlines()[0]
                raise RecordError(
                    f"action {i + 1} ({_show(text)}) is malformed: {_clip(first)}", i
                ) from None
            seat = state.current_player
            if on_action is not None:
                on_action(i, state, action, seat)
            try:
                state.apply(action)
            except ValueError as e:
                raise RecordError(
                    f"action {i + 1} ({_show(text)}) is illegal: {_first_line(e)}", i
                ) from None
            yield i, action, seat, state
        if check_effects and self.effects is not None:
            self._check_effects()
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
            for key in ("scores", "winners", "turns", "end_reason"):
                if self.result.get(key) != expected[key]:
                    raise RecordError(
                        f"record result {key} {_show(self.result.get(key))} does not match "
                        f"the replayed game ({_show(expected[key])})"
                        + (
                            f": after a forfeit by seat {expected['forfeit']['seat']} every "
                            "other seat wins"
                            if key == "winners" and "forfeit" in expected
                            else ": a game stopped by its decision cap has no winner"
                            if key == "winners" and "decision_cap" in expected
                            else ""
                        )
                    )

    def _check_effects(self) -> None:
        stored = self.effects or []
        replayed = self._replayed_effects()
        for k, (mine, theirs) in enumerate(zip(stored, replayed, strict=False)):
            if mine != theirs:
                raise RecordError(
                    f"record effect {k + 1} {_show(mine)} does not match the replayed game "
                    f"({_show(theirs)})"
                )
        if len(stored) != len(replayed):
            raise RecordError(
                f"record field 'effects' holds {len(stored)} effects but the replayed game "
                f"has {len(replayed)}"
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
        } | ({} if self.effects is None else {"effects": copy.deepcopy(self.effects)})

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Read a record dict, checking its shape (not its actions: see :meth:`replay`).

        Every field must have its documented type (module docstring): ``game`` a string,
        ``num_players`` and ``seed`` whole numbers, ``players`` one string per seat,
        ``actions`` a list of strings, ``options`` and ``metadata`` objects (missing or
        null: empty), ``started_at`` a string (missing or null: empty), ``result`` null or an
        object with ``scores`` (one whole number per seat), ``winners`` (seats),
        ``end_reason`` (a string or null) and ``turns`` (a whole number >= 0), plus the
        fields of a forfeit or a decision cap. Free-form values (``options``, ``metadata``,
        extra result fields) must be plain JSON: objects with string keys, lists, strings,
        finite numbers of at most :data:`MAX_INT_DIGITS` digits, true/false/null, nested at
        most :data:`MAX_DEPTH` deep. Nothing is converted: a value of the wrong type is
        refused, so a record read here writes back (:meth:`to_dict`) as it was read.

        Raises:
            RecordError: not an object, wrong format or version, a missing or mistyped field;
                the message names the field and what it allows.
        """
        if not isinstance(data, dict):
            raise RecordError(f"a record must be a JSON object, got {_kind(data)}")
        if data.get("format") != RECORD_FORMAT:
            raise RecordError(
                f"not a game record: 'format' must be {RECORD_FORMAT!r}, got "
                f"{_show(data.get('format'))}"
            )
        version = data.get("version")
        if type(version) is not int or version != RECORD_VERSION:
            raise RecordError(
                f"unsupported record version {_show(version)}; this build reads {RECORD_VERSION}"
            )
        game = _field(data, "game", str, "a game name (a string)")
        num_players = _field(data, "num_players", int, "a whole number of seats")
        players = _field(data, "players", list, "a list of names, one per seat")
        seed = _field(data, "seed", int, "a whole number")
        actions = _field(data, "actions", list, "a list of action notations (strings)")
        for i, a in enumerate(actions):
            if not isinstance(a, str):
                raise RecordError(
                    f"action {i + 1} is not a string but {_kind(a)}: record field 'actions' "
                    "is a list of action notations",
                    i,
                )
        for i, p in enumerate(players):
            if not isinstance(p, str):
                raise RecordError(
                    f"record field 'players' must hold names (strings); name {i + 1} is {_kind(p)}"
                )
        if len(players) != num_players:
            raise RecordError(
                f"record field 'players' must name every seat: it has {len(players)} "
                f"name{'s' if len(players) != 1 else ''} but 'num_players' is {_show(num_players)}"
            )
        options = _optional_object(data, "options")
        metadata = _optional_object(data, "metadata")
        started_at = data.get("started_at")
        if started_at is None:
            started_at = ""
        elif not isinstance(started_at, str):
            raise RecordError(
                f"record field 'started_at' must be an ISO 8601 time (a string) or null, got "
                f"{_kind(started_at)}"
            )
        result = data.get("result")
        if result is not None:
            _check_result(result, num_players)
        effects = _check_effects(data.get("effects"), len(actions))
        return cls(
            game=game,
            num_players=num_players,
            players=list(players),
            seed=seed,
            options=copy.deepcopy(options),
            actions=list(actions),
            result=copy.deepcopy(result),
            started_at=started_at,
            metadata=copy.deepcopy(metadata),
            effects=effects,
        )

    @classmethod
    def from_json(cls, text: str | bytes, source: str = "record") -> GameRecord:
        """Read a record from JSON text (as :meth:`to_json` writes it).

        Args:
            text: the JSON text (bytes are decoded as UTF-8).
            source: how messages name the text (``"record"``, ``"record g.json"``).

        Raises:
            RecordError: text that is not UTF-8 or not JSON (including ``NaN``/``Infinity``,
                numbers of more digits than Python reads, nesting deeper than Python's parser
                allows), or a malformed record (:meth:`from_dict`).
        """
        if isinstance(text, (bytes, bytearray)):
            try:
                text = bytes(text).decode("utf-8")
            except UnicodeDecodeError as e:
                raise RecordError(
                    f"{source} is not UTF-8 text (byte {e.start} cannot be decoded)"
                ) from None
        if not isinstance(text, str):
            raise RecordError(f"{source} must be JSON text (a string), got {_kind(text)}")
        try:
            data = json.loads(text, parse_constant=_refuse_constant)
        except json.JSONDecodeError as e:
            raise RecordError(f"{source} is not valid JSON: {e}") from None
        except RecursionError:
            raise RecordError(f"{source} is not a record: its JSON is nested too deeply") from None
        except ValueError as e:  # a number of more digits than int() reads, NaN, Infinity
            why = _first_line(e)
            if "digits" in why:
                why = "it holds a number of more digits than Python reads (4300)"
            raise RecordError(f"{source} is not valid JSON: {why}") from None
        return cls.from_dict(data)

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
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record file (at most :data:`MAX_RECORD_BYTES`).

        Raises:
            RecordError: unreadable or too large file, text that is not UTF-8 JSON, or a
                malformed record (:meth:`from_json`, :meth:`from_dict`).
        """
        try:
            with open(path, "rb") as f:
                raw = f.read(MAX_RECORD_BYTES + 1)
        except OSError as e:
            raise RecordError(f"cannot read record {path}: {e.strerror or e}") from None
        if len(raw) > MAX_RECORD_BYTES:
            raise RecordError(
                f"record {path} is larger than {MAX_RECORD_BYTES >> 20} MiB; a game record is "
                "far smaller"
            )
        return cls.from_json(raw, source=f"record {path}")


def _kind(value: Any) -> str:
    """What a JSON value is, in words: ``"a list"``, ``"a string"``, ``"null"``..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{'true' if value else 'false'} (a boolean)"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number with a fraction"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a Python {type(value).__name__}"


def _show(value: Any, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters; never fails (huge numbers, deep lists)."""
    try:
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
            return f"a whole number of {value.bit_length()} bits"
        text = repr(value)
    except (ValueError, RecursionError, MemoryError):
        return _kind(value)
    return _clip(text, limit)


def _clip(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def _refuse_constant(name: str) -> Any:
    """``json.loads`` hook: ``NaN``, ``Infinity`` and ``-Infinity`` are not JSON."""
    raise ValueError(f"{name} is not a JSON number")


def _field(data: dict[str, Any], key: str, typ: type, allowed: str) -> Any:
    """``data[key]``, which must be present and of type ``typ`` (a bool is no int).

    Raises:
        RecordError: missing or of another type; the message says what ``allowed`` is.
    """
    if key not in data:
        raise RecordError(f"record is missing {key!r} ({allowed})")
    value = data[key]
    if not isinstance(value, typ) or isinstance(value, bool):
        raise RecordError(f"record field {key!r} must be {allowed}, got {_kind(value)}")
    if isinstance(value, int) and value.bit_length() > 64:
        raise RecordError(
            f"record field {key!r} is out of range (more than 64 bits): {_show(value)}"
        )
    return value


def _optional_object(data: dict[str, Any], key: str) -> dict[str, Any]:
    """``data[key]`` as a plain-JSON object; missing or null is empty.

    Raises:
        RecordError: not an object, or holding something that is not plain JSON.
    """
    value = data.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise RecordError(f"record field {key!r} must be an object (or null), got {_kind(value)}")
    _check_json(value, f"record field {key!r}", 0)
    return value


def _check_json(value: Any, where: str, depth: int) -> None:
    """Check that ``value`` is plain JSON (see :meth:`GameRecord.from_dict`).

    Raises:
        RecordError: nesting deeper than :data:`MAX_DEPTH`, a key that is not a string, a
            number too long or not finite, or a value JSON cannot hold.
    """
    if depth > MAX_DEPTH:
        raise RecordError(f"{where} is nested more than {MAX_DEPTH} levels deep")
    if value is None or isinstance(value, (bool, str)):
        return
    if isinstance(value, int):
        if value.bit_length() > MAX_INT_DIGITS * 3.32:
            raise RecordError(f"{where} holds a number of more than {MAX_INT_DIGITS} digits")
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise RecordError(f"{where} holds {value!r}, which is not a JSON number")
        return
    if isinstance(value, list):
        for item in value:
            _check_json(item, where, depth + 1)
        return
    if isinstance(value, dict):
        for k, item in value.items():
            if not isinstance(k, str):
                raise RecordError(f"{where} has a key {_show(k)} that is not a string")
            _check_json(item, where, depth + 1)
        return
    raise RecordError(f"{where} holds {_kind(value)}, which JSON cannot hold")


def _check_effects(effects: Any, num_actions: int) -> list[dict[str, Any]] | None:
    """The ``effects`` field checked (module docstring): None, or a list of effects each
    naming the index of an action of the record."""
    if effects is None:
        return None
    if not isinstance(effects, list):
        raise RecordError(f"record field 'effects' must be a list or null, got {_kind(effects)}")
    out = []
    for k, item in enumerate(effects):
        where = f"record effect {k + 1}"
        if not isinstance(item, dict):
            raise RecordError(f"{where} must be an object, got {_kind(item)}")
        index = item.get("action")
        if type(index) is not int or not 0 <= index < num_actions:
            raise RecordError(
                f"{where}: 'action' must be the 0-based index of one of the {num_actions} "
                f"actions, got {_show(index)}"
            )
        rest = {key: value for key, value in item.items() if key != "action"}
        try:
            Effect.from_dict(rest)
        except ValueError as e:
            raise RecordError(f"{where}: {_clip(str(e))}") from None
        out.append({"action": index, **rest})
    return out


def _check_result(result: Any, num_players: int) -> None:
    """Check the shape of a record's ``result`` (values are checked by replaying).

    Raises:
        RecordError: not an object; ``scores`` not one whole number per seat; ``winners``
            not a list of distinct seats; ``end_reason`` not a string or null; ``turns`` not a
            whole number >= 0; a malformed forfeit or decision cap; other fields not plain
            JSON.
    """
    if not isinstance(result, dict):
        raise RecordError(f"record field 'result' must be an object or null, got {_kind(result)}")
    scores = result.get("scores")
    if (
        not isinstance(scores, list)
        or len(scores) != num_players
        or not all(type(x) is int and abs(x) < 1 << 31 for x in scores)
    ):
        raise RecordError(
            f"record result 'scores' must be a list of {num_players} whole numbers (one per "
            f"seat), got {_show(scores)}"
        )
    winners = result.get("winners")
    if (
        not isinstance(winners, list)
        or not all(type(w) is int and 0 <= w < num_players for w in winners)
        or len(set(winners)) != len(winners)
    ):
        raise RecordError(
            f"record result 'winners' must be a list of distinct seats 0..{num_players - 1}, "
            f"got {_show(winners)}"
        )
    end_reason = result.get("end_reason")
    if end_reason is not None and not isinstance(end_reason, str):
        raise RecordError(
            f"record result 'end_reason' must be a string or null, got {_kind(end_reason)}"
        )
    turns = result.get("turns")
    if type(turns) is not int or not 0 <= turns < 1 << 31:
        raise RecordError(f"record result 'turns' must be a whole number >= 0, got {_show(turns)}")
    _check_json(result, "record field 'result'", 0)
    if "forfeit" in result or end_reason == "forfeit":
        _forfeit_seat(result, num_players)
    if "decision_cap" in result or end_reason == "decision_cap":
        _decision_cap(result)


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
            f"{_show(result.get('end_reason'))}, not 'decision_cap'"
        )
    cap = result.get("decision_cap")
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
        raise RecordError(
            f"record result ends by decision cap but its 'decision_cap' is {_show(cap)}, not a "
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
            "record result has a 'forfeit' but its end_reason is "
            f"{_show(result.get('end_reason'))}, not 'forfeit'"
        )
    if not isinstance(forfeit, dict):
        raise RecordError(
            'record result ends by forfeit but has no \'forfeit\' object {"seat", "reason"}'
        )
    seat = forfeit.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < num_players:
        raise RecordError(
            f"record forfeit seat {_show(seat)} is not a seat of this {num_players}-player game"
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
