"""Fixtures of the server tests: a shared bot process pool, apps on throwaway SQLite files,
and a throwaway PostgreSQL cluster.

PostgreSQL: the fixture runs ``initdb``/``pg_ctl`` from ``/usr/lib/postgresql/*/bin`` (as the
``postgres`` user when the tests run as root) in a temporary folder, listening only on a
unix socket in that folder. Without PostgreSQL the tests that need it FAIL (install it with
``make system-deps``); set ``SPLENDOR_SKIP_POSTGRES=1`` to skip them instead.
"""

from __future__ import annotations

import os
import sys
import uuid
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx2.*")

from fastapi.testclient import TestClient  # noqa: E402

from splendor.server.app import Limits, create_app  # noqa: E402
from splendor.server.bots import make_executor  # noqa: E402


@pytest.fixture(scope="session")
def bot_pool() -> Iterator[Any]:
    """One spawn worker process for the bots of every test app (started once)."""
    pool = make_executor(1)
    yield pool
    pool.shutdown(wait=True, cancel_futures=True)


@pytest.fixture
def web_dir(tmp_path: Path) -> Path:
    """A stand-in client folder (the real one belongs to the browser client)."""
    d = tmp_path / "web"
    d.mkdir()
    (d / "index.html").write_text("<!doctype html><title>splendor test</title>")
    (d / "app.js").write_text("export {};")
    return d


@pytest.fixture
def make_client(
    tmp_path: Path, bot_pool: Any, web_dir: Path
) -> Iterator[Callable[..., TestClient]]:
    """``make_client(database_url=None, **create_app_options)``: a started TestClient over a
    fresh app (default: a new SQLite file in ``tmp_path``), without rate limits unless
    ``limits`` is given (these tests play at machine speed; ``test_limits.py`` tests the
    rates); every client is closed at teardown."""
    opened: list[TestClient] = []

    def make(database_url: str | None = None, **options: Any) -> TestClient:
        url = database_url or f"sqlite:///{tmp_path / f'games-{len(opened)}.db'}"
        options.setdefault("limits", Limits.unlimited_rates())
        client = TestClient(create_app(url, web_dir=web_dir, executor=bot_pool, **options))
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for c in reversed(opened):
        c.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    """A started app on a fresh SQLite file."""
    return make_client()


# --------------------------------------------------------------------------- PostgreSQL


sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from throwaway_postgres import PostgresUnavailable, ThrowawayPostgres  # noqa: E402


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A throwaway PostgreSQL cluster (``benchmarks/throwaway_postgres.py``); yields the
    URL of its ``postgres`` database."""
    if os.environ.get("SPLENDOR_SKIP_POSTGRES") == "1":
        pytest.skip("SPLENDOR_SKIP_POSTGRES=1")
    cluster = None
    try:
        cluster = ThrowawayPostgres()
        cluster.start()
    except PostgresUnavailable as e:
        if cluster is not None:
            cluster.close()
        pytest.fail(f"{e}, or set SPLENDOR_SKIP_POSTGRES=1 to skip these tests", pytrace=False)
    try:
        yield cluster.url()
    finally:
        cluster.close()


@pytest.fixture
def postgres_url(postgres_server: str) -> str:
    """A fresh empty database on the throwaway cluster."""
    from sqlalchemy import create_engine, text

    name = f"t_{uuid.uuid4().hex[:12]}"
    engine = create_engine(postgres_server, isolation_level="AUTOCOMMIT")
    with engine.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return postgres_server.replace("/postgres?", f"/{name}?")


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each storage test runs on a SQLite file and on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    return request.getfixturevalue("postgres_url")


# --------------------------------------------------------------------------- SMTP


class _Inbox:
    """What the local SMTP server received: ``messages`` (parsed, oldest first)."""

    def __init__(self) -> None:
        self.messages: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        from email import message_from_bytes, policy

        self.messages.append(message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"


@pytest.fixture
def smtp_server() -> Iterator[tuple[str, _Inbox]]:
    """A real local SMTP server (``aiosmtpd``) on a free port of 127.0.0.1: yields its
    ``smtp://`` URL and its inbox (``inbox.messages``: :class:`email.message.EmailMessage`)."""
    from aiosmtpd.controller import Controller

    from tests.server.util import free_port

    inbox = _Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield f"smtp://127.0.0.1:{port}", inbox
    finally:
        controller.stop()
