"""What the parts of the game service share (:class:`ServiceContext`: the database, the
hub, the bot pools, the clocks, the counters, the background tasks, the database's health)
and what a part asks of the service when a live game changed (:class:`Round`).

The game service (:class:`.service.GameService`) is the entry point the routes call; like
lichess's ``RoundAsyncActor``, it hands each job to a part of its own: loading and sync
(:mod:`.proxy`), creating (:mod:`.creation`), who sits where (:mod:`.seats`), moves
(:mod:`.moves`), the end of a game (:mod:`.finisher`), bot turns (:mod:`.bot_turns`),
timers (:mod:`.timers`), maintenance and expiry (:mod:`.expiry`), ratings
(:mod:`.rating_updates`) and what each viewer receives (:mod:`.views`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from typing import Any, Protocol

from . import bots as server_bots
from .events import Events, GameEvent
from .hub import Hub, Subscriber
from .live import Lifecycle, LiveGame
from .storage import Storage
from .writer import MoveWriter

log = logging.getLogger("splendor.server")

COUNTERS = ("bot_retries", "random_moves", "resumed", "loaded", "evicted", "deleted", "forfeited")
"""The names of :attr:`ServiceContext.counters`."""


def retrieve(task: asyncio.Future[Any]) -> None:
    """Mark the exception of a task nobody awaits any more as seen."""
    if not task.cancelled():
        task.exception()


class Round(Protocol):
    """What the parts ask of the game service after a live game changed: each is done by
    the part whose job it is (the service knows them all; the parts know only this)."""

    def publish(self, live: LiveGame, exclude: Subscriber | None = None) -> None:
        """Send every subscriber of ``live`` (but ``exclude``) its own fresh state."""

    def schedule_bot(self, live: LiveGame) -> bool:
        """Start ``live``'s bot turn if a bot is to move and none is running."""

    def arm_clock(self, live: LiveGame) -> None:
        """(Re)start the timer of ``live``'s running seat (stopped once it is over)."""

    def changed(self, live: LiveGame, *, ended: bool = False, remote: bool = False) -> None:
        """``live`` changed: publish it, start its bot turn, arm its timer, and (``ended``:
        it ended here) apply its ratings if it is rated; unless ``remote`` (another process
        made the change and told the others), emit ``game.moved`` or ``game.finished``."""


class ServiceContext:
    """The pieces every part of the game service uses (one per service).

    Args:
        storage, hub, pools, lifecycle: as :class:`.service.GameService`.
        clock: seconds for eviction (monotonic).
        now: the current UTC time for expiry.
        wall: wall-clock seconds for game clocks.
        events: the app's event bus (:mod:`.events`; default a bus of its own).

    Attributes:
        writer: the one writer of the database (:class:`.writer.MoveWriter`).
        counters: what supervision did so far (see :class:`.service.GameService`).
        closed: set once the service is closing: no new bot turn, timer or retry starts.
        background: the service's own tasks (resume, maintenance, syncs, ratings).
    """

    def __init__(
        self,
        storage: Storage,
        hub: Hub,
        pools: server_bots.BotPools,
        lifecycle: Lifecycle,
        *,
        clock: Callable[[], float],
        now: Callable[[], datetime],
        wall: Callable[[], float],
        events: Events | None = None,
    ) -> None:
        self.storage = storage
        self.events = events if events is not None else Events()
        self.hub = hub
        self.pools = pools
        self.lifecycle = lifecycle
        self.clock = clock
        self.now = now
        self.wall = wall
        self.writer = MoveWriter(storage)
        self.counters: dict[str, int] = dict.fromkeys(COUNTERS, 0)
        self.closed = False
        self.background: set[asyncio.Task[Any]] = set()
        self._db_down = False
        self._recovered: asyncio.Event | None = None

    def game_event(self, live: LiveGame) -> GameEvent:
        """What :mod:`.events` tells of ``live`` now."""
        deadline = turn = None
        cs = live.clock_state
        if cs is not None and cs.running is not None and live.result is None:
            end = cs.deadline()
            if end is not None:
                deadline = datetime.fromtimestamp(end, UTC)
                turn = float(cs.remaining[cs.running])
        state = live.state
        to_move = None if live.result is not None or state.is_terminal else state.current_player
        return GameEvent(
            game_id=live.id,
            game=live.game,
            num_players=live.num_players,
            move=len(live.moves),
            to_move=to_move,
            players=tuple(s.player_id if s.type == "human" else None for s in live.seats),
            bots=frozenset(s.seat for s in live.seats if s.type != "human"),
            clock=live.clock,
            deadline=deadline,
            turn_seconds=turn,
            rated=live.rated,
            result=live.result,
            at=self.now(),
        )

    def emit_game(self, kind: str, live: LiveGame) -> None:
        """Emit ``kind`` (``"game.started"``, ``"game.moved"``, ``"game.finished"``,
        ``"game.resumed"``) for ``live`` on the event bus."""
        self.events.emit(kind, self.game_event(live))

    def spawn(self, coro: Coroutine[Any, Any, Any], name: str) -> None:
        """Run ``coro`` as a background task of the service (cancelled when it closes)."""
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self.background.add(task)
        task.add_done_callback(self.background.discard)
        task.add_done_callback(retrieve)

    # ------------------------------------------------------------------ database health

    def database_down(self) -> None:
        """A commit failed: the next one that succeeds wakes the waiting retries."""
        self._db_down = True

    def database_back(self) -> None:
        """A commit succeeded: after a failure, wake every bot turn waiting to retry."""
        if self._db_down:
            self._db_down = False
            log.info("the database is back: the waiting bot turns are retried now")
            if self._recovered is not None:
                self._recovered.set()
                self._recovered = None

    async def wait_retry(self, failures: int) -> None:
        """Sleep the back-off of ``failures`` failures in a row (with jitter: 50-100 %),
        or less if a commit succeeds meanwhile (the database is back)."""
        delay = self.lifecycle.backoff(failures) * (0.5 + secrets.randbelow(501) / 1000)
        if self._recovered is None:
            self._recovered = asyncio.Event()
        try:
            await asyncio.wait_for(self._recovered.wait(), delay)
        except TimeoutError:
            pass


__all__ = ["COUNTERS", "Round", "ServiceContext", "retrieve"]
