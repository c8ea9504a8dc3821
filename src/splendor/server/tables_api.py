"""The lobby's HTTP and WebSocket API (:mod:`.tables`).

- ``GET /api/tables``: ``{"tables": [...]}``, the open public tables and the caller's own;
  each table's ``host_rating`` is its host's rating in the table's kind (``{"kind",
  "value", "games", "provisional"}``). Query parameters filter the public ones: ``game``,
  ``clock`` (none, realtime, turn), ``rated`` (true, false), ``min_rating``,
  ``max_rating`` (:mod:`.lobby_filters`; 400 for a bad value).
- ``POST /api/tables`` (a session required: a guest will do): open a table (201), body as
  :meth:`.tables.Tables.open`.
- ``GET /api/tables/{id}``: one table.
- ``POST /api/tables/{id}/join`` ``{"code"?}`` and ``POST /api/tables/{id}/leave``.
- ``GET /api/games/{id}/rematch``: ``{"table": T}``, the game's rematch table (open or
  started), or ``{"table": null}`` (:meth:`.tables.Tables.rematch_table`).
- ``POST /api/games/{id}/rematch``: offer or accept the rematch of a finished game
  (:meth:`.tables.Tables.rematch`); the game's WebSockets get ``{"type": "rematch",
  "table"}`` at every change of the rematch table.
- ``POST /api/play-now`` ``{"game", "num_players", "clock"}``: quick pairing.
- ``WS /ws/lobby``: ``{"type": "lobby", "tables": [...]}`` at once and after every change of
  a table; ``{"type": "started", "table_id", "game_id"}`` to the players of a table whose
  game has started (their page goes to ``/games/{game_id}``, where their session holds
  their seat). The client may send ``{"type": "ping"}``.

A table answer's ``"seats"`` name their players (``player_id``, ``name``) so the lobby can
link to their pages; a table JSON never holds an invitation code except in the answer to
the host who opened it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from fastapi import APIRouter, Request, WebSocket

from .accounts import Player
from .channel_socket import serve_channel
from .hub import Hub, Subscriber
from .lobby_filters import LobbyFilter
from .request_context import required_player
from .tables import STARTED, Tables

log = logging.getLogger(__name__)

LOBBY = "lobby"
"""The :class:`.hub.Hub` key of the lobby's WebSockets."""


class LobbyFeed:
    """Pushes the lobby to its WebSockets after changes (one update in flight at a time;
    changes during it are sent by the next one).

    Args:
        hub: the app's hub (lobby connections are its :data:`LOBBY` subscribers).
        tables: the tables.
    """

    def __init__(self, hub: Hub, tables: Tables) -> None:
        self.hub = hub
        self.tables = tables
        self._dirty: set[str] = set()
        self._task: asyncio.Task[None] | None = None

    def changed(self, table_id: str) -> None:
        """A table changed: schedule a push (called from the event loop)."""
        self._dirty.add(table_id)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._push())

    async def _push(self) -> None:
        while self._dirty:
            changed, self._dirty = self._dirty, set()
            try:
                await self._send(changed)
            except Exception:  # the database is down, say: the next change sends again
                log.warning("the lobby update was not sent", exc_info=True)
                return

    async def _send(self, changed: set[str]) -> None:
        subs = self.hub.subscribers(LOBBY)
        for table_id in changed:
            table = await asyncio.to_thread(self.tables.get, table_id)
            self.tables.announce(table)
            if table["status"] == STARTED and table["game_id"] is not None:
                seated = {s["player_id"] for s in table["seats"] if s["player_id"]}
                for sub in subs:
                    if sub.player_id in seated:
                        sub.send(
                            {"type": "started", "table_id": table_id, "game_id": table["game_id"]}
                        )
        if not subs:
            return
        public = await asyncio.to_thread(self.tables.lobby)
        by_player: dict[str | None, list[dict[str, Any]]] = {None: public}
        for sub in subs:
            if sub.player_id not in by_player:
                by_player[sub.player_id] = await asyncio.to_thread(self.tables.lobby, sub.player_id)
            sub.send({"type": "lobby", "tables": by_player[sub.player_id]})


