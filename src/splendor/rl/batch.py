"""Batched games for research: N games of classic Splendor or Splendor Duel stepped by one
compiled call, with every seat's observation tensor, legal-action mask, rewards and
terminations computed inside the compiled code into arrays allocated once.

::

    from splendor.rl.batch import BatchedGames

    games = BatchedGames("classic", num_envs=1024, num_players=2, seed=0)
    step = games.reset()
    for _ in range(1000):
        actions = games.random_actions()      # or a policy on step.obs, step.mask
        step = games.step(actions)
        # step.obs (N, D) float32: the seat to play's tensor (splendor.rl.encoding)
        # step.mask (N, A) bool, step.current (N,), step.rewards (N, num_players),
        # step.terminated (N,)

Every game is a full engine state (the rules of :mod:`splendor.classic` /
:mod:`splendor.duel`, the same compiled code): an agent sees only its observation tensor,
built as ``encoding.observation_tensor(state.observation(seat))`` (C16, D22).

**Auto-reset, same step.** When game ``i`` ends at a step, ``rewards[i]`` holds every seat's
terminal reward and ``terminated[i]`` is True, and the next game of environment ``i`` is
dealt at once: ``obs[i]``, ``mask[i]`` and ``current[i]`` are already those of the new
game's first decision. The rewards are those of :mod:`splendor.rl.common` (``1 / k`` to each
of ``k`` winners, ``-1`` to the others, ``0`` to all when a Duel game reaches its turn cap).
Classic games end by C14 or C17, Duel games by D21 (or D25 with a turn cap), but a policy
can keep a game going for ever (taking and returning tokens): ``max_turns`` cuts a game
short after that many turns (``truncated``, rewards 0, the next game dealt at once).

**Illegal actions.** By default (``illegal_action="terminate"``, as every environment of
:mod:`splendor.rl`) an action that is not a legal decision of its game ends that game:
``terminated[i]`` and ``illegal[i]`` are True, the seat that played it gets
``illegal_reward`` (default -1) and the others 0, and the next game is dealt at once; the
illegal action is not played. With ``illegal_action="raise"``, :meth:`BatchedGames.step`
raises ``ValueError`` naming the environment, the action and the legal ones, and no game
moves.

**Per-seat views.** With ``seat_views=True``, ``obs`` has shape ``(N, num_players, D)``:
row ``[i, p]`` is seat ``p``'s tensor (every seat sees the board at every step, as
PettingZoo's ``observe(agent)``); otherwise ``obs`` is ``(N, D)``, the seat to play's.

**Seeds.** ``reset(seed)`` seeds one generator per environment (``numpy.random.SeedSequence``);
each game's deal is drawn from it and kept in ``game_seed``, so game ``i`` is
``game.new_game(num_players, game_seed[i], **options)`` (``turn_cap`` for Duel) played
with the actions given: runs are reproducible per game, whatever
the number of environments.

**Arrays are reused.** The arrays of a :class:`Step` are the environment's own buffers,
overwritten by the next ``step`` or ``reset``: copy what you keep.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import encoding
from ..descriptor import Game
from ..game import get_game
from .batch_kernels import BATCH_RESET, BATCH_STEP, Arrays, Settings, random_actions
from .common import check_action, check_illegal, check_max_turns, new_state

__all__ = [
    "BatchedGames",
    "Step",
    "check_actions",
    "check_settings",
    "engine_state",
    "KernelCall",
    "environment_generators",
    "new_arrays",
]


@dataclass(frozen=True)
class Step:
    """What :meth:`BatchedGames.reset` and :meth:`BatchedGames.step` return: views of the
    environment's buffers (overwritten at the next call).

    Attributes:
        obs: float32, ``(N, D)`` the seat to play's observation tensor, or ``(N, P, D)``
            every seat's with ``seat_views`` (layout: :func:`splendor.rl.encoding.layout`).
        mask: bool, ``(N, A)``: the legal decisions of the seat to play.
        current: int8, ``(N,)``: the seat to play.
        rewards: float32, ``(N, P)``: every seat's reward for this step (terminal only).
        terminated: bool, ``(N,)``: game ``i`` ended at this step (and was dealt anew).
        truncated: bool, ``(N,)``: game ``i`` was cut short by ``max_turns`` at this step
            (and dealt anew); always False without ``max_turns``.
        illegal: bool, ``(N,)``: game ``i`` ended on an illegal action at this step
            (``illegal_action="terminate"``; also ``terminated``).
    """

    obs: np.ndarray
    mask: np.ndarray
    current: np.ndarray
    rewards: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    illegal: np.ndarray


def environment_generators(seed: int | Sequence[int] | None, num_envs: int) -> np.ndarray:
    """One splitmix64 generator state per environment (uint64, ``(num_envs,)``).

    Args:
        seed: an int ``>= 0`` (environment ``i`` gets word ``i`` of
            ``SeedSequence(seed).generate_state(num_envs)``), a sequence of ``num_envs``
            ints ``>= 0`` (environment ``i`` gets ``SeedSequence(seed[i])``'s first word),
            or None (drawn from the operating system).

    Raises:
        ValueError: a negative or non-integer seed, or a sequence of the wrong length.
    """
    if seed is None:
        seed = secrets.randbits(63)
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        if seed < 0:
            raise ValueError(f"seed must be >= 0, got {seed}")
        return np.random.SeedSequence(int(seed)).generate_state(num_envs, np.uint64)
    if isinstance(seed, (str, bytes)) or not isinstance(seed, (Sequence, np.ndarray)):
        raise ValueError(
            f"seed must be an int, a sequence of {num_envs} ints or None, got {seed!r}"
        )
    seeds = list(seed)
    if len(seeds) != num_envs:
        raise ValueError(f"seed must hold one int per environment ({num_envs}), got {len(seeds)}")
    out = np.empty(num_envs, dtype=np.uint64)
    for i, s in enumerate(seeds):
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 0:
            raise ValueError(f"seed[{i}] must be an int >= 0, got {s!r}")
        out[i] = np.random.SeedSequence(int(s)).generate_state(1, np.uint64)[0]
    return out


def check_actions(actions: Any, num_envs: int) -> np.ndarray:
    """``actions`` as an int64 array of shape ``(num_envs,)``.

    Raises:
        ValueError: not integers (floats and bools are refused), or the wrong shape.
    """
    a = np.asarray(actions)
    if a.shape != (num_envs,):
        raise ValueError(f"actions must have shape ({num_envs},), got {a.shape}")
    if a.dtype.kind not in "iu":
        raise ValueError(f"actions must be integer decision ids, got dtype {a.dtype}")
    return a.astype(np.int64, copy=False)


def check_settings(
    game: str | Game,
    num_envs: int,
    num_players: int,
    turn_cap: int | None,
    max_turns: int | None,
) -> Game:
    """Check the settings of a batch of games; return the game.

    Raises:
        ValueError: an unknown game, a player count the game does not allow, ``num_envs``
            not a positive integer, a turn cap the game does not have or other than a
            positive integer or None (D25), or ``max_turns`` other than a positive integer
            or None.
    """
    g = get_game(game)
    new_state(g, num_players, 0, turn_cap)  # the player count and turn cap, as every env
    if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
        raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
    check_max_turns(max_turns)
    return g


def new_arrays(game: Game, num_envs: int, views: int, size: int, reward_columns: int) -> Arrays:
    """The buffers of ``num_envs`` environments of ``game`` (zeros; the generators drawn
    from the operating system), with ``views`` observation tensors of ``size`` values per
    environment and ``reward_columns`` rewards (every seat's, or 1 for a learning seat's)."""
    n = num_envs
    return Arrays(
        states=np.zeros(n, dtype=game.state_dtype),
        rng=environment_generators(None, n),
        game_seed=np.zeros(n, dtype=np.int64),
        learner=np.zeros(n, dtype=np.int8),
        pending=np.zeros(n, dtype=np.bool_),
        obs=np.zeros((n, views, size), dtype=np.float32),
        mask=np.zeros((n, game.num_actions), dtype=np.bool_),
        current=np.zeros(n, dtype=np.int8),
        rewards=np.zeros((n, reward_columns), dtype=np.float32),
        terminated=np.zeros(n, dtype=np.bool_),
        truncated=np.zeros(n, dtype=np.bool_),
        illegal=np.zeros(n, dtype=np.bool_),
    )


class KernelCall:
    """Calls a game's compiled ``batch_kernels`` entry point on the same buffers every time
    (:class:`~splendor.rl.batch_kernels.Arrays`, settings, encoder arrays): through numba's
    dispatcher the first time, then through the machine code compiled for exactly these
    argument types, skipping the dispatcher's per-call typing (2-3 µs for the named tuples,
    about 0.3% of a batched step of 1,024 games).

    Attributes:
        actions: ``(N,)`` int64, the buffer the actions are copied into (always the same
            array, so that the argument types never change).
    """

    def __init__(self, game: Game, arrays: Arrays, settings: Settings, enc: tuple[Any, ...]):
        self._kernel = game.part("batch_kernels").run
        self._entry: Any = None
        self._arrays, self._settings, self._enc = arrays, settings, enc
        self.actions = np.zeros(len(arrays.states), dtype=np.int64)

    def __call__(self, op: int, actions: np.ndarray | None = None) -> int:
        """Run operation ``op`` (``batch_kernels.BATCH_RESET``...) with ``actions`` (checked
        ``(N,)`` integers; None for a reset); returns the operation's result."""
        if actions is not None:
            self.actions[:] = actions
        args = (op, self._arrays, self.actions, self._settings, self._enc)
        if self._entry is not None:
            return int(self._entry(*args))
        result = int(self._kernel(*args))
        self._entry = self._kernel
        overloads = getattr(self._kernel, "overloads", None)
        if overloads is not None:  # compiled (not NUMBA_DISABLE_JIT)
            from numba import typeof  # noqa: PLC0415 - only with the JIT

            found = overloads.get(tuple(typeof(x) for x in args))  # type: ignore[no-untyped-call]
            if found is not None:
                self._entry = found.entry_point
        return result


