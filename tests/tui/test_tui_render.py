"""Drawing the board (splendor.tui.render): content, and no hidden card ever shown (C16)."""

from __future__ import annotations

import pytest
from rich.style import Style

from splendor import classic
from splendor.bots import RandomBot
from splendor.match import play_game
from splendor.tui import render, render_duel

from .helpers import console, play_until, text_of


def _draw(*renderables, width: int = 100) -> str:
    con = console(width)
    for r in renderables:
        con.print(r)
    return text_of(con)


def test_board_shows_supply_nobles_faceup_cards_decks_and_players():
    st = classic.new_game(2, 7)
    obs = st.observation(0)
    text = _draw(render.render_board(obs, ["alice", "greedy"]))
    assert "supply 4W 4U 4G 4R 4K 5*" in text  # C1, two players
    for lvl in (1, 2, 3):
        for slot in (1, 2, 3, 4):
            card = obs.faceup[lvl - 1][slot - 1]
            assert f"{lvl}.{slot} {'WUGRK'[card.bonus]} {card.points}pt" in text
            assert render.cost_text(card.cost).plain in text
    for n in (36, 26, 16):  # C2, C4: deck sizes after the deal
        assert f"{n} left" in text
    shown = [n for n in obs.nobles if n is not None]
    assert len(shown) == 3  # C3
    for slot, noble in enumerate(shown, start=1):
        assert render.noble_text(noble, slot).plain in text
    assert "alice" in text and "greedy" in text
    assert "your move" in text and "▶" in text
    assert "tok 0W 0U 0G 0R 0K 0*" in text and "bon 0W 0U 0G 0R 0K" in text


def test_board_marks_whose_turn_it_is_from_another_seat():
    st = classic.new_game(3, 1)
    text = _draw(render.render_board(st.observation(2), ["a", "b", "c"]))
    assert "a to play (seat 0)" in text and "your move" not in text


def test_empty_faceup_slot_is_shown():
    a = classic.new_game(2, 7).observation(0).array
    a["faceup"][0, 0, 1] = -1  # level 1, slot 2 empty (deck exhausted, C10)
    text = _draw(render.render_board(classic.Observation(a)))
    assert "1.2 (empty)" in text


def test_blind_reserved_card_of_another_seat_is_never_drawn():
    st = classic.new_game(2, 3)
    st.apply("take W U G")  # seat 0
    st.apply("reserve d1")  # seat 1 reserves blind (C8)
    hidden = st.player(1).reserved[0]  # the full state knows it
    assert isinstance(hidden, classic.Card)
    as_drawn = render.card_text(hidden, "r1").plain  # how the owner sees it
    other = _draw(render.render_board(st.observation(0), ["a", "b"]))
    owner = _draw(render.render_board(st.observation(1), ["a", "b"]))
    assert as_drawn in owner  # the check below can fail
    assert as_drawn not in other
    assert "r1 L1 (hidden)" in other  # its level is public (C16)
    seat0 = st.observation(0)
    listing = _draw(
        render.render_actions(seat0, seat0.legal_actions()),
        render.render_action_list(seat0, seat0.legal_actions()),
    )
    assert as_drawn.removeprefix("r1 ") not in listing
    assert str(hidden) not in listing and str(hidden) not in other


def test_board_refuses_a_full_state():
    st = classic.new_game(2, 0)
    with pytest.raises(TypeError, match="observation"):
        render.render_board(st)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        render.render_actions(st, st.legal_actions())  # type: ignore[arg-type]


def test_token_styles_are_distinct_and_letters_always_drawn():
    assert len(set(render.TOKEN_STYLES)) == 6
    black = Style.parse(render.TOKEN_STYLES[4])
    assert black.bgcolor is not None or black.reverse  # readable on a dark terminal
    t = render.colorize("take W U G, return *, buy 1.2: L1 K 0pt [3W 2U]; buy r1")
    assert t.plain == "take W U G, return *, buy 1.2: L1 K 0pt [3W 2U]; buy r1"
    styled = {t.plain[s.start : s.end] for s in t.spans}
    assert styled == {"W", "U", "G", "*", "K", "3W", "2U"}


