"""Notifications in the browser (issue 32): a turn-based game where B is told by e-mail
(the real SMTP server of the tests' server) and by Web Push (a local HTTP server standing
in for the push service), follows the mail's link and plays by clicking; a notice shown in
an open tab; the settings; a French player's mails in French."""

from __future__ import annotations

import json
import random
import re
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from playwright.sync_api import expect
from sqlalchemy import create_engine, update

from splendor.i18n import messages
from splendor.server.rows import PlayerRow
from tests.server.test_notifications import PushService, browser_keys, unb64
from tests.web.ui import choose, page_state, play_by_clicking, rest, wait_ready

TURN = {"kind": "turn", "per_move": 86400}


@pytest.fixture
def push_service() -> Iterator[PushService]:
    service = PushService()
    yield service
    service.close()


def sign_up(page: Any, base: str, name: str) -> str:
    """Make an account ``name`` in ``page``'s browser context (its cookie); its id."""
    r = page.request.post(
        base + "/api/players/signup", data={"name": name, "password": "correct horse 1"}
    )
    assert r.status == 201, r.text()
    return str(r.json()["player"]["id"])


def verify(database_url: str, player_id: str, address: str, language: str = "en") -> None:
    """Give the player a verified address and a language (in the database: verifying by
    mail is the accounts part's test)."""
    engine = create_engine(database_url)
    with engine.begin() as c:
        c.execute(
            update(PlayerRow)
            .where(PlayerRow.id == player_id)
            .values(
                email=address,
                email_key=address.casefold(),
                email_verified_at=datetime.now(UTC),
                language=language,
            )
        )
    engine.dispose()


def start_game(host: Any, guest: Any, base: str) -> tuple[str, Any, Any]:
    """A turn-based Duel table opened by ``host`` and joined by ``guest``: the game id,
    and the pages of the player to move first and of the other."""
    r = host.request.post(base + "/api/tables", data={"game": "duel", "clock": TURN})
    assert r.status == 201, r.text()
    joined = guest.request.post(base + f"/api/tables/{r.json()['id']}/join")
    assert joined.status == 200, joined.text()
    gid = joined.json()["game_id"]
    mine = host.request.get(base + f"/api/games/{gid}").json()
    return (gid, host, guest) if mine["legal_actions"] else (gid, guest, host)


def play_turn_by_api(page: Any, base: str, gid: str) -> None:
    """Every decision of this player's turn, through the API (the first legal action)."""
    state = page.request.get(base + f"/api/games/{gid}").json()
    while state["legal_actions"]:
        action = state["legal_actions"][0]["notation"]
        r = page.request.post(
            base + f"/api/games/{gid}/actions", data={"action": action, "move": state["move"]}
        )
        assert r.status == 200, r.text()
        state = r.json()


def unique(name: str) -> str:
    return f"{name}{uuid.uuid4().hex[:6]}"


def test_b_is_told_by_mail_and_push_and_plays_from_the_link(
    new_page: Any, server: str, server_database_url: str, inbox: Any, push_service: PushService
) -> None:
    import http_ece

    a, b = new_page(), new_page()
    a_id, b_id = sign_up(a, server, unique("Ann")), sign_up(b, server, unique("Bob"))
    b_address = f"{b_id.lower()}@example.org"
    verify(server_database_url, a_id, f"{a_id.lower()}@example.org")
    verify(server_database_url, b_id, b_address)
    key, keys = browser_keys()
    endpoint = f"{push_service.url}/push/{b_id}"
    r = b.request.post(
        server + "/api/push/subscriptions", data={"endpoint": endpoint, "keys": keys}
    )
    assert r.status == 201, r.text()
    gid, first, _ = start_game(a, b, server)
    if first is b:  # B's first turn, then A's: B is told of the next one
        play_turn_by_api(b, server, gid)
        inbox.wait_for(b_address)
    told = len(inbox.to(b_address))
    play_turn_by_api(a, server, gid)
    mails = inbox.wait_for(b_address, told + 1)
    mail = mails[-1]
    assert mail["Subject"] == "Your turn in Splendor Duel"
    link = re.search(r"https?://\S+/games/\S+", mail.get_content())
    assert link and link.group(0) == f"{server}/games/{gid}", mail.get_content()
    # the push for the same turn, encrypted for B's browser keys
    deadline = time.time() + 20
    while not [p for p in push_service.requests if p[0] == f"/push/{b_id}"]:
        assert time.time() < deadline, "no push for B"
        time.sleep(0.1)
    _, headers, body = push_service.requests[-1]
    assert {k.lower(): v for k, v in headers.items()}["content-encoding"] == "aes128gcm"
    pushed = json.loads(http_ece.decrypt(body, private_key=key, auth_secret=unb64(keys["auth"])))
    assert pushed["url"] == link.group(0) and pushed["title"] == mail["Subject"]
    # B follows the link: the game at B's turn, played by clicking
    b.goto(link.group(0))
    data = wait_ready(b)
    assert data["yourTurn"] == "true"
    meta = rest(server, "/api/meta")
    state = page_state(b)
    play_by_clicking(b, choose(state, meta["games"]["duel"]["tables"], random.Random(1)))
    wait_ready_after = state["move"]
    b.wait_for_function(
        "(m) => Number(document.querySelector('[data-testid=game-root]').dataset.move) > m",
        arg=wait_ready_after,
    )
    # the service worker registers at the site's root (its scope: every page)
    scope = b.evaluate(
        "navigator.serviceWorker.register('/sw.js', {scope: '/'}).then((r) => r.scope)"
    )
    assert scope == server + "/"


