"""The look and layout of the game page (issue 16), for both games, each played against a
bot on one game the module's checks share:

- on a phone (390×844): no horizontal scrolling (at the start, after moves, with a
  selection, a card menu and a decision dialog open), the game (the page below the site's
  top bar) at most two screens tall,
  the player's own panel on the first screen, every target (cards, tokens, buttons) at
  least 40 px;
- on a desktop (1366×768): the board and the player's own panel on the first screen;
- the last turn highlighted as a whole (every decision of the player who moved last);
- moves animate, and nothing moves under ``prefers-reduced-motion: reduce``.

Screenshots go to ``test-artifacts/web/``. With ``SPLENDOR_DOCS_SCREENSHOTS=1`` the figures
of the docs are written too: ``docs/images/table-<game>-<width>-<lang>.png`` (both games,
widths 390 and 1366, languages en, fr and nl chosen by the cookie ``lang``), and the
pictures of the "how to play" pages, ``src/splendor/web/howto/img/table-<game>-<lang>.jpg``.
"""

from __future__ import annotations

import os
import random
import re

import pytest
from PIL import Image, ImageOps

from .conftest import REPO, screenshot
from .ui import choose, page_state, play_by_clicking, rest, root_data, wait_ready

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}
LANGUAGES = ("en", "fr", "nl", "de", "es", "it", "pt", "pl")
DOCS_LANGUAGES = ("en", "fr", "nl")
"""The languages of the docs' figures (the how-to pages' pictures are made in every one)."""
DOCS_IMAGES = REPO / "docs" / "images"
HOWTO_IMAGES = REPO / "src" / "splendor" / "web" / "howto" / "img"
GAMES = ["splendor", "duel"]

# the page's measures: widths, heights, where the board and the viewer's own panel lie,
# and the visible targets smaller than 40 px
MEASURE = """() => {
  const rect = (sel) => {
    const el = document.querySelector(sel);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return {left: r.left, top: r.top + scrollY, right: r.right, bottom: r.bottom + scrollY};
  };
  const root = document.querySelector('[data-testid=game-root]');
  const targets = [...root.querySelectorAll(
    'button, [role=button], a[href], summary, input, select, [data-notation]')];
  targets.push(...document.querySelectorAll('[data-testid=card-menu] button'));
  const small = [];
  for (const el of targets) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
    if (r.width < 40 || r.height < 40) {
      const name = el.dataset.testid || el.className || el.tagName;
      small.push(`${name} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return {
    scrollWidth: document.documentElement.scrollWidth, innerWidth,
    height: document.documentElement.scrollHeight, innerHeight,
    bar: document.querySelector('[data-testid=identity]').getBoundingClientRect().height,
    board: rect('.board-area'), mine: rect('.player.me'), small,
  };
}"""

# the selectors a last turn must mark (class "last"), by its decisions' notations
CELL = re.compile(r"^[a-e][1-5]$")
SLOT = re.compile(r"^\d\.\d$")
SLOT_ACTION = re.compile(r"^(buy|reserve) \d\.\d")


def marked(game: str, notations: list[str]) -> list[str]:
    """The table's elements that the last turn's decisions touched: supply colours taken
    or given back (classic), board cells (Duel: taken, privileges spent, gold, token), the
    slot of a card bought or reserved, the deck of a blind reserve, a royal card."""
    out = []
    for n in notations:
        w = n.split()
        if game == "splendor" and w[0] in ("take", "return"):
            out += [f"[data-testid=supply-{c}]" for c in w[1:]]
        elif (
            game == "duel"
            and w[0] != "reserve"
            and len(w) > 1
            and all(CELL.match(c) for c in w[1:])
        ):  # "reserve d3" is the level-3 deck, not the cell d3
            out += [f"[data-testid=cell-{c}]" for c in w[1:]]
        elif w[0] in ("buy", "reserve") and SLOT.match(w[1]):
            out.append(f"[data-testid='card-{w[1]}']")
        elif w[0] == "reserve" and w[1].startswith("d"):
            out.append(f"[data-testid=deck-{w[1][1]}]")
        elif w[0] == "royal":
            out.append(f"[data-testid=royal-{w[1]}]")
    return out


def last_turn(log: list[dict]) -> tuple[int | None, list[str]]:
    """The seat that moved last and every decision of its last turn, in notation."""
    if not log:
        return None, []
    seat, k = log[-1]["seat"], len(log) - 1
    while k > 0 and log[k - 1]["seat"] == seat:
        k -= 1
    return seat, [e["notation"] for e in log[k:]]


