"""Distilling the playouts into the value (:mod:`splendor.train.distill`, issue 17): the
labels, their determinism and information set, a tiny run end to end and its resumption."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from typer.testing import CliRunner  # noqa: E402

from splendor import classic  # noqa: E402
from splendor.bots.net_bot import NetBot  # noqa: E402
from splendor.bots.network import PolicyValueNet  # noqa: E402
from splendor.cli import app  # noqa: E402
from splendor.core import seed_rng  # noqa: E402
from splendor.train.distill import (  # noqa: E402
    DistillConfig,
    distill,
    label_game,
    playout_mean_classic,
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
    mask = np.zeros(classic.NUM_ACTIONS, np.bool_)
    means = []
    for _ in range(2):
        rng = np.zeros(1, np.uint64)
        seed_rng(rng, 3)
        acc = np.zeros(4)
        assert playout_mean_classic(obs, work, mask, np.zeros(4), acc, 16, rng) == 0
        means.append(acc.copy())
    np.testing.assert_array_equal(means[0], means[1])
    assert abs(means[0][:2].sum() - 1.0) < 1e-9
    assert means[0][2:].sum() == 0.0  # no third or fourth seat


def test_tiny_run_end_to_end_and_resumed(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "run"
    lines: list[dict] = []
    net = distill(replace(TINY, features=True), out, report=lines.append)
    assert net.features and net.info["play"] == {"mix": 0.5, "exploration": 1.5}
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


def test_cli_refuses_bad_settings(tmp_path) -> None:  # type: ignore[no-untyped-def]
    result = CliRunner().invoke(
        app, ["distill", "--game", "duel", "--players", "3", "--out", str(tmp_path / "x")]
    )
    assert result.exit_code == 2 and "2 players" in result.output
    result = CliRunner().invoke(app, ["distill", "--sample", "0", "--out", str(tmp_path / "y")])
    assert result.exit_code == 2 and "sample" in result.output