def engine_state(game: str | Game, states: np.ndarray, i: Any) -> Any:
    """A copy of game ``i`` of the state array ``states`` as the game's ``State``.

    Raises:
        IndexError: ``i`` is not ``0..len(states)-1``.
    """
    n = len(states)
    if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < n:
        raise IndexError(f"environment index must be 0..{n - 1}, got {i!r}")
    return get_game(game).state_type(states[i : i + 1].copy())


class BatchedGames:
    """``num_envs`` games of one kind, stepped together by compiled code (see the module
    docstring).

    Args:
        game: a name of :func:`splendor.game.get_game` (``"classic"``, ``"duel"``...) or a
            :class:`~splendor.descriptor.Game`.
        num_envs: the number of games played side by side, ``>= 1``.
        num_players: a player count of the game (2-4 for classic, 2 for Duel).
        seat_views: also observe every seat at every step (``obs`` ``(N, P, D)``).
        turn_cap: Duel only: a game ends with no winner after this many turns (D25).
        max_turns: cut a game short (``truncated``, rewards 0, the next game dealt) once
            this many turns were completed, outside the rules: a guard against policies
            that never end a game (taking and returning tokens for ever); None: no limit.
        seed: seeds the first :meth:`reset` (see :func:`environment_generators`).
        illegal_action: ``"terminate"`` (default: an illegal action ends its game with
            ``illegal_reward``) or ``"raise"`` (``ValueError``, no game moves); see the
            module docstring.
        illegal_reward: the reward of the seat that played an illegal action under
            ``"terminate"`` (default -1; the other seats get 0).

    Attributes:
        game: the game's package name (``"classic"`` or ``"duel"``).
        num_envs, num_players, turn_cap, max_turns, seat_views: as given.
        illegal_action, illegal_reward: as given.
        observation_size, num_actions: ``D`` and ``A``.
        game_seed: int64, ``(N,)``: the seed of each environment's current game.

    Raises:
        ValueError: an unknown game, a bad player count, ``num_envs``, turn cap or
            ``illegal_action``.
    """

    def __init__(
        self,
        game: str | Game = "classic",
        num_envs: int = 1024,
        num_players: int = 2,
        *,
        seat_views: bool = False,
        turn_cap: int | None = None,
        max_turns: int | None = None,
        seed: int | Sequence[int] | None = None,
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
    ) -> None:
        g = check_settings(game, num_envs, num_players, turn_cap, max_turns)
        self.illegal_action = check_illegal(illegal_action)
        self.illegal_reward = float(illegal_reward)
        self.game = g.package
        self.max_turns = None if max_turns is None else int(max_turns)
        self.num_envs = int(num_envs)
        self.num_players = int(num_players)
        self.seat_views = bool(seat_views)
        self.turn_cap = None if turn_cap is None else int(turn_cap)
        self.observation_size = encoding.observation_size(g, self.num_players)
        self.num_actions = g.num_actions
        self._enc = (encoding.field_offsets(g, self.num_players), *encoding.card_tables(g))
        n, p = self.num_envs, self.num_players
        views = p if self.seat_views else 1
        self._arrays = new_arrays(g, n, views, self.observation_size, p)
        self._arrays.rng[:] = environment_generators(seed, n)
        self.game_seed = self._arrays.game_seed
        self._settings = Settings(
            num_players=p,
            turn_cap=self.turn_cap or 0,
            max_turns=self.max_turns or 0,
            seat=-1,
            opponent=0,
            illegal_reward=self.illegal_reward,
            raise_illegal=self.illegal_action == "raise",
        )
        self._run = KernelCall(g, self._arrays, self._settings, self._enc)
        self._action_rng = np.zeros(1, dtype=np.uint64)
        self._actions = np.zeros(n, dtype=np.int64)
        a = self._arrays
        obs = a.obs if self.seat_views else a.obs.reshape(n, self.observation_size)
        self._step = Step(obs, a.mask, a.current, a.rewards, a.terminated, a.truncated, a.illegal)
        self._started = False

    def reset(self, seed: int | Sequence[int] | None = None) -> Step:
        """Deal a new game in every environment.

        Args:
            seed: reseeds every environment's generator (see
                :func:`environment_generators`); None keeps the generators as they are
                (the constructor's seed for the first reset).

        Raises:
            ValueError: a bad seed (nothing changes).
        """
        if seed is not None:
            self._arrays.rng[:] = environment_generators(seed, self.num_envs)
        self._action_rng[0] = self._arrays.rng[0] ^ np.uint64(0x2545F4914F6CDD1D)
        self._run(BATCH_RESET)
        self._started = True
        return self._step

    def step(self, actions: Any) -> Step:
        """Play ``actions[i]`` (a decision id) for the seat to play in every game ``i``.

        Raises:
            RuntimeError: before the first :meth:`reset`.
            ValueError: ``actions`` is not ``(num_envs,)`` integers (nothing changes), or,
                with ``illegal_action="raise"``, one is not a legal decision of its game;
                the message names the environment, the action and the legal ones. Nothing
                changes then, in any game.
        """
        if not self._started:
            raise RuntimeError("call reset() before step()")
        a = check_actions(actions, self.num_envs)
        bad = self._run(BATCH_STEP, a)
        if bad >= 0:
            raise ValueError(self._illegal_message(int(bad), int(a[bad])))
        return self._step

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal decision for every game (int64, ``(N,)``), drawn by
        compiled code from a generator seeded with the environments' (reused buffer)."""
        random_actions(self._arrays.mask, self._action_rng, self._actions)
        return self._actions

    def state(self, i: int) -> Any:
        """A copy of environment ``i``'s game as an engine ``State`` (to render, record or
        inspect it; changing it changes nothing here).

        Raises:
            IndexError: ``i`` is not ``0..num_envs-1``.
        """
        return engine_state(self.game, self._arrays.states, i)

    def _illegal_message(self, i: int, a: int) -> str:
        try:
            check_action(self.state(i), a)
        except ValueError as e:
            return f"environment {i}: {e}. No game moved."
        raise AssertionError(f"action {a} of environment {i} is legal")  # pragma: no cover
