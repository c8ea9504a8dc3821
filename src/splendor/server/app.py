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

State messages are sent as JSON text built once per distinct viewer
(:meth:`.service.GameService.message_json`). :func:`serve` runs the app with uvicorn.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
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

    Once started (schema migrated, unfinished games loaded), the app moves every object
    that exists to the garbage collector's permanent generation (:func:`gc.freeze`): the
    modules, engines and tables loaded at start-up live as long as the process, and
    without this a full collection scans them all (pauses of about 100-170 ms every few
    seconds under load, measured, which every game in flight waits for).
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
            gc.freeze()  # see the docstring: no full-collection pauses over start-up objects
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
    async def get_state(request: Request, game_id: str, token: str | None = None) -> Response:
        service = service_of(request)
        live = await service.get(game_id)
        return _json_response(service.message_json(live, service.seat_for_token(live, token)))

    @app.post("/api/games/{game_id}/actions")
    async def post_action(request: Request, game_id: str) -> Response:
        service = service_of(request)
        await service.get(game_id)
        body = await _json_object(request)
        if "action" not in body:
            raise BadRequest('missing "action": an action id or a notation such as "take W U G"')
        live, seat = await service.act(game_id, body.get("token"), body["action"], body.get("move"))
        return _json_response(service.message_json(live, seat))

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
        sub.send_text(service.message_json(live, seat))
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


def _json_response(text: str) -> Response:
    """A 200 response whose body is JSON text already serialized (a state message)."""
    return Response(content=text, media_type="application/json")


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
    """Drain ``sub``'s outbox (JSON texts) into the socket; a None closes it (the client
    fell behind)."""
    try:
        while True:
            message = await sub.outbox.get()
            if message is None:
                await websocket.close(code=1013, reason="too many unread messages; reconnect")
                return
            await websocket.send_text(message)
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


def serve(
    database_url: str | None = None,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    bot_workers: int | None = None,
    access_log: bool = True,
    log_level: str = "info",
    ws_per_message_deflate: bool = True,
) -> None:
    """Run the app with uvicorn until it is stopped (SIGINT/SIGTERM); blocks.

    uvicorn picks its fastest installed parts: the ``uvloop`` event loop, the
    ``httptools`` HTTP parser and the ``websockets`` (sans-I/O) WebSocket protocol.

    Args:
        database_url, bot_workers: as :func:`create_app`.
        host, port: the address to listen on.
        access_log: log one line per HTTP request and WebSocket connection (off for load
            tests: it costs time on the event loop).
        log_level: uvicorn's log level (``"info"``, ``"warning"``, ...).
        ws_per_message_deflate: offer WebSocket compression (RFC 7692): smaller state
            messages (their move log repeats from one message to the next) for CPU time
            (about a sixth of the server's time when saturated on loopback; measured with
            ``benchmarks/bench_server.py``).

    Raises:
        SystemExit: uvicorn could not start (the port is taken, for example).
    """
    import uvicorn

    uvicorn.run(
        create_app(database_url, bot_workers=bot_workers),
        host=host,
        port=port,
        log_level=log_level,
        access_log=access_log,
        ws_per_message_deflate=ws_per_message_deflate,
    )
