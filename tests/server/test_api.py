"""The REST API and the WebSocket, through FastAPI's TestClient (a real app on a SQLite
file, bots in a worker process)."""

from __future__ import annotations

import json
import random
import time
from concurrent.futures import Executor, Future
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from splendor.record import GameRecord
from splendor.server.app import create_app

from .util import check_message, pick


def create(client: TestClient, game: str = "splendor", seats: list[dict[str, Any]] | None = None,
           options: dict[str, Any] | None = None) -> dict[str, Any]:
    seats = seats or [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
    r = client.post("/api/games", json={"game": game, "seats": seats, "options": options or {}})
    assert r.status_code == 201, r.text
    return r.json()


def state(client: TestClient, gid: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}", params={"token": token} if token else {})
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
    assert m["bots"] == ["random", "greedy", "easy", "medium", "hard"]
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
        ({"game": "duel", "seats": [{"type": "human"}, {"type": "bot", "bot": "genius"}]}, "unknown bot"),
        ({"game": "duel", "seats": [{"type": "human"}, {"type": "alien"}]}, "seat 1"),
        ({"game": "splendor", "seats": [{"type": "human"}] * 2, "options": {"turn_cap": 3}}, "unknown option"),
        ({"game": "duel", "seats": [{"type": "human"}] * 2, "options": {"turn_cap": "x"}}, "turn_cap"),
        ({"game": "duel", "seats": "two"}, "list"),
        ([1, 2], "JSON object"),
    ],
)
def test_create_rejects_bad_bodies(client: TestClient, body: Any, words: str) -> None:
    r = client.post("/api/games", json=body)
    assert r.status_code == 400, r.text
    assert words in r.json()["detail"]


