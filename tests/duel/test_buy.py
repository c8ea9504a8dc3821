"""Buying: rule D10 (cost less bonuses, pearls never reduced, gold for any token, the
player's choice of payment, spent tokens into the bag) and D11 (refilling the pyramid)."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from splendor import duel
from splendor.duel import CARDS

from .helpers import (
    arrange,
    bag,
    card_where,
    deck_top,
    empty_deck,
    field,
    give_bonuses,
    give_reserved,
    legal_of,
    legal_texts,
    new,
    rec,
    show,
    snapshot,
    sound,
    tokens_of,
    vec,
)

EMPTYISH = "...../...../...../...../....."


def default_payment(cost, bonuses, tokens):
    """D10 default payment from the rule: bonuses reduce gem costs (never pearls);
    coloured tokens and pearls first, gold for the shortfall. Tokens left (length 7), or
    None when unaffordable."""
    left = list(tokens)
    gold = 0
    for c in range(6):
        need = max(0, cost[c] - (bonuses[c] if c < 5 else 0))
        paid = min(need, left[c])
        left[c] -= paid
        gold += need - paid
    if gold > left[6]:
        return None
    left[6] -= gold
    return left


def all_payments(cost, bonuses, tokens):
    """Every payment D10 allows (each gold replaces one token of any colour, pearls
    included), as the tokens left afterwards."""
    need = [max(0, cost[c] - (bonuses[c] if c < 5 else 0)) for c in range(6)]
    out = set()
    for gold in product(*(range(n + 1) for n in need)):
        if sum(gold) > tokens[6]:
            continue
        if any(need[c] - gold[c] > tokens[c] for c in range(6)):
            continue
        out.add(tuple(tokens[c] - (need[c] - gold[c]) for c in range(6)) + (tokens[6] - sum(gold),))
    return out


def reachable_payments(st: duel.State, start: str):
    """Explore every decision sequence of the payment phase after ``start``; return the
    buyer's tokens after each completed purchase. Fails on a dead end."""
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
        assert {a.kind for a in acts} <= {"pay_gold", "pay"}
        for a in acts:
            nxt = s.copy()
            nxt.apply(a)
            todo.append(nxt)
    return results


def position(cost: str, bonuses=(0,) * 5, tokens="", level=None, seed=0, **attrs):
    """Seat 0 to play, with ``bonuses`` from 0-point cards, ``tokens``, and a no-ability
    card of ``cost`` shown in the pyramid; returns (state, card id, slot notation)."""
    st = new(seed)
    if level is not None:
        attrs["level"] = level
    pred = card_where(cost=cost, **attrs)
    if "ability" not in attrs:
        base = pred
        pred = lambda c: base(c) and c.ability == "none"  # noqa: E731
    cid, slot = show(st, pred)
    give_bonuses(st, 0, bonuses, avoid=[cid])
    arrange(st, board=EMPTYISH, tokens={0: tokens, 1: ""})
    sound(st)
    return st, cid, slot


def test_d10_bonuses_reduce_the_cost_and_tokens_go_to_the_bag():
    """D10: a 1U 1G 1R 1K card with a blue bonus costs 1G 1R 1K; those tokens go into the
    bag; the card's bonus and the turn follow."""
    st, cid, slot = position("1U 1G 1R 1K", bonuses=(0, 1, 0, 0, 0), tokens="1G 1R 1K")
    before_bag = bag(st)
    assert f"buy {slot}" in legal_texts(st)
    st.apply(f"buy {slot}")
    sound(st)
    assert tokens_of(st, 0) == [0] * 7
    assert bag(st) == [a + b for a, b in zip(before_bag, vec("1G 1R 1K"), strict=True)]
    assert int(rec(st)["card_owner"][cid]) == 0
    assert st.players[0].bonuses[CARDS[cid].color] == 1 + (CARDS[cid].color == 1)
    assert st.current_player == 1


