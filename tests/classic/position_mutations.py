"""Seeded mutation fuzzing of classic positions (issue 14): the harness that
``test_position_mutations.py`` runs a bounded share of and ``tools/fuzz_positions.py`` runs
in full.

Each input is a position reached in seeded random play (2, 3 and 4 players, every decision
phase: main, payment, return tokens, choose noble, game over), written with ``to_dict``
and then mutated: one to three random edits of its fields (in-range and out-of-range
values, off-by-one, swaps inside a field, moves of tokens and cards between places, phase
and seat changes, and now and then a malformed field). Each mutated dict must be either

- **refused**: ``State.from_dict`` raises ``ValueError``; or
- **accepted** and then sound: its observations determinize to sound states, and random
  legal decisions play it to the end (or to the decision cap) with
  :func:`splendor.classic.position.check_position` empty after every decision, a legal
  decision always offered, and winners at the end.

Anything else is **corrupted** (another exception, a broken invariant, a stuck game).
Input ``i`` of seed ``s`` is reproducible alone: its generator is seeded with ``(s, i)``
and the pool of base positions depends on ``s`` only.

Run as a program (one chunk, one line per input, used by ``tools/fuzz_positions.py`` to
survive crashes)::

    python -m tests.classic.position_mutations --seed 1 --start 0 --count 100
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from splendor import classic
from splendor.classic import rules
from splendor.classic.position import PHASES, check_invariants, check_position

GAME = "classic"
MAX_DECISIONS = 3000
"""Decision cap of a playout from an accepted position (random play from a deal ends in
about 150 decisions; an accepted position that goes past the cap counts as capped)."""
GAMES_PER_PLAYER_COUNT = 30
PHASE_WEIGHTS = {
    rules.PH_MAIN: 0.35,
    rules.PH_PAY: 0.2,
    rules.PH_RETURN: 0.15,
    rules.PH_NOBLE: 0.1,
    rules.PH_OVER: 0.2,
}
"""How often a base position of each phase is mutated (random play visits the rare
phases, the noble choice above all, far less often than the main one)."""
OUTCOMES = ("refused", "accepted", "corrupted")

# Field -> (low, high) of the values a mutation draws "plausibly" (ids, seats, counts).
_PLAUSIBLE: dict[str, tuple[int, int]] = {
    "num_players": (1, 5),
    "current": (-2, 4),
    "phase": (-1, 5),
    "observer": (-2, 4),
    "final_round": (-1, 2),
    "pass_streak": (-1, 5),
    "end_reason": (-1, 3),
    "turn": (-2, 400),
    "supply": (-1, 8),
    "decks": (-2, 91),
    "deck_len": (-1, 41),
    "faceup": (-2, 91),
    "nobles": (-2, 11),
    "tokens": (-1, 11),
    "bonuses": (-1, 8),
    "points": (-1, 25),
    "reserved": (-2, 91),
    "reserved_level": (-1, 4),
    "reserved_blind": (-1, 2),
    "num_reserved": (-1, 4),
    "purchased_by": (-2, 4),
    "noble_owner": (-2, 4),
    "pay_card": (-2, 91),
    "pay_src": (-1, 16),
    "pay_need": (-1, 8),
    "pay_gold": (-1, 6),
}
_INT_RANGE = {name: np.iinfo(classic.STATE_DTYPE[name].base) for name in _PLAUSIBLE}
_CARD_PLACES = ("decks", "faceup", "reserved")


@dataclass
class Tally:
    """Counts of one run: inputs tried and their outcomes, plus details of the first
    corrupted ones (input index and what went wrong)."""

    tried: int = 0
    refused: int = 0
    accepted: int = 0
    corrupted: int = 0
    capped: int = 0
    by_phase: dict[str, int] = field(default_factory=dict)
    refused_by: dict[str, int] = field(default_factory=dict)
    examples: list[str] = field(default_factory=list)

    def add(self, outcome: str, detail: str = "", index: int = -1, capped: bool = False) -> None:
        self.tried += 1
        setattr(self, outcome, getattr(self, outcome) + 1)
        self.capped += int(capped)
        if outcome == "corrupted" and len(self.examples) < 20:
            self.examples.append(f"input {index}: {detail}")


# --------------------------------------------------------------------------- base positions


def base_positions(
    seed: int, games: int = GAMES_PER_PLAYER_COUNT
) -> dict[int, list[dict[str, Any]]]:
    """Positions reached in seeded random play, as ``to_dict`` dicts: for each player count
    2-4, ``games`` games (more until a noble choice came up) dealt and played with uniform
    random decisions; every position in a payment, return-tokens or noble phase is kept,
    one main-phase position in 8, and the final one. Returned by phase (``rules.PH_*``).

    Raises:
        AssertionError: a phase never came up (raise ``games``).
    """
    rng = np.random.default_rng([seed, 0xBA5E])
    by_phase: dict[int, list[dict[str, Any]]] = {ph: [] for ph in PHASE_WEIGHTS}
    mask = np.zeros(classic.NUM_ACTIONS, dtype=np.bool_)
    played = 0
    # the noble choice is rare: play on (up to 50 times as many games) until it came up
    while played < 3 * games or (not all(by_phase.values()) and played < 150 * games):
        st = classic.new_game(2 + played % 3, int(rng.integers(0, 2**62)))
        played += 1
        a = st._a
        while True:
            phase = int(a[0]["phase"])
            if phase != rules.PH_MAIN or rng.random() < 1 / 8:
                by_phase[phase].append(st.to_dict())
            if phase == rules.PH_OVER:
                break
            k = rules.legal_mask(a, mask)
            choice = int(np.flatnonzero(mask)[int(rng.integers(k))])
            rules.apply(a, choice)
    missing = [PHASES[ph] for ph, ds in by_phase.items() if not ds]
    assert not missing, f"no base position in phase(s) {missing}: play more games"
    return by_phase


# --------------------------------------------------------------------------- mutations


def _draw_value(rng: np.random.Generator, name: str, old: int) -> int:
    lo, hi = _PLAUSIBLE[name]
    info = _INT_RANGE[name]
    kind = int(rng.integers(6))
    if kind == 0:
        return old + int(rng.choice([-1, 1]))
    if kind == 1:
        return int(rng.choice([-1, 0, 1]))
    if kind == 2:
        return int(rng.choice([int(info.min), int(info.max), int(info.max) - 1]))
    if kind == 3:
        return int(rng.integers(int(info.min), int(info.max) + 1))
    return int(rng.integers(lo, hi + 1))


def _flat_paths(value: Any, prefix: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    if isinstance(value, list):
        paths: list[tuple[int, ...]] = []
        for i, v in enumerate(value):
            paths += _flat_paths(v, prefix + (i,))
        return paths
    return [prefix]


def _get(d: dict[str, Any], name: str, path: tuple[int, ...]) -> int:
    v: Any = d[name]
    for i in path:
        v = v[i]
    return v


def _set(d: dict[str, Any], name: str, path: tuple[int, ...], value: Any) -> None:
    if not path:
        d[name] = value
        return
    v: Any = d[name]
    for i in path[:-1]:
        v = v[i]
    v[path[-1]] = value


def _pick(rng: np.random.Generator, d: dict[str, Any], name: str) -> tuple[int, ...]:
    paths = _flat_paths(d[name])
    return paths[int(rng.integers(len(paths)))]


def _set_value(rng: np.random.Generator, d: dict[str, Any]) -> str:
    name = str(rng.choice(list(_PLAUSIBLE)))
    path = _pick(rng, d, name)
    old = _get(d, name, path)
    new = _draw_value(rng, name, old)
    _set(d, name, path, new)
    return f"{name}{list(path)} {old}->{new}"


def _swap_inside(rng: np.random.Generator, d: dict[str, Any]) -> str:
    name = str(rng.choice([n for n in _PLAUSIBLE if isinstance(d[n], list)]))
    p, q = _pick(rng, d, name), _pick(rng, d, name)
    a, b = _get(d, name, p), _get(d, name, q)
    _set(d, name, p, b)
    _set(d, name, q, a)
    return f"swap {name}{list(p)}<->{list(q)}"


def _swap_cards(rng: np.random.Generator, d: dict[str, Any]) -> str:
    """Exchange the contents of two card places (deck entry, face-up slot, reserved slot):
    the cards stay conserved, so many of these are accepted."""
    a, b = (str(x) for x in rng.choice(_CARD_PLACES, size=2))
    p, q = _pick(rng, d, a), _pick(rng, d, b)
    x, y = _get(d, a, p), _get(d, b, q)
    _set(d, a, p, y)
    _set(d, b, q, x)
    return f"swap cards {a}{list(p)}<->{b}{list(q)}"


def _move_token(rng: np.random.Generator, d: dict[str, Any]) -> str:
    """Move one token between the supply and a seat, or between seats (conserved)."""
    c = int(rng.integers(6))
    n = 4
    places = [("supply", (c,))] + [("tokens", (p, c)) for p in range(n)]
    (a, pa), (b, pb) = (places[int(i)] for i in rng.choice(len(places), size=2, replace=False))
    _set(d, a, pa, _get(d, a, pa) - 1)
    _set(d, b, pb, _get(d, b, pb) + 1)
    return f"move token {c} {a}{list(pa)}->{b}{list(pb)}"


def _move_card(rng: np.random.Generator, d: dict[str, Any]) -> str:
    """Give a card from a deck or the face-up row to a seat (bought), fixing nothing else."""
    cards = [c for row in d["faceup"] for c in row if c >= 0]
    cards += [c for lvl, row in enumerate(d["decks"]) for c in row[: d["deck_len"][lvl]]]
    if not cards:
        return "no card to move"
    cid = int(rng.choice(cards))
    seat = int(rng.integers(-1, 4))
    d["purchased_by"][cid] = seat
    return f"card {cid} bought by {seat}"


def _change_phase(rng: np.random.Generator, d: dict[str, Any]) -> str:
    old = (d["phase"], d["current"], d["end_reason"])
    d["phase"] = int(rng.integers(0, 5))
    if rng.random() < 0.5:
        d["current"] = -1 if d["phase"] == rules.PH_OVER else int(rng.integers(0, d["num_players"]))
    if rng.random() < 0.5:
        d["end_reason"] = int(rng.integers(1, 3)) if d["phase"] == rules.PH_OVER else 0
    return f"phase/current/end_reason {old}->{(d['phase'], d['current'], d['end_reason'])}"


def _start_payment(rng: np.random.Generator, d: dict[str, Any]) -> str:
    """Put the position in a payment phase for a face-up or reserved card, with payment
    fields that may or may not agree."""
    d["phase"] = rules.PH_PAY
    src = int(rng.integers(0, 15))
    d["pay_src"] = src
    cur = d["current"]
    if src < 12:
        card = d["faceup"][src // 4][src % 4]
    else:
        card = d["reserved"][cur][src - 12] if 0 <= cur < 4 else -1
    d["pay_card"] = card if rng.random() < 0.8 else int(rng.integers(-1, 90))
    d["pay_need"] = [int(x) for x in rng.integers(0, 4, size=5)]
    d["pay_gold"] = int(rng.integers(0, 3))
    return f"payment src {src} card {d['pay_card']} need {d['pay_need']} gold {d['pay_gold']}"


def _shift_turn(rng: np.random.Generator, d: dict[str, Any]) -> str:
    n = max(1, int(d["num_players"]))
    k = int(rng.choice([-n, n, 1, -1, 2 * n, 100 * n]))
    old = (d["turn"], d["current"])
    d["turn"] += k
    if rng.random() < 0.5 and d["current"] >= 0:
        d["current"] = (d["current"] + k) % n
    return f"turn/current {old}->{(d['turn'], d['current'])}"


def _malform(rng: np.random.Generator, d: dict[str, Any]) -> str:
    """A format fault: a missing field, a wrong shape, a non-integer value, a wrong
    version or format name."""
    name = str(rng.choice(list(d)))
    kind = int(rng.integers(7))
    if kind == 0:
        del d[name]
        return f"drop {name}"
    if kind == 1:
        d[name] = [d[name]] if not isinstance(d[name], list) else d[name][:-1]
        return f"reshape {name}"
    bad: list[Any] = [1.5, True, "7", None, {"a": 1}]
    value = bad[kind - 2]
    if isinstance(d[name], list) and name != "rng":
        path = _pick(rng, d, name)
        _set(d, name, path, value)
        return f"{name}{list(path)}={value!r}"
    d[name] = value
    return f"{name}={value!r}"


MUTATIONS: tuple[tuple[Callable[[np.random.Generator, dict[str, Any]], str], float], ...] = (
    (_set_value, 0.34),
    (_swap_inside, 0.16),
    (_swap_cards, 0.10),
    (_move_token, 0.08),
    (_move_card, 0.04),
    (_change_phase, 0.08),
    (_start_payment, 0.06),
    (_shift_turn, 0.08),
    (_malform, 0.06),
)


def mutate(rng: np.random.Generator, base: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """A deep copy of ``base`` with one to three random edits (see the module docstring),
    different from ``base``; returns it and a description of each edit."""
    weights = np.array([w for _, w in MUTATIONS])
    for _ in range(20):
        d = copy.deepcopy(base)
        steps = []
        for _ in range(int(rng.choice([1, 1, 1, 2, 3]))):
            fn = MUTATIONS[int(rng.choice(len(MUTATIONS), p=weights / weights.sum()))][0]
            try:
                steps.append(fn(rng, d))
            except (TypeError, KeyError, IndexError, ValueError):  # an earlier edit broke the dict
                steps.append(f"{fn.__name__} skipped")
        if d != base:
            return d, steps
    return d, steps


# --------------------------------------------------------------------------- judging


def judge(
    d: dict[str, Any], seed: int, max_decisions: int = MAX_DECISIONS
) -> tuple[str, str, bool]:
    """Load ``d`` through the gate and, if accepted, play it out (see the module
    docstring). Returns ``(outcome, detail, capped)`` with outcome one of
    :data:`OUTCOMES`."""
    try:
        st = classic.State.from_dict(d)
    except ValueError as e:
        return "refused", str(e), False
    except Exception as e:  # noqa: BLE001 - anything but ValueError is a gate failure
        return "corrupted", f"from_dict raised {type(e).__name__}: {e}", False
    rng = np.random.default_rng([seed, 0x9A3E])
    try:
        problems = check_position(st._a)
        if problems:
            return "corrupted", f"accepted but unsound: {problems[:3]}", False
        if not st.is_terminal:
            for seat in range(st.num_players):
                full = classic.determinize(st.observation(seat), int(rng.integers(2**62)))
                bad = check_invariants(full._a)
                if bad:
                    return "corrupted", f"determinized seat {seat} unsound: {bad[:3]}", False
        a = st._a
        mask = np.zeros(classic.NUM_ACTIONS, dtype=np.bool_)
        for k in range(max_decisions):
            if int(a[0]["phase"]) == rules.PH_OVER:
                break
            count = rules.legal_mask(a, mask)
            if count == 0:
                return "corrupted", f"decision {k}: a live game offers no legal decision", False
            choice = int(np.flatnonzero(mask)[int(rng.integers(count))])
            if rules.apply(a, choice) != 0:
                return "corrupted", f"decision {k}: legal decision {choice} refused", False
            problems = check_position(a)
            if problems:
                return "corrupted", f"after decision {k} ({choice}): {problems[:3]}", False
        else:
            return "accepted", "", True
        if not st.winners:
            return "corrupted", "a finished game without winners", False
    except Exception as e:  # noqa: BLE001 - any exception in play is a failure to report
        return "corrupted", f"{type(e).__name__} in play: {e}", False
    return "accepted", "", False


def rules_phase_name(phase: int) -> str:
    return PHASES[phase]


def refusal_key(message: str) -> str:
    """How a refusal is counted: ``"format"`` for a malformed dict (the format layer),
    else the rule id of the first problem named (``"C3"`` for ``"corrupt position:
    nobles[0]=12: a noble id ... (C3)"``)."""
    if not message.startswith("corrupt position: "):
        return "format"
    first = message.removeprefix("corrupt position: ").split("; ")[0]
    found = re.search(r"\((C\d+)", first) or re.search(r"(C\d+)\)", first)
    return found.group(1) if found else "other"


def pick_base(rng: np.random.Generator, pool: dict[int, list[dict[str, Any]]]) -> dict[str, Any]:
    """A base position: a phase by :data:`PHASE_WEIGHTS`, then one of its positions."""
    phases = list(PHASE_WEIGHTS)
    w = np.array([PHASE_WEIGHTS[ph] for ph in phases])
    ds = pool[phases[int(rng.choice(len(phases), p=w / w.sum()))]]
    return ds[int(rng.integers(len(ds)))]


def run(
    seed: int,
    start: int,
    count: int,
    pool: dict[int, list[dict[str, Any]]] | None = None,
    report: Callable[[int, str, str, bool, int], None] | None = None,
) -> Tally:
    """Mutate and judge inputs ``start .. start + count - 1`` of campaign ``seed``.

    Args:
        seed: the campaign seed (fixes the base positions and every input).
        start, count: which inputs.
        pool: the base positions of ``seed`` when already built.
        report: called after each input with ``(index, outcome, detail, capped, phase)``.
    """
    pool = pool if pool is not None else base_positions(seed)
    tally = Tally()
    for i in range(start, start + count):
        rng = np.random.default_rng([seed, i])
        base = pick_base(rng, pool)
        d, steps = mutate(rng, base)
        outcome, detail, capped = judge(d, int(rng.integers(2**62)))
        if outcome == "corrupted":
            detail = f"{detail} [mutation: {'; '.join(steps)}]"
        elif outcome == "refused":
            key = refusal_key(detail)
            tally.refused_by[key] = tally.refused_by.get(key, 0) + 1
        tally.add(outcome, detail, i, capped)
        key = f"{rules_phase_name(int(base['phase']))}:{outcome}"
        tally.by_phase[key] = tally.by_phase.get(key, 0) + 1
        if report is not None:
            report(i, outcome, detail, capped, int(base["phase"]))
    return tally


def boundscheck_probe() -> str | None:
    """Whether the compiled rules check bounds here: asks for the legal decisions of a
    noble choice whose row holds noble id 100 (bypassing the gate; the kernel only reads
    the noble table there), which a bounds-checked build refuses with IndexError. Returns
    that error's text, or None when the bad index went unnoticed."""
    a = classic.new_game(2, 0).array
    a[0]["nobles"][0] = 100
    a[0]["phase"] = rules.PH_NOBLE
    try:
        rules.legal_mask(a, np.zeros(classic.NUM_ACTIONS, dtype=np.bool_))
    except IndexError as e:
        return str(e) or "IndexError"
    return None


def main(argv: list[str] | None = None) -> int:
    """One chunk as a program: prints ``index outcome capped phase detail-json`` per input
    (flushed, so that a parent sees how far a crashed chunk got), then ``done``; lines
    starting with ``#`` are notes."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--count", type=int, required=True)
    p.add_argument(
        "--expect-boundscheck",
        action="store_true",
        help="first make sure the rules run bounds-checked (exit status 3 if not)",
    )
    args = p.parse_args(argv)
    if args.expect_boundscheck:
        probe = boundscheck_probe()
        if probe is None:
            print("NUMBA_BOUNDSCHECK is not in effect (a cached unchecked build?)", file=sys.stderr)
            return 3
        print(f"# bounds checked: {probe}", flush=True)

    def report(i: int, outcome: str, detail: str, capped: bool, phase: int) -> None:
        print(
            i,
            outcome,
            int(capped),
            phase,
            json.dumps(detail if outcome == "corrupted" else ""),
            flush=True,
        )

    run(args.seed, args.start, args.count, report=report)
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
