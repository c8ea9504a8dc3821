"""Phone-sized everything (issue 33): every page at 390×844 fits the screen's width
(``document.documentElement.scrollWidth`` at most 390) and every target is at least
40×40 px: buttons, links in bars and lists, selects, text fields, checkboxes (their
label, which toggles them, is the target), ``summary`` and ``role=button`` elements.

Exempt: an element kept off the page until it is focused (a skip link), a link inside a
sentence (a text node with letters beside it, as "… see the <a>rules</a> …"), which WCAG
2.5.8 exempts as inline, and the "how to play" pages' prose.

Pages: the lobby (as a guest and with an account), the leaderboard, the tournaments and a
tournament, my games, friends, settings, a player page, both tables (classic and Duel,
active), a finished game with its result and analysis (the analysis answer made up by the
test: the server's engine would take minutes), and its replay.
"""

from __future__ import annotations

import json
import secrets

import pytest
from playwright.sync_api import expect

from .conftest import screenshot
from .ui import rest, sign_up

PHONE = {"width": 390, "height": 844}

MEASURE = """() => {
  const sentence = (a) => [...a.parentNode.childNodes].some(
    (n) => n !== a && n.nodeType === Node.TEXT_NODE && /\\p{L}/u.test(n.textContent));
  const small = [];
  const sel = 'button, a[href], select, input, textarea, summary, [role=button]';
  for (const el of document.querySelectorAll(sel)) {
    if (el.closest('[hidden], .howto-body') || el.type === 'hidden') continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.display === 'none') continue;
    if (el.tagName === 'A' && sentence(el)) continue;
    const label = (el.type === 'checkbox' || el.type === 'radio') && el.closest('label');
    const r = (label || el).getBoundingClientRect();
    if (!r.width || !r.height) continue;
    // kept off the page until focused (a skip link): not a target in this picture
    if (r.bottom + scrollY <= 0 || r.right + scrollX <= 0) continue;
    if (r.width < 39.5 || r.height < 39.5) {
      const name = el.dataset.testid || el.getAttribute('aria-label')
        || el.textContent.trim().slice(0, 24) || el.className || el.tagName;
      const size = `${Math.round(r.width)}x${Math.round(r.height)}`;
      small.push(`${el.tagName.toLowerCase()} "${name}" ${size}`);
    }
  }
  return {width: document.documentElement.scrollWidth, small};
}"""


def analysis_of(gid: str, players: list[str]) -> dict:
    """A made-up finished analysis of a 12-decision Duel game (the server's format)."""
    labels = ["best", "good", "inaccuracy", "mistake", "blunder", "forced"]
    moves = [
        {
            "index": i,
            "turn": i // 2 + 1,
            "seat": i % 2,
            "played": "take a1 a2 a3",
            "best": "buy 1.1" if i % 3 else "take a1 a2 a3",
            "label": labels[i % 6],
            "after": 0.5 + (0.3 if i % 2 else -0.3) * (i / 12),
            "loss": 0.1 * (i % 3),
        }
        for i in range(12)
    ]
    summaries = [
        {"seat": s, "accuracy": 81.5, "counts": {"inaccuracy": 1, "mistake": 1, "blunder": 1}}
        for s in (0, 1)
    ]
    data = {
        "format": "splendor-analysis",
        "seats": [0, 1],
        "players": players,
        "moves": moves,
        "total": 12,
        "summaries": summaries,
        "turning_points": [3, 4],
    }
    return {"status": "done", "data": data, "error": ""}


@pytest.fixture(scope="module")
def site(browser, server) -> dict:
    """What the pages show: Ann's account, a tournament, an active game of each kind and
    a finished Duel game (Bob resigned after two decisions)."""
    ctx = browser.new_context(base_url=server)
    page = ctx.new_page()
    page.goto("/")
    ann = f"Ann {secrets.token_hex(3)}"
    player_id = sign_up(page, ann)
    cookies = ctx.storage_state()["cookies"]
    made = page.request.post(
        "/api/tournaments",
        data={
            "name": "Phone cup",
            "game": "duel",
            "num_players": 2,
            "format": "swiss",
            "max_players": 8,
        },
    )
    assert made.ok, made.text()
    tournament = made.json()["id"]
    games = {}
    for game in ("splendor", "duel"):
        seats = [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}]
        games[game] = rest(server, "/api/games", {"game": game, "seats": seats})["seats"][0][
            "invite"
        ]
    duel = rest(
        server,
        "/api/games",
        {"game": "duel", "seats": [{"type": "human", "name": n} for n in ("Ann", "Bob")]},
    )
    gid, tokens = duel["game_id"], [s["token"] for s in duel["seats"]]
    for _ in range(2):
        seat = rest(server, f"/api/games/{gid}")["current_player"]
        state = rest(server, f"/api/games/{gid}", token=tokens[seat])
        body = {"action": state["legal_actions"][0]["id"], "move": state["move"]}
        rest(server, f"/api/games/{gid}/actions", body, tokens[seat])
    rest(server, f"/api/games/{gid}/resign", {}, tokens[1])
    ctx.close()
    return {
        "cookies": cookies,
        "player_id": player_id,
        "tournament": tournament,
        "games": games,
        "finished": gid,
        "ann_token": tokens[0],
    }


def pages(site: dict) -> list[tuple[str, str, str, bool]]:
    """``(name, address, a selector shown once the page is drawn, logged in)``."""
    gid = site["finished"]
    return [
        ("lobby-anonymous", "/", "[data-testid=create-game]", False),
        ("lobby", "/", "[data-testid=open-table-submit]", True),
        ("leaderboard", "/leaderboard", ".leaderboard-panel", True),
        ("tournaments", "/tournaments", "form, .tournament-form, h1", True),
        ("tournament", f"/tournaments/{site['tournament']}", ".tournament-header", True),
        ("my-games", "/games", "main h1, #app h1", True),
        ("friends", "/friends", "#app h1", True),
        ("settings", "/settings", ".settings-section", True),
        ("player", f"/players/{site['player_id']}", "[data-testid=player-name]", True),
        ("table-classic", site["games"]["splendor"], "[data-testid=table]", False),
        ("table-duel", site["games"]["duel"], "[data-testid=table]", False),
        (
            "result-analysis",
            f"/games/{gid}#token={site['ann_token']}",
            "[data-testid=analysis-chart]",
            False,
        ),
        ("replay", f"/games/{gid}/replay", "[data-testid=replay-root] [data-testid=table]", False),
    ]


def test_every_page_fits_a_phone_with_targets_of_40_px(browser, server, site):
    problems = {}
    analysis = json.dumps(analysis_of(site["finished"], ["Ann", "Bob"]))
    for name, address, ready, logged_in in pages(site):
        ctx = browser.new_context(viewport=PHONE, base_url=server)
        if logged_in:
            ctx.add_cookies(site["cookies"])
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.route(
            "**/api/games/*/analysis",
            lambda route: route.fulfill(status=200, content_type="application/json", body=analysis),
        )
        page.goto(address)
        expect(page.locator(ready).first).to_be_visible()
        page.wait_for_timeout(300)  # late parts (feeds, the identity bar) drawn
        m = page.evaluate(MEASURE)
        found = []
        if m["width"] > PHONE["width"]:
            found.append(f"{m['width']} px wide")
        found += m["small"]
        found += [f"error: {e}" for e in errors]
        if found:
            problems[name] = found
            screenshot(page, f"phone-{name}")
        ctx.close()
    assert not problems, json.dumps(problems, indent=1)
