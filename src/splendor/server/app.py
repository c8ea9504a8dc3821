"""The FastAPI application: REST API, one WebSocket per game, and the browser client.

``create_app(database_url)`` builds an app that holds its own storage, hub, bot executor
and game service (``app.state``); nothing is global. Routes (errors are
``{"detail": "<message>"}``: 400 malformed, 403 bad token / not your seat, 404 unknown
game, 409 not your turn / stale move / game over / record of an active game, 422 illegal
action):

- ``GET /api/meta``: games (player counts, card tables) and bot levels.
- ``POST /api/games``: create a game (201, seat tokens and invite links).
- ``GET /api/games?token=A&token=B``: the games those tokens hold seats in, newest first.
- ``GET /api/games/{id}?token=T``: the state message for that viewer (no token: spectator).
- ``POST /api/games/{id}/actions``: ``{"token", "action", "move"?}``, play a decision.
- ``POST /api/games/{id}/explain``: ``{"token"?, "action"}``, is it legal, and why not.
- ``GET /api/games/{id}/record``: the record (JSON attachment), finished games only.
- ``GET /api/games/{id}/replay``: every position of a finished game.
- ``WS /ws/games/{id}?token=T``: state messages after every accepted move; the client
  sends ``{"type": "action", "action", "move"}`` or ``{"type": "ping"}``. Close codes:
  4403 bad token, 4404 unknown game.
- ``GET /``, ``/games/{id}``, ``/games/{id}/replay``: the client's ``index.html``;
  ``/static/...``: the client's files (``src/splendor/web/``).
"""

from __future__ import annotations

import asyncio
import json
import logging
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from ..bots.external import game_tables
from . import bots as server_bots
from .hub import Hub, Subscriber
from .service import BadRequest, GameService, ServiceError
from .storage import Storage

