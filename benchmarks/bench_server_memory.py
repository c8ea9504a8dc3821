"""Memory and start-up of the game service over many games (issue 14, item 5).

Two measurements, each on a fresh SQLite file, in this process (the service with its
database writer thread, as the server runs it; no HTTP: the service is what holds games):

- ``finished`` (default): play ``--games`` games to their end through the service
  (:meth:`GameService.create`, then :meth:`GameService.act_as` with random legal actions
  for every seat, ``--concurrency`` games at a time) and report the process's resident
  memory (RSS, from ``/proc/self/status``) and the number of games in memory after every
  checkpoint. With eviction (the default) finished games leave memory ``--evict-finished``
  seconds after their end, so RSS stays flat; ``--no-evict`` keeps every game, as before
  the fix (RSS grows by the size of a game each game).
- ``startup``: store ``--games`` unfinished games with ``--moves`` moves each (people's
  games, a person to move), then time :meth:`GameService.start` and measure RSS after it.
  Before the fix start-up replayed every unfinished game before answering.

Usage::

    python benchmarks/bench_server_memory.py --games 10000                       # eviction on
    python benchmarks/bench_server_memory.py --games 10000 --no-evict            # as before the fix
    python benchmarks/bench_server_memory.py --mode startup --games 20000

Prints one JSON object. Numbers depend on the machine; docs/web.md and docs/server.md quote runs.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from splendor.game import get_game
from splendor.server.bots import BotPools
from splendor.server.hub import Hub
from splendor.server.service import GameService, Lifecycle
from splendor.server.storage import MoveToStore, SeatInfo, Storage, hash_token


def rss_mib() -> float:
    """Resident memory of this process in MiB (Linux ``/proc/self/status``)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise SystemExit("no VmRSS in /proc/self/status: this benchmark needs Linux")


PEOPLE = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]


async def play_one(
    service: GameService, game: str, options: dict[str, Any], rng: random.Random
) -> int:
    """Create a game between two people and play it to its end with random legal
    actions; returns its number of moves."""
    made = await service.create(game, PEOPLE, options)
    live = made[0]
    while not live.finished:
        action = rng.choice(live.state.legal_actions())
        await service.act_as(live, live.state.current_player, int(action.id), len(live.moves))
    return len(live.moves)


async def finished(args: argparse.Namespace, db: Path) -> dict[str, Any]:
    storage = Storage(f"sqlite:///{db}")
    never = 10.0**9
    lifecycle = Lifecycle(
        evict_finished=never if args.no_evict else args.evict_finished,
        evict_idle=never if args.no_evict else 600.0,
        sweep_every=args.evict_finished / 2 if not args.no_evict else never,
    )
    pool = ThreadPoolExecutor(1)
    service = GameService(storage, Hub(), BotPools(pool), lifecycle)
    await service.start()
    options = _options(args)
    rng = random.Random(args.seed)
    checkpoints = sorted({min(c, args.games) for c in args.checkpoints} | {args.games})
    gc.collect()
    report: dict[str, Any] = {"rss_mib_at_start": round(rss_mib(), 1), "checkpoints": []}
    done = moves = 0
    t0 = time.perf_counter()
    queue = iter(range(args.games))

    async def worker() -> None:
        nonlocal done, moves
        for _ in queue:
            n = await play_one(service, args.game, options, random.Random(rng.random()))
            moves += n
            done += 1

    try:
        for target in checkpoints:
            queue = iter(range(target - done))
            await asyncio.gather(*(worker() for _ in range(min(args.concurrency, target - done))))
            if not args.no_evict:
                await asyncio.sleep(args.evict_finished)
                await service.maintain()
            gc.collect()
            report["checkpoints"].append(
                {
                    "finished_games": done,
                    "games_in_memory": service.loaded,
                    "rss_mib": round(rss_mib(), 1),
                    "seconds": round(time.perf_counter() - t0, 1),
                }
            )
            print(json.dumps(report["checkpoints"][-1]), file=sys.stderr)
    finally:
        await service.close()
        pool.shutdown()
        storage.close()
    first, last = report["checkpoints"][0], report["checkpoints"][-1]
    games_between = last["finished_games"] - first["finished_games"]
    report.update(
        mode="finished",
        game=args.game,
        options=options,
        eviction=not args.no_evict,
        evict_finished_s=None if args.no_evict else args.evict_finished,
        moves=moves,
        growth_kib_per_game=round((last["rss_mib"] - first["rss_mib"]) * 1024 / games_between, 2)
        if games_between
        else None,
    )
    return report


