"""Fixtures of the browser tests: the real server in a subprocess (temporary SQLite file,
free port) and headless Chromium from Debian driven by Playwright.

The whole folder is skipped when Playwright, /usr/bin/chromium or the server's
dependencies are missing. Screenshots go to ``test-artifacts/web/`` at the repository
root (ignored by git); their paths are printed.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

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
pytest.importorskip("fastapi", reason="the server's dependencies are not installed")
pytest.importorskip("uvicorn", reason="uvicorn is not installed")
if not Path(CHROMIUM).exists():  # pragma: no cover - depends on the machine
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

# no rate on guest sessions, sign-ups and log-ins: every test shares this server's address
SERVER_CODE = """
import sys, uvicorn
from splendor.server.app import Limits, create_app
app = create_app(database_url=sys.argv[1], bot_workers=1, limits=Limits(auth_rate=None))
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a running server (its own process, niced, one bot worker)."""
    db = tmp_path_factory.mktemp("web") / "games.db"
    port = _free_port()
    log = open(db.parent / "server.log", "w")
    cmd = [sys.executable, "-c", SERVER_CODE, f"sqlite:///{db}", str(port)]
    if os.name == "posix":
        cmd = ["nice", "-n", "19", *cmd]
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=REPO)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 120
    while True:
        try:
            with urllib.request.urlopen(base + "/api/meta", timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.time() > deadline:
            proc.kill()
            log.close()
            pytest.fail(
                "the server did not start:\n" + (db.parent / "server.log").read_text()[-3000:]
            )
        time.sleep(0.3)
    yield base
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Headless Debian Chromium."""
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def new_page(browser, server):
    """Factory of pages, each in its own browser context (its own localStorage); page
    errors (uncaught exceptions) and Content-Security-Policy violations fail the test."""
    contexts = []
    errors: list[str] = []

    def make():
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
        return page

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
