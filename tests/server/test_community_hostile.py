"""Hostile input on the community routes (issue 32): every refusal is a clear 4xx that
changes nothing, never a 500 — lone surrogates in passwords and addresses, ids past the
database's integers, NUL in a path on PostgreSQL — and a link or a subscription that
outlives what it was made for."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from splendor.server.app import MailConfig
from splendor.server.storage import PlayerRow

from .test_accounts_mail import PASSWORD, link_of, verified_account, wait_mail
from .test_moderation import admin_cli
from .test_notifications import browser_keys
from .test_tables import account, storage_of

LONE = "\\ud800"
"""A lone surrogate, as a JSON escape (no client library encodes one itself)."""


@pytest.fixture
def site(make_client: Callable[..., TestClient], database_url: str) -> dict[str, Any]:
    """An app on a SQLite file and on PostgreSQL: Mod (an admin, granted by the command
    line) and Bea."""
    client = make_client(database_url=database_url)
    mod, _ = account(client, "Mod")
    bea, _ = account(client, "Bea")
    assert admin_cli(database_url, "grant", "Mod").exit_code == 0
    return {"mod": mod, "bea": bea}


@pytest.fixture
def mail_client(
    make_client: Callable[..., TestClient], smtp_server: tuple[str, Any]
) -> tuple[TestClient, Any]:
    """An app that mails through the local SMTP server, and that server's inbox."""
    url, inbox = smtp_server
    return make_client(mail=MailConfig(smtp_url=url)), inbox


def raw(c: TestClient, method: str, path: str, json_text: str) -> Any:
    """``json_text`` sent as it is (a lone surrogate escape stays in it)."""
    return c.request(
        method, path, content=json_text.encode(), headers={"content-type": "application/json"}
    )


def password_hash(c: TestClient, player_id: str) -> str | None:
    with storage_of(c).session() as s:
        return s.scalar(select(PlayerRow.password_hash).where(PlayerRow.id == player_id))


def test_a_lone_surrogate_in_a_password_is_refused_not_a_crash(client: TestClient) -> None:
    ann, a = account(client, "Ann")
    before = password_hash(client, a["id"])
    bad = f'"x{LONE}xxxxxxxx"'
    r = raw(ann, "POST", "/api/players/me/password", f'{{"current": {bad}, "new": "abcdefghij"}}')
    assert r.status_code == 401, r.text
    r = raw(ann, "DELETE", "/api/players/me", f'{{"password": {bad}}}')
    assert r.status_code == 401, r.text
    r = raw(client, "POST", "/api/players/login", f'{{"name": "Ann", "password": {bad}}}')
    assert r.status_code == 401 and r.json()["detail"] == "wrong name or password", r.text
    assert password_hash(client, a["id"]) == before
    assert ann.get("/api/players/me").json()["player"]["id"] == a["id"]  # not deleted


def test_a_lone_surrogate_in_an_address_is_refused_not_a_crash(client: TestClient) -> None:
    ann, _ = account(client, "Ann")
    for address in (f"{LONE}@example.org", f"a@ex{LONE}ample.org"):
        r = raw(ann, "POST", "/api/players/me/email", f'{{"email": "{address}"}}')
        assert r.status_code == 400, r.text
    assert ann.get("/api/players/me").json()["player"]["email"] is None


@pytest.mark.parametrize("before", ["99999999999999999999", "-99999999999999999999"])
def test_an_audit_page_past_the_databases_integers_is_refused(
    site: dict[str, Any], before: str
) -> None:
    r = site["mod"].get("/api/moderation/audit", params={"before": before})
    assert r.status_code == 400, r.text


def test_a_nul_in_a_player_id_of_the_tournaments_route(site: dict[str, Any]) -> None:
    r = site["bea"].get("/api/players/%00/tournaments")  # PostgreSQL refuses NUL in text
    assert r.status_code == 404, r.text


