"""The REST API and the WebSocket, through FastAPI's TestClient (a real app on a SQLite
file, bots in a worker process)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from splendor.i18n import LANGUAGES
from splendor.record import GameRecord
from splendor.server.app import Limits, create_app

from .util import check_message, pick


@pytest.fixture
def client(tmp_path: Path, bot_pool: Any, web_dir: Path) -> Iterator[TestClient]:
    """A started app on a fresh SQLite file, without rate limits: these tests play whole
    games at machine speed (the limits are tested in test_limits.py)."""
    app = create_app(
        f"sqlite:///{tmp_path / 'api.db'}",
        web_dir=web_dir,
        executor=bot_pool,
        limits=Limits.unlimited_rates(),
    )
    with TestClient(app) as c:
        yield c


def auth(token: str | None) -> dict[str, str]:
    """The header that names a seat (none for a spectator)."""
    return {"Authorization": f"Bearer {token}"} if token else {}


def create(
    client: TestClient,
    game: str = "splendor",
    seats: list[dict[str, Any]] | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    seats = seats or [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
    r = client.post("/api/games", json={"game": game, "seats": seats, "options": options or {}})
    assert r.status_code == 201, r.text
    return r.json()


def state(client: TestClient, gid: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}", headers=auth(token))
    assert r.status_code == 200, r.text
    return r.json()


def true_positions(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The full position after each number of moves, from the finished game's record."""
    rec = GameRecord.from_dict(record)
    st = rec.new_state()
    out = [st.to_dict()]
    for text in rec.actions:
        st.apply(text)
        out.append(st.to_dict())
    return out


def test_meta(client: TestClient) -> None:
    m = client.get("/api/meta").json()
    assert m["bots"] == ["random", "greedy", "easy", "medium", "hard", "expert"]
    assert m["games"]["splendor"]["min_players"] == 2 and m["games"]["splendor"]["max_players"] == 4
    assert m["games"]["duel"]["max_players"] == 2
    assert len(m["games"]["splendor"]["tables"]["cards"]) == 90
    assert len(m["games"]["duel"]["tables"]["royals"]) == 4


@pytest.mark.parametrize(
    "body, words",
    [
        ({"game": "chess", "seats": [{"type": "human"}] * 2}, "unknown game"),
        ({"game": "splendor", "seats": [{"type": "human"}]}, "2 to 4"),
        ({"game": "splendor", "seats": [{"type": "human"}] * 5}, "2 to 4"),
        ({"game": "duel", "seats": [{"type": "human"}] * 3}, "2 to 2"),
        ({"game": "duel", "seats": [{"type": "bot", "bot": "random"}] * 2}, "at least one human"),
        (
            {"game": "duel", "seats": [{"type": "human"}, {"type": "bot", "bot": "genius"}]},
            "unknown bot",
        ),
        ({"game": "duel", "seats": [{"type": "human"}, {"type": "alien"}]}, "seat 1"),
        (
            {"game": "splendor", "seats": [{"type": "human"}] * 2, "options": {"turn_cap": 3}},
            "unknown option",
        ),
        (
            {"game": "duel", "seats": [{"type": "human"}] * 2, "options": {"turn_cap": "x"}},
            "turn_cap",
        ),
        ({"game": "duel", "seats": "two"}, "list"),
        ([1, 2], "JSON object"),
    ],
)
def test_create_rejects_bad_bodies(client: TestClient, body: Any, words: str) -> None:
    r = client.post("/api/games", json=body)
    assert r.status_code == 400, r.text
    assert words in r.json()["detail"]


