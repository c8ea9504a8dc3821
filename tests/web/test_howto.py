"""The "how to play" pages (issue 16): one HTML fragment per game and language in
``src/splendor/web/howto/<lang>/<game>.html``, shown at ``/howto/<game>`` by ``howto.js``,
which draws their figures with the client's own drawings.

The first tests read the fragments only (no browser): the three languages of a game share
one structure (headings and figures), hold nothing that runs or loads from elsewhere, and
the French and Dutch pages are translations, not copies of the English one. The browser
tests follow the links from the lobby and the game page and check that each language's page
shows its own text with every picture drawn.
"""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import screenshot
from .ui import rest

HOWTO = Path(__file__).resolve().parents[2] / "src" / "splendor" / "web" / "howto"
GAMES = ("splendor", "duel")
LANGUAGES = ("en", "fr", "nl", "de", "es", "it", "pt", "pl")
ARTS = {"card", "noble", "royal", "token", "tokens", "board", "screenshot"}
"""The figures ``howto.js`` knows how to draw (its ``drawArt`` and the screenshot)."""
HEADINGS = ("h1", "h2", "h3", "h4")
FORBIDDEN_TAGS = {"script", "style", "iframe", "object", "embed", "link", "img", "form"}
"""Elements a fragment may not hold (its only image, the screenshot, is the page's doing)."""


@dataclass
class Page:
    """What a fragment is made of."""

    outline: list[tuple] = field(default_factory=list)
    """Headings (``("h2",)``) and figures (``("figure", {data-* attributes})``), in order."""
    headings: dict[str, list[str]] = field(default_factory=dict)
    tags: list[str] = field(default_factory=list)
    attributes: list[tuple[str, str, str]] = field(default_factory=list)
    text: str = ""
    lang: str | None = None


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self.chunks: list[str] = []
        self.heading: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.page.tags.append(tag)
        for name, value in attrs:
            self.page.attributes.append((tag, name, value or ""))
        if tag == "article" and self.page.lang is None:
            self.page.lang = dict(attrs).get("lang")
        if tag in HEADINGS:
            self.page.outline.append((tag,))
            self.heading = []
        elif tag == "figure":
            data = {k: v or "" for k, v in attrs if k.startswith("data-")}
            self.page.outline.append(("figure", data))
        # block elements end a sentence
        if tag in ("p", "li", "figcaption", "ul", "ol", *HEADINGS):
            self.chunks.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in HEADINGS and self.heading is not None:
            self.page.headings.setdefault(tag, []).append(" ".join("".join(self.heading).split()))
            self.heading = None
        if tag in ("p", "li", "figcaption", *HEADINGS):
            self.chunks.append("\n")

    def handle_data(self, data: str) -> None:
        self.chunks.append(data)
        if self.heading is not None:
            self.heading.append(data)


def read(lang: str, game: str) -> Page:
    reader = _Reader()
    reader.feed((HOWTO / lang / f"{game}.html").read_text(encoding="utf-8"))
    reader.close()
    reader.page.text = "".join(reader.chunks)
    return reader.page


def sentences(text: str) -> list[str]:
    """The sentences of a text (blocks split at . ! ? ; : followed by a space), spaces
    normalised."""
    out = []
    for block in text.split("\n"):
        for s in re.split(r"(?<=[.!?;:])\s+", block):
            s = " ".join(s.split())
            if s:
                out.append(s)
    return out


def words(text: str) -> int:
    return len(text.split())