def test_d10_bonuses_in_excess_give_nothing_back():
    """D10: 3 green bonuses against a cost of 3G: free, and nothing is refunded."""
    st, cid, slot = position("3G", bonuses=(0, 0, 3, 0, 0), tokens="1W", level=1)
    before = bag(st)
    st.apply(f"buy {slot}")
    assert tokens_of(st, 0) == vec("1W") and bag(st) == before
    assert int(rec(st)["card_owner"][cid]) == 0


def test_d10_pearls_are_never_reduced_by_bonuses():
    """D10: bonuses never reduce pearls: with 2G 2R 2K bonuses a 2G 2R 2K 1P card still
    needs a pearl (or a gold in its place)."""
    st, cid, slot = position("2G 2R 2K 1P", bonuses=(0, 0, 2, 2, 2), tokens="")
    assert f"buy {slot}" not in legal_texts(st)
    with pytest.raises(duel.IllegalActionError):
        st.apply(f"buy {slot}")
    arrange(st, tokens={0: "1P"})
    assert f"buy {slot}" in legal_texts(st)
    st.apply(f"buy {slot}")
    assert tokens_of(st, 0) == [0] * 7 and bag(st)[5] == 2  # both pearls in the bag now


def test_d10_gold_replaces_a_pearl():
    """D10: a gold replaces one token of any colour, pearls included."""
    st, cid, slot = position("2G 2R 2K 1P", bonuses=(0, 0, 2, 2, 2), tokens="1*")
    st.apply(f"buy {slot}")
    assert tokens_of(st, 0) == [0] * 7 and bag(st)[6] == 3 and bag(st)[5] == 2
    assert int(rec(st)["card_owner"][cid]) == 0


def delta(after, before):
    return [a - b for a, b in zip(after, before, strict=True)]


def test_d10_default_payment_spends_gold_only_for_the_shortfall():
    """D10: the default payment spends coloured tokens and pearls first, gold for the
    rest: 2W 2R 2K 1P with 1W 2R 2K 1P 2* pays 1W 2R 2K 1P and 1 gold, keeping 1 gold."""
    st, cid, slot = position("2W 2R 2K 1P", tokens="1W 2R 2K 1P 2*")
    cost = CARDS[cid].cost
    want = default_payment(cost, [0] * 5, vec("1W 2R 2K 1P 2*"))
    before = bag(st)
    st.apply(f"buy {slot}")
    assert tokens_of(st, 0) == want == vec("1*")
    assert delta(bag(st), before) == vec("1W 2R 2K 1P 1*")


def test_d10_chosen_payment_reaches_every_legal_payment():
    """D10: 'buy X choose' then 'gold C' ... 'pay' reaches exactly the payments the rule
    allows, and never strands the buyer."""
    st, cid, slot = position("2W 2R 2K 1P", tokens="2W 1R 2K 1P 3*")
    want = all_payments(CARDS[cid].cost, [0] * 5, vec("2W 1R 2K 1P 3*"))
    assert len(want) > 5
    assert reachable_payments(st, f"buy {slot} choose") == want


def test_d10_chosen_payment_step_by_step():
    """D10: during the payment, 'gold P' pays the pearl with gold; 'pay' spends the rest;
    the tokens go into the bag."""
    st, cid, slot = position("2W 2R 2K 1P", tokens="2W 2R 2K 1P 2*")
    before = bag(st)
    st.apply(f"buy {slot} choose")
    assert st.phase == "payment" and st.current_player == 0
    card, owed, gold = st.payment
    assert card.id == cid and owed == (2, 0, 0, 2, 2, 1) and gold == 0
    assert legal_of(st, "pay_gold", "pay") == {"gold W", "gold R", "gold K", "gold P", "pay"}
    st.apply("gold P")
    assert st.payment[1] == (2, 0, 0, 2, 2, 0) and st.payment[2] == 1
    st.apply("gold W")
    assert "gold P" not in legal_texts(st)  # nothing more owed in pearls
    assert "gold W" not in legal_texts(st)  # no gold left
    st.apply("pay")
    assert tokens_of(st, 0) == vec("1W 1P")
    assert delta(bag(st), before) == vec("1W 2R 2K 2*")
    assert int(rec(st)["card_owner"][cid]) == 0 and st.current_player == 1
    sound(st)


