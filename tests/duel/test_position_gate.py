"""The position gate (issue 14): ``duel.State.from_dict`` refuses every position the rules
could not resume soundly, with a message naming the field and the rule; the positions that
play reaches, in every decision phase, load.

Regressions: positions that used to load and then broke the invariants or sent the rules
off their tables: pending effects that do not match the card being resolved (a buy in the
main phase with a pending joker left the bonuses wrong in 50 of 50 positions), a negative
turn, a turn past the cap, a payment owing more than the card costs, a finished game whose
winner meets no victory condition.
"""

from __future__ import annotations

import copy
import json
import random
import re

import pytest

from splendor import duel
from splendor.duel import CARDS, ROYALS, rules
from splendor.duel.state import STATE_DTYPE

from .helpers import affordable, give_bought, new, sound

RULE = re.compile(r"\bD\d+\b")
RARE = {
    "buy",
    "buy_choose",
    "pay_gold",
    "take_gold",
    "reserve_deck",
    "privilege",
    "replenish",
    "steal",
    "joker",
    "royal",
    "token",
}
PHASES = (
    "main",
    "reserve",
    "payment",
    "joker",
    "token",
    "steal",
    "royal",
    "return tokens",
    "game over",
)


def _play_to_every_phase() -> dict[str, duel.State]:
    """The first position of each phase in seeded games steered toward rare decisions."""
    found: dict[str, duel.State] = {}
    for seed in range(20):
        st = duel.new_game(2, seed, turn_cap=200)
        rnd = random.Random(seed)
        while True:
            found.setdefault(st.phase, st.copy())
            if st.is_terminal:
                break
            acts = st.legal_actions()
            pref = [a for a in acts if a.kind in RARE]
            st.apply(rnd.choice(pref) if pref and rnd.random() < 0.7 else rnd.choice(acts))
        if len(found) == len(PHASES):
            return found
    raise AssertionError(f"phases not reached: {set(PHASES) - set(found)}")


@pytest.fixture(scope="module")
def at() -> dict[str, duel.State]:
    return _play_to_every_phase()


def refused(d: dict, *words: str) -> str:
    """Assert ``d`` is refused with a message holding ``words`` and a rule id."""
    with pytest.raises(ValueError) as info:
        duel.State.from_dict(d)
    msg = str(info.value)
    assert msg.startswith("corrupt position: "), msg
    for w in words:
        assert w in msg, msg
    assert RULE.search(msg), msg
    return msg


def edited(st: duel.State, **changes) -> dict:
    d = copy.deepcopy(st.to_dict())
    d.update(changes)
    return d


def test_every_reached_phase_loads(at):
    """The gate accepts what play reaches, in each of the 9 phases."""
    for phase in PHASES:
        st = at[phase]
        assert st.phase == phase
        assert duel.check_invariants(st._a) == []
        assert duel.State.from_dict(st.to_dict()) == st


# ------------------------------------------------------------------ every field in range

# (field, index into it, a value outside its range, words of the message)
OUT_OF_RANGE = [
    ("current", (), 2, "seat to play"),
    ("phase", (), 9, "phase is 0..8"),
    ("observer", (), 0, "observer -1"),
    ("end_reason", (), 5, "end reason"),
    ("winner", (), 2, "winner is seat 0 or 1"),
    ("replenished", (), 2, "must be 0 or 1"),
    ("again", (), -1, "must be 0 or 1"),
    ("pend", (), 8, "bits 1 (joker), 2 (token) and 4 (steal)"),
    ("pend_card", (), 67, "card id 0..66"),
    ("turn", (), -3, "the turn is 0..turn_cap=200"),
    ("turn_cap", (), -1, "turn cap"),
    ("board", (7,), 7, "token colour 0..6"),
    ("bag", (5,), 3, "0..2 pearls"),
    ("decks", (0, 3), 67, "card ids 0..66"),
    ("deck_len", (2,), 14, "0..13 level-3"),
    ("pyramid", (4,), 80, "card id 0..66"),
    ("tokens", (1, 6), 4, "0..3 gold"),
    ("bonuses", (0, 2), -1, "not negative"),
    ("points", (1,), -2, "not negative"),
    ("crowns", (0,), -1, "not negative"),
    ("color_points", (1, 4), -5, "not negative"),
    ("privileges", (0,), 4, "0..3 privileges"),
    ("reserved", (1, 0), 67, "card id 0..66"),
    ("reserved_level", (0, 2), 4, "level is 1..3"),
    ("reserved_blind", (1, 1), 2, "must be 0 or 1"),
    ("num_reserved", (0,), 4, "at most 3"),
    ("card_owner", (10,), 2, "seat 0 or 1"),
    ("card_color", (3,), 5, "gem colour 0..4"),
    ("royal_owner", (0,), 5, "held by seat 0 or 1"),
    ("crown_claims", (1,), 3, "0..2 crown thresholds"),
    ("pay_card", (), 70, "card id 0..66"),
    ("pay_src", (), 15, "12..14"),
    ("pay_need", (3,), -1, "not negative"),
    ("pay_gold", (), 4, "0..3"),
]


