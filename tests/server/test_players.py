"""Players (issue 15): guests at once, accounts with Argon2-hashed passwords, sessions in an
HTTP-only SameSite cookie, log-in that never tells whether a name exists, rate-limited
authentication, and player pages."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from splendor.server.accounts import Accounts, BadCredentials, name_key
from splendor.server.app import Limits
from splendor.server.players_api import SESSION_COOKIE
from splendor.server.storage import (
    GameRow,
    PlayerRow,
    SeatRow,
    SessionRow,
    Storage,
    hash_token,
)

CHEAP = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
"""Argon2id with small parameters: the unit tests of :class:`Accounts` hash many times."""


@pytest.fixture
def accounts(database_url: str) -> Any:
    storage = Storage(database_url)
    storage.migrate()
    yield Accounts(storage, CHEAP)
    storage.close()


def _rows(client: TestClient, model: Any) -> list[Any]:
    storage: Storage = client.app.state.storage  # type: ignore[attr-defined]
    with storage.session() as s:
        return list(s.scalars(select(model)).all())


def test_a_guest_plays_at_once_with_a_cookie_session(client: TestClient) -> None:
    r = client.post("/api/players/guest", json={"name": "  Ann  "})
    assert r.status_code == 201, r.text
    player = r.json()["player"]
    assert player["name"] == "Ann" and player["account"] is False
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}=")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie  # plain HTTP here; set over HTTPS
    assert client.get("/api/players/me").json()["player"] == player
    # the database holds the token's SHA-256 only
    token = client.cookies[SESSION_COOKIE]
    assert [s.token_hash for s in _rows(client, SessionRow)] == [hash_token(token)]


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"name": ""},
        {"name": "\u200b\u202e"},
        {"name": 7},
        {"name": ["Ann"]},
        {"name": "x" * 41},
    ],
)
def test_a_bad_guest_name_is_refused_and_nothing_is_made(client: TestClient, body: Any) -> None:
    r = client.post("/api/players/guest", json=body)
    assert r.status_code == 400, r.text
    assert "name" in r.json()["detail"]
    assert SESSION_COOKIE not in client.cookies
    assert _rows(client, PlayerRow) == []


def test_a_guest_becomes_an_account_and_keeps_its_id(client: TestClient) -> None:
    guest = client.post("/api/players/guest", json={"name": "Ann"}).json()["player"]
    r = client.post("/api/players/signup", json={"name": "Annie", "password": "correct horse"})
    assert r.status_code == 201, r.text
    account = r.json()["player"]
    assert account["id"] == guest["id"] and account["account"] is True
    assert account["name"] == "Annie"
    assert client.get("/api/players/me").json()["player"]["account"] is True
    (row,) = _rows(client, PlayerRow)
    assert row.password_hash.startswith("$argon2id$")
    assert "correct horse" not in row.password_hash
    # an account cannot sign up again without logging out
    again = client.post("/api/players/signup", json={"name": "Other", "password": "12345678"})
    assert again.status_code == 403


def test_one_account_per_name_whatever_the_case_or_width(
    make_client: Callable[..., TestClient],
) -> None:
    a = make_client()
    assert (
        a.post("/api/players/signup", json={"name": "Ann", "password": "password1"}).status_code
        == 201
    )
    b = TestClient(a.app)
    b.post("/api/players/guest", json={"name": "Bob"})
    for taken in ("ann", "ANN", "\uff21\uff4e\uff4e"):  # full-width "Ａｎｎ"
        r = b.post("/api/players/signup", json={"name": taken, "password": "password2"})
        assert r.status_code == 409, (taken, r.text)
        assert "taken" in r.json()["detail"]
    me = b.get("/api/players/me").json()["player"]
    assert me["name"] == "Bob" and me["account"] is False  # unchanged
    assert name_key("\uff21\uff4e\uff4e") == name_key("ann")


@pytest.mark.parametrize("password", ["short", 12345678, None, "x" * 257, "pass\x00word"])
def test_a_bad_password_is_refused(client: TestClient, password: Any) -> None:
    r = client.post("/api/players/signup", json={"name": "Ann", "password": password})
    assert r.status_code == 400, r.text
    assert "password" in r.json()["detail"]
    assert _rows(client, PlayerRow) == []


def test_log_in_never_says_whether_the_name_exists(make_client: Callable[..., TestClient]) -> None:
    a = make_client()
    a.post("/api/players/signup", json={"name": "Ann", "password": "password1"})
    b = TestClient(a.app)
    wrong_password = b.post("/api/players/login", json={"name": "Ann", "password": "password2"})
    unknown_name = b.post("/api/players/login", json={"name": "Zed", "password": "password1"})
    bad_name = b.post("/api/players/login", json={"name": "", "password": "password1"})
    for r in (wrong_password, unknown_name, bad_name):
        assert r.status_code == 401
        assert r.json() == {"detail": "wrong name or password"}
        assert SESSION_COOKIE not in b.cookies
    ok = b.post("/api/players/login", json={"name": "aNN", "password": "password1"})
    assert ok.status_code == 200
    assert ok.json()["player"]["name"] == "Ann"
    assert b.get("/api/players/me").json()["player"]["id"] == ok.json()["player"]["id"]


class CountingHasher(PasswordHasher):
    """Cheap Argon2id that remembers the hashes it verified against."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=1024, parallelism=1)
        self.verified: list[str] = []

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        self.verified.append(str(hash))
        return super().verify(hash, password)


