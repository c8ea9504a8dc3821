"""Messages to a player wherever they are connected: every tab of a logged-in player
holds a WebSocket to their own channel of the hub (:func:`channel`), and the parts of the
server send them what concerns them (the number of games waiting on them, a browser
notification, an invitation) with :func:`send_to_player`."""

from __future__ import annotations

from typing import Any

from .hub import Hub


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


__all__ = ["channel", "is_online", "send_to_player"]
