"""run_play: seats, the game loop, the record saved at the end and on interruption."""

from __future__ import annotations

import pytest

from splendor import classic
from splendor.bots import RandomBot
from splendor.move_text import move_sentence
from splendor.record import GameRecord
from splendor.tui import loop, render, table
from splendor.tui.app import PlayOptionError, parse_seats, run_play, seat_names

from .helpers import console, feeder, text_of


def test_seats_are_filled_with_greedy_bots():
    assert parse_seats(4, "human, Random") == ["human", "random", "greedy", "greedy"]
    assert parse_seats(2, "") == ["greedy", "greedy"]
    assert parse_seats(3, ["greedy", "human", "random"]) == ["greedy", "human", "random"]


@pytest.mark.parametrize(
    "players, seats, message",
    [
        (5, "human", "--players must be 2 to 4, got 5"),
        (1, "human", "--players must be 2 to 4, got 1"),
        (2, "human,greedy,random", "names 3 seats but the game has 2 players; use --players 3"),
        (3, "human,robot", "seat 1 is 'robot'; each seat is one of human, random, greedy"),
        (3, "human,,random", "seat 1 is an empty entry"),
    ],
)
def test_bad_options_are_refused_with_exit_code_2(players, seats, message, tmp_path):
    with pytest.raises(PlayOptionError, match=message):
        parse_seats(players, seats)
    con = console()
    path = tmp_path / "g.json"
    assert run_play(players=players, seats=seats, record_path=path, console=con) == 2
    assert message in text_of(con)
    assert not path.exists()


@pytest.mark.parametrize("seed", [-1, 1 << 63])
def test_seed_out_of_range_is_refused(seed, tmp_path):
    con = console()
    assert (
        run_play(seats="random,random", seed=seed, record_path=tmp_path / "g.json", console=con)
        == 2
    )
    assert "--seed must be between 0 and" in text_of(con)


def test_seat_names_are_unique():
    assert seat_names(["human", "greedy", "random", "greedy"], "ann") == [
        "ann",
        "greedy-1",
        "random",
        "greedy-3",
    ]
    assert seat_names(["random", "random"]) == ["random-0", "random-1"]


def test_bots_play_to_the_end_and_the_record_is_saved(tmp_path):
    con = console()
    path = tmp_path / "g.json"
    assert run_play(players=2, seats="greedy,random", seed=3, record_path=path, console=con) == 0
    rec = GameRecord.load(path)
    final = rec.replay()  # every action checks
    assert final.is_terminal and rec.result is not None
    assert rec.result["scores"] == final.scores and rec.players == ["greedy", "random"]
    assert rec.seed == 3 and rec.metadata["seats"] == ["greedy", "random"]
    assert rec.metadata["bot_seeds"] == [31, 32]
    out = text_of(con)
    assert "preparing the engine" not in out  # a transient spinner only
    assert render.result_lines(final.observation(0), rec.players)[0] in out
    assert f"record saved to {path}" in out
    first = classic.new_game(2, 3)
    first.apply(rec.actions[0])
    second = classic.Action.parse(rec.actions[1])
    # one log line per decision, the move as a sentence
    assert move_sentence(first, second, rec.players) in out and f": {rec.actions[1]}" not in out
    assert out.count("final scores") == 1


def test_quiet_prints_only_the_result_and_same_seed_same_game(tmp_path):
    con = console()
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert run_play(seats="random,random", seed=9, record_path=a, quiet=True, console=con) == 0
    assert (
        run_play(seats="random,random", seed=9, record_path=b, quiet=True, console=console()) == 0
    )
    lines = text_of(con).strip().splitlines()
    assert len(lines) == 3 and lines[0].startswith("scores: random-0 ")
    assert lines[1].startswith("winner: ") and lines[2] == f"record saved to {a}"
    assert GameRecord.load(a).actions == GameRecord.load(b).actions


def test_delay_pauses_after_each_bot_decision(tmp_path, monkeypatch):
    naps: list[float] = []
    monkeypatch.setattr(loop.time, "sleep", naps.append)
    path = tmp_path / "g.json"
    assert (
        run_play(seats="random,random", seed=2, record_path=path, delay=0.25, console=console())
        == 0
    )
    assert naps == [0.25] * len(GameRecord.load(path).actions)


