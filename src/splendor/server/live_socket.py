"""The game's WebSocket, ``WS /ws/games/{id}`` (see :mod:`.app` for the messages): the
connection's life (:func:`game_socket`), its sender (:func:`send_loop`, also the lobby's)
and what each client message does (:func:`handle_message`).

A rejected message gets ``{"type": "error", "status", "message"}`` in the reader's
language and the connection stays open. Close codes: :data:`CLOSE_BAD_REQUEST` (4400, a
token in the URL), :data:`CLOSE_UNKNOWN_GAME` (4404), :data:`CLOSE_TRY_AGAIN` (1013, the
database is unavailable or the client fell behind).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from . import chat
from .answers import DB_RETRY_AFTER_S, DB_UNAVAILABLE, printable
from .errors import N_, BadRequest, ServiceError, Text
from .hub import Subscriber
from .language import language_of
from .live import LiveGame
from .protocol import MalformedJSONError, loads_json
from .rates import Limits, RateLimited
from .request_context import (
    checked_id,
    client_of,
    hub_of,
    limits_of,
    player_of,
    rates_of,
    service_of,
)
from .service import GameService

log = logging.getLogger("splendor.server")

CLOSE_BAD_REQUEST = 4400
CLOSE_UNKNOWN_GAME = 4404
CLOSE_TRY_AGAIN = 1013


def socket_router() -> APIRouter:
    """The route ``WS /ws/games/{game_id}`` (:func:`game_socket`)."""
    router = APIRouter()
    router.add_api_websocket_route("/ws/games/{game_id}", game_socket)
    return router


async def game_socket(websocket: WebSocket, game_id: str) -> None:
    """One connection to a game: a spectator's state at once (the session's seat's for a
    logged-in player seated there), then the client's messages until it leaves; its seat
    or its spectator comes and goes in the others' states."""
    service = service_of(websocket)
    await websocket.accept()
    live = await _open_game(websocket, service, game_id)
    if live is None:
        return
    hub = hub_of(websocket)
    player = await player_of(websocket)
    player_id = None if player is None else player.id
    sub = hub.subscribe(game_id, service.seat_of_player(live, player_id))
    sub.player_id = player_id
    sub.player_name = None if player is None else player.name
    sub.player_guest = player is not None and player.guest
    sub.language = language_of(websocket)
    sub.send_text(service.message_json(live, sub.seat, language=sub.language))
    service.publish(live, exclude=sub)  # the others see the seat or spectator come
    sender = asyncio.create_task(send_loop(websocket, sub))
    try:
        await _receive_loop(websocket, service, live, sub, sub.language)
    finally:
        # no await before the presence update: this block may run under cancellation
        sender.cancel()
        hub.unsubscribe(sub)
        if sub.seat is None or sub.seat not in hub.connected_seats(game_id):
            service.publish(live)  # the seat or spectator left
        await asyncio.gather(sender, return_exceptions=True)


async def _open_game(websocket: WebSocket, service: GameService, game_id: str) -> LiveGame | None:
    """The game of an accepted connection, or None once the connection is closed: a token
    in the URL (4400), no such game (4404), the database unavailable (1013)."""
    if "token" in websocket.query_params:
        await websocket.close(
            code=CLOSE_BAD_REQUEST,
            reason=_reason(
                'no token in the URL: send {"type": "auth", "token": ...} as the first message'
            ),
        )
        return None
    try:
        return await service.get(checked_id(game_id))
    except ServiceError as e:  # no such game, or the database is unavailable (503)
        code = CLOSE_TRY_AGAIN if e.status == 503 else CLOSE_UNKNOWN_GAME
        await websocket.close(code=code, reason=_reason(e.message))
    except DB_UNAVAILABLE as e:
        log.error("database unavailable (WebSocket %s): %s", game_id, e)
        await websocket.close(
            code=CLOSE_TRY_AGAIN, reason="the database is unavailable; try again shortly"
        )
    return None


def _reason(message: str) -> str:
    """A close reason fits in 123 bytes (RFC 6455)."""
    data = message.encode("utf-8", "backslashreplace")[:120]
    return data.decode("utf-8", errors="ignore")


async def send_loop(websocket: WebSocket, sub: Subscriber) -> None:
    """Drain ``sub``'s outbox (JSON texts) into the socket; a None closes it (the client
    fell behind)."""
    try:
        while True:
            message = await sub.outbox.get()
            if message is None:
                await websocket.close(
                    code=CLOSE_TRY_AGAIN, reason="too many unread messages; reconnect"
                )
                return
            await websocket.send_text(message)
    except (WebSocketDisconnect, RuntimeError):
        return


async def _receive_loop(
    websocket: WebSocket,
    service: GameService,
    live: LiveGame,
    sub: Subscriber,
    language: str = "en",
) -> None:
    """Handle the client's messages (:func:`handle_message`) until it leaves; a rejected
    message gets ``{"type": "error", "status", "message"}`` (429 ones with
    ``"retry_after"``; the message in ``language``, the reader's) and the connection stays
    open, whatever the frame held."""
    client = client_of(websocket)
    rates, limits = rates_of(websocket), limits_of(websocket)
    while True:
        try:
            frame = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if frame["type"] == "websocket.disconnect":
            return
        try:
            rates.hit("action", client)
            await handle_message(service, live, sub, frame, limits)
        except ServiceError as e:
            sub.send(_refusal(e, language))
        except DB_UNAVAILABLE as e:
            log.error("database unavailable (WebSocket %s): %s", live.id, e)
            sub.send(
                {
                    "type": "error",
                    "status": 503,
                    "retry_after": DB_RETRY_AFTER_S,
                    "message": Text(
                        N_("the database is unavailable; nothing was changed, try again shortly")
                    ).translated(language),
                }
            )
        except Exception:  # a bug must not drop the connection: say so, keep serving
            log.exception("WebSocket message of game %s failed", live.id)
            sub.send(
                {
                    "type": "error",
                    "status": 500,
                    "message": Text(N_("internal error; the message was not applied")).translated(
                        language
                    ),
                }
            )


