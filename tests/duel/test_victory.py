"""The end of the game: rule D21 (20 points, 10 crowns, or 10 points in one colour, checked
at the end of the active player's turn) and D25 (a host's turn cap: no winner)."""

from __future__ import annotations

import random

import pytest

from splendor import duel
from splendor.duel import CARDS, ROYALS

from .helpers import (
    affordable,
    give_bought,
    give_royal,
    new,
    quiet_take,
    snapshot,
    sound,
)

ROYAL_ID = {r.ability: r.id for r in ROYALS}


def ids(pred):
    return [c.id for c in CARDS if pred(c)]


def nineteen_points(st, avoid=()):
    """Give seat 0 19 points on 0-crown cards: 4 in W, U, G, R (level 3) and 1 in W, U, G
    (level 1): 5 per colour at most, no crown."""
    give_bought(st, 0, ids(lambda c: c.level == 3 and c.points == 4 and c.color in (0, 1, 2, 3)))
    give_bought(
        st,
        0,
        ids(
            lambda c: c.level == 1 and c.points == 1 and c.color in (0, 1, 2) and c.id not in avoid
        ),
    )
    v = st.players[0]
    assert v.points == 19 and v.crowns == 0 and max(v.color_points) == 5


def black_one_pointer(c):
    return c.level == 1 and c.points == 1 and c.color == 4  # 2U 3G


def test_d21_twenty_points_wins():
    """D21: a purchase bringing the player to 20 points: they win at the end of the turn;
    the game is over (no current player, no legal decision)."""
    st = new(0)
    cid, slot = affordable(st, black_one_pointer)
    nineteen_points(st, avoid=[cid])
    sound(st)
    st.apply(f"buy {slot}")
    assert st.is_terminal and st.winners == [0] and st.end_reason == "points"
    assert st.scores[0] == 20 and st.current_player is None
    assert st.legal_actions() == [] and st.phase == "game over"
    before = snapshot(st)
    with pytest.raises(duel.IllegalActionError, match="game is over"):
        st.apply("take a1")
    assert snapshot(st) == before
    sound(st)


def test_d21_ten_crowns_wins():
    """D21: 9 -> 10 crowns (royal cards already taken at 3 and 6) wins with 15 points."""
    st = new(0)
    cid, slot = affordable(
        st, lambda c: c.level == 1 and c.crowns == 1 and c.color == 4 and c.ability == "none"
    )  # 3W
    give_bought(
        st,
        0,
        ids(
            lambda c: (
                c.level == 1 and c.crowns == 1 and c.color in (0, 1, 2, 3) and c.ability == "none"
            )
        ),
    )
    give_bought(st, 0, ids(lambda c: c.level == 2 and c.crowns == 1))
    give_royal(st, 0, ROYAL_ID["none"])
    give_royal(st, 0, ROYAL_ID["again"])
    sound(st)
    assert st.players[0].crowns == 9 and st.scores[0] == 15
    st.apply(f"buy {slot}")
    assert st.is_terminal and st.winners == [0] and st.end_reason == "crowns"
    assert st.players[0].crowns == 10 and st.scores[0] < 20


def test_d21_ten_points_in_one_colour_wins():
    """D21: 9 -> 10 points on white cards wins with 10 points in all."""
    st = new(0)
    cid, slot = affordable(st, lambda c: c.level == 1 and c.points == 1 and c.color == 0)
    give_bought(
        st,
        0,
        ids(lambda c: c.color == 0 and (c.points in (3, 4) or (c.points == 2 and c.crowns == 0))),
    )
    sound(st)
    assert st.players[0].color_points[0] == 9 and st.players[0].crowns == 2
    st.apply(f"buy {slot}")
    assert st.is_terminal and st.winners == [0] and st.end_reason == "colour"
    assert st.scores[0] == 10


def test_d21_points_spread_over_colours_do_not_win():
    """D21: 9 points in white and 9 in blue, then a black point (19 in all): no colour
    holds 10 and the total is below 20: play goes on."""
    st = new(0)
    cid, slot = affordable(st, black_one_pointer)
    for colour in (0, 1):  # 4 (level 3) + 2 + 2 (level 2) + 1 (level 1), one crown
        give_bought(
            st,
            0,
            ids(
                lambda c, colour=colour: (
                    c.color == colour
                    and c.points in (1, 2, 4)
                    and c.bonus_count == 1
                    and c.ability != "steal"
                )
            ),
        )
    sound(st)
    v = st.players[0]
    assert v.color_points[:2] == (9, 9) and v.points == 18 and v.crowns == 2
    st.apply(f"buy {slot}")
    assert not st.is_terminal and st.current_player == 1
    assert st.scores[0] == 19 and st.players[0].color_points == (9, 9, 0, 0, 1)


