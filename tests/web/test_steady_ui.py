"""A steady table on a phone (issue 33): nothing a player does moves what they are about to
tap. At 390×844, in classic games of 2, 3 and 4 players and in Duel, the player taps
tokens (a legal take, then a refused one), a card (its menu opens) and closes the menu,
with the finger where the targets were before the first tap (``page.mouse``, never a
locator's click, which would scroll the target into view first); after every tap the
board and the tapped target are where they were, within 1 px.
"""

from __future__ import annotations

import pytest

from .conftest import screenshot
from .ui import page_state, rest, wait_ready

PHONE = {"width": 390, "height": 844}
CLASSIC_LETTERS = "WUGRK"

RECT = """(sel) => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return {left: r.left, top: r.top, width: r.width, height: r.height};
}"""

# a card of the table that a tap at its centre reaches (all on the screen, under no bar)
CARD_ON_SCREEN = """() => {
  for (const el of document.querySelectorAll('.board-area .card[data-card]')) {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (r.top > 0 && r.bottom < innerHeight && el.contains(document.elementFromPoint(x, y)))
      return el.dataset.testid;
  }
  return null;
}"""


def open_seat(new_page, server: str, game: str, players: int, scrolled: bool):
    """Ann's page (seat 0, the bots at the other seats) at phone size, on her first turn,
    with nothing moving. Not ``scrolled``: as a browser without scroll anchoring (Safari
    before 2024) sees it (``overflow-anchor: none``), scrolled as little as brings the
    tokens on the screen (not at all when they are); ``scrolled``: Chromium's scroll
    anchoring on, the tokens mid-screen (the anchoring hides some shifts there)."""
    seats = [{"type": "human", "name": "Ann"}]
    seats += [{"type": "bot", "bot": "random"}] * (players - 1)
    made = rest(server, "/api/games", {"game": game, "seats": seats})
    page = new_page()
    page.set_viewport_size(PHONE)
    page.goto(made["seats"][0]["invite"])
    wait_ready(page)
    page.wait_for_function("() => document.getAnimations().length === 0")
    tokens = "[data-testid=board]" if game == "duel" else "[data-testid=supply]"
    if not scrolled:
        page.evaluate(
            "(sel) => { document.documentElement.style.overflowAnchor = 'none';"
            " const r = document.querySelector(sel).getBoundingClientRect();"
            " const below = r.bottom - (innerHeight - 100);"
            " if (below > 0) window.scrollBy(0, below); }",
            tokens,
        )
        return page
    page.evaluate(
        "([sel, y]) => { const r = document.querySelector(sel).getBoundingClientRect();"
        " window.scrollTo(0, scrollY + r.top - y); }",
        [tokens, 180 if game == "duel" else 330],
    )
    return page


def taps(page, game: str) -> list[str]:
    """The targets to tap, in order: the tokens of a legal take of three, one more token
    (refused: a fourth), a card of the table that a finger reaches then (``CARD``: its
    menu opens; ``MENU-CLOSE``: its Cancel), then the first token again."""
    legal = [a["notation"] for a in page_state(page)["legal_actions"]]
    take = next(a.split()[1:] for a in legal if a.startswith("take ") and len(a.split()) == 4)
    if game == "duel":
        targets = [f"[data-testid=cell-{c}]" for c in take]
        extra = page.evaluate(
            "(taken) => [...document.querySelectorAll('[data-testid^=cell-][data-token]')]"
            ".map((el) => el.dataset.cell).find((c) => c && !taken.includes(c))",
            take,
        )
        targets.append(f"[data-testid=cell-{extra}]")
    else:
        targets = [f"[data-testid=supply-{c}]" for c in take]
        other = next(c for c in CLASSIC_LETTERS if c not in take)
        targets.append(f"[data-testid=supply-{other}]")
    return [*targets, "CARD", "MENU-CLOSE", targets[0]]


def moved(a: dict, b: dict) -> float:
    return max(abs(a[k] - b[k]) for k in ("left", "top", "width", "height"))


@pytest.mark.parametrize("scrolled", [False, True], ids=["no-anchoring", "scrolled"])
@pytest.mark.parametrize(
    ("game", "players"), [("splendor", 2), ("splendor", 3), ("splendor", 4), ("duel", 2)]
)
def test_taps_move_nothing(new_page, server, game, players, scrolled):
    page = open_seat(new_page, server, game, players, scrolled)
    board = page.evaluate(RECT, ".board-area")
    assert board and board["height"] > 100, board
    sequence = taps(page, game)
    where = {s: page.evaluate(RECT, s) for s in sequence if s[0] == "["}
    problems = []
    card = None
    for i, target in enumerate(sequence):
        if target == "CARD":
            card = page.evaluate(CARD_ON_SCREEN)
            if card is None:  # Duel: the pyramid may be below the screen
                assert game == "duel", "no card of the table on the screen"
                continue
            target = f"[data-testid='{card}']"
            where[target] = page.evaluate(RECT, target)
        if target == "MENU-CLOSE":
            if not page.locator("[data-testid=card-menu]").count() and card is None:
                continue
            if game == "duel" and not page.locator("[data-testid=card-menu]").count():
                # a Duel card nobody can buy yet gets no menu (a reserve takes a gold
                # first) but the reason, in the tray
                page.wait_for_function(
                    "() => document.querySelector('[data-testid=message]').textContent"
                )
                continue
            cancel = page.evaluate(RECT, "[data-testid=menu-cancel]")
            if not cancel:
                problems.append("the card's menu did not open")
                continue
            if cancel["top"] + cancel["height"] < PHONE["height"]:
                page.mouse.click(
                    cancel["left"] + cancel["width"] / 2, cancel["top"] + cancel["height"] / 2
                )
            else:
                page.keyboard.press("Escape")
            page.wait_for_function("() => !document.querySelector('[data-testid=card-menu]')")
        else:
            r = where[target]
            assert 0 < r["top"] and r["top"] + r["height"] < PHONE["height"], (target, r)
            page.mouse.click(r["left"] + r["width"] / 2, r["top"] + r["height"] / 2)
            page.mouse.move(0, PHONE["height"] - 1)  # no hover effect: a finger leaves
            page.wait_for_timeout(150)
            now = page.evaluate(RECT, target)
            if moved(now, r) > 1:
                problems.append(f"tap {i} ({target}) moved it: {r} -> {now}")
        now_board = page.evaluate(RECT, ".board-area")
        if moved(now_board, board) > 1:
            problems.append(f"tap {i} ({target}) moved the board: {board} -> {now_board}")
        if i == 2:  # a legal take of three: the confirm button is there, in view
            c = page.evaluate(RECT, "[data-testid=confirm]")
            out = not c or c["top"] + c["height"] > PHONE["height"]
            if out or min(c["width"], c["height"]) < 40:
                problems.append(f"no confirm button of 40 px on the screen: {c}")
    if problems:
        screenshot(page, f"steady-{game}-{players}-{'scrolled' if scrolled else 'no-anchoring'}")
    assert not problems, problems
    # the selection, once shown, is still there to confirm the take
    assert page.locator("[data-testid=selection]").count() == 1
