"""Accounts (issue 32): an e-mail address verified by a mailed link, password reset by
e-mail (single-use, expiring, rate-limited, never telling whether a name or address
exists), password change, account deletion, one namespace for names (case and Unicode
confusables), and rated games for accounts only. The mails go through a real local SMTP
server (``smtp_server``) and the tests follow their links."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import column, select, table, update

from splendor.server import migrations
from splendor.server.account_mail import RESET_PER_HOUR, VERIFY_PER_HOUR
from splendor.server.app import Limits, MailConfig
from splendor.server.community_rows import EmailTokenRow, FollowRow
from splendor.server.names import name_skeleton
from splendor.server.rated_games import apply_ratings
from splendor.server.storage import ChatRow, GameRow, PlayerRow, RatingRow, SeatRow, Storage, utcnow

from .test_tables import account, guest, storage_of

PASSWORD = "correct horse"
LINK = re.compile(r"(https?://\S+?/(verify-email|reset))\?token=([A-Za-z0-9_-]+)")


@pytest.fixture
def mail_client(
    make_client: Callable[..., TestClient], smtp_server: tuple[str, Any]
) -> tuple[TestClient, Any]:
    """An app that mails through the local SMTP server, and that server's inbox."""
    url, inbox = smtp_server
    return make_client(mail=MailConfig(smtp_url=url)), inbox


def wait_mail(inbox: Any, count: int, seconds: float = 10.0) -> list[Any]:
    """The inbox once it holds ``count`` messages (the reset mails leave in the background)."""
    deadline = time.monotonic() + seconds
    while len(inbox.messages) < count and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(inbox.messages) >= count, f"{len(inbox.messages)} mails, expected {count}"
    return list(inbox.messages)


def link_of(message: Any) -> tuple[str, str, str]:
    """``(page, kind, token)`` of the link in a mail."""
    found = LINK.search(message.get_content())
    assert found is not None, message.get_content()
    return found.group(1), found.group(2), found.group(3)


def verified_account(client: TestClient, inbox: Any, name: str, email: str) -> TestClient:
    """An account whose address ``email`` is verified by following its mailed link."""
    c, _ = account(client, name)
    before = len(inbox.messages)
    r = c.post("/api/players/me/email", json={"email": email})
    assert r.status_code == 202 and r.json()["sent"] is True, r.text
    page, kind, token = link_of(wait_mail(inbox, before + 1)[-1])
    assert kind == "verify-email" and c.get(page).status_code == 200  # the page that posts it
    assert c.post("/api/players/verify-email", json={"token": token}).json() == {
        "verified": True,
        "email": email,
    }
    return c


def me(c: TestClient) -> dict[str, Any]:
    player: dict[str, Any] = c.get("/api/players/me").json()["player"]
    return player


# --------------------------------------------------------------------------- the address


def test_an_address_is_verified_by_the_link_mailed_to_it(
    mail_client: tuple[TestClient, Any],
) -> None:
    client, inbox = mail_client
    ann, _ = account(client, "Ann")
    r = ann.post("/api/players/me/email", json={"email": " ann@example.org "})
    assert r.status_code == 202
    player = r.json()["player"]
    assert player["email"] == "ann@example.org" and player["email_verified"] is False
    (mail,) = wait_mail(inbox, 1)
    assert mail["To"] == "ann@example.org" and "Confirm" in mail["Subject"]
    assert "Ann" in mail.get_content()
    page, _, token = link_of(mail)
    assert page == "http://testserver/verify-email"
    bob, _ = account(client, "Bob")  # the link works in any browser, even another player's
    assert bob.post("/api/players/verify-email", json={"token": token}).status_code == 200
    assert me(ann)["email_verified"] is True
    # the address is the player's own: the player page does not show it
    assert "email" not in ann.get(f"/api/players/{player['id']}").json()["player"]
    # a used link, a forged one, a wrong type: clear refusals
    reused = ann.post("/api/players/verify-email", json={"token": token})
    assert reused.status_code == 409 and "used" in reused.json()["detail"]
    forged = ann.post("/api/players/verify-email", json={"token": token[:-2] + "xx"})
    assert forged.status_code == 404 and "not valid" in forged.json()["detail"]
    assert ann.post("/api/players/verify-email", json={"token": 5}).status_code == 400
    assert ann.post("/api/players/verify-email", json={"token": "x" * 500}).status_code == 404
    # setting the verified address again mails nothing
    again = ann.post("/api/players/me/email", json={"email": "ann@example.org"})
    assert again.status_code == 202 and again.json()["sent"] is False
    assert len(inbox.messages) == 1


