"""Compiled information-set search guided by a policy + value network (issue 17).

The same tree and determinizations as :mod:`splendor.bots.search` (SO-ISMCTS: every
iteration deals the cards the searching seat cannot see at random, consistent with its
observation, C16 / D22), but AlphaZero's selection and evaluation instead of playouts:

1. *Determinization*, as in :mod:`splendor.bots.search`.
2. *Selection* by PUCT among the children whose decision is legal in this determinization:
   ``Q + c * P * sqrt(A) / (1 + n)``, where ``Q`` is the mean reward of the seat that made
   the decision (0.5 before any visit), ``P`` the network's prior of the decision, ``A`` the
   child's availability (the iterations in which it was legal) and ``n`` its visits.
3. *Expansion and evaluation*: the first node reached without children gets one child per
   legal decision, with the network's policy as priors; the network's value of that
   position (each seat's expected reward, :mod:`splendor.bots.network`) is the iteration's
   reward, or with ``mix > 0`` a blend ``(1 - mix) * value + mix * playout`` with the
   reward of a playout from that position (AlphaGo's mixed evaluation; the playouts of
   :mod:`splendor.bots.search`: greedy to the end of the game in classic Splendor, the
   heuristic for ``max_playout`` decisions in Duel, then the evaluation of
   :mod:`splendor.bots.playout`). With ``mix = 1`` the network's value plays no part,
   so a new node is first evaluated by a playout alone and gets its children (and the
   network's priors) on its second visit: half the network's evaluations or fewer, as most
   nodes of a tree are visited once. A decision legal in this determinization but not in
   earlier ones gets a child with the network's prior of the current position. A finished
   game is scored by the game's rewards (1 shared by the winners). With ``lookahead = k``
   the value is read ``k`` decisions of the playout policy further on (the new node's
   priors are still those of its own position): a short look past the leaf that corrects
   the value where a decision is about to change it (a purchase within reach, say).
4. *Backpropagation*, as in :mod:`splendor.bots.search` (max-n: every seat its own reward).

The network reads the tensor of the seat to move in the determinization
(:func:`splendor.encoding.encode_classic`, with ``hide``), which hides what that seat may
not see.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numba.extending import overload

from .. import encoding as _encoding
from ..classic import rules as classic_rules
from ..duel import rules as duel_rules
from ..encoding import encode_classic, encode_duel
from ..jit import ENGINE_SOURCES, refresh_numba_cache, state_record
from . import features as _features
from . import greedy_compiled as _greedy_compiled
from . import network as _network
from . import playout as _playout
from . import search as _search
from .search import NO_NODE, T_ACTION, T_CHILD, T_PARENT, T_PLAYER, T_SIBLING

refresh_numba_cache(
    __file__,
    *ENGINE_SOURCES,
    _network.__file__,
    _features.__file__,
    _search.__file__,
    _encoding.__file__,
    _playout.__file__,
    _greedy_compiled.__file__,
)

S_VISITS = 0
S_AVAIL = 1
S_REWARD = 2
S_PRIOR = 3
S_FIELDS = 4


def new_tree(capacity: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Empty tree arrays for at most ``capacity`` nodes, as
    :func:`splendor.bots.search.new_tree` with a fourth row of ``stats``: the prior.

    Raises:
        ValueError: ``capacity`` below 1.
    """
    links, _stats3, size = _search.new_tree(capacity)
    stats = np.zeros((S_FIELDS, capacity), dtype=np.float64)  # touches no memory until used
    return links, stats, size


@njit(cache=True)
def _add_children(
    links: np.ndarray,
    stats: np.ndarray,
    size: np.ndarray,
    node: int,
    mask: np.ndarray,
    prior: np.ndarray,
) -> bool:
    """Give ``node`` a child for every legal decision of ``mask`` it has none for, with its
    ``prior``. Returns False when the tree is full (some may be missing then)."""
    for a in range(mask.shape[0]):
        if not mask[a]:
            continue
        seen = False
        ch = links[T_CHILD, node]
        while ch != NO_NODE:
            if links[T_ACTION, ch] == a:
                seen = True
                break
            ch = links[T_SIBLING, ch]
        if seen:
            continue
        new = _search.append_child(links, stats, size, node, a)
        if new == NO_NODE:
            return False
        stats[S_PRIOR, new] = prior[a]
    return True


