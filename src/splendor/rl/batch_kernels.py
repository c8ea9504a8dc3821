"""The compiled kernels of the batched environments (:mod:`splendor.rl.batch`,
:mod:`splendor.rl.vector_env`): N games of one kind, stored side by side in one array of the
engine's ``STATE_DTYPE`` (shape ``(N,)``), stepped, ended, dealt anew and observed by one
compiled call, into arrays the caller allocated once.

Each kernel is written once for both games (``_batch_step``...), taking a game's pieces as
arguments: the rules' ``is_legal``, ``legal_mask`` and ``apply``, and the deal, outcome,
encoder and greedy scores below. As :func:`splendor.rule_pieces.random_playout_of`, they are inlined
(numba IR) into each game's cached entry points (``classic_batch_step``...), where the pieces
become plain calls; :data:`CLASSIC` and :data:`DUEL` list those entry points.

Conventions shared with the single-game interfaces (:mod:`splendor.rl.common`):

- the observation of a seat is :func:`splendor.encoding.encode_classic` /
  :func:`~splendor.encoding.encode_duel` of the full state with the other seats' blind
  reserves hidden (exactly ``observation_tensor(state.observation(seat))``, C16, D22);
- rewards are terminal only: ``1 / k`` to each of ``k`` winners (C15, D21), ``-1`` to the
  other seats, ``0`` to every seat when the game ends with no winner (Duel's turn cap, D25);
- game ``g`` of environment ``i`` is dealt by the engine's own ``setup`` with a seed drawn from
  environment ``i``'s generator (``rng[i]``, splitmix64), and that seed is kept in
  ``game_seed[i]``: ``classic.new_game(num_players, game_seed[i])`` (or ``duel.new_game(2,
  game_seed[i], turn_cap=...)``) deals the same game again (C18, D24).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from ..bots.greedy_compiled import classic_greedy_scores
from ..bots.greedy_duel_compiled import duel_greedy_scores
from ..bots.playout import best_scored
from ..classic import NUM_ACTIONS as CLASSIC_ACTIONS
from ..classic import rules as crules
from ..duel import NUM_ACTIONS as DUEL_ACTIONS
from ..duel import rules as drules
from ..encoding import encode_classic, encode_duel
from ..jit import ENGINE_SOURCES, refresh_numba_cache, state_record
from ..rng import random_legal_id, rng_below, rng_next

_SRC = Path(__file__).resolve().parent.parent
refresh_numba_cache(
    __file__,
    *ENGINE_SOURCES,
    str(_SRC / "encoding.py"),
    str(_SRC / "bots" / "greedy_compiled.py"),
    str(_SRC / "bots" / "greedy_duel_compiled.py"),
    str(_SRC / "bots" / "playout.py"),
)

__all__ = [
    "CLASSIC",
    "DUEL",
    "OPPONENT_GREEDY",
    "OPPONENT_RANDOM",
    "GameKernels",
    "classic_batch_reset",
    "classic_batch_step",
    "classic_seat_reset",
    "classic_seat_step",
    "duel_batch_reset",
    "duel_batch_step",
    "duel_seat_reset",
    "duel_seat_step",
    "random_actions",
]

OPPONENT_RANDOM = 0
"""Opponent code of the ``seat_reset`` and ``seat_step`` entry points: uniformly random
legal decisions."""
OPPONENT_GREEDY = 1
"""Opponent code of the ``seat_reset`` and ``seat_step`` entry points: the greedy bot's
best decision (its compiled scores, :mod:`splendor.bots.greedy_compiled`), ties broken at
random as ``GreedyBot`` does."""

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
# Written once for both games; ``deal``, ``is_legal``, ``legal_mask``, ``apply``,
# ``outcome``, ``encode`` and ``greedy_scores`` are a game's compiled pieces, ``ph_over``
# and ``num_actions`` its constants. Only inlined into the cached entry points below.


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
def _batch_reset(  # pragma: no cover - compiled
    states: np.ndarray,
    rng: np.ndarray,
    game_seed: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    current: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
    truncated: np.ndarray,
    num_players: int,
    turn_cap: int,
    off: np.ndarray,
    table1: np.ndarray,
    table2: np.ndarray,
    deal: Any,
    legal_mask: Any,
    encode: Any,
) -> None:
    for i in range(states.shape[0]):
        _deal_next(states, i, rng, game_seed, num_players, turn_cap, deal)
        rewards[i, :] = 0.0
        terminated[i] = False
        truncated[i] = False
        current[i] = _observe(states, i, -1, obs, mask, off, table1, table2, legal_mask, encode)


@njit(inline="always")
def _batch_step(  # pragma: no cover - compiled
    states: np.ndarray,
    actions: np.ndarray,
    rng: np.ndarray,
    game_seed: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    current: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
    truncated: np.ndarray,
    num_players: int,
    turn_cap: int,
    max_turns: int,
    off: np.ndarray,
    table1: np.ndarray,
    table2: np.ndarray,
    deal: Any,
    is_legal: Any,
    legal_mask: Any,
    apply: Any,
    outcome: Any,
    encode: Any,
    ph_over: int,
    num_actions: int,
) -> int:
    n = states.shape[0]
    for i in range(n):
        a = actions[i]
        if a < 0 or a >= num_actions or not is_legal(states[i : i + 1], a):
            return i
    for i in range(n):
        arr = states[i : i + 1]
        apply(arr, actions[i])
        over = state_record(arr).phase == ph_over
        terminated[i] = over
        truncated[i] = not over and max_turns > 0 and state_record(arr).turn >= max_turns
        if over:
            outcome(arr, rewards[i])
        else:
            rewards[i, :] = 0.0
        if terminated[i] or truncated[i]:
            _deal_next(states, i, rng, game_seed, num_players, turn_cap, deal)
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
            a = random_legal_id(scratch, n, rng)
        else:
            greedy_scores(arr, scratch, scores)
            a = best_scored(scratch, scores, rng)
        apply(arr, a)
        made += 1
    return made


@njit(inline="always")
def _seat_new_game(  # pragma: no cover - compiled
    states: np.ndarray,
    i: int,
    rng: np.ndarray,
    game_seed: np.ndarray,
    learner: np.ndarray,
    seat: int,
    num_players: int,
    turn_cap: int,
    opponent: int,
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
    _deal_next(states, i, rng, game_seed, num_players, turn_cap, deal)
    me = rng_below(rng[i : i + 1], num_players) if seat < 0 else seat
    learner[i] = me
    return _opponents_move(
        states[i : i + 1],
        me,
        opponent,
        rng[i : i + 1],
        scratch,
        scores,
        legal_mask,
        apply,
        greedy_scores,
        ph_over,
    )


@njit(inline="always")
def _seat_reset(  # pragma: no cover - compiled
    states: np.ndarray,
    rng: np.ndarray,
    game_seed: np.ndarray,
    learner: np.ndarray,
    pending: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    seat: int,
    num_players: int,
    turn_cap: int,
    opponent: int,
    off: np.ndarray,
    table1: np.ndarray,
    table2: np.ndarray,
    deal: Any,
    legal_mask: Any,
    apply: Any,
    encode: Any,
    greedy_scores: Any,
    ph_over: int,
    num_actions: int,
) -> int:
    scratch = np.zeros(num_actions, dtype=np.bool_)
    scores = np.zeros(num_actions)
    made = 0
    for i in range(states.shape[0]):
        made += _seat_new_game(
            states,
            i,
            rng,
            game_seed,
            learner,
            seat,
            num_players,
            turn_cap,
            opponent,
            scratch,
            scores,
            deal,
            legal_mask,
            apply,
            greedy_scores,
            ph_over,
        )
        pending[i] = False
        _observe(states, i, learner[i], obs, mask, off, table1, table2, legal_mask, encode)
    return made


@njit(inline="always")
def _seat_step(  # pragma: no cover - compiled
    states: np.ndarray,
    actions: np.ndarray,
    rng: np.ndarray,
    game_seed: np.ndarray,
    learner: np.ndarray,
    pending: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
    truncated: np.ndarray,
    illegal: np.ndarray,
    seat: int,
    num_players: int,
    turn_cap: int,
    max_turns: int,
    opponent: int,
    illegal_reward: float,
    off: np.ndarray,
    table1: np.ndarray,
    table2: np.ndarray,
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
    scratch = np.zeros(num_actions, dtype=np.bool_)
    scores = np.zeros(num_actions)
    result = np.zeros(num_players, dtype=np.float32)
    made = 0
    for i in range(states.shape[0]):
        rewards[i] = 0.0
        terminated[i] = False
        truncated[i] = False
        illegal[i] = False
        arr = states[i : i + 1]
        if pending[i]:
            made += _seat_new_game(
                states,
                i,
                rng,
                game_seed,
                learner,
                seat,
                num_players,
                turn_cap,
                opponent,
                scratch,
                scores,
                deal,
                legal_mask,
                apply,
                greedy_scores,
                ph_over,
            )
            pending[i] = False
        else:
            a = actions[i]
            if a < 0 or a >= num_actions or not is_legal(arr, a):
                illegal[i] = True
                terminated[i] = True
                rewards[i] = illegal_reward
                pending[i] = True
                continue
            apply(arr, a)
            made += _opponents_move(
                arr,
                learner[i],
                opponent,
                rng[i : i + 1],
                scratch,
                scores,
                legal_mask,
                apply,
                greedy_scores,
                ph_over,
            )
            if state_record(arr).phase == ph_over:
                outcome(arr, result)
                rewards[i] = result[learner[i]]
                terminated[i] = True
                pending[i] = True
            elif max_turns > 0 and state_record(arr).turn >= max_turns:
                truncated[i] = True
                pending[i] = True
        _observe(states, i, learner[i], obs, mask, off, table1, table2, legal_mask, encode)
    return made


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
        for a in range(row.shape[0]):
            if row[a]:
                n += 1
        out[i] = random_legal_id(row, n, rng)


@njit(cache=True)
def classic_batch_reset(  # pragma: no cover - compiled
    states: np.ndarray,
    rng: np.ndarray,
    game_seed: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    current: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
    truncated: np.ndarray,
    num_players: int,
    turn_cap: int,
    off: np.ndarray,
    table1: np.ndarray,
    table2: np.ndarray,
) -> None:
    """Classic Splendor: Deal a new game in every environment and observe it (rewards 0, nothing
    ended).

    Args:
        states: ``(N,)`` state array of the game's ``STATE_DTYPE`` (overwritten).
        rng: ``(N,)`` uint64, each environment's generator (advanced).
        game_seed: ``(N,)`` int64, set to each game's seed.
        obs: ``(N, V, D)`` float32: ``V`` 1 (the seat to play's tensor) or ``num_players``
            (every seat's, in seat order); ``mask``: ``(N, A)`` bool, the seat to play's legal
            decisions; ``current``: ``(N,)`` int8, the seat to play; ``rewards``:
            ``(N, num_players)`` float32; ``terminated``, ``truncated``: ``(N,)`` bool.
        num_players, turn_cap: the deal's settings (``turn_cap`` 0: none; Duel only, D25).
        off, table1, table2: the encoder's offsets and tables
            (:func:`splendor.encoding.field_offsets`, :func:`~splendor.encoding.card_tables`).
    """
    _batch_reset(
        states,
        rng,
        game_seed,
        obs,
        mask,
        current,
        rewards,
        terminated,
        truncated,
        num_players,
        turn_cap,
        off,
        table1,
        table2,
        _classic_deal,
        crules.legal_mask,
        encode_classic,
    )


@njit(cache=True)
def classic_batch_step(  # pragma: no cover - compiled
    states: np.ndarray,
    actions: np.ndarray,
    rng: np.ndarray,
    game_seed: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    current: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
    truncated: np.ndarray,
    num_players: int,
    turn_cap: int,
    max_turns: int,
    off: np.ndarray,
    table1: np.ndarray,
    table2: np.ndarray,
) -> int:
    """Classic Splendor: Play ``actions[i]`` for the seat to play in each game ``i``. A game that
    ends gets its terminal rewards and ``terminated`` True, and its environment's next game is
    dealt at once (same-step reset): ``obs``, ``mask`` and ``current`` are then the new game's.
    A game still going after ``max_turns`` completed turns (0: no limit) is cut short the same
    way, with ``truncated`` True and rewards 0.

    Every action is checked before any is played: when one is not a legal decision id of its
    game, nothing changes and its index is returned.

    Args:
        actions: ``(N,)`` int64 decision ids. max_turns: see above. The others: as the
            game's ``batch_reset``.

    Returns:
        -1 when every game moved, else the first environment whose action is not legal.
    """
    return _batch_step(
        states,
        actions,
        rng,
        game_seed,
        obs,
        mask,
        current,
        rewards,
        terminated,
        truncated,
        num_players,
        turn_cap,
        max_turns,
        off,
        table1,
        table2,
        _classic_deal,
        crules.is_legal,
        crules.legal_mask,
        crules.apply,
        _classic_outcome,
        encode_classic,
        crules.PH_OVER,
        CLASSIC_ACTIONS,
    )


@njit(cache=True)
def classic_seat_reset(  # pragma: no cover - compiled
    states: np.ndarray,
    rng: np.ndarray,
    game_seed: np.ndarray,
    learner: np.ndarray,
    pending: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    seat: int,
    num_players: int,
    turn_cap: int,
    opponent: int,
    off: np.ndarray,
    table1: np.ndarray,
    table2: np.ndarray,
) -> int:
    """Classic Splendor: Deal a new game in every environment for one learning seat against bots,
    and let the bots play up to its first decision.

    Args:
        learner: ``(N,)`` int8, set to each game's learning seat (``seat``, or drawn from the
            environment's generator when ``seat`` is -1).
        pending: ``(N,)`` bool, cleared (no game awaits its next-step reset).
        obs: ``(N, 1, D)`` float32, the learning seat's tensor; ``mask``: ``(N, A)`` bool.
        opponent: :data:`OPPONENT_RANDOM` or :data:`OPPONENT_GREEDY`.
        The others: as the game's ``batch_reset``.

    Returns:
        The number of decisions the bots made.
    """
    return _seat_reset(
        states,
        rng,
        game_seed,
        learner,
        pending,
        obs,
        mask,
        seat,
        num_players,
        turn_cap,
        opponent,
        off,
        table1,
        table2,
        _classic_deal,
        crules.legal_mask,
        crules.apply,
        encode_classic,
        classic_greedy_scores,
        crules.PH_OVER,
        CLASSIC_ACTIONS,
    )


@njit(cache=True)
def classic_seat_step(  # pragma: no cover - compiled
    states: np.ndarray,
    actions: np.ndarray,
    rng: np.ndarray,
    game_seed: np.ndarray,
    learner: np.ndarray,
    pending: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
    truncated: np.ndarray,
    illegal: np.ndarray,
    seat: int,
    num_players: int,
    turn_cap: int,
    max_turns: int,
    opponent: int,
    illegal_reward: float,
    off: np.ndarray,
    table1: np.ndarray,
    table2: np.ndarray,
) -> int:
    """Classic Splendor: One step of one learning seat against bots in every environment, with
    Gymnasium's next-step reset:

    - a game that ended at the previous step (``pending[i]``) is dealt anew instead, its action
      ignored: the learning seat's first observation, reward 0, not terminated;
    - otherwise ``actions[i]`` is played for the learning seat, then the bots play until it owes
      a decision again or the game is over. At the end: ``terminated``, the learning seat's
      terminal reward, its view of the final position and an all-False mask;
    - an action that is not legal (out of range included) ends the episode without changing the
      game: ``terminated``, ``illegal[i]`` True, reward ``illegal_reward``; ``obs`` and ``mask``
      stay those of the unchanged position;
    - a game still going after ``max_turns`` completed turns (0: no limit) is cut short:
      ``truncated``, reward 0, the learning seat's view of it.

    Args:
        rewards: ``(N,)`` float32; ``illegal``: ``(N,)`` bool. The others: as the game's
            ``seat_reset`` and ``batch_step``.

    Returns:
        The number of decisions the bots made.
    """
    return _seat_step(
        states,
        actions,
        rng,
        game_seed,
        learner,
        pending,
        obs,
        mask,
        rewards,
        terminated,
        truncated,
        illegal,
        seat,
        num_players,
        turn_cap,
        max_turns,
        opponent,
        illegal_reward,
        off,
        table1,
        table2,
        _classic_deal,
        crules.is_legal,
        crules.legal_mask,
        crules.apply,
        _classic_outcome,
        encode_classic,
        classic_greedy_scores,
        crules.PH_OVER,
        CLASSIC_ACTIONS,
    )


@njit(cache=True)
def duel_batch_reset(  # pragma: no cover - compiled
    states: np.ndarray,
    rng: np.ndarray,
    game_seed: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    current: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
    truncated: np.ndarray,
    num_players: int,
    turn_cap: int,
    off: np.ndarray,
    table1: np.ndarray,
    table2: np.ndarray,
) -> None:
    """Splendor Duel: as :func:`classic_batch_reset`."""
    _batch_reset(
        states,
        rng,
        game_seed,
        obs,
        mask,
        current,
        rewards,
        terminated,
        truncated,
        num_players,
        turn_cap,
        off,
        table1,
        table2,
        _duel_deal,
        drules.legal_mask,
        encode_duel,
    )


@njit(cache=True)
def duel_batch_step(  # pragma: no cover - compiled
    states: np.ndarray,
    actions: np.ndarray,
    rng: np.ndarray,
    game_seed: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    current: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
    truncated: np.ndarray,
    num_players: int,
    turn_cap: int,
    max_turns: int,
    off: np.ndarray,
    table1: np.ndarray,
    table2: np.ndarray,
) -> int:
    """Splendor Duel: as :func:`classic_batch_step`."""
    return _batch_step(
        states,
        actions,
        rng,
        game_seed,
        obs,
        mask,
        current,
        rewards,
        terminated,
        truncated,
        num_players,
        turn_cap,
        max_turns,
        off,
        table1,
        table2,
        _duel_deal,
        drules.is_legal,
        drules.legal_mask,
        drules.apply,
        _duel_outcome,
        encode_duel,
        drules.PH_OVER,
        DUEL_ACTIONS,
    )


@njit(cache=True)
def duel_seat_reset(  # pragma: no cover - compiled
    states: np.ndarray,
    rng: np.ndarray,
    game_seed: np.ndarray,
    learner: np.ndarray,
    pending: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    seat: int,
    num_players: int,
    turn_cap: int,
    opponent: int,
    off: np.ndarray,
    table1: np.ndarray,
    table2: np.ndarray,
) -> int:
    """Splendor Duel: as :func:`classic_seat_reset`."""
    return _seat_reset(
        states,
        rng,
        game_seed,
        learner,
        pending,
        obs,
        mask,
        seat,
        num_players,
        turn_cap,
        opponent,
        off,
        table1,
        table2,
        _duel_deal,
        drules.legal_mask,
        drules.apply,
        encode_duel,
        duel_greedy_scores,
        drules.PH_OVER,
        DUEL_ACTIONS,
    )


@njit(cache=True)
def duel_seat_step(  # pragma: no cover - compiled
    states: np.ndarray,
    actions: np.ndarray,
    rng: np.ndarray,
    game_seed: np.ndarray,
    learner: np.ndarray,
    pending: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
    truncated: np.ndarray,
    illegal: np.ndarray,
    seat: int,
    num_players: int,
    turn_cap: int,
    max_turns: int,
    opponent: int,
    illegal_reward: float,
    off: np.ndarray,
    table1: np.ndarray,
    table2: np.ndarray,
) -> int:
    """Splendor Duel: as :func:`classic_seat_step`."""
    return _seat_step(
        states,
        actions,
        rng,
        game_seed,
        learner,
        pending,
        obs,
        mask,
        rewards,
        terminated,
        truncated,
        illegal,
        seat,
        num_players,
        turn_cap,
        max_turns,
        opponent,
        illegal_reward,
        off,
        table1,
        table2,
        _duel_deal,
        drules.is_legal,
        drules.legal_mask,
        drules.apply,
        _duel_outcome,
        encode_duel,
        duel_greedy_scores,
        drules.PH_OVER,
        DUEL_ACTIONS,
    )


class GameKernels(NamedTuple):
    """One game's compiled entry points (:data:`CLASSIC`, :data:`DUEL`)."""

    batch_reset: Any
    batch_step: Any
    seat_reset: Any
    seat_step: Any


CLASSIC = GameKernels(
    classic_batch_reset, classic_batch_step, classic_seat_reset, classic_seat_step
)
"""Classic Splendor's entry points."""
DUEL = GameKernels(duel_batch_reset, duel_batch_step, duel_seat_reset, duel_seat_step)
"""Splendor Duel's entry points."""
