"""Clocks (issue 15): real-time banks with an increment per turn, turn-based deadlines,
counted by the server, stored with every move, resumed after a restart without charging
the time the server was down; a player who runs out of time loses (2 players) or is
replaced by a bot and ranks last (3-4 players)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from splendor.server.clocks import GRACE, ClockState

from .test_tables import guest

REALTIME = {"kind": "realtime", "base": 300, "increment": 15}
TURN = {"kind": "turn", "per_move": 3600}


def test_a_realtime_bank_pays_for_the_turn_and_gains_the_increment() -> None:
    c = ClockState.start(REALTIME, 2, 0, now=1000.0)
    assert c.deadline() == 1300.0 and c.left(0, 1100.0) == 200.0 and c.left(1, 1100.0) == 300.0
    same = c.decided(0, 0, now=1010.0)  # a payment: seat 0 decides again, no increment yet
    assert same.remaining == [290.0, 300.0] and same.running == 0
    passed = same.decided(0, 1, now=1030.0)  # the turn ends: +15
    assert passed.remaining == [285.0, 300.0] and passed.running == 1 and passed.since == 1030.0
    assert not passed.late(1, 1330.0) and passed.late(1, 1330.0 + GRACE + 0.1)
    over = passed.decided(1, None, now=1040.0)
    assert over.running is None and over.deadline() is None


def test_a_turn_based_clock_gives_each_turn_its_full_time() -> None:
    c = ClockState.start(TURN, 3, 2, now=0.0)
    assert c.deadline() == 3600.0
    c = c.decided(2, 2, now=100.0)  # the same turn goes on: the same deadline
    assert c.deadline() == 3600.0
    c = c.decided(2, 0, now=200.0)
    assert c.running == 0 and c.deadline() == 3800.0


def test_a_stored_clock_resumes_from_now(monkeypatch: pytest.MonkeyPatch) -> None:
    c = ClockState.start(REALTIME, 2, 0, now=0.0).decided(0, 1, now=50.0)
    stored = c.stored()
    assert stored == {"remaining": [265.0, 300.0], "running": 1}
    later = ClockState.resume(REALTIME, stored, 2, 1, now=10_000.0)
    assert later.left(1, 10_000.0) == 300.0  # the downtime is charged to nobody
    broken = ClockState.resume(REALTIME, {"remaining": "x"}, 2, 1, now=5.0)
    assert broken.remaining == [300.0, 300.0] and broken.running == 1


def _clock_game(client: TestClient, n: int, clock: dict[str, Any]) -> tuple[list[Any], str]:
    players = [guest(client, name) for name in ("Ann", "Bob", "Cy", "Di")[:n]]
    body = {"game": "duel" if n == 2 else "splendor", "num_players": n, "clock": clock}
    tid = players[0][0].post("/api/tables", json=body).json()["id"]
    for c, _ in players[1:]:
        gid = c.post(f"/api/tables/{tid}/join").json()["game_id"]
    return players, gid


def _expire(client: TestClient, gid: str) -> None:
    """Move the running seat's clock 100,000 s into the past and re-arm its timer."""
    service = client.app.state.service  # type: ignore[attr-defined]

    async def push() -> None:
        live = await service.get(gid)
        live.clock_state.since -= 100_000
        service.arm_clock(live)

    client.portal.call(push)  # type: ignore[union-attr]


def _wait(cond: Callable[[], bool], seconds: float = 10.0) -> None:
    end = time.monotonic() + seconds
    while not cond():
        assert time.monotonic() < end, "timed out waiting"
        time.sleep(0.05)


def test_the_state_shows_the_clock_and_a_move_charges_it(client: TestClient) -> None:
    players, gid = _clock_game(client, 2, REALTIME)
    ann = players[0][0]
    state = ann.get(f"/api/games/{gid}").json()
    clock = state["clock"]
    assert clock["kind"] == "realtime" and clock["running"] == 0 and clock["deadline"]
    assert 299 <= clock["remaining"][0] <= 300 and clock["remaining"][1] == 300
    first = state["legal_actions"][0]["notation"]
    after = ann.post(f"/api/games/{gid}/actions", json={"action": first, "move": 0}).json()
    if after["current_player"] == 1:  # the turn passed: the increment was added
        assert after["clock"]["running"] == 1 and after["clock"]["remaining"][0] > 300


def test_running_out_of_time_loses_a_two_player_game(client: TestClient) -> None:
    players, gid = _clock_game(client, 2, REALTIME)
    ann = players[0][0]
    _expire(client, gid)
    _wait(lambda: ann.get(f"/api/games/{gid}").json()["status"] == "finished")
    over = ann.get(f"/api/games/{gid}").json()
    result = over["result"]
    assert result["winners"] == [1] and "ran out of time" in result["forfeit"]["reason"]
    assert over["clock"]["running"] is None and over["clock"]["deadline"] is None  # stopped
    r = ann.post(f"/api/games/{gid}/actions", json={"action": "replenish", "move": 0})
    assert r.status_code == 409


def test_running_out_of_time_with_three_players_hands_the_seat_to_a_bot(
    client: TestClient,
) -> None:
    players, gid = _clock_game(client, 3, TURN)
    ann = players[0][0]
    late = ann.get(f"/api/games/{gid}").json()["clock"]["running"]  # the deal picks who starts
    name = players[late][1]["name"]
    _expire(client, gid)
    _wait(lambda: ann.get(f"/api/games/{gid}").json()["seats"][late]["type"] == "bot")
    state = ann.get(f"/api/games/{gid}").json()
    assert state["status"] == "active" and state["seats"][late]["name"] == f"{name} (bot)"
    _wait(lambda: ann.get(f"/api/games/{gid}").json()["current_player"] != late)  # it played


def test_a_restart_resumes_the_clock_as_stored_with_the_last_move(
    make_client: Callable[..., TestClient], tmp_path: Any
) -> None:
    url = f"sqlite:///{tmp_path / 'clock.db'}"
    first = make_client(url)
    players, gid = _clock_game(first, 2, REALTIME)
    ann = players[0][0]
    state = ann.get(f"/api/games/{gid}").json()
    moved = ann.post(
        f"/api/games/{gid}/actions",
        json={"action": state["legal_actions"][0]["notation"], "move": 0},
    ).json()
    stored = moved["clock"]["remaining"]
    first.__exit__(None, None, None)
    time.sleep(1.5)  # the server is down: nobody's time runs
    second = make_client(url)
    again = second.get(f"/api/games/{gid}").json()
    running = again["clock"]["running"]
    assert again["clock"]["remaining"][running] >= stored[running] - 0.5
