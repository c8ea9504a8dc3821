"""Costs and requirements read without colour (issue 33), in the browser: on a Splendor
and a Splendor Duel table against a bot, in English, French and Dutch (cookie ``lang``),
every cost on every card shown face up and every requirement of every noble is drawn as
its gem's own shape (the token's: ``g.gem.gem-r`` is the red triangle) with the number,
in a mark (``.cost-mark`` / ``.req-mark``, ``data-gem``) whose accessible name says it
in the page's language, as the client's catalogue has it ("3 jetons rouges", "3 cartes
avec un bonus rouge"), never in English in French and Dutch; the marks match the card
tables. Royal cards of Duel have no requirement: they carry no mark. The table is
screenshotted at phone size, in colour and in greyscale.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from .conftest import screenshot
from .ui import create_in_lobby, wait_ready

LOCALE = Path(__file__).resolve().parents[2] / "src" / "splendor" / "locale"
GEM_CLASS = {"W": "w", "U": "u", "G": "g", "R": "r", "K": "k", "P": "p", "*": "gold"}
LETTERS = {"splendor": ["W", "U", "G", "R", "K", "*"], "duel": ["W", "U", "G", "R", "K", "P", "*"]}
COLOUR = {"W": "white", "U": "blue", "G": "green", "R": "red", "K": "black", "P": "pearl"}
TOKENS = {
    letter: (f"{{n}} {word} token", f"{{n}} {word} tokens") for letter, word in COLOUR.items()
}
TOKENS["P"] = ("{n} pearl", "{n} pearls")
NEED = ("{n} card with a {color} bonus", "{n} cards with a {color} bonus")


def _catalogue(language: str) -> dict[str, Any]:
    """msgid → msgstr (a tuple of plural forms for plural messages); English: itself."""
    if language == "en":
        return {}
    with (LOCALE / language / "LC_MESSAGES" / "web.po").open("rb") as f:
        cat = read_po(f, locale=language)
    out: dict[str, Any] = {}
    for m in cat:
        if m.id and m.string:
            key = m.id[0] if isinstance(m.id, tuple) else m.id
            out[key] = m.string
    return out


def _tn(cat: dict[str, Any], language: str, forms: tuple[str, str], n: int, **fields: Any) -> str:
    """The catalogue's words for ``n`` (the plural rules of en, fr and nl)."""
    plural = n > 1 if language == "fr" else n != 1
    found = cat.get(forms[0])
    text = (
        (found[1 if plural else 0] if found else forms[1 if plural else 0])
        if language != "en"
        else forms[plural]
    )
    return text.format(n=n, **fields)


def _t(cat: dict[str, Any], message: str) -> str:
    return cat.get(message) or message


@pytest.fixture
def open_in(browser, server) -> Iterator[Any]:
    """``open_in(lang, width)``: a page in its own context with the cookie ``lang``;
    uncaught exceptions fail the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(lang: str, width: int = 1300) -> Any:
        ctx = browser.new_context(viewport={"width": width, "height": 900}, base_url=server)
        ctx.set_default_timeout(20000)
        contexts.append(ctx)
        ctx.add_cookies([{"name": "lang", "value": lang, "url": server, "sameSite": "Lax"}])
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        return page

    yield make
    for ctx in contexts:
        ctx.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


READ_MARKS = """(sel) => [...document.querySelectorAll(sel)].map((el) => ({
  id: el.dataset.cardId ?? (el.dataset.anim || '').split(':')[1] ?? null,
  testid: el.dataset.testid || '',
  marks: [...el.querySelectorAll('.cost-mark, .req-mark')].map((m) => ({
    kind: m.classList.contains('cost-mark') ? 'cost' : 'req',
    gem: m.dataset.gem,
    shapes: [...m.querySelectorAll(':scope > g.gem')].map((g) => g.getAttribute('class')),
    number: (m.querySelector('text') || {}).textContent,
    role: m.getAttribute('role'),
    name: m.getAttribute('aria-label'),
    title: (m.querySelector('title') || {}).textContent,
  })),
}))"""


def _check(page, game: str, tables: dict, language: str) -> int:
    """Check every face-up card's cost marks and every noble's requirement marks; the
    number of marks checked."""
    cat = _catalogue(language)
    letters = LETTERS[game]
    checked = 0
    cards = page.evaluate(READ_MARKS, ".card[data-card-id]")
    assert cards, "no card face up on the table"
    for card in cards:
        cost = tables["cards"][int(card["id"])]["cost"]
        want = {letters[c]: n for c, n in enumerate(cost) if n}
        got = {m["gem"]: m for m in card["marks"] if m["kind"] == "cost"}
        assert set(got) == set(want), (card["testid"], want, card["marks"])
        for letter, n in want.items():
            m = got[letter]
            assert m["shapes"] == [f"gem gem-{GEM_CLASS[letter]}"], m
            assert m["number"] == str(n), m
            name = _tn(cat, language, TOKENS[letter], n)
            assert m["role"] == "img" and m["name"] == name and m["title"] == name, (
                language,
                m,
                name,
            )
            if language != "en":
                assert name != _tn({}, "en", TOKENS[letter], n), name
            checked += 1
    nobles = page.evaluate(READ_MARKS, ".noble[data-anim^='noble:']")
    if game == "splendor":
        assert nobles, "no noble on the table"
    for noble in nobles:
        need = tables["nobles"][int(noble["id"])]["requirement"]
        want = {letters[c]: n for c, n in enumerate(need) if n}
        got = {m["gem"]: m for m in noble["marks"] if m["kind"] == "req"}
        assert set(got) == set(want), (noble, want)
        for letter, n in want.items():
            m = got[letter]
            assert m["shapes"] == [f"gem gem-{GEM_CLASS[letter]}"], m
            assert m["number"] == str(n), m
            name = _tn(cat, language, NEED, n, color=_t(cat, COLOUR[letter]))
            assert m["role"] == "img" and m["name"] == name and m["title"] == name, (
                language,
                m,
                name,
            )
            if language != "en":
                assert name != _tn({}, "en", NEED, n, color=COLOUR[letter]), name
            checked += 1
    for royal in page.evaluate(READ_MARKS, ".royal"):
        assert royal["marks"] == [], royal  # a royal card asks for nothing but crowns
    return checked


def _greyscale(path: Path) -> None:
    from PIL import Image, ImageOps

    ImageOps.grayscale(Image.open(path)).save(path.with_name(path.stem + "-grey.png"))


@pytest.mark.parametrize("language", ["en", "fr", "nl"])
@pytest.mark.parametrize("game", ["splendor", "duel"])
def test_costs_and_requirements_carry_their_gem(open_in, meta, game: str, language: str) -> None:
    page = open_in(language, width=390 if language == "fr" else 1300)
    create_in_lobby(
        page, game, [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}]
    )
    page.click("[data-testid=open-seat-0]")
    wait_ready(page)
    assert page.evaluate("document.documentElement.lang") == language
    checked = _check(page, game, meta["games"][game]["tables"], language)
    assert checked >= 12 if game == "splendor" else checked >= 9, checked
    # what a person reads: the card's own words name the cost in the language too
    label = page.get_attribute(".card[data-card-id]", "title") or ""
    assert any(c.isdigit() for c in label)
    if language != "en":
        assert " token" not in label and not re.search(r"\b\d[WUGRKP]\b", label), label
    if language in ("en", "fr"):
        shot = screenshot(
            page, f"colour-cues-{game}-{language}-{390 if language == 'fr' else 1300}"
        )
        _greyscale(shot)
