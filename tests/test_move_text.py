"""Moves in sentences (:mod:`splendor.move_text`): every action id of both games, in
positions of every decision phase (returns, payments, nobles C12, Duel abilities D14-D19),
said in every language: filled, without the notation's letters, one sentence per action."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from splendor import classic, duel
from splendor.i18n import LANGUAGES, messages
from splendor.move_text import (
    CardWords,
    MoveFacts,
    move_facts,
    move_sentence,
    say,
    seat_placeholders,
)
from splendor.move_words import card_text

LETTER = re.compile(r"(?<![\w{])[WUGRKP*](?![\w}])")
"""A token letter of the notation standing alone (``take W U G``)."""


def _positions(new: Callable[[int], Any], wanted: int) -> list[Any]:
    """The first position of each decision phase met in random games, plus a late main
    one (reserved cards, bought cards), and the observation of another seat of each."""
    found: dict[str, Any] = {}
    late = None
    for seed in range(60):
        state, rnd = new(seed), random.Random(seed)
        while not state.is_terminal:
            found.setdefault(state.phase, state.copy())
            if state.turn == 30 and late is None:
                late = state.copy()
            state.apply(rnd.choice(state.legal_actions()))
        if len(found) == wanted and late is not None:
            break
    assert len(found) == wanted, sorted(found)
    states = [*found.values(), late]
    return states + [s.observation((s.current_player + 1) % s.num_players) for s in states]


CLASSIC = _positions(lambda seed: classic.new_game(3, seed=seed), 4)
DUEL = _positions(lambda seed: duel.new_game(seed=seed), 8)
CASES = [("splendor", classic.Action, p) for p in CLASSIC] + [
    ("duel", duel.Action, p) for p in DUEL
]


@pytest.mark.parametrize("you", [False, True], ids=["of-a-player", "to-you"])
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    "game, action_type, before", CASES, ids=lambda v: getattr(v, "phase", None) or str(v)
)
def test_every_action_has_its_own_filled_sentence(
    game: str, action_type: Any, before: Any, language: str, you: bool
) -> None:
    names = seat_placeholders(before.num_players)
    said: dict[str, str] = {}
    for i in range(before.game.num_actions):
        action = action_type.from_id(i)
        text = move_sentence(before, action, names, language, you)
        bare = re.sub(r"\{seat\d\}", "", text)
        assert bare.strip() and "{" not in bare and "}" not in bare, (str(action), text)
        assert you or f"{{seat{before.current_player}}}" in text, (str(action), text)
        assert not LETTER.search(bare), (str(action), text)
        assert text not in said, f"{action} and {said.get(text)} both read {text!r}"
        said[text] = str(action)


def test_a_take_in_french_names_colours_and_counts() -> None:
    state = classic.new_game(2, seed=1)
    text = move_sentence(state, classic.Action.parse("take W U G"), ["Ann", "Bob"], "en")
    assert text == "Ann takes 1 white, 1 blue and 1 green"
    two = move_sentence(state, classic.Action.parse("take R R"), ["Ann", "Bob"], "en")
    assert two == "Ann takes 2 red"


def test_a_purchase_names_the_card_level_bonus_and_points() -> None:
    state = classic.new_game(2, seed=1)
    card = state.faceup[1][2]
    assert card is not None
    facts = move_facts(state, classic.Action.parse("buy 2.3"))
    assert facts.card == CardWords(
        2, ("white", "blue", "green", "red", "black")[card.bonus], 1, card.points
    )
    text = say(facts, ["Ann", "Bob"])
    assert text.startswith("Ann buys a level-2 card (") and text.endswith("from slot 2.3")


def test_a_classic_reserve_says_the_gold_it_takes() -> None:
    state = classic.new_game(2, seed=1)
    text = move_sentence(state, classic.Action.parse("reserve d3"), ["Ann", "Bob"])
    assert text == "Ann reserves the top card of the level-3 deck and takes 1 gold"
    to_you = move_sentence(state, classic.Action.parse("reserve d3"), ["Ann", "Bob"], you=True)
    assert to_you == "you reserve the top card of the level-3 deck and take 1 gold"


def test_a_duel_take_names_its_cells_and_their_colours() -> None:
    state = duel.new_game(seed=3)
    facts = move_facts(state, duel.Action.parse("take a1"))
    assert facts.cells == ("a1",) and facts.kind == "take_cells"
    assert say(facts, ["Ann", "Bob"]) == f"Ann takes 1 {facts.tokens[0][0]} from a1"


def test_a_hidden_reserve_and_an_empty_slot_are_said_as_such() -> None:
    en = messages("en")
    assert card_text(en, 2, "hidden", 1, 0) == "a hidden level-2 card"
    assert card_text(en, 0, "empty", 1, 0) == "an empty slot"


def test_a_finished_game_and_an_unknown_kind_are_refused() -> None:
    state = classic.new_game(2, seed=1)
    with pytest.raises(ValueError, match="no sentence"):
        say(MoveFacts("dance", 0), ["Ann", "Bob"])
    with pytest.raises(ValueError, match="unknown language"):
        move_sentence(state, classic.Action.parse("pass"), ["Ann", "Bob"], "xx")
