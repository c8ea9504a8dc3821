"""The web app in French and Dutch (issue 16), in the browser: with the cookie ``lang`` (what
the language switch sets) the lobby, the leaderboard, a classic game and a Splendor Duel
game against a bot show no English message of the client's catalogue whose translation
differs, in the page's text or its ``title``, ``aria-label`` and ``placeholder``
attributes; a refused click says why in the reader's language (the server's explanation),
the help panel and the Resign dialog too. A browser whose locale is ``nl-NL`` (its
``Accept-Language``) and that has no cookie gets Dutch; switching to French is remembered
after a reload.
"""

from __future__ import annotations

import json
import random
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import expect

from splendor.i18n import messages

from .conftest import screenshot
from .ui import choose, create_in_lobby, page_state, play_by_clicking, token_of, wait_ready

LOCALE = Path(__file__).resolve().parents[2] / "src" / "splendor" / "locale"

NOTATION_VERBS = {
    "take",
    "buy",
    "reserve",
    "return",
    "gold",
    "pay",
    "noble",
    "royal",
    "joker",
    "token",
    "steal",
    "privilege",
    "replenish",
    "pass",
    "choose",
}
"""The words of the action notation (``take W U G``, ``return W``): the same in every
language, so shown as they are."""


def _english_phrases(language: str) -> list[tuple[str, re.Pattern[str]]]:
    """The English phrases of the client's catalogue (``web.pot``) that must not show in
    ``language``: each message (and plural form) whose translation differs, cut at its
    ``{fields}``; a piece counts when it is meaningful (2 words or more, or 6 letters or
    more) and is no word of the language's own translations (Dutch says "privilege" too)."""
    with (LOCALE / language / "LC_MESSAGES" / "web.po").open("rb") as f:
        catalogue = read_po(f, locale=language)
    translations = []
    originals = []
    for m in catalogue:
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        forms = [m.string] if isinstance(m.string, str) else list(m.string)
        translations.extend(forms)
        originals.extend(o for o in ids if o not in forms)
    own = "\n".join(translations)
    phrases = {}
    for original in originals:
        for piece in re.split(r"\{\w+\}", original):
            piece = re.sub(r"^\W+|\W+$", "", piece)
            meaningful = len(piece.split()) >= 2 or len(re.sub(r"[^A-Za-z]", "", piece)) >= 6
            if not meaningful or piece in NOTATION_VERBS:
                continue
            pattern = re.compile(rf"(?<!\w){re.escape(piece)}(?!\w)")
            if not pattern.search(own):
                phrases[piece] = pattern
    assert len(phrases) > 150, "the catalogue should have many English phrases to look for"
    return sorted(phrases.items())


TRANSLATED = ("fr", "nl", "de", "es", "it", "pt", "pl")
PHRASES = {language: _english_phrases(language) for language in TRANSLATED}

TEXTS = """() => {
  const out = [document.title, document.body.innerText];
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
    for (const name of ['title', 'aria-label', 'placeholder']) {
      const v = el.getAttribute(name);
      if (v) out.push(v);
    }
  }
  return out;
}"""


def assert_no_english(page: Any, language: str, where: str) -> None:
    """No English phrase of the catalogue (:func:`_english_phrases`) in the page's text,
    title or ``title``/``aria-label``/``placeholder`` attributes; the page is in
    ``language`` (``<html lang>``)."""
    assert page.evaluate("document.documentElement.lang") == language, where
    texts = page.evaluate(TEXTS)
    assert len(texts[1]) > 20, f"{where}: the page shows almost nothing"
    found = sorted(
        {
            (phrase, text[:100])
            for text in texts
            for phrase, rx in PHRASES[language]
            if rx.search(text)
        }
    )
    if found:
        screenshot(page, f"languages-{language}-{where}")
    assert not found, f"{where} ({language}): English left: {found}"


@pytest.fixture
def open_in(browser, server) -> Iterator[Any]:
    """Factory of pages, each in a browser context of its own: ``open_in(lang="fr")`` with
    the cookie ``lang`` (as the switch sets it), ``open_in(locale="nl-NL")`` with that
    browser locale (its ``Accept-Language``). Uncaught exceptions and native dialogs fail
    the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(lang: str | None = None, locale: str | None = None) -> Any:
        options: dict[str, Any] = {"viewport": {"width": 1300, "height": 1000}, "base_url": server}
        if locale:
            options["locale"] = locale
        ctx = browser.new_context(**options)
        ctx.set_default_timeout(20000)
        contexts.append(ctx)
        if lang:
            ctx.add_cookies([{"name": "lang", "value": lang, "url": server, "sameSite": "Lax"}])
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("dialog", lambda d: (errors.append(f"dialog: {d.message}"), d.dismiss()))
        return page

    yield make
    for ctx in contexts:
        ctx.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


def _explain(server: str, game_id: str, token: str, action: str, lang: str | None) -> str:
    """The server's reason why ``action`` is refused, in the language of the cookie
    ``lang`` (None: no cookie, English)."""
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    if lang:
        headers["Cookie"] = f"lang={lang}"
    req = urllib.request.Request(
        f"{server}/api/games/{game_id}/explain",
        data=json.dumps({"action": action}).encode(),
        headers=headers,
    )
    with urllib.request.urlopen(req, timeout=20) as r:
        answer = json.load(r)
    assert answer["legal"] is False, answer
    return str(answer["reason"])


def _same_sentence(shown: str, reason: str) -> bool:
    """The page shows the server's sentence (its first letter may be a capital)."""
    return shown.strip().lower() == reason.strip().lower()


