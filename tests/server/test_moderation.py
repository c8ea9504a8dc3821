"""Moderation (issue 32): reports and their limits, the admin role granted by ``splendor
admin``, the moderators' queue, mute (chat refused), ban (log-in refused, old sessions
dead, no guest or account from the banned address, Play now refused), rename, the audit log; and
403 for everybody else on every moderators' route."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from typer.testing import CliRunner

from splendor.cli import app as cli_app
from splendor.server.community_rows import AuditRow, BannedAddressRow, ReportRow
from splendor.server.moderation import Banned, address_hash
from splendor.server.reports import REPORTS_PER_DAY
from splendor.server.storage import ChatRow, PlayerRow, SeatRow, SessionRow, Storage

PASSWORD = "correct horse battery"


def browser(app_client: TestClient, address: str) -> TestClient:
    """A new browser (its own cookies) at client address ``address`` on the same app,
    sharing the started client's event loop."""
    c = TestClient(app_client.app, client=(address, 50000))
    c.portal = app_client.portal
    return c


def account(app_client: TestClient, name: str, address: str) -> tuple[TestClient, dict[str, Any]]:
    c = browser(app_client, address)
    r = c.post("/api/players/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return c, r.json()["player"]


def storage_of(c: TestClient) -> Storage:
    storage: Storage = c.app.state.storage  # type: ignore[attr-defined]
    return storage


def admin_cli(url: str, command: str, *args: str) -> Any:
    """``splendor admin COMMAND --database-url URL ARGS`` (typer's runner). A player id
    may start with ``-`` (ids are URL-safe base64): pass ``"--"`` before it."""
    return CliRunner().invoke(cli_app, ["admin", command, "--database-url", url, *args])


@pytest.fixture
def site(make_client: Callable[..., TestClient], database_url: str) -> dict[str, Any]:
    """An app on a SQLite file and on PostgreSQL (:func:`conftest.database_url`); accounts
    Mod (made an admin with ``splendor admin grant``), Bea and Cal at their own addresses,
    who sit at one casual Duel game where Cal chats."""
    url = database_url
    client = make_client(database_url=url)
    mod, m = account(client, "Mod", "10.0.0.1")
    bea, b = account(client, "Bea", "10.0.0.2")
    cal, c = account(client, "Cal", "10.0.0.3")
    result = admin_cli(url, "grant", "mod")  # an account's name: case does not matter
    assert result.exit_code == 0, result.output
    assert "Mod" in result.output and "admin" in result.output
    tid = bea.post("/api/tables", json={"game": "duel", "rated": False}).json()["id"]
    r = cal.post(f"/api/tables/{tid}/join")
    assert r.status_code == 200, r.text
    gid = r.json()["game_id"]
    r = cal.post(f"/api/games/{gid}/chat", json={"text": "you are all idiots"})
    assert r.status_code == 201, r.text
    return {
        "url": url,
        "client": client,
        "mod": mod,
        "bea": bea,
        "cal": cal,
        "ids": {"mod": m["id"], "bea": b["id"], "cal": c["id"]},
        "game": gid,
    }


def count(storage: Storage, row: Any) -> int:
    with storage.session() as s:
        return int(s.scalar(select(func.count()).select_from(row)) or 0)


def test_the_command_line_grants_revokes_and_lists_admins(site: dict[str, Any]) -> None:
    url, mod, bea = site["url"], site["mod"], site["bea"]
    assert mod.get("/api/players/me").json()["player"]["role"] == "admin"
    listed = admin_cli(url, "list")
    assert listed.exit_code == 0 and listed.output.splitlines() == [
        line for line in listed.output.splitlines() if "Mod" in line
    ]
    assert "Mod" in listed.output
    again = admin_cli(url, "grant", "Mod")
    assert again.exit_code == 1 and "has that role already" in again.output
    assert admin_cli(url, "grant", "Nobody").exit_code == 1
    guest = browser(site["client"], "10.0.0.9").post("/api/players/guest", json={"name": "Gus"})
    gus = guest.json()["player"]["id"]
    refused = admin_cli(url, "grant", "--", gus)  # a guest, by id (which may start with -)
    assert refused.exit_code == 1 and "only an account" in refused.output
    assert mod.get("/api/moderation/reports").status_code == 200
    assert admin_cli(url, "revoke", "Mod").exit_code == 0
    assert mod.get("/api/moderation/reports").status_code == 403  # at once
    assert mod.get("/api/players/me").json()["player"]["role"] == "player"
    assert admin_cli(url, "list").output == ""
    assert admin_cli(url, "grant", "Bea").exit_code == 0
    entries = bea.get("/api/moderation/audit").json()["entries"]
    assert [(e["action"], e["actor"], e["target"]["name"]) for e in entries] == [
        ("grant", None, "Bea"),
        ("revoke", None, "Mod"),
        ("grant", None, "Mod"),
    ]


def test_everybody_but_an_admin_gets_403_and_changes_nothing(site: dict[str, Any]) -> None:
    client, bea, ids = site["client"], site["bea"], site["ids"]
    guest = browser(client, "10.0.0.8")
    assert guest.post("/api/players/guest", json={"name": "Gus"}).status_code == 201
    nobody = browser(client, "10.0.0.7")
    cal = ids["cal"]
    routes = [
        ("get", "/api/moderation/reports", None),
        ("get", "/api/moderation/reports?status=all", None),
        ("post", "/api/moderation/reports/1/close", {"resolution": "dismissed"}),
        ("get", "/api/moderation/players?q=C", None),
        ("get", f"/api/moderation/players/{cal}", None),
        ("post", f"/api/moderation/players/{cal}/mute", {"minutes": 10}),
        ("post", f"/api/moderation/players/{cal}/unmute", None),
        ("post", f"/api/moderation/players/{cal}/ban", {"reason": "x"}),
        ("post", f"/api/moderation/players/{cal}/unban", None),
        ("post", f"/api/moderation/players/{cal}/rename", {"name": "Other"}),
        ("post", f"/api/moderation/players/{cal}/nonsense", None),
        ("get", "/api/moderation/audit", None),
    ]
    for who in (nobody, guest, bea):
        for method, path, body in routes:
            r = getattr(who, method)(path, **({"json": body} if body is not None else {}))
            assert r.status_code == 403, (method, path, r.status_code, r.text)
            assert "moderators" in r.json()["detail"]
    storage = storage_of(client)
    with storage.session() as s:
        row = s.get(PlayerRow, cal)
        assert row is not None
        assert (row.name, row.banned_at, row.muted_until) == ("Cal", None, None)
    assert count(storage, AuditRow) == 1  # the grant only


def test_a_report_reaches_the_queue_with_the_reported_chat_and_is_closed(
    site: dict[str, Any],
) -> None:
    mod, bea, ids, gid = site["mod"], site["bea"], site["ids"], site["game"]
    r = bea.post(
        f"/api/players/{ids['cal']}/report",
        json={"reason": "chat", "text": "  insults\u202e in the chat  ", "game_id": gid},
    )
    assert r.status_code == 201, r.text
    filed = r.json()["report"]
    assert filed["status"] == "open" and filed["text"] == "insults in the chat"  # cleaned
    queue = mod.get("/api/moderation/reports").json()
    assert queue["open"] == 1
    [entry] = queue["reports"]
    assert entry["reporter"] == {"id": ids["bea"], "name": "Bea", "account": True}
    assert entry["reported"]["name"] == "Cal" and entry["reported"]["banned_at"] is None
    assert (entry["reason"], entry["game_url"]) == ("chat", f"/games/{gid}")
    assert [line["text"] for line in entry["chat"]] == ["you are all idiots"]
    assert entry["chat"][0]["game_id"] == gid
    rid = entry["id"]
    r = mod.post(f"/api/moderation/reports/{rid}/close", json={"resolution": "dismissed"})
    assert r.status_code == 200 and r.json()["report"]["resolution"] == "dismissed"
    assert r.json()["report"]["resolved_by"]["name"] == "Mod"
    again = mod.post(f"/api/moderation/reports/{rid}/close", json={"resolution": "resolved"})
    assert again.status_code == 409
    assert mod.get("/api/moderation/reports").json() == {"reports": [], "open": 0}
    assert [e["id"] for e in mod.get("/api/moderation/reports?status=all").json()["reports"]] == [
        rid
    ]
    top = mod.get("/api/moderation/audit").json()["entries"][0]
    assert top["action"] == "dismissed" and top["actor"]["name"] == "Mod"
    assert top["target"]["name"] == "Cal" and top["details"] == {"report": rid}
    # the report from the chat: the seat's player
    r = bea.post(f"/api/games/{gid}/seats/1/report", json={"reason": "name"})
    assert r.status_code == 201, r.text
    assert r.json()["report"]["reported"]["id"] == ids["cal"]
    assert r.json()["report"]["game_id"] == gid


def test_bad_and_forged_reports_are_refused_and_store_nothing(site: dict[str, Any]) -> None:
    client, bea, cal, ids, gid = site["client"], site["bea"], site["cal"], site["ids"], site["game"]
    storage = storage_of(client)
    guest = browser(client, "10.0.0.8")
    guest.post("/api/players/guest", json={"name": "Gus"})
    nobody = browser(client, "10.0.0.7")
    target = f"/api/players/{ids['cal']}/report"
    cases = [
        (nobody, target, {"reason": "chat"}, 403),
        (guest, target, {"reason": "chat"}, 403),
        (bea, f"/api/players/{ids['bea']}/report", {"reason": "chat"}, 400),  # yourself
        (bea, "/api/players/no-such-player/report", {"reason": "chat"}, 404),
        (bea, target, {"reason": "rude"}, 400),
        (bea, target, {"reason": "other"}, 400),  # "other" needs a text
        (bea, target, {"reason": "chat", "text": "x" * 1001}, 400),
        (bea, target, {"reason": "chat", "text": 12}, 400),
        (bea, target, {"reason": "chat", "game_id": "no-such-game"}, 404),
        (bea, target, {"reason": "chat", "game_id": ["x"]}, 400),
        (bea, f"/api/games/{gid}/seats/7/report", {"reason": "chat"}, 404),
        (bea, f"/api/games/{gid}/seats/x/report", {"reason": "chat"}, 400),
        (bea, "/api/games/no-such-game/seats/0/report", {"reason": "chat"}, 404),
    ]
    for who, path, body, status in cases:
        r = who.post(path, json=body)
        assert r.status_code == status, (path, body, r.status_code, r.text)
    other = account(client, "Dan", "10.0.0.4")[1]
    r = bea.post(f"/api/players/{other['id']}/report", json={"reason": "chat", "game_id": gid})
    assert r.status_code == 400 and "did not play" in r.json()["detail"]
    assert count(storage, ReportRow) == 0
    assert bea.post(target, json={"reason": "bot", "text": "plays too fast"}).status_code == 201
    dup = bea.post(target, json={"reason": "name"})
    assert dup.status_code == 409 and "already" in dup.json()["detail"]
    assert count(storage, ReportRow) == 1
    # the flood: REPORTS_PER_DAY a day, then 429 with Retry-After
    for i in range(REPORTS_PER_DAY - 1):
        someone = account(client, f"Eve{i}", "10.0.0.5")[1]
        r = cal.post(f"/api/players/{someone['id']}/report", json={"reason": "name"})
        assert r.status_code == 201, r.text
    last = account(client, "Fay", "10.0.0.5")[1]
    r = cal.post(f"/api/players/{last['id']}/report", json={"reason": "name"})
    assert r.status_code == 201
    flood = cal.post(f"/api/players/{ids['bea']}/report", json={"reason": "name"})
    assert flood.status_code == 429, flood.text
    assert 0 < int(flood.headers["Retry-After"]) <= 24 * 3600
    assert count(storage, ReportRow) == 1 + REPORTS_PER_DAY


def test_a_muted_player_cannot_chat_until_unmuted(site: dict[str, Any]) -> None:
    mod, bea, cal, ids, gid = site["mod"], site["bea"], site["cal"], site["ids"], site["game"]
    r = mod.post(
        f"/api/moderation/players/{ids['cal']}/mute", json={"minutes": 30, "reason": "insults"}
    )
    assert r.status_code == 200, r.text
    assert r.json()["player"]["muted_until"] is not None
    refused = cal.post(f"/api/games/{gid}/chat", json={"text": "still here"})
    assert refused.status_code == 403 and "muted" in refused.json()["detail"]
    with cal.websocket_connect(f"/ws/games/{gid}") as ws:  # the same refusal on the socket
        ws.receive_json()
        ws.send_json({"type": "chat", "text": "over the socket"})
        while (m := ws.receive_json())["type"] != "error":
            pass
        assert m["status"] == 403 and "muted" in m["message"]
    assert bea.post(f"/api/games/{gid}/chat", json={"text": "calm down"}).status_code == 201
    texts = [m["text"] for m in bea.get(f"/api/games/{gid}/chat").json()["messages"]]
    assert texts == ["you are all idiots", "calm down"]
    for bad in ({"minutes": 0}, {"minutes": "10"}, {"minutes": True}, {"minutes": 10**7}, {}):
        assert mod.post(f"/api/moderation/players/{ids['cal']}/mute", json=bad).status_code == 400
    assert mod.post(f"/api/moderation/players/{ids['cal']}/unmute").status_code == 200
    assert cal.post(f"/api/games/{gid}/chat", json={"text": "sorry"}).status_code == 201
    actions = [e["action"] for e in mod.get("/api/moderation/audit").json()["entries"]]
    assert actions[:2] == ["unmute", "mute"]


def test_a_ban_locks_the_player_out_everywhere(site: dict[str, Any]) -> None:
    client, mod, bea, cal, ids = site["client"], site["mod"], site["bea"], site["cal"], site["ids"]
    storage = storage_of(client)
    bea.post(f"/api/players/{ids['cal']}/report", json={"reason": "chat"})
    assert cal.get("/api/players/me").json()["player"]["id"] == ids["cal"]
    r = mod.post(f"/api/moderation/players/{ids['cal']}/ban", json={"reason": "abuse"})
    assert r.status_code == 200, r.text
    status = r.json()["player"]
    assert status["banned_at"] is not None and status["ban_reason"] == "abuse"
    assert mod.post(f"/api/moderation/players/{ids['cal']}/ban").status_code == 409
    # the old session is dead at once, on every route
    assert cal.get("/api/players/me").json() == {"player": None}
    assert cal.post("/api/tables", json={"game": "duel", "rated": False}).status_code == 401
    assert cal.post("/api/play-now", json={"game": "duel"}).status_code == 401
    assert cal.post(f"/api/games/{site['game']}/chat", json={"text": "hi"}).status_code == 403
    with storage.session() as s:
        assert s.scalars(select(SessionRow).where(SessionRow.player_id == ids["cal"])).all() == []
        banned = s.scalars(select(BannedAddressRow.address_hash)).all()
    assert banned == [address_hash("10.0.0.3")]
    # log-in: refused with the right password; the wrong one says only "wrong"
    again = browser(client, "10.0.0.33")
    r = again.post("/api/players/login", json={"name": "Cal", "password": PASSWORD})
    assert r.status_code == 403 and "banned" in r.json()["detail"]
    r = again.post("/api/players/login", json={"name": "Cal", "password": "wrong password"})
    assert r.status_code == 401 and "banned" not in r.json()["detail"]
    # no new guest from the banned address; another address is fine
    r = browser(client, "10.0.0.3").post("/api/players/guest", json={"name": "Cal2"})
    assert r.status_code == 403 and "address" in r.json()["detail"]
    # nor a new account
    signup = {"name": "Calvin", "password": PASSWORD}
    r = browser(client, "10.0.0.3").post("/api/players/signup", json=signup)
    assert r.status_code == 403 and "account" in r.json()["detail"]
    assert (
        browser(client, "10.0.0.30").post("/api/players/guest", json={"name": "Al"}).status_code
        == 201
    )
    # the open report about Cal is closed by the ban
    [entry] = mod.get("/api/moderation/reports?status=all").json()["reports"]
    assert (entry["status"], entry["resolution"]) == ("closed", "banned")
    ban = mod.get("/api/moderation/audit").json()["entries"][0]
    assert ban["action"] == "ban" and ban["target"]["id"] == ids["cal"]
    assert ban["details"] == {"reason": "abuse", "sessions": 1, "addresses": 1, "reports_closed": 1}
    # unban: log-in and guests work again
    assert mod.post(f"/api/moderation/players/{ids['cal']}/unban").status_code == 200
    assert mod.post(f"/api/moderation/players/{ids['cal']}/unban").status_code == 409
    r = again.post("/api/players/login", json={"name": "Cal", "password": PASSWORD})
    assert r.status_code == 200
    assert (
        browser(client, "10.0.0.3").post("/api/players/guest", json={"name": "Cy"}).status_code
        == 201
    )


def test_play_now_refuses_a_banned_player(site: dict[str, Any]) -> None:
    """Play now checks the ban itself (a request that got past the session check just
    before the ban)."""
    client, ids = site["client"], site["ids"]
    accounts = client.app.state.accounts
    tables = client.app.state.tables
    cal = accounts.get(ids["cal"])
    assert admin_cli(site["url"], "ban", "Cal", "--reason", "cheating").exit_code == 0
    with pytest.raises(Banned):
        client.portal.call(tables.play_now, cal, {"game": "duel"})
    assert client.get("/api/tables").json() == {"tables": []}


def test_the_command_line_bans_and_unbans(site: dict[str, Any]) -> None:
    url, mod, cal, ids = site["url"], site["mod"], site["cal"], site["ids"]
    result = admin_cli(url, "ban", "Cal", "--reason", "spam")
    assert result.exit_code == 0 and "banned since" in result.output and "spam" in result.output
    assert cal.get("/api/players/me").json() == {"player": None}
    assert admin_cli(url, "ban", "Cal").exit_code == 1  # banned already
    assert admin_cli(url, "unban", "--", ids["cal"]).exit_code == 0  # by id too
    entries = mod.get("/api/moderation/audit").json()["entries"]
    assert [(e["action"], e["actor"]) for e in entries[:2]] == [("unban", None), ("ban", None)]


def test_rename_checks_the_name_and_renames_seats_and_chat(site: dict[str, Any]) -> None:
    client, mod, ids, gid = site["client"], site["mod"], site["ids"], site["game"]
    path = f"/api/moderation/players/{ids['cal']}/rename"
    assert mod.post(path, json={"name": "bea"}).status_code == 409  # another account's name
    assert mod.post(path, json={"name": "\u200b"}).status_code == 400
    assert mod.post(path, json={"name": 5}).status_code == 400
    r = mod.post(path, json={"name": "  Kind   Cal "})
    assert r.status_code == 200 and r.json()["player"]["name"] == "Kind Cal"
    assert client.get(f"/api/players/{ids['cal']}").json()["player"]["name"] == "Kind Cal"
    with storage_of(client).session() as s:
        row = s.get(PlayerRow, ids["cal"])
        assert row is not None and row.name_key == "kind cal"
        seat = s.scalars(select(SeatRow.name).where(SeatRow.player_id == ids["cal"])).all()
        chat = s.scalars(select(ChatRow.name).where(ChatRow.game_id == gid)).all()
    assert seat == ["Kind Cal"] and chat == ["Kind Cal"]
    login = browser(client, "10.0.0.3").post(
        "/api/players/login", json={"name": "kind cal", "password": PASSWORD}
    )
    assert login.status_code == 200
    top = mod.get("/api/moderation/audit").json()["entries"][0]
    assert top["action"] == "rename" and top["details"] == {"from": "Cal", "to": "Kind Cal"}


def test_admins_cannot_act_on_themselves_or_other_admins_from_the_web(
    site: dict[str, Any],
) -> None:
    url, mod, ids = site["url"], site["mod"], site["ids"]
    assert admin_cli(url, "grant", "Bea").exit_code == 0
    for target in (ids["mod"], ids["bea"]):
        for act, body in (("ban", {}), ("mute", {"minutes": 5}), ("rename", {"name": "Zed"})):
            r = mod.post(f"/api/moderation/players/{target}/{act}", json=body)
            assert r.status_code == 403, (target, act, r.text)
    assert mod.post(f"/api/moderation/players/{ids['bea']}/ban").status_code == 403


def test_forged_ids_on_the_moderators_routes(site: dict[str, Any]) -> None:
    mod = site["mod"]
    assert (
        mod.post("/api/moderation/reports/abc/close", json={"resolution": "resolved"}).status_code
        == 400
    )
    assert (
        mod.post("/api/moderation/reports/-1/close", json={"resolution": "resolved"}).status_code
        == 400
    )
    assert (
        mod.post("/api/moderation/reports/999/close", json={"resolution": "resolved"}).status_code
        == 404
    )
    assert mod.get("/api/moderation/reports?status=closed").status_code == 400
    assert mod.get("/api/moderation/players/nobody-here").status_code == 404
    assert mod.post("/api/moderation/players/nobody-here/ban").status_code == 404
    assert (
        mod.post("/api/moderation/players/" + "x" * 40 + "/mute", json={"minutes": 1}).status_code
        == 404
    )
    assert mod.post(f"/api/moderation/players/{site['ids']['cal']}/explode").status_code == 400
    assert mod.get("/api/moderation/audit?before=abc").status_code == 400
    found = mod.get("/api/moderation/players?q=ca").json()["players"]
    assert [p["name"] for p in found] == ["Cal"]
    assert mod.get("/api/moderation/players?q=%25").json()["players"] == []  # no wildcard
    status = mod.get(f"/api/moderation/players/{site['ids']['cal']}").json()["player"]
    assert status["open_reports"] == 0 and status["role"] == "player"
