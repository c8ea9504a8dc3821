"""Training the network by self-play (:mod:`splendor.train`, issue 17): a tiny run end to
end (CI never trains more), its resumption after an interruption, its determinism, the
examples it learns from, and the torch weights against the compiled forward pass."""

from __future__ import annotations

import importlib.util
import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from typer.testing import CliRunner  # noqa: E402

from splendor import classic, duel  # noqa: E402
from splendor.bots.net_bot import NetBot  # noqa: E402
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
    examples, actions, winners = self_play(
        NetBot(net, iterations=8, seed=3), game, 2, seed=3, max_decisions=80
    )
    assert 0 < len(examples) <= len(actions) <= 80
    assert np.allclose(examples.pi.sum(axis=1), 1.0)
    assert not (examples.pi * ~examples.mask).any()  # visits only on legal decisions
    assert np.allclose(examples.z.sum(axis=1), 1.0)
    # the first example is the first searched position, seen by its mover
    module = classic if game == "classic" else duel
    state = module.new_game(2, 3)
    assert np.array_equal(examples.x[0], seat_tensor(state, state.current_player))
    # the same seed, the same game
    again = self_play(NetBot(net, iterations=8, seed=3), game, 2, seed=3, max_decisions=80)
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
    assert net.info["play"] == {"mix": 0.0, "exploration": 1.5}  # how a bot plays it
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
    bad = runner.invoke(app, ["train", "--out", str(tmp_path / "z"), "--backend", "cloud"])
    assert bad.exit_code == 2 and "unknown backend 'cloud'" in bad.output
    bad = runner.invoke(app, ["train", "--out", str(tmp_path / "t"), "--teacher", "greedy"])
    assert bad.exit_code == 2 and "the teacher must be mcts" in bad.output


def test_a_teacher_starts_the_run_and_workers_change_nothing(tmp_path) -> None:
    """Expert iteration: round 1 is played by mcts, round 2 by the network; two worker
    processes give the same run as one, and held-out games give the ``val_*`` losses."""
    settings = {**TINY, "eval_every": 0, "games": 4, "holdout": 2}
    config = TrainConfig(rounds=2, seed=3, teacher="mcts:12", teacher_rounds=1, **settings)
    lines: list[dict] = []
    train(config, tmp_path / "one", report=lines.append)
    assert [x["teacher"] for x in lines] == [True, False]
    assert all(np.isfinite(x["val_value"]) and x["val_policy"] > 0 for x in lines)
    a = PolicyValueNet.load(tmp_path / "one" / "network.npz")
    for backend in ("local", "ray"):
        if backend == "ray" and importlib.util.find_spec("ray") is None:
            continue  # Ray is an extra: pip install -e '.[ray]'
        two = TrainConfig(
            rounds=2, seed=3, teacher="mcts:12", teacher_rounds=1, workers=2, backend=backend,
            **settings,
        )  # fmt: skip
        train(two, tmp_path / backend)
        b = PolicyValueNet.load(tmp_path / backend / "network.npz")
        assert np.array_equal(a.w1, b.w1) and np.array_equal(a.wv, b.wv), backend
    # held-out games are not in the fitted buffer
    with (
        np.load(tmp_path / "one" / "buffer.npz") as buf,
        np.load(tmp_path / "one" / "validation.npz") as val,
    ):
        assert len(buf["x"]) > 0 and len(val["x"]) > 0
        rows = {r.tobytes() for r in buf["x"]}
        assert not any(r.tobytes() in rows for r in val["x"])


def test_old_configs_load_and_bad_settings_are_named(tmp_path) -> None:
    old = {k: v for k, v in TrainConfig().__dict__.items() if k not in ("teacher", "workers")}
    assert TrainConfig.from_json(json.loads(json.dumps(old))) == TrainConfig()
    with pytest.raises(ValueError, match="unknown training settings: colour"):
        TrainConfig.from_json({**old, "colour": 1})
    for bad, message in (
        ({"teacher": "greedy", "teacher_rounds": 1}, "teacher must be mcts"),
        ({"teacher": "mcts:1s", "teacher_rounds": 1}, "iteration budget"),
        ({"teacher_rounds": 2}, "needs a teacher"),
        ({"workers": 0}, "workers must be 1 to 256"),
        ({"search_value": 1.5}, "search_value must be in"),
        ({"noise": 1.0}, "noise must be in"),
        ({"mix": -0.1}, "mix must be in"),
        ({"backend": "cloud"}, "unknown backend 'cloud'"),
    ):
        with pytest.raises(ValueError, match=message):
            TrainConfig(**bad).check()


def test_the_search_value_blends_into_the_value_target() -> None:
    net = PolicyValueNet.initial("classic", 2, hidden=(16, 8), seed=1)
    bot = NetBot(net, iterations=16, seed=3)
    outcome, _a, winners = self_play(bot, "classic", 2, seed=4, max_decisions=40)
    bot = NetBot(net, iterations=16, seed=3)
    blend, _a, _w = self_play(bot, "classic", 2, seed=4, max_decisions=40, search_value=1.0)
    assert not winners and np.allclose(outcome.z, 0.5)  # cut off: every seat shares it
    assert np.allclose(blend.z.sum(axis=1), 1.0)
    assert not np.allclose(blend.z, 0.5)  # the search's own values, position by position
    assert ((blend.z >= 0) & (blend.z <= 1)).all()


def test_root_noise_mixes_into_the_priors_only() -> None:
    net = PolicyValueNet.initial("duel", 2, hidden=(16, 8), seed=1)
    state = duel.new_game(2, seed=2)
    obs = state.observation(state.current_player)

    def priors(bot: NetBot) -> np.ndarray:
        links, stats = bot.search(obs)
        out = []
        child = links[0 + 1, 0]  # T_CHILD of the root
        while child != -1:
            out.append(stats[3, child])
            child = links[2, child]  # T_SIBLING
        return np.array(out)

    plain = priors(NetBot(net, iterations=4, seed=5))
    noisy = priors(NetBot(net, iterations=4, seed=5, noise=0.25))
    assert plain.shape == noisy.shape and np.isclose(noisy.sum(), 1.0)
    assert not np.allclose(plain, noisy)
    assert np.array_equal(noisy, priors(NetBot(net, iterations=4, seed=5, noise=0.25)))
    with pytest.raises(ValueError, match="noise must be in"):
        NetBot(net, iterations=4, noise=1.0)


def test_a_run_starts_from_an_init_network(tmp_path) -> None:
    settings = {**TINY, "eval_every": 0, "games": 1}
    first = train(TrainConfig(game="duel", rounds=1, seed=5, **settings), tmp_path / "a")
    init = str(tmp_path / "a" / "network.npz")
    lines: list[dict] = []
    second = TrainConfig(game="duel", rounds=1, seed=6, init=init, **{**settings, "steps": 1})
    net = train(second, tmp_path / "b", report=lines.append)
    # one Adam step from the first run's weights, not from random ones
    assert 0 < np.abs(net.w1 - first.w1).max() < 0.05
    fresh = PolicyValueNet.initial("duel", 2, hidden=(16, 8), seed=6)
    assert np.abs(net.w1 - fresh.w1).max() > 0.05
    with pytest.raises(ValueError, match="not classic with 2 and"):
        train(TrainConfig(game="classic", rounds=1, init=init, **settings), tmp_path / "c")
