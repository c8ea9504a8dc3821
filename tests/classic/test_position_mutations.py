"""Mutation property test of the classic position gate (issue 14, item 1): positions
reached in seeded play, mutated at random, are each either refused by ``State.from_dict``
with ``ValueError`` or accepted and then play soundly to the end (``check_position``
empty after every decision). The harness is ``position_mutations.py``; the full campaign
(100 000 inputs, with crashes counted) is ``tools/fuzz_positions.py``.

This fuzzer found the defects the gate now refuses: run on the engine before the gate
was completed, 798 of the first 10 000 inputs of seed 1 were corrupted (negative tokens,
cards in two places, games without a legal decision; under NUMBA_BOUNDSCHECK=1, 10 of the
first 2000 were out-of-bounds accesses), and processes aborted on heap corruption
("corrupted size vs. prev_size") at exit.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from numba import config

from .position_mutations import OUTCOMES, PHASES, base_positions, run

ROOT = Path(__file__).resolve().parents[2]
SEED = 20260514
# Plain Python rules (NUMBA_DISABLE_JIT=1, the suite's second pass) are ~100x slower.
COUNT, GAMES = (40, 2) if config.DISABLE_JIT else (1200, 10)


def test_mutated_positions_are_refused_or_play_soundly():
    """Each mutated position is refused with ValueError, or accepted and played to its
    end with every invariant holding after every decision. Both outcomes must occur, from
    base positions of every phase, so that neither a gate refusing everything nor one
    accepting everything passes."""
    pool = base_positions(SEED, games=GAMES)
    tally = run(SEED, 0, COUNT, pool)
    assert tally.corrupted == 0, "\n".join(tally.examples)
    assert tally.tried == COUNT and tally.refused + tally.accepted == COUNT
    assert tally.refused > 0 and tally.accepted > 0, tally
    if not config.DISABLE_JIT:
        for phase in PHASES.values():
            for outcome in ("refused", "accepted"):
                assert tally.by_phase.get(f"{phase}:{outcome}", 0) > 0, (
                    phase,
                    outcome,
                    tally.by_phase,
                )
        # refusals come from many different rules, not from one check catching everything
        assert len(tally.refused_by) >= 8, tally.refused_by


@pytest.mark.slow
def test_mutations_under_numba_boundscheck(tmp_path: Path) -> None:
    """A share of the inputs in a child process whose rules are compiled with bounds
    checks (NUMBA_BOUNDSCHECK=1, in a fresh cache directory: numba would otherwise load
    the unchecked build from its cache). The child first proves the checks are on; then
    no input may be corrupted, and the process must end normally (an out-of-bounds access
    would raise IndexError, counted as corrupted, instead of corrupting memory)."""
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    count = 10 if config.DISABLE_JIT else 150
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.classic.position_mutations",
            "--seed",
            str(SEED),
            "--start",
            "100000",
            "--count",
            str(count),
            "--expect-boundscheck",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("# bounds checked") and lines[-1] == "done", proc.stdout[-2000:]
    outcomes = [line.split(" ", 4)[1] for line in lines[1:-1]]
    assert len(outcomes) == count and set(outcomes) <= set(OUTCOMES)
    bad = [line for line in lines[1:-1] if line.split(" ", 4)[1] == "corrupted"]
    assert not bad, bad[:5]
    assert "accepted" in outcomes and "refused" in outcomes
