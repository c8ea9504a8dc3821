"""Tournaments in the browser (issue 32): an 8-player Swiss tournament created through the
page's form, played to its end (the games end by resignation, through each player's own
session) while the page shows the live standings; and an arena where a player wins three
in a row and the standings show the streak's bonus."""

from __future__ import annotations

import time
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.web.ui import play_as_guest

TIMEOUT = 30_000


def api_player(server: str, name: str) -> httpx.Client:
    """A player with its own session (a cookie jar), as a guest called ``name``."""
    c = httpx.Client(base_url=server, timeout=20)
    r = c.post("/api/players/guest", json={"name": name})
    assert r.status_code == 201, r.text
    c.player = r.json()["player"]  # type: ignore[attr-defined]
    return c


def detail(server: str, tid: str) -> dict[str, Any]:
    return httpx.get(f"{server}/api/tournaments/{tid}", timeout=20).json()


def paired(server: str, tid: str, r: int, seconds: float = 30) -> dict[str, Any]:
    """The tournament once round ``r`` is paired and all its games are made."""
    deadline = time.monotonic() + seconds
    while True:
        t = detail(server, tid)
        if t["current_round"] == r and len(t["pairings"]) >= r:
            tables = t["pairings"][r - 1]["tables"]
            if all(x["game_id"] or x["result"] for x in tables):
                return t
        assert time.monotonic() < deadline, t
        time.sleep(0.2)


def points(x: float) -> str:
    """As the page writes points (½ for halves)."""
    whole = int(x)
    if x - whole == 0.5:
        return f"{whole}½" if whole else "½"
    return str(whole)


def test_an_eight_player_swiss_tournament_is_played_to_its_end(new_page, server) -> None:
    page = new_page()
    page.goto(server + "/tournaments")
    host_id = play_as_guest(page, "Host")
    form = page.locator("[data-testid=tournament-create]")
    expect(form).to_be_visible()
    page.fill("[data-testid=t-name]", "Spring Swiss")
    page.select_option("[data-testid=t-game]", "duel")
    page.select_option("[data-testid=t-format]", "swiss")
    page.fill("[data-testid=t-rounds]", "3")
    page.select_option("[data-testid=t-clock]", "realtime")
    page.fill("[data-testid=t-clock_amount]", "10")
    page.fill("[data-testid=t-max_players]", "8")
    page.click("[data-testid=t-create]")
    page.wait_for_url("**/tournaments/*")
    root = page.locator("[data-testid=tournament-root]")
    expect(root).to_have_attribute("data-status", "registering", timeout=TIMEOUT)
    tid = page.url.rsplit("/", 1)[1]
    expect(page.locator("[data-testid=t-countdown]")).to_contain_text("8")
    page.click("[data-testid=t-join]")
    expect(page.locator("[data-testid=standing-row]")).to_have_count(1)
    others = [api_player(server, f"Player {i}") for i in range(1, 8)]
    for c in others:
        assert c.post(f"/api/tournaments/{tid}/join").status_code == 200
    expect(root).to_have_attribute("data-status", "running", timeout=TIMEOUT)
    clients = {c.player["id"]: c for c in others}  # type: ignore[attr-defined]
    met: set[frozenset[str]] = set()
    for r in range(1, 4):
        t = paired(server, tid, r)
        expect(root).to_have_attribute("data-round", str(r), timeout=TIMEOUT)
        games = t["pairings"][r - 1]["tables"]
        assert len(games) == 4 and all(len(x["players"]) == 2 for x in games)
        for x in games:
            assert frozenset(x["players"]) not in met  # no repeat pairing
            met.add(frozenset(x["players"]))
            loser = x["players"][1]
            path = f"/api/games/{x['game_id']}/resign"
            if loser == host_id:
                assert page.request.post(server + path).ok
            else:
                assert clients[loser].post(path).status_code == 200
    expect(root).to_have_attribute("data-status", "finished", timeout=TIMEOUT)
    final = detail(server, tid)["standings"]
    rows = page.locator("[data-testid=standing-row]")
    expect(rows).to_have_count(8)
    for i, line in enumerate(final):
        row = rows.nth(i)
        expect(row).to_have_attribute("data-player-id", line["player_id"])
        expect(row.locator("[data-testid=st-score]")).to_have_text(points(line["score"]))
        expect(row.locator("[data-testid=st-buchholz]")).to_have_text(points(line["buchholz"]))
    assert sorted(line["score"] for line in final)[-1] == 3.0  # someone won every game
    assert sum(line["score"] for line in final) == 12  # 4 games a round
    # the tournament on the host's player page, with their place
    page.goto(f"{server}/players/{host_id}")
    mine = page.locator(f"[data-testid=player-tournament][data-id='{tid}']")
    place = next(line["rank"] for line in final if line["player_id"] == host_id)
    expect(mine).to_have_attribute("data-place", str(place), timeout=TIMEOUT)
    for c in others:
        c.close()


def test_an_arena_shows_a_winning_streak(new_page, server) -> None:
    page = new_page()
    page.goto(server + "/tournaments")
    ann = play_as_guest(page, "Ann")
    r = page.request.post(
        server + "/api/tournaments",
        data={
            "name": "Evening arena",
            "game": "duel",
            "format": "arena",
            "duration": 900,
            "max_players": 2,
            "clock": {"kind": "turn", "per_move": 86400},
        },
    )
    assert r.status == 201, r.text()
    tid = r.json()["id"]
    page.goto(f"{server}/tournaments/{tid}")
    root = page.locator("[data-testid=tournament-root]")
    expect(root).to_have_attribute("data-status", "registering", timeout=TIMEOUT)
    page.click("[data-testid=t-join]")
    bob = api_player(server, "Bob")
    assert bob.post(f"/api/tournaments/{tid}/join").status_code == 200
    expect(root).to_have_attribute("data-status", "running", timeout=TIMEOUT)
    expect(page.locator("[data-testid=t-countdown]")).to_contain_text("min")
    for n in range(1, 4):  # Ann wins three in a row: Bob resigns
        t = paired(server, tid, n)
        game = t["pairings"][n - 1]["tables"][0]
        assert set(game["players"]) == {ann, bob.player["id"]}  # type: ignore[attr-defined]
        assert bob.post(f"/api/games/{game['game_id']}/resign").status_code == 200
    row = page.locator(f"[data-testid=standing-row][data-player-id='{ann}']")
    expect(row.locator("[data-testid=st-score]")).to_have_text("8", timeout=TIMEOUT)  # 2+2+4
    expect(row.locator("[data-testid=st-bonus]")).to_have_text("+2")
    expect(row.locator("[data-testid=st-fire]")).to_be_visible()
    expect(row).to_have_attribute("data-rank", "1")
    # paired again at once: a fourth game is under way
    expect(page.locator("[data-testid=t-game][data-over=false]")).to_have_count(1)
    bob.close()
