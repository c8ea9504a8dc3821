"""Distilling the playouts into the value (:mod:`splendor.train.distill`, issue 17): the
labels, their determinism and information set, a tiny run end to end and its resumption."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from typer.testing import CliRunner  # noqa: E402

from splendor import classic, duel  # noqa: E402
from splendor.bots.net_bot import NetBot  # noqa: E402
from splendor.bots.network import PolicyValueNet  # noqa: E402
from splendor.bots.search import root_children  # noqa: E402
from splendor.cli import app  # noqa: E402
from splendor.encoding import seat_tensor  # noqa: E402
from splendor.rng import seed_rng  # noqa: E402
from splendor.train.distill import (  # noqa: E402
    EPSILONS,
    DistillConfig,
    distill,
    game_seed,
    label_game,
    label_positions,
)

TINY = DistillConfig(games=6, playouts=2, steps=4, batch=16, hidden=(16, 8), holdout=3, seed=5)


@pytest.mark.parametrize("game", ["classic", "duel"])
def test_labels_are_deterministic_and_well_formed(game: str) -> None:
    config = replace(TINY, game=game)
    a = label_game(config, 1)
    b = label_game(config, 1)
    assert len(a) > 5
    for k in ("x", "mask", "pi", "z"):
        np.testing.assert_array_equal(getattr(a, k), getattr(b, k))
    np.testing.assert_allclose(a.z.sum(axis=1), 1.0, atol=1e-5)
    assert a.z.min() >= 0.0
    np.testing.assert_allclose(a.pi.sum(axis=1), 1.0, atol=1e-5)
    assert not (a.pi[~a.mask] > 0).any()  # the policy target is over legal decisions only
    assert (a.mask.sum(axis=1) > 1).all()  # forced decisions are not kept
    other = label_game(config, 2)
    assert len(other) != len(a) or not np.array_equal(other.x, a.x)


def test_value_label_reads_only_the_observation_c16() -> None:
    """The label is computed from the mover's observation: the same observation with the
    same generator gives the same mean, whatever the hidden cards are."""
    s1 = classic.new_game(2, 11)
    obs = s1.observation(0).array
    work = np.zeros(1, dtype=obs.dtype)
    mask = np.zeros(classic.GAME.num_actions, np.bool_)
    playout_mean = classic.GAME.part("search").playout_mean
    means = []
    for _ in range(2):
        rng = np.zeros(1, np.uint64)
        seed_rng(rng, 3)
        acc = np.zeros(4)
        assert playout_mean((obs, work, mask, np.zeros(4)), acc, 16, 1 << 30, rng) == 0
        means.append(acc.copy())
    np.testing.assert_array_equal(means[0], means[1])
    assert abs(means[0][:2].sum() - 1.0) < 1e-9
    assert means[0][2:].sum() == 0.0  # no third or fourth seat


def test_tiny_run_end_to_end_and_resumed(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "run"
    lines: list[dict] = []
    net = distill(replace(TINY, features=True), out, report=lines.append)
    play = {"mix": 0.5, "exploration": 1.5, "temperature": 1.0, "lookahead": 0}
    assert net.features and net.info["play"] == play
    assert "splendor distill" in net.info["command"]
    log = [json.loads(x) for x in (out / "log.jsonl").read_text().splitlines()]
    assert log[-1]["steps"] == 4 and "val_r2" in log[-1] and "loss_value" in log[-1]
    assert any("part" in line for line in lines)
    # resumed: the labelled positions are read back, not labelled again; same network
    again: list[dict] = []
    net2 = distill(replace(TINY, features=True, workers=2), out, report=again.append)
    assert not any("part" in line for line in again)
    np.testing.assert_array_equal(net.w1, net2.w1)
    # a loaded network with features plays through the compiled search
    loaded = PolicyValueNet.load(out / "network.npz")
    state = classic.new_game(2, 1)
    bot = NetBot(loaded, iterations=30, seed=0)
    assert bot.choose(state.observation(0), state.legal_actions()) in state.legal_actions()
    with pytest.raises(ValueError, match="other settings"):
        distill(replace(TINY, features=True, playouts=3), out)
    # how it plays changes nothing computed: the same weights, the new settings
    net3 = distill(replace(TINY, features=True, mix=0.0, temperature=2.0, lookahead=2), out)
    np.testing.assert_array_equal(net.w1, net3.w1)
    assert net3.info["play"] == {"mix": 0.0, "exploration": 1.5, "temperature": 2.0, "lookahead": 2}


def test_the_weights_with_the_lowest_held_out_loss_are_kept(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "run"
    net = distill(replace(TINY, steps=2001, lr=3e-2), out)
    log = net.info["log"]
    assert [line["steps"] for line in log] == [1000, 2000, 2001]
    best = min(log, key=lambda line: line["val_total"])
    assert net.info["kept_steps"] == best["steps"] < 2001  # the tiny net overfits 6 games
    from splendor.train.fit import evaluate
    from splendor.train.selfplay import Examples

    with np.load(next((out / "data").glob("part-*.npz"))) as d:
        held = Examples(*(d[f"val_{k}"] for k in ("x", "mask", "pi", "z")))
    assert evaluate(net, held)["total"] == pytest.approx(best["val_total"], abs=1e-4)


def test_cli_refuses_bad_settings(tmp_path) -> None:  # type: ignore[no-untyped-def]
    result = CliRunner().invoke(
        app, ["distill", "--game", "duel", "--players", "3", "--out", str(tmp_path / "x")]
    )
    assert result.exit_code == 2 and "2 players" in result.output
    result = CliRunner().invoke(app, ["distill", "--sample", "0", "--out", str(tmp_path / "y")])
    assert result.exit_code == 2 and "sample" in result.output
    result = CliRunner().invoke(
        app, ["distill", "--positions", "mcts", "--out", str(tmp_path / "w")]
    )
    assert result.exit_code == 2 and "positions must be greedy or teacher" in result.output
    result = CliRunner().invoke(
        app, ["distill", "--positions", "teacher", "--out", str(tmp_path / "v")]
    )
    assert result.exit_code == 2 and "needs a teacher" in result.output
    result = CliRunner().invoke(app, ["distill", "--outcome", "1.5", "--out", str(tmp_path / "u")])
    assert result.exit_code == 2 and "outcome must be in [0, 1]" in result.output
    assert not any((tmp_path / d).exists() for d in "xywvu")


def _teacher(tmp_path, game: str, players: int = 2):  # type: ignore[no-untyped-def]
    path = tmp_path / f"teacher-{game}-{players}.npz"
    PolicyValueNet.initial(game, players, (16, 8), seed=3, features=True).save(path)
    return path


@pytest.mark.parametrize("game", ["classic", "duel"])
def test_teacher_labels_are_its_search(tmp_path, game: str) -> None:  # type: ignore[no-untyped-def]
    """With a teacher, the first kept position's targets are exactly the root of the
    teacher's search from the mover's observation: visit shares and mean reward."""
    teacher = _teacher(tmp_path, game)
    config = replace(TINY, game=game, teacher=str(teacher), iterations=40)
    # a game whose first position is kept (label_game's first draw of its generator)
    index = next(
        i
        for i in range(100)
        if np.random.default_rng(game_seed(config.seed, i)).random() < config.sample
    )
    a = label_game(config, index)
    b = label_game(config, index, PolicyValueNet.load(teacher))
    for k in ("x", "mask", "pi", "z"):
        np.testing.assert_array_equal(getattr(a, k), getattr(b, k))
    np.testing.assert_allclose(a.z.sum(axis=1), 1.0, atol=1e-5)
    assert not (a.pi[~a.mask] > 0).any()
    np.testing.assert_allclose(a.pi.sum(axis=1), 1.0, atol=1e-5)
    seed = game_seed(config.seed, index)
    module = classic if game == "classic" else duel
    state = module.new_game(2, seed)
    bot = NetBot(PolicyValueNet.load(teacher), iterations=40, seed=seed, early_stop=False)
    links, stats = bot.search(state.observation(state.current_player))
    children = root_children(links, stats[:3])
    visits = sum(v for _, v, _ in children)
    want = np.zeros(module.NUM_ACTIONS)
    for action, v, _ in children:
        want[action] = v / visits
    np.testing.assert_allclose(a.pi[0], want, atol=1e-6)
    mine = sum(v * q for _, v, q in children) / visits
    assert a.z[0, 0] == pytest.approx(mine, abs=1e-6)
    assert a.z[0, 1] == pytest.approx(1.0 - mine, abs=1e-6)


def test_teacher_with_more_seats_shares_the_rest_by_playouts(tmp_path) -> None:  # type: ignore[no-untyped-def]
    teacher = _teacher(tmp_path, "classic", 3)
    config = replace(TINY, players=3, teacher=str(teacher), iterations=20)
    a = label_game(config, 0)
    assert len(a) > 3 and a.z.shape[1] == 3
    np.testing.assert_allclose(a.z.sum(axis=1), 1.0, atol=1e-5)
    assert a.z.min() >= 0.0


def test_teacher_must_fit_the_run(tmp_path) -> None:  # type: ignore[no-untyped-def]
    duel_teacher = _teacher(tmp_path, "duel")
    with pytest.raises(ValueError, match="plays duel with 2 players, not classic with 2"):
        replace(TINY, teacher=str(duel_teacher)).check()
    with pytest.raises(ValueError, match="cannot be read"):
        replace(TINY, teacher=str(tmp_path / "missing.npz")).check()
    (tmp_path / "junk.npz").write_bytes(b"not a network")
    with pytest.raises(ValueError, match="not a network file"):
        replace(TINY, teacher=str(tmp_path / "junk.npz")).check()
    result = CliRunner().invoke(
        app,
        ["distill", "--teacher", str(duel_teacher), "--out", str(tmp_path / "z")],
    )
    assert result.exit_code == 2 and "not classic" in result.output
    assert not (tmp_path / "z").exists()


def test_the_teacher_is_kept_with_the_run(tmp_path) -> None:  # type: ignore[no-untyped-def]
    teacher = _teacher(tmp_path, "classic")
    config = replace(TINY, games=3, teacher=str(teacher), iterations=8)
    out = tmp_path / "run"
    distill(config, out)
    assert (out / "teacher.npz").read_bytes() == teacher.read_bytes()
    assert f"--teacher {teacher}" in PolicyValueNet.load(out / "network.npz").info["command"]
    PolicyValueNet.initial("classic", 2, (16, 8), seed=4, features=True).save(teacher)
    with pytest.raises(ValueError, match="has changed since this run began"):
        distill(config, out)


def test_teacher_positions_are_its_own_games(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """With ``positions="teacher"``, the position game is the teacher's: replayed with the
    run's generator, every decision not drawn at random is the most visited one of the
    teacher's search there (its policy target), and the positions are those recorded."""
    teacher = _teacher(tmp_path, "classic")
    config = replace(TINY, teacher=str(teacher), iterations=16, sample=1.0, positions="teacher")
    a = label_game(config, 0)
    seed = game_seed(config.seed, 0)
    state = classic.new_game(2, seed)
    rng = np.random.default_rng(seed)
    k = searched = 0
    while not state.is_terminal:
        legal = np.flatnonzero(state.legal_mask())
        if len(legal) > 1:
            assert rng.random() < config.sample  # every such position is kept
            np.testing.assert_array_equal(a.x[k], seat_tensor(state, state.current_player))
            if rng.random() < EPSILONS[0]:
                move = int(rng.choice(legal))
            else:
                move = int(np.argmax(a.pi[k]))
                searched += 1
            k += 1
        else:
            move = int(legal[0])
        state.apply(classic.Action.from_id(move))
    assert k == len(a) and searched > 10
    greedy = label_game(replace(config, positions="greedy"), 0)
    assert len(greedy) != len(a) or not np.array_equal(greedy.x, a.x)


