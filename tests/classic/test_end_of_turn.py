"""End of a turn: rules C11 (token limit of 10), C12 (noble visits) and C13 (returns
before nobles)."""

from __future__ import annotations

import pytest

from splendor import classic
from splendor.classic import CARDS

from .helpers import (
    card_with,
    give_purchased,
    harmless,
    legal_texts,
    new,
    noble_with,
    put_faceup,
    rec,
    set_current,
    set_nobles,
    set_tokens,
    sound,
    supply,
    tokens_of,
    unplaced,
    vec,
)


def returns(st):
    return {str(a) for a in st.legal_actions()}


# ------------------------------------------------------------------ C11


def test_c11_over_ten_must_return_to_exactly_ten():
    """C11: 9 tokens + 3 taken = 12: the player returns 2, then the turn ends at 10."""
    st = new(4)
    set_tokens(st, 0, "3W 3U 3R")
    sound(st)
    st.apply("take W G K")
    assert st.phase == "return tokens" and st.current_player == 0
    assert sum(tokens_of(st, 0)) == 12
    sound(st)  # 12 tokens are allowed while returning
    st.apply("return W")
    assert st.phase == "return tokens" and st.current_player == 0
    st.apply("return R")
    sound(st)
    assert sum(tokens_of(st, 0)) == 10
    assert tokens_of(st, 0) == vec("3W 3U 1G 2R 1K")
    assert st.current_player == 1 and st.phase == "main"


def test_c11_returns_offered_for_every_held_colour_including_just_taken():
    """C11: any held token may be returned, including those just taken and gold."""
    st = new(4)
    set_tokens(st, 0, "5W 3R 1*")
    st.apply("take U G K")
    assert returns(st) == {"return W", "return U", "return G", "return R", "return K", "return *"}
    sup = supply(st)
    st.apply("return G")  # the green just taken
    assert "return G" not in returns(st)  # none left
    assert supply(st)[2] == sup[2] + 1
    st.apply("return *")
    sound(st)
    assert tokens_of(st, 0) == vec("5W 1U 3R 1K") and supply(st)[5] == 5
    assert st.current_player == 1


def test_c11_only_returns_while_returning():
    """C11: during the return, nothing but returns of held colours is legal."""
    st = new(4)
    set_tokens(st, 0, "4W 4U 2G")
    st.apply("take W U G")
    assert all(a.kind == "return" for a in st.legal_actions())
    before = st._a.tobytes()
    for text in ("take W U G", "reserve 1.1", "pass", "return R", "return *", "noble 1"):
        with pytest.raises(classic.IllegalActionError):
            st.apply(text)
    assert st._a.tobytes() == before


def test_c11_double_take_over_limit():
    """C11 with C7: 10 tokens + 'take R R' = 12: two returns."""
    st = new(4)
    set_tokens(st, 0, "5W 5U")
    st.apply("take R R")
    st.apply("return R")
    st.apply("return R")
    assert tokens_of(st, 0) == vec("5W 5U") and st.current_player == 1


def test_c11_reserve_gold_over_limit():
    """C11 with C8: reserving at 10 tokens gives an 11th (gold): one return, which may be
    the gold itself."""
    st = new(2)
    set_tokens(st, 0, "4W 4U 2G")
    st.apply("reserve 2.2")
    assert st.phase == "return tokens"
    assert returns(st) == {"return W", "return U", "return G", "return *"}
    st.apply("return *")
    assert tokens_of(st, 0) == vec("4W 4U 2G") and supply(st)[5] == 5
    assert st.current_player == 1


def test_c11_reserve_at_ten_without_gold_needs_no_return():
    """C11 with C8: at 10 tokens and no gold left, reserving ends the turn at once."""
    st = new(2)
    set_tokens(st, 0, "4W 1*")
    set_tokens(st, 1, "4U 2G 4*")
    assert supply(st)[5] == 0
    set_tokens(st, 0, "4W 4R 1G 1*")
    sound(st)
    st.apply("reserve 1.1")
    assert st.current_player == 1 and sum(tokens_of(st, 0)) == 10


def test_c11_exactly_ten_is_fine():
    """C11: ending a turn with exactly 10 tokens needs no return."""
    st = new(4)
    set_tokens(st, 0, "7W")
    st.apply("take U G K")
    assert st.current_player == 1 and sum(tokens_of(st, 0)) == 10


# ------------------------------------------------------------------ C12


def noble_setup(bonuses: dict[int, int], nobles: list[str], n=2, seed=0):
    """Seat 0 with bought level-1 cards giving ``bonuses`` (colour -> count), the nobles
    ``nobles`` (requirements) shown, and a face-up level-1 card of bonus U (slot 1.1)
    that seat 0 can afford."""
    st = new(n, seed)
    # the nobles asked for, then up to n + 1 with ones seat 0 cannot meet
    row = [noble_with(r) for r in nobles]
    for o in (noble_with("4G 4R"), noble_with("4R 4K"), noble_with("3G 3R 3K")):
        if len(row) < n + 1 and o not in row:
            row.append(o)
    set_nobles(st, row)
    target = card_with(st, lambda c: c.level == 1 and c.bonus == 1 and c.points == 0)
    put_faceup(st, 0, 0, target)
    for colour, k in bonuses.items():
        ids = unplaced(
            st, lambda c, colour=colour: c.level == 1 and c.bonus == colour and c.id != target
        )
        give_purchased(st, 0, ids[:k])
    set_tokens(st, 0, list(CARDS[target].cost) + [0])
    sound(st)
    return st, target


