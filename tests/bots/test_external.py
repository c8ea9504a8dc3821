"""ExternalBot: the JSON-lines bot protocol, the example bot, and every way a program can fail."""

from __future__ import annotations

import json
import os
import shlex
import stat
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from splendor import classic, duel
from splendor.bots import RandomBot, make_bot
from splendor.bots.base import BotError
from splendor.bots.external import (
    PROTOCOL_VERSION,
    STDERR_LINES,
    ExternalBot,
    command_argv,
    game_tables,
    program_seed,
)
from splendor.match import play_game
from splendor.record import GameRecord

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "external_bot.py"

PRELUDE = textwrap.dedent(
    """\
    import json, sys, time

    pending = [None]  # the "request" number of the last decision received

    def messages():
        for line in sys.stdin:
            m = json.loads(line)
            if m["type"] == "decision":
                pending[0] = m["request"]
            yield m

    def decisions():
        for m in messages():
            if m["type"] == "decision":
                yield m

    def answer(obj):
        # one answer line; it echoes the pending decision's request unless it names one
        if isinstance(obj, dict) and "request" not in obj:
            obj = {"request": pending[0], **obj}
        sys.stdout.write(json.dumps(obj) + "\\n")
        sys.stdout.flush()
    """
)


def script(tmp_path: Path, body: str, name: str = "bot.py") -> str:
    """Write a bot program (the prelude, then ``body``) and return its command."""
    path = tmp_path / name
    path.write_text(PRELUDE + textwrap.dedent(body), encoding="utf-8")
    return shlex.quote(str(path))


def _forfeit(bot: ExternalBot, seat: int, game: str = "splendor", seed: int = 5, opponent=None):
    agents = [opponent or RandomBot(1)]
    agents.insert(seat, bot)
    try:
        state, rec = play_game(agents, game=game, seed=seed, forfeit_on_error=True)
    finally:
        bot.close()
    return state, rec


def _check_forfeit_record(rec: GameRecord, seat: int, tmp_path: Path) -> str:
    """The record is a valid forfeit of ``seat``; return its reason."""
    assert rec.result["end_reason"] == "forfeit"
    assert rec.result["forfeit"]["seat"] == seat
    assert rec.result["winners"] == [1 - seat]
    loaded = GameRecord.load(rec.save(tmp_path / "forfeit.json"))
    assert loaded.result == rec.result
    final = loaded.replay()  # validates the forfeit against the replayed game
    assert not final.is_terminal and final.current_player == seat
    assert rec.result["scores"] == final.scores
    return rec.result["forfeit"]["reason"]


# ------------------------------------------------------------------ the example bot


@pytest.mark.parametrize("game", ["splendor", "duel"])
def test_example_bot_plays_a_whole_game(game):
    with ExternalBot(str(EXAMPLE), seed=4) as bot:
        final, rec = play_game([bot, RandomBot(9)], game=game, seed=7)
        assert bot.pid is not None  # one program for the whole game
    assert bot.pid is None  # closed
    assert final.is_terminal and rec.result["end_reason"] != "forfeit"
    assert "forfeit" not in rec.result
    again = GameRecord.from_dict(json.loads(rec.to_json()))
    assert again.replay() == final
    # it prefers buying: it bought something, and never let a legal buy pass
    state = again.new_state()
    bought = 0
    for text in rec.actions:
        seat = state.current_player
        legal = [str(a) for a in state.legal_actions()]
        if seat == 0 and any(a.startswith("buy") for a in legal):
            assert text.startswith("buy"), (text, legal)
            bought += 1
        state.apply(type(state.legal_actions()[0]).parse(text))
    assert bought > 0


