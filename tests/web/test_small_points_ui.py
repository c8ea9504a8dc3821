"""The smaller points of issue 33, each in the browser:

- a selection that is no action at all (classic ``W W U``, a Duel gap) is refused by the
  page itself: no request answered 4xx (no 400 from ``/explain``), and a finished game's
  page reads its analysis without a 404 (nobody asked: ``{"status": "none"}``);
- the turn a person reads is counted from 1;
- the lobby's seats are numbered from 1 (the form and the invite list);
- each bot level in the seat selects says what it does (greedy and easy side by side);
- signing up in one tab updates the identity bar of another open tab, without a reload;
- a replay opens at the first position, the board above the result.
"""

from __future__ import annotations

import re
import secrets

from playwright.sync_api import expect

from .ui import create_in_lobby, rest, sign_up, wait_ready

DESKTOP = {"width": 1366, "height": 900}


def failures(page) -> list[str]:
    """The page's responses of 400 and more, as ``"STATUS URL"`` (grows as they come)."""
    seen: list[str] = []
    page.on("response", lambda r: seen.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    return seen


def test_partial_selections_ask_the_server_nothing_it_refuses(new_page, server):
    for game in ("splendor", "duel"):
        seats = [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}]
        made = rest(server, "/api/games", {"game": game, "seats": seats})
        page = new_page()
        page.set_viewport_size(DESKTOP)
        bad = failures(page)
        page.goto(made["seats"][0]["invite"])
        wait_ready(page)
        message = page.locator("[data-testid=message]")
        if game == "splendor":
            for c in ("W", "W", "U"):  # two of one colour, then another: no action at all
                page.click(f"[data-testid=supply-{c}]")
        else:
            cells = page.evaluate(
                "() => [...document.querySelectorAll('[data-testid^=cell-]')]"
                ".filter((el) => el.dataset.token && el.dataset.token !== '*')"
                ".map((el) => el.dataset.cell)"
            )
            far = next(
                (a, b)
                for a in cells
                for b in cells
                if abs(ord(a[0]) - ord(b[0])) > 2 or abs(int(a[1]) - int(b[1])) > 2
            )
            for c in far:  # too far apart for any line of three: no action at all
                page.click(f"[data-testid=cell-{c}]")
        expect(message).not_to_have_text("")
        page.wait_for_timeout(300)
        assert not bad, bad
        # the turn a person reads is counted from 1
        meta = page.locator(".game-header .meta")
        turn = page.evaluate("window.__splendor.state.turn")
        expect(meta).to_contain_text(f"turn {turn + 1}")

    # a finished game: its analysis read without a 404 (nobody asked for one)
    duel = rest(
        server,
        "/api/games",
        {"game": "duel", "seats": [{"type": "human", "name": n} for n in ("Ann", "Bob")]},
    )
    rest(server, f"/api/games/{duel['game_id']}/resign", {}, duel["seats"][1]["token"])
    page = new_page()
    bad = failures(page)
    with page.expect_response(re.compile(r"/analysis$")) as answer:
        page.goto(f"/games/{duel['game_id']}#token={duel['seats'][0]['token']}")
    assert answer.value.status == 200 and answer.value.json()["status"] == "none"
    expect(page.locator("[data-testid=analysis-ask]")).to_be_visible()
    assert not bad, bad


def test_lobby_seats_from_1_and_bots_explained(page):
    page.goto("/")
    page.select_option("[data-testid=game-select]", "splendor")
    page.select_option("[data-testid=players-select]", "3")
    labels = page.locator(".create .seat-row .lbl").all_text_contents()
    assert labels == ["seat 1", "seat 2", "seat 3"], labels
    page.select_option("[data-testid=seat-type-1]", "bot")
    bots = page.locator("[data-testid=seat-bot-1] option")
    titles = {
        bots.nth(k).get_attribute("value"): bots.nth(k).get_attribute("title")
        for k in range(bots.count())
    }
    assert all(titles.values()), titles
    assert titles["greedy"] != titles["easy"]
    help_line = page.locator("[data-testid=seat-bot-help-1]")
    page.select_option("[data-testid=seat-bot-1]", "greedy")
    expect(help_line).to_have_text(titles["greedy"])
    page.select_option("[data-testid=seat-bot-1]", "easy")
    expect(help_line).to_have_text(titles["easy"])
    assert page.get_attribute("[data-testid=seat-bot-1]", "aria-describedby") == "seat-bot-help-1"

    made = create_in_lobby(
        page, "duel", [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "greedy"}]
    )
    items = page.locator("[data-testid=created] li").all_text_contents()
    assert items[0].startswith("seat 1:") and items[1].startswith("seat 2:"), items
    assert made["game_id"]


def test_signing_up_in_one_tab_updates_the_others(new_page):
    first = new_page()
    second = first.context.new_page()
    for p in (first, second):
        p.goto("/")
        expect(p.locator("[data-testid=identity]")).to_have_attribute("data-state", "anonymous")
    name = f"Tab {secrets.token_hex(3)}"
    player_id = sign_up(first, name)
    bar = second.locator("[data-testid=identity]")
    expect(bar).to_have_attribute("data-state", "account")
    assert bar.get_attribute("data-player-id") == player_id
    expect(second.locator("[data-testid=identity-name]")).to_have_text(name)
    first.click("[data-testid=logout]")
    expect(bar).to_have_attribute("data-state", "anonymous")


def test_a_replay_opens_at_the_start_with_the_board_first(page, server):
    duel = rest(
        server,
        "/api/games",
        {"game": "duel", "seats": [{"type": "human", "name": n} for n in ("Ann", "Bob")]},
    )
    gid, tokens = duel["game_id"], [s["token"] for s in duel["seats"]]
    for _ in range(3):
        seat = rest(server, f"/api/games/{gid}")["current_player"]
        state = rest(server, f"/api/games/{gid}", token=tokens[seat])
        body = {"action": state["legal_actions"][0]["id"], "move": state["move"]}
        rest(server, f"/api/games/{gid}/actions", body, tokens[seat])
    rest(server, f"/api/games/{gid}/resign", {}, tokens[1])
    page.goto(f"/games/{gid}/replay")
    root = page.locator("[data-testid=replay-root]")
    expect(root.locator("[data-testid=table]")).to_be_visible()
    expect(root).to_have_attribute("data-frame", "0")
    expect(page.locator("[data-testid=replay-info]")).to_contain_text("start of the game")
    board = page.locator("[data-testid=table]").bounding_box()
    result = page.locator("[data-testid=result]").bounding_box()
    assert board and result and board["y"] < result["y"], (board, result)
