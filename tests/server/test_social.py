"""Friends and blocks (issue 32): follow and unfollow, friends (mutual follows) with their
online status and games, blocks (never paired by Play now, no seat at the same table, no
chat from the blocked player, live or in the history), and inviting a friend to a table."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from splendor.server import social
from splendor.server.storage import Storage

from .test_my_games import member, receive, start_game, storage_of

CLOCK = {"kind": "realtime", "base": 300, "increment": 15}


def relation(c: TestClient, player_id: str) -> dict[str, Any]:
    r = c.get(f"/api/players/{player_id}/relation")
    assert r.status_code == 200, r.text
    found: dict[str, Any] = r.json()["relation"]
    return found


def test_follow_unfollow_and_friends(client: TestClient) -> None:
    ann, a = member(client, "Ann")
    bob, b = member(client, "Bob")
    cy, c = member(client, "Cy")
    r = ann.post(f"/api/players/{b['id']}/follow")
    assert r.status_code == 200, r.text
    assert r.json()["relation"] == {
        "following": True,
        "followed_by": False,
        "friend": False,
        "blocked": False,
    }
    assert ann.post(f"/api/players/{b['id']}/follow").status_code == 200  # idempotent
    assert relation(bob, a["id"])["followed_by"] is True
    listed = ann.get("/api/me/friends").json()
    assert [p["id"] for p in listed["following"]] == [b["id"]] and listed["friends"] == []
    assert [p["id"] for p in bob.get("/api/me/friends").json()["followers"]] == [a["id"]]
    bob.post(f"/api/players/{a['id']}/follow")
    assert relation(ann, b["id"])["friend"] is True
    gid = start_game(bob, cy)
    with bob.websocket_connect("/ws/me") as ws:
        receive(ws, "waiting")
        [friend] = ann.get("/api/me/friends").json()["friends"]
        assert friend["id"] == b["id"] and friend["name"] == "Bob" and friend["online"] is True
        assert [g["id"] for g in friend["games"]] == [gid]
    assert ann.get("/api/me/friends").json()["friends"][0]["online"] is False
    r = ann.delete(f"/api/players/{b['id']}/follow")
    assert r.json()["relation"]["friend"] is False and r.json()["relation"]["followed_by"] is True
    assert ann.get("/api/me/friends").json()["followers"][0]["id"] == b["id"]
    assert c["id"] not in {p["id"] for g in ann.get("/api/me/friends").json().values() for p in g}


def test_hostile_follows_and_blocks(client: TestClient) -> None:
    ann, a = member(client, "Ann")
    for verb in ("post", "delete"):
        for what in ("follow", "block"):
            yourself = getattr(ann, verb)(f"/api/players/{a['id']}/{what}")
            assert yourself.status_code == 400, (verb, what)
            unknown = getattr(ann, verb)(f"/api/players/nobody-at-all/{what}")
            assert unknown.status_code == 404, (verb, what)
            too_long = getattr(ann, verb)(f"/api/players/{'x' * 40}/{what}")
            assert too_long.status_code == 404
            anonymous = getattr(client, verb)(f"/api/players/{a['id']}/{what}")
            assert anonymous.status_code == 401
    other_site = ann.post(
        f"/api/players/{a['id']}/follow", headers={"Origin": "https://evil.example"}
    )
    assert other_site.status_code == 403
    assert client.get("/api/me/friends").status_code == 401
    assert client.get("/api/me/blocks").status_code == 401
    assert ann.get("/api/me/friends").json() == {"friends": [], "following": [], "followers": []}


def test_a_block_ends_follows_and_forbids_following(client: TestClient) -> None:
    ann, a = member(client, "Ann")
    bob, b = member(client, "Bob")
    ann.post(f"/api/players/{b['id']}/follow")
    bob.post(f"/api/players/{a['id']}/follow")
    r = ann.post(f"/api/players/{b['id']}/block")
    assert r.status_code == 200
    assert r.json()["relation"] == {
        "following": False,
        "followed_by": False,
        "friend": False,
        "blocked": True,
    }
    assert ann.post(f"/api/players/{b['id']}/block").status_code == 200  # idempotent
    [blocked] = ann.get("/api/me/blocks").json()["blocks"]
    assert blocked["id"] == b["id"] and blocked["name"] == "Bob"
    assert bob.get("/api/me/blocks").json() == {"blocks": []}
    assert relation(bob, a["id"])["blocked"] is False  # whoever blocks you is private
    assert bob.post(f"/api/players/{a['id']}/follow").status_code == 403
    assert ann.post(f"/api/players/{b['id']}/follow").status_code == 403
    assert ann.delete(f"/api/players/{b['id']}/block").json()["relation"]["blocked"] is False
    assert ann.get("/api/me/blocks").json() == {"blocks": []}
    assert bob.post(f"/api/players/{a['id']}/follow").status_code == 200


def test_blocked_between_lists_the_pairs_either_way(client: TestClient) -> None:
    ann, a = member(client, "Ann")
    bob, b = member(client, "Bob")
    cy, c = member(client, "Cy")
    ann.post(f"/api/players/{b['id']}/block")
    cy.post(f"/api/players/{a['id']}/block")
    storage: Storage = storage_of(client)
    pairs = social.blocked_between(storage, [a["id"], b["id"], c["id"]])
    assert pairs == {frozenset((a["id"], b["id"])), frozenset((a["id"], c["id"]))}
    assert social.blocked_between(storage, [b["id"], c["id"]]) == set()
    assert social.blocked_pairs is social.blocked_between


def test_play_now_never_pairs_players_with_a_block(client: TestClient) -> None:
    ann, a = member(client, "Ann")
    bob, b = member(client, "Bob")
    cy, _ = member(client, "Cy")
    ann.post(f"/api/players/{b['id']}/block")
    body = {"game": "duel", "num_players": 2, "clock": CLOCK}
    first = ann.post("/api/play-now", json=body).json()
    assert first["status"] == "open"
    second = bob.post("/api/play-now", json=body).json()
    assert second["id"] != first["id"] and second["status"] == "open"  # not paired
    assert [s["player_id"] for s in second["seats"]] == [b["id"], None]
    # someone without a block is paired with one of them
    third = cy.post("/api/play-now", json=body).json()
    assert third["id"] in (first["id"], second["id"]) and third["status"] == "started"
    # the blocker's side too: Bob blocked by Ann never lands at Ann's table either way
    assert a["id"] in [s["player_id"] for s in first["seats"]]


def test_a_block_refuses_a_seat_at_the_same_table(client: TestClient) -> None:
    ann, a = member(client, "Ann")
    bob, b = member(client, "Bob")
    cy, c = member(client, "Cy")
    tid = ann.post("/api/tables", json={"game": "splendor", "num_players": 3}).json()["id"]
    ann.post(f"/api/players/{b['id']}/block")
    refused = bob.post(f"/api/tables/{tid}/join")
    assert refused.status_code == 403 and "block" in refused.json()["detail"]
    # the other way: Cy blocks the host, and cannot sit down with her
    cy.post(f"/api/players/{a['id']}/block")
    assert cy.post(f"/api/tables/{tid}/join").status_code == 403
    table = client.get(f"/api/tables/{tid}").json()
    assert [s["player_id"] for s in table["seats"]] == [a["id"], None, None]  # unchanged
    # a block with a seated guest (not the host) counts too
    cy.delete(f"/api/players/{a['id']}/block")
    assert cy.post(f"/api/tables/{tid}/join").status_code == 200
    dee, _ = member(client, "Dee")
    cy.post(f"/api/players/{b['id']}/block")
    assert c["id"] != b["id"]
    ann.delete(f"/api/players/{b['id']}/block")
    assert bob.post(f"/api/tables/{tid}/join").status_code == 403  # Cy blocks Bob
    assert dee.post(f"/api/tables/{tid}/join").json()["status"] == "started"


def test_the_blocker_does_not_receive_the_blocked_players_chat(client: TestClient) -> None:
    ann, a = member(client, "Ann")
    bob, b = member(client, "Bob")
    gid = start_game(ann, bob, clock=CLOCK)
    assert bob.post(f"/api/games/{gid}/chat", json={"text": "before"}).status_code == 201
    ann.post(f"/api/players/{b['id']}/block")
    with (
        ann.websocket_connect(f"/ws/games/{gid}") as ann_ws,
        client.websocket_connect(f"/ws/games/{gid}") as watcher,
    ):
        assert ann_ws.receive_json()["type"] == "state"
        assert bob.post(f"/api/games/{gid}/chat", json={"text": "hidden"}).status_code == 201
        assert ann.post(f"/api/games/{gid}/chat", json={"text": "mine"}).status_code == 201
        chats = []
        while len(chats) < 2:
            m = watcher.receive_json()
            if m["type"] == "chat":
                chats.append(m["message"]["text"])
        assert chats == ["hidden", "mine"]  # a spectator reads both
        while True:
            m = ann_ws.receive_json()
            if m["type"] == "chat":
                break
        assert m["message"]["text"] == "mine"  # Bob's message never came to Ann
    texts = [m["text"] for m in ann.get(f"/api/games/{gid}/chat").json()["messages"]]
    assert texts == ["mine"]  # the history hides Bob's messages, even from before
    texts = [m["text"] for m in bob.get(f"/api/games/{gid}/chat").json()["messages"]]
    assert texts == ["before", "hidden", "mine"]  # Bob still reads Ann
    assert [m["text"] for m in client.get(f"/api/games/{gid}/chat").json()["messages"]] == texts
    ann.delete(f"/api/players/{b['id']}/block")
    assert len(ann.get(f"/api/games/{gid}/chat").json()["messages"]) == 3
    assert a["id"] != b["id"]


def test_inviting_a_friend_to_a_table(client: TestClient) -> None:
    ann, a = member(client, "Ann")
    bob, b = member(client, "Bob")
    cy, c = member(client, "Cy")
    tid = ann.post("/api/tables", json={"game": "duel", "rated": False}).json()["id"]
    # not friends yet: only following is not enough
    ann.post(f"/api/players/{b['id']}/follow")
    r = ann.post(f"/api/tables/{tid}/invite", json={"player_id": b["id"]})
    assert r.status_code == 403 and "friends" in r.json()["detail"]
    bob.post(f"/api/players/{a['id']}/follow")
    with bob.websocket_connect("/ws/me") as ws:
        receive(ws, "waiting")
        r = ann.post(f"/api/tables/{tid}/invite", json={"player_id": b["id"]})
        assert r.status_code == 200, r.text
        assert r.json() == {"invited": b["id"], "online": True, "url": f"/tables/{tid}"}
        invite = receive(ws, "invite")
        assert invite["url"] == f"/tables/{tid}"
        assert invite["from"] == {"id": a["id"], "name": "Ann"}
        assert invite["table"]["id"] == tid and invite["table"]["game"] == "duel"
    # the hostile cases
    assert cy.post(f"/api/tables/{tid}/invite", json={"player_id": b["id"]}).status_code == 403
    assert ann.post(f"/api/tables/{tid}/invite", json={"player_id": "nobody"}).status_code == 404
    assert ann.post(f"/api/tables/{tid}/invite", json={"player_id": a["id"]}).status_code == 400
    assert ann.post(f"/api/tables/{tid}/invite", json={"player_id": 7}).status_code == 404
    assert ann.post(f"/api/tables/{tid}/invite", json={}).status_code == 404
    assert ann.post("/api/tables/nope/invite", json={"player_id": b["id"]}).status_code == 404
    assert ann.post(f"/api/tables/{tid}/invite", content=b"[1]").status_code == 400
    assert client.post(f"/api/tables/{tid}/invite", json={"player_id": b["id"]}).status_code == 401
    # an invitation table: the link carries its code, which the inviter must send
    opened = ann.post("/api/tables", json={"game": "duel", "visibility": "invite"}).json()
    code, iid = opened["invite_code"], opened["id"]
    assert ann.post(f"/api/tables/{iid}/invite", json={"player_id": b["id"]}).status_code == 403
    wrong = ann.post(f"/api/tables/{iid}/invite", json={"player_id": b["id"], "code": "x"})
    assert wrong.status_code == 403
    ok = ann.post(f"/api/tables/{iid}/invite", json={"player_id": b["id"], "code": code})
    assert ok.json()["url"] == f"/tables/{iid}#code={code}" and ok.json()["online"] is False
    # the friend joins with it; then the table is full and started: no more invitations
    assert bob.post(f"/api/tables/{iid}/join", json={"code": code}).json()["status"] == "started"
    again = ann.post(f"/api/tables/{iid}/invite", json={"player_id": b["id"], "code": code})
    assert again.status_code == 409
    # a block between the friend and a seated player forbids the invitation
    cy.post(f"/api/players/{a['id']}/follow")
    ann.post(f"/api/players/{c['id']}/follow")
    t3 = bob.post("/api/tables", json={"game": "splendor", "num_players": 3}).json()["id"]
    assert ann.post(f"/api/tables/{t3}/join").status_code == 200
    cy.post(f"/api/players/{b['id']}/block")
    refused = ann.post(f"/api/tables/{t3}/invite", json={"player_id": c["id"]})
    assert refused.status_code == 403 and "block" in refused.json()["detail"]


def test_the_notifier_is_told_of_an_invitation(client: TestClient) -> None:
    ann, a = member(client, "Ann")
    bob, b = member(client, "Bob")
    ann.post(f"/api/players/{b['id']}/follow")
    bob.post(f"/api/players/{a['id']}/follow")
    told: list[tuple[Any, ...]] = []

    class Recorder:
        async def notify(self, *args: Any) -> None:
            told.append(args)

    state = client.app.state  # type: ignore[attr-defined]
    previous = getattr(state, "notifier", None)
    state.notifier = Recorder()
    try:
        tid = ann.post("/api/tables", json={"game": "duel", "rated": False}).json()["id"]
        assert ann.post(f"/api/tables/{tid}/invite", json={"player_id": b["id"]}).status_code == 200
    finally:
        state.notifier = previous
    [(player, kind, key, title, body, url)] = told
    assert (player, kind, key, url) == (b["id"], "invite", f"{tid}:{a['id']}", f"/tables/{tid}")
    assert title.translated("en") == "Ann invites you to a table"
    assert "Splendor Duel" in body.translated("fr")


@pytest.mark.parametrize("verb", ["post", "delete"])
def test_follow_changes_nothing_for_an_unknown_player(client: TestClient, verb: str) -> None:
    ann, _ = member(client, "Ann")
    assert getattr(ann, verb)("/api/players/%00/follow").status_code == 404
    assert ann.get("/api/me/friends").json()["following"] == []
