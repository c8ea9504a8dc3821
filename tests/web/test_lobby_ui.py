"""The public lobby in the browser: a table opened by one guest appears live for another,
who joins it, and both pages go to the game by themselves, each on its own seat; Play now
pairs two players; an invitation table is unlisted and its link joins; nobody logged in
sees the tables and a hint to play as a guest first.

Two browsers (contexts), each its own guest, serve the module's tests (two guest sign-ins
in all, and one for the hint's test).
"""

from __future__ import annotations

import re
import secrets

import pytest
from playwright.sync_api import expect

from .conftest import open_page, screenshot
from .ui import in_same_game, open_table, play_as_guest, sign_up

HOSTILE = "<img src=x onerror=alert(1)> Bob"


@pytest.fixture(scope="module")
def guests(browser, server):
    """Ann's and Bob's pages (two browser contexts, an account each: rated games are for
    accounts), and the JavaScript errors seen in them."""
    contexts, pages, errors = [], [], []
    suffix = secrets.token_hex(2)
    for name in ("Ann", HOSTILE):
        page = open_page(browser, server, errors, contexts)
        page.goto("/")
        sign_up(page, f"{name} {suffix}")
        pages.append(page)
    yield pages, errors
    for ctx in contexts:
        ctx.close()


@pytest.fixture
def pair(guests):
    """Ann's and Bob's pages on the lobby, its socket live; no JavaScript error after."""
    pages, errors = guests
    for page in pages:
        page.goto("/")
        expect(page.locator("[data-testid=lobby-connection]")).to_have_attribute(
            "data-state", "open"
        )
    yield pages
    assert not errors, f"JavaScript errors in the pages: {errors}"
    errors.clear()


def _row(page, table_id: str):
    return page.locator(f"[data-testid=table-row][data-table-id='{table_id}']")


def _updates(page) -> int:
    return int(page.get_attribute("[data-testid=lobby-tables]", "data-updates") or 0)


def test_a_table_appears_live_and_its_game_starts_for_both(pair):
    ann, bob = pair
    before = _updates(bob)
    table = open_table(ann, game="duel", clock="5+15", visibility="open")
    tid = table["id"]
    assert table["rated"] is True and table["clock"] == {
        "kind": "realtime",
        "base": 300,
        "increment": 15,
    }
    # Bob sees it without reloading: Ann's name, a free seat, the clock, rated
    row = _row(bob, tid)
    expect(row).to_be_visible()
    assert _updates(bob) > before
    expect(row.locator("[data-testid=table-seat][data-kind=player]")).to_contain_text("Ann")
    expect(row.locator("[data-testid=table-seat][data-kind=free]")).to_have_count(1)
    expect(row.locator("[data-testid=table-clock]")).to_have_text("5 min + 15 s")
    expect(row.locator("[data-testid=table-rated]")).to_have_text("rated")
    expect(row).to_contain_text("Splendor Duel")
    # Ann sits there: Leave, not Join
    mine = _row(ann, tid)
    expect(mine).to_have_attribute("data-mine", "true")
    expect(mine.locator("[data-testid=leave]")).to_be_visible()
    expect(mine.locator("[data-testid=join]")).to_have_count(0)
    screenshot(bob, "lobby-table-listed")

    bob.click(f"[data-testid=table-row][data-table-id='{tid}'] [data-testid=join]")
    gid = in_same_game([ann, bob])
    # the game is the table's, and Bob's hostile name stayed text
    started = bob.evaluate("(id) => fetch('/api/tables/' + id).then((r) => r.json())", tid)
    assert started["status"] == "started" and started["game_id"] == gid
    assert ann.evaluate("document.querySelectorAll('img, [onerror]').length") == 0
    screenshot(ann, "lobby-table-game-ann")


