"""Chat at a game's table: short messages from the seated players, kept with the game.

A message is cleaned like a name (:func:`.protocol.clean_name`: control, bidi and
zero-width characters removed, runs of spaces collapsed), 1 to :data:`MAX_CHAT_LENGTH`
characters, and stored in ``chat_messages`` (deleted with its game). Clients show it as
text, never as HTML. Only a seated player may write (a spectator reads).
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import insert, select

from .errors import N_, BadRequest
from .live import LiveGame
from .notify import notify
from .protocol import BadNameError, clean_name
from .service import GameService
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


def add_message(storage: Storage, game_id: str, seat: int, name: str, text: str) -> dict[str, Any]:
    """Store a (cleaned) message; returns it as sent to clients:
    ``{"seat", "name", "text", "at"}`` (ISO 8601 time)."""
    now = utcnow()
    message = {"seat": seat, "name": name, "text": text, "at": now.isoformat()}
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
    WebSocket of the game as ``{"type": "chat", "message": {...}}``. Returns the message.

    Raises:
        BadRequest: a bad message (see :func:`clean_message`).
    """
    clean = clean_message(text)
    message = await service.writer.run(
        add_message, service.storage, live.id, seat, live.seats[seat].name, clean
    )
    out = json.dumps({"type": "chat", "message": message}, ensure_ascii=False)
    service.hub.publish(live.id, lambda _seat: out)
    return message