def test_d21_checked_only_at_the_end_of_the_active_players_turn():
    """D21: a player sitting on 20 points (set up by hand) has not won until their own
    turn ends; the opponent's end of turn does not end the game for them."""
    st = new(0)
    give_bought(st, 1, ids(lambda c: c.level == 3 and c.points == 4 and c.color in (0, 1, 2, 3)))
    give_bought(st, 1, ids(lambda c: c.level == 1 and c.points == 1 and c.color in (0, 1, 2, 3)))
    sound(st)
    assert st.scores[1] == 20 and not st.is_terminal
    quiet_take(st)  # seat 0's turn ends: seat 1's 20 points are not checked
    assert not st.is_terminal and st.current_player == 1
    quiet_take(st)  # seat 1's turn ends: seat 1 wins
    assert st.is_terminal and st.winners == [1] and st.end_reason == "points"


def test_d21_not_over_while_a_choice_is_pending():
    """D21 at the end of the turn: reaching 20 with a royal card still to choose: the
    game is not over until the choice is made (and the royal points count)."""
    st = new(0)
    cid, slot = affordable(
        st, lambda c: c.level == 1 and c.crowns == 1 and c.color == 0 and c.ability == "none"
    )
    give_bought(st, 0, ids(lambda c: c.level == 3 and c.points == 4 and c.color in (0, 1, 2, 3)))
    give_bought(st, 0, ids(lambda c: c.level == 2 and c.crowns == 1 and c.color in (0, 1)))
    sound(st)
    assert st.scores[0] == 20 and st.players[0].crowns == 2
    st.apply(f"buy {slot}")
    assert st.phase == "royal" and not st.is_terminal
    st.apply(f"royal {ROYAL_ID['steal'] + 1}")
    assert st.is_terminal and st.winners == [0] and st.scores[0] == 22


def test_d21_victory_comes_before_an_extra_turn():
    """D21 with D13: 18 points and 2 crowns; a 1-crown card brings the 'again' royal card
    (2 points): 20 points at the end of the turn ends the game, no extra turn."""
    st = new(0)
    cid, slot = affordable(
        st, lambda c: c.level == 1 and c.crowns == 1 and c.color == 0 and c.ability == "none"
    )  # 3U, no points
    give_bought(st, 0, ids(lambda c: c.level == 3 and c.points == 4 and c.color in (0, 1, 2, 3)))
    give_bought(st, 0, ids(lambda c: c.level == 1 and c.points == 1 and c.color in (0, 1)))
    give_bought(
        st,
        0,
        ids(lambda c: c.level == 1 and c.crowns == 1 and c.color in (3, 4) and c.ability == "none"),
    )
    sound(st)
    assert st.scores[0] == 18 and st.players[0].crowns == 2
    st.apply(f"buy {slot}")
    st.apply(f"royal {ROYAL_ID['again'] + 1}")
    assert st.is_terminal and st.winners == [0] and st.current_player is None
    assert st.scores[0] == 20 and not st.extra_turn


# ------------------------------------------------------------------ D25


def test_d25_turn_cap_ends_with_no_winner():
    """D25: a game that reaches the host's cap ends with no winner."""
    st = duel.new_game(2, 0, turn_cap=3)
    assert st.turn_cap == 3
    for _ in range(3):
        assert not st.is_terminal
        quiet_take(st)
    assert st.is_terminal and st.turn == 3
    assert st.winners == [] and st.end_reason == "turn cap" and st.current_player is None
    assert st.legal_actions() == []


def test_d25_extra_turns_count_toward_the_cap():
    """D25 with D13: the cap counts turns, extra turns included."""
    st = duel.new_game(2, 0, turn_cap=1)
    cid, slot = affordable(st, lambda c: c.ability == "again" and c.level == 1)
    sound(st)
    st.apply(f"buy {slot}")
    assert st.is_terminal and st.end_reason == "turn cap" and st.winners == []


def test_d25_a_win_on_the_capped_turn_counts():
    """D21 before D25: a victory on the last allowed turn is a victory."""
    st = duel.new_game(2, 0, turn_cap=1)
    cid, slot = affordable(st, black_one_pointer)
    nineteen_points(st, avoid=[cid])
    st.apply(f"buy {slot}")
    assert st.winners == [0] and st.end_reason == "points"


def test_d25_no_cap_by_default():
    st = new(0)
    assert st.turn_cap is None
    rnd = random.Random(0)
    while not st.is_terminal and st.turn < 60:
        st.apply(rnd.choice(st.legal_actions()))
    assert st.turn >= 60 or st.end_reason in ("points", "crowns", "colour")
    assert st.end_reason != "turn cap"
