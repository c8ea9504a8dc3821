"""Notification latency: from a move to the e-mail handed to SMTP, with many turn-based
games running.

A real server process (a fresh SQLite file, a free port, the rate limits off, its mail
going to a local SMTP server: ``aiosmtpd``, run here) hosts ``--games`` turn-based Duel
games (1 day a move), each between two accounts with verified addresses (set in the
database before the games start). Each game plays one turn every ``--think`` seconds on
average (a random pause of 0.5-1.5 times it): the player to move plays every decision of
the turn over HTTP (``POST /api/games/{id}/actions``), which tells the other player, by
e-mail, that it is their turn. The latency is measured from sending the request of the
turn's last decision to the moment the SMTP server has the mail (its ``DATA`` received).
A finished game stops; the run lasts ``--seconds``.

Reports, as JSON on stdout: ``games``, ``turns`` (timed), ``mails``, ``latency_ms`` (p50
/ p95 / p99 / max), ``moves_per_s`` (decisions per second, all games), ``errors``.

Usage::

    python benchmarks/bench_notify.py                      # 200 games, 60 s, a turn per 4 s
    python benchmarks/bench_notify.py --games 20 --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.server.util import free_port, stop_server  # noqa: E402

SERVER_CODE = """
import sys, uvicorn
from splendor.server.app import Limits, MailConfig, create_app
app = create_app(
    sys.argv[1], bot_workers=1, limits=Limits.unlimited_rates(),
    mail=MailConfig(smtp_url=sys.argv[3], public_url="https://splendor.example.org"),
)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning",
            access_log=False, timeout_keep_alive=300)
