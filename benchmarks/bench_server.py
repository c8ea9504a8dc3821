"""Load benchmark of the web server: N concurrent games played over real WebSockets.

Every seat of every game is a random bot acting as a WebSocket client (``random`` over the
legal actions of its state messages), against a real server process on loopback (started
here: :func:`splendor.server.app.serve` on a free port with a fresh SQLite file and the
access log off, unless ``--url`` names a running one). N games are kept going until the
time bound (a finished game is replaced by a new one).

Think time (``--think SECONDS``, default 1.0): a bot sleeps that long after receiving the
state message that gives it a decision, then sends its action, like a person or a remote
bot would. Each game has one pending decision at a time, so N games offer at most
N / think actions per second (``offered_actions_per_s``). The latency clock starts when the
action is sent, so thinking is never part of it. ``--think 0`` answers at once: the load is
then unbounded (a saturation test: the throughput is the server's capacity and the latency
is mostly queueing).

Reports, as JSON on stdout:

- ``think_s``: the think time per decision (seconds); ``offered_actions_per_s``: the most
  the clients can offer, N / think (null for ``--think 0``: unbounded);
- ``actions_per_s``: accepted actions per second of wall clock (all games together);
- ``latency_ms``: p50 / p95 / p99 / max from sending an action to receiving the state
  message that contains it (the move is committed to the database before that message);
- ``errors``: error messages and failed requests; ``lost_moves``: acknowledged moves that
  the server's log does not hold at the end (must be 0); ``stalled_seats``: seats that
  heard nothing for 20 s before the deadline (a move that never reached them; must be 0).

Several processes (``--processes N``, PostgreSQL only): N server processes on one
database (a throwaway cluster, ``--postgres``, or ``--database-url``), each on its own port;
game ``g`` is created on process ``g mod N`` and its seat ``k`` plays over a WebSocket to
process ``(g + k) mod N``, so every move crosses processes (PostgreSQL LISTEN/NOTIFY,
:mod:`splendor.server.notify`). ``server_rss_mib`` gives each server process's resident
memory at the end (its bot workers not included).

Memory over many finished games (``--finished G``): the games are played until ``G`` of
them have finished (``--seconds`` is then only a safety bound), and the servers' RSS is
read whenever the number of finished games passes a ``--checkpoints`` value
(``server_rss_by_finished``: finished games → MiB per process). The servers run with their
usual life cycle: a finished game leaves memory one minute after its end. Short Duel games
(``--turn-cap 8``: 9 moves each) make 10,000 games a run of minutes.

Usage::

    python benchmarks/bench_server.py --games 500 --seconds 60 --processes 2 --postgres
    python benchmarks/bench_server.py --games 200 --seconds 60              # 1 s think time
    python benchmarks/bench_server.py --games 200 --seconds 60 --think 0    # saturation
    python benchmarks/bench_server.py --games 2 --seconds 5 --game duel      # a tiny run
    python benchmarks/bench_server.py --url http://127.0.0.1:8000 --games 50 --seconds 120
    python benchmarks/bench_server.py --game duel --turn-cap 8 --games 50 --think 0 \
        --processes 2 --postgres --finished 10000 --checkpoints 1000,2000,5000,10000
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from splendor.game import get_game

STALL_S = 20.0
"""A seat that hears nothing for this long before the deadline reports its game as hung (a
move that never reached it) and leaves it."""


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    accepted: int = 0
    errors: list[str] = field(default_factory=list)
    games_started: int = 0
    games_finished: int = 0
    stalled: int = 0
    target: int | None = None
    """Stop starting games once this many were started (``--finished``); None: no bound."""
    acknowledged: dict[str, dict[int, str]] = field(default_factory=dict)


async def play_seat(
    ws_url: str,
    token: str,
    game_id: str,
    seat: int,
    rng: random.Random,
    stats: Stats,
    deadline: float,
    think: float,
) -> None:
    """One seat: authenticate with the seat's ``token`` (first message), then answer every
    state whose decision is ours with a random legal action, ``think`` seconds after
    receiving it (the latency clock starts at the send)."""
    acked = stats.acknowledged.setdefault(game_id, {})
    sent: dict[int, tuple[float, str]] = {}
    async with connect(ws_url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token}))
        while True:
            # the other seat may stop at the deadline: then nothing more comes
            wait = min(STALL_S, max(1.0, deadline - time.monotonic() + 5))
            try:
                raw = await asyncio.wait_for(ws.recv(), wait)
            except TimeoutError:
                if time.monotonic() < deadline:  # a game that hangs: counted, and left
                    stats.stalled += 1
                    stats.errors.append(f"{game_id} seat {seat}: no message for {wait:.0f} s")
                return  # past the deadline the other seat stops playing: not an error
            msg = json.loads(raw)
            if msg["type"] == "error":
                stats.errors.append(
                    f"{game_id} seat {seat}: {msg['status']} {msg['message'][:120]}"
                )
                continue
            if msg["type"] != "state" or msg["seat"] != seat:  # the spectator's state comes first
                continue
            now = time.perf_counter()
            for idx in [i for i in sent if i < msg["move"]]:
                t0, text = sent.pop(idx)
                if msg["log"][idx]["notation"] == text and msg["log"][idx]["seat"] == seat:
                    stats.latencies.append(now - t0)
                    stats.accepted += 1
                    acked[idx] = text
                else:
                    stats.errors.append(f"{game_id}: move {idx} is not the action seat {seat} sent")
            if msg["status"] == "finished":
                return
            if time.monotonic() > deadline:
                return
            if msg["legal_actions"] and msg["move"] not in sent:
                text = rng.choice(msg["legal_actions"])["notation"]
                if think > 0:
                    await asyncio.sleep(think)
                    if time.monotonic() > deadline:
                        return
                sent[msg["move"]] = (time.perf_counter(), text)
                await ws.send(json.dumps({"type": "action", "action": text, "move": msg["move"]}))


async def game_slot(
    http: httpx.AsyncClient,
    bases: list[str],
    slot: int,
    game: str,
    rng: random.Random,
    stats: Stats,
    deadline: float,
    think: float,
    turn_cap: int,
) -> None:
    """Keep one game going until the deadline (a new one when it ends) or until
    ``stats.target`` games were started, created on process ``slot mod N``, its seat ``k``
    on process ``(slot + k) mod N``."""
    base = bases[slot % len(bases)]
    while time.monotonic() < deadline and (
        stats.target is None or stats.games_started < stats.target
    ):
        turn = get_game(game).turn_option
        options = {turn: turn_cap} if turn else {}
        r = await http.post(
            f"{base}/api/games",
            json={
                "game": game,
                "seats": [{"type": "human", "name": "bot-a"}, {"type": "human", "name": "bot-b"}],
                "options": options,
            },
        )
        if r.status_code != 201:
            stats.errors.append(f"create: {r.status_code} {r.text[:120]}")
            return
        g = r.json()
        stats.games_started += 1
        await asyncio.gather(
            *(
                play_seat(
                    bases[(slot + s["seat"]) % len(bases)].replace("http", "ws", 1)
                    + f"/ws/games/{g['game_id']}",
                    s["token"],
                    g["game_id"],
                    s["seat"],
                    random.Random(rng.random()),
                    stats,
                    deadline,
                    think,
                )
                for s in g["seats"]
            )
        )
        state = (await http.get(f"{base}/api/games/{g['game_id']}")).json()
        if state["status"] == "finished":
            stats.games_finished += 1


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q / 100 * (len(s) - 1))))]


async def watch_memory(
    stats: Stats, pids: list[int], checkpoints: list[int], into: dict[str, Any]
) -> None:
    """Read the servers' RSS each time the number of finished games passes a checkpoint."""
    pending = sorted(checkpoints)
    while pending:
        if stats.games_finished >= pending[0]:
            into[str(pending.pop(0))] = [rss_mib(pid) for pid in pids]
        else:
            await asyncio.sleep(0.2)


