"""Positions: State.to_dict / from_dict and JSON round trips, copies, and corrupt
positions rejected with a message naming the problem."""

from __future__ import annotations

import copy
import json
import random

import pytest

from splendor import duel

from .helpers import affordable, legal_of, new


def midgame(seed=2, decisions=60):
    st = new(seed)
    st.apply(sorted(legal_of(st, "take_gold"))[0])
    st.apply("reserve d2")
    rnd = random.Random(seed)
    for _ in range(decisions):
        if st.is_terminal:
            break
        st.apply(rnd.choice(st.legal_actions()))
    return st


def test_round_trip_dict_and_json():
    """to_dict/from_dict and to_json/from_json give back the same state, byte for byte,
    and the copy plays on identically (the generator included, D24)."""
    st = midgame()
    d = st.to_dict()
    assert d["format"] == "splendor-duel-position" and d["version"] == 1
    back = duel.State.from_dict(d)
    assert back._a.tobytes() == st._a.tobytes() and back == st and hash(back) == hash(st)
    again = duel.State.from_json(st.to_json())
    assert again == st
    assert duel.State.from_dict(json.loads(json.dumps(d))) == st
    rnd = random.Random(1)
    while not st.is_terminal:
        a = rnd.choice(st.legal_actions())
        st.apply(a)
        again.apply(a)
        assert again._a.tobytes() == st._a.tobytes()


def test_round_trip_keeps_the_generator_exactly():
    st = new(2**62 + 12345)
    d = st.to_dict()
    assert isinstance(d["rng"][0], str)
    assert duel.State.from_dict(d)._a["rng"][0][0] == st._a["rng"][0][0]


def test_round_trip_mid_decision_and_finished():
    """Positions in the middle of a payment, a reserve, a royal choice, and finished
    games round-trip too."""
    st = midgame(3, decisions=100000)
    assert st.is_terminal
    assert duel.State.from_json(st.to_json()) == st
    pay = new(0)
    cid, slot = affordable(pay, lambda c: c.ability == "none" and c.level == 1, extra="1*")
    pay.apply(f"buy {slot} choose")
    assert pay.phase == "payment"
    assert duel.State.from_json(pay.to_json()) == pay
    res = new(0)
    res.apply(sorted(legal_of(res, "take_gold"))[0])
    assert res.phase == "reserve"
    assert duel.State.from_json(res.to_json()) == res


def test_copy_is_independent_and_replays_identically():
    st = midgame(4, decisions=10)
    cp = st.copy()
    assert cp == st and cp._a is not st._a
    a = st.legal_actions()[0]
    st.apply(a)
    assert cp != st
    cp.apply(a)
    assert cp == st


def corrupt(mutate):
    d = copy.deepcopy(midgame().to_dict())
    mutate(d)
    return d


def expect_error(d, *words):
    with pytest.raises(ValueError) as info:
        duel.State.from_dict(d)
    msg = str(info.value)
    for w in words:
        assert w in msg, msg
    return msg


def test_wrong_version_and_format():
    expect_error(corrupt(lambda d: d.update(version=2)), "version", "2")
    expect_error(corrupt(lambda d: d.update(format="splendor-classic-position")), "format")
    expect_error([1, 2, 3], "object")


@pytest.mark.parametrize("name", ["board", "bag", "decks", "rng", "tokens", "privileges"])
def test_missing_field(name):
    expect_error(corrupt(lambda d: d.pop(name)), "missing", repr(name))


def test_field_wrong_shape_or_type():
    expect_error(corrupt(lambda d: d.update(board=[0] * 24)), "board", "shape")
    expect_error(corrupt(lambda d: d.update(turn="many")), "turn", "integer")


def test_tokens_not_conserved():
    """D1: a token appearing from nowhere."""

    def extra(d):
        d["bag"][5] += 1

    expect_error(corrupt(extra), "P tokens", "expected 2")


def test_board_token_vanishing():
    """D1: a token gone from the board without going anywhere."""
    d = copy.deepcopy(midgame().to_dict())
    cell = next(i for i, v in enumerate(d["board"]) if v >= 0)
    letter = "WUGRKP*"[d["board"][cell]]
    d["board"][cell] = -1
    expect_error(d, f"{letter} tokens")


def test_card_duplicated():
    """D3: a card in two places."""

    def dup(d):
        d["pyramid"][1] = d["pyramid"][0]

    msg = expect_error(corrupt(dup), "corrupt position", "places")
    assert "2 places" in msg and "0 places" in msg