log = logging.getLogger("splendor.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
"""The browser client (``src/splendor/web/``: ``index.html`` and its modules)."""

CLOSE_BAD_TOKEN = 4403
CLOSE_UNKNOWN_GAME = 4404


def create_app(
    database_url: str | None = None,
    *,
    web_dir: str | Path | None = None,
    executor: Executor | None = None,
    search_executor: Executor | None = None,
    bot_workers: int | None = None,
) -> FastAPI:
    """Build the web app.

    Args:
        database_url: SQLAlchemy URL (``sqlite:///file.db``,
            ``postgresql+psycopg://user@host/db``); None: a SQLite file in the user's data
            directory (:func:`.storage.default_database_url`). Migrated at start-up.
        web_dir: the client's folder (default :data:`WEB_DIR`).
        executor: where the quick bots (random, greedy, easy) think; default a spawn
            process pool of one process, owned (and shut down) by the app. Given
            executors are not shut down by the app.
        search_executor: where the searching bots (medium, hard) think; default
            ``executor`` when one is given, else an owned pool of ``bot_workers`` processes.
        bot_workers: size of the default search pool (default: CPU count, at most 4).
    """
    web = Path(web_dir) if web_dir is not None else WEB_DIR

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(database_url)
        owned: list[Executor] = []
        quick = executor
        if quick is None:
            quick = server_bots.make_executor(1)
            owned.append(quick)
        search = search_executor
        if search is None:
            if executor is not None:
                search = executor
            else:
                search = server_bots.make_executor(bot_workers)
                owned.append(search)
        hub = Hub()
        service = GameService(storage, hub, server_bots.BotPools(quick, search))
        app.state.storage, app.state.hub, app.state.service = storage, hub, service
        try:
            await service.start()
            yield
        finally:
            await service.close()
            for pool in owned:  # a decision under way ends within its time budget
                await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
            storage.close()

    app = FastAPI(title="Splendor", lifespan=lifespan)

    @app.exception_handler(ServiceError)
    async def _service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        return JSONResponse({"detail": exc.message}, status_code=exc.status)

    def service_of(request: Request | WebSocket) -> GameService:
        return request.app.state.service

    # ------------------------------------------------------------------ REST

    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        return {
            "games": {
                "splendor": {"min_players": 2, "max_players": 4, "tables": game_tables("splendor")},
                "duel": {"min_players": 2, "max_players": 2, "tables": game_tables("duel")},
            },
            "bots": list(server_bots.SERVER_BOTS),
        }

    @app.post("/api/games", status_code=201)
    async def create_game(request: Request) -> dict[str, Any]:
        body = await _json_object(request)
        live, tokens = await service_of(request).create(body.get("game"), body.get("seats"), body.get("options"))
        seats = []
        for s in live.seats:
            entry: dict[str, Any] = {"seat": s.seat, "type": s.type, "name": s.name, "bot": s.bot}
            if s.seat in tokens:
                entry["token"] = tokens[s.seat]
                entry["invite"] = f"/games/{live.id}?token={tokens[s.seat]}"
            seats.append(entry)
        return {"game_id": live.id, "game": live.game, "seats": seats, "spectate": f"/games/{live.id}"}

    @app.get("/api/games")
    async def list_games(request: Request, token: list[str] = Query(default=[])) -> dict[str, Any]:
        return {"games": await service_of(request).list_games(token)}

    @app.get("/api/games/{game_id}")
    async def get_state(request: Request, game_id: str, token: str | None = None) -> dict[str, Any]:
        service = service_of(request)
        live = await service.get(game_id)
        return service.message(live, service.seat_for_token(live, token))

    @app.post("/api/games/{game_id}/actions")
    async def post_action(request: Request, game_id: str) -> dict[str, Any]:
        service = service_of(request)
        await service.get(game_id)
        body = await _json_object(request)
        if "action" not in body:
            raise BadRequest('missing "action": an action id or a notation such as "take W U G"')
        live, seat = await service.act(game_id, body.get("token"), body["action"], body.get("move"))
        return service.message(live, seat)

    @app.post("/api/games/{game_id}/explain")
    async def post_explain(request: Request, game_id: str) -> dict[str, Any]:
        service = service_of(request)
        await service.get(game_id)
        body = await _json_object(request)
        if "action" not in body:
            raise BadRequest('missing "action": an action id or a notation')
        return await service.explain(game_id, body.get("token"), body["action"])

    @app.get("/api/games/{game_id}/record")
    async def get_record(request: Request, game_id: str) -> JSONResponse:
        service = service_of(request)
        record = service.record(await service.get(game_id))
        return JSONResponse(
            record.to_dict(),
            headers={"Content-Disposition": f'attachment; filename="{game_id}.json"'},
        )

    @app.get("/api/games/{game_id}/replay")
    async def get_replay(request: Request, game_id: str) -> dict[str, Any]:
        service = service_of(request)
        return service.replay(await service.get(game_id))

    # ------------------------------------------------------------------ WebSocket

    @app.websocket("/ws/games/{game_id}")
    async def game_socket(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
        service = service_of(websocket)
        await websocket.accept()
        try:
            live = await service.get(game_id)
        except ServiceError as e:
            await websocket.close(code=CLOSE_UNKNOWN_GAME, reason=_reason(e.message))
            return
        try:
            seat = service.seat_for_token(live, token)
        except ServiceError as e:
            await websocket.close(code=CLOSE_BAD_TOKEN, reason=_reason(e.message))
            return
        hub: Hub = websocket.app.state.hub
        sub = hub.subscribe(game_id, seat)
        sub.send(service.message(live, seat))
        if seat is not None:
            service.publish(live, exclude=sub)  # the others see the seat connected
        sender = asyncio.create_task(_send_loop(websocket, sub))
        try:
            await _receive_loop(websocket, service, live, sub)
        finally:
            # no await before the presence update: this block may run under cancellation
            sender.cancel()
            hub.unsubscribe(sub)
            if seat is not None and seat not in hub.connected_seats(game_id):
                service.publish(live)
            await asyncio.gather(sender, return_exceptions=True)

    # ------------------------------------------------------------------ client

    def index() -> FileResponse:
        page = web / "index.html"
        if not page.is_file():
            raise ServiceError(f"the browser client is not installed ({page} is missing)", 404)
        return FileResponse(page, media_type="text/html")

    @app.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        return index()

    @app.get("/games/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        return index()

    @app.get("/games/{game_id}/replay", include_in_schema=False)
    async def replay_page(game_id: str) -> FileResponse:
        return index()

    app.mount("/static", StaticFiles(directory=web, check_dir=False), name="static")
    return app


async def _json_object(request: Request) -> dict[str, Any]:
    """The request body as a JSON object. Raises BadRequest (400) otherwise."""
    raw = await request.body()
    try:
        body = json.loads(raw) if raw else None
    except (ValueError, UnicodeDecodeError) as e:
        raise BadRequest(f"the body is not valid JSON: {e}") from None
    if not isinstance(body, dict):
        raise BadRequest("the body must be a JSON object")
    return body


def _reason(message: str) -> str:
    """A close reason fits in 123 bytes (RFC 6455)."""
    data = message.encode("utf-8")[:120]
    return data.decode("utf-8", errors="ignore")


async def _send_loop(websocket: WebSocket, sub: Subscriber) -> None:
    """Drain ``sub``'s outbox into the socket; a None closes it (the client fell behind)."""
    try:
        while True:
            message = await sub.outbox.get()
            if message is None:
                await websocket.close(code=1013, reason="too many unread messages; reconnect")
                return
            await websocket.send_json(message)
    except (WebSocketDisconnect, RuntimeError):
        return


async def _receive_loop(websocket: WebSocket, service: GameService, live: Any, sub: Subscriber) -> None:
    """Handle ``{"type": "action", "action", "move"}`` and ``{"type": "ping"}`` until the
    client leaves; a rejected request gets ``{"type": "error", "status", "message"}``."""
    while True:
        try:
            text = await websocket.receive_text()
        except (WebSocketDisconnect, RuntimeError):
            return
        try:
            message = json.loads(text)
        except ValueError:
            sub.send({"type": "error", "status": 400, "message": "a message must be a JSON object"})
            continue
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "ping":
            sub.send({"type": "pong"})
        elif kind == "action":
            if sub.seat is None:
                sub.send({"type": "error", "status": 403,
                          "message": "spectators cannot act; connect with your seat token (your invite link)"})
                continue
            if "action" not in message:
                sub.send({"type": "error", "status": 400,
                          "message": 'missing "action": an action id or a notation'})
                continue
            try:
                await service.act_as(live, sub.seat, message["action"], message.get("move"))
            except ServiceError as e:
                sub.send({"type": "error", "status": e.status, "message": e.message})
        else:
            sub.send({"type": "error", "status": 400,
                      "message": 'unknown message; send {"type": "action", "action": ..., "move": n} or {"type": "ping"}'})
