"""End of the game: rules C14 (15 points, the round is completed), C15 (winner and
tie-breaks) and C17 (pass, and the game ending when every player passes)."""

from __future__ import annotations

import pytest

from splendor import classic
from splendor.classic import CARDS

from .helpers import (
    card_with,
    cards_for_points,
    field,
    give_purchased,
    give_reserved,
    harmless,
    legal_texts,
    new,
    noble_with,
    put_faceup,
    put_on_deck_top,
    set_nobles,
    set_scalar,
    set_supply,
    set_tokens,
    sound,
    tokens_of,
    unplaced,
)

# The five level-1 cards worth 1 point each cost 4 tokens of one colour (C2 data).
ONE_POINT = {c.cost.index(4): c.id for c in CARDS if c.level == 1 and c.points == 1}


def pad(st, seat, k):
    """Give ``seat`` ``k`` more bought cards worth 0 points (level 1)."""
    give_purchased(st, seat, unplaced(st, lambda c: c.level == 1 and c.points == 0)[:k])


def ready_to_score(st, seat, points, colour, slot, extra_cards=0):
    """``seat`` holds ``points`` (level-3 cards, plus ``extra_cards`` 0-point cards) and
    4 tokens of ``colour``: enough to buy the 1-point card shown in level-1 ``slot``."""
    give_purchased(st, seat, cards_for_points(st, points))
    pad(st, seat, extra_cards)
    put_faceup(st, 0, slot, ONE_POINT[colour])
    set_tokens(st, seat, [4 if c == colour else 0 for c in range(5)] + [0])


def buy_one_point(st, slot):
    st.apply(f"buy 1.{slot + 1}")


# ------------------------------------------------------------------ C14


@pytest.mark.parametrize(
    "n,seat", [(n, s) for n in (2, 3, 4) for s in range(n)], ids=lambda x: str(x)
)
def test_c14_round_completed_from_every_seat(n, seat):
    """C14: seat ``seat`` of ``n`` reaches 15 at the end of its turn: every later seat
    still plays, and the game ends right after seat n-1 (all played the same number of
    turns); the round is not cut short and no extra turn is played."""
    st = new(n, seed=21)
    ready_to_score(st, seat, 14, colour=2, slot=0)
    sound(st)
    for s in range(seat):
        assert st.current_player == s
        harmless(st)
        assert not st.final_round
    assert st.current_player == seat
    buy_one_point(st, 0)
    assert st.scores[seat] == 15
    assert st.final_round
    for s in range(seat + 1, n):
        assert not st.is_terminal and st.current_player == s
        harmless(st)
    assert st.is_terminal and st.current_player is None
    assert st.end_reason == "points"
    assert st.turn == n  # everybody played exactly one turn
    assert st.winners == [seat]
    assert st.legal_actions() == []
    sound(st)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_c14_fourteen_points_do_not_end_the_game(n):
    """C14: 14 points at the end of the round: play goes on to the next round."""
    st = new(n, seed=4)
    ready_to_score(st, 0, 13, colour=2, slot=0)
    buy_one_point(st, 0)
    assert st.scores[0] == 14 and not st.final_round
    for _ in range(n - 1):
        harmless(st)
    assert not st.is_terminal and st.current_player == 0


def test_c14_reached_in_a_later_round():
    """C14: reaching 15 in round 2 from seat 1 of 3: the game ends after seat 2 of
    that round (6 turns)."""
    st = new(3, seed=4)
    ready_to_score(st, 1, 14, colour=2, slot=0)
    for _ in range(3):
        harmless(st)
    # seat 1 only took tokens in round 1; it may still buy now
    assert st.current_player == 0
    harmless(st)
    assert "buy 1.1" in legal_texts(st)
    buy_one_point(st, 0)
    assert st.final_round and not st.is_terminal
    harmless(st)
    assert st.is_terminal and st.turn == 6 and st.winners == [1]


