"""Play one game between agents (bots or people), recording every decision.

An agent is anything with ``choose(observation, legal_actions) -> action`` (see
:class:`splendor.bots.Bot`); a person at the terminal is such an agent too. Each agent gets
only its own seat's observation (C16), never the state.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .game import check_player_count, get_game
from .record import GameRecord


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
) -> tuple[Any, GameRecord]:
    """Play a game from the deal to the end (or ``max_decisions``) and return
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

    Raises:
        ValueError: bad seat count or options.
        AgentError: an agent chose an action that is not legal (the state is unchanged).
    """
    module = get_game(game)
    check_player_count(module, len(agents))
    labels = list(names) if names is not None else [getattr(a, "name", "agent") for a in agents]
    if record is None:
        record = GameRecord(
            game=module.GAME_NAME,
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
        choice = agents[seat].choose(obs, legal)
        action = _as_legal(module, choice, legal, seat)
        state.apply(action)
        record.add(action)
        made += 1
        if on_decision is not None:
            on_decision(state, action, seat)
    record.finish(state)
    return state, record


def _as_legal(module: Any, choice: Any, legal: Sequence[Any], seat: int) -> Any:
    try:
        action = choice if isinstance(choice, module.Action) else (
            module.Action.from_id(choice) if isinstance(choice, int) else module.Action.parse(choice)
        )
    except ValueError as e:
        raise AgentError(f"seat {seat} answered {choice!r}, which is not an action: {e}") from None
    if action not in legal:
        raise AgentError(f"seat {seat} chose {action}, which is not legal now")
    return action