def tables_router(
    tables_of: Callable[[Request | WebSocket], Tables],
    player_of: Callable[[Request | WebSocket], Awaitable[Player | None]],
    body_of: Callable[[Request], Awaitable[dict[str, Any]]],
    hit_rate: Callable[[str, Request], None],
    send_loop: Callable[[WebSocket, Subscriber], Coroutine[Any, Any, None]],
) -> APIRouter:
    """The routes above; the callables are the app's (its tables, the logged-in player of
    a request or WebSocket, body reader, rate limiter and WebSocket send loop)."""
    router = APIRouter()

    async def required(request: Request) -> Player:
        return await required_player(request, player_of)

    @router.get("/api/tables")
    async def lobby(request: Request) -> dict[str, Any]:
        hit_rate("action", request)
        wanted = LobbyFilter.parse(request.query_params)
        player = await player_of(request)
        pid = None if player is None else player.id
        tables = await asyncio.to_thread(tables_of(request).lobby, pid)
        return {"tables": wanted.apply(tables, pid)}

    @router.post("/api/tables", status_code=201)
    async def open_table(request: Request) -> dict[str, Any]:
        hit_rate("create", request)
        player = await required(request)
        return await tables_of(request).open(player, await body_of(request))

    @router.get("/api/tables/{table_id}")
    async def get_table(request: Request, table_id: str) -> dict[str, Any]:
        hit_rate("action", request)
        return await asyncio.to_thread(tables_of(request).get, table_id)

    @router.post("/api/tables/{table_id}/join")
    async def join(request: Request, table_id: str) -> dict[str, Any]:
        hit_rate("action", request)
        player = await required(request)
        body = await body_of(request) if await request.body() else {}
        return await tables_of(request).join(player, table_id, body.get("code"))

    @router.post("/api/tables/{table_id}/leave")
    async def leave(request: Request, table_id: str) -> dict[str, Any]:
        hit_rate("action", request)
        player = await required(request)
        return await tables_of(request).leave(player, table_id)

    @router.get("/api/games/{game_id}/rematch")
    async def rematch_table(request: Request, game_id: str) -> dict[str, Any]:
        hit_rate("action", request)
        return {"table": await asyncio.to_thread(tables_of(request).rematch_table, game_id)}

    @router.post("/api/games/{game_id}/rematch")
    async def rematch(request: Request, game_id: str) -> dict[str, Any]:
        hit_rate("create", request)
        player = await required(request)
        return await tables_of(request).rematch(player, game_id)

    @router.post("/api/play-now")
    async def play_now(request: Request) -> dict[str, Any]:
        hit_rate("create", request)
        player = await required(request)
        return await tables_of(request).play_now(player, await body_of(request))

    @router.websocket("/ws/lobby")
    async def lobby_socket(websocket: WebSocket) -> None:
        await serve_lobby(websocket, tables_of(websocket), player_of, send_loop)

    return router


async def serve_lobby(
    websocket: WebSocket,
    tables: Tables,
    player_of: Callable[[WebSocket], Awaitable[Player | None]],
    send_loop: Callable[[WebSocket, Subscriber], Coroutine[Any, Any, None]],
) -> None:
    """One lobby WebSocket (``WS /ws/lobby``, module docstring) until the client leaves:
    the lobby at once (with the session's player's own tables), then what
    :class:`LobbyFeed` pushes; the client may only ping."""
    await websocket.accept()
    player = await player_of(websocket)
    hub: Hub = websocket.app.state.hub
    sub = hub.subscribe(LOBBY, None)
    sub.player_id = None if player is None else player.id

    async def first() -> None:
        sub.send({"type": "lobby", "tables": await asyncio.to_thread(tables.lobby, sub.player_id)})

    await serve_channel(
        websocket, hub, sub, send_loop, first, 'the lobby only takes {"type": "ping"}'
    )
