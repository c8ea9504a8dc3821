"""The strength measurements shipped in ``results/strength/`` (issue 4, README "Strength,
measured") are what their records say.

Each folder there is the output of one ``splendor arena`` run. Resuming it in a copy plays
no game: every record is replayed through the engine and checked (a record with an illegal
action, a wrong result or a missing game fails), and the table, head-to-head scores,
end reasons and Elo ratings rebuilt from the records must equal the shipped
``results.json``. So the figures quoted in the README cannot drift from the games behind
them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from splendor.arena import prepare_arena, run_arena

STRENGTH = Path(__file__).resolve().parents[2] / "results" / "strength"
RUNS = sorted(p.parent for p in STRENGTH.glob("*/results.json")) if STRENGTH.is_dir() else []


def _setup(results: dict[str, Any]) -> Any:
    options = results.get("options") or {}
    return prepare_arena(
        list(results["specs"]),
        game=results["game"],  # the registered name ("splendor", "duel"), as get_game takes it
        players=int(results["players"]),
        games=int(results["requested_games"]),
        seed=int(results["seed"]),
        turn_cap=options.get("turn_cap"),
        max_decisions=results.get("max_decisions"),
    )


def test_strength_runs_are_shipped() -> None:
    # The README quotes these runs; without them the test below would check nothing.
    assert {p.name for p in RUNS} >= {"classic-2p", "classic-4p", "duel-2p"}, RUNS


@pytest.mark.slow
@pytest.mark.parametrize("run", RUNS, ids=[p.name for p in RUNS])
def test_results_rebuild_from_records(run: Path, tmp_path: Path) -> None:
    shipped = json.loads((run / "results.json").read_text())
    setup = _setup(shipped)
    total = len(setup.schedule.tasks)
    assert len(list((run / "games").glob("*.json"))) == total
    copy = tmp_path / run.name
    shutil.copytree(run / "games", copy / "games")
    rebuilt = run_arena(
        setup,
        backend="serial",
        out=copy,
        resume=True,
        plot=False,
        bootstrap=int(shipped["ratings"].get("bootstrap", 500)),
    )
    assert rebuilt["run"]["resumed_games"] == total  # nothing was played again
    assert set(rebuilt) == set(shipped)
    for key in shipped:
        if key != "run":  # backend, workers, timings, folder: facts of the run, not results
            assert rebuilt[key] == shipped[key], key