def test_a_reset_link_dies_when_the_address_changes(mail_client: tuple[TestClient, Any]) -> None:
    """A reset link mailed to the old address cannot set the password once the account
    has another address (as a verification link cannot confirm it)."""
    client, inbox = mail_client
    ann = verified_account(client, inbox, "Ann", "ann@example.org")
    me = ann.get("/api/players/me").json()["player"]
    assert ann.post("/api/players/reset", json={"name_or_email": "Ann"}).status_code == 202
    _, kind, token = link_of(wait_mail(inbox, 2)[-1])
    assert kind == "reset"
    r = ann.post("/api/players/me/email", json={"email": "new@example.org"})
    assert r.status_code == 202, r.text
    before = password_hash(client, me["id"])
    r = client.post("/api/players/reset/confirm", json={"token": token, "password": "new pass!"})
    assert r.status_code == 409, r.text
    assert password_hash(client, me["id"]) == before
    login = {"name": "Ann", "password": PASSWORD}
    assert client.post("/api/players/login", json=login).status_code == 200


def test_a_local_push_subscription_can_be_removed(
    make_client: Callable[..., TestClient],
) -> None:
    """With ``local_push_endpoints`` (a push service of one's own), a subscription on
    ``http://`` is taken, so it can be removed too."""
    client = make_client(mail=MailConfig(local_push_endpoints=True))
    ann, _ = account(client, "Ann")
    _, keys = browser_keys()
    sub = {"endpoint": "http://127.0.0.1:9/push/a", "keys": keys}
    assert ann.post("/api/push/subscriptions", json=sub).json() == {"subscriptions": 1}
    gone = ann.request("DELETE", "/api/push/subscriptions", json={"endpoint": sub["endpoint"]})
    assert gone.status_code == 200, gone.text
    assert gone.json() == {"deleted": True, "subscriptions": 0}


def test_a_block_between_seated_players_never_starts_their_game(client: TestClient) -> None:
    """Ann blocks Bob after he sat at her three-player table: she leaves it (her host seat
    passes to him), so Cat filling it does not seat the blocked pair in one game."""
    ann, a = account(client, "Ann")
    bob, b = account(client, "Bob")
    cat, c = account(client, "Cat")
    r = ann.post("/api/tables", json={"game": "splendor", "num_players": 3, "rated": False})
    tid = r.json()["id"]
    assert bob.post(f"/api/tables/{tid}/join").status_code == 200
    assert ann.post(f"/api/players/{b['id']}/block").json()["relation"]["blocked"] is True
    r = cat.post(f"/api/tables/{tid}/join")
    assert r.status_code == 200, r.text
    table = r.json()
    seated = {s["player_id"] for s in table["seats"]} - {None}
    assert table["status"] == "open" and seated == {b["id"], c["id"]}
    assert table["host"] == b["id"]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_two_players_who_block_each_other_joining_at_once_cannot_both_sit(
    make_client: Callable[..., TestClient], backend: str, request: pytest.FixtureRequest
) -> None:
    """The race the join's first check cannot see: Bob's request passed that check before
    Ann sat down. The seat-taking statement checks the block again (and the joins of one
    table are serialized), so Bob is refused with the block's 403 and is not seated."""
    from splendor.server.errors import Forbidden
    from splendor.server.tables import Tables

    url = request.getfixturevalue("postgres_url") if backend == "postgresql" else None
    client = make_client(url)
    host, _ = account(client, "Host")
    ann, a = account(client, "Ann")
    bob, b = account(client, "Bob")
    assert ann.post(f"/api/players/{b['id']}/block").status_code == 200
    r = host.post("/api/tables", json={"game": "splendor", "num_players": 4, "rated": False})
    tid = r.json()["id"]
    assert ann.post(f"/api/tables/{tid}/join").status_code == 200
    tables: Tables = client.app.state.tables  # type: ignore[attr-defined]
    with pytest.raises(Forbidden, match="block"):
        tables._take_seat(tid, b["id"], [2, 3])  # as Bob's join, racing Ann's
    seated = {s["player_id"] for s in client.get(f"/api/tables/{tid}").json()["seats"]}
    assert b["id"] not in seated and a["id"] in seated
    assert tables._take_seat(tid, account(client, "Cat")[1]["id"], [2, 3]) is True
