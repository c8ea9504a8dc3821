"""Mutation fuzzing of the Splendor Duel position gate, ``duel.State.from_dict`` (issue 14).

Usage::

    .venv/bin/python tools/fuzz_duel_positions.py --count 100000 --seed 1
    .venv/bin/python tools/fuzz_duel_positions.py --count 2000 --seed 7 --boundscheck-share 1

Positions reached in seeded play (every decision phase: main, reserve, payment, joker,
token, steal, royal, return tokens, game over) are mutated: one to three changes drawn
from values in and out of range, off-by-one, swaps of elements and of seats, fields copied
from another position, and changes that keep tokens and cards conserved (a token moved, a
card given to a seat with its points, bonuses and crowns). Each mutated position must be
either **refused** (``ValueError``) or **accepted** and then played to the end with random
legal decisions, ``check_invariants`` empty after every decision. Anything else is
**corrupted**: an accepted position after which an invariant breaks, a live game without a
legal decision, or any exception other than the refusal. The work runs in chunks, each in
its own process: a process that dies (an abort, a segmentation fault) counts as a **crash**
of the input it was on, and the chunk goes on after it.

``--boundscheck-share F`` runs that share of the chunks with ``NUMBA_BOUNDSCHECK=1`` (the
compiled rules raise ``IndexError`` on any out-of-bounds access, so such an access counts
as corrupted), compiled into a private numba cache so that the project's cache is left
as it is.

Prints one JSON object: inputs ``tried``, ``refused``, ``accepted``, ``corrupted``,
``crashes``, ``unfinished`` (accepted games still going after ``--max-decisions``, only
possible without a turn cap), the same counts for the bounds-checked share, the decisions
played, and up to ``--examples`` corrupted inputs with what broke. Exits 1 when anything
was corrupted or crashed. About 10 ms per input on one core.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import Any

import numpy as np

from splendor import duel
from splendor.duel import CARDS, rules
from splendor.duel.actions import ACTIONS, NUM_ACTIONS
from splendor.duel.state import STATE_DTYPE

BASE_GAMES = 24  # seeded games the base positions come from
BASE_TURN_CAP = 150  # their turn cap (D25): games, and accepted mutants, end
SAMPLE_RATE = 0.08  # share of a game's positions kept as bases (plus each phase's first)
MAX_DECISIONS = 4000  # per accepted mutant (only reached without a turn cap)
RARE_KINDS = frozenset(
    (
        "buy",
        "buy_choose",
        "pay_gold",
        "take_gold",
        "reserve_deck",
        "privilege",
        "replenish",
        "steal",
        "joker",
        "royal",
        "token",
    )
)
KIND_OF = tuple(a.kind for a in ACTIONS)
FIELDS = tuple(n for n in STATE_DTYPE.names if n != "rng")
SHAPES = {n: STATE_DTYPE[n].shape for n in FIELDS}
SEAT_FIELDS = tuple(n for n in FIELDS if SHAPES[n][:1] == (2,))
OUTCOMES = ("refused", "accepted", "corrupted", "crashes", "unfinished")


# --------------------------------------------------------------------------- base positions


def _choose(rnd: random.Random, mask: np.ndarray, biased: bool) -> int:
    """A random legal decision id; with ``biased``, the rarer kinds 7 times in 10."""
    legal = np.flatnonzero(mask)
    if biased and rnd.random() < 0.7:
        rare = [int(a) for a in legal if KIND_OF[a] in RARE_KINDS]
        if rare:
            return rnd.choice(rare)
    return int(legal[rnd.randrange(len(legal))])


def base_positions(seed: int, games: int = BASE_GAMES) -> list[dict[str, Any]]:
    """Positions (``to_dict`` form) of ``games`` seeded games with a turn cap, half of them
    steered toward the rarer decisions: a share of every game's positions, the first
    position of each phase in each game, and each final position."""
    rnd = random.Random(seed)
    out: list[dict[str, Any]] = []
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    for g in range(games):
        st = duel.new_game(2, rnd.randrange(2**62), turn_cap=BASE_TURN_CAP)
        biased = g % 2 == 1
        seen: set[str] = set()
        while True:
            if st.phase not in seen or rnd.random() < SAMPLE_RATE:
                seen.add(st.phase)
                out.append(st.to_dict())
            if st.is_terminal:
                break
            rules.legal_mask(st._a, mask)
            st.apply(_choose(rnd, mask, biased))
    return out


# --------------------------------------------------------------------------- mutations


def _get(d: dict[str, Any], name: str, index: tuple[int, ...]) -> int:
    v = d[name]
    for i in index:
        v = v[i]
    return int(v)


def _put(d: dict[str, Any], name: str, index: tuple[int, ...], value: int) -> None:
    if not index:
        d[name] = value
        return
    v = d[name]
    for i in index[:-1]:
        v = v[i]
    v[index[-1]] = value


def _random_index(rnd: random.Random, name: str) -> tuple[int, ...]:
    return tuple(rnd.randrange(n) for n in SHAPES[name])


def _value(rnd: random.Random, current: int) -> int:
    """A replacement value: small in-range-looking numbers, off-by-one, boundaries of
    the int8/int16/int32 fields, or far out."""
    r = rnd.random()
    if r < 0.45:
        return rnd.randint(-2, 8)
    if r < 0.7:
        return current + rnd.choice((-1, 1))
    if r < 0.8:
        return rnd.randint(-2, 70)
    if r < 0.9:
        return rnd.choice((-128, 127, -129, 128, 255, -32768, 32767, 2**31 - 1, -(2**31)))
    return rnd.choice((2**31, -(2**31) - 1, 2**40, 10**6, -(10**6)))


def _m_set(d: dict[str, Any], rnd: random.Random, pool: list[dict[str, Any]]) -> str:
    """A random element of a random field set to a value in or out of its range."""
    name = rnd.choice(FIELDS)
    index = _random_index(rnd, name)
    old = _get(d, name, index)
    new = _value(rnd, old)
    _put(d, name, index, new)
    return f"{name}{list(index)}: {old} -> {new}"


def _m_swap_elements(d: dict[str, Any], rnd: random.Random, pool: list[dict[str, Any]]) -> str:
    """Two elements of one field swapped."""
    name = rnd.choice([n for n in FIELDS if SHAPES[n]])
    i, j = _random_index(rnd, name), _random_index(rnd, name)
    a, b = _get(d, name, i), _get(d, name, j)
    _put(d, name, i, b)
    _put(d, name, j, a)
    return f"{name}: swap {list(i)} and {list(j)}"


def _m_swap_seats(d: dict[str, Any], rnd: random.Random, pool: list[dict[str, Any]]) -> str:
    """Seat 0's and seat 1's rows swapped in one to three per-seat fields."""
    names = rnd.sample(SEAT_FIELDS, rnd.randint(1, 3))
    for name in names:
        d[name] = [d[name][1], d[name][0]]
    return f"swap seats in {names}"


def _m_transplant(d: dict[str, Any], rnd: random.Random, pool: list[dict[str, Any]]) -> str:
    """One to four fields copied from another base position."""
    other = rnd.choice(pool)
    names = rnd.sample(FIELDS, rnd.randint(1, 4))
    for name in names:
        d[name] = copy.deepcopy(other[name])
    return f"copied {names} from another position"


def _m_phase(d: dict[str, Any], rnd: random.Random, pool: list[dict[str, Any]]) -> str:
    """A random phase, often with a matching seat, pending card and pending bits."""
    phase = rnd.randrange(9)
    d["phase"] = phase
    if rnd.random() < 0.7:
        d["current"] = -1 if phase == rules.PH_OVER else rnd.randrange(2)
    if rnd.random() < 0.5:
        owned = [c for c in range(len(CARDS)) if d["card_owner"][c] >= 0]
        d["pend_card"] = rnd.choice([-1, *owned])
    if rnd.random() < 0.5:
        d["pend"] = rnd.randrange(8)
    return f"phase -> {phase}, current {d['current']}, pend {d['pend']}, pend_card {d['pend_card']}"


def _m_flags(d: dict[str, Any], rnd: random.Random, pool: list[dict[str, Any]]) -> str:
    """A flag of the turn (again, replenished, a pending bit, the end) changed."""
    name = rnd.choice(("again", "replenished", "pend", "winner", "end_reason", "observer"))
    old = int(d[name])
    d[name] = old ^ (1 << rnd.randrange(3)) if name == "pend" else rnd.randint(-1, 4)
    return f"{name}: {old} -> {d[name]}"


def _m_turn(d: dict[str, Any], rnd: random.Random, pool: list[dict[str, Any]]) -> str:
    """The turn or the cap set around the cap, to 0, -1 or far out."""
    cap, turn = int(d["turn_cap"]), int(d["turn"])
    name = rnd.choice(("turn", "turn_cap"))
    new = rnd.choice((-1, 0, 1, cap - 1, cap, cap + 1, turn - 1, turn + 1, 2**31 - 1, 10**6))
    d[name] = new
    return f"{name} -> {new}"


def _clamp(n: Any, hi: int) -> int:
    """``n`` as a count of list elements, 0..hi (a mutated length may be anything)."""
    return min(max(int(n), 0), hi)


def _card_id(v: Any) -> int | None:
    """``v`` when it is a card id, else None (a mutated field may hold anything)."""
    return int(v) if 0 <= v < len(CARDS) else None


def _m_move_token(d: dict[str, Any], rnd: random.Random, pool: list[dict[str, Any]]) -> str:
    """Move one token between the board, the bag and the seats (D1 stays true)."""
    places: list[tuple[str, tuple[int, ...]]] = []
    for cell, v in enumerate(d["board"]):
        if 0 <= v <= 6:
            places.append(("board", (cell,)))
    for c, n in enumerate(d["bag"]):
        if n > 0:
            places.append(("bag", (c,)))
    for p in range(2):
        for c, n in enumerate(d["tokens"][p]):
            if n > 0:
                places.append(("tokens", (p, c)))
    if not places:
        return "no token to move"
    name, index = rnd.choice(places)
    if name == "board":
        color = d["board"][index[0]]
        d["board"][index[0]] = -1
    else:
        color = index[-1]
        _put(d, name, index, _get(d, name, index) - 1)
    empty = [i for i, v in enumerate(d["board"]) if v < 0]
    to = rnd.choice(("board", "bag", "tokens0", "tokens1"))
    if to == "board" and empty:
        d["board"][rnd.choice(empty)] = color
    elif to in ("board", "bag"):
        to = "bag"
        d["bag"][color] += 1
    else:
        d["tokens"][int(to[-1])][color] += 1
    return f"moved a {'WUGRKP*'[color]} token from {name}{list(index)} to {to}"


def _m_move_card(d: dict[str, Any], rnd: random.Random, pool: list[dict[str, Any]]) -> str:
    """Swap two cards between decks, pyramid slots and reserves (each stays in one place)."""
    spots: list[tuple[str, tuple[int, ...]]] = []
    for lvl in range(3):
        n = _clamp(d["deck_len"][lvl], len(d["decks"][lvl]))
        spots += [("decks", (lvl, i)) for i in range(n)]
    spots += [("pyramid", (k,)) for k in range(12) if d["pyramid"][k] >= 0]
    for p in range(2):
        spots += [("reserved", (p, k)) for k in range(_clamp(d["num_reserved"][p], 3))]
    if len(spots) < 2:
        return "no cards to swap"
    (n1, i1), (n2, i2) = rnd.sample(spots, 2)
    a, b = _get(d, n1, i1), _get(d, n2, i2)
    _put(d, n1, i1, b)
    _put(d, n2, i2, a)
    return f"swapped card {a} at {n1}{list(i1)} with card {b} at {n2}{list(i2)}"


def _m_give_card(d: dict[str, Any], rnd: random.Random, pool: list[dict[str, Any]]) -> str:
    """Give a card from a deck or the pyramid to a seat as bought, with its points,
    crowns, bonuses and colour points (a position built by hand, as the rule tests do)."""
    cands = []
    for lvl in range(3):
        n = _clamp(d["deck_len"][lvl], len(d["decks"][lvl]))
        cands += [("decks", lvl, i) for i in range(n)]
    cands += [("pyramid", k, 0) for k in range(12) if d["pyramid"][k] >= 0]
    if not cands:
        return "no card to give"
    where, a, b = rnd.choice(cands)
    cid = _card_id(d["decks"][a][b] if where == "decks" else d["pyramid"][a])
    if cid is None:
        return f"no card at {where}[{a}]: left as it is"
    if where == "decks":
        row = d["decks"][a]
        n = _clamp(d["deck_len"][a], len(row))
        row[b : n - 1] = row[b + 1 : n]
        row[n - 1] = -1
        d["deck_len"][a] = n - 1
    else:
        lvl = 0 if a < 5 else (1 if a < 9 else 2)
        n = _clamp(d["deck_len"][lvl], len(d["decks"][lvl]))
        if n:
            d["pyramid"][a] = d["decks"][lvl][n - 1]
            d["decks"][lvl][n - 1] = -1
            d["deck_len"][lvl] = n - 1
        else:
            d["pyramid"][a] = -1
    card = CARDS[cid]
    seat = rnd.randrange(2)
    color = rnd.randrange(5) if card.is_joker else card.color
    d["card_owner"][cid] = seat
    d["card_color"][cid] = color
    d["points"][seat] += card.points
    d["crowns"][seat] += card.crowns
    if color >= 0:
        d["bonuses"][seat][color] += card.bonus_count
        d["color_points"][seat][color] += card.points
    return f"gave card {cid} to seat {seat} (colour {color})"


MUTATIONS = (
    (_m_set, 5),
    (_m_swap_elements, 2),
    (_m_swap_seats, 1),
    (_m_transplant, 1),
    (_m_phase, 2),
    (_m_flags, 3),
    (_m_turn, 1),
    (_m_move_token, 3),
    (_m_move_card, 2),
    (_m_give_card, 3),
)


def mutate(
    base: dict[str, Any], pool: list[dict[str, Any]], rnd: random.Random
) -> tuple[dict[str, Any], list[str]]:
    """A copy of ``base`` with one to three random mutations; returns it and what was done."""
    d = copy.deepcopy(base)
    done = []
    for _ in range(rnd.choice((1, 1, 2, 3))):
        op = rnd.choices([m for m, _ in MUTATIONS], weights=[w for _, w in MUTATIONS])[0]
        done.append(op(d, rnd, pool))
    return d, done


# --------------------------------------------------------------------------- judging


def judge(
    d: dict[str, Any], rnd: random.Random, max_decisions: int = MAX_DECISIONS
) -> tuple[str, str, int]:
    """Load ``d``; when accepted, play random legal decisions to the end, checking the
    invariants after each. Returns (outcome, detail, decisions played); outcome is
    ``refused``, ``accepted``, ``corrupted`` or ``unfinished``."""
    try:
        st = duel.State.from_dict(d)
    except ValueError as e:
        return "refused", str(e), 0
    except Exception as e:  # anything but a clean refusal is a defect
        return "corrupted", f"from_dict raised {type(e).__name__}: {e}", 0
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    biased = rnd.random() < 0.5
    n = 0
    try:
        while n < max_decisions:
            if st.is_terminal:
                if rules.legal_mask(st._a, mask) != 0:
                    return "corrupted", "a finished game offers decisions", n
                return "accepted", "", n
            if rules.legal_mask(st._a, mask) == 0:
                return "corrupted", f"no legal decision in phase {st.phase}", n
            a = _choose(rnd, mask, biased)
            before = st._a.tobytes()
            st.apply(a)
            n += 1
            problems = duel.check_invariants(st._a)
            if problems:
                return "corrupted", f"after {n} decisions ({ACTIONS[a]}): {problems[:3]}", n
            if st._a.tobytes() == before:
                return "corrupted", f"decision {ACTIONS[a]} changed nothing", n
    except Exception as e:
        return "corrupted", f"after {n} decisions: {type(e).__name__}: {e}", n
    return "unfinished", f"still going after {n} decisions (turn cap {st.turn_cap})", n


def run_inputs(
    seed: int, start: int, stop: int, pool: list[dict[str, Any]] | None = None
) -> Iterator[tuple[int, str, str, int, list[str]]]:
    """Yield ``(index, outcome, detail, decisions, mutations)`` for inputs ``start`` ..
    ``stop - 1`` of the campaign ``seed`` (each input is reproducible on its own)."""
    pool = pool if pool is not None else base_positions(seed)
    for i in range(start, stop):
        rnd = random.Random(f"{seed}:{i}")
        d, done = mutate(rnd.choice(pool), pool, rnd)
        outcome, detail, n = judge(d, rnd)
        yield i, outcome, detail, n, done


# --------------------------------------------------------------------------- campaign


def bounds_checked() -> bool:
    """Whether the compiled rules in this process check their array bounds: an index
    past the card tables (a resolving card id of 100, bypassing the gate) raises
    ``IndexError`` only under ``NUMBA_BOUNDSCHECK=1``."""
    arr = duel.new_game(2, 0)._a.copy()
    arr[0]["phase"] = rules.PH_TOKEN
    arr[0]["pend_card"] = 100
    try:
        rules.is_legal(arr, ACTIONS_TOKEN)
    except IndexError:
        return True
    return False


ACTIONS_TOKEN = next(a.id for a in ACTIONS if a.kind == "token")


def _worker(seed: int, start: int, stop: int, abort_at: int) -> None:
    """Run inputs and print one JSON line per input (flushed, so a crash loses nothing).
    Under ``NUMBA_BOUNDSCHECK=1`` first make sure bounds are checked (exit status 3 if
    not). ``abort_at`` (tests of the crash accounting) aborts the process on that input."""
    if os.environ.get("NUMBA_BOUNDSCHECK") == "1" and not bounds_checked():
        print("NUMBA_BOUNDSCHECK=1 but the compiled rules do not check bounds", file=sys.stderr)
        sys.exit(3)
    for i, outcome, detail, n, done in run_inputs(seed, start, stop):
        if i == abort_at:
            os.abort()
        line = {"i": i, "o": outcome, "n": n}
        if outcome in ("corrupted", "unfinished"):
            line["detail"] = detail
            line["mutations"] = done
        print(json.dumps(line), flush=True)


def _run_chunk(
    seed: int,
    start: int,
    stop: int,
    env: dict[str, str],
    totals: dict[str, Any],
    key: str,
    abort_at: int = -1,
) -> None:
    """Run inputs ``start .. stop - 1`` in child processes, restarting after a crash;
    add the outcomes to ``totals["all"]`` and ``totals[key]``. ``abort_at`` makes the
    child abort on that input (to test the crash accounting)."""
    while start < stop:
        cmd = [
            sys.executable,
            __file__,
            "--worker",
            "--seed",
            str(seed),
            "--start",
            str(start),
            "--stop",
            str(stop),
            "--abort-at",
            str(abort_at),
        ]
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
        last = start - 1
        for raw in proc.stdout.splitlines():
            try:
                line = json.loads(raw)
            except json.JSONDecodeError:
                continue
            last = line["i"]
            for k in ("all", key):
                totals[k]["tried"] += 1
                totals[k][line["o"]] += 1
                totals[k]["decisions"] += line["n"]
            if line["o"] == "corrupted" and len(totals["examples"]) < totals["max_examples"]:
                totals["examples"].append(line)
        if proc.returncode == 0 and last == stop - 1:
            return
        if proc.returncode == 3:
            raise RuntimeError(proc.stderr.strip() or "bounds checking is not on")
        # the child died on input last + 1 (or before its first line)
        crashed = last + 1
        for k in ("all", key):
            totals[k]["tried"] += 1
            totals[k]["crashes"] += 1
        if len(totals["examples"]) < totals["max_examples"]:
            totals["examples"].append(
                {
                    "i": crashed,
                    "o": "crash",
                    "returncode": proc.returncode,
                    "stderr": proc.stderr[-800:],
                }
            )
        start = crashed + 1


def campaign(
    count: int, seed: int, chunk: int, boundscheck_share: float, max_examples: int
) -> dict[str, Any]:
    """Run ``count`` inputs in chunks of ``chunk`` (each in child processes); a share of the
    chunks with ``NUMBA_BOUNDSCHECK=1``. Returns the totals."""
    zero = {k: 0 for k in ("tried", *OUTCOMES, "decisions")}
    totals: dict[str, Any] = {
        "all": dict(zero),
        "plain": dict(zero),
        "boundscheck": dict(zero),
        "examples": [],
        "max_examples": max_examples,
    }
    chunks = [(s, min(s + chunk, count)) for s in range(0, count, chunk)]
    n_checked = round(len(chunks) * boundscheck_share)
    # spread the bounds-checked chunks evenly over the campaign
    checked = {round(k * len(chunks) / n_checked) for k in range(n_checked)} if n_checked else set()
    t0 = time.time()
    with tempfile.TemporaryDirectory(prefix="duel-fuzz-numba-") as cache:
        for k, (a, b) in enumerate(chunks):
            env = dict(os.environ)
            key = "plain"
            if k in checked:
                env.update(NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=cache)
                key = "boundscheck"
            _run_chunk(seed, a, b, env, totals, key)
            done = totals["all"]
            print(
                f"[{time.time() - t0:7.0f} s] {done['tried']}/{count}: refused {done['refused']}, "
                f"accepted {done['accepted']}, corrupted {done['corrupted']}, "
                f"crashes {done['crashes']}, unfinished {done['unfinished']}",
                file=sys.stderr,
                flush=True,
            )
    totals.pop("max_examples")
    totals["seconds"] = round(time.time() - t0, 1)
    return totals


def main(argv: list[str] | None = None) -> int:
    """Command line entry; see the module docstring."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=10000, help="mutated positions to try")
    ap.add_argument("--seed", type=int, default=1, help="campaign seed")
    ap.add_argument("--chunk", type=int, default=2000, help="inputs per child process")
    ap.add_argument(
        "--boundscheck-share",
        type=float,
        default=0.05,
        help="share of chunks run with NUMBA_BOUNDSCHECK=1 (0..1)",
    )
    ap.add_argument("--examples", type=int, default=20, help="corrupted inputs to show")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--stop", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--abort-at", type=int, default=-1, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        _worker(args.seed, args.start, args.stop, args.abort_at)
        return 0
    if args.count < 1 or args.chunk < 1 or not 0 <= args.boundscheck_share <= 1:
        ap.error("--count and --chunk must be positive, --boundscheck-share within 0..1")
    totals = campaign(args.count, args.seed, args.chunk, args.boundscheck_share, args.examples)
    totals["command"] = " ".join(
        [
            "tools/fuzz_duel_positions.py",
            "--count",
            str(args.count),
            "--seed",
            str(args.seed),
            "--chunk",
            str(args.chunk),
            "--boundscheck-share",
            str(args.boundscheck_share),
        ]
    )
    print(json.dumps(totals, indent=1))
    bad = totals["all"]["corrupted"] + totals["all"]["crashes"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