@pytest.fixture(scope="module")
def games(server) -> dict:
    """One game of each kind, Ann against the random bot: ``{game: invite path}``."""
    out = {}
    for game in GAMES:
        made = rest(
            server,
            "/api/games",
            {
                "game": game,
                "seats": [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}],
            },
        )
        out[game] = made["seats"][0]["invite"]
    return out


def open_game(new_page, invite: str, viewport: dict):
    """A page of Ann's seat at the given size, ready."""
    page = new_page()
    page.set_viewport_size(viewport)
    page.goto(invite)
    wait_ready(page)
    return page


def settle(page) -> None:
    """Wait until no animation runs (the flights of the last move have landed)."""
    page.wait_for_function("() => document.getAnimations().length === 0")


def check_phone(page, when: str) -> dict:
    """The phone's rules, at any moment of the game (a screenshot of a failure is saved)."""
    m = page.evaluate(MEASURE)
    print(f"phone, {when}: {m['height']} px tall, {m['scrollWidth']} px wide")
    problems = []
    if m["scrollWidth"] > m["innerWidth"]:
        problems.append(f"horizontal scrolling ({m['scrollWidth']} px)")
    # the game below the site's top bar (whose log-in tabs and guest form, 40 px targets
    # since issue 33, take two or three lines on a phone) holds in two screens
    if m["height"] - m["bar"] > 2 * PHONE["height"]:
        problems.append(f"the page is {m['height']} px tall (top bar {m['bar']:.0f} px)")
    if not m["mine"] or m["mine"]["bottom"] > PHONE["height"]:
        problems.append(f"own panel below the first screen {m['mine']}")
    if m["small"]:
        problems.append(f"targets under 40 px: {m['small']}")
    if problems:
        screenshot(page, "layout-failed-" + re.sub(r"\W+", "-", when))
    assert not problems, f"{when}: {problems}"
    return m


def check_last_turn(page, game: str) -> None:
    """Every decision of the last turn is highlighted: on the table (class ``last``), in the
    panel of the player who made them, and in the move log."""
    state = page_state(page)
    seat, notations = last_turn(state["log"])
    if seat is None:
        return
    selectors = marked(game, notations)
    unmarked = page.evaluate(
        "(sels) => sels.filter((s) => {"
        " const el = document.querySelector(s); return !el || !el.classList.contains('last'); })",
        selectors,
    )
    assert not unmarked, f"last turn {notations}: not highlighted: {unmarked}"
    # the decisions said as sentences, each with its notation as its title (issue 33)
    titles = page.eval_on_selector_all(
        f"[data-testid=last-turn-{seat}] .move-text", "(els) => els.map((e) => e.title)"
    )
    assert titles == notations, (titles, notations)
    assert page.locator("[data-testid=log] li.last-turn").count() == len(notations)


def pick(state: dict, tables: dict, rng: random.Random) -> str:
    """A move that gathers tokens quickly (three at a time), so that the tokens go over 10
    and the return dialog shows; otherwise the usual choice."""
    legal = [a["notation"] for a in state["legal_actions"]]
    threes = [n for n in legal if n.startswith("take") and len(n.split()) == 4]
    return rng.choice(threes) if threes else choose(state, tables, rng)


@pytest.mark.parametrize("game", GAMES)
def test_phone_layout(new_page, meta, games, game):
    page = open_game(new_page, games[game], PHONE)
    tables = meta["games"][game]["tables"]
    check_phone(page, "start")
    screenshot(page, f"layout-{game}-390-start")

    # a selection on the table, then a card menu: still no horizontal scrolling
    state = page_state(page)
    take = next(a["notation"] for a in state["legal_actions"] if a["notation"].startswith("take"))
    first = take.split()[1]
    page.click(f"[data-testid=cell-{first}]" if game == "duel" else f"[data-testid=supply-{first}]")
    page.locator("[data-testid=selection]").wait_for()
    check_phone(page, "a selection")
    page.click("[data-testid=clear-selection]")
    card = next(
        (
            a["notation"].split()[1]
            for a in state["legal_actions"]
            if SLOT_ACTION.match(a["notation"])
        ),
        None,
    )
    if card:  # (a Duel game starts with no card to buy or reserve)
        page.click(f"[data-testid='card-{card}']")
        page.locator("[data-testid=card-menu]").wait_for()
        check_phone(page, "a card menu")
        screenshot(page, f"layout-{game}-390-menu")
        page.click("[data-testid=menu-cancel]")

    # a few moves, to a decision dialog (tokens over 10) if one comes
    rng = random.Random(16)
    data = root_data(page)
    dialog = False
    for _ in range(12):
        if data["status"] == "finished":
            break
        state = page_state(page)
        if page.locator("[data-testid=dialog]").count():
            check_phone(page, "a decision dialog")
            screenshot(page, f"layout-{game}-390-dialog")
            dialog = True
        play_by_clicking(page, pick(state, tables, rng))
        data = wait_ready(page, after_move=int(data["move"]))
        check_phone(page, f"move {data['move']}")
        check_last_turn(page, game)
        if dialog:
            break
    settle(page)
    screenshot(page, f"layout-{game}-390-played")