def test_create_rejects_non_json(client: TestClient) -> None:
    r = client.post("/api/games", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "not valid JSON" in r.json()["detail"]


def test_create_gives_tokens_to_people_only_and_stores_hashes(client: TestClient) -> None:
    g = create(client, "splendor", [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"},
                                    {"type": "human", "name": "Cy"}])
    people = [s for s in g["seats"] if s["type"] == "human"]
    assert [s["seat"] for s in people] == [0, 2]
    for s in people:
        assert len(s["token"]) >= 40 and s["invite"] == f"/games/{g['game_id']}?token={s['token']}"
    bot = g["seats"][1]
    assert "token" not in bot and "invite" not in bot and bot["bot"] == "random"
    assert g["spectate"] == f"/games/{g['game_id']}"
    assert "seed" not in json.dumps(g)
    storage = client.app.state.storage
    stored = storage.load_game(g["game_id"])
    for s in people:
        assert stored.seats[s["seat"]].token_hash != s["token"]
    raw = storage.url.removeprefix("sqlite:///")
    blob = b"".join(open(p, "rb").read() for p in (raw, raw + "-wal") if __import__("os").path.exists(p))
    assert all(s["token"].encode() not in blob for s in people)


def play_over_ws(client: TestClient, gid: str, token: str, seat: int, seed: int,
                 spectate: bool = True) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Play ``seat`` with the test policy over a WebSocket until the game ends; returns
    the seat's and a spectator's state messages."""
    rng = random.Random(seed)
    mine: list[dict[str, Any]] = []
    spect: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/games/{gid}") as watcher, \
            client.websocket_connect(f"/ws/games/{gid}?token={token}") as ws:
        acted = -1
        while True:
            m = ws.receive_json()
            assert m["type"] == "state", m
            mine.append(m)
            if m["status"] == "finished":
                break
            if m["legal_actions"] and m["move"] > acted:
                acted = m["move"]
                ws.send_json({"type": "action", "action": pick(rng, [a["notation"] for a in m["legal_actions"]]),
                              "move": m["move"]})
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
        ("splendor", [{"type": "bot", "bot": "greedy"}, {"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}]),
    ],
)
def test_play_against_bots_to_the_end(client: TestClient, game: str, seats: list[dict[str, Any]]) -> None:
    """A person plays a bot (the bots think in a worker process) to the end over the
    WebSocket; every message the seat and a spectator got hides what it must (checked
    against the true positions, known from the record once the game is over)."""
    g = create(client, game, seats, {"turn_cap": 300} if game == "duel" else {})
    me = next(s for s in g["seats"] if s["type"] == "human")
    assert client.get(f"/api/games/{g['game_id']}/record").status_code == 409
    mine, spect = play_over_ws(client, g["game_id"], me["token"], me["seat"], seed=1)
    final = mine[-1]
    assert final["status"] == "finished" and final["result"] is not None and final["current_player"] is None
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
        ({"action": first}, 403, "token is required"),
        ({"token": "nope", "action": first}, 403, "not a seat token"),
        ({"token": other["seats"][0]["token"], "action": first}, 403, "not a seat token"),
        ({"token": bob, "action": first}, 409, "not your turn"),
        ({"token": ann, "action": first, "move": 3}, 409, "stale"),
        ({"token": ann, "action": "fly away"}, 400, "not an action"),
        ({"token": ann, "action": 999}, 400, "out of range"),
        ({"token": ann, "action": True}, 400, "action id"),
        ({"token": ann, "action": first, "move": "zero"}, 400, "move"),
        ({"token": ann}, 400, "missing"),
        ({"token": ann, "action": "buy 3.1"}, 422, "Legal now:"),
        ({"token": ann, "action": "pay"}, 422, "illegal action 'pay'"),
    ]
    for body, status, words in cases:
        r = post(body)
        assert r.status_code == status, (body, r.text)
        assert words in r.json()["detail"], (body, r.json())
    assert client.post(f"/api/games/{gid}/actions", content=b"[", headers={"content-type": "application/json"}).status_code == 400
    assert client.post("/api/games/nosuchgame/actions", json={"token": ann, "action": first}).status_code == 404
    assert client.get("/api/games/nosuchgame").status_code == 404
    assert client.get(f"/api/games/{gid}", params={"token": "nope"}).status_code == 403
    after = state(client, gid, ann)
    assert after == before
    assert client.app.state.storage.load_game(gid).moves == []
    # a legal action with the right move number goes through, for that seat only
    r = post({"token": ann, "action": first, "move": 0})
    assert r.status_code == 200 and r.json()["move"] == 1 and r.json()["seat"] == 0
    assert r.json()["legal_actions"] == [] and r.json()["current_player"] == 1
    assert post({"token": ann, "action": first, "move": 0}).status_code == 409  # replayed request: stale
    s1 = state(client, gid, bob)
    assert s1["legal_actions"] and s1["last_move"] == {"index": 0, "seat": 0, "notation": first}


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
        ex = client.post(f"/api/games/{gid}/explain", json={"token": tokens[seat], "action": action}).json()
        assert ex == {"action": action, "legal": True, "reason": ""}
        r = client.post(f"/api/games/{gid}/actions", json={"token": tokens[seat], "action": action, "move": view["move"]})
        assert r.status_code == 200, r.text
    final = state(client, gid)
    assert final["status"] == "finished"
    r = client.post(f"/api/games/{gid}/actions", json={"token": tokens[0], "action": "replenish"})
    assert r.status_code == 409 and "over" in r.json()["detail"]
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
    assert client.post(f"/api/games/{gid}/explain", json={"token": "bad", "action": "pass"}).status_code == 403
    assert client.get(f"/api/games/{gid}/replay").status_code == 409
    assert state(client, gid)["move"] == 0


def test_list_games_by_tokens(client: TestClient) -> None:
    a = create(client, "splendor")
    b = create(client, "duel", [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}])
    r = client.get("/api/games", params=[("token", a["seats"][1]["token"]), ("token", b["seats"][0]["token"])]).json()
    assert [s["game_id"] for s in r["games"]] == [b["game_id"], a["game_id"]]
    sb, sa = r["games"]
    assert sa["your_seats"] == [1] and sb["your_seats"] == [0]
    assert sb["seats"][1] == {"seat": 1, "type": "bot", "name": "random", "bot": "random"}
    assert sa["status"] == "active" and sa["moves"] == 0 and sa["current_player"] == 0 and sa["turn"] == 0
    assert {"result", "created_at", "updated_at", "game"} <= set(sa)
    assert "seed" not in json.dumps(r) and "token" not in json.dumps(r["games"][0]["seats"])
    assert client.get("/api/games", params={"token": "nobody"}).json() == {"games": []}
    assert client.get("/api/games").json() == {"games": []}


def test_websocket_tokens_errors_and_reconnect(client: TestClient) -> None:
    g = create(client, "splendor")
    gid, ann, bob = g["game_id"], g["seats"][0]["token"], g["seats"][1]["token"]
    with pytest.raises(WebSocketDisconnect) as e:
        with client.websocket_connect(f"/ws/games/{gid}?token=wrong") as ws:
            ws.receive_json()
    assert e.value.code == 4403
    with pytest.raises(WebSocketDisconnect) as e:
        with client.websocket_connect("/ws/games/nosuchgame") as ws:
            ws.receive_json()
    assert e.value.code == 4404
    with client.websocket_connect(f"/ws/games/{gid}") as spec:
        first = spec.receive_json()
        assert first["type"] == "state" and first["seat"] is None and first["legal_actions"] == []
        spec.send_json({"type": "action", "action": "take W U G", "move": 0})
        assert spec.receive_json() == {"type": "error", "status": 403,
                                       "message": "spectators cannot act; connect with your seat token (your invite link)"}
        with client.websocket_connect(f"/ws/games/{gid}?token={ann}") as ws:
            m = ws.receive_json()
            assert m["seat"] == 0 and m["legal_actions"] and m["seats"][0]["connected"] is True
            assert m["seats"][1]["connected"] is False
            assert spec.receive_json()["seats"][0]["connected"] is True  # presence update
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
            ws.send_text("not json")
            assert ws.receive_json()["status"] == 400
            ws.send_json({"type": "action", "action": "fly", "move": 0})
            err = ws.receive_json()
            assert err["type"] == "error" and err["status"] == 400
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
        with client.websocket_connect(f"/ws/games/{gid}?token={bob}") as ws:
            m = ws.receive_json()
            assert m["seat"] == 1 and m["move"] == 1 and m["legal_actions"]
        with client.websocket_connect(f"/ws/games/{gid}?token={ann}") as ws:  # reconnect: fresh state
            m = ws.receive_json()
            assert m["move"] == 1 and m["log"] == [{"index": 0, "seat": 0, "notation": "take W U G"}]


def test_client_pages_and_static_files(client: TestClient) -> None:
    for path in ("/", "/games/abc", "/games/abc/replay"):
        r = client.get(path)
        assert r.status_code == 200 and "splendor test" in r.text and r.headers["content-type"].startswith("text/html")
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
    app = create_app(f"sqlite:///{tmp_path / 'held.db'}", web_dir=web_dir, executor=bot_pool, search_executor=held)
    with TestClient(app) as client:
        slow = create(client, "duel", [{"type": "bot", "bot": "hard"}, {"type": "human", "name": "Ann"}])
        wait_until(lambda: held.calls, "the hard bot to be asked")
        quick = create(client, "splendor", [{"type": "human", "name": "Bo"}, {"type": "bot", "bot": "random"}])
        people = create(client, "splendor")
        tok = quick["seats"][0]["token"]
        for _ in range(3):
            m = wait_until(lambda: (x := state(client, quick["game_id"], tok))["legal_actions"] and x, "my turn")
            r = client.post(f"/api/games/{quick['game_id']}/actions",
                            json={"token": tok, "action": m["legal_actions"][0]["id"], "move": m["move"]})
            assert r.status_code == 200
        wait_until(lambda: state(client, quick["game_id"], tok)["move"] >= 6, "the random bot's third answer")
        for i in range(4):
            t = people["seats"][i % 2]["token"]
            m = state(client, people["game_id"], t)
            r = client.post(f"/api/games/{people['game_id']}/actions",
                            json={"token": t, "action": m["legal_actions"][0]["id"], "move": i})
            assert r.status_code == 200
        assert state(client, slow["game_id"])["move"] == 0  # still thinking
        future, fn, args = held.calls[0]
        game, spec, seed, obs = args
        assert (game, spec) == ("duel", "hard")
        assert int(obs[0]["observer"]) == 0 and (obs[0]["decks"] == -1).all() and int(obs[0]["rng"][0]) == 0
        assert seed != client.app.state.storage.load_game(slow["game_id"]).seed
        future.set_result(fn(game, "random", seed, obs))
        m = wait_until(lambda: (x := state(client, slow["game_id"]))["move"] >= 1 and x, "the held bot's move")
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

    from splendor.server.service import MoveWriter
    from splendor.server.storage import MoveToStore, SeatInfo, StaleMoveError, Storage

    storage = Storage(f"sqlite:///{tmp_path / 'group.db'}")
    storage.migrate()
    ids = [f"g{i}" for i in range(20)]
    for gid in ids:
        storage.create_game(gid, "splendor", 2, 1, {}, [SeatInfo(0, "human", "A", None, "x"),
                                                        SeatInfo(1, "human", "B", None, "y")])
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
                *(writer.append(MoveToStore(gid, 0 if gid != "g0" else 5, 0, "take W U G")) for gid in ids),
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
