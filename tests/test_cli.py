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

ENV = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}


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
    expected = dict(zip(rec.players, rec.result["scores"]))
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
    )
    seen = bytearray()

    def pump() -> None:
        assert proc.stdout is not None
        while chunk := proc.stdout.read1(4096):
            seen.extend(chunk)

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    deadline = time.monotonic() + 60
    while "you › ".encode() not in seen and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert "you › ".encode() in seen, seen.decode(errors="replace")
    proc.send_signal(signal.SIGINT)
    code = proc.wait(timeout=30)
    reader.join(timeout=5)
    assert code == 130, seen.decode(errors="replace")
    assert b"game interrupted (Ctrl-C) after 0 decisions" in seen
    rec = GameRecord.load(path)
    assert rec.result is None and rec.actions == []
