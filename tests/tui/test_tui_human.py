"""The person at the terminal as an agent (splendor.tui.human)."""

from __future__ import annotations

import pytest

from splendor import classic
from splendor.classic import Action
from splendor.tui.human import HumanAgent, InputProblem, QuitGame, parse_entry

from .helpers import console, feeder, play_until, text_of


def _agent(lines, prompts=None, names=("you", "bot")):
    con = console()
    agent = HumanAgent("you", names=list(names), console=con, input_fn=feeder(lines, prompts))
    return agent, con


def _start(seed: int = 7) -> tuple[classic.State, classic.Observation, list[Action]]:
    st = classic.new_game(2, seed)
    return st, st.observation(0), st.legal_actions()


def test_number_picks_from_the_list():
    _, obs, legal = _start()
    agent, con = _agent(["3"])
    assert agent.choose(obs, legal) == legal[2]
    assert "supply" in text_of(con)  # the board was drawn first


def test_notation_in_any_case_and_colour_order():
    _, obs, legal = _start()
    agent, _ = _agent(["  TAKE g w   u "])
    assert agent.choose(obs, legal) == Action.parse("take W U G")


def test_help_shows_notation_and_commands_only_then_prompts_again():
    """``?`` is short: the notation and the commands, not the list of decisions (that is
    ``??`` or ``list``), so the board stays on screen."""
    _, obs, legal = _start()
    prompts: list[str] = []
    agent, con = _agent(["?", "reserve d2"], prompts)
    assert agent.choose(obs, legal) == Action.parse("reserve d2")
    out = text_of(con)
    assert "reserve the top card of the level-2 deck" in out  # NOTATION_HELP
    assert "quit" in out and "??  or  list" in out
    help_part = out.split("How to write a decision")[1]
    assert f"{len(legal)} " not in help_part and "type this" not in help_part
    assert len(help_part.splitlines()) < 30
    assert len(prompts) == 2


def test_bad_entries_get_a_message_and_a_new_prompt():
    _, obs, legal = _start()
    prompts: list[str] = []
    lines = ["take X Y", "buy 3.1", "99", "0", "", "noble 1", "take W W W", "take W U G"]
    agent, con = _agent(lines, prompts)
    assert agent.choose(obs, legal) == Action.parse("take W U G")
    out = text_of(con)
    assert len(prompts) == len(lines)
    assert "'take X Y' is not an action" in out and "colours are W U G R K" in out
    assert "'buy 3.1' is not legal now: you cannot afford it" in out
    assert "no decision number 99: pick 1 to 30" in out
    assert "no decision number 0" in out
    assert "only asked after a main action" in out
    assert out.count("✗") == len(lines) - 1


def test_end_of_input_stops_the_game():
    _, obs, legal = _start()
    agent, _ = _agent(["nonsense"])
    with pytest.raises(QuitGame) as e:
        agent.choose(obs, legal)
    assert e.value.reason == "end of input"


def test_quit_stops_the_game():
    _, obs, legal = _start()
    agent, _ = _agent(["quit"])
    with pytest.raises(QuitGame) as e:
        agent.choose(obs, legal)
    assert e.value.reason == "quit"


def test_ctrl_c_is_left_to_the_caller():
    _, obs, legal = _start()
    agent, _ = _agent([KeyboardInterrupt()])
    with pytest.raises(KeyboardInterrupt):
        agent.choose(obs, legal)


@pytest.mark.parametrize("word", ["list", "??"])
def test_list_numbers_every_decision_compactly(word):
    """``list`` and ``??``: every decision numbered with its tokens or card, grouped by
    kind, several to a line."""
    _, obs, legal = _start()
    agent, con = _agent([word, "board", "1"])
    agent.choose(obs, legal)
    out = text_of(con)
    without, con2 = _agent(["board", "1"])
    without.choose(obs, legal)
    listed = len(out.splitlines()) - len(text_of(con2).splitlines())
    assert f"{len(legal)} d3" in out
    assert out.count("supply ") == 2  # drawn, then drawn again on 'board'
    assert 0 < listed < len(legal) // 3


