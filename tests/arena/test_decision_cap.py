"""The arena's decision cap for classic games (`--max-decisions`): a host limit, not a rule.

Classic Splendor has no turn limit; two bots can take and return one token for ever. The
arena stops such a game after N decisions with no winner (``end_reason == "decision_cap"``).
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import splendor.bots
from splendor.arena import CLASSIC_DECISION_CAP, prepare_arena, run_arena
from splendor.cli import app
from splendor.record import GameRecord, RecordError


class Staller:
    """Never buys: once the coloured tokens run out, every turn is "take 1, return 1" and
    the game (classic has no turn limit) never ends."""

    name = "staller"

    def choose(self, observation, legal):
        safe = [a for a in legal if not str(a).startswith("buy")]
        return (safe or legal)[0]


@pytest.fixture
def stallers(monkeypatch):
    """Every ``greedy`` spec makes a :class:`Staller` (serial backend: same process)."""
    real = splendor.bots.make_bot

    def fake(spec, seed=None):
        return Staller() if spec == "greedy" else real(spec, seed)

    monkeypatch.setattr(splendor.bots, "make_bot", fake)


def test_defaults_classic_capped_duel_not():
    classic = prepare_arena("random,greedy")
    assert classic.max_decisions == CLASSIC_DECISION_CAP == 2000
    assert all(t.max_decisions == 2000 for t in classic.schedule.tasks)
    assert all(t.to_dict()["max_decisions"] == 2000 for t in classic.schedule.tasks)
    assert classic.options == {}  # not a game option: the engine never sees it
    assert prepare_arena("random,greedy", max_decisions=0).max_decisions is None
    assert prepare_arena("random,greedy", max_decisions=7).schedule.tasks[0].max_decisions == 7
    duel = prepare_arena("random,greedy", game="duel")
    assert duel.max_decisions is None and duel.schedule.tasks[0].max_decisions is None


def test_a_deadlocked_game_stops_at_the_default_cap(stallers, tmp_path):
    res = run_arena("greedy,greedy", games=2, backend="serial", out=tmp_path, bootstrap=10)
    assert res["max_decisions"] == 2000
    assert res["end_reasons"] == {"decision_cap": 2}
    for g in res["game_results"]:
        assert g["winners"] == [] and g["end_reason"] == "decision_cap"
        assert g["decisions"] == 2000 and g["forfeit"] is None
        rec = GameRecord.load(tmp_path / g["record"])
        assert rec.result["decision_cap"] == 2000 and rec.actions[-2:] == ["take W", "return W"]
        assert not rec.replay().is_terminal


@pytest.fixture(scope="module")
def capped(tmp_path_factory):
    folder = tmp_path_factory.mktemp("capped")
    return folder, run_arena(
        "random,greedy",
        games=4,
        seed=2,
        max_decisions=5,
        backend="serial",
        out=folder,
        bootstrap=10,
    )


def test_capped_games_have_no_winner_and_count_as_draws(capped):
    folder, res = capped
    assert res["max_decisions"] == 5 and res["options"] == {}
    assert res["end_reasons"] == {"decision_cap": 4}
    for row in res["results"]:
        assert (row["games"], row["wins"], row["draws"], row["losses"]) == (4, 0, 4, 0)
    assert all(s["win_share"] == 0 for s in res["seats"])
    for g in res["game_results"]:
        assert g["winners"] == [] and g["end_reason"] == "decision_cap"
        assert g["decisions"] == 5
        rec = GameRecord.load(folder / g["record"])
        assert rec.result == {
            "scores": g["scores"],
            "winners": [],
            "end_reason": "decision_cap",
            "turns": g["turns"],
            "decision_cap": 5,
        }
        assert rec.metadata["arena"]["max_decisions"] == 5
        final = rec.replay()
        assert not final.is_terminal and list(final.scores) == g["scores"]


def test_a_game_that_ends_before_the_cap_is_unchanged(tmp_path):
    capped = run_arena(
        "random,greedy",
        games=2,
        seed=4,
        max_decisions=1000,
        backend="serial",
        out=tmp_path / "a",
        bootstrap=10,
    )
    free = run_arena(
        "random,greedy",
        games=2,
        seed=4,
        max_decisions=0,
        backend="serial",
        out=tmp_path / "b",
        bootstrap=10,
    )
    assert free["max_decisions"] is None and capped["max_decisions"] == 1000
    assert capped["end_reasons"] == free["end_reasons"] == {"points": 2}

    def strip(g):
        return {k: v for k, v in g.items() if k != "record"}

    assert [strip(g) for g in capped["game_results"]] == [strip(g) for g in free["game_results"]]


def _copy(src, dst):
    (dst / "games").mkdir(parents=True)
    for p in sorted((src / "games").glob("*.json")):
        (dst / "games" / p.name).write_bytes(p.read_bytes())
    return sorted((dst / "games").glob("*.json"))


def _deterministic(results):
    return {k: v for k, v in results.items() if k != "run"}


def test_capped_records_resume(capped, tmp_path):
    folder, full = capped
    records = _copy(folder, tmp_path)
    records[1].unlink()
    res = run_arena(
        "random,greedy",
        games=4,
        seed=2,
        max_decisions=5,
        backend="serial",
        out=tmp_path,
        bootstrap=10,
        resume=True,
    )
    assert res["run"]["resumed_games"] == 3
    assert _deterministic(res) == _deterministic(full)


@pytest.mark.parametrize("cap, theirs", [(6, 6), (None, 2000), (0, None)])
def test_resume_with_another_cap_is_refused(capped, tmp_path, cap, theirs):
    folder, _ = capped
    _copy(folder, tmp_path)
    with pytest.raises(
        ValueError, match=rf"another arena \(max_decisions: 5, this arena: {theirs}\)"
    ):
        run_arena(
            "random,greedy",
            games=4,
            seed=2,
            max_decisions=cap,
            backend="serial",
            out=tmp_path,
            bootstrap=10,
            resume=True,
        )


def test_resume_refuses_records_whose_cap_was_tampered_with(capped, tmp_path):
    folder, _ = capped
    records = _copy(folder, tmp_path / "capped")
    data = json.loads(records[0].read_text())
    data["result"]["decision_cap"] = 6  # the record's own cap differs from its arena's
    records[0].write_text(json.dumps(data))
    with pytest.raises(
        RecordError, match="stopped by a decision cap of 6, but its arena's cap is 5"
    ):
        run_arena(
            "random,greedy",
            games=4,
            seed=2,
            max_decisions=5,
            backend="serial",
            out=tmp_path / "capped",
            bootstrap=10,
            resume=True,
        )
    # a game that ended by points, longer than the cap its metadata was edited to claim
    out = tmp_path / "points"
    run_arena(
        "random,greedy",
        games=2,
        seed=4,
        max_decisions=1000,
        backend="serial",
        out=out,
        bootstrap=0,
        plot=False,
    )
    first = out / "games" / "00000.json"
    data = json.loads(first.read_text())
    data["metadata"]["arena"]["max_decisions"] = 10
    first.write_text(json.dumps(data))
    n = len(data["actions"])
    with pytest.raises(
        RecordError, match=f"holds {n} decisions, more than its arena's decision cap of 10"
    ):
        run_arena(
            "random,greedy",
            games=2,
            seed=4,
            max_decisions=10,
            backend="serial",
            out=out,
            bootstrap=0,
            plot=False,
            resume=True,
        )


def _cli(*args):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "120"})


def test_cli_capped_arena_and_replay(tmp_path):
    done = _cli(
        "arena",
        "--bots",
        "random,greedy",
        "--games",
        "2",
        "--max-decisions",
        "5",
        "--backend",
        "serial",
        "--bootstrap",
        "10",
        "--out",
        str(tmp_path),
    )
    assert done.exit_code == 0, done.output
    assert "Splendor, 2 players · decision cap 5 · 2 bots" in done.stdout
    assert "game ends: decision_cap 2" in done.stdout
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["max_decisions"] == 5
    record = tmp_path / "games" / "00000.json"
    shown = _cli("replay", str(record))
    assert shown.exit_code == 0, shown.output
    assert "no winner (stopped by the decision cap after 5 decisions" in shown.stdout
    assert "unfinished" not in shown.stdout
    data = json.loads(record.read_text())
    data["result"]["winners"] = [0]
    record.write_text(json.dumps(data))
    bad = _cli("replay", str(record))
    assert bad.exit_code == 1
    assert "invalid record" in bad.stderr and "has no winner" in " ".join(bad.stderr.split())
    other = _cli(
        "arena",
        "--bots",
        "random,greedy",
        "--games",
        "2",
        "--max-decisions",
        "7",
        "--backend",
        "serial",
        "--out",
        str(tmp_path),
        "--resume",
    )
    assert other.exit_code == 2
    assert "max_decisions: 5, this arena: 7" in " ".join(other.stderr.split())
