"""My games (issue 32): every game a player sits in, unfinished first, with the opponents,
whose turn it is, whether it waits on the player and the time left; the waiting count live
on ``WS /ws/me``; the player page's open games; the lobby's host ratings and filters."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from starlette.websockets import WebSocketDisconnect

from splendor.server.my_games import read_games, waiting_counts
from splendor.server.storage import GameRow, RatingRow, Storage

TURN = {"kind": "turn", "per_move": 86400}
REALTIME = {"kind": "realtime", "base": 300, "increment": 15}


def member(app_client: TestClient, name: str) -> tuple[TestClient, dict[str, Any]]:
    """A new browser on the same app (sharing its event loop), signed up as an account."""
    c = TestClient(app_client.app)
    c.portal = app_client.portal
    r = c.post("/api/players/signup", json={"name": name, "password": "a good password"})
    assert r.status_code == 201, r.text
    return c, r.json()["player"]


def storage_of(c: TestClient) -> Storage:
    storage: Storage = c.app.state.storage  # type: ignore[attr-defined]
    return storage


def start_game(host: TestClient, guest: TestClient, **table: Any) -> str:
    """A 2-seat game between ``host`` (seat 0) and ``guest`` (seat 1), through a table."""
    body = {"game": "duel", "rated": False, **table}
    tid = host.post("/api/tables", json=body).json()["id"]
    joined = guest.post(f"/api/tables/{tid}/join")
    assert joined.status_code == 200, joined.text
    gid: str = joined.json()["game_id"]
    return gid


def play_one(c: TestClient, gid: str) -> dict[str, Any]:
    """The session's seat plays its first legal decision; returns the new state."""
    state = c.get(f"/api/games/{gid}").json()
    action = state["legal_actions"][0]["notation"]
    r = c.post(f"/api/games/{gid}/actions", json={"action": action, "move": state["move"]})
    assert r.status_code == 200, r.text
    played: dict[str, Any] = r.json()
    return played


def play_turn(c: TestClient, gid: str) -> None:
    """The session's seat plays decisions until it is not its turn."""
    while True:
        state = c.get(f"/api/games/{gid}").json()
        if state["current_player"] != state["seat"] or state["status"] != "active":
            return
        play_one(c, gid)


def test_my_games_lists_every_game_with_opponents_turn_and_deadline(client: TestClient) -> None:
    ann, a = member(client, "Ann")
    bob, b = member(client, "Bob")
    cy, c = member(client, "Cy")
    assert ann.get("/api/me/games").json() == {"games": [], "finished": [], "waiting": 0}
    first = start_game(ann, bob, clock=TURN)  # Ann (seat 0) to play: waits on Ann
    second = start_game(cy, ann, clock=REALTIME)  # Cy to play
    third = start_game(bob, ann)
    play_turn(bob, third)  # now Ann's turn there
    mine = ann.get("/api/me/games").json()
    assert mine["waiting"] == 2
    ids = [g["id"] for g in mine["games"]]
    assert sorted(ids) == sorted([first, second, third])
    # waiting on Ann first; the one with a deadline before the one without
    assert ids[:2] == [first, third] and ids[2] == second
    g1 = mine["games"][0]
    assert g1["waiting"] is True and g1["to_move"] == 0 and g1["to_move_name"] == "Ann"
    assert g1["seat"] == 0 and g1["clock"] == TURN and g1["url"] == f"/games/{first}"
    names = [(p["name"], p["you"], p["guest"], p["bot"]) for p in g1["players"]]
    assert names == [("Ann", True, False, None), ("Bob", False, False, None)]
    deadline = datetime.fromisoformat(g1["deadline"])
    assert timedelta(hours=23) < deadline - datetime.now(UTC) <= timedelta(days=1)
    assert 82800 < g1["time_left"] <= 86400
    g2 = next(g for g in mine["games"] if g["id"] == second)
    assert g2["waiting"] is False and g2["to_move_name"] == "Cy" and g2["seat"] == 1
    assert 0 < g2["time_left"] <= 300
    assert mine["games"][1]["deadline"] is None  # no clock
    # Bob sees the same games from his side: the first waits on Ann, not on him
    bobs = bob.get("/api/me/games").json()
    assert {g["id"]: g["waiting"] for g in bobs["games"]} == {first: False, third: False}
    assert c["id"] not in {p["player_id"] for g in bobs["games"] for p in g["players"]}
    assert b["id"] in {p["player_id"] for p in g1["players"]} and a["id"] != b["id"]