def test_an_expired_or_superseded_link_verifies_nothing(
    mail_client: tuple[TestClient, Any],
) -> None:
    client, inbox = mail_client
    ann, a = account(client, "Ann")
    ann.post("/api/players/me/email", json={"email": "old@example.org"})
    _, _, old = link_of(wait_mail(inbox, 1)[0])
    ann.post("/api/players/me/email", json={"email": "new@example.org"})
    _, _, new = link_of(wait_mail(inbox, 2)[1])
    r = ann.post("/api/players/verify-email", json={"token": old})  # retired by the new one
    assert r.status_code == 409
    with storage_of(client).engine.begin() as c:
        c.execute(update(EmailTokenRow).values(expires_at=utcnow() - timedelta(seconds=1)))
    r = ann.post("/api/players/verify-email", json={"token": new})
    assert r.status_code == 410 and "expired" in r.json()["detail"]
    assert me(ann)["email_verified"] is False and me(ann)["email"] == "new@example.org"
    # resend: a fresh link that works
    assert ann.post("/api/players/me/email/resend").status_code == 202
    _, _, fresh = link_of(wait_mail(inbox, 3)[2])
    assert ann.post("/api/players/verify-email", json={"token": fresh}).status_code == 200
    assert ann.post("/api/players/me/email/resend").status_code == 409  # nothing waiting
    removed = ann.delete("/api/players/me/email").json()["player"]
    assert removed["email"] is None and removed["email_verified"] is False
    assert a["id"] == removed["id"]


@pytest.mark.parametrize(
    "address",
    [
        "ann@example.org\r\nBcc: everyone@example.org",
        "ann@example.org\nSubject: free",
        "ann@example.org, bob@example.org",
        "Ann <ann@example.org>",
        "not an address",
        "ann@localhost",
        "a" * 250 + "@example.org",
        5,
        None,
    ],
)
def test_a_bad_or_injected_address_is_refused_and_nothing_is_sent(
    mail_client: tuple[TestClient, Any], address: Any
) -> None:
    client, inbox = mail_client
    ann, _ = account(client, "Ann")
    r = ann.post("/api/players/me/email", json={"email": address})
    assert r.status_code == 400, r.text
    assert me(ann)["email"] is None and inbox.messages == []
    with storage_of(client).session() as s:
        assert s.scalars(select(EmailTokenRow)).all() == []


def test_a_guest_has_no_address_and_verification_mails_are_capped(
    mail_client: tuple[TestClient, Any],
) -> None:
    client, inbox = mail_client
    gus, _ = guest(client, "Gus")
    r = gus.post("/api/players/me/email", json={"email": "gus@example.org"})
    assert r.status_code == 403 and "account" in r.json()["detail"]
    assert client.post("/api/players/me/email", json={"email": "x@example.org"}).status_code == 401
    ann, _ = account(client, "Ann")
    for i in range(VERIFY_PER_HOUR):
        r = ann.post("/api/players/me/email", json={"email": f"ann{i}@example.org"})
        assert r.status_code == 202
    r = ann.post("/api/players/me/email", json={"email": "ann-more@example.org"})
    assert r.status_code == 429 and me(ann)["email"] == f"ann{VERIFY_PER_HOUR - 1}@example.org"
    assert len(wait_mail(inbox, VERIFY_PER_HOUR)) == VERIFY_PER_HOUR


def test_the_mails_language_is_the_players(mail_client: tuple[TestClient, Any]) -> None:
    client, inbox = mail_client
    ann, _ = account(client, "Ann")
    ann.cookies.set("lang", "fr")
    ann.post("/api/players/me/email", json={"email": "ann@example.org"})
    assert me(ann)["language"] == "fr"
    wait_mail(inbox, 1)
    other = TestClient(client.app, headers={"Accept-Language": "nl"})
    other.portal = client.portal
    r = other.post("/api/players/login", json={"name": "Ann", "password": PASSWORD})
    assert r.json()["player"]["language"] == "nl"  # the last log-in's language


# --------------------------------------------------------------------------- password reset


