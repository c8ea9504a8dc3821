"""Action ids and notation (DESIGN: every decision has a fixed id and a notation that
round-trips), malformed input, and illegal actions leaving the state unchanged."""

from __future__ import annotations

import pickle
import random
from itertools import combinations

import numpy as np
import pytest

from splendor import classic
from splendor.classic import ACTIONS, NUM_ACTIONS, Action

from .helpers import GEMS, new


def test_action_table_size_and_order():
    """93 ids, in the documented blocks (C6-C9, C11, C12, C17)."""
    assert NUM_ACTIONS == 93 == len(ACTIONS)
    kinds = [a.kind for a in ACTIONS]
    blocks = [
        ("take3", 10),
        ("take2_different", 10),
        ("take1", 5),
        ("take2_same", 5),
        ("reserve_faceup", 12),
        ("reserve_deck", 3),
        ("buy_faceup", 12),
        ("buy_reserved", 3),
        ("buy_choose", 15),
        ("pay_gold", 5),
        ("pay", 1),
        ("return", 6),
        ("noble", 5),
        ("pass", 1),
    ]
    assert kinds == [k for k, n in blocks for _ in range(n)]


def test_notation_covers_every_decision_once():
    """Every id has its own notation; the notations are what the rules name."""
    texts = [str(a) for a in ACTIONS]
    assert len(set(texts)) == NUM_ACTIONS
    want = (
        ["take " + " ".join(t) for t in combinations(GEMS, 3)]
        + ["take " + " ".join(t) for t in combinations(GEMS, 2)]
        + [f"take {g}" for g in GEMS]
        + [f"take {g} {g}" for g in GEMS]
        + [f"reserve {lvl}.{s}" for lvl in (1, 2, 3) for s in (1, 2, 3, 4)]
        + [f"reserve d{lvl}" for lvl in (1, 2, 3)]
        + [f"buy {lvl}.{s}" for lvl in (1, 2, 3) for s in (1, 2, 3, 4)]
        + [f"buy r{k}" for k in (1, 2, 3)]
        + [f"buy {lvl}.{s} choose" for lvl in (1, 2, 3) for s in (1, 2, 3, 4)]
        + [f"buy r{k} choose" for k in (1, 2, 3)]
        + [f"gold {g}" for g in GEMS]
        + ["pay"]
        + [f"return {t}" for t in GEMS + "*"]
        + [f"noble {k}" for k in (1, 2, 3, 4, 5)]
        + ["pass"]
    )
    assert texts == want


@pytest.mark.parametrize("i", range(NUM_ACTIONS))
def test_round_trip_str_parse_id(i):
    """Action.parse(str(a)) == a and Action.from_id(a.id) is a, for every action."""
    a = Action.from_id(i)
    assert a.id == i
    assert Action.parse(str(a)) is a
    assert Action.parse(str(a).upper()) is a
    assert Action.parse("  " + str(a).replace(" ", "   ") + " ") is a
    assert Action.from_id(np.int64(i)) is a
    assert pickle.loads(pickle.dumps(a)) is a
    assert hash(a) == hash(Action.from_id(i)) and a == Action.from_id(i)
    assert repr(a) == f"Action({str(a)!r}, id={i})"


def test_action_fields():
    """Actions expose their colours, level and slot (1-based in notation terms)."""
    a = Action.parse("take W G K")
    assert a.kind == "take3" and a.colors == (0, 2, 4) and a.level is None
    a = Action.parse("reserve 2.3")
    assert (a.kind, a.level, a.slot) == ("reserve_faceup", 2, 3)
    a = Action.parse("buy r2 choose")
    assert (a.kind, a.level, a.slot) == ("buy_choose", None, 2)
    assert Action.parse("return *").colors == (5,)
    assert Action.parse("noble 4").slot == 4


@pytest.mark.parametrize(
    "text,canonical",
    [
        ("take G W U", "take W U G"),
        ("take k r", "take R K"),
        ("TAKE white blue green", "take W U G"),
        ("return gold", "return *"),
        ("return Red", "return R"),
        ("gold black", "gold K"),
        ("take U", "take U"),
    ],
)
def test_parse_accepts_loose_forms(text, canonical):
    """Takes in any colour order, colour names, any case."""
    assert Action.parse(text) is Action.parse(canonical)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "take",
        "take W W W",
        "take W U G R",
        "take W U U",
        "take * W U",
        "take X",
        "reserve 4.1",
        "reserve 1.5",
        "reserve 0.1",
        "reserve d4",
        "reserve d0",
        "buy 1.0",
        "buy r4",
        "buy r0",
        "buy 1.1 pay",
        "buy",
        "gold *",
        "gold",
        "pay now",
        "return",
        "return X",
        "noble 0",
        "noble 6",
        "pass 1",
        "jump",
        "take W, U, G",
        "reserve 1 1",
        "buy 11",
    ],
)
def test_malformed_strings_raise_value_error(text):
    """Malformed notation raises ValueError whose message shows the notation."""
    with pytest.raises(ValueError) as info:
        Action.parse(text)
    assert not isinstance(info.value, classic.IllegalActionError)
    assert "take W U G" in str(info.value) and repr(text) in str(info.value)


