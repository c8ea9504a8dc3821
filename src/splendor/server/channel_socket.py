"""The read-only WebSockets of the hub's channels: the lobby (``WS /ws/lobby``), a
player's own feed (``WS /ws/me``) and a tournament's page (``WS /ws/tournaments/{id}``).

Each holds one :class:`.hub.Subscriber` of its channel: the server pushes, the client only
pings (``{"type": "ping"}`` → ``{"type": "pong"}``) or asks for what the channel offers
again; anything else gets ``{"type": "error", "status": 400, "message"}`` and the
connection stays open. :func:`serve_channel` is that loop, written once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from .errors import BadRequest
from .hub import Hub, Subscriber


async def serve_channel(
    websocket: WebSocket,
    hub: Hub,
    sub: Subscriber,
    send_loop: Callable[[WebSocket, Subscriber], Coroutine[Any, Any, None]],
    first: Callable[[], Awaitable[None]],
    refusal: str,
    requests: Mapping[str, Callable[[], Awaitable[None]]] | None = None,
) -> None:
    """Serve ``sub``'s connection (accepted, subscribed) until the client leaves: its
    sender task (``send_loop``) drains what the channel queues, ``first()`` queues what
    the client gets at once, then each message of the client: ``ping`` is answered
    ``pong``, a type in ``requests`` runs its function, anything else is refused with
    ``refusal`` (a 400 error message). The subscriber is unsubscribed at the end.

    Args:
        websocket: the accepted connection.
        hub: where ``sub`` is subscribed.
        sub: the connection's subscriber of its channel.
        send_loop: the sender (:func:`.live_socket.send_loop`).
        first: queues the first message(s).
        refusal: what a message of another type is told (the types it may send).
        requests: ``{type: function}`` of what the client may ask again (``"count"``).
    """
    sender = asyncio.create_task(send_loop(websocket, sub))
    try:
        await first()
        while True:
            try:
                message = await websocket.receive_json()
            except (WebSocketDisconnect, RuntimeError):
                return
            except ValueError:
                sub.send({"type": "error", "status": 400, "message": "send JSON messages"})
                continue
            kind = message.get("type") if isinstance(message, dict) else None
            if kind == "ping":
                sub.send({"type": "pong"})
            elif requests is not None and isinstance(kind, str) and kind in requests:
                await requests[kind]()
            else:
                error = BadRequest(refusal)
                sub.send({"type": "error", "status": error.status, "message": error.message})
    finally:
        sender.cancel()
        hub.unsubscribe(sub)
        await asyncio.gather(sender, return_exceptions=True)


__all__ = ["serve_channel"]
