"""Tournaments through the API (issue 32): create, register, start (when full, at a time,
by the creator), pair, record results (resignations), standings, finish; Swiss, groups
and arena; the live WebSocket; the player's tournaments; and hostile input."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from splendor.server.events import TournamentEvent

CLOCK = {"kind": "realtime", "base": 300, "increment": 5}
TURN = {"kind": "turn", "per_move": 86400}


def guest(app_client: TestClient, name: str) -> tuple[TestClient, dict[str, Any]]:
    """A new browser on the same app, logged in as a new guest."""
    c = TestClient(app_client.app)
    c.portal = app_client.portal
    r = c.post("/api/players/guest", json={"name": name})
    assert r.status_code == 201, r.text
    return c, r.json()["player"]


def account(app_client: TestClient, name: str) -> tuple[TestClient, dict[str, Any]]:
    """A new browser on the same app, signed up as a new account."""
    c = TestClient(app_client.app)
    c.portal = app_client.portal
    r = c.post("/api/players/signup", json={"name": name, "password": "long enough pw"})
    assert r.status_code == 201, r.text
    return c, r.json()["player"]


def wait_for(
    c: TestClient, tid: str, ok: Callable[[dict[str, Any]], bool], seconds: float = 20
) -> dict[str, Any]:
    """The tournament once ``ok`` says so (its games finish in background tasks)."""
    deadline = time.monotonic() + seconds
    while True:
        t = c.get(f"/api/tournaments/{tid}").json()
        if ok(t):
            return t
        assert time.monotonic() < deadline, (t["status"], t["current_round"], t["pairings"])
        time.sleep(0.05)


def unfinished(t: dict[str, Any]) -> list[dict[str, Any]]:
    return [x for r in t["pairings"] for x in r["tables"] if x["result"] is None and x["game_id"]]


def paired(t: dict[str, Any], r: int) -> bool:
    """Whether round ``r`` is paired and all its games are made."""
    if t["current_round"] != r or len(t["pairings"]) < r:
        return False
    return all(x["game_id"] or x["result"] for x in t["pairings"][r - 1]["tables"])


def resign(clients: dict[str, TestClient], table: dict[str, Any], loser: str) -> None:
    r = clients[loser].post(f"/api/games/{table['game_id']}/resign")
    assert r.status_code == 200, r.text


def forfeit(c: TestClient, game_id: str, seat: int) -> None:
    """End a game of 3-4 players as ``seat``'s forfeit (its timeout, say): resigning
    there hands the seat to a bot and the game goes on."""
    service = c.app.state.service  # type: ignore[attr-defined]

    async def go() -> None:
        live = await service.get(game_id)
        async with live.lock:
            assert await service.finisher.forfeit(live, seat, "time")

    c.portal.call(go)


def create(c: TestClient, **fields: Any) -> dict[str, Any]:
    r = c.post("/api/tournaments", json={"name": "Cup", "game": "duel", **fields})
    assert r.status_code == 201, r.text
    return r.json()


def test_a_swiss_tournament_is_played_to_its_end(client: TestClient) -> None:
    events: list[TournamentEvent] = []
    client.app.state.events.subscribe("tournament.round", events.append)  # type: ignore[attr-defined]
    people = [guest(client, n) for n in ("Ann", "Bob", "Cy", "Di", "Ed")]
    clients = {p["id"]: c for c, p in people}
    t = create(people[0][0], format="swiss", rounds=9, max_players=5, clock=CLOCK)
    assert t["status"] == "registering" and t["rounds"] == 9 and t["entrants"] == 0
    for c, _ in people:
        r = c.post(f"/api/tournaments/{t['id']}/join")
        assert r.status_code == 200, r.text
    t = wait_for(client, t["id"], lambda t: t["status"] == "running")
    assert t["rounds"] == 5  # 5 players: a round robin has 5 rounds (one bye each)
    listed = client.get("/api/tournaments").json()["tournaments"]
    assert [x["id"] for x in listed] == [t["id"]] and listed[0]["entrants"] == 5
    seen_pairs: set[frozenset[str]] = set()
    for r in range(1, 6):
        t = wait_for(client, t["id"], lambda t, r=r: paired(t, r))
        tables = t["pairings"][r - 1]["tables"]
        assert sorted(len(x["players"]) for x in tables) == [1, 2, 2]  # one bye
        for x in unfinished(t):
            pair = frozenset(x["players"])
            assert pair not in seen_pairs  # no repeat pairing
            seen_pairs.add(pair)
            game = clients[x["players"][0]].get(f"/api/games/{x['game_id']}").json()
            assert game["seat"] == 0  # the player's session holds its seat
            resign(clients, x, x["players"][1])  # the first seat wins
    t = wait_for(client, t["id"], lambda t: t["status"] == "finished")
    lines = t["standings"]
    assert [line["rank"] for line in lines] == sorted(line["rank"] for line in lines)
    assert sum(line["score"] for line in lines) == 2 * 5 + 5  # 2 games and a bye a round
    for line in lines:
        assert {"buchholz", "sonneborn_berger", "wins", "byes"} <= set(line)
        assert line["byes"] == 1
    assert [e.round for e in events] == [1, 2, 3, 4, 5] and all(len(e.byes) == 1 for e in events)
    # results on the player pages
    best = lines[0]["player_id"]
    mine = client.get(f"/api/players/{best}/tournaments").json()["tournaments"]
    assert [(m["id"], m["place"], m["score"]) for m in mine] == [(t["id"], 1, lines[0]["score"])]


def test_groups_of_four_with_points_by_placement(client: TestClient) -> None:
    people = [guest(client, f"G{i}") for i in range(5)]
    t = create(
        people[0][0], game="splendor", num_players=4, format="groups", rounds=2, max_players=5
    )
    for c, _ in people:
        assert c.post(f"/api/tournaments/{t['id']}/join").status_code == 200
    t = wait_for(client, t["id"], lambda t: paired(t, 1))
    tables = t["pairings"][0]["tables"]
    assert sorted(len(x["players"]) for x in tables) == [1, 4]  # a table of 4 and a bye
    bye = next(x for x in tables if len(x["players"]) == 1)
    assert bye["result"] == {"bye": True, "points": [3.0]}
    game = next(x for x in tables if len(x["players"]) == 4)
    forfeit(client, game["game_id"], 2)
    t = wait_for(client, t["id"], lambda t: paired(t, 2))
    done = t["pairings"][0]["tables"]
    points = next(x for x in done if len(x["players"]) == 4)["result"]["points"]
    assert points[2] == 0.0 and points.count(2.0) == 3  # three share places 1-3
    second = t["pairings"][1]["tables"]
    assert bye["players"][0] in next(x for x in second if len(x["players"]) == 4)["players"]
    game = next(x for x in second if len(x["players"]) == 4)
    forfeit(client, game["game_id"], 0)
    t = wait_for(client, t["id"], lambda t: t["status"] == "finished")
    assert sum(line["score"] for line in t["standings"]) == 2 * (6 + 3)


def test_an_arena_pairs_again_at_once_and_counts_a_streak(client: TestClient) -> None:
    (a, pa), (b, pb) = guest(client, "Ann"), guest(client, "Bob")
    clients = {pa["id"]: a, pb["id"]: b}
    t = create(a, format="arena", duration=600, max_players=3, clock=TURN)
    assert t["duration"] == 600 and t["rounds"] is None
    a.post(f"/api/tournaments/{t['id']}/join")
    b.post(f"/api/tournaments/{t['id']}/join")
    r = a.post(f"/api/tournaments/{t['id']}/start")
    assert r.status_code == 200, r.text
    for n in range(1, 4):
        t = wait_for(client, t["id"], lambda t, n=n: paired(t, n))
        resign(clients, unfinished(t)[0], pb["id"])  # Ann wins three in a row
    t = wait_for(client, t["id"], lambda t: paired(t, 4))
    line = {x["player_id"]: x for x in t["standings"]}
    assert (line[pa["id"]]["score"], line[pa["id"]]["bonus"]) == (2 + 2 + 4, 2)
    assert line[pa["id"]]["fire"] is True and line[pa["id"]]["streak"] == 3
    assert line[pb["id"]]["score"] == 0
    assert t["ends_at"] is not None and t["status"] == "running"
    # a late player joins; Bob pauses: he is not paired again once his game is over
    c, pc = guest(client, "Cy")
    clients[pc["id"]] = c
    assert c.post(f"/api/tournaments/{t['id']}/join").status_code == 200
    assert b.post(f"/api/tournaments/{t['id']}/leave").status_code == 200
    resign(clients, unfinished(t)[0], pa["id"])  # Bob wins: Ann's streak ends
    t = wait_for(client, t["id"], lambda t: paired(t, 5))
    assert set(unfinished(t)[0]["players"]) == {pa["id"], pc["id"]}
    line = {x["player_id"]: x for x in t["standings"]}
    assert line[pa["id"]]["fire"] is False and line[pb["id"]]["score"] == 2
    # the arena closes once past its end and its games are over
    t_row = client.app.state.tournaments  # type: ignore[attr-defined]
    t_row.now = lambda: datetime.now(UTC) + timedelta(seconds=700)
    resign(clients, unfinished(t)[0], pc["id"])
    t = wait_for(client, t["id"], lambda t: t["status"] == "finished")
    assert not unfinished(t)


def test_a_tournament_starts_at_its_time_or_is_cancelled(client: TestClient) -> None:
    (a, _), (b, _) = guest(client, "Ann"), guest(client, "Bob")
    soon = (datetime.now(UTC) + timedelta(seconds=1)).isoformat()
    t = create(a, format="swiss", starts_at=soon)
    alone = create(b, format="swiss", starts_at=soon)
    a.post(f"/api/tournaments/{t['id']}/join")
    b.post(f"/api/tournaments/{t['id']}/join")
    a.post(f"/api/tournaments/{alone['id']}/join")
    time.sleep(1.1)
    client.portal.call(client.app.state.tournaments.check)  # type: ignore[attr-defined]
    t = wait_for(client, t["id"], lambda t: t["status"] == "running" and unfinished(t))
    assert t["rounds"] == 1  # two players: one round
    assert client.get(f"/api/tournaments/{alone['id']}").json()["status"] == "cancelled"


def test_the_page_socket_pushes_every_change(client: TestClient) -> None:
    (a, _), (b, _) = guest(client, "Ann"), guest(client, "Bob")
    t = create(a, format="swiss", max_players=4)
    with client.websocket_connect(f"/ws/tournaments/{t['id']}") as ws:
        first = ws.receive_json()
        assert first["type"] == "tournament" and first["tournament"]["entrants"] == 0
        b.post(f"/api/tournaments/{t['id']}/join")
        pushed = ws.receive_json()
        assert pushed["tournament"]["players"][0]["name"] == "Bob"
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
    with pytest.raises(WebSocketDisconnect) as e:
        with client.websocket_connect("/ws/tournaments/nope") as ws:
            ws.receive_json()
    assert e.value.code == 4404


def test_rated_tournaments_are_for_accounts(client: TestClient) -> None:
    g, _ = guest(client, "Gus")
    r = g.post(
        "/api/tournaments",
        json={"name": "R", "game": "duel", "format": "swiss", "rated": True, "max_players": 4},
    )
    assert r.status_code == 403
    acc, _ = account(client, "Alice")
    t = create(acc, format="swiss", rated=True, max_players=4)
    assert g.post(f"/api/tournaments/{t['id']}/join").status_code == 403
    assert acc.post(f"/api/tournaments/{t['id']}/join").status_code == 200


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"format": "swiss", "max_players": 4, "clock": {"kind": "blitz"}}, 400, "clock"),
        (
            {"format": "swiss", "max_players": 4, "clock": {"kind": "turn", "per_move": 1}},
            400,
            "per_move",
        ),
        ({"format": "knockout", "max_players": 4}, 400, "format"),
        ({"format": "groups", "max_players": 4}, 400, "3 or 4"),
        ({"format": "swiss", "game": "splendor", "num_players": 3, "max_players": 4}, 400, "2"),
        ({"format": "swiss"}, 400, "max_players"),
        ({"format": "swiss", "max_players": 1}, 400, "max_players"),
        ({"format": "swiss", "max_players": 4, "rounds": 0}, 400, "rounds"),
        ({"format": "arena", "max_players": 4, "rounds": 3}, 400, "rounds"),
        ({"format": "swiss", "max_players": 4, "duration": 600}, 400, "duration"),
        ({"format": "swiss", "starts_at": "2000-01-01T00:00:00+00:00"}, 400, "starts_at"),
        ({"format": "swiss", "starts_at": "tomorrow"}, 400, "starts_at"),
        ({"format": "swiss", "max_players": 4, "name": ""}, 400, "name"),
        ({"format": "swiss", "max_players": 4, "name": "x" * 65}, 400, "name"),
        ({"format": "swiss", "max_players": 4, "prize": 1}, 400, "prize"),
    ],
)
def test_a_malformed_tournament_is_refused(
    client: TestClient, body: dict[str, Any], status: int, words: str
) -> None:
    g, _ = guest(client, "Gus")
    r = g.post("/api/tournaments", json={"name": "Cup", "game": "duel", **body})
    assert r.status_code == status, r.text
    assert words in r.json()["detail"]
    assert client.get("/api/tournaments").json()["tournaments"] == []


def test_hostile_registrations_are_refused_and_change_nothing(client: TestClient) -> None:
    assert client.post("/api/tournaments", json={"name": "x"}).status_code == 401
    (a, _), (b, _), (c, _) = guest(client, "Ann"), guest(client, "Bob"), guest(client, "Cy")
    t = create(a, format="swiss", max_players=2)
    assert client.get("/api/tournaments/nope").status_code == 404
    assert a.post("/api/tournaments/nope/join").status_code == 404
    assert b.post(f"/api/tournaments/{t['id']}/leave").status_code == 409  # not registered
    assert b.post(f"/api/tournaments/{t['id']}/start").status_code == 403  # not the creator
    assert a.post(f"/api/tournaments/{t['id']}/start").status_code == 409  # too few
    assert b.post(f"/api/tournaments/{t['id']}/join").status_code == 200
    again = b.post(f"/api/tournaments/{t['id']}/join")
    assert again.status_code == 409 and "already" in again.json()["detail"]
    assert a.post(f"/api/tournaments/{t['id']}/join").status_code == 200  # full: it starts
    wait_for(client, t["id"], lambda t: t["status"] == "running")
    late = c.post(f"/api/tournaments/{t['id']}/join")
    assert late.status_code == 409 and "started" in late.json()["detail"]
    detail = client.get(f"/api/tournaments/{t['id']}").json()
    assert len(detail["players"]) == 2
    for _ in range(3):
        create(c, format="swiss", max_players=4)
    assert (
        c.post(
            "/api/tournaments",
            json={"name": "4th", "game": "duel", "format": "swiss", "max_players": 4},
        ).status_code
        == 409
    )


def test_withdrawn_swiss_players_are_not_paired_again(client: TestClient) -> None:
    people = [guest(client, n) for n in ("Ann", "Bob", "Cy", "Di")]
    clients = {p["id"]: c for c, p in people}
    t = create(people[0][0], format="swiss", rounds=2, max_players=4)
    for c, _ in people:
        c.post(f"/api/tournaments/{t['id']}/join")
    t = wait_for(client, t["id"], lambda t: paired(t, 1))
    quitter = unfinished(t)[0]["players"][1]
    assert clients[quitter].post(f"/api/tournaments/{t['id']}/leave").status_code == 200
    for x in unfinished(t):
        resign(clients, x, x["players"][1])
    t = wait_for(client, t["id"], lambda t: paired(t, 2))
    second = [p for x in t["pairings"][1]["tables"] for p in x["players"]]
    assert quitter not in second and len(second) == 3  # a game and a bye


def test_blocked_players_are_not_paired(client: TestClient) -> None:
    from sqlalchemy import insert

    from splendor.server.community_rows import BlockRow

    people = [guest(client, n) for n in ("Ann", "Bob", "Cy")]
    (a, pa), (b, pb), (c, pc) = people
    with client.app.state.storage.engine.begin() as conn:  # type: ignore[attr-defined]
        conn.execute(
            insert(BlockRow),
            {"blocker_id": pa["id"], "blocked_id": pb["id"], "created_at": datetime.now(UTC)},
        )
    t = create(a, format="arena", duration=600, max_players=3)
    for x, _ in people:
        x.post(f"/api/tournaments/{t['id']}/join")
    t = wait_for(client, t["id"], lambda t: paired(t, 1))
    game = t["pairings"][0]["tables"]
    assert len(game) == 1 and set(game[0]["players"]) != {pa["id"], pb["id"]}


def test_a_result_missed_by_the_bus_is_recorded_by_the_maintenance_check(
    client: TestClient,
) -> None:
    (a, pa), (b, pb) = guest(client, "Ann"), guest(client, "Bob")
    t = create(a, format="swiss", rounds=1, max_players=2)
    a.post(f"/api/tournaments/{t['id']}/join")
    b.post(f"/api/tournaments/{t['id']}/join")
    t = wait_for(client, t["id"], lambda t: paired(t, 1))
    events = client.app.state.events  # type: ignore[attr-defined]
    events._subscribers["game.finished"].clear()  # the event is lost (a restart, say)
    game = unfinished(t)[0]
    resign({pa["id"]: a, pb["id"]: b}, game, game["players"][0])
    time.sleep(0.3)
    assert client.get(f"/api/tournaments/{t['id']}").json()["status"] == "running"
    client.portal.call(client.app.state.tournaments.check)  # type: ignore[attr-defined]
    t = wait_for(client, t["id"], lambda t: t["status"] == "finished")
    assert [line["score"] for line in t["standings"]] == [1.0, 0.0]
