"""No serious or critical accessibility violation (axe-core, through the PyPI package
``axe-playwright-python``, which bundles it) on the pages people read (issue 33): the
lobby, a classic and a Splendor Duel table (seated, spectator, and the seated table in
screen-reader mode), the replay, a finished game's analysis, the leaderboard and a player
page, in every language of the client (``LANGUAGES`` of ``web/i18n.js``).

One browser page per language visits every page; the counts found (per language and page,
serious + critical, by rule id) are written to ``test-artifacts/web/axe_counts.txt`` for
the docs to quote. The server is this module's own (a fast analysis: 48 iterations a
decision), its games made by REST.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import ARTIFACTS, REPO, open_page, serve_subprocess
from .test_analysis_ui import SERVER_CODE, finished_duel
from .ui import rest

axe_module = pytest.importorskip(
    "axe_playwright_python.sync_playwright", reason="axe-playwright-python is not installed"
)

SERIOUS = {"serious", "critical"}
COUNTS = ARTIFACTS / "axe_counts.txt"


def client_languages() -> list[str]:
    """The language codes of ``LANGUAGES`` in ``web/i18n.js``, in its order."""
    source = (REPO / "src/splendor/web/i18n.js").read_text()
    block = source.split("export const LANGUAGES = [", 1)[1].split("];", 1)[0]
    return re.findall(r'\["([a-z]{2})",', block)


LANGUAGES = client_languages()


@pytest.fixture(scope="module")
def axe_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this module's own (fast analyses)."""
    folder = tmp_path_factory.mktemp("axe-ui")
    with serve_subprocess(SERVER_CODE, folder, 240, warm_up=False) as base:
        yield base


def _new_game(base: str, game: str) -> tuple[str, str]:
    """A game between Ann and Bob, two people; its id and Ann's (the first player's) token."""
    made = rest(
        base,
        "/api/games",
        {
            "game": game,
            "seats": [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}],
        },
    )
    return made["game_id"], made["seats"][0]["token"]


@pytest.fixture(scope="module")
def visits(axe_server: str) -> list[tuple[str, str, str]]:
    """The pages: ``(name, address, selector shown once the page is drawn)``."""
    classic, classic_token = _new_game(axe_server, "splendor")
    duel, duel_token = _new_game(axe_server, "duel")
    done, done_token = finished_duel(axe_server)
    rest(axe_server, f"/api/games/{done}/analysis", {}, done_token)
    player = rest(axe_server, "/api/players/guest", {"name": "Cleo"})["player"]["id"]
    ready = "[data-testid=game-root][data-move]"
    analysed = "[data-testid=analysis][data-status=done]"
    return [
        ("lobby", "/", "[data-testid=open-table-submit]"),
        ("classic-seated", f"/games/{classic}#token={classic_token}", ready),
        ("classic-spectator", f"/games/{classic}?spectate=1", ready),
        ("duel-seated", f"/games/{duel}#token={duel_token}", ready),
        ("duel-spectator", f"/games/{duel}?spectate=1", ready),
        ("analysis", f"/games/{done}?spectate=1", analysed),
        ("replay", f"/games/{done}/replay", analysed),
        ("leaderboard", "/leaderboard", "[data-testid=leaderboard][data-state=ready]"),
        ("player", f"/players/{player}", "[data-testid=player-root][data-state=ready]"),
        ("reader", f"/games/{classic}#token={classic_token}", "[data-testid=reader]"),
    ]


@pytest.fixture(scope="module")
def found() -> Iterator[dict[str, dict[str, dict[str, int]]]]:
    """Serious and critical violations found, ``{language: {page: {rule: nodes}}}``; written
    to ``test-artifacts/web/axe_counts.txt`` at the end of the module."""
    counts: dict[str, dict[str, dict[str, int]]] = {}
    yield counts
    write_counts(counts, COUNTS)


def write_counts(counts: dict[str, dict[str, dict[str, int]]], path: Path) -> None:
    """One line per language and page: the number of serious + critical violations (the
    elements that fail) and the rule ids with their counts."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["# axe-core serious+critical violations (elements) per language and page"]
    for language, pages in counts.items():
        for name, rules in pages.items():
            detail = ", ".join(f"{rule} {n}" for rule, n in sorted(rules.items()))
            lines.append(
                f"{language} {name}: {sum(rules.values())}" + (f" ({detail})" if detail else "")
            )
    path.write_text("\n".join(lines) + "\n")


def serious_violations(page: Any) -> dict[str, list[str]]:
    """axe-core's serious and critical violations on ``page``: rule id -> the failing
    elements' selectors."""
    results = axe_module.Axe().run(page)
    out: dict[str, list[str]] = {}
    for v in results.response["violations"]:
        if v.get("impact") in SERIOUS:
            out[v["id"]] = [" ".join(map(str, n["target"])) for n in v["nodes"]]
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_serious_accessibility_violation(
    browser: Any, axe_server: str, visits: list, found: dict, language: str
) -> None:
    contexts: list[Any] = []
    errors: list[str] = []
    page = open_page(browser, axe_server, errors, contexts)
    page.context.add_cookies(
        [{"name": "lang", "value": language, "url": axe_server, "sameSite": "Lax"}]
    )
    failures = {}
    try:
        for name, address, ready in visits:
            reader = "reader" in name
            if reader:  # the screen-reader mode is the browser's choice (localStorage)
                page.evaluate("localStorage.setItem('splendor.reader', 'on')")
            page.goto(address)
            expect(page.locator(ready).first).to_be_attached(timeout=120_000)
            assert page.evaluate("document.documentElement.lang") == language, name
            violations = serious_violations(page)
            found.setdefault(language, {})[name] = {k: len(v) for k, v in violations.items()}
            if violations:
                failures[name] = violations
            if reader:
                page.evaluate("localStorage.removeItem('splendor.reader')")
    finally:
        for ctx in contexts:
            ctx.close()
    assert not errors, f"JavaScript errors in the page: {errors}"
    assert not failures, f"{language}: serious or critical violations: {failures}"