def test_finished_games_come_after_with_the_outcome(client: TestClient) -> None:
    ann, _ = member(client, "Ann")
    bob, _ = member(client, "Bob")
    done = start_game(ann, bob)
    live = start_game(bob, ann)
    assert bob.post(f"/api/games/{done}/resign").status_code == 200
    mine = ann.get("/api/me/games").json()
    assert [g["id"] for g in mine["games"]] == [live]
    [over] = mine["finished"]
    assert over["id"] == done and over["outcome"] == "won" and over["status"] == "finished"
    assert over["replay"] == f"/games/{done}/replay" and over["waiting"] is False
    assert bob.get("/api/me/games").json()["finished"][0]["outcome"] == "lost"
    assert ann.get("/api/me/games?finished=0").json()["finished"] == []
    for bad in ("x", "-1", "101", "²"):
        r = ann.get(f"/api/me/games?finished={bad}")
        assert r.status_code == 400, bad


def test_my_games_needs_a_session(client: TestClient) -> None:
    assert client.get("/api/me/games").status_code == 401


def test_waiting_counts_ignore_seats_a_bot_took_over(client: TestClient) -> None:
    ann, a = member(client, "Ann")
    bob, b = member(client, "Bob")
    gid = start_game(ann, bob, clock=TURN)
    storage = storage_of(client)
    assert waiting_counts(storage, [a["id"], b["id"], "nobody"]) == {
        a["id"]: 1,
        b["id"]: 0,
        "nobody": 0,
    }
    play_turn(ann, gid)
    assert waiting_counts(storage, [a["id"], b["id"]]) == {a["id"]: 0, b["id"]: 1}
    # a stored game whose next seat is a bot's (a resigned seat) waits on nobody
    from splendor.server.storage import SeatRow

    with storage.engine.begin() as conn:
        conn.execute(
            update(SeatRow)
            .where(SeatRow.game_id == gid, SeatRow.seat == 1)
            .values(type="bot", bot="greedy")
        )
    assert waiting_counts(storage, [b["id"]]) == {b["id"]: 0}


def test_many_games_are_read_in_a_few_queries(client: TestClient) -> None:
    from sqlalchemy import event

    ann, _ = member(client, "Ann")
    bob, _ = member(client, "Bob")
    for _ in range(12):
        start_game(ann, bob, clock=TURN)
    storage = storage_of(client)
    me = ann.get("/api/players/me").json()["player"]["id"]
    statements: list[str] = []
    here = threading.get_ident()

    def count(*args: Any) -> None:
        if threading.get_ident() == here:  # not the app's background work
            statements.append(str(args[2]))

    event.listen(storage.engine, "before_cursor_execute", count)
    try:
        active, done = read_games(storage, me)
    finally:
        event.remove(storage.engine, "before_cursor_execute", count)
    assert len(active) == 12 and done == []
    assert len(statements) <= 4, statements


