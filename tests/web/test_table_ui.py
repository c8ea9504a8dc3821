"""The game page around the table, in the browser: two guests meet at a rated Splendor
Duel table with a real-time clock (5 min + 15 s); both see the clocks (the running one
ticks), a watcher is counted, they chat (a hostile message stays text), one resigns and
both pages show the result; then the leaderboard lists both, the winner first.

Two browser contexts, each its own guest, serve the module (two guest sign-ins), and one
more context watches without logging in.
"""

from __future__ import annotations

import re
import secrets
import time

import pytest
from playwright.sync_api import expect

from .conftest import open_page, screenshot
from .ui import in_same_game, open_table, rest, sign_up

HOSTILE = "<img src=x onerror=alert(1)> hi"
ANN, BOB = (f"{name} {secrets.token_hex(2)}" for name in ("Ann", "Bob"))
"""The accounts of the rated table (accounts' names are unique on the tests' server)."""
REALTIME = re.compile(r"^\d+:\d\d$")


def _remaining(page, seat: int) -> int:
    return int(page.get_attribute(f"[data-testid=clock-{seat}]", "data-remaining") or -1)


@pytest.fixture(scope="module")
def table(browser, server):
    """Ann (seat 0) and Bob (seat 1) on the game page of a rated Duel with a 5 min + 15 s
    clock that they met at through the lobby: ``(ann, bob, ids, game_id, errors)``."""
    contexts, pages, ids, errors = [], [], [], []
    for name in (ANN, BOB):  # accounts: rated games are for accounts
        page = open_page(browser, server, errors, contexts)
        page.goto("/")
        ids.append(sign_up(page, name))
        pages.append(page)
    ann, bob = pages
    expect(ann.locator("[data-testid=lobby-connection]")).to_have_attribute("data-state", "open")
    expect(ann.locator("[data-testid=open-table-rated]")).to_be_checked()
    opened = open_table(ann, game="duel", clock="5+15", visibility="open")
    assert opened["rated"] is True
    bob.goto(f"/tables/{opened['id']}")
    bob.click("[data-testid=join]")
    yield ann, bob, ids, in_same_game(pages), errors
    for ctx in contexts:
        ctx.close()


def test_clocks_spectators_and_chat(table, browser, server):
    ann, bob, _ids, gid, errors = table
    for page in (ann, bob):
        expect(page.locator("[data-testid=clock-0]")).to_have_attribute("data-running", "true")
        expect(page.locator("[data-testid=clock-1]")).to_have_attribute("data-running", "false")
        expect(page.locator("[data-testid=clock-1]")).to_have_attribute("data-remaining", "300")
        expect(page.locator("[data-testid=clock-1]")).to_have_text("5:00")
        assert REALTIME.match(page.inner_text("[data-testid=clock-0]"))
    # the running clock (Ann's, seat 0 plays first) ticks on both pages
    before = [_remaining(page, 0) for page in (ann, bob)]
    assert all(0 < r <= 300 for r in before), before
    time.sleep(2.2)
    after = [_remaining(page, 0) for page in (ann, bob)]
    assert all(a < b for a, b in zip(after, before, strict=True)), (before, after)
    assert _remaining(bob, 1) == 300  # the stopped one does not
    # the display formats (turn-based: the time left for the turn)
    formats = ann.evaluate(
        """async () => {
            const c = await import('/static/clock.js');
            return [c.formatClock(272, 'realtime'), c.formatClock(3725, 'realtime'),
                    c.formatClock(83400, 'turn'), c.formatClock(180000, 'turn'),
                    c.formatClock(95, 'turn')];
        }"""
    )
    assert formats == ["4:32", "1:02:05", "23 h 10 min", "2 d 2 h", "1:35"]

    # nobody watches; then a visitor who is not logged in does: counted, reads the chat only
    for page in (ann, bob):
        expect(page.locator("[data-testid=spectators]")).to_have_attribute("data-count", "0")
    watching: list = []
    try:
        watcher = open_page(browser, server, errors, watching)
        watcher.goto(f"/games/{gid}")
        expect(watcher.locator("[data-testid=game-root]")).to_have_attribute("data-seat", "")
        for page in (ann, bob, watcher):
            expect(page.locator("[data-testid=spectators]")).to_have_attribute("data-count", "1")
            expect(page.locator("[data-testid=spectators]")).to_contain_text("watching: 1")
        expect(watcher.locator("[data-testid=chat]")).to_be_visible()
        expect(watcher.locator("[data-testid=chat-input]")).to_be_hidden()
        expect(watcher.locator("[data-testid=chat-send]")).to_be_hidden()
        expect(watcher.locator("[data-testid=resign]")).to_have_count(0)
        expect(watcher.locator("[data-testid=clock-0]")).to_have_attribute("data-running", "true")

        # chat: Ann sends with the button, Bob with Enter; everybody sees both, as text
        expect(ann.locator("[data-testid=chat-message]")).to_have_count(0)
        ann.fill("[data-testid=chat-input]", HOSTILE)
        ann.click("[data-testid=chat-send]")
        expect(ann.locator("[data-testid=chat-input]")).to_have_value("")
        bob.fill("[data-testid=chat-input]", "good luck")
        bob.press("[data-testid=chat-input]", "Enter")
        for page in (ann, bob, watcher):
            messages = page.locator("[data-testid=chat-message]")
            expect(messages).to_have_count(2)
            expect(messages.nth(0).locator("[data-testid=chat-text]")).to_have_text(HOSTILE)
            expect(messages.nth(0)).to_contain_text("Ann")
            expect(messages.nth(1)).to_contain_text("Bob")
            expect(messages.nth(1).locator("[data-testid=chat-text]")).to_have_text("good luck")
            assert page.evaluate("document.querySelectorAll('img, [onerror]').length") == 0
        screenshot(watcher, "table-watcher")
    finally:
        for ctx in watching:
            ctx.close()
    for page in (ann, bob):
        expect(page.locator("[data-testid=spectators]")).to_have_attribute("data-count", "0")

    # the server's refusal shows next to the input (nothing left once cleaned)
    ann.fill("[data-testid=chat-input]", "\u200b\u200b")
    ann.press("[data-testid=chat-input]", "Enter")
    expect(ann.locator("[data-testid=chat-error]")).to_contain_text("chat message")
    expect(ann.locator("[data-testid=chat-message]")).to_have_count(2)
    # a reload gets the history
    bob.reload()
    expect(bob.locator("[data-testid=chat-message]")).to_have_count(2)
    expect(bob.locator("[data-testid=chat-message] [data-testid=chat-text]").first).to_have_text(
        HOSTILE
    )
    screenshot(ann, "table-clocks-chat")
    assert not errors, errors


