"""Mutation property test of the position gate (issue 14): positions reached in seeded
play, in every decision phase, are mutated (values in and out of range, off-by-one, swaps,
fields of another position, tokens and cards moved); each mutant is either refused with a
``ValueError`` naming the field and the rule, or accepted and played to the end with
random legal decisions, ``check_invariants`` empty after every decision.

The mutator and the judge are those of ``tools/fuzz_duel_positions.py``, which runs the
full campaign (100,000 inputs, a share with ``NUMBA_BOUNDSCHECK=1``); the suite runs a
bounded, seeded share.
"""

from __future__ import annotations

import collections
import importlib.util
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import config

from splendor import duel
from splendor.duel import CARDS
from splendor.duel.state import STATE_DTYPE
from splendor.positions import array_from_dict

_TOOL = Path(__file__).resolve().parents[2] / "tools" / "fuzz_duel_positions.py"
COMPILED = not config.DISABLE_JIT
# Inputs per run: about 10 ms each compiled; the plain-Python rerun (NUMBA_DISABLE_JIT=1)
# is some 30 times slower, so it tries fewer from fewer base games.
COUNT = 1000 if COMPILED else 40
BASE_GAMES = 24 if COMPILED else 3
RULE = re.compile(r"\bD\d+\b")


def _tool():
    spec = importlib.util.spec_from_file_location("fuzz_duel_positions", _TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def fz():
    return _tool()


@pytest.fixture(scope="module")
def pool(fz):
    return fz.base_positions(11, games=BASE_GAMES)


def test_base_positions_cover_every_phase(pool):
    phases = {d["phase"] for d in pool}
    assert phases == set(range(9)), phases


def test_mutants_are_refused_or_play_to_the_end_soundly(fz, pool):
    """Each mutant: refused with a message naming a field and a rule, or accepted and
    played to the end (the turn cap ends every game) keeping every invariant."""
    outcomes = collections.Counter()
    bad = []
    for i, outcome, detail, _n, done in fz.run_inputs(11, 0, COUNT, pool):
        outcomes[outcome] += 1
        if outcome == "refused":
            if not detail.startswith("corrupt position: "):
                continue  # refused while parsing (core.array_from_dict)
            for part in detail[len("corrupt position: ") :].split("; "):
                lead = part.split(":")[0]
                assert any(name in lead for name in STATE_DTYPE.names), detail
                assert RULE.search(part), detail
        elif outcome != "accepted":
            bad.append((i, outcome, detail, done))
    assert bad == [], bad[:5]
    # the mutator is neither all refused nor all accepted: both halves are exercised
    assert outcomes["refused"] >= COUNT // 5 and outcomes["accepted"] >= COUNT // 10, outcomes


def _ungated(d):
    """A state loaded without the gate, as ``from_dict`` let it through before issue 14."""
    return duel.State(array_from_dict(d, STATE_DTYPE, "splendor-duel-position", 1, "Duel"))


def test_the_issue_reproducer_breaks_the_invariants_without_the_gate(pool):
    """Issue 14: a main-phase position with a pending joker bit loaded, and one legal buy
    later the bonuses no longer matched the cards (the non-joker card's bonus was added
    twice, or the joker phase opened for a card that is no joker). The gate refuses it
    now."""
    broken = 0
    tried = 0
    for base in pool:
        if base["phase"] != 0:
            continue
        st = _ungated(dict(base, pend=1))
        for buy in (a for a in st.legal_actions() if a.kind == "buy"):
            after = st.copy()
            after.apply(buy)
            bought = np.flatnonzero(after._a[0]["card_owner"] != st._a[0]["card_owner"])
            if not CARDS[int(bought[0])].is_joker:  # a joker's own pending joker is right
                break
        else:
            continue
        tried += 1
        with pytest.raises(ValueError, match="pend=1"):
            duel.State.from_dict(dict(base, pend=1))
        broken += bool(duel.check_invariants(after._a))
    assert tried >= 3 and broken == tried, (broken, tried)


def test_the_judge_reports_what_the_gate_lets_through(fz, pool, monkeypatch):
    """The fuzzer can fail: with the gate bypassed, the judge calls such a position
    corrupted."""
    base = next(d for d in pool if d["phase"] == 0 and d["turn"] > 10)
    monkeypatch.setattr(duel.State, "from_dict", classmethod(lambda cls, data: _ungated(data)))
    outcome, detail, _ = fz.judge(dict(base, pend=1), random.Random(0))
    assert outcome == "corrupted", detail


def _run_worker(args, env):
    return subprocess.run(
        [sys.executable, str(_TOOL), "--worker", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.skipif(not COMPILED, reason="the child processes compile the rules")
def test_a_crash_is_counted_and_the_chunk_goes_on(fz):
    """The campaign runs inputs in child processes: an abort counts as one crash, and
    the inputs after it still run."""
    zero = {k: 0 for k in ("tried", *fz.OUTCOMES, "decisions")}
    totals = {"all": dict(zero), "plain": dict(zero), "examples": [], "max_examples": 5}
    fz._run_chunk(5, 0, 10, dict(os.environ), totals, "plain", abort_at=4)
    assert totals["all"]["crashes"] == 1 and totals["all"]["tried"] == 10, totals["all"]
    assert totals["all"]["refused"] + totals["all"]["accepted"] == 9, totals["all"]
    assert totals["examples"][0]["i"] == 4 and totals["examples"][0]["o"] == "crash"


@pytest.mark.slow
@pytest.mark.skipif(not COMPILED, reason="bounds checks are a property of compiled code")
def test_mutants_under_numba_boundscheck(tmp_path):
    """A share of the inputs with the compiled rules checking every array access
    (``NUMBA_BOUNDSCHECK=1``, compiled afresh into a private cache): an out-of-bounds
    access raises ``IndexError`` and counts as corrupted. Slow: the compilation."""
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path))
    proc = _run_worker(["--seed", "12", "--start", "0", "--stop", "300"], env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [x["i"] for x in lines] == list(range(300))
    bad = [x for x in lines if x["o"] not in ("refused", "accepted")]
    assert bad == [], bad[:5]
    assert sum(x["o"] == "accepted" for x in lines) >= 30
