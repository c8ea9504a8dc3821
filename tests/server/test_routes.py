"""The app's routes once :func:`splendor.server.app.create_app` has assembled its routers
(:mod:`.games_api`, :mod:`.live_socket`, :mod:`.players_api`, :mod:`.tables_api`,
:mod:`.language`, :mod:`.pages`): every documented route is there, once, and nothing else."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from splendor.game import games

API = {
    "/api/i18n": ["get"],
    "/api/i18n/{language}": ["get"],
    # moves typed in the reader's language (commands_api)
    "/api/commands": ["post"],
    "/api/commands/{game}": ["get"],
    "/api/players/guest": ["post"],
    "/api/players/signup": ["post"],
    "/api/players/login": ["post"],
    "/api/players/logout": ["post"],
    "/api/players/me": ["delete", "get"],
    "/api/players/me/email": ["delete", "post"],
    "/api/players/me/email/resend": ["post"],
    "/api/players/me/password": ["post"],
    "/api/players/verify-email": ["post"],
    "/api/players/reset": ["post"],
    "/api/players/reset/confirm": ["post"],
    "/api/players/leaderboard/{kind}": ["get"],
    "/api/players/{player_id}": ["get"],
    "/api/tables": ["get", "post"],
    "/api/tables/{table_id}": ["get"],
    "/api/tables/{table_id}/join": ["post"],
    "/api/tables/{table_id}/leave": ["post"],
    "/api/games/{game_id}/rematch": ["get", "post"],
    "/api/play-now": ["post"],
    "/api/meta": ["get"],
    "/api/games": ["get", "post"],
    "/api/games/mine": ["post"],
    "/api/games/{game_id}": ["get"],
    "/api/games/{game_id}/actions": ["post"],
    "/api/games/{game_id}/resign": ["post"],
    "/api/games/{game_id}/chat": ["get", "post"],
    "/api/games/{game_id}/explain": ["post"],
    "/api/games/{game_id}/analysis": ["get", "post"],
    "/api/games/{game_id}/record": ["get"],
    "/api/games/{game_id}/replay": ["get"],
    # my games, friends and blocks (social_api)
    "/api/me/games": ["get"],
    "/api/me/friends": ["get"],
    "/api/me/blocks": ["get"],
    "/api/players/{player_id}/follow": ["delete", "post"],
    "/api/players/{player_id}/block": ["delete", "post"],
    "/api/players/{player_id}/relation": ["get"],
    "/api/tables/{table_id}/invite": ["post"],
    # moderation (moderation_api)
    "/api/players/{player_id}/report": ["post"],
    "/api/games/{game_id}/seats/{seat}/report": ["post"],
    "/api/moderation/reports": ["get"],
    "/api/moderation/reports/{report_id}/close": ["post"],
    "/api/moderation/players": ["get"],
    "/api/moderation/players/{player_id}": ["get"],
    "/api/moderation/players/{player_id}/{act}": ["post"],
    "/api/moderation/audit": ["get"],
    # tournaments (tournaments_api)
    "/api/tournaments": ["get", "post"],
    "/api/tournaments/{tournament_id}": ["get"],
    "/api/tournaments/{tournament_id}/join": ["post"],
    "/api/tournaments/{tournament_id}/leave": ["post"],
    "/api/tournaments/{tournament_id}/start": ["post"],
    "/api/players/{player_id}/tournaments": ["get"],
    # notifications (notify_api)
    "/api/players/me/notifications": ["get", "put"],
    "/api/push/key": ["get"],
    "/api/push/subscriptions": ["delete", "post"],
}


def test_the_api_is_assembled_whole(client: TestClient) -> None:
    """The API's schema lists exactly the documented routes and methods."""
    paths: dict[str, Any] = client.get("/openapi.json").json()["paths"]
    assert {p: sorted(m) for p, m in paths.items()} == API


@pytest.mark.parametrize(
    "path",
    ["/", "/games/x", "/games/x/replay", "/players/x", "/tables/x", "/leaderboard"]
    + ["/games", "/friends"]
    + ["/moderation"]
    + ["/tournaments", "/tournaments/x"]
    + [f"/howto/{game.name}" for game in games()],
)
def test_every_page_of_the_client_answers_its_page(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 200 and "splendor test" in r.text, path
    assert r.headers["vary"] == "Cookie, Accept-Language"


def test_an_unknown_how_to_page_is_not_found(client: TestClient) -> None:
    r = client.get("/howto/chess")
    assert r.status_code == 404 and "no how-to page 'chess'" in r.json()["detail"]


def test_meta_lists_every_game_from_its_descriptor(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert list(meta["games"]) == [game.name for game in games()]
    for game in games():
        entry = meta["games"][game.name]
        assert (entry["min_players"], entry["max_players"]) == (
            game.min_players,
            game.max_players,
        )
        assert entry["tables"]["cards"]


def test_both_websockets_are_routed(client: TestClient) -> None:
    """The game's socket closes 4404 on an unknown game; the lobby's answers a ping."""
    with client.websocket_connect("/ws/lobby") as ws:
        assert ws.receive_json()["type"] == "lobby"
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect("/ws/games/nope") as ws,
    ):
        ws.receive_json()
    assert closed.value.code == 4404
