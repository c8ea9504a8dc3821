"""Training the network by self-play (:mod:`splendor.train`, issue 17): a tiny run end to
end (CI never trains more), its resumption after an interruption, its determinism, the
examples it learns from, and the torch weights against the compiled forward pass."""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from typer.testing import CliRunner  # noqa: E402

from splendor import classic, duel  # noqa: E402
from splendor.bots.network import PolicyValueNet, forward  # noqa: E402
from splendor.cli import app  # noqa: E402
from splendor.encoding import seat_tensor  # noqa: E402
from splendor.train.fit import _torch_net, fit  # noqa: E402
from splendor.train.loop import TrainConfig, train  # noqa: E402
from splendor.train.selfplay import Examples, self_play  # noqa: E402

TINY = {
    "hidden": (16, 8),
    "games": 2,
    "search": 8,
    "steps": 3,
    "batch": 32,
    "max_decisions": 60,
    "eval_every": 2,
    "eval_games": 2,
}


@pytest.mark.parametrize("game", ["classic", "duel"])
def test_self_play_examples_are_what_the_search_saw(game: str) -> None:
    net = PolicyValueNet.initial(game, 2, hidden=(16, 8), seed=1)
    examples, actions, winners = self_play(net, iterations=8, seed=3, max_decisions=80)
    assert 0 < len(examples) <= len(actions) <= 80
    assert np.allclose(examples.pi.sum(axis=1), 1.0)
    assert not (examples.pi * ~examples.mask).any()  # visits only on legal decisions
    assert np.allclose(examples.z.sum(axis=1), 1.0)
    # the first example is the first searched position, seen by its mover
    module = classic if game == "classic" else duel
    state = module.new_game(2, 3)
    assert np.array_equal(examples.x[0], seat_tensor(state, state.current_player))
    # the same seed, the same game
    again = self_play(net, iterations=8, seed=3, max_decisions=80)
    assert again[1] == actions and np.array_equal(again[0].pi, examples.pi)


def test_torch_weights_are_the_compiled_networks() -> None:
    net = PolicyValueNet.initial("classic", 3, hidden=(16, 8), seed=2)
    module = _torch_net(net)
    state = classic.new_game(3, seed=4)
    x = seat_tensor(state, 0)
    mask = state.legal_mask()
    policy, value = np.zeros(mask.shape[0]), np.zeros(3)
    forward(x, *net.arrays(), mask, policy, value)
    with torch.no_grad():
        h = torch.relu(module["l2"](torch.relu(module["l1"](torch.from_numpy(x / net.scale)))))
        p = torch.softmax(module["policy"](h).masked_fill(~torch.from_numpy(mask), -1e9), 0)
        v = torch.softmax(module["value"](h), 0)
    np.testing.assert_allclose(policy, p.numpy(), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(value, v.numpy(), rtol=1e-4, atol=1e-6)
    with pytest.raises(ValueError, match="no examples"):
        empty = Examples(*(np.zeros((0, 1)) for _ in range(4)))
        fit(net, empty, steps=1)


def test_a_tiny_run_resumes_and_is_deterministic(tmp_path) -> None:
    config = TrainConfig(game="duel", rounds=2, seed=5, **TINY)
    lines: list[dict] = []
    train(config, tmp_path / "a", report=lines.append)
    log = [json.loads(x) for x in (tmp_path / "a" / "log.jsonl").read_text().splitlines()]
    assert [x["round"] for x in log] == [1, 2] and lines == log
    assert all(np.isfinite(x["loss_total"]) and x["examples"] > 0 for x in log)
    assert 0.0 <= log[1]["score_vs_previous"] <= 1.0 and 0.0 <= log[1]["score_vs_mcts"] <= 1.0
    net = PolicyValueNet.load(tmp_path / "a" / "network.npz")
    assert net.info["round"] == 2 and net.info["config"]["seed"] == 5
    # the same run stopped after round 1 and resumed: the same network
    train(TrainConfig(game="duel", rounds=1, seed=5, **TINY), tmp_path / "b")
    train(config, tmp_path / "b")
    resumed = PolicyValueNet.load(tmp_path / "b" / "network.npz")
    for k in ("w1", "wp", "wv"):
        assert np.array_equal(getattr(resumed, k), getattr(net, k))
    # nothing left to do: the log is unchanged
    train(config, tmp_path / "b")
    assert len((tmp_path / "b" / "log.jsonl").read_text().splitlines()) == 2
    with pytest.raises(ValueError, match="holds a run with other settings \\(search\\)"):
        train(TrainConfig(game="duel", rounds=2, seed=5, **{**TINY, "search": 9}), tmp_path / "b")


def test_the_train_command(tmp_path) -> None:
    runner = CliRunner()
    args = ["train", "--game", "classic", "--out", str(tmp_path), "--rounds", "1", "--games", "1"]
    args += ["--search", "6", "--steps", "2", "--hidden", "8,4", "--max-decisions", "30"]
    done = runner.invoke(app, args)
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout.strip().splitlines()[-1])["round"] == 1
    assert (tmp_path / "network.npz").exists()
    bad = runner.invoke(app, ["train", "--out", str(tmp_path / "x"), "--hidden", "8"])
    assert bad.exit_code == 2 and "two sizes" in bad.output
    bad = runner.invoke(app, ["train", "--out", str(tmp_path / "y"), "--game", "duel", "-p", "3"])
    assert bad.exit_code == 2 and "Splendor Duel has 2 players" in bad.output
