"""Taking tokens: rules C6 (3 different colours, or the 2 or 1 colours left) and C7
(2 of one colour from a pile of 4 or more)."""

from __future__ import annotations

from itertools import combinations

import pytest

from splendor import classic

from .helpers import GEMS, legal_texts, new, set_supply, sound, supply, tokens_of, vec


def takes(st: classic.State) -> set[str]:
    return {str(a) for a in st.legal_actions() if a.kind.startswith("take")}


def test_c6_all_ten_triples_legal_at_start():
    """C6: with every gem colour in the supply, each of the 10 triples may be taken."""
    st = new(2)
    want = {"take " + " ".join(t) for t in combinations(GEMS, 3)}
    assert {str(a) for a in st.legal_actions() if a.kind == "take3"} == want


def test_c6_take_three_moves_one_of_each():
    """C6: 'take W G K' moves exactly one W, one G and one K from the supply."""
    st = new(3)
    st.apply("take W G K")
    assert tokens_of(st, 0) == vec("1W 1G 1K")
    assert supply(st) == [4, 5, 4, 5, 4, 5]
    assert st.current_player == 1


def test_c6_gold_can_never_be_taken():
    """C6: gold is never part of a take; no action id takes gold."""
    st = new(2)
    for a in classic.ACTIONS:
        if a.kind.startswith("take"):
            assert 5 not in a.colors
    for text in ("take * W U", "take W *", "take *", "take * *"):
        with pytest.raises(ValueError):
            st.apply(text)
    assert supply(st)[5] == 5


def test_c6_triple_needs_each_colour_available():
    """C6: a triple with an empty colour is illegal."""
    st = new(2)
    set_supply(st, "0W 4U 4G 4R 4K 5*", park=[1])
    sound(st)
    legal = takes(st)
    assert "take W U G" not in legal and "take U G R" in legal
    before = st._a.tobytes()
    with pytest.raises(classic.IllegalActionError):
        st.apply("take W U G")
    assert st._a.tobytes() == before


def test_c6_exactly_three_colours_left_one_triple():
    """C6: three colours left: the one triple of those colours (and no smaller take)."""
    st = new(2)
    set_supply(st, "0W 0U 1G 2R 3K 5*", park=[1, 0])
    sound(st)
    assert takes(st) == {"take G R K"}


def test_c6_two_colours_left_only_that_pair():
    """C6: exactly 2 gem colours left: 'take X Y' of those two is legal, taking one token
    alone is not, and no triple is."""
    st = new(2)
    set_supply(st, "0W 1U 0G 3R 0K 5*", park=[1, 0])
    sound(st)
    assert takes(st) == {"take U R"}
    for text in ("take U", "take R", "take W U", "take U R K"):
        with pytest.raises(classic.IllegalActionError):
            st.apply(text)
    st.apply("take R U")  # any colour order in the notation
    assert supply(st)[:5] == [0, 0, 0, 2, 0]
    assert tokens_of(st, 0)[1] >= 1 and tokens_of(st, 0)[3] >= 1


def test_c6_two_colours_left_pile_of_four_also_allows_double():
    """C6 with C7: 2 colours left and one pile of 4: the pair and the double are legal."""
    st = new(2)
    set_supply(st, "0W 0U 4G 0R 1K 5*", park=[1, 0])
    sound(st)
    assert takes(st) == {"take G K", "take G G"}


def test_c6_one_colour_left_take_one():
    """C6: a single gem colour left: 'take X' of it (only)."""
    st = new(2)
    set_supply(st, "0W 0U 0G 2R 0K 5*", park=[1, 0])
    sound(st)
    assert takes(st) == {"take R"}
    st.apply("take R")
    assert supply(st) == [0, 0, 0, 1, 0, 5]


def test_c6_one_colour_left_with_four_also_double():
    """C6 with C7: the one colour left has 4: 'take X' and 'take X X' both legal."""
    st = new(2)
    set_supply(st, "0W 0U 0G 0R 4K 5*", park=[1, 0])
    sound(st)
    assert takes(st) == {"take K", "take K K"}


@pytest.mark.parametrize("text", ["take W U", "take G K", "take W", "take K"])
def test_c6_taking_fewer_while_three_available_is_illegal(text):
    """C6 ruling: with 3 or more colours available, taking 2 different or 1 is illegal."""
    st = new(4)
    assert text not in legal_texts(st)
    before = st._a.tobytes()
    with pytest.raises(classic.IllegalActionError):
        st.apply(text)
    assert st._a.tobytes() == before


def test_c6_no_gem_left_no_take():
    """C6: an empty gem supply allows no take at all (gold stays)."""
    st = new(2)
    set_supply(st, "0W 0U 0G 0R 0K 5*", park=[1, 0])
    sound(st)
    assert takes(st) == set()


def test_c7_pile_of_exactly_three_forbids_double():
    """C7: 'take R R' needs at least 4 red before taking; 3 is not enough."""
    st = new(2)  # 4 of each colour
    assert "take R R" in legal_texts(st)
    st.apply("take W U R")  # red pile now 3
    st.apply("take W U G")
    assert supply(st)[3] == 3
    assert "take R R" not in legal_texts(st)
    with pytest.raises(classic.IllegalActionError):
        st.apply("take R R")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_c7_pile_of_four_allows_double(n):
    """C7: a pile of exactly 4 allows taking 2 of it, leaving 2."""
    st = new(n)
    set_supply(st, f"4W 4U {min(4, supply(st)[2])}G 4R 4K 5*", park=range(n))
    sound(st)
    seat = st.current_player
    assert "take R R" in legal_texts(st)
    st.apply("take R R")
    assert supply(st)[3] == 2
    assert tokens_of(st, seat)[3] >= 2


def test_c7_double_legal_exactly_for_piles_of_four_or_more():
    """C7: in one position, the doubles offered are exactly the piles holding >= 4."""
    st = new(4)  # 7 of each
    set_supply(st, "7W 4U 3G 1R 0K 5*", park=[1, 2, 3])
    sound(st)
    doubles = {str(a) for a in st.legal_actions() if a.kind == "take2_same"}
    assert doubles == {"take W W", "take U U"}
