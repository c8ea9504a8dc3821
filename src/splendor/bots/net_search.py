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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias

import numpy as np
from numba import njit

from .. import encoding as _encoding
from ..classic import rules as classic_rules
from ..duel import rules as duel_rules
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
    str(Path(_encoding.__file__).parent),  # a package: every encoding module
    _playout.__file__,
    _greedy_compiled.__file__,
    str(Path(__file__).with_name("greedy_duel_compiled.py")),
    str(Path(__file__).with_name("greedy_duel.py")),
)

S_VISITS = 0
S_AVAIL = 1
S_REWARD = 2
S_PRIOR = 3
S_FIELDS = 4

EncodeFn: TypeAlias = Callable[..., None]
"""A game's compiled encoder, ``encode(arr, me, hide, out, off, table1, table2)``
(:class:`splendor.encoding.GameEncoding`)."""


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


NetScratch: TypeAlias = tuple[
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    tuple[np.ndarray, ...],
    np.ndarray,
    tuple[np.ndarray, np.ndarray],
]
"""``(x, off, policy, value, weights, features, tables)``: the network's input buffer
(float32, the tensor then the reach features), the field offsets of
:func:`splendor.encoding.field_offsets`, buffers of its outputs (float64, one per decision
and one per seat), its arrays (:meth:`PolicyValueNet.arrays`), the reach-feature plan of
:func:`splendor.bots.features.search_plan` (empty: no reach features) and the encoder's
tables (:func:`splendor.encoding.card_tables`)."""

NetSettings: TypeAlias = tuple[int, float, float, int, int]
"""``(iterations, c, mix, max_playout, lookahead)``: the iterations to run, the PUCT
constant, the playouts' weight in the evaluation and their length, and the playout
decisions played before the network's value is read (module docstring)."""


@njit(cache=False, inline="always")  # inlined: the network tuple is not copied per call
def _evaluate(  # pragma: no cover - compiled
    work: np.ndarray,
    mover: np.int64,
    mask: np.ndarray,
    net: NetScratch,
    encode: EncodeFn,
) -> None:
    """The network's ``policy`` (over ``mask``) and ``value`` (relative to ``mover``) of
    the position ``work`` into the buffers of ``net``, read from the tensor of ``mover``
    (``encode`` hides what that seat may not see; reach features appended when ``net``'s
    plan asks for them)."""
    x, off, policy, value, weights, features, tables = net
    w1, b1, w2, b2, wp, bp, wv, bv, scale = weights
    x[:] = 0.0
    encode(work, mover, True, x, off, tables[0], tables[1])
    if features.shape[0] > 0:
        n_in = features[_features.PLAN_SIZE]
        _features.reach_features(x[:n_in], features, x[n_in:])
    _network.forward(x, w1, b1, w2, b2, wp, bp, wv, bv, scale, mask, policy, value)


@njit(cache=False)  # takes compiled functions: cached in each game's entry point
def _value_ahead(  # pragma: no cover - compiled
    work: np.ndarray,
    mask: np.ndarray,
    reward: np.ndarray,
    lookahead: int,
    rng: np.ndarray,
    net: NetScratch,
    legal_mask: _search.LegalMaskFn,
    apply: _search.ApplyFn,
    rewards: _search.RewardsFn,
    encode: EncodeFn,
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
    _evaluate(work, mover, mask, net, encode)
    value = net[3]
    for p in range(n_seats):
        reward[p] = value[(p - mover + n_seats) % n_seats]


@njit(cache=False, inline="always")  # inlined: its caller's arguments are not copied
def _leaf_reward(  # pragma: no cover - compiled
    work: np.ndarray,
    player: np.int64,
    mask: np.ndarray,
    reward: np.ndarray,
    net: NetScratch,
    settings: NetSettings,
    rng: np.ndarray,
    legal_mask: _search.LegalMaskFn,
    apply: _search.ApplyFn,
    rewards: _search.RewardsFn,
    encode: EncodeFn,
    playout_policy: _search.PolicyFn,
    evaluate: _search.RewardsFn,
) -> None:
    """The reward of a new node whose network evaluation (of ``player``, to move) is in
    ``net``'s buffers: its value, or the value ``lookahead`` decisions on, blended with a
    playout's reward when ``mix > 0`` (module docstring, step 3)."""
    _, _, mix, max_playout, lookahead = settings
    n_seats = reward.shape[0]
    if lookahead == 0:
        value = net[3]
        for p in range(n_seats):
            reward[p] = value[(p - player + n_seats) % n_seats]
    else:  # the value a few playout decisions further on
        _value_ahead(
            work, mask, reward, lookahead, rng, net, legal_mask, apply, rewards, encode,
            playout_policy,
        )  # fmt: skip
    if mix > 0.0:
        blend = np.zeros(n_seats)
        _search.play_out(
            work, mask, blend, max_playout, rng, legal_mask, apply, rewards, playout_policy,
            evaluate,
        )  # fmt: skip
        for p in range(n_seats):
            reward[p] = (1.0 - mix) * reward[p] + mix * blend[p]


@njit(cache=False, inline="always")  # inlined: its caller's arguments are not copied
def _descend(  # pragma: no cover - compiled
    tree: _search.Tree,
    scratch: _search.Scratch,
    net: NetScratch,
    settings: NetSettings,
    rng: np.ndarray,
    legal_mask: _search.LegalMaskFn,
    apply: _search.ApplyFn,
    rewards: _search.RewardsFn,
    encode: EncodeFn,
    playout_policy: _search.PolicyFn,
    evaluate: _search.RewardsFn,
) -> tuple[int, bool]:
    """One iteration's selection, expansion and evaluation in the determinization of
    ``scratch`` (module docstring, steps 2 and 3): the reward goes into ``scratch``'s
    reward buffer. Returns the node reached and whether the tree is full."""
    links, stats, size = tree
    _, work, mask, reward = scratch
    c, mix, max_playout = settings[1], settings[2], settings[3]
    n_seats = reward.shape[0]
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
                work, mask, reward, max_playout, rng, legal_mask, apply, rewards,
                playout_policy, evaluate,
            )  # fmt: skip
            break
        if leaf or _missing(links, node, mask, n_legal):
            _evaluate(work, player, mask, net, encode)
            if not _add_children(links, stats, size, node, mask, net[2]):
                full = True
            if leaf:
                _leaf_reward(
                    work, player, mask, reward, net, settings, rng, legal_mask, apply,
                    rewards, encode, playout_policy, evaluate,
                )  # fmt: skip
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
    return node, full


