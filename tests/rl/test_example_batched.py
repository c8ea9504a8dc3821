"""The batched-environment training example runs end to end (tiny budget)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_train_batched_policy_runs() -> None:
    # torch start-up, 8 evaluations of 8 games and 2 PPO updates of 32 x 16 steps: about 5 s
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_batched_policy.py"),
         "--updates", "2", "--envs", "32", "--steps", "16", "--minibatch", "256",
         "--eval-games", "8"],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    lines = [line for line in out.stdout.splitlines() if line.startswith("summary ")]
    assert len(lines) == 1, out.stdout
    summary = json.loads(lines[0].removeprefix("summary "))
    assert summary["game"] == "classic" and summary["players"] == 2
    assert summary["updates"] == 2 and summary["eval_games"] == 8
    assert summary["env_steps"] == 2 * 32 * 16
    assert summary["steps_per_s"] > 0 and summary["minutes"] >= 0
    for when in ("before", "after"):
        for bot in ("random", "greedy"):
            for mode in ("", "_sampled"):
                rate = summary[f"win_rate_{when}_vs_{bot}{mode}"]
                assert 0.0 <= rate <= 1.0
                assert rate * 8 == round(rate * 8)  # wins out of 8 games
            line = (
                rf"win rate vs {bot} +{when} +training \(argmax +policy\): (\d\.\d+) "
                r"\((\d+) won, (\d+) lost, (\d+) drawn of 8\)"
            )
            m = re.search(line, out.stdout)
            assert m, out.stdout
            assert sum(int(m.group(k)) for k in (2, 3, 4)) == 8
            assert float(m.group(1)) == summary[f"win_rate_{when}_vs_{bot}"]
    assert "trained 2 updates" in out.stdout