def test_example_bot_is_executable_stdlib_only_and_seeded():
    assert EXAMPLE.read_text().startswith("#!/usr/bin/env python3\n")
    assert os.stat(EXAMPLE).st_mode & stat.S_IXUSR
    imports = {
        line.split()[1]
        for line in EXAMPLE.read_text().splitlines()
        if line.startswith(("import ", "from "))
    }
    assert imports <= {"json", "random", "sys"}

    def game(bot_seed: int) -> list[str]:
        with ExternalBot(str(EXAMPLE), seed=bot_seed) as bot:
            return play_game([RandomBot(1), bot], seed=2)[1].actions

    assert game(3) == game(3)  # the start message's seed makes it repeatable
    assert game(3) != game(4)


def test_example_bot_runs_through_its_shebang(tmp_path):
    """A command that is not a .py file runs as a program (here: the shebang's python3)."""
    link = tmp_path / "mybot"
    link.symlink_to(EXAMPLE)
    argv = command_argv(str(link))
    assert argv == [str(link)]
    with ExternalBot(str(link)) as bot:
        st = classic.new_game(2, seed=1)
        assert bot.choose(st.observation(0), st.legal_actions()) in st.legal_actions()


# ------------------------------------------------------------------ protocol messages


def test_messages_the_host_sends(tmp_path):
    log = tmp_path / "messages.jsonl"
    cmd = (
        script(
            tmp_path,
            """
        out = open(sys.argv[1], "w")
        for m in messages():
            out.write(json.dumps(m) + "\\n"); out.flush()
            if m["type"] == "decision":
                answer({"action": m["legal_actions"][-1]["notation"]})
        out.write("stdin closed\\n")
        """,
        )
        + " "
        + shlex.quote(str(log))
    )
    st = duel.new_game(seed=3)
    bot = ExternalBot(cmd, seed=42, timeout=7.5)
    assert bot.name == f"external:{cmd}"
    legal = st.legal_actions()
    assert bot.choose(st.observation(0), legal) == legal[-1]  # by notation
    st.apply(legal[-1])
    obs = st.observation(st.current_player)
    second = st.legal_actions()
    assert bot.choose(obs, second) == second[-1]
    result = {"scores": [1, 2], "winners": [1], "end_reason": "points", "turns": 9}
    bot.close(result)
    lines = log.read_text().splitlines()
    assert lines[-1] == "stdin closed"  # it saw the end and stdin close, and exited itself
    start, d1, d2, end = (json.loads(x) for x in lines[:-1])
    assert start == {
        "type": "start",
        "protocol": PROTOCOL_VERSION,
        "game": "duel",
        "seat": 0,
        "num_players": 2,
        "seed": program_seed(42),
        "timeout": 7.5,
        "name": bot.name,
        "tables": game_tables("duel"),
    }
    assert d1["type"] == "decision" and d1["protocol"] == 2 and d1["game"] == "duel"
    assert (d1["request"], d2["request"]) == (1, 2)  # numbered, echoed by the answers
    assert d1["seat"] == 0 and d1["num_players"] == 2 and d1["timeout"] == 7.5
    assert d1["observation"] == duel.new_game(seed=3).observation(0).to_dict()
    assert d1["legal_actions"] == [{"id": a.id, "notation": str(a)} for a in legal]
    assert d2["observation"] == obs.to_dict()
    assert end == {
        "type": "end",
        "protocol": 2,
        "game": "duel",
        "seat": 0,
        "num_players": 2,
        "result": result,
    }


def test_tables_describe_the_cards_of_each_game():
    classic_tables = game_tables("splendor")
    assert set(classic_tables) == {"cards", "nobles"} and len(classic_tables["cards"]) == 90
    card = classic.CARDS[37]
    assert classic_tables["cards"][37] == {
        "id": 37,
        "level": card.level,
        "bonus": card.bonus,
        "points": card.points,
        "cost": list(card.cost),
    }
    assert classic_tables["nobles"][4]["requirement"] == list(classic.NOBLES[4].requirement)
    duel_tables = game_tables("duel")
    assert set(duel_tables) == {"cards", "royals"} and len(duel_tables["cards"]) == 67
    assert duel_tables["cards"][50]["ability"] == duel.CARDS[50].ability
    assert len(duel_tables["cards"][0]["cost"]) == 6 and len(duel_tables["royals"]) == 4
    json.dumps(classic_tables), json.dumps(duel_tables)


