"""The lobby (issue 15): tables opened by players, joined and left before the game, games
that start when the last seat is taken, invitation tables, bot seats (never rated), quick
pairing by rating, and the lobby's WebSocket."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert, select

from splendor.server.app import Limits
from splendor.server.storage import GameRow, RatingRow, SeatRow, Storage

CLOCK = {"kind": "realtime", "base": 300, "increment": 15}


def guest(app_client: TestClient, name: str) -> tuple[TestClient, dict[str, Any]]:
    """A new browser (its own cookies) on the same app, logged in as a new guest; it
    shares the started client's event loop, where the app's background tasks run."""
    c = TestClient(app_client.app)
    c.portal = app_client.portal
    r = c.post("/api/players/guest", json={"name": name})
    assert r.status_code == 201, r.text
    return c, r.json()["player"]


def account(app_client: TestClient, name: str) -> tuple[TestClient, dict[str, Any]]:
    """:func:`guest`, but an account (rated games are for accounts)."""
    c = TestClient(app_client.app)
    c.portal = app_client.portal
    r = c.post("/api/players/signup", json={"name": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    return c, r.json()["player"]


def storage_of(c: TestClient) -> Storage:
    storage: Storage = c.app.state.storage  # type: ignore[attr-defined]
    return storage


def test_opening_a_table_needs_a_player(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "duel"})
    assert r.status_code == 401
    assert "guest" in r.json()["detail"]
    assert client.get("/api/tables").json() == {"tables": []}


def test_two_accounts_meet_at_a_rated_table_and_their_game_starts(client: TestClient) -> None:
    ann, a = account(client, "Ann")
    bob, b = account(client, "Bob")
    r = ann.post("/api/tables", json={"game": "duel", "clock": CLOCK})
    assert r.status_code == 201, r.text
    table = r.json()
    assert table["status"] == "open" and table["rated"] is True and table["clock"] == CLOCK
    assert [s["player_id"] for s in table["seats"]] == [a["id"], None]
    assert "invite_code" not in table
    listed = bob.get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [table["id"]]
    joined = bob.post(f"/api/tables/{table['id']}/join")
    assert joined.status_code == 200, joined.text
    started = joined.json()
    assert started["status"] == "started" and started["game_id"]
    assert bob.get("/api/tables").json()["tables"] == []  # no longer open
    gid = started["game_id"]
    # each session holds its own seat of the game, which is rated and has the clock
    assert ann.get(f"/api/games/{gid}").json()["seat"] == 0
    assert bob.get(f"/api/games/{gid}").json()["seat"] == 1
    with storage_of(client).session() as s:
        game = s.get(GameRow, gid)
        assert game is not None and game.rated is True and game.clock == CLOCK
        owners = s.scalars(select(SeatRow.player_id).where(SeatRow.game_id == gid)).all()
    assert sorted(owners) == sorted([a["id"], b["id"]])
    # both player pages list it
    assert [g["id"] for g in bob.get(f"/api/players/{b['id']}").json()["open_games"]] == [gid]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "chess"}, "unknown game"),
        ({"game": "duel", "num_players": 3}, "2 to 2"),
        ({"game": "splendor", "num_players": 5}, "2 to 4"),
        ({"game": "splendor", "bots": ["nobody"]}, "unknown bot"),
        ({"game": "splendor", "bots": ["greedy"], "rated": True}, "cannot be rated"),
        ({"game": "duel", "visibility": "friends"}, "visibility"),
        ({"game": "duel", "clock": {"kind": "realtime", "base": 10, "increment": 0}}, "60..7200"),
        ({"game": "duel", "clock": {"kind": "turn"}}, "per_move"),
        ({"game": "duel", "clock": "5+15"}, "clock"),
        ({"game": "splendor", "options": {"turn_cap": 5}}, "turn_cap"),
        ({"game": "duel", "options": {"turn_cap": "x"}}, "turn_cap"),
        ({"game": "duel", "options": {"turn_cap": -1}}, "turn_cap"),
    ],
)
def test_a_malformed_table_is_refused(client: TestClient, body: Any, words: str) -> None:
    ann, _ = guest(client, "Ann")
    r = ann.post("/api/tables", json=body)
    assert r.status_code == 400, r.text
    assert words in r.json()["detail"]
    assert ann.get("/api/tables").json() == {"tables": []}


def test_the_shortest_clock_is_the_servers_choice(make_client: Callable[..., TestClient]) -> None:
    """``Limits.min_clock`` (``splendor serve --min-clock``) bounds the time bank of a real
    time clock and the turn of a turn-based one, for tables and "Play now" alike."""
    client = make_client(limits=Limits.unlimited_rates(min_clock=5))
    ann, _ = guest(client, "Ann")
    short = {"kind": "realtime", "base": 5, "increment": 0}
    assert ann.post("/api/tables", json={"game": "duel", "clock": short}).json()["clock"] == short
    for clock in (
        {"kind": "realtime", "base": 4, "increment": 0},
        {"kind": "turn", "per_move": 4},
    ):
        for path in ("/api/tables", "/api/play-now"):
            r = ann.post(path, json={"game": "duel", "clock": clock})
            assert r.status_code == 400 and "5.." in r.json()["detail"], r.text
    turn = ann.post(
        "/api/play-now", json={"game": "duel", "clock": {"kind": "turn", "per_move": 5}}
    )
    assert turn.status_code == 200 and turn.json()["clock"]["per_move"] == 5, turn.text
    for bad in (0, -1, True):
        with pytest.raises(ValueError):
            Limits(min_clock=bad)


def test_an_invitation_table_is_unlisted_and_needs_its_code(client: TestClient) -> None:
    ann, _ = guest(client, "Ann")
    bob, _ = guest(client, "Bob")
    table = ann.post("/api/tables", json={"game": "duel", "visibility": "invite"}).json()
    code = table["invite_code"]
    assert bob.get("/api/tables").json() == {"tables": []}
    assert [t["id"] for t in ann.get("/api/tables").json()["tables"]] == [table["id"]]
    assert bob.post(f"/api/tables/{table['id']}/join").status_code == 403
    assert bob.post(f"/api/tables/{table['id']}/join", json={"code": "wrong"}).status_code == 403
    r = bob.post(f"/api/tables/{table['id']}/join", json={"code": code})
    assert r.status_code == 200 and r.json()["status"] == "started"
    assert "invite_code" not in ann.get(f"/api/tables/{table['id']}").json()


def test_leaving_before_the_start_passes_the_host_and_closes_an_empty_table(
    client: TestClient,
) -> None:
    ann, a = guest(client, "Ann")
    bob, b = guest(client, "Bob")
    table = ann.post("/api/tables", json={"game": "splendor", "num_players": 3}).json()
    tid = table["id"]
    assert bob.post(f"/api/tables/{tid}/join").json()["status"] == "open"
    assert bob.post(f"/api/tables/{tid}/join").status_code == 409  # seated already
    left = ann.post(f"/api/tables/{tid}/leave").json()
    assert left["host"] == b["id"] and left["status"] == "open"
    assert ann.post(f"/api/tables/{tid}/leave").status_code == 409  # not seated
    closed = bob.post(f"/api/tables/{tid}/leave").json()
    assert closed["status"] == "closed"
    assert ann.get("/api/tables").json() == {"tables": []}
    assert ann.post(f"/api/tables/{tid}/join").status_code == 409  # not open
    assert a["id"] != b["id"]


def test_bot_seats_make_an_unrated_table_that_starts_at_once(client: TestClient) -> None:
    ann, _ = guest(client, "Ann")
    t = ann.post("/api/tables", json={"game": "splendor", "num_players": 2, "bots": ["random"]})
    table = t.json()
    assert t.status_code == 201 and table["rated"] is False
    assert table["status"] == "started" and table["seats"][1]["bot"] == "random"
    assert ann.get(f"/api/games/{table['game_id']}").json()["seat"] == 0


def test_only_one_of_two_players_racing_for_the_last_seat_gets_it(client: TestClient) -> None:
    ann, _ = guest(client, "Ann")
    rivals = [guest(client, f"Rival {i}")[0] for i in range(2)]
    tid = ann.post("/api/tables", json={"game": "duel"}).json()["id"]
    with ThreadPoolExecutor(2) as pool:
        codes = sorted(pool.map(lambda c: c.post(f"/api/tables/{tid}/join").status_code, rivals))
    assert codes == [200, 409]
    table = ann.get(f"/api/tables/{tid}").json()
    assert table["status"] == "started"
    with storage_of(client).session() as s:
        assert s.scalar(select(GameRow.id).where(GameRow.id == table["game_id"])) is not None


def test_play_now_pairs_the_closest_rating_or_opens_a_table(client: TestClient) -> None:
    storage = storage_of(client)
    hosts = []
    for name, value in (("Low", 1200.0), ("High", 1900.0)):
        c, p = account(client, name)
        with storage.engine.begin() as conn:
            conn.execute(
                insert(RatingRow),
                {
                    "player_id": p["id"],
                    "kind": "duel",
                    "rating": {
                        "system": "glicko2",
                        "value": value,
                        "deviation": 80.0,
                        "volatility": 0.06,
                        "games": 10,
                    },
                    "value": value,
                    "games": 10,
                    "updated_at": datetime.now(UTC),
                },
            )
        hosts.append(c.post("/api/tables", json={"game": "duel"}).json())
    newcomer, _ = account(client, "New")  # 1500: closer to 1200 than to 1900
    paired = newcomer.post("/api/play-now", json={"game": "duel", "clock": None}).json()
    assert paired["id"] == hosts[0]["id"] and paired["status"] == "started"
    # a different clock finds nobody: a table of its own opens
    own = newcomer.post("/api/play-now", json={"game": "duel", "clock": CLOCK}).json()
    assert own["status"] == "open" and own["clock"] == CLOCK and own["rated"] is True
    assert own["id"] not in {h["id"] for h in hosts}


def test_the_lobby_socket_shows_tables_and_tells_seated_players_their_game(
    make_client: Callable[..., TestClient],
) -> None:
    base = make_client()
    ann, _ = guest(base, "Ann")
    bob, _ = guest(base, "Bob")
    with ann.websocket_connect("/ws/lobby") as ws:
        assert ws.receive_json() == {"type": "lobby", "tables": []}
        tid = ann.post("/api/tables", json={"game": "duel"}).json()["id"]
        update = ws.receive_json()
        assert update["type"] == "lobby" and [t["id"] for t in update["tables"]] == [tid]
        gid = bob.post(f"/api/tables/{tid}/join").json()["game_id"]
        seen = [ws.receive_json() for _ in range(2)]
        assert {"type": "started", "table_id": tid, "game_id": gid} in seen
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_a_rematch_seats_the_same_players_at_the_same_seats(client: TestClient) -> None:
    ann, a = account(client, "Ann")
    bob, b = account(client, "Bob")
    tid = ann.post("/api/tables", json={"game": "duel", "clock": CLOCK}).json()["id"]
    gid = bob.post(f"/api/tables/{tid}/join").json()["game_id"]
    assert ann.post(f"/api/games/{gid}/rematch").status_code == 409  # not over yet
    outsider, _ = guest(client, "Cy")
    bob.post(f"/api/games/{gid}/resign")
    assert outsider.post(f"/api/games/{gid}/rematch").status_code == 403
    assert ann.get(f"/api/games/{gid}/rematch").json() == {"table": None}  # none offered
    with ann.websocket_connect(f"/ws/games/{gid}") as ws:
        assert ws.receive_json()["type"] == "state"
        offer = bob.post(f"/api/games/{gid}/rematch").json()
        assert offer["status"] == "open" and offer["rematch_of"] == gid
        assert offer["clock"] == CLOCK and offer["rated"] is True
        assert [s["player_id"] for s in offer["seats"]] == [None, b["id"]]  # Bob's own seat
        told = ws.receive_json()
        assert told["type"] == "rematch" and told["table"]["id"] == offer["id"]
        assert outsider.post(f"/api/tables/{offer['id']}/join").status_code == 403
        assert offer["id"] not in [t["id"] for t in outsider.get("/api/tables").json()["tables"]]
        # a page loaded now reads the offer (Ann's seat still free: she has to accept)
        read = ann.get(f"/api/games/{gid}/rematch").json()["table"]
        assert read["id"] == offer["id"] and read["status"] == "open"
        assert [s["player_id"] for s in read["seats"]] == [None, b["id"]]
        started = ann.post(f"/api/games/{gid}/rematch").json()
        assert started["id"] == offer["id"] and started["status"] == "started"
        assert ws.receive_json()["table"]["game_id"] == started["game_id"]
    new = started["game_id"]
    read = bob.get(f"/api/games/{gid}/rematch").json()["table"]
    assert read["status"] == "started" and read["game_id"] == new
    for bad in ("no-such-game", "x" * 40, "%00"):
        assert ann.get(f"/api/games/{bad}/rematch").json() == {"table": None}
    assert ann.get(f"/api/games/{new}").json()["seat"] == 0
    assert bob.get(f"/api/games/{new}").json()["seat"] == 1
    assert a["id"] != b["id"]


# --------------------------------------------------------------------------- guests play casual


def test_rated_tables_are_for_accounts_and_guests_play_casual(client: TestClient) -> None:
    ann, _ = account(client, "Ann")
    gus, g = guest(client, "Gus")
    rated = ann.post("/api/tables", json={"game": "duel"}).json()
    assert rated["rated"] is True
    r = gus.post(f"/api/tables/{rated['id']}/join")
    assert r.status_code == 403 and "accounts" in r.json()["detail"]
    assert ann.get(f"/api/tables/{rated['id']}").json()["seats"][1]["free"] is True  # unchanged
    r = gus.post("/api/tables", json={"game": "duel", "rated": True})
    assert r.status_code == 403 and "accounts" in r.json()["detail"]
    casual = gus.post("/api/tables", json={"game": "duel"})
    assert casual.status_code == 201 and casual.json()["rated"] is False  # a guest's default
    seat = casual.json()["seats"][0]
    assert seat["player_id"] == g["id"] and seat["guest"] is True and seat["name"] == "Gus"
    started = ann.post(f"/api/tables/{casual.json()['id']}/join").json()
    assert started["status"] == "started"
    assert [s["guest"] for s in started["seats"]] == [True, False]
    state = ann.get(f"/api/games/{started['game_id']}").json()
    assert [(s["name"], s["guest"]) for s in state["seats"]] == [("Gus", True), ("Ann", False)]
    with storage_of(client).session() as s:
        game = s.get(GameRow, started["game_id"])
        assert game is not None and game.rated is False


def test_play_now_pairs_a_guest_at_casual_tables_only(client: TestClient) -> None:
    ann, _ = account(client, "Ann")
    rated = ann.post("/api/play-now", json={"game": "duel", "clock": None}).json()
    assert rated["rated"] is True and rated["status"] == "open"
    gus, _ = guest(client, "Gus")
    own = gus.post("/api/play-now", json={"game": "duel", "clock": None}).json()
    assert own["id"] != rated["id"] and own["rated"] is False and own["status"] == "open"
    gil, _ = guest(client, "Gil")
    paired = gil.post("/api/play-now", json={"game": "duel", "clock": None}).json()
    assert paired["id"] == own["id"] and paired["status"] == "started"
    assert ann.get(f"/api/tables/{rated['id']}").json()["status"] == "open"  # still waiting
