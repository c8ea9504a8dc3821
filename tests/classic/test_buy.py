"""Buying: rule C9 (bonuses, gold, chosen and default payments, free cards) and C10
(refilling the face-up row)."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from splendor import classic
from splendor.classic import CARDS

from .helpers import (
    card_with,
    empty_deck,
    field,
    give_purchased,
    give_reserved,
    legal_texts,
    new,
    put_faceup,
    rec,
    set_tokens,
    sound,
    supply,
    tokens_of,
    unplaced,
    vec,
)


def cost_is(*cost: int):
    return lambda c: c.cost == tuple(cost)


def give_bonuses(st: classic.State, seat: int, bonuses, avoid=()) -> None:
    """Give ``seat`` bought level-1 cards so that its bonuses are ``bonuses`` (length 5)."""
    for colour, n in enumerate(bonuses):
        ids = unplaced(
            st, lambda c, colour=colour: c.level == 1 and c.bonus == colour and c.id not in avoid
        )
        give_purchased(st, seat, ids[:n])
    assert [int(x) for x in field(st, "bonuses")[seat]] == list(bonuses)


def default_payment(cost, bonuses, tokens):
    """C9 default payment worked out from the rule: coloured tokens first, gold for the
    shortfall. Returns the tokens (length 6) left afterwards, or None if unaffordable."""
    left = list(tokens)
    gold = 0
    for c in range(5):
        need = max(0, cost[c] - bonuses[c])
        paid = min(need, left[c])
        left[c] -= paid
        gold += need - paid
    if gold > left[5]:
        return None
    left[5] -= gold
    return left


def all_payments(cost, bonuses, tokens):
    """Every payment C9 allows (gold anywhere it replaces a token), as the tokens left."""
    need = [max(0, cost[c] - bonuses[c]) for c in range(5)]
    out = set()
    for gold in product(*(range(n + 1) for n in need)):
        if sum(gold) > tokens[5]:
            continue
        if any(need[c] - gold[c] > tokens[c] for c in range(5)):
            continue
        out.add(tuple(tokens[c] - (need[c] - gold[c]) for c in range(5)) + (tokens[5] - sum(gold),))
    return out


def reachable_payments(st: classic.State, start: str):
    """Explore every decision sequence of the payment phase after ``start``; return the
    seat's tokens after each completed purchase. Fails on a dead end."""
    seat = st.current_player
    first = st.copy()
    first.apply(start)
    results, todo = set(), [first]
    while todo:
        s = todo.pop()
        if s.phase != "payment":
            results.add(tuple(tokens_of(s, seat)))
            continue
        acts = s.legal_actions()
        assert acts, "payment phase with no way to finish"
        assert all(a.kind in ("pay_gold", "pay") for a in acts)
        for a in acts:
            nxt = s.copy()
            nxt.apply(a)
            todo.append(nxt)
    return results


def position(cost, bonuses=(0,) * 5, tokens="", players=4, seed=0):
    """A position where seat 0 may buy the level-1..3 card of ``cost`` shown in slot 1."""
    st = new(players, seed)
    target = card_with(st, cost_is(*cost))
    lvl = CARDS[target].level - 1
    give_bonuses(st, 0, bonuses, avoid=(target,))
    put_faceup(st, lvl, 0, target)
    set_tokens(st, 0, tokens)
    sound(st)
    return st, target, f"{lvl + 1}.1"


def test_c9_bonuses_reduce_the_cost():
    """C9: one bonus of a colour pays one token of it: a 2R 1K card with a red bonus
    costs 1R 1K; the tokens go back to the supply."""
    st, target, where = position((0, 0, 0, 2, 1), bonuses=(0, 0, 0, 1, 0), tokens="1R 1K")
    sup = supply(st)
    assert f"buy {where}" in legal_texts(st)
    st.apply(f"buy {where}")
    sound(st)
    assert tokens_of(st, 0) == [0] * 6
    assert supply(st) == [sup[0], sup[1], sup[2], sup[3] + 1, sup[4] + 1, sup[5]]
    assert int(rec(st)["purchased_by"][target]) == 0
    want = [0, 0, 0, 1, 0]
    want[CARDS[target].bonus] += 1
    assert list(st.player(0).bonuses) == want


def test_c9_card_bonus_and_points_are_gained():
    """C9: the bought card adds its bonus and its points to the buyer."""
    st = new(2, seed=0)
    target = card_with(st, lambda c: c.level == 1 and c.points == 1)
    put_faceup(st, 0, 3, target)
    set_tokens(st, 0, [4 if x else 0 for x in CARDS[target].cost] + [0])
    sound(st)
    st.apply("buy 1.4")
    me = st.player(0)
    assert me.points == 1 and [c.id for c in me.purchased] == [target]
    assert me.bonuses[CARDS[target].bonus] == 1 and sum(me.bonuses) == 1


