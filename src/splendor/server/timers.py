"""The timers of games played with a clock (:mod:`.clocks` keeps the time): one task per
game, asleep until the running person's deadline, that times them out
(:meth:`.finisher.Finisher.leave_seat`) if the decision is still theirs. Bots are not
timed."""

from __future__ import annotations

import asyncio
import logging

from .clocks import GRACE
from .errors import ServiceError
from .finisher import Finisher
from .live import LiveGame
from .proxy import GameProxy
from .service_context import ServiceContext, retrieve

log = logging.getLogger("splendor.server")


class Timers:
    """Arms and rings the game clocks' timers.

    Args:
        ctx: the service's shared pieces (the wall clock).
        games: the live games (:meth:`resume_clocks` loads them).
        finisher: takes a person who ran out of time out of the game.
    """

    def __init__(self, ctx: ServiceContext, games: GameProxy, finisher: Finisher) -> None:
        self._ctx = ctx
        self._games = games
        self._finisher = finisher

    def arm(self, live: LiveGame) -> None:
        """(Re)start the timer of ``live``'s running seat (a person's; bots are not timed);
        stop it once the game is over."""
        if live.clock_task is not None and live.clock_task is not asyncio.current_task():
            live.clock_task.cancel()
        live.clock_task = None
        state = live.clock_state
        if state is None or live.finished or live.evicted or self._ctx.closed:
            return
        seat = state.running
        deadline = state.deadline()
        if seat is None or deadline is None or live.seats[seat].type != "human":
            return
        idx = len(live.moves)
        wall = self._ctx.wall

        async def ring() -> None:
            await asyncio.sleep(max(0.0, deadline - wall()) + GRACE + 0.05)
            await self.time_out(live, seat, idx)

        live.clock_task = asyncio.get_running_loop().create_task(ring(), name=f"clock:{live.id}")
        live.clock_task.add_done_callback(retrieve)

    async def time_out(self, live: LiveGame, seat: int, idx: int) -> bool:
        """The timer of ``live`` fired for ``seat`` at move ``idx``: if that decision is
        still ``seat``'s and its time is out, the player times out (2 players: loses by
        forfeit; 3-4 players: a bot plays on, the player ranks last). Returns whether it
        did."""
        async with live.lock:
            state = live.clock_state
            if (
                state is None
                or live.finished
                or len(live.moves) != idx
                or live.current_player != seat
                or live.seats[seat].type != "human"
            ):
                return False
            if not state.late(seat, self._ctx.wall()):
                self.arm(live)  # woken early
                return False
            reason = f"{live.seats[seat].name} ran out of time"
            try:
                await self._finisher.leave_seat(live, seat, reason)
            except ServiceError as e:
                log.warning("game %s: the time-out of seat %d waits: %s", live.id, seat, e)
                return False
            return True

    async def resume_clocks(self) -> int:
        """Load every game in progress with a clock, so its timer runs (from now: the time
        the server was down is charged to nobody), and emit ``game.resumed`` for each
        unfinished one (:mod:`.events`: the notifier re-arms its deadline reminder).
        Returns how many were loaded; a database error is logged (the games load on their
        next request)."""
        try:
            ids = await asyncio.to_thread(self._ctx.storage.active_clock_games)
            for game_id in ids:
                live = await self._games.get(game_id)
                if not live.finished:
                    self._ctx.emit_game("game.resumed", live)
        except Exception:
            log.warning("the clocks of the games in progress were not resumed", exc_info=True)
            return 0
        return len(ids)


__all__ = ["Timers"]
