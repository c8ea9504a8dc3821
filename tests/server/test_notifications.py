"""Notifications (issue 32): a turn-based game tells the player whose turn it is by e-mail
(a real local SMTP server) and by Web Push (a real local HTTP server standing in for the
push service), once per turn, in their language, with a link to the game and a working
unsubscribe link; a reminder before the deadline; a rate limit; the settings API; the push
subscriptions' checks."""

from __future__ import annotations

import base64
import http.server
import json
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from splendor.server.app import WEB_DIR, Limits, MailConfig
from splendor.server.community_rows import NotificationRow, PushSubscriptionRow
from splendor.server.errors import Text
from splendor.server.notifications import Notifier
from splendor.server.notify_texts import Notice
from splendor.server.rows import PlayerRow
from splendor.server.storage import Storage

TURN = {"kind": "turn", "per_move": 86400}


# ---------------------------------------------------------------------- helpers


def browser(app_client: TestClient) -> TestClient:
    """A new browser (its own cookies) on the same started app."""
    c = TestClient(app_client.app)
    c.portal = app_client.portal
    return c


def account(
    app_client: TestClient, name: str, email: str | None = None, language: str = "en"
) -> tuple[TestClient, str]:
    """A new browser logged in as a new account ``name``; with ``email``, a verified
    address (set in the database: the address's own API is the accounts part's)."""
    c = browser(app_client)
    r = c.post("/api/players/signup", json={"name": name, "password": "correct horse 1"})
    assert r.status_code == 201, r.text
    pid = r.json()["player"]["id"]
    with storage_of(app_client).engine.begin() as conn:
        conn.execute(
            update(PlayerRow)
            .where(PlayerRow.id == pid)
            .values(
                email=email,
                email_key=email.casefold() if email else None,
                email_verified_at=datetime.now(UTC) if email else None,
                language=language,
            )
        )
    return c, pid


def storage_of(c: TestClient) -> Storage:
    storage: Storage = c.app.state.storage  # type: ignore[attr-defined]
    return storage


def notifier_of(c: TestClient) -> Notifier:
    notifier: Notifier = c.app.state.notifier  # type: ignore[attr-defined]
    return notifier


def settle(c: TestClient) -> None:
    """Wait until every notice started so far is delivered."""
    c.portal.call(notifier_of(c).idle)


def start_game(
    host: TestClient, guest: TestClient, clock: dict[str, Any] = TURN
) -> tuple[str, TestClient, TestClient]:
    """Open a Duel table as ``host``, seat ``guest``: the game id, and the browsers of the
    player to move first and of the other."""
    r = host.post("/api/tables", json={"game": "duel", "clock": clock})
    assert r.status_code == 201, r.text
    joined = guest.post(f"/api/tables/{r.json()['id']}/join")
    assert joined.status_code == 200, joined.text
    gid = joined.json()["game_id"]
    first = host if host.get(f"/api/games/{gid}").json()["legal_actions"] else guest
    return gid, first, guest if first is host else host


def play_turn(c: TestClient, gid: str) -> None:
    """Play every decision of ``c``'s turn (the first legal action each time)."""
    state = c.get(f"/api/games/{gid}").json()
    assert state["legal_actions"], "not this player's turn"
    while state["legal_actions"]:
        action = state["legal_actions"][0]["notation"]
        r = c.post(f"/api/games/{gid}/actions", json={"action": action, "move": state["move"]})
        assert r.status_code == 200, r.text
        state = r.json()


def mails_to(inbox: Any, address: str) -> list[Any]:
    return [m for m in inbox.messages if m["To"] == address]


def link_in(mail: Any, path: str) -> str:
    found = re.search(r"https?://\S*" + re.escape(path) + r"\S*", mail.get_content())
    assert found, mail.get_content()
    return found.group(0)


@pytest.fixture
def mailing(
    make_client: Callable[..., TestClient], smtp_server: tuple[str, Any]
) -> tuple[TestClient, Any]:
    """An app whose mail goes to the local SMTP server, and that server's inbox."""
    url, inbox = smtp_server
    return make_client(mail=MailConfig(smtp_url=url)), inbox


# ---------------------------------------------------------------------- e-mail


