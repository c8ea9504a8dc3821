"""Friends and blocks in the browser (issue 32): a block made on a player page keeps Play
now from pairing the two players; the top bar's count of games waiting on you changes
live when it becomes your turn; following makes friends, listed on the friends page."""

from __future__ import annotations

import secrets
from typing import Any

from playwright.sync_api import expect

TURN = {"kind": "turn", "per_move": 86400}


def sign_up(page: Any, name: str) -> str:
    """Make an account ``name`` in the page's browser (its session cookie) and show the
    lobby; returns its player id."""
    r = page.request.post("/api/players/signup", data={"name": name, "password": "a good password"})
    assert r.status == 201, r.text()
    page.goto("/")
    expect(page.locator("[data-testid=identity]")).to_have_attribute("data-state", "account")
    player_id: str = r.json()["player"]["id"]
    return player_id


def unique(name: str) -> str:
    """A name no other test of the shared server holds."""
    return f"{name}{secrets.token_hex(3)}"


def test_a_block_prevents_pairing(new_page: Any) -> None:
    ann, bob = new_page(), new_page()
    sign_up(ann, unique("Ann"))
    b = sign_up(bob, unique("Bob"))
    # Ann blocks Bob from his player page (with a confirmation)
    ann.goto(f"/players/{b}")
    controls = ann.locator("[data-testid=social-controls]")
    expect(controls).to_have_attribute("data-blocked", "false")
    ann.click("[data-testid=block]")
    ann.click("[data-testid=block-yes]")
    expect(controls).to_have_attribute("data-blocked", "true")
    expect(ann.locator("[data-testid=block]")).to_have_text("Unblock")
    # both press Play now for the same game and clock (a rare clock: no other test's table)
    for page in (ann, bob):
        page.goto("/")
        page.select_option("[data-testid=play-now-game]", "duel")
        page.select_option("[data-testid=play-now-clock]", "15+30")
    tables = []
    for page in (ann, bob):
        with page.expect_response("**/api/play-now") as answer:
            page.click("[data-testid=play-now-submit]")
        table = answer.value.json()
        expect(page.locator("[data-testid=play-now-status]")).to_contain_text("Waiting")
        tables.append(table)
    assert tables[0]["id"] != tables[1]["id"], "a block must keep them apart"
    assert [t["status"] for t in tables] == ["open", "open"]
    # each waits alone at their own table; neither page went to a game
    for page, table in zip((ann, bob), tables, strict=True):
        row = page.locator(f"[data-testid=table-row][data-table-id='{table['id']}']")
        expect(row).to_have_attribute("data-mine", "true")
        assert "/games/" not in page.url
    # Bob cannot sit at Ann's table either: the lobby says why
    row = bob.locator(f"[data-testid=table-row][data-table-id='{tables[0]['id']}']")
    expect(row).to_be_visible()
    row.locator("[data-testid=join]").click()
    expect(bob.locator("[data-testid=lobby-error]")).to_contain_text("block")
    # leave the tables, so that no later test pairs with them
    for page, table in zip((ann, bob), tables, strict=True):
        assert page.request.post(f"/api/tables/{table['id']}/leave").status == 200


def test_the_top_bar_counts_the_games_waiting_on_you_live(new_page: Any) -> None:
    ann, bob = new_page(), new_page()
    sign_up(ann, unique("Ann"))
    sign_up(bob, unique("Bob"))
    ann_count = ann.locator("[data-testid=waiting-count]")
    bob_count = bob.locator("[data-testid=waiting-count]")
    expect(ann_count).to_have_attribute("data-count", "0")
    expect(bob_count).to_have_attribute("data-count", "0")
    opened = ann.request.post(
        "/api/tables", data={"game": "duel", "rated": False, "clock": TURN}
    ).json()
    game_id = bob.request.post(f"/api/tables/{opened['id']}/join").json()["game_id"]
    # the host (seat 0) is to move: Ann's count goes to 1 live, Bob's stays 0
    expect(ann_count).to_have_attribute("data-count", "1")
    expect(ann_count).to_be_visible()
    expect(bob_count).to_be_hidden()
    # "My games" shows it waiting on Ann, with the opponent and the time left
    ann.click("[data-testid=my-games-link]")
    item = ann.locator(f"[data-testid=my-game-{game_id}]")
    expect(item).to_have_attribute("data-waiting", "true")
    expect(item).to_contain_text("Bob")
    expect(item.locator("[data-testid=time-left]")).to_be_visible()
    # Ann plays her turn (every decision of it): now Bob's count is 1, live, and Ann's 0
    while True:
        state = ann.request.get(f"/api/games/{game_id}").json()
        if state["current_player"] != state["seat"]:
            break
        move = {"action": state["legal_actions"][0]["notation"], "move": state["move"]}
        assert ann.request.post(f"/api/games/{game_id}/actions", data=move).status == 200
    expect(bob_count).to_have_attribute("data-count", "1")
    expect(bob_count).to_be_visible()
    expect(ann_count).to_have_attribute("data-count", "0")
    expect(item).to_have_attribute("data-waiting", "false")  # the page reloaded its list
    bob.request.post(f"/api/games/{game_id}/resign")
    expect(bob_count).to_have_attribute("data-count", "0")


def test_friends_see_each_other_online_and_invite(new_page: Any) -> None:
    ann, bob = new_page(), new_page()
    a = sign_up(ann, unique("Ann"))
    b = sign_up(bob, unique("Bob"))
    ann.goto(f"/players/{b}")
    ann.click("[data-testid=follow]")
    expect(ann.locator("[data-testid=social-controls]")).to_have_attribute("data-following", "true")
    bob.goto("/friends")
    bob.locator(f"[data-testid=friend-{a}] [data-testid=follow-back]").click()
    friend = bob.locator(f"[data-testid=friends] [data-testid=friend-{a}]")
    expect(friend).to_be_visible()
    # Ann's page is open (her /ws/me): she is online
    expect(friend).to_have_attribute("data-online", "true")
    # Bob opens a table and invites Ann from its page: Ann gets a toast with its link
    opened = bob.request.post("/api/tables", data={"game": "duel", "rated": False}).json()
    bob.goto(f"/tables/{opened['id']}")
    bob.select_option("[data-testid=invite-friend-select]", a)
    bob.click("[data-testid=invite-friend-submit]")
    expect(bob.locator("[data-testid=invite-friend-status]")).to_contain_text("invited")
    toast = ann.locator("[data-testid=invite-toast]")
    expect(toast).to_be_visible()
    toast.locator("[data-testid=invite-toast-link]").click()
    expect(ann.locator("[data-testid=table-page]")).to_have_attribute("data-table-id", opened["id"])
    ann.click("[data-testid=join]")
    ann.wait_for_url("**/games/*")
