"""The Duel cut-off evaluation of the MCTS bot (splendor.bots.playout.duel_evaluate) and the
tool that fits its weights (tools/fit_duel_evaluation.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from splendor import duel
from splendor.bots.playout import DUEL_EVAL_TEMPO, DUEL_EVAL_WEIGHTS, duel_evaluate

_TOOL = Path(__file__).resolve().parents[2] / "tools" / "fit_duel_evaluation.py"


def _tool():
    spec = importlib.util.spec_from_file_location("fit_duel_evaluation", _TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _midgame(seed: int, decisions: int = 40) -> duel.State:
    st = duel.new_game(2, seed)
    rng = np.random.default_rng(seed)
    for _ in range(decisions):
        legal = st.legal_actions()
        st.apply(legal[int(rng.integers(len(legal)))])
        if st.is_terminal:
            break
    return st


def _evaluate(arr: np.ndarray) -> np.ndarray:
    out = np.zeros(2)
    duel_evaluate(arr, out)
    return out


@pytest.mark.parametrize("seed", range(5))
def test_rewards_are_probabilities_that_sum_to_one(seed):
    out = _evaluate(_midgame(seed).array)
    assert 0.0 < out[0] < 1.0
    assert out[0] + out[1] == pytest.approx(1.0)


def test_more_points_bonuses_or_crowns_are_better():
    st = _midgame(3)
    base = _evaluate(st.array)[0]
    for field, delta in (("points", 3), ("bonuses", 1), ("crowns", 2)):
        arr = st.array.copy()
        if field == "bonuses":
            arr[0]["bonuses"][0, 0] += delta
        else:
            arr[0][field][0] += delta
        assert _evaluate(arr)[0] > base, field


def test_mirrored_holdings_mirror_the_rewards():
    st = _midgame(4)
    arr = st.array.copy()
    for field in ("points", "crowns", "color_points", "bonuses", "tokens", "privileges"):
        arr[0][field][[0, 1]] = arr[0][field][[1, 0]]
    arr[0]["current"] = 1 - arr[0]["current"]
    a, b = _evaluate(st.array), _evaluate(arr)
    assert a[0] == pytest.approx(b[1]) and a[1] == pytest.approx(b[0])


def test_reads_no_hidden_information():
    """D22: another deal of the hidden cards, same information set, same rewards."""
    st = _midgame(6)
    seat = st.current_player
    other = duel.determinize(st.observation(seat), 9)
    assert other.to_dict() != st.to_dict()
    assert np.array_equal(_evaluate(st.array), _evaluate(other.array))


def test_fit_recovers_known_weights():
    tool = _tool()
    rng = np.random.default_rng(0)
    x = rng.normal(size=(20_000, 2, 6))
    truth = np.array([0.3, 1.5, -0.5, 0.2, 0.0, 1.0, -0.8])
    design = tool.design_matrix(x)
    y = (rng.random(len(x)) < 1 / (1 + np.exp(-design @ truth))).astype(float)
    assert np.allclose(tool.fit(design, y), truth, atol=0.1)


def test_shipped_weights_predict_greedy_self_play():
    """The shipped weights beat a constant guess on positions the fit never saw."""
    tool = _tool()
    x, y = tool.sample(400, seed=12345)
    w = np.concatenate([[DUEL_EVAL_TEMPO], DUEL_EVAL_WEIGHTS])
    p = 1 / (1 + np.exp(-tool.design_matrix(x) @ w))
    assert tool.log_loss(p, y) < tool.log_loss(np.full(len(y), 0.5), y) - 0.02
