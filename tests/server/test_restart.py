"""Kill-and-restart: a real ``splendor serve`` process on a SQLite file is killed with
SIGKILL in the middle of a game and started again; every accepted move is still there,
the bot whose turn it was is scheduled again, and the game goes on to its end."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from splendor.record import GameRecord


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    """``splendor serve`` on ``port``; returns once it answers (fails after 120 s)."""
    out = open(log, "ab")
    proc = subprocess.Popen(
        [sys.executable, "-m", "splendor.cli", "serve", "--port", str(port),
         "--database-url", f"sqlite:///{db}", "--bot-workers", "1"],
        stdout=out, stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the server exited with code {proc.returncode}: {log.read_text()[-3000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    pytest.fail(f"the server did not start: {log.read_text()[-3000:]}")


def my_turn(base: str, gid: str, token: str) -> dict[str, Any]:
    """Poll until it is the token's decision or the game is over (fails after 60 s)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        m = httpx.get(f"{base}/api/games/{gid}", params={"token": token}, timeout=10).json()
        if m["legal_actions"] or m["status"] == "finished":
            return m
        time.sleep(0.02)
    pytest.fail("the bot never played")


def test_sigkill_and_restart_lose_no_move(tmp_path: Path) -> None:
    db, log = tmp_path / "games.db", tmp_path / "server.log"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_server(db, port, log)
    try:
        r = httpx.post(f"{base}/api/games", json={"game": "splendor", "seats": [
            {"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}]}, timeout=10)
        assert r.status_code == 201
        gid, token = r.json()["game_id"], r.json()["seats"][0]["token"]
        accepted: list[dict[str, Any]] = []
        for _ in range(8):
            m = my_turn(base, gid, token)
            action = m["legal_actions"][-1]["notation"]
            r = httpx.post(f"{base}/api/games/{gid}/actions",
                           json={"token": token, "action": action, "move": m["move"]}, timeout=10)
            assert r.status_code == 200, r.text
            accepted = r.json()["log"]
        proc.send_signal(signal.SIGKILL)  # right after an accepted move: the bot is to play
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # 8 decisions of seat 0 (some turns take several: returning tokens) and the bot's turns
    assert accepted[-1]["seat"] == 0 and sum(e["seat"] == 0 for e in accepted) == 8
    assert sum(e["seat"] == 1 for e in accepted) >= 2

    proc = start_server(db, port, log)
    try:
        m = httpx.get(f"{base}/api/games/{gid}", params={"token": token}, timeout=10).json()
        assert m["log"][: len(accepted)] == accepted  # no accepted move lost
        assert m["status"] == "active"
        rng = random.Random(3)  # always the first legal action may never end a game (about 1 in 6)
        for _ in range(1000):
            m = my_turn(base, gid, token)  # the bot was scheduled again at start-up
            if m["status"] == "finished":
                break
            action = rng.choice(m["legal_actions"])["id"]
            r = httpx.post(f"{base}/api/games/{gid}/actions",
                           json={"token": token, "action": action, "move": m["move"]}, timeout=10)
            assert r.status_code == 200, r.text
        record = httpx.get(f"{base}/api/games/{gid}/record", timeout=10).json()
        assert record["actions"][: len(accepted)] == [e["notation"] for e in accepted]
        final = GameRecord.from_dict(record).replay()
        assert final.is_terminal and record["result"]["scores"] == list(final.scores)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    assert os.path.exists(db)


def test_sigkill_during_concurrent_moves_loses_no_acknowledged_move(tmp_path: Path) -> None:
    """Many games move at once (their moves share transactions: group commit) when the
    server is killed with SIGKILL; after a restart every acknowledged move is stored, in
    order, and at most the one move in flight per game was stored without its answer."""
    import asyncio

    db, log = tmp_path / "games.db", tmp_path / "server.log"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_server(db, port, log)
    acked: dict[str, list[dict[str, Any]]] = {}

    async def play(http: httpx.AsyncClient, gid: str, tokens: list[str], rng: random.Random) -> None:
        seat = 0
        try:
            while True:
                m = (await http.get(f"{base}/api/games/{gid}", params={"token": tokens[seat]})).json()
                if m["status"] == "finished":
                    return
                seat = m["current_player"]
                if not m["legal_actions"]:
                    continue
                action = rng.choice(m["legal_actions"])["id"]
                r = await http.post(f"{base}/api/games/{gid}/actions",
                                    json={"token": tokens[seat], "action": action, "move": m["move"]})
                assert r.status_code == 200, r.text
                acked[gid] = r.json()["log"]
        except httpx.HTTPError:  # the server was killed
            return

    async def main() -> None:
        async with httpx.AsyncClient(timeout=10) as http:
            games = []
            for _ in range(8):
                r = await http.post(f"{base}/api/games", json={"game": "splendor", "seats": [
                    {"type": "human", "name": "Ann"}, {"type": "human", "name": "Bo"}]})
                assert r.status_code == 201
                g = r.json()
                games.append((g["game_id"], [s["token"] for s in g["seats"]]))
            players = [asyncio.create_task(play(http, gid, toks, random.Random(k)))
                       for k, (gid, toks) in enumerate(games)]
            await asyncio.sleep(2.0)
            proc.send_signal(signal.SIGKILL)  # moves of several games are in flight
            await asyncio.gather(*players)

    try:
        asyncio.run(main())
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert sum(len(v) for v in acked.values()) >= 40, "too few moves were played before the kill"
    proc = start_server(db, port, log)
    try:
        for gid, moves in acked.items():
            m = httpx.get(f"{base}/api/games/{gid}", timeout=10).json()
            assert m["log"][: len(moves)] == moves  # every acknowledged move, in order
            assert len(m["log"]) <= len(moves) + 1
            assert m["move"] == len(m["log"])
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
