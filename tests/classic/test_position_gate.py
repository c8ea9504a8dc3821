"""The position gate of classic Splendor (issue 14, item 1): ``State.from_dict`` refuses
every position the compiled rules could not play safely, or that no game reaches, with a
message naming the field and the rule, and leaves its input unchanged; OpenSpiel's
``deserialize_state`` goes through it.

Every refusal below was accepted before the gate was completed (the old ``from_dict``
checked conservation and limits only): nobles and payment fields out of range were then
read and written out of bounds by the rules.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from splendor import classic

from .helpers import cards_for_points, give_purchased, new
from .test_end_of_turn import noble_setup

Edit = Callable[[dict[str, Any]], None]


# ------------------------------------------------------------------ positions


def playing(n: int, seed: int, phase: str) -> classic.State:
    """A position of ``n`` players reached in seeded random play, in ``phase``; the
    ``choose noble`` phase is built (random play seldom gets there)."""
    if phase == "choose noble":
        st, _ = noble_setup({0: 4, 1: 3, 2: 3}, ["3G 3R 3K", "4W 4U", "3W 3U 3G"], n=n, seed=seed)
        st.apply("buy 1.1")
        assert st.phase == phase
        return st
    for game in range(200):
        st = new(n, seed + 1000 * game)
        rnd = random.Random(seed + game)
        while not st.is_terminal and st.phase != phase:
            st.apply(rnd.choice(st.legal_actions()))
        if st.phase == phase:
            return st
    raise AssertionError(f"no {phase} position reached")


def refused(d: dict[str, Any], *words: str) -> str:
    """Assert ``from_dict`` refuses ``d`` with a message holding ``words``, and leaves
    ``d`` unchanged; return the message."""
    before = copy.deepcopy(d)
    with pytest.raises(ValueError) as info:
        classic.State.from_dict(d)
    msg = str(info.value)
    for w in words:
        assert w in msg, msg
    assert d == before, "from_dict changed its input"
    return msg


def edited(st: classic.State, edit: Edit) -> dict[str, Any]:
    d = st.to_dict()
    classic.State.from_dict(d)  # the unedited position is accepted
    edit(d)
    return d


def move_noble_to_owner(d: dict[str, Any], seat: int) -> int:
    nid = next(x for x in d["nobles"] if x >= 0)
    d["nobles"][d["nobles"].index(nid)] = -1
    d["noble_owner"][nid] = seat
    return nid


# ------------------------------------------------------------------ fields in range


def _noble_past_dealt(d: dict[str, Any]) -> None:
    k = next(i for i, x in enumerate(d["nobles"]) if x >= 0)
    d["nobles"][4], d["nobles"][k] = d["nobles"][k], -1


def _token_to_absent_seat(d: dict[str, Any]) -> None:
    d["supply"][0] -= 1
    d["tokens"][3][0] += 1


def _deck_past_length(d: dict[str, Any]) -> None:
    d["decks"][0][d["deck_len"][0]] = 0


RANGES: list[tuple[str, int, str, Edit, tuple[str, ...]]] = [
    (
        "noble id 10",
        3,
        "main",
        lambda d: d["nobles"].__setitem__(0, 10),
        ("nobles[0]=10", "0..9 or -1 (C3)"),
    ),
    ("noble id -2", 3, "main", lambda d: d["nobles"].__setitem__(1, -2), ("nobles[1]=-2", "(C3)")),
    (
        "noble id 12, slot 2",
        2,
        "main",
        lambda d: d["nobles"].__setitem__(2, 12),
        ("nobles[2]=12", "(C3)"),
    ),
    (
        "noble past those dealt",
        2,
        "main",
        _noble_past_dealt,
        ("nobles[4]=", "3 nobles dealt", "(C3)"),
    ),
    (
        "noble owner not a seat",
        2,
        "main",
        lambda d: d["noble_owner"].__setitem__(move_noble_to_owner(d, 0), 5),
        ("noble_owner[", "=5", "(C12)"),
    ),
    (
        "observer of a state",
        2,
        "main",
        lambda d: d.update(observer=0),
        ("observer=0", "is -1 (C16)"),
    ),
    ("negative turn", 2, "main", lambda d: d.update(turn=-1), ("turn=-1", "(C5)")),
    (
        "final_round 7",
        3,
        "main",
        lambda d: d.update(final_round=7),
        ("final_round=7", "0..1 (C14)"),
    ),
    (
        "pass_streak 99",
        4,
        "main",
        lambda d: d.update(pass_streak=99),
        ("pass_streak=99", "0..4 (C17)"),
    ),
    ("pass_streak -1", 2, "main", lambda d: d.update(pass_streak=-1), ("pass_streak=-1", "(C17)")),
    ("end_reason 9", 2, "game over", lambda d: d.update(end_reason=9), ("end_reason=9", "0..2")),
    ("phase 7", 2, "main", lambda d: d.update(phase=7), ("phase=7", "0..4")),
    (
        "current 3 of 3 players",
        3,
        "main",
        lambda d: d.update(current=3),
        ("current=3", "0..2 or -1 (C5)"),
    ),
    (
        "points of an absent seat",
        2,
        "main",
        lambda d: d["points"].__setitem__(3, 5),
        ("points[3]=5", "(C9, C12)"),
    ),
    (
        "bonuses of an absent seat",
        3,
        "main",
        lambda d: d["bonuses"][3].__setitem__(2, 1),
        ("bonuses[3][2]=1",),
    ),
    ("tokens of an absent seat", 2, "main", _token_to_absent_seat, ("tokens[3][0]=1", "(C1)")),
    (
        "buyer not a seat",
        3,
        "main",
        lambda d: d["purchased_by"].__setitem__(d["faceup"][0][0], 3),
        ("purchased_by[", "=3", "(C9)"),
    ),
    ("deck entry past its length", 2, "main", _deck_past_length, ("decks[0][", "(C2)")),
    ("pay_src 100", 2, "payment", lambda d: d.update(pay_src=100), ("pay_src=100", "0..14 (C9)")),
    ("pay_card -5", 3, "payment", lambda d: d.update(pay_card=-5), ("pay_card=-5", "(C9)")),
    (
        "pay_need -1",
        4,
        "payment",
        lambda d: d["pay_need"].__setitem__(2, -1),
        ("pay_need[2]=-1", "(C9)"),
    ),
]


@pytest.mark.parametrize("label,n,phase,edit,words", RANGES, ids=[r[0] for r in RANGES])
def test_field_out_of_range_is_refused(label, n, phase, edit, words):
    """Every field is range-checked; the message names the element, its value, what is
    allowed and the rule."""
    refused(edited(playing(n, 11, phase), edit), "corrupt position", *words)


def test_message_format_is_exact():
    """The form of a range message, as the issue asks for it."""
    msg = refused(edited(playing(3, 2, "main"), lambda d: d["nobles"].__setitem__(2, 12)))
    assert msg == "corrupt position: nobles[2]=12: a noble id (4 nobles dealt) is 0..9 or -1 (C3)"


def test_reserved_card_flags_are_checked():
    """C8: a reserved slot's blind flag is 0 or 1, and 0 past the reserved count."""
    st = new(2, 4)
    st.apply("reserve d1")
    refused(
        edited(st, lambda d: d["reserved_blind"][0].__setitem__(0, 2)),
        "reserved_blind[0][0]=2",
        "(C8)",
    )
    refused(
        edited(st, lambda d: d["reserved_blind"][0].__setitem__(1, 1)),
        "reserved_blind[0][1]=1",
        "(C8)",
    )