def test_a_password_is_reset_by_the_mailed_link(mail_client: tuple[TestClient, Any]) -> None:
    client, inbox = mail_client
    ann = verified_account(client, inbox, "Ann", "ann@example.org")
    elsewhere = TestClient(client.app)
    elsewhere.portal = client.portal
    elsewhere.post("/api/players/login", json={"name": "Ann", "password": PASSWORD})
    assert me(elsewhere)["name"] == "Ann"
    stranger = TestClient(client.app)
    stranger.portal = client.portal
    r = stranger.post("/api/players/reset", json={"name_or_email": "ANN"})  # any case
    assert r.status_code == 202 and "on its way" in r.json()["detail"]
    mail = wait_mail(inbox, 2)[1]
    assert mail["To"] == "ann@example.org" and "password" in mail["Subject"]
    page, kind, token = link_of(mail)
    assert kind == "reset" and stranger.get(page).status_code == 200
    short = stranger.post("/api/players/reset/confirm", json={"token": token, "password": "short"})
    assert short.status_code == 400  # the token is not spent
    r = stranger.post("/api/players/reset/confirm", json={"token": token, "password": "new pass 1"})
    assert r.status_code == 200 and r.json()["player"]["name"] == "Ann"
    assert me(ann) is None and me(elsewhere) is None  # every session logged out
    old = stranger.post("/api/players/login", json={"name": "Ann", "password": PASSWORD})
    assert old.status_code == 401
    new = stranger.post("/api/players/login", json={"name": "Ann", "password": "new pass 1"})
    assert new.status_code == 200
    again = stranger.post("/api/players/reset/confirm", json={"token": token, "password": "x" * 9})
    assert again.status_code == 409
    login = stranger.post("/api/players/login", json={"name": "Ann", "password": "x" * 9})
    assert login.status_code == 401


def test_a_reset_answers_the_same_whatever_exists(mail_client: tuple[TestClient, Any]) -> None:
    """A name or address that does not exist, an account without an address, an address
    not verified: the same 202 and the same text, and no mail; only the verified address
    receives one (asked by name or by address)."""
    client, inbox = mail_client
    verified_account(client, inbox, "Ann", "ann@example.org")
    account(client, "Bob")  # no address
    cy, _ = account(client, "Cy")
    cy.post("/api/players/me/email", json={"email": "cy@example.org"})  # not verified
    guest(client, "Gus")
    wait_mail(inbox, 2)
    answers = set()
    for asked in ("Nobody", "nobody@example.org", "Bob", "Cy", "cy@example.org", "Gus"):
        r = client.post("/api/players/reset", json={"name_or_email": asked})
        answers.add((r.status_code, r.text))
    r = client.post("/api/players/reset", json={"name_or_email": "ANN@example.org"})
    answers.add((r.status_code, r.text))
    assert len(answers) == 1 and answers.pop()[0] == 202
    mails = wait_mail(inbox, 3)
    time.sleep(0.5)  # nothing else arrives
    assert [m["To"] for m in inbox.messages[2:]] == ["ann@example.org"]
    assert len(mails) == 3
    for bad in ({}, {"name_or_email": 5}, {"name_or_email": ""}, {"name_or_email": "x" * 300}):
        assert client.post("/api/players/reset", json=bad).status_code == 400


def test_a_reset_flood_is_capped_per_account_and_per_address(
    make_client: Callable[..., TestClient], smtp_server: tuple[str, Any]
) -> None:
    url, inbox = smtp_server
    client = make_client(mail=MailConfig(smtp_url=url))
    verified_account(client, inbox, "Ann", "ann@example.org")
    for _ in range(RESET_PER_HOUR + 4):
        assert client.post("/api/players/reset", json={"name_or_email": "Ann"}).status_code == 202
    wait_mail(inbox, 1 + RESET_PER_HOUR)
    time.sleep(0.5)
    assert len(inbox.messages) == 1 + RESET_PER_HOUR  # the verification and the capped resets
    limited = make_client(mail=MailConfig(smtp_url=url), limits=Limits(auth_rate="3/minute"))
    codes = [
        limited.post("/api/players/reset", json={"name_or_email": f"n{i}"}).status_code
        for i in range(4)
    ]
    assert codes == [202, 202, 202, 429]


