"""Keyboard play (issue 33), with ``page.keyboard`` only: the skip link first in the page,
roving focus over the supply, the cards, the nobles and the Duel board (one Tab stop per
group, the arrow keys inside it), Enter or Space on a token keeps the focus on it, Enter on
a card opens its menu with the focus on the first option, Escape closes it and gives the
focus back to the card, and the focus stays on the table when a move arrives."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from .ui import page_state, rest, wait_ready


def focused(page: Any) -> str:
    """The focused element's ``data-testid`` (its notation after a ``|``), or its tag."""
    return page.evaluate(
        """(() => { const e = document.activeElement;
          if (!e || e === document.body) return 'BODY';
          const id = e.dataset && e.dataset.testid;
          if (!id) return e.id || e.tagName;
          return e.dataset.notation ? id + '|' + e.dataset.notation : id; })()"""
    )


def expect_focus(page: Any, want: str) -> None:
    """Wait (up to 20 s: a move's redraw) until the focus is on ``want`` (:func:`focused`)."""
    page.wait_for_function(
        "(w) => { const e = document.activeElement; if (!e || !e.dataset) return false;"
        " const id = e.dataset.testid;"
        " return (e.dataset.notation ? id + '|' + e.dataset.notation : id) === w; }",
        arg=want,
        timeout=20_000,
    )


def press_until(page: Any, key: str, want: str, most: int = 12) -> int:
    """Press ``key`` until the focus is on ``want`` (a test id, or its prefix ending in
    ``*``); the number of presses (fails after ``most``)."""
    for n in range(most + 1):
        got = focused(page)
        if got == want or (want.endswith("*") and got.startswith(want[:-1])):
            return n
        page.keyboard.press(key)
    raise AssertionError(f"{key} ×{most}: focus on {focused(page)}, not {want}")


def two_people(server: str, game: str) -> tuple[str, list[str]]:
    made = rest(
        server,
        "/api/games",
        {
            "game": game,
            "seats": [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}],
        },
    )
    return made["game_id"], [s["token"] for s in made["seats"]]


def bob_plays(server: str, gid: str, token: str) -> None:
    """Bob takes tokens (his first legal take, by REST) until it is Ann's turn again."""
    while True:
        state = rest(server, f"/api/games/{gid}", token=token)
        if state["current_player"] != 1:
            return
        legal = state["legal_actions"]
        action = next((a for a in legal if a["notation"].startswith("take")), legal[0])["id"]
        rest(server, f"/api/games/{gid}/actions", {"action": action, "move": state["move"]}, token)


def test_a_classic_game_by_keyboard(new_page: Any, server: str) -> None:
    gid, tokens = two_people(server, "splendor")
    page = new_page()
    page.goto(f"/games/{gid}#token={tokens[0]}")
    wait_ready(page)
    # the skip link comes first, and leads to the table
    page.keyboard.press("Tab")
    assert focused(page) == "skip-link"
    expect(page.locator("[data-testid=skip-link]")).to_have_text("Skip to the table")
    page.keyboard.press("Enter")
    assert focused(page) == "game-table"
    # one Tab stop per group: the nobles, the cards, the supply
    page.keyboard.press("Tab")
    assert focused(page) == "noble-1"
    page.keyboard.press("ArrowRight")
    assert focused(page) == "noble-2"
    page.keyboard.press("Tab")
    assert focused(page) == "deck-3"
    page.keyboard.press("Tab")
    assert focused(page) == "supply-W"
    # Enter and Space pick tokens; the focus stays on the token
    page.keyboard.press("Enter")
    assert focused(page) == "supply-W"
    expect(page.locator("[data-testid=supply-W]")).to_have_attribute("data-selected", "1")
    page.keyboard.press("ArrowRight")
    page.keyboard.press(" ")
    assert focused(page) == "supply-U"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    assert focused(page) == "supply-G"
    expect(page.locator("[data-testid=supply-G]")).to_have_attribute("aria-pressed", "true")
    # Escape clears the selection, the focus stays; then the same three again
    page.keyboard.press("Escape")
    expect(page.locator("[data-testid=selection]")).to_have_count(0)
    assert focused(page) == "supply-G"
    for key in ("Home", "Enter", "ArrowRight", "Enter", "ArrowRight", "Enter"):
        page.keyboard.press(key)
    assert focused(page) == "supply-G"
    # the confirm button is before the table (the action bar): back with Shift+Tab
    press_until(page, "Shift+Tab", "confirm|take W U G")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.__splendor.state.move >= 1")
    # the move made, the focus is back on the supply
    expect_focus(page, "supply-G")
    assert page_state(page)["observation"]["tokens"][0][:3] == [1, 1, 1]
    # Bob moves: the redraw keeps Ann's focus
    bob_plays(server, gid, tokens[1])
    wait_ready(page, after_move=1)
    assert focused(page) == "supply-G"
    # Enter on a card: its menu, the focus on its first option; Escape gives it back
    page.keyboard.press("Shift+Tab")
    assert focused(page) == "deck-3"
    page.keyboard.press("ArrowRight")
    assert focused(page) == "card-3.1"
    page.keyboard.press("Enter")
    expect(page.locator("[data-testid=card-menu]")).to_be_visible()
    assert focused(page).startswith("menu-action|")
    page.keyboard.press("Escape")
    expect(page.locator("[data-testid=card-menu]")).to_have_count(0)
    assert focused(page) == "card-3.1"
    # the menu again: down to "reserve card 3.1", Enter; the focus is back on the card
    page.keyboard.press("Enter")
    press_until(page, "ArrowDown", "menu-action|reserve 3.1", most=4)
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.__splendor.state.move >= 3")
    expect_focus(page, "card-3.1")
    assert page_state(page)["observation"]["reserved_level"][0][0] == 3
    # ArrowDown moves between the levels' rows
    page.keyboard.press("ArrowDown")
    assert focused(page) == "card-2.1"
    # Resign asks first, its dialog focused; Escape closes it and gives the focus back
    press_until(page, "Tab", "resign", most=40)
    page.keyboard.press("Enter")
    expect(page.locator("[data-testid=resign-dialog]")).to_be_visible()
    assert focused(page) == "resign-confirm"
    page.keyboard.press("Escape")
    expect(page.locator("[data-testid=resign-dialog]")).to_have_count(0)
    expect_focus(page, "resign")