# ------------------------------------------------------------------ format


@pytest.mark.parametrize(
    "name,value",
    [
        ("turn", 3.5),
        ("turn", True),
        ("phase", "0"),
        ("supply", [4, 4, 4, 4, 4.0, 5]),
        ("tokens", [[0] * 6, [0] * 5 + [False], [0] * 6, [0] * 6]),
        ("rng", ["12x"]),
        ("rng", [1.5]),
    ],
)
def test_non_integers_are_refused(name, value):
    """A position holds integers only: numpy would read 3.5 as 3, true as 1 and "0" as 0."""
    refused(edited(new(2, 1), lambda d: d.update({name: value})), repr(name), "integer")


# ------------------------------------------------------------------ decision phases


def _other_card(d: dict[str, Any]) -> None:
    d["pay_card"] = next(c for row in d["faceup"] for c in row if c >= 0 and c != d["pay_card"])


def _owe_more(d: dict[str, Any]) -> None:
    c = max(range(5), key=lambda c: d["pay_need"][c])
    d["pay_need"][c] += 1


def _gold_mismatch(d: dict[str, Any]) -> None:
    d["pay_gold"] += 1


def _no_tokens_to_pay(d: dict[str, Any]) -> None:
    p = d["current"]
    for c in range(5):
        d["supply"][c] += d["tokens"][p][c]
        d["tokens"][p][c] = 0
    d["pay_need"] = [max(x, 1) if i == 0 else x for i, x in enumerate(d["pay_need"])]


