"""Property tests: random games for 2, 3 and 4 players, with the invariants of the rules
checked after every decision. Hypothesis draws the deal's seed and the seed of the
uniform random choices (drawing every choice from hypothesis directly lets it find
endless games -- take and return the same tokens forever, which the rules allow -- and
makes shrinking useless on games of hundreds of decisions).

Checked after each decision: ``check_invariants`` is empty; tokens are conserved (C1);
nobody holds more than 10 tokens outside their own return phase (C11); scores are the
points of bought cards plus 3 per noble (C12); bonuses are the bought cards' colours;
the legal actions seen from the current seat's observation are the state's (C16); an
observation hides the deck order, the generator and other seats' blind reserves (C16);
``determinize`` gives a sound state whose observation is the original byte for byte;
a copy fed the same decisions stays identical (C18); to_dict/from_dict and JSON round
trip. At the end: C14/C17 end conditions and C15 winners worked out independently.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from splendor import classic

GEMS_BY_PLAYERS = {2: 4, 3: 5, 4: 7}  # C1
MAX_DECISIONS = 5000

FAST = settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SLOW = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def check_decision(st: classic.State, n: int, det_rng: np.random.Generator, deep: bool) -> None:
    a = st._a[0]
    assert classic.check_invariants(st._a) == []
    # C1: tokens conserved
    total = a["supply"].astype(int) + a["tokens"][:n].sum(axis=0)
    assert list(total) == [GEMS_BY_PLAYERS[n]] * 5 + [5]
    assert (a["supply"] >= 0).all() and (a["tokens"] >= 0).all()
    # C11: at most 10 tokens, except the current seat while returning
    for p in range(n):
        if not (st.phase == "return tokens" and p == st.current_player):
            assert a["tokens"][p].sum() <= 10
        else:
            assert a["tokens"][p].sum() > 10
    # scores and bonuses from their parts, worked out from the card list
    for view in st.players:
        assert view.points == sum(c.points for c in view.purchased) + 3 * len(view.nobles)
        bonus = [0] * 5
        for c in view.purchased:
            bonus[c.bonus] += 1
        assert list(view.bonuses) == bonus
        assert len(view.reserved) <= 3  # C8
    assert st.scores == [v.points for v in st.players]
    legal = st.legal_actions()
    if st.is_terminal:
        assert legal == [] and st.current_player is None
        return
    assert legal, "a live game always has a legal decision"
    kinds = {x.kind for x in legal}
    if "pass" in kinds:  # C17
        assert [str(x) for x in legal] == ["pass"] and st.phase == "main"
    if st.phase == "payment":
        assert kinds <= {"pay_gold", "pay"}
    elif st.phase == "return tokens":
        assert kinds == {"return"}
    elif st.phase == "choose noble":
        assert kinds == {"noble"} and len(legal) >= 2
    # C16: observations
    cur = st.current_player
    for seat in range(n):
        ob = st.observation(seat)
        o = ob._a[0]
        assert (o["decks"] == -1).all() and int(o["rng"][0]) == 0
        for p in range(n):
            for k in range(int(o["num_reserved"][p])):
                hidden = int(o["reserved"][p, k]) == -1
                paying = st.phase == "payment" and p == cur and int(o["pay_src"]) - 12 == k
                assert hidden == (p != seat and bool(o["reserved_blind"][p, k]) and not paying)
        if seat == cur:
            assert ob.legal_actions() == legal
        if deep or seat == cur:
            d = classic.determinize(ob, det_rng)
            assert classic.check_invariants(d._a) == []
            assert d.observation(seat)._a.tobytes() == ob._a.tobytes()
            if seat == cur:  # other seats cannot know what the mover's blind cards allow
                assert d.legal_actions() == legal
            assert d.current_player == cur and d.scores == st.scores
    # positions round-trip
    if deep:
        assert classic.State.from_dict(st.to_dict()) == st
        assert classic.State.from_json(json.dumps(st.to_dict())) == st


def expected_winners(st: classic.State) -> list[int]:
    """C15 from the rule: most points, then fewest purchased cards, ties shared."""
    key = [(v.points, -len(v.purchased)) for v in st.players]
    best = max(key)
    return [p for p, k in enumerate(key) if k == best]


def play_and_check(n: int, seed: int, rnd: random.Random, deep: bool = True) -> None:
    st = classic.new_game(n, seed)
    twin = st.copy()
    det_rng = np.random.default_rng(seed)
    ids: list[int] = []
    passes = 0
    check_decision(st, n, det_rng, deep)
    while not st.is_terminal:
        assert len(ids) < MAX_DECISIONS, "game does not end"
        before = st.current_player
        action = rnd.choice(st.legal_actions())
        st.apply(action)
        twin.apply(action.id)
        ids.append(action.id)
        passes = (
            passes + 1
            if action.kind == "pass"
            else (passes if action.kind in ("return", "noble") else 0)
        )
        assert twin._a.tobytes() == st._a.tobytes()  # copy() replays identically
        assert int(st._a[0]["pass_streak"]) == passes  # C17: consecutive passes
        check_decision(st, n, det_rng, deep)
        after = st.current_player
        if after != before and after is not None:  # C5: the turn passes in seat order
            assert after == (before + 1) % n
    # C14 / C17: why the game ended
    if st.end_reason == "points":
        assert max(st.scores) >= 15
        assert st.turn % n == 0  # the round was completed: seat n-1 played last
    else:
        assert st.end_reason == "stall" and passes >= n
    assert st.winners == expected_winners(st)
    # C18: the seed and the decisions reproduce the game
    assert classic.replay(n, seed, ids)._a.tobytes() == st._a.tobytes()


SEEDS = hs.integers(0, 2**62)


@pytest.mark.parametrize("n", [2, 3, 4])
@FAST
@given(seed=SEEDS, choices=SEEDS)
def test_random_games_keep_every_invariant(n, seed, choices):
    """C1, C5, C8, C11, C12, C14-C18 hold after every decision of random games."""
    play_and_check(n, seed, random.Random(choices), deep=True)


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4])
@SLOW
@given(seed=SEEDS, choices=SEEDS)
def test_many_random_games_keep_every_invariant(n, seed, choices):
    """The same checks over more random games (marked slow)."""
    play_and_check(n, seed, random.Random(choices), deep=True)


def test_random_choices_biased_to_rare_decisions():
    """Random games steered toward chosen payments, returns and nobles still keep every
    invariant (those decisions are rare under uniform play)."""
    rare = ("buy_choose", "pay_gold", "take2_same", "reserve_deck", "buy_faceup", "buy_reserved")

    class Biased(random.Random):
        def choice(self, seq):
            pref = [a for a in seq if a.kind in rare]
            return super().choice(pref if pref and self.random() < 0.7 else seq)

    seen = set()
    for n, seed in ((2, 1), (3, 2), (4, 3)):
        rnd = Biased(seed)
        st = classic.new_game(n, seed)
        while not st.is_terminal:
            st.apply(rnd.choice(st.legal_actions()))
            seen.add(st.phase)
            check_decision(st, n, np.random.default_rng(seed), deep=False)
    assert {"payment", "return tokens", "game over"} <= seen


@pytest.mark.slow
def test_compiled_playouts_end_soundly():
    """Many uniform random playouts run inside the compiled kernel end in sound,
    finished positions with C15 winners (a check that the fast path obeys the rules)."""
    from splendor.classic import rules

    for n in (2, 3, 4):
        for seed in range(100):
            st = classic.new_game(n, seed)
            rules.random_playout(st._a, np.array([seed + 1], dtype=np.uint64), 100000)
            assert st.is_terminal
            assert classic.check_invariants(st._a) == []
            assert st.winners == expected_winners(st)
            if st.end_reason == "points":
                assert max(st.scores) >= 15 and st.turn % n == 0