def test_program_seed_is_derived_and_stable():
    assert program_seed(None) is None
    assert program_seed(31) == program_seed(31) != program_seed(32)
    assert program_seed(31) != 31 and 0 <= program_seed(31) < 1 << 63


def test_answer_by_id_and_a_fresh_program_after_close(tmp_path):
    cmd = script(
        tmp_path,
        """
        starts = 0
        for m in messages():
            starts += m["type"] == "start"
            if m["type"] == "decision":
                assert starts == 1
                answer({"action": m["legal_actions"][1]["id"]})
        """,
    )
    st = classic.new_game(3, seed=2)
    legal = st.legal_actions()
    bot = ExternalBot(cmd)
    assert bot.choose(st.observation(0), legal) == legal[1]
    first = bot.pid
    bot.close()
    assert bot.pid is None
    assert bot.choose(st.observation(0), legal) == legal[1]  # started again, a new start
    assert bot.pid not in (None, first)
    bot.close()
    bot.close()  # twice is fine


def test_close_kills_a_program_that_does_not_exit(tmp_path):
    cmd = script(
        tmp_path,
        """
        import signal
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        for m in decisions():
            answer({"action": 0})
        time.sleep(60)
        """,
    )
    st = classic.new_game(2, seed=1)
    bot = ExternalBot(cmd, grace=0.3)
    bot.choose(st.observation(0), st.legal_actions())
    pid = bot.pid
    t = time.monotonic()
    bot.close()
    assert time.monotonic() - t < 3
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


# ------------------------------------------------------------------ commands


def test_commands_that_cannot_run_are_refused_naming_them(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match=r"external bot './nope.py': no script './nope.py'"):
        ExternalBot("./nope.py")
    with pytest.raises(ValueError, match="no script"):
        make_bot("external:./nope.py")
    (tmp_path / "plain").write_text("#!/bin/sh\n")
    with pytest.raises(ValueError, match=r"'./plain' is not executable .*chmod \+x"):
        ExternalBot("./plain")
    with pytest.raises(ValueError, match="'no-such-program-xyz' is not on the PATH"):
        ExternalBot("no-such-program-xyz --level 3")
    with pytest.raises(ValueError, match="cannot read the external bot command"):
        ExternalBot("'unbalanced")
    with pytest.raises(ValueError, match="needs a command"):
        ExternalBot("   ")
    with pytest.raises(ValueError, match="timeout"):
        ExternalBot(sys.executable, timeout=0)


def test_relative_py_scripts_run_with_this_python(tmp_path, monkeypatch):
    (tmp_path / "b.py").write_text("print('hi')\n")  # not executable: python runs it
    monkeypatch.chdir(tmp_path)
    argv = command_argv("b.py --depth '2 3'")
    assert argv == [sys.executable, str(Path.cwd() / "b.py"), "--depth", "2 3"]
    assert make_bot("external:b.py", seed=1).name == "external:b.py"


def test_a_program_that_cannot_start_is_a_bot_error(tmp_path):
    prog = tmp_path / "bad"
    prog.write_text("#!/no/such/interpreter\n")
    prog.chmod(0o755)
    bot = ExternalBot(str(prog))
    st = classic.new_game(2, seed=1)
    with pytest.raises(BotError, match=f"cannot start external bot '{prog}'"):
        bot.choose(st.observation(0), st.legal_actions())


# ------------------------------------------------------------------ failures -> forfeits


