"""Messages to a player wherever they are connected: every tab of a logged-in player
holds a WebSocket to their own channel of the hub (:func:`channel`), and the parts of the
server send them what concerns them (the number of games waiting on them, a browser
notification, an invitation) with :func:`send_to_player`.

``WS /ws/me`` (:func:`me_router`): the connection of a logged-in player's tab (its session
cookie; without one the connection is closed with :data:`CLOSE_NOT_LOGGED_IN`). It gets
``{"type": "waiting", "count": n}`` at once and whenever a game of the player's starts,
moves or ends (:class:`PlayerFeed`, subscribed to the event bus), and what other parts
send: ``{"type": "notify", ...}`` (:mod:`.notifications`), ``{"type": "invite", ...}``
(:mod:`.social_api`). The client may send ``{"type": "ping"}`` (answered ``{"type":
"pong"}``) and ``{"type": "count"}`` (answered with a fresh ``waiting``). A player is
**online** while one such connection is open (:func:`is_online`).

The counts are pushed by the process that made the change (its event bus) to the
connections it holds: with several server processes, a tab connected to another process
gets its count when it reconnects or asks (``{"type": "count"}``, sent by the client when
its tab becomes visible again).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import APIRouter, WebSocket

from .channel_socket import serve_channel
from .events import Events, GameEvent
from .hub import Hub, Subscriber
from .my_games import waiting_count, waiting_counts
from .storage import Storage

log = logging.getLogger(__name__)

CLOSE_NOT_LOGGED_IN = 4401
"""The close code of a ``/ws/me`` connection without a logged-in player."""


def channel(player_id: str) -> str:
    """The hub key of ``player_id``'s own connections (games use their id; no game id
    holds a colon)."""
    return f"player:{player_id}"


def send_to_player(hub: Hub, player_id: str, message: dict[str, Any]) -> int:
    """Queue ``message`` for every open connection of ``player_id``; returns how many."""
    subs = hub.subscribers(channel(player_id))
    for sub in subs:
        sub.send(message)
    return len(subs)


def is_online(hub: Hub, player_id: str) -> bool:
    """Whether ``player_id`` has a tab open (a connection to their channel)."""
    return hub.has_subscribers(channel(player_id))


class PlayerFeed:
    """Pushes the number of games waiting on a player to their open ``/ws/me``
    connections after every game event that concerns them (one refresh in flight at a
    time; players changed meanwhile are counted by the next one, all in one query).

    Args:
        storage: the server's storage.
        hub: the app's hub (the players' channels).
        events: the app's event bus; the feed subscribes to ``game.started``,
            ``game.moved`` and ``game.finished``.
    """

    def __init__(self, storage: Storage, hub: Hub, events: Events) -> None:
        self.storage = storage
        self.hub = hub
        self._dirty: set[str] = set()
        self._task: asyncio.Task[None] | None = None
        self.pushed = 0
        """How many ``waiting`` messages were queued (for tests and metrics)."""
        for kind in ("game.started", "game.moved", "game.finished"):
            events.subscribe(kind, self.on_game)

    def on_game(self, event: GameEvent) -> None:
        """A game changed: refresh the counts of its online players (event loop)."""
        self.changed(p for p in event.players if p is not None)

    def changed(self, player_ids: Any) -> None:
        """Refresh the counts of these players, those of them online (event loop)."""
        online = {p for p in player_ids if is_online(self.hub, p)}
        if not online:
            return
        self._dirty |= online
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._push())

    async def _push(self) -> None:
        while self._dirty:
            players, self._dirty = sorted(self._dirty), set()
            try:
                counts = await asyncio.to_thread(waiting_counts, self.storage, players)
            except Exception:  # the database is down, say: the next change counts again
                log.warning("the waiting counts were not sent", exc_info=True)
                return
            for player_id, count in counts.items():
                self.pushed += send_to_player(
                    self.hub, player_id, {"type": "waiting", "count": count}
                )


def me_router() -> APIRouter:
    """The route ``WS /ws/me`` (module docstring)."""
    router = APIRouter()
    router.add_api_websocket_route("/ws/me", me_socket)
    return router


async def me_socket(websocket: WebSocket) -> None:
    """One ``/ws/me`` connection (module docstring) until the client leaves."""
    from .live_socket import send_loop  # the game socket's sender (imports the service)
    from .request_context import hub_of, player_of

    await websocket.accept()
    player = await player_of(websocket)
    if player is None:
        await websocket.close(code=CLOSE_NOT_LOGGED_IN, reason="log in or play as a guest first")
        return
    hub = hub_of(websocket)
    storage: Storage = websocket.app.state.storage
    sub = hub.subscribe(channel(player.id), None)
    sub.player_id, sub.player_name = player.id, player.name

    async def count() -> None:
        await _send_count(storage, sub, player.id)

    refusal = 'this connection takes {"type": "ping"} and {"type": "count"}'
    await serve_channel(websocket, hub, sub, send_loop, count, refusal, {"count": count})


async def _send_count(storage: Storage, sub: Subscriber, player_id: str) -> None:
    count = await asyncio.to_thread(waiting_count, storage, player_id)
    sub.send({"type": "waiting", "count": count})


__all__ = [
    "CLOSE_NOT_LOGGED_IN",
    "PlayerFeed",
    "channel",
    "is_online",
    "me_router",
    "me_socket",
    "send_to_player",
]