def test_default_record_path_is_under_records(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    con = console()
    assert run_play(seats="random,random", seed=1, quiet=True, console=con) == 0
    saved = list((tmp_path / "records").glob("*.json"))
    assert len(saved) == 1 and GameRecord.load(saved[0]).result is not None
    assert f"record saved to records/{saved[0].name}" in text_of(con)


def test_end_of_input_saves_an_unfinished_record(tmp_path):
    con = console()
    path = tmp_path / "g.json"
    prompts: list[str] = []
    lines = ["what", "take W U G", "buy 3.3"]
    code = run_play(
        seats="human,random", seed=4, record_path=path, console=con, input_fn=feeder(lines, prompts)
    )
    assert code == 0
    rec = GameRecord.load(path)
    assert rec.result is None and rec.players == ["you", "random"]
    assert rec.actions[0] == "take W U G" and len(rec.actions) == 2
    rec.replay()
    out = text_of(con)
    assert "'what' is not an action" in out and "'buy 3.3' is not legal now" in out
    assert len(prompts) == 4  # re-asked after each bad entry, then EOF
    assert f"input ended after 2 decisions; unfinished record saved to {path}" in out


def test_ctrl_c_saves_an_unfinished_record_and_exits_130(tmp_path):
    con = console()
    path = tmp_path / "g.json"
    code = run_play(
        seats="random,human",
        seed=4,
        record_path=path,
        console=con,
        input_fn=feeder([KeyboardInterrupt()]),
    )
    assert code == 130
    rec = GameRecord.load(path)
    assert rec.result is None and len(rec.actions) == 1  # the bot's first move
    assert "interrupted (Ctrl-C)" in text_of(con)


class _BlindReserver:
    """Reserves the top of the level-1 deck when it can, else plays at random."""

    name = "blind"

    def __init__(self, seed: int | None = None) -> None:
        self._random = RandomBot(seed)

    def choose(self, observation, legal):
        blind = classic.Action.parse("reserve d1")
        return blind if blind in legal else self._random.choose(observation, legal)


def test_a_bots_blind_reserve_is_hidden_from_the_person(tmp_path, monkeypatch):
    monkeypatch.setattr(table, "make_bot", lambda name, seed=None: _BlindReserver(seed))
    con = console()
    path = tmp_path / "g.json"
    assert (
        run_play(seats="greedy,human", seed=6, record_path=path, console=con, input_fn=feeder([]))
        == 0
    )
    rec = GameRecord.load(path)
    assert rec.actions == ["reserve d1"]
    st = classic.new_game(2, 6)
    st.apply("reserve d1")
    card = st.player(0).reserved[0]
    out = text_of(con)
    said = "greedy reserves the top card of the level-1 deck and takes 1 gold"
    assert said in out and "r1 L1 (hidden)" in out
    assert str(card) not in out and render.card_text(card).plain not in out


def test_each_noble_visit_is_logged_once_with_the_right_noble(tmp_path):
    con = console()
    path = tmp_path / "g.json"
    assert (
        run_play(players=3, seats="random,random,random", seed=2, record_path=path, console=con)
        == 0
    )
    rec = GameRecord.load(path)
    final = rec.replay()
    out = text_of(con)
    visits = [(p, n) for p in range(3) for n in final.player(p).nobles]
    assert len(visits) >= 2
    assert out.count("a noble visits") == len(visits)
    for p, noble in visits:
        assert f"a noble visits {rec.players[p]}: {render.noble_text(noble).plain}" in out


def _buyer():
    """A person's entries that end a game: buy whatever can be bought, else the first
    listed decision (a refused entry is asked again)."""
    tries = [f"buy {lvl}.{slot}" for lvl in (3, 2, 1) for slot in (1, 2, 3, 4)]
    tries += ["buy r1", "buy r2", "buy r3", "1"]
    return iter(tries * 10_000)


def test_a_person_can_play_a_whole_game(tmp_path):
    """Buy whatever can be bought, else the first listed decision: the game ends, the
    final board, scores and winner are shown and the finished record is saved."""
    entries = _buyer()
    con = console()
    path = tmp_path / "g.json"
    code = run_play(
        seats="human,random",
        seed=5,
        record_path=path,
        console=con,
        input_fn=lambda _: next(entries),
    )
    assert code == 0
    rec = GameRecord.load(path)
    final = rec.replay()
    assert final.is_terminal and rec.result == {
        "scores": final.scores,
        "winners": final.winners,
        "end_reason": final.end_reason,
        "turns": final.turn,
    }
    out = text_of(con)
    assert "game over after" in out and "final scores" in out
    assert render.result_lines(final.observation(0), rec.players)[1] in out


class _Broken:
    name = "broken"

    def __init__(self, seed=None):
        self.calls = 0

    def choose(self, observation, legal):
        self.calls += 1
        if self.calls > 2:
            raise RuntimeError("bot exploded")
        return legal[0]


def test_a_failing_bot_forfeits_and_the_record_is_saved(tmp_path, monkeypatch):
    monkeypatch.setattr(table, "make_bot", lambda name, seed=None: _Broken(seed))
    con = console()
    path = tmp_path / "g.json"
    assert run_play(seats="random,random", seed=1, record_path=path, console=con) == 1
    rec = GameRecord.load(path)
    assert len(rec.actions) == 4 and not rec.replay().is_terminal  # the result validates
    assert rec.result["end_reason"] == "forfeit" and rec.result["winners"] == [1]
    assert rec.result["forfeit"] == {"seat": 0, "reason": "RuntimeError: bot exploded"}
    out = text_of(con)
    assert "random-0 (seat 0) forfeits: RuntimeError: bot exploded" in out
    assert "winner: random-1 (forfeit by random-0, 4 turns)" in out


def test_watching_bots_with_a_delay_shows_the_board_each_round(tmp_path, monkeypatch):
    monkeypatch.setattr(loop.time, "sleep", lambda s: None)
    con = console()
    path = tmp_path / "g.json"
    assert run_play(seats="random,random", seed=2, record_path=path, delay=0.1, console=con) == 0
    final = GameRecord.load(path).replay()
    out = text_of(con)
    rounds = (final.turn - 1) // 2  # rounds begun after the first, before the end
    assert out.count("supply ") >= rounds  # one board per round, plus the final one
    assert "your move" not in out and "(you)" not in out


def test_resume_plays_an_unfinished_game_on_to_its_end(tmp_path):
    """Issue 16: a game stopped by end of input is played on with ``--resume``: same
    seats, names, seed and decisions, saved back to the same file, finished."""
    path = tmp_path / "g.json"
    stopped = run_play(
        seats="human,random",
        seed=4,
        record_path=path,
        human_name="Ann",
        console=console(),
        input_fn=feeder(["take W U G", "1"]),
    )
    assert stopped == 0
    before = GameRecord.load(path)
    assert before.result is None and len(before.actions) == 4
    entries = _buyer()
    con = console()
    # the options of a new game are ignored: the record says what the game is
    code = run_play(
        seats="random,random,random",
        players=3,
        seed=99,
        resume=path,
        console=con,
        input_fn=lambda _: next(entries),
    )
    assert code == 0
    after = GameRecord.load(path)
    assert after.actions[:4] == before.actions and len(after.actions) > 4
    assert after.players == ["Ann", "random"] and after.seed == 4
    assert after.metadata["seats"] == ["human", "random"]
    assert after.metadata["resumed_after"] == [4]
    final = after.replay()
    assert final.is_terminal and after.result is not None
    out = text_of(con)
    assert f"resuming {path} after 4 decisions" in out and "game over after" in out


def test_resume_refuses_what_cannot_be_played_on(tmp_path):
    finished = tmp_path / "done.json"
    assert run_play(seats="random,random", seed=1, record_path=finished, console=console()) == 0
    con = console()
    assert run_play(resume=finished, console=con) == 2
    assert "is over: there is nothing to resume" in text_of(con)

    foreign = tmp_path / "arena.json"  # a record of another program: no seats
    rec = GameRecord(game="splendor", num_players=2, players=["a", "b"], seed=3)
    rec.save(foreign)
    con = console()
    assert run_play(resume=foreign, console=con) == 2
    assert 'does not say who plays each seat (its metadata has no "seats"' in text_of(con)

    broken = tmp_path / "broken.json"
    broken.write_text('{"game": "splendor", "actions": [1, 2', encoding="utf-8")
    con = console()
    assert run_play(resume=broken, console=con) == 1
    assert "invalid record:" in text_of(con)
    con = console()
    assert run_play(resume=tmp_path / "missing.json", console=con) == 1
    assert "invalid record:" in text_of(con)
    assert not (tmp_path / "records").exists()
