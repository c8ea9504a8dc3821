"""Card abilities, applied when the card is bought: D13 (again, with D23), D14 (joker),
D15 (token), D16 (privilege) and D17 (steal)."""

from __future__ import annotations

import pytest

from splendor import duel
from splendor.duel import CARDS

from .helpers import (
    affordable,
    arrange,
    cell,
    give_bonuses,
    give_bought,
    legal_of,
    legal_texts,
    new,
    privileges,
    rec,
    set_privileges,
    snapshot,
    sound,
    tokens_of,
    vec,
)

BOARD = "WUGRK/UGRKW/GRPKU/RKWP*/GWU**"


def ability(name, level=None, **kw):
    def pred(c):
        return (
            c.ability == name
            and (level is None or c.level == level)
            and all(getattr(c, k) == v for k, v in kw.items())
        )

    return pred


# ------------------------------------------------------------------ D13 again


def test_d13_again_gives_the_same_player_another_turn():
    """D13: after the turn with the 'again' card ends, the same player plays again; the
    turn counter counts the extra turn; then play passes to the opponent."""
    st = new(0)
    cid, slot = affordable(st, ability("again", level=1))
    sound(st)
    st.apply(f"buy {slot}")
    assert int(rec(st)["card_owner"][cid]) == 0
    assert st.current_player == 0 and st.phase == "main" and st.turn == 1
    assert not st.extra_turn
    st.apply(sorted(legal_of(st, "take"))[0])
    assert st.current_player == 1 and st.turn == 2


def test_d23_extra_turn_is_a_full_turn():
    """D23: the extra turn has its own optional actions (privileges, replenish) and its
    own mandatory action."""
    st = new(0)
    cid, slot = affordable(st, ability("again", level=1))
    set_privileges(st, [1, 1])
    sound(st)
    st.apply(f"buy {slot}")  # spent tokens go to the bag: replenishing is possible
    assert st.current_player == 0 and not st.replenished
    assert legal_of(st, "privilege") and "replenish" in legal_texts(st)
    st.apply(sorted(legal_of(st, "privilege"))[0])
    st.apply("replenish")
    assert privileges(st) == [0, 2]
    take = sorted(legal_of(st, "take"))[0]
    st.apply(take)
    assert st.current_player == 1
    sound(st)


def test_d13_d23_chains_of_again():
    """D13/D23: an 'again' card bought during an extra turn gives yet another turn."""
    st = new(0)
    a1, s1 = affordable(st, ability("again", level=1), index=0)
    a2 = next(c.id for c in CARDS if c.ability == "again" and c.id != a1)
    from .helpers import put_pyramid

    put_pyramid(st, 1, a2)
    cost = [x + y for x, y in zip(CARDS[a1].cost, CARDS[a2].cost, strict=True)] + [0]
    for c in range(6):
        if cost[c] > (2 if c == 5 else 4):
            cost[6] += cost[c] - (2 if c == 5 else 4)
            cost[c] = 2 if c == 5 else 4
    arrange(st, tokens={0: " ".join(f"{n}{'WUGRKP*'[c]}" for c, n in enumerate(cost) if n)})
    sound(st)
    st.apply(f"buy {s1}")
    assert st.current_player == 0 and st.turn == 1
    st.apply("buy 1.2")
    assert int(rec(st)["card_owner"][a2]) == 0
    assert st.current_player == 0 and st.turn == 2
    st.apply(sorted(legal_of(st, "take"))[0])
    assert st.current_player == 1 and st.turn == 3


def test_d13_again_not_before_the_payment_is_done():
    """D13: the extra turn comes after the turn ends, not during a chosen payment."""
    st = new(0)
    cid, slot = affordable(st, ability("again", level=1), extra="1*")
    st.apply(f"buy {slot} choose")
    assert st.phase == "payment" and not st.extra_turn
    st.apply("pay")
    assert st.current_player == 0 and st.phase == "main" and st.turn == 1


# ------------------------------------------------------------------ D14 joker


def test_d14_joker_cannot_be_bought_without_a_coloured_card():
    """D14: a player with no card carrying a coloured bonus cannot buy a joker, even with
    the tokens for it; a card without bonus does not help."""
    st = new(0)
    cid, slot = affordable(st, ability("joker", level=1))
    sound(st)
    assert f"buy {slot}" not in legal_texts(st)
    before = snapshot(st)
    with pytest.raises(duel.IllegalActionError):
        st.apply(f"buy {slot}")
    assert snapshot(st) == before
    none_card = next(c.id for c in CARDS if c.color == -1 and c.level == 1)
    give_bought(st, 0, [none_card])
    sound(st)
    assert f"buy {slot}" not in legal_texts(st)
    give_bonuses(st, 0, (0, 0, 0, 1, 0))
    sound(st)
    assert f"buy {slot}" in legal_texts(st)