def test_your_turn_mail_once_in_the_players_language_leads_to_the_game(
    mailing: tuple[TestClient, Any],
) -> None:
    client, inbox = mailing
    ann, _ = account(client, "Ann", "ann@example.org")
    bea, _ = account(client, "Béa", "bea@example.org", language="fr")
    gid, first, second = start_game(ann, bea)
    settle(client)
    first_address = "ann@example.org" if first is ann else "bea@example.org"
    second_address = "bea@example.org" if first is ann else "ann@example.org"
    # the game's start told the player to move first, and only them
    assert len(mails_to(inbox, first_address)) == 1
    assert mails_to(inbox, second_address) == []
    play_turn(first, gid)
    settle(client)
    (mail,) = mails_to(inbox, second_address)
    language = "fr" if second is bea else "en"
    assert mail["Content-Language"] == language
    assert mail["Subject"] == Text("Your turn in {game}", {"game": "Splendor Duel"}).translated(
        language
    )
    # the link leads to the game, where it is this player's turn
    link = link_in(mail, f"/games/{gid}")
    assert link.endswith(f"/games/{gid}")
    path = "/" + link.split("/", 3)[3]
    assert second.get(path).status_code == 200
    state = second.get(f"/api/games/{gid}").json()
    assert state["legal_actions"] and state["current_player"] == state["seat"]
    # the same turn again (another event, a retry): no second mail
    notice = Notice("turn", f"{gid}:{state['move']}", Text("x"), Text("y"), f"/games/{gid}")
    pid = second.get("/api/players/me").json()["player"]["id"]
    done = client.portal.call(notifier_of(client).deliver, pid, notice)
    assert done["email"] is False
    assert len(mails_to(inbox, second_address)) == 1


def test_no_mail_without_a_verified_address_nor_to_the_player_who_moved(
    mailing: tuple[TestClient, Any],
) -> None:
    client, inbox = mailing
    ann, ann_id = account(client, "Ann", "ann@example.org")
    bob, _ = account(client, "Bob", None)
    gid, first, second = start_game(ann, bob)
    if first is ann:
        play_turn(ann, gid)
        play_turn(bob, gid)
    else:
        play_turn(bob, gid)
    settle(client)
    # Ann was told of her turn once per turn; Bob has no address, so no mail at all
    turns = mails_to(inbox, "ann@example.org")
    assert len(turns) == (2 if first is ann else 1)
    assert len(inbox.messages) == len(turns)
    # an unverified address gets nothing
    with storage_of(client).engine.begin() as c:
        c.execute(update(PlayerRow).where(PlayerRow.id == ann_id).values(email_verified_at=None))
    play_turn(ann, gid)
    play_turn(bob, gid)
    settle(client)
    assert len(mails_to(inbox, "ann@example.org")) == len(turns)


def test_the_unsubscribe_link_turns_mail_off(mailing: tuple[TestClient, Any]) -> None:
    client, inbox = mailing
    ann, _ = account(client, "Ann", "ann@example.org")
    bob, _ = account(client, "Bob", "bob@example.org", language="nl")
    gid, first, second = start_game(ann, bob)
    settle(client)
    (mail,) = inbox.messages
    to = mail["To"]
    link = link_in(mail, "/unsubscribe/")
    assert mail["List-Unsubscribe"].strip() == f"<{link}>"
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    stranger = browser(client)
    path = "/" + link.split("/", 3)[3]
    # a forged or altered token changes nothing
    for bad in (path[:-2] + ("AA" if not path.endswith("AA") else "BB"), "/unsubscribe/x.y"):
        assert stranger.get(bad).status_code == 403
    assert first.get("/api/players/me/notifications").json()["settings"]["email"]["on"] is True
    # the real one works without a session, and again (a mail client's one-click POST)
    page = stranger.get(path)
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert stranger.post(path).status_code == 200
    assert first.get("/api/players/me/notifications").json()["settings"]["email"]["on"] is False
    # the next turns of that player send no mail
    play_turn(first, gid)
    play_turn(second, gid)
    settle(client)
    assert len(mails_to(inbox, to)) == 1


