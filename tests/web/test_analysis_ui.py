"""The post-game analysis in the browser (issue 19): a finished game (Bob resigned) shows
Ann an "Analysis" button; pressed, the page shows the progress live (moves analysed of
the total, from the game's WebSocket), then the chart of each player's chance to win (an
SVG ``role="img"`` with an ``aria-label``, one line per player, the mistakes and
blunders marked with a dot whose tooltip names the turn, the player, the move, its label
and the engine's move), the summary table and the list of moves; a spectator sees the
analysis, without the button; and the same in French, with no English left.

The server is this module's own (a fast search budget: 48 iterations a decision)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import open_page, screenshot, serve_subprocess
from .test_languages_ui import assert_no_english
from .ui import rest

SERVER_CODE = """
import sys, uvicorn
from splendor.analysis import Settings
from splendor.server.analysis_jobs import AnalysisConfig
from splendor.server.app import Limits, create_app
app = create_app(
    database_url=sys.argv[1], bot_workers=1,
    limits=Limits.unlimited_rates(),
    analysis=AnalysisConfig(settings=Settings(iterations=48, seed=0)),
)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""

DECISIONS = 10
"""Decisions played before Bob resigns."""

LABELS_EN = {"best move", "good move", "inaccuracy", "mistake", "blunder", "forced move"}


@pytest.fixture(scope="module")
def fast_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this module's own whose analyses search 48 iterations a decision."""
    folder = tmp_path_factory.mktemp("analysis-ui")
    with serve_subprocess(SERVER_CODE, folder, 120, warm_up=False) as base:
        yield base


@pytest.fixture
def pages(browser: Any, fast_server: str) -> Iterator[Any]:
    """``pages(lang=None)``: a page in a browser context of its own on the module's server
    (with the cookie ``lang``); page errors fail the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(lang: str | None = None) -> Any:
        page = open_page(browser, fast_server, errors, contexts)
        if lang:
            page.context.add_cookies(
                [{"name": "lang", "value": lang, "url": fast_server, "sameSite": "Lax"}]
            )
        return page

    yield make
    for ctx in contexts:
        ctx.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


def finished_duel(base: str) -> tuple[str, str]:
    """A Splendor Duel game between Ann and Bob: ``DECISIONS`` decisions (each the first
    legal one), then Bob resigns. Its id and Ann's seat token."""
    made = rest(
        base,
        "/api/games",
        {
            "game": "duel",
            "seats": [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}],
        },
    )
    gid = made["game_id"]
    tokens = [s["token"] for s in made["seats"]]
    for _ in range(DECISIONS):
        seat = rest(base, f"/api/games/{gid}")["current_player"]
        state = rest(base, f"/api/games/{gid}", token=tokens[seat])
        action = state["legal_actions"][0]["id"]
        rest(
            base,
            f"/api/games/{gid}/actions",
            {"action": action, "move": state["move"]},
            tokens[seat],
        )
    assert rest(base, f"/api/games/{gid}/resign", {}, tokens[1])["status"] == "finished"
    return gid, tokens[0]


WATCH_PROGRESS = """() => {
  window.__progress = [];
  const seen = () => {
    const p = document.querySelector('[data-testid=analysis-progress]');
    if (p) window.__progress.push([Number(p.dataset.done), Number(p.dataset.total)]);
  };
  const watch = {subtree: true, childList: true, attributes: true};
  new MutationObserver(seen).observe(document.body, watch);
}"""


def ask_and_wait(page: Any) -> list[list[int]]:
    """Press Analysis and wait for the analysis; the progress shown meanwhile."""
    page.evaluate(WATCH_PROGRESS)
    page.click("[data-testid=analysis-ask]")
    expect(page.locator("[data-testid=analysis]")).to_have_attribute("data-status", "done")
    expect(page.locator("[data-testid=analysis-chart]")).to_be_visible()
    return page.evaluate("window.__progress")