def test_d14_joker_with_one_colour_is_attached_at_once():
    """D14: with coloured bonuses in one colour only, the joker takes that colour: its
    bonus (count 1) and its points go to red."""
    st = new(0)
    cid, slot = affordable(st, ability("joker", level=1, points=1))
    give_bonuses(st, 0, (0, 0, 0, 2, 0))
    sound(st)
    st.apply(f"buy {slot}")
    view = st.players[0]
    assert view.bonuses == (0, 0, 0, 3, 0)
    assert view.color_points == (0, 0, 0, 1, 0) and view.points == 1
    assert int(rec(st)["card_color"][cid]) == 3
    assert st.current_player == 1
    sound(st)


def test_d14_joker_colour_is_the_players_choice():
    """D14: with bonuses in several colours the player chooses: exactly those colours are
    legal; the card takes the chosen one."""
    st = new(0)
    cid, slot = affordable(st, ability("joker", level=1, points=1))
    give_bonuses(st, 0, (1, 0, 2, 0, 1))
    sound(st)
    st.apply(f"buy {slot}")
    assert st.phase == "joker" and st.current_player == 0
    assert st.pending_card.id == cid
    assert legal_texts(st) == {"joker W", "joker G", "joker K"}
    before = snapshot(st)
    for text in ("joker U", "joker R", "take a1"):
        with pytest.raises(ValueError):
            st.apply(text)
        assert snapshot(st) == before
    sound(st)  # a joker being attached is a sound position
    st.apply("joker K")
    view = st.players[0]
    assert view.bonuses == (1, 0, 2, 0, 2) and view.color_points == (0, 0, 0, 0, 1)
    assert st.current_player == 1
    sound(st)


def test_d14_d21_joker_points_count_toward_its_colour_for_victory():
    """D14 with D21: 9 points on red cards plus a 1-point joker attached to red is 10
    points in one colour: the player wins; attached to another colour it is not."""
    for colour, wins in (("R", True), ("W", False)):
        st = new(0)
        cid, slot = affordable(st, ability("joker", level=1, points=1))
        four = next(c.id for c in CARDS if c.color == 3 and c.points == 4)
        three = next(c.id for c in CARDS if c.color == 3 and c.points == 3)  # 2 crowns
        two = next(c.id for c in CARDS if c.color == 3 and c.points == 2 and c.crowns == 0)
        give_bought(st, 0, [four, three, two])
        give_bonuses(st, 0, (1, 0, 0, 0, 0))
        sound(st)
        assert st.players[0].color_points[3] == 9
        st.apply(f"buy {slot}")
        st.apply(f"joker {colour}")
        assert st.is_terminal == wins
        if wins:
            assert st.winners == [0] and st.end_reason == "colour"
        else:
            assert st.current_player == 1


def test_d14_d13_joker_again_card():
    """D14 + D13: the level-3 'joker+again' card (8R) is attached to the chosen colour,
    then its owner plays again."""
    st = new(0)
    from .helpers import show

    cid, slot = show(st, ability("joker+again"))
    assert CARDS[cid].cost == (0, 0, 0, 8, 0, 0)
    give_bonuses(st, 0, (0, 1, 0, 2, 0), avoid=[cid])
    arrange(st, tokens={0: "4R 2*"})
    sound(st)
    st.apply(f"buy {slot}")
    assert st.phase == "joker" and legal_texts(st) == {"joker U", "joker R"}
    st.apply("joker U")
    assert int(rec(st)["card_color"][cid]) == 1
    assert st.players[0].color_points[1] == CARDS[cid].points == 3
    assert st.players[0].bonuses == (0, 2, 0, 2, 0)
    assert st.current_player == 0 and st.phase == "main" and st.turn == 1
    sound(st)


# ------------------------------------------------------------------ D15 token


def token_card_position(board: str):
    st = new(0)
    cid, slot = affordable(st, ability("token", level=1, color=0), board=board)
    sound(st)
    return st, cid, slot


def test_d15_token_ability_with_no_matching_token():
    """D15: no token of the card's colour on the board: nothing is taken."""
    st, cid, slot = token_card_position("..GRK/P*.../...../...../.....")
    st.apply(f"buy {slot}")
    assert tokens_of(st, 0) == [0] * 7 and st.current_player == 1
    assert sum(v is not None for v in st.board) == 5


def test_d15_token_ability_with_one_matching_token():
    """D15: one white token on the board: it is taken at once."""
    st, cid, slot = token_card_position("..GRK/P*W../...../...../.....")
    st.apply(f"buy {slot}")
    assert tokens_of(st, 0) == vec("1W") and cell(st, "c2") == -1
    assert st.current_player == 1
    sound(st)


