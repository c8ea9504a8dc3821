"""Moderation in the browser (issue 32): a report leading to a ban that locks the player
out. Bea reports Cal from Cal's player page; Mod, made an admin with ``splendor admin
grant`` against the server's database, opens /moderation, sees the report and bans Cal;
Cal's browser is logged out at its next page and Cal cannot log in again."""

from __future__ import annotations

import re
import secrets
from typing import Any

from playwright.sync_api import expect
from typer.testing import CliRunner

from splendor.cli import app as cli_app

PASSWORD = "correct horse battery"


def sign_up(page: Any, name: str) -> str:
    """Make an account called ``name`` through the identity bar; its player id."""
    page.goto("/")
    bar = page.locator("[data-testid=identity]")
    expect(bar).to_have_attribute("data-state", "anonymous")
    page.click("[data-testid=show-signup]")
    page.fill("[data-testid=signup-name]", name)
    page.fill("[data-testid=signup-password]", PASSWORD)
    page.click("[data-testid=signup-submit]")
    expect(bar).to_have_attribute("data-state", "account")
    return bar.get_attribute("data-player-id") or ""


def admin(url: str, *args: str) -> str:
    """``splendor admin ARGS --database-url URL``; its output (it must succeed)."""
    result = CliRunner().invoke(cli_app, ["admin", *args, "--database-url", url])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_report_leads_to_a_ban_that_locks_the_player_out(
    new_page: Any, server_database_url: str
) -> None:
    suffix = secrets.token_hex(3)
    mod_name, bea_name, cal_name = f"Mod{suffix}", f"Bea{suffix}", f"Cal{suffix}"
    mod, bea, cal = new_page(), new_page(), new_page()
    sign_up(mod, mod_name)
    sign_up(bea, bea_name)
    cal_id = sign_up(cal, cal_name)
    assert mod_name in admin(server_database_url, "grant", mod_name)
    try:
        # Bea reports Cal from Cal's page
        bea.goto(f"/players/{cal_id}")
        bea.click("[data-testid=report-player]")
        dialog = bea.locator("[data-testid=report-dialog]")
        expect(dialog).to_be_visible()
        dialog.locator("[data-testid=report-reason]").select_option("name")
        dialog.locator("[data-testid=report-text]").fill("an offensive name, and rude in chat")
        dialog.locator("[data-testid=report-send]").click()
        expect(dialog.locator("[data-testid=report-done]")).to_be_visible()
        dialog.locator("[data-testid=report-close]").click()
        expect(dialog).to_have_count(0)
        # from a name in a game's chat: the same player, so one open report is enough
        table = bea.request.post("/api/tables", data={"game": "duel", "rated": False}).json()
        game_id = cal.request.post(f"/api/tables/{table['id']}/join").json()["game_id"]
        said = cal.request.post(f"/api/games/{game_id}/chat", data={"text": "you all stink"})
        assert said.status == 201, said.text()
        bea.goto(f"/games/{game_id}")
        bea.locator("[data-testid=chat-report]").filter(has_text=cal_name).click()
        expect(bea.locator("[data-testid=report-dialog]")).to_contain_text(cal_name)
        bea.locator("[data-testid=report-send]").click()
        expect(bea.locator("[data-testid=report-error]")).to_contain_text(
            f"you reported {cal_name} already"
        )
        bea.locator("[data-testid=report-cancel]").click()
        # a player who is no moderator is refused the page
        bea.goto("/moderation")
        expect(bea.locator("[data-testid=moderation-forbidden]")).to_be_visible()
        expect(bea.locator("[data-testid=moderation-link]")).to_have_count(0)
        # the moderator sees the report and bans Cal
        mod.reload()
        mod.click("[data-testid=moderation-link]")
        expect(mod).to_have_url(re.compile(r"/moderation$"))
        item = mod.locator(f"[data-testid^=report-][data-reported='{cal_id}']")
        expect(item).to_have_count(1)
        expect(item).to_contain_text(bea_name)
        expect(item.locator("[data-testid=report-text]")).to_have_text(
            "an offensive name, and rude in chat"
        )
        item.locator("[data-testid=ban-reason]").fill("offensive name")
        item.locator("[data-testid=act-ban]").click()
        expect(mod.locator(f"[data-testid^=report-][data-reported='{cal_id}']")).to_have_count(0)
        expect(mod.locator("[data-testid=audit-entry][data-action=ban]").first).to_contain_text(
            cal_name
        )
        mod.click("[data-testid=moderation-show-all]")
        closed = mod.locator(f"[data-testid^=report-][data-reported='{cal_id}']")
        expect(closed).to_have_attribute("data-status", "closed")
        expect(closed.locator("[data-testid=badge-banned]")).to_be_visible()
        # Cal's browser: its session is dead, and the log-in is refused
        cal.reload()
        bar = cal.locator("[data-testid=identity]")
        expect(bar).to_have_attribute("data-state", "anonymous")
        cal.click("[data-testid=show-login]")
        cal.fill("[data-testid=login-name]", cal_name)
        cal.fill("[data-testid=login-password]", PASSWORD)
        cal.click("[data-testid=login-submit]")
        expect(cal.locator("[data-testid=identity-error]")).to_contain_text("banned")
        expect(bar).to_have_attribute("data-state", "anonymous")
    finally:
        # the server is shared by the session's tests, and its clients all come from
        # 127.0.0.1: lift the ban (and its address) and the role
        CliRunner().invoke(
            cli_app, ["admin", "unban", cal_name, "--database-url", server_database_url]
        )
        admin(server_database_url, "revoke", mod_name)
