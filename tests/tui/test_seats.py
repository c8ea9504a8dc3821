"""--seats: every bot spec (levels, mcts budgets, external programs), and external bots in
terminal games: forfeits, records, closing the programs."""

from __future__ import annotations

import json
import shlex
import textwrap
from pathlib import Path

import pytest

from splendor.bots.external import ExternalBot
from splendor.record import GameRecord
from splendor.tui import table
from splendor.tui.app import SEAT_FORMS, PlayOptionError, parse_seats, run_play, seat_names

from .helpers import console, feeder, text_of

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "external_bot.py"


@pytest.mark.parametrize(
    "seats, expected",
    [
        ("human,hard", ["human", "hard"]),
        ("human, Easy ,MEDIUM", ["human", "easy", "medium"]),
        ("human,mcts:1s", ["human", "mcts:1s"]),
        ("mcts,mcts:250MS:Random", ["mcts", "mcts:250ms:random"]),
        ("human,mcts:5000", ["human", "mcts:5000"]),
        ("human,external:./x.py", ["human", "external:./x.py"]),
        (
            "external:python3 My_Bot.py --depth 2,human",
            ["external:python3 My_Bot.py --depth 2", "human"],
        ),
        (["human", "external:./bot.py --opts a,b"], ["human", "external:./bot.py --opts a,b"]),
    ],
)
def test_every_bot_spec_is_a_seat(seats, expected):
    assert parse_seats(len(expected) if len(expected) > 1 else 2, seats) == expected


def test_specs_are_checked_but_bots_are_not_built(monkeypatch):
    def boom(*a, **k):
        raise AssertionError("parse_seats must not build bots")

    monkeypatch.setattr(table, "make_bot", boom)
    assert parse_seats(2, "external:./no/such/bot.py,hard") == ["external:./no/such/bot.py", "hard"]


@pytest.mark.parametrize(
    "seats, message",
    [
        ("human,bogus", "--seats: seat 1 is 'bogus'; each seat is one of " + SEAT_FORMS),
        (
            "mcts:xyz",
            "--seats: seat 0 is 'mcts:xyz': bad search budget 'xyz' in 'mcts:xyz': use "
            "seconds ('1s', '0.5s'), milliseconds ('250ms') or a positive number of "
            "iterations ('5000')",
        ),
        (
            "human,mcts:1s:fast",
            "--seats: seat 1 is 'mcts:1s:fast': unknown playout 'fast' in "
            "'mcts:1s:fast'; known: greedy, heuristic, random",
        ),
        ("hard:2s", "--seats: seat 0 is 'hard:2s': level 'hard' takes no options"),
        ("random:3", "--seats: seat 0 is 'random:3': bot 'random' takes no options"),
        ("human,external:", "--seats: seat 1 is 'external:': external bot needs a command"),
        ("human:ann", "--seats: seat 0 is 'human:ann'; 'human' takes no options"),
        ("human,", "--seats: seat 1 is an empty entry; each seat is one of " + SEAT_FORMS),
    ],
)
def test_bad_seats_name_what_is_allowed(seats, message, tmp_path):
    with pytest.raises(PlayOptionError) as info:
        parse_seats(2, seats)
    assert str(info.value).startswith(message)
    con = console(width=300)
    assert run_play(seats=seats, record_path=tmp_path / "g.json", console=con) == 2
    assert message in text_of(con)


def test_seat_forms_list_every_kind():
    assert SEAT_FORMS == (
        "human, random, greedy, mcts[:BUDGET[:PLAYOUT]], net[:BUDGET], easy, medium, hard, expert, "
        "external:CMD"
    )


def test_seat_names_use_the_spec_labels():
    kinds = parse_seats(4, "human,hard,mcts:1S,external:./bot.py")
    assert seat_names(kinds, "ann") == ["ann", "hard", "mcts:1s", "external:./bot.py"]
    assert seat_names(parse_seats(2, "hard,HARD")) == ["hard-0", "hard-1"]


# ------------------------------------------------------------------ external bots in play


def _bot(tmp_path: Path, body: str) -> str:
    path = tmp_path / "bot.py"
    path.write_text(
        "import json, sys\n"
        "log = open(sys.argv[1], 'a')\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    log.write(line); log.flush()\n" + textwrap.indent(textwrap.dedent(body), "    "),
        encoding="utf-8",
    )
    return f"{shlex.quote(str(path))} {shlex.quote(str(tmp_path / 'seen.jsonl'))}"


