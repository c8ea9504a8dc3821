"""The benchmark behind `make bench` produces every figure the issue asks for (not its speed:
speed targets live in benchmarks/, never in tests)."""

from __future__ import annotations

import json

from splendor.bench import main


def test_bench_reports_every_figure_for_each_player_count(tmp_path, capsys):
    out = tmp_path / "bench.json"
    result = main(seconds=0.05, player_counts=[2, 4], output=out)
    assert json.loads(out.read_text()) == result
    assert json.loads(capsys.readouterr().out) == result
    assert set(result["classic"]) == {"2", "4"}
    assert set(result["duel"]) == {"2"}  # Splendor Duel is reported beside the classic game
    for game, key in (("classic", "stalled_share"), ("duel", "capped_share")):
        for figures in result[game].values():
            for mode in ("compiled", "python_api"):
                f = figures[mode]
                assert f["games"] >= 1 and f["turns_per_s"] > 0
                assert f["decisions_per_s"] >= f["turns_per_s"]
                assert f["mean_turns_per_game"] > 10  # a real game lasts dozens of turns
                assert 0.0 <= f[key] <= 1.0
            assert figures["legal_mask"]["kernel_us"] > 0
            assert figures["legal_mask"]["state_legal_mask_us"] > 0
            assert figures["mcts"]["random_full_playouts_per_s"] > 0
            assert figures["mcts"]["default_bot_per_s"] > 0
            assert figures["mcts"]["heuristic_playouts_per_s"] > 0
            assert figures["mcts"]["net_value_per_s"] > 0
            assert figures["mcts"]["net_priors_playouts_per_s"] > 0
            assert figures["mcts"]["net_features_half_per_s"] > 0
            assert figures["mcts"]["net_shipped_per_s"] > 0  # classic 2p and 4p, Duel ship
            greedy = figures["greedy"]
            assert greedy["decisions_per_s"] > 0
            assert abs(greedy["mean_ms"] * greedy["decisions_per_s"] / 1000 - 1) < 0.02


def test_bench_rejects_an_unknown_game_or_player_count():
    import pytest

    from splendor.bench import run

    with pytest.raises(ValueError, match="unknown game 'chess'"):
        run(0.01, [2], ["chess"])
    with pytest.raises(ValueError, match="2, 3 or 4"):
        run(0.01, [5], ["classic"])


def test_vector_and_legal_benchmarks_report_every_row(tmp_path) -> None:
    """benchmarks/bench_vector.py and bench_legal.py run (tiny budgets: the figures
    themselves are the benchmarks', never the tests') and print their rows and verdicts."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, str(root / "benchmarks" / "bench_vector.py"), "--seconds", "0.05",
         "--envs", "8", "--json"],
        capture_output=True, text=True, check=True, timeout=600,
    )  # fmt: skip
    rows = json.loads(done.stdout[: done.stdout.rindex("]") + 1])
    assert {(r["interface"], r["game"]) for r in rows} == {
        (i, g) for i in ("batched", "vector-env", "pettingzoo") for g in ("classic-2p", "duel")
    }
    assert all(r["agent_steps"] > 0 and r["agent_steps_per_s"] > 0 for r in rows)
    assert "agent-steps/s" in done.stdout and "x pettingzoo" in done.stdout
    done = subprocess.run(
        [sys.executable, str(root / "benchmarks" / "bench_legal.py"), "--rounds", "1", "--json"],
        capture_output=True, text=True, check=True, timeout=600,
    )  # fmt: skip
    figures = json.loads(done.stdout)["this"]
    assert set(figures) == {"classic", "duel"}
    assert all(v > 0 for g in figures.values() for v in g.values())
