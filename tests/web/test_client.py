"""The client's own logic and pages, in the browser: notation reading agrees with the
engine for every action id of both games; the lobby (4-player table, invite links, copy);
spectators see the table but are offered nothing."""

from __future__ import annotations

import pytest

from splendor import classic, duel

from .conftest import screenshot
from .ui import create_in_lobby, offered_notations, root_data, wait_ready

# engine kind → the client's kind (notation.js)
CLASSIC_KINDS = {
    "take3": "take",
    "take2_different": "take",
    "take1": "take",
    "take2_same": "take",
    "reserve_faceup": "reserve",
    "reserve_deck": "reserve_deck",
    "buy_faceup": "buy",
    "buy_reserved": "buy",
    "buy_choose": "buy",
    "pay_gold": "pay_gold",
    "pay": "pay",
    "return": "return",
    "noble": "noble",
    "pass": "pass",
}
DUEL_KINDS = {
    "privilege": "privilege",
    "replenish": "replenish",
    "take": "take",
    "take_gold": "take_gold",
    "reserve_pyramid": "reserve",
    "reserve_deck": "reserve_deck",
    "buy": "buy",
    "buy_choose": "buy",
    "pay_gold": "pay_gold",
    "pay": "pay",
    "joker": "joker",
    "token": "token",
    "steal": "steal",
    "royal": "royal",
    "return": "return",
    "pass": "pass",
}


@pytest.mark.parametrize("game", ["splendor", "duel"])
def test_notation_reading_matches_the_engine(page, game):
    page.goto("/")
    module = classic if game == "splendor" else duel
    actions = [module.Action.from_id(i) for i in range(module.NUM_ACTIONS)]
    parsed = page.evaluate(
        """async ([game, notations]) => {
          const m = await import('/static/notation.js');
          return notations.map((n) => m.parseNotation(game, n));
        }""",
        [game, [str(a) for a in actions]],
    )
    kinds = CLASSIC_KINDS if game == "splendor" else DUEL_KINDS
    for a, p in zip(actions, parsed, strict=True):
        assert p["kind"] == kinds[a.kind], (str(a), p)
        if a.kind not in ("noble", "royal"):
            assert sorted(p["colors"]) == sorted(a.colors), (str(a), p)
        if game == "duel":
            assert sorted(p["cells"]) == sorted(a.cells), (str(a), p)
            assert p["reserved"] == a.reserved, (str(a), p)
        if a.level is not None:
            assert p["level"] == a.level, (str(a), p)
        if a.slot is not None:
            assert p["slot"] == a.slot, (str(a), p)
        assert p["choose"] == a.kind.endswith("choose")


def test_four_player_table_invites_and_spectators(new_page, server):
    page = new_page()
    made = create_in_lobby(
        page,
        "splendor",
        [
            {"type": "human", "name": "Ann"},
            {"type": "bot", "bot": "random"},
            {"type": "bot", "bot": "random"},
            {"type": "bot", "bot": "greedy"},
        ],
    )
    assert list(made["invites"]) == [0]
    assert made["invites"][0].endswith(made["created"]["seats"][0]["invite"])
    page.click("[data-testid=copy-0]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=copy-0]').textContent === 'copied'"
    )
    screenshot(page, "lobby-created")
    spectate = page.get_attribute("[data-testid=spectate-link]", "href")
    assert spectate.startswith(made["created"]["spectate"])
    page.click("[data-testid=open-seat-0]")
    wait_ready(page)
    assert page.locator("[data-testid^=player-]").count() == 4
    assert page.locator("[data-testid^=noble-]").count() == 5  # players + 1 (C1)
    assert page.locator("[data-testid=supply-W]").inner_text().strip() == "7"
    screenshot(page, "classic-4-players")

    # a spectator sees the table, is offered nothing, and is told so on a click (even in
    # the browser that holds the seat's token: the spectate link says so)
    watcher = page.context.new_page()
    watcher.goto(spectate)
    watcher.wait_for_selector("[data-testid=game-root][data-move]")
    data = root_data(watcher)
    assert data["seat"] == "" and data["yourTurn"] == "false"
    assert offered_notations(watcher) == set()
    watcher.click("[data-testid='card-1.1']")
    assert "watching" in watcher.inner_text("[data-testid=message]")
    assert watcher.locator("[data-testid=legal-actions]").count() == 0

    # the lobby remembers the game and says whose turn it is
    page.goto("/")
    row = page.locator(f"[data-testid=game-row-{made['game_id']}]")
    row.wait_for()
    assert row.get_attribute("data-status") == "active"
    screenshot(page, "lobby-list")


def test_unknown_game_and_bad_token(page, server):
    page.goto("/games/nosuchgame")
    page.wait_for_selector("[data-testid=fatal]")
    assert "no such game" in page.inner_text("[data-testid=fatal]")


def test_seat_tokens_never_travel_in_urls(new_page, server):
    """Issue 14 item 7: the invite link carries the token in its fragment, and nothing the
    browser sends (pages, API calls, the WebSocket) has it in a URL; an old ``?token=``
    link still opens the seat and is rewritten into the fragment. Every answer carries the
    security headers (and the pages work under the Content-Security-Policy: the
    ``new_page`` fixture fails on any violation)."""
    from .ui import play_by_clicking, token_of

    page = new_page()
    urls: list[str] = []
    page.on("request", lambda r: urls.append(r.url))
    page.on("websocket", lambda ws: urls.append(ws.url))
    made = create_in_lobby(
        page, "splendor", [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}]
    )
    token = token_of(made["invites"][0])
    assert f"#token={token}" in made["invites"][0]
    page.click("[data-testid=open-seat-0]")
    data = wait_ready(page)
    assert data["seat"] == "0"
    legal = [a["notation"] for a in page.evaluate("window.__splendor.state")["legal_actions"]]
    play_by_clicking(page, next((n for n in legal if n.startswith("take")), legal[0]))
    wait_ready(page, after_move=int(data["move"]))
    page.goto("/")
    page.locator(f"[data-testid=game-row-{made['game_id']}]").wait_for()
    assert any("/ws/games/" in u for u in urls) and any("/api/games/" in u for u in urls)
    assert not [u for u in urls if token in u or "token=" in u]

    old = new_page()  # an invite link of the old form
    response = old.goto(f"/games/{made['game_id']}?token={token}")
    assert wait_ready(old)["seat"] == "0"
    assert old.url.endswith(f"/games/{made['game_id']}#token={token}")
    headers = response.headers
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["x-frame-options"] == "DENY" and headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"


def test_a_move_note_is_shown_in_the_log(page):
    """A random action the server played for a bot that could not decide carries a note
    (issue 14, item 4); the move log shows it under that move, and only there."""
    page.goto("/")
    notes = page.evaluate(
        """async () => {
          const m = await import('/static/panels.js');
          const s = {seat: 0, seats: [{seat: 0, name: 'Ann'}, {seat: 1, name: 'greedy'}],
                     log: [{index: 0, seat: 0, notation: 'take W U G'},
                           {index: 1, seat: 1, notation: 'take R K G',
                            note: 'bot greedy could not decide'}]};
          const el = m.renderLog(s);
          return [...el.querySelectorAll('li')].map((li) =>
            (li.querySelector('[data-testid=log-note]') || {}).textContent || null);
        }"""
    )
    assert notes == [None, "bot greedy could not decide"]