def test_the_table_covers_every_field():
    """Each field of the state array (the generator aside: any value is a generator) has
    a range that the gate checks, so a field added later needs a line here."""
    assert {f for f, *_ in OUT_OF_RANGE} == set(STATE_DTYPE.names) - {"rng"}


@pytest.mark.parametrize("name, index, value, words", OUT_OF_RANGE)
def test_a_field_out_of_range_is_refused_by_name(name, index, value, words):
    d = new(0, turn_cap=200).to_dict()
    target = d
    if index:
        target = d[name]
        for i in index[:-1]:
            target = target[i]
        target[index[-1]] = value
    else:
        d[name] = value
    label = name + "".join(f"[{i}]" for i in index)
    refused(d, f"{label}={value}", words)


def test_an_int32_turn_without_a_cap_stops_before_overflow():
    d = edited(new(0), turn=2**31 - 1)
    refused(d, "turn=2147483647", "no turn cap", "D25")


# ------------------------------------------------------------------ D25 turn and cap


def test_negative_turn_is_refused():
    """Regression: a negative turn loaded (issue 14)."""
    refused(edited(new(0, turn_cap=100), turn=-3), "turn=-3: the turn is 0..turn_cap=100 (D25)")


def test_turn_past_the_cap_is_refused():
    """Regression: a turn past the cap loaded (issue 14); a game in progress is also
    before the cap, since reaching it ends the game."""
    refused(edited(new(0, turn_cap=100), turn=101), "turn=101", "D25")
    refused(edited(new(0, turn_cap=100), turn=100), "turn=100", "turn < turn_cap=100", "D25")
    assert duel.State.from_dict(edited(new(0, turn_cap=100), turn=99)).turn == 99


def test_a_game_ended_by_the_cap_is_at_the_cap(at):
    over = at["game over"]
    d = edited(over, end_reason=rules.END_CAP, winner=-1, turn_cap=over.turn + 5)
    refused(d, "end_reason=4 (turn cap)", f"turn={over.turn}", "D25")
    d = edited(over, end_reason=rules.END_CAP, winner=-1, turn_cap=0)
    refused(d, "end_reason=4 (turn cap)", "D25")


def test_a_finished_game_played_at_least_a_turn(at):
    refused(edited(at["game over"], turn=0), "turn=0", "at least one turn")


# ------------------------------------------------------------------ D21 in progress vs over


def test_a_finished_game_is_won_by_a_seat_meeting_its_reason(at):
    """Regression: the winner and end reason of a finished game were not checked against
    the scores (D21)."""
    over = at["game over"]
    assert over.end_reason in ("points", "crowns", "colour"), over.end_reason
    w = over.winners[0]
    refused(edited(over, winner=1 - w), f"the winner, seat {1 - w}", "D21")
    other = {"points": rules.END_CROWNS, "crowns": rules.END_COLOR, "colour": rules.END_POINTS}
    refused(edited(over, end_reason=other[over.end_reason]), "D21")


