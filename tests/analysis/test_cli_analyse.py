"""``splendor analyse`` (issue 19), run as a subprocess: tables, JSON, the chart, the
progress bar, and clear errors for bad records and options."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from splendor.analysis import GameAnalysis
from splendor.bots import make_bot
from splendor.match import play_game

ENV = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}


def splendor(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "splendor.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=ENV,
    )


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A short Duel game between greedy bots, stopped after 14 decisions."""
    agents = [make_bot("greedy", 1), make_bot("greedy", 2)]
    _, record = play_game(agents, game="duel", seed=8, max_decisions=14, names=["ann", "bob"])
    return record.save(tmp_path_factory.mktemp("analyse") / "game.json")


def test_analyse_prints_moves_and_a_summary_per_player(record_file: Path, tmp_path: Path) -> None:
    chart = tmp_path / "chart.png"
    done = splendor("analyse", str(record_file), "-i", "64", "--plot", str(chart))
    assert done.returncode == 0, done.stderr
    assert "summary" in done.stdout and "accuracy" in done.stdout
    assert "ann (seat 0)" in done.stdout and "bob (seat 1)" in done.stdout
    assert "analysing" in done.stderr and "14/14" in done.stderr  # the progress bar
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_analyse_json_of_one_seat_is_reproducible(record_file: Path) -> None:
    runs = [
        splendor("analyse", str(record_file), "--seat", "1", "-i", "64", "--json", "--no-progress")
        for _ in range(2)
    ]
    assert all(r.returncode == 0 for r in runs), runs[0].stderr
    data = json.loads(runs[0].stdout)
    assert runs[0].stdout == runs[1].stdout  # iterations and a seed: the same numbers
    analysis = GameAnalysis.from_dict(data)
    assert analysis.seats == [1] and analysis.complete
    assert {m.seat for m in analysis.moves} == {1}
    assert data["settings"]["iterations"] == 64 and data["summaries"][0]["player"] == "bob"


def test_analyse_refuses_bad_records_and_options(record_file: Path, tmp_path: Path) -> None:
    data = json.loads(record_file.read_text())
    data["actions"][3] = "take X X X"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    done = splendor("analyse", str(bad), "-i", "8", "--no-progress")
    assert done.returncode == 1 and "action 4" in done.stderr and "Traceback" not in done.stderr
    missing = splendor("analyse", str(tmp_path / "none.json"), "--no-progress")
    assert missing.returncode == 1 and "Traceback" not in missing.stderr
    seat = splendor("analyse", str(record_file), "--seat", "2", "-i", "8", "--no-progress")
    assert seat.returncode == 2 and "seats are 0..1" in seat.stderr
    slow = splendor("analyse", str(record_file), "--time-per-move", "0", "--no-progress")
    assert slow.returncode == 2 and "time per move" in slow.stderr
