"""Moves in sentences (issue 33), in the browser: on a French game page the move log, the
last turn in the header and the confirm button of a selection say the moves as sentences
(the server's ``text`` in the reader's language, the players named as the page names
them), never the notation's letters (``take W U G``); "Show notation" switches the log and
the last turn to the notation and back, and the choice is remembered after a reload."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from splendor import classic
from splendor.move_text import move_sentence, seat_placeholders

from .conftest import open_page, screenshot
from .ui import create_in_lobby, page_state, wait_ready

NOTATION = re.compile(r"\b(take|buy|reserve|return|gold|noble)( [WUGRK*]\b| \d\.\d| [dr]\d)")
"""A move written in notation (``take W``, ``buy 2.3``, ``reserve d1``)."""


@pytest.fixture
def french_page(browser: Any, server: str) -> Iterator[Any]:
    """A page whose reader chose French (the cookie the language switch sets)."""
    contexts: list = []
    errors: list[str] = []
    page = open_page(browser, server, errors, contexts)
    contexts[0].add_cookies([{"name": "lang", "value": "fr", "url": server, "sameSite": "Lax"}])
    yield page
    for ctx in contexts:
        ctx.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


def _filled(text: str, names: dict[int, str]) -> str:
    return re.sub(r"\{seat(\d)\}", lambda m: names[int(m.group(1))], text)


def test_a_french_game_says_its_moves_and_shows_notation_on_demand(french_page: Any) -> None:
    page = french_page
    made = create_in_lobby(
        page, "splendor", [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}]
    )
    page.goto(made["invites"][0])
    data = wait_ready(page)
    assert page.evaluate("document.documentElement.lang") == "fr"
    # the confirm button of a selection is a sentence, not "take W U G"
    for letter in "WUG":
        page.click(f"[data-testid=supply-{letter}]")
    confirm = page.locator("[data-testid=confirm][data-notation='take W U G']")
    label = confirm.inner_text()
    assert label and not NOTATION.search(label), label
    confirm.click()
    wait_ready(page, after_move=int(data["move"]))
    state = page_state(page)
    names = {0: "Ann", 1: page.locator("[data-testid=player-1] .name").inner_text()}
    expected = move_sentence(
        classic.new_game(2, seed=0), classic.Action.parse("take W U G"), seat_placeholders(2), "fr"
    )
    assert state["log"][0]["text"] == expected  # said by the server in the reader's language
    assert state["last_move"]["text"] == state["log"][-1]["text"]

    log = page.locator("[data-testid=log] li")
    expect(log).to_have_count(len(state["log"]))
    for k, entry in enumerate(state["log"]):
        shown = log.nth(k).inner_text()
        assert _filled(entry["text"], names) in shown and not NOTATION.search(shown), shown
    header = page.locator("[data-testid=last-move]")
    last = _filled(state["log"][-1]["text"], names)
    expect(header).to_contain_text(last)
    assert header.locator("code").count() == 0 and not NOTATION.search(header.inner_text())
    screenshot(page, "sentences-fr")

    # "Show notation": the log and the last turn in notation, then back to sentences
    toggle = page.locator("[data-testid=notation-toggle]")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(page.locator("[data-testid=notation-toggle]")).to_have_attribute("aria-pressed", "true")
    expect(log.nth(0).locator("code")).to_have_text("take W U G")
    expect(header.locator("code").last).to_have_text(state["log"][-1]["notation"])
    page.reload()  # remembered
    wait_ready(page)
    expect(page.locator("[data-testid=log] li").nth(0).locator("code")).to_have_text("take W U G")
    page.click("[data-testid=notation-toggle][aria-pressed=true]")
    expect(page.locator("[data-testid=log] li").nth(0)).to_contain_text(_filled(expected, names))
    expect(page.locator("[data-testid=log] li code")).to_have_count(0)
    expect(page.locator("[data-testid=last-move]")).to_contain_text(last)


DIALOG = """async (shown) => {
  const sentences = await import('/static/sentences.js');
  sentences.setNotationShown(shown);
  const panels = await import('/static/panels.js');
  const notation = await import('/static/notation.js');
  const s = window.__splendor.state;
  const tables = window.__splendor.page.tables;
  const legal = notation.parseAll(s.game, ['return W', 'return U', 'return *'].map(
    (n, id) => ({id, notation: n})));
  const el = panels.decisionDialog(s, tables, legal, () => {});
  return el.textContent;
}"""


def test_a_decision_dialog_shows_the_notation_only_on_demand(french_page: Any) -> None:
    """A decision's choices (here returning tokens, C5) are the action in words beside the
    gem's chip; the notation in brackets ("(return W)") only with "Show notation"."""
    page = french_page
    made = create_in_lobby(
        page, "splendor", [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}]
    )
    page.goto(made["invites"][0])
    wait_ready(page)
    plain = page.evaluate(DIALOG, False)
    assert "rendre" in plain and "return" not in plain, plain
    noted = page.evaluate(DIALOG, True)
    assert "(return W)" in noted and "(return *)" in noted, noted