def _payment_without_card(d: dict[str, Any]) -> None:
    d["phase"] = 1


def _pay_fields_outside_payment(d: dict[str, Any]) -> None:
    d["pay_card"] = d["faceup"][0][0]


def _return_without_excess(d: dict[str, Any]) -> None:
    p = d["current"]
    while sum(d["tokens"][p]) > 10:
        c = next(c for c in range(6) if d["tokens"][p][c])
        d["tokens"][p][c] -= 1
        d["supply"][c] += 1


def _noble_choice_without_choice(d: dict[str, Any]) -> None:
    d["phase"] = 3


PHASES: list[tuple[str, int, str, Edit, tuple[str, ...]]] = [
    (
        "payment for another card",
        2,
        "payment",
        _other_card,
        ("stays at its source until paid (C9)",),
    ),
    (
        "payment owing more than the cost",
        3,
        "payment",
        _owe_more,
        ("pay_need=", "more than card", "(C9)"),
    ),
    ("gold committed disagrees", 2, "payment", _gold_mismatch, ("pay_gold=", "(C9)")),
    ("payment that cannot be completed", 4, "payment", _no_tokens_to_pay, ("(C9)",)),
    ("payment phase without a card", 2, "main", _payment_without_card, ("pay_card=-1", "(C9)")),
    (
        "pay fields outside a payment",
        2,
        "main",
        _pay_fields_outside_payment,
        ("outside a payment", "(C9)"),
    ),
    (
        "return phase at 10 tokens",
        3,
        "return tokens",
        _return_without_excess,
        ("returned only above 10", "(C6, C11)"),
    ),
    (
        "noble choice with no choice",
        2,
        "main",
        _noble_choice_without_choice,
        ("several qualify (C12)",),
    ),
    (
        "finished game with a seat to play",
        2,
        "game over",
        lambda d: d.update(current=0),
        ("current=0", "no current player (C14, C17)"),
    ),
    (
        "game in progress with an end reason",
        3,
        "main",
        lambda d: d.update(end_reason=1),
        ("end_reason=1", "while the game goes on"),
    ),
    (
        "game over without an end reason",
        2,
        "game over",
        lambda d: d.update(end_reason=0),
        ("end_reason=0",),
    ),
    (
        "game over stalled without passes",
        2,
        "game over",
        lambda d: d.update(end_reason=2),
        ("end_reason=2 (stall)", "(C17)"),
    ),
    (
        "game in progress without a seat to play",
        2,
        "main",
        lambda d: d.update(current=-1),
        ("current=-1", "(C5)"),
    ),
    (
        "passes during a payment",
        2,
        "payment",
        lambda d: d.update(pass_streak=1),
        ("pass_streak=1", "(C17)"),
    ),
]


@pytest.mark.parametrize("label,n,phase,edit,words", PHASES, ids=[r[0] for r in PHASES])
def test_decision_phase_must_agree_with_the_rest(label, n, phase, edit, words):
    """Each decision phase agrees with the rest: a payment is for the card at its source
    and can be completed (C9); outside it the payment fields are neutral; tokens are
    returned only above 10 (C11); a noble choice has several nobles to choose from (C12);
    a finished game has no seat to play and an end reason, a live one the reverse."""
    refused(edited(playing(n, 5, phase), edit), "corrupt position", *words)


def test_payment_positions_reached_in_play_are_accepted():
    """The gate does not refuse what play produces: payments with gold committed."""
    st = playing(3, 8, "payment")
    classic.State.from_dict(st.to_dict())
    gold = next((a for a in st.legal_actions() if a.kind == "pay_gold"), None)
    if gold is not None:
        st.apply(gold)
        assert classic.State.from_dict(st.to_dict()) == st


def test_empty_faceup_slot_with_cards_in_the_deck():
    """C10: a face-up slot is refilled at once; empty only once its deck is."""

    def hide(d):
        lvl = 1
        d["decks"][lvl][d["deck_len"][lvl]] = d["faceup"][lvl][2]
        d["deck_len"][lvl] += 1
        d["faceup"][lvl][2] = -1

    refused(edited(new(2, 3), hide), "faceup[1][2] is empty", "(C10)")