def test_parse_entry_explains_illegal_takes():
    st = classic.new_game(2, 7)
    st.apply("take R R")  # 4 -> 2 red left (C7)
    obs = st.observation(1)
    legal = st.legal_actions()
    with pytest.raises(InputProblem, match="needs 4 or more in the pile; there are 2"):
        parse_entry("take R R", obs, legal)
    with pytest.raises(InputProblem, match="take 3 different"):
        parse_entry("take W U", obs, legal)
    assert parse_entry("#1", obs, legal) == legal[0]


def test_parse_entry_in_the_return_phase():
    st = play_until(lambda s: s.phase == "return tokens")
    obs = st.observation(st.current_player)
    legal = st.legal_actions()
    with pytest.raises(InputProblem, match="return tokens first"):
        parse_entry("take W U G", obs, legal)
    assert parse_entry(str(legal[0]), obs, legal) == legal[0]


def test_later_decisions_of_a_turn_are_shown_compactly():
    st = play_until(lambda s: s.phase == "return tokens")
    me = st.current_player
    agent, con = _agent(["1"])
    agent._drawn_turn = st.turn  # the board was drawn for this turn's main action
    agent.choose(st.observation(me), st.legal_actions())
    out = text_of(con)
    assert "supply" not in out and "your tokens" in out and "return" in out


def _buy_without_choice(s: classic.State) -> bool:
    if s.phase != "main":
        return False
    legal = set(s.legal_actions())
    return any(a.kind == "buy_faceup" and Action.parse(f"{a} choose") not in legal for a in legal)


def test_choosing_a_payment_when_there_is_none_to_choose_is_explained():
    st = play_until(_buy_without_choice)
    legal = st.legal_actions()
    buy = next(
        a for a in legal if a.kind == "buy_faceup" and Action.parse(f"{a} choose") not in legal
    )
    obs = st.observation(st.current_player)
    with pytest.raises(
        InputProblem, match=f"only one way to pay for it, nothing to choose: type '{buy}'"
    ):
        parse_entry(f"{buy} choose", obs, legal)
    assert parse_entry(str(buy), obs, legal) == buy


def test_keys_typed_while_preparing_are_discarded(tmp_path):
    """Issue 16: what a person typed on the terminal before the first prompt (while the
    engine was preparing) is dropped, not read as a move; a pipe or a file is left alone
    (its lines are meant to be read)."""
    import os
    import select

    from splendor.tui.human import discard_typeahead

    master, slave = os.openpty()
    try:
        os.write(master, b"take W U G\n")
        with os.fdopen(os.dup(slave), "rb", buffering=0) as terminal:
            assert select.select([terminal], [], [], 1.0)[0]  # typed ahead: waiting
            assert discard_typeahead(terminal) is True
            assert select.select([terminal], [], [], 0.2)[0] == []  # gone
            os.write(master, b"buy 1.1\n")  # typed after: kept
            assert select.select([terminal], [], [], 1.0)[0]
            assert terminal.read(64) == b"buy 1.1\n"
    finally:
        os.close(master)
        os.close(slave)
    piped = tmp_path / "moves.txt"
    piped.write_text("take W U G\n")
    with piped.open() as f:
        assert discard_typeahead(f) is False
        assert f.readline() == "take W U G\n"
    import io

    assert discard_typeahead(io.StringIO("x")) is False


def test_an_empty_entry_suggests_a_legal_example():
    """Issue 33: the example in the hint is one of the legal decisions."""
    st = classic.new_game(2, 7)
    st.apply("take R R")
    obs, legal = st.observation(1), st.legal_actions()
    with pytest.raises(InputProblem) as info:
        parse_entry("  ", obs, legal)
    example = str(info.value).split("'")[1]
    assert example == str(legal[0]) and Action.parse(example) in legal
