"""Decision ids and notation (every decision has a fixed id and a notation that
round-trips), malformed input (ValueError) and illegal decisions (IllegalActionError),
both leaving the state unchanged."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from splendor import duel
from splendor.duel import ACTIONS, NUM_ACTIONS, Action
from splendor.duel.board import cell_name, line_cells

from .helpers import new, snapshot

CELLS = [cell_name(i) for i in range(25)]
SLOTS = [f"{lvl}.{s}" for lvl, n in ((1, 5), (2, 4), (3, 3)) for s in range(1, n + 1)]


def test_action_table_size_and_blocks():
    """296 ids in the documented blocks: privileges (D6), replenish (D7), takes (D8),
    gold + reserve (D9), buys and payments (D10), joker (D14), token (D15), steal (D17),
    royal (D19), return (D20), pass."""
    assert NUM_ACTIONS == 296 == len(ACTIONS)
    blocks = [
        ("privilege", 25),
        ("replenish", 1),
        ("take", 145),
        ("take_gold", 25),
        ("reserve_pyramid", 12),
        ("reserve_deck", 3),
        ("buy", 15),
        ("buy_choose", 15),
        ("pay_gold", 6),
        ("pay", 1),
        ("joker", 5),
        ("token", 25),
        ("steal", 6),
        ("royal", 4),
        ("return", 7),
        ("pass", 1),
    ]
    assert [a.kind for a in ACTIONS] == [k for k, n in blocks for _ in range(n)]
    assert [a.id for a in ACTIONS] == list(range(NUM_ACTIONS))


def test_notation_of_every_decision():
    """The notation of each block, worked out from the documented table."""
    texts = [str(a) for a in ACTIONS]
    takes = ["take " + " ".join(cell_name(c) for c in line_cells(i)) for i in range(145)]
    want = (
        [f"privilege {c}" for c in CELLS]
        + ["replenish"]
        + takes
        + [f"gold {c}" for c in CELLS]
        + [f"reserve {s}" for s in SLOTS]
        + [f"reserve d{k}" for k in (1, 2, 3)]
        + [f"buy {s}" for s in SLOTS]
        + [f"buy r{k}" for k in (1, 2, 3)]
        + [f"buy {s} choose" for s in SLOTS]
        + [f"buy r{k} choose" for k in (1, 2, 3)]
        + [f"gold {t}" for t in "WUGRKP"]
        + ["pay"]
        + [f"joker {t}" for t in "WUGRK"]
        + [f"token {c}" for c in CELLS]
        + [f"steal {t}" for t in "WUGRKP"]
        + [f"royal {k}" for k in (1, 2, 3, 4)]
        + [f"return {t}" for t in "WUGRKP*"]
        + ["pass"]
    )
    assert texts == want
    assert len(set(texts)) == NUM_ACTIONS


def test_every_id_round_trips_through_notation_and_pickle():
    """``Action.parse(str(a)) is a`` and ``Action.from_id(a.id) is a`` for all 296 ids;
    actions are interned, so they pickle to the same object."""
    for a in ACTIONS:
        assert Action.parse(str(a)) is a
        assert Action.parse(" " + str(a).upper() + " ") is a
        assert Action.from_id(a.id) is a
        assert Action.from_id(np.int64(a.id)) is a
        assert pickle.loads(pickle.dumps(a)) is a
        assert repr(a) == f"duel.Action({str(a)!r}, id={a.id})"


def test_take_cells_in_any_order_and_with_commas():
    """D8 notation: the cells of a take may come in any order."""
    a = Action.parse("take c3 c4 c5")
    assert a.kind == "take" and a.cells == (12, 17, 22)
    assert Action.parse("take c5 c3 c4") is a is Action.parse("TAKE C4, C5, C3")
    assert Action.parse("take e1 c3 d2").cells == (4, 8, 12)  # anti-diagonal


def test_action_attributes():
    """Levels, slots, cells and colours are exposed on the action."""
    a = Action.parse("reserve 2.3")
    assert (a.kind, a.level, a.slot) == ("reserve_pyramid", 2, 3)
    a = Action.parse("reserve d3")
    assert (a.kind, a.level) == ("reserve_deck", 3)
    a = Action.parse("buy r2")
    assert (a.kind, a.reserved, a.slot, a.level) == ("buy", True, 2, None)
    a = Action.parse("buy 3.1 choose")
    assert (a.kind, a.reserved, a.level, a.slot) == ("buy_choose", False, 3, 1)
    assert Action.parse("gold P").colors == (5,) and Action.parse("gold P").kind == "pay_gold"
    assert Action.parse("gold b2").cells == (6,) and Action.parse("gold b2").kind == "take_gold"
    assert Action.parse("return *").colors == (6,)
    assert Action.parse("royal 4").slot == 4
    assert Action.parse("privilege e5").cells == (24,)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "fly",
        "take",
        "take a1 a3",
        "take a1 c1",
        "take a1 b3",
        "take a1 a1",
        "take a1 a2 a3 a4",
        "take a1 b2 c2",
        "take f1",
        "take a0",
        "privilege",
        "privilege *",
        "privilege a1 a2",
        "gold",
        "gold *",
        "gold a6",
        "reserve",
        "reserve 1.6",
        "reserve 2.5",
        "reserve 4.1",
        "reserve d4",
        "reserve r1",
        "buy",
        "buy 1.0",
        "buy d1",
        "buy r4",
        "buy 1.1 now",
        "buy 1.1 choose extra",
        "pay now",
        "replenish c3",
        "pass 1",
        "joker P",
        "joker *",
        "joker",
        "token",
        "token W",
        "steal *",
        "steal gold",
        "steal",
        "royal 0",
        "royal 5",
        "royal one",
        "return X",
        "return",
        "return W U",
    ],
)
def test_malformed_text_raises_value_error(text):
    """Malformed decisions raise ValueError naming the problem and listing the notation;
    D8: cells that are not adjacent in one line are rejected by the parser; D17: gold
    cannot be stolen."""
    with pytest.raises(ValueError) as info:
        Action.parse(text)
    msg = str(info.value)
    assert "cannot read action" in msg and "take c3 c4 c5" in msg
    assert not isinstance(info.value, duel.IllegalActionError)
    st = new(1)
    before = snapshot(st)
    with pytest.raises(ValueError):
        st.apply(text)
    assert snapshot(st) == before


def test_parser_messages_name_the_rule():
    """The messages say what is wrong: a gap (D8), gold stolen (D17), a bad slot."""
    with pytest.raises(ValueError, match="not a line"):
        Action.parse("take a1 a3")
    with pytest.raises(ValueError, match="D17"):
        Action.parse("steal *")
    with pytest.raises(ValueError, match="level 1 has slots 1-5"):
        Action.parse("buy 1.6")


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, 10**9, True, 1.0, "3", None])
def test_bad_ids_raise_value_error(bad):
    with pytest.raises(ValueError):
        Action.from_id(bad)
    st = new(0)
    before = snapshot(st)
    with pytest.raises(ValueError):
        st.apply(bad)
    assert snapshot(st) == before


def test_actions_are_built_only_from_ids_or_text():
    with pytest.raises(TypeError):
        Action(3)
    with pytest.raises(ValueError):
        Action.parse(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [0, 1])
def test_every_illegal_id_raises_and_leaves_the_state_unchanged(seed):
    """Every id not in legal_actions raises IllegalActionError (a ValueError) whose message
    says it is illegal and lists the legal decisions; the state is byte for byte the
    same; the legal ones are accepted (on a copy)."""
    st = new(seed)
    legal = {a.id for a in st.legal_actions()}
    assert st.legal_mask().sum() == len(legal)
    before = snapshot(st)
    for a in ACTIONS:
        if a.id in legal:
            cp = st.copy()
            cp.apply(a)
            assert snapshot(cp) != before
            continue
        with pytest.raises(duel.IllegalActionError) as info:
            st.apply(a)
        assert isinstance(info.value, ValueError)
        msg = str(info.value)
        assert f"illegal action {str(a)!r}" in msg and "Legal now:" in msg
        assert snapshot(st) == before


def test_apply_accepts_action_id_or_text():
    a = next(x for x in new(4).legal_actions() if x.kind == "take")
    s1, s2, s3 = new(4), new(4), new(4)
    s1.apply(a)
    s2.apply(a.id)
    s3.apply(str(a))
    assert snapshot(s1) == snapshot(s2) == snapshot(s3)


def test_describe_reads_the_position():
    """describe() shows what a decision would take or buy in this position."""
    st = new(2)
    take = next(a for a in st.legal_actions() if a.kind == "take" and len(a.cells) == 3)
    letters = "WUGRKP*"
    assert st.describe(take) == f"{take}: " + " ".join(letters[st.board[c]] for c in take.cells)
    card = st.pyramid[1][0]
    assert st.describe("reserve 2.1") == f"reserve 2.1: {card}"
    assert "royal 1: royal" in st.describe("royal 1")


def test_a_line_with_a_gap_names_the_missing_cell():
    """D8: 'take a1 c1' is refused with the cell it skips ("gap at b1"), not only 'not a
    line' (issue 33); cells too far apart keep the general message."""
    from splendor.duel.explain import gap_cells, notation_hint

    def hint(entry: str) -> str:
        with pytest.raises(ValueError) as info:
            Action.parse(entry)
        return notation_hint(entry, str(info.value))

    assert "gap at b1" in hint("take a1 c1") and "(D8)" in hint("take a1 c1")
    assert "gap at b2" in hint("take a1 c3") and "gap at d2" in hint("take e1 c3")
    assert gap_cells(["a1", "e1"]) is None and gap_cells(["a1", "b3"]) is None
    assert "gap" not in hint("take a1 b3").split("(D8)")[0].split(":")[0]