def test_a_reminder_before_the_deadline_of_the_player_who_did_not_move(
    make_client: Callable[..., TestClient], smtp_server: tuple[str, Any]
) -> None:
    url, inbox = smtp_server
    client = make_client(
        mail=MailConfig(smtp_url=url, public_url="https://splendor.example.org"),
        limits=Limits.unlimited_rates(min_clock=2),
    )
    notifier_of(client).deadline_share = 0.5
    ann, _ = account(client, "Ann", "ann@example.org")
    bob, _ = account(client, "Bob", "bob@example.org")
    gid, first, second = start_game(ann, bob, {"kind": "turn", "per_move": 4})
    play_turn(first, gid)  # in time: no reminder for the first player
    late = "bob@example.org" if first is ann else "ann@example.org"
    deadline = time.time() + 15
    while len(mails_to(inbox, late)) < 2 and time.time() < deadline:
        time.sleep(0.1)
    settle(client)
    turn, reminder = mails_to(inbox, late)
    assert "left to play" in reminder["Subject"] and "Splendor Duel" in reminder["Subject"]
    assert link_in(reminder, "/games/").startswith(f"https://splendor.example.org/games/{gid}")
    early = "ann@example.org" if first is ann else "bob@example.org"
    assert all("left to play" not in m["Subject"] for m in mails_to(inbox, early))
    del turn


def test_a_restarted_server_reminds_of_the_deadline_without_a_second_turn_mail(
    make_client: Callable[..., TestClient], smtp_server: tuple[str, Any], tmp_path: Path
) -> None:
    """The reminder's timer lives in the server's process: the restarted server arms it
    again when it loads the games in progress with a clock (``game.resumed``), and does
    not send the turn's mail again."""
    url, inbox = smtp_server
    database = f"sqlite:///{tmp_path / 'restart.db'}"
    options = {"mail": MailConfig(smtp_url=url), "limits": Limits.unlimited_rates(min_clock=2)}
    before = make_client(database, **options)
    ann, _ = account(before, "Ann", "ann@example.org")
    bob, _ = account(before, "Bob", "bob@example.org")
    gid, first, _ = start_game(ann, bob, {"kind": "turn", "per_move": 8})
    play_turn(first, gid)
    settle(before)
    waiting = "bob@example.org" if first is ann else "ann@example.org"
    assert [m["Subject"] for m in mails_to(inbox, waiting)] == ["Your turn in Splendor Duel"]
    before.__exit__(None, None, None)  # the server stops before the reminder is due
    after = make_client(database, **options)
    deadline = time.time() + 20
    while len(mails_to(inbox, waiting)) < 2 and time.time() < deadline:
        time.sleep(0.1)
    settle(after)
    subjects = [m["Subject"] for m in mails_to(inbox, waiting)]
    assert len(subjects) == 2 and "left to play" in subjects[1], subjects


def test_mail_is_rate_limited_per_player(mailing: tuple[TestClient, Any]) -> None:
    client, inbox = mailing
    _, pid = account(client, "Ann", "ann@example.org")
    notifier = notifier_of(client)
    notifier.delivery.email_per_hour = 2
    sent = []
    for k in range(3):
        notice = Notice("invite", f"t{k}", Text("Come"), Text("Come play"), "/tables/t")
        sent.append(client.portal.call(notifier.deliver, pid, notice)["email"])
    assert sent == [True, True, False]
    assert len(mails_to(inbox, "ann@example.org")) == 2
    with storage_of(client).engine.begin() as c:
        rows = c.scalars(select(NotificationRow.key).where(NotificationRow.player_id == pid))
        assert sorted(rows) == ["t0", "t1"]


def test_notify_for_other_parts_and_a_failing_smtp_server_never_breaks_a_move(
    make_client: Callable[..., TestClient],
) -> None:
    """An SMTP server that cannot be reached: the move goes through, the failure is
    counted; ``notify`` refuses an unknown kind."""
    from tests.server.util import free_port

    client = make_client(mail=MailConfig(smtp_url=f"smtp://127.0.0.1:{free_port()}"))
    ann, _ = account(client, "Ann", "ann@example.org")
    bob, _ = account(client, "Bob", "bob@example.org")
    gid, first, _ = start_game(ann, bob)
    play_turn(first, gid)
    settle(client)
    notifier = notifier_of(client)
    assert notifier.delivery.delivered["failed"] >= 2 and notifier.delivery.delivered["email"] == 0
    with pytest.raises(ValueError, match="kind"):
        notifier.notify("x", "spam", "k", "t", "b", "/")
    with pytest.raises(ValueError, match="key"):
        notifier.notify("x", "invite", "", "t", "b", "/")