@pytest.mark.parametrize("game", GAMES)
def test_desktop_layout_and_motion(new_page, server, meta, games, game):
    page = open_game(new_page, games[game], DESKTOP)
    tables = meta["games"][game]["tables"]
    m = page.evaluate(MEASURE)
    screenshot(page, f"layout-{game}-1366")
    assert m["scrollWidth"] <= m["innerWidth"]
    for part in ("board", "mine"):
        r = m[part]
        assert (
            r
            and r["top"] >= 0
            and r["bottom"] <= DESKTOP["height"]
            and r["left"] >= 0
            and r["right"] <= DESKTOP["width"]
        ), f"the {part} is not on the first screen: {r}"
    rng = random.Random(61)

    # a move is animated: tokens and cards fly (the flights are counted on the root)
    before = int(root_data(page).get("flights") or 0)
    assert root_data(page)["motion"] == "on"
    move = int(root_data(page)["move"])
    play_by_clicking(page, pick(page_state(page), tables, rng))
    data = wait_ready(page, after_move=move)
    assert int(data["flights"]) > before
    check_last_turn(page, game)
    settle(page)

    # the reader prefers reduced motion: the next moves arrive without any animation
    page.emulate_media(reduced_motion="reduce")
    flights = int(root_data(page)["flights"])
    play_by_clicking(page, pick(page_state(page), tables, rng))
    data = wait_ready(page, after_move=int(data["move"]))
    assert data["motion"] == "off"
    assert int(data["flights"]) == flights
    assert page.evaluate("document.getAnimations().length") == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
    screenshot(page, f"layout-{game}-1366-played")

    if os.environ.get("SPLENDOR_DOCS_SCREENSHOTS") == "1":
        write_docs_figures(new_page, server, games[game], game)


def write_docs_figures(new_page, server: str, invite: str, game: str) -> None:
    """The docs' figures of this game's table: its first screen at each width and in each
    language (the cookie ``lang``), without motion."""
    DOCS_IMAGES.mkdir(parents=True, exist_ok=True)
    HOWTO_IMAGES.mkdir(parents=True, exist_ok=True)
    for viewport in (PHONE, DESKTOP):
        page = open_game(new_page, invite, viewport)
        page.emulate_media(reduced_motion="reduce")
        for lang in LANGUAGES:
            page.context.add_cookies([{"name": "lang", "value": lang, "url": server}])
            page.reload()
            wait_ready(page)
            if lang in DOCS_LANGUAGES:
                path = DOCS_IMAGES / f"table-{game}-{viewport['width']}-{lang}.png"
                page.screenshot(path=str(path))
                print(f"docs figure: {path}")
                if viewport is PHONE:  # the same in greyscale: the table reads without colour
                    grey = path.with_name(f"{path.stem}-grey.png")
                    ImageOps.grayscale(Image.open(path)).save(grey)
                    print(f"docs figure: {grey}")
            if viewport is DESKTOP:  # the picture of the "how to play" page (howto.js)
                path = HOWTO_IMAGES / f"table-{game}-{lang}.jpg"
                page.screenshot(path=str(path), type="jpeg", quality=70)
                print(f"how-to figure: {path}")


