"""At the game table (issue 15): resigning (2 players: the other wins; 3-4 players: a bot
plays on and the player ranks last), chat kept with the game, the list of spectators, and
ratings that change once when a rated game ends, with the leaderboard."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from splendor.server.live import Lifecycle
from splendor.server.rated_games import _standing, apply_ratings
from splendor.server.storage import GameRow, RatingRow, Storage

from .test_tables import account, guest, storage_of


def rated_duel(client: TestClient) -> tuple[TestClient, TestClient, dict[str, Any], str]:
    """Two accounts meet at a rated Duel table; returns their clients, their players and
    the game id."""
    ann, a = account(client, "Ann")
    bob, b = account(client, "Bob")
    tid = ann.post("/api/tables", json={"game": "duel"}).json()["id"]
    gid = bob.post(f"/api/tables/{tid}/join").json()["game_id"]
    return ann, bob, {"ann": a, "bob": b}, gid


def ratings_of(storage: Storage, kind: str) -> dict[str, dict[str, Any]]:
    with storage.session() as s:
        rows = s.scalars(select(RatingRow).where(RatingRow.kind == kind)).all()
    return {r.player_id: r.rating for r in rows}


def test_resigning_a_two_player_rated_game_ends_it_and_rates_it_once(client: TestClient) -> None:
    ann, bob, who, gid = rated_duel(client)
    r = bob.post(f"/api/games/{gid}/resign")
    assert r.status_code == 200, r.text
    state = r.json()
    assert state["status"] == "finished"
    assert state["result"]["winners"] == [0] and state["result"]["end_reason"] == "forfeit"
    assert "resigned" in state["result"]["forfeit"]["reason"]
    assert bob.post(f"/api/games/{gid}/resign").status_code == 409  # over
    storage = storage_of(client)
    client.portal.call(client.app.state.service.rate_pending)  # type: ignore[union-attr,attr-defined]
    ratings = ratings_of(storage, "duel")
    assert ratings[who["ann"]["id"]]["value"] > 1500 > ratings[who["bob"]["id"]]["value"]
    assert ratings[who["ann"]["id"]]["games"] == 1
    assert apply_ratings(storage, gid) is None  # once only
    assert ratings_of(storage, "duel") == ratings
    board = client.get("/api/players/leaderboard/duel").json()
    assert [e["player"]["name"] for e in board["players"]] == ["Ann", "Bob"]
    assert board["players"][0]["rank"] == 1 and board["players"][0]["provisional"] is True
    assert client.get("/api/players/leaderboard/chess").status_code == 400
    page = ann.get(f"/api/players/{who['ann']['id']}").json()
    assert page["ratings"]["duel"]["games"] == 1
    assert page["finished_games"][0]["outcome"] == "won"


def test_a_game_rated_from_several_threads_at_once_is_rated_once(
    make_client: Callable[..., TestClient],
) -> None:
    """The service rates a game when it ends and its maintenance retries unrated games,
    each from a worker thread (two processes may too). On SQLite a read starts no
    transaction, so both used to read "not rated yet" and both applied the game: the
    players had 2 games after 1 (seen in the browser test of a real-time game). Now the
    first to stamp ``rated_at`` (a conditional UPDATE, the transaction's first statement)
    rates it, and the others find it stamped.

    The app's own maintenance (every 5 s) would rate the reset game too, racing the
    threads (once in CI all four found it stamped), so it sweeps hourly here."""
    import threading

    client = make_client(lifecycle=Lifecycle(sweep_every=3600))
    _ann, bob, who, gid = rated_duel(client)
    bob.post(f"/api/games/{gid}/resign")
    storage = storage_of(client)
    service = client.app.state.service  # type: ignore[attr-defined]
    client.portal.call(service.rate_pending)
    # the rating the resignation started in the background ends before the races begin
    # (else it could stamp the game after a reset: all four threads then found it rated)
    deadline = time.time() + 30
    while any(t.get_name().startswith("rate:") for t in service.ctx.background):
        assert time.time() < deadline, "the background rating did not end"
        time.sleep(0.05)
    for attempt in range(12):
        with storage.engine.begin() as c:  # as if not rated yet
            c.execute(update(GameRow).where(GameRow.id == gid).values(rated_at=None))
            c.execute(RatingRow.__table__.delete())
        barrier = threading.Barrier(4)
        answers: list[Any] = []

        def rate(barrier: threading.Barrier, answers: list[Any]) -> None:
            barrier.wait()
            answers.append(apply_ratings(storage, gid))

        threads = [threading.Thread(target=rate, args=(barrier, answers)) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert sum(a is not None for a in answers) == 1, (attempt, answers)
        games = {p: r["games"] for p, r in ratings_of(storage, "duel").items()}
        assert games == {who["ann"]["id"]: 1, who["bob"]["id"]: 1}, attempt


def test_only_a_seated_player_resigns_and_an_unrated_game_changes_no_rating(
    client: TestClient,
) -> None:
    ann, _ = guest(client, "Ann")
    table = ann.post("/api/tables", json={"game": "duel", "bots": ["random"]}).json()
    gid = table["game_id"]
    watcher, _ = guest(client, "Watcher")
    assert watcher.post(f"/api/games/{gid}/resign").status_code == 403
    assert ann.post(f"/api/games/{gid}/resign").json()["status"] == "finished"
    client.portal.call(client.app.state.service.rate_pending)  # type: ignore[union-attr,attr-defined]
    assert ratings_of(storage_of(client), "duel") == {}


def test_resigning_a_three_player_game_hands_the_seat_to_a_bot(client: TestClient) -> None:
    players = [guest(client, name) for name in ("Ann", "Bob", "Cy")]
    tid = (
        players[0][0].post("/api/tables", json={"game": "splendor", "num_players": 3}).json()["id"]
    )
    for c, _ in players[1:]:
        gid = c.post(f"/api/tables/{tid}/join").json()["game_id"]
    cy = players[2][0]
    state = cy.post(f"/api/games/{gid}/resign").json()
    assert state["status"] == "active"
    seat = state["seats"][2]
    assert seat["type"] == "bot" and seat["bot"] == "greedy" and seat["name"] == "Cy (bot)"
    assert cy.post(f"/api/games/{gid}/resign").status_code == 403  # a bot's seat now
    assert cy.get(f"/api/games/{gid}").json()["seat"] is None  # Cy watches from now on
    with storage_of(client).session() as s:
        row = s.get(GameRow, gid)
        assert row is not None and row.dropped == [2]


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        ({"winners": [0]}, ([0], None)),
        ({"winners": [0, 1]}, ([0, 1], None)),
        ({"winners": [1], "dropped": [2]}, ([1], [2, 1, 3])),
        ({"winners": [2], "dropped": [2]}, ([0, 1], [1, 1, 3])),  # the resigned seat's bot won
        ({"winners": [], "dropped": [0]}, ([1, 2], [3, 1, 1])),
    ],
)
def test_resigned_players_rank_last(result: dict[str, Any], expected: Any) -> None:
    assert _standing(result, 3) == expected


def test_chat_is_kept_with_the_game_and_sent_to_the_table(client: TestClient) -> None:
    ann, bob, _, gid = rated_duel(client)
    with bob.websocket_connect(f"/ws/games/{gid}") as ws:
        assert ws.receive_json()["seat"] == 1
        r = ann.post(f"/api/games/{gid}/chat", json={"text": "  good\u202e luck\n  "})
        assert r.status_code == 201, r.text
        assert r.json()["text"] == "good luck" and r.json()["name"] == "Ann"
        msg = ws.receive_json()
        assert msg == {"type": "chat", "message": r.json()}
        ws.send_json({"type": "chat", "text": "<b>thanks</b>"})
        echo = ws.receive_json()
        assert echo["type"] == "chat" and echo["message"]["text"] == "<b>thanks</b>"
    for bad in ("", "x" * 301, 5):
        assert ann.post(f"/api/games/{gid}/chat", json={"text": bad}).status_code == 400
    watcher, _ = guest(client, "Watcher")
    assert watcher.post(f"/api/games/{gid}/chat", json={"text": "hi"}).status_code == 403
    texts = [m["text"] for m in watcher.get(f"/api/games/{gid}/chat").json()["messages"]]
    assert texts == ["good luck", "<b>thanks</b>"]


def test_state_messages_list_the_spectators(client: TestClient) -> None:
    ann, _, _, gid = rated_duel(client)
    watcher, _ = guest(client, "Watcher")
    with ann.websocket_connect(f"/ws/games/{gid}") as seat_ws:
        first = seat_ws.receive_json()
        none = {"count": 0, "names": [], "guests": []}
        assert first["seat"] == 0 and first["spectators"] == none
        assert [(s["name"], s["guest"]) for s in first["seats"]] == [("Ann", False), ("Bob", False)]
        watching = {"count": 1, "names": ["Watcher"], "guests": ["Watcher"]}  # labelled a guest
        with watcher.websocket_connect(f"/ws/games/{gid}") as ws:
            assert ws.receive_json()["spectators"] == watching
            assert seat_ws.receive_json()["spectators"] == watching
        assert seat_ws.receive_json()["spectators"] == none


def test_a_rated_game_that_ended_while_rating_failed_is_rated_by_maintenance(
    client: TestClient,
) -> None:
    _, bob, who, gid = rated_duel(client)
    storage = storage_of(client)
    with storage.engine.begin() as c:  # as if the server died between the end and the rating
        c.execute(
            update(GameRow)
            .where(GameRow.id == gid)
            .values(status="finished", result={"scores": [3, 1], "winners": [0], "turns": 4})
        )
    service = client.app.state.service  # type: ignore[attr-defined]
    assert client.portal.call(service.rate_pending) == 1  # type: ignore[union-attr]
    assert client.portal.call(service.rate_pending) == 0  # type: ignore[union-attr]
    assert ratings_of(storage, "duel")[who["bob"]["id"]]["value"] < 1500
    assert bob.get("/api/players/leaderboard/duel").json()["players"][0]["player"]["name"] == "Ann"