def test_a_table_filling_a_game_starting_and_a_tournament_round(
    mailing: tuple[TestClient, Any],
) -> None:
    """A player sitting at a table tells the host; the last seat taken tells everyone
    seated but the one who took it; a tournament round tells each paired player (these
    kinds go by e-mail once a player turns them on)."""
    from splendor.server.events import TournamentEvent

    client, inbox = mailing
    on = {"email": {"table": True, "start": True}}
    people = []
    for name in ("Ann", "Bob", "Cy"):
        c, pid = account(client, name, f"{name.lower()}@example.org")
        assert c.put("/api/players/me/notifications", json=on).status_code == 200
        people.append((c, pid))
    (ann, ann_id), (bob, bob_id), (cy, cy_id) = people
    table = ann.post("/api/tables", json={"game": "splendor", "num_players": 3}).json()
    assert bob.post(f"/api/tables/{table['id']}/join").status_code == 200
    settle(client)
    (joined,) = mails_to(inbox, "ann@example.org")
    assert joined["Subject"] == "Bob joined your table"
    assert "one seat is still free" in joined.get_content()
    assert link_in(joined, "/tables/").endswith(f"/tables/{table['id']}")
    assert mails_to(inbox, "bob@example.org") == []
    gid = cy.post(f"/api/tables/{table['id']}/join").json()["game_id"]
    settle(client)
    for address in ("ann@example.org", "bob@example.org"):
        started = [m for m in mails_to(inbox, address) if "started" in m["Subject"]]
        assert len(started) == 1 and link_in(started[0], "/games/").endswith(f"/games/{gid}")
    assert all("started" not in m["Subject"] for m in mails_to(inbox, "cy@example.org"))
    # a tournament round (as the tournaments part emits it)
    event = TournamentEvent("t1", "Spring Cup", 2, {gid: (ann_id, bob_id, cy_id)})
    client.portal.call(_emit, client, event)
    settle(client)
    for address in ("ann@example.org", "bob@example.org", "cy@example.org"):
        (mail,) = [m for m in mails_to(inbox, address) if "Spring Cup" in m["Subject"]]
        assert mail["Subject"] == "Spring Cup: round 2 is ready"
        assert link_in(mail, "/games/").endswith(f"/games/{gid}")


async def _emit(client: TestClient, event: Any) -> None:
    client.app.state.events.emit("tournament.round", event)  # type: ignore[attr-defined]


# ---------------------------------------------------------------------- settings


def test_the_settings_api(client: TestClient) -> None:
    assert client.get("/api/players/me/notifications").status_code == 401
    ann, _ = account(client, "Ann", None)
    got = ann.get("/api/players/me/notifications").json()
    assert got["settings"]["email"] == {
        "on": True,
        "turn": True,
        "deadline": True,
        "start": False,
        "table": False,
        "tournament": True,
        "invite": True,
    }
    assert got["email"] == {"address": None, "verified": False}
    assert got["push"] == {"subscriptions": 0}
    changed = ann.put("/api/players/me/notifications", json={"push": {"turn": False}}).json()
    assert changed["settings"]["push"]["turn"] is False and changed["settings"]["push"]["on"]
    for bad in (
        {"sms": {"on": True}},
        {"email": {"weather": True}},
        {"email": {"on": "yes"}},
        {"email": True},
        {},
    ):
        r = ann.put("/api/players/me/notifications", json=bad)
        assert r.status_code == 400, (bad, r.text)
    assert ann.get("/api/players/me/notifications").json() == changed


def test_settings_choose_the_kinds_and_channels(mailing: tuple[TestClient, Any]) -> None:
    client, inbox = mailing
    ann, pid = account(client, "Ann", "ann@example.org")
    ann.put("/api/players/me/notifications", json={"email": {"invite": False}})
    notice = Notice("invite", "t1", Text("Come"), Text("Come play"), "/tables/t")
    assert client.portal.call(notifier_of(client).deliver, pid, notice)["email"] is False
    ann.put("/api/players/me/notifications", json={"email": {"invite": True, "on": False}})
    notice = Notice("invite", "t2", Text("Come"), Text("Come play"), "/tables/t")
    assert client.portal.call(notifier_of(client).deliver, pid, notice)["email"] is False
    assert inbox.messages == []


# ---------------------------------------------------------------------- push