def test_c12_single_qualifying_noble_visits_automatically():
    """C12: completing 4W 4U with the bought card brings that noble at once (3 points),
    with no decision asked; the noble leaves the row."""
    st, target = noble_setup({0: 4, 1: 3}, ["4W 4U"])
    nid = noble_with("4W 4U")
    pts = st.player(0).points
    st.apply("buy 1.1")
    sound(st)
    assert st.current_player == 1
    assert st.player(0).points == pts + CARDS[target].points + 3
    assert [n.id for n in st.player(0).nobles] == [nid]
    assert nid not in [int(x) for x in rec(st)["nobles"]]
    assert int(rec(st)["noble_owner"][nid]) == 0


def test_c12_no_noble_when_requirement_not_met():
    """C12: 4W 3U bonuses (one short after a non-blue card) bring no noble."""
    st, _ = noble_setup({0: 4, 1: 2}, ["4W 4U"])
    pts = st.player(0).points
    st.apply("buy 1.1")  # 4W 3U now
    assert st.player(0).nobles == () and st.player(0).points == pts
    assert noble_with("4W 4U") in [int(x) for x in rec(st)["nobles"]]


def test_c12_two_qualifying_nobles_player_chooses_one():
    """C12: two nobles qualify: the player chooses one ('noble k'); only one per turn;
    the other stays in the row."""
    st, _ = noble_setup({0: 4, 1: 3, 2: 3}, ["3G 3R 3K", "4W 4U", "3W 3U 3G"])
    a, b = noble_with("4W 4U"), noble_with("3W 3U 3G")
    pts = st.player(0).points
    st.apply("buy 1.1")  # 4W 4U 3G
    assert st.phase == "choose noble" and st.current_player == 0
    assert legal_texts(st) == {"noble 2", "noble 3"}
    with pytest.raises(classic.IllegalActionError):
        st.apply("noble 1")  # 3G 3R 3K: not met
    st.apply("noble 3")
    sound(st)
    assert st.current_player == 1
    assert [n.id for n in st.player(0).nobles] == [b]
    assert st.player(0).points == pts + 3
    assert [int(x) for x in rec(st)["nobles"]][:3] == [noble_with("3G 3R 3K"), a, -1]


def test_c12_second_noble_visits_at_the_end_of_a_later_turn():
    """C12: the noble not chosen visits at the end of the player's next turn (any action:
    its requirement is still met), one per turn."""
    st, _ = noble_setup({0: 4, 1: 3, 2: 3}, ["3G 3R 3K", "4W 4U", "3W 3U 3G"])
    st.apply("buy 1.1")
    st.apply("noble 2")
    st.apply("take W U G")  # seat 1
    pts = st.player(0).points
    st.apply("take W U G")  # seat 0: no bonus gained, but the other noble qualifies
    assert st.current_player == 1
    assert {n.id for n in st.player(0).nobles} == {noble_with("4W 4U"), noble_with("3W 3U 3G")}
    assert st.player(0).points == pts + 3


def test_c12_tokens_do_not_count():
    """C12: tokens never count toward a noble, only bonuses of bought cards."""
    st, _ = noble_setup({}, ["4W 4U"])
    set_tokens(st, 0, "4W 4U")  # would meet 4W 4U if tokens counted
    sound(st)
    st.apply("take G R K")
    st.apply("return G")
    assert st.current_player == 1
    assert st.player(0).nobles == () and st.player(0).points == 0
    assert noble_with("4W 4U") in [int(x) for x in rec(st)["nobles"]]


def test_c12_noble_visits_only_the_player_ending_the_turn():
    """C12: a noble visits at the end of the qualifying player's own turn only."""
    st, _ = noble_setup({0: 4, 1: 4}, ["4W 4U"])  # seat 0 already qualifies
    set_current(st, 1)  # seat 1 plays first: its turn end brings seat 0 nothing
    harmless(st)
    assert st.player(0).nobles == () and st.current_player == 0
    harmless(st)  # seat 0's own turn ends: the noble comes
    assert [n.id for n in st.player(0).nobles] == [noble_with("4W 4U")]


def test_c12_no_choice_offered_when_one_qualifies():
    """C12: 'noble k' is never legal outside a choice between several nobles."""
    st, _ = noble_setup({0: 4, 1: 3}, ["4W 4U"])
    assert not any(t.startswith("noble") for t in legal_texts(st))
    with pytest.raises(classic.IllegalActionError):
        st.apply("noble 1")


# ------------------------------------------------------------------ C13


def test_c13_return_tokens_before_noble_visit():
    """C13: over 10 tokens and a noble due: the returns come first, then the noble."""
    st, _ = noble_setup({0: 4, 1: 4}, ["4W 4U"])  # qualifies already, noble still shown
    set_tokens(st, 0, "3W 3U 3G")
    sound(st)
    st.apply("take W U R")  # 12 tokens
    assert st.phase == "return tokens"
    assert st.player(0).nobles == ()
    st.apply("return W")
    assert st.player(0).nobles == ()
    st.apply("return U")
    assert [n.id for n in st.player(0).nobles] == [noble_with("4W 4U")]
    assert st.current_player == 1
    sound(st)


def test_c13_return_then_choose_between_nobles():
    """C13 with C12: returns first, then the choice between two nobles."""
    st, _ = noble_setup({0: 4, 1: 4, 2: 3}, ["4W 4U", "3W 3U 3G"])  # both met already
    set_tokens(st, 0, "4R 4K 2W")
    sound(st)
    st.apply("take W U G")  # 13 tokens
    assert st.phase == "return tokens"
    for _ in range(3):
        assert st.player(0).nobles == ()
        st.apply("return R")
    assert st.phase == "choose noble" and legal_texts(st) == {"noble 1", "noble 2"}
    st.apply("noble 1")
    assert st.current_player == 1
    assert [n.id for n in st.player(0).nobles] == [noble_with("4W 4U")]
    assert tokens_of(st, 0) == vec("3W 1U 1G 1R 4K")