def test_c14_noble_points_count():
    """C14 with C12: 12 card points and a noble's 3 reach 15 and end the game."""
    st = new(2, seed=8)
    set_nobles(st, [noble_with("4W 4U"), noble_with("4G 4R"), noble_with("4R 4K")])
    give_purchased(st, 0, cards_for_points(st, 12))
    blue = unplaced(st, lambda c: c.level == 1 and c.points == 0 and c.bonus == 1)
    white = unplaced(st, lambda c: c.level == 1 and c.points == 0 and c.bonus == 0)
    have = st.player(0).bonuses  # from the 12 points of cards
    assert have[1] <= 3
    give_purchased(st, 0, white[: max(0, 4 - have[0])] + blue[: 3 - have[1]])
    target = blue[3]
    put_faceup(st, 0, 2, target)
    set_tokens(st, 0, list(CARDS[target].cost) + [0])
    sound(st)
    bonuses = st.player(0).bonuses
    assert bonuses[0] >= 4 and bonuses[1] == 3
    assert st.scores[0] == 12
    st.apply("buy 1.3")
    assert st.scores[0] == 15 and len(st.player(0).nobles) == 1
    assert st.final_round
    harmless(st)
    assert st.is_terminal and st.winners == [0]


# ------------------------------------------------------------------ C15


def final_round_2p(points0, cards0, points1, cards1, reserved1=0):
    """Two seats each one 1-point purchase away from their score: seat 0 reaches
    ``points0`` with ``cards0`` cards bought, then seat 1 ``points1`` with ``cards1``."""
    st = new(2, seed=2)
    base0 = cards_for_points(st, points0 - 1)
    give_purchased(st, 0, base0)
    base1 = cards_for_points(st, points1 - 1)
    give_purchased(st, 1, base1)
    pad(st, 0, cards0 - 1 - len(base0))
    pad(st, 1, cards1 - 1 - len(base1))
    put_faceup(st, 0, 0, ONE_POINT[2])  # costs 4G
    put_faceup(st, 0, 1, ONE_POINT[3])  # costs 4R
    set_tokens(st, 0, "4G")
    set_tokens(st, 1, "4R")
    for cid in unplaced(st, lambda c: c.level == 2)[:reserved1]:
        give_reserved(st, 1, cid)
    sound(st)
    st.apply("buy 1.1")
    st.apply("buy 1.2")
    assert st.is_terminal and st.end_reason == "points"
    assert st.scores == [points0, points1]
    assert [len(p.purchased) for p in st.players] == [cards0, cards1]
    sound(st)
    return st


def test_c15_most_points_wins_even_with_more_cards():
    """C15: 16 points beat 15 points, whatever the card counts."""
    st = final_round_2p(15, 4, 16, 8)
    assert st.winners == [1]
    st = final_round_2p(16, 8, 15, 4)
    assert st.winners == [0]


def test_c15_tie_goes_to_fewest_purchased_cards():
    """C15: tied on points: the fewest purchased cards wins (seat 1 that played last, or
    seat 0 that reached 15 first)."""
    assert final_round_2p(15, 5, 15, 4).winners == [1]
    assert final_round_2p(15, 4, 15, 6).winners == [0]


def test_c15_reserved_cards_do_not_count():
    """C15: reserved cards are not purchased cards: 4 bought + 3 reserved beats 5
    bought."""
    st = final_round_2p(15, 5, 15, 4, reserved1=3)
    assert len(st.player(1).reserved) == 3
    assert st.winners == [1]


def test_c15_tie_on_both_is_shared_victory():
    """C15: same points and same number of purchased cards: both win."""
    assert final_round_2p(15, 5, 15, 5).winners == [0, 1]
    assert final_round_2p(17, 7, 17, 7).winners == [0, 1]


def test_c15_three_players_first_to_fifteen_may_lose():
    """C14/C15: in 3 players, seat 0 reaches 15 first; seat 2 reaches 16 in the same
    round and wins; seat 1 with fewer points loses."""
    st = new(3, seed=3)
    ready_to_score(st, 0, 14, colour=2, slot=0)
    ready_to_score(st, 2, 15, colour=3, slot=1)
    sound(st)
    buy_one_point(st, 0)
    harmless(st)
    assert not st.is_terminal
    buy_one_point(st, 1)
    assert st.is_terminal and st.scores[0] == 15 and st.scores[2] == 16
    assert st.winners == [2]


