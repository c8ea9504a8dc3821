"""The browser tests leave nothing behind for the tests after them in the same worker:
after a browser test, a test that runs its own event loop (``asyncio.run``, as the game
service's tests do) works. With one browser per session, Playwright's event loop stayed
marked as running and such tests failed whenever pytest-xdist ran them after a browser test
(flaky by worker, seen under load)."""

from __future__ import annotations

import subprocess
import sys

from .conftest import REPO

SECOND = """
import asyncio


def test_an_event_loop_of_its_own():
    async def main():
        await asyncio.sleep(0)
        return 7

    assert asyncio.run(main()) == 7
"""


def test_a_browser_test_then_asyncio_run_in_one_process(tmp_path) -> None:
    after = tmp_path / "test_after_browser.py"
    after.write_text(SECOND, encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            f"{REPO}/tests/web/test_players_ui.py::test_player_page_lists_ratings_and_games",
            str(after),
            f"--rootdir={REPO}",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "2 passed" in done.stdout