def test_d15_token_ability_with_several_matching_tokens():
    """D15: several white tokens: the player chooses which; only white cells are legal."""
    st, cid, slot = token_card_position("W.GRK/P*W../....W/...../.....")
    st.apply(f"buy {slot}")
    assert st.phase == "token" and st.current_player == 0
    assert legal_texts(st) == {"token a1", "token c2", "token e3"}
    for text in ("token c1", "token b2", "token d1"):
        with pytest.raises(duel.IllegalActionError):
            st.apply(text)
    st.apply("token e3")
    assert tokens_of(st, 0) == vec("1W") and cell(st, "e3") == -1 and cell(st, "a1") == 0
    assert st.current_player == 1
    sound(st)


def test_d15_d20_token_ability_can_trigger_the_token_limit():
    """D15 with D20: the token taken can bring the player above 10."""
    st = new(0)
    cid, slot = affordable(
        st, ability("token", level=1, color=0), extra="3G 3U", board="W..../...../...../...../....."
    )
    arrange(st, tokens={0: "2R 2K 3G 4U 1*"})
    sound(st)
    st.apply(f"buy {slot}")
    assert tokens_of(st, 0) == vec("1W 3G 4U 1*")
    assert st.current_player == 1  # 9 tokens: no return
    st = new(0)
    cid, slot = affordable(
        st, ability("token", level=1, color=0), board="W..../...../...../...../....."
    )
    arrange(st, tokens={0: "2R 2K 4G 4U 2P 1*"})
    st.apply(f"buy {slot}")
    assert sum(tokens_of(st, 0)) == 12 and st.phase == "return tokens"


# ------------------------------------------------------------------ D16 privilege


def privilege_card_position(privs):
    st = new(0)
    cid, slot = affordable(st, ability("privilege", level=2))
    set_privileges(st, privs)
    sound(st)
    return st, slot


def test_d16_privilege_ability_takes_one_from_beside_the_board():
    st, slot = privilege_card_position([0, 1])
    st.apply(f"buy {slot}")
    assert privileges(st) == [1, 1] and st.current_player == 1


def test_d16_d18_privilege_ability_takes_from_the_opponent_when_none_is_left():
    st, slot = privilege_card_position([1, 2])
    st.apply(f"buy {slot}")
    assert privileges(st) == [2, 1]
    sound(st)


def test_d16_d18_privilege_ability_with_all_three_does_nothing():
    st, slot = privilege_card_position([3, 0])
    st.apply(f"buy {slot}")
    assert privileges(st) == [3, 0]
    sound(st)


# ------------------------------------------------------------------ D17 steal


def steal_position(opponent: str):
    st = new(0)
    cid, slot = affordable(st, ability("steal", level=2, color=1))  # costs 4G 3K
    arrange(st, tokens={1: opponent})
    sound(st)
    return st, slot


def test_d17_steal_with_nothing_to_steal():
    st, slot = steal_position("")
    st.apply(f"buy {slot}")
    assert tokens_of(st, 0) == [0] * 7 and st.current_player == 1


def test_d17_steal_never_takes_gold():
    """D17: an opponent holding only gold has nothing to steal."""
    st, slot = steal_position("2*")
    st.apply(f"buy {slot}")
    assert tokens_of(st, 1) == vec("2*") and tokens_of(st, 0) == [0] * 7
    assert st.current_player == 1


def test_d17_steal_one_colour_is_taken_at_once():
    """D17: the opponent holds pearls and gold: a pearl is taken."""
    st, slot = steal_position("2P 1*")
    st.apply(f"buy {slot}")
    assert tokens_of(st, 1) == vec("1P 1*") and tokens_of(st, 0) == vec("1P")
    assert st.current_player == 1
    sound(st)


def test_d17_steal_is_the_players_choice():
    """D17: several colours: the player chooses; exactly the opponent's gem and pearl
    colours are legal, gold never."""
    st, slot = steal_position("1W 2R 1P 2*")
    st.apply(f"buy {slot}")
    assert st.phase == "steal" and st.current_player == 0
    assert legal_texts(st) == {"steal W", "steal R", "steal P"}
    for text in ("steal U", "steal K"):
        with pytest.raises(duel.IllegalActionError):
            st.apply(text)
    with pytest.raises(ValueError):
        st.apply("steal *")
    st.apply("steal R")
    assert tokens_of(st, 1) == vec("1W 1R 1P 2*") and tokens_of(st, 0) == vec("1R")
    assert st.current_player == 1
    sound(st)


def test_abilities_of_each_card_type_are_the_data():
    """Each ability above appears on the cards the data lists (D3)."""
    names = {c.ability for c in CARDS}
    assert names == {"none", "again", "token", "privilege", "steal", "joker", "joker+again"}
    assert all(c.level == 1 and c.color in range(5) for c in CARDS if c.ability == "token")
    assert sorted(c.color for c in CARDS if c.ability == "steal") == [0, 1, 2, 3, 4]
