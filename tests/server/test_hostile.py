"""Hostile input (issue 14, item 6): every bad body, name, header or WebSocket frame gets a
4xx answer or an error message, never a 500 or a dropped socket; names are cleaned of
control, bidi and zero-width characters; a database outage answers 503.

The fuzzers at the end are seeded and bounded (a few seconds each); they print what they
tried (``-s`` shows it)."""

from __future__ import annotations

import json
import random
import string
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from splendor.server.app import Limits, create_app

TWO = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]


@pytest.fixture
def hostile(tmp_path: Path, bot_pool: Any, web_dir: Path) -> Iterator[TestClient]:
    """An app without rate limits whose server errors come back as 500 answers (not raised
    in the test), so that a 5xx is counted, not hidden."""
    app = create_app(
        f"sqlite:///{tmp_path / 'h.db'}",
        web_dir=web_dir,
        executor=bot_pool,
        limits=Limits.unlimited_rates(),
    )
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def raw(client: TestClient, path: str, body: bytes, headers: dict[str, str] | None = None) -> Any:
    """POST ``body`` as it is (JSON escapes such as a lone ``\\ud800`` included)."""
    return client.post(
        path, content=body, headers={"content-type": "application/json", **(headers or {})}
    )


def new_game(client: TestClient, seats: list[dict[str, Any]] = TWO) -> dict[str, Any]:
    r = client.post("/api/games", json={"game": "splendor", "seats": seats})
    assert r.status_code == 201, r.text
    return r.json()


# --------------------------------------------------------------------------- regressions


@pytest.mark.parametrize("depth", [40, 1000, 20000])
def test_deeply_nested_json_is_a_400_everywhere(hostile: TestClient, depth: int) -> None:
    """Before: ``json.loads`` raised RecursionError (a 500) from about 1000 levels, and any
    depth the parser took went on to the service."""
    g = new_game(hostile)
    gid, token = g["game_id"], g["seats"][0]["token"]
    nested = b"[" * depth + b"]" * depth
    bodies = {
        "/api/games": b'{"game": "splendor", "seats": ' + nested + b"}",
        f"/api/games/{gid}/actions": b'{"action": '
        + nested
        + b', "move": 0, "token": "'
        + token.encode()
        + b'"}',
        f"/api/games/{gid}/explain": b'{"action": ' + nested + b"}",
        "/api/games/mine": b'{"tokens": ' + nested + b"}",
    }
    for path, body in bodies.items():
        r = raw(hostile, path, body)
        assert r.status_code == 400, (path, r.status_code, r.text[:200])
        assert "nested too deeply" in r.json()["detail"]
    assert hostile.get(f"/api/games/{gid}").json()["move"] == 0


def test_a_lone_surrogate_in_a_name_is_refused(hostile: TestClient) -> None:
    """Before: a 500 (the name could be neither stored nor sent back as UTF-8)."""
    for seat in (
        b'{"type": "human", "name": "An\\ud800n"}',
        b'{"type": "bot", "bot": "random", "name": "\\udfff"}',
    ):
        r = raw(
            hostile,
            "/api/games",
            b'{"game": "splendor", "seats": [{"type": "human", "name": "Bo"}, ' + seat + b"]}",
        )
        assert r.status_code == 400, r.text
        assert "seat 2" in r.json()["detail"] and "surrogate" in r.json()["detail"]
    # elsewhere, a lone surrogate is an unknown game / a malformed action, not a crash
    assert raw(hostile, "/api/games", b'{"game": "\\ud800", "seats": []}').status_code == 400
    g = new_game(hostile)
    r = raw(
        hostile,
        f"/api/games/{g['game_id']}/actions",
        b'{"action": "take \\ud800", "move": 0}',
        {"Authorization": f"Bearer {g['seats'][0]['token']}"},
    )
    assert r.status_code == 400 and "\\ud800" in r.json()["detail"]
    r = raw(
        hostile, f"/api/games/{g['game_id']}/explain", b'{"action": "take W", "token": "\\ud800"}'
    )
    assert r.status_code == 403


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_names_are_cleaned_before_they_are_stored(
    backend: str, make_client: Callable[..., TestClient], request: pytest.FixtureRequest
) -> None:
    """NUL, other control characters, bidi overrides and isolates, and zero-width
    characters are removed; white space runs become one space. Before: a NUL answered 500
    on PostgreSQL (it refuses NUL in text) and was stored as it was on SQLite."""
    client = make_client(
        request.getfixturevalue("postgres_url") if backend == "postgresql" else None
    )
    dirty = "\x00A\u202en\u200bn\u2066\x1b[31m \u2028\tB\ufeffo\u200db\x7f"
    r = client.post(
        "/api/games",
        json={
            "game": "splendor",
            "seats": [
                {"type": "human", "name": dirty},
                {"type": "bot", "bot": "random", "name": "Ro\u202ebot\x00"},
            ],
        },
    )
    assert r.status_code == 201, r.text
    g = r.json()
    assert [s["name"] for s in g["seats"]] == ["Ann[31m Bob", "Robot"]
    stored = client.app.state.storage.load_game(g["game_id"])
    assert [s.name for s in stored.seats] == ["Ann[31m Bob", "Robot"]
    for bad, words in [
        ("\u200b\u202e\x00", "visible character"),
        ("x" * 41, "1 to 40"),
        (7, "string"),
    ]:
        r = client.post(
            "/api/games", json={"game": "splendor", "seats": [{"type": "human", "name": bad}] * 2}
        )
        assert r.status_code == 400 and words in r.json()["detail"], r.text
    assert client.get("/api/games/a%00b").status_code == 404  # a NUL in a game id: no such game


