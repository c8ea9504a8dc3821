"""Elo ratings: pairwise decomposition, Bradley-Terry fit, bootstrap intervals."""

from __future__ import annotations

import math

import numpy as np
import pytest

from splendor.arena.ratings import PRIOR_DRAWS, fit_strengths, game_matrix, rate, to_elo


def _game(bots, winner_seats, scores=None):
    scores = scores or [15 if s in winner_seats else 5 for s in range(len(bots))]
    return {"bots": list(bots), "scores": scores, "winners": list(winner_seats), "forfeit": None}


def test_pairwise_outcomes_follow_the_rules():
    # winner beats non-winner; non-winners by points; equal points draw
    m = game_matrix([0, 1, 2, 3], [15, 9, 9, 12], [0], 4)
    assert m[0, 1] == m[0, 2] == m[0, 3] == 1 and m[1:, 0].sum() == 0
    assert m[3, 1] == m[3, 2] == 1 and m[1, 3] == m[2, 3] == 0
    assert m[1, 2] == m[2, 1] == 0.5
    # two winners draw
    m = game_matrix([0, 1, 2], [15, 15, 3], [0, 1], 3)
    assert m[0, 1] == m[1, 0] == 0.5 and m[0, 2] == m[1, 2] == 1
    # a forfeiting seat loses to all, even with more points
    m = game_matrix([0, 1, 2], [10, 2, 2], [1, 2], 3, forfeit_seat=0)
    assert m[0].sum() == 0 and m[1, 0] == m[2, 0] == 1 and m[1, 2] == 0.5
    m = game_matrix([0, 1], [10, 2], [], 2, forfeit_seat=0)  # whatever the winners say
    assert m[0, 1] == 0 and m[1, 0] == 1
    # seats of the same bot are not compared
    m = game_matrix([0, 1, 0], [15, 5, 3], [0], 2)
    assert m[0, 0] == 0 and m[0, 1] == 1 and m[1, 0] == 1  # bot 1 beat the seat-2 copy
    # no winner (Duel turn cap): points decide
    m = game_matrix([1, 0], [7, 9], [], 2)
    assert m[0, 1] == 1 and m[1, 0] == 0


def test_two_bots_match_the_closed_form():
    games = [_game([0, 1], [0])] * 30 + [_game([1, 0], [0])] * 20  # bot 0 wins 30 of 50
    r = rate(games, 2, bootstrap=0)
    half = PRIOR_DRAWS / 2
    expected = 400 * math.log10((30 + half) / (20 + half))
    assert r.elo[0] - r.elo[1] == pytest.approx(expected, abs=1e-6)
    assert r.elo.mean() == pytest.approx(1500)


def test_a_stronger_bot_gets_a_higher_rating_inside_its_interval():
    rng = np.random.default_rng(1)
    true = np.array([1300.0, 1500.0, 1700.0])
    games = []
    for _ in range(200):
        for a, b in [(0, 1), (1, 2), (0, 2)]:
            p = 1 / (1 + 10 ** ((true[b] - true[a]) / 400))
            games.append(_game([a, b], [0] if rng.random() < p else [1]))
    r = rate(games, 3, bootstrap=300, seed=0)
    assert r.elo[0] < r.elo[1] < r.elo[2]
    assert np.all(r.low <= r.elo) and np.all(r.elo <= r.high) and np.all(r.low < r.high)
    assert np.all(np.abs(r.elo - true) < 100)
    again = rate(games, 3, bootstrap=300, seed=0)
    assert np.array_equal(again.low, r.low) and np.array_equal(again.high, r.high)


def test_symmetric_results_give_equal_ratings():
    games = [_game([0, 1], [0])] * 10 + [_game([0, 1], [1])] * 10
    r = rate(games, 2, bootstrap=50)
    assert r.elo == pytest.approx([1500, 1500], abs=1e-6)
    # rock-paper-scissors: each beats the next as often as it loses to the previous
    cyc = [_game([0, 1], [0]), _game([1, 2], [0]), _game([2, 0], [0])] * 5
    assert rate(cyc, 3, bootstrap=0).elo == pytest.approx([1500] * 3, abs=1e-6)


def test_perfect_records_stay_finite():
    games = [_game([0, 1], [0]), _game([1, 0], [1])] * 20  # bot 0 always wins
    r = rate(games, 2, bootstrap=100)
    assert np.all(np.isfinite(r.elo)) and np.all(np.isfinite(r.low)) and np.all(np.isfinite(r.high))
    assert r.elo[0] > 1900 > 1100 > r.elo[1]
    h = r.head_to_head()
    assert h[0, 1] == 1.0 and h[1, 0] == 0.0 and np.isnan(h[0, 0])


def test_batched_fit_equals_single_fits():
    S = np.array([[[0, 7, 3], [2, 0, 5], [1, 4, 0]], [[0, 1, 1], [9, 0, 2], [4, 6, 0]]], float)
    both = fit_strengths(S)
    for i in range(2):
        assert fit_strengths(S[i]) == pytest.approx(both[i], abs=1e-9)
    assert to_elo(both).mean(axis=1) == pytest.approx([1500, 1500])
    with pytest.raises(ValueError):
        fit_strengths(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="out of range"):
        rate([_game([0, 5], [0])], 2)
