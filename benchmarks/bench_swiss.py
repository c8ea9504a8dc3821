"""Pairing one Swiss round of 1,000 players (issue 32's figure), in milliseconds of CPU
time: the median of several runs of :func:`splendor.server.swiss.pair_round` after a few
rounds of simulated results (random ratings; the stronger player wins more often).

    .venv/bin/python benchmarks/bench_swiss.py [--players 1000] [--rounds 5] [--runs 9]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from splendor.server.swiss import DRAW, LOSS, WIN, Entrant, Played, pair_round


def simulate(players: int, rounds: int, seed: int) -> tuple[list[Entrant], list[Played]]:
    """``players`` entrants and ``rounds`` rounds paired and played (Elo-like odds)."""
    rng = random.Random(seed)
    entrants = [Entrant(f"p{i}", rng.gauss(1500, 250)) for i in range(players)]
    rating = {e.id: e.rating for e in entrants}
    history: list[Played] = []
    for r in range(1, rounds + 1):
        pairing = pair_round(entrants, history)
        for a, b in pairing.pairs:
            expected = 1 / (1 + 10 ** ((rating[b] - rating[a]) / 400))
            x = rng.random()
            result = DRAW if abs(x - expected) < 0.05 else WIN if x < expected else LOSS
            history.append(Played(r, a, b, result))
        if pairing.bye is not None:
            history.append(Played(r, pairing.bye, None))
    return entrants, history


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5, help="rounds played before")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    entrants, history = simulate(args.players, args.rounds, args.seed)
    times = []
    for _ in range(args.runs):
        start = time.process_time()
        pairing = pair_round(entrants, history)
        times.append((time.process_time() - start) * 1000)
    print(
        f"pairing round {args.rounds + 1} of {args.players} players: "
        f"median {statistics.median(times):.1f} ms CPU (min {min(times):.1f}, "
        f"max {max(times):.1f}, {args.runs} runs); {len(pairing.pairs)} games, "
        f"bye {pairing.bye is not None}, repeats {len(pairing.repeats)}"
    )


if __name__ == "__main__":
    main()
