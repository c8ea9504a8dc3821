"""``splendor serve``: its options are checked before anything starts, its settings reach
uvicorn, and its logs never hold a seat token (the server is also started by
test_restart.py)."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from splendor.cli import app


@pytest.mark.parametrize(
    "args, words",
    [
        (["--port", "0"], "--port"),
        (["--bot-workers", "0"], "--bot-workers"),
        (["--min-clock", "0"], "min_clock must be a whole number >= 1"),
        (["--analysis-iterations", "0"], "iterations must be 1 or more"),
        (["--analyses-at-once", "0"], "running"),
    ],
)
def test_serve_rejects_bad_options(args: list[str], words: str) -> None:
    result = CliRunner().invoke(app, ["serve", *args])
    assert result.exit_code == 2
    assert words in result.output


def test_serve_help() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    assert "--database-url" in result.output and "--host" in result.output


def test_server_serve_passes_its_settings_to_uvicorn(monkeypatch: pytest.MonkeyPatch) -> None:
    """:func:`splendor.server.app.serve` (what the load benchmark starts): the app on the
    address given, access log and WebSocket compression as asked."""
    import uvicorn
    from fastapi import FastAPI

    from splendor.server.app import serve

    calls: list[tuple[object, dict[str, object]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append((app, kw)))
    serve("sqlite://", port=8123, access_log=False, log_level="warning")
    ((app, kw),) = calls
    assert isinstance(app, FastAPI)
    config = kw.pop("log_config")
    assert kw == {
        "host": "127.0.0.1",
        "port": 8123,
        "log_level": "warning",
        "access_log": False,
        "ws_per_message_deflate": True,
        "ws_max_size": 64 * 1024,
    }
    assert all("redact_tokens" in h["filters"] for h in config["handlers"].values())


def test_redact_tokens_in_log_lines() -> None:
    """The filter :func:`serve` puts on uvicorn's handlers, on records shaped like
    uvicorn's access and WebSocket lines."""
    import logging

    from splendor.server.app import RedactTokens, redact_tokens

    assert (
        redact_tokens("/games/x?token=abc-DEF_1&spectate=1")
        == "/games/x?token=[redacted]&spectate=1"
    )
    assert (
        redact_tokens('GET /api/games?a=1&TOKEN=s3cret HTTP/1.1"')
        == 'GET /api/games?a=1&TOKEN=[redacted] HTTP/1.1"'
    )
    assert (
        redact_tokens("/games/x#token=frag") == "/games/x#token=frag"
    )  # fragments never reach a server
    access = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5", "GET", "/api/games/g?token=s3cret", "1.1", 400),
        None,
    )
    ws = logging.LogRecord(
        "uvicorn.error",
        logging.INFO,
        __file__,
        1,
        '%s - "WebSocket %s" [accepted]',
        ("127.0.0.1:5", "/ws/games/g?token=s3cret"),
        None,
    )
    for record in (access, ws):
        assert RedactTokens().filter(record)
        assert "s3cret" not in record.getMessage() and "token=[redacted]" in record.getMessage()


def test_serve_writes_no_token_to_its_access_log(tmp_path: Any) -> None:
    """Issue 14 item 7: ``splendor serve`` (uvicorn with its access log) gets requests and
    a WebSocket with a seat token in the URL (refused, 400 / 4400); the token is in none of
    its log lines, which do show the requests."""
    import time

    import httpx
    from websockets.sync.client import connect

    from .util import free_port, start_server, stop_server

    port = free_port()
    log = tmp_path / "serve.log"
    secret = "Zm9vYmFyLXNlY3JldC10b2tlbi0xMjM0NTY3ODkw"
    proc = start_server(tmp_path / "g.db", port, log, rates=True)
    base = f"http://127.0.0.1:{port}"
    try:
        assert httpx.get(f"{base}/api/games/abc?token={secret}").status_code == 400
        assert httpx.get(f"{base}/games/abc?spectate=1&token={secret}").status_code == 200
        with connect(f"ws://127.0.0.1:{port}/ws/games/abc?token={secret}") as ws:
            try:
                ws.recv(timeout=10)
            except Exception:  # closed with 4400: what we want
                pass
            assert ws.close_code in (4400, None)
        time.sleep(0.5)
    finally:
        stop_server(proc)
    text = log.read_text()
    assert "/api/games/abc?token=[redacted]" in text and "spectate=1&token=[redacted]" in text, (
        text[-2000:]
    )
    assert "WebSocket /ws/games/abc?token=[redacted]" in text, text[-2000:]
    assert secret not in text