def test_resign_ends_the_game_and_the_leaderboard_shows_it(table):
    ann, bob, (ann_id, bob_id), _gid, errors = table
    # Bob resigns: the page asks first; "Keep playing" closes the question
    expect(ann.locator("[data-testid=resign]")).to_be_visible()
    bob.click("[data-testid=resign]")
    expect(bob.locator("[data-testid=resign-dialog]")).to_be_visible()
    expect(bob.locator("[data-testid=resign-dialog]")).to_contain_text("lose")
    bob.click("[data-testid=resign-cancel]")
    expect(bob.locator("[data-testid=resign-dialog]")).to_have_count(0)
    expect(bob.locator("[data-testid=game-root]")).to_have_attribute("data-status", "active")
    bob.click("[data-testid=resign]")
    screenshot(bob, "table-resign-confirm")
    bob.click("[data-testid=resign-confirm]")
    for page in (ann, bob):
        expect(page.locator("[data-testid=game-root]")).to_have_attribute("data-status", "finished")
        expect(page.locator("[data-testid=result-text]")).to_contain_text(f"{ANN} wins by forfeit")
        expect(page.locator("[data-testid=result-text]")).to_contain_text(f"{BOB} resigned")
        expect(page.locator("[data-testid=resign]")).to_have_count(0)
        expect(page.locator("[data-testid=clock-0]")).to_have_attribute("data-running", "false")
    expect(ann.locator("[data-testid=your-outcome]")).to_have_attribute("data-outcome", "won")
    expect(ann.locator("[data-testid=your-outcome]")).to_have_text("You won!")
    expect(bob.locator("[data-testid=your-outcome]")).to_have_attribute("data-outcome", "lost")
    screenshot(ann, "table-resigned-winner")

    # the leaderboard, from the identity bar: the Duel tab lists both, Ann first (the
    # ratings are applied right after the game ends: refresh until they show)
    ann.click("[data-testid=leaderboard-link]")
    ann.wait_for_url(re.compile(r"/leaderboard"))
    board = ann.locator("[data-testid=leaderboard]")
    expect(board).to_have_attribute("data-state", "ready")
    for label in ("Splendor, 2 players", "Splendor, 3–4 players", "Splendor Duel"):
        expect(ann.get_by_role("tab", name=label)).to_be_visible()
    ann.click("[data-testid=leaderboard-tab-duel]")
    expect(board).to_have_attribute("data-kind", "duel")
    assert ann.url.endswith("/leaderboard?kind=duel")

    def row(page, player_id: str):
        return page.locator(f"[data-testid=leaderboard-row][data-player-id='{player_id}']")

    deadline = time.time() + 15
    while row(ann, ann_id).count() == 0 or row(ann, bob_id).count() == 0:
        assert time.time() < deadline, "the game's ratings did not reach the leaderboard"
        time.sleep(0.5)
        ann.click("[data-testid=leaderboard-refresh]")
        expect(board).to_have_attribute("data-state", "ready")
    ranks = [int(row(ann, pid).get_attribute("data-rank") or 0) for pid in (ann_id, bob_id)]
    assert 0 < ranks[0] < ranks[1], ranks
    winner = row(ann, ann_id)
    expect(winner.locator("[data-testid=leaderboard-player]")).to_have_text(ANN)
    expect(winner.locator("[data-testid=leaderboard-player]")).to_have_attribute(
        "href", f"/players/{ann_id}"
    )
    expect(winner).to_contain_text("(you)")
    expect(winner.locator("[data-testid=games]")).to_have_text("1")
    expect(winner.locator("[data-testid=deviation]")).to_have_text(re.compile(r"^± \d+$"))
    # one game: both ratings are provisional, and marked so
    expect(winner).to_have_attribute("data-provisional", "true")
    expect(winner.locator("[data-testid=provisional]")).to_be_visible()
    rating = [
        int(re.sub(r"\D", "", row(ann, p).locator("[data-testid=rating]").inner_text()))
        for p in (ann_id, bob_id)
    ]
    assert rating[0] > rating[1], rating
    screenshot(ann, "leaderboard-duel")
    # a link with the kind opens its tab; the other kinds have no rows of these players
    bob.goto("/leaderboard?kind=duel")
    expect(bob.locator("[data-testid=leaderboard]")).to_have_attribute("data-state", "ready")
    expect(row(bob, bob_id)).to_contain_text("(you)")
    bob.click("[data-testid=leaderboard-tab-splendor-2]")
    expect(bob.locator("[data-testid=leaderboard]")).to_have_attribute("data-kind", "splendor-2")
    expect(bob.locator("[data-testid=leaderboard]")).to_have_attribute("data-state", "ready")
    expect(row(bob, bob_id)).to_have_count(0)
    # the winner's name links to the player page
    ann.click(f"[data-testid=leaderboard-row][data-player-id='{ann_id}'] a")
    expect(ann.locator("[data-testid=player-name]")).to_have_text(ANN)
    assert not errors, errors


