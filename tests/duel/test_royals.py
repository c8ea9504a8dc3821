"""Crowns and royal cards: rule D19 (a royal card of the player's choice on first
reaching 3 crowns, a second on reaching 6; its ability applies at once; not an action)."""

from __future__ import annotations

import pytest

from splendor import duel
from splendor.duel import CARDS, ROYALS

from .helpers import (
    affordable,
    arrange,
    give_bonuses,
    give_bought,
    give_royal,
    legal_of,
    legal_texts,
    new,
    privileges,
    rec,
    set_privileges,
    show,
    snapshot,
    sound,
    tokens_of,
    vec,
)

ROYAL_ID = {r.ability: r.id for r in ROYALS}  # none, again, privilege, steal


def one_crown_card(c):
    return c.level == 1 and c.crowns == 1 and c.ability == "none" and c.color == 0  # 3U


def crowns_to(st: duel.State, seat: int, n: int, avoid=()) -> None:
    """Give ``seat`` bought crown cards without ability (1 or 2 crowns each, 1-crown
    ones first) so that it owns ``n`` more crowns."""
    from .helpers import free_cards

    have = st.players[seat].crowns
    ids = free_cards(st, lambda c: c.crowns in (1, 2) and c.ability == "none" and c.id not in avoid)
    ids.sort(key=lambda i: CARDS[i].crowns)
    left = n
    for i in ids:
        if CARDS[i].crowns <= left:
            give_bought(st, seat, [i])
            left -= CARDS[i].crowns
    assert st.players[seat].crowns == have + n


def royal_position(crowns: int, opponent_royals=()):
    """Seat 0 owns ``crowns`` crowns (and the royal cards they earned: the 3-point one,
    then the 'again' one) and may buy a 1-crown level-1 card (slot 1.1); seat 1 holds
    ``opponent_royals`` with the crowns to have earned them."""
    st = new(0)
    cid, slot = affordable(st, one_crown_card)
    crowns_to(st, 0, crowns, avoid=[cid])
    mine = [k for k in (ROYAL_ID["none"], ROYAL_ID["again"]) if k not in opponent_royals]
    for k in mine[: (crowns >= 3) + (crowns >= 6)]:
        give_royal(st, 0, k)
    if opponent_royals:
        crowns_to(st, 1, 3 * len(opponent_royals), avoid=[cid])
    for k in opponent_royals:
        give_royal(st, 1, k)
    sound(st)
    return st, cid, slot


def test_d19_royal_on_reaching_three_crowns_is_the_players_choice():
    """D19: 2 -> 3 crowns: the player chooses one of the 4 royal cards; taking it is not
    the turn's action (the turn ends after it)."""
    st, cid, slot = royal_position(2)
    pts = st.scores[0]
    st.apply(f"buy {slot}")
    assert st.players[0].crowns == 3
    assert st.phase == "royal" and st.current_player == 0
    assert legal_texts(st) == {"royal 1", "royal 2", "royal 3", "royal 4"}
    before = snapshot(st)
    with pytest.raises(duel.IllegalActionError):
        st.apply("take a1")
    assert snapshot(st) == before
    sound(st)
    k = ROYAL_ID["none"]
    st.apply(f"royal {k + 1}")
    assert st.scores[0] == pts + 3
    assert [r.id for r in st.players[0].royals] == [k] and st.royals[k] is None
    assert st.current_player == 1
    sound(st)


def test_d19_no_royal_below_three_crowns():
    st, cid, slot = royal_position(1)
    st.apply(f"buy {slot}")
    assert st.players[0].crowns == 2 and st.current_player == 1
    assert st.players[0].royals == ()


def test_d19_only_once_per_threshold():
    """D19: 'for the first time': 3 -> 4 crowns with a royal already taken gives none."""
    st, cid, slot = royal_position(3)
    assert len(st.players[0].royals) == 1
    st.apply(f"buy {slot}")
    assert st.players[0].crowns == 4 and st.current_player == 1
    assert len(st.players[0].royals) == 1


def test_d19_second_royal_on_reaching_six_crowns():
    """D19: 5 -> 6 crowns with one royal taken: a second one, among those left (the one
    the opponent holds is not offered)."""
    st, cid, slot = royal_position(5, opponent_royals=[ROYAL_ID["steal"]])
    assert [r.id for r in st.players[0].royals] == [ROYAL_ID["none"]]
    st.apply(f"buy {slot}")
    assert st.players[0].crowns == 6 and st.phase == "royal"
    legal = legal_texts(st)
    assert legal == {f"royal {ROYAL_ID[a] + 1}" for a in ("again", "privilege")}
    for taken in ("steal", "none"):
        with pytest.raises(duel.IllegalActionError):
            st.apply(f"royal {ROYAL_ID[taken] + 1}")
    st.apply(f"royal {ROYAL_ID['privilege'] + 1}")
    assert len(st.players[0].royals) == 2 and st.current_player == 1
    sound(st)


