"""The compiled classic greedy evaluation (splendor.bots.greedy_compiled): score for score
the same as GreedyBot's, blind to hidden information (C16), and a legal, seeded playout
policy for MCTS."""

from __future__ import annotations

import numpy as np
import pytest

from splendor import classic
from splendor.bots.greedy import ClassicEvaluator
from splendor.bots.greedy_compiled import classic_greedy_policy, classic_greedy_scores
from splendor.bots.mcts import MCTSBot
from splendor.classic import rules
from splendor.classic.actions import NUM_ACTIONS
from splendor.rng import seed_rng


def _compiled_scores(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    rules.legal_mask(arr, mask)
    out = np.zeros(NUM_ACTIONS)
    classic_greedy_scores(arr, mask, out)
    return mask, out


def _positions(games: int, seed: int):
    """Every decision of ``games`` games (2, 3 and 4 players), half greedy-best and half
    random moves so that all phases (returns, nobles, payments, the final round) occur."""
    rng = np.random.default_rng(seed)
    for g in range(games):
        st = classic.new_game(2 + g % 3, seed * 1000 + g)
        while not st.is_terminal:
            yield st
            legal = st.legal_actions()
            if rng.random() < 0.5:
                st.apply(legal[int(rng.integers(len(legal)))])
            else:
                scores = ClassicEvaluator(st.observation(st.current_player)).scores(legal)
                st.apply(legal[int(np.argmax(scores))])


def test_scores_equal_greedybot_for_every_legal_decision():
    compared = 0
    phases = set()
    for st in _positions(24, 1):
        legal = st.legal_actions()
        expected = ClassicEvaluator(st.observation(st.current_player)).scores(legal)
        mask, out = _compiled_scores(st.array)
        assert mask.sum() == len(legal)
        assert np.all(np.isneginf(out[~mask]))
        for a, v in zip(legal, expected, strict=True):
            assert out[a.id] == pytest.approx(v, abs=1e-9), (st.turn, str(a))
            compared += 1
        phases.add(st.phase)
    assert compared > 20_000
    assert {"main", "return tokens", "payment"} <= phases


def test_scores_read_no_hidden_information():
    """C16: a determinization (other decks, other blind reserves of the other seats) gives
    the same scores."""
    checked = 0
    for i, st in enumerate(_positions(6, 2)):
        if i % 7:
            continue
        seat = st.current_player
        other = classic.determinize(st.observation(seat), i)
        _, mine = _compiled_scores(st.array)
        _, theirs = _compiled_scores(other.array)
        assert np.array_equal(mine, theirs)
        checked += other.to_dict() != st.to_dict()
    assert checked > 10


def test_policy_is_legal_seeded_and_mostly_greedy():
    rng_a = np.zeros(1, dtype=np.uint64)
    rng_b = np.zeros(1, dtype=np.uint64)
    seed_rng(rng_a, 5)
    seed_rng(rng_b, 5)
    best = total = 0
    for st in _positions(6, 3):
        mask, out = _compiled_scores(st.array)
        n = int(mask.sum())
        a = classic_greedy_policy(st.array, mask, n, True, rng_a)
        assert a == classic_greedy_policy(st.array, mask, n, True, rng_b)
        assert mask[a]
        if n > 1:
            total += 1
            best += out[a] >= out[mask].max() - 1e-9
    # 1 in 16 decisions is uniformly random; the rest are greedy's best
    assert 0.85 * total < best < total


def test_mcts_offers_greedy_playouts_for_classic_only():
    st = classic.new_game(2, 4)
    legal = st.legal_actions()
    a = MCTSBot(iterations=300, seed=2, playout="greedy")
    b = MCTSBot(iterations=300, seed=2)  # classic's default playout is greedy
    assert a.choose(st.observation(0), legal) == b.choose(st.observation(0), legal)
    assert a.last.visits == b.last.visits
    c = MCTSBot(iterations=300, seed=2, playout="heuristic")
    c.choose(st.observation(0), legal)
    assert c.last.visits != a.last.visits
