"""Pieces the Gymnasium and PettingZoo environments share: building a game, the terminal
rewards, checking an agent's action and the spaces.

Rewards are terminal only (every step before the end gives 0):

- a sole winner gets ``+1``, every other seat ``-1``;
- a shared victory (classic C15: tied on points and on cards bought) splits ``+1`` equally
  between the winners (``1 / len(winners)`` each), every other seat ``-1``;
- a game with no winner (Duel's turn cap, D25) gives ``0`` to every seat.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from ..descriptor import Game
from ..game import games, get_game
from . import encoding

__all__ = [
    "AGENT_PREFIX",
    "ILLEGAL_ACTIONS",
    "agent_name",
    "check_action",
    "check_illegal",
    "check_max_turns",
    "check_seat",
    "make_spaces",
    "new_state",
    "outcome_rewards",
    "space_high",
]

AGENT_PREFIX = "player_"
"""Agents are named ``player_0``, ``player_1``... after their seat."""


def agent_name(seat: int) -> str:
    """``"player_<seat>"``."""
    return f"{AGENT_PREFIX}{seat}"


def new_state(game: str | Game, num_players: int, seed: int, turn_cap: int | None = None) -> Any:
    """Deal a game through the game's ``new_game`` (C18 / D24: the seed fixes every
    shuffle).

    Args:
        game: a name of :func:`splendor.game.get_game` (``"classic"``, ``"duel"``...) or a
            :class:`~splendor.descriptor.Game`.
        num_players: a player count of the game (2-4 for classic, 2 for Duel).
        seed: ``0 <= seed < 2**63``.
        turn_cap: for a game with a turn cap (its ``turn_option``: Duel, D25), end the game
            with no winner after this many turns; a positive integer or None (no cap).

    Raises:
        ValueError: unknown game, bad player count or seed, or a turn cap the game does not
            have or that is not a positive integer.
    """
    g = get_game(game)
    n = g.check_players(num_players)
    if turn_cap is None:
        return g.new_game(n, seed)
    if g.turn_option is None:
        capped = ", ".join(
            f"{x.title} ({x.options[t].rule})" for x in games() if (t := x.turn_option) is not None
        )
        raise ValueError(
            f"turn_cap is a setting of {capped} only; {g.title} games end by their rules"
        )
    return g.new_game(n, seed, **{g.turn_option: turn_cap})


def outcome_rewards(state: Any) -> list[float]:
    """Terminal reward of every seat (see the module docstring); all 0 before the end.

    Returns:
        One float per seat: ``1 / len(winners)`` for a winner, ``-1`` for the others,
        ``0`` for everybody when the game ended with no winner (D25) or is not over.
    """
    n = state.num_players
    if not state.is_terminal:
        return [0.0] * n
    winners = state.winners
    if not winners:
        return [0.0] * n
    share = 1.0 / len(winners)
    return [share if p in winners else -1.0 for p in range(n)]


def check_action(state: Any, action: Any) -> int:
    """The action id of ``action`` if it is legal for the seat to act, else an error.

    Args:
        state: the engine state.
        action: an integer id (Python or numpy integer, or a 0-d integer array).

    Returns:
        The id as an ``int``.

    Raises:
        ValueError: not an integer, out of ``0..num_actions-1``, the game is over, or not
            legal now; the message names the action (id and notation) and the legal ones.
            The state is not touched.
    """
    raw = action
    if isinstance(raw, np.ndarray) and raw.ndim == 0:
        raw = raw.item()
    if isinstance(raw, (bool, np.bool_)) or not isinstance(raw, (int, np.integer)):
        raise ValueError(f"an action is an integer id, got {action!r}")
    a = int(raw)
    mask = state.legal_mask()  # one entry per decision id, all False once over
    n = len(mask)
    if not 0 <= a < n:
        raise ValueError(f"action id {a} is out of range 0..{n - 1}")
    if state.is_terminal:
        raise ValueError(
            f"action {a} ({state.describe(a)}) after the end of the game; call reset()"
        )
    if not mask[a]:
        legal = [f"{i} ({state.describe(int(i))})" for i in np.flatnonzero(mask)]
        shown = ", ".join(legal[:30]) + (f", ... ({len(legal)} in all)" if len(legal) > 30 else "")
        raise ValueError(
            f"illegal action {a} ({state.describe(a)}) for {agent_name(state.current_player)} "
            f"(phase: {state.phase}); legal now: {shown}"
        )
    return a


def check_seat(seat: Any, num_players: int) -> int | str:
    """The learning seat of a single-agent environment: ``seat`` as an int, or
    ``"random"`` (a seat drawn for every game).

    Raises:
        ValueError: neither ``"random"`` nor an integer ``0..num_players-1``.
    """
    if seat == "random":
        return "random"
    if (
        isinstance(seat, bool)
        or not isinstance(seat, (int, np.integer))
        or not 0 <= seat < num_players
    ):
        raise ValueError(f"seat must be 0..{num_players - 1} or 'random', got {seat!r}")
    return int(seat)


ILLEGAL_ACTIONS = ("terminate", "raise")
"""What an environment does with an illegal action (``illegal_action=``), the default
first. ``"terminate"``: the episode ends (``terminated``), the seat that played it gets
``illegal_reward`` (default -1) and the others 0, the game is not changed, and the
environment says so (``info["illegal_action"]``, ``Step.illegal``...); Gymnasium's
``check_env``, which steps unmasked random actions, passes with it, and PettingZoo's classic
games do the same (their ``TerminateIllegalWrapper``). ``"raise"``: ``ValueError`` naming
the action and the legal ones, nothing changed."""


def check_illegal(illegal_action: Any) -> str:
    """``illegal_action`` when it is one of :data:`ILLEGAL_ACTIONS`.

    Raises:
        ValueError: anything else.
    """
    if not isinstance(illegal_action, str) or illegal_action not in ILLEGAL_ACTIONS:
        raise ValueError(f"illegal_action must be 'terminate' or 'raise', got {illegal_action!r}")
    return illegal_action


def check_max_turns(max_turns: Any) -> None:
    """Refuse a ``max_turns`` (the turns after which an environment cuts a game short,
    outside the rules) other than a positive integer or None.

    Raises:
        ValueError: says what was given.
    """
    if max_turns is not None and (
        isinstance(max_turns, bool) or not isinstance(max_turns, (int, np.integer)) or max_turns < 1
    ):
        raise ValueError(f"max_turns must be a positive integer or None, got {max_turns!r}")


def space_high(game: str | Game, num_players: int) -> np.ndarray:
    """The ``high`` of the observation Box: :func:`splendor.encoding.observation_high`,
    with its unbounded values (the turn counters: ``turn``, Duel's ``turns_left``) bounded
    by the largest turn a state can hold (its ``turn`` field, int32: 2**31 - 1), so that
    every bound is finite.

    Raises:
        ValueError: unknown game or bad player count.
    """
    high = encoding.observation_high(game, num_players)
    turns = float(np.iinfo(get_game(game).state_dtype["turn"]).max)
    bounded: np.ndarray = np.minimum(high, np.float32(turns))
    return bounded


def make_spaces(game: str | Game, num_players: int) -> tuple[spaces.Dict, spaces.Discrete]:
    """The observation and action spaces of one agent.

    Returns:
        ``(Dict(observation=Box(0, high, (observation_size,), float32),
        action_mask=Box(0, 1, (num_actions,), int8)), Discrete(num_actions))``, ``high``
        finite (:func:`space_high`).

    Raises:
        ValueError: unknown game or bad player count.
    """
    high = space_high(game, num_players)
    n = get_game(game).num_actions
    obs = spaces.Dict(
        {
            "observation": spaces.Box(low=0.0, high=high, shape=high.shape, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
        }
    )
    return obs, spaces.Discrete(n)
