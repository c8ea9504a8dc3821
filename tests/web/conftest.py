"""Fixtures of the browser tests: the real server in a subprocess (temporary SQLite file,
free port) and headless Chromium from Debian driven by Playwright.

The whole folder is skipped when Playwright, /usr/bin/chromium or the server's
dependencies are missing. Screenshots go to ``test-artifacts/web/`` at the repository
root (ignored by git); their paths are printed.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.util import free_port, stop_server

CHROMIUM = os.environ.get("SPLENDOR_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts" / "web"

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
# Assertions wait as long as actions do (Playwright's default is 5 s): CI's shared two cores
# can be several times slower than a developer's machine.
sync_api.expect.set_options(timeout=20_000)
pytest.importorskip("fastapi", reason="the server's dependencies are not installed")
pytest.importorskip("uvicorn", reason="uvicorn is not installed")
if not Path(CHROMIUM).exists():  # pragma: no cover - depends on the machine
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

# no rate on guest sessions, sign-ups and log-ins: every test shares this server's address;
# clocks from 2 s on (a time-out within a test)
SERVER_CODE = """
import sys, uvicorn
from splendor.server.app import Limits, MailConfig, create_app
limits = Limits(auth_rate=None, min_clock=2)
mail = MailConfig(
    smtp_url=sys.argv[3] if len(sys.argv) > 3 else None, local_push_endpoints=True
)
app = create_app(database_url=sys.argv[1], bot_workers=1, limits=limits, mail=mail)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""
WARM_UP_SECONDS = 300
"""How long the server may take to answer its first games: on a fresh clone every rules
function is compiled first (numba), in the server and in its bot worker, while the other
test worker compiles too."""


class Inbox:
    """What the tests' SMTP server received: ``messages`` (parsed, oldest first)."""

    def __init__(self) -> None:
        self.messages: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        from email import message_from_bytes, policy

        self.messages.append(message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"

    def to(self, address: str) -> list[Any]:
        """The messages sent to ``address``, oldest first."""
        return [m for m in self.messages if m["To"] == address]

    def wait_for(self, address: str, count: int = 1, seconds: float = 30.0) -> list[Any]:
        """The messages to ``address`` once there are at least ``count`` (fails the
        test after ``seconds``)."""
        deadline = time.time() + seconds
        while len(self.to(address)) < count:
            if time.time() > deadline:
                pytest.fail(f"{count} mail(s) to {address} expected; got {len(self.to(address))}")
            time.sleep(0.1)
        return self.to(address)


@pytest.fixture(scope="session")
def mail_inbox() -> Iterator[tuple[str, Inbox]]:
    """A real local SMTP server (``aiosmtpd``) for the browser tests' server: its
    ``smtp://`` URL and its :class:`Inbox`."""
    controller_module = pytest.importorskip("aiosmtpd.controller")
    inbox = Inbox()
    controller = controller_module.Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield f"smtp://127.0.0.1:{controller.port}", inbox
    finally:
        controller.stop()


@pytest.fixture
def inbox(mail_inbox: tuple[str, Inbox]) -> Inbox:
    """The browser tests' server's mail (:class:`Inbox`), shared by every test: look for
    the messages to an address of your own test."""
    return mail_inbox[1]


@pytest.fixture(scope="session")
def server_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of the browser tests' server: its SQLite file ``games.db`` (see
    :func:`server_database_url`) and its log ``server.log``."""
    return tmp_path_factory.mktemp("web")


@pytest.fixture(scope="session")
def server_database_url(server_folder: Path) -> str:
    """The database URL of the browser tests' server (for ``splendor admin`` say)."""
    return f"sqlite:///{server_folder / 'games.db'}"


@pytest.fixture(scope="session")
def server(server_folder: Path, mail_inbox: tuple[str, Inbox]) -> Iterator[str]:
    """Base URL of a running server (its own process, one bot worker), warmed up: it has
    answered a game of each kind whose first move was a bot's, so no test waits for the
    rules to compile.

    The server is not niced: with both cores busy (the other test worker, Chromium), a
    niced server got almost no CPU time and a test's first request timed out.
    """
    with serve_subprocess(
        SERVER_CODE, server_folder, WARM_UP_SECONDS, warm_up=True, args=[mail_inbox[0]]
    ) as base:
        yield base


