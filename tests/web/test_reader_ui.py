"""The screen-reader mode of the game page (issue 33), read through Playwright's
accessibility snapshot: switched on by its toggle (kept in localStorage), the table as text
under headings, a move typed in the command box played, the other player's move said in the
live region (``role=status``), a command that is no move refused aloud."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from .test_keyboard_ui import bob_plays, two_people
from .ui import page_state, wait_ready


def test_the_table_in_words_and_moves_typed(new_page: Any, server: str) -> None:
    gid, tokens = two_people(server, "splendor")
    page = new_page()
    page.goto(f"/games/{gid}#token={tokens[0]}")
    wait_ready(page)
    expect(page.locator("[data-testid=reader]")).to_have_count(0)
    # the switch comes first in the game page, seen once focused (like the skip link)
    page.locator("[data-testid=reader-toggle]").focus()
    expect(page.locator("[data-testid=reader-toggle]")).to_be_in_viewport()
    page.keyboard.press("Enter")
    reader = page.locator("[data-testid=reader]")
    expect(reader).to_be_visible()
    assert page.evaluate("localStorage.getItem('splendor.reader')") == "on"
    expect(page.locator("[data-testid=reader-toggle]")).to_have_attribute("aria-pressed", "true")
    tree = reader.aria_snapshot()
    for heading in (
        "The table in words",
        "Turn",
        "Supply",
        "Level 3 cards",
        "Level 1 cards",
        "Nobles",
        "Ann: 0 points",
        "Bob: 0 points",
    ):
        assert f'heading "{heading}"' in tree, tree
    assert "Your turn." in tree
    expect(page.locator("[data-testid=reader-supply]")).to_contain_text("4 white tokens")
    assert "status" in tree and 'textbox "Your move, in words or notation"' in tree
    # the graphic table is hidden; a reload keeps the mode
    expect(page.locator("[data-testid=table]")).to_be_hidden()
    page.reload()
    expect(page.locator("[data-testid=reader]")).to_be_visible()
    # a move typed as notation is played
    page.fill("[data-testid=reader-input]", "take W U G")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.__splendor.state.move >= 1")
    assert page_state(page)["observation"]["tokens"][0][:3] == [1, 1, 1]
    # Bob's move is said in the live region, as a sentence with his name
    bob_plays(server, gid, tokens[1])
    wait_ready(page, after_move=1)
    live = page.locator("[data-testid=reader-live]")
    expect(live).to_contain_text("Bob")
    assert "Bob" in reader.aria_snapshot()
    # a command that is no move: refused aloud, nothing played
    move = page_state(page)["move"]
    page.fill("[data-testid=reader-input]", "buy 9.9")
    page.keyboard.press("Enter")
    expect(live).not_to_contain_text("Bob")
    assert live.text_content().strip()
    assert page_state(page)["move"] == move
    # switched off again: the graphic table is back
    page.click("[data-testid=reader-toggle]")
    expect(page.locator("[data-testid=table]")).to_be_visible()
    expect(reader).to_have_count(0)


def test_the_settings_page_switches_the_mode(new_page: Any) -> None:
    page = new_page()
    page.goto("/settings")
    box = page.locator("[data-testid=settings-reader-mode]")
    expect(box).not_to_be_checked()
    box.focus()
    page.keyboard.press(" ")
    expect(box).to_be_checked()
    assert page.evaluate("localStorage.getItem('splendor.reader')") == "on"
    page.reload()
    expect(page.locator("[data-testid=settings-reader-mode]")).to_be_checked()
    page.locator("[data-testid=settings-reader-mode]").uncheck()
    assert page.evaluate("localStorage.getItem('splendor.reader')") is None


def test_moves_typed_and_said_in_french(new_page: Any, server: str) -> None:
    """A French reader types the move in French words ("prendre blanc bleu vert", read by
    ``POST /api/commands``) and hears the other player's move as a French sentence."""
    gid, tokens = two_people(server, "splendor")
    page = new_page()
    page.context.add_cookies([{"name": "lang", "value": "fr", "url": server}])
    page.add_init_script("localStorage.setItem('splendor.reader', 'on')")
    page.goto(f"/games/{gid}#token={tokens[0]}")
    wait_ready(page)
    reader = page.locator("[data-testid=reader]")
    expect(reader).to_be_visible()
    assert 'heading "Réserve"' in reader.aria_snapshot() or "Réserve" in reader.inner_text()
    page.fill("[data-testid=reader-input]", "prendre blanc bleu vert")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.__splendor.state.move >= 1")
    assert page_state(page)["observation"]["tokens"][0][:3] == [1, 1, 1]
    bob_plays(server, gid, tokens[1])
    wait_ready(page, after_move=1)
    live = page.locator("[data-testid=reader-live]")
    expect(live).to_contain_text("Bob prend")
    # words the server cannot read: refused aloud, in French, nothing played
    move = page_state(page)["move"]
    page.fill("[data-testid=reader-input]", "voler la banque")
    page.keyboard.press("Enter")
    expect(live).not_to_contain_text("Bob prend")
    said = live.text_content().strip()
    assert said and "is not" not in said, said
    assert page_state(page)["move"] == move
