"""The result in view (issue 33): when a rated game ends while a player is scrolled down
the page (a phone, 390×844), the result is brought into view, its heading focused, and it
shows each player's rating change (old → new and the difference) once the server applied
the ratings."""

from __future__ import annotations

import secrets

from playwright.sync_api import expect

from .conftest import screenshot
from .ui import sign_up

PHONE = {"width": 390, "height": 844}

IN_VIEW = """() => {
  const r = document.querySelector('[data-testid=result]');
  if (!r) return false;
  const b = r.getBoundingClientRect();
  return b.top >= -1 && b.top < innerHeight / 2;
}"""


def test_a_rated_game_ends_the_result_comes_into_view_with_the_rating_changes(new_page):
    suffix = secrets.token_hex(3)
    ann, bob = new_page(), new_page()
    for page, name in ((ann, "Ann"), (bob, "Bob")):
        page.goto("/")
        sign_up(page, f"{name} {suffix}")
    # away from the lobby, which takes a player to their table's game when it starts (it
    # would race the goto below: net::ERR_ABORTED)
    ann.goto("/leaderboard")
    table = ann.request.post("/api/tables", data={"game": "duel", "rated": True})
    assert table.status == 201, table.text()
    assert table.json()["rated"] is True
    joined = bob.request.post(f"/api/tables/{table.json()['id']}/join")
    assert joined.ok, joined.text()
    game_id = joined.json()["game_id"]

    ann.set_viewport_size(PHONE)
    ann.goto(f"/games/{game_id}")
    root = ann.locator("[data-testid=game-root]")
    expect(root).to_have_attribute("data-status", "active")
    expect(ann.locator("[data-testid=connection]")).to_have_attribute("data-state", "open")
    ann.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert ann.evaluate("scrollY") > 300
    assert not ann.evaluate(IN_VIEW)

    assert bob.request.post(f"/api/games/{game_id}/resign").ok
    expect(root).to_have_attribute("data-status", "finished")
    ann.wait_for_function(IN_VIEW)
    expect(ann.locator("[data-testid=result-title]")).to_be_focused()

    # the ratings, applied after the game, reach the page: old → new (difference)
    mine, theirs = (
        ann.locator("[data-testid=rating-change-0]"),
        ann.locator("[data-testid=rating-change-1]"),
    )
    expect(mine).to_be_visible()
    expect(theirs).to_be_visible()
    assert int(mine.get_attribute("data-delta")) > 0
    assert int(theirs.get_attribute("data-delta")) < 0
    expect(mine).to_contain_text("→")
    expect(mine).to_contain_text("+")
    screenshot(ann, "result-rating-390")
    # the same on a page opened afterwards
    bob.goto(f"/games/{game_id}")
    expect(bob.locator("[data-testid=rating-change-1]")).to_contain_text("→")