def test_c15_winners_empty_before_the_end():
    """C15: no winner while the game goes on."""
    st = new(2, seed=1)
    assert st.winners == []


@pytest.mark.parametrize(
    "points,cards,expect",
    [
        ([15, 15, 12], [6, 6, 3], [0, 1]),
        ([15, 16, 16], [5, 9, 8], [2]),
        ([15, 15, 15, 15], [7, 6, 6, 8], [1, 2]),
        ([18, 15, 17, 10], [12, 5, 5, 3], [0]),
    ],
)
def test_c15_scoring_table(points, cards, expect):
    """C15 on finished positions built directly (points from cards only): most points,
    then fewest purchased cards, ties shared."""
    n = len(points)
    st = new(n, seed=5)
    for seat, (p, k) in enumerate(zip(points, cards, strict=True)):
        ids = cards_for_points(st, p, level=3) if p >= 3 else []
        if len(ids) > k:
            raise AssertionError("test data: too few cards for the points")
        give_purchased(st, seat, ids)
        pad(st, seat, k - len(ids))
    set_scalar(st, "phase", 4)
    set_scalar(st, "current", -1)
    set_scalar(st, "end_reason", 1)
    sound(st)
    assert st.scores == points
    assert [len(p.purchased) for p in st.players] == cards
    assert st.winners == expect


# ------------------------------------------------------------------ C17


def affordable(card, tokens, bonuses):
    """C9 worked out from the rule: can these tokens and bonuses pay for ``card``?"""
    short = sum(max(0, card.cost[c] - bonuses[c] - tokens[c]) for c in range(5))
    return short <= tokens[5]


HOLDINGS = {  # every gem of the game held by the seats, at most 10 each
    2: ["4W 4U 2G", "4R 4K 2G"],
    3: ["5W 5U", "5R 5K", "5G"],
    4: ["7W 3G", "7R 3G", "7U 1G", "7K"],
}


def stalled(n=2, actor=None):
    """No gem in the supply, every seat with 3 reserved cards and no card any seat can
    afford: nobody has a legal action but pass (C17).

    With ``actor``, that seat holds only 2 reserved cards, so it may reserve once (the
    top card of each deck is out of reach too, even with the gold it would get)."""
    st = new(n, seed=7)
    held = []
    for seat, text in enumerate(HOLDINGS[n]):
        set_tokens(st, seat, text)
        held.append(tokens_of(st, seat))
    held.append(held[actor][:5] + [1] if actor is not None else held[0])

    def dead(c):
        return not any(affordable(c, h, (0,) * 5) for h in held)

    for lvl in range(3):  # every face-up card out of reach
        ids = unplaced(st, lambda c, lvl=lvl: c.level == lvl + 1 and dead(c))
        assert len(ids) >= 5
        for slot in range(4):
            put_faceup(st, lvl, slot, ids[slot])
        put_on_deck_top(st, ids[4])  # what a blind reserve would draw
    shown = set(int(x) for x in field(st, "faceup").ravel())
    tops = {int(field(st, "decks")[lvl, field(st, "deck_len")[lvl] - 1]) for lvl in range(3)}
    spare = [c for c in unplaced(st, dead) if c not in shown and c not in tops]
    for seat in range(n):
        for _ in range(2 if seat == actor else 3):
            give_reserved(st, seat, spare.pop(), blind=seat % 2 == 1)
    sound(st)
    assert st.supply == (0, 0, 0, 0, 0, 5)
    return st


def test_c17_pass_illegal_when_something_else_is_legal():
    """C17: pass is legal only when no other action is."""
    st = new(2, seed=0)
    assert "pass" not in legal_texts(st)
    before = st._a.tobytes()
    with pytest.raises(classic.IllegalActionError):
        st.apply("pass")
    assert st._a.tobytes() == before


