"""Kill-and-restart: a real ``splendor serve`` process on a SQLite file is killed with
SIGKILL in the middle of a game and started again; every accepted move is still there,
the bot whose turn it was is scheduled again, and the game goes on to its end."""

from __future__ import annotations

import os
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
    assert len(accepted) >= 15 and accepted[-1]["seat"] == 0

    proc = start_server(db, port, log)
    try:
        m = httpx.get(f"{base}/api/games/{gid}", params={"token": token}, timeout=10).json()
        assert m["log"][: len(accepted)] == accepted  # no accepted move lost
        assert m["status"] == "active"
        while True:
            m = my_turn(base, gid, token)  # the bot was scheduled again at start-up
            if m["status"] == "finished":
                break
            r = httpx.post(f"{base}/api/games/{gid}/actions",
                           json={"token": token, "action": m["legal_actions"][0]["id"], "move": m["move"]}, timeout=10)
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
