"""Drawing Splendor Duel (splendor.tui.render_duel): the board with its coordinates, the
pyramid, royal cards, players, phase hints, results, and no hidden card ever shown (D22)."""

from __future__ import annotations

import pytest

from splendor import duel
from splendor.colors import DUEL_GOLD, DUEL_TOKEN_LETTERS
from splendor.duel.board import cell_name
from splendor.tui import render_duel
from splendor.tui.games_duel import DUEL

from .helpers import console, duel_play_until, text_of


def _draw(*renderables, width: int = 100) -> str:
    con = console(width)
    for r in renderables:
        con.print(r)
    return text_of(con)


def _symbol(v: int | None) -> str:
    return "·" if v is None else DUEL_TOKEN_LETTERS[v]


def _gold_cell(st: duel.State) -> str:
    return next(cell_name(i) for i, v in enumerate(st.board) if v == DUEL_GOLD)


def _blind_reserve_by_seat_1(seed: int = 3) -> tuple[duel.State, duel.Card]:
    """Seat 0 takes one token, then seat 1 takes a gold and reserves the top of the
    level-1 deck blind (D9)."""
    st = duel.new_game(seed=seed)
    take = next(a for a in st.legal_actions() if a.kind == "take")
    st.apply(take)
    st.apply(f"gold {_gold_cell(st)}")
    assert st.phase == "reserve"
    st.apply("reserve d1")
    card = st.player(1).reserved[0]
    assert isinstance(card, duel.Card) and st.player(1).reserved_blind == (True,)
    return st, card


def test_board_grid_has_coordinates_on_every_edge_aligned_with_the_cells():
    st = duel_play_until(lambda s: s.turn >= 6 and None in s.board)  # some empty cells
    obs = st.observation(0)
    lines = render_duel.board_grid(obs).plain.splitlines()
    assert len(lines) == 7
    assert lines[0] == lines[6]  # columns a-e along the top and the bottom
    assert lines[0].split() == ["a", "b", "c", "d", "e"]
    for r in range(5):
        words = lines[r + 1].split()
        assert words[0] == words[-1] == str(r + 1)  # rows 1-5 down both sides
        assert words[1:-1] == [_symbol(obs.board[r * 5 + c]) for c in range(5)]
        for c, col in enumerate("abcde"):  # each letter sits right above its column
            assert lines[r + 1][lines[0].index(col)] == _symbol(obs.board[r * 5 + c])
    assert "·" in "".join(lines)  # an empty cell is a dot


def test_cells_are_coloured_chips_with_their_letter():
    obs = duel.new_game(seed=3).observation(0)
    grid = render_duel.board_grid(obs)
    styled = {grid.plain[s.start : s.end].strip(): str(s.style) for s in grid.spans}
    for v in range(7):  # W U G R K, P pearl, * gold all start on the board (D2)
        assert styled[DUEL_TOKEN_LETTERS[v]] == render_duel.TOKEN_STYLES[v]


def test_board_shows_bag_privileges_pyramid_decks_royals_and_players():
    st = duel.new_game(seed=3)
    obs = st.observation(0)
    text = _draw(render_duel.render_board(obs, ["ann", "bot"]))
    assert text.count("a   b   c   d   e") >= 2
    assert "bag        0W 0U 0G 0R 0K 0P 0*  (0)" in text  # D2: the whole bag on the board
    assert "privileges ◆◆ 2 beside the board" in text  # D5: seat 1 holds the third
    assert "bot ◆ 1" in text
    assert "decks      L3 10 · L2 20 · L1 25" in text  # D3: 13/24/30 less the pyramid
    for lvl, size in ((1, 5), (2, 4), (3, 3)):
        for slot in range(1, size + 1):
            card = obs.pyramid[lvl - 1][slot - 1]
            label = render_duel.card_text(card, f"{lvl}.{slot}", lines=True).plain
            assert label.splitlines()[0] in text
            assert render_duel.cost_text(card.cost).plain in text
        assert f"{lvl}.{size + 1} " not in text  # the pyramid has 5, 4 and 3 slots
    assert "[1] 3pt  [2] 2pt again" in text and "[3] 2pt privilege  [4] 2pt steal" in text
    assert "20 points · 10 crowns · 10 points in one colour" in text
    assert "ann" in text and "your move" in text and "▶" in text
    assert "tok 0W 0U 0G 0R 0K 0P 0* = 0/10" in text
    assert "bon 0W 0U 0G 0R 0K" in text and "pts 0W 0U 0G 0R 0K" in text
    assert "0 prestige points" in text and "0 crowns · 0 cards" in text