def test_c9_without_enough_tokens_buy_is_illegal():
    """C9: a card the player cannot pay for cannot be bought."""
    st, _, where = position((0, 0, 0, 2, 1), tokens="1R 1K")
    assert f"buy {where}" not in legal_texts(st)
    before = st._a.tobytes()
    with pytest.raises(classic.IllegalActionError):
        st.apply(f"buy {where}")
    assert st._a.tobytes() == before


def test_c9_gold_replaces_missing_tokens():
    """C9: each gold replaces one token of any colour; spent gold returns to the supply."""
    st, _, where = position((0, 0, 0, 2, 1), tokens="1R 2*")
    sup = supply(st)
    st.apply(f"buy {where}")
    sound(st)
    assert tokens_of(st, 0) == [0] * 6
    assert supply(st)[3] == sup[3] + 1 and supply(st)[5] == sup[5] + 2


def test_c9_default_payment_spends_coloured_first():
    """C9 ruling: the default payment spends coloured tokens and keeps the gold."""
    st, _, where = position((0, 0, 0, 2, 1), tokens="3R 1K 2*")
    st.apply(f"buy {where}")
    assert tokens_of(st, 0) == vec("1R 2*")


def test_c9_zero_cost_card_with_enough_bonuses():
    """C9: bonuses covering the whole cost make the card free, even with no token."""
    st, target, where = position((0, 0, 0, 2, 1), bonuses=(0, 0, 0, 2, 1), tokens="")
    sup = supply(st)
    assert f"buy {where}" in legal_texts(st)
    assert f"buy {where} choose" not in legal_texts(st)  # nothing to choose
    st.apply(f"buy {where}")
    sound(st)
    assert supply(st) == sup and tokens_of(st, 0) == [0] * 6
    assert int(rec(st)["purchased_by"][target]) == 0


def test_c9_bonuses_beyond_cost_do_not_refund():
    """C9: surplus bonuses are not worth tokens; the free card pays nothing back."""
    st, _, where = position((0, 0, 0, 2, 1), bonuses=(3, 0, 0, 3, 2), tokens="1W")
    st.apply(f"buy {where}")
    assert tokens_of(st, 0) == vec("1W")


def test_c9_choose_illegal_without_spare_gold():
    """C9: 'buy X choose' exists only when a payment other than the default does: without
    gold, or with just the gold the shortfall needs, it is illegal."""
    st, _, where = position((0, 0, 0, 2, 1), tokens="2R 1K")
    assert f"buy {where}" in legal_texts(st) and f"buy {where} choose" not in legal_texts(st)
    st, _, where = position((0, 0, 0, 2, 1), tokens="1R 2*")  # gold needed for R and K
    assert f"buy {where} choose" not in legal_texts(st)


def test_c9_choose_uses_gold_where_coloured_would_do():
    """C9 ruling: a player with enough red may still pay red with gold."""
    st, _, where = position((0, 0, 0, 2, 1), tokens="2R 1K 1*")
    assert f"buy {where} choose" in legal_texts(st)
    st.apply(f"buy {where} choose")
    assert st.phase == "payment" and st.current_player == 0
    card, need, gold = st.payment
    assert need == (0, 0, 0, 2, 1) and gold == 0
    assert legal_texts(st) == {"gold R", "gold K", "pay"}
    st.apply("gold R")
    assert st.payment[1:] == ((0, 0, 0, 1, 1), 1)
    assert legal_texts(st) == {"pay"}  # one gold only
    st.apply("pay")
    sound(st)
    assert tokens_of(st, 0) == vec("1R")
    assert st.current_player == 1


def test_c9_pay_at_once_is_the_default_payment():
    """C9: 'buy X choose' then 'pay' pays like the default payment."""
    a, _, where = position((0, 0, 0, 2, 1), tokens="2R 1K 1*")
    b = a.copy()
    a.apply(f"buy {where} choose")
    a.apply("pay")
    b.apply(f"buy {where}")
    assert a._a.tobytes() == b._a.tobytes()


def test_c9_shortfall_must_be_covered_before_pay():
    """C9: while a coloured token is still missing, 'pay' is illegal; gold on a colour
    that would leave the rest unpayable is illegal too."""
    # cost 2R 1K, holding 1R 1K and 2 gold: one gold must go to R
    st, _, where = position((0, 0, 0, 2, 1), tokens="1R 1K 2*")
    st.apply(f"buy {where} choose")
    assert legal_texts(st) == {"gold R", "gold K"}
    st.apply("gold K")  # K by gold: the last gold must then go to R
    assert legal_texts(st) == {"gold R"}
    st.apply("gold R")
    assert legal_texts(st) == {"pay"}
    st.apply("pay")
    assert tokens_of(st, 0) == vec("1K")


