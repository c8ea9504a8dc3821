"""`splendor arena` through typer's runner: table, JSON, files, option errors."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from splendor.cli import app
from splendor.record import GameRecord


def arena(*args: str):
    return CliRunner().invoke(app, ["arena", *args], env={"COLUMNS": "120"})


def test_table_output_and_files(tmp_path):
    done = arena(
        "--bots",
        "random,greedy,random",
        "--games",
        "5",
        "--backend",
        "serial",
        "--out",
        str(tmp_path),
        "--bootstrap",
        "50",
        "--seed",
        "2",
    )
    assert done.exit_code == 0, done.output
    out = done.stdout
    assert "6 games: 5 asked, rounded up to 1 whole cycle of 6 lineups" in out
    for word in (
        "bot",
        "wins",
        "draws",
        "losses",
        "forfeits",
        "Elo",
        "95% CI",
        "random-0",
        "random-2",
        "greedy",
        "head to head",
        "wins by seat",
        "style (means per game)",
        "never bought",
        "returns",
    ):
        assert word in out, word
    greedy_row = next(line for line in out.splitlines() if line.strip().startswith("greedy"))
    assert greedy_row.split()[1] == "4"  # 4 seat-games: 2 opponents x 2 seats
    assert (tmp_path / "ratings.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["games"] == 6 and results["requested_games"] == 5
    # each bot's habits (issue 17): means over its 4 seat-games
    for row in results["results"]:
        assert row["style"]["reserves"] >= row["style"]["reserves_never_bought"] >= 0
    records = sorted((tmp_path / "games").glob("*.json"))
    assert len(records) == 6
    assert GameRecord.load(records[0]).replay().is_terminal


def test_json_output_is_the_results_document(tmp_path):
    done = arena(
        "--game",
        "duel",
        "--bots",
        "random,greedy",
        "--games",
        "2",
        "--backend",
        "serial",
        "--out",
        str(tmp_path),
        "--json",
        "--bootstrap",
        "20",
    )
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)  # nothing but JSON on stdout
    assert data["game"] == "duel" and data["options"] == {"turn_cap": 400}
    assert [r["bot"] for r in data["results"]] == ["random", "greedy"]
    assert set(data["ratings"]["elo"]) == {"random", "greedy"}
    assert all(len(ci) == 2 for ci in data["ratings"]["ci95"].values())
    on_disk = json.loads((tmp_path / "results.json").read_text())
    assert on_disk == data
    assert "2 games" in done.stderr  # the notes go to stderr


@pytest.mark.parametrize(
    "args,message",
    [
        (["--bots", "random,wizard"], "unknown bot 'wizard'; known bots: random, greedy"),
        (["--bots", "random,mcts:fast"], "bad search budget"),
        (["--bots", "random"], "at least two bots"),
        (["--players", "5"], "2 to 4 players"),
        (["--game", "duel", "--players", "3"], "2 to 2 players"),
        (["--game", "chess"], "unknown game 'chess'"),
        (["--games", "0"], "at least 1"),
        (["--backend", "mpi"], "unknown backend 'mpi'"),
        (["--turn-cap", "50"], "Duel only"),
        (["--max-decisions", "-1"], "--max-decisions must be >= 0 (0: no cap), got -1"),
        (
            ["--game", "duel", "--max-decisions", "500"],
            "--max-decisions is for Splendor only",
        ),
    ],
)
def test_bad_options_exit_2_with_a_clear_message(tmp_path, args, message):
    done = arena(*args, "--out", str(tmp_path / "never"))
    assert done.exit_code == 2, done.output
    assert message in " ".join(done.stderr.split())
    assert not (tmp_path / "never").exists()  # refused before any game
