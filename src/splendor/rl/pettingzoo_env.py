"""PettingZoo AEC environments of classic Splendor (2-4 players) and Splendor Duel.

Use the versioned modules, PettingZoo style::

    from splendor.rl import splendor_v0, splendor_duel_v0

    env = splendor_v0.env(num_players=3)          # or splendor_duel_v0.env()
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            action = env.action_space(agent).sample(obs["action_mask"])
        env.step(action)
    env.close()

- Agents are ``player_0``, ``player_1``... after their seat (seat 0 plays first, C5 / D5).
- A turn is a sequence of decisions by the same seat (main action, payment, token returns,
  noble or royal choice...), so ``agent_selection`` follows the engine's ``current_player``
  and the same agent may act several times in a row.
- ``observe(agent)`` is ``{"observation": float32 (observation_size,), "action_mask": int8
  (num_actions,)}`` (:mod:`splendor.rl.encoding`), built from that seat's observation only;
  the mask is all zeros for an agent that is not to act.
- Rewards are terminal only: see :mod:`splendor.rl.common` (+1 sole winner, a shared victory
  splits +1, -1 for the others, 0 for all when Duel's turn cap ends the game, D25).
- ``reset(seed=s)`` deals ``new_game(num_players, s)``: the same seed deals the same game;
  without a seed, one is drawn from the environment's ``np_random``.
- An illegal action (by default, ``illegal_action="terminate"``, as every environment of
  :mod:`splendor.rl` and PettingZoo's own classic games, whose ``TerminateIllegalWrapper``
  does the same) ends the game for every agent: the agent that played it gets
  ``illegal_reward`` (default -1), the others 0, its ``infos`` hold ``illegal_action`` (the
  action) and ``error`` (why), and the game is unchanged. With ``illegal_action="raise"`` it
  raises :class:`ValueError` naming the action and the legal ones, the game unchanged.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import logger, spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..descriptor import Game
from ..game import get_game
from ..seeds import MAX_SEED, check_seed
from . import encoding
from .common import (
    agent_name,
    check_action,
    check_illegal,
    check_max_turns,
    make_spaces,
    new_state,
    outcome_rewards,
)
from .render import render_rgb, render_text

__all__ = ["ClassicAECEnv", "DuelAECEnv", "SplendorAECEnv", "make_env"]


class SplendorAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """The AEC environment of either game (see the module docstring).

    Args:
        game: a name of :func:`splendor.game.get_game` (``"classic"``, ``"duel"``...) or a
            :class:`~splendor.descriptor.Game`.
        num_players: a player count of the game (2-4 for classic, 2 for Duel).
        render_mode: ``None``, ``"human"`` (:meth:`render` prints the text board; it is
            printed at every reset and step too), ``"ansi"`` (:meth:`render` returns it) or
            ``"rgb_array"`` (an ``(H, W, 3)`` uint8 image).
        turn_cap: Duel only: the game ends with no winner after this many turns (D25; a
            draw, 0 reward for both). ``None``: no cap.
        max_turns: truncate the episode (``truncations`` all True, reward 0) once this many
            turns were completed; ``None``: never. A research setting outside the rules.
        illegal_action: ``"terminate"`` (default) or ``"raise"`` (module docstring).
        illegal_reward: the reward of the agent that played an illegal action under
            ``"terminate"`` (default -1).

    Attributes:
        game_state: the engine's full :class:`State` (hidden information included: for
            the host and for tests, never for agents); ``None`` before :meth:`reset`.

    Raises:
        ValueError: unknown game, bad player count, render mode, ``turn_cap``, ``max_turns``
            or ``illegal_action``.
    """

    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "splendor_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        game: str | Game = "classic",
        num_players: int = 2,
        render_mode: str | None = None,
        turn_cap: int | None = None,
        max_turns: int | None = None,
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
    ) -> None:
        super().__init__()
        g = get_game(game)
        self.game = g.package
        g.check_players(num_players)
        self.illegal_action = check_illegal(illegal_action)
        self.illegal_reward = float(illegal_reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be None, 'human', 'ansi' or 'rgb_array', got {render_mode!r}"
            )
        check_max_turns(max_turns)
        new_state(g, num_players, 0, turn_cap)  # validates turn_cap early
        self.num_players = int(num_players)
        self.render_mode = render_mode
        self.turn_cap = turn_cap
        self.max_turns = max_turns
        self.possible_agents = [agent_name(p) for p in range(self.num_players)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        obs_space, act_space = make_spaces(self.game, self.num_players)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._zero_mask = np.zeros(g.num_actions, dtype=np.int8)
        self.np_random: np.random.Generator | None = None
        self.game_state: Any = None

    # -- spaces ---------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Dict:
        """``Dict(observation=Box float32, action_mask=Box int8)`` of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """``Discrete(num_actions)``: decision ids of the engine's action table."""
        return self.action_spaces[agent]

    # -- episode --------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: ``new_game(num_players, seed)``; without ``seed``, one drawn
        from ``np_random`` (seeded by the last ``seed`` given, else from entropy).

        Raises:
            ValueError: ``seed`` is not an integer ``0 <= seed < 2**63``.
        """
        if seed is not None:
            game_seed = check_seed(seed)
            self.game_state = new_state(self.game, self.num_players, game_seed, self.turn_cap)
            self.np_random, _ = seeding.np_random(game_seed)
        else:
            if self.np_random is None:
                self.np_random, _ = seeding.np_random()
            game_seed = int(self.np_random.integers(0, MAX_SEED))
            self.game_state = new_state(self.game, self.num_players, game_seed, self.turn_cap)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = agent_name(self.game_state.current_player)
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": float32 (observation_size,), "action_mask": int8
        (num_actions,)}`` for ``agent``; the mask is all zeros unless ``agent`` is to act."""
        seat = self._seat[agent]
        st = self.game_state
        obs = encoding.observation_tensor(st.observation(seat))
        done = self.truncations.get(agent, False) or self.terminations.get(agent, False)
        if st.current_player == seat and not done:
            mask = encoding.action_mask(st)
        else:
            mask = self._zero_mask.copy()
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        """Play decision ``action`` (an integer id) for ``agent_selection``; ``None`` for an
        agent that is terminated or truncated (it leaves ``agents``).

        Raises:
            ValueError: with ``illegal_action="raise"``, an illegal or malformed action
                (state unchanged); an action other than ``None`` for a finished agent.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.game_state
        try:
            a = check_action(st, action)
        except ValueError as err:
            if self.illegal_action == "raise":
                raise
            self._end_illegally(agent, action, str(err))
            return
        self._cumulative_rewards[agent] = 0.0
        st.apply(a)
        self._clear_rewards()
        if st.is_terminal:
            for p, r in enumerate(outcome_rewards(st)):
                self.rewards[agent_name(p)] = r
            for a_ in self.agents:
                self.terminations[a_] = True
        elif self.max_turns is not None and st.turn >= self.max_turns:
            for a_ in self.agents:
                self.truncations[a_] = True
        else:
            self.agent_selection = agent_name(st.current_player)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_illegally(self, agent: str, action: Any, error: str) -> None:
        """End the game for every agent after ``agent``'s illegal ``action`` (the game is
        unchanged): ``illegal_reward`` to it, 0 to the others."""
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.rewards[agent] = self.illegal_reward
        for a_ in self.agents:
            self.terminations[a_] = True
        self.infos[agent] = {**self.infos[agent], "illegal_action": action, "error": error}
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # -- rendering ------------------------------------------------------------------

    def _view(self) -> Any:
        st = self.game_state
        seat = st.current_player if st.current_player is not None else 0
        return st.observation(seat)

    def render(self) -> str | np.ndarray | None:
        """The board as seen by the seat to act (seat 0 once over): a string for
        ``"ansi"``, an ``(H, W, 3)`` uint8 image for ``"rgb_array"``, printed on standard
        output for ``"human"`` (returns ``None``); ``None`` (with a warning) without a
        render mode.

        Raises:
            RuntimeError: called before :meth:`reset`.
        """
        if self.render_mode is None:
            logger.warn(
                "render() called without a render_mode; pass render_mode='human', 'ansi' or "
                "'rgb_array'"
            )
            return None
        if self.game_state is None:
            raise RuntimeError("call reset() before render()")
        if self.render_mode == "human":
            print(render_text(self._view()), flush=True)
            return None
        if self.render_mode == "ansi":
            return render_text(self._view())
        return render_rgb(self._view())

    def close(self) -> None:
        """Nothing to release (present because :meth:`render` is defined)."""


class ClassicAECEnv(SplendorAECEnv):
    """Classic Splendor, 2-4 players (``splendor_v0``); arguments as :class:`SplendorAECEnv`
    without ``game``."""

    metadata = {**SplendorAECEnv.metadata, "name": "splendor_v0"}

    def __init__(
        self,
        num_players: int = 2,
        render_mode: str | None = None,
        max_turns: int | None = None,
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
    ) -> None:
        super().__init__(
            "classic", num_players, render_mode, None, max_turns, illegal_action, illegal_reward
        )


class DuelAECEnv(SplendorAECEnv):
    """Splendor Duel (``splendor_duel_v0``); arguments as :class:`SplendorAECEnv` without
    ``game`` (``num_players`` must be 2)."""

    metadata = {**SplendorAECEnv.metadata, "name": "splendor_duel_v0"}

    def __init__(
        self,
        num_players: int = 2,
        render_mode: str | None = None,
        turn_cap: int | None = None,
        max_turns: int | None = None,
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
    ) -> None:
        super().__init__(
            "duel", num_players, render_mode, turn_cap, max_turns, illegal_action, illegal_reward
        )


def make_env(raw: type[SplendorAECEnv], **kwargs: Any) -> AECEnv:
    """``raw(**kwargs)`` wrapped in PettingZoo's ``OrderEnforcingWrapper`` (errors on use
    before ``reset``); illegal actions are handled by the environment itself
    (``illegal_action``, module docstring)."""
    return wrappers.OrderEnforcingWrapper(raw(**kwargs))
