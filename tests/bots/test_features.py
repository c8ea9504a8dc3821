"""The reach features of :mod:`splendor.bots.features` (issue 17): what each seat lacks to
buy each visible card, computed from the observation tensor alone (C16, D22)."""

from __future__ import annotations

import numpy as np
import pytest

from splendor import classic, duel
from splendor.bots.features import feature_size, per_seat, with_features
from splendor.classic import actions as ca
from splendor.duel import actions as da
from splendor.encoding import observation_size, seat_tensor


def _positions(module, num_players: int, seed: int, count: int):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    state = module.new_game(num_players, seed)
    out = []
    while len(out) < count:
        if state.is_terminal:
            state = module.new_game(num_players, int(rng.integers(1 << 30)))
            continue
        out.append(state.copy())
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    return out


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_affordable_flags_are_the_legal_purchases_c9(num_players: int) -> None:
    """C9: a face-up card or own reserved card is affordable (bonuses, then tokens, then
    gold) exactly when buying it is legal in the main phase."""
    block = per_seat("classic")
    n_in = observation_size("classic", num_players)
    checked = 0
    for state in _positions(classic, num_players, 7, 300):
        if state.phase != "main":
            continue
        seat = state.current_player
        f = with_features(seat_tensor(state, seat), "classic", num_players)[n_in:]
        assert f.shape == (feature_size("classic", num_players),)
        mask = state.legal_mask()
        mine = f[:block]  # the observer's row comes first
        for slot in range(12):
            present = mine[3 * slot] > 0 or mine[3 * slot + 1] > 0 or mine[3 * slot + 2] > 0
            if present or mask[ca.BUY_FACEUP + slot]:
                assert bool(mine[3 * slot + 2]) == bool(mask[ca.BUY_FACEUP + slot]), slot
                assert (mine[3 * slot + 1] == 0) == bool(mask[ca.BUY_FACEUP + slot])
                checked += 1
        for k in range(3):
            at = 3 * (12 + k)
            if mask[ca.BUY_RESERVED + k]:
                assert mine[at + 2] == 1.0 and mine[at + 1] == 0.0
    assert checked > 500


def test_features_see_only_the_observation_c16() -> None:
    """Two states that differ only in hidden cards (decks, another seat's blind reserve)
    give the same features to the observer."""
    state = classic.new_game(2, 3)
    other = classic.new_game(2, 3)
    a = with_features(seat_tensor(state, 0), "classic", 2)
    b = with_features(seat_tensor(other, 0), "classic", 2)
    np.testing.assert_array_equal(a, b)
    # a different deal: the face-up cards differ, and so do the features
    c = with_features(seat_tensor(classic.new_game(2, 4), 0), "classic", 2)
    assert not np.array_equal(
        a[observation_size("classic", 2) :], c[observation_size("classic", 2) :]
    )


def test_duel_legal_purchase_is_affordable_d11() -> None:
    """D11: a pyramid card that may be bought has no shortfall for the buyer."""
    n_in = observation_size("duel", 2)
    hits = 0
    for state in _positions(duel, 2, 5, 300):
        seat = state.current_player
        if seat is None:
            continue
        f = with_features(seat_tensor(state, seat), "duel", 2)[n_in:]
        mask = state.legal_mask()
        for slot in range(12):
            if mask[da.BUY + slot] or mask[da.BUY_CHOOSE + slot]:
                assert f[3 * slot + 1] == 0.0 and f[3 * slot + 2] == 1.0
                hits += 1
    assert hits > 20


def test_wrong_tensor_size_is_refused() -> None:
    with pytest.raises(ValueError, match="405"):
        with_features(np.zeros(10, np.float32), "classic", 2)
