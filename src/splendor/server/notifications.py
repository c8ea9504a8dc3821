"""Notifications: the part of the server that calls players back (``app.state.notifier``).

The :class:`Notifier` subscribes to the event bus (:mod:`.events`) and tells players:

- **your turn** (kind ``"turn"``): in a turn-based game (``{"kind": "turn"}`` clock), the
  player whose turn begins, once per turn (not after each decision of a turn, nor the
  player who just moved);
- **a deadline coming** (``"deadline"``): when :attr:`Notifier.deadline_share` (a fifth)
  of a turn-based turn's time is left and its player has not moved: one timer per game,
  keyed by the game and its move number, cancelled by the game's next event;
- **a game starting** (``"start"``): when the last seat of a lobby table is taken, every
  player seated there but the one who took it (that one is on the page already);
- **a table filling** (``"table"``): when a player sits at a table that still has free
  seats, the host and the others seated there;
- **a tournament round** (``"tournament"``): every player the round paired, with the
  link to their game.

Other parts send their own with :meth:`Notifier.notify` (an invitation, say). Each notice
goes out on the channels the player chose (:mod:`.notify_delivery`): a browser
notification in their open tabs, an e-mail (verified address only; one per game and turn;
rate-limited) and Web Push. Nothing here can block or break a move: the event callbacks
only start tasks, whose database work runs in threads and whose failures are logged.

The links in e-mail and push go to :attr:`.app.MailConfig.public_url`; without it, to the
address of the request that caused the notice (:class:`OriginMiddleware` keeps it for the
tasks that request starts), else the last address a request came to. Behind a proxy or on
a public server, give ``--public-url``: a request's ``Host`` header is the client's to
choose.

The deadline timers live in the process that runs the game; a restarted server arms them
again when it loads the games in progress with a clock (``game.resumed``).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import re
import time
from collections.abc import Callable, Coroutine, MutableMapping
from typing import Any

from .errors import Localized, Text
from .events import Events, GameEvent, TableEvent, TournamentEvent
from .notify_delivery import Delivery
from .notify_prefs import KINDS
from .notify_texts import (
    MAX_KEY,
    Notice,
    Plain,
    deadline_notice,
    game_title,
    round_notice,
    start_notice,
    table_notice,
    turn_notice,
)

log = logging.getLogger("splendor.server.notifications")

request_origin: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "request_origin", default=None
)
"""The ``scheme://host[:port]`` of the request being served (set by
:class:`OriginMiddleware`; tasks started by the request inherit it)."""

_HOST = re.compile(r"^[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?$")


class OriginMiddleware:
    """ASGI middleware: sets :data:`request_origin` for each HTTP request and WebSocket
    (from its scheme and ``Host`` header, when that is a plain host name or address)."""

    def __init__(self, app: Callable[..., Any]) -> None:
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            host = next((v for k, v in scope.get("headers", ()) if k == b"host"), b"")
            text = host.decode("latin-1")
            if _HOST.match(text):
                scheme = scope.get("scheme", "http")
                scheme = {"ws": "http", "wss": "https"}.get(scheme, scheme)
                request_origin.set(f"{scheme}://{text}")
        await self.app(scope, receive, send)


def _when(deadline: Any) -> float:
    return float(deadline.timestamp())


class Notifier:
    """Tells players what happened (module docstring).

    Args:
        events: the app's event bus (subscribed at once).
        delivery: sends the notices.
        public_url: the site's address for links (None: the request's, see above).
        clock: the wall clock in seconds (``time.time``; the deadlines are wall times).

    Attributes:
        deadline_share: the share of a turn's time left when the reminder goes.
        sent: ``{"all": n}``, the notices delivered on at least one channel so far.
    """

    def __init__(
        self,
        events: Events,
        delivery: Delivery,
        public_url: str | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.delivery = delivery
        self.public_url = public_url.rstrip("/") if public_url else None
        self.clock = clock
        self.deadline_share = 0.2
        self.sent: dict[str, int] = {}
        self._last_origin = "http://localhost:8000"
        self._tasks: set[asyncio.Task[Any]] = set()
        self._timers: dict[str, tuple[int, asyncio.TimerHandle]] = {}
        self._to_move: dict[str, str | None] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False
        events.subscribe("game.started", self._on_game)
        events.subscribe("game.moved", self._on_game)
        events.subscribe("game.finished", self._on_finished)
        events.subscribe("game.resumed", self._on_resumed)
        events.subscribe("table.joined", self._on_table)
        events.subscribe("tournament.round", self._on_round)

    # ------------------------------------------------------------------ public

    def base_url(self) -> str:
        """The site's address for the links of a notice sent now."""
        if self.public_url is not None:
            return self.public_url
        origin = request_origin.get()
        if origin is not None:
            self._last_origin = origin
            return origin
        return self._last_origin

    def notify(
        self, player_id: str, kind: str, key: str, title: str | Text, body: str | Text, url: str
    ) -> None:
        """Send a notice to ``player_id`` on their channels, in the background (callable
        from the event loop or from another thread).

        Args:
            player_id: the recipient.
            kind: one of :data:`.notify_prefs.KINDS` (``"invite"`` for an invitation).
            key: what it is about, unique per kind (one mail per player, kind and key
                ever), at most 128 characters.
            title, body: the headline and text: a :class:`.errors.Text` (said in the
                player's language) or text already in it.
            url: the page it opens (``/tables/{id}``, or a full URL).

        Raises:
            ValueError: an unknown kind, or a key that is empty or too long.
        """
        if kind not in KINDS:
            raise ValueError(f"unknown notification kind {kind!r}; one of {', '.join(KINDS)}")
        if not key or len(key) > MAX_KEY:
            raise ValueError(f"a notification key has 1 to {MAX_KEY} characters")
        notice = Notice(kind, key, _text(title), _text(body), url)
        self._spawn_safely(player_id, notice)

    async def deliver(
        self, player_id: str, notice: Notice | Callable[[], Notice]
    ) -> dict[str, bool]:
        """Send ``notice`` (or the notice a function makes, in a thread) to ``player_id``
        now (:meth:`.notify_delivery.Delivery.deliver`)."""
        done = await self.delivery.deliver(player_id, notice, self.base_url())
        if any(done.values()):
            self.sent["all"] = self.sent.get("all", 0) + 1
        return done

    async def idle(self) -> None:
        """Wait until every notice started so far is delivered (tests, benchmarks)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        """Stop: cancel the deadline timers and the notices still being delivered."""
        self._closed = True
        for _, handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # ------------------------------------------------------------------ tasks

    def _spawn(self, coro: Coroutine[Any, Any, Any], name: str) -> None:
        if self._closed:
            coro.close()
            return
        loop = asyncio.get_running_loop()
        self._loop = loop
        task = loop.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a notification task failed", exc_info=task.exception())

    def _spawn_safely(self, player_id: str, notice: Notice) -> None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # another thread: hand it to the event loop
            if self._loop is None:
                raise RuntimeError("the notifier has not run on its event loop yet") from None
            self._loop.call_soon_threadsafe(self._spawn_safely, player_id, notice)
            return
        self._spawn(self.deliver(player_id, notice), f"notify-{notice.kind}")

    # ------------------------------------------------------------------ games

    def _on_game(self, ev: GameEvent) -> None:
        self._loop = asyncio.get_running_loop()
        if not ev.turn_based:
            return
        mover = self._to_move.get(ev.game_id)
        to_move = ev.player_to_move
        self._to_move[ev.game_id] = to_move
        self._cancel_timer(ev.game_id)
        if to_move is None:
            return
        if ev.deadline is not None and ev.turn_seconds:
            self._arm_deadline(ev, to_move)
        if to_move != mover:  # a new turn begins (not a later decision of the same turn)
            self._spawn(self._game_notice(ev, to_move, "turn"), "notify-turn")

    def _on_resumed(self, ev: GameEvent) -> None:
        """A game with a clock loaded at start-up: its deadline reminder is armed again
        (the turn's own notice went before the restart)."""
        self._loop = asyncio.get_running_loop()
        to_move = ev.player_to_move
        if not ev.turn_based or to_move is None:
            return
        self._to_move[ev.game_id] = to_move
        self._cancel_timer(ev.game_id)
        if ev.deadline is not None and ev.turn_seconds:
            self._arm_deadline(ev, to_move)

    def _on_finished(self, ev: GameEvent) -> None:
        self._cancel_timer(ev.game_id)
        self._to_move.pop(ev.game_id, None)

    def _cancel_timer(self, game_id: str) -> None:
        timer = self._timers.pop(game_id, None)
        if timer is not None:
            timer[1].cancel()

    def _arm_deadline(self, ev: GameEvent, player_id: str) -> None:
        assert ev.deadline is not None and ev.turn_seconds is not None
        due = _when(ev.deadline) - self.deadline_share * ev.turn_seconds
        if _when(ev.deadline) - due < 1.0:  # too short a turn for a reminder
            return
        delay = max(0.0, due - self.clock())
        loop = asyncio.get_running_loop()
        handle = loop.call_later(delay, self._deadline_due, ev, player_id)
        self._timers[ev.game_id] = (ev.move, handle)

    def _deadline_due(self, ev: GameEvent, player_id: str) -> None:
        timer = self._timers.get(ev.game_id)
        if timer is None or timer[0] != ev.move:
            return
        del self._timers[ev.game_id]
        self._spawn(self._game_notice(ev, player_id, "deadline"), "notify-deadline")

    async def _game_notice(self, ev: GameEvent, player_id: str, kind: str) -> None:
        others = [p for p in ev.players if p is not None and p != player_id]

        def build() -> Notice:  # in the delivery's thread, with its database work
            names = self.delivery.names(others)
            opponents = [names.get(p, "?") for p in others] + ["bot"] * len(ev.bots)
            title = game_title(ev.game, ev.num_players)
            if kind == "turn":
                ttl = 86400
                if ev.deadline is not None:
                    ttl = max(60, int(_when(ev.deadline) - self.clock()))
                return turn_notice(ev.game_id, ev.move, title, opponents, ttl)
            left = _when(ev.deadline) - self.clock() if ev.deadline is not None else 0.0
            return deadline_notice(ev.game_id, ev.move, title, opponents, left)

        await self.deliver(player_id, build)

    # ------------------------------------------------------------------ tables, tournaments

    def _on_table(self, ev: TableEvent) -> None:
        self._loop = asyncio.get_running_loop()
        others = [p for p in dict.fromkeys((ev.host_id, *ev.seated)) if p != ev.player_id]
        if others:
            self._spawn(self._table_notices(ev, others), "notify-table")

    async def _table_notices(self, ev: TableEvent, recipients: list[str]) -> None:
        title = game_title(ev.game, ev.num_players)
        names = await asyncio.to_thread(self.delivery.names, list(ev.seated))
        if ev.free > 0:
            joiner = names.get(ev.player_id, "?")
            notice = table_notice(ev.table_id, joiner, title, ev.free, len(ev.seated))
            await asyncio.gather(*(self.deliver(p, notice) for p in recipients))
            return
        game_id = await asyncio.to_thread(self._game_of_table, ev.table_id)
        for p in recipients:
            players = [names.get(q, "?") for q in ev.seated if q != p]
            await self.deliver(p, start_notice(ev.table_id, game_id, title, players))

    def _game_of_table(self, table_id: str) -> str | None:
        from sqlalchemy import select

        from .rows import TableRow

        with self.delivery.storage.engine.begin() as c:
            found = c.execute(select(TableRow.game_id).where(TableRow.id == table_id)).scalar()
        return None if found is None else str(found)

    def _on_round(self, ev: TournamentEvent) -> None:
        self._loop = asyncio.get_running_loop()
        for game_id, players in ev.games.items():
            notice = round_notice(ev.tournament_id, ev.name, ev.round, game_id)
            for p in dict.fromkeys(players):
                if p is not None:
                    self._spawn(self.deliver(p, notice), "notify-tournament")


def _text(value: str | Text) -> Localized:
    return Plain(value) if isinstance(value, str) else value


__all__ = ["Notifier", "OriginMiddleware", "request_origin"]