def test_in_progress_and_finished_agree(at):
    live = at["main"]
    refused(edited(live, winner=0), "game in progress has no end reason")
    refused(edited(live, end_reason=rules.END_POINTS), "game in progress has no end reason")
    refused(edited(live, phase=rules.PH_OVER), "current=", "no current player")
    refused(edited(at["game over"], current=0), "current=0", "no current player")
    refused(edited(at["game over"], phase=rules.PH_MAIN), "current=-1", "seat 0 or 1")
    refused(edited(at["game over"], again=1), "again=1", "no turn in progress")


# ------------------------------------------------------------------ D13-D17, D19 pending effects


@pytest.mark.parametrize("pend", range(1, 8))
def test_pending_effects_outside_a_purchase_are_refused(at, pend):
    """Regression (issue 14): pending-effect bits in the main phase loaded, and the next
    purchase resolved them for a card without that ability: with the joker bit, 50 of 50
    such positions broke the invariants after one legal buy (bonuses counted twice)."""
    refused(edited(at["main"], pend=pend), f"pend={pend}", "outside the phases of a purchase")


@pytest.mark.parametrize("phase", ["reserve", "payment", "return tokens", "game over"])
def test_no_pending_card_outside_a_purchase(at, phase):
    st = at[phase]
    refused(edited(st, pend_card=0), "pend_card=0", "outside the phases")
    refused(edited(st, pend=rules.PEND_STEAL), "pend=4")


def test_pending_effects_match_the_card_being_resolved(at):
    """The bits still due equal the abilities of the card being resolved, minus those
    already resolved in the order joker, token, steal (D14, D15, D17)."""
    joker = at["joker"]
    assert int(joker._a[0]["pend"]) == rules.PEND_JOKER
    refused(edited(joker, pend=rules.PEND_JOKER | rules.PEND_TOKEN), "pend=3", "effects still due")
    refused(edited(joker, pend=rules.PEND_JOKER | rules.PEND_STEAL), "pend=5")
    refused(edited(joker, pend=0), "pend=0")
    token = at["token"]
    assert int(token._a[0]["pend"]) == rules.PEND_TOKEN
    refused(edited(token, pend=rules.PEND_TOKEN | rules.PEND_JOKER), "pend=3")
    refused(edited(token, pend=rules.PEND_STEAL), "pend=4")
    steal = at["steal"]
    refused(edited(steal, pend=rules.PEND_STEAL | rules.PEND_TOKEN), "pend=6")
    royal = at["royal"]
    refused(edited(royal, pend=rules.PEND_STEAL), "pend=4", "are 0")


def test_the_card_being_resolved_is_one_just_bought_with_that_ability(at):
    token = at["token"].copy()
    cur = token.current_player
    plain = next(
        c.id
        for c in CARDS
        if c.level == 3
        and c.ability == "none"
        and not c.is_joker
        and int(token._a[0]["card_owner"][c.id]) < 0
    )
    give_bought(token, cur, [plain])
    refused(edited(token, pend_card=plain), "phase token", "no token ability", "D15")
    theirs = next(
        c.id
        for c in CARDS
        if c.level == 3
        and c.ability == "none"
        and not c.is_joker
        and int(token._a[0]["card_owner"][c.id]) < 0
    )
    give_bought(token, 1 - cur, [theirs])
    refused(edited(token, pend_card=theirs), f"pend_card={theirs}", f"just bought by seat {cur}")


def test_a_steal_comes_from_the_card_or_a_royal_card(at):
    """D17, D19: a pending steal comes from the card just bought or from the royal card
    with 'steal'; with neither, the position is refused."""
    steal = at["steal"]
    s = steal._a[0]
    cur = steal.current_player
    steal_royal = next(r.id for r in ROYALS if r.ability == "steal")
    plain_royal = next(r.id for r in ROYALS if r.ability == "none")
    assert CARDS[int(s["pend_card"])].ability != "steal"
    assert int(s["royal_owner"][steal_royal]) == cur and int(s["royal_owner"][plain_royal]) < 0
    d = edited(steal)  # the seat took the plain royal card instead of the stealing one
    d["royal_owner"][steal_royal] = -1
    d["royal_owner"][plain_royal] = cur
    d["points"][cur] += ROYALS[plain_royal].points - ROYALS[steal_royal].points
    refused(d, "phase steal", "nor a royal card", "D17")


