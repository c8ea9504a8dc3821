"""Several server processes on one PostgreSQL database (issue 15): a move posted to one
process reaches a WebSocket on the other within a second (LISTEN/NOTIFY), a move can be
played on either, and a SIGKILL of a process loses no accepted move and no clock time."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from .util import free_port, start_server, stop_server

CLOCK = {"kind": "realtime", "base": 300, "increment": 15}


@pytest.fixture
def two_servers(postgres_url: str, tmp_path: Path) -> Iterator[tuple[str, str, Any]]:
    """Two ``splendor serve`` processes on one fresh PostgreSQL database: their base URLs
    and the first one's process (for the kill)."""
    procs = []
    for name in ("a", "b"):
        port = free_port()
        procs.append((port, start_server(postgres_url, port, tmp_path / f"{name}.log")))
    yield f"http://127.0.0.1:{procs[0][0]}", f"http://127.0.0.1:{procs[1][0]}", procs[0][1]
    for _, proc in procs:
        if proc.poll() is None:
            stop_server(proc)


def _receive_state(ws: Any, move: int, timeout: float) -> tuple[dict[str, Any], float]:
    """The first state message at ``move`` and the seconds it took."""
    start = time.monotonic()
    while True:
        left = timeout - (time.monotonic() - start)
        assert left > 0, f"no state at move {move} within {timeout} s"
        message = json.loads(ws.recv(timeout=left))
        if message.get("type") == "state" and message["move"] == move:
            return message, time.monotonic() - start


def _play_first_legal(base: str, gid: str, seat: str, move: int) -> str:
    """Play, through the process at ``base``, the first legal action of the seat whose
    ``Authorization`` header is ``seat`` at move number ``move``; its notation."""
    state = httpx.get(f"{base}/api/games/{gid}", headers={"Authorization": seat}).json()
    action = state["legal_actions"][0]["notation"]
    r = httpx.post(
        f"{base}/api/games/{gid}/actions",
        json={"action": action, "move": move},
        headers={"Authorization": seat},
    )
    assert r.status_code == 200, r.text
    return str(action)


def test_a_move_on_one_process_reaches_a_websocket_on_the_other(
    two_servers: tuple[str, str, Any],
) -> None:
    a, b, _ = two_servers
    seats = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
    made = httpx.post(f"{a}/api/games", json={"game": "duel", "seats": seats}).json()
    gid = made["game_id"]
    ann, bob = (f"Bearer {s['token']}" for s in made["seats"])
    with connect(f"ws{b[4:]}/ws/games/{gid}") as ws:
        _receive_state(ws, 0, 10)
        first = _play_first_legal(a, gid, ann, 0)
        message, seconds = _receive_state(ws, 1, 5)
        assert seconds < 1.0, f"the move took {seconds:.3f} s to reach the other process"
        assert message["last_move"]["notation"] == first
        # the second process plays the next decision; the first one sees it
        seat = message["current_player"]
        who = ann if seat == 0 else bob
        nxt = _play_first_legal(b, gid, who, 1)
        _receive_state(ws, 2, 5)
    deadline = time.monotonic() + 5
    while httpx.get(f"{a}/api/games/{gid}").json()["move"] != 2:
        assert time.monotonic() < deadline, "the first process did not see the second move"
        time.sleep(0.05)
    # a stale move number is refused by either process: the database took it once
    r = httpx.post(
        f"{a}/api/games/{gid}/actions",
        json={"action": nxt, "move": 1},
        headers={"Authorization": who},
    )
    assert r.status_code == 409


def test_a_killed_process_loses_no_accepted_move_and_no_clock_time(
    two_servers: tuple[str, str, Any],
) -> None:
    a, b, proc_a = two_servers
    with httpx.Client(base_url=a) as ann, httpx.Client(base_url=a) as bob:
        assert ann.post("/api/players/guest", json={"name": "Ann"}).status_code == 201
        assert bob.post("/api/players/guest", json={"name": "Bob"}).status_code == 201
        tid = ann.post("/api/tables", json={"game": "duel", "clock": CLOCK}).json()["id"]
        gid = bob.post(f"/api/tables/{tid}/join").json()["game_id"]
        state = ann.get(f"/api/games/{gid}").json()
        assert state["seat"] == 0
        moved = ann.post(
            f"/api/games/{gid}/actions",
            json={"action": state["legal_actions"][0]["notation"], "move": 0},
        ).json()
        cookie = ann.cookies
    proc_a.kill()  # SIGKILL right after the answer
    proc_a.wait()
    with httpx.Client(base_url=b, cookies=cookie) as ann_b:
        after = ann_b.get(f"/api/games/{gid}").json()
    assert after["move"] == 1 and after["last_move"] == moved["last_move"]
    assert after["seat"] == 0  # the session is in the database: any process knows it
    stored = moved["clock"]["remaining"][0]
    assert abs(after["clock"]["remaining"][0] - stored) <= 1.0, (moved["clock"], after["clock"])


def test_serve_workers_needs_postgresql_and_serves_with_several_processes(
    postgres_url: str, tmp_path: Path
) -> None:
    import subprocess
    import sys

    refused = subprocess.run(
        [sys.executable, "-m", "splendor.cli", "serve", "--workers", "2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode == 2 and "PostgreSQL" in refused.stderr
    port = free_port()
    log = tmp_path / "workers.log"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "splendor.cli",
            "serve",
            "--workers",
            "2",
            "--port",
            str(port),
            "--database-url",
            postgres_url,
            "--bot-workers",
            "1",
        ],
        stdout=open(log, "ab"),
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        seats = [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}]
        made = httpx.post(
            f"http://127.0.0.1:{port}/api/games", json={"game": "duel", "seats": seats}
        )
        assert made.status_code == 201, made.text
        assert "Started parent process" in log.read_text()  # uvicorn's supervisor of workers
    finally:
        stop_server(proc)