class PushService:
    """A local HTTP server standing in for a browser's push service: records every
    request (path, headers, body); answers 201, or 410 under ``/gone/``."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, dict[str, str], bytes]] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                outer.requests.append((self.path, dict(self.headers.items()), body))
                self.send_response(410 if self.path.startswith("/gone/") else 201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def push_service() -> Iterator[PushService]:
    service = PushService()
    yield service
    service.close()


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def browser_keys() -> tuple[Any, dict[str, str]]:
    """A browser's push keys: its P-256 private key, and the ``keys`` it sends."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return key, {"p256dh": b64(point), "auth": b64(os.urandom(16))}


def test_push_is_signed_with_vapid_and_encrypted_for_the_browser(
    make_client: Callable[..., TestClient], push_service: PushService
) -> None:
    import http_ece

    client = make_client(mail=MailConfig(local_push_endpoints=True))  # the service is local
    from py_vapid import Vapid02

    ann, _ = account(client, "Ann", None)
    bob, bob_id = account(client, "Bob", None)
    key, keys = browser_keys()
    endpoint = push_service.url + "/push/bob-1"
    r = bob.post("/api/push/subscriptions", json={"endpoint": endpoint, "keys": keys})
    assert r.status_code == 201 and r.json() == {"subscriptions": 1}
    server_key = client.get("/api/push/key").json()["key"]
    assert len(unb64(server_key)) == 65 and unb64(server_key)[0] == 4
    gid, first, second = start_game(ann, bob)
    if first is bob:
        play_turn(bob, gid)
        play_turn(ann, gid)
    else:
        play_turn(ann, gid)
    settle(client)
    (path, headers, body), *more = push_service.requests
    assert path == "/push/bob-1" and more == []  # one push: Bob's turn
    headers = {k.lower(): v for k, v in headers.items()}
    # VAPID (RFC 8292): vapid t=<JWT signed by the server's key>,k=<that key>
    scheme, _, params = headers["authorization"].partition(" ")
    fields = dict(p.split("=", 1) for p in params.split(","))
    assert scheme == "vapid" and fields["k"] == server_key
    assert Vapid02.verify(headers["authorization"])
    claims = json.loads(unb64(fields["t"].split(".")[1]))
    assert claims["aud"] == push_service.url and claims["sub"].startswith("mailto:")
    assert claims["exp"] > time.time()
    # encrypted for the browser (RFC 8291, aes128gcm), kept until the deadline at most
    assert headers["content-encoding"] == "aes128gcm"
    assert 60 <= int(headers["ttl"]) <= 86400
    assert b"Your turn" not in body
    plain = http_ece.decrypt(body, private_key=key, auth_secret=unb64(keys["auth"]))
    message = json.loads(plain)
    assert message["title"] == "Your turn in Splendor Duel" and message["kind"] == "turn"
    assert message["url"].endswith(f"/games/{gid}") and message["url"].startswith("http")
    # a push service answering 410: the subscription is deleted
    gone = push_service.url + "/gone/bob-2"
    bob.post("/api/push/subscriptions", json={"endpoint": gone, "keys": keys})
    notice = Notice("invite", "t1", Text("Come"), Text("Come play"), "/tables/t")
    client.portal.call(notifier_of(client).deliver, bob_id, notice)
    with storage_of(client).engine.begin() as c:
        left = c.scalars(select(PushSubscriptionRow.endpoint)).all()
    assert left == [endpoint]


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"endpoint": "ftp://push.example.org/x", "keys": "K"},
        {"endpoint": "https://push.example.org/x"},
        {"endpoint": "https://user:pw@push.example.org/x", "keys": "K"},
        {"endpoint": "https://push.example.org/x\r\nX: y", "keys": "K"},
        {"endpoint": "https://push.example.org:99999/x", "keys": "K"},
        {"endpoint": "https:///x", "keys": "K"},
        {"endpoint": "https://push.example.org/" + "x" * 3000, "keys": "K"},
        {"endpoint": 5, "keys": "K"},
        {"endpoint": "https://push.example.org/x", "keys": {"p256dh": "AAAA", "auth": "K"}},
        {"endpoint": "https://push.example.org/x", "keys": {"p256dh": "K", "auth": "short"}},
        {"endpoint": "https://push.example.org/x", "keys": {"p256dh": "K", "auth": "!!!"}},
    ],
)
def test_junk_subscriptions_are_refused(client: TestClient, body: dict[str, Any]) -> None:
    _, keys = browser_keys()
    body = json.loads(json.dumps(body).replace('"K"', json.dumps(keys)))
    if isinstance(body.get("keys"), dict):
        body["keys"] = {k: keys[k] if v == "K" else v for k, v in body["keys"].items()}
    ann, _ = account(client, "Ann", None)
    r = ann.post("/api/push/subscriptions", json=body)
    assert r.status_code == 400, r.text
    assert ann.get("/api/players/me/notifications").json()["push"]["subscriptions"] == 0


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://push.example.org/x",
        "https://localhost/x",
        "https://push.localhost/x",
        "https://127.0.0.1:8080/x",
        "https://10.0.0.5/x",
        "https://192.168.1.1/x",
        "https://[::1]/x",
        "https://169.254.169.254/latest/meta-data",
        "https://metadata.google.internal/x",
        "https://printer.local/x",
        "https://intranet/x",
    ],
)
def test_an_endpoint_on_the_servers_own_network_is_refused(
    make_client: Callable[..., TestClient], endpoint: str
) -> None:
    """A player cannot make the server post to its own machine or network (server-side
    request forgery): browsers' push services are https:// on public hosts. A server made
    with ``local_push_endpoints`` (its tests, a push service of its own) takes them."""
    _, keys = browser_keys()
    client = make_client()
    ann, _ = account(client, "Ann", None)
    r = ann.post("/api/push/subscriptions", json={"endpoint": endpoint, "keys": keys})
    assert r.status_code == 400, r.text
    assert ann.get("/api/players/me/notifications").json()["push"]["subscriptions"] == 0
    local = make_client(mail=MailConfig(local_push_endpoints=True))
    bob, _ = account(local, "Bob", None)
    r = bob.post("/api/push/subscriptions", json={"endpoint": endpoint, "keys": keys})
    assert r.status_code == 201, r.text