def test_noble_owner_must_meet_the_requirement():
    """C12: a noble visits only a seat whose bonuses meet its requirement."""

    def grant(d):
        move_noble_to_owner(d, 1)
        d["points"][1] += 3

    refused(edited(new(2, 3), grant), "seat 1's bonuses do not meet noble", "(C12)")


# ------------------------------------------------------------------ history


def test_seat_to_play_follows_the_turn_count():
    """C5: seat 0 starts and play goes round, so the seat to play is turn mod players."""
    st = playing(3, 4, "main")
    refused(edited(st, lambda d: d.update(turn=d["turn"] + 1)), "current=", "(C5)")
    d = edited(st, lambda d: d.update(turn=d["turn"] + 3))  # a whole round later: fine
    assert classic.State.from_dict(d).turn == st.turn + 3


def test_final_round_needs_fifteen_points():
    """C14: the final round starts when a seat ends a turn with 15 points."""
    refused(
        edited(playing(2, 3, "main"), lambda d: d.update(final_round=1)),
        "final_round=1 but no seat has 15 points (C14)",
    )


def test_fifteen_points_start_the_final_round():
    """C14: a seat that ended its turn with 15 points put the game in its final round."""
    st = new(3, 6)
    give_purchased(st, 1, cards_for_points(st, 15))
    d = st.to_dict()
    refused(d, "final_round=0 but seat 1", "(C14)")
    d["final_round"] = 1  # seat 1 has not played this round yet: the game should be over
    refused(d, "should have ended", "(C14)")


def test_mid_turn_fifteen_points_before_the_noble_choice_are_sound():
    """C14: in its noble choice a seat may already hold 15 points: the final round
    starts only when its turn ends."""
    st, _ = noble_setup({0: 4, 1: 3, 2: 3}, ["3G 3R 3K", "4W 4U", "3W 3U 3G"], n=2, seed=0)
    give_purchased(st, 0, cards_for_points(st, 15))
    st.apply("buy 1.1")
    assert st.phase == "choose noble" and st.scores[0] >= 15 and not st.final_round
    assert classic.State.from_dict(st.to_dict()) == st
    st.apply(st.legal_actions()[0])
    assert st.final_round and classic.State.from_dict(st.to_dict()) == st


def test_game_ended_on_points_had_a_final_round():
    """C14: a game over on points completed the final round."""
    st = playing(2, 1, "game over")
    if st.end_reason != "points":  # pragma: no cover - seed 1 ends on points
        pytest.skip("not a points ending")
    refused(edited(st, lambda d: d.update(final_round=0)), "(C14)")
    refused(
        edited(st, lambda d: d.update(turn=d["turn"] + 1)), "multiple of the player count (C14)"
    )


def test_passes_need_an_empty_gem_supply():
    """C17: a seat passes only when it can take no token."""
    refused(
        edited(playing(2, 2, "main"), lambda d: d.update(pass_streak=1)),
        "passes only when it can take no token (C17)",
    )


# ------------------------------------------------------------------ sound positions


def test_positions_reached_in_play_pass_the_gate():
    """Every base position of the mutation fuzzer (every phase, 2-4 players) is accepted
    and round-trips byte for byte: the gate refuses nothing that play produces."""
    from .position_mutations import base_positions

    pool = base_positions(seed=7, games=4)
    for ds in pool.values():
        for d in ds:
            assert classic.State.from_dict(d).to_dict() == d


# ------------------------------------------------------------------ core helpers


def test_range_problems_messages():
    """The game-independent range check names index, value, range and rule."""
    from splendor.positions import range_problems

    assert range_problems(
        "nobles", np.array([1, -1, 12]), 0, 9, "a noble id is", "C3", also=(-1,)
    ) == ["nobles[2]=12: a noble id is 0..9 or -1 (C3)"]
    assert range_problems("x", np.int8(5), 0, 9, "x is", "R1") == []
    assert range_problems("tokens", np.array([[0, 1], [2, 0]]), 0, 0, "held:", "C1", start=2) == [
        "tokens[2][1]=1: held: 0 (C1)",
        "tokens[3][0]=2: held: 0 (C1)",
    ]
    many = range_problems("v", np.arange(10), 0, 4, "v is", "R", limit=2)
    assert many == [
        "v[5]=5: v is 0..4 (R)",
        "v[6]=6: v is 0..4 (R)",
        "v: 3 more values out of range (R)",
    ]
    per_element = range_problems(
        "d", np.array([5, -1]), np.array([0, -1]), np.array([3, -1]), "d is", "R"
    )
    assert per_element == ["d[0]=5: d is 0..3 (R)"]


