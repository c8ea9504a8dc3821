"""A Gymnasium vector environment: N games of one learning seat against bots, every game
stepped, played by the bots, ended and dealt anew by one compiled call.

::

    import gymnasium
    import splendor.rl  # registers the ids

    envs = gymnasium.make_vec("splendor/Splendor-v0", num_envs=1024, opponent="greedy")
    # the same: SplendorVectorEnv("classic", num_envs=1024, opponent="greedy")
    obs, infos = envs.reset(seed=0)
    while training:
        actions = policy(obs["observation"], obs["action_mask"])  # (1024,) decision ids
        obs, rewards, terminations, truncations, infos = envs.step(actions)

It is the batched twin of :class:`splendor.rl.gym_env.SplendorEnv`: the same observation
(``{"observation": float32 (N, D), "action_mask": int8 (N, A)}``), the same rewards, seen
from the learning seat, and an illegal action ends its episode with ``illegal_reward``
(``infos["illegal_action"]``; ``illegal_action="raise"`` raises instead, as every
environment of :mod:`splendor.rl`). The bots are compiled too: ``"random"`` (uniformly random
legal decisions) or ``"greedy"`` (the greedy bot's scores,
:mod:`splendor.bots.greedy_compiled`, ties broken at random); for any other bot, use
:class:`~splendor.rl.gym_env.SplendorEnv` in a ``SyncVectorEnv``.

Auto-reset is Gymnasium's default, *next step* (``metadata["autoreset_mode"]``): the step
that ends a game returns its final observation (all-False mask), terminal reward and
``terminated``; the next step ignores that environment's action and returns the first
observation of its next game. For the every-seat view of self-play, see
:class:`splendor.rl.batch.BatchedGames`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .. import encoding
from ..descriptor import Game
from .batch import (
    KernelCall,
    check_actions,
    check_settings,
    engine_state,
    environment_generators,
    new_arrays,
)
from .batch_kernels import (
    OPPONENT_GREEDY,
    OPPONENT_RANDOM,
    SEAT_RESET,
    SEAT_STEP,
    Settings,
)
from .common import check_action, check_illegal, check_seat, make_spaces
from .render import render_text

__all__ = ["OPPONENTS", "SplendorVectorEnv"]

OPPONENTS = {"random": OPPONENT_RANDOM, "greedy": OPPONENT_GREEDY}
"""The bots a :class:`SplendorVectorEnv` plays against, by name."""


class SplendorVectorEnv(VectorEnv):
    """``num_envs`` games of one learning seat against compiled bots (module docstring).

    Args:
        game: a name of :func:`splendor.game.get_game` (``"classic"``, ``"duel"``...) or a
            :class:`~splendor.descriptor.Game`.
        num_envs: the number of games played side by side, ``>= 1``.
        opponent: ``"random"`` or ``"greedy"``, for every other seat.
        num_players: 2-4 for classic, 2 for Duel.
        seat: the learning seat (0 plays first), or ``"random"`` for a seat drawn for every
            game.
        turn_cap: Duel only: a game ends with no winner (reward 0) after this many turns
            (D25).
        max_turns: ``truncated`` (reward 0, the next game at the next step) once this many
            turns were completed, outside the rules, as the single-game environment's.
        illegal_action: ``"terminate"`` (default: an illegal action ends its episode with
            ``illegal_reward``, ``infos["illegal_action"]``, the game unchanged) or
            ``"raise"`` (``ValueError`` naming the environment, the action and the legal
            ones; nothing changes in any game).
        illegal_reward: the reward of an illegal action under ``"terminate"``.
        copy: return copies of the observations (Gymnasium's default); False returns the
            environment's own buffers, overwritten at the next call.
        render_mode: None or ``"ansi"`` (:meth:`render` returns each game's board as text,
            seen from its learning seat).

    Raises:
        ValueError: a bad argument (unknown game or bot, player count, seat, turn cap...).
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["ansi"]}

    def __init__(
        self,
        game: str | Game = "classic",
        num_envs: int = 8,
        opponent: str = "random",
        num_players: int = 2,
        seat: int | str = 0,
        turn_cap: int | None = None,
        max_turns: int | None = None,
        illegal_reward: float = -1.0,
        copy: bool = True,
        render_mode: str | None = None,
        illegal_action: str = "terminate",
    ) -> None:
        g = check_settings(game, num_envs, num_players, turn_cap, max_turns)
        self.game = g.package
        self.illegal_action = check_illegal(illegal_action)
        if opponent not in OPPONENTS:
            raise ValueError(
                f"opponent must be one of {', '.join(OPPONENTS)}, got {opponent!r} (other bots: "
                "SplendorEnv in a SyncVectorEnv)"
            )
        checked = check_seat(seat, num_players)
        self._seat = -1 if checked == "random" else int(checked)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.num_envs = int(num_envs)
        self.num_players = int(num_players)
        self.opponent = opponent
        self.seat = seat
        self.turn_cap = turn_cap
        self.max_turns = max_turns
        self.illegal_reward = float(illegal_reward)
        self.copy = bool(copy)
        self.render_mode = render_mode
        self.single_observation_space, self.single_action_space = make_spaces(
            self.game, self.num_players
        )
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        n = self.num_envs
        self._size = encoding.observation_size(g, self.num_players)
        self._enc = (encoding.field_offsets(g, self.num_players), *encoding.card_tables(g))
        self._arrays = new_arrays(g, n, 1, self._size, 1)
        self._settings = Settings(
            num_players=self.num_players,
            turn_cap=turn_cap or 0,
            max_turns=max_turns or 0,
            seat=self._seat,
            opponent=OPPONENTS[opponent],
            illegal_reward=self.illegal_reward,
            raise_illegal=self.illegal_action == "raise",
        )
        self._run = KernelCall(g, self._arrays, self._settings, self._enc)
        self.game_seed = self._arrays.game_seed
        self._started = False
        self.bot_decisions = 0
        """The bots' decisions since the environment was made (for speed figures)."""

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal a new game in every environment; the bots play up to the learning seat's
        first decision.

        Args:
            seed: an int (environment ``i`` is seeded from it and ``i``), a list of one
                int per environment, or None (keep the generators; drawn at the first reset).
            options: none are read (accepted for the Gymnasium signature).

        Raises:
            ValueError: a bad seed (nothing changes).
        """
        if seed is not None or not self._started:
            self._arrays.rng[:] = environment_generators(seed, self.num_envs)
        self.bot_decisions += self._run(SEAT_RESET)
        self._started = True
        return self._observation(), self._infos()

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play ``actions[i]`` for the learning seat of game ``i``, then the bots (see the
        module docstring for the end of a game and for illegal actions).

        Returns:
            ``(observations, rewards float32 (N,), terminations bool (N,), truncations bool
            (N,), infos)``; ``infos`` holds ``seat`` (the learning seats), ``game_seed``
            (each game's deal: ``new_game(num_players, seed)``) and ``illegal_action``
            (bool), each with Gymnasium's ``_key`` mask.

        Raises:
            RuntimeError: before the first :meth:`reset`.
            ValueError: ``actions`` is not ``(num_envs,)`` integers (nothing changes).
        """
        if not self._started:
            raise RuntimeError("call reset() before step()")
        a = check_actions(actions, self.num_envs)
        made = self._run(SEAT_STEP, a)
        if made < 0:
            i = -1 - made
            raise ValueError(self._illegal_message(i, int(a[i])))
        self.bot_decisions += made
        arrays = self._arrays
        out = (arrays.rewards.reshape(self.num_envs), arrays.terminated, arrays.truncated)
        if self.copy:
            out = tuple(x.copy() for x in out)  # type: ignore[assignment]
        return (self._observation(), *out, self._infos())

    def _illegal_message(self, i: int, a: int) -> str:
        try:
            check_action(self.state(i), a)
        except ValueError as e:
            return f"environment {i}: {e}. No game moved."
        raise AssertionError(f"action {a} of environment {i} is legal")  # pragma: no cover

    def _observation(self) -> dict[str, np.ndarray]:
        obs = self._arrays.obs.reshape(self.num_envs, self._size)
        mask = self._arrays.mask.view(np.int8)
        if self.copy:
            obs, mask = obs.copy(), mask.copy()
        return {"observation": obs, "action_mask": mask}

    def _infos(self) -> dict[str, Any]:
        every = np.ones(self.num_envs, dtype=np.bool_)
        return {
            "seat": self._arrays.learner.astype(np.int64),
            "_seat": every,
            "game_seed": self._arrays.game_seed.copy(),
            "_game_seed": every.copy(),
            "illegal_action": self._arrays.illegal.copy(),
            "_illegal_action": every.copy(),
        }

    def state(self, i: int) -> Any:
        """A copy of environment ``i``'s game as an engine ``State``.

        Raises:
            IndexError: ``i`` is not ``0..num_envs-1``.
        """
        return engine_state(self.game, self._arrays.states, i)

    def render(self) -> tuple[str, ...] | None:
        """With ``render_mode="ansi"``, each game's board as text, seen from its learning
        seat (:func:`splendor.rl.render.render_text`); None otherwise."""
        if self.render_mode != "ansi" or not self._started:
            return None
        return tuple(
            render_text(self.state(i).observation(int(self._arrays.learner[i])))
            for i in range(self.num_envs)
        )
