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
