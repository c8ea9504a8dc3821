"""Play one game between agents (bots or people), recording every decision.

An agent is anything with ``choose(observation, legal_actions) -> action`` (see
:class:`splendor.bots.Bot`); a person at the terminal is such an agent too. Each agent gets
only its own seat's observation (C16), never the state.

A bot that fails (it raises, for instance :class:`~splendor.bots.base.BotError` from a
crashed external program, or answers an action that is not legal) either stops the game
with that error or, with ``forfeit_on_error``, loses it: the game ends as a *forfeit* and
every other seat wins (:func:`splendor.record.forfeit_result`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from .bots.base import BotError
from .game import get_game
from .record import GameRecord, forfeit_result


class AgentError(RuntimeError):
    """An agent returned something that is not one of its legal actions."""


def play_game(
    agents: Sequence[Any],
    *,
    game: str = "splendor",
    seed: int = 0,
    names: Sequence[str] | None = None,
    record: GameRecord | None = None,
    on_decision: Callable[[Any, Any, int], None] | None = None,
    max_decisions: int | None = None,
    options: dict[str, Any] | None = None,
    forfeit_on_error: bool | Collection[int] = False,
) -> tuple[Any, GameRecord]:
    """Play a game from the deal to the end (or ``max_decisions``, or a forfeit) and return
    ``(final_state, record)``.

    Args:
        agents: one agent per seat, seat 0 first.
        game: registered game name.
        seed: the deal (C18).
        names: seat labels for the record (default: each agent's ``name``).
        record: an existing record to append to (its actions are replayed first), so a
            caller can keep a reference and save it if the game is interrupted.
        on_decision: called as ``on_decision(state_after, action, seat)`` after each one.
        max_decisions: stop early after this many decisions (the record has no result).
        options: game settings for ``new_game`` (Duel: ``turn_cap``, D25); ignored when
            ``record`` is given (the record's own options apply).
        forfeit_on_error: which seats lose by forfeit when their agent fails: ``True`` for
            all, ``False`` for none, or a collection of seats (a terminal game passes its
            bot seats, so that a person's ``quit`` still stops the game). When a listed
            seat's ``choose`` raises any ``Exception`` (a :class:`BotError` or another; not
            ``KeyboardInterrupt``) or returns something that is not a legal action, the game
            ends there: the failing decision is not applied (the returned state is the one
            the seat failed to decide in, not terminal) and ``record.result`` is
            ``{"scores": [points now], "winners": [every other seat], "end_reason":
            "forfeit", "turns": state.turn, "forfeit": {"seat": s, "reason": "..."}}``.

    Agents are not closed here: whoever made a bot with a ``close()`` closes it.

    Raises:
        ValueError: bad seat count or options.
        AgentError: an agent chose an action that is not legal (the state is unchanged),
            unless its seat forfeits instead.
        Exception: whatever an agent's ``choose`` raised, unless its seat forfeits instead.
    """
    found = get_game(game)
    found.check_players(len(agents))
    labels = list(names) if names is not None else [getattr(a, "name", "agent") for a in agents]
    if record is None:
        record = GameRecord(
            game=found.name,
            num_players=len(agents),
            players=labels,
            seed=seed,
            options=dict(options or {}),
        )
    state = record.replay() if record.actions else record.new_state()
    made = 0
    while not state.is_terminal and (max_decisions is None or made < max_decisions):
        seat = state.current_player
        obs = state.observation(seat)
        legal = state.legal_actions()
        try:
            choice = agents[seat].choose(obs, legal)
            action = _as_legal(found.action_type, choice, legal, seat)
        except Exception as e:
            if not _forfeits(forfeit_on_error, seat):
                raise
            record.result = forfeit_result(state, seat, failure_reason(e))
            return state, record
        state.apply(action)
        record.add(action)
        made += 1
        if on_decision is not None:
            on_decision(state, action, seat)
    record.finish(state)
    return state, record


def failure_reason(error: BaseException) -> str:
    """The forfeit reason stored for an agent's ``error``: a :class:`BotError`'s or an
    :class:`AgentError`'s own text, ``"<ExceptionType>: <message>"`` for anything else."""
    if isinstance(error, BotError):
        return error.reason
    if isinstance(error, AgentError):
        return str(error)
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _forfeits(forfeit_on_error: bool | Collection[int], seat: int) -> bool:
    if isinstance(forfeit_on_error, bool):
        return forfeit_on_error
    return seat in forfeit_on_error


def _as_legal(action_type: Any, choice: Any, legal: Sequence[Any], seat: int) -> Any:
    try:
        action = (
            choice
            if isinstance(choice, action_type)
            else (
                action_type.from_id(choice)
                if isinstance(choice, int)
                else action_type.parse(choice)
            )
        )
    except (ValueError, TypeError, AttributeError) as e:
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise AgentError(
            f"seat {seat} answered {choice!r}, which is not an action: {first}"
        ) from None
    if action not in legal:
        raise AgentError(f"seat {seat} chose {action}, which is not legal now")
    return action