FLIGHT_PLANS = """async () => {
  const m = await import('/static/motion.js');
  const z = (n) => Array(n).fill(0);
  const classic = m.planFlights('splendor',
    {tokens: [z(6), z(6)], purchased_by: [-1, -1]},
    {tokens: [[1, 1, 1, 0, 0, 0], [0, 0, 0, 0, 0, 0]], purchased_by: [0, -1]},
    {cards: [{bonus: 3}, {bonus: 1}]});
  const board = Array(25).fill(-1);
  board[0] = 0;  // a1: white
  board[1] = 5;  // b1: pearl
  const duel = m.planFlights('duel',
    {board, tokens: [z(7), [0, 0, 1, 0, 0, 0, 0]], card_owner: [-1], card_color: [-1],
     privileges: [0, 1]},
    {board: Array(25).fill(-1), tokens: [[1, 0, 1, 0, 0, 1, 0], z(7)], card_owner: [-1],
     card_color: [-1], privileges: [1, 0]},
    {cards: [{color: 0}]});
  return {classic, duel};
}"""


def flights(plan: list[dict]) -> list[tuple[str, str]]:
    """A plan of flights as sorted (from, to) pairs."""
    return sorted((f["from"], f["to"]) for f in plan)


def test_flights_follow_the_move(page):
    """A move's flights come from the observations before and after it: tokens taken fly
    from the supply (classic) or from their cells (Duel), a stolen token from the
    opponent's tokens, a bought card into the buyer's bonus of its colour, a privilege
    taken from the opponent from theirs; nothing else moves."""
    page.goto("/")
    plans = page.evaluate(FLIGHT_PLANS)
    assert flights(plans["classic"]) == [
        ("card:0", "bonus:0:R"),
        ("supply:G", "tok:0:G"),
        ("supply:U", "tok:0:U"),
        ("supply:W", "tok:0:W"),
    ]
    assert flights(plans["duel"]) == [
        ("cell:a1", "tok:0:W"),
        ("cell:b1", "tok:0:P"),
        ("priv:1", "priv:0"),
        ("tok:1:G", "tok:0:G"),
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_other_pages_fit_a_phone_in_each_language(new_page, server, language):
    """The lobby (its forms hold the longest words: a bot level's description in Dutch
    made it 524 px wide; its list of open tables, with the host's rating, was 630 px wide
    in Dutch), the leaderboard and a how-to page scroll only down at 390 px."""
    host = new_page()  # a listed table of a guest whose name is long
    assert host.request.post(server + "/api/players/guest", data={"name": "Gus 44a1"}).ok
    body = {"game": "splendor", "num_players": 2, "clock": {"kind": "turn", "per_move": 86400}}
    assert host.request.post(server + "/api/tables", data=body).ok
    page = new_page()
    page.set_viewport_size(PHONE)
    page.context.add_cookies([{"name": "lang", "value": language, "url": server}])
    for path, ready in (
        ("/", "[data-testid=table-row]"),
        ("/leaderboard", "h1"),
        ("/howto/duel", "[data-testid=howto-body] h1"),
    ):
        page.goto(path)
        page.wait_for_selector(ready)
        assert page.evaluate("() => document.documentElement.lang") == language
        width = page.evaluate("() => document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            screenshot(page, f"layout-failed-{language}{path.replace('/', '-')}")
        assert width <= PHONE["width"], f"{path} in {language} is {width} px wide"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_community_pages_fit_a_phone_in_each_language(new_page, server, language):
    """The pages of a logged-in player (issue 32: settings, my games, friends, the
    tournaments and a tournament's own page) scroll only down at 390 px: the settings'
    table of notification switches was 397 px wide in Dutch, the tournament form 451."""
    page = new_page()
    page.set_viewport_size(PHONE)
    page.context.add_cookies([{"name": "lang", "value": language, "url": server}])
    name = f"Layout {language} {random.randrange(10**6)}"
    signed = page.request.post(
        server + "/api/players/signup", data={"name": name, "password": "correct horse"}
    )
    assert signed.ok, signed.text()
    made = page.request.post(
        server + "/api/tournaments",
        data={"name": "Phone cup", "game": "duel", "format": "swiss", "max_players": 8},
    )
    assert made.ok, made.text()
    for path in (
        "/settings",
        "/games",
        "/friends",
        "/tournaments",
        f"/tournaments/{made.json()['id']}",
    ):
        page.goto(path)
        page.wait_for_selector("main h1")
        page.wait_for_load_state("networkidle")
        assert page.evaluate("() => document.documentElement.lang") == language
        width = page.evaluate("() => document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            screenshot(page, f"layout-failed-{language}{path.replace('/', '-')}")
        assert width <= PHONE["width"], f"{path} in {language} is {width} px wide"
