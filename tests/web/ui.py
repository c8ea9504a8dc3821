"""Driving the web client like a person: create games in the lobby, read the page's state,
pick a move, and play it by clicking the table (supply tokens or board cells + confirm,
card and deck menus, choice dialogs).
"""

from __future__ import annotations

import json
import random
import re
import time
import urllib.parse
import urllib.request
from typing import Any

DIALOG_KINDS = {"pay_gold", "pay", "return", "noble", "joker", "token", "steal", "royal"}
LETTERS = {"splendor": "WUGRK*", "duel": "WUGRKP*"}


# --------------------------------------------------------------------------- REST


GAME_URL = re.compile(r"/games/([^/?#]+)$")
"""A game page's address; group 1 is the game id."""


def play_as_guest(page: Any, name: str) -> str:
    """Play as a guest called ``name`` through the identity bar; its player id."""
    from playwright.sync_api import expect

    bar = page.locator("[data-testid=identity]")
    expect(bar).to_have_attribute("data-state", "anonymous")
    page.fill("[data-testid=guest-name]", name)
    page.click("[data-testid=guest-submit]")
    expect(bar).to_have_attribute("data-state", "guest")
    return bar.get_attribute("data-player-id") or ""


def rest(base: str, path: str, body: Any = None, token: str | None = None) -> Any:
    """GET (or POST ``body``) JSON from the server, as the seat of ``token`` (sent as
    ``Authorization: Bearer``, never in the URL) or a spectator."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(base + path, data=data, headers=headers)
    with urllib.request.urlopen(req, timeout=20) as r:
        return json.load(r)


def server_state(base: str, game_id: str, token: str | None) -> dict:
    return rest(base, f"/api/games/{urllib.parse.quote(game_id)}", token=token)


def token_of(invite: str) -> str:
    """The seat token of an invite link: in its fragment (``#token=``), which browsers
    never send to the server."""
    return urllib.parse.parse_qs(urllib.parse.urlparse(invite).fragment)["token"][0]


# --------------------------------------------------------------------------- lobby


def create_in_lobby(page, game: str, seats: list[dict]) -> dict:
    """Create a game through the lobby form. ``seats``: ``{"type": "human", "name"}`` or
    ``{"type": "bot", "bot"}``. Returns ``{"game_id", "invites": {seat: url}}``."""
    page.goto("/")
    page.wait_for_selector("[data-testid=create-game]")
    page.select_option("[data-testid=game-select]", game)
    if game == "splendor":
        page.select_option("[data-testid=players-select]", str(len(seats)))
    for i, seat in enumerate(seats):
        page.select_option(f"[data-testid=seat-type-{i}]", seat["type"])
        if seat["type"] == "human":
            page.fill(f"[data-testid=seat-name-{i}]", seat.get("name", f"P{i}"))
        else:
            page.select_option(f"[data-testid=seat-bot-{i}]", seat["bot"])
    with page.expect_response(
        lambda r: r.url.endswith("/api/games") and r.request.method == "POST"
    ) as resp:
        page.click("[data-testid=create-game]")
    created = resp.value.json()
    page.wait_for_selector("[data-testid=created] h2")
    invites = {}
    for s in created["seats"]:
        if s["type"] == "human":
            invites[s["seat"]] = page.input_value(f"[data-testid=invite-{s['seat']}]")
    return {"game_id": created["game_id"], "invites": invites, "created": created}


def open_table(page, **fields: str) -> dict:
    """Fill the lobby's "Open a table" form (``game``, ``clock``, ``visibility``: select
    values) and open the table; the server's answer (checked to be 201)."""
    for name, value in fields.items():
        page.select_option(f"[data-testid=open-table-{name}]", value)
    with page.expect_response(
        lambda r: r.url.endswith("/api/tables") and r.request.method == "POST"
    ) as resp:
        page.click("[data-testid=open-table-submit]")
    assert resp.value.status == 201, resp.value.text()
    return resp.value.json()


def in_same_game(pages: list) -> str:
    """Every page went to the same game by itself, each on its own seat (0, 1, ...).
    Returns the game id."""
    from playwright.sync_api import expect

    ids = set()
    for seat, page in enumerate(pages):
        page.wait_for_url(GAME_URL)
        match = GAME_URL.search(page.url)
        assert match
        ids.add(match.group(1))
        expect(page.locator("[data-testid=game-root]")).to_have_attribute("data-seat", str(seat))
    assert len(ids) == 1, ids
    return ids.pop()


# --------------------------------------------------------------------------- reading the page


def page_state(page) -> dict:
    """The state message the client is showing."""
    return page.evaluate("window.__splendor.state")


def root_data(page) -> dict:
    return page.evaluate(
        "(() => { const r = document.querySelector('[data-testid=game-root]'); "
        "return r ? {...r.dataset} : null; })()"
    )


