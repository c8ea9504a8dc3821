"""Chat at a game's table: short messages from the seated players, kept with the game.

A message is cleaned like a name (:func:`.protocol.clean_name`: control, bidi and
zero-width characters removed, runs of spaces collapsed), 1 to :data:`MAX_CHAT_LENGTH`
characters, and stored in ``chat_messages`` (deleted with its game). Clients show it as
text, never as HTML. Only a seated player may write (a spectator reads). A player does
not receive the messages of the players it blocks (:mod:`.social`), live
(:func:`deliver`) or in the history (:func:`history_for`).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from sqlalchemy import insert, select

from .errors import N_, BadRequest
from .hub import Hub
from .live import LiveGame
from .moderation import check_can_chat
from .notify import notify
from .protocol import BadNameError, clean_name
from .service import GameService
from .social import blocked_by, blockers_of
from .storage import ChatRow, Storage, utcnow

MAX_CHAT_LENGTH = 300
"""Characters in one chat message."""

HISTORY = 200
"""The last messages a game's chat returns."""


def clean_message(text: Any) -> str:
    """A chat message as stored.

    Raises:
        BadRequest: not a string, empty once cleaned, or longer than
            :data:`MAX_CHAT_LENGTH` characters.
    """
    if not isinstance(text, str):
        raise BadRequest(f'"text" must be a string, got {type(text).__name__}')
    try:
        return clean_name(text, MAX_CHAT_LENGTH)
    except BadNameError as e:
        if e.reason == "length":
            raise BadRequest(
                N_("a chat message is 1 to {max} characters, got {length}"),
                max=MAX_CHAT_LENGTH,
                length=e.length,
            ) from None
        if e.reason == "empty":
            raise BadRequest(
                N_(
                    "a chat message needs at least one visible character "
                    "(control, bidi and zero-width characters are removed)"
                )
            ) from None
        raise BadRequest(
            N_(
                "a chat message must be valid Unicode text: it holds a lone surrogate "
                "(an unpaired \\uD800-\\uDFFF escape)"
            )
        ) from None


def add_message(
    storage: Storage, game_id: str, seat: int, name: str, text: str, guest: bool = False
) -> dict[str, Any]:
    """Store a (cleaned) message; returns it as sent to clients:
    ``{"seat", "name", "guest", "text", "at"}`` (ISO 8601 time; ``guest``: written by a
    guest, labelled so)."""
    now = utcnow()
    message = {"seat": seat, "name": name, "guest": guest, "text": text, "at": now.isoformat()}
    with storage.engine.begin() as c:
        c.execute(
            insert(ChatRow),
            {"game_id": game_id, "seat": seat, "name": name, "text": text, "created_at": now},
        )
        notify(c, "chat", game_id, message)
    return message


def history(storage: Storage, game_id: str) -> list[dict[str, Any]]:
    """The last :data:`HISTORY` messages of a game, oldest first."""
    with storage.session() as s:
        rows = s.scalars(
            select(ChatRow)
            .where(ChatRow.game_id == game_id)
            .order_by(ChatRow.id.desc())
            .limit(HISTORY)
        ).all()
    return [
        {"seat": r.seat, "name": r.name, "text": r.text, "at": r.created_at.isoformat()}
        for r in reversed(rows)
    ]


async def say(service: GameService, live: LiveGame, seat: int, text: Any) -> dict[str, Any]:
    """``seat`` writes ``text`` at the table of ``live``: cleaned, stored, and sent to every
    WebSocket of the game as ``{"type": "chat", "message": {...}}`` but those of the
    players who block the writer (:func:`deliver`). Returns the message.

    Raises:
        BadRequest: a bad message (see :func:`clean_message`).
        Forbidden: the seat's player is muted or banned (:func:`.moderation.check_can_chat`).
    """
    clean = clean_message(text)
    await asyncio.to_thread(check_can_chat, service.storage, live.seats[seat].player_id)
    writer = live.seats[seat]
    message = await service.writer.run(
        add_message, service.storage, live.id, seat, writer.name, clean, writer.guest
    )
    sender = live.seats[seat].player_id
    blockers = (
        set() if sender is None else await asyncio.to_thread(blockers_of, service.storage, sender)
    )
    deliver(service.hub, live.id, message, blockers)
    return message


def deliver(hub: Hub, game_id: str, message: dict[str, Any], blockers: set[str]) -> int:
    """Send a chat message to the game's WebSockets (``{"type": "chat", "message"}``) but
    those of the players in ``blockers`` (who block its writer, :mod:`.social`). Returns
    how many connections it was queued for."""
    out = json.dumps({"type": "chat", "message": message}, ensure_ascii=False)
    sent = 0
    for sub in hub.subscribers(game_id):
        if sub.player_id is None or sub.player_id not in blockers:
            sub.send_text(out)
            sent += 1
    return sent


def history_for(storage: Storage, live: LiveGame, viewer_id: str | None) -> list[dict[str, Any]]:
    """:func:`history` as ``viewer_id`` reads it: without the messages written at the
    seats of the players it blocks (:mod:`.social`; None: everything). Each says whether
    its writer is a guest (``"guest"``)."""
    messages = history(storage, live.id)
    guests = {s.seat for s in live.seats if s.guest}
    for m in messages:
        m["guest"] = m["seat"] in guests
    if viewer_id is None:
        return messages
    hidden = blocked_by(storage, viewer_id)
    seats = {s.seat for s in live.seats if s.player_id is not None and s.player_id in hidden}
    return [m for m in messages if m["seat"] not in seats] if seats else messages