def test_a_card_shows_bonus_points_crowns_ability_and_cost():
    cards = {c.id: c for c in duel.CARDS}
    two_bonus = next(c for c in cards.values() if c.bonus_count == 2)
    assert render_duel.card_text(two_bonus, "2.1").plain.startswith(
        f"2.1 L{two_bonus.level} {'WUGRK'[two_bonus.color] * 2} {two_bonus.points}pt"
    )
    crowned = next(c for c in cards.values() if c.crowns and c.ability == "none")
    assert f" {crowned.crowns}cr " in render_duel.card_text(crowned).plain
    joker_again = next(c for c in cards.values() if c.ability == "joker+again")
    assert render_duel.card_text(joker_again).plain == (f"L3 joker {joker_again.points}pt again 8R")
    steal = next(c for c in cards.values() if c.ability == "steal")
    assert render_duel.card_text(steal, lines=True).plain.splitlines()[-1] == "steal"
    none = next(c for c in cards.values() if c.color == -1)
    assert render_duel.card_text(none).plain.split()[1] == "-"


def test_the_opponents_blind_reserve_is_never_drawn():
    st, card = _blind_reserve_by_seat_1()
    mine = render_duel.card_text(card, "r1").plain
    seen_by_0 = st.observation(0)
    assert isinstance(seen_by_0.player(1).reserved[0], duel.HiddenCard)
    text = _draw(render_duel.render_board(seen_by_0, ["ann", "bot"]), width=100)
    narrow = _draw(render_duel.render_board(seen_by_0, ["ann", "bot"]), width=80)
    for t in (text, narrow):
        assert "r1 L1 (hidden)" in t
        assert str(card) not in t and mine not in t
        assert render_duel.cost_text(card.cost).plain not in t.split("r1 L1")[1]
    own = _draw(render_duel.render_board(st.observation(1), ["ann", "bot"]))
    assert f"{mine} blind" in own  # its owner sees it (D22)


def test_a_full_state_is_refused():
    st = duel.new_game(seed=1)
    with pytest.raises(TypeError, match="state.observation"):
        render_duel.render_board(st)
    with pytest.raises(TypeError):
        render_duel.render_actions(st, st.legal_actions())


def test_taken_royal_cards_are_marked_and_shown_with_their_holder():
    st = duel_play_until(lambda s: any(p.royals for p in s.players))
    obs = st.observation(0)
    holder = next(p for p in obs.players if p.royals)
    royal = holder.royals[0]
    names = ["ann", "bot"]
    text = _draw(render_duel.render_board(obs, names, you=False))
    assert f"[{royal.id + 1}] {royal.points}pt taken by {names[holder.seat]}" in text
    assert f"royal {render_duel.royal_text(royal, royal.id + 1).plain}" in text


@pytest.mark.parametrize(
    "phase, words",
    [
        ("reserve", "reserve a pyramid card ('reserve 2.3')"),
        ("payment", "still owed"),
        ("joker", "attach the joker"),
        ("token", "the card's ability: take a"),
        ("steal", "steal one gem or pearl token from"),
        ("royal", "take a royal card with 'royal N' (D19)"),
        ("return tokens", "(limit 10, D20)"),
    ],
)
def test_each_pending_choice_has_a_hint(phase, words):
    st = duel_play_until(lambda s: s.phase == phase)
    me = st.current_player
    obs = st.observation(me)
    hint = render_duel.phase_hint(obs, ["ann", "bot"])
    assert hint is not None and words in hint.plain
    assert phase in render_duel.status_line(obs).plain
    text = _draw(render_duel.render_board(obs, ["ann", "bot"]))
    assert words in " ".join(text.replace("│", " ").split())  # part of the board too
    followup = _draw(*DUEL.followup(obs, ["ann", "bot"]))
    assert "your tokens" in followup and words[:20] in followup