@pytest.mark.parametrize("game", GAMES)
def test_the_three_languages_share_one_structure(game: str) -> None:
    """Every language's page of a game has the same headings in the same order and the same
    figures, with the same data-* attributes, at the same places."""
    pages = {lang: read(lang, game) for lang in LANGUAGES}
    english = pages["en"].outline
    assert ("h1",) in english and any(part[0] == "figure" for part in english)
    for lang, page in pages.items():
        assert page.lang == lang, f"{lang}/{game}.html: <article lang> is {page.lang!r}"
        assert page.outline == english, f"{lang}/{game}.html differs from en/{game}.html"
        assert len(page.headings["h1"]) == 1, f"{lang}/{game}.html: one <h1>"
        figures = [part[1] for part in page.outline if part[0] == "figure"]
        assert all(f.get("data-art") in ARTS for f in figures), figures
        # short: a few minutes' reading, not the rulebook
        assert 300 <= words(page.text) <= 1000, f"{lang}/{game}.html has {words(page.text)} words"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_a_fragment_runs_and_loads_nothing(game: str, lang: str) -> None:
    """The page's Content-Security-Policy forbids inline scripts and styles: a fragment has
    no script, no style, no event handler, and links to nothing outside the site."""
    page = read(lang, game)
    where = f"{lang}/{game}.html"
    assert not FORBIDDEN_TAGS & set(page.tags), where
    for tag, name, value in page.attributes:
        assert not name.startswith("on"), f"{where}: <{tag} {name}>"
        assert name != "style", f"{where}: <{tag} style>"
        if name in ("href", "src", "action"):
            assert value.startswith("/") and not value.startswith("//"), f"{where}: {name}={value}"
    raw = (HOWTO / lang / f"{game}.html").read_text(encoding="utf-8")
    assert not re.search(r"(?i)\b(https?:|javascript:|data:)|//[a-z0-9]", raw), where


@pytest.mark.parametrize("lang", LANGUAGES[1:])
@pytest.mark.parametrize("game", GAMES)
def test_french_and_dutch_are_translations(game: str, lang: str) -> None:
    """No sentence of the English page longer than 4 words appears in the French or Dutch
    one, and their headings are their own."""
    english = read("en", game)
    other = read(lang, game)
    text = " ".join(other.text.split())
    long = [s for s in sentences(english.text) if words(s) > 4]
    assert len(long) >= 20, "the English page has too few sentences to compare"
    copied = [s for s in long if s in text]
    assert not copied, f"{lang}/{game}.html repeats English sentences: {copied}"
    for level, titles in english.headings.items():
        for mine, theirs in zip(other.headings[level], titles, strict=True):
            assert mine != theirs, f"{lang}/{game}.html: the {level} {mine!r} is the English one"


def _tables(game: str) -> dict:
    from splendor.bots.external import game_tables

    return game_tables(game)


@pytest.mark.parametrize("game", GAMES)
def test_the_figures_name_real_cards_and_a_possible_take(game: str) -> None:
    """The cards, nobles and royal cards a figure asks for exist in the game's tables, and
    the Duel board's highlighted take is a legal one: 1 to 3 gems or pearls in a line."""
    tables = _tables(game)
    for part in read("en", game).outline:
        if part[0] != "figure":
            continue
        data = part[1]
        art = data["data-art"]
        if art in ("card", "noble", "royal"):
            assert data.get("data-game", game) == game
            key = {"card": "cards", "noble": "nobles", "royal": "royals"}[art]
            wanted = [int(x) for x in data[f"data-{art}"].split()]
            assert wanted and all(0 <= i < len(tables[key]) for i in wanted), data
        if art == "board":
            board = data["data-board"].replace(" ", "")
            assert len(board) == 25 and set(board) <= set("WUGRKP*.")
            cells = [("abcde".index(c[0]), int(c[1]) - 1) for c in data["data-take"].split()]
            assert 1 <= len(cells) <= 3
            assert all(board[r * 5 + c] in "WUGRKP" for c, r in cells), data
            cells.sort()
            pairs = zip(cells, cells[1:], strict=False)
            steps = {(c2 - c1, r2 - r1) for (c1, r1), (c2, r2) in pairs}
            assert len(steps) <= 1 and all(max(abs(dc), abs(dr)) == 1 for dc, dr in steps), data


# --------------------------------------------------------------------------- in a browser


