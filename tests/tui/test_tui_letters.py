"""Gem letters in the player's language at the terminal (issue 33): the board (token
chips, card costs and bonuses, the supply, the Duel grid), the numbered list of legal
decisions and the hints' examples use the letters and verbs of the language
(:mod:`splendor.commands`: French ``B U V R N O`` for white, blue, green, red, black,
gold), a line typed as the list shows it is accepted, and the records keep the English
notation. English is unchanged.

The French words are the catalogue ``splendor``'s (module docstring of
:mod:`splendor.commands`): a change there may need a change here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from splendor import classic, duel
from splendor.commands import letters, to_command
from splendor.record import GameRecord
from splendor.tui import games, render, render_duel
from splendor.tui.app import run_play
from splendor.tui.human import HumanAgent, InputProblem, parse_entry

from .helpers import console, duel_play_until, feeder, text_of

FR = {"W": "B", "U": "U", "G": "V", "R": "R", "K": "N", "P": "P", "*": "O"}
"""The French letters (catalogue ``splendor``, French edition's colour names)."""

# An English-only letter standing as a token (``W``, ``4G``, ``K``, ``5*``), not in a word
ENGLISH_TOKEN = re.compile(r"(?<![\w.])\d*[WGK*](?![\w'])")


def _draw(*renderables, width: int = 110) -> str:
    con = console(width)
    for r in renderables:
        con.print(r)
    return text_of(con)


def test_the_french_letters_are_the_catalogues():
    """What the rest of this file relies on (fails until the French words are in the
    catalogue ``splendor``)."""
    assert letters("duel", "fr") == FR


# ----------------------------------------------------------------------------- classic


def test_a_french_classic_board_shows_french_letters():
    st = classic.new_game(2, 3)
    obs = st.observation(0)
    board = _draw(render.render_board(obs, ["ann", "bob"], language="fr"))
    assert "4B 4U 4V 4R 4N 5O" in board  # the supply
    assert "0B 0U 0V 0R 0N 0O = 0/10" in board  # each seat's tokens
    assert not ENGLISH_TOKEN.findall(board), ENGLISH_TOKEN.findall(board)
    card = obs.faceup[0][0]
    cost = " ".join(f"{n}{FR['WUGRK'[c]]}" for c, n in enumerate(card.cost) if n)
    assert cost in board
    assert render.card_words(card, "fr").endswith(f"[{cost}]")
    assert render.card_words(card, "fr").split()[1] == FR["WUGRK"[card.bonus]]


def test_the_english_board_and_list_are_unchanged():
    st = classic.new_game(2, 3)
    obs = st.observation(0)
    board = _draw(render.render_board(obs, ["ann", "bob"]))
    assert "4W 4U 4G 4R 4K 5*" in board
    listed = _draw(render.render_actions(obs, st.legal_actions(), width=110))
    assert re.search(r"take +1 W U G +2 W U R", listed)
    assert re.search(r"take 2 +11 W W", listed)
    assert render.describe(obs, "buy 1.1") == f"buy 1.1: {obs.faceup[0][0]}"


def test_a_french_list_shows_french_letters_and_its_lines_are_accepted():
    """The numbered list reads ``prendre  1 B U V …``: the group's verb and the cell are
    what a person types, and typing it (or the number) picks that decision."""
    st = classic.new_game(2, 3)
    obs, legal = st.observation(0), st.legal_actions()
    listed = _draw(render.render_actions(obs, legal, width=110, language="fr"))
    assert re.search(r"prendre +1 B U V +2 B U R", listed), listed
    assert "11 B B" in listed and "15 N N" in listed
    assert not ENGLISH_TOKEN.findall(listed)
    ui = games.ui_for("splendor", "fr")
    assert parse_entry("prendre B U V", obs, legal, ui=ui) == legal[0]
    assert str(legal[0]) == "take W U G"  # the decision itself stays in notation
    for action in legal:  # every decision, as the 'type this' column writes it
        typed = to_command("splendor", str(action), "fr")
        assert parse_entry(typed, obs, legal, ui=ui) == action
    table = _draw(render.render_action_list(obs, legal, language="fr"), width=140)
    assert "prendre B U V" in table and "take W U G" not in table


def test_a_french_hint_gives_its_example_in_french():
    st = classic.new_game(2, 5)
    while st.phase != "payment":  # buy a card with a payment to choose (C9)
        legal = st.legal_actions()
        choose = [a for a in legal if a.kind == "buy_choose"]
        if choose:
            st.apply(choose[0])
            break
        takes = [a for a in legal if a.kind.startswith("take") or a.kind == "reserve_faceup"]
        st.apply(takes[0] if takes else legal[0])
    hint = render.phase_hint(st.observation(st.current_player), language="fr")
    assert hint is not None
    assert "'or B'" in hint.plain and "'payer'" in hint.plain
    english = render.phase_hint(st.observation(st.current_player))
    assert english is not None and "'gold W' spends a gold for a W, 'pay'" in english.plain


def test_a_french_terminal_game_accepts_the_listed_line_and_records_notation(tmp_path: Path):
    """A whole French game at the terminal: the board and the list in French letters, the
    listed line typed back, an illegal move quoted in French, and the record in English
    notation."""
    con = console(110)
    path = tmp_path / "fr.json"
    entries = ["acheter 3.1", "prendre B U V", "quit"]
    code = run_play(
        game="splendor",
        seats="human,random",
        seed=3,
        record_path=path,
        console=con,
        input_fn=feeder(entries),
        language="fr",
    )
    assert code == 0
    out = text_of(con)
    assert "4B 4U 4V 4R 4N 5O" in out
    assert re.search(r"prendre +1 B U V", out)
    assert "'acheter 3.1'" in out  # the refusal quotes the move in French
    record = GameRecord.load(path)
    assert record.actions[0] == "take W U G"  # records keep the notation


# ----------------------------------------------------------------------------- Duel


def test_a_french_duel_board_shows_french_letters():
    st = duel.new_game(seed=2)
    obs = st.observation(0)
    board = _draw(render_duel.render_board(obs, ["ann", "bob"], language="fr"))
    assert not ENGLISH_TOKEN.findall(board), ENGLISH_TOKEN.findall(board)
    grid = render_duel.board_grid(obs, language="fr").plain
    shown = [FR["WUGRKP*"[v]] for v in obs.board if v is not None]
    assert re.findall(r"(?<= )[A-Z](?= )", grid)[: len(shown)] == shown[: len(shown)]
    assert "0B 0U 0V 0R 0N 0P 0O" in board
    english = _draw(render_duel.render_board(obs, ["ann", "bob"]))
    assert "0W 0U 0G 0R 0K 0P 0*" in english


def test_a_french_duel_list_and_summary_speak_french():
    st = duel.new_game(seed=2)
    obs, legal = st.observation(0), st.legal_actions()
    listed = _draw(render_duel.render_actions(obs, legal, width=110, language="fr"))
    assert "'prendre a1 b1 c1'" in _flat(listed)  # the summed-up takes' example
    golds = [a for a in legal if a.kind == "take_gold"]
    assert golds and f"{golds[0].cells[0]}" in listed
    ui = games.ui_for("duel", "fr")
    for action in legal:
        typed = to_command("duel", str(action), "fr")
        assert parse_entry(typed, obs, legal, ui=ui) == action
    assert parse_entry("prendre a1 b1 c1", obs, legal, ui=ui) in legal


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_a_french_duel_return_hint_gives_french_examples():
    st = duel_play_until(lambda s: s.phase == "return tokens")
    seat = st.current_player
    hint = render_duel.phase_hint(st.observation(seat), language="fr")
    assert hint is not None
    assert "'rendre B'" in hint.plain and "'rendre O'" in hint.plain
    english = render_duel.phase_hint(st.observation(seat))
    assert english is not None and "'return W', 'return *'" in english.plain


# ----------------------------------------------------------------------------- pieces


def test_colorize_reads_the_letters_of_its_language():
    fr = render.colorize("acheter 1.2: L1 N 0 pt [3B 2U] N'est pas", language="fr")
    chips = [fr.plain[s.start : s.end] for s in fr.spans]
    assert chips == ["N", "3B", "2U"]  # not the N of N'est
    en = render.colorize("take W U G")
    assert [en.plain[s.start : s.end] for s in en.spans] == ["W", "U", "G"]


def test_a_french_refusal_is_drawn_in_french_letters():
    st = classic.new_game(2, 7)
    obs, legal = st.observation(0), st.legal_actions()
    con = console(110)
    agent = HumanAgent(
        "vous",
        names=["vous", "bob"],
        console=con,
        input_fn=feeder(["", "3"]),
        game=games.ui_for("splendor", "fr"),
    )
    assert agent.choose(obs, legal) == legal[2]
    out = text_of(con)
    assert "✗ " in out and "'prendre B U V'" in out  # the example, in French
    with pytest.raises(InputProblem, match="'prendre B U V'"):
        parse_entry("", obs, legal, ui=games.ui_for("splendor", "fr"))