def test_the_token_hint_names_the_cells_that_hold_the_colour():
    st = duel_play_until(lambda s: s.phase == "token")
    obs = st.observation(st.current_player)
    cells = {cell_name(a.cells[0]) for a in st.legal_actions()}
    hint = render_duel.phase_hint(obs).plain
    assert all(c in hint for c in cells)
    assert "a   b   c   d   e" in _draw(*DUEL.followup(obs, None))  # the grid to pick from


def test_the_action_list_sums_up_many_takes_and_numbers_the_rest():
    st = duel.new_game(seed=3)
    obs = st.observation(0)
    legal = st.legal_actions()
    text = _draw(render_duel.render_actions(obs, legal))
    takes = [i for i, a in enumerate(legal, start=1) if a.kind == "take"]
    # the group labels ("take", "take gold") are padded to one width
    # the summed-up line shows no number (it names no line), and its example is legal
    flat = " ".join(text.split())
    assert f"take {len(takes)} lines" in flat and f"1-{takes[-1]}" not in flat
    example = flat.split("like '")[1].split("'")[0]
    assert example in {str(a) for a in legal} and len(example.split()) == 4
    for i, a in enumerate(legal, start=1):
        if a.kind == "take_gold":
            assert f"{i} {cell_name(a.cells[0])} *" in text
    full = _draw(render_duel.render_action_list(obs, legal), width=120)
    assert f"{len(legal)}   {legal[-1]}" in full


def test_few_takes_are_listed_one_by_one():
    st = duel_play_until(
        lambda s: (
            s.phase == "main"
            and 0 < sum(a.kind == "take" for a in s.legal_actions()) <= render_duel.MAX_LISTED_TAKES
        )
    )
    legal = st.legal_actions()
    text = _draw(render_duel.render_actions(st.observation(st.current_player), legal))
    for i, a in enumerate(legal, start=1):
        if a.kind == "take":
            assert f"{i} {str(a).removeprefix('take ')}" in text


def test_game_over_names_the_winner_and_how():
    st = duel_play_until(lambda s: s.is_terminal)
    obs = st.observation(0)
    names = ["ann", "bot"]
    w = obs.winners[0]
    text = _draw(render_duel.render_board(obs, names), render_duel.render_scores(obs, names))
    assert f"game over after {obs.turn} turns" in text and "final scores" in text
    assert f"{names[w]} wins with" in text and "D21" in text
    assert render_duel.result_lines(obs, names)[1] == (
        f"winner: {names[w]} ({obs.end_reason}, {obs.turn} turns)"
    )


@pytest.mark.parametrize(
    "reason, words",
    [("crowns", "crowns (10 crowns win, D21)"), ("colour", "points on")],
)
def test_victory_by_crowns_or_colour_is_told(reason, words):
    st = duel_play_until(lambda s: s.is_terminal and s.end_reason == reason, range(400))
    obs = st.observation(1)
    assert words in render_duel.victory_text(obs, ["ann", "bot"])


def test_a_turn_cap_ends_with_no_winner():
    st = duel_play_until(lambda s: s.is_terminal, range(1), turn_cap=6)
    obs = st.observation(0)
    assert obs.end_reason == "turn cap" and obs.winners == []
    text = _draw(render_duel.render_scores(obs, ["a", "b"]))
    assert "no winner: the turn cap of 6 turns was reached (D25)" in text
    assert "winner" not in text.replace("no winner", "")
    assert render_duel.result_lines(obs, ["a", "b"])[1] == "no winner (turn cap, 6 turns)"


def test_list_numbers_every_take_several_to_a_line():
    """``list`` (``full``): every decision numbered with what it does, none summed up,
    several to a line (112 rows would push the board off screen)."""
    st = duel.new_game(seed=3)
    obs, legal = st.observation(0), st.legal_actions()
    text = _draw(render_duel.render_actions(obs, legal, width=100, full=True), width=100)
    assert "lines: type" not in text
    for i in range(1, len(legal) + 1):
        assert f"{i} " in text
    assert len(text.splitlines()) < len(legal) // 3