@njit(cache=False)  # takes compiled functions: cached in each game's entry point
def _iterate_net(  # pragma: no cover - compiled
    tree: _search.Tree,
    scratch: _search.Scratch,
    net: NetScratch,
    settings: NetSettings,
    rng: np.ndarray,
    legal_mask: _search.LegalMaskFn,
    apply: _search.ApplyFn,
    determinize_into: _search.DeterminizeFn,
    rewards: _search.RewardsFn,
    encode: EncodeFn,
    playout_policy: _search.PolicyFn,
    evaluate: _search.RewardsFn,
) -> int:
    """Run ``settings``' iterations (module docstring) from the observation of ``scratch``
    (:data:`splendor.bots.search.Scratch`); returns how many ran (fewer when the tree is
    full), or -1 if a determinization failed."""
    links, stats, _ = tree
    obs, work, _, reward = scratch
    done = 0
    for _ in range(settings[0]):
        if determinize_into(obs, work, rng) < 0:
            return -1
        node, full = _descend(
            tree, scratch, net, settings, rng, legal_mask, apply, rewards, encode,
            playout_policy, evaluate,
        )  # fmt: skip
        while node > 0:
            stats[S_VISITS, node] += 1.0
            stats[S_REWARD, node] += reward[links[T_PLAYER, node]]
            node = links[T_PARENT, node]
        stats[S_VISITS, 0] += 1.0
        done += 1
        if full:
            return done
    return done


# The compiled entry point of each game: :func:`_iterate_net` with the game's rules,
# encoder, playout policy (the default of its ``"search"`` part) and evaluation fixed, so
# that numba can cache it (see the note before :func:`splendor.bots.search.search_classic`).


@njit(cache=True)
def net_search_classic(
    tree: _search.Tree,
    scratch: _search.Scratch,
    net: NetScratch,
    settings: NetSettings,
    rng: np.ndarray,
) -> int:
    """:func:`_iterate_net` for classic Splendor (``tree``: :func:`new_tree`; ``scratch``:
    :data:`splendor.bots.search.Scratch`; ``net``: :data:`NetScratch`; ``settings``:
    :data:`NetSettings`); playouts are greedy's
    (:func:`splendor.bots.greedy_compiled.classic_greedy_policy`)."""
    return _iterate_net(
        tree, scratch, net, settings, rng,
        classic_rules.legal_mask, classic_rules.apply, classic_rules.determinize_into,
        classic_rules.rewards, _encoding.encode_classic, _greedy_compiled.classic_greedy_policy,
        _playout.classic_evaluate,
    )  # fmt: skip


@njit(cache=True)
def net_search_duel(
    tree: _search.Tree,
    scratch: _search.Scratch,
    net: NetScratch,
    settings: NetSettings,
    rng: np.ndarray,
) -> int:
    """:func:`_iterate_net` for Splendor Duel (arguments as :func:`net_search_classic`;
    playouts by the heuristic of :func:`splendor.bots.playout.duel_policy`)."""
    return _iterate_net(
        tree, scratch, net, settings, rng,
        duel_rules.legal_mask, duel_rules.apply, duel_rules.determinize_into,
        duel_rules.rewards, _encoding.encode_duel, _playout.duel_policy, _playout.duel_evaluate,
    )  # fmt: skip


@dataclass(frozen=True)
class NetSearchPart:
    """A game's network search: its ``"net_search"`` part
    (:meth:`splendor.descriptor.Game.part`), which :class:`~splendor.bots.net_bot.NetBot`
    and the post-game analysis read.

    Attributes:
        run: the compiled search, ``run(tree, scratch, net, settings, rng) -> int``
            (:func:`net_search_classic`).
        analysis_mix: the weight of playouts in the evaluations of a post-game analysis
            (:mod:`splendor.analysis.engine`); None: the network's own play setting.
    """

    run: Callable[..., int]
    analysis_mix: float | None


CLASSIC_NET_SEARCH = NetSearchPart(net_search_classic, 0.5)
"""Classic Splendor's network search. Its network plays with ``mix = 0`` (its value after a
2-decision look-ahead), the stronger setting for choosing a move at 50 ms; but those values
judged greedy's moves better than those of ``mcts:50ms``, which wins 88% of their games.
Half the evaluation from greedy playouts to the end of the game grounds an analysis's
values in how games end, and its labels then rank the two levels the right way round
(``docs/analysis.md``, "Do the labels mean something?")."""

DUEL_NET_SEARCH = NetSearchPart(net_search_duel, None)
"""Splendor Duel's network search (its network plays and analyses with ``mix = 1``)."""


__all__ = [
    "CLASSIC_NET_SEARCH",
    "DUEL_NET_SEARCH",
    "S_FIELDS",
    "S_PRIOR",
    "NetScratch",
    "NetSearchPart",
    "NetSettings",
    "net_search_classic",
    "net_search_duel",
    "new_tree",
]