@pytest.mark.parametrize("n", [2, 3, 4])
def test_c17_only_pass_when_nothing_else_possible(n):
    """C17: no gem to take, 3 reserved and nothing affordable: pass is the one action;
    it changes nothing but the seat to play."""
    st = stalled(n)
    assert legal_texts(st) == {"pass"}
    tokens = field(st, "tokens").copy()
    st.apply("pass")
    assert st.current_player == 1 and not st.is_terminal
    assert (field(st, "tokens") == tokens).all()
    assert legal_texts(st) == {"pass"}
    sound(st)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_c17_every_player_passing_a_round_ends_the_game(n):
    """C17: the game ends at once when every player has passed in one full round (not
    before: n-1 passes are not enough); 'stall', scored by C15 (here all tied on points
    and cards: a shared victory)."""
    st = stalled(n)
    for seat in range(n):
        assert not st.is_terminal and st.current_player == seat
        st.apply("pass")
    assert st.is_terminal and st.end_reason == "stall" and st.current_player is None
    assert st.winners == list(range(n))
    assert st.legal_actions() == []
    assert st.turn == n
    sound(st)


def test_c17_stall_scored_by_c15():
    """C17/C15: a stalled game goes to the most points."""
    st = stalled(2)
    give_purchased(st, 1, cards_for_points(st, 3))
    sound(st)
    st.apply("pass")
    assert legal_texts(st) == {"pass"}  # the bonus of seat 1's card did not help it
    st.apply("pass")
    assert st.is_terminal and st.end_reason == "stall" and st.winners == [1]


@pytest.mark.parametrize(
    "n,reserve", [(2, "reserve d3"), (3, "reserve 2.4"), (4, "reserve d1"), (4, "reserve 1.1")]
)
def test_c17_an_action_in_the_round_resets_the_count(n, reserve):
    """C17: when the last seat can still reserve, the round is not a full round of
    passes; after its reserve every seat must pass again, a full round, before the end."""
    last = n - 1
    st = stalled(n, actor=last)
    for _ in range(last):
        st.apply("pass")
    assert st.current_player == last and "pass" not in legal_texts(st)
    assert all(a.kind.startswith("reserve") for a in st.legal_actions())
    st.apply(reserve)
    while st.phase == "return tokens":
        st.apply("return *")
    for seat in range(n):
        assert not st.is_terminal and st.current_player == seat
        assert legal_texts(st) == {"pass"}
        st.apply("pass")
    assert st.is_terminal and st.end_reason == "stall"
    assert st.turn == 2 * n


def test_c17_passes_counted_across_the_round_boundary():
    """C17 (engine reading): a full round of passes need not start at seat 0: seat 0
    reserves, then seat 1 and seat 0 pass: every player has passed once in a row, and the
    position can never change again, so the game ends."""
    st = stalled(2, actor=0)
    st.apply("reserve d2")
    while st.phase == "return tokens":
        st.apply("return *")
    st.apply("pass")
    assert not st.is_terminal
    st.apply("pass")
    assert st.is_terminal and st.end_reason == "stall"


@pytest.mark.parametrize(
    "supply,actions",
    [
        (None, ["take W U G"]),
        (None, ["take R R"]),
        (None, ["reserve 1.3"]),
        (None, ["reserve d2"]),
        ("0W 0U 1G 2R 0K 5*", ["take G R"]),
        ("0W 0U 0G 2R 0K 5*", ["take R"]),
        (None, ["buy 1.1"]),
        (None, ["buy 1.1 choose", "gold R", "pay"]),
    ],
)
def test_c17_every_main_action_breaks_a_run_of_passes(supply, actions):
    """C17: only consecutive passes count toward the full round: after the other seats
    passed (the count stands at n-1), any real action of the last seat sets it back to
    0, whatever kind of action it is (checked on the engine's pass counter)."""
    n = 4
    st = new(n, seed=1)
    put_faceup(st, 0, 0, card_with(st, lambda c: c.cost == (0, 0, 0, 2, 1)))
    set_tokens(st, 0, "2R 1K 1*")
    if supply:
        set_supply(st, supply, park=[1, 2, 3, 0])
    set_scalar(st, "pass_streak", n - 1)
    sound(st)
    for a in actions:
        st.apply(a)
    while st.phase == "return tokens":
        st.apply(st.legal_actions()[-1])
    assert st.current_player == 1 and not st.is_terminal
    assert int(st._a[0]["pass_streak"]) == 0