def test_an_expired_or_forged_reset_link_changes_nothing(
    mail_client: tuple[TestClient, Any],
) -> None:
    client, inbox = mail_client
    ann = verified_account(client, inbox, "Ann", "ann@example.org")
    client.post("/api/players/reset", json={"name_or_email": "ann@example.org"})
    _, _, token = link_of(wait_mail(inbox, 2)[1])
    forged = client.post(
        "/api/players/reset/confirm", json={"token": "A" * 43, "password": "new pass 1"}
    )
    assert forged.status_code == 404
    _, _, verification = link_of(inbox.messages[0])
    verify_token = client.post(  # a verification token is not a reset token
        "/api/players/reset/confirm", json={"token": verification, "password": "new pass 1"}
    )
    assert verify_token.status_code == 404
    with storage_of(client).engine.begin() as c:
        c.execute(update(EmailTokenRow).values(expires_at=utcnow() - timedelta(minutes=1)))
    r = client.post("/api/players/reset/confirm", json={"token": token, "password": "new pass 1"})
    assert r.status_code == 410
    assert me(ann)["name"] == "Ann"  # still logged in: nothing changed
    assert client.post("/api/players/login", json={"name": "Ann", "password": PASSWORD}).is_success


# --------------------------------------------------------------------------- password, deletion


def test_a_password_change_needs_the_current_one_and_logs_out_the_other_sessions(
    client: TestClient,
) -> None:
    ann, _ = account(client, "Ann")
    other = TestClient(client.app)
    other.portal = client.portal
    other.post("/api/players/login", json={"name": "Ann", "password": PASSWORD})
    wrong = ann.post("/api/players/me/password", json={"current": "wrong one", "new": "new pass 1"})
    assert wrong.status_code == 401 and me(other) is not None
    short = ann.post("/api/players/me/password", json={"current": PASSWORD, "new": "short"})
    assert short.status_code == 400
    r = ann.post("/api/players/me/password", json={"current": PASSWORD, "new": "new pass 1"})
    assert r.status_code == 200 and me(ann)["name"] == "Ann" and me(other) is None
    assert client.post(
        "/api/players/login", json={"name": "Ann", "password": "new pass 1"}
    ).is_success
    gus, _ = guest(client, "Gus")
    r = gus.post("/api/players/me/password", json={"current": "", "new": "new pass 1"})
    assert r.status_code == 400


def test_a_deleted_account_keeps_its_games_under_an_anonymous_name(client: TestClient) -> None:
    ann, a = account(client, "Ann")
    bob, b = account(client, "Bob")
    with storage_of(client).engine.begin() as c:
        c.execute(
            FollowRow.__table__.insert(),
            {"follower_id": a["id"], "followee_id": b["id"], "created_at": utcnow()},
        )
    tid = ann.post("/api/tables", json={"game": "duel"}).json()["id"]
    gid = bob.post(f"/api/tables/{tid}/join").json()["game_id"]
    ann.post(f"/api/games/{gid}/chat", json={"text": "good luck"})
    waiting = ann.post("/api/tables", json={"game": "duel"}).json()["id"]
    wrong = ann.request("DELETE", "/api/players/me", json={"password": "wrong one"})
    assert wrong.status_code == 401 and me(ann)["name"] == "Ann"
    assert ann.request("DELETE", "/api/players/me", json={}).status_code == 400
    r = ann.request("DELETE", "/api/players/me", json={"password": PASSWORD})
    assert r.status_code == 200 and r.json()["player"] is None
    anonymous = r.json()["name"]
    assert re.fullmatch(r"deleted-[0-9a-f]{8}", anonymous)
    assert me(ann) is None
    assert (
        client.post("/api/players/login", json={"name": "Ann", "password": PASSWORD}).status_code
        == 401
    )
    page = bob.get(f"/api/players/{a['id']}").json()
    assert page["player"]["name"] == anonymous and page["player"]["deleted"] is True
    assert page["player"]["account"] is False and page["player"]["guest"] is False
    storage = storage_of(client)
    with storage.session() as s:
        row = s.get(PlayerRow, a["id"])
        assert row is not None and row.deleted_at is not None
        assert (row.password_hash, row.email, row.name_key, row.name_skeleton) == (None,) * 4
        assert s.scalar(select(SeatRow.name).where(SeatRow.player_id == a["id"])) == anonymous
        assert s.scalar(select(ChatRow.name).where(ChatRow.game_id == gid)) == anonymous
        assert s.get(GameRow, gid) is not None  # the game is kept
        assert s.scalars(select(FollowRow)).all() == []
    assert bob.get(f"/api/tables/{waiting}").json()["status"] == "closed"  # its table left
    assert account(client, "ann")[1]["name"] == "ann"  # the name is free again