def _seen(tmp_path: Path) -> list[dict]:
    return [json.loads(x) for x in (tmp_path / "seen.jsonl").read_text().splitlines()]


def test_an_external_bot_plays_a_terminal_game(tmp_path, monkeypatch):
    monkeypatch.chdir(EXAMPLE.parents[1])
    con = console()
    path = tmp_path / "g.json"
    seats = "external:./examples/external_bot.py,random"
    assert run_play(seats=seats, seed=5, record_path=path, quiet=True, console=con) == 0
    rec = GameRecord.load(path)
    assert rec.players == ["external:./examples/external_bot.py", "random"]
    assert rec.metadata["seats"] == ["external:./examples/external_bot.py", "random"]
    final = rec.replay()
    assert final.is_terminal and rec.result["end_reason"] != "forfeit"
    assert "winner:" in text_of(con)


def test_a_failing_external_bot_forfeits_and_hears_the_result(tmp_path):
    cmd = _bot(
        tmp_path,
        """
        if m["type"] == "decision":
            sys.stdout.write(json.dumps({"request": m["request"], "action": "buy 1.1"}) + "\\n")
            sys.stdout.flush()
        """,
    )
    con = console(width=400)
    path = tmp_path / "g.json"
    code = run_play(seats=f"random,external:{cmd}", seed=5, record_path=path, console=con)
    assert code == 1
    rec = GameRecord.load(path)
    assert not rec.replay().is_terminal  # the forfeit result validates
    forfeit = rec.result["forfeit"]
    assert forfeit["seat"] == 1 and rec.result["winners"] == [0]
    assert "answered 'buy 1.1', which is not one of the" in forfeit["reason"]
    out = text_of(con)
    assert f"external:{cmd} (seat 1) forfeits: {forfeit['reason']}" in out
    turns = rec.result["turns"]
    turns_text = f"{turns} turn" if turns == 1 else f"{turns} turns"  # "1 turn", not "1 turns"
    assert f"winner: random (forfeit by external:{cmd}, {turns_text})" in out
    assert f"record saved to {path}" in out
    # run_play closed the program, telling it the result: it read the end message
    assert [m["type"] for m in _seen(tmp_path)] == ["start", "decision", "end"]
    assert _seen(tmp_path)[-1]["result"] == rec.result


def test_external_bot_is_closed_when_the_person_stops(tmp_path, monkeypatch):
    cmd = _bot(
        tmp_path,
        """
        if m["type"] == "decision":
            sys.stdout.write(json.dumps({"request": m["request"], "action": 0}) + "\\n")
            sys.stdout.flush()
        """,
    )
    closed = []
    real = ExternalBot.close

    def spy(self, result=None):
        closed.append((self.pid is not None, result))
        real(self, result)

    monkeypatch.setattr(ExternalBot, "close", spy)
    con = console()
    path = tmp_path / "g.json"
    code = run_play(
        seats=f"human,external:{cmd}",
        seed=3,
        record_path=path,
        console=con,
        input_fn=feeder(["take W U G"]),  # the bot answers once, then the input ends
    )
    assert code == 0
    assert GameRecord.load(path).result is None and len(GameRecord.load(path).actions) == 2
    assert closed == [(True, None)]
    assert [m["type"] for m in _seen(tmp_path)] == ["start", "decision", "end"]
    assert _seen(tmp_path)[-1]["result"] is None


def test_an_external_bot_that_cannot_be_set_up(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    con = console(width=300)
    assert (
        run_play(seats="human,external:./missing.py", record_path=tmp_path / "g.json", console=con)
        == 1
    )
    assert "cannot set up the seats: external bot './missing.py': no script './missing.py'" in (
        text_of(con)
    )
    assert not (tmp_path / "g.json").exists()


def test_other_bots_with_close_are_closed(tmp_path, monkeypatch):
    from splendor.bots import RandomBot

    closed = []

    class Closing(RandomBot):
        def close(self):
            closed.append(self)

    monkeypatch.setattr(table, "make_bot", lambda spec, seed=None: Closing(seed))
    assert (
        run_play(
            seats="random,random",
            seed=1,
            record_path=tmp_path / "g.json",
            quiet=True,
            console=console(),
        )
        == 0
    )
    assert len(closed) == 2
