"""``examples/openspiel_vs_mcts.py`` runs: an OpenSpiel bot against our MCTS bot, with seat
rotation, in both games (tiny budgets)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("pyspiel")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "openspiel_vs_mcts.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("openspiel_vs_mcts", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    "argv",
    [
        ["--game", "classic", "--games", "2", "--simulations", "3", "--ours", "mcts:20"],
        [
            "--game",
            "duel",
            "--games",
            "2",
            "--simulations",
            "2",
            "--rollout-length",
            "20",
            "--ours",
            "mcts:20",
            "--openspiel",
            "mcts",
        ],
    ],
    ids=["classic-ismcts", "duel-mcts"],
)
def test_example_plays_a_match(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    tally = load_example().main(argv)
    out = capsys.readouterr().out
    assert tally["games"] == 2
    assert tally["openspiel"] + tally["ours"] + tally["draws"] >= 2
    assert "at seat 0" in out and "at seat 1" in out  # seats rotate
    assert "games: OpenSpiel" in out


def test_example_refuses_a_bad_command_line() -> None:
    with pytest.raises(SystemExit):
        load_example().main(["--game", "duel", "--players", "3"])
