"""End of turn: rule D20 (token limit of 10, tokens of the player's choice back into the
bag), and the order of the end of a turn: royal card (D19), token limit (D20), then the
extra turn of 'again' (D13, D23)."""

from __future__ import annotations

import pytest

from splendor.duel import CARDS, ROYALS

from .helpers import (
    arrange,
    bag,
    give_bonuses,
    give_bought,
    legal_of,
    legal_texts,
    new,
    set_privileges,
    show,
    snapshot,
    sound,
    tokens_of,
    vec,
)


def test_d20_eleven_tokens_return_one_of_the_players_choice():
    """D20: a take that brings the player to 11 tokens: they return 1 token of their
    choice (any colour they hold, gold included) to the bag, then the turn passes."""
    st = new(0)
    arrange(st, board="WU.../...../...../...../.....", tokens={0: "3W 2U 2G 2P 1*", 1: ""})
    sound(st)
    st.apply("take a1")
    assert sum(tokens_of(st, 0)) == 11
    assert st.phase == "return tokens" and st.current_player == 0
    assert legal_texts(st) == {"return W", "return U", "return G", "return P", "return *"}
    sound(st)  # the returning seat may hold more than 10 while it returns
    before = snapshot(st)
    for text in ("return R", "take b1", "pass", "return K"):
        with pytest.raises(ValueError):
            st.apply(text)
        assert snapshot(st) == before
    bag_before = bag(st)
    st.apply("return P")
    assert tokens_of(st, 0) == vec("4W 2U 2G 1P 1*")
    assert bag(st) == [b + d for b, d in zip(bag_before, vec("1P"), strict=True)]
    assert st.current_player == 1 and st.phase == "main"
    sound(st)


def test_d20_exactly_ten_tokens_is_allowed():
    st = new(0)
    arrange(st, board="WU.../...../...../...../.....", tokens={0: "3W 2U 2G 1P 1*", 1: ""})
    st.apply("take a1")
    assert sum(tokens_of(st, 0)) == 10 and st.current_player == 1


def test_d20_return_several_down_to_ten():
    """D20: 13 tokens: three returns, one decision each, then the turn passes."""
    st = new(0)
    arrange(st, board="WUG../...../...../...../.....", tokens={0: "3W 3U 2G 1R 1*", 1: ""})
    st.apply("take a1 b1 c1")
    assert sum(tokens_of(st, 0)) == 13
    for text in ("return *", "return W", "return W"):
        assert st.phase == "return tokens" and st.current_player == 0
        st.apply(text)
    assert tokens_of(st, 0) == vec("2W 4U 3G 1R") and st.current_player == 1
    assert bag(st)[6] == 3  # all gold back in the bag
    sound(st)


def test_d20_privileges_then_take_above_the_limit():
    """D6 + D20: tokens taken with privileges count too; the limit applies once, at the
    end of the turn."""
    st = new(0)
    arrange(st, board="WUGRK/...../...../...../.....", tokens={0: "3W 3U 2G", 1: ""})
    set_privileges(st, [2, 0])
    st.apply("privilege a1")
    st.apply("privilege b1")
    assert sum(tokens_of(st, 0)) == 10 and st.phase == "main"
    st.apply("take c1 d1 e1")
    assert sum(tokens_of(st, 0)) == 13 and st.phase == "return tokens"


def test_d20_only_the_active_player_returns():
    """D20: the opponent's tokens are not affected by the active player's turn."""
    st = new(0)
    arrange(st, board="WU.../...../...../...../.....", tokens={0: "", 1: "3G 3R 2K 2P"})
    st.apply("take a1 b1")
    assert tokens_of(st, 1) == vec("3G 3R 2K 2P") and st.current_player == 1


def test_d19_d20_d13_end_of_turn_order():
    """D13 ('after this turn ends (D19, D20)'): a free 1-crown card reaching 3 crowns:
    first the royal card ('again'), then the token limit, then the extra turn."""
    st = new(0)
    cid, slot = show(
        st, lambda c: c.level == 1 and c.crowns == 1 and c.ability == "none" and c.color == 0
    )  # costs 3U
    give_bonuses(st, 0, (0, 3, 0, 0, 0), avoid=[cid])  # free now
    crown = [c.id for c in CARDS if c.crowns == 1 and c.ability == "none" and c.level == 2]
    give_bought(st, 0, crown[:2])
    arrange(st, board="W..../...../...../...../.....", tokens={0: "2W 2U 2G 2R 2K", 1: ""})
    set_privileges(st, [1, 0])
    sound(st)
    st.apply("privilege a1")  # 11 tokens until the end of the turn
    st.apply(f"buy {slot}")
    assert st.phase == "royal"
    again = next(r.id for r in ROYALS if r.ability == "again")
    st.apply(f"royal {again + 1}")
    assert st.phase == "return tokens" and st.current_player == 0
    st.apply("return W")
    assert st.current_player == 0 and st.phase == "main" and st.turn == 1
    assert sum(tokens_of(st, 0)) == 10
    sound(st)


def test_d20_return_after_an_ability():
    """D15 + D20: the token of a 'token' card taken at 10 tokens must be returned (here
    the player keeps the new token and returns gold)."""
    st = new(0)
    cid, slot = show(st, lambda c: c.ability == "token" and c.color == 0)  # 2R 2K
    give_bonuses(st, 0, (0, 0, 0, 2, 2), avoid=[cid])  # free
    arrange(st, board="W..../...../...../...../.....", tokens={0: "3U 3G 2P 2*", 1: ""})
    sound(st)
    st.apply(f"buy {slot}")
    assert tokens_of(st, 0) == vec("1W 3U 3G 2P 2*")
    assert legal_of(st, "return") == {f"return {t}" for t in "WUGP*"}
    st.apply("return *")
    assert tokens_of(st, 0) == vec("1W 3U 3G 2P 1*") and st.current_player == 1
