"""A game in the service's memory (:class:`LiveGame`) and the rules of its life cycle
(:class:`Lifecycle`: how long games stay in memory and in the database, how failed bot
turns are retried); :func:`replay` rebuilds a stored game's state from its seed and moves
(C18, D24).
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..game import get_game
from ..move_text import MoveFacts, move_facts
from ..record import result_of
from .clocks import ClockState
from .protocol import log_json, move_effects, move_texts
from .storage import STATUS_ACTIVE, STATUS_FINISHED, SeatInfo, StoredGame, hash_token

DAY = 86400.0


@dataclass(frozen=True)
class Lifecycle:
    """How long games stay in memory and in the database, and how failed bot turns are
    retried (see the module docstring). Times are in seconds.

    Attributes:
        evict_idle: an unfinished game leaves memory after this long without a request,
            with nobody connected and no bot of it thinking (default 600). It is loaded
            again, from the database, at its next request.
        evict_finished: the same for a finished game (default 60).
        expire_unstarted: a game with no move is deleted this long after its creation
            (default 7 days; None: never).
        expire_abandoned: a game with moves whose next decision is a person's and that
            has had no move for this long ends as that person's forfeit; it is kept, with
            its moves and record (default 30 days; None: never).
        sweep_every: period of the maintenance task (bot turns without a task, eviction)
            (default 5).
        expire_every: period of the expiry (default 3600; the first run is one period
            after start-up).
        retry_first: back-off before the first retry of a failed bot turn (default 0.2);
            doubled at each failure in a row, with jitter, up to ``retry_max`` (default 5).
        bot_attempts: a bot decision that fails this many times in a row is replaced by a
            random legal action, with a note in the game log (default 3).
        resume_concurrency: games loaded at once by the start-up resume (default 4).

    Raises:
        ValueError: a time that is not a positive number (None only where allowed),
            ``retry_max < retry_first``, or a count below 1.
    """

    evict_idle: float = 600.0
    evict_finished: float = 60.0
    expire_unstarted: float | None = 7 * DAY
    expire_abandoned: float | None = 30 * DAY
    sweep_every: float = 5.0
    expire_every: float = 3600.0
    retry_first: float = 0.2
    retry_max: float = 5.0
    bot_attempts: int = 3
    resume_concurrency: int = 4

    def __post_init__(self) -> None:
        for name in (
            "evict_idle",
            "evict_finished",
            "expire_unstarted",
            "expire_abandoned",
            "sweep_every",
            "expire_every",
            "retry_first",
            "retry_max",
        ):
            value = getattr(self, name)
            if value is None and name.startswith("expire_") and name != "expire_every":
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                allowed = "a number of seconds > 0" + (
                    " or None (never)" if name in ("expire_unstarted", "expire_abandoned") else ""
                )
                raise ValueError(f"Lifecycle.{name} must be {allowed}, got {value!r}")
        if self.retry_max < self.retry_first:
            raise ValueError(
                f"Lifecycle.retry_max ({self.retry_max}) "
                f"must be >= retry_first ({self.retry_first})"
            )
        for name in ("bot_attempts", "resume_concurrency"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"Lifecycle.{name} must be a whole number >= 1, got {value!r}")

    def backoff(self, failures: int) -> float:
        """The longest wait after ``failures`` failures in a row (>= 1):
        ``min(retry_max, retry_first * 2 ** (failures - 1))`` seconds."""
        return min(self.retry_max, self.retry_first * 2.0 ** min(max(failures, 1) - 1, 60))


@dataclass
class LiveGame:
    """A loaded game: what is stored plus the authoritative state.

    Attributes:
        moves: ``(seat, notation)`` of every committed decision (the state is their replay).
        state: the full state after ``moves`` (hidden information included: never sent).
        lock: serializes the decisions of this game.
        facts: what each move's sentence needs (:func:`splendor.move_text.move_facts`, read from
            the position before it), parallel to ``moves``; filled by replaying the game
            when short (a game just loaded), see :meth:`said`.
        logs: per language asked for, the moves' sentences and the state messages'
            ``log`` entries as JSON text (:func:`.protocol.log_json`, with ``"text"``), grown
            by :meth:`said` for the moves after those it holds: each move is said once per
            language a reader uses.
        notes: ``{move index: note}``, e.g. a random action played for a failing bot.
        effects: ``{move index: effects}`` of the moves that did more than their notation
            says (:func:`.protocol.move_effects`: privileges, Duel abilities resolved
            without a choice, a noble's visit...), shown with them in the log.
        accessed: when the game was last asked for (the service's clock, seconds).
        evicted: set when the service dropped it from memory (a new object is loaded at
            the next request; this one's bot task stops).
        rated: whether the result changes the players' ratings (a lobby table's choice).
        clock: the clock it is played with (:mod:`.tables`), or None.
        dropped: the seats whose player resigned a 3-4 player game (a bot plays them on;
            they rank last in the ratings, :mod:`.rated_games`).
        clock_state: the running clock of a game with a clock (:mod:`.clocks`), else None.
        clock_task: the timer that times the running seat out at its deadline.
        rating_changes: once a rated game's ratings are applied here, each seat's change
            (:func:`.rating_updates.seat_changes`), shown in its result; None before
            (and after the game is loaded again: it is not stored).
    """

    id: str
    game: str
    num_players: int
    seed: int
    options: dict[str, Any]
    seats: list[SeatInfo]
    created_at: datetime
    updated_at: datetime
    state: Any
    moves: list[tuple[int, str]]
    result: dict[str, Any] | None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    facts: list[MoveFacts] = field(default_factory=list)
    logs: dict[str, tuple[list[str], str]] = field(default_factory=dict)
    notes: dict[int, str] = field(default_factory=dict)
    effects: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    accessed: float = 0.0
    evicted: bool = False
    rated: bool = False
    clock: dict[str, Any] | None = None
    dropped: list[int] = field(default_factory=list)
    clock_state: ClockState | None = None
    clock_task: asyncio.Task[None] | None = None
    rating_changes: list[dict[str, Any]] | None = None

    def add_move(
        self,
        seat: int,
        notation: str,
        note: str | None = None,
        effects: list[dict[str, Any]] | None = None,
        facts: MoveFacts | None = None,
    ) -> None:
        """Append a committed decision (and its note, effects and sentence's facts, if
        any) to ``moves``; the logs in each language grow when next asked for
        (:meth:`said`)."""
        if facts is not None and len(self.facts) == len(self.moves):
            self.facts.append(facts)
        if note:
            self.notes[len(self.moves)] = note
        if effects:
            self.effects[len(self.moves)] = effects
        self.moves.append((seat, notation))

    def reset_log(self) -> None:
        """Forget the moves' facts and logs (after ``moves`` were replaced by a reload)."""
        self.facts = []
        self.logs = {}

    def said(self, language: str) -> tuple[list[str], str]:
        """The moves' sentences in ``language`` and the ``log`` entries as JSON text
        (:func:`.protocol.log_json` with them), made for the moves not said yet.

        Raises:
            ValueError: an unknown language.
        """
        if len(self.facts) < len(self.moves):
            self.facts = replay_facts(self)
        texts, text = self.logs.get(language, ([], ""))
        if len(texts) < len(self.moves):
            start = len(texts)
            texts = texts + move_texts(self.facts[start:], self.num_players, language)
            more = log_json(self.moves, self.notes, self.effects, texts, start)
            text = f"{text},{more}" if text else more
            self.logs[language] = (texts, text)
        return texts, text

    @property
    def finished(self) -> bool:
        return self.result is not None or self.state.is_terminal

    @property
    def status(self) -> str:
        return STATUS_FINISHED if self.finished else STATUS_ACTIVE

    @property
    def current_player(self) -> int | None:
        return None if self.finished else self.state.current_player

    def seat_of_token(self, token: str) -> int | None:
        """The seat whose token is ``token``, or None."""
        digest = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
                return s.seat
        return None


def replay(
    stored: StoredGame,
) -> tuple[Any, dict[str, Any] | None, dict[int, list[dict[str, Any]]]]:
    """The state after the stored moves, the result if it is over, and the effects of the
    moves that have some (``{move index: effects}``, :func:`.protocol.move_effects`).

    Raises:
        RuntimeError: a stored move does not replay (a corrupt database).
    """
    module = get_game(stored.game)
    state = module.new_game(stored.num_players, stored.seed, **stored.options)
    effects: dict[int, list[dict[str, Any]]] = {}
    for i, (seat, text) in enumerate(stored.moves):
        if state.current_player != seat:
            raise RuntimeError(
                f"game {stored.id}: stored move {i} ({text!r}) is by seat {seat}, "
                "not the seat to play"
            )
        before = state.copy()
        try:
            action = module.action_type.parse(text)
            state.apply(action)
        except ValueError as e:
            raise RuntimeError(
                f"game {stored.id}: stored move {i} ({text!r}) does not replay: {e}"
            ) from None
        found = move_effects(stored.game, before, action, state)
        if found:
            effects[i] = found
    return state, final_result(stored.result, state), effects


def replay_facts(live: LiveGame) -> list[MoveFacts]:
    """The facts of every move of ``live`` (:func:`splendor.move_text.move_facts`), by replaying
    its moves from the deal.

    Raises:
        RuntimeError: a move does not replay (a corrupt game).
    """
    module = get_game(live.game)
    state = module.new_game(live.num_players, live.seed, **live.options)
    facts = []
    for i, (_seat, text) in enumerate(live.moves):
        try:
            action = module.action_type.parse(text)
            facts.append(move_facts(state, action))
            state.apply(action)
        except ValueError as e:
            raise RuntimeError(
                f"game {live.id}: move {i} ({text!r}) does not replay: {e}"
            ) from None
    return facts


def final_result(stored: dict[str, Any] | None, state: Any) -> dict[str, Any] | None:
    """A game's result: the stored one (a forfeit, say), else the state's once it is over,
    else None."""
    if stored is not None:
        return stored
    return result_of(state) if state.is_terminal else None


__all__ = ["DAY", "Lifecycle", "LiveGame", "final_result", "replay"]