def test_the_extra_turn_flag_matches_the_card(at):
    """D13: ``again`` is set by a card or royal card bought this turn: never before the
    mandatory action, always while resolving a card with 'again'."""
    refused(edited(at["main"], again=1), "again=1", "D13")
    refused(edited(at["reserve"], again=1), "again=1", "D13")
    refused(edited(at["payment"], again=1), "again=1", "D13")
    token = at["token"]
    s = token._a[0]
    again_royal = next(r.id for r in ROYALS if r.ability == "again")
    assert CARDS[int(s["pend_card"])].ability == "token"
    assert int(s["royal_owner"][again_royal]) != token.current_player
    refused(edited(token, again=1), "again=1", "neither card", "D13")


def test_a_single_choice_is_never_left_to_the_player(at):
    """The engine makes a choice with one option itself (joker colour, token, steal,
    royal card), so a position asking the player for it is unreachable."""
    token = at["token"]
    d = edited(token)
    col = d["card_color"][d["pend_card"]]
    cells = [i for i, v in enumerate(d["board"]) if v == col]
    assert len(cells) >= 2
    for i in cells[1:]:  # one token of the card's colour left on the board
        d["board"][i] = -1
        d["bag"][col] += 1
    refused(d, "phase token", "fewer than 2 tokens", "D15")
    steal = at["steal"]
    d = edited(steal)
    victim = 1 - steal.current_player
    kinds = [c for c in range(6) if d["tokens"][victim][c] > 0]
    assert len(kinds) >= 2
    for c in kinds[1:]:  # one kind of token left to steal
        d["bag"][c] += d["tokens"][victim][c]
        d["tokens"][victim][c] = 0
    refused(d, "phase steal", "fewer than 2 kinds", "D17")


def test_royal_phase_needs_a_threshold_due(at):
    royal = at["royal"]
    cur = royal.current_player
    d = edited(royal)
    d["crown_claims"][cur] = 2
    refused(d, "D19")


def test_crown_claims_beyond_the_crowns_reached_are_refused():
    """D19: a threshold is claimed at 3 and at 6 crowns; a seat claiming more than its
    crowns reach, or holding more royal cards than it claimed, is refused."""
    st = new(0)
    give_bought(st, 0, [c.id for c in CARDS if c.crowns >= 2 and not c.is_joker][:2])
    sound(st)
    assert st.players[0].crowns < 6
    d = st.to_dict()
    d["crown_claims"][0] = 2
    refused(d, "crown_claims[0]=2", "D19")
    d = st.to_dict()
    d["royal_owner"][0] = 0
    d["points"][0] += ROYALS[0].points
    refused(d, "crown_claims[0]=0", "1 royal cards", "D19")


# ------------------------------------------------------------------ D10 payment


def test_payment_must_agree_with_its_card(at):
    pay = at["payment"]
    s = pay._a[0]
    cur = pay.current_player
    card = int(s["pay_card"])
    owed = [
        max(CARDS[card].cost[c] - (int(s["bonuses"][cur, c]) if c < 5 else 0), 0) for c in range(6)
    ]
    c = next(i for i in range(6) if int(s["pay_need"][i]) == owed[i])
    d = edited(pay)
    d["pay_need"][c] += 1
    refused(d, f"pay_need[{c}]=", "after bonuses", "D10")
    d = edited(pay, pay_gold=int(s["pay_gold"]) + 1)
    refused(d, "pay_gold=", "D10")
    src = int(s["pay_src"])
    assert src < 12  # paying for a pyramid card: point the payment at another slot
    other = next(k for k in range(12) if k != src and int(s["pyramid"][k]) >= 0)
    refused(edited(pay, pay_src=other), "not at its source", "D10")
    refused(edited(at["main"], pay_gold=1), "payment fields set outside the payment phase")