def test_check_integer_fields():
    """Only integers (and decimal text where allowed) pass, bools and floats do not."""
    from splendor.positions import check_integer_fields

    dtype = np.dtype([("a", np.int8, (2,)), ("rng", np.uint64, (1,))])
    check_integer_fields({"a": [1, -2], "rng": ["123"]}, dtype)
    for bad in (
        {"a": [1, 2.0]},
        {"a": [True, 1]},
        {"a": ["1", 1]},
        {"rng": ["-1"]},
        {"rng": [None]},
    ):
        with pytest.raises(ValueError, match="must hold integers"):
            check_integer_fields(bad, dtype)


# ------------------------------------------------------------------ OpenSpiel


def _serialized(state: Any, edit_core: Callable[[dict[str, Any]], None]) -> str:
    """``state.serialize()`` with its core's JSON edited (the pickle rebuilt around it)."""
    import base64
    import json
    import pickle

    from splendor.rl import openspiel_game as og

    class Core:
        def __init__(self, text: str) -> None:
            self.text = text

        def __reduce__(self):
            return (og._core_from_json, (self.text,))

    head, body = state.serialize().rsplit("__dict__=", 1)
    attrs = pickle.loads(base64.b64decode(body))
    data = json.loads(attrs["_core"].to_json())
    edit_core(data)
    attrs["_core"] = Core(json.dumps(data))
    return head + "__dict__=" + base64.b64encode(pickle.dumps(attrs)).decode()


def test_openspiel_deserialize_goes_through_the_gate():
    """``deserialize_state`` loads the engine position with ``State.from_dict``: a corrupt
    one, a state of another game or a damaged text is refused with ValueError."""
    pyspiel = pytest.importorskip("pyspiel")
    import splendor.rl.openspiel_game  # noqa: F401 - registers the games

    game = pyspiel.load_game("python_splendor", {"players": 3})
    state = game.new_initial_state()
    state.apply_action(4)
    for _ in range(7):
        state.apply_action(state.legal_actions()[0])
    same = game.deserialize_state(_serialized(state, lambda d: None))
    assert str(same) == str(state)

    def bad_noble(d):
        d["state"]["nobles"][0] = 12

    with pytest.raises(ValueError, match=r"nobles\[0\]=12: a noble id .*\(C3\)"):
        game.deserialize_state(_serialized(state, bad_noble))
    with pytest.raises(ValueError, match="'decisions'"):
        game.deserialize_state(_serialized(state, lambda d: d.pop("decisions")))
    with pytest.raises(ValueError, match="history has"):
        game.deserialize_state(_serialized(state, lambda d: d.update(decisions=d["decisions"] - 1)))
    two = pyspiel.load_game("python_splendor", {"players": 2})
    with pytest.raises(ValueError, match="not of this game"):
        two.deserialize_state(state.serialize())
    text = state.serialize()
    with pytest.raises(ValueError, match="not a serialized python_splendor state"):
        game.deserialize_state(text[: len(text) // 2 + 7])


def test_openspiel_deserialize_checks_the_duel_turn_cap():
    """A Duel state whose position's turn cap (D25) differs from the serialized one is
    refused, and the Duel position goes through ``duel.State.from_dict`` (D25: a turn past
    the cap)."""
    pyspiel = pytest.importorskip("pyspiel")
    import splendor.rl.openspiel_game  # noqa: F401 - registers the games

    game = pyspiel.load_game("python_splendor_duel", {"turn_cap": 100})
    state = game.new_initial_state()
    state.apply_action(4)
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    assert str(game.deserialize_state(_serialized(state, lambda d: None))) == str(state)
    with pytest.raises(ValueError, match="turn cap 100, the state 50"):
        game.deserialize_state(_serialized(state, lambda d: d.update(turn_cap=50)))

    def past_cap(d):
        d["state"]["turn"] = 101

    with pytest.raises(ValueError, match=r"turn=101: .*\(D25\)"):
        game.deserialize_state(_serialized(state, past_cap))