@pytest.mark.parametrize("language", TRANSLATED)
def test_lobby_and_leaderboard(open_in, language: str) -> None:
    page = open_in(lang=language)
    page.goto("/")
    page.wait_for_selector("[data-testid=create-game]")
    expect(page.locator("[data-testid=identity]")).to_have_attribute("data-state", "anonymous")
    expect(page.locator("[data-testid=lobby-connection]")).to_have_attribute("data-state", "open")
    expect(page.locator("[data-testid=language-select]")).to_have_value(language)
    assert_no_english(page, language, "lobby")
    # the clocks' words (a turn clock: days, hours) are the reader's
    formats = page.evaluate(
        """async () => {
          const c = await import('/static/clock.js');
          return [c.formatClock(180000, 'turn'), c.formatClock(83400, 'turn'),
                  c.formatClock(272, 'realtime')];
        }"""
    )
    nbsp = "\u00a0"
    expected = {
        "fr": [f"2{nbsp}j 2{nbsp}h", f"23{nbsp}h 10{nbsp}min", "4:32"],
        "nl": ["2 d 2 u", "23 u 10 min", "4:32"],
    }
    if language in expected:
        assert formats == expected[language]
    else:  # the catalogue's words
        words = messages(language, "web")
        assert formats == [
            words.gettext("{d} d {h} h", d=2, h=2),
            words.gettext("{h} h {min} min", h=23, min=10),
            "4:32",
        ]
    # the other forms of the identity bar
    for form in ("login", "signup"):
        page.click(f"[data-testid=show-{form}]")
        page.wait_for_selector(f"[data-testid={form}-form]")
        assert_no_english(page, language, f"lobby-{form}")
    # a refusal of the server (an account name that is too long) in the reader's language
    page.evaluate(
        "document.querySelector('[data-testid=signup-name]').removeAttribute('maxlength')"
    )
    page.fill("[data-testid=signup-name]", "x" * 45)
    page.fill("[data-testid=signup-password]", "a good password")
    page.click("[data-testid=signup-submit]")
    error = page.locator("[data-testid=identity-error]")
    expect(error).not_to_have_text("")
    assert "characters" not in error.inner_text() and "45" in error.inner_text()
    screenshot(page, f"languages-{language}-lobby")

    page.goto("/leaderboard")
    expect(page.locator("[data-testid=leaderboard]")).to_have_attribute("data-state", "ready")
    assert_no_english(page, language, "leaderboard")
    assert page.title() != "Leaderboard · Splendor"


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_classic_game(open_in, server, meta, language: str) -> None:
    page = open_in(lang=language)
    made = create_in_lobby(
        page, "splendor", [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}]
    )
    assert_no_english(page, language, "classic-created")
    page.click("[data-testid=open-seat-0]")
    data = wait_ready(page)
    assert_no_english(page, language, "classic-start")
    token = token_of(made["invites"][0])
    game_id = made["game_id"]

    # a card that cannot be bought yet: the menu says why, in the reader's language
    page.click("[data-testid='card-3.1']")
    why = page.locator("[data-testid=menu-why]")
    expect(why).not_to_have_text("")
    reason = _explain(server, game_id, token, "buy 3.1", language)
    assert reason in why.inner_text()
    assert _explain(server, game_id, token, "buy 3.1", None) not in why.inner_text()
    assert_no_english(page, language, "classic-card-menu")
    page.click("[data-testid=menu-cancel]")

    # a move, played by clicking
    play_by_clicking(
        page, choose(page_state(page), meta["games"]["splendor"]["tables"], random.Random(1))
    )
    data = wait_ready(page, after_move=int(data["move"]))
    assert_no_english(page, language, "classic-after-a-move")

    # the help panel on how moves are written
    page.click("[data-testid=notation-help] summary")
    expect(page.locator("[data-testid=notation-help] dl")).to_be_visible()
    assert "take W U G" in page.inner_text("[data-testid=notation-help]")  # notation stays
    assert_no_english(page, language, "classic-help")

    # the Resign confirmation
    page.click("[data-testid=resign]")
    page.wait_for_selector("[data-testid=resign-dialog]")
    assert_no_english(page, language, "classic-resign-dialog")
    page.click("[data-testid=resign-cancel]")
    screenshot(page, f"languages-{language}-classic")


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_duel_game_and_a_refused_click(open_in, server, meta, language: str) -> None:
    page = open_in(lang=language)
    made = create_in_lobby(
        page, "duel", [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}]
    )
    page.click("[data-testid=open-seat-0]")
    data = wait_ready(page)
    assert_no_english(page, language, "duel-start")
    token = token_of(made["invites"][0])
    state = page_state(page)
    board = state["observation"]["board"]
    legal = {a["notation"] for a in state["legal_actions"]}
    cells = [f"{'abcde'[i % 5]}{i // 5 + 1}" for i in range(25)]
    gems = [c for i, c in enumerate(cells) if 0 <= board[i] < 6]  # gems and pearls, no gold

    # a gem beside a gold token: a take cannot hold the gold (D8); the server's one
    # sentence says why, in the reader's language, without the notation help
    def near(a: int, b: int) -> bool:
        return a != b and abs(a // 5 - b // 5) <= 1 and abs(a % 5 - b % 5) <= 1

    gem, gold = next(
        (cells[i], cells[j])
        for i in range(25)
        for j in range(25)
        if 0 <= board[i] < 6 and board[j] == 6 and near(i, j) and f"take {cells[i]}" in legal
    )
    page.click(f"[data-testid=cell-{gem}]")
    page.click(f"[data-testid=cell-{gold}]")
    message = page.locator("[data-testid=message]")
    expect(message).not_to_have_text("")
    shown = message.inner_text()
    notation = f"take {gem} {gold}"  # what the page asked the server about
    assert _same_sentence(shown, _explain(server, made["game_id"], token, notation, language))
    assert not _same_sentence(shown, _explain(server, made["game_id"], token, notation, None))
    assert "Hint" not in shown and "take c3" not in shown  # one sentence, no notation help
    assert_no_english(page, language, "duel-refused-click")
    page.click("[data-testid=clear-selection]")

    # two cells that no take holds together (not a line): no action at all, the page's
    # own sentence in the reader's language
    takes = [set(n.split()[1:]) for n in legal if n.startswith("take ")]
    first, second = next(
        (a, b)
        for a in gems
        for b in gems
        if a != b and {a} in takes and not any({a, b} <= take for take in takes)
    )
    page.click(f"[data-testid=cell-{first}]")
    page.click(f"[data-testid=cell-{second}]")
    expect(message).not_to_have_text(shown)
    expect(message).not_to_have_text("")
    assert_no_english(page, language, "duel-no-line")
    page.click("[data-testid=clear-selection]")

    # a move, played by clicking, then the help panel
    play_by_clicking(
        page, choose(page_state(page), meta["games"]["duel"]["tables"], random.Random(2))
    )
    wait_ready(page, after_move=int(data["move"]))
    assert_no_english(page, language, "duel-after-a-move")
    page.click("[data-testid=notation-help] summary")
    expect(page.locator("[data-testid=notation-help] dl")).to_be_visible()
    assert_no_english(page, language, "duel-help")
    screenshot(page, f"languages-{language}-duel")


def test_the_browser_language_then_the_switch(open_in, server) -> None:
    """No cookie: the browser's ``nl-NL`` (``Accept-Language``) gives Dutch. The switch
    then sets the cookie and reloads in French, which stays after a reload and on another
    page."""
    page = open_in(locale="nl-NL")
    assert page.evaluate("navigator.language") == "nl-NL"
    page.goto("/")
    page.wait_for_selector("[data-testid=create-game]")
    expect(page.locator("[data-testid=language-select]")).to_have_value("nl")
    assert_no_english(page, "nl", "lobby-by-accept-language")
    assert not [c for c in page.context.cookies() if c["name"] == "lang"]

    with page.expect_navigation():
        page.select_option("[data-testid=language-select]", "fr")
    page.wait_for_selector("[data-testid=create-game]")
    assert page.evaluate("document.documentElement.lang") == "fr"
    cookie = next(c for c in page.context.cookies() if c["name"] == "lang")
    assert cookie["value"] == "fr" and cookie["path"] == "/" and cookie["sameSite"] == "Lax"
    assert cookie["expires"] > page.evaluate("Date.now() / 1000") + 300 * 24 * 3600
    page.reload()
    page.wait_for_selector("[data-testid=create-game]")
    expect(page.locator("[data-testid=language-select]")).to_have_value("fr")
    assert_no_english(page, "fr", "lobby-after-the-switch")
    page.goto("/leaderboard")
    expect(page.locator("[data-testid=leaderboard]")).to_have_attribute("data-state", "ready")
    assert_no_english(page, "fr", "leaderboard-after-the-switch")

    # and back to English: the source's words
    with page.expect_navigation():
        page.select_option("[data-testid=language-select]", "en")
    expect(page.locator("[data-testid=leaderboard]")).to_have_attribute("data-state", "ready")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.title() == "Leaderboard · Splendor"