def test_token_rows_without_zeros_are_single_spaced_like_duel():
    """Regression: with ``show_zero=False`` the classic row left a space for every zero
    it skipped (``1U 2G  3K``); it now reads as Duel's does."""
    tokens = [0, 1, 2, 0, 3, 1]
    assert render.tokens_text(tokens, show_zero=False).plain == "1U 2G 3K 1*"
    assert render.tokens_text(tokens).plain == "0W 1U 2G 0R 3K 1*"
    assert render_duel.tokens_text([0, 1, 2, 0, 3, 0, 1], show_zero=False).plain == "1U 2G 3K 1*"


def test_action_list_is_numbered_in_legal_order():
    st = classic.new_game(2, 7)
    obs = st.observation(0)
    legal = obs.legal_actions()
    text = _draw(render.render_actions(obs, legal))
    assert " 1 W U G" in text and f"{len(legal)} d3" in text
    assert "take 2" in text and "reserve" in text
    full = _draw(render.render_action_list(obs, legal))
    card = obs.faceup[0][0]
    assert "reserve 1.1" in full and str(card).removeprefix("L1 ") in full  # describe()


def test_compact_list_wraps_to_the_width():
    st = play_until(
        lambda s: s.phase == "main" and sum(a.kind == "buy_faceup" for a in s.legal_actions()) >= 4
    )
    obs = st.observation(st.current_player)
    text = _draw(render.render_actions(obs, obs.legal_actions(), width=60), width=60)
    assert max(len(line) for line in text.splitlines()) <= 60
    assert "buy" in text


def test_payment_phase_is_explained():
    st = play_until(lambda s: s.phase == "payment")
    text = _draw(render.render_board(st.observation(st.current_player)))
    assert "paying for" in text and "still owed" in text and "payment" in text


def test_return_phase_is_explained():
    st = play_until(lambda s: s.phase == "return tokens")
    me = st.current_player
    held = st.player(me).num_tokens
    text = _draw(render.render_board(st.observation(me)))
    assert f"you hold {held} tokens: return {held - 10}" in text


def test_scores_and_result_lines_of_a_finished_game():
    final, rec = play_game([RandomBot(1), RandomBot(2)], seed=5)
    obs = final.observation(0)
    names = ["a", "b"]
    text = _draw(render.render_board(obs, names), render.render_scores(obs, names))
    assert "game over" in text and "final scores" in text and "winner" in text
    lines = render.result_lines(obs, names)
    assert lines[0] == f"scores: a {final.scores[0]}, b {final.scores[1]}"
    won = " and ".join(names[w] for w in final.winners)
    assert lines[1] == f"winner: {won} ({final.end_reason}, {final.turn} turns)"


def test_board_fits_100_columns_with_four_players():
    st = play_until(lambda s: s.num_players == 4 and s.turn > 30 and s.phase == "main")
    obs = st.observation(0)
    text = _draw(render.render_board(obs, ["you", "greedy-1", "random", "greedy-3"]))
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 100
    assert len(lines) <= 32


@pytest.mark.parametrize("game", ["classic", "duel"])
def test_every_buy_pay_number_names_its_card_and_the_example_is_legal(game):
    """Issue 33: a ``buy … choose`` entry is listed with its number and its card (not
    summed up as 'the same buys'), and the line under them takes its example from the
    legal decisions, not a fixed 'buy 1.2 choose'."""
    from splendor.commands import to_command
    from splendor.tui.words import tui_messages

    from .helpers import duel_play_until

    def has_choose(s):
        return s.phase == "main" and any(a.kind == "buy_choose" for a in s.legal_actions())

    st = play_until(has_choose) if game == "classic" else duel_play_until(has_choose)
    obs, legal = st.observation(st.current_player), st.legal_actions()
    mod = render if game == "classic" else render_duel
    t = tui_messages("fr")
    text = " ".join(text_of_text(mod.render_actions(obs, legal, width=200, language="fr")).split())
    assert "les mêmes achats" not in text and "same buys" not in text
    chooses = [(i, a) for i, a in enumerate(legal, start=1) if a.kind == "buy_choose"]
    for i, a in chooses:
        label = str(a).split()[1]
        assert f" {i} {label} " in f" {text} "  # the number, then the card's place
    example = text.split("'")[-2]  # as typed in French (issue 33: the language's words)
    name = "splendor" if game == "classic" else "duel"
    assert example in {to_command(name, str(a), "fr") for _, a in chooses}
    assert t.gettext("buy+pay") in text


def text_of_text(renderable) -> str:
    con = console(200)
    con.print(renderable)
    return text_of(con)