def receive(ws: Any, *kinds: str) -> dict[str, Any]:
    """The next message of the feed of one of ``kinds`` (other parts' notifications on
    the same feed are skipped)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] in kinds:
            return message
        assert message["type"] in ("notify", "invite"), message


def test_the_feed_counts_games_waiting_and_follows_moves(client: TestClient) -> None:
    ann, _ = member(client, "Ann")
    bob, _ = member(client, "Bob")
    with pytest.raises(WebSocketDisconnect) as closed:
        with client.websocket_connect("/ws/me") as ws:
            ws.receive_json()
    assert closed.value.code == 4401  # nobody logged in
    gid = start_game(ann, bob, clock=TURN)
    with bob.websocket_connect("/ws/me") as ws:
        assert receive(ws, "waiting") == {"type": "waiting", "count": 0}
        play_one(ann, gid)
        counts = []
        while True:  # a turn may be several decisions: counts come after each
            counts.append(receive(ws, "waiting")["count"])
            state = bob.get(f"/api/games/{gid}").json()
            if state["current_player"] == 1 and counts[-1] == 1:
                break
            if state["current_player"] == 0:
                play_one(ann, gid)
        assert counts[-1] == 1
        ws.send_json({"type": "count"})
        assert receive(ws, "waiting") == {"type": "waiting", "count": 1}
        ws.send_json({"type": "ping"})
        assert receive(ws, "pong") == {"type": "pong"}
        ws.send_json({"type": "nonsense"})
        assert receive(ws, "error")["status"] == 400
        play_turn(bob, gid)
        while receive(ws, "waiting")["count"] != 0:
            pass
        # a resignation ends the game: a count comes (still 0 waiting)
        bob.post(f"/api/games/{gid}/resign")
        assert receive(ws, "waiting") == {"type": "waiting", "count": 0}


def test_the_player_page_shows_open_games_with_opponents_and_turn(client: TestClient) -> None:
    ann, a = member(client, "Ann")
    bob, _ = member(client, "Bob")
    gid = start_game(ann, bob, clock=TURN)
    page = client.get(f"/api/players/{a['id']}").json()
    [g] = page["open_games"]
    assert g["id"] == gid and g["seat"] == 0 and g["waiting"] is True
    assert [p["name"] for p in g["players"]] == ["Ann", "Bob"]
    assert g["to_move_name"] == "Ann" and g["deadline"] is not None


def test_lobby_tables_show_the_hosts_rating_and_filter(client: TestClient) -> None:
    ann, a = member(client, "Ann")
    bob, b = member(client, "Bob")
    with storage_of(client).engine.begin() as conn:
        conn.execute(
            RatingRow.__table__.insert(),
            {
                "player_id": b["id"],
                "kind": "duel",
                "rating": {
                    "system": "glicko2",
                    "value": 1720.4,
                    "deviation": 80.0,
                    "volatility": 0.06,
                    "games": 30,
                },
                "value": 1720.4,
                "games": 30,
                "updated_at": datetime.now(UTC),
            },
        )
    t1 = ann.post("/api/tables", json={"game": "duel", "rated": False}).json()
    t2 = bob.post("/api/tables", json={"game": "duel", "clock": TURN, "rated": False}).json()
    t3 = bob.post(
        "/api/tables", json={"game": "splendor", "num_players": 3, "clock": REALTIME}
    ).json()
    ratings = {t["id"]: t["host_rating"] for t in client.get("/api/tables").json()["tables"]}
    assert ratings[t1["id"]] == {"kind": "duel", "value": 1500, "games": 0, "provisional": True}
    assert ratings[t2["id"]] == {"kind": "duel", "value": 1720, "games": 30, "provisional": False}
    assert ratings[t3["id"]]["kind"] == "splendor-multi"

    def listed(query: str, who: TestClient = client) -> list[str]:
        r = who.get(f"/api/tables?{query}")
        assert r.status_code == 200, r.text
        return sorted(t["id"] for t in r.json()["tables"])

    assert listed("game=duel") == sorted([t1["id"], t2["id"]])
    assert listed("clock=none") == [t1["id"]]
    assert listed("clock=turn") == [t2["id"]]
    assert listed("clock=realtime&game=splendor") == [t3["id"]]
    assert listed("game=duel&min_rating=1600") == [t2["id"]]
    assert listed("game=duel&max_rating=1600") == [t1["id"]]
    assert listed("game=duel&min_rating=1500&max_rating=1500") == [t1["id"]]
    # a player always sees the tables where they sit
    assert t1["id"] in listed("clock=turn", ann)
    rated = client.get("/api/tables?rated=true").json()["tables"]
    assert all(t["rated"] for t in rated)
    unrated = listed("rated=false")
    assert t1["id"] in unrated and t2["id"] in unrated
    for bad in (
        "game=chess",
        "clock=fast",
        "rated=yes",
        "min_rating=-1",
        "max_rating=x",
        "min_rating=1700&max_rating=1600",
        "min_rating=²",
    ):
        assert client.get(f"/api/tables?{bad}").status_code == 400, bad
    assert a["id"] != b["id"]


def test_a_game_without_moves_counts_its_deadline_from_its_start(client: TestClient) -> None:
    ann, a = member(client, "Ann")
    bob, _ = member(client, "Bob")
    gid = start_game(ann, bob, clock=TURN)
    storage = storage_of(client)
    long_ago = datetime.now(UTC) - timedelta(hours=5)
    with storage.engine.begin() as conn:
        conn.execute(update(GameRow).where(GameRow.id == gid).values(created_at=long_ago))
    [read], _ = read_games(storage, a["id"])
    from splendor.server.my_games import entry

    listed = entry(read, a["id"], None, datetime.now(UTC))
    assert 18 * 3600 - 5 < listed["time_left"] <= 19 * 3600 + 5