def test_an_unknown_name_costs_one_argon2_verification_like_a_known_one(accounts: Any) -> None:
    counting = CountingHasher()
    accounts = Accounts(accounts.storage, counting)
    accounts.sign_up("Ann", "password1")
    for name in ("Ann", "Zed", ""):
        with pytest.raises(BadCredentials, match="wrong name or password"):
            accounts.log_in(name, "wrong-password")
    assert len(counting.verified) == 3
    assert all(h.startswith("$argon2id$") for h in counting.verified)


def test_log_out_ends_the_session(client: TestClient) -> None:
    client.post("/api/players/guest", json={"name": "Ann"})
    token = client.cookies[SESSION_COOKIE]
    r = client.post("/api/players/logout")
    assert r.status_code == 200 and r.json() == {"player": None}
    assert SESSION_COOKIE not in client.cookies
    assert client.get("/api/players/me").json() == {"player": None}
    client.cookies.set(SESSION_COOKIE, token)  # the old token is dead in the database too
    assert client.get("/api/players/me").json() == {"player": None}


def test_a_request_from_another_site_cannot_use_the_session(client: TestClient) -> None:
    client.post("/api/players/guest", json={"name": "Ann"})
    r = client.post(
        "/api/players/signup",
        json={"name": "Ann", "password": "password1"},
        headers={"Origin": "https://evil.example"},
    )
    assert r.status_code == 403
    assert client.get("/api/players/me").json()["player"]["account"] is False
    same = client.post(
        "/api/players/signup",
        json={"name": "Ann", "password": "password1"},
        headers={"Origin": "http://testserver"},
    )
    assert same.status_code == 201, same.text


def test_authentication_is_rate_limited_per_address(make_client: Callable[..., TestClient]) -> None:
    c = make_client(limits=Limits(auth_rate="3/minute"))
    codes = [
        c.post("/api/players/login", json={"name": "Ann", "password": "password1"}).status_code
        for _ in range(4)
    ]
    assert codes == [401, 401, 401, 429]
    r = c.post("/api/players/guest", json={"name": "Ann"})
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    assert "log-ins" in r.json()["detail"]


def test_the_player_page_lists_games_results_and_ratings(client: TestClient) -> None:
    assert client.get("/api/players/nobody").status_code == 404
    me = client.post("/api/players/guest", json={"name": "Ann"}).json()["player"]
    assert me["guest"] is True and me["email"] is None and me["role"] == "player"  # own view
    page = client.get(f"/api/players/{me['id']}").json()
    public = {k: me[k] for k in ("id", "name", "account", "guest", "created_at")}
    assert page == {"player": public, "ratings": {}, "open_games": [], "finished_games": []}
    seats = [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}]
    games = [client.post("/api/games", json={"game": "duel", "seats": seats}).json() for _ in "ab"]
    storage: Storage = client.app.state.storage  # type: ignore[attr-defined]
    with storage.session() as s:  # seat 0 of both games is Ann's; the first one is over
        s.execute(
            update(SeatRow)
            .where(SeatRow.seat == 0, SeatRow.game_id.in_([g["game_id"] for g in games]))
            .values(player_id=me["id"])
        )
        s.execute(
            update(GameRow)
            .where(GameRow.id == games[0]["game_id"])
            .values(
                status="finished",
                result={"scores": [20, 9], "winners": [0]},
                updated_at=datetime(2020, 1, 1, tzinfo=UTC),
            )
        )
        s.commit()
    page = client.get(f"/api/players/{me['id']}").json()
    (open_game,) = page["open_games"]
    assert open_game["id"] == games[1]["game_id"] and open_game["url"].endswith(open_game["id"])
    (done,) = page["finished_games"]
    assert done["outcome"] == "won" and done["scores"] == [20, 9]
    assert done["replay"] == f"/games/{games[0]['game_id']}/replay"


