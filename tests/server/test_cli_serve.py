"""``splendor serve``: its options are checked before anything starts (the server itself
is started by test_restart.py)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from splendor.cli import app


@pytest.mark.parametrize("args, words", [(["--port", "0"], "--port"), (["--bot-workers", "0"], "--bot-workers")])
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
    (app, kw), = calls
    assert isinstance(app, FastAPI)
    assert kw == {"host": "127.0.0.1", "port": 8123, "log_level": "warning", "access_log": False,
                  "ws_per_message_deflate": True}