@pytest.mark.parametrize("bad", [None, 3, b"take W U G", ["pass"]])
def test_parse_non_string(bad):
    with pytest.raises(ValueError, match="string"):
        Action.parse(bad)


@pytest.mark.parametrize("bad", [-1, 93, 1000, -93, "x", None, "pass", 1.5, 2.0, "3", True])
def test_malformed_ids_raise_value_error(bad):
    """Ids outside 0..92 (or not integers) raise ValueError naming the range."""
    with pytest.raises(ValueError, match="0 <= id < 93"):
        Action.from_id(bad)


@pytest.mark.parametrize("bad", [-1, 93, "take W W W", "bogus", 2.5, None, True, [1]])
def test_apply_malformed_raises_value_error_state_unchanged(bad):
    """State.apply: malformed input is a ValueError (not IllegalActionError), and the
    state is byte-identical afterwards."""
    st = new(2, seed=1)
    before = st._a.tobytes()
    with pytest.raises(ValueError) as info:
        st.apply(bad)
    assert not isinstance(info.value, classic.IllegalActionError)
    assert st._a.tobytes() == before


def test_apply_accepts_action_id_and_text():
    """State.apply takes an Action, its id or its notation, with the same effect."""
    a, b, c = new(3, 4), new(3, 4), new(3, 4)
    act = Action.parse("take W U K")
    a.apply(act)
    b.apply(act.id)
    c.apply("take k w u")
    assert a._a.tobytes() == b._a.tobytes() == c._a.tobytes()


def every_phase_positions():
    """Positions in each phase: main, payment, return tokens, choose noble, game over."""
    out = []
    st = new(2, seed=0)
    out.append(st.copy())
    rnd = random.Random(0)
    seen = set()
    for seed in range(10):
        g = new(2 + seed % 3, seed)
        while not g.is_terminal:
            if g.phase not in seen or rnd.random() < 0.02:
                seen.add(g.phase)
                out.append(g.copy())
            acts = g.legal_actions()
            # prefer choices that reach the rarer phases
            pref = [a for a in acts if a.kind in ("buy_choose", "take3", "take2_same")]
            g.apply(rnd.choice(pref if pref and rnd.random() < 0.5 else acts))
        out.append(g.copy())
    phases = {s.phase for s in out}
    assert {"main", "payment", "return tokens", "game over"} <= phases
    return out


def test_illegal_actions_raise_and_leave_state_byte_identical():
    """Every id that is not legal raises IllegalActionError (a ValueError whose message
    names the action and the legal ones), and leaves the state byte for byte as it
    was; every legal id is accepted."""
    for st in every_phase_positions():
        legal = {a.id for a in st.legal_actions()}
        before = st._a.tobytes()
        for i in range(NUM_ACTIONS):
            if i in legal:
                continue
            with pytest.raises(classic.IllegalActionError) as info:
                st.apply(i)
            assert str(ACTIONS[i]) in str(info.value)
            assert st._a.tobytes() == before
        if st.is_terminal:
            assert legal == set()
            assert "over" in str(info.value)
        else:
            assert "Legal now" in str(info.value)
        for i in legal:
            c = st.copy()
            c.apply(i)
            assert c._a.tobytes() != before or ACTIONS[i].kind == "pass"


def test_illegal_in_noble_choice_phase():
    """The choose-noble phase accepts only the qualifying nobles' slots."""
    from .test_end_of_turn import noble_setup

    st, _ = noble_setup({0: 4, 1: 3, 2: 3}, ["3G 3R 3K", "4W 4U", "3W 3U 3G"])
    st.apply("buy 1.1")
    assert st.phase == "choose noble"
    before = st._a.tobytes()
    for i in range(NUM_ACTIONS):
        if str(ACTIONS[i]) in ("noble 2", "noble 3"):
            continue
        with pytest.raises(classic.IllegalActionError):
            st.apply(i)
        assert st._a.tobytes() == before


def test_describe_names_the_card():
    """describe() gives a readable line for a decision in a position."""
    st = new(2, seed=2)
    text = st.describe("reserve 1.2")
    card = st.faceup[0][1]
    assert text == f"reserve 1.2: {card}" and str(card).startswith("L1 ")
    assert st.describe("take W U G") == "take W U G"