def test_c9_every_covering_payment_reachable_example():
    """C9 ruling: through 'gold C' / 'pay' every payment that covers the cost can be
    made, and only those."""
    cost = (0, 1, 2, 1, 1)
    tokens = vec("1U 2G 1K 3*")
    st, _, where = position(cost, tokens=tokens)
    want = all_payments(cost, (0,) * 5, tokens)
    assert len(want) > 5
    assert reachable_payments(st, f"buy {where} choose") == want
    # the default payment is one of them
    assert tuple(default_payment(cost, (0,) * 5, tokens)) in want


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    card=hs.integers(0, 89),
    bonuses=hs.lists(hs.integers(0, 3), min_size=5, max_size=5),
    tokens=hs.lists(hs.integers(0, 4), min_size=5, max_size=5).filter(lambda t: sum(t) <= 10),
    gold=hs.integers(0, 4),
)
def test_c9_payments_property(card, bonuses, tokens, gold):
    """C9 (property): for any card, bonuses and tokens: 'buy' is legal exactly when a
    covering payment exists and pays the default one; 'buy choose' is legal exactly when
    another payment exists, and reaches every covering payment."""
    st = new(4, seed=card)
    give_bonuses(st, 0, bonuses, avoid=(card,))
    lvl = CARDS[card].level - 1
    put_faceup(st, lvl, 2, card)
    held = list(tokens) + [min(gold, 10 - sum(tokens))]  # C11: at most 10 tokens
    set_tokens(st, 0, held)
    sound(st)
    cost = CARDS[card].cost
    want = all_payments(cost, bonuses, held)
    default = default_payment(cost, bonuses, held)
    legal = legal_texts(st)
    buy, choose = f"buy {lvl + 1}.3", f"buy {lvl + 1}.3 choose"
    assert (buy in legal) == bool(want) == (default is not None)
    assert (choose in legal) == (len(want) > 1)
    if choose in legal:
        assert reachable_payments(st, choose) == want
    if buy in legal:
        st.apply(buy)
        assert tokens_of(st, 0) == default
        assert int(rec(st)["purchased_by"][card]) == 0
        sound(st)


def test_c9_buy_own_reserved_card():
    """C9: a player may buy one of their reserved cards (including a blind one); the
    reserve closes up and no face-up card moves (C10 does not apply)."""
    st = new(2, seed=5)
    a = card_with(st, cost_is(0, 0, 0, 2, 1))
    b = card_with(st, lambda c: c.level == 2)
    give_reserved(st, 0, b, blind=True)
    give_reserved(st, 0, a, blind=True)
    set_tokens(st, 0, "2R 1K")
    sound(st)
    faceup = rec(st)["faceup"].copy()
    decks = st.deck_sizes
    assert "buy r2" in legal_texts(st) and "buy r1" not in legal_texts(st)
    st.apply("buy r2")
    sound(st)
    assert [c.id for c in st.player(0).reserved] == [b]
    assert int(rec(st)["purchased_by"][a]) == 0
    assert (rec(st)["faceup"] == faceup).all() and st.deck_sizes == decks


def test_c9_cannot_buy_another_players_reserved_card():
    """C9: only one's own reserved cards can be bought."""
    st = new(2, seed=5)
    a = card_with(st, cost_is(0, 0, 0, 2, 1))
    give_reserved(st, 1, a)
    set_tokens(st, 0, "2R 1K")
    sound(st)
    assert not any(t.startswith("buy r") for t in legal_texts(st))
    with pytest.raises(classic.IllegalActionError):
        st.apply("buy r1")


def test_c10_bought_card_replaced_from_same_level_deck():
    """C10: the slot of a bought face-up card gets the top card of the same level."""
    st, target, where = position((0, 0, 0, 2, 1), tokens="2R 1K", players=2)
    s = rec(st)
    top = int(s["decks"][0, s["deck_len"][0] - 1])
    sizes = st.deck_sizes
    st.apply(f"buy {where}")
    assert int(s["faceup"][0, 0]) == top
    assert st.deck_sizes == (sizes[0] - 1, sizes[1], sizes[2])


def test_c10_empty_deck_leaves_slot_empty_after_buy():
    """C10: the deck of that level is empty: the slot stays empty (-1)."""
    st = new(2, seed=9)
    target = card_with(st, cost_is(0, 0, 0, 2, 1))
    put_faceup(st, 0, 1, target)
    empty_deck(st, 0, seat=1)
    set_tokens(st, 0, "2R 1K")
    sound(st)
    st.apply("buy 1.2")
    sound(st)
    assert int(rec(st)["faceup"][0, 1]) == -1 and st.faceup[0][1] is None
    assert "buy 1.2" not in legal_texts(st) and "reserve 1.2" not in legal_texts(st)
    assert st.deck_sizes[0] == 0


def test_c10_chosen_payment_also_refills():
    """C10: buying through a chosen payment refills the slot too."""
    st, target, where = position((0, 0, 0, 2, 1), tokens="2R 1K 1*", players=2)
    s = rec(st)
    top = int(s["decks"][0, s["deck_len"][0] - 1])
    st.apply(f"buy {where} choose")
    assert int(s["faceup"][0, 0]) == target  # still shown while paying
    st.apply("gold K")
    st.apply("pay")
    assert int(s["faceup"][0, 0]) == top
    assert tokens_of(st, 0) == vec("1K")
