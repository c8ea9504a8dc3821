"""Limits (issue 14, item 5): request bodies and WebSocket messages have a size limit
(413, enforced while the body streams in: a huge body is never held in memory), game
creation and actions have rate limits per client address (429 with Retry-After), and the
limits are configurable (:class:`splendor.server.app.Limits`)."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from splendor.server.app import Limits, create_app

from .util import free_port, start_server, stop_server

TWO = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
SMALL = Limits(
    max_body_bytes=1024,
    max_ws_message_bytes=512,
    max_json_depth=8,
    create_rate="3/minute",
    action_rate="5/minute",
)


@pytest.fixture
def make_app(tmp_path: Path, bot_pool: Any, web_dir: Path) -> Iterator[Callable[..., TestClient]]:
    """``make_app(limits, client=("testclient", 50000))``: a started TestClient over a
    fresh app with those limits, seen from that client address (several clients of one
    app share it: ``make_app(limits, app=c.app, client=...)``)."""
    opened: list[TestClient] = []

    def make(
        limits: Limits | None = None,
        *,
        app: Any = None,
        client: tuple[str, int] = ("testclient", 50000),
    ) -> TestClient:
        if app is None:
            app = create_app(
                f"sqlite:///{tmp_path / f'l{len(opened)}.db'}",
                web_dir=web_dir,
                executor=bot_pool,
                limits=limits,
            )
        c = TestClient(app, client=client)
        c.__enter__()
        opened.append(c)
        return c

    yield make
    for c in reversed(opened):
        c.__exit__(None, None, None)


def test_limits_are_checked() -> None:
    assert Limits().max_body_bytes == 64 * 1024 and Limits().create_rate == "30/minute"
    assert (
        Limits.unlimited_rates().action_rate is None
        and Limits.unlimited_rates().create_rate is None
    )
    assert Limits.unlimited_rates().auth_rate is None
    assert Limits(create_rate="off", action_rate="off", auth_rate="off") == Limits.unlimited_rates()
    for bad in (
        {"max_body_bytes": 0},
        {"max_ws_message_bytes": -1},
        {"max_json_depth": True},
        {"create_rate": "often"},
        {"action_rate": "5 per fortnight"},
        {"auth_rate": "10 a minute"},
        {"create_rate": ""},
    ):
        with pytest.raises(ValueError):
            Limits(**bad)


def test_a_body_over_the_limit_is_refused_with_413(make_app: Callable[..., TestClient]) -> None:
    """By its Content-Length (the app is not reached) and, without one (chunked), by
    counting its bytes as they arrive; nothing is created either way."""
    c = make_app(Limits(max_body_bytes=1024, create_rate=None, action_rate=None))
    big = b'{"game": "splendor", "seats": [], "pad": "' + b"x" * 2000 + b'"}'
    r = c.post("/api/games", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "at most 1024 bytes" in r.json()["detail"]
    assert r.headers["x-content-type-options"] == "nosniff"  # the security headers are there too

    def chunks() -> Iterator[bytes]:
        yield big[:600]
        yield big[600:]

    r = c.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
    assert "content-length" not in r.request.headers and r.status_code == 413
    r = c.post("/api/games", content=b"1" * 10, headers={"content-length": "ten"})
    assert r.status_code == 400 and "Content-Length" in r.json()["detail"]
    assert c.app.state.storage.game_ids() == []
    ok = c.post("/api/games", json={"game": "splendor", "seats": TWO})  # just under: accepted
    assert ok.status_code == 201


def test_json_depth_is_configurable(make_app: Callable[..., TestClient]) -> None:
    c = make_app(SMALL)
    r = c.post(
        "/api/games",
        json={"game": "splendor", "seats": [{"type": "human", "name": "A", "x": [[[[[[[1]]]]]]]}]},
    )
    assert r.status_code == 400 and "at most 8 levels" in r.json()["detail"]


def test_a_websocket_message_over_the_limit_gets_413_and_the_socket_stays(
    make_app: Callable[..., TestClient],
) -> None:
    c = make_app(Limits(max_ws_message_bytes=512, create_rate=None, action_rate=None))
    g = c.post("/api/games", json={"game": "splendor", "seats": TWO}).json()
    with c.websocket_connect(f"/ws/games/{g['game_id']}") as ws:
        ws.receive_json()
        ws.send_text('{"type": "ping", "pad": "' + "x" * 600 + '"}')
        err = ws.receive_json()
        assert err == {
            "type": "error",
            "status": 413,
            "message": "the message is too large: at most 512 bytes",
        }
        ws.send_text(
            '{"type": "ping", "pad": "' + "é" * 250 + '"}'
        )  # 250 characters, 500 bytes + the rest
        assert ws.receive_json()["status"] == 413
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_creating_games_is_rate_limited_per_client_address(
    make_app: Callable[..., TestClient],
) -> None:
    """The fourth creation in a minute from one address is refused (429, Retry-After, and
    nothing is made), another address still may; bad requests count too (a flood of
    junk is a flood)."""
    c = make_app(SMALL)
    assert c.post("/api/games", json={"game": "chess"}).status_code == 400
    for _ in range(2):
        assert c.post("/api/games", json={"game": "splendor", "seats": TWO}).status_code == 201
    r = c.post("/api/games", json={"game": "splendor", "seats": TWO})
    assert r.status_code == 429, r.text
    assert 1 <= int(r.headers["retry-after"]) <= 60 and "at most 3 per 60 s" in r.json()["detail"]
    assert len(c.app.state.storage.game_ids()) == 2
    other = make_app(app=c.app, client=("203.0.113.9", 4000))
    assert other.post("/api/games", json={"game": "splendor", "seats": TWO}).status_code == 201


def test_the_default_create_rate_is_30_a_minute(make_app: Callable[..., TestClient]) -> None:
    c = make_app()  # the defaults, as `splendor serve` has them
    codes = [
        c.post("/api/games", json={"game": "splendor", "seats": TWO}).status_code for _ in range(31)
    ]
    assert codes == [201] * 30 + [429]


def test_actions_are_rate_limited_over_rest_and_websocket(
    make_app: Callable[..., TestClient],
) -> None:
    """Actions, explanations and WebSocket messages share one budget per address (5 a
    minute here); reading the state does not count. Over it: 429 with Retry-After, or an
    error message with ``retry_after``; the connection stays open."""
    c = make_app(SMALL)
    g = c.post("/api/games", json={"game": "splendor", "seats": TWO}).json()
    gid, ann = g["game_id"], g["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {ann}"}
    legal = c.get(f"/api/games/{gid}", headers=auth).json()["legal_actions"]
    assert (
        c.post(f"/api/games/{gid}/explain", json={"action": "take W U G"}, headers=auth).status_code
        == 200
    )
    assert (
        c.post(
            f"/api/games/{gid}/actions", json={"action": "fly", "move": 0}, headers=auth
        ).status_code
        == 400
    )
    assert (
        c.post(
            f"/api/games/{gid}/actions", json={"action": legal[0]["id"], "move": 0}, headers=auth
        ).status_code
        == 200
    )
    with c.websocket_connect(f"/ws/games/{gid}") as ws:
        ws.receive_json()
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        ws.send_json({"type": "ping"})  # the sixth in the minute
        err = ws.receive_json()
        assert err["type"] == "error" and err["status"] == 429 and 1 <= err["retry_after"] <= 60
    r = c.post(
        f"/api/games/{gid}/actions", json={"action": legal[0]["id"], "move": 1}, headers=auth
    )
    assert r.status_code == 429 and r.headers["retry-after"].isdigit()
    for _ in range(10):  # reading is not limited
        assert c.get(f"/api/games/{gid}").status_code == 200
    assert c.get(f"/api/games/{gid}").json()["move"] == 1


# --------------------------------------------------------------------------- a real server


def _peak_rss_kib(pid: int) -> int:
    """The process's peak resident memory so far (``VmHWM``), KiB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise AssertionError("no VmHWM")