def wait_ready(page, after_move: int | None = None, timeout: float = 60000) -> dict:
    """Wait until the page shows a state newer than ``after_move`` in which it is the
    viewer's decision, or the game is over. Returns the root's data attributes."""
    page.wait_for_function(
        """(m) => {
          const r = document.querySelector('[data-testid=game-root]');
          if (!r || r.dataset.busy === 'true' || r.dataset.move === undefined) return false;
          if (m !== null && Number(r.dataset.move) <= m) return false;
          return r.dataset.status === 'finished' || r.dataset.yourTurn === 'true';
        }""",
        arg=after_move,
        timeout=timeout,
    )
    return root_data(page)


def offered_notations(page) -> set[str]:
    """Every action the page offers: ``data-notation`` and ``data-action`` values."""
    return set(
        page.evaluate(
            """(() => { const out = [];
              for (const el of document.querySelectorAll('[data-notation], [data-action]')) {
                if (el.dataset.notation) out.push(el.dataset.notation);
                if (el.dataset.action) out.push(el.dataset.action);
              } return out; })()"""
        )
    )


# --------------------------------------------------------------------------- a simple policy


def _kind(game: str, notation: str) -> str:
    w = notation.split()
    if w[0] == "gold":
        return (
            "take_gold"
            if game == "duel"
            and w[1][0].islower()
            and w[1][0] in "abcde"
            and len(w[1]) == 2
            and w[1][1].isdigit()
            else "pay_gold"
        )
    if w[0] == "reserve" and w[1].startswith("d"):
        return "reserve_deck"
    return w[0]


def _card_at(game: str, obs: dict, where: str, seat: int) -> int:
    if where.startswith("r"):
        return obs["reserved"][seat][int(where[1]) - 1]
    level, slot = (int(x) for x in where.split("."))
    if game == "duel":
        return obs["pyramid"][{1: 0, 2: 5, 3: 9}[level] + slot - 1]
    return obs["faceup"][level - 1][slot - 1]


def choose(state: dict, tables: dict, rng: random.Random) -> str:
    """A quick-finishing move: the buy worth most points, else the take that brings the
    most tokens toward the cheapest card, else anything legal but a blind reserve."""
    game = state["game"]
    legal = [a["notation"] for a in state["legal_actions"]]
    obs = state["observation"]
    seat = state["seat"]
    assert legal, (
        f"no legal action to choose from (move {state['move']}, "
        f"current {state['current_player']}, seat {seat})"
    )
    kinds = {n: _kind(game, n) for n in legal}
    if all(k in DIALOG_KINDS or k == "pass" for k in kinds.values()):
        for pref in ("royal", "noble"):
            for n in legal:
                if kinds[n] == pref:
                    return n
        if all(k == "return" for k in kinds.values()):
            # return the colour we hold most of
            letters = LETTERS[game]
            toks = obs["tokens"][seat]
            return max(legal, key=lambda n: toks[letters.index(n.split()[1])])
        return rng.choice(legal)
    buys = [n for n in legal if kinds[n] == "buy" and not n.endswith("choose")]
    if buys:

        def value(n: str) -> tuple:
            card = tables["cards"][_card_at(game, obs, n.split()[1], seat)]
            return (card["points"] + card.get("crowns", 0), rng.random())

        best = max(buys, key=value)
        if best + " choose" in legal and rng.random() < 0.5:
            return best + " choose"  # exercises the payment dialog
        return best
    takes = [n for n in legal if kinds[n] == "take"]
    if takes:
        need = _needs(game, obs, tables, seat)

        def gain(n: str) -> tuple:
            cols = _take_colors(game, obs, n)
            return (sum(1 for c in cols if need[c] > 0), len(cols), rng.random())

        return max(takes, key=gain)
    rest_ = [n for n in legal if kinds[n] not in ("reserve_deck",)] or legal
    prefer = [n for n in rest_ if kinds[n] in ("reserve", "take_gold")]
    return rng.choice(prefer or rest_)


def _take_colors(game: str, obs: dict, notation: str) -> list[int]:
    words = notation.split()[1:]
    if game == "duel":
        return [obs["board"][(int(w[1]) - 1) * 5 + "abcde".index(w[0])] for w in words]
    return ["WUGRK".index(w) for w in words]


def _needs(game: str, obs: dict, tables: dict, seat: int) -> list[int]:
    """Missing tokens per colour for the cheapest visible card (pearl included in Duel)."""
    ncol = 6 if game == "duel" else 5
    ids = [c for c in (obs["pyramid"] if game == "duel" else sum(obs["faceup"], [])) if c >= 0]
    best, best_missing = [0] * 7, None
    for cid in ids:
        card = tables["cards"][cid]
        missing = [0] * 7
        for c in range(ncol):
            bonus = obs["bonuses"][seat][c] if c < 5 else 0
            missing[c] = max(0, card["cost"][c] - bonus - obs["tokens"][seat][c])
        total = sum(missing) - card["points"]
        if best_missing is None or total < best_missing:
            best, best_missing = missing, total
    return best


# --------------------------------------------------------------------------- clicking