def test_d19_the_one_royal_left_is_taken_at_once():
    """D19: a single royal card left: no choice to make, it is taken."""
    st, cid, slot = royal_position(5, opponent_royals=[ROYAL_ID["steal"], ROYAL_ID["privilege"]])
    st.apply(f"buy {slot}")
    assert [r.id for r in st.players[0].royals] == [ROYAL_ID["none"], ROYAL_ID["again"]]
    assert st.current_player == 0 and st.turn == 1  # the 'again' royal card: play again
    sound(st)


def test_d19_a_big_crown_card_crossing_six_gives_the_second_royal():
    """D19: 3 crowns (royal taken) + a 3-crown card = 6: the second royal follows the
    joker's attachment."""
    st = new(0)
    cid, slot = show(st, lambda c: c.crowns == 3)
    assert CARDS[cid].is_joker and CARDS[cid].cost == (0, 0, 0, 0, 8, 0)
    give_bonuses(st, 0, (0, 0, 0, 0, 3), avoid=[cid])  # 3 black: costs 5K
    crowns_to(st, 0, 3, avoid=[cid])
    give_royal(st, 0, ROYAL_ID["none"])
    arrange(st, tokens={0: "4K 1*"})
    sound(st)
    st.apply(f"buy {slot}")
    if st.phase == "joker":
        st.apply(sorted(legal_texts(st))[0])
    assert st.players[0].crowns == 6 and st.phase == "royal"
    assert len(legal_of(st, "royal")) == 3


def test_d19_reserved_crowns_do_not_count():
    """D9/D19: reserving a crown card gives no crown and no royal card."""
    st, cid, slot = royal_position(2)
    st.apply(next(iter(legal_of(st, "take_gold"))))
    st.apply(f"reserve {slot}")
    assert st.players[0].crowns == 2 and st.players[0].royals == ()


def test_d19_royal_again_gives_another_turn():
    """D19 with D13: the 'again' royal card: the player plays another turn."""
    st, cid, slot = royal_position(2)
    st.apply(f"buy {slot}")
    st.apply(f"royal {ROYAL_ID['again'] + 1}")
    assert st.scores[0] == 2
    assert st.current_player == 0 and st.phase == "main" and st.turn == 1


def test_d19_royal_privilege():
    """D19 with D16/D18: the 'privilege' royal card gives a privilege, from the opponent
    when none is left beside the board."""
    st, cid, slot = royal_position(2)
    set_privileges(st, [1, 2])
    st.apply(f"buy {slot}")
    st.apply(f"royal {ROYAL_ID['privilege'] + 1}")
    assert privileges(st) == [2, 1] and st.current_player == 1
    sound(st)


def test_d19_royal_steal():
    """D19 with D17: the 'steal' royal card takes a gem or pearl from the opponent, their
    choice when there are several, never gold."""
    st, cid, slot = royal_position(2)
    arrange(st, tokens={1: "1W 1P 2*"})
    st.apply(f"buy {slot}")
    st.apply(f"royal {ROYAL_ID['steal'] + 1}")
    assert st.phase == "steal" and legal_texts(st) == {"steal W", "steal P"}
    mine = tokens_of(st, 0)
    st.apply("steal P")
    assert tokens_of(st, 0) == [a + b for a, b in zip(mine, vec("1P"), strict=True)]
    assert tokens_of(st, 1) == vec("1W 2*")
    assert st.current_player == 1
    sound(st)


def test_d19_royal_steal_with_nothing_to_steal():
    st, cid, slot = royal_position(2)
    arrange(st, tokens={1: "3*"})
    st.apply(f"buy {slot}")
    st.apply(f"royal {ROYAL_ID['steal'] + 1}")
    assert tokens_of(st, 1) == vec("3*") and st.current_player == 1


def test_d19_royal_points_count_toward_twenty():
    """D19 with D21: royal points are prestige points: 17 + 3 = 20 wins."""
    st = new(0)
    cid, slot = affordable(st, one_crown_card)
    crowns_to(st, 0, 2, avoid=[cid])
    # 17 points on cards without crowns, spread so that no colour reaches 10
    pts = [c.id for c in CARDS if c.level == 3 and c.crowns == 0 and c.points == 4]
    give_bought(st, 0, pts[:4])  # 4 + 4 + 4 + 4 = 16 (four colours)
    one = next(
        c.id for c in CARDS if c.points == 1 and c.crowns == 0 and c.color == 4 and c.level == 1
    )
    give_bought(st, 0, [one])
    sound(st)
    assert st.scores[0] == 17 and max(st.players[0].color_points) < 10
    st.apply(f"buy {slot}")
    st.apply(f"royal {ROYAL_ID['none'] + 1}")
    assert st.is_terminal and st.winners == [0] and st.end_reason == "points"
    assert st.scores[0] == 20
    assert int(rec(st)["royal_owner"][ROYAL_ID["none"]]) == 0