def test_crash_at_start(tmp_path):
    cmd = script(tmp_path, 'sys.stderr.write("no model file\\n"); sys.exit(3)\n')
    bot = ExternalBot(cmd)
    _, rec = _forfeit(bot, seat=0)
    reason = _check_forfeit_record(rec, 0, tmp_path)
    assert reason == (
        f"external bot {cmd!r} exited with code 3 before answering; "
        "its stderr ended with: no model file"
    )
    assert rec.actions == []


@pytest.mark.parametrize("game", ["splendor", "duel"])
def test_crash_in_mid_game_reports_exit_code_and_stderr(tmp_path, game):
    cmd = script(
        tmp_path,
        """
        for n, m in enumerate(decisions()):
            if n == 3:
                raise RuntimeError("out of ideas")
            answer({"action": m["legal_actions"][0]["id"]})
        """,
    )
    _, rec = _forfeit(ExternalBot(cmd), seat=1, game=game)
    reason = _check_forfeit_record(rec, 1, tmp_path)
    assert f"external bot {cmd!r} exited with code 1 after 3 decisions" in reason
    assert "RuntimeError: out of ideas" in reason


def test_stderr_keeps_the_last_lines(tmp_path):
    cmd = script(
        tmp_path,
        """
        for i in range(100):
            print("line", i, file=sys.stderr)
        sys.stderr.flush()
        sys.exit(2)
        """,
    )
    bot = ExternalBot(cmd)
    st = classic.new_game(2, seed=1)
    with pytest.raises(BotError, match="line 99$") as info:
        bot.choose(st.observation(0), st.legal_actions())
    assert info.value.reason.endswith(
        "its stderr ended with: line 95 | line 96 | line 97 | line 98 | line 99"
    )
    assert bot.stderr_tail() == [f"line {i}" for i in range(100 - STDERR_LINES, 100)]


@pytest.mark.parametrize(
    "reply, expected",
    [
        ('sys.stdout.write("hello\\n")', "answered a line that is not JSON: 'hello'"),
        (
            'answer({"move": 0})',
            'answered \'{"request": 1, "move": 0}\', which is not a JSON object with an "action"',
        ),
        (
            "answer([0])",
            'answered \'[0]\', which is not a JSON object {"request": N, "action": ...}',
        ),
        (
            'answer({"request": None, "action": 0})',
            "answered \"request\": 'null'; it must be the decision's number, 1",
        ),
        (
            'answer({"request": 2, "action": 0})',
            "answered \"request\": '2', a decision not yet sent (the pending one is 1)",
        ),
        (
            'sys.stdout.write(json.dumps({"action": 0}) + "\\n")',
            'answered \'{"action": 0}\' without the decision\'s "request" number '
            '(it must echo "request": 1)',
        ),
        (
            'answer({"action": 9999})',
            "answered action id 9999, which is not one of the {n} legal actions",
        ),
        (
            'answer({"action": "buy 1.1"})',
            "answered 'buy 1.1', which is not one of the {n} legal actions",
        ),
        ('answer({"action": "fly away"})', "answered 'fly away', which is not an action notation"),
        ('answer({"action": True})', "answered \"action\": 'true'; it must be an action id"),
        ('answer({"action": 1.0})', "answered \"action\": '1.0'; it must be an action id"),
    ],
    ids=[
        "garbage",
        "no-action",
        "not-object",
        "null-request",
        "future-request",
        "no-request",
        "illegal-id",
        "illegal-notation",
        "bad-notation",
        "bool",
        "float",
    ],
)
def test_bad_answers_forfeit(tmp_path, reply, expected):
    cmd = script(tmp_path, "for m in decisions():\n    " + reply + "\n")
    n = len(classic.new_game(2, seed=5).legal_actions())  # seat 0's first decision
    bot = ExternalBot(cmd)
    state, rec = _forfeit(bot, seat=0)
    reason = _check_forfeit_record(rec, 0, tmp_path)
    assert reason.startswith(f"external bot {cmd!r} " + expected.replace("{n}", str(n)))
    assert rec.actions == [] and state.turn == 0