def test_a_logged_in_player_who_opens_an_invite_link_holds_the_seat(
    make_client: Callable[..., TestClient],
) -> None:
    """The seat token of an invite link, used with a session, makes the seat the player's:
    the session alone then shows the seat's view, plays it (REST and WebSocket) and puts the
    game on the player's page; a page of another site gets a spectator's view."""
    ann = make_client()
    me = ann.post("/api/players/guest", json={"name": "Ann"}).json()["player"]
    seats = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
    made = ann.post("/api/games", json={"game": "duel", "seats": seats}).json()
    gid, token = made["game_id"], made["seats"][0]["token"]
    assert ann.get(f"/api/games/{gid}").json()["seat"] is None  # not claimed yet
    assert (
        ann.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}).json()["seat"]
        == 0
    )
    state = ann.get(f"/api/games/{gid}").json()
    assert state["seat"] == 0  # the session is enough now
    first = state["legal_actions"][0]["notation"]
    r = ann.post(f"/api/games/{gid}/actions", json={"action": first, "move": 0})
    assert r.status_code == 200, r.text
    assert r.json()["move"] == 1
    page = ann.get(f"/api/players/{me['id']}").json()
    assert [g["id"] for g in page["open_games"]] == [gid]
    with ann.websocket_connect(f"/ws/games/{gid}") as ws:
        assert ws.receive_json()["seat"] == 0
    with ann.websocket_connect(
        f"/ws/games/{gid}", headers={"Origin": "https://evil.example"}
    ) as ws:
        assert ws.receive_json()["seat"] is None
    # another player's session holds no seat: a spectator, and cannot act
    bob = TestClient(ann.app)
    bob.post("/api/players/guest", json={"name": "Bob"})
    assert bob.get(f"/api/games/{gid}").json()["seat"] is None
    r = bob.post(f"/api/games/{gid}/actions", json={"action": "replenish", "move": 1})
    assert r.status_code == 403
    # Ann's token cannot make the seat Bob's: it is Ann's already
    bob.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"})
    assert bob.get(f"/api/games/{gid}").json()["seat"] is None


def test_the_leaderboard_reads_only_its_top_rows_in_order(accounts: Accounts) -> None:
    """Highest rating first, ties by more games then name; no row for a kind without games;
    ``limit`` rows at most, read in that order from the indexed ``ratings.value``; accounts
    only (a guest's rating, from before guests played casual games only, is not ranked)."""
    from splendor.server.storage import RatingRow

    values = [1500.0, 1820.5, 1400.0, 1820.5, 1650.0, 1999.0, 1700.0, 2100.0]
    games = [3, 4, 5, 9, 2, 0, 1, 30]
    ids = [accounts.sign_up(f"P{i}", "password")[0].id for i in range(len(values) - 1)]
    ids.append(accounts.create_guest("Guest")[0].id)  # the best rating, but a guest's
    now = datetime.now(UTC)
    with accounts.storage.engine.begin() as c:
        for pid, value, n in zip(ids, values, games, strict=True):
            rating = {
                "system": "glicko2",
                "value": value,
                "deviation": 60.0,
                "volatility": 0.06,
                "games": n,
            }
            c.execute(
                RatingRow.__table__.insert(),
                {
                    "player_id": pid,
                    "kind": "duel",
                    "rating": rating,
                    "value": value,
                    "games": n,
                    "updated_at": now,
                },
            )
    board = accounts.leaderboard("duel", limit=4)
    names = [e["player"]["name"] for e in board["players"]]
    # P5 (1999) has no game: not listed; P3 and P1 tie at 1820.5, P3 has more games
    assert names == ["P3", "P1", "P6", "P4"]
    assert [e["rank"] for e in board["players"]] == [1, 2, 3, 4]
    assert [e["rating"] for e in board["players"]] == [1820.5, 1820.5, 1700.0, 1650.0]
    assert len(accounts.leaderboard("duel")["players"]) == 6
    assert accounts.leaderboard("splendor-2")["players"] == []
