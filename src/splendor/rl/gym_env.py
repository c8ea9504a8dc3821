"""Gymnasium single-agent environments: one learning seat against bots.

::

    import gymnasium
    import splendor.rl  # registers the ids

    env = gymnasium.make("splendor/Splendor-v0", opponent="greedy", num_players=3, seat="random")
    obs, info = env.reset(seed=0)
    while True:
        action = env.action_space.sample(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

Registered ids: ``splendor/Splendor-v0`` (classic, 2-4 players) and
``splendor/SplendorDuel-v0`` (Duel). The other seats are bots built with
:func:`splendor.bots.make_bot` (``"random"``, ``"greedy"``, ``"mcts:0.1s"``...) or given as
bot objects; they move inside :meth:`SplendorEnv.step` (and :meth:`SplendorEnv.reset`)
until the learning seat owes a decision or the game ends. Observation, mask and rewards are
those of :mod:`splendor.rl.pettingzoo_env`, seen from the learning seat.

An episode is cut short (``truncated``, reward 0) once :data:`DEFAULT_MAX_TURNS` turns were
completed unless ``max_turns`` says otherwise (None: never), and the observation space is
bounded everywhere (:func:`splendor.rl.common.space_high`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from ..bots import make_bot, parse_bot_spec
from ..descriptor import Game
from ..game import get_game
from ..seeds import MAX_SEED, check_seed
from . import encoding
from .common import (
    check_action,
    check_illegal,
    check_max_turns,
    check_seat,
    make_spaces,
    new_state,
    outcome_rewards,
)
from .render import render_rgb, render_text

__all__ = ["DEFAULT_MAX_TURNS", "SplendorEnv"]

DEFAULT_MAX_TURNS = 400
"""The turns after which :class:`SplendorEnv` truncates an episode by default: more than
twice the longest of 400 games of uniformly random decisions (92 turns for 2-player
classic, 168 for 4 players, 136 for Duel), so that only a policy that keeps a game going
for ever (taking and returning tokens) meets it; the same number as Duel's turn cap for
games between bots (D25) and the cut of ``examples/train_batched_policy.py``."""


class SplendorEnv(gymnasium.Env):
    """One learning seat of classic Splendor or Splendor Duel against bots.

    Args:
        game: a name of :func:`splendor.game.get_game` (``"classic"``, ``"duel"``...) or a
            :class:`~splendor.descriptor.Game` (the registered ids set it).
        opponent: the other seats: one bot spec or bot object for all of them, or a sequence
            with one per other seat (in seat order, skipping the learning seat). Specs are
            built anew at every reset with seeds drawn from ``np_random``; bot objects
            (anything with ``choose(observation, legal_actions)``) are used as they are.
        num_players: 2-4 for classic, 2 for Duel.
        seat: the learning seat (0 plays first), or ``"random"`` for a seat drawn at every
            reset. ``reset(options={"seat": k})`` overrides it for one episode.
        render_mode: ``None``, ``"human"`` (the board printed at every reset and step,
            as Gymnasium's human mode renders by itself), ``"ansi"`` or ``"rgb_array"``.
        turn_cap: Duel only: the game ends with no winner after this many turns (D25):
            ``terminated`` with reward 0.
        max_turns: ``truncated`` once this many turns were completed (outside the rules);
            default :data:`DEFAULT_MAX_TURNS`, None for never.
        illegal_action: ``"terminate"`` (default): an illegal action ends the episode
            (``terminated``, reward ``illegal_reward``, ``info["illegal_action"]`` = the id,
            ``info["error"]`` why; the game is unchanged), so Gymnasium's ``check_env``,
            which steps unmasked random actions, passes with the default arguments.
            ``"raise"``: it raises ``ValueError`` and changes nothing. The same choice, with
            the same default, as every environment of :mod:`splendor.rl`.
        illegal_reward: the reward of an illegal action under ``"terminate"`` (default -1).

    Observation: ``{"observation": float32 (observation_size,), "action_mask": int8
    (num_actions,)}``; ``info["action_mask"]`` holds the same mask. Action: a decision id
    (``Discrete(num_actions)``). Reward: 0 until the end, then +1 for a sole win, ``1/k``
    for a victory shared by ``k`` seats, -1 for a loss, 0 for a draw (D25).

    Raises:
        ValueError: a bad argument (unknown game, player count, seat, bot spec...).
    """

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        game: str | Game = "classic",
        opponent: str | Any | Sequence[str | Any] = "random",
        num_players: int = 2,
        seat: int | str = 0,
        render_mode: str | None = None,
        turn_cap: int | None = None,
        max_turns: int | None = DEFAULT_MAX_TURNS,
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
    ) -> None:
        g = get_game(game)
        self.game = g.package
        self.illegal_action = check_illegal(illegal_action)
        self.illegal_reward = float(illegal_reward)
        self._ended_illegally = False
        self.num_players = g.check_players(num_players)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be None, 'human', 'ansi' or 'rgb_array', got {render_mode!r}"
            )
        self.render_mode = render_mode
        new_state(g, self.num_players, 0, turn_cap)  # validates turn_cap
        self.turn_cap = turn_cap
        check_max_turns(max_turns)
        self.max_turns = max_turns
        self._seat_option = self._check_seat(seat)
        # bot specs (str) or objects with choose(), checked below
        self._opponents: list[Any]
        if isinstance(opponent, (str, bytes)) or not isinstance(opponent, Sequence):
            self._opponents = [opponent] * (self.num_players - 1)
        else:
            self._opponents = list(opponent)
            if len(self._opponents) != self.num_players - 1:
                raise ValueError(
                    f"{len(self._opponents)} opponents given for {self.num_players - 1} other seats"
                )
        for o in self._opponents:
            if isinstance(o, str):
                parse_bot_spec(o)  # validates the spec without building the bot
            elif not callable(getattr(o, "choose", None)):
                raise ValueError(f"an opponent is a bot spec or an object with choose(), got {o!r}")
        self.observation_space, self.action_space = make_spaces(self.game, self.num_players)
        self._zero_mask = np.zeros(g.num_actions, dtype=np.int8)
        self.game_state: Any = None
        self.seat = 0
        self._bots: list[Any] = []
        self._owned: list[Any] = []

    def _check_seat(self, seat: int | str) -> int | str:
        return check_seat(seat, self.num_players)

    # -- episode --------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal a new game and let the bots play until the learning seat is to decide.

        ``seed`` deals ``new_game(num_players, seed)`` and seeds ``np_random`` (the seat
        draw and the bots' seeds); without it the game seed comes from ``np_random``.
        ``options={"seat": k}`` plays seat ``k`` in this episode.

        Raises:
            ValueError: bad seed or seat option.
        """
        if seed is not None:
            seed = check_seed(seed)
        super().reset(seed=seed)
        seat_opt = self._check_seat((options or {}).get("seat", self._seat_option))
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(0, MAX_SEED))
        self.seat = (
            int(self.np_random.integers(self.num_players))
            if seat_opt == "random"
            else int(seat_opt)
        )
        self._close_bots()
        self._bots = []
        others = iter(self._opponents)
        for p in range(self.num_players):
            if p == self.seat:
                self._bots.append(None)
                continue
            spec = next(others)
            if isinstance(spec, str):
                bot = make_bot(spec, int(self.np_random.integers(0, 2**31)))
                self._owned.append(bot)
            else:
                bot = spec
            self._bots.append(bot)
        self.game_state = new_state(self.game, self.num_players, game_seed, self.turn_cap)
        self._ended_illegally = False
        self._play_bots()
        mask = self._mask()
        if self.render_mode == "human":
            self.render()
        return self._obs(mask), self._info(mask.copy())

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Play decision ``action`` for the learning seat, then the bots until it is the
        learning seat's turn again or the game ends.

        Returns:
            ``(observation, reward, terminated, truncated, info)``; the reward is 0 until
            the end (see the class docstring).

        Raises:
            ValueError: an illegal or malformed action (with ``illegal_action="raise"``), or
                a step after the end; the game is unchanged.
            RuntimeError: called before :meth:`reset`.
        """
        if self.game_state is None:
            raise RuntimeError("call reset() before step()")
        st = self.game_state
        if self._ended_illegally:
            raise ValueError("the episode ended on an illegal action; call reset()")
        if self.max_turns is not None and st.turn >= self.max_turns and not st.is_terminal:
            raise ValueError("the episode was truncated (max_turns); call reset()")
        try:
            a = check_action(st, action)
        except ValueError as err:
            if self.illegal_action == "raise" or st.is_terminal:
                raise
            self._ended_illegally = True
            info = self._info()
            info["illegal_action"] = action
            info["error"] = str(err)
            return self._obs(), self.illegal_reward, True, False, info
        st.apply(a)
        self._play_bots()
        terminated = bool(st.is_terminal)
        truncated = (not terminated) and self.max_turns is not None and st.turn >= self.max_turns
        reward = float(outcome_rewards(st)[self.seat]) if terminated else 0.0
        mask = self._mask()
        if self.render_mode == "human":
            self.render()
        return self._obs(mask), reward, terminated, bool(truncated), self._info(mask.copy())

    def _play_bots(self) -> None:
        st = self.game_state
        while not st.is_terminal and st.current_player != self.seat:
            if self.max_turns is not None and st.turn >= self.max_turns:
                return
            p = st.current_player
            choice = self._bots[p].choose(st.observation(p), st.legal_actions())
            st.apply(choice)

    def _mask(self) -> np.ndarray:
        st = self.game_state
        return (
            encoding.action_mask(st) if st.current_player == self.seat else self._zero_mask.copy()
        )

    def _obs(self, mask: np.ndarray | None = None) -> dict[str, np.ndarray]:
        obs = encoding.observation_tensor(self.game_state.observation(self.seat))
        return {"observation": obs, "action_mask": self._mask() if mask is None else mask}

    def _info(self, mask: np.ndarray | None = None) -> dict[str, Any]:
        st = self.game_state
        info: dict[str, Any] = {
            "action_mask": self._mask() if mask is None else mask,
            "seat": self.seat,
            "turn": st.turn,
        }
        if st.is_terminal:
            info["winners"] = list(st.winners)
            info["scores"] = list(st.scores)
        return info

    # -- rendering ------------------------------------------------------------------

    def render(self) -> str | np.ndarray | None:
        """The board as the learning seat sees it: a string (``"ansi"``), an
        ``(H, W, 3)`` uint8 image (``"rgb_array"``), or printed on standard output
        (``"human"``, returns ``None``); ``None`` without a render mode.

        Raises:
            RuntimeError: called before :meth:`reset`.
        """
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() called without a render_mode; pass render_mode='human', 'ansi' or "
                "'rgb_array'"
            )
            return None
        if self.game_state is None:
            raise RuntimeError("call reset() before render()")
        view = self.game_state.observation(self.seat)
        if self.render_mode == "human":
            print(render_text(view), flush=True)
            return None
        return render_text(view) if self.render_mode == "ansi" else render_rgb(view)

    def _close_bots(self) -> None:
        for bot in self._owned:
            close = getattr(bot, "close", None)
            if callable(close):
                close()
        self._owned = []

    def close(self) -> None:
        """Close the bots this environment built (external programs)."""
        self._close_bots()
