"""The legal-mask kernels read each family of actions at once (issue 20); they must
decide exactly what ``is_legal`` decides for each decision id, one by one (C6-C12, C17,
D6-D20), on every position of random games."""

from __future__ import annotations

import random

import numpy as np
import pytest

from splendor import classic, duel
from splendor.classic import rules as crules
from splendor.duel import rules as drules


@pytest.mark.parametrize(
    "module,rules,players,games",
    [
        (classic, crules, 2, 120),
        (classic, crules, 3, 60),
        (classic, crules, 4, 60),
        (duel, drules, 2, 80),
    ],
    ids=["classic-2", "classic-3", "classic-4", "duel"],
)
def test_legal_mask_is_is_legal_for_every_id(module, rules, players: int, games: int) -> None:
    positions = 0
    for seed in range(games):
        st = module.new_game(players, seed)
        rnd = random.Random(seed)
        while not st.is_terminal:
            mask = np.zeros(module.NUM_ACTIONS, dtype=np.bool_)
            n = rules.legal_mask(st._a, mask)
            one_by_one = [bool(rules.is_legal(st._a, a)) for a in range(module.NUM_ACTIONS)]
            assert mask.tolist() == one_by_one, (seed, st.to_text())
            assert n == sum(one_by_one) > 0
            positions += 1
            legal = st.legal_actions()
            # prefer buying and reserving now and then, so payments and gold are reached
            buys = [a for a in legal if "buy" in str(a) or "reserve" in str(a)]
            st.apply(rnd.choice(buys if buys and rnd.random() < 0.5 else legal))
    assert positions > 20 * games