def first_cell(state: dict, gold: bool) -> tuple[str, int, int]:
    """The first board cell (row by row) holding gold (or any other token): its name, row
    and column."""
    board = state["observation"]["board"]
    for i, v in enumerate(board):
        if v >= 0 and (v == 6) == gold:
            return "abcde"[i % 5] + str(i // 5 + 1), i // 5, i % 5
    raise AssertionError("no such cell")


def go_to_cell(page: Any, row: int, col: int) -> None:
    """From a1, the arrows to the cell at ``row``, ``col``."""
    page.keyboard.press("Home")
    for _ in range(row):
        page.keyboard.press("ArrowDown")
    for _ in range(col):
        page.keyboard.press("ArrowRight")


def test_a_duel_take_and_reserve_by_keyboard(new_page: Any, server: str) -> None:
    gid, tokens = two_people(server, "duel")
    page = new_page()
    page.goto(f"/games/{gid}#token={tokens[0]}")
    wait_ready(page)
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert focused(page) == "cell-a1"
    name, row, col = first_cell(page_state(page), gold=False)
    go_to_cell(page, row, col)
    assert focused(page) == f"cell-{name}"
    page.keyboard.press("Enter")
    assert focused(page) == f"cell-{name}"
    expect(page.locator(f"[data-testid=cell-{name}]")).to_have_attribute("aria-pressed", "true")
    press_until(page, "Shift+Tab", f"confirm|take {name}")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.__splendor.state.move >= 1")
    expect_focus(page, f"cell-{name}")
    bob_plays(server, gid, tokens[1])
    wait_ready(page, after_move=1)
    # the gold, then the card to reserve, from its menu
    name, row, col = first_cell(page_state(page), gold=True)
    page.keyboard.press("ArrowUp")
    go_to_cell(page, row, col)
    page.keyboard.press("Enter")
    press_until(page, "Shift+Tab", f"confirm|gold {name}")
    move = page_state(page)["move"]
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => window.__splendor.state.move > {move}")
    wait_ready(page, after_move=move)
    press_until(page, "Tab", "deck-3")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    assert focused(page) == "card-1.1"
    page.keyboard.press("Enter")
    assert focused(page) == "menu-action|reserve 1.1"
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => window.__splendor.state.move > {move + 1}")
    obs = page_state(page)["observation"]
    assert obs["reserved_level"][0][0] == 1
    expect_focus(page, "card-1.1")


def test_a_select_of_open_a_table_keeps_the_focus(page: Any) -> None:
    """Changing a select of the lobby's "Open a table" redraws the form: the focus stays on
    the select (the next key changes it again)."""
    page.goto("/")
    page.wait_for_selector("[data-testid=open-table-submit]")
    page.keyboard.press("Tab")
    assert focused(page) == "skip-link"
    expect(page.locator("[data-testid=skip-link]")).to_have_text("Skip to content")
    press_until(page, "Tab", "open-table-game", most=80)
    before = page.input_value("[data-testid=open-table-game]")
    page.keyboard.press("ArrowDown")
    expect(page.locator("[data-testid=open-table-game]")).not_to_have_value(before)
    assert focused(page) == "open-table-game"
    press_until(page, "Tab", "open-table-clock")
    page.keyboard.press("ArrowDown")
    assert focused(page) == "open-table-clock"