def test_too_many_privileges():
    """D5: 3 privileges in all."""
    expect_error(corrupt(lambda d: d.update(privileges=[2, 2])), "privileges")


def test_points_not_matching_cards():
    def more(d):
        d["points"][1] += 3

    expect_error(corrupt(more), "seat 1", "points")


def test_too_many_reserved():
    """D9: at most 3 reserved cards."""
    expect_error(corrupt(lambda d: d["num_reserved"].__setitem__(0, 4)), "reserved", "at most 3")


def test_too_many_tokens_outside_the_return_phase():
    """D20: the waiting seat holding 11 tokens."""
    st = new(0)
    d = st.to_dict()
    seat = 1 - st.current_player
    board = d["board"]
    taken = [0] * 7
    for i, v in enumerate(board):
        if sum(taken) < 11 and v is not None and v >= 0 and v != 6:
            taken[v] += 1
            board[i] = -1
    d["tokens"][seat] = taken
    expect_error(d, f"seat {seat} holds 11 tokens")


def test_bad_json_and_bad_array():
    with pytest.raises(ValueError, match="JSON"):
        duel.State.from_json("{not json")
    with pytest.raises(ValueError, match="STATE_DTYPE"):
        duel.State([1, 2, 3])


def test_observation_is_not_a_full_position():
    """An observation (hidden cards removed) cannot be loaded as a full state."""
    ob = midgame().observation(0)
    with pytest.raises(ValueError, match="corrupt position"):
        duel.State.from_dict(ob.to_dict())


# Regression: positions whose decision in progress the rules could never reach used to
# load, and then sent the compiled rules reading (and, on 'pay', writing) outside their
# tables: a card id of 100 being paid for or resolving, a token phase with no card.


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"phase": 4, "pend_card": 100}, ["pend_card=100", "0..66"]),
        ({"phase": 4}, ["token", "card just bought"]),
        ({"phase": 2, "pay_card": 100}, ["pay_card=100", "0..66", "D10"]),
        ({"phase": 2, "pay_card": 3}, ["paid for", "source"]),
        ({"phase": 2, "pay_src": 100}, ["pay_src=100", "payment source"]),
        ({"pay_card": 3}, ["payment fields"]),
        ({"pend_card": 3}, ["resolving"]),
        ({"observer": 1}, ["observer"]),
        ({"winner": 1}, ["in progress"]),
        ({"end_reason": 3}, ["in progress"]),
        ({"phase": 8, "current": -1}, ["end reason"]),
        ({"phase": 8, "current": -1, "end_reason": 4, "winner": 0}, ["turn cap", "D25"]),
        ({"phase": 8, "current": -1, "end_reason": 1}, ["has a winner", "D21"]),
        ({"phase": 7}, ["return phase", "D20"]),
        ({"phase": 6, "pend_card": -1}, ["royal", "card just bought"]),
        (
            {"royal_owner": [5, -1, -1, -1]},
            ["royal_owner[0]=5", "royal card is held by seat 0 or 1"],
        ),
        ({"again": 3}, ["again must be 0 or 1"]),
    ],
)
def test_unreachable_decision_in_progress_is_rejected(changes, words):
    d = new(0).to_dict()
    d.update(changes)
    expect_error(d, "corrupt position", *words)


def test_bought_card_with_a_colour_out_of_range_is_rejected():
    st = new(0)
    cid, slot = affordable(st, lambda c: c.ability == "none" and c.level == 1)
    st.apply(f"buy {slot}")
    d = st.to_dict()
    d["card_color"][cid] = 9
    expect_error(d, f"card_color[{cid}]=9", "gem colour")


def test_reachable_decisions_in_progress_load():
    """The checks above accept every phase the rules do reach (payment, reserve, joker,
    token, steal, royal, return, game over) -- see also the property tests."""
    seen = set()
    for seed in range(40):
        st = duel.new_game(2, seed, turn_cap=200)
        rnd = random.Random(seed)
        while not st.is_terminal:
            acts = st.legal_actions()
            pref = [a for a in acts if a.kind in ("buy", "buy_choose", "take_gold", "privilege")]
            st.apply(rnd.choice(pref) if pref and rnd.random() < 0.7 else rnd.choice(acts))
            if st.phase not in seen or st.is_terminal:
                seen.add(st.phase)
                assert duel.State.from_json(st.to_json()) == st
    assert {"payment", "reserve", "royal", "return tokens", "game over"} <= seen