def test_a_notice_shows_in_an_open_tab_and_the_settings_change_the_channels(
    new_page: Any, server: str, server_database_url: str, inbox: Any
) -> None:
    a, b = new_page(), new_page()
    sign_up(a, server, unique("Ann"))
    b_id = sign_up(b, server, unique("Bob"))
    b_address = f"{b_id.lower()}@example.org"
    verify(server_database_url, b_id, b_address)
    b.goto("/leaderboard")  # a page that stays (the lobby would open the game when it starts)
    # the settings: turn off mails of B's turn
    b.evaluate(
        """async () => {
          const m = await import('/static/notify_settings.js');
          const el = document.createElement('section');
          el.id = 'notify-test';
          document.body.append(el);
          await m.mountNotificationSettings(el, {id: 'me'});
        }"""
    )
    expect(b.locator("[data-testid=notify-email-line]")).to_contain_text(b_address)
    box = b.locator("[data-testid=notify-email-turn]")
    expect(box).to_be_checked()
    box.uncheck()
    expect(b.locator("[data-testid=notify-email-turn]")).not_to_be_checked()
    deadline = time.time() + 20  # the change is saved by a request of its own
    while True:
        settings = b.request.get(server + "/api/players/me/notifications").json()["settings"]
        if settings["email"]["turn"] is False or time.time() > deadline:
            break
        time.sleep(0.1)
    assert settings["email"]["turn"] is False and settings["browser"]["turn"] is True
    # B's tab is open: B's turn shows there as a toast with a link to the game
    gid, first, _ = start_game(a, b, server)
    if first is b:
        play_turn_by_api(b, server, gid)
    play_turn_by_api(a, server, gid)
    toast = b.locator("[data-testid=notify-toast][data-kind=turn]").last
    expect(toast).to_contain_text("Your turn in Splendor Duel")
    expect(toast.locator("[data-testid=notify-toast-link]")).to_have_attribute(
        "href", f"/games/{gid}"
    )
    time.sleep(1)  # a mail would have been handed over by now
    assert inbox.to(b_address) == []  # no mail: B turned it off


def test_a_french_players_mails_are_in_french(
    new_page: Any, server: str, server_database_url: str, inbox: Any
) -> None:
    """The mail of a player whose language is French comes from the French catalogue
    (``Content-Language: fr`` and a French subject; this needs the ``server`` catalogue's
    French translations of the notifications)."""
    a, b = new_page(), new_page()
    sign_up(a, server, unique("Ann"))
    b_id = sign_up(b, server, unique("Bea"))
    b_address = f"{b_id.lower()}@example.org"
    verify(server_database_url, b_id, b_address, language="fr")
    gid, first, _ = start_game(a, b, server)
    if first is b:
        play_turn_by_api(b, server, gid)
    play_turn_by_api(a, server, gid)
    (mail,) = inbox.wait_for(b_address)
    assert mail["Content-Language"] == "fr"
    french = messages("fr", "server").gettext("Your turn in {game}", game="Splendor Duel")
    assert french != "Your turn in Splendor Duel", "the French catalogue lacks this message"
    assert mail["Subject"] == french
    unsubscribe = messages("fr", "server").gettext(
        "Turn off every e-mail notification: {link}", link=""
    )
    assert unsubscribe.strip() in mail.get_content()
