"""Accounts in the browser (issue 32): a password reset end to end through real mail (sign
up, set an address, verify it by the mailed link, log out, "Forgot your password?",
follow the mailed link, choose a new password, log in with it), and the "guest" and
"bot" labels next to names (lobby seats, the game's scores)."""

from __future__ import annotations

import re
import secrets

from playwright.sync_api import expect

from .conftest import screenshot
from .ui import open_table, play_as_guest, wait_ready

LINK = re.compile(r"https?://\S+?/(?:verify-email|reset)\?token=[A-Za-z0-9_-]+")


def _link(message) -> str:
    found = LINK.search(message.get_content())
    assert found is not None, message.get_content()
    return found.group(0)


def test_a_password_reset_end_to_end(new_page, inbox) -> None:
    page = new_page()
    name = f"Reset {secrets.token_hex(3)}"
    address = f"reset-{secrets.token_hex(4)}@example.org"
    bar = page.locator("[data-testid=identity]")
    page.goto("/")
    expect(bar).to_have_attribute("data-state", "anonymous")
    page.click("[data-testid=show-signup]")
    page.fill("[data-testid=signup-name]", name)
    page.fill("[data-testid=signup-password]", "first password")
    page.click("[data-testid=signup-submit]")
    expect(bar).to_have_attribute("data-state", "account")

    # the settings page: set the address; the link mailed to it verifies it
    page.click("[data-testid=settings-link]")
    expect(page.locator("[data-testid=settings]")).to_have_attribute("data-state", "ready")
    expect(page.locator("[data-testid=settings-notifications]")).to_be_attached()
    page.fill("[data-testid=email-input]", address)
    page.click("[data-testid=email-save]")
    state = page.locator("[data-testid=email-state]")
    expect(state).to_contain_text(address)
    expect(state).to_have_attribute("data-verified", "false")
    expect(page.locator("[data-testid=email-status]")).to_contain_text(address)
    (mail,) = inbox.wait_for(address)
    page.goto(_link(mail))
    expect(page.locator("[data-testid=verify-email]")).to_have_attribute("data-state", "verified")
    expect(page.locator("[data-testid=verify-result]")).to_contain_text(address)
    assert "token" not in page.url  # taken out of the address bar
    page.goto("/settings")
    expect(page.locator("[data-testid=email-state]")).to_have_attribute("data-verified", "true")

    # log out, forget the password: a link comes by mail
    page.click("[data-testid=logout]")
    expect(bar).to_have_attribute("data-state", "anonymous")
    page.click("[data-testid=show-login]")
    page.click("[data-testid=show-forgot]")
    page.fill("[data-testid=forgot-name]", name)
    page.click("[data-testid=forgot-submit]")
    expect(page.locator("[data-testid=identity-error]")).to_contain_text("on its way")
    reset_mail = inbox.wait_for(address, count=2)[1]
    assert "password" in reset_mail["Subject"]

    # the mailed link's page: a new password
    page.goto(_link(reset_mail))
    expect(page.locator("[data-testid=reset]")).to_have_attribute("data-state", "ready")
    page.fill("[data-testid=reset-password]", "second password")
    page.fill("[data-testid=reset-again]", "something else")
    page.click("[data-testid=reset-submit]")
    expect(page.locator("[data-testid=reset-status]")).to_have_text("the two passwords differ")
    page.fill("[data-testid=reset-again]", "second password")
    page.click("[data-testid=reset-submit]")
    expect(page.locator("[data-testid=reset-done]")).to_be_visible()
    screenshot(page, "password-reset-done")

    # the old password fails, the new one logs in
    page.fill("[data-testid=login-name]", name)
    page.fill("[data-testid=login-password]", "first password")
    page.click("[data-testid=login-submit]")
    expect(page.locator("[data-testid=identity-error]")).to_contain_text("wrong name or password")
    page.fill("[data-testid=login-password]", "second password")
    page.click("[data-testid=login-submit]")
    expect(bar).to_have_attribute("data-state", "account")
    expect(page.locator("[data-testid=identity-name]")).to_have_text(name)

    # the same link a second time: refused, clearly
    page.goto(_link(reset_mail))
    page.fill("[data-testid=reset-password]", "third password")
    page.fill("[data-testid=reset-again]", "third password")
    page.click("[data-testid=reset-submit]")
    expect(page.locator("[data-testid=reset-status]")).to_contain_text("used already")


def test_guests_and_bots_are_labelled_where_their_names_appear(new_page) -> None:
    host = new_page()
    host.goto("/")
    name = f"Gus {secrets.token_hex(2)}"
    play_as_guest(host, name)
    # a guest's tables are casual: the rated box is off and disabled
    rated = host.locator("[data-testid=open-table-rated]")
    expect(rated).to_be_disabled()
    expect(rated).not_to_be_checked()
    table = open_table(host)
    assert table["rated"] is False and table["seats"][0]["guest"] is True

    watcher = new_page()
    watcher.goto("/")
    row = watcher.locator("[data-testid=table-row]", has_text=name)
    expect(row.locator("[data-testid=table-rated]")).to_have_text("unrated")
    expect(row.locator("[data-testid=badge-guest]")).to_have_text("guest")

    # a game against a bot: the bot's seat says "bot", the guest's "guest"
    game = new_page()
    game.goto("/")
    play_as_guest(game, f"Gil {secrets.token_hex(2)}")
    game.select_option("[data-testid=open-table-game]", "duel")
    game.select_option("[data-testid=open-table-seat-1]", "random")
    game.click("[data-testid=open-table-submit]")  # a bot in the last seat: it starts at once
    game.wait_for_url(re.compile(r"/games/[^/]+$"))
    wait_ready(game)
    expect(game.locator("[data-testid=scoreline-1] [data-testid=badge-bot]")).to_have_text("bot")
    expect(game.locator("[data-testid=scoreline-0] [data-testid=badge-guest]")).to_have_text(
        "guest"
    )
