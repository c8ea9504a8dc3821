"""Real-time games in the browser, to their end: two guests meet through the lobby, play a
rated Splendor Duel on a 5 min + 15 s clock move by move (each from their own page, by
clicking the table) until the game is over, and their ratings change; and a time-out,
where nobody moves and the server ends the game when the first player's bank runs out.

The test server takes clocks of 2 s and more (``Limits(min_clock=2)`` in the fixture);
a server started with the defaults takes 60 s and more.
"""

from __future__ import annotations

import re
import secrets
import time

from playwright.sync_api import expect

from .conftest import screenshot
from .ui import in_same_game, open_table, play_between, rest, sign_up


def _meet(ann, bob, table: dict) -> str:
    """Bob joins Ann's table from the live lobby list; both pages go to its game, Ann at
    seat 0 and Bob at seat 1. Returns the game id."""
    row = bob.locator(f"[data-testid=table-row][data-table-id='{table['id']}']")
    expect(row).to_be_visible()
    row.locator("[data-testid=join]").click()
    return in_same_game([ann, bob])


def _guests(new_page) -> tuple:
    """Ann's and Bob's pages (an account each: rated games are for accounts) on the lobby,
    its socket live, and their ids."""
    pages, ids = [], []
    suffix = secrets.token_hex(2)
    for name in ("Ann", "Bob"):
        page = new_page()
        page.goto("/")
        ids.append(sign_up(page, f"{name} {suffix}"))
        expect(page.locator("[data-testid=lobby-connection]")).to_have_attribute(
            "data-state", "open"
        )
        pages.append(page)
    return pages[0], pages[1], ids[0], ids[1]


def _duel_rating(server: str, player_id: str) -> dict | None:
    """The player's Splendor Duel rating from their player page's API, or None."""
    entry = rest(server, f"/api/players/{player_id}")["ratings"].get("duel")
    return None if entry is None else entry["rating"]


def _wait_rated(server: str, player_ids: list[str]) -> list[dict]:
    """The Duel ratings of the players once the game's ratings are applied (right after it
    ends)."""
    deadline = time.time() + 15
    while True:
        ratings = [_duel_rating(server, p) for p in player_ids]
        if all(r is not None for r in ratings):
            return [r for r in ratings if r is not None]
        assert time.time() < deadline, f"no Duel ratings for {player_ids}: {ratings}"
        time.sleep(0.3)


def test_two_guests_play_a_rated_realtime_game_to_the_end(new_page, server, meta):
    ann, bob, ann_id, bob_id = _guests(new_page)
    for pid in (ann_id, bob_id):
        assert _duel_rating(server, pid) is None
    table = open_table(ann, game="duel", clock="5+15", visibility="open")
    assert table["rated"] is True
    _meet(ann, bob, table)
    for page in (ann, bob):
        expect(page.locator("[data-testid=clock-0]")).to_have_attribute("data-running", "true")

    data = play_between([ann, bob], meta["games"]["duel"]["tables"], seed=3)
    assert data["status"] == "finished"
    outcomes = []
    for page in (ann, bob):
        root = page.locator("[data-testid=game-root]")
        expect(root).to_have_attribute("data-status", "finished")
        expect(page.locator("[data-testid=result-text]")).to_be_visible()
        # the game ended by the rules, not by a forfeit: no clock runs any more
        expect(page.locator("[data-testid=result-text]")).not_to_contain_text("forfeit")
        for seat in (0, 1):
            expect(page.locator(f"[data-testid=clock-{seat}]")).to_have_attribute(
                "data-running", "false"
            )
        outcomes.append(page.get_attribute("[data-testid=your-outcome]", "data-outcome"))
    screenshot(ann, "realtime-game-over")
    state = ann.evaluate("window.__splendor.state")
    winners = state["result"]["winners"]
    expected = ["won" if seat in winners else "lost" for seat in (0, 1)]
    if len(winners) != 1:
        expected = ["draw", "draw"]
    assert outcomes == expected, (outcomes, state["result"])

    # the ratings changed: both players now have a Duel rating from this one game, the
    # winner's above the loser's (a shared result: equal)
    ratings = _wait_rated(server, [ann_id, bob_id])
    assert [r["games"] for r in ratings] == [1, 1], ratings
    assert all(r["deviation"] < 350 for r in ratings), ratings
    if len(winners) == 1:
        w = winners[0]
        assert ratings[w]["value"] > 1500 > ratings[1 - w]["value"], ratings
    # the player page shows it
    ann.goto(f"/players/{ann_id}")
    expect(ann.locator("[data-testid=player-ratings] tbody tr")).to_have_count(1)
    expect(ann.locator("[data-testid=player-ratings]")).to_contain_text("Splendor Duel")


def test_a_player_whose_time_runs_out_loses(new_page, server):
    ann, bob, ann_id, bob_id = _guests(new_page)
    bob_name = bob.locator("[data-testid=identity-name]").inner_text()
    ann_name = ann.locator("[data-testid=identity-name]").inner_text()
    # a 3 s bank and no increment (the lobby's form offers only the usual clocks; the API
    # takes any clock from the server's minimum on)
    table = ann.evaluate(
        """async (body) => {
            const r = await fetch('/api/tables', {method: 'POST',
              headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
            return await r.json();
        }""",
        {
            "game": "duel",
            "visibility": "open",
            "clock": {"kind": "realtime", "base": 3, "increment": 0},
        },
    )
    assert table["clock"] == {"kind": "realtime", "base": 3, "increment": 0}, table
    _meet(ann, bob, table)
    # Ann (seat 0) has the first decision and makes none: her clock runs down to 0:00 and
    # the server ends the game; nobody's page has to say anything
    for page in (ann, bob):
        root = page.locator("[data-testid=game-root]")
        expect(root).to_have_attribute("data-status", "finished")
        expect(page.locator("[data-testid=result-text]")).to_contain_text(
            f"{bob_name} wins by forfeit"
        )
        expect(page.locator("[data-testid=result-text]")).to_contain_text(
            f"{ann_name} ran out of time"
        )
        expect(page.locator("[data-testid=clock-0]")).to_have_attribute("data-remaining", "0")
        expect(page.locator("[data-testid=clock-0]")).to_have_attribute("data-running", "false")
        expect(page.locator("[data-testid=clock-0]")).to_have_text(re.compile(r"^0:00$"))
    expect(ann.locator("[data-testid=your-outcome]")).to_have_attribute("data-outcome", "lost")
    expect(bob.locator("[data-testid=your-outcome]")).to_have_attribute("data-outcome", "won")
    screenshot(ann, "realtime-time-out")
    # a rated game: the time-out counts as a loss
    ratings = _wait_rated(server, [ann_id, bob_id])
    assert ratings[1]["value"] > 1500 > ratings[0]["value"], ratings