async def run(
    bases: list[str],
    games: int,
    seconds: float,
    game: str,
    seed: int,
    think: float,
    *,
    turn_cap: int = 400,
    finished: int | None = None,
    checkpoints: list[int] | None = None,
    pids: list[int] | None = None,
) -> dict[str, Any]:
    stats = Stats(target=finished)
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=games * 2 + 4)
    memory: dict[str, Any] = {}
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        t0 = time.perf_counter()
        deadline = time.monotonic() + seconds
        watcher = asyncio.create_task(watch_memory(stats, pids or [], checkpoints or [], memory))
        await asyncio.gather(
            *(
                game_slot(
                    http,
                    bases,
                    i,
                    game,
                    random.Random(rng.random()),
                    stats,
                    deadline,
                    think,
                    turn_cap,
                )
                for i in range(games)
            )
        )
        elapsed = time.perf_counter() - t0
        await asyncio.sleep(0.5)
        watcher.cancel()
        lost = 0
        for gid, acked in stats.acknowledged.items():
            log = (await http.get(f"{bases[0]}/api/games/{gid}")).json()["log"]
            lost += sum(
                1 for idx, text in acked.items() if idx >= len(log) or log[idx]["notation"] != text
            )
    lat_ms = [x * 1000 for x in stats.latencies]
    return {
        "game": game,
        "concurrent_games": games,
        "think_s": think,
        "offered_actions_per_s": round(games / think, 1) if think > 0 else None,
        "seconds": round(elapsed, 2),
        "games_started": stats.games_started,
        "games_finished": stats.games_finished,
        "accepted_actions": stats.accepted,
        "actions_per_s": round(stats.accepted / elapsed, 1) if elapsed else None,
        "latency_ms": {
            k: round(percentile(lat_ms, q), 2)
            for k, q in (("p50", 50), ("p95", 95), ("p99", 99), ("max", 100))
        },
        "errors": len(stats.errors),
        "error_samples": stats.errors[:5],
        "lost_moves": lost,
        "stalled_seats": stats.stalled,
        "server_rss_by_finished": memory,
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(url: str, port: int) -> subprocess.Popen[bytes]:
    """The server (:func:`splendor.server.app.serve`, as ``splendor serve`` runs it, with
    the access log off) on loopback; returns once it answers."""
    code = (
        "import sys; from splendor.server.app import serve; "
        "from splendor.server.app import Limits; "
        "serve(sys.argv[1], port=int(sys.argv[2]), bot_workers=1, access_log=False, "
        "log_level='warning', "
        "limits=Limits.unlimited_rates())"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, url, str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with code {proc.returncode}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start within 120 s")


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=10, help="concurrent games (N)")
    ap.add_argument("--seconds", type=float, default=30.0, help="time bound of the run")
    ap.add_argument("--game", choices=["splendor", "duel"], default="splendor")
    ap.add_argument("--url", default=None, help="a running server (default: start one here)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the clients' random choices")
    ap.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="seconds a bot thinks before sending each action (0: at once, a saturation test)",
    )
    ap.add_argument(
        "--processes", type=int, default=1, help="server processes on one PostgreSQL database"
    )
    ap.add_argument(
        "--postgres", action="store_true", help="a throwaway PostgreSQL cluster (not SQLite)"
    )
    ap.add_argument("--database-url", default=None, help="the database of the servers started")
    ap.add_argument(
        "--turn-cap", type=int, default=400, help="Duel: the games' turn cap (D25; 8: 9 moves)"
    )
    ap.add_argument(
        "--finished",
        type=int,
        default=None,
        help="play until this many games have finished (--seconds: only a safety bound)",
    )
    ap.add_argument(
        "--checkpoints",
        default="",
        help="comma-separated numbers of finished games at which the servers' RSS is read",
    )
    args = ap.parse_args()
    if args.games < 1 or args.seconds <= 0 or args.think < 0 or args.processes < 1:
        ap.error("--games and --processes must be >= 1, --seconds > 0 and --think >= 0")
    try:
        checkpoints = [int(c) for c in args.checkpoints.split(",") if c.strip()]
    except ValueError:
        ap.error(f"--checkpoints must be comma-separated whole numbers, got {args.checkpoints!r}")
    if args.finished is not None and args.finished < 1:
        ap.error("--finished must be >= 1")
    if args.processes > 1 and not (args.postgres or (args.database_url or "").startswith("post")):
        ap.error("--processes above 1 needs --postgres or a PostgreSQL --database-url")
    with contextlib.ExitStack() as stack:
        procs: list[subprocess.Popen[bytes]] = []
        bases = [args.url.rstrip("/")] if args.url else []
        kind = args.url or "SQLite"
        if not bases:
            url = args.database_url
            if args.postgres:
                from throwaway_postgres import throwaway_postgres

                url = stack.enter_context(throwaway_postgres(max_connections=200))
                kind = "PostgreSQL (throwaway cluster)"
            elif url is None:
                tmp = stack.enter_context(tempfile.TemporaryDirectory())
                url = f"sqlite:///{Path(tmp) / 'bench.db'}"
            else:
                kind = url.split(":", 1)[0]
            for _ in range(args.processes):
                port = free_port()
                procs.append(start_server(url, port))
                bases.append(f"http://127.0.0.1:{port}")
        try:
            result = asyncio.run(
                run(
                    bases,
                    args.games,
                    args.seconds,
                    args.game,
                    args.seed,
                    args.think,
                    turn_cap=args.turn_cap,
                    finished=args.finished,
                    checkpoints=checkpoints,
                    pids=[p.pid for p in procs],
                )
            )
            result["server_rss_mib"] = [rss_mib(p.pid) for p in procs]
        finally:
            for proc in procs:
                proc.terminate()
                proc.wait(timeout=30)
    result["processes"] = len(bases)
    result["server"] = f"started here ({kind})" if args.url is None else args.url
    print(json.dumps(result, indent=2))


def rss_mib(pid: int) -> float | None:
    """Resident memory of a process (MiB, from /proc), or None where /proc has none."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


if __name__ == "__main__":
    main()