def test_d10_pay_must_cover_the_cost():
    """D10: 'pay' is only legal once tokens and committed gold cover the cost; other
    decisions are illegal during the payment."""
    st, cid, slot = position("2W 2R 2K 1P", tokens="1W 2R 2K 1P 2*")
    st.apply(f"buy {slot} choose")
    assert "pay" not in legal_texts(st)  # 1W short until a gold is committed to it
    before = snapshot(st)
    for text in ("pay", "take a1", "buy 1.1", "gold U", "return W", "pass"):
        with pytest.raises(ValueError):
            st.apply(text)
        assert snapshot(st) == before
    st.apply("gold W")
    assert "pay" in legal_texts(st)


def test_d10_choose_only_when_there_is_a_choice():
    """D10: without spare gold the default payment is the only payment: 'buy X choose'
    is not offered."""
    st, cid, slot = position("2W 2R 2K 1P", tokens="2W 2R 2K 1P")
    assert f"buy {slot}" in legal_texts(st) and f"buy {slot} choose" not in legal_texts(st)
    with pytest.raises(duel.IllegalActionError):
        st.apply(f"buy {slot} choose")
    st, cid, slot = position("2W 2R 2K 1P", tokens="1W 2R 2K 1P 1*")  # gold covers the gap
    assert f"buy {slot}" in legal_texts(st) and f"buy {slot} choose" not in legal_texts(st)
    st, cid, slot = position("2W 2R 2K 1P", tokens="1W 2R 2K 1P 2*")  # one spare gold
    assert f"buy {slot} choose" in legal_texts(st)


def test_d10_unaffordable_card_is_illegal():
    """D10: a card the player cannot pay is illegal and the state stays unchanged."""
    st, cid, slot = position("2W 2R 2K 1P", tokens="1W 2R 2K 1*")
    before = snapshot(st)
    with pytest.raises(duel.IllegalActionError, match=f"illegal action 'buy {slot}'"):
        st.apply(f"buy {slot}")
    assert snapshot(st) == before


def test_d10_bonus_count_two():
    """D3/D10: a card with bonus count 2 adds 2 bonuses in its colour (its points count
    once toward that colour, D21)."""
    st, cid, slot = position("5U 2G", tokens="4U 2G 1*", bonuses=(0, 1, 0, 0, 0))
    card = CARDS[cid]
    assert card.bonus_count == 2 and card.color == 0
    st.apply(f"buy {slot}")
    view = st.players[0]
    assert view.bonuses[0] == 2 and view.color_points[0] == card.points == 1
    assert tokens_of(st, 0) == vec("1*")  # 4U bonus-reduced to 4, paid in tokens first


def test_d10_card_without_bonus():
    """D3/D10: a card with no bonus adds points but no bonus and no colour points."""
    st, cid, slot = position("4R 1P", tokens="4R 1P")
    st.apply(f"buy {slot}")
    view = st.players[0]
    assert view.points == 3 and view.bonuses == (0,) * 5 and view.color_points == (0,) * 5
    assert view.purchased_colors == (-1,)


def test_d10_d11_bought_pyramid_card_is_replaced_from_its_deck():
    """D11: the bought card's slot gets the top card of the same level's deck."""
    st, cid, slot = position("1U 1G 1R 1K", tokens="1U 1G 1R 1K")
    idx = int(list(rec(st)["pyramid"]).index(cid))
    top = deck_top(st, 0)
    sizes = st.deck_sizes
    st.apply(f"buy {slot}")
    assert int(rec(st)["pyramid"][idx]) == top
    assert st.deck_sizes == (sizes[0] - 1, sizes[1], sizes[2])


def test_d11_bought_card_with_an_empty_deck_leaves_the_slot_empty():
    st, cid, slot = position("1U 1G 1R 1K", tokens="1U 1G 1R 1K")
    empty_deck(st, 0, 1)
    sound(st)
    st.apply(f"buy {slot}")
    assert st.pyramid[0][0] is None and st.deck_sizes[0] == 0
    sound(st)