def _post_100_mb(port: int, chunked: bool) -> str:
    """POST a 100 MiB body (declared by Content-Length, or chunked without one) in 64 KiB
    pieces, as fast as the server takes them; returns the status line of the answer."""
    total, piece = 100 * 2**20, b"a" * 65536
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        head = b"POST /api/games HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        s.sendall(
            head
            + (
                b"Transfer-Encoding: chunked\r\n\r\n"
                if chunked
                else f"Content-Length: {total}\r\n\r\n".encode()
            )
        )
        try:
            for _ in range(total // len(piece)):
                s.sendall(b"10000\r\n" + piece + b"\r\n" if chunked else piece)
            if chunked:
                s.sendall(b"0\r\n\r\n")
        except OSError:  # the server may stop reading once it has answered
            pass
        return s.recv(4096).split(b"\r\n")[0].decode()


@pytest.mark.skipif(
    not Path("/proc/self/status").exists(), reason="reads the server's memory from /proc"
)
def test_splendor_serve_holds_its_limits(tmp_path: Path) -> None:
    """``splendor serve`` with its default limits: a 100 MiB body, declared or chunked,
    answers 413 and leaves the server's peak memory as it was (before the limit, one such
    body raised it by 200 MiB, measured); a WebSocket frame over 64 KiB closes that connection
    with 1009 (uvicorn's ``ws_max_size``), and the server goes on."""
    import httpx
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    port = free_port()
    log = tmp_path / "serve.log"
    proc = start_server(tmp_path / "g.db", port, log, rates=True)
    base = f"http://127.0.0.1:{port}"
    try:
        before = _peak_rss_kib(proc.pid)
        for chunked in (False, True, True):
            assert _post_100_mb(port, chunked) == "HTTP/1.1 413 Request Entity Too Large"
        grown = (_peak_rss_kib(proc.pid) - before) / 1024
        print(
            f"\nserver peak RSS {before / 1024:.1f} MiB, "
            f"after three 100 MiB bodies +{grown:.1f} MiB"
        )
        assert grown < 20, f"the server's peak memory grew by {grown:.1f} MiB"
        g = httpx.post(f"{base}/api/games", json={"game": "splendor", "seats": TWO}).json()
        with connect(f"ws://127.0.0.1:{port}/ws/games/{g['game_id']}", max_size=None) as ws:
            ws.recv(timeout=10)
            ws.send('{"type": "ping", "pad": "' + "x" * (64 * 1024) + '"}')
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=10)
            assert ws.close_code == 1009
        assert httpx.get(f"{base}/api/games/{g['game_id']}").json()["move"] == 0
    finally:
        stop_server(proc)
