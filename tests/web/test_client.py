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
    "take3": "take", "take2_different": "take", "take1": "take", "take2_same": "take",
    "reserve_faceup": "reserve", "reserve_deck": "reserve_deck", "buy_faceup": "buy",
    "buy_reserved": "buy", "buy_choose": "buy", "pay_gold": "pay_gold", "pay": "pay",
    "return": "return", "noble": "noble", "pass": "pass",
}
DUEL_KINDS = {
    "privilege": "privilege", "replenish": "replenish", "take": "take", "take_gold": "take_gold",
    "reserve_pyramid": "reserve", "reserve_deck": "reserve_deck", "buy": "buy", "buy_choose": "buy",
    "pay_gold": "pay_gold", "pay": "pay", "joker": "joker", "token": "token", "steal": "steal",
    "royal": "royal", "return": "return", "pass": "pass",
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
    for a, p in zip(actions, parsed):
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
    made = create_in_lobby(page, "splendor", [
        {"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"},
        {"type": "bot", "bot": "random"}, {"type": "bot", "bot": "greedy"},
    ])
    assert list(made["invites"]) == [0]
    assert made["invites"][0].endswith(made["created"]["seats"][0]["invite"])
    page.click("[data-testid=copy-0]")
    page.wait_for_function("document.querySelector('[data-testid=copy-0]').textContent === 'copied'")
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