@njit(cache=True)
def _missing(links: np.ndarray, node: int, mask: np.ndarray, n_legal: int) -> bool:
    """Whether a legal decision of ``mask`` has no child of ``node``."""
    have = 0
    ch = links[T_CHILD, node]
    while ch != NO_NODE:
        if mask[links[T_ACTION, ch]]:
            have += 1
        ch = links[T_SIBLING, ch]
    return have < n_legal


@njit(cache=True)
def _select(links: np.ndarray, stats: np.ndarray, node: int, mask: np.ndarray, c: float) -> int:
    """The legal child of ``node`` with the best PUCT score (module docstring); counts
    one availability for every legal child."""
    best = NO_NODE
    best_score = -1e300
    ch = links[T_CHILD, node]
    while ch != NO_NODE:
        if mask[links[T_ACTION, ch]]:
            stats[S_AVAIL, ch] += 1.0
            n = stats[S_VISITS, ch]
            q = stats[S_REWARD, ch] / n if n > 0.0 else 0.5
            score = q + c * stats[S_PRIOR, ch] * math.sqrt(stats[S_AVAIL, ch]) / (1.0 + n)
            if score > best_score:
                best_score = score
                best = ch
        ch = links[T_SIBLING, ch]
    return best


@njit(cache=True)
def _evaluate(  # pragma: no cover - compiled
    work: np.ndarray,
    mover: np.int64,
    mask: np.ndarray,
    x: np.ndarray,
    off: np.ndarray,
    policy: np.ndarray,
    value: np.ndarray,
    weights: tuple[np.ndarray, ...],
    features: np.ndarray,
    table_a: np.ndarray,
    table_b: np.ndarray,
) -> None:
    """The network's ``policy`` (over ``mask``) and ``value`` (relative to ``mover``) of
    the position ``work``, read from the tensor of ``mover`` (reach features appended when
    ``features`` is a plan)."""
    w1, b1, w2, b2, wp, bp, wv, bv, scale = weights
    x[:] = 0.0
    _encode_view(work, mover, x, off, table_a, table_b)
    if features.shape[0] > 0:
        n_in = features[_features.PLAN_SIZE]
        _features.reach_features(x[:n_in], features, x[n_in:])
    _network.forward(x, w1, b1, w2, b2, wp, bp, wv, bv, scale, mask, policy, value)


@njit(cache=True)
def _look_ahead(  # pragma: no cover - compiled
    work: np.ndarray,
    mask: np.ndarray,
    reward: np.ndarray,
    lookahead: int,
    rng: np.ndarray,
    x: np.ndarray,
    off: np.ndarray,
    policy: np.ndarray,
    value: np.ndarray,
    weights: tuple[np.ndarray, ...],
    features: np.ndarray,
    legal_mask: _search.LegalMaskFn,
    apply: _search.ApplyFn,
    rewards: _search.RewardsFn,
    table_a: np.ndarray,
    table_b: np.ndarray,
    playout_policy: _search.PolicyFn,
) -> None:
    """Play ``work`` on by the playout policy for ``lookahead`` decisions, then write into
    ``reward`` the network's value of the position reached (seat-indexed), or the game's
    rewards if it ended (module docstring, ``lookahead``)."""
    n_seats = reward.shape[0]
    if not _search.advance(work, mask, lookahead, rng, legal_mask, apply, playout_policy):
        rewards(work, reward)
        return
    if legal_mask(work, mask) == 0:
        for p in range(n_seats):
            reward[p] = 0.0
        return
    mover = np.int64(state_record(work).current)
    _evaluate(work, mover, mask, x, off, policy, value, weights, features, table_a, table_b)
    for p in range(n_seats):
        reward[p] = value[(p - mover + n_seats) % n_seats]