def test_a_guest_deletes_itself_without_a_password(client: TestClient) -> None:
    gus, g = guest(client, "Gus")
    r = gus.request("DELETE", "/api/players/me")
    assert r.status_code == 200 and me(gus) is None
    assert client.get(f"/api/players/{g['id']}").json()["player"]["deleted"] is True
    assert client.request("DELETE", "/api/players/me").status_code == 401


# --------------------------------------------------------------------------- one namespace


@pytest.mark.parametrize("taken", ["Alice", "ALICE", "\u0410lice", "alice", "Ａｌｉｃｅ", "AIice"])
def test_names_are_one_namespace_across_case_and_confusables(
    client: TestClient, taken: str
) -> None:
    assert name_skeleton("Alice") == name_skeleton("ALICE") == name_skeleton("\u0410lice")
    assert name_skeleton("AIice") == name_skeleton("Alice") != name_skeleton("Alicia")
    account(client, "Alice")
    r = client.post("/api/players/guest", json={"name": taken})
    assert r.status_code == 409 and "account" in r.json()["detail"], r.text
    c = TestClient(client.app)
    r = c.post("/api/players/signup", json={"name": taken, "password": PASSWORD})
    assert r.status_code == 409 and "taken" in r.json()["detail"]
    gus, _ = guest(client, "Gus")  # a guest becoming an account cannot take it either
    r = gus.post("/api/players/signup", json={"name": taken, "password": PASSWORD})
    assert r.status_code == 409 and me(gus)["name"] == "Gus" and me(gus)["account"] is False


def test_guests_may_share_a_name_that_no_account_holds(client: TestClient) -> None:
    guest(client, "\u0410nn")  # Cyrillic А
    guest(client, "Ann")
    _, ann = account(client, "Ann")  # an account may take a guest's name
    assert ann["account"] is True
    assert client.post("/api/players/guest", json={"name": "Ann"}).status_code == 409
    assert account(client, "Bob")[1]["name"] == "Bob"


def test_the_migration_fills_the_skeletons_of_existing_accounts(tmp_path: Any) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'old.db'}")
    migrations.upgrade(storage.engine, "0008")
    now = utcnow()
    old_players = table(  # the table as 0008 left it
        "players", *(column(n) for n in ("id", "name", "name_key", "created_at", "last_seen_at"))
    )
    with storage.engine.begin() as c:
        for pid, name, key in (("a", "\u0410lice", "\u0430lice"), ("g", "Gus", None)):
            c.execute(
                old_players.insert().values(
                    id=pid, name=name, name_key=key, created_at=now, last_seen_at=now
                )
            )
    storage.migrate()
    with storage.session() as s:
        skeletons = dict(s.execute(select(PlayerRow.id, PlayerRow.name_skeleton)).all())
    storage.close()
    assert skeletons == {"a": name_skeleton("Alice"), "g": None}


# --------------------------------------------------------------------------- rated: accounts


def test_a_rated_game_with_a_guest_seat_rates_nobody(client: TestClient) -> None:
    """Guests cannot sit at rated tables; a rated game stored with a guest's seat anyway
    (from before this rule) changes no rating, and the leaderboard lists accounts only."""
    ann, a = account(client, "Ann")
    bob, b = account(client, "Bob")
    tid = ann.post("/api/tables", json={"game": "duel"}).json()["id"]
    gid = bob.post(f"/api/tables/{tid}/join").json()["game_id"]
    storage = storage_of(client)
    _, gus = guest(client, "Gus")
    with storage.engine.begin() as c:
        c.execute(
            update(SeatRow)
            .where(SeatRow.game_id == gid, SeatRow.seat == 1)
            .values(player_id=gus["id"])
        )
        c.execute(
            update(GameRow)
            .where(GameRow.id == gid)
            .values(status="finished", result={"scores": [3, 1], "winners": [1], "turns": 4})
        )
    assert apply_ratings(storage, gid) is None
    with storage.session() as s:
        assert s.scalars(select(RatingRow)).all() == []
    assert client.get("/api/players/leaderboard/duel").json()["players"] == []
    assert b["id"] != gus["id"] and a["account"] is True
