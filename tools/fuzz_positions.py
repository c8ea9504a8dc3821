"""Run the position-mutation campaign of issue 14 and print its figures.

Every input is a position reached in seeded play, mutated, then loaded through the game's
``State.from_dict`` gate; an accepted one is played to the end with the position check
after every decision (the harness: ``tests/<game>/position_mutations.py``). The inputs
are split into chunks, each run in its own process, so that a process crash (an abort, a
segmentation fault, a hang) is counted and the campaign goes on after the input that
caused it. A share of the chunks runs under ``NUMBA_BOUNDSCHECK=1``, with its own numba
cache directory (numba would otherwise load the unchecked machine code cached on disk
and check nothing).

Figures per target (all inputs, and the bounds-checked share): tried, refused, accepted,
corrupted (an accepted position that broke an invariant, offered no decision, or raised
anything, and a gate that raised anything but ``ValueError``; must be 0), crashes (the
process died or hung on an input; must be 0), capped (accepted positions still playing at
the decision cap; not a failure).

Usage::

    .venv/bin/python tools/fuzz_positions.py --game classic --count 100000 --seed 1
    .venv/bin/python tools/fuzz_positions.py --count 2000 --boundscheck-share 0.1 --jobs 2

A harness module, for any game, is run as ``python -m tests.<game>.position_mutations
--seed S --start I --count K [--expect-boundscheck]`` and prints, per input and flushed,
one line ``I OUTCOME CAPPED PHASE DETAIL`` (OUTCOME one of refused, accepted, corrupted;
CAPPED 0 or 1; PHASE the base position's phase number; DETAIL a JSON string), then
``done``; lines starting with ``#`` are notes. With ``--expect-boundscheck`` it first
proves that its compiled rules check bounds, or exits with status 3. Exit status: 0
when nothing was corrupted and nothing crashed, 1 otherwise, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HARNESS = {
    "classic": "tests.classic.position_mutations",
}
"""The harness module of each game run here; Duel's campaign is tools/fuzz_duel_positions.py,
which ``--game duel`` runs with the same count, seed, chunk and bounds-checked share."""
OUTCOMES = ("refused", "accepted", "corrupted")


@dataclass
class Figures:
    """Counts for one target (all inputs, or the bounds-checked share)."""

    tried: int = 0
    refused: int = 0
    accepted: int = 0
    corrupted: int = 0
    crashes: int = 0
    capped: int = 0
    examples: list[str] = field(default_factory=list)

    def merge(self, other: Figures) -> None:
        for name in ("tried", "refused", "accepted", "corrupted", "crashes", "capped"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.examples += other.examples[: max(0, 20 - len(self.examples))]

    def as_dict(self) -> dict[str, object]:
        return {
            "tried": self.tried,
            "refused": self.refused,
            "accepted": self.accepted,
            "corrupted": self.corrupted,
            "crashes": self.crashes,
            "capped": self.capped,
            "examples": self.examples,
        }


def _reader(stream, lines: queue.Queue[str | None]) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


def run_chunk(
    game: str,
    seed: int,
    start: int,
    count: int,
    boundscheck: bool,
    cache_dir: str | None,
    hang_s: float,
) -> Figures:
    """Run inputs ``start .. start + count - 1`` in child processes: when a child dies or
    stays silent for ``hang_s`` seconds, the input after the last one it reported is
    counted as a crash and a new child goes on after it."""
    figures = Figures()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    if boundscheck:
        env["NUMBA_BOUNDSCHECK"] = "1"
        if cache_dir:
            env["NUMBA_CACHE_DIR"] = cache_dir
    nxt, end = start, start + count
    while nxt < end:
        cmd = [
            sys.executable,
            "-m",
            HARNESS[game],
            "--seed",
            str(seed),
            "--start",
            str(nxt),
            "--count",
            str(end - nxt),
        ] + (["--expect-boundscheck"] if boundscheck else [])
        proc = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=_reader, args=(proc.stdout, lines), daemon=True).start()
        err: list[str] = []
        threading.Thread(target=err.extend, args=(proc.stderr,), daemon=True).start()
        finished = hung = False
        first = True
        while True:
            try:  # the first line waits for imports and compilation too
                line = lines.get(timeout=hang_s * (10 if first else 1))
            except queue.Empty:
                hung = True
                proc.kill()
                break
            first = False
            if line is None:
                break
            if line.strip() == "done":
                finished = True
                continue
            if line.startswith("#"):
                continue
            index, outcome, capped, _phase, detail = line.rstrip("\n").split(" ", 4)
            nxt = int(index) + 1
            figures.tried += 1
            setattr(figures, outcome, getattr(figures, outcome) + 1)
            figures.capped += int(capped)
            if outcome == "corrupted" and len(figures.examples) < 20:
                figures.examples.append(f"seed {seed} input {index}: {json.loads(detail)}")
        proc.wait()
        if finished and proc.returncode == 0:
            break
        if proc.returncode == 3:
            raise SystemExit(
                f"bounds checking is not in effect in the child: {''.join(err).strip()}"
            )
        figures.tried += 1
        figures.crashes += 1
        why = "hung" if hung else f"exit status {proc.returncode}"
        tail = "".join(err)[-300:].strip().replace("\n", " | ")
        figures.examples.append(f"seed {seed} input {nxt}: process {why}: {tail}")
        nxt += 1
    return figures


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", choices=["classic", "duel"], default="classic")
    p.add_argument("--count", type=int, default=100_000, help="inputs to try (default 100000)")
    p.add_argument("--seed", type=int, default=1, help="campaign seed (default 1)")
    p.add_argument("--chunk", type=int, default=2500, help="inputs per child process")
    p.add_argument("--jobs", type=int, default=1, help="child processes at a time")
    p.add_argument(
        "--boundscheck-share",
        type=float,
        default=0.05,
        help="fraction of chunks run with NUMBA_BOUNDSCHECK=1 (default 0.05)",
    )
    p.add_argument(
        "--hang",
        type=float,
        default=300.0,
        help="seconds without progress before a child counts as hung",
    )
    p.add_argument("--json", action="store_true", help="print the figures as JSON only")
    args = p.parse_args(argv)
    if args.count < 1 or args.chunk < 1 or args.jobs < 1 or not 0 <= args.boundscheck_share <= 1:
        p.error("--count, --chunk and --jobs must be positive, --boundscheck-share in 0..1")
    if args.game == "duel":  # Duel's own campaign (its own mutations and protocol)
        duel = [
            sys.executable,
            str(ROOT / "tools" / "fuzz_duel_positions.py"),
            "--count",
            str(args.count),
            "--seed",
            str(args.seed),
            "--chunk",
            str(args.chunk),
            "--boundscheck-share",
            str(args.boundscheck_share),
        ]
        return subprocess.call(duel)

    chunks = [(s, min(args.chunk, args.count - s)) for s in range(0, args.count, args.chunk)]
    every = round(1 / args.boundscheck_share) if args.boundscheck_share > 0 else 0
    checked = {k for k in range(len(chunks)) if every and k % every == every - 1}
    if args.boundscheck_share > 0 and not checked:
        checked = {len(chunks) - 1}
    total, bounds = Figures(), Figures()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="fuzz-positions-numba-") as cache_dir:
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futures = [
                (
                    k,
                    pool.submit(
                        run_chunk, args.game, args.seed, s, c, k in checked, cache_dir, args.hang
                    ),
                )
                for k, (s, c) in enumerate(chunks)
            ]
            for k, fut in futures:
                f = fut.result()
                total.merge(f)
                if k in checked:
                    bounds.merge(f)
                if not args.json:
                    print(
                        f"chunk {k + 1}/{len(chunks)}{' (boundscheck)' if k in checked else ''}: "
                        f"tried {f.tried} refused {f.refused} accepted {f.accepted} "
                        f"corrupted {f.corrupted} crashes {f.crashes}",
                        file=sys.stderr,
                        flush=True,
                    )
    elapsed = time.perf_counter() - started
    report = {
        "game": args.game,
        "seed": args.seed,
        "count": args.count,
        "seconds": round(elapsed, 1),
        "all": total.as_dict(),
        "boundscheck": bounds.as_dict(),
    }
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        for name, f in (("all inputs", total), ("NUMBA_BOUNDSCHECK=1 share", bounds)):
            print(
                f"{args.game} {name}: tried {f.tried}, refused {f.refused}, accepted "
                f"{f.accepted} (capped {f.capped}), corrupted {f.corrupted}, crashes {f.crashes}"
            )
        for line in total.examples:
            print("  " + line)
        print(f"{elapsed:.0f} s")
    return 0 if total.corrupted == 0 and total.crashes == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
