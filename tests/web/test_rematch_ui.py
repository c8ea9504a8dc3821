"""The rematch, in the browser: two guests meet at a Splendor Duel table, Bob resigns, Ann
offers a rematch from the result panel (a refusal shows inline first; after a reload she
still waits and Bob is still offered to accept), Bob's page turns its button into "Accept
rematch" live, he accepts, and both pages go to the same new game, each player at their
former seat; a visitor who watches is offered nothing.

Two browser contexts, each its own guest (two guest sign-ins), and one more that watches
without logging in.
"""

from __future__ import annotations

import json

from playwright.sync_api import expect

from .conftest import screenshot
from .ui import GAME_URL, in_same_game, open_table, play_as_guest


def _game_id(page) -> str:
    match = GAME_URL.search(page.url)
    assert match, page.url
    return match.group(1)


def test_a_rematch_brings_both_players_to_a_new_game_at_their_seats(new_page):
    ann, bob, watcher = new_page(), new_page(), new_page()
    for page, name in ((ann, "Ann"), (bob, "Bob")):
        page.goto("/")
        play_as_guest(page, name)
    expect(ann.locator("[data-testid=lobby-connection]")).to_have_attribute("data-state", "open")
    table = open_table(ann, game="duel", visibility="open")
    bob.goto(f"/tables/{table['id']}")
    bob.click("[data-testid=join]")
    in_same_game([ann, bob])
    old = _game_id(ann)
    assert _game_id(bob) == old
    # no rematch while the game goes on
    expect(ann.locator("[data-testid=rematch]")).to_have_count(0)

    # Bob resigns: both see the result, with a Rematch button
    bob.click("[data-testid=resign]")
    bob.click("[data-testid=resign-confirm]")
    for page in (ann, bob):
        root = page.locator("[data-testid=game-root]")
        expect(root).to_have_attribute("data-status", "finished")
        expect(root).to_have_attribute("data-rematch", "none")
        button = page.locator("[data-testid=result] [data-testid=rematch]")
        expect(button).to_have_text("Rematch")
        expect(page.locator("[data-testid=rematch-status]")).to_have_count(0)
    # a visitor who is not logged in watches the finished game: no rematch for them
    watcher.goto(f"/games/{old}")
    expect(watcher.locator("[data-testid=game-root]")).to_have_attribute("data-status", "finished")
    expect(watcher.locator("[data-testid=result]")).to_be_visible()
    expect(watcher.locator("[data-testid=rematch]")).to_have_count(0)

    # a refusal shows next to the button (the server's answer, faked once here)
    def refuse(route):
        route.fulfill(
            status=409,
            content_type="application/json",
            body=json.dumps({"detail": "the game is not over"}),
        )

    ann.route(f"**/api/games/{old}/rematch", refuse)
    ann.click("[data-testid=rematch]")
    expect(ann.locator("[data-testid=rematch-error]")).to_contain_text("the game is not over")
    expect(ann.locator("[data-testid=rematch]")).to_have_text("Rematch")
    ann.unroute(f"**/api/games/{old}/rematch")

    # Ann offers: she waits for Bob; Bob's page is told and offers to accept
    with ann.expect_response(lambda r: r.url.endswith(f"/api/games/{old}/rematch")) as offer:
        ann.click("[data-testid=rematch]")
    assert offer.value.status == 200, offer.value.text()
    table = offer.value.json()
    assert table["status"] == "open" and table["rematch_of"] == old
    expect(ann.locator("[data-testid=rematch-error]")).to_have_count(0)
    expect(ann.locator("[data-testid=rematch-status]")).to_contain_text("waiting for Bob")
    expect(ann.locator("[data-testid=rematch]")).to_have_count(0)
    expect(ann.locator("[data-testid=game-root]")).to_have_attribute("data-rematch", "waiting")
    expect(bob.locator("[data-testid=game-root]")).to_have_attribute("data-rematch", "offered")
    expect(bob.locator("[data-testid=rematch]")).to_have_text("Accept rematch")
    expect(bob.locator("[data-testid=rematch-status]")).to_contain_text("Ann offers a rematch")
    expect(watcher.locator("[data-testid=rematch]")).to_have_count(0)
    screenshot(bob, "rematch-offered")
    # a reload reads the game's rematch (GET …/rematch): Ann still waits, Bob is still
    # offered to accept
    ann.reload()
    expect(ann.locator("[data-testid=rematch-status]")).to_contain_text("waiting for Bob")
    expect(ann.locator("[data-testid=rematch]")).to_have_count(0)
    expect(ann.locator("[data-testid=connection]")).to_have_attribute("data-state", "open")
    bob.reload()
    expect(bob.locator("[data-testid=game-root]")).to_have_attribute("data-rematch", "offered")
    expect(bob.locator("[data-testid=rematch]")).to_have_text("Accept rematch")
    expect(bob.locator("[data-testid=connection]")).to_have_attribute("data-state", "open")

    # Bob accepts: both pages go to the new game, each at their former seat
    bob.click("[data-testid=rematch]")
    new_ids = set()
    for seat, page in enumerate((ann, bob)):
        page.wait_for_url(lambda url: GAME_URL.search(url) is not None and old not in url)
        new_ids.add(_game_id(page))
        root = page.locator("[data-testid=game-root]")
        expect(root).to_have_attribute("data-seat", str(seat))
        expect(root).to_have_attribute("data-status", "active")
        expect(root).to_have_attribute("data-game", "duel")
    assert len(new_ids) == 1 and old not in new_ids, new_ids
    expect(ann.locator("[data-testid=game-root]")).to_have_attribute("data-your-turn", "true")
    screenshot(ann, "rematch-started")