@njit(cache=True)
def _iterate_net(
    obs: np.ndarray,
    work: np.ndarray,
    mask: np.ndarray,
    reward: np.ndarray,
    links: np.ndarray,
    stats: np.ndarray,
    size: np.ndarray,
    iterations: int,
    c: float,
    rng: np.ndarray,
    x: np.ndarray,
    off: np.ndarray,
    policy: np.ndarray,
    value: np.ndarray,
    weights: tuple[np.ndarray, ...],
    features: np.ndarray,
    legal_mask: _search.LegalMaskFn,
    apply: _search.ApplyFn,
    determinize_into: _search.DeterminizeFn,
    rewards: _search.RewardsFn,
    table_a: np.ndarray,
    table_b: np.ndarray,
    mix: float,
    max_playout: int,
    lookahead: int,
    playout_policy: _search.PolicyFn,
    evaluate: _search.RewardsFn,
) -> int:
    """Run ``iterations`` iterations (module docstring) from observation ``obs``; returns
    how many ran (fewer when the tree is full), or -1 if a determinization failed."""
    n_seats = reward.shape[0]
    blend = np.zeros(n_seats)
    done = 0
    for _ in range(iterations):
        if determinize_into(obs, work, rng) < 0:
            return -1
        s = state_record(work)
        node = 0
        full = False
        while True:
            if s.current < 0:
                rewards(work, reward)
                break
            n_legal = legal_mask(work, mask)
            if n_legal == 0:
                for p in range(n_seats):
                    reward[p] = 0.0
                break
            player = np.int64(s.current)
            leaf = links[T_CHILD, node] == NO_NODE
            if leaf and mix >= 1.0 and node != 0 and stats[S_VISITS, node] < 1.0:
                # playouts alone evaluate: a node is expanded on its second visit only
                _search.play_out(
                    work,
                    mask,
                    reward,
                    max_playout,
                    rng,
                    legal_mask,
                    apply,
                    rewards,
                    playout_policy,
                    evaluate,
                )
                break
            if leaf or _missing(links, node, mask, n_legal):
                _evaluate(
                    work, player, mask, x, off, policy, value, weights, features, table_a, table_b
                )
                if not _add_children(links, stats, size, node, mask, policy):
                    full = True
                if leaf:
                    if lookahead == 0:
                        for p in range(n_seats):
                            reward[p] = value[(p - player + n_seats) % n_seats]
                    else:  # the value a few playout decisions further on
                        _look_ahead(
                            work,
                            mask,
                            reward,
                            lookahead,
                            rng,
                            x,
                            off,
                            policy,
                            value,
                            weights,
                            features,
                            legal_mask,
                            apply,
                            rewards,
                            table_a,
                            table_b,
                            playout_policy,
                        )
                    if mix > 0.0:
                        _search.play_out(
                            work,
                            mask,
                            blend,
                            max_playout,
                            rng,
                            legal_mask,
                            apply,
                            rewards,
                            playout_policy,
                            evaluate,
                        )
                        for p in range(n_seats):
                            reward[p] = (1.0 - mix) * reward[p] + mix * blend[p]
                    break
            nxt = _select(links, stats, node, mask, c)
            if nxt == NO_NODE:  # the tree is full and no legal child exists
                full = True
                for p in range(n_seats):
                    reward[p] = 0.0
                break
            links[T_PLAYER, nxt] = player
            apply(work, links[T_ACTION, nxt])
            node = nxt
        while node > 0:
            stats[S_VISITS, node] += 1.0
            stats[S_REWARD, node] += reward[links[T_PLAYER, node]]
            node = links[T_PARENT, node]
        stats[S_VISITS, 0] += 1.0
        done += 1
        if full:
            return done
    return done


def _encode_view(
    arr: np.ndarray,
    me: int | np.int64,
    x: np.ndarray,
    off: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
) -> None:
    """Seat ``me``'s tensor of the full state ``arr`` into ``x``, hiding what it may not see
    (compiled: the game's encoder is picked from ``arr``'s record type)."""
    raise NotImplementedError("compiled only")


