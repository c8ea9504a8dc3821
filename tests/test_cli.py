"""The real ``splendor`` command, run as a subprocess: play, replay, bad options, records."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from splendor.record import GameRecord

# the terminal's language comes from the locale (LC_ALL first): these tests read English
ENV = {
    **os.environ,
    "COLUMNS": "100",
    "NO_COLOR": "1",
    "PYTHONIOENCODING": "utf-8",
    "LC_ALL": "C.UTF-8",
}


def splendor(
    *args: str, stdin: str | None = None, timeout: float = 60
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "splendor.cli", *args],
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        timeout=timeout,
        env=ENV,
    )


def _scores_line(text: str) -> dict[str, int]:
    line = next(ln for ln in text.splitlines() if ln.startswith("scores: "))
    return {name: int(pts) for name, pts in re.findall(r"([\w-]+) (\d+)", line[len("scores: ") :])}


@pytest.fixture(scope="module")
def bot_game(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    path = tmp_path_factory.mktemp("cli") / "g.json"
    done = splendor(
        "play", "--seats", "greedy,random", "--seed", "3", "--record", str(path), "--quiet"
    )
    return path, done


def test_bots_only_game_then_replay_agree_on_the_scores(bot_game):
    path, done = bot_game
    assert done.returncode == 0, done.stderr
    rec = GameRecord.load(path)
    assert rec.result is not None and rec.players == ["greedy", "random"]
    expected = dict(zip(rec.players, rec.result["scores"], strict=True))
    assert _scores_line(done.stdout) == expected
    assert f"record saved to {path}" in done.stdout
    replayed = splendor("replay", str(path))
    assert replayed.returncode == 0, replayed.stderr
    assert _scores_line(replayed.stdout) == expected
    winners = " and ".join(rec.players[w] for w in rec.result["winners"])
    assert f"winner: {winners} (" in replayed.stdout
    assert f"   1  seat 0     greedy  {rec.actions[0]}" in replayed.stdout


def test_replay_names_the_first_bad_action_of_a_corrupt_record(bot_game, tmp_path):
    path, _ = bot_game
    data = json.loads(path.read_text())
    data["actions"][2] = "take X X X"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    done = splendor("replay", str(bad))
    assert done.returncode == 1
    assert "action 3" in done.stderr and "take X X X" in done.stderr
    assert "scores:" not in done.stdout


def test_player_count_outside_2_to_4_is_a_clear_error(tmp_path):
    done = splendor(
        "play", "--players", "5", "--seats", "greedy", "--record", str(tmp_path / "g.json")
    )
    assert done.returncode == 2
    assert "--players must be 2 to 4, got 5" in done.stderr
    assert "Traceback" not in done.stderr
    more = splendor("play", "--seats", "human,greedy,random", "--record", str(tmp_path / "g.json"))
    assert more.returncode == 2 and "use --players 3" in more.stderr
    assert not (tmp_path / "g.json").exists()


def test_human_seat_fed_bad_lines_then_end_of_input(tmp_path):
    path = tmp_path / "h.json"
    lines = "hello\nbuy 3.1\n42\n?\ntake G U W\n"
    done = splendor(
        "play",
        "--seats",
        "human,random",
        "--seed",
        "5",
        "--record",
        str(path),
        "--name",
        "ann",
        stdin=lines,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "'hello' is not an action" in out
    assert "'buy 3.1' is not legal now" in out
    assert "no decision number 42" in out
    assert "reserve the top card" in out  # help on '?'
    assert out.count("ann › ") == 6  # asked again after every entry, then end of input
    assert "╭─ round 1 · turn 1 · ▶ your move (seat 0)" in out
    assert "unfinished record saved to" in out
    rec = GameRecord.load(path)
    assert rec.result is None and rec.players == ["ann", "random"]
    assert rec.actions[0] == "take W U G" and len(rec.actions) == 2
    rec.replay()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_at_the_prompt_saves_the_record(tmp_path):
    path = tmp_path / "c.json"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "splendor.cli",
            "play",
            "--seats",
            "human,greedy",
            "--seed",
            "8",
            "--record",
            str(path),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        # An ignored SIGINT is inherited across exec, and Python then installs no
        # KeyboardInterrupt handler: libraries started earlier in this test process (a
        # local Ray, for one) may have set it, which made the game ignore Ctrl-C here.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    seen = bytearray()

    def pump() -> None:
        assert proc.stdout is not None
        while chunk := proc.stdout.read1(4096):
            seen.extend(chunk)

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    deadline = time.monotonic() + 180  # generous: a cold numba cache on a loaded machine
    while "you › ".encode() not in seen and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert "you › ".encode() in seen, seen.decode(errors="replace")
    proc.send_signal(signal.SIGINT)
    code = proc.wait(timeout=120)
    reader.join(timeout=5)
    assert code == 130, seen.decode(errors="replace")
    assert b"game interrupted (Ctrl-C) after 0 decisions" in seen
    rec = GameRecord.load(path)
    assert rec.result is None and rec.actions == []


# ----------------------------------------------------------------------------- Splendor Duel


@pytest.fixture(scope="module")
def duel_game(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    path = tmp_path_factory.mktemp("cli") / "duel.json"
    done = splendor(
        "play",
        "--game",
        "duel",
        "--seats",
        "random,random",
        "--seed",
        "3",
        "--quiet",
        "--record",
        str(path),
    )
    return path, done


def test_bots_only_duel_then_replay_agree_on_the_scores(duel_game):
    path, done = duel_game
    assert done.returncode == 0, done.stderr
    rec = GameRecord.load(path)
    assert rec.game == "duel" and rec.players == ["random-0", "random-1"]
    assert rec.options == {"turn_cap": 400} and rec.result is not None  # D25 for bot games
    expected = dict(zip(rec.players, rec.result["scores"], strict=True))
    assert _scores_line(done.stdout) == expected
    assert f"record saved to {path}" in done.stdout
    replayed = splendor("replay", str(path))
    assert replayed.returncode == 0, replayed.stderr
    assert _scores_line(replayed.stdout) == expected
    assert replayed.stdout.startswith("duel · seed 3 · turn cap 400 · 0:random-0 1:random-1")
    winners = " and ".join(rec.players[w] for w in rec.result["winners"])
    assert f"winner: {winners} ({rec.result['end_reason']}, " in replayed.stdout
    assert f"   1  seat 0   random-0  {rec.actions[0]}" in replayed.stdout


def _run(*args: str, stdin: str | None = None):
    """The command in this process (typer's runner): faster than a subprocess."""
    from typer.testing import CliRunner

    from splendor.cli import app

    return CliRunner().invoke(
        app, list(args), input=stdin, env={"COLUMNS": "100", "LC_ALL": "C.UTF-8"}
    )


def test_replay_of_a_capped_duel_says_no_winner(tmp_path):
    path = tmp_path / "cap.json"
    done = _run(
        "play",
        "--game",
        "duel",
        "--seats",
        "random,random",
        "--seed",
        "4",
        "--quiet",
        "--turn-cap",
        "12",
        "--record",
        str(path),
    )
    assert done.exit_code == 0, done.output
    assert "no winner (turn cap, 12 turns)" in done.stdout
    assert GameRecord.load(path).options == {"turn_cap": 12}
    replayed = _run("replay", "--quiet", str(path))
    assert replayed.exit_code == 0, replayed.output
    assert "no winner (turn cap, 12 turns)" in replayed.stdout


def test_a_person_plays_duel_from_piped_input(tmp_path):
    path = tmp_path / "h.json"
    done = _run(
        "play",
        "-g",
        "duel",
        "--seats",
        "human,random",
        "--seed",
        "3",
        "--name",
        "ann",
        "--record",
        str(path),
        stdin="take a1 c1\n?\ntake b1 c1\n",
    )
    assert done.exit_code == 0, done.output
    out = done.stdout
    assert "'take a1 c1' is not an action: a1 c1 is not a line: there is a gap at b1" in out
    assert "take c3 c4 c5" in out  # help on '?'
    assert out.count("ann › ") == 4  # re-asked after each entry, then end of input
    assert "╭─ Splendor Duel · turn 1 · ▶ your move (seat 0)" in out
    assert "     a   b   c   d   e" in out
    rec = GameRecord.load(path)
    assert rec.result is None and rec.actions[0] == "take b1 c1" and rec.options == {}
    rec.replay()
    # the same game played on from where it stopped (issue 16): the next entry is the
    # person's second decision
    more = _run("play", "--resume", str(path), stdin="?\n")
    assert more.exit_code == 0, more.output
    assert f"resuming {path} after 2 decisions" in " ".join(more.stdout.split())
    assert "Splendor Duel · turn 3 · ▶ your move (seat 0)" in more.stdout
    again = GameRecord.load(path)
    assert again.actions == rec.actions and again.players == ["ann", "random"]


@pytest.mark.parametrize(
    "args, message",
    [
        (("--game", "duel", "--players", "3"), "--players must be 2 for Splendor Duel"),
        (("--turn-cap", "50"), "--turn-cap is a Splendor Duel setting (D25)"),
        (("--game", "chess"), "unknown game 'chess'; known games: duel, splendor"),
    ],
)
def test_bad_game_options_are_usage_errors(args, message, tmp_path):
    path = tmp_path / "g.json"
    done = _run("play", *args, "--seats", "random,random", "--record", str(path))
    assert done.exit_code == 2
    assert message in done.output and "Traceback" not in done.output
    assert not path.exists()


def test_usage_errors_in_a_real_process_go_to_stderr(tmp_path):
    done = splendor("play", "--game", "duel", "--players", "3", "--record", str(tmp_path / "g"))
    assert done.returncode == 2
    assert "--players must be 2 for Splendor Duel (a 2-player game), got 3" in done.stderr
    assert "Traceback" not in done.stderr


def test_play_help_names_the_games_and_the_turn_cap():
    done = _run("play", "--help")
    assert done.exit_code == 0
    text = " ".join(done.stdout.split())
    assert "--game" in text and "duel" in text and "--turn-cap" in text
    assert "take c3 c4 c5" in text
    assert "--lang" in text and "en, fr, nl, de, es, it, pt or pl" in text


# ----------------------------------------------------------------------------- languages (issue 16)


def test_a_person_plays_in_dutch_from_piped_input(tmp_path):
    path = tmp_path / "nl.json"
    done = splendor(
        "play",
        "--lang",
        "nl",
        "--seats",
        "human,random",
        "--seed",
        "5",
        "--record",
        str(path),
        stdin="hello\nbuy 3.1\n?\ntake G U W\n",
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    # the refusal quotes the move in the reader's words (the language's verbs)
    assert "'hello' is geen actie" in out and "'koop 3.1' mag nu niet" in out
    assert "╭─ ronde 1 · beurt 1 · ▶ jij bent aan zet (plek 0)" in out
    assert "Zo noteer je een keuze (Splendor)" in out  # '?'
    assert "onafgemaakt spel bewaard in" in out and "unfinished record" not in out
    rec = GameRecord.load(path)
    # the record keeps the default name the same in every language; the screen says "jij"
    assert rec.players == ["you", "random"] and rec.actions[0] == "take W U G"


@pytest.mark.parametrize(
    "locale, words",
    [
        ({"LANG": "fr_FR.UTF-8"}, "gagnant : "),
        ({"LANG": "fr_FR.UTF-8", "LC_MESSAGES": "nl_BE.UTF-8"}, "winnaar: "),
        ({"LANG": "nl_NL.UTF-8", "LC_ALL": "fr_CA.UTF-8"}, "gagnant : "),
        ({"LANG": "de_DE.UTF-8"}, "Sieger: "),
        ({"LANG": "sv_SE.UTF-8"}, "winner: "),
    ],
)
def test_the_language_comes_from_the_locale(locale, words, tmp_path):
    env = {k: v for k, v in ENV.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "splendor.cli",
            "play",
            "--seats",
            "random,random",
            "--seed",
            "3",
            "--quiet",
            "--record",
            str(tmp_path / "g.json"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env={**env, **locale},
    )
    assert done.returncode == 0, done.stderr
    assert words in done.stdout


def test_an_unknown_lang_is_refused_in_a_real_process(tmp_path):
    done = splendor(
        "play", "--lang", "sv", "--seats", "random,random", "--record", str(tmp_path / "g")
    )
    assert done.returncode == 2
    assert "--lang must be one of en, fr, nl, de, es, it, pt, pl, got 'sv'" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "g").exists()


def test_bench_reports_both_games_and_rejects_an_unknown_one(tmp_path):
    out = tmp_path / "bench.json"
    ok = _run("bench", "--seconds", "0.02", "--players", "2", "--output", str(out))
    assert ok.exit_code == 0, ok.output
    data = json.loads(out.read_text())
    assert set(data) >= {"classic", "duel"} and set(data["classic"]) == {"2"}
    bad = _run("bench", "--games", "chess")
    assert bad.exit_code == 2
    assert "unknown game 'chess'" in bad.output


def test_replay_of_a_forfeit_names_the_reason_and_the_winner(tmp_path):
    from splendor.bots import RandomBot
    from splendor.match import play_game

    class Breaks(RandomBot):
        name = "breaks"

        def choose(self, observation, legal_actions):
            if observation.turn >= 4:
                raise RuntimeError("out of ideas")
            return super().choose(observation, legal_actions)

    _, rec = play_game(
        [RandomBot(1), Breaks(2)],
        game="splendor",
        seed=3,
        names=["ann", "bob"],
        forfeit_on_error=True,
    )
    path = rec.save(tmp_path / "forfeit.json")
    done = _run("replay", "--quiet", str(path))
    assert done.exit_code == 0, done.output
    assert "forfeit: " in done.stdout and "out of ideas" in done.stdout
    assert "winner: ann (forfeit by bob" in done.stdout


# ----------------------------------------------------------- replay of malformed records (issue 14)


def _valid_record_dict(seed: int = 3) -> dict:
    from splendor.bots import RandomBot
    from splendor.match import play_game

    return json.loads(play_game([RandomBot(1), RandomBot(2)], seed=seed)[1].to_json())


@pytest.mark.parametrize(
    "change, message",
    [
        (
            lambda d: d.update(metadata=5),
            "record field 'metadata' must be an object (or null), got a whole number",
        ),
        (
            lambda d: d.update(metadata=[1]),
            "record field 'metadata' must be an object (or null), got a list",
        ),
        (
            lambda d: d["actions"].__setitem__(2, "[/]take [bold]X"),
            "action 3 ('[/]take [bold]X') is malformed",
        ),
        (lambda d: d["actions"].__setitem__(1, "buy 3.1"), "action 2 ('buy 3.1') is illegal"),
        (
            lambda d: d["result"].update(turns=[1]),
            "record result 'turns' must be a whole number >= 0, got [1]",
        ),
    ],
    ids=["metadata-int", "metadata-list", "markup-in-action", "illegal-long-message", "turns-list"],
)
def test_replay_of_a_malformed_record_prints_one_line(tmp_path, change, message):
    data = _valid_record_dict()
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    done = _run("replay", str(path))
    assert done.exit_code == 1, done.output
    assert isinstance(done.exception, SystemExit)  # no Python error escaped
    lines = done.output.splitlines()  # the moves replayed before the bad one, then one line
    assert lines[-1].startswith("invalid record: ") and message in lines[-1], done.output
    assert all(line.startswith(("splendor ·", " ")) for line in lines[:-1]), done.output


@pytest.mark.parametrize(
    "text, message",
    [
        ("[" * 100_000, "its JSON is nested too deeply"),
        (
            '{"format": "splendor-record", "version": ' + "7" * 5001 + "}",
            "more digits than Python reads",
        ),
        ("[1, 2]", "a record must be a JSON object, got a list"),
    ],
    ids=["deep", "huge-number", "list"],
)
def test_replay_of_text_that_is_no_record_prints_one_line(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    done = splendor("replay", str(path))
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.stderr.startswith("invalid record: ") and message in done.stderr


def test_replay_prints_names_as_they_are(tmp_path):
    data = _valid_record_dict()
    data["players"] = ["[bold]ann[/]", "[/]bob :smile:"]
    path = tmp_path / "names.json"
    path.write_text(json.dumps(data))
    done = _run("replay", str(path))
    assert done.exit_code == 0, done.output
    assert "[/]bob :smile:" in done.stdout and "[bold]ann[/]" in done.stdout


# ----------------------------------------------------------- optional parts: the extras (issue 31)

CORE_MODULES = [
    "splendor.cli",
    "splendor.tui.app",
    "splendor.record",
    "splendor.match",
    "splendor.arena",
    "splendor.arena.report",
    "splendor.analysis",
    "splendor.analysis.report",
    "splendor.analysis.chart",
    "splendor.bench",
    "splendor.conformance",
    "splendor.bots",
]
"""What play, replay, arena, analyse, bench, position and conformance import."""


def _without(monkeypatch, *modules: str) -> None:
    """Make ``modules`` look uninstalled: ``import`` of each raises ModuleNotFoundError."""
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)


def test_the_core_commands_import_no_extra():
    """Every module of the commands that need no extra imports with all the extras'
    modules missing (a subprocess: this one has them loaded already)."""
    from splendor.cli.extras import EXTRAS

    heavy = sorted({m for modules in EXTRAS.values() for m in modules})
    code = (
        "import sys, importlib\n"
        f"for m in {heavy!r}: sys.modules[m] = None\n"
        f"for m in {CORE_MODULES!r}: importlib.import_module(m)\n"
        "from typer.testing import CliRunner\n"
        "from splendor.cli import app\n"
        "r = CliRunner().invoke(app, ['position', '--new', '--game', 'duel', '--seed', '1'])\n"
        "assert r.exit_code == 0 and r.stdout.startswith('duel '), r.output\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=ENV
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-3000:]


@pytest.mark.parametrize(
    "missing, args, message",
    [
        (
            ("fastapi",),
            ["serve"],
            "error: splendor serve needs the web extra: pip install 'splendor[web]'",
        ),
        (
            ("sqlalchemy",),
            ["serve", "--port", "8123"],
            "error: splendor serve needs the web extra: pip install 'splendor[web]'",
        ),
        (
            ("sqlalchemy",),
            ["admin", "grant", "Ann"],
            "error: splendor admin grant needs the web extra: pip install 'splendor[web]'",
        ),
        (
            ("torch",),
            ["train", "--out", "{tmp}/run"],
            "error: splendor train needs the train extra: pip install 'splendor[train]'",
        ),
        (
            ("torch",),
            ["distill", "--out", "{tmp}/run"],
            "error: splendor distill needs the train extra: pip install 'splendor[train]'",
        ),
        (
            ("matplotlib",),
            ["analyse", "--plot", "{tmp}/chart.png", "{tmp}/none.json"],
            "error: splendor analyse --plot needs the analysis extra: "
            "pip install 'splendor[analysis]'",
        ),
    ],
    ids=["serve-fastapi", "serve-sqlalchemy", "admin", "train", "distill", "analyse-plot"],
)
def test_a_missing_extra_is_named_in_one_line(monkeypatch, tmp_path, missing, args, message):
    _without(monkeypatch, *missing)
    done = _run(*[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert done.exit_code == 1, done.output
    assert isinstance(done.exception, SystemExit)  # no Python error escaped
    assert done.output.strip() == message
    assert not (tmp_path / "run").exists() and not (tmp_path / "chart.png").exists()


def test_require_lets_other_import_errors_through(monkeypatch):
    import typer

    from splendor.cli.extras import installed, require

    _without(monkeypatch, "torch")
    assert not installed("train") and installed("analysis")
    with pytest.raises(ModuleNotFoundError, match="no_such_module"):
        with require("analysis", "analyse"):
            import no_such_module  # noqa: F401
    with pytest.raises(typer.Exit) as stop:
        with require("web", "serve"):
            raise ModuleNotFoundError("No module named 'uvicorn.main'", name="uvicorn.main")
    assert stop.value.exit_code == 1


def test_the_arena_runs_without_matplotlib_and_skips_its_chart(monkeypatch, tmp_path):
    _without(monkeypatch, "matplotlib")
    out = tmp_path / "arena"
    args = ["--bots", "random,greedy", "--games", "2", "--backend", "serial", "--out", str(out)]
    done = _run("arena", *args, "--no-progress")
    assert done.exit_code == 0, done.output
    assert "plot: none (pip install 'splendor[analysis]' to draw it)" in " ".join(
        done.stdout.split()
    )
    assert (out / "results.json").exists() and not (out / "ratings.png").exists()


def test_help_shows_flags_without_a_type():
    """Issue 33: a flag takes no value, so ``--help`` shows no ``<bool>`` (any command)."""
    for command in (["play"], ["replay"], ["arena"], ["admin"], []):
        done = _run(*command, "--help")
        assert done.exit_code == 0, done.output
        assert "<bool>" not in done.output and "--help" in done.output
    assert "<int>" in _run("play", "--help").output  # options with a value keep theirs


def test_replay_speaks_the_language_given(tmp_path):
    """Issue 33: ``splendor replay --lang`` as ``splendor play --lang``; the record keeps
    the default name the same in every language."""
    path = tmp_path / "fr.json"
    done = _run(
        "play",
        "--lang",
        "fr",
        "--seats",
        "human,random",
        "--seed",
        "5",
        "--record",
        str(path),
        stdin="take W U G\n",
    )
    assert done.exit_code == 0, done.output
    assert GameRecord.load(path).players == ["you", "random"] and "vous" in done.output
    replayed = _run("replay", str(path), "--lang", "fr")
    assert replayed.exit_code == 0, replayed.output
    assert "graine 5" in replayed.output and "plac" in replayed.output.lower()
    english = _run("replay", str(path))
    assert "seed 5" in english.output and "unfinished game after" in english.output
    bad = _run("replay", str(path), "--lang", "sv")
    assert bad.exit_code == 2
