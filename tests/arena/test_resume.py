"""Resuming an interrupted arena (`run_arena(resume=True)`, `splendor arena --resume`)."""

from __future__ import annotations

import json
import shutil

import pytest
from typer.testing import CliRunner

from splendor.arena import run_arena
from splendor.cli import app
from splendor.record import GameRecord

SETTINGS = dict(game="duel", games=6, seed=5, backend="serial", bootstrap=30)


def deterministic(results: dict) -> dict:
    return {k: v for k, v in results.items() if k != "run"}


@pytest.fixture(scope="module")
def complete(tmp_path_factory):
    folder = tmp_path_factory.mktemp("complete")
    return folder, run_arena("random,greedy", out=folder, **SETTINGS)


def _copy(src, dst):
    shutil.copytree(src / "games", dst / "games")
    return sorted((dst / "games").glob("*.json"))


def test_resume_plays_only_the_missing_games_and_gives_the_same_results(complete, tmp_path):
    folder, full = complete
    records = _copy(folder, tmp_path)
    for path in records[1::2]:
        path.unlink()
    played = []
    res = run_arena(
        "random,greedy",
        out=tmp_path,
        resume=True,
        on_game=lambda done, total, s: played.append(s["index"]),
        **SETTINGS,
    )
    assert sorted(played) == [1, 3, 5]
    assert res["run"]["resumed_games"] == 3
    assert deterministic(res) == deterministic(full)
    assert len(list((tmp_path / "games").glob("*.json"))) == 6


def test_an_unfinished_record_is_played_again(complete, tmp_path):
    folder, full = complete
    records = _copy(folder, tmp_path)
    rec = GameRecord.load(records[2])
    rec.actions = rec.actions[:5]
    rec.result = None
    rec.save(records[2])
    res = run_arena("random,greedy", out=tmp_path, resume=True, **SETTINGS)
    assert res["run"]["resumed_games"] == 5
    assert deterministic(res) == deterministic(full)
    assert GameRecord.load(records[2]).result is not None


def test_records_of_another_arena_are_refused(complete, tmp_path):
    folder, _ = complete
    _copy(folder, tmp_path)
    with pytest.raises(ValueError, match="belongs to another arena.*seed"):
        run_arena("random,greedy", out=tmp_path, resume=True, **{**SETTINGS, "seed": 6})


def test_a_folder_with_records_is_not_overwritten_without_resume(complete, tmp_path):
    folder, _ = complete
    records = _copy(folder, tmp_path)
    before = [p.read_bytes() for p in records]
    with pytest.raises(ValueError, match="already holds 6 game record"):
        run_arena("random,greedy", out=tmp_path, **SETTINGS)
    assert [p.read_bytes() for p in records] == before


def _cli(*args: str):
    return CliRunner().invoke(app, ["arena", *args], env={"COLUMNS": "120"})


def test_cli_resume(complete, tmp_path):
    folder, full = complete
    records = _copy(folder, tmp_path)
    records[0].unlink()
    base = [
        "--game",
        "duel",
        "--bots",
        "random,greedy",
        "--games",
        "6",
        "--seed",
        "5",
        "--backend",
        "serial",
        "--bootstrap",
        "30",
        "--out",
        str(tmp_path),
    ]
    refused = _cli(*base)
    assert refused.exit_code == 2
    assert "add --resume" in " ".join(refused.stderr.split())
    done = _cli(*base, "--resume")
    assert done.exit_code == 0, done.output
    assert "resumed: 5 games" in done.stdout
    assert deterministic(json.loads((tmp_path / "results.json").read_text())) == deterministic(full)


def test_cli_resume_needs_out_and_rejects_a_corrupt_record(complete, tmp_path):
    no_out = _cli("--bots", "random,greedy", "--resume")
    assert no_out.exit_code == 2 and "--resume needs --out" in " ".join(no_out.stderr.split())
    folder, _ = complete
    records = _copy(folder, tmp_path)
    data = json.loads(records[1].read_text())
    data["actions"][3] = "buy z9"
    records[1].write_text(json.dumps(data))
    bad = _cli(
        "--game",
        "duel",
        "--bots",
        "random,greedy",
        "--games",
        "6",
        "--seed",
        "5",
        "--backend",
        "serial",
        "--out",
        str(tmp_path),
        "--resume",
    )
    assert bad.exit_code == 1
    assert "cannot resume" in bad.stderr and "action 4" in bad.stderr