def test_a_joker_is_not_paid_for_without_a_coloured_bonus():
    """D14 in a payment: the card being paid for is a joker and the payer owns no card
    with a coloured bonus (the rules would attach the joker to no colour)."""
    st = new(0)
    cid, _ = affordable(st, lambda c: c.is_joker, extra="1*")
    sound(st)
    d = st.to_dict()
    d.update(
        phase=rules.PH_PAY,
        pay_card=cid,
        pay_src=d["pyramid"].index(cid),
        pay_gold=0,
        pay_need=list(CARDS[cid].cost),
    )
    refused(d, f"pay_card={cid}", "no coloured bonus", "D14")


# ------------------------------------------------------------------ D9 reserve, D11, D14, D20


def test_reserve_phase_needs_a_gold_and_room(at):
    res = at["reserve"]
    cur = res.current_player
    d = edited(res)
    gold = d["tokens"][cur][6]
    assert gold >= 1
    d["tokens"][cur][6] = 0
    d["bag"][6] += gold
    refused(d, "phase reserve", "no gold", "D9")


def test_an_empty_pyramid_slot_while_its_deck_has_cards_is_refused():
    d = new(0).to_dict()
    cid = d["pyramid"][0]
    d["pyramid"][0] = -1
    d["decks"][0][d["deck_len"][0]] = cid
    d["deck_len"][0] += 1
    refused(d, "pyramid[0]=-1", "D11")


def test_a_joker_attached_to_a_colour_its_owner_lacks_is_refused():
    """D14: a joker takes the colour of one of its owner's cards (jokers never leave, so
    the owner still has a card of that colour)."""
    blue = next(c.id for c in CARDS if c.color == 1 and c.level == 1 and c.ability == "none")
    st = new(0)
    give_bought(st, 0, [blue])
    joker = next(c.id for c in CARDS if c.is_joker and c.level == 2)
    give_bought(st, 0, [joker], joker_color=3)  # red, but seat 0 owns only a blue card
    refused(st.to_dict(), f"card_color[{joker}]=3", "no red card", "D14")
    st2 = new(0)
    give_bought(st2, 0, [blue])
    give_bought(st2, 0, [joker], joker_color=1)
    sound(st2)


def test_unattached_joker_outside_its_own_joker_phase_is_refused(at):
    joker = at["joker"]
    card = int(joker._a[0]["pend_card"])
    refused(edited(joker, phase=rules.PH_ROYAL), f"card_color[{card}]=-1", "never attached", "D14")


def test_return_phase_needs_more_than_ten_tokens(at):
    ret = at["return tokens"]
    cur = ret.current_player
    d = edited(ret)
    extra = sum(d["tokens"][cur]) - 10
    for c in range(7):
        while extra > 0 and d["tokens"][cur][c] > 0:
            d["tokens"][cur][c] -= 1
            d["bag"][c] += 1
            extra -= 1
    refused(d, "phase return tokens", "D20")


def test_replenished_this_turn_means_an_empty_bag_before_the_mandatory_action(at):
    d = edited(at["main"], replenished=1)
    if sum(d["bag"]) == 0:  # move a token from the board into the bag
        cell = next(i for i, v in enumerate(d["board"]) if v >= 0)
        d["bag"][d["board"][cell]] += 1
        d["board"][cell] = -1
    refused(d, "replenished=1", "D7")


def test_blind_flag_must_be_set_only_on_held_reserves():
    d = new(0).to_dict()
    d["reserved_blind"][0][0] = 1
    refused(d, "reserved[0][0]", "should be empty", "D9")


# ------------------------------------------------------------------ the gate is the only door


@pytest.mark.parametrize("value", [True, 1.0, "1"])
def test_a_field_must_hold_an_integer_written_as_one(value):
    """Regression: numpy read ``true``, ``1.0`` and ``"1"`` as the integer 1."""
    d = new(0).to_dict()
    d["again"] = value
    with pytest.raises(ValueError, match="'again' must hold integers"):
        duel.State.from_dict(d)


def test_json_goes_through_the_gate():
    d = new(0, turn_cap=50).to_dict()
    d["turn"] = 77
    with pytest.raises(ValueError, match="turn=77"):
        duel.State.from_json(json.dumps(d))