def test_play_now_pairs_two_players(pair):
    ann, bob = pair
    for page in (ann, bob):
        page.select_option("[data-testid=play-now-game]", "duel")
        page.select_option("[data-testid=play-now-clock]", "15+30")
        expect(page.locator("[data-testid=play-now-players]")).to_be_disabled()
    with ann.expect_response(lambda r: r.url.endswith("/api/play-now")) as resp:
        ann.click("[data-testid=play-now-submit]")
    table = resp.value.json()
    assert table["status"] == "open", table  # nobody waited: Ann's own table
    expect(ann.locator("[data-testid=play-now-status]")).to_contain_text("Waiting")
    row = _row(bob, table["id"])
    expect(row.locator("[data-testid=table-clock]")).to_have_text("15 min + 30 s")
    screenshot(ann, "lobby-play-now-waiting")
    bob.click("[data-testid=play-now-submit]")  # paired at Ann's table: to the game at once
    gid = in_same_game([ann, bob])
    paired = bob.evaluate("(id) => fetch('/api/tables/' + id).then((r) => r.json())", table["id"])
    assert paired["status"] == "started" and paired["game_id"] == gid


def test_an_invitation_table_is_unlisted_and_its_link_joins(pair):
    ann, bob = pair
    before = _updates(bob)
    table = open_table(ann, game="duel", clock="1d", visibility="invite")
    tid, code = table["id"], table["invite_code"]
    box = ann.locator("[data-testid=open-table-created] [data-testid=invite-link]")
    link = box.input_value()
    assert link.endswith(f"/tables/{tid}#code={code}")
    ann.click("[data-testid=open-table-created] [data-testid=invite-copy]")
    expect(ann.locator("[data-testid=open-table-created] [data-testid=invite-copy]")).to_have_text(
        "copied"
    )
    # Ann's list shows her invitation table (with its link); Bob's does not
    mine = _row(ann, tid)
    expect(mine).to_have_attribute("data-visibility", "invite")
    expect(mine.locator("[data-testid=invite-link]")).to_have_value(link)
    bob.wait_for_function(
        "(n) => Number(document.querySelector('[data-testid=lobby-tables]').dataset.updates) > n",
        arg=before,
    )
    expect(_row(bob, tid)).to_have_count(0)
    screenshot(ann, "lobby-invitation-table")

    # the table's page without the code: shown, but joining is refused
    bob.goto(f"/tables/{tid}")
    expect(bob.locator("[data-testid=table-title]")).to_have_text("Splendor Duel")
    expect(bob.locator("[data-testid=table-visibility]")).to_have_text("by invitation")
    expect(bob.locator("[data-testid=table-clock]")).to_have_text("1 day a move")
    bob.click("[data-testid=join]")
    expect(bob.locator("[data-testid=table-error]")).to_contain_text("invitation")
    # the link (its code in the fragment) joins; both go to the game
    bob.goto(link)
    expect(bob.locator("[data-testid=table-page]")).to_have_attribute("data-status", "open")
    screenshot(bob, "table-page-invitation")
    bob.click("[data-testid=join]")
    in_same_game([ann, bob])
    # the table's page now points to the game
    bob.goto(f"/tables/{tid}")
    expect(bob.locator("[data-testid=table-page]")).to_have_attribute("data-status", "started")
    expect(bob.locator("[data-testid=game-link]")).to_have_text("play your seat")


def test_nobody_logged_in_sees_the_tables_and_a_hint(new_page):
    page = new_page()
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.goto("/")
    expect(page.locator("[data-testid=identity]")).to_have_attribute("data-state", "anonymous")
    hint = page.locator("[data-testid=lobby-login-hint]")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("guest")
    expect(page.locator("[data-testid=lobby-connection]")).to_have_attribute("data-state", "open")
    # the tables show (other tests' tables, or the empty text)
    page.wait_for_selector("[data-testid=table-row], [data-testid=tables-empty]")
    # Play now and Open ask for a player first: nothing is sent, the bar's name is focused
    page.click("[data-testid=play-now-submit]")
    expect(hint).to_have_class(re.compile(r"\bflash\b"))
    expect(page.locator("[data-testid=guest-name]")).to_be_focused()
    page.click("[data-testid=open-table-submit]")
    assert not posts
    # a bot seat makes the table unrated: the box is off and disabled, and back after
    rated = page.locator("[data-testid=open-table-rated]")
    expect(rated).to_be_checked()
    page.select_option("[data-testid=open-table-seat-1]", "random")
    expect(rated).to_be_disabled()
    expect(rated).not_to_be_checked()
    page.select_option("[data-testid=open-table-seat-1]", "free")
    expect(rated).to_be_enabled()
    expect(rated).to_be_checked()
    screenshot(page, "lobby-anonymous")
    # playing as a guest: the hint goes
    play_as_guest(page, "Cleo")
    expect(hint).to_have_count(0)