def play_by_clicking(page, notation: str) -> None:
    """Play ``notation`` through the table: a dialog option, tokens/cells + confirm, or a
    card/deck menu; ``replenish`` has its own button."""
    state = page_state(page)
    game = state["game"]
    kind = _kind(game, notation)
    words = notation.split()
    if page.locator("[data-testid=dialog]").count():
        page.click(f"[data-testid=dialog-option][data-notation='{notation}']")
        return
    if kind == "replenish":
        page.click("[data-testid=replenish]")
        return
    if kind in ("take", "privilege", "take_gold"):
        if page.locator("[data-testid=clear-selection]").count():
            page.click("[data-testid=clear-selection]")
        for w in words[1:]:
            page.click(f"[data-testid=cell-{w}]" if game == "duel" else f"[data-testid=supply-{w}]")
        page.click(f"[data-testid=confirm][data-notation='{notation}']")
        return
    if kind in ("buy", "reserve", "reserve_deck"):
        where = words[1]
        if where.startswith("d"):
            target = f"[data-testid=deck-{where[1]}]"
        elif where.startswith("r"):
            target = f"[data-testid=reserved-{where}]"
        else:
            target = f"[data-testid='card-{where}']"
        page.click(target)
        page.click(f"[data-testid=menu-action][data-notation='{notation}']")
        return
    page.click(f"[data-testid=legal-action][data-notation='{notation}']")


def play_to_end(
    page,
    tables: dict,
    *,
    base: str,
    game_id: str,
    token: str,
    seed: int = 0,
    max_decisions: int = 400,
    check_every: int = 1,
    seen: dict | None = None,
    on_dialog=None,
) -> dict:
    """Play the viewer's seat to the end by clicking; every ``check_every`` decisions,
    check that the page offers only legal actions (compared with the server's own list).
    ``seen`` counts the decisions by kind (``dialog:return``, ``take``, ...);
    ``on_dialog(kind)`` is called the first time each kind of dialog shows."""
    rng = random.Random(seed)
    seen = {} if seen is None else seen
    data = wait_ready(page)
    for k in range(max_decisions):
        if data["status"] == "finished":
            return data
        state = page_state(page)
        first = state["legal_actions"][0]["notation"]
        kind = _kind(state["game"], first)
        if page.locator("[data-testid=dialog]").count():
            key = f"dialog:{kind}"
            if key not in seen and on_dialog:
                on_dialog(kind)
        else:
            key = "main"
        seen[key] = seen.get(key, 0) + 1
        if k % check_every == 0:
            legal = {a["notation"] for a in server_state(base, game_id, token)["legal_actions"]}
            offered = offered_notations(page)
            assert offered <= legal, f"offered but not legal: {offered - legal}"
        move = choose(state, tables, rng)
        play_by_clicking(page, move)
        data = wait_ready(page, after_move=int(data["move"]))
    raise AssertionError(f"game not over after {max_decisions} decisions")


def _next_ready(pages: list, after_move: int, timeout: float = 60.0) -> tuple[Any, dict]:
    """The first page (and its root's data) that shows a state newer than ``after_move``
    in which it is the viewer's decision, or the game over."""
    deadline = time.monotonic() + timeout
    while True:
        for page in pages:
            data = root_data(page)
            if not data or data.get("busy") == "true" or data.get("move") is None:
                continue
            if int(data["move"]) <= after_move:
                continue
            if data["status"] == "finished" or data.get("yourTurn") == "true":
                return page, data
        assert time.monotonic() < deadline, f"no page has a decision after move {after_move}"
        time.sleep(0.05)


def play_between(pages: list, tables: dict, *, seed: int = 0, max_decisions: int = 600) -> dict:
    """Play a game between people, one page per seat, to the end by clicking: whichever
    page has the decision picks a move (:func:`choose`) and clicks it. Returns the root's
    data attributes of the first page that shows the game over."""
    rng = random.Random(seed)
    move = -1
    for _ in range(max_decisions):
        page, data = _next_ready(pages, move)
        if data["status"] == "finished":
            return data
        play_by_clicking(page, choose(page_state(page), tables, rng))
        move = int(data["move"])
    raise AssertionError(f"game not over after {max_decisions} decisions")


# --------------------------------------------------------------------------- accounts (issue 32)


def sign_up(page: Any, name: str, password: str = "correct horse") -> str:
    """Make an account called ``name`` through the identity bar (from nobody logged in);
    its player id. Rated games are for accounts: the tests of rated play sign up (with
    names unique to the test: accounts' names are one namespace)."""
    from playwright.sync_api import expect

    bar = page.locator("[data-testid=identity]")
    expect(bar).to_have_attribute("data-state", "anonymous")
    page.click("[data-testid=show-signup]")
    page.fill("[data-testid=signup-name]", name)
    page.fill("[data-testid=signup-password]", password)
    page.click("[data-testid=signup-submit]")
    expect(bar).to_have_attribute("data-state", "account")
    return bar.get_attribute("data-player-id") or ""