def test_resigning_with_three_players_hands_the_seat_to_a_bot(new_page, server):
    """A private 3-player game (invite links, nobody logged in): Ann resigns, a bot plays
    her seat and the game goes on; the other players see "Ann (bot)"."""
    made = rest(
        server,
        "/api/games",
        {
            "game": "splendor",
            "seats": [
                {"type": "human", "name": "Ann"},
                {"type": "human", "name": "Bob"},
                {"type": "bot", "bot": "greedy"},
            ],
        },
    )
    ann, bob = new_page(), new_page()
    ann.goto(made["seats"][0]["invite"])
    bob.goto(made["seats"][1]["invite"])
    expect(ann.locator("[data-testid=game-root]")).to_have_attribute("data-your-turn", "true")
    # no clock: no clock badges; the chat works with a seat token too
    expect(ann.locator("[data-testid=scoreline-0]")).to_be_visible()
    expect(ann.locator("[data-testid=clock-0]")).to_have_count(0)
    bob.fill("[data-testid=chat-input]", "hello")
    bob.press("[data-testid=chat-input]", "Enter")
    expect(ann.locator("[data-testid=chat-message]")).to_have_text(re.compile(r"Bob: hello$"))
    ann.click("[data-testid=resign]")
    expect(ann.locator("[data-testid=resign-dialog]")).to_contain_text("bot")
    ann.keyboard.press("Escape")  # Escape closes the question too
    expect(ann.locator("[data-testid=resign-dialog]")).to_have_count(0)
    ann.click("[data-testid=resign]")
    ann.click("[data-testid=resign-confirm]")
    expect(ann.locator("[data-testid=resigned]")).to_contain_text("Ann (bot)")
    expect(ann.locator("[data-testid=resign]")).to_have_count(0)
    expect(ann.locator("[data-testid=legal-actions]")).to_have_count(0)
    expect(ann.locator("[data-testid=game-root]")).to_have_attribute("data-your-turn", "false")
    # the bot played Ann's turn: Bob's turn now, the game goes on
    for page in (ann, bob):
        expect(page.locator("[data-testid=scoreline-0]")).to_contain_text("Ann (bot)")
        expect(page.locator("[data-testid=game-root]")).to_have_attribute("data-status", "active")
    expect(bob.locator("[data-testid=game-root]")).to_have_attribute("data-your-turn", "true")
    expect(bob.locator("[data-testid=resign]")).to_be_visible()
    screenshot(ann, "table-resigned-three-players")
