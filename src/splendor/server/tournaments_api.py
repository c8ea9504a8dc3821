"""The tournaments' HTTP and WebSocket API (:mod:`.tournament_service`).

- ``GET /api/tournaments``: ``{"tournaments": [...]}``, those registering or running, then
  the latest finished (each with ``"entrants"``).
- ``POST /api/tournaments`` (a session required: a guest will do for an unrated one):
  create one (201), body as :func:`.tournament_forms.read_tournament_request`.
- ``GET /api/tournaments/{id}``: one tournament with its players, live standings and
  rounds (:func:`.tournament_service.detail_json`).
- ``POST /api/tournaments/{id}/join``, ``POST /api/tournaments/{id}/leave``: register or
  withdraw (an arena: pause); ``POST /api/tournaments/{id}/start``: its creator starts it
  now. Each answers the tournament.
- ``GET /api/players/{id}/tournaments``: ``{"tournaments": [...]}``, those the player
  entered, each with the player's ``"place"`` and ``"score"``.
- ``WS /ws/tournaments/{id}``: ``{"type": "tournament", "tournament": ...}`` at once and
  after every change (a registration, a round paired, a result); the client may send
  ``{"type": "ping"}``. Close code 4404: no such tournament.

Refusals: 400 a malformed body, 401 no session, 403 a guest and a rated tournament (or
not the creator, to start it), 404 no such tournament, 409 registered twice, full,
started, or not registered.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from fastapi import APIRouter, Request, WebSocket

from .accounts import Player
from .channel_socket import serve_channel
from .errors import N_, NotFound
from .hub import Hub, Subscriber
from .request_context import required_player
from .storage import storable
from .tournament_runner import channel
from .tournament_service import Tournaments


def tournaments_of(connection: Request | WebSocket) -> Tournaments:
    """The app's tournaments (``app.state.tournaments``)."""
    found: Tournaments = connection.app.state.tournaments  # set by the lifespan
    return found


def tournaments_router(
    player_of: Callable[[Request | WebSocket], Awaitable[Player | None]],
    body_of: Callable[[Request], Awaitable[dict[str, Any]]],
    hit_rate: Callable[[str, Request], None],
    send_loop: Callable[[WebSocket, Subscriber], Coroutine[Any, Any, None]],
) -> APIRouter:
    """The routes above; the callables are the app's (the logged-in player of a request,
    body reader, rate limiter and WebSocket send loop)."""
    router = APIRouter()

    async def required(request: Request) -> Player:
        return await required_player(request, player_of)

    @router.get("/api/tournaments")
    async def listing(request: Request) -> dict[str, Any]:
        hit_rate("action", request)
        return {"tournaments": await tournaments_of(request).listing()}

    @router.post("/api/tournaments", status_code=201)
    async def create(request: Request) -> dict[str, Any]:
        hit_rate("create", request)
        player = await required(request)
        return await tournaments_of(request).create(player, await body_of(request))

    @router.get("/api/tournaments/{tournament_id}")
    async def detail(request: Request, tournament_id: str) -> dict[str, Any]:
        hit_rate("action", request)
        return await tournaments_of(request).detail(tournament_id)

    @router.post("/api/tournaments/{tournament_id}/join")
    async def join(request: Request, tournament_id: str) -> dict[str, Any]:
        hit_rate("action", request)
        return await tournaments_of(request).join(await required(request), tournament_id)

    @router.post("/api/tournaments/{tournament_id}/leave")
    async def leave(request: Request, tournament_id: str) -> dict[str, Any]:
        hit_rate("action", request)
        return await tournaments_of(request).leave(await required(request), tournament_id)

    @router.post("/api/tournaments/{tournament_id}/start")
    async def start(request: Request, tournament_id: str) -> dict[str, Any]:
        hit_rate("action", request)
        return await tournaments_of(request).begin(await required(request), tournament_id)

    @router.get("/api/players/{player_id}/tournaments")
    async def of_player(request: Request, player_id: str) -> dict[str, Any]:
        hit_rate("action", request)
        if not 1 <= len(player_id) <= 32 or not storable(player_id):
            raise NotFound(N_("no player {player}"), player=repr(player_id[:40]))
        return {"tournaments": await tournaments_of(request).of_player(player_id)}

    @router.websocket("/ws/tournaments/{tournament_id}")
    async def socket(websocket: WebSocket, tournament_id: str) -> None:
        await serve_tournament(websocket, tournaments_of(websocket), tournament_id, send_loop)

    return router


async def serve_tournament(
    websocket: WebSocket,
    tournaments: Tournaments,
    tournament_id: str,
    send_loop: Callable[[WebSocket, Subscriber], Coroutine[Any, Any, None]],
) -> None:
    """One tournament page's WebSocket (module docstring) until the client leaves."""
    await websocket.accept()
    try:
        first = await tournaments.detail(tournament_id)
    except NotFound:
        await websocket.close(code=4404, reason="no such tournament")
        return
    hub: Hub = websocket.app.state.hub
    sub = hub.subscribe(channel(first["id"]), None)

    async def send_first() -> None:
        sub.send({"type": "tournament", "tournament": first})

    refusal = 'a tournament page only takes {"type": "ping"}'
    await serve_channel(websocket, hub, sub, send_loop, send_first, refusal)


__all__ = ["serve_tournament", "tournaments_of", "tournaments_router"]
