"""The search guided by a policy + value network (:mod:`splendor.bots.net_search`, issue
17): the tree it grows from a seat's observation (never the true state, C16 / D22)."""

from __future__ import annotations

import numpy as np
import pytest

from splendor import classic, duel
from splendor.bots import net_search
from splendor.bots.features import search_plan
from splendor.bots.network import PolicyValueNet
from splendor.bots.search import NO_NODE, T_ACTION, T_CHILD, T_PARENT, T_SIBLING
from splendor.encoding import card_tables, field_offsets
from splendor.game import get_game
from splendor.rng import seed_rng


def _search(
    game: str,
    observation,
    net: PolicyValueNet,
    iterations: int,
    capacity: int,
    mix: float = 0.0,
    max_playout: int = 1 << 30,
    lookahead: int = 0,
):
    g = get_game(game)
    kernel = g.part("net_search").run
    obs = observation.array
    n = observation.num_players
    links, stats, size = net_search.new_tree(capacity)
    rng = np.zeros(1, np.uint64)
    seed_rng(rng, 11)
    done = kernel(
        (links, stats, size),
        (obs, np.zeros(1, dtype=obs.dtype), np.zeros(g.num_actions, np.bool_), np.zeros(n)),
        (
            np.zeros(net.input_size, np.float32),
            field_offsets(game, n),
            np.zeros(g.num_actions),
            np.zeros(n),
            net.arrays(),
            search_plan(game, n, net.features),
            card_tables(game),
        ),
        (iterations, 1.5, mix, max_playout, lookahead),
        rng,
    )
    return done, links, stats, int(size[0])


def _children(links, node: int) -> list[int]:
    out, ch = [], int(links[T_CHILD, node])
    while ch != NO_NODE:
        out.append(ch)
        ch = int(links[T_SIBLING, ch])
    return out


@pytest.mark.parametrize(
    "game, players, features",
    [("classic", 2, False), ("classic", 3, False), ("duel", 2, False)]
    + [("classic", 2, True), ("classic", 4, True), ("duel", 2, True)],
)
def test_the_tree_follows_the_rules_and_the_networks_priors(
    game: str, players: int, features: bool
) -> None:
    """The priors at the root are the network's policy of the observation, reach features
    included when the network reads them (computed inside the compiled search)."""
    module = classic if game == "classic" else duel
    net = PolicyValueNet.initial(game, players, hidden=(32, 16), seed=2, features=features)
    rng = np.random.default_rng(4)
    state = module.new_game(players, seed=5)
    for _ in range(20):  # a position in the game, not only the deal
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    seat = state.current_player
    done, links, stats, size = _search(game, state.observation(seat), net, 300, 200_000)
    assert done == 300 and stats[0, 0] == 300
    root = _children(links, 0)
    # the root's children: the legal decisions of the seat, with the network's policy
    assert sorted(int(links[T_ACTION, c]) for c in root) == sorted(
        a.id for a in state.legal_actions()
    )
    policy, _ = net.evaluate(state, seat)  # what the seat sees is the same in every deal
    for c in root:
        assert stats[net_search.S_PRIOR, c] == pytest.approx(policy[links[T_ACTION, c]])
    assert sum(stats[net_search.S_PRIOR, c] for c in root) == pytest.approx(1.0)
    # visits add up, every mean reward is a reward (in [0, 1])
    assert sum(stats[0, c] for c in root) == done - 1  # the first iteration evaluates the root
    for node in range(1, size):
        assert int(links[T_PARENT, node]) < node
        if stats[0, node]:
            assert 0.0 <= stats[2, node] / stats[0, node] <= 1.0
    # the most visited decision at the root is legal
    best = max(root, key=lambda c: stats[0, c])
    assert state.legal_mask()[links[T_ACTION, best]]


def test_a_full_tree_stops_the_search() -> None:
    net = PolicyValueNet.initial("classic", 2, hidden=(8, 4))
    state = classic.new_game(2, seed=1)
    done, _links, _stats, size = _search("classic", state.observation(0), net, 10_000, 200)
    assert 0 < done < 10_000 and size <= 200


@pytest.mark.parametrize("game, depth", [("classic", 1 << 30), ("duel", 16)])
def test_with_mix_1_playouts_alone_evaluate(game: str, depth: int) -> None:
    """``mix`` weighs playouts against the network's value (AlphaGo's mixed evaluation): at
    1 the value head plays no part, at 0 it is the whole evaluation."""
    module = classic if game == "classic" else duel
    net = PolicyValueNet.initial(game, 2, hidden=(32, 16), seed=2)
    other = PolicyValueNet(**{**net.__dict__, "wv": net.wv * 5 + 0.3, "bv": net.bv + 1.0})
    state = module.new_game(2, seed=6)
    obs = state.observation(state.current_player)

    def tree(n: PolicyValueNet, mix: float) -> np.ndarray:
        _done, _links, stats, size = _search(game, obs, n, 200, 50_000, mix, depth)
        return stats[:, :size]

    assert np.array_equal(tree(net, 1.0), tree(other, 1.0))
    assert not np.array_equal(tree(net, 0.0), tree(other, 0.0))
    assert not np.array_equal(tree(net, 0.5), tree(net, 0.0))


def test_with_mix_1_a_node_gets_children_on_its_second_visit() -> None:
    net = PolicyValueNet.initial("classic", 2, hidden=(32, 16), seed=2)
    state = classic.new_game(2, seed=6)
    obs = state.observation(state.current_player)
    _done, links, stats, size = _search("classic", obs, net, 300, 100_000, 1.0)
    expanded = [v for v in range(1, size) if links[T_CHILD, v] != NO_NODE]
    assert expanded and all(stats[0, v] >= 2 for v in expanded)
    assert all(stats[0, v] <= 1 for v in range(1, size) if links[T_CHILD, v] == NO_NODE)
    # a blend needs the value at the first visit: every visited node has children
    _done, links, stats, blended = _search("classic", obs, net, 300, 100_000, 0.99)
    assert blended > 2 * size


@pytest.mark.parametrize("game", ["classic", "duel"])
def test_the_lookahead_reads_the_value_further_on(game: str) -> None:
    """A network whose value says "the seat to move wins": without lookahead a new child
    of the root (the opponent to move) is a loss for the root's seat; one decision later
    (the root's seat to move again) a win."""
    from dataclasses import replace

    module = classic if game == "classic" else duel
    net = PolicyValueNet.initial(game, 2, hidden=(16, 8), seed=2)
    bv = np.array([8.0, -8.0], np.float32)
    net = replace(net, wv=np.zeros_like(net.wv), bv=bv)
    state = module.new_game(2, seed=5)
    obs = state.observation(state.current_player)
    means = {}
    for lookahead in (0, 1):  # the root's expansion, then one new child evaluated
        _, links, stats, _ = _search(game, obs, net, 2, 20_000, lookahead=lookahead)
        kids = [k for k in _children(links, 0) if stats[0, k] > 0]
        assert len(kids) == 1 and stats[0, kids[0]] == 1.0
        means[lookahead] = stats[2, kids[0]]
    assert means[0] < 0.01 and means[1] > 0.99
