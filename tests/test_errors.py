"""The engines' errors (``splendor.errors``): each kind raised where the brief of issue 31
says, each a ``SplendorError`` and a ``ValueError`` (so older callers keep working), and
each message quoting the input it refuses."""

from __future__ import annotations

import json

import pytest

import splendor
from splendor import classic, duel, errors
from splendor.errors import IllegalActionError, ParseError, PositionError, SplendorError
from splendor.notation import NotationError
from splendor.views import coerce_action

GAMES = [classic, duel]


def test_the_package_exports_one_class_per_kind():
    assert splendor.SplendorError is SplendorError
    assert splendor.ParseError is ParseError and splendor.PositionError is PositionError
    assert splendor.IllegalActionError is classic.IllegalActionError is duel.IllegalActionError
    assert splendor.IllegalActionError is errors.IllegalActionError
    assert splendor.get_game("duel").name == "duel" and len(splendor.games()) == 2
    for kind in (ParseError, IllegalActionError, PositionError):
        assert issubclass(kind, SplendorError) and issubclass(kind, ValueError)
    assert issubclass(NotationError, PositionError)


@pytest.mark.parametrize("module", GAMES)
@pytest.mark.parametrize("text", ["fly away", "take", "buy 9.9", ""])
def test_bad_notation_is_a_parse_error_quoting_it(module, text):
    with pytest.raises(ParseError) as caught:
        module.Action.parse(text)
    assert repr(text) in str(caught.value)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("module", GAMES)
@pytest.mark.parametrize("bad", [-1, 10_000, True, 1.5, "3"])
def test_an_id_out_of_range_is_a_parse_error_quoting_it(module, bad):
    with pytest.raises(ParseError) as caught:
        module.Action.from_id(bad)
    assert repr(bad) in str(caught.value) or str(bad) in str(caught.value)


@pytest.mark.parametrize("module", GAMES)
def test_apply_and_coerce_refuse_malformed_actions_with_a_parse_error(module):
    state = module.new_game(2, seed=1)
    before = state.copy()
    with pytest.raises(ParseError, match="'fly away'"):
        state.apply("fly away")
    with pytest.raises(ParseError, match="999"):
        state.apply(999)
    with pytest.raises(ParseError, match=r"\[1, 2\]"):
        coerce_action([1, 2], module.Action)
    assert state == before


@pytest.mark.parametrize("module", GAMES)
def test_an_illegal_action_is_an_illegal_action_error_quoting_it(module):
    state = module.new_game(2, seed=1)
    action = "buy 3.1"
    with pytest.raises(IllegalActionError, match=f"illegal action {action!r}") as caught:
        state.apply(action)
    assert isinstance(caught.value, SplendorError) and isinstance(caught.value, ValueError)
    assert not isinstance(caught.value, ParseError)


@pytest.mark.parametrize("module", GAMES)
def test_bad_json_positions_are_position_errors_naming_the_field(module):
    good = module.new_game(2, seed=3).to_dict()
    cases = [
        ("not json {", "position is not valid JSON"),
        (json.dumps([1, 2]), "a position must be a JSON object, got list"),
        (json.dumps({**good, "format": "chess"}), "got 'chess'"),
        (json.dumps({**good, "version": 99}), "version 99"),
        (json.dumps({k: v for k, v in good.items() if k != "turn"}), "missing field 'turn'"),
        (json.dumps({**good, "turn": 1.5}), "'turn' must hold integers: 1.5"),
        (json.dumps({**good, "turn": "x"}), "'turn' must hold integers"),
        (json.dumps({**good, "supply" if module is classic else "bag": [1]}), "must have shape"),
        (json.dumps({**good, "current": 9}), "corrupt position: current"),
    ]
    for text, message in cases:
        with pytest.raises(PositionError, match=message.replace("(", r"\(").replace("[", r"\[")):
            module.State.from_json(text)
    with pytest.raises(PositionError, match="not valid JSON.*'not json \\{'"):
        module.State.from_json("not json {")


@pytest.mark.parametrize("module", GAMES)
def test_bad_position_texts_are_position_errors_quoting_them(module):
    text = module.new_game(2, seed=3).to_text()
    with pytest.raises(PositionError, match="'banana'") as caught:
        module.State.from_text(text.replace("turn=0", "turn=banana"))
    assert isinstance(caught.value, NotationError)  # its name is kept
    with pytest.raises(PositionError, match="corrupt position"):
        module.State.from_text(text.replace("phase=main", "phase=over"))
    obs = module.new_game(2, seed=3).observation(1).to_text()
    with pytest.raises(PositionError):
        module.Observation.from_text(obs.replace("turn=0", "turn=x"))


def test_the_position_gates_and_builders_raise_position_errors():
    with pytest.raises(PositionError, match="got 7"):
        classic.build_position(7)
    with pytest.raises(PositionError, match="seed must be"):
        duel.build_position(seed=-1)
    with pytest.raises(PositionError, match="7W: the game has 4 W tokens"):
        classic.build_position(2, tokens=["7W", "-"])
    with pytest.raises(PositionError, match="corrupt position: current=0 but turn=1"):
        classic.build_position(2, turn=1, current=0)
    with pytest.raises(PositionError, match="corrupt position: turn=0"):
        duel.build_position(phase="over")
