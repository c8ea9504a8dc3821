"""Moves typed in the player's language at the terminal (issue 33): a French game takes
``prendre B U V``, a Dutch Duel ``neem c3``, the English notation still works in both,
``?`` lists the language's verbs and letters, and ``?``, ``??``, ``list``, ``board`` and
``quit`` keep their meaning.

The French and Dutch words are the catalogue's (``locale/{fr,nl}/LC_MESSAGES/splendor.po``,
the messages of :mod:`splendor.commands`)."""

from __future__ import annotations

import pytest

from splendor import classic, duel
from splendor.colors import DUEL_GOLD
from splendor.commands import command_words, to_command
from splendor.duel.board import cell_name
from splendor.record import GameRecord
from splendor.tui.app import run_play
from splendor.tui.games import ui_for
from splendor.tui.human import HumanAgent, InputProblem, language_words, parse_entry

from .helpers import console, feeder, text_of


def _seed_of_c3() -> int:
    """A Duel deal whose centre cell c3 holds a gem or a pearl."""
    for seed in range(100):
        st = duel.new_game(seed=seed)
        if st.board[12] is not None and st.board[12] != DUEL_GOLD:
            assert cell_name(12) == "c3"
            return seed
    raise AssertionError("no deal found")


def test_a_french_game_takes_prendre_with_french_letters(tmp_path):
    path = tmp_path / "fr.json"
    con = console()
    code = run_play(
        seats="human,random",
        seed=4,
        record_path=path,
        console=con,
        input_fn=feeder(["prendre B U V"]),
        language="fr",
    )
    assert code == 0
    record = GameRecord.load(path)
    assert record.actions[0] == "take W U G"  # the record keeps the notation
    assert "n'est pas" not in text_of(con)  # accepted at once


@pytest.mark.parametrize(
    "typed", ["prendre blanc bleu vert", "prends V B U", "prendre W U G", "take W U G"]
)
def test_french_words_names_and_english_notation_are_one_move(typed):
    st = classic.new_game(2, seed=1)
    ui = ui_for("splendor", "fr")
    action = parse_entry(typed, st.observation(0), st.legal_actions(), ui=ui)
    assert action == classic.Action.parse("take W U G")


def test_a_dutch_duel_takes_neem_c3():
    st = duel.new_game(seed=_seed_of_c3())
    ui = ui_for("duel", "nl")
    obs, legal = st.observation(0), st.legal_actions()
    assert parse_entry("neem c3", obs, legal, ui=ui) == duel.Action.parse("take c3")
    assert parse_entry("take c3", obs, legal, ui=ui) == duel.Action.parse("take c3")
    con = console()
    agent = HumanAgent(
        "ann", names=["ann", "bot"], console=con, input_fn=feeder(["neem c3"]), game=ui
    )
    assert agent.choose(obs, legal) == duel.Action.parse("take c3")


def test_a_dutch_duel_game_is_recorded_in_notation(tmp_path):
    path = tmp_path / "nl.json"
    code = run_play(
        game="duel",
        seats="human,random",
        seed=_seed_of_c3(),
        record_path=path,
        console=console(),
        input_fn=feeder(["neem c3"]),
        language="nl",
    )
    assert code == 0
    assert GameRecord.load(path).actions[0] == "take c3"


def test_unknown_words_are_refused_in_the_language_with_a_new_prompt():
    st = classic.new_game(2, seed=1)
    ui = ui_for("splendor", "fr")
    with pytest.raises(InputProblem) as e:
        parse_entry("sauter B", st.observation(0), st.legal_actions(), ui=ui)
    first = command_words("splendor", "fr")["verbs"]["take"][0]
    assert first in str(e.value)
    con = console()
    prompts: list[str] = []
    agent = HumanAgent(
        "ann",
        names=["ann", "bot"],
        console=con,
        input_fn=feeder(["sauter B", "prendre B U V"], prompts),
        game=ui,
    )
    assert agent.choose(st.observation(0), st.legal_actions()) == classic.Action.parse("take W U G")
    assert len(prompts) == 2 and "sauter" in text_of(con)


def test_a_misshapen_move_keeps_the_engine_hint():
    """Words are translated first; the engine's hint then says how to write the move (in
    English it names the gap, D8)."""
    st = duel.new_game(seed=3)
    ui = ui_for("duel", "nl")
    with pytest.raises(InputProblem) as e:
        parse_entry("neem a1 c1", st.observation(0), st.legal_actions(), ui=ui)
    assert ui.notation_hint("take a1 c1", "") in str(e.value)  # the engine's, in Dutch
    english = ui_for("duel", "en")
    with pytest.raises(InputProblem) as e:
        parse_entry("take a1 c1", st.observation(0), st.legal_actions(), ui=english)
    assert "gap at b1" in str(e.value) and "(D8)" in str(e.value)


def test_help_lists_the_language_words_and_letters():
    st = classic.new_game(2, seed=1)
    con = console(120)
    agent = HumanAgent("ann", names=["ann", "bot"], console=con, game="splendor", language="fr")
    agent.show_help(st.observation(0), st.legal_actions())
    out = " ".join(text_of(con).split())
    assert "prendre / prends = take" in out
    assert "B blanc" in out and "N noir" in out and "O or" in out
    assert f"'{to_command('splendor', 'take W U G', 'fr')}'" in out
    assert language_words(ui_for("duel", "en")) is None  # English: the notation itself


@pytest.mark.parametrize("word", ["?", "??", "list", "board", "b", "quit"])
def test_the_prompt_commands_keep_their_meaning_in_french(word):
    st = classic.new_game(2, seed=1)
    con = console()
    agent = HumanAgent(
        "ann",
        names=["ann", "bot"],
        console=con,
        input_fn=feeder([word, "prendre B U V"]),
        game="splendor",
        language="fr",
    )
    if word == "quit":
        with pytest.raises(Exception, match="quit"):
            agent.choose(st.observation(0), st.legal_actions())
        return
    assert agent.choose(st.observation(0), st.legal_actions()) == classic.Action.parse("take W U G")
    assert "n'est pas une action" not in text_of(con)
