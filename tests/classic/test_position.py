"""Positions: State.to_dict / from_dict and JSON round trips, and corrupt positions
rejected with a message naming the problem."""

from __future__ import annotations

import copy
import json
import random

import pytest

from splendor import classic

from .helpers import new


def midgame(n=3, seed=2, decisions=60):
    st = new(n, seed)
    st.apply("reserve d2")
    rnd = random.Random(seed)
    for _ in range(decisions):
        if st.is_terminal:
            break
        st.apply(rnd.choice(st.legal_actions()))
    return st


@pytest.mark.parametrize("n", [2, 3, 4])
def test_round_trip_dict_and_json(n):
    """to_dict/from_dict and to_json/from_json give back the same state, byte for byte,
    and the copy plays on identically."""
    st = midgame(n)
    d = st.to_dict()
    assert d["format"] == "splendor-classic-position" and d["version"] == 1
    back = classic.State.from_dict(d)
    assert back._a.tobytes() == st._a.tobytes() and back == st
    text = st.to_json()
    json.loads(text)
    again = classic.State.from_json(text)
    assert again._a.tobytes() == st._a.tobytes()
    # the dict survives a trip through JSON text too
    assert classic.State.from_dict(json.loads(json.dumps(d))) == st
    rnd = random.Random(1)
    while not st.is_terminal:
        a = rnd.choice(st.legal_actions())
        st.apply(a)
        again.apply(a)
        assert again._a.tobytes() == st._a.tobytes()


def test_round_trip_keeps_generator_exactly():
    """The uint64 generator state is written as a decimal string and read back exactly."""
    st = new(2, seed=2**62 + 12345)
    d = st.to_dict()
    assert isinstance(d["rng"][0], str)
    assert classic.State.from_dict(d)._a["rng"][0][0] == st._a["rng"][0][0]


def test_round_trip_of_finished_game_and_payment_phase():
    """Positions in the payment phase and finished games round-trip too."""
    st = midgame(2, seed=3, decisions=100000)
    assert st.is_terminal
    assert classic.State.from_json(st.to_json()) == st
    from .test_buy import position

    pay, _, where = position((0, 0, 0, 2, 1), tokens="2R 1K 1*")
    pay.apply(f"buy {where} choose")
    assert classic.State.from_json(pay.to_json()) == pay


def corrupt(mutate):
    d = midgame().to_dict()
    d = copy.deepcopy(d)
    mutate(d)
    return d


def expect_error(d, *words):
    with pytest.raises(ValueError) as info:
        classic.State.from_dict(d)
    msg = str(info.value)
    for w in words:
        assert w in msg, msg
    return msg


def test_wrong_version():
    expect_error(corrupt(lambda d: d.update(version=2)), "version", "2")


def test_wrong_format():
    expect_error(corrupt(lambda d: d.update(format="splendor-duel-position")), "format")


def test_not_a_dict():
    expect_error([1, 2, 3], "object")


@pytest.mark.parametrize("name", ["supply", "decks", "rng", "tokens", "current"])
def test_missing_field(name):
    expect_error(corrupt(lambda d: d.pop(name)), "missing", repr(name))


def test_field_wrong_shape():
    expect_error(corrupt(lambda d: d.update(supply=[4, 4, 4])), "supply", "shape")


def test_field_not_integers():
    expect_error(corrupt(lambda d: d.update(turn="many")), "turn", "integer")


def test_field_out_of_range():
    expect_error(corrupt(lambda d: d.update(points=[10**6, 0, 0, 0])), "points", "range")


def test_card_duplicated():
    """C2: a card in two places (a face-up card copied over another slot)."""

    def dup(d):
        d["faceup"][0][1] = d["faceup"][0][0]

    msg = expect_error(corrupt(dup), "corrupt position", "places")
    assert "2 places" in msg and "0 places" in msg  # the copy, and the card it replaced


def test_card_in_deck_of_wrong_level():
    def swap(d):
        d["decks"][0][0], d["decks"][2][0] = d["decks"][2][0], d["decks"][0][0]

    expect_error(corrupt(swap), "decks[0][0]=70", "is 0..39 (C2)")


def test_tokens_not_conserved():
    """C1: a token appearing from nowhere."""

    def extra(d):
        d["supply"][0] += 1

    expect_error(corrupt(extra), "W tokens", "expected 5")


def test_gold_not_conserved():
    def less(d):
        d["supply"][5] -= 1

    expect_error(corrupt(less), "* tokens", "expected 5")


def test_points_not_matching_cards():
    """Scores must equal the points of cards bought and nobles received."""

    def more(d):
        d["points"][1] += 3

    expect_error(corrupt(more), "seat 1", "points")


def test_too_many_tokens_outside_return_phase():
    """C11: a seat holding 11 tokens outside its return phase."""
    st = new(2, seed=0)
    d = st.to_dict()
    d["tokens"][1] = [4, 4, 3, 0, 0, 0]
    d["supply"] = [0, 0, 1, 4, 4, 5]
    expect_error(d, "seat 1 holds 11 tokens")


def test_too_many_reserved():
    """C8: at most 3 reserved cards."""

    def four(d):
        d["num_reserved"][0] = 4

    expect_error(corrupt(four), "num_reserved[0]=4", "reserved card count is 0..3 (C8)")


def test_bad_json_text():
    with pytest.raises(ValueError, match="JSON"):
        classic.State.from_json("{not json")


def test_state_constructor_checks_array():
    with pytest.raises(ValueError, match="STATE_DTYPE"):
        classic.State([1, 2, 3])