@overload(_encode_view)
def _encode_view_impl(arr, me, x, off, a, b):  # type: ignore[no-untyped-def]
    # (no annotations: numba compares this signature with the implementations' own)
    if "board" in arr.dtype.fields:  # a Splendor Duel state

        def duel_view(arr, me, x, off, a, b):  # type: ignore[no-untyped-def]  # pragma: no cover
            encode_duel(arr, me, True, x, off, a, b)

        return duel_view

    def classic_view(arr, me, x, off, a, b):  # type: ignore[no-untyped-def]  # pragma: no cover
        encode_classic(arr, me, True, x, off, a, b)

    return classic_view


@njit(cache=True)
def net_search_classic(
    obs: np.ndarray,
    work: np.ndarray,
    mask: np.ndarray,
    reward: np.ndarray,
    links: np.ndarray,
    stats: np.ndarray,
    size: np.ndarray,
    iterations: int,
    c: float,
    rng: np.ndarray,
    x: np.ndarray,
    off: np.ndarray,
    policy: np.ndarray,
    value: np.ndarray,
    weights: tuple[np.ndarray, ...],
    features: np.ndarray,
    tables: tuple[np.ndarray, np.ndarray],
    mix: float,
    max_playout: int,
    lookahead: int,
) -> int:
    """:func:`_iterate_net` for classic Splendor (``x``: the tensor buffer, ``off``: the
    field offsets of :func:`splendor.encoding.field_offsets`; ``policy`` and ``value``:
    buffers of the network's outputs; ``weights``: :meth:`PolicyValueNet.arrays`;
    ``features``: :func:`splendor.bots.features.search_plan` (empty: no reach features;
    ``x`` then holds the tensor only);
    ``tables``: :func:`splendor.encoding.card_tables`; ``mix``: the playouts' weight in
    the evaluation, ``max_playout``: their length, module docstring; playouts are greedy's
    (:func:`splendor.bots.greedy_compiled.classic_greedy_policy`); ``lookahead``: the
    playout decisions played before the network's value is read, module docstring)."""
    return _iterate_net(
        obs,
        work,
        mask,
        reward,
        links,
        stats,
        size,
        iterations,
        c,
        rng,
        x,
        off,
        policy,
        value,
        weights,
        features,
        classic_rules.legal_mask,
        classic_rules.apply,
        classic_rules.determinize_into,
        classic_rules.rewards,
        tables[0],
        tables[1],
        mix,
        max_playout,
        lookahead,
        _greedy_compiled.classic_greedy_policy,
        _playout.classic_evaluate,
    )


@njit(cache=True)
def net_search_duel(
    obs: np.ndarray,
    work: np.ndarray,
    mask: np.ndarray,
    reward: np.ndarray,
    links: np.ndarray,
    stats: np.ndarray,
    size: np.ndarray,
    iterations: int,
    c: float,
    rng: np.ndarray,
    x: np.ndarray,
    off: np.ndarray,
    policy: np.ndarray,
    value: np.ndarray,
    weights: tuple[np.ndarray, ...],
    features: np.ndarray,
    tables: tuple[np.ndarray, np.ndarray],
    mix: float,
    max_playout: int,
    lookahead: int,
) -> int:
    """:func:`_iterate_net` for Splendor Duel (arguments as :func:`net_search_classic`;
    playouts by the heuristic of :func:`splendor.bots.playout.duel_policy`)."""
    return _iterate_net(
        obs,
        work,
        mask,
        reward,
        links,
        stats,
        size,
        iterations,
        c,
        rng,
        x,
        off,
        policy,
        value,
        weights,
        features,
        duel_rules.legal_mask,
        duel_rules.apply,
        duel_rules.determinize_into,
        duel_rules.rewards,
        tables[0],
        tables[1],
        mix,
        max_playout,
        lookahead,
        _playout.duel_policy,
        _playout.duel_evaluate,
    )


__all__ = ["S_FIELDS", "S_PRIOR", "net_search_classic", "net_search_duel", "new_tree"]