"""
TURN = {"kind": "turn", "per_move": 86400}
# (keep-alive longer than a think time: a connection the server closes just as a client
# reuses it fails the request)


class Inbox:
    """The SMTP server's handler: the arrival times (``time.perf_counter``) of the mails
    to each address."""

    def __init__(self) -> None:
        self.arrivals: dict[str, list[float]] = {}
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        now = time.perf_counter()
        with self.lock:
            for to in envelope.rcpt_tos:
                self.arrivals.setdefault(to.lower(), []).append(now)
        return "250 OK"

    def count(self, address: str) -> int:
        with self.lock:
            return len(self.arrivals.get(address, []))

    async def wait(self, address: str, count: int, seconds: float = 60.0) -> float:
        """The arrival time of the ``count``-th mail to ``address``."""
        deadline = time.perf_counter() + seconds
        while True:
            with self.lock:
                got = self.arrivals.get(address, [])
                if len(got) >= count:
                    return got[count - 1]
            if time.perf_counter() > deadline:
                raise TimeoutError(f"mail {count} to {address} did not come")
            await asyncio.sleep(0.005)


def start(db: Path, port: int, smtp: str, log: Path) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER_CODE, f"sqlite:///{db}", str(port), smtp],
        stdout=open(log, "ab"),
        stderr=subprocess.STDOUT,
    )
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.3)
    stop_server(proc)
    raise SystemExit("the server did not start:\n" + log.read_text()[-2000:])


def verify_all(db: Path, players: dict[str, str]) -> None:
    """Give each player (id → address) a verified address, in the database."""
    from sqlalchemy import create_engine, update

    from splendor.server.rows import PlayerRow

    engine = create_engine(f"sqlite:///{db}")
    now = datetime.now(UTC)
    with engine.begin() as c:
        for pid, address in players.items():
            c.execute(
                update(PlayerRow)
                .where(PlayerRow.id == pid)
                .values(email=address, email_key=address, email_verified_at=now)
            )
    engine.dispose()


async def sign_up(base: str, name: str) -> tuple[httpx.AsyncClient, str]:
    client = httpx.AsyncClient(base_url=base, timeout=60)
    r = await client.post("/api/players/signup", json={"name": name, "password": "bench pw 123"})
    r.raise_for_status()
    return client, r.json()["player"]["id"]


class Game:
    """One game between two players: their clients and addresses."""

    def __init__(self, gid: str, seats: dict[str, tuple[httpx.AsyncClient, str]]) -> None:
        self.gid = gid
        self.seats = seats  # player id -> (client, address)


async def make_game(base: str, k: int) -> tuple[Game, dict[str, str]]:
    (a, a_id), (b, b_id) = await asyncio.gather(sign_up(base, f"A{k}"), sign_up(base, f"B{k}"))
    r = await a.post("/api/tables", json={"game": "duel", "clock": TURN})
    r.raise_for_status()
    joined = await b.post(f"/api/tables/{r.json()['id']}/join")
    joined.raise_for_status()
    addresses = {a_id: f"a{k}@example.org", b_id: f"b{k}@example.org"}
    game = Game(joined.json()["game_id"], {p: (c, addresses[p]) for p, c in ((a_id, a), (b_id, b))})
    return game, addresses


async def play(game: Game, inbox: Inbox, until: float, think: float, out: dict[str, Any]) -> None:
    """Play ``game`` a turn at a time until ``until``, timing each turn's mail."""
    rng = random.Random(game.gid)
    await asyncio.sleep(rng.uniform(0, think))
    while time.perf_counter() < until:
        mover, state = None, {}
        for pid, (client, _) in game.seats.items():
            state = (await client.get(f"/api/games/{game.gid}")).json()
            if state["legal_actions"]:
                mover = pid
                break
        if mover is None:
            return  # over
        client = game.seats[mover][0]
        other = next(p for p in game.seats if p != mover)
        address = game.seats[other][1]
        expected = inbox.count(address) + 1
        sent = 0.0
        while state["legal_actions"]:
            action = state["legal_actions"][0]["notation"]
            sent = time.perf_counter()
            r = await client.post(
                f"/api/games/{game.gid}/actions", json={"action": action, "move": state["move"]}
            )
            if r.status_code != 200:
                out["errors"].append(f"{r.status_code} {r.text[:100]}")
                return
            out["moves"] += 1
            state = r.json()
        if state.get("result") is not None or state.get("current_player") is None:
            return  # the game ended: no turn to tell
        try:
            arrived = await inbox.wait(address, expected)
        except TimeoutError as e:
            out["errors"].append(str(e))
            return
        out["latencies"].append(arrived - sent)
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def bench(base: str, inbox: Inbox, db: Path, games: int, seconds: float, think: float) -> Any:
    made = []
    for first in range(0, games, 20):  # sign-ups in batches (argon2 hashing is slow)
        made += await asyncio.gather(
            *(make_game(base, k) for k in range(first, min(games, first + 20)))
        )
    players = {pid: address for _, addresses in made for pid, address in addresses.items()}
    verify_all(db, players)
    out: dict[str, Any] = {"moves": 0, "latencies": [], "errors": []}
    started = time.perf_counter()
    await asyncio.gather(*(play(g, inbox, started + seconds, think, out) for g, _ in made))
    elapsed = time.perf_counter() - started
    for g, _ in made:
        for client, _ in g.seats.values():
            await client.aclose()
    ms = [x * 1000 for x in out["latencies"]]
    return {
        "games": games,
        "seconds": round(elapsed, 1),
        "think_s": think,
        "turns": len(ms),
        "mails": sum(len(v) for v in inbox.arrivals.values()),
        "moves_per_s": round(out["moves"] / elapsed, 1),
        "latency_ms": {
            "p50": round(percentile(ms, 0.50), 1),
            "p95": round(percentile(ms, 0.95), 1),
            "p99": round(percentile(ms, 0.99), 1),
            "max": round(max(ms), 1),
        }
        if ms
        else None,
        "errors": out["errors"][:10],
        "error_count": len(out["errors"]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=4.0, help="seconds between turns")
    args = parser.parse_args()
    from aiosmtpd.controller import Controller

    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    folder = Path(tempfile.mkdtemp(prefix="bench-notify-"))
    port = free_port()
    proc = start(folder / "games.db", port, f"smtp://127.0.0.1:{controller.port}", folder / "log")
    try:
        result = asyncio.run(
            bench(
                f"http://127.0.0.1:{port}",
                inbox,
                folder / "games.db",
                args.games,
                args.seconds,
                args.think,
            )
        )
    finally:
        stop_server(proc)
        controller.stop()
        shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
