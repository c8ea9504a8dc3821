"""The research examples and benchmark run end to end (tiny budgets)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # torch start-up plus a few PPO updates: about 15 s
def test_train_duel_ppo_runs() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_duel_ppo.py"),
         "--updates", "2", "--envs", "4", "--steps", "32", "--minibatch", "64",
         "--eval-games", "4", "--turn-cap", "150"],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    for when in ("before", "after"):
        for mode in ("sampled", "greedy"):
            line = (
                rf"win rate vs random {when} training \({mode} policy\): (\d\.\d+) "
                r"\((\d+) won, (\d+) lost, (\d+) drawn of 4\)"
            )
            m = re.search(line, out.stdout)
            assert m, out.stdout
            assert 0.0 <= float(m.group(1)) <= 1.0
            assert sum(int(m.group(k)) for k in (2, 3, 4)) == 4
    assert "trained 2 updates" in out.stdout


def test_bench_rl_runs() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import bench_rl
    finally:
        sys.path.pop(0)
    rows = bench_rl.run(0.05, ["classic", "duel"], bench_rl.BENCHMARKS)
    assert [(r["interface"], r["game"]) for r in rows] == [
        (name, game) for name, _ in bench_rl.BENCHMARKS for game in ("classic-2p", "duel")
    ]
    for r in rows:
        assert r["steps"] > 0 and r["steps_per_s"] > 0 and r["decisions_per_s"] >= r["steps_per_s"]
    assert "steps/s" in bench_rl.table(rows)
