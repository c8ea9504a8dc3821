"""End-to-end tests of the browser client against the real server, in headless Chromium:
whole games against bots played by clicking (classic and Duel), two people through invite
links, reload and reconnect in mid-game, the replay viewer and the record download, and the
client offering only legal actions."""

from __future__ import annotations

import json
import re

import pytest

from .conftest import screenshot
from .ui import (
    create_in_lobby,
    offered_notations,
    page_state,
    play_by_clicking,
    play_to_end,
    root_data,
    server_state,
    token_of,
    wait_ready,
)


def _token(url: str) -> str:
    return token_of(url)


@pytest.mark.parametrize("game", ["splendor", "duel"])
def test_play_a_whole_game_against_a_bot_by_clicking(new_page, server, meta, game):
    page = new_page()
    made = create_in_lobby(
        page, game, [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}]
    )
    page.click("[data-testid=open-seat-0]")
    data = wait_ready(page)
    assert data["game"] == game and data["seat"] == "0"
    screenshot(page, f"{game}-start")
    tables = meta["games"][game]["tables"]
    token = _token(made["invites"][0])
    seen: dict = {}
    data = play_to_end(
        page,
        tables,
        base=server,
        game_id=made["game_id"],
        token=token,
        seed=1,
        seen=seen,
        on_dialog=lambda kind: screenshot(page, f"{game}-dialog-{kind}"),
    )
    print(f"{game}: decisions by kind {seen}")
    assert data["status"] == "finished"
    page.wait_for_selector("[data-testid=result]")
    text = page.inner_text("[data-testid=result-text]")
    assert "win" in text or "no winner" in text
    screenshot(page, f"{game}-finished")
    # the log lists every move (as a sentence)
    state = page_state(page)
    assert page.locator("[data-testid=log] li").count() == len(state["log"]) == state["move"]

    # the replay viewer steps through every position
    page.click("[data-testid=replay-link]")
    page.wait_for_selector("[data-testid=replay-root] [data-testid=table]")
    frames = state["move"] + 1
    slider = page.locator("[data-testid=replay-slider]")
    assert slider.get_attribute("max") == str(frames - 1)
    # it opens at the first position (issue 33)
    assert page.get_attribute("[data-testid=replay-root]", "data-frame") == "0"
    assert "start of the game" in page.inner_text("[data-testid=replay-info]")
    page.click("[data-testid=replay-next]")
    assert page.get_attribute("[data-testid=replay-root]", "data-frame") == "1"
    # the move as a sentence (the part after its player's name)
    said = state["log"][0]["text"].split("}", 1)[1]
    assert said in page.inner_text("[data-testid=replay-info]")
    page.click("[data-testid=replay-prev]")
    assert page.get_attribute("[data-testid=replay-root]", "data-frame") == "0"
    page.fill("[data-testid=replay-slider]", str(frames // 2))
    assert page.get_attribute("[data-testid=replay-root]", "data-frame") == str(frames // 2)
    page.click("[data-testid=replay-last]")
    assert page.get_attribute("[data-testid=replay-root]", "data-frame") == str(frames - 1)
    screenshot(page, f"{game}-replay")

    # the record downloads as JSON
    with page.expect_download() as dl:
        page.click("[data-testid=record-link]")
    record = json.loads(open(dl.value.path()).read())
    assert record["game"] == game
    assert record["actions"] == [e["notation"] for e in state["log"]]

    # the lobby lists the finished game
    page.goto("/")
    row = page.locator(f"[data-testid=game-row-{made['game_id']}]")
    row.wait_for()
    assert row.get_attribute("data-status") == "finished"


def test_two_people_through_invite_links(new_page, server):
    ann = new_page()
    made = create_in_lobby(
        ann, "splendor", [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
    )
    assert set(made["invites"]) == {0, 1}
    bob = new_page()  # another browser context: its own storage, its own seat
    bob.goto(made["invites"][1])
    ann.goto(made["invites"][0])
    wait_ready(ann)
    bob.wait_for_selector("[data-testid=game-root][data-move='0']")
    assert root_data(bob)["yourTurn"] == "false"
    assert "Ann to play" in bob.inner_text("[data-testid=turn-info]")
    # clicking out of turn explains, changes nothing
    bob.click("[data-testid=supply-W]")
    assert "not your turn" in bob.inner_text("[data-testid=message]")

    # Ann reserves blind: Bob sees a face-down card, live over the WebSocket
    play_by_clicking(ann, "reserve d1")
    bob_data = wait_ready(bob, after_move=0)
    assert bob_data["yourTurn"] == "true"
    hidden = bob.locator("[data-testid=reserved-0-r1]")
    assert "hidden" in hidden.get_attribute("class")
    assert ann.locator("[data-testid=reserved-r1]").get_attribute("data-card-id") is not None
    # a few moves each, every one seen live by the other side
    pages = {0: ann, 1: bob}
    for _ in range(8):
        st = server_state(server, made["game_id"], None)
        player, other = pages[st["current_player"]], pages[1 - st["current_player"]]
        wait_ready(player, after_move=st["move"] - 1)
        legal = [a["notation"] for a in page_state(player)["legal_actions"]]
        move = next((n for n in legal if n.startswith("take") and len(n.split()) == 4), legal[0])
        play_by_clicking(player, move)
        other.wait_for_function(
            "(m) => Number(document.querySelector('[data-testid=game-root]').dataset.move) > m",
            arg=st["move"],
        )
        # the move as a sentence, its notation in the title (issue 33)
        said = other.locator("[data-testid=log] li").last.locator(".move-text")
        assert said.get_attribute("title") == move and move not in said.inner_text()
    # Bob's connection drops while Ann moves: on reconnecting he gets the fresh state
    st = server_state(server, made["game_id"], None)
    while st["current_player"] != 0:
        wait_ready(bob, after_move=st["move"] - 1)
        legal = [a["notation"] for a in page_state(bob)["legal_actions"]]
        play_by_clicking(bob, next((n for n in legal if n.startswith("take")), legal[0]))
        ann.wait_for_function(
            "(m) => Number(document.querySelector('[data-testid=game-root]').dataset.move) > m",
            arg=st["move"],
        )
        st = server_state(server, made["game_id"], None)
    wait_ready(ann, after_move=st["move"] - 1)
    bob.evaluate("window.__page.socket.delay = 3000; window.__page.socket.ws.close()")
    bob.wait_for_selector("[data-testid=connection][data-state=closed]")
    legal = [a["notation"] for a in page_state(ann)["legal_actions"]]
    play_by_clicking(ann, next((n for n in legal if n.startswith("take")), legal[0]))
    ann.wait_for_function(
        "(m) => Number(document.querySelector('[data-testid=game-root]').dataset.move) > m",
        arg=st["move"],
    )
    assert page_state(bob)["move"] == st["move"]  # Bob is offline: he has not seen it yet
    bob.wait_for_selector("[data-testid=connection][data-state=open]", timeout=15000)
    bob.wait_for_function(
        "(m) => Number(document.querySelector('[data-testid=game-root]').dataset.move) > m",
        arg=st["move"],
    )
    screenshot(ann, "two-people-ann")
    screenshot(bob, "two-people-bob")
    # both lobbies list the game
    ann.goto("/")
    ann.locator(f"[data-testid=game-row-{made['game_id']}]").wait_for()


def test_reload_and_reconnect_restore_the_game(new_page, server, meta):
    page = new_page()
    made = create_in_lobby(
        page, "duel", [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "greedy"}]
    )
    page.click("[data-testid=open-seat-0]")
    data = wait_ready(page)
    for _ in range(3):
        legal = [a["notation"] for a in page_state(page)["legal_actions"]]
        move = next((n for n in legal if n.startswith("take") and len(n.split()) == 4), legal[0])
        play_by_clicking(page, move)
        data = wait_ready(page, after_move=int(data["move"]))
    before = page_state(page)
    # a selection in progress is dropped, the state comes back
    page.reload()
    data = wait_ready(page)
    after = page_state(page)
    assert after["move"] == before["move"]
    assert after["observation"]["board"] == before["observation"]["board"]
    assert page.locator("[data-testid=log] li").count() == len(before["log"])
    # the token is remembered: the game page works without it in the URL
    page.goto(f"/games/{made['game_id']}")
    data = wait_ready(page)
    assert data["seat"] == "0"
    # a dropped WebSocket reconnects and resyncs
    page.wait_for_selector("[data-testid=connection][data-state=open]")
    page.evaluate("window.__page.socket.ws.close()")
    page.wait_for_selector("[data-testid=connection][data-state=closed]")
    page.wait_for_selector("[data-testid=connection][data-state=open]", timeout=15000)
    legal = [a["notation"] for a in page_state(page)["legal_actions"]]
    move = next((n for n in legal if n.startswith("take")), legal[0])
    play_by_clicking(page, move)
    wait_ready(page, after_move=int(data["move"]))


def test_client_offers_only_legal_actions_and_explains_the_rest(new_page, server, meta):
    page = new_page()
    made = create_in_lobby(
        page, "splendor", [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}]
    )
    page.click("[data-testid=open-seat-0]")
    wait_ready(page)
    token = _token(made["invites"][0])
    legal = {a["notation"] for a in server_state(server, made["game_id"], token)["legal_actions"]}
    assert offered_notations(page) <= legal
    assert page.locator("[data-testid=legal-action]").count() == len(legal)
    # every card's and deck's menu lists legal actions only
    for sel in ["[data-testid^=card-]", "[data-testid^=deck-]"]:
        for i in range(page.locator(sel).count()):
            page.locator(sel).nth(i).click()
            if page.locator("[data-testid=card-menu]").count():
                items = {
                    page.locator("[data-testid=menu-action]").nth(k).get_attribute("data-notation")
                    for k in range(page.locator("[data-testid=menu-action]").count())
                }
                assert items and items <= legal
                page.click("[data-testid=menu-cancel]")
    # a level-3 card cannot be bought at the start: the menu says why
    page.click("[data-testid='card-3.1']")
    notations = [
        page.locator("[data-testid=menu-action]").nth(k).get_attribute("data-notation")
        for k in range(page.locator("[data-testid=menu-action]").count())
    ]
    assert notations == ["reserve 3.1"]
    page.wait_for_function(
        "() => document.querySelector('[data-testid=menu-why]').textContent.length > 0"
    )  # a function: a string expression would need 'unsafe-eval' under the CSP
    assert "cannot buy" in page.inner_text("[data-testid=menu-why]")
    page.click("[data-testid=menu-cancel]")
    # a token selection grows only into legal takes; a third of one colour is refused
    page.click("[data-testid=supply-W]")
    page.click("[data-testid=supply-W]")
    assert page.get_attribute("[data-testid=supply-W]", "data-selected") == "2"
    confirm = page.locator("[data-testid=confirm]")
    assert confirm.count() == 1 and confirm.get_attribute("data-notation") == "take W W"
    page.click("[data-testid=supply-U]")  # take W W U is no action: the message says why
    page.wait_for_function(
        "() => document.querySelector('[data-testid=message]').textContent.length > 0"
    )
    assert page.get_attribute("[data-testid=supply-W]", "data-selected") == "2"
    assert page.get_attribute("[data-testid=supply-U]", "data-selected") == "0"
    assert offered_notations(page) <= legal
    page.click("[data-testid=clear-selection]")
    for letter in "WUG":
        page.click(f"[data-testid=supply-{letter}]")
    assert page.get_attribute("[data-testid=confirm]", "data-notation") == "take W U G"
    assert offered_notations(page) <= legal
    page.click("[data-testid=confirm]")
    wait_ready(page, after_move=0)
    state = page_state(page)
    assert state["log"][0]["notation"] == "take W U G"
    assert state["observation"]["tokens"][0][:3] == [1, 1, 1]
    # the last move is highlighted: the bot's move is the last log entry
    assert re.search(
        r"last", page.locator("[data-testid=log] li").last.get_attribute("class") or ""
    )
    screenshot(page, "classic-midgame")


def test_duel_board_selection_and_dialogs(new_page, server, meta):
    page = new_page()
    made = create_in_lobby(
        page, "duel", [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}]
    )
    assert set(made["invites"]) == {0}  # one invite: Ann's seat, opened here
    page.click("[data-testid=open-seat-0]")
    wait_ready(page)
    state = page_state(page)
    legal = {a["notation"] for a in state["legal_actions"]}
    three = sorted(n for n in legal if n.startswith("take") and len(n.split()) == 4)[0]
    cells = three.split()[1:]
    for c in cells:
        page.click(f"[data-testid=cell-{c}]")
    assert page.get_attribute("[data-testid=confirm]", "data-notation") == three
    # a cell off the line is refused with a reason
    board = state["observation"]["board"]
    off = next(
        f"{'abcde'[i % 5]}{i // 5 + 1}"
        for i in range(25)
        if board[i] >= 0
        and f"{'abcde'[i % 5]}{i // 5 + 1}" not in cells
        and f"take {' '.join(sorted(cells + [f'{chr(97 + i % 5)}{i // 5 + 1}']))}" not in legal
    )
    page.click(f"[data-testid=cell-{off}]")
    assert page.get_attribute(f"[data-testid=cell-{off}]", "class").find("selected") < 0
    assert page.inner_text("[data-testid=message]")
    assert offered_notations(page) <= legal
    # a gold cell offers "gold c3" (then the card to reserve is clicked)
    page.click("[data-testid=clear-selection]")
    gold = next((n for n in legal if n.startswith("gold ")), None)
    if gold:
        page.click(f"[data-testid=cell-{gold.split()[1]}]")
        page.click(f"[data-testid=confirm][data-notation='{gold}']")
        data = wait_ready(page, after_move=0)
        assert "reserve" in page.inner_text("[data-testid=hint]")
        reserve = [a["notation"] for a in page_state(page)["legal_actions"]]
        assert all(n.startswith("reserve") for n in reserve)
        assert offered_notations(page) <= set(reserve)
        play_by_clicking(page, "reserve 1.1")
        wait_ready(page, after_move=int(data["move"]))
        assert page.locator("[data-testid=reserved-r1]").count() == 1
    screenshot(page, "duel-midgame")


def test_payment_dialog_with_gold(new_page, server, meta):
    """Ann (clicking) reserves for a gold, gathers tokens, then buys choosing her payment
    in the dialog; Bob plays through the REST API."""
    import random

    from .ui import choose, rest

    page = new_page()
    made = create_in_lobby(
        page, "splendor", [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
    )
    bob = _token(made["invites"][1])
    page.goto(made["invites"][0])
    tables = meta["games"]["splendor"]["tables"]
    rng, bob_rng = random.Random(3), random.Random(4)
    data = wait_ready(page)
    for _ in range(60):
        state = page_state(page)
        legal = [a["notation"] for a in state["legal_actions"]]
        chooses = [n for n in legal if n.endswith("choose")]
        if chooses:
            play_by_clicking(page, chooses[0])
            page.wait_for_selector("[data-testid=dialog]")
            assert "payment" in page.inner_text("[data-testid=dialog] h3").lower()
            screenshot(page, "classic-payment-dialog")
            while page.locator("[data-testid=dialog]").count():
                options = [a["notation"] for a in page_state(page)["legal_actions"]]
                assert offered_notations(page) <= set(options)
                pick = next((n for n in options if n.startswith("gold")), "pay")
                move = int(root_data(page)["move"])
                page.click(f"[data-testid=dialog-option][data-notation='{pick}']")
                page.wait_for_function(
                    "(m) => "
                    "Number(document.querySelector('[data-testid=game-root]').dataset.move) > m",
                    arg=move,
                )
                if pick == "pay" or page_state(page)["observation"]["phase"] != 1:
                    break
            log = [e["notation"] for e in page_state(page)["log"]]
            assert chooses[0] in log and any(n.startswith("gold ") or n == "pay" for n in log)
            assert page_state(page)["observation"]["pay_card"] == -1
            return
        assert state["status"] != "finished", "no payment choice came up"
        obs = state["observation"]
        reserves = [n for n in legal if n.startswith("reserve") and not n.startswith("reserve d")]
        if obs["tokens"][0][5] == 0 and reserves:
            move = reserves[0]  # a gold token (C8)
        else:  # gather tokens, keep the gold: buy only choosing the payment, unless the
            # supply is too thin to take two tokens (both hands full: buying unjams it)
            stuck = not any(n.startswith("take") and len(n.split()) >= 3 for n in legal)
            keep = [
                a for a in state["legal_actions"] if stuck or not a["notation"].startswith("buy")
            ]
            move = choose(dict(state, legal_actions=keep or state["legal_actions"]), tables, rng)
        play_by_clicking(page, move)
        page.wait_for_function(
            "(m) => Number(document.querySelector('[data-testid=game-root]').dataset.move) > m",
            arg=int(data["move"]),
        )
        # Bob answers through the REST API (all his decisions of the turn)
        while True:
            st = server_state(server, made["game_id"], bob)
            if st["current_player"] != 1 or st["status"] == "finished":
                break
            pick = choose(st, tables, bob_rng)  # buys when he can, giving tokens back
            rest(
                server,
                f"/api/games/{made['game_id']}/actions",
                {"action": pick, "move": st["move"]},
                token=bob,
            )
        data = wait_ready(page, after_move=int(root_data(page)["move"]) - 1)
    pytest.fail("no payment choice came up")


def test_duel_privilege_by_clicking(new_page, server):
    """Seat 1 starts with a privilege (D5): spend it on a cell by clicking it and choosing
    "use a privilege"; the opponent sees the token go."""
    from .ui import rest

    ann = new_page()
    made = create_in_lobby(
        ann, "duel", [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
    )
    ann_token = _token(made["invites"][0])
    st = server_state(server, made["game_id"], ann_token)
    first = next(a["notation"] for a in st["legal_actions"] if a["notation"].startswith("take"))
    rest(
        server,
        f"/api/games/{made['game_id']}/actions",
        {"action": first, "move": 0},
        token=ann_token,
    )
    bob = new_page()
    bob.goto(made["invites"][1])
    wait_ready(bob)
    state = page_state(bob)
    assert state["observation"]["privileges"][1] == 1
    privs = [a["notation"] for a in state["legal_actions"] if a["notation"].startswith("privilege")]
    assert privs
    cell = privs[0].split()[1]
    assert "privilege" in bob.inner_text("[data-testid=hint]")
    bob.click(f"[data-testid=cell-{cell}]")
    confirms = {
        bob.locator("[data-testid=confirm]").nth(k).get_attribute("data-notation")
        for k in range(bob.locator("[data-testid=confirm]").count())
    }
    assert f"privilege {cell}" in confirms and confirms <= {
        a["notation"] for a in state["legal_actions"]
    }
    bob.click(f"[data-testid=confirm][data-notation='privilege {cell}']")
    data = wait_ready(bob, after_move=state["move"])
    after = page_state(bob)
    assert after["observation"]["privileges"][1] == 0
    assert after["observation"]["board"][(int(cell[1]) - 1) * 5 + "abcde".index(cell[0])] == -1
    assert data["yourTurn"] == "true"  # the mandatory action is still to come (D6)
    assert bob.get_attribute(f"[data-testid=cell-{cell}]", "data-token") == ""