def _options(args: argparse.Namespace) -> dict[str, Any]:
    """The game's turn cap (D25) when it has one and ``--turn-cap`` is set, else none."""
    turn = get_game(args.game).turn_option
    return {turn: args.turn_cap} if turn and args.turn_cap else {}


async def startup(args: argparse.Namespace, db: Path) -> dict[str, Any]:
    storage = Storage(f"sqlite:///{db}")
    storage.migrate()
    module = get_game(args.game)
    options = _options(args)
    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    batch: list[MoveToStore] = []
    for k in range(args.games):
        gid = f"g{k:06d}"
        seed = rng.randrange(2**63)
        state = module.new_game(2, seed, **options)
        seats = [SeatInfo(i, "human", f"P{i}", None, hash_token(f"{gid}-{i}")) for i in range(2)]
        storage.create_game(gid, module.name, 2, seed, options, seats, state.current_player)
        for idx in range(args.moves):
            if state.is_terminal:
                break
            seat = state.current_player
            action = rng.choice(state.legal_actions())
            state.apply(action)
            if state.is_terminal:  # keep every game unfinished
                break
            batch.append(MoveToStore(gid, idx, seat, str(action), None, state.current_player))
        if len(batch) >= 5000:
            storage.append_moves(batch)
            batch = []
    if batch:
        storage.append_moves(batch)
    stored_s = time.perf_counter() - t0
    storage.close()
    gc.collect()
    before = rss_mib()
    storage = Storage(f"sqlite:///{db}")
    pool = ThreadPoolExecutor(1)
    service = GameService(storage, Hub(), BotPools(pool), Lifecycle())
    t0 = time.perf_counter()
    await service.start()
    start_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    await service.get("g000000")  # the first access to a game loads it
    first_get_ms = (time.perf_counter() - t1) * 1000
    gc.collect()
    after = rss_mib()
    await service.close()
    pool.shutdown()
    storage.close()
    return {
        "mode": "startup",
        "game": args.game,
        "unfinished_games": args.games,
        "moves_per_game": args.moves,
        "store_seconds": round(stored_s, 1),
        "start_seconds": round(start_s, 3),
        "first_get_ms": round(first_get_ms, 1),
        "games_in_memory_after_start": service.loaded,
        "rss_mib_before_start": round(before, 1),
        "rss_mib_after_start": round(after, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--mode", choices=["finished", "startup"], default="finished")
    ap.add_argument(
        "--games", type=int, default=10000, help="games to finish, or unfinished games to store"
    )
    ap.add_argument("--game", choices=["splendor", "duel"], default="duel")
    ap.add_argument(
        "--turn-cap",
        type=int,
        default=8,
        help="Duel only: end each game after this many turns (D25), so that many games finish fast "
        "(0: no cap)",
    )
    ap.add_argument("--concurrency", type=int, default=50, help="games played at once (finished)")
    ap.add_argument(
        "--checkpoints",
        type=lambda s: [int(x) for x in s.split(",")],
        default=[1000, 2000, 5000],
        help="comma-separated game counts at which to measure (finished; --games is always one)",
    )
    ap.add_argument(
        "--evict-finished",
        type=float,
        default=1.0,
        help="seconds after which a finished game leaves memory (finished; the server's "
        "default is 60)",
    )
    ap.add_argument(
        "--no-evict", action="store_true", help="keep every game in memory (as before the fix)"
    )
    ap.add_argument("--moves", type=int, default=20, help="moves per stored game (startup)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    if args.games < 1 or args.concurrency < 1 or args.evict_finished <= 0 or args.moves < 0:
        ap.error("--games and --concurrency must be >= 1, --evict-finished > 0, --moves >= 0")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "memory.db"
        run = finished if args.mode == "finished" else startup
        result = asyncio.run(run(args, db))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