@contextlib.contextmanager
def serve_subprocess(
    code: str, folder: Path, seconds: float, warm_up: bool, args: list[str] | None = None
) -> Iterator[str]:
    """Run ``python -c code DATABASE_URL PORT`` (a server on a new SQLite file in
    ``folder``, a free port; its log in ``folder/server.log``); yields its base URL once it
    answers (and, with ``warm_up``, once it has played its first games: :func:`_warm_up`),
    within ``seconds``, else fails the test with the end of its log; stops it after."""
    port = free_port()
    log = open(folder / "server.log", "w")
    cmd = [sys.executable, "-c", code, f"sqlite:///{folder / 'games.db'}", str(port), *(args or [])]
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=REPO)
    base = f"http://127.0.0.1:{port}"

    def failed(why: str) -> None:
        proc.kill()
        log.close()
        pytest.fail(f"{why}:\n" + (folder / "server.log").read_text()[-3000:])

    deadline = time.time() + seconds
    while True:
        try:
            with urllib.request.urlopen(base + "/api/meta", timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.time() > deadline:
            failed("the server did not start")
        time.sleep(0.3)
    if warm_up:
        try:
            _warm_up(base, deadline)
        except (OSError, AssertionError) as e:
            failed(f"the server did not play its first games ({e})")
    try:
        yield base
    finally:
        stop_server(proc)
        log.close()


def _warm_up(base: str, deadline: float) -> None:
    """One private game of each kind, a random bot at the first seat and a person at the
    second, followed until the bot has moved (invisible to the tests: no player owns it)."""
    for game in ("splendor", "duel"):
        body = {
            "game": game,
            "seats": [{"type": "bot", "bot": "random"}, {"type": "human", "name": "warm-up"}],
        }
        req = urllib.request.Request(
            base + "/api/games",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=max(1.0, deadline - time.time())) as r:
            made = json.load(r)
        while True:
            url = f"{base}/api/games/{made['game_id']}"
            with urllib.request.urlopen(url, timeout=max(1.0, deadline - time.time())) as r:
                if json.load(r)["move"] >= 1:
                    break
            assert time.time() < deadline, f"the bot of the {game} warm-up game did not move"
            time.sleep(0.2)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Headless Debian Chromium, one per test module.

    Not one per session: Playwright's sync API keeps its event loop marked as running in
    the main thread while it is open, so that any later test in the same worker that calls
    ``asyncio.run`` (the service's tests) failed with "cannot be called from a running event
    loop" whenever pytest-xdist gave that worker a browser test first."""
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def open_page(browser, server: str, errors: list[str], contexts: list):
    """A page in a new browser context (its own cookies and localStorage; appended to
    ``contexts`` for the caller to close). Its uncaught exceptions, Content-Security-Policy
    violations and native dialogs (alert, confirm: the client uses none) are appended to
    ``errors``; a dialog is dismissed."""
    ctx = browser.new_context(
        viewport={"width": 1300, "height": 1000}, base_url=server, accept_downloads=True
    )
    ctx.set_default_timeout(20000)
    contexts.append(ctx)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    # the server's Content-Security-Policy must not block anything the client does
    page.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" and "Content Security Policy" in m.text
            else None
        ),
    )
    page.on("dialog", lambda d: (errors.append(f"dialog: {d.message}"), d.dismiss()))
    return page


@pytest.fixture
def new_page(browser, server):
    """Factory of pages, each in its own browser context (:func:`open_page`); page errors
    fail the test."""
    contexts: list = []
    errors: list[str] = []

    def make():
        return open_page(browser, server, errors, contexts)

    yield make
    for ctx in contexts:
        ctx.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


@pytest.fixture
def page(new_page):
    return new_page()


@pytest.fixture(scope="session")
def meta(server) -> dict:
    with urllib.request.urlopen(server + "/api/meta") as r:
        return json.load(r)


def screenshot(page, name: str) -> Path:
    """Save a full-page screenshot under test-artifacts/web/ and print its path."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    print(f"screenshot: {path}")
    return path
