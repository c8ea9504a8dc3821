"""The players in the browser: the identity bar on every page (guest, account, log-out,
log-in, the server's refusals next to the form) and the player page (name, ratings, games,
empty texts, unknown players), with hostile names shown as text only."""

from __future__ import annotations

import json
import re
import secrets

from playwright.sync_api import expect

from .conftest import screenshot
from .ui import create_in_lobby, wait_ready

HOSTILE = "<img src=x onerror=alert(1)>"


def _unique(prefix: str) -> str:
    """A name no other test of this server's session uses (account names are unique)."""
    return f"{prefix} {secrets.token_hex(3)}"


def _bar(page):
    return page.locator("[data-testid=identity]")


def _play_as_guest(page, name: str) -> str:
    """Play as a guest called ``name`` from the page shown (keyboard submit); its id."""
    bar = _bar(page)
    expect(bar).to_have_attribute("data-state", "anonymous")
    page.fill("[data-testid=guest-name]", name)
    page.press("[data-testid=guest-name]", "Enter")
    expect(bar).to_have_attribute("data-state", "guest")
    expect(page.locator("[data-testid=identity-name]")).to_have_text(name)
    return bar.get_attribute("data-player-id") or ""


def test_guest_makes_an_account_logs_out_and_logs_in(new_page):
    page = new_page()
    name = _unique("Ann")
    page.goto("/")
    bar = _bar(page)
    player_id = _play_as_guest(page, name)
    assert player_id
    expect(page.locator("[data-testid=identity-guest]")).to_have_text("guest")
    expect(page.locator("[data-testid=identity-name]")).to_have_attribute(
        "href", f"/players/{player_id}"
    )
    # the session is a cookie: a reload still knows the guest
    page.reload()
    expect(bar).to_have_attribute("data-state", "guest")
    assert bar.get_attribute("data-player-id") == player_id
    screenshot(page, "identity-guest")

    # make an account: the name is prefilled; the guest keeps its id
    page.click("[data-testid=show-signup]")
    expect(page.locator("[data-testid=signup-name]")).to_have_value(name)
    expect(page.locator("[data-testid=signup-password]")).to_be_focused()
    page.keyboard.type("correct horse")
    page.keyboard.press("Enter")
    expect(bar).to_have_attribute("data-state", "account")
    assert bar.get_attribute("data-player-id") == player_id
    expect(page.locator("[data-testid=identity-name]")).to_have_text(name)
    expect(page.locator("[data-testid=identity-guest]")).to_have_count(0)
    expect(page.locator("[data-testid=show-signup]")).to_have_count(0)

    # another browser cannot take the name: the server's reason shows next to the form
    other = new_page()
    other.goto("/")
    expect(_bar(other)).to_have_attribute("data-state", "anonymous")
    other.click("[data-testid=show-signup]")
    other.fill("[data-testid=signup-name]", name.upper())
    other.fill("[data-testid=signup-password]", "another password")
    other.click("[data-testid=signup-submit]")
    expect(other.locator("[data-testid=identity-error]")).to_contain_text("taken")
    expect(_bar(other)).to_have_attribute("data-state", "anonymous")

    # log out, and the reload agrees
    page.click("[data-testid=logout]")
    expect(bar).to_have_attribute("data-state", "anonymous")
    expect(page.locator("[data-testid=identity-name]")).to_have_count(0)
    page.reload()
    expect(bar).to_have_attribute("data-state", "anonymous")

    # a wrong password is refused without saying which of the two was wrong
    page.click("[data-testid=show-login]")
    page.fill("[data-testid=login-name]", name)
    page.fill("[data-testid=login-password]", "not the password")
    page.press("[data-testid=login-password]", "Enter")
    error = page.locator("[data-testid=identity-error]")
    expect(error).to_have_text("wrong name or password")
    expect(bar).to_have_attribute("data-state", "anonymous")
    expect(page.locator("[data-testid=login-password]")).to_have_value("")
    expect(page.locator("[data-testid=login-name]")).to_have_value(name)
    screenshot(page, "identity-wrong-password")

    # the right one logs in to the same player
    page.fill("[data-testid=login-password]", "correct horse")
    page.click("[data-testid=login-submit]")
    expect(bar).to_have_attribute("data-state", "account")
    assert bar.get_attribute("data-player-id") == player_id
    expect(page.locator("[data-testid=identity-name]")).to_have_text(name)
    expect(page.locator("[data-testid=identity-guest]")).to_have_count(0)
    expect(page.locator("[data-testid=identity-error]")).to_have_text("")
    screenshot(page, "identity-account")

    # the name leads to the player page
    page.click("[data-testid=identity-name]")
    expect(page).to_have_url(re.compile(re.escape(f"/players/{player_id}") + "$"))
    expect(page.locator("[data-testid=player-name]")).to_have_text(name)
    expect(page.locator("[data-testid=player-kind]")).to_have_text("account")
    expect(page.locator("[data-testid=player-you]")).to_be_visible()


