"""The JSON messages of the web app (REST bodies and WebSocket messages).

Everything a client may receive is built here, from the authoritative state, for one viewer:

- :func:`action_json`: ``{"id", "notation", "kind"}`` plus whichever of ``colors``,
  ``level``, ``slot``, ``cells``, ``reserved`` the action has (non-empty / not None).
- :func:`public_observation`: what a spectator may see: the observation of any seat with
  *every* player's blind-reserved cards hidden (C16, D22), except a blind reserve that is
  being paid for (it is being bought, so it is public, as in the engine's observations).
  Deck order and the generator are never in it (``decks`` all -1, ``rng`` ``["0"]``);
  ``observer`` is -1.
- :func:`state_message`: the ``{"type": "state", ...}`` message for one viewer (a seat, or
  None for a spectator): that seat's :meth:`State.observation`, or the public one; legal
  actions only when the decision is the viewer's. The seed is never in it.
- :func:`state_message_json`: the same message as compact JSON text, what the WebSocket
  sends; the move log, which grows with the game, is spliced in as text kept by the caller
  (:func:`log_entry_json` per move) instead of being serialized again for every message.

Malformed client input raises :class:`MalformedActionError` (HTTP 400) whose message says
how to write the action. Its sentence, a bad name's (:class:`BadNameError`) and the
explanation of an illegal move (:class:`Explanation`) are said in the reader's language
when shown (their ``text``, a :class:`.errors.Text`; :func:`explain` and
:func:`notation_hint` take the language).

Client text is read by :func:`loads_json` (JSON with a nesting-depth limit: deeply nested
input is refused with :class:`MalformedJSONError`, never a ``RecursionError``), and the
players' names by :func:`clean_name` (control, bidi and zero-width characters removed,
lone surrogates refused).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..effects import described
from ..game import get_game
from ..i18n import DEFAULT_LANGUAGE
from ..move_text import MoveFacts, say, seat_placeholders
from .errors import N_, Text

ACTION_FIELDS = ("colors", "level", "slot", "cells", "reserved")


MAX_JSON_DEPTH = 32
"""Default deepest nesting of arrays and objects accepted in a client's JSON (the API's
bodies and messages need 3)."""


class _TextError(ValueError):
    """A ValueError whose message is a :class:`.errors.Text` (``text``): English as
    ``str(error)``, translated with ``text.translated(language)``."""

    def __init__(self, template: str, /, **fields: Any) -> None:
        self.text = Text(template, fields)
        super().__init__(str(self.text))


class MalformedActionError(_TextError):
    """A client's action is neither a known action id nor a notation of the game (400).

    It wraps the engine's :class:`splendor.errors.ParseError` (a ValueError; an engine
    written before it raises a bare ValueError, wrapped the same way) with the server's
    sentence, said in the reader's language: what was sent, the engine's reason, and how
    to write an action of that game (:class:`NotationHint`)."""


class MalformedJSONError(ValueError):
    """A client's text is not JSON, or is nested deeper than allowed."""


class BadNameError(_TextError):
    """A player's name is not a string, has a lone surrogate, is too long, or has no
    visible character left once cleaned (:func:`clean_name`).

    Attributes:
        reason: ``"type"``, ``"surrogate"``, ``"empty"`` or ``"length"`` (a chat message,
            cleaned the same way, words its own refusal from it).
        length: the cleaned length (``"length"``), else 0.
    """

    def __init__(self, reason: str, template: str, /, **fields: Any) -> None:
        super().__init__(template, **fields)
        self.reason = reason
        self.length = int(fields.get("length", 0))


# --------------------------------------------------------------------- client input