def test_a_player_asks_for_the_analysis_and_sees_it_grow_into_a_chart(
    pages: Any, fast_server: str
) -> None:
    gid, ann_token = finished_duel(fast_server)
    ann = pages()
    ann.goto(f"/games/{gid}#token={ann_token}")
    root = ann.locator("[data-testid=game-root]")
    expect(root).to_have_attribute("data-status", "finished")
    panel = ann.locator("[data-testid=analysis]")
    expect(panel).to_have_attribute("data-status", "none")
    expect(ann.locator("[data-testid=analysis-ask]")).to_have_text("Analysis")

    progress = ask_and_wait(ann)
    assert progress, "no progress was shown"
    assert {total for _, total in progress} == {DECISIONS}
    dones = [done for done, _ in progress]
    assert dones == sorted(dones) and max(dones) >= 1, progress

    answer = rest(fast_server, f"/api/games/{gid}/analysis")
    data = answer["data"]
    assert answer["status"] == "done" and len(data["moves"]) == DECISIONS
    chart = ann.locator("svg[data-testid=analysis-chart]")
    assert chart.get_attribute("role") == "img"
    assert chart.get_attribute("aria-label").startswith("Chance to win of each player")
    lines = ann.locator("[data-testid=analysis-line]")
    judged = {m["seat"] for m in data["moves"] if m["after"] is not None}
    expect(lines).to_have_count(len(judged))
    for k in range(lines.count()):
        assert lines.nth(k).locator("polyline").get_attribute("points")
    expect(ann.locator("[data-testid=analysis-legend] li")).to_have_text(["Ann", "Bob"])
    dots = ann.locator("[data-testid=turning-point]")
    expect(dots).to_have_count(len(data["turning_points"]))
    by_index = {m["index"]: m for m in data["moves"]}
    for k in range(dots.count()):
        move = by_index[int(dots.nth(k).get_attribute("data-index"))]
        title = dots.nth(k).locator("title").text_content()
        # the moves said as sentences, the players named (issue 33)
        played, best = (
            re.sub(r"\{seat(\d)\}", lambda m: ["Ann", "Bob"][int(m.group(1))], move[key])
            for key in ("played_text", "best_text")
        )
        assert title.startswith(f"Turn {move['turn']}, ") and played in title
        assert move["label"] in title and f"best was {best}" in title

    table = ann.locator("table[data-testid=analysis-summary]")
    expect(table.locator("thead th")).to_have_text(
        ["Player", "Accuracy", "Inaccuracies", "Mistakes", "Blunders"]
    )
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(2)
    for seat, row in enumerate(data["summaries"]):
        cells = rows.nth(seat).locator("th, td")
        expect(cells.nth(0)).to_have_text(["Ann", "Bob"][seat])
        counts = row["counts"]
        expect(cells.nth(2)).to_have_text(str(counts["inaccuracy"]))
        expect(cells.nth(3)).to_have_text(str(counts["mistake"]))
        expect(cells.nth(4)).to_have_text(str(counts["blunder"]))

    items = ann.locator("[data-testid=analysis-move]")
    expect(items).to_have_count(DECISIONS)
    for k, move in enumerate(data["moves"]):
        item = items.nth(k)
        assert item.get_attribute("data-label") == move["label"]
        assert item.locator("[data-testid=analysis-label]").text_content() in LABELS_EN
        text = item.text_content()
        played, best = (
            re.sub(r"\{seat(\d)\}", lambda m: ["Ann", "Bob"][int(m.group(1))], move[key] or "")
            for key in ("played_text", "best_text")
        )
        assert played and played in text  # the move as a sentence (issue 33)
        # the engine's move, once, and never beside a move judged "best move"
        other = move["best"] and move["best"] != move["played"]
        shown = bool(other) and move["label"] not in ("best", "forced")
        assert ("best: " in text) == shown and (not shown or f"best: {best}" in text)
    screenshot(ann, "analysis-en")

    # a spectator sees the analysis, without the button
    watcher = pages()
    watcher.goto(f"/games/{gid}")
    expect(watcher.locator("[data-testid=analysis]")).to_have_attribute("data-status", "done")
    expect(watcher.locator("[data-testid=analysis-move]")).to_have_count(DECISIONS)
    expect(watcher.locator("[data-testid=analysis-ask]")).to_have_count(0)
    # and so does the replay page
    watcher.goto(f"/games/{gid}/replay")
    expect(watcher.locator("[data-testid=analysis-chart]")).to_be_visible()


def test_a_turning_point_says_what_was_played_and_what_was_best(pages: Any) -> None:
    """The chart of a made-up analysis with one blunder: its dot, its tooltip."""
    page = pages()
    page.goto("/")
    move = {"turn": 3, "seat": 1, "played": "take a1", "best": "buy 1.1", "label": "blunder"}
    data = {
        "seats": [0, 1],
        "players": ["Ann", "Bob"],
        "turning_points": [3],
        "moves": [
            {**move, "index": 0, "turn": 1, "seat": 0, "label": "best", "after": 0.5},
            {**move, "index": 1, "turn": 2, "label": "good", "after": 0.45},
            {**move, "index": 2, "turn": 2, "seat": 0, "label": "best", "after": 0.55},
            {**move, "index": 3, "after": 0.2},
        ],
    }
    found = page.evaluate(
        """async (data) => {
          const m = await import('/static/analysis.js');
          const figure = m.renderChart(data, [{seat: 0, name: 'Ann'}, {seat: 1, name: 'Bob'}]);
          document.body.append(figure);
          const dot = figure.querySelector('[data-testid=turning-point]');
          return {
            dots: figure.querySelectorAll('[data-testid=turning-point]').length,
            title: dot.querySelector('title').textContent,
            cls: dot.getAttribute('class'),
            lines: [...figure.querySelectorAll('polyline')].map((p) => p.getAttribute('points')),
            label: figure.querySelector('svg').getAttribute('aria-label'),
          };
        }""",
        data,
    )
    assert found["dots"] == 1
    assert found["title"] == "Turn 3, Bob: take a1, blunder; best was buy 1.1"
    assert "label-blunder" in found["cls"] and "seat-1" in found["cls"]
    assert [len(p.split()) for p in found["lines"]] == [2, 2]  # one point a turn
    assert found["label"].endswith("1 turning point marked")


def test_the_analysis_in_french(pages: Any, fast_server: str) -> None:
    gid, ann_token = finished_duel(fast_server)
    ann = pages(lang="fr")
    ann.goto(f"/games/{gid}#token={ann_token}")
    expect(ann.locator("[data-testid=analysis-ask]")).to_have_text("Analyse")
    assert_no_english(ann, "fr", "analysis-ask")
    progress = ask_and_wait(ann)
    assert progress and {total for _, total in progress} == {DECISIONS}
    expect(ann.locator("table[data-testid=analysis-summary] thead th")).to_have_text(
        ["Joueur", "Précision", "Imprécisions", "Erreurs", "Gaffes"]
    )
    labels = set(ann.locator("[data-testid=analysis-label]").all_text_contents())
    assert labels <= {"meilleur coup", "bon coup", "imprécision", "erreur", "gaffe", "coup forcé"}
    assert (
        ann.locator("svg[data-testid=analysis-chart]")
        .get_attribute("aria-label")
        .startswith("Chance de gagner")
    )
    assert_no_english(ann, "fr", "analysis-done")
    screenshot(ann, "analysis-fr")
    assert rest(fast_server, f"/api/games/{gid}/analysis")["status"] == "done"