def test_player_page_of_a_new_guest_and_a_hostile_name(new_page):
    page = new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto("/")
    player_id = _play_as_guest(page, HOSTILE)
    assert page.inner_text("[data-testid=identity-name]") == HOSTILE

    page.click("[data-testid=identity-name]")
    root = page.locator("[data-testid=player-root]")
    expect(root).to_have_attribute("data-state", "ready")
    assert root.get_attribute("data-player-id") == player_id
    expect(page.locator("[data-testid=player-name]")).to_have_text(HOSTILE)
    expect(page.locator("[data-testid=player-kind]")).to_have_text("guest")
    expect(page.locator("[data-testid=player-you]")).to_be_visible()
    expect(page.locator("[data-testid=ratings-empty]")).to_have_text("No rated games yet.")
    expect(page.locator("[data-testid=open-games-empty]")).to_be_visible()
    expect(page.locator("[data-testid=finished-games-empty]")).to_be_visible()
    assert page.title() == f"{HOSTILE} · Splendor"
    # the name stayed text: no element was made from it, nothing ran
    assert page.locator("img").count() == 0
    assert page.evaluate("document.querySelectorAll('img, [onerror]').length") == 0
    assert not dialogs
    screenshot(page, "player-page-new-guest")

    # another browser (logged out) sees the page too, without "(you)"
    other = new_page()
    other.goto(f"/players/{player_id}")
    expect(other.locator("[data-testid=player-name]")).to_have_text(HOSTILE)
    expect(_bar(other)).to_have_attribute("data-state", "anonymous")
    expect(other.locator("[data-testid=player-you]")).to_have_count(0)


def test_unknown_player(page):
    page.goto("/players/nosuchplayer")
    expect(page.locator("[data-testid=fatal]")).to_contain_text("no such player")
    expect(_bar(page)).to_have_attribute("data-state", "anonymous")


def test_player_page_lists_ratings_and_games(page):
    """The page's drawing of a full answer (ratings of every kind, open and finished
    games), answered by the test in place of the server."""
    answer = {
        "player": {
            "id": "p1",
            "name": HOSTILE,
            "account": True,
            "created_at": "2024-05-01T10:00:00+00:00",
        },
        "ratings": {
            "splendor-2": {
                "rating": {"system": "glicko2", "value": 1612.4, "deviation": 80.6, "games": 12},
                "games": 12,
                "updated_at": "2024-05-02T10:00:00+00:00",
            },
            "splendor-multi": {
                "rating": {"system": "openskill-pl", "value": 1433.5, "deviation": 301.2},
                "games": 1,
                "updated_at": "2024-05-02T10:00:00+00:00",
            },
            "duel": {
                "rating": {"system": "glicko2", "value": 1500, "deviation": 350, "games": 3},
                "games": 3,
                "updated_at": "2024-05-02T10:00:00+00:00",
            },
        },
        "open_games": [
            {"id": "g-open", "game": "duel", "num_players": 2, "seat": 1, "url": "/games/g-open"}
        ],
        "finished_games": [
            {
                "id": "g-won",
                "game": "splendor",
                "num_players": 3,
                "seat": 0,
                "url": "/games/g-won",
                "replay": "/games/g-won/replay",
                "outcome": "won",
                "scores": [15, 9, 11],
            },
            {
                "id": "g-lost",
                "game": "duel",
                "num_players": 2,
                "seat": 1,
                "url": "/games/g-lost",
                "replay": "/games/g-lost/replay",
                "outcome": "lost",
                "scores": [20, 7],
            },
        ],
    }
    page.route(
        "**/api/players/p1",
        lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(answer)
        ),
    )
    page.goto("/players/p1")
    expect(page.locator("[data-testid=player-name]")).to_have_text(HOSTILE)
    expect(page.locator("[data-testid=player-kind]")).to_have_text("account")
    rows = page.locator("[data-testid=player-ratings] tbody tr")
    expect(rows).to_have_count(3)
    assert [r.split("\t") for r in rows.all_inner_texts()] == [
        ["Splendor, 2 players", "1612", "± 81", "12 games"],
        ["Splendor, 3–4 players", "1434", "± 301", "1 game"],
        ["Splendor Duel", "1500", "± 350", "3 games"],
    ]
    open_row = page.locator("[data-testid=player-open-games] [data-testid=player-game-g-open]")
    expect(open_row).to_contain_text("Splendor Duel")
    assert open_row.locator("a").get_attribute("href") == "/games/g-open"
    won = page.locator("[data-testid=player-game-g-won]")
    expect(won.locator("[data-testid=outcome]")).to_have_text("won")
    expect(won.locator("[data-testid=scores]")).to_contain_text("15 – 9 – 11")
    assert won.locator("[data-testid=replay-link]").get_attribute("href") == "/games/g-won/replay"
    expect(won).to_contain_text("Splendor, 3 players")
    lost = page.locator("[data-testid=player-game-g-lost]")
    expect(lost.locator("[data-testid=outcome]")).to_have_text("lost")
    expect(lost.locator("[data-testid=scores] strong")).to_have_text("7")
    assert page.locator("img").count() == 0
    screenshot(page, "player-page-full")


def test_identity_bar_on_the_game_page(new_page):
    page = new_page()
    name = _unique("Bea")
    page.goto("/")
    _play_as_guest(page, name)
    made = create_in_lobby(
        page, "splendor", [{"type": "human", "name": "Bea"}, {"type": "bot", "bot": "random"}]
    )
    expect(page.locator("[data-testid=identity-name]")).to_have_text(name)
    page.click("[data-testid=open-seat-0]")
    data = wait_ready(page)
    assert data["seat"] == "0"
    expect(_bar(page)).to_have_attribute("data-state", "guest")
    expect(page.locator("[data-testid=identity-name]")).to_have_text(name)
    assert made["game_id"] in page.url
    screenshot(page, "identity-game-page")
