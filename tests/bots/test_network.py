"""The policy + value network of the bots (:mod:`splendor.bots.network`, issue 17): the
compiled forward pass against a numpy reference, over positions of random games; the file
format and every way a file can be wrong."""

from __future__ import annotations

import json

import numpy as np
import pytest

from splendor import classic, duel
from splendor.bots.network import WEIGHTS, PolicyValueNet, default_scale
from splendor.encoding import seat_tensor


def _reference(
    net: PolicyValueNet, x: np.ndarray, mask: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The same network in plain numpy (float64)."""
    a = {k: getattr(net, k).astype(np.float64) for k in WEIGHTS}
    h = np.maximum(0.0, (x / a["scale"]) @ a["w1"] + a["b1"])
    h = np.maximum(0.0, h @ a["w2"] + a["b2"])
    logits = h @ a["wp"] + a["bp"]
    policy = np.zeros_like(logits)
    if mask.any():
        z = np.exp(logits[mask] - logits[mask].max())
        policy[mask] = z / z.sum()
    v = h @ a["wv"] + a["bv"]
    v = np.exp(v - v.max())
    return policy, v / v.sum()


@pytest.mark.parametrize("game, players", [("classic", 2), ("classic", 3), ("duel", 2)])
def test_the_compiled_forward_pass_is_the_networks(game: str, players: int) -> None:
    module = classic if game == "classic" else duel
    net = PolicyValueNet.initial(game, players, hidden=(64, 32), seed=3)
    rng = np.random.default_rng(1)
    checked = 0
    for g in range(6):
        state = module.new_game(players, seed=g)
        while not state.is_terminal:
            seat = state.current_player
            policy, value = net.evaluate(state)
            mask = state.legal_mask()
            want_p, want_v = _reference(net, seat_tensor(state, seat).astype(np.float64), mask)
            np.testing.assert_allclose(policy, want_p, rtol=1e-4, atol=1e-7)
            np.testing.assert_allclose(value, want_v, rtol=1e-4, atol=1e-7)
            assert abs(policy.sum() - 1.0) < 1e-9 and not policy[~mask].any()
            assert abs(value.sum() - 1.0) < 1e-9 and value.shape == (players,)
            checked += 1
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
    assert checked > 100
    # another seat's view: no decision of its own, the value still seat-relative
    state = module.new_game(players, seed=9)
    policy, value = net.evaluate(state, (state.current_player + 1) % players)
    assert not policy.any() and abs(value.sum() - 1.0) < 1e-9


def test_a_network_file_round_trips(tmp_path) -> None:
    net = PolicyValueNet.initial("duel", 2, hidden=(16, 8), seed=5)
    net = PolicyValueNet(
        **{**net.__dict__, "info": {"command": "splendor train --game duel", "seed": 5}}
    )
    path = net.save(tmp_path / "net.npz")
    back = PolicyValueNet.load(path)
    assert back.info == net.info and (back.game, back.num_players) == ("duel", 2)
    for k in WEIGHTS:
        assert np.array_equal(getattr(back, k), getattr(net, k))
    state = duel.new_game(seed=2)
    for a, b in zip(back.evaluate(state), net.evaluate(state), strict=True):
        assert np.array_equal(a, b)


def _write(path, meta, arrays) -> None:
    with path.open("wb") as f:
        np.savez(f, meta=np.array(json.dumps(meta)), **arrays)


def test_bad_network_files_are_refused_with_what_is_wrong(tmp_path) -> None:
    net = PolicyValueNet.initial("classic", 2, hidden=(8, 4))
    arrays = {k: getattr(net, k) for k in WEIGHTS}
    meta = {"format": "splendor-network", "version": 1, "game": "classic", "num_players": 2}
    cases = [
        ({**meta, "format": "other"}, arrays, "not a splendor-network file"),
        ({**meta, "version": 2}, arrays, "network version 2; this build reads 1"),
        (meta, {k: v for k, v in arrays.items() if k != "wv"}, "missing arrays wv"),
        ({**meta, "game": "duel"}, arrays, "network array 'w1' has shape"),
        ({**meta, "num_players": 3}, arrays, "network array 'w1' has shape"),
        (meta, {**arrays, "b2": arrays["b2"] * np.nan}, "NaN or infinite"),
        (meta, {**arrays, "scale": -arrays["scale"]}, "'scale' must be positive"),
        ({**meta, "game": "chess"}, arrays, "unknown game"),
    ]
    for k, (m, a, message) in enumerate(cases):
        path = tmp_path / f"bad{k}.npz"
        _write(path, m, a)
        with pytest.raises(ValueError, match=message):
            PolicyValueNet.load(path)
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"not a zip file")
    with pytest.raises(ValueError, match="not a network file"):
        PolicyValueNet.load(garbage)
    with pytest.raises(ValueError, match="plays classic with 2 players, not duel with 2"):
        net.evaluate(duel.new_game(seed=1))
    assert default_scale("classic", 2).min() > 0


@pytest.mark.parametrize("game", ["classic", "duel"])
def test_a_network_with_reach_features_reads_them(game: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A network with ``features`` evaluates the tensor followed by its reach features
    (:mod:`splendor.bots.features`); its file says so, and a file whose flag does not fit
    its shapes is refused."""
    from dataclasses import replace

    from splendor.bots.features import feature_size, with_features
    from splendor.encoding import observation_size

    net = PolicyValueNet.initial(game, 2, hidden=(16, 8), seed=2, features=True)
    assert net.input_size == observation_size(game, 2) + feature_size(game, 2)
    module = duel if game == "duel" else classic
    state = module.new_game(2, 9)
    policy, value = net.evaluate(state)
    x = with_features(seat_tensor(state, state.current_player), game, 2)
    ref_policy, ref_value = _reference(net, x.astype(np.float64), state.legal_mask())
    np.testing.assert_allclose(policy, ref_policy, atol=1e-5)
    np.testing.assert_allclose(value, ref_value, atol=1e-5)
    loaded = PolicyValueNet.load(net.save(tmp_path / "f.npz"))
    assert loaded.features
    np.testing.assert_array_equal(loaded.w1, net.w1)
    with pytest.raises(ValueError, match="w1"):
        replace(net, features=False)