@pytest.mark.parametrize(("game", "players"), [("classic", 3), ("duel", 2)])
def test_outcome_is_the_game_result_seen_from_the_mover_c15_d21(game: str, players: int) -> None:
    """Each kept position carries its game's result, seat-relative to the mover: the
    winners (C15, D21) share 1, and it is the same game for every position of it."""
    config = replace(TINY, game=game, players=players)
    index = 0
    labels = label_positions(config, index)
    assert len(labels) > 5
    np.testing.assert_allclose(labels.outcome.sum(axis=1), 1.0, atol=1e-6)
    # seat-relative rows of one game are rotations of its one per-seat result
    results = {tuple(np.roll(row, k)) for row in labels.outcome for k in range(players)}
    one = {tuple(np.roll(labels.outcome[0], k)) for k in range(players)}
    assert results == one  # every row is a rotation of the same per-seat result
    assert set(np.unique(labels.outcome)) <= {0.0, 1.0 / players, 0.5, 1.0}


def test_outcome_weight_blends_the_value_target() -> None:
    config = replace(TINY, game="duel", players=2)
    labels = label_positions(config, 1)
    np.testing.assert_array_equal(label_game(config, 1).z, labels.examples.z)
    whole = label_game(replace(config, outcome=1.0), 1)
    np.testing.assert_allclose(whole.z, labels.outcome, atol=1e-6)
    half = label_game(replace(config, outcome=0.5), 1)
    np.testing.assert_allclose(half.z, 0.5 * (labels.examples.z + labels.outcome), atol=1e-6)
    np.testing.assert_array_equal(half.pi, labels.examples.pi)  # the policy is untouched
    assert not np.allclose(labels.examples.z, labels.outcome)


def test_outcome_run_fits_the_blend_and_relabels_parts_without_outcomes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "run"
    config = replace(TINY, outcome=0.5)
    net = distill(config, out)
    assert "--outcome 0.5" in net.info["command"] and net.info["config"]["outcome"] == 0.5
    part = next((out / "data").glob("part-*.npz"))
    with np.load(part) as d:
        arrays = {k: d[k] for k in d.files}
    assert arrays["fit_outcome"].shape == arrays["fit_z"].shape
    # a part written before outcomes were kept is labelled again, to the same labels,
    # when the fit needs them, and read back as it is when it does not
    np.savez_compressed(part, **{k: v for k, v in arrays.items() if "outcome" not in k})
    other = tmp_path / "other"
    (other / "data").mkdir(parents=True)
    (other / "data" / part.name).write_bytes(part.read_bytes())
    lines: list[dict] = []
    again = distill(config, out, report=lines.append)
    assert any("part" in line for line in lines)
    np.testing.assert_array_equal(net.w1, again.w1)
    lines = []
    distill(replace(config, outcome=0.0), other, report=lines.append)
    assert not any("part" in line for line in lines)
    with pytest.raises(ValueError, match="other settings"):
        distill(replace(config, outcome=0.0), out)