def loads_json(data: str | bytes, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse a client's JSON text (``bytes``: UTF-8, or UTF-16/32 with its BOM, as
    :func:`json.loads` detects).

    Args:
        data: the text of a request body or a WebSocket message.
        max_depth: the deepest nesting of arrays/objects accepted (a scalar is depth 0,
            ``{"a": [1]}`` depth 2).

    Returns:
        The parsed value.

    Raises:
        MalformedJSONError: not JSON (the parser's message), invalid UTF-8, a number too
            long to convert, or nested deeper than ``max_depth`` (also when the parser
            itself gives up on very deep input with a ``RecursionError``).
    """
    try:
        value = json.loads(data)
    except RecursionError:
        raise MalformedJSONError(
            f"the JSON is nested too deeply (at most {max_depth} levels of arrays and objects)"
        ) from None
    except ValueError as e:  # JSONDecodeError, UnicodeDecodeError, too many digits
        raise MalformedJSONError(f"not valid JSON: {e}") from None
    if json_depth(value, max_depth + 1) > max_depth:
        raise MalformedJSONError(
            f"the JSON is nested too deeply (at most {max_depth} levels of arrays and objects)"
        )
    return value


def json_depth(value: Any, stop: int | None = None) -> int:
    """The nesting depth of a parsed JSON value (a scalar 0, ``[]`` 1, ``[[1]]`` 2),
    without recursion; the walk stops early once ``stop`` is reached (returns ``stop``)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        depth += 1
        if depth > deepest:
            deepest = depth
            if stop is not None and deepest >= stop:
                return stop
        stack.extend((c, depth) for c in children if isinstance(c, (dict, list)))
    return deepest


_SPACES = re.compile(r"\s+")
_DROPPED_CATEGORIES = frozenset({"Cc", "Cf"})


MAX_NAME = 40
"""The longest name of a person (a seat, a player), in characters."""


def clean_name(value: str, max_length: int) -> str:
    """A player's display name made safe to store and show.

    NFC-normalized; control characters (Unicode category Cc: NUL, escapes, DEL, ...) and
    format characters (Cf: the bidi embeddings, overrides and isolates U+202A-202E and
    U+2066-2069, the marks U+200E/F, the zero-width U+200B-200D, U+2060 and U+FEFF, the
    soft hyphen) are removed; any run of white space (line and paragraph separators
    included) becomes one space; leading and trailing spaces go.

    Args:
        value: the name as the client sent it.
        max_length: the most characters (code points) allowed once cleaned.

    Returns:
        The cleaned name, 1 to ``max_length`` characters.

    Raises:
        BadNameError: ``value`` is not a string, holds a lone surrogate (it is not
            Unicode text: no database or JSON encoder can store it), is longer than
            ``max_length`` once cleaned, or has no character left.
    """
    if not isinstance(value, str):
        raise BadNameError("type", f"a name must be a string, got {type(value).__name__}")
    if any("\ud800" <= ch <= "\udfff" for ch in value):
        raise BadNameError(
            "surrogate",
            N_(
                "a name must be valid Unicode text: it holds a lone surrogate "
                "(an unpaired \\uD800-\\uDFFF escape)"
            ),
        )
    text = unicodedata.normalize("NFC", value)
    text = "".join(
        ch for ch in text if unicodedata.category(ch) not in _DROPPED_CATEGORIES or ch in "\t\n\r"
    )
    text = _SPACES.sub(" ", text).strip()
    if not text:
        raise BadNameError(
            "empty",
            N_(
                "a name needs at least one visible character "
                "(control, bidi and zero-width characters are removed)"
            ),
        )
    if len(text) > max_length:
        raise BadNameError(
            "length",
            N_("a name is 1 to {max} characters, got {length}"),
            length=len(text),
            max=max_length,
        )
    return text


def action_json(action: Any) -> dict[str, Any]:
    """``{"id": int, "notation": str, "kind": str}`` plus the action's non-empty fields
    among ``colors`` (token indices), ``level`` (1-3), ``slot`` (1-based), ``cells``
    (Duel board cells 0-24) and ``reserved`` (Duel ``buy r1``: true)."""
    out: dict[str, Any] = {"id": int(action.id), "notation": str(action), "kind": str(action.kind)}
    for name in ACTION_FIELDS:
        value = getattr(action, name, None)
        if value is None or value is False or value == ():
            continue
        out[name] = [int(v) for v in value] if isinstance(value, tuple) else value
    return out


def notation_hint(game: str, entry: str, language: str = DEFAULT_LANGUAGE) -> str:
    """How to write a decision of ``game`` that starts like ``entry``, in ``language``
    (the game's :attr:`~splendor.descriptor.Game.notation_hint`).

    Raises:
        ValueError: an unknown game or language.
    """
    return get_game(game).notation_hint(entry or "?", "", language)


@dataclass(frozen=True)
class NotationHint:
    """:func:`notation_hint` of ``game`` and ``entry``, said in a reader's language (a
    field of a :class:`.errors.Text`)."""

    game: str
    entry: str

    def translated(self, language: str) -> str:
        """The hint in ``language``."""
        return notation_hint(self.game, self.entry, language)


def parse_action(game: str, value: Any) -> Any:
    """The action of ``game`` that a client sent: an id (int) or a notation (str).

    Raises:
        MalformedActionError: not an int or str, an id out of range, or text that is no
            notation (the engine's :class:`~splendor.errors.ParseError`, or a bare
            ValueError from an older engine); the message says how to write one.
    """
    descriptor = get_game(game)
    action_type: Any = descriptor.action_type  # the engine's Action class
    last = descriptor.num_actions - 1
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise MalformedActionError(
            f"an action must be an action id (a whole number 0..{last}) or a "
            f"notation string such as {descriptor.example_action!r}; got {value!r}"
        )
    if isinstance(value, int):
        if not 0 <= value <= last:
            raise MalformedActionError(
                f"action id {value} is out of range: ids of {game} are 0..{last}"
            )
        return action_type.from_id(value)
    try:
        return action_type.parse(value)
    except ValueError as e:  # ParseError (a SplendorError, a ValueError), or a bare one
        raise MalformedActionError(
            N_("{entry} is not an action of {game}: {error}. Hint: {hint}"),
            entry=repr(value),
            game=game,
            error=str(e),
            hint=NotationHint(game, value.strip()),
        ) from None


# --------------------------------------------------------------------- observations


def public_array(state: Any) -> np.ndarray:
    """The state array a spectator may see (see :func:`public_observation`).

    Built from the engine's own observations: seat ``p``'s reserved cards are taken from
    the observation of the next seat, which hides exactly ``p``'s blind reserves.
    """
    n = state.num_players
    arr: np.ndarray = state.observation(0).array
    for p in range(n):
        other = state.observation((p + 1) % n).array
        arr[0]["reserved"][p] = other[0]["reserved"][p]
    arr[0]["observer"] = -1
    return arr


def public_observation(state: Any) -> Any:
    """A spectator's observation of ``state`` (its game's
    :attr:`~splendor.descriptor.Game.observation_type`; observer -1; module docstring)."""
    return state.game.observation_type(public_array(state))


def viewer_observation(state: Any, seat: int | None) -> Any:
    """``state.observation(seat)``, or :func:`public_observation` for ``seat`` None."""
    return public_observation(state) if seat is None else state.observation(seat)


def explain(game: str, observation: Any, action: Any, language: str = DEFAULT_LANGUAGE) -> str:
    """Why ``action`` is not legal in ``observation``, in ``language`` (words for a person;
    best effort, the engine decides): the game's
    :attr:`~splendor.descriptor.Game.why_illegal` (classic C6-C17, Duel D6-D20).

    Raises:
        ValueError: an unknown game or language.
    """
    return get_game(game).why_illegal(observation, action, language)


@dataclass(frozen=True)
class Explanation:
    """:func:`explain` of an illegal action, said in a reader's language (a field of a
    :class:`.errors.Text`)."""

    game: str
    observation: Any
    action: Any

    def translated(self, language: str) -> str:
        """The explanation in ``language``."""
        return explain(self.game, self.observation, self.action, language)


# --------------------------------------------------------------------- state message


def log_entries(
    moves: Sequence[tuple[int, str]],
    notes: Mapping[int, str] | None = None,
    effects: Mapping[int, Sequence[dict[str, Any]]] | None = None,
    texts: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """``[{"index", "seat", "notation"}, ...]`` of the accepted moves ``(seat, notation)``;
    an entry whose index is in ``notes`` also carries ``"note"`` (e.g. a random action
    played for a bot that could not decide), one whose index is in ``effects`` carries
    ``"effects"`` (:func:`move_effects`), and each has ``"text"``, its sentence
    (:func:`move_texts`), when ``texts`` are given."""
    notes = notes or {}
    effects = effects or {}
    return [
        {
            "index": i,
            "seat": seat,
            "notation": text,
            **({"text": texts[i]} if texts is not None and i < len(texts) else {}),
            **({"note": notes[i]} if i in notes else {}),
            **({"effects": list(effects[i])} if effects.get(i) else {}),
        }
        for i, (seat, text) in enumerate(moves)
    ]


def move_texts(facts: Sequence[MoveFacts], num_players: int, language: str) -> list[str]:
    """The sentences of moves in ``language`` (a log entry's ``"text"``), the players
    written ``{seat0}``, ``{seat1}``... like the effects' texts, for the client to fill.

    Raises:
        ValueError: an unknown language.
    """
    names = seat_placeholders(num_players)
    return [say(f, names, language) for f in facts]


def move_effects(game: str, before: Any, action: Any, after: Any) -> list[dict[str, Any]]:
    """What the decision ``action`` did besides its notation (a noble's visit without a
    choice, C12; privileges, Duel abilities resolved without a choice, extra turns, D7-D19:
    :mod:`splendor.effects`), as a log entry's ``"effects"``: each effect's fields plus
    ``"text"``, its sentence in every language (``{"en", "fr", "nl"}``) with the players
    written ``{seat0}``, ``{seat1}``... for the client to fill with the names it shows.
    ``before`` and ``after`` are the full states around the decision."""
    descriptor = get_game(game)
    found = descriptor.effects_of(before, action, after)
    return described(found, after.num_players, descriptor.token_letters)


def dumps(value: Any) -> str:
    """Compact JSON text (no spaces, UTF-8 kept), as the WebSocket messages are sent."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def log_entry_json(
    index: int,
    seat: int,
    notation: str,
    note: str | None = None,
    effects: Sequence[dict[str, Any]] | None = None,
    text: str | None = None,
) -> str:
    """One entry of the ``log`` of a state message as JSON text:
    ``{"index","seat","notation"}``, plus ``"text"`` (the move's sentence), ``"note"`` and
    ``"effects"`` when given."""
    entry: dict[str, Any] = {"index": index, "seat": seat, "notation": notation}
    if text is not None:
        entry["text"] = text
    if note:
        entry["note"] = note
    if effects:
        entry["effects"] = list(effects)
    return dumps(entry)


def log_json(
    moves: Sequence[tuple[int, str]],
    notes: Mapping[int, str] | None = None,
    effects: Mapping[int, Sequence[dict[str, Any]]] | None = None,
    texts: Sequence[str] | None = None,
    start: int = 0,
) -> str:
    """The entries of ``log`` (:func:`log_entries`) as JSON text joined by commas (without
    the brackets), from move ``start`` on (a cached log grows by the moves after it)."""
    notes = notes or {}
    effects = effects or {}
    return ",".join(
        log_entry_json(
            i,
            seat,
            text,
            notes.get(i),
            effects.get(i),
            texts[i] if texts is not None and i < len(texts) else None,
        )
        for i, (seat, text) in enumerate(moves[start:], start=start)
    )


def _head_and_tail(
    game_id: str,
    game: str,
    state: Any,
    seat: int | None,
    moves: Sequence[tuple[int, str]],
    seats: Sequence[dict[str, Any]],
    result: dict[str, Any] | None,
    spectators: dict[str, Any] | None = None,
    clock: dict[str, Any] | None = None,
    last_text: str | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The fields of a state message before ``log`` and after it (key order kept);
    ``last_text``: the last move's sentence (``last_move.text``)."""
    current = state.current_player
    finished = state.is_terminal or result is not None
    obs = viewer_observation(state, seat)
    legal: list[dict[str, Any]] = []
    if not finished and seat is not None and current == seat:
        legal = [action_json(a) for a in state.legal_actions()]
    head = {
        "type": "state",
        "game_id": game_id,
        "game": game,
        "num_players": int(state.num_players),
        "seat": seat,
        "status": "finished" if finished else "active",
        "move": len(moves),
        "turn": int(state.turn),
        "current_player": None if finished else current,
        "observation": obs.to_dict(),
        "legal_actions": legal,
    }
    last = None
    if moves:
        last_seat, last_notation = moves[-1]
        last = {"index": len(moves) - 1, "seat": last_seat, "notation": last_notation}
        if last_text is not None:
            last["text"] = last_text
    tail = {
        "last_move": last,
        "scores": [int(x) for x in state.scores],
        "result": result,
        "seats": [dict(s) for s in seats],
    }
    if spectators is not None:
        tail["spectators"] = spectators
    if clock is not None:
        tail["clock"] = clock
    return head, tail


def state_message(
    *,
    game_id: str,
    game: str,
    state: Any,
    seat: int | None,
    moves: Sequence[tuple[int, str]],
    seats: Sequence[dict[str, Any]],
    result: dict[str, Any] | None,
    notes: Mapping[int, str] | None = None,
    spectators: dict[str, Any] | None = None,
    clock: dict[str, Any] | None = None,
    effects: Mapping[int, Sequence[dict[str, Any]]] | None = None,
    texts: Sequence[str] | None = None,
) -> dict[str, Any]:
    """The ``{"type": "state", ...}`` message for one viewer.

    Args:
        state: the authoritative full state (never sent as such).
        seat: the viewer's seat, or None for a spectator (public observation).
        moves: ``(seat, notation)`` of every accepted decision.
        seats: ``[{"seat", "type", "name", "bot", "guest", "connected"}]``.
        result: the record's result once the game is over, else None.
        notes: ``{move index: note}`` shown with those moves in ``log``.
        spectators: ``{"count", "names"}`` of the game's watchers (the names of the
            logged-in ones), or None (the field is left out).
        clock: the game's clock (:meth:`.clocks.ClockState.to_json`), or None (no clock:
            the field is left out).
        effects: ``{move index: effects}`` (:func:`move_effects`) shown with those moves
            in ``log``.
        texts: the moves' sentences in the viewer's language (:func:`move_texts`), each
            entry's ``"text"`` and ``last_move``'s; None: left out.

    Returns:
        ``{"type": "state", "game_id", "game", "num_players", "seat", "status", "move",
        "turn", "current_player", "observation", "legal_actions", "log", "last_move",
        "scores", "result", "seats"}`` and ``"spectators"``, ``"clock"`` when given (see the
        module docstring).
    """
    last_text = texts[-1] if texts and len(texts) == len(moves) else None
    head, tail = _head_and_tail(
        game_id, game, state, seat, moves, seats, result, spectators, clock, last_text
    )
    return {**head, "log": log_entries(moves, notes, effects, texts), **tail}


def state_message_json(
    *,
    game_id: str,
    game: str,
    state: Any,
    seat: int | None,
    moves: Sequence[tuple[int, str]],
    seats: Sequence[dict[str, Any]],
    result: dict[str, Any] | None,
    notes: Mapping[int, str] | None = None,
    log: str | None = None,
    spectators: dict[str, Any] | None = None,
    clock: dict[str, Any] | None = None,
    effects: Mapping[int, Sequence[dict[str, Any]]] | None = None,
    texts: Sequence[str] | None = None,
) -> str:
    """:func:`state_message` as compact JSON text (the same fields, values and order).

    Args:
        log: :func:`log_json` of ``moves`` (with ``texts``), kept up to date by the caller
            (one :func:`log_entry_json` appended per move); None: built here from
            ``moves``, ``notes``, ``effects`` and ``texts``.
        Others: as :func:`state_message`.
    """
    last_text = texts[-1] if texts and len(texts) == len(moves) else None
    head, tail = _head_and_tail(
        game_id, game, state, seat, moves, seats, result, spectators, clock, last_text
    )
    entries = log_json(moves, notes, effects, texts) if log is None else log
    return f'{dumps(head)[:-1]},"log":[{entries}],{dumps(tail)[1:]}'