def _refusal(e: ServiceError, language: str) -> dict[str, Any]:
    """The error message of a refused client message (``retry_after`` for 429 and 503)."""
    error: dict[str, Any] = {
        "type": "error",
        "status": e.status,
        "message": printable(e.translated(language)),
    }
    if isinstance(e, RateLimited):
        error["retry_after"] = e.retry_after
    elif e.status == 503:
        error["retry_after"] = DB_RETRY_AFTER_S
    return error


async def handle_message(
    service: GameService,
    live: LiveGame,
    sub: Subscriber,
    frame: Mapping[str, Any],
    limits: Limits,
) -> None:
    """One client frame: ``{"type": "auth", "token"}``, ``{"type": "action", "action",
    "move"}``, ``{"type": "chat", "text"}``, ``{"type": "resign"}`` or ``{"type":
    "ping"}``.

    Raises:
        ServiceError: a rejected one (a bad token included: 403, and the connection stays
            a spectator's); 413 a message over :attr:`.rates.Limits.max_ws_message_bytes`.
    """
    message = _message_of(frame, limits)
    kind = message.get("type") if isinstance(message, dict) else None
    if kind == "ping":
        sub.send({"type": "pong"})
    elif kind == "auth":
        await _authenticate(service, live, sub, message.get("token"))
    elif kind in ("chat", "resign"):
        if sub.seat is None:
            raise ServiceError(
                N_("spectators cannot chat; authenticate first")
                if kind == "chat"
                else N_("spectators cannot resign; authenticate first"),
                403,
            )
        if kind == "chat":
            await chat.say(service, live, sub.seat, message.get("text"))
        else:
            await service.resign(live, sub.seat)
    elif kind == "action":
        await _act(service, live, sub, message)
    else:
        raise BadRequest(
            'unknown message; send {"type": "auth", "token": ...}, '
            '{"type": "action", "action": ..., "move": n}, {"type": "chat", "text": ...}, '
            '{"type": "resign"} or {"type": "ping"}'
        )


def _message_of(frame: Mapping[str, Any], limits: Limits) -> Any:
    """The JSON value of a text frame. Raises BadRequest (binary, not JSON, too deep) or
    a 413 ServiceError (too large)."""
    text = frame.get("text")
    if text is None:
        raise BadRequest("binary frames are not accepted: send JSON text messages")
    size = (
        len(text)
        if len(text) * 4 <= limits.max_ws_message_bytes
        else len(text.encode("utf-8", "surrogatepass"))
    )
    if size > limits.max_ws_message_bytes:
        raise ServiceError(
            f"the message is too large: at most {limits.max_ws_message_bytes} bytes", 413
        )
    try:
        return loads_json(text, limits.max_json_depth)
    except MalformedJSONError as e:
        raise BadRequest(f"a message must be a JSON object; {e}") from None


async def _authenticate(service: GameService, live: LiveGame, sub: Subscriber, token: Any) -> None:
    """``{"type": "auth", "token"}``: the connection becomes the token's seat's (its state
    follows; the others see the seat connected). Raises BadRequest (no token, another seat
    already) or Forbidden (a bad token: still a spectator)."""
    if not isinstance(token, str) or not token:
        raise BadRequest('"token" must be your seat token (a string, from your invite link)')
    seat = await service.viewer_seat(live, token, sub.player_id)
    assert seat is not None
    if sub.seat == seat:  # seated by the session already: the same seat's token is fine
        sub.send_text(service.message_json(live, seat, language=sub.language))
        return
    if sub.seat is not None:
        raise BadRequest(f"this connection is already seat {sub.seat}'s")
    sub.seat = seat
    sub.send_text(service.message_json(live, seat, language=sub.language))
    service.publish(live, exclude=sub)  # the others see the seat connected


async def _act(
    service: GameService, live: LiveGame, sub: Subscriber, message: dict[str, Any]
) -> None:
    """``{"type": "action", "action", "move"}``: the seat's decision (403 for a spectator,
    400 without ``action`` or ``move``)."""
    if sub.seat is None:
        raise ServiceError(
            N_(
                "spectators cannot act; authenticate first: "
                '{"type": "auth", "token": <your seat token>}'
            ),
            403,
        )
    if "action" not in message:
        raise BadRequest('missing "action": an action id or a notation')
    if "move" not in message:
        raise BadRequest('missing "move": the "move" number of the state you decided on')
    await service.act_as(live, sub.seat, message["action"], message["move"])


__all__ = [
    "CLOSE_BAD_REQUEST",
    "CLOSE_TRY_AGAIN",
    "CLOSE_UNKNOWN_GAME",
    "game_socket",
    "handle_message",
    "send_loop",
    "socket_router",
]