def test_the_storage_refuses_what_it_cannot_store(tmp_path: Path) -> None:
    from splendor.server.storage import SeatInfo, Storage

    s = Storage(f"sqlite:///{tmp_path / 's.db'}")
    s.migrate()
    with pytest.raises(ValueError, match="NUL"):
        s.create_game(
            "g",
            "splendor",
            2,
            1,
            {},
            [SeatInfo(0, "human", "A\x00", None, "h"), SeatInfo(1, "bot", "b", "random", None)],
        )
    assert (
        s.load_game("g") is None and s.load_game("g\x00") is None and s.load_game("\ud800") is None
    )
    s.close()


def test_binary_and_malformed_websocket_frames_get_an_error_and_the_socket_stays(
    hostile: TestClient,
) -> None:
    """Before: a binary frame raised KeyError in the receive loop (the socket dropped with
    1011), and a deeply nested text frame raised RecursionError (the same)."""
    g = new_game(hostile)
    with hostile.websocket_connect(f"/ws/games/{g['game_id']}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "auth", "token": g["seats"][0]["token"]})
        assert ws.receive_json()["seat"] == 0
        frames: list[tuple[Callable[[], None], int, str]] = [
            (lambda: ws.send_bytes(b"\x00\xff binary"), 400, "binary"),
            (lambda: ws.send_bytes(b'{"type": "ping"}'), 400, "binary"),
            (lambda: ws.send_text("[" * 5000), 400, "nested too deeply"),
            (
                lambda: ws.send_text(
                    '{"type": "action", "action": ' + "[" * 100 + "]" * 100 + ', "move": 0}'
                ),
                400,
                "nested too deeply",
            ),
            (
                lambda: ws.send_text('{"type": "action", "action": "\\ud800", "move": 0}'),
                400,
                "not an action",
            ),
            (
                lambda: ws.send_text('{"type": "action", "action": 1e999, "move": 0}'),
                400,
                "action id",
            ),
            (
                lambda: ws.send_text('{"type": "action", "action": 0, "move": ' + "9" * 5000 + "}"),
                400,
                "JSON",
            ),
            (lambda: ws.send_text("x" * (64 * 1024 + 1)), 413, "too large"),
            (lambda: ws.send_text('"just a string"'), 400, "unknown message"),
            (lambda: ws.send_text('{"type": {"x": 1}}'), 400, "unknown message"),
            (
                lambda: ws.send_text('{"type": "action", "action": "\ud800", "move": 0}'),
                400,
                "not an action",
            ),
        ]
        for send, status, words in frames:
            send()
            err = ws.receive_json()
            assert err["type"] == "error" and err["status"] == status and words in err["message"], (
                err
            )
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_a_database_outage_answers_503_and_changes_nothing(
    hostile: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every route that reads or writes the database, when the database raises what a lost
    connection raises (SQLAlchemy's OperationalError), answers 503 with Retry-After; the
    WebSocket answers an error message. Once the database is back, the same request works."""
    from sqlalchemy.exc import OperationalError

    g = new_game(hostile)
    gid, ann = g["game_id"], g["seats"][0]["token"]
    first = hostile.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {ann}"}).json()[
        "legal_actions"
    ][0]["id"]
    storage = hostile.app.state.storage

    def down(*_a: Any, **_k: Any) -> Any:
        raise OperationalError("SELECT 1", {}, ConnectionRefusedError("connection refused"))

    with monkeypatch.context() as m:
        for name in (
            "create_game",
            "append_moves",
            "load_game",
            "games_for_token_hashes",
            "find_idempotency_key",
        ):
            m.setattr(storage, name, down)
        answers = [
            hostile.post("/api/games", json={"game": "splendor", "seats": TWO}),
            hostile.post(
                "/api/games",
                json={"game": "splendor", "seats": TWO},
                headers={"Idempotency-Key": "k" * 32},
            ),
            hostile.post(
                f"/api/games/{gid}/actions",
                json={"action": first, "move": 0},
                headers={"Authorization": f"Bearer {ann}"},
            ),
            hostile.post("/api/games/mine", json={"tokens": [ann]}),
            hostile.get("/api/games/AnUnloadedGame"),
        ]
        for r in answers:
            assert r.status_code == 503, (r.request.url, r.status_code, r.text)
            assert (
                r.headers["retry-after"].isdigit()
                and "database is unavailable" in r.json()["detail"]
            )
        with hostile.websocket_connect(f"/ws/games/{gid}") as ws:
            ws.receive_json()
            ws.send_json({"type": "auth", "token": ann})
            ws.receive_json()
            ws.send_json({"type": "action", "action": first, "move": 0})
            err = ws.receive_json()
            assert err["type"] == "error" and err["status"] == 503 and err["retry_after"] >= 1
        with pytest.raises(WebSocketDisconnect) as e:
            with hostile.websocket_connect("/ws/games/AnUnloadedGame") as ws:
                ws.receive_json()
        assert e.value.code == 1013
    r = hostile.post(
        f"/api/games/{gid}/actions",
        json={"action": first, "move": 0},
        headers={"Authorization": f"Bearer {ann}"},
    )
    assert r.status_code == 200 and r.json()["move"] == 1


def test_a_real_postgresql_outage_answers_503(
    postgres_server: str, postgres_url: str, make_client: Callable[..., TestClient]
) -> None:
    """The database stops accepting connections (``ALLOW_CONNECTIONS false`` and its
    sessions ended): a move and a creation answer 503; allowed again, the move goes through."""
    from sqlalchemy import create_engine, make_url, text

    client = make_client(postgres_url)
    g = new_game(client)
    gid, ann = g["game_id"], g["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {ann}"}
    first = client.get(f"/api/games/{gid}", headers=auth).json()["legal_actions"][0]["id"]
    name = make_url(postgres_url).database
    admin = create_engine(postgres_server, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as c:
            c.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false'))
            c.execute(
                text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :n"),
                {"n": name},
            )
        r = client.post(
            f"/api/games/{gid}/actions", json={"action": first, "move": 0}, headers=auth
        )
        assert r.status_code == 503 and r.headers["retry-after"].isdigit(), r.text
        r = client.post("/api/games", json={"game": "splendor", "seats": TWO})
        assert r.status_code == 503, r.text
    finally:
        with admin.connect() as c:
            c.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))
        admin.dispose()
    r = client.post(f"/api/games/{gid}/actions", json={"action": first, "move": 0}, headers=auth)
    assert r.status_code == 200 and r.json()["move"] == 1
    assert len(client.app.state.storage.load_game(gid).moves) == 1


# --------------------------------------------------------------------------- fuzzers


def hostile_text(rng: random.Random) -> str:
    """A short string of the kinds that break things: control and format characters, lone
    surrogates, quotes and backslashes, long runs, non-BMP characters."""
    pools = [
        "\x00",
        "\x1b",
        "\x7f",
        "\u202e",
        "\u2066",
        "\u200b",
        "\ufeff",
        "\ud800",
        "\udfff",
        '"',
        "\\",
        "%",
        "\n",
        "\u2028",
        "é",
        "\U0001f600",
        "<script>",
        "' OR 1=1 --",
        "../",
        string.ascii_letters,
    ]
    return "".join(
        rng.choice(pools) if rng.random() < 0.5 else rng.choice(string.printable)
        for _ in range(rng.choice([0, 1, 3, 10, 50]))
    )


def hostile_value(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value (as Python), sometimes nested, sometimes huge."""
    roll = rng.random()
    if depth < 3 and roll < 0.15:
        return [hostile_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    if depth < 3 and roll < 0.25:
        return {
            hostile_text(rng)
            if rng.random() < 0.5
            else rng.choice(["type", "name", "bot", "turn_cap"]): hostile_value(rng, depth + 1)
            for _ in range(rng.randint(0, 4))
        }
    return rng.choice(
        [
            None,
            True,
            False,
            0,
            -1,
            1,
            2,
            3,
            79,
            80,
            10**30,
            -(10**30),
            1.5,
            2**63,
            2**31,
            float("nan"),
            float("inf"),
            "",
            "splendor",
            "duel",
            "classic",
            "human",
            "bot",
            "random",
            "hard",
            "take W U G",
            "buy 3.3",
            "pay",
            "reserve d1",
            hostile_text(rng),
            hostile_text(rng) * 30,
        ]
    )


def encode(rng: random.Random, value: Any) -> bytes:
    """``value`` as JSON bytes (lone surrogates as escapes), sometimes mangled: truncated,
    deeply nested, a huge number, invalid UTF-8, or over the size limit."""
    text = json.dumps(value, allow_nan=True)
    roll = rng.random()
    if roll < 0.05:
        return text.encode()[: rng.randint(0, len(text))]
    if roll < 0.10:
        d = rng.choice([33, 500, 5000, 30000])
        return (
            (b"[" * d + text.encode() + b"]" * d)
            if rng.random() < 0.5
            else b'{"a":' * d + b"1" + b"}" * d
        )
    if roll < 0.13:
        return b'{"game": "splendor", "move": ' + b"7" * rng.choice([4301, 20000]) + b"}"
    if roll < 0.16:
        return b'{"game": "\xff\xfe", "seats": []}'
    if roll < 0.18:
        return b'{"x": "' + b"a" * (64 * 1024) + b'"}'
    return text.encode()


def create_body(rng: random.Random) -> Any:
    """A create body near a valid one: the right keys with hostile values."""
    seats: Any = [
        rng.choice(
            [
                {"type": "human", "name": hostile_value(rng)},
                {"type": "bot", "bot": hostile_value(rng), "name": hostile_value(rng)},
                {"type": hostile_value(rng)},
                hostile_value(rng),
                {"type": "human", "name": hostile_text(rng)},
                {"type": "bot", "bot": "random", "name": hostile_text(rng)},
            ]
        )
        for _ in range(rng.choice([0, 1, 2, 2, 2, 3, 4, 5]))
    ]
    body: dict[str, Any] = {
        "game": rng.choice(["splendor", "duel", hostile_value(rng)]),
        "seats": seats if rng.random() < 0.9 else hostile_value(rng),
    }
    if rng.random() < 0.4:
        body["options"] = rng.choice([{"turn_cap": hostile_value(rng)}, hostile_value(rng), {}])
    if rng.random() < 0.25:  # a valid shape with a hostile name: the name is cleaned, or refused
        body = {
            "game": "splendor",
            "seats": [
                {"type": "human", "name": hostile_text(rng)},
                {"type": "bot", "bot": "random", "name": hostile_text(rng)},
            ],
        }
    return body if rng.random() < 0.9 else hostile_value(rng)


def test_fuzz_http_bodies_get_4xx_never_5xx(hostile: TestClient) -> None:
    """Seeded hostile bodies and headers at create, actions, explain and the game list:
    every answer is 2xx or 4xx (each a JSON ``detail`` for a 4xx), never 5xx; the games'
    states stay consistent."""
    rng = random.Random(20260514)
    g = new_game(hostile)
    gid, tokens = g["game_id"], [s["token"] for s in g["seats"]]
    statuses: Counter[int] = Counter()
    tried = 0
    for i in range(500):
        kind = rng.choice(["create", "action", "action", "explain", "mine", "state"])
        headers: dict[str, str] = {"content-type": "application/json"}
        if rng.random() < 0.5:
            headers["Authorization"] = rng.choice(
                [
                    f"Bearer {rng.choice(tokens)}",
                    "Bearer ",
                    "Basic x",
                    "Bearer a b",
                    "bearer " + "".join(rng.choice(string.printable[:94]) for _ in range(20)),
                ]
            )
        if kind == "create":
            if rng.random() < 0.3:
                headers["Idempotency-Key"] = rng.choice(
                    [
                        "short",
                        "k" * 16,
                        "u" * 300,
                        f"key-{rng.randint(0, 3):016d}",
                        "".join(rng.choice(string.printable[:94]) for _ in range(20)),
                    ]
                )
            path, body = "/api/games", encode(rng, create_body(rng))
        elif kind in ("action", "explain"):
            message: Any = {
                "action": hostile_value(rng),
                "move": rng.choice([0, hostile_value(rng)]),
            }
            if rng.random() < 0.5:
                message["token"] = rng.choice([*tokens, hostile_value(rng)])
            target = rng.choice(
                [
                    gid,
                    gid,
                    "nosuch",
                    urllib.parse.quote(hostile_text(rng), safe="", errors="replace") or "x",
                ]
            )
            path, body = (
                f"/api/games/{target}/{kind}s"
                if kind == "action"
                else f"/api/games/{target}/explain",
                encode(rng, message if rng.random() < 0.9 else hostile_value(rng)),
            )
        elif kind == "mine":
            path, body = (
                "/api/games/mine",
                encode(
                    rng, {"tokens": rng.choice([tokens, hostile_value(rng), [hostile_text(rng)]])}
                ),
            )
        else:
            target = rng.choice(
                [gid, urllib.parse.quote(hostile_text(rng), safe="", errors="replace") or "x"]
            )
            r = hostile.get(
                f"/api/games/{target}",
                headers={k: v for k, v in headers.items() if k != "content-type"},
            )
            tried += 1
            statuses[r.status_code] += 1
            assert r.status_code < 500, (i, r.request.url, r.text[:300])
            continue
        r = hostile.post(path, content=body, headers=headers)
        tried += 1
        statuses[r.status_code] += 1
        assert r.status_code < 500, (i, path, body[:300], r.text[:300])
        if r.status_code >= 400:
            assert isinstance(r.json()["detail"], str) and r.json()["detail"]
    fivexx = sum(n for s, n in statuses.items() if s >= 500)
    print(f"\nHTTP fuzz: {tried} requests; answers {dict(sorted(statuses.items()))}; 5xx: {fivexx}")
    assert fivexx == 0
    assert (
        statuses[400] > 100 and statuses[201] > 0 and statuses[200] > 0
    )  # the fuzzer reached both sides
    state = hostile.get(f"/api/games/{gid}").json()
    assert state["move"] == len(state["log"])


def test_fuzz_websocket_frames_never_drop_the_socket(hostile: TestClient) -> None:
    """Seeded hostile frames (binary, truncated, deeply nested, huge, wrong types and
    values) at a seat's and a spectator's WebSocket: each frame gets its answer (an error
    message, or a state for a valid move) and a ping after it gets its pong; the socket is
    never closed by the server, and no error is a 5xx."""
    rng = random.Random(20260515)
    g = new_game(hostile, [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}])
    gid, token = g["game_id"], g["seats"][0]["token"]
    statuses: Counter[Any] = Counter()
    tried = 0
    with (
        hostile.websocket_connect(f"/ws/games/{gid}") as seat,
        hostile.websocket_connect(f"/ws/games/{gid}") as spectator,
    ):
        seat.receive_json()
        spectator.receive_json()
        seat.send_json({"type": "auth", "token": token})
        seat.receive_json()
        for i in range(400):
            ws = seat if rng.random() < 0.7 else spectator
            roll = rng.random()
            if roll < 0.1:
                ws.send_bytes(encode(rng, hostile_value(rng)))
            else:
                value: Any = rng.choice(
                    [
                        {
                            "type": "action",
                            "action": hostile_value(rng),
                            "move": rng.choice([0, 1, 2, hostile_value(rng)]),
                        },
                        {
                            "type": rng.choice(["ping", "auth", "action", hostile_text(rng)]),
                            "token": hostile_value(rng),
                        },
                        {"type": "auth", "token": rng.choice(["", "x" * 43, hostile_text(rng)])},
                        hostile_value(rng),
                    ]
                )
                data = encode(rng, value)
                ws.send_text(data.decode("utf-8", "replace"))
            tried += 1
            ws.send_json({"type": "ping"})
            while True:  # the frame's answers, then the pong (state messages may come too)
                m = ws.receive_json()
                if m.get("type") == "pong":
                    break
                if m.get("type") == "error":
                    statuses[m["status"]] += 1
                    assert m["status"] < 500, (i, m)
                else:
                    statuses[m.get("type")] += 1
    fivexx = sum(n for s, n in statuses.items() if isinstance(s, int) and s >= 500)
    print(
        f"\nWebSocket fuzz: {tried} frames; answers {dict(sorted(statuses.items(), key=str))}; "
        f"5xx: {fivexx}; dropped sockets: 0"
    )
    assert fivexx == 0 and statuses[400] > 100