def test_create_rejects_non_json(client: TestClient) -> None:
    r = client.post(
        "/api/games", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 400 and "not valid JSON" in r.json()["detail"]


def test_create_gives_tokens_to_people_only_and_stores_hashes(client: TestClient) -> None:
    g = create(
        client,
        "splendor",
        [
            {"type": "human", "name": "Ann"},
            {"type": "bot", "bot": "random"},
            {"type": "human", "name": "Cy"},
        ],
    )
    people = [s for s in g["seats"] if s["type"] == "human"]
    assert [s["seat"] for s in people] == [0, 2]
    for s in people:
        assert len(s["token"]) >= 40 and s["invite"] == f"/games/{g['game_id']}#token={s['token']}"
    bot = g["seats"][1]
    assert "token" not in bot and "invite" not in bot and bot["bot"] == "random"
    assert g["spectate"] == f"/games/{g['game_id']}"
    assert "seed" not in json.dumps(g)
    storage = client.app.state.storage
    stored = storage.load_game(g["game_id"])
    for s in people:
        assert stored.seats[s["seat"]].token_hash != s["token"]
    raw = storage.url.removeprefix("sqlite:///")
    blob = b"".join(
        open(p, "rb").read() for p in (raw, raw + "-wal") if __import__("os").path.exists(p)
    )
    assert all(s["token"].encode() not in blob for s in people)


def play_over_ws(
    client: TestClient, gid: str, token: str, seat: int, seed: int, spectate: bool = True
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Play ``seat`` with the test policy over a WebSocket until the game ends; returns
    the seat's and a spectator's state messages."""
    rng = random.Random(seed)
    mine: list[dict[str, Any]] = []
    spect: list[dict[str, Any]] = []
    with (
        client.websocket_connect(f"/ws/games/{gid}") as watcher,
        client.websocket_connect(f"/ws/games/{gid}") as ws,
    ):
        assert ws.receive_json()["seat"] is None  # a spectator until the auth message
        ws.send_json({"type": "auth", "token": token})
        acted = -1
        authed = False
        while True:
            m = ws.receive_json()
            assert m["type"] == "state", m
            if not authed and m["seat"] is None:
                continue  # a bot's move broadcast to the spectator before the auth arrived
            authed = True
            assert m["seat"] == seat
            mine.append(m)
            if m["status"] == "finished":
                break
            if m["legal_actions"] and m["move"] > acted:
                acted = m["move"]
                ws.send_json(
                    {
                        "type": "action",
                        "action": pick(rng, [a["notation"] for a in m["legal_actions"]]),
                        "move": m["move"],
                    }
                )
        if spectate:
            while True:
                m = watcher.receive_json()
                spect.append(m)
                if m["status"] == "finished":
                    break
    return mine, spect


@pytest.mark.parametrize(
    "game, seats",
    [
        ("splendor", [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}]),
        ("duel", [{"type": "bot", "bot": "greedy"}, {"type": "human", "name": "Ann"}]),
        (
            "splendor",
            [
                {"type": "bot", "bot": "greedy"},
                {"type": "human", "name": "Ann"},
                {"type": "bot", "bot": "random"},
            ],
        ),
    ],
)
def test_play_against_bots_to_the_end(
    client: TestClient, game: str, seats: list[dict[str, Any]]
) -> None:
    """A person plays a bot (the bots think in a worker process) to the end over the
    WebSocket; every message the seat and a spectator got hides what it must (checked
    against the true positions, known from the record once the game is over)."""
    g = create(client, game, seats, {"turn_cap": 300} if game == "duel" else {})
    me = next(s for s in g["seats"] if s["type"] == "human")
    assert client.get(f"/api/games/{g['game_id']}/record").status_code == 409
    mine, spect = play_over_ws(client, g["game_id"], me["token"], me["seat"], seed=1)
    final = mine[-1]
    assert (
        final["status"] == "finished"
        and final["result"] is not None
        and final["current_player"] is None
    )
    r = client.get(f"/api/games/{g['game_id']}/record")
    assert r.status_code == 200
    assert r.headers["content-disposition"] == f'attachment; filename="{g["game_id"]}.json"'
    record = r.json()
    GameRecord.from_dict(record).replay()
    assert record["actions"] == [e["notation"] for e in final["log"]]
    assert record["result"] == final["result"]
    truth = true_positions(record)
    for m in mine:
        check_message(m, truth[m["move"]], me["seat"])
    for m in spect:
        check_message(m, truth[m["move"]], None)
    assert [m["move"] for m in spect] == sorted(m["move"] for m in spect)
    assert spect[-1]["move"] == len(record["actions"])
    # replay frames: every position, the full one (the game is over)
    rp = client.get(f"/api/games/{g['game_id']}/replay").json()
    assert rp["game"] == g["game"] and rp["result"] == record["result"]
    assert [f["move"] for f in rp["frames"]] == list(range(len(truth)))
    assert rp["frames"][0]["notation"] is None
    assert [f["notation"] for f in rp["frames"][1:]] == record["actions"]
    assert [f["observation"] for f in rp["frames"]] == truth
    # effects (issue 16): what the rules did besides each notation, the same in the log,
    # the record (checked by its replay above) and the replay frames; each has its text in
    # every language, naming the seat's player
    told = GameRecord.from_dict(record).with_effects().effects
    assert record["effects"] == told
    assert told or game == "splendor"  # a whole Duel game moves privileges at least
    in_log = [
        {"action": e["index"], **{k: v for k, v in x.items() if k != "text"}}
        for e in final["log"]
        for x in e.get("effects", [])
    ]
    assert in_log == told
    in_frames = [
        {"action": f["move"] - 1, **{k: v for k, v in x.items() if k != "text"}}
        for f in rp["frames"]
        for x in f.get("effects", [])
    ]
    assert in_frames == told
    for e in final["log"]:
        for x in e.get("effects", []):
            assert set(x["text"]) == set(LANGUAGES)
            # the players are left for the client to name as it shows them
            assert all(f"{{seat{x['seat']}}}" in text for text in x["text"].values())
    # the state asked over HTTP carries the same log
    assert state(client, g["game_id"])["log"] == final["log"]


def test_seat_tokens_and_errors_change_nothing(client: TestClient) -> None:
    g = create(client)
    other = create(client)
    gid = g["game_id"]
    ann, bob = g["seats"][0]["token"], g["seats"][1]["token"]
    before = state(client, gid, ann)
    assert before["seat"] == 0 and before["current_player"] == 0 and before["legal_actions"]
    first = before["legal_actions"][0]["notation"]

    def post(body: Any) -> Any:
        return client.post(f"/api/games/{gid}/actions", json=body)

    cases = [
        ({"action": first, "move": 0}, 403, "token is required"),
        ({"token": "nope", "action": first, "move": 0}, 403, "not a seat token"),
        (
            {"token": other["seats"][0]["token"], "action": first, "move": 0},
            403,
            "not a seat token",
        ),
        ({"token": bob, "action": first, "move": 0}, 409, "not your turn"),
        ({"token": ann, "action": first, "move": 3}, 409, "stale"),
        ({"token": ann, "action": "fly away", "move": 0}, 400, "not an action"),
        ({"token": ann, "action": 999, "move": 0}, 400, "out of range"),
        ({"token": ann, "action": True, "move": 0}, 400, "action id"),
        ({"token": ann, "action": first, "move": "zero"}, 400, "move"),
        ({"token": ann, "action": first, "move": None}, 400, '"move" is required'),
        ({"token": ann, "action": first}, 400, 'missing "move"'),
        ({"token": ann, "move": 0}, 400, "missing"),
        ({"token": ann, "action": "buy 3.1", "move": 0}, 422, "Legal now:"),
        ({"token": ann, "action": "pay", "move": 0}, 422, "illegal action 'pay'"),
    ]
    for body, status, words in cases:
        r = post(body)
        assert r.status_code == status, (body, r.text)
        assert words in r.json()["detail"], (body, r.json())
    # the token in the header is the same as in the body; both, when they differ, are refused
    r = client.post(
        f"/api/games/{gid}/actions", json={"action": first, "move": 0}, headers=auth(bob)
    )
    assert r.status_code == 409 and "not your turn" in r.json()["detail"]
    r = client.post(
        f"/api/games/{gid}/actions",
        json={"token": ann, "action": first, "move": 0},
        headers=auth(bob),
    )
    assert r.status_code == 400 and "different seat tokens" in r.json()["detail"]
    r = client.post(
        f"/api/games/{gid}/actions",
        json={"action": first, "move": 0},
        headers={"Authorization": "Basic eDp5"},
    )
    assert r.status_code == 400 and "Bearer" in r.json()["detail"]
    assert (
        client.post(
            f"/api/games/{gid}/actions", content=b"[", headers={"content-type": "application/json"}
        ).status_code
        == 400
    )
    assert (
        client.post(
            "/api/games/nosuchgame/actions", json={"token": ann, "action": first, "move": 0}
        ).status_code
        == 404
    )
    assert client.get("/api/games/nosuchgame").status_code == 404
    assert client.get(f"/api/games/{gid}", headers=auth("nope")).status_code == 403
    # a token in the URL is refused (URLs end up in logs), even a right one
    r = client.get(f"/api/games/{gid}", params={"token": ann})
    assert r.status_code == 400 and "Authorization: Bearer" in r.json()["detail"]
    after = state(client, gid, ann)
    assert after == before
    assert client.app.state.storage.load_game(gid).moves == []
    # a legal action with the right move number goes through, for that seat only
    r = client.post(
        f"/api/games/{gid}/actions", json={"action": first, "move": 0}, headers=auth(ann)
    )
    assert r.status_code == 200 and r.json()["move"] == 1 and r.json()["seat"] == 0
    assert r.json()["legal_actions"] == [] and r.json()["current_player"] == 1
    assert (
        post({"token": ann, "action": first, "move": 0}).status_code == 409
    )  # replayed request: stale
    s1 = state(client, gid, bob)
    last = dict(s1["last_move"])
    assert last.pop("text").startswith("{seat0} ")  # the move as a sentence
    assert s1["legal_actions"] and last == {"index": 0, "seat": 0, "notation": first}


def test_two_people_play_to_the_end_over_rest(client: TestClient) -> None:
    g = create(client, "duel", options={"turn_cap": 200})
    gid = g["game_id"]
    tokens = [s["token"] for s in g["seats"]]
    rng = random.Random(5)
    seen: list[tuple[int | None, dict[str, Any]]] = []
    for _ in range(2000):
        spectator = state(client, gid)
        seen.append((None, spectator))
        if spectator["status"] == "finished":
            break
        seat = spectator["current_player"]
        view = state(client, gid, tokens[seat])
        waiting = state(client, gid, tokens[1 - seat])
        assert waiting["legal_actions"] == [] and view["legal_actions"]
        seen += [(seat, view), (1 - seat, waiting)]
        action = pick(rng, [a["notation"] for a in view["legal_actions"]])
        ex = client.post(
            f"/api/games/{gid}/explain", json={"token": tokens[seat], "action": action}
        ).json()
        assert ex == {"action": action, "legal": True, "reason": ""}
        r = client.post(
            f"/api/games/{gid}/actions",
            json={"token": tokens[seat], "action": action, "move": view["move"]},
        )
        assert r.status_code == 200, r.text
    final = state(client, gid)
    assert final["status"] == "finished"
    r = client.post(
        f"/api/games/{gid}/actions",
        json={"token": tokens[0], "action": "replenish", "move": final["move"]},
    )
    assert r.status_code == 409 and "over" in r.json()["detail"]
    ex = client.post(
        f"/api/games/{gid}/explain", json={"token": tokens[0], "action": "replenish"}
    ).json()
    assert ex == {"action": "replenish", "legal": False, "reason": "the game is over"}
    record = client.get(f"/api/games/{gid}/record").json()
    truth = true_positions(record)
    assert GameRecord.from_dict(record).replay().to_dict() == truth[-1]
    for seat, m in seen:  # every REST view hid what it must (C16, D22)
        check_message(m, truth[m["move"]], seat)


def test_explain(client: TestClient) -> None:
    g = create(client, "splendor")
    gid, ann, bob = g["game_id"], g["seats"][0]["token"], g["seats"][1]["token"]
    r = client.post(f"/api/games/{gid}/explain", json={"token": ann, "action": "take W U G"}).json()
    assert r == {"action": "take W U G", "legal": True, "reason": ""}
    r = client.post(f"/api/games/{gid}/explain", json={"token": ann, "action": "buy 3.2"}).json()
    assert r["legal"] is False and r["reason"] and r["action"] == "buy 3.2"
    r = client.post(f"/api/games/{gid}/explain", json={"token": ann, "action": 80}).json()
    assert r["legal"] is False and "pay" == r["action"] and r["reason"]
    r = client.post(f"/api/games/{gid}/explain", json={"token": bob, "action": "take W U G"}).json()
    assert r["legal"] is False and "not your decision" in r["reason"]
    r = client.post(f"/api/games/{gid}/explain", json={"action": "take W U G"}).json()
    assert r["legal"] is False and "spectators" in r["reason"]
    r = client.post(f"/api/games/{gid}/explain", json={"token": ann, "action": "take X"})
    assert r.status_code == 400 and "take 3 different colours" in r.json()["detail"]
    assert (
        client.post(
            f"/api/games/{gid}/explain", json={"token": "bad", "action": "pass"}
        ).status_code
        == 403
    )
    assert client.get(f"/api/games/{gid}/replay").status_code == 409
    assert state(client, gid)["move"] == 0


def test_list_games_by_tokens(client: TestClient) -> None:
    a = create(client, "splendor")
    b = create(client, "duel", [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}])
    r = client.post(
        "/api/games/mine", json={"tokens": [a["seats"][1]["token"], b["seats"][0]["token"]]}
    ).json()
    assert [s["game_id"] for s in r["games"]] == [b["game_id"], a["game_id"]]
    sb, sa = r["games"]
    assert sa["your_seats"] == [1] and sb["your_seats"] == [0]
    bot_seat = {"seat": 1, "type": "bot", "name": "random", "bot": "random", "guest": False}
    assert sb["seats"][1] == bot_seat
    assert (
        sa["status"] == "active"
        and sa["moves"] == 0
        and sa["current_player"] == 0
        and sa["turn"] == 0
    )
    assert {"result", "created_at", "updated_at", "game"} <= set(sa)
    assert "seed" not in json.dumps(r) and "token" not in json.dumps(r["games"][0]["seats"])
    assert client.post("/api/games/mine", json={"tokens": ["nobody", "not a token!"]}).json() == {
        "games": []
    }
    assert client.post("/api/games/mine", json={}).json() == {"games": []}
    for bad in ({"tokens": "abc"}, {"tokens": [1]}, {"tokens": ["x"] * 201}):
        assert client.post("/api/games/mine", json=bad).status_code == 400
    # the old form, with tokens in the URL, says where to go instead
    r = client.get("/api/games", params={"token": a["seats"][1]["token"]})
    assert r.status_code == 405 and "POST /api/games/mine" in r.json()["detail"]


def test_websocket_tokens_errors_and_reconnect(client: TestClient) -> None:
    g = create(client, "splendor")
    gid, ann, bob = g["game_id"], g["seats"][0]["token"], g["seats"][1]["token"]
    with client.websocket_connect(
        f"/ws/games/{gid}"
    ) as ws:  # a wrong token: an error, still a spectator
        ws.receive_json()
        ws.send_json({"type": "auth", "token": "wrong"})
        err = ws.receive_json()
        assert (
            err["type"] == "error" and err["status"] == 403 and "not a seat token" in err["message"]
        )
        ws.send_json({"type": "action", "action": "take W U G", "move": 0})
        assert ws.receive_json()["status"] == 403
    with pytest.raises(WebSocketDisconnect) as e:  # a token in the URL: refused, even a right one
        with client.websocket_connect(f"/ws/games/{gid}?token={ann}") as ws:
            ws.receive_json()
    assert e.value.code == 4400 and "auth" in e.value.reason
    with pytest.raises(WebSocketDisconnect) as e:
        with client.websocket_connect("/ws/games/nosuchgame") as ws:
            ws.receive_json()
    assert e.value.code == 4404
    with client.websocket_connect(f"/ws/games/{gid}") as spec:
        first = spec.receive_json()
        assert first["type"] == "state" and first["seat"] is None and first["legal_actions"] == []
        spec.send_json({"type": "action", "action": "take W U G", "move": 0})
        err = spec.receive_json()
        assert err["type"] == "error" and err["status"] == 403 and "auth" in err["message"]
        with client.websocket_connect(f"/ws/games/{gid}") as ws:
            assert ws.receive_json()["seat"] is None
            ws.send_json({"type": "auth", "token": ann})
            m = ws.receive_json()
            assert m["seat"] == 0 and m["legal_actions"] and m["seats"][0]["connected"] is True
            assert m["seats"][1]["connected"] is False
            arrived = spec.receive_json()  # presence: the second connection came to watch
            assert arrived["spectators"] == {"count": 2, "names": [], "guests": []}
            seated = spec.receive_json()  # then it became seat 0
            assert seated["seats"][0]["connected"] is True
            assert seated["spectators"] == {"count": 1, "names": [], "guests": []}
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
            ws.send_text("not json")
            assert ws.receive_json()["status"] == 400
            ws.send_json({"type": "action", "action": "fly", "move": 0})
            err = ws.receive_json()
            assert err["type"] == "error" and err["status"] == 400
            ws.send_json({"type": "action", "action": "take W U G"})
            err = ws.receive_json()
            assert err["status"] == 400 and 'missing "move"' in err["message"]
            ws.send_json({"type": "auth", "token": bob})
            assert "already seat 0's" in ws.receive_json()["message"]
            ws.send_json({"type": "action", "action": "buy 3.3", "move": 0})
            err = ws.receive_json()
            assert err["status"] == 422 and "Legal now" in err["message"]
            ws.send_json({"type": "action", "action": "take W U G", "move": 7})
            assert ws.receive_json()["status"] == 409
            ws.send_json({"type": "action", "action": "take W U G", "move": 0})
            m = ws.receive_json()
            assert m["type"] == "state" and m["move"] == 1 and m["legal_actions"] == []
            s = spec.receive_json()
            assert s["move"] == 1 and s["last_move"]["notation"] == "take W U G"
            ws.send_json({"type": "action", "action": "take W U G", "move": 1})
            assert ws.receive_json()["status"] == 409  # seat 1's decision now
        assert spec.receive_json()["seats"][0]["connected"] is False
        with client.websocket_connect(f"/ws/games/{gid}") as ws:
            ws.receive_json()
            ws.send_json({"type": "auth", "token": bob})
            m = ws.receive_json()
            assert m["seat"] == 1 and m["move"] == 1 and m["legal_actions"]
        with client.websocket_connect(f"/ws/games/{gid}") as ws:  # reconnect: fresh state
            ws.receive_json()
            ws.send_json({"type": "auth", "token": ann})
            m = ws.receive_json()
            assert m["move"] == 1 and m["log"] == [
                {
                    "index": 0,
                    "seat": 0,
                    "notation": "take W U G",
                    "text": "{seat0} takes 1 white, 1 blue and 1 green",
                }
            ]


def test_client_pages_and_static_files(client: TestClient) -> None:
    for path in ("/", "/games/abc", "/games/abc/replay"):
        r = client.get(path)
        assert (
            r.status_code == 200
            and "splendor test" in r.text
            and r.headers["content-type"].startswith("text/html")
        )
    assert client.get("/static/app.js").text == "export {};"
    assert client.get("/static/missing.js").status_code == 404


class HeldExecutor(Executor):
    """An executor that runs nothing: the test completes its futures by hand."""

    def __init__(self) -> None:
        self.calls: list[tuple[Future[Any], Any, tuple[Any, ...]]] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        f: Future[Any] = Future()
        self.calls.append((f, fn, args))
        return f


def test_a_thinking_bot_stalls_no_other_game(tmp_path: Any, bot_pool: Any, web_dir: Any) -> None:
    """While a searching bot thinks (held forever here), other games go on: people act
    over REST and a quick bot answers in its own pool. The bot gets its seat's
    observation and a seed that is not the deal's."""
    held = HeldExecutor()
    app = create_app(
        f"sqlite:///{tmp_path / 'held.db'}",
        web_dir=web_dir,
        executor=bot_pool,
        search_executor=held,
    )
    with TestClient(app) as client:
        slow = create(
            client, "duel", [{"type": "bot", "bot": "hard"}, {"type": "human", "name": "Ann"}]
        )
        wait_until(lambda: held.calls, "the hard bot to be asked")
        quick = create(
            client, "splendor", [{"type": "human", "name": "Bo"}, {"type": "bot", "bot": "random"}]
        )
        people = create(client, "splendor")
        tok = quick["seats"][0]["token"]
        for _ in range(3):
            m = wait_until(
                lambda: (x := state(client, quick["game_id"], tok))["legal_actions"] and x,
                "my turn",
            )
            r = client.post(
                f"/api/games/{quick['game_id']}/actions",
                json={"token": tok, "action": m["legal_actions"][0]["id"], "move": m["move"]},
            )
            assert r.status_code == 200
        wait_until(
            lambda: state(client, quick["game_id"], tok)["move"] >= 6,
            "the random bot's third answer",
        )
        for i in range(4):
            t = people["seats"][i % 2]["token"]
            m = state(client, people["game_id"], t)
            r = client.post(
                f"/api/games/{people['game_id']}/actions",
                json={"token": t, "action": m["legal_actions"][0]["id"], "move": i},
            )
            assert r.status_code == 200
        assert state(client, slow["game_id"])["move"] == 0  # still thinking
        future, fn, args = held.calls[0]
        game, spec, seed, obs = args
        assert (game, spec) == ("duel", "hard")
        assert (
            int(obs[0]["observer"]) == 0
            and (obs[0]["decks"] == -1).all()
            and int(obs[0]["rng"][0]) == 0
        )
        assert seed != client.app.state.storage.load_game(slow["game_id"]).seed
        future.set_result(fn(game, "random", seed, obs))
        m = wait_until(
            lambda: (x := state(client, slow["game_id"]))["move"] >= 1 and x, "the held bot's move"
        )
        assert m["log"][0]["seat"] == 0


def wait_until(predicate: Any, what: str, timeout: float = 60.0) -> Any:
    """Poll ``predicate`` until truthy; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    pytest.fail(f"timed out waiting for {what}")


def test_moves_of_many_games_share_a_transaction(tmp_path: Any) -> None:
    """The service's writer commits the moves that arrive together in one transaction
    (group commit), answers each move only after its commit, and a stale move gets its own
    error without harming the others."""
    import asyncio

    from splendor.server.storage import MoveToStore, SeatInfo, StaleMoveError, Storage
    from splendor.server.writer import MoveWriter

    storage = Storage(f"sqlite:///{tmp_path / 'group.db'}")
    storage.migrate()
    ids = [f"g{i}" for i in range(20)]
    for gid in ids:
        storage.create_game(
            gid,
            "splendor",
            2,
            1,
            {},
            [SeatInfo(0, "human", "A", None, "x"), SeatInfo(1, "human", "B", None, "y")],
        )
    batches: list[int] = []
    append_moves = storage.append_moves

    def counting(moves: Any) -> Any:
        batches.append(len(moves))
        return append_moves(moves)

    storage.append_moves = counting  # type: ignore[method-assign]

    async def main() -> list[Any]:
        writer = MoveWriter(storage)
        try:
            first = await writer.append(MoveToStore("g0", 0, 0, "take W U G"))
            rest = await asyncio.gather(
                *(
                    writer.append(MoveToStore(gid, 0 if gid != "g0" else 5, 0, "take W U G"))
                    for gid in ids
                ),
                return_exceptions=True,
            )
            return [first, *rest]
        finally:
            await writer.close()

    out = asyncio.run(main())
    assert isinstance(out[1], StaleMoveError)  # g0 move 5
    assert all(not isinstance(o, BaseException) for k, o in enumerate(out) if k != 1)
    assert batches[0] == 1 and sum(batches) == 21 and len(batches) < 21
    assert all(storage.load_game(gid).moves == [(0, "take W U G")] for gid in ids)
    storage.close()


def test_hub_builds_each_view_once_and_spectators_share_it() -> None:
    import asyncio

    from splendor.server.hub import Hub

    async def main() -> None:
        hub = Hub()
        subs = [hub.subscribe("g", seat) for seat in (None, None, None, 0, 0, 1)]
        other = hub.subscribe("h", None)
        built: list[Any] = []

        def build(seat: Any) -> str:
            built.append(seat)
            return f'{{"view":{seat if seat is not None else -1}}}'

        assert hub.publish("g", build, exclude=subs[4]) == 5
        assert sorted(built, key=str) == [0, 1, None]
        texts = [s.outbox.get_nowait() for s in subs if s is not subs[4]]
        assert texts == ['{"view":-1}'] * 3 + ['{"view":0}', '{"view":1}']
        assert texts[0] is texts[1] is texts[2]  # one text for every spectator
        assert subs[4].outbox.empty() and other.outbox.empty()
        subs[0].send({"type": "pong"})
        assert subs[0].outbox.get_nowait() == '{"type":"pong"}'

    asyncio.run(main())


def test_hub_builds_a_view_per_seat_and_language() -> None:
    """A state message says its moves in the reader's language (issue 33): one text per
    seat and language among the subscribers, never the languages nobody reads."""
    import asyncio

    from splendor.server.hub import Hub

    async def main() -> None:
        hub = Hub()
        subs = [hub.subscribe("g", seat) for seat in (None, None, None, 0)]
        for sub, language in zip(subs, ("fr", "fr", "nl", "fr"), strict=True):
            sub.language = language
        built: list[tuple[Any, str]] = []

        def build(seat: Any, language: str) -> str:
            built.append((seat, language))
            return f"{seat}:{language}"

        assert hub.publish_views("g", build) == 4
        assert sorted(built, key=str) == [(0, "fr"), (None, "fr"), (None, "nl")]
        texts = [s.outbox.get_nowait() for s in subs]
        assert texts == ["None:fr", "None:fr", "None:nl", "0:fr"]

    asyncio.run(main())


# --------------------------------------------------------------------------- idempotent create


def test_create_with_an_idempotency_key_is_idempotent(
    tmp_path: Path, bot_pool: Any, web_dir: Path
) -> None:
    """Issue 14 item 8: a create retried with the same Idempotency-Key and body (its answer
    was lost, even across a server restart) answers the same game and the same seat tokens
    and makes nothing; the same key with another body is refused (422); the database
    holds neither the key nor the tokens."""
    url = f"sqlite:///{tmp_path / 'idem.db'}"
    body = {
        "game": "splendor",
        "seats": [
            {"type": "human", "name": "Ann"},
            {"type": "bot", "bot": "random"},
            {"type": "human", "name": "Cy"},
        ],
    }
    key = "3f2b8c1e-9d4a-4c7b-8e6f-0a1b2c3d4e5f"
    with TestClient(create_app(url, web_dir=web_dir, executor=bot_pool)) as c:
        first = c.post("/api/games", json=body, headers={"Idempotency-Key": key})
        assert first.status_code == 201 and "idempotent-replayed" not in first.headers
        again = c.post("/api/games", json=body, headers={"Idempotency-Key": key})
        assert again.status_code == 201 and again.headers["idempotent-replayed"] == "true"
        assert again.json() == first.json()
        changed = {**body, "seats": [*body["seats"][:2], {"type": "human", "name": "Cyd"}]}
        other = c.post("/api/games", json=changed, headers={"Idempotency-Key": key})
        assert other.status_code == 422 and "another request" in other.json()["detail"]
        fresh = c.post("/api/games", json=body, headers={"Idempotency-Key": key.replace("3", "4")})
        assert fresh.status_code == 201 and fresh.json()["game_id"] != first.json()["game_id"]
        no_key = c.post("/api/games", json=body)
        assert no_key.json()["game_id"] not in (first.json()["game_id"], fresh.json()["game_id"])
        for bad in ("short", "x" * 256, "has space in it!!"):
            r = c.post("/api/games", json=body, headers={"Idempotency-Key": bad})
            assert r.status_code == 400 and "Idempotency-Key" in r.json()["detail"]
        assert len(c.app.state.storage.game_ids()) == 3
    with TestClient(create_app(url, web_dir=web_dir, executor=bot_pool)) as c:  # after a restart
        again = c.post("/api/games", json=body, headers={"Idempotency-Key": key})
        assert again.status_code == 201 and again.json() == first.json()
        gid = first.json()["game_id"]
        for s in first.json()["seats"]:
            if s["type"] == "human":
                assert state(c, gid, s["token"])["seat"] == s["seat"]
        assert len(c.app.state.storage.game_ids()) == 3
    raw = url.removeprefix("sqlite:///")
    blob = b"".join(open(p, "rb").read() for p in (raw, raw + "-wal") if Path(p).exists())
    assert key.encode() not in blob
    assert all(s["token"].encode() not in blob for s in first.json()["seats"] if "token" in s)


def test_concurrent_creates_with_one_key_make_one_game(client: TestClient) -> None:
    """Two creates with the same key at once (both miss the key, both write): the second
    write fails on the key's primary key and answers the first one's game."""
    import asyncio

    service = client.app.state.service
    seats = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bo"}]

    async def both() -> list[Any]:
        return await asyncio.gather(
            *(service.create("duel", seats, None, idempotency_key="k" * 20) for _ in range(2))
        )

    a, b = client.portal.call(both)
    assert (
        a.live.id == b.live.id
        and a.tokens == b.tokens
        and sorted([a.replayed, b.replayed]) == [False, True]
    )
    assert client.app.state.storage.game_ids() == [a.live.id]


def test_security_headers_on_every_answer(client: TestClient) -> None:
    """Issue 14 item 7: pages, files, API answers and errors carry the security headers;
    API answers are not cached; the API documentation pages get a looser script policy."""
    for path in (
        "/",
        "/games/abc",
        "/static/app.js",
        "/api/meta",
        "/api/games/nosuch",
        "/static/missing.js",
    ):
        r = client.get(path)
        csp = r.headers["content-security-policy"]
        assert (
            "default-src 'self'" in csp
            and "frame-ancestors 'none'" in csp
            and "unsafe-inline" not in csp
        ), path
        assert (
            r.headers["x-frame-options"] == "DENY"
            and r.headers["x-content-type-options"] == "nosniff"
        )
        assert r.headers["referrer-policy"] == "no-referrer"
        assert (r.headers.get("cache-control") == "no-store") == path.startswith("/api/")
    docs = client.get("/docs")
    assert (
        docs.status_code == 200
        and "frame-ancestors 'none'" in docs.headers["content-security-policy"]
    )