def test_d10_buy_own_reserved_cards():
    """D10: a player buys their own reserved cards ('buy r2'); the other reserved cards
    close ranks; a blind-reserved card can be bought too."""
    st = new(0)
    pred = card_where(level=1, ability="none", cost="1U 1G 1R 1K")
    from .helpers import card_with

    a = card_with(st, pred)
    b = card_with(st, lambda c: c.level == 3)
    c = card_with(st, card_where(level=1, ability="none", cost="1W 1U 1G 1K"))
    give_reserved(st, 0, b)
    give_reserved(st, 0, a, blind=True)
    give_reserved(st, 0, c)
    arrange(st, board=EMPTYISH, tokens={0: "1W 1U 1G 1R 1K", 1: ""})
    sound(st)
    reserved_buys = {str(a) for a in st.legal_actions() if a.reserved}
    assert reserved_buys == {"buy r2", "buy r3"}  # r1 is the level-3 card
    pyramid = rec(st)["pyramid"].copy()
    st.apply("buy r2")
    assert [x.id for x in st.players[0].reserved] == [b, c]
    assert st.players[0].reserved_blind == (False, False)
    assert int(rec(st)["card_owner"][a]) == 0 and tokens_of(st, 0) == vec("1W")
    assert (rec(st)["pyramid"] == pyramid).all()  # nothing drawn for a reserved card
    sound(st)


def test_d10_cannot_buy_the_opponents_reserved_card():
    """D10: only one's own reserved cards may be bought."""
    st = new(0)
    from .helpers import card_with

    cid = card_with(st, card_where(level=1, ability="none", cost="1U 1G 1R 1K"))
    give_reserved(st, 1, cid)
    arrange(st, board=EMPTYISH, tokens={0: "1W 1U 1G 1R 1K", 1: ""})
    sound(st)
    assert not any(a.reserved for a in st.legal_actions())
    with pytest.raises(duel.IllegalActionError):
        st.apply("buy r1")


def test_d10_gold_pays_for_any_missing_gem():
    """D10: each gold replaces one token of any colour: 3 gold buy a 3U card."""
    st, cid, slot = position("3U", tokens="3*", level=1)
    before = bag(st)
    st.apply(f"buy {slot}")
    assert tokens_of(st, 0) == [0] * 7 and delta(bag(st), before) == vec("3*")
    assert st.players[0].crowns == CARDS[cid].crowns


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    held=hs.lists(hs.integers(0, 3), min_size=6, max_size=6),
    gold=hs.integers(0, 3),
    bonus=hs.lists(hs.integers(0, 2), min_size=5, max_size=5),
)
def test_d10_payments_match_the_rule_for_random_holdings(held, gold, bonus):
    """D10 over random holdings and bonuses for the level-3 card 3U 5R 3K 1P: the buy is
    legal exactly when the rule's default payment exists, the default leaves what the rule
    says, and the chosen payments are exactly the rule's."""
    held = [min(h, 2) if c == 5 else h for c, h in enumerate(held)]
    st, cid, slot = position("0W 3U 0G 5R 3K 1P", level=3)
    give_bonuses(st, 0, bonus, avoid=[cid])
    toks = held + [gold]
    text = " ".join(f"{n}{'WUGRKP*'[c]}" for c, n in enumerate(toks) if n)
    arrange(st, tokens={0: text})
    sound(st)
    cost = CARDS[cid].cost
    bon = [int(x) for x in field(st, "bonuses")[0]]
    want = default_payment(cost, bon, toks)
    assert (f"buy {slot}" in legal_texts(st)) == (want is not None)
    if want is None:
        return
    payments = all_payments(cost, bon, toks)
    if len(payments) > 1:
        assert reachable_payments(st, f"buy {slot} choose") == payments
    else:
        assert f"buy {slot} choose" not in legal_texts(st)
    st.apply(f"buy {slot}")
    assert tokens_of(st, 0) == want
    sound(st)
