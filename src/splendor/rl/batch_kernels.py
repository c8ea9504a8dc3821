"""The compiled kernels of the batched environments (:mod:`splendor.rl.batch`,
:mod:`splendor.rl.vector_env`): N games of one kind, stored side by side in one array of the
game's ``state_dtype`` (shape ``(N,)``), stepped, ended, dealt anew and observed by one
compiled call, into arrays the caller allocated once (:class:`Arrays`).

Each operation is written once for every game (``_batch_step``...), taking a game's pieces
as arguments: the rules' ``is_legal``, ``legal_mask`` and ``apply``, and the deal, outcome,
encoder and greedy scores. As :func:`splendor.rule_pieces.random_playout_of`, they are
inlined (numba IR) into one small cached entry point per game (:func:`classic_kernels`,
:func:`duel_kernels`), where the pieces become plain calls: numba can neither cache a
function handed dispatchers from Python nor inline a call through a function value, so
each game names its pieces once, there. The game declares its entry point as its
``"batch_kernels"`` part (:data:`CLASSIC`, :data:`DUEL`: :class:`GameKernels`).

Conventions shared with the single-game interfaces (:mod:`splendor.rl.common`):

- the observation of a seat is the game's compiled encoder (:mod:`splendor.encoding`) of
  the full state with the other seats' blind reserves hidden (exactly
  ``observation_tensor(state.observation(seat))``, C16, D22);
- rewards are terminal only: ``1 / k`` to each of ``k`` winners (C15, D21), ``-1`` to the
  other seats, ``0`` to every seat when the game ends with no winner (Duel's turn cap, D25);
- game ``g`` of environment ``i`` is dealt by the engine's own ``setup`` with a seed drawn from
  environment ``i``'s generator (``rng[i]``, splitmix64), and that seed is kept in
  ``game_seed[i]``: ``game.new_game(num_players, game_seed[i], **options)`` deals the same
  game again (C18, D24);
- an illegal action (out of range included) either stops the call before any game moves
  (``raise_illegal``: its environment is returned) or ends that episode without changing
  the game (``illegal[i]``, ``terminated[i]``, reward ``illegal_reward`` to the seat that
  played it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from ..bots.greedy_compiled import classic_greedy_scores
from ..bots.greedy_duel_compiled import duel_greedy_scores
from ..bots.playout import best_scored
from ..classic import rules as crules
from ..classic.actions import NUM_ACTIONS as CLASSIC_ACTIONS
from ..duel import rules as drules
from ..duel.actions import NUM_ACTIONS as DUEL_ACTIONS
from ..encoding.classic import encode_classic
from ..encoding.duel import encode_duel
from ..jit import ENGINE_SOURCES, refresh_numba_cache, state_record
from ..rng import random_legal_id, rng_below, rng_next

_SRC = Path(__file__).resolve().parent.parent
refresh_numba_cache(
    __file__,
    *ENGINE_SOURCES,
    str(_SRC / "encoding"),
    str(_SRC / "bots" / "greedy_compiled.py"),
    str(_SRC / "bots" / "greedy_duel_compiled.py"),
    str(_SRC / "bots" / "playout.py"),
)

__all__ = [
    "BATCH_RESET",
    "BATCH_STEP",
    "CLASSIC",
    "DUEL",
    "OPPONENT_GREEDY",
    "OPPONENT_RANDOM",
    "SEAT_RESET",
    "SEAT_STEP",
    "Arrays",
    "GameKernels",
    "Settings",
    "classic_kernels",
    "duel_kernels",
    "random_actions",
]

OPPONENT_RANDOM = 0
"""Opponent code of :data:`SEAT_RESET` and :data:`SEAT_STEP`: uniformly random legal
decisions."""
OPPONENT_GREEDY = 1
"""Opponent code of :data:`SEAT_RESET` and :data:`SEAT_STEP`: the greedy bot's best
decision (the game's compiled ``"greedy_scores"`` part), ties broken at random as
``GreedyBot`` does."""

BATCH_RESET = 0
"""Operation: deal a new game in every environment and observe it (rewards 0, nothing
ended); ``obs`` ``(N, V, D)`` holds the seat to play's tensor (``V`` 1) or every seat's, in
seat order (``V`` ``num_players``); ``current`` the seat to play. Returns -1."""
BATCH_STEP = 1
"""Operation: play ``actions[i]`` for the seat to play in each game ``i``. A game that ends
gets its terminal rewards (``rewards[i]``, one per seat) and ``terminated``, and its
environment's next game is dealt at once (same-step reset): ``obs``, ``mask`` and
``current`` are then the new game's. A game still going after ``max_turns`` completed turns
(0: no limit) is cut short the same way, with ``truncated`` and rewards 0. An illegal
action: see the module docstring (``illegal_reward`` to the seat to play, the next game
dealt at once). Returns -1, or with ``raise_illegal`` the first environment whose action is
not legal (nothing changed then)."""
SEAT_RESET = 2
"""Operation: deal a new game in every environment for one learning seat (``seat``, or
drawn from the environment's generator when ``seat`` is -1, into ``learner``) against bots
(``opponent``), and let the bots play up to its first decision; ``pending`` is cleared,
``obs`` ``(N, 1, D)`` is the learning seat's tensor. Returns the bots' decisions."""
SEAT_STEP = 3
"""Operation: one step of the learning seat against bots in every environment, with
Gymnasium's next-step reset:

- a game that ended at the previous step (``pending[i]``) is dealt anew instead, its action
  ignored: the learning seat's first observation, reward 0, not terminated;
- otherwise ``actions[i]`` is played for the learning seat, then the bots play until it owes
  a decision again or the game is over. At the end: ``terminated``, the learning seat's
  terminal reward (``rewards[i, 0]``), its view of the final position and an all-False mask;
- an action that is not legal (out of range included) ends the episode without changing the
  game: ``terminated``, ``illegal[i]``, reward ``illegal_reward``; ``obs`` and ``mask`` stay
  those of the unchanged position (with ``raise_illegal``, nothing changes anywhere and
  ``-1 - i`` is returned for the first such environment ``i``);
- a game still going after ``max_turns`` completed turns (0: no limit) is cut short:
  ``truncated``, reward 0, the learning seat's view of it.

Returns the bots' decisions."""


class Arrays(NamedTuple):
    """The buffers of N environments, allocated once by the caller (one row per
    environment); a field an operation does not use may be any array of its dtype.

    Attributes:
        states: ``(N,)`` the game's ``state_dtype``.
        rng: ``(N,)`` uint64, each environment's generator (advanced).
        game_seed: ``(N,)`` int64, the seed of each environment's current game.
        learner: ``(N,)`` int8, the learning seat of each game (seat operations).
        pending: ``(N,)`` bool, the game ended at the last step (seat operations).
        obs: ``(N, V, D)`` float32 observation tensors.
        mask: ``(N, A)`` bool, the legal decisions of the seat to play (the learning seat).
        current: ``(N,)`` int8, the seat to play (batch operations).
        rewards: ``(N, P)`` float32 every seat's (batch), ``(N, 1)`` the learning seat's.
        terminated, truncated, illegal: ``(N,)`` bool, what happened at the last call.
    """

    states: np.ndarray
    rng: np.ndarray
    game_seed: np.ndarray
    learner: np.ndarray
    pending: np.ndarray
    obs: np.ndarray
    mask: np.ndarray
    current: np.ndarray
    rewards: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    illegal: np.ndarray


class Settings(NamedTuple):
    """The scalar settings of a call.

    Attributes:
        num_players: the deal's player count.
        turn_cap: the deal's turn cap (D25), 0 for none (games without one ignore it).
        max_turns: cut a game short after this many completed turns, 0 for no limit.
        seat: the learning seat, -1 to draw one per game (seat operations).
        opponent: :data:`OPPONENT_RANDOM` or :data:`OPPONENT_GREEDY` (seat operations).
        illegal_reward: the reward of an illegal action that ends its episode.
        raise_illegal: stop before any game moves on an illegal action instead.
    """

    num_players: int
    turn_cap: int
    max_turns: int
    seat: int
    opponent: int
    illegal_reward: float
    raise_illegal: bool


# ------------------------------------------------------------------------------ per game


@njit(cache=True)
def _classic_deal(  # pragma: no cover - compiled
    arr: np.ndarray, num_players: int, turn_cap: int, seed: int
) -> None:
    """Deal a classic game into ``arr`` (C1-C5); ``turn_cap`` is unused."""
    crules.setup(arr, num_players, seed)


@njit(cache=True)
def _duel_deal(  # pragma: no cover - compiled
    arr: np.ndarray, num_players: int, turn_cap: int, seed: int
) -> None:
    """Deal a Duel game into ``arr`` (D1-D5); ``turn_cap`` 0 for none (D25)."""
    drules.setup(arr, seed, turn_cap)


@njit(cache=True)
def _classic_outcome(arr: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover - compiled
    """Terminal reward of each seat of a finished classic game into ``out`` (one per seat):
    ``1 / k`` to each of the ``k`` winners by C15, ``-1`` to the others."""
    won = np.zeros(4, dtype=np.bool_)
    k = crules.winners_mask(arr, won)
    for p in range(out.shape[0]):
        out[p] = 1.0 / k if won[p] else -1.0


@njit(cache=True)
def _duel_outcome(arr: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover - compiled
    """Terminal reward of each seat of a finished Duel game into ``out`` (shape ``(2,)``):
    ``+1`` to the winner (D21), ``-1`` to the other, ``0`` each after a turn cap (D25)."""
    w = state_record(arr).winner
    for p in range(out.shape[0]):
        out[p] = 0.0 if w < 0 else (1.0 if p == w else -1.0)


# ------------------------------------------------------------------------------ generic
#
# Written once for every game; ``deal``, ``is_legal``, ``legal_mask``, ``apply``,
# ``outcome``, ``encode`` and ``greedy_scores`` are a game's compiled pieces, ``ph_over``
# and ``num_actions`` its constants. Only inlined into the cached entry points below.
#
# Each operation unpacks the buffers (Arrays) and the encoder's arrays once, at its top, and
# hands the helpers plain arrays: an array taken out of a tuple is reference-counted where
# it is taken out, so taking it out in the loop over games (in a helper handed the tuple)
# cost 5-6% of a batched step.


@njit(inline="always")
def _deal_next(  # pragma: no cover - compiled
    states: np.ndarray,
    i: int,
    rng: np.ndarray,
    game_seed: np.ndarray,
    num_players: int,
    turn_cap: int,
    deal: Any,
) -> None:
    """Deal environment ``i``'s next game with a seed drawn from its generator."""
    seed = np.int64(rng_next(rng[i : i + 1]) >> np.uint64(1))
    game_seed[i] = seed
    deal(states[i : i + 1], num_players, turn_cap, seed)


@njit(inline="always")
def _observe(  # pragma: no cover - compiled
    states: np.ndarray,
    i: int,
    viewer: int,
    obs: np.ndarray,
    mask: np.ndarray,
    off: np.ndarray,
    table1: np.ndarray,
    table2: np.ndarray,
    legal_mask: Any,
    encode: Any,
) -> int | np.int64:
    """Fill row ``i`` of ``mask`` (the legal decisions of the seat to play, all False once
    over) and of ``obs``: ``obs[i, 0]`` is seat ``viewer``'s tensor, or, with ``viewer``
    -1, the seat to play's (``obs.shape[1] == 1``), or every seat's in seat order
    (``obs.shape[1] == num_players``). Returns the seat to play (-1 once over)."""
    arr = states[i : i + 1]
    cur = np.int64(state_record(arr).current)
    legal_mask(arr, mask[i])
    views = obs.shape[1]
    for v in range(views):
        row = obs[i, v]
        row[:] = 0.0
        me = v if views > 1 else (viewer if viewer >= 0 else cur)
        if me >= 0:
            encode(arr, me, True, row, off, table1, table2)
    return cur


@njit(inline="always")
def _illegal(  # pragma: no cover - compiled
    states: np.ndarray, actions: np.ndarray, i: int, is_legal: Any, num_actions: int
) -> bool:
    """Whether ``actions[i]`` is not a legal decision of game ``i`` (out of range included)."""
    act = actions[i]
    return act < 0 or act >= num_actions or not is_legal(states[i : i + 1], act)


@njit(inline="always")
def _batch_reset(  # pragma: no cover - compiled
    a: Arrays, s: Settings, enc: Any, deal: Any, legal_mask: Any, encode: Any
) -> int:
    states, rng, game_seed, _, _, obs, mask, current, rewards, terminated, truncated, illegal = a
    off, table1, table2 = enc
    for i in range(states.shape[0]):
        _deal_next(states, i, rng, game_seed, s.num_players, s.turn_cap, deal)
        rewards[i, :] = 0.0
        terminated[i] = False
        truncated[i] = False
        illegal[i] = False
        current[i] = _observe(states, i, -1, obs, mask, off, table1, table2, legal_mask, encode)
    return -1


@njit(inline="always")
def _batch_step(  # pragma: no cover - compiled
    a: Arrays,
    actions: np.ndarray,
    s: Settings,
    enc: Any,
    deal: Any,
    is_legal: Any,
    legal_mask: Any,
    apply: Any,
    outcome: Any,
    encode: Any,
    ph_over: int,
    num_actions: int,
) -> int:
    states, rng, game_seed, _, _, obs, mask, current, rewards, terminated, truncated, illegal = a
    off, table1, table2 = enc
    max_turns = s.max_turns
    n = states.shape[0]
    for i in range(n):
        bad = _illegal(states, actions, i, is_legal, num_actions)
        if bad and s.raise_illegal:
            return i
        illegal[i] = bad
    for i in range(n):
        arr = states[i : i + 1]
        if illegal[i]:
            rewards[i, :] = 0.0
            rewards[i, current[i]] = s.illegal_reward
            terminated[i] = True
            truncated[i] = False
        else:
            apply(arr, actions[i])
            over = state_record(arr).phase == ph_over
            terminated[i] = over
            truncated[i] = not over and max_turns > 0 and state_record(arr).turn >= max_turns
            if over:
                outcome(arr, rewards[i])
            else:
                rewards[i, :] = 0.0
        if terminated[i] or truncated[i]:
            _deal_next(states, i, rng, game_seed, s.num_players, s.turn_cap, deal)
        current[i] = _observe(states, i, -1, obs, mask, off, table1, table2, legal_mask, encode)
    return -1


@njit(inline="always")
def _opponents_move(  # pragma: no cover - compiled
    arr: np.ndarray,
    me: int,
    opponent: int,
    rng: np.ndarray,
    scratch: np.ndarray,
    scores: np.ndarray,
    legal_mask: Any,
    apply: Any,
    greedy_scores: Any,
    ph_over: int,
) -> int:
    """The other seats play until seat ``me`` owes a decision or the game is over; returns
    how many decisions they made."""
    made = 0
    while state_record(arr).phase != ph_over and state_record(arr).current != me:
        n = legal_mask(arr, scratch)
        if opponent == OPPONENT_RANDOM or n == 1:
            act = random_legal_id(scratch, n, rng)
        else:
            greedy_scores(arr, scratch, scores)
            act = best_scored(scratch, scores, rng)
        apply(arr, act)
        made += 1
    return made


@njit(inline="always")
def _seat_new_game(  # pragma: no cover - compiled
    states: np.ndarray,
    i: int,
    rng: np.ndarray,
    game_seed: np.ndarray,
    learner: np.ndarray,
    pending: np.ndarray,
    s: Settings,
    scratch: np.ndarray,
    scores: np.ndarray,
    deal: Any,
    legal_mask: Any,
    apply: Any,
    greedy_scores: Any,
    ph_over: int,
) -> int:
    """Deal environment ``i``'s next game, draw the learning seat when ``seat`` is -1, and
    let the other seats play up to its first decision; returns their decisions."""
    _deal_next(states, i, rng, game_seed, s.num_players, s.turn_cap, deal)
    me = rng_below(rng[i : i + 1], s.num_players) if s.seat < 0 else s.seat
    learner[i] = me
    pending[i] = False
    return _opponents_move(
        states[i : i + 1], me, s.opponent, rng[i : i + 1], scratch, scores, legal_mask, apply,
        greedy_scores, ph_over,
    )  # fmt: skip


@njit(inline="always")
def _seat_reset(  # pragma: no cover - compiled
    a: Arrays,
    s: Settings,
    enc: Any,
    deal: Any,
    legal_mask: Any,
    apply: Any,
    encode: Any,
    greedy_scores: Any,
    ph_over: int,
    num_actions: int,
) -> int:
    states, rng, game_seed, learner, pending, obs, mask, _, _, _, _, _ = a
    off, table1, table2 = enc
    scratch = np.zeros(num_actions, dtype=np.bool_)
    scores = np.zeros(num_actions)
    made = 0
    for i in range(states.shape[0]):
        made += _seat_new_game(
            states, i, rng, game_seed, learner, pending, s, scratch, scores, deal, legal_mask,
            apply, greedy_scores, ph_over,
        )  # fmt: skip
        _observe(states, i, learner[i], obs, mask, off, table1, table2, legal_mask, encode)
    return made


@njit(inline="always")
def _seat_play(  # pragma: no cover - compiled
    arr: np.ndarray,
    me: int,
    act: int,
    rng: np.ndarray,
    s: Settings,
    scratch: np.ndarray,
    scores: np.ndarray,
    result: np.ndarray,
    legal_mask: Any,
    apply: Any,
    outcome: Any,
    greedy_scores: Any,
    ph_over: int,
) -> tuple[int, int, float]:
    """Play the legal ``act`` for the learning seat ``me`` of the game ``arr``, then the
    bots. Returns the bots' decisions, 1 when the game ended (``result``: every seat's
    reward), 2 when it was cut short by ``max_turns``, else 0, and the learning seat's
    reward."""
    apply(arr, act)
    made = _opponents_move(
        arr, me, s.opponent, rng, scratch, scores, legal_mask, apply, greedy_scores, ph_over
    )
    if state_record(arr).phase == ph_over:
        outcome(arr, result)
        return made, 1, result[me]
    if s.max_turns > 0 and state_record(arr).turn >= s.max_turns:
        return made, 2, 0.0
    return made, 0, 0.0


@njit(inline="always")
def _seat_step(  # pragma: no cover - compiled
    a: Arrays,
    actions: np.ndarray,
    s: Settings,
    enc: Any,
    deal: Any,
    is_legal: Any,
    legal_mask: Any,
    apply: Any,
    outcome: Any,
    encode: Any,
    greedy_scores: Any,
    ph_over: int,
    num_actions: int,
) -> int:
    (
        states,
        rng,
        game_seed,
        learner,
        pending,
        obs,
        mask,
        _,
        rewards,
        terminated,
        truncated,
        illegal,
    ) = a
    off, table1, table2 = enc
    n = states.shape[0]
    if s.raise_illegal:
        for i in range(n):
            if not pending[i] and _illegal(states, actions, i, is_legal, num_actions):
                return -1 - i
    scratch = np.zeros(num_actions, dtype=np.bool_)
    scores = np.zeros(num_actions)
    result = np.zeros(s.num_players, dtype=np.float32)
    made = 0
    for i in range(n):
        rewards[i, 0] = 0.0
        terminated[i] = False
        truncated[i] = False
        illegal[i] = False
        if pending[i]:
            made += _seat_new_game(
                states, i, rng, game_seed, learner, pending, s, scratch, scores, deal,
                legal_mask, apply, greedy_scores, ph_over,
            )  # fmt: skip
        elif _illegal(states, actions, i, is_legal, num_actions):
            illegal[i] = True
            terminated[i] = True
            rewards[i, 0] = s.illegal_reward
            pending[i] = True
            continue
        else:
            bots, end, reward = _seat_play(
                states[i : i + 1], learner[i], actions[i], rng[i : i + 1], s, scratch, scores,
                result, legal_mask, apply, outcome, greedy_scores, ph_over,
            )  # fmt: skip
            made += bots
            rewards[i, 0] = reward
            terminated[i] = end == 1
            truncated[i] = end == 2
            pending[i] = end != 0
        _observe(states, i, learner[i], obs, mask, off, table1, table2, legal_mask, encode)
    return made


@njit(inline="always")
def _run(  # pragma: no cover - compiled
    op: int,
    a: Arrays,
    actions: np.ndarray,
    s: Settings,
    enc: Any,
    deal: Any,
    is_legal: Any,
    legal_mask: Any,
    apply: Any,
    outcome: Any,
    encode: Any,
    greedy_scores: Any,
    ph_over: int,
    num_actions: int,
) -> int:
    """Operation ``op`` (:data:`BATCH_RESET`...) with a game's pieces."""
    if op == BATCH_STEP:
        return _batch_step(
            a, actions, s, enc, deal, is_legal, legal_mask, apply, outcome, encode, ph_over,
            num_actions,
        )  # fmt: skip
    if op == SEAT_STEP:
        return _seat_step(
            a, actions, s, enc, deal, is_legal, legal_mask, apply, outcome, encode,
            greedy_scores, ph_over, num_actions,
        )  # fmt: skip
    if op == BATCH_RESET:
        return _batch_reset(a, s, enc, deal, legal_mask, encode)
    return _seat_reset(
        a, s, enc, deal, legal_mask, apply, encode, greedy_scores, ph_over, num_actions
    )


# ------------------------------------------------------------------------------ entry points


@njit(cache=True)
def random_actions(  # pragma: no cover - compiled
    mask: np.ndarray, rng: np.ndarray, out: np.ndarray
) -> None:
    """A uniformly random legal decision of each row of ``mask`` (``(N, A)`` bool) into
    ``out`` (``(N,)`` int64), drawn with ``rng`` (``(1,)`` uint64, advanced); -1 for a row
    with no legal decision."""
    for i in range(mask.shape[0]):
        row = mask[i]
        n = 0
        for k in range(row.shape[0]):
            if row[k]:
                n += 1
        out[i] = random_legal_id(row, n, rng)


@njit(cache=True)
def classic_kernels(  # pragma: no cover - compiled
    op: int, a: Arrays, actions: np.ndarray, s: Settings, enc: Any
) -> int:
    """Classic Splendor: operation ``op`` (:data:`BATCH_RESET`, :data:`BATCH_STEP`,
    :data:`SEAT_RESET`, :data:`SEAT_STEP`: their docstrings say what each does and
    returns) on the environments of ``a``.

    Args:
        op: the operation.
        a: the buffers (:class:`Arrays`).
        actions: ``(N,)`` int64 decision ids (read by the steps only).
        s: the settings (:class:`Settings`).
        enc: ``(offsets, table1, table2)`` of the encoder
            (:func:`splendor.encoding.field_offsets`, :func:`~splendor.encoding.card_tables`).
    """
    return _run(
        op, a, actions, s, enc, _classic_deal, crules.is_legal, crules.legal_mask,
        crules.apply, _classic_outcome, encode_classic, classic_greedy_scores, crules.PH_OVER,
        CLASSIC_ACTIONS,
    )  # fmt: skip


@njit(cache=True)
def duel_kernels(  # pragma: no cover - compiled
    op: int, a: Arrays, actions: np.ndarray, s: Settings, enc: Any
) -> int:
    """Splendor Duel: as :func:`classic_kernels`."""
    return _run(
        op, a, actions, s, enc, _duel_deal, drules.is_legal, drules.legal_mask, drules.apply,
        _duel_outcome, encode_duel, duel_greedy_scores, drules.PH_OVER, DUEL_ACTIONS,
    )  # fmt: skip


class GameKernels(NamedTuple):
    """One game's compiled entry point, its ``"batch_kernels"`` part (:data:`CLASSIC`,
    :data:`DUEL`).

    Attributes:
        run: ``run(op, arrays, actions, settings, enc) -> int`` (:func:`classic_kernels`).
    """

    run: Any


CLASSIC = GameKernels(classic_kernels)
"""Classic Splendor's entry point (its ``"batch_kernels"`` part)."""
DUEL = GameKernels(duel_kernels)
"""Splendor Duel's entry point (its ``"batch_kernels"`` part)."""
