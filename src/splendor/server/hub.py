"""WebSocket subscribers per game, and per-seat broadcasts.

A subscriber is one WebSocket connection: the seat it may see (None for a spectator) and
an outbox queue of JSON texts that its connection's sender task drains. :meth:`Hub.publish`
builds and serializes one message per distinct viewer seat (a seat's own view, the public
view shared by every spectator) and queues that same text for every subscriber of the
game, without awaiting any network write, so one slow client never delays the game or the
other clients. A client that falls more than
:data:`OUTBOX_LIMIT` messages behind is dropped (it reconnects and gets a fresh state).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from .protocol import dumps

OUTBOX_LIMIT = 256


@dataclass(eq=False)
class Subscriber:
    """One WebSocket connection to a game.

    Attributes:
        seat: the seat the connection acts for, or None (spectator).
        player_id: the logged-in player of the connection (its session cookie), or None.
        player_name: that player's name (shown in the game's list of spectators).
        player_guest: that player is a guest (labelled so in the list).
        outbox: messages to send (JSON text), in order; None asks the sender to close.
        overflowed: set when the client fell too far behind (the connection is closed).
        language: the connection's language (its request's), the language of the moves'
            sentences in its states (:meth:`Hub.publish_views`).
    """

    game_id: str
    seat: int | None
    player_id: str | None = None
    player_name: str | None = None
    player_guest: bool = False
    outbox: asyncio.Queue[str | None] = field(
        default_factory=lambda: asyncio.Queue(maxsize=OUTBOX_LIMIT + 1)
    )
    overflowed: bool = False
    language: str = "en"

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` as JSON text (never blocks), see :meth:`send_text`."""
        self.send_text(dumps(message))

    def send_text(self, text: str) -> None:
        """Queue a message already serialized (never blocks); a full outbox marks the
        subscriber overflowed."""
        if self.overflowed:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.overflowed = True
            self.outbox.put_nowait(None)
            return
        self.outbox.put_nowait(text)


class Hub:
    """The subscribers of every game (one per app; used from the event loop only)."""

    def __init__(self) -> None:
        self._games: dict[str, set[Subscriber]] = {}

    def subscribe(self, game_id: str, seat: int | None) -> Subscriber:
        """Register a connection to ``game_id`` viewing as ``seat``."""
        sub = Subscriber(game_id, seat)
        self._games.setdefault(game_id, set()).add(sub)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        """Forget a connection (idempotent)."""
        subs = self._games.get(sub.game_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._games[sub.game_id]

    def connected_seats(self, game_id: str) -> set[int]:
        """Seats of ``game_id`` with at least one open connection."""
        return {s.seat for s in self._games.get(game_id, ()) if s.seat is not None}

    def has_subscribers(self, game_id: str) -> bool:
        """Whether ``game_id`` has at least one open connection."""
        return game_id in self._games

    def subscribers(self, game_id: str) -> list[Subscriber]:
        """The open connections to ``game_id``."""
        return list(self._games.get(game_id, ()))

    def publish(
        self,
        game_id: str,
        build: Callable[[int | None], str],
        exclude: Subscriber | None = None,
    ) -> int:
        """Queue ``build(seat)`` (a message as JSON text) for every subscriber of
        ``game_id`` but ``exclude``; it is built once per distinct seat (spectators share
        one). Returns the number of subscribers reached."""
        return self._publish(game_id, lambda sub: sub.seat, lambda sub: build(sub.seat), exclude)

    def publish_views(
        self,
        game_id: str,
        build: Callable[[int | None, str], str],
        exclude: Subscriber | None = None,
    ) -> int:
        """Queue ``build(seat, language)`` for every subscriber of ``game_id`` but
        ``exclude``, built once per distinct seat and language (a state message whose
        moves are said in the reader's language). Returns the number of subscribers
        reached."""
        return self._publish(
            game_id,
            lambda sub: (sub.seat, sub.language),
            lambda sub: build(sub.seat, sub.language),
            exclude,
        )

    def _publish(
        self,
        game_id: str,
        view_of: Callable[[Subscriber], Hashable],
        build: Callable[[Subscriber], str],
        exclude: Subscriber | None,
    ) -> int:
        """Queue to each subscriber but ``exclude`` the text of its view (``view_of``),
        built once per distinct view."""
        views: dict[Hashable, str] = {}
        reached = 0
        for sub in self.subscribers(game_id):
            if sub is exclude:
                continue
            key = view_of(sub)
            text = views.get(key)
            if text is None:
                text = views[key] = build(sub)
            sub.send_text(text)
            reached += 1
        return reached