def test_bad_answer_in_mid_game_keeps_the_game_so_far(tmp_path):
    cmd = script(
        tmp_path,
        """
        for n, m in enumerate(decisions()):
            answer({"action": m["legal_actions"][0]["id"] if n < 5 else 9999})
        """,
    )
    state, rec = _forfeit(ExternalBot(cmd), seat=1, game="duel")
    _check_forfeit_record(rec, 1, tmp_path)
    assert len(rec.actions) >= 10 and state == rec.replay()


def test_timeout_kills_the_program_and_forfeits(tmp_path):
    cmd = script(
        tmp_path,
        """
        for n, m in enumerate(decisions()):
            if n == 1:
                print("thinking hard", file=sys.stderr, flush=True)
                time.sleep(60)
            answer({"action": m["legal_actions"][0]["id"]})
        """,
    )
    bot = ExternalBot(cmd, timeout=0.5)
    pids = []

    class Spy(RandomBot):
        def choose(self, observation, legal):
            pids.append(bot.pid)
            return super().choose(observation, legal)

    t = time.monotonic()
    state, rec = play_game([Spy(1), bot], seed=5, forfeit_on_error=True)
    elapsed = time.monotonic() - t
    assert 0.5 <= elapsed < 5
    reason = _check_forfeit_record(rec, 1, tmp_path)
    assert reason == (
        f"external bot {cmd!r} timed out after 0.5 s without an answer; it was stopped; "
        "its stderr ended with: thinking hard"
    )
    assert bot.pid is None  # killed at once, before anybody closes it
    with pytest.raises(ProcessLookupError):
        os.kill(pids[-1], 0)
    bot.close()


def test_a_program_that_does_not_read_stdin_still_times_out(tmp_path):
    """The host never blocks on a full pipe: writes go through a thread."""
    cmd = script(tmp_path, "time.sleep(60)\n")
    bot = ExternalBot(cmd, timeout=0.3, startup=0)
    st = classic.new_game(2, seed=1)
    obs, legal = st.observation(0), st.legal_actions()
    errors: list[BaseException] = []

    def decide():
        try:
            for _ in range(100):  # far more than a pipe buffer if it were written inline
                bot._send({"type": "padding", "data": "x" * 10_000})
            bot.choose(obs, legal)
        except BaseException as e:  # noqa: BLE001 - handed to the test thread
            errors.append(e)

    worker = threading.Thread(target=decide, daemon=True)
    worker.start()
    worker.join(timeout=5)
    assert not worker.is_alive(), "the host blocked writing to the program"
    assert len(errors) == 1 and isinstance(errors[0], BotError)
    assert "timed out after 0.3 s without an answer" in errors[0].reason


def test_lines_sent_when_no_decision_was_pending(tmp_path):
    cmd = script(
        tmp_path,
        """
        for m in decisions():
            answer({"action": m["legal_actions"][0]["id"]})
            print("thinking about the next move")  # a log line on stdout, not stderr
            sys.stdout.flush()
        """,
    )

    class Slow(RandomBot):
        def choose(self, observation, legal):
            time.sleep(0.2)  # the extra line has arrived by the next decision
            return super().choose(observation, legal)

    _, rec = _forfeit(ExternalBot(cmd), seat=0, opponent=Slow(1))
    reason = _check_forfeit_record(rec, 0, tmp_path)
    assert "when no decision was pending (stdout is for answers only" in reason
    assert len(rec.actions) == 2


def test_without_forfeit_a_bot_error_is_raised(tmp_path):
    cmd = script(tmp_path, "sys.exit(4)\n")
    with ExternalBot(cmd) as bot:
        with pytest.raises(BotError, match="exited with code 4 before answering") as info:
            play_game([bot, RandomBot(1)], seed=1)
    assert isinstance(info.value, RuntimeError) and info.value.reason == str(info.value)