def _check_page(page, game: str, lang: str) -> None:
    """The page at ``/howto/<game>`` shows the ``lang`` fragment's heading and every figure
    drawn (a drawing, or the screenshot's loaded image; a missing screenshot goes)."""
    root = page.locator("[data-testid=howto-root]")
    expect(root).to_have_attribute("data-state", "ready")
    assert root.get_attribute("data-game") == game
    assert root.get_attribute("data-lang") == lang
    expected = read(lang, game)
    expect(page.locator("[data-testid=howto-body] h1")).to_have_text(expected.headings["h1"][0])
    expect(page.locator("[data-testid=howto-body] h2")).to_have_text(expected.headings["h2"])
    figures = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=howto-body] figure')].map((f) => ({
            art: f.dataset.art, drawn: f.dataset.drawn || '', hidden: f.hidden,
            svgs: f.querySelectorAll('svg').length,
            images: [...f.querySelectorAll('img')].map((i) => i.complete && i.naturalWidth > 0),
            elements: [...f.children].filter((c) => c.tagName !== 'FIGCAPTION').length,
        }))"""
    )
    drawn = [f for f in figures if f["art"] != "screenshot"]
    wanted = [p[1]["data-art"] for p in expected.outline if p[0] == "figure"]
    assert [f["art"] for f in drawn] == [a for a in wanted if a != "screenshot"]
    for f in figures:
        assert f["drawn"] == "true" and not f["hidden"] and f["elements"] >= 1, f
        assert f["svgs"] >= 1 or (f["images"] and all(f["images"])), f
    shots = [f for f in figures if f["art"] == "screenshot"]
    image = HOWTO / "img" / f"table-{game}-{lang}.jpg"
    assert len(shots) == (1 if image.exists() else 0), (shots, image)
    screenshot(page, f"howto-{game}-{lang}")


def test_the_lobby_leads_to_each_page_in_each_language(new_page, server) -> None:
    """The lobby's links open the pages; each page links to the other game's page and back
    to the lobby; with the cookie ``lang`` each page is in that language."""
    page = new_page()
    page.goto("/")
    links = page.locator("[data-testid=howto-links]")
    expect(links.locator("a")).to_have_count(2)
    page.click("[data-testid=howto-link-splendor]")
    page.wait_for_url(re.compile(r"/howto/splendor$"))
    _check_page(page, "splendor", "en")
    page.click("[data-testid=howto-other-duel]")
    page.wait_for_url(re.compile(r"/howto/duel$"))
    _check_page(page, "duel", "en")
    page.click("[data-testid=howto-lobby]")
    page.wait_for_url(re.compile(r"/$"))
    expect(page.locator("[data-testid=howto-link-duel]")).to_have_attribute("href", "/howto/duel")
    for lang in LANGUAGES[1:]:
        page.context.add_cookies([{"name": "lang", "value": lang, "url": server}])
        for game in GAMES:
            page.goto(f"/howto/{game}")
            _check_page(page, game, lang)
    # an unknown game has no page
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(server + "/howto/chess", timeout=20)
    assert refused.value.code == 404


def test_the_game_page_links_to_its_game_in_a_new_tab(new_page, server) -> None:
    """The game page's "How to play" opens that game's page in another tab, so that the
    game stays open."""
    made = rest(
        server,
        "/api/games",
        {
            "game": "duel",
            "seats": [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}],
        },
    )
    page = new_page()
    page.goto(made["seats"][0]["invite"])
    link = page.locator("[data-testid=howto-link]")
    expect(link).to_have_attribute("href", "/howto/duel")
    expect(link).to_have_attribute("target", "_blank")
    with page.context.expect_page() as opened:
        link.click()
    howto = opened.value
    howto.wait_for_load_state()
    _check_page(howto, "duel", "en")
    expect(page.locator("[data-testid=game-root]")).to_have_attribute("data-game", "duel")