def test_subscriptions_need_a_player_and_can_be_removed(client: TestClient) -> None:
    _, keys = browser_keys()
    sub = {"endpoint": "https://push.example.org/a", "keys": keys}
    assert browser(client).post("/api/push/subscriptions", json=sub).status_code == 401
    ann, _ = account(client, "Ann", None)
    assert ann.post("/api/push/subscriptions", json=sub).json() == {"subscriptions": 1}
    assert ann.post("/api/push/subscriptions", json=sub).json() == {"subscriptions": 1}
    gone = ann.request("DELETE", "/api/push/subscriptions", json={"endpoint": sub["endpoint"]})
    assert gone.json() == {"deleted": True, "subscriptions": 0}
    again = ann.request("DELETE", "/api/push/subscriptions", json={"endpoint": sub["endpoint"]})
    assert again.json() == {"deleted": False, "subscriptions": 0}
    assert ann.request("DELETE", "/api/push/subscriptions", json={}).status_code == 400


def test_the_service_worker_is_served_at_the_root(client: TestClient, web_dir: Path) -> None:
    assert client.get("/sw.js").status_code == 404  # not installed in this stand-in client
    (web_dir / "sw.js").write_text((WEB_DIR / "sw.js").read_text())
    r = client.get("/sw.js")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    assert r.headers["service-worker-allowed"] == "/"
    assert "notificationclick" in r.text


def test_the_vapid_key_is_made_once_and_kept(make_client: Callable[..., TestClient]) -> None:
    """Two server processes on one database (or a restarted one) sign with one key."""
    first = make_client()
    key = first.get("/api/push/key").json()["key"]
    again = make_client(str(storage_of(first).engine.url))
    assert again.get("/api/push/key").json()["key"] == key


# ---------------------------------------------------------------------- serve options


def test_serve_passes_its_mail_options(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    import splendor.server.app as server_app
    from splendor.cli import app

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(server_app, "serve", lambda *a, **kw: calls.append(kw))
    args = [
        "serve",
        "--smtp-url",
        "smtp+starttls://u:p@mail.example.org:587",
        "--mail-from",
        "Splendor <games@example.org>",
        "--public-url",
        "https://splendor.example.org/",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert calls[0]["mail"] == MailConfig(
        "smtp+starttls://u:p@mail.example.org:587",
        "Splendor <games@example.org>",
        "https://splendor.example.org",
    )
    for bad, words in (
        (["--smtp-url", "http://mail"], "SMTP URL"),
        (["--mail-from", "nobody"], "--mail-from"),
        (["--public-url", "splendor.example.org"], "--public-url"),
    ):
        result = CliRunner().invoke(app, ["serve", *bad])
        assert result.exit_code == 2 and words in result.output, result.output
